"""Curse-of-dimensionality experiments: paper effects on small seeded data, reproducibility, the CLI
entries and the page (AppTest)."""

import json

import numpy as np
import pytest
import apptest

from ikviz import reproduce
from ikviz.data import cluster_queries, dense_sparse_clusters
from ikviz.experiments import dimensionality as dim
from ikviz.experiments import indexing as ix

PAGE = "curse_of_dimensionality"
SMALL = dict(n_per_cluster=200, measures=("gk", "ik", "lp2"), t_values=(1, 10, 100), t_trials=2)


@pytest.fixture(scope="module")
def small_instability():
    return dim.run_instability(dim.InstabilityParams(d_values=(10, 3000), **SMALL))


def test_dataset_has_a_dense_and_a_sparse_cluster_and_two_queries():
    X, y = dense_sparse_clusters(50, 300, seed=1)
    assert X.shape == (600, 50) and np.bincount(y).tolist() == [300, 300]
    assert X[y == 1].std() > 1.7 * X[y == 0].std()
    Q = cluster_queries(50)
    assert np.allclose(Q[1], X[y == 1].mean(axis=0), atol=0.5)
    with pytest.raises(ValueError, match="sigma_sparse"):
        dense_sparse_clusters(5, sigma_sparse=0)


def test_gk_becomes_unstable_with_d_while_ik_does_not(small_instability):
    s = dim.instability_summary(small_instability, eps=0.05)
    gk, ik = s["N_eps"]["gk"]["between"], s["N_eps"]["ik"]["between"]
    assert gk[10] <= 3 and gk[3000] >= 100          # of 400 points
    assert ik[3000] <= gk[3000] / 4
    # GK's dissimilarities concentrate for the between query; IK's spread does not shrink
    v = s["variance_by_query"]
    assert v["gk"]["between"][3000] < 0.6 * v["gk"]["between"][10]
    assert v["ik"]["between"][3000] > 0.6 * v["ik"]["between"][10]


def test_ik_n_eps_falls_as_t_grows(small_instability):
    curves = dim.instability_summary(small_instability, eps=0.005)["N_eps_vs_t"]
    assert set(curves) == {"data", "uniform"}
    for source in curves.values():
        for q in source.values():
            assert q["t"] == [1, 10, 100]
            assert q["mean"][0] > 5 * q["mean"][-1]


def test_n_eps_window_narrower_than_one_ik_step_counts_only_the_top_tie(small_instability):
    S = small_instability.similarities["ik"][3000]
    top = S.max(axis=1)
    # eps * (1 - max) < 1/t: N_eps is exactly the number of points tied at the maximum
    counts = dim.instability_summary(small_instability, eps=0.005)["N_eps"]["ik"]
    assert counts["between"][3000] == int((S[0] == top[0]).sum())
    assert counts["sparse_centre"][3000] == int((S[1] == top[1]).sum())


def test_ik_partitionings_are_a_prefix_of_a_longer_pool():
    kw = dict(n_per_cluster=50, seed=3)
    short = dim.ik_same_cell("data", 20, psi=8, pool=60, **kw)
    long = dim.ik_same_cell("data", 20, psi=8, pool=130, **kw)
    assert short.shape == (2, 100, 60) and (long[:, :, :60] == short).all()
    assert not (dim.ik_same_cell("uniform", 20, psi=8, pool=60, **kw) == short).all()
    S = dim.query_similarities("ik", 20, psi=8, t=60, **kw)
    assert np.allclose(S, short.mean(axis=2))


def test_instability_is_seeded():
    p = dim.InstabilityParams(d_values=(20,), n_per_cluster=50, measures=("gk", "snn", "ag"), t_values=(1, 5),
                              t_trials=1)
    a, b = dim.run_instability(p), dim.run_instability(p)
    c = dim.run_instability(dim.InstabilityParams(**{**p.__dict__, "seed": 1}))
    assert all(np.array_equal(a.similarities[m][20], b.similarities[m][20]) for m in p.measures)
    assert not np.array_equal(a.similarities["gk"][20], c.similarities["gk"][20])


def test_bad_parameters_are_reported():
    with pytest.raises(ValueError, match="unknown measure"):
        dim.run_instability(dim.InstabilityParams(d_values=(5,), measures=("gauss",)))
    with pytest.raises(ValueError, match="d_values"):
        dim.run_hubness(dim.HubnessParams(d_values=()))
    with pytest.raises(ValueError, match="pool has"):
        dim.t_curve(np.zeros((2, 5, 10), dtype=bool), (1, 20), 1, 0.01)


def test_gk_has_hubs_in_high_dimensions_ik_much_less():
    r = dim.run_hubness(dim.HubnessParams(d_values=(3, 100), n=800))
    s = dim.hubness_summary(r)["skewness"]
    assert s["gk"][100] > 2 * s["gk"][3] and s["gk"][100] > 1.5
    assert s["ik"][100] < 0.6 * s["gk"][100]
    for occ in (o for by_d in r.occurrences.values() for o in by_d.values()):
        assert occ.sum() == 800 * 5


def test_indexing_times_and_precision_on_a_small_dataset():
    r = ix.run(ix.Params(dataset="wine", n_max=150, psi=8, t=50))
    assert r.n == 150 and r.d == 13 and set(r.rows) == {"distance", "ik_sparse", "ik_dense", "lk"}
    for m, row in r.rows.items():
        assert row["same_result"], m           # brute force and the ball-tree option agree
        assert 0 <= row["precision_at_5"] <= 1 and row["brute_s"] > 0 and row["balltree_s"] > 0
        assert row["tree_over_brute"] == pytest.approx(row["balltree_s"] / row["brute_s"])
    for m in ("ik_sparse", "ik_dense"):
        assert r.rows[m]["dims"] == 50 * 8 and r.rows[m]["map_s"] > 0 == r.rows["distance"]["map_s"]
    assert r.rows["ik_sparse"]["precision_at_5"] == r.rows["ik_dense"]["precision_at_5"]
    assert r.rows["distance"]["precision_at_5"] > 0.6   # wine classes are well separated once scaled
    with pytest.raises(ValueError, match="unknown dataset"):
        ix.load("no-such-data")


def test_the_ball_tree_option_falls_back_to_brute_force_on_the_sparse_ik_map_only():
    s = ix.summary(ix.run(ix.Params(dataset="wine", n_max=120, psi=8, t=40)))
    sparse = s["methods"]["ik_sparse"]
    assert sparse["sparse_input"] and sparse["fallback"] and sparse["fit_method"] == "brute"
    assert ix.SPARSE_FALLBACK_WARNING in sparse["warning"] and sparse["distance_share"] is None
    for m in ("distance", "ik_dense", "lk"):   # a real tree, which counted its distance evaluations
        row = s["methods"][m]
        assert row["fit_method"] == "ball_tree" and not row["fallback"] and row["warning"] is None, m
        assert row["distance_share"] > 0, m
    assert s["fallback"] == {"distance": False, "ik_sparse": True, "ik_dense": False, "lk": False}
    assert set(s["tree_over_brute"]) == set(ix.METHODS)


def test_every_ik_path_finds_the_same_neighbours():
    k, kw = 5, dict(n_max=150, d=10, seed=0, psi=8, t=50)
    F_sparse, _ = ix.representation("ik_sparse", "wine", **kw)
    F_dense, _ = ix.representation("ik_dense", "wine", **kw)
    assert F_sparse.format == "csr" and isinstance(F_dense, np.ndarray)
    assert np.array_equal(F_sparse.toarray(), F_dense)
    runs = {"sparse": ix.neighbours(F_sparse, k), "dense": ix.neighbours(F_dense, k)}
    assert runs["sparse"]["fit_method"] == "brute" and runs["dense"]["fit_method"] == "ball_tree"
    paths = [runs[r][a] for r in runs for a in ("brute", "ball_tree")]
    # exact search: the same k-th distances on every path ...
    for dist, _ in paths[1:]:
        assert np.allclose(dist, paths[0][0], atol=1e-9)
    # ... and the same neighbours wherever no tie straddles the k-th place
    from sklearn.neighbors import NearestNeighbors
    wide, _ = NearestNeighbors(n_neighbors=k + 1).fit(F_dense).kneighbors()
    clear = wide[:, k - 1] < wide[:, k] - 1e-9
    assert clear.sum() >= 20
    for _, ind in paths[1:]:
        assert all(set(a) == set(b) for a, b in zip(ind[clear], paths[0][1][clear]))


def test_both_eps_views_come_from_one_run_without_recomputing(monkeypatch):
    calls = []
    real = dim.fit_similarity
    monkeypatch.setattr(dim, "fit_similarity", lambda m, *a, **kw: calls.append(m) or real(m, *a, **kw))
    numbers = reproduce.payload("instability", quick=True, d_values=(10, 50), n_per_cluster=40,
                                measures=("gk", "lk", "ik"), t_values=(1, 4), t_trials=1)
    assert sorted(calls) == ["gk", "gk", "lk", "lk"]   # each (measure, d) once, though two eps are reported
    assert set(numbers["N_eps_by_eps"]) == {"0.005", "0.05"}
    for eps, table in numbers["N_eps_by_eps"].items():
        assert set(table) == {"gk", "lk", "ik"} and set(table["gk"]) == {"10", "50"}
        assert table == {m: v["between"] for m, v in numbers["N_eps_by_eps_and_query"][eps].items()}
    wide, narrow = numbers["N_eps_by_eps"]["0.05"], numbers["N_eps_by_eps"]["0.005"]
    assert all(wide[m][d] >= narrow[m][d] for m in wide for d in wide[m])   # a wider window holds more


def test_neps_panels_name_both_settings_and_emphasise_gk_and_ik(small_instability):
    from ikviz.plots import dimensionality as plots

    views = dim.instability_views(small_instability)
    assert list(views) == [dim.PAPER_EPS, dim.VISIBLE_EPS]
    fig = plots.neps_by_eps_figure(views, dim.EPS_VIEWS)
    titles = " ".join(a.text for a in fig.layout.annotations)
    assert "paper's setting: ε = 0.005" in titles and "where the effect shows: ε = 0.05" in titles
    assert len(fig.data) == 2 * 2 * len(SMALL["measures"])
    for tr in fig.data:
        strong = tr.name in ("GK", "IK") or tr.legendgroup in ("gk", "ik")
        assert (tr.line.width > 3 and tr.opacity == 1) if strong else (tr.line.width < 2 and tr.opacity < 0.5)
    # the legend lists the emphasised measures first (drawn last, on top): a projected legend column scrolls
    shown = [tr.legendgroup for tr in fig.data if tr.showlegend]
    listed = shown[::-1] if fig.layout.legend.traceorder == "reversed" else shown
    assert set(listed[:2]) == {"gk", "ik"}
    # the columns differ: eps = 0.05 counts more GK neighbours at d = 3000 than eps = 0.005
    gk = {e: v["N_eps"]["gk"]["between"][3000] for e, v in views.items()}
    assert gk[dim.VISIBLE_EPS] > 10 * gk[dim.PAPER_EPS]


def test_reproduce_writes_the_promised_json_keys(tmp_path):
    paths = reproduce.reproduce("hubness", tmp_path, quick=True, d_values=(3, 10), n=300)
    hub = json.loads(paths["json"].read_text())
    assert set(hub["skewness"]) == {"gk", "ik"} and set(hub["skewness"]["gk"]) == {"3", "10"}
    paths = reproduce.reproduce("instability", tmp_path, quick=True, d_values=(10, 50), n_per_cluster=60,
                                measures=("gk", "ik"), t_values=(1, 4))
    inst = json.loads(paths["json"].read_text())
    assert inst["N_eps"]["ik"]["between"]["50"] >= 1 and "sparse_centre" in inst["N_eps"]["gk"]
    assert set(inst["variance"]["gk"]) == {"10", "50"}
    assert set(inst["N_eps_by_eps"]) == set(inst["eps_views"]) == {"0.005", "0.05"}
    assert inst["eps_views"]["0.005"] == "paper's setting: ε = 0.005"
    assert set(inst["N_eps_vs_t"]) == {"1", "4"} and len(inst["N_eps_vs_t"]["4"]) == 2
    assert set(inst["N_eps_vs_t_by_eps"]["0.05"]) == {"data", "uniform"}
    assert inst["paper"]["eps"] == 0.005 and "Only IK has distinguishability" in inst["paper"]["summary"]
    assert "non-zero constant" in inst["paper"]["variance"]
    assert "<h1>instability</h1>" in paths["html"].read_text()
    paths = reproduce.reproduce("indexing", tmp_path, quick=True, dataset="wine", n_max=100, t=20)
    idx = json.loads(paths["json"].read_text())
    for m in ("distance", "ik_sparse", "ik_dense", "lk"):
        assert {"brute_s", "balltree_s", "tree_over_brute", "fit_method", "fallback", "precision_at_5"} <= set(idx[m])
    assert idx["fallback"]["ik_sparse"] and not idx["fallback"]["ik_dense"]
    assert set(idx["tree_over_brute"]) == {"distance", "ik_sparse", "ik_dense", "lk"}
    assert idx["paper"]["ik_brute_s"]["Ijcnn1"] == 706 and idx["paper"]["n_within_7_5_percent"] == 8
    html = paths["html"].read_text()
    assert html.startswith("<!DOCTYPE html>") and "<h1>indexing</h1>" in html and "plotly" in html


# ------------------------------------------------------------------ the page
def open_page(**query):
    at = apptest.open_page(PAGE, **query)
    return at


def test_instability_page_renders_and_eps_changes_the_numbers():
    at = open_page(d_max="100", trials="1", t="50")
    assert not at.error and not at.exception and len(apptest.charts(at)) == 4
    table = apptest.tables(at)[0]
    assert {"N_eps q_i, ε=0.005 (d=100)", "N_eps q_i, ε=0.05 (d=100)"} <= set(table.columns)
    text = " ".join(m.value for m in at.markdown)
    assert "paper's setting: ε = 0.005" in text and "where the effect shows: ε = 0.05" in text
    before = table.copy()
    at.select_slider(key="_w_eps").set_value(0.2).run()
    assert not at.exception and at.query_params["eps"] == "0.2"
    assert not before.equals(apptest.tables(at)[0])
    assert "N_eps q_i, ε=0.2 (d=100)" in apptest.tables(at)[0].columns
    assert any("1/t" in m.value for m in at.markdown)


def test_url_restores_settings_and_ignores_bad_values():
    at = open_page(d_max="30", trials="1", t="50", eps="0.05", psi="banana", sigma="5")
    assert at.select_slider(key="_w_eps").value == 0.05
    assert at.select_slider(key="_w_psi").value == 16       # not an option: default
    assert at.select_slider(key="_w_sigma").value == 5
    assert not at.error


def test_hubness_and_indexing_sections_render():
    at = open_page(section="hubness", n_hub="500", hd3="20")
    assert not at.error and len(apptest.charts(at)) == 1
    assert at.query_params["section"] == "hubness"
    at.slider(key="_w_k").set_value(3).run()
    assert not at.exception and at.query_params["k"] == "3"
    at = open_page(section="indexing", dataset="wine", n_max="200", idx_t="50")
    assert not at.error and not at.exception and len(apptest.charts(at)) == 1
    table = apptest.tables(at)[0]
    assert len(table) == 4
    assert table["scikit-learn ran"].tolist() == ["ball_tree", "brute force (no tree)", "ball_tree", "ball_tree"]
    assert any("cannot use tree with sparse input" in m.value for m in at.markdown)


def test_a_new_eps_or_a_larger_d_reuses_every_block_already_computed():
    import sys
    from dataclasses import replace
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "app"))
    from store import ResultsStore

    store = ResultsStore(workers=1)
    p = dim.InstabilityParams(d_values=(10, 30), n_per_cluster=50, t=20, t_values=(1, 5), t_trials=2)
    first = dim.run_instability(p, memo=store.memo)
    blocks = store.computed
    again = dim.run_instability(replace(p, eps=0.05), memo=store.memo)
    assert store.computed == blocks  # eps is only read by the summary
    assert dim.instability_summary(again, 0.05) != dim.instability_summary(first, 0.005)
    dim.run_instability(replace(p, d_values=(10, 30, 100)), memo=store.memo)
    # d = 100 adds its own tables, data and IK chunks; d = 10 and 30 come back from the store
    new = store.computed - blocks
    assert 0 < new <= len(p.measures) + 1 + 2 * 2 + 2 * 2
    assert store.hits > 0


def test_page_in_presentation_mode_and_with_the_paper_eps_on_both_sides():
    at = open_page(d_max="30", trials="1", t="50", eps="0.005", present="1")
    assert not at.error and not at.exception and len(apptest.charts(at)) == 1  # one of four at a time
    assert len(at.radio(key="_w_fig").options) == 4
    columns = list(apptest.tables(at)[0].columns)
    assert "N_eps q_i, ε=0.005 (d=30)" in columns and not any("ε=0.05 " in c for c in columns)
    at = open_page(section="indexing", dataset="wine", n_max="200", idx_t="50", present="1")
    assert not at.error and not at.exception and len(apptest.tables(at)[0]) == 4
