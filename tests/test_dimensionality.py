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
    assert r.n == 150 and r.d == 13 and set(r.rows) == {"distance", "ik", "lk"}
    for m, row in r.rows.items():
        assert row["same_result"], m           # brute force and ball tree agree
        assert 0 <= row["precision_at_5"] <= 1 and row["brute_s"] > 0 and row["balltree_s"] > 0
        assert row["distance_share"] > 0
    assert r.rows["ik"]["dims"] == 50 * 8 and r.rows["ik"]["map_s"] > 0 == r.rows["distance"]["map_s"]
    assert r.rows["distance"]["precision_at_5"] > 0.6   # wine classes are well separated once scaled
    with pytest.raises(ValueError, match="unknown dataset"):
        ix.load("no-such-data")


def test_reproduce_writes_the_promised_json_keys(tmp_path):
    paths = reproduce.reproduce("hubness", tmp_path, quick=True, d_values=(3, 10), n=300)
    hub = json.loads(paths["json"].read_text())
    assert set(hub["skewness"]) == {"gk", "ik"} and set(hub["skewness"]["gk"]) == {"3", "10"}
    paths = reproduce.reproduce("instability", tmp_path, quick=True, d_values=(10, 50), n_per_cluster=60,
                                measures=("gk", "ik"), t_values=(1, 4))
    inst = json.loads(paths["json"].read_text())
    assert inst["N_eps"]["ik"]["between"]["50"] >= 1 and "sparse_centre" in inst["N_eps"]["gk"]
    assert set(inst["variance"]["gk"]) == {"10", "50"}
    paths = reproduce.reproduce("indexing", tmp_path, quick=True, dataset="wine", n_max=100, t=20)
    idx = json.loads(paths["json"].read_text())
    for m in ("distance", "ik", "lk"):
        assert {"brute_s", "balltree_s", "precision_at_5"} <= set(idx[m])
    html = paths["html"].read_text()
    assert html.startswith("<!DOCTYPE html>") and "<h1>indexing</h1>" in html and "plotly" in html


# ------------------------------------------------------------------ the page
def open_page(**query):
    at = apptest.open_page(PAGE, **query)
    return at


def test_instability_page_renders_and_eps_changes_the_numbers():
    at = open_page(d_max="100", trials="1", t="50")
    assert not at.error and len(at.get("plotly_chart")) == 4
    before = at.dataframe[0].value.copy()
    at.select_slider(key="_w_eps").set_value(0.2).run()
    assert not at.exception and at.query_params["eps"] == "0.2"
    assert not before.equals(at.dataframe[0].value)
    assert any("1/t" in m.value for m in at.markdown)


def test_url_restores_settings_and_ignores_bad_values():
    at = open_page(d_max="30", trials="1", t="50", eps="0.05", psi="banana", sigma="5")
    assert at.select_slider(key="_w_eps").value == 0.05
    assert at.select_slider(key="_w_psi").value == 16       # not an option: default
    assert at.select_slider(key="_w_sigma").value == 5
    assert not at.error


def test_hubness_and_indexing_sections_render():
    at = open_page(section="hubness", n_hub="500", hd3="20")
    assert not at.error and len(at.get("plotly_chart")) == 1
    assert at.query_params["section"] == "hubness"
    at.slider(key="_w_k").set_value(3).run()
    assert not at.exception and at.query_params["k"] == "3"
    at = open_page(section="indexing", dataset="wine", n_max="200", idx_t="50")
    assert not at.error and len(at.get("plotly_chart")) == 1
    assert len(at.dataframe[0].value) == 3


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
