"""IK affinities for openTSNE, separation scores, the t-SNE experiment, its figures and reproduction."""

import json

import numpy as np
import pytest
import scipy.sparse as sp
from openTSNE import TSNE

from ikviz import IsolationKernel, reproduce
from ikviz.data import w_gaussians
from ikviz.embedding import (IsolationKernelAffinities, auto_neighbours, knn_accuracy,
                             separation_scores, silhouette, trustworthiness)
from ikviz.experiments import tsne as exp
from ikviz.plots import tsne as plots

FAST = dict(exaggeration_iter=100, n_iter=150, frame_every=50)


@pytest.fixture(scope="module")
def blobs():
    rng = np.random.default_rng(3)
    X = np.vstack([rng.normal(0, 0.5, size=(120, 5)), rng.normal(4, 1.5, size=(120, 5))])
    return X, np.repeat([0, 1], 120)


def brute_topk(X, k, **kw):
    """Sorted top-k IK similarities of every row to the others, from the dense matrix."""
    K = IsolationKernel(**kw).fit(X).similarity(X)
    np.fill_diagonal(K, -1)
    return -np.sort(-K, axis=1)[:, :k]


# ------------------------------------------------------------------ affinities
@pytest.mark.parametrize("method", ["anne", "iforest"])
def test_neighbours_are_the_most_ik_similar_rows(blobs, method):
    X, _ = blobs
    ik = IsolationKernel(psi=16, t=50, method=method, random_state=1).fit(X)
    idx, sim = ik.index(X).neighbours(k=12)
    assert idx.shape == sim.shape == (len(X), 12)
    assert not np.any(idx == np.arange(len(X))[:, None])           # never itself
    assert np.all(np.diff(sim, axis=1) <= 0)                         # best first
    np.testing.assert_allclose(sim, brute_topk(X, 12, psi=16, t=50, method=method, random_state=1))
    K = ik.similarity(X)
    np.testing.assert_allclose(sim, np.take_along_axis(K, idx, axis=1))  # indices match their values


def test_joint_probabilities_are_symmetric_normalised_with_zero_diagonal(blobs):
    X, _ = blobs
    aff = IsolationKernelAffinities(X, psi=16, t=50, k_neighbours=10, random_state=0)
    P = aff.P
    assert sp.issparse(P) and P.shape == (len(X), len(X))
    assert abs(P - P.T).max() < 1e-15
    assert np.all(P.diagonal() == 0) and P.min() >= 0
    assert P.sum() == pytest.approx(1.0)
    assert P.getnnz(axis=1).max() <= 2 * 10
    # (p(j|i) + p(i|j)) / 2n: every row holds at least its own k neighbours' 1/2n share
    assert np.asarray(P.sum(axis=1)).ravel().min() >= 0.5 / len(X)


def test_unsymmetrised_rows_are_conditional_probabilities(blobs):
    X, _ = blobs
    P = IsolationKernelAffinities(X, psi=16, t=50, k_neighbours=10, symmetrize=False, random_state=0).P
    np.testing.assert_allclose(np.asarray(P.sum(axis=1)).ravel(), 1 / len(X))
    assert abs(P - P.T).max() > 0


def test_high_dimensional_shortcut_matches_the_plain_kernel():
    # d > n: the kernel computes Voronoi cells in the data's span; the neighbours must not change
    X, _ = w_gaussians(40, 200, seed=1)
    aff = IsolationKernelAffinities(X, psi=8, t=60, k_neighbours=9, random_state=4)
    ik_plain = IsolationKernel(psi=8, t=60, method="anne", random_state=4).fit(X)
    new = np.random.default_rng(0).normal(size=(5, X.shape[1]))
    P_new, idx, dist = aff.to_new(new, k_neighbours=9, return_distances=True)
    K_new = ik_plain.similarity(new, X)
    np.testing.assert_allclose(1 - dist, -np.sort(-K_new, axis=1)[:, :9])
    assert "_span" in vars(aff.kernel_)
    _, sim = aff.index_.neighbours(k=9)
    np.testing.assert_allclose(sim, brute_topk(X, 9, psi=8, t=60, method="anne", random_state=4))


def test_opentsne_fits_and_places_new_points(blobs):
    X, y = blobs
    aff = IsolationKernelAffinities(X, psi=16, t=100, random_state=0)
    emb = TSNE(n_iter=150, early_exaggeration_iter=100, random_state=0, n_jobs=1).fit(X, affinities=aff)
    assert knn_accuracy(np.asarray(emb), y) > 0.95
    rng = np.random.default_rng(9)
    new = np.vstack([rng.normal(0, 0.5, size=(5, 5)), rng.normal(4, 1.5, size=(5, 5))])
    P = aff.to_new(new)
    np.testing.assert_allclose(np.asarray(P.sum(axis=1)).ravel(), 1.0)
    placed = np.asarray(emb.transform(new, n_iter=50))    # openTSNE passes perplexity=5 -> 15 neighbours
    centres = np.array([np.asarray(emb)[y == c].mean(axis=0) for c in (0, 1)])
    nearest = np.argmin(((placed[:, None, :] - centres[None]) ** 2).sum(-1), axis=1)
    np.testing.assert_array_equal(nearest, np.repeat([0, 1], 5))


@pytest.mark.parametrize("n", [3, 10, 40, 64, 65, 100])  # psi = 64 is kept from 128 points on
def test_default_affinities_adapt_psi_to_small_n(n, blobs):
    """With psi=64 on 64 points or fewer every point used to be alone in its cell and P was empty."""
    X = blobs[0][np.r_[0:n // 2, 120:120 + n - n // 2]]
    with pytest.warns(UserWarning, match=f"psi=64 is too large for {n} points"):
        aff = IsolationKernelAffinities(X, random_state=0)
    assert aff.kernel_.psi_ == max(2, min(64, n // 2))
    P = aff.P
    assert P.shape == (n, n) and np.isclose(P.sum(), 1.0) and abs(P - P.T).max() < 1e-15
    assert aff.n_isolated_ == 0 and P.getnnz(axis=1).min() >= 1     # every point has a neighbour
    if n >= 10:
        init = np.random.default_rng(0).normal(scale=1e-4, size=(n, 2))
        emb = TSNE(n_iter=100, early_exaggeration_iter=50, random_state=0, n_jobs=1,
                   initialization=init).fit(X, affinities=aff)
        assert np.isfinite(np.asarray(emb)).all()
        assert knn_accuracy(np.asarray(emb), np.repeat([0, 1], [n // 2, n - n // 2]), k=3) >= 0.9


def test_auto_neighbours_follow_psi():
    assert auto_neighbours(1000, 100) == 30
    assert auto_neighbours(1000, 5) == 150           # capped
    assert auto_neighbours(1000, 800) == 15          # floor
    assert auto_neighbours(10, 2) == 9               # never more than n - 1


def test_bad_input_is_explained(blobs):
    X, _ = blobs
    bad = X.copy()
    bad[3, 1] = np.nan
    with pytest.raises(ValueError, match="NaN"):
        IsolationKernelAffinities(bad)
    with pytest.raises(ValueError, match="The 'k_neighbours' parameter of IsolationKernelAffinities.__init__ must be a str among"):
        IsolationKernelAffinities(X, k_neighbours=0)
    with pytest.raises(ValueError, match="less than the 20 points of data"):
        IsolationKernelAffinities(X[:20], psi=4, k_neighbours=25)
    with pytest.raises(ValueError, match=r"data has 2 row\(s\); t-SNE needs at least 3"):
        IsolationKernelAffinities(X[:2])
    with pytest.raises(ValueError, match="The 'psi' parameter"):
        IsolationKernelAffinities(X, psi=1.5)
    assert IsolationKernelAffinities(X, psi=np.int64(8), t=np.int32(10), random_state=0).kernel_.psi_ == 8
    aff = IsolationKernelAffinities(X, psi=16, t=20, random_state=0)
    with pytest.raises(ValueError, match="data has 3 features, but IsolationKernelAffinities is expecting 5"):
        aff.to_new(np.zeros((2, 3)))


# ---------------------------------------------------------------------- scores
def test_knn_accuracy_leaves_each_point_out():
    # each point's nearest other point has the other label: 0 without itself, 1 if it counted itself
    Y = np.array([[0.0, 0], [0.1, 0], [10, 0], [10.1, 0]])
    assert knn_accuracy(Y, [0, 1, 0, 1], k=1) == 0.0
    assert knn_accuracy(Y, [0, 0, 1, 1], k=1) == 1.0


def test_scores_on_separated_and_mixed_groups():
    rng = np.random.default_rng(0)
    Y = np.vstack([rng.normal(0, 1, (100, 2)), rng.normal(20, 1, (100, 2))])
    labels = np.repeat([0, 1], 100)
    assert knn_accuracy(Y, labels) == 1.0 and silhouette(Y, labels) > 0.85
    mixed = rng.permutation(labels)
    assert knn_accuracy(Y, mixed) < 0.7 and abs(silhouette(Y, mixed)) < 0.1
    assert trustworthiness(Y, Y) == pytest.approx(1.0)
    assert set(separation_scores(Y, labels, Y)) == {"knn_accuracy", "silhouette", "trustworthiness"}
    with pytest.raises(ValueError, match=r"labels has 199 label\(s\) but Y has 200 row\(s\)"):
        knn_accuracy(Y, labels[:-1])
    with pytest.raises(ValueError, match="two different labels"):
        silhouette(Y, np.zeros(200))
    with pytest.raises(ValueError, match="labels has 1 NaN"):
        knn_accuracy(Y, np.where(np.arange(200) == 150, np.nan, labels))
    with pytest.raises(ValueError, match="The 'k' parameter of knn_accuracy must be an int"):
        knn_accuracy(Y, labels, k=2.5)
    # the scores depend only on ratios of distances: any scale and offset gives the same numbers
    for far in (Y * 1e300, Y * 1e-300, Y + 1.7e9):
        assert knn_accuracy(far, labels) == 1.0
        assert silhouette(far, labels) == pytest.approx(silhouette(Y, labels), abs=1e-6)
        assert trustworthiness(far, Y) == pytest.approx(1.0)


# ------------------------------------------------------------------ experiment
def test_data_have_the_origin_and_the_right_spread():
    d = exp.load_data("w-gaussians-unequal", 3, 400, 0)
    assert d.X.shape == (801, 6) and d.origin == 800
    assert np.all(d.X[d.origin] == 0) and d.labels[d.origin] == exp.ORIGIN_LABEL
    assert d.X[:400, :3].std() == pytest.approx(1, abs=0.1) and d.X[400:800, 3:].std() == pytest.approx(3, abs=0.3)
    assert np.all(d.X[:400, 3:] == 0) and np.all(d.X[400:800, :3] == 0)
    real = exp.load_data("iris", 2, 500, 0)
    assert real.origin is None and real.X.min() == 0 and real.X.max() == 1
    old_link = exp.load_data("w_gaussians", 3, 20, 1)              # old spelling, same data
    np.testing.assert_array_equal(old_link.X, exp.load_data("w-gaussians", 3, 20, 1).X)
    assert old_link.name == "w-gaussians"
    with pytest.raises(ValueError, match="unknown dataset"):
        exp.load_data("nope")


def test_frames_record_the_optimisation_and_runs_are_seeded():
    seen = []
    kw = dict(dataset="w-gaussians", w=2, n_per_cluster=60, seed=5, psi=20, **FAST)
    e = exp.embed("ik", progress=lambda f, text: seen.append((f, text)), **kw)
    assert list(e.iterations) == [0, 50, 100, 150, 200, 250]
    assert e.frames.shape == (6, 121, 2) and np.allclose(e.frames[-1], e.coords, rtol=1e-5, atol=1e-4)
    # affinities first, then the optimisation's iterations, then the scores: the bar reaches its end only at the end
    share, scores = exp.stage_shares("ik", exp.load_data(*exp.data_spec("w-gaussians", 2, 60, 5)).X.shape[1])
    span = 1 - share - scores
    assert seen[0] == (0.0, "affinities…")
    # IK's affinities report their stages within the affinities' share (seconds each in high dimensions)
    stages = [(f, text) for f, text in seen if text.startswith("affinities: ")]
    assert [text for _, text in stages] == ["affinities: partitionings built", "affinities: cells",
                                            "affinities: neighbours"]
    assert [f for f, _ in stages] == pytest.approx([0.45 * share, 0.9 * share, share])
    seen = [seen[0]] + [r for r in seen[1:] if r not in stages]
    assert seen[1][0] == pytest.approx(share + span * 50 / 250) and seen[1][1] == "iteration 50 of 250"
    assert [round((f - share) / span * 250) for f, _ in seen[1:-1]] == list(e.iterations[1:len(seen) - 1])
    assert seen[-1] == (pytest.approx(1 - scores), "scores…")
    assert not np.allclose(e.frames[0], e.frames[-1])
    np.testing.assert_array_equal(exp.embed("ik", **kw).coords, e.coords)
    assert not np.array_equal(exp.embed("ik", **{**kw, "seed": 6}).coords, e.coords)


def test_run_end_to_end_shares_blocks_and_reports_both_kernels():
    """The real run on small data: both kernels at once, memoised blocks, progress in one convention."""
    from dataclasses import replace

    from ikviz.runner import RunMemo

    p = exp.Params(w=2, n_per_cluster=60, seed=5, perplexity=10.0, psi=20, **FAST)
    reports, memo = [], RunMemo()
    r = exp.run(p, memo=memo, progress=lambda f, text: reports.append((f, text)))
    assert r.labels.shape == (121,) and r.origin == 120 and r.classes == ("red cluster", "blue cluster")
    for kernel in exp.KERNELS:                # threads change neither the start nor the result
        alone = exp.embed(kernel, **exp.kernel_params(p, kernel))
        np.testing.assert_array_equal(r.embeddings[kernel].coords, alone.coords)
        assert r.embeddings[kernel].frames.shape == (6, 121, 2)
    assert r.embeddings["gk"].info["perplexity"] == 10 and r.embeddings["ik"].info["psi"] == 20
    # one data set (asked for by the run and both kernels), two affinity matrices, two embeddings
    assert len(memo._results) == 5
    fractions = [f for f, _ in reports]
    assert fractions[0] == 0 and fractions[-1] == 1 and all(0 <= f <= 1 for f in fractions)
    assert any(t.startswith("GK: iteration") and " · IK: " in t for _, t in reports)
    assert all(b >= a - 1e-9 for a, b in zip(fractions, fractions[1:]))   # never back
    # a new psi recomputes the IK side only: its affinities and its embedding
    reports.clear()
    r2 = exp.run(replace(p, psi=10), memo=memo, progress=lambda f, text: reports.append((f, text)))
    assert len(memo._results) == 7 and r2.embeddings["gk"] is r.embeddings["gk"]
    # GK, found in the memo, counts as done: half the bar at once, IK's iterations the other half (GK's half
    # stayed empty to the end: the bar stood at 0.55 when IK finished)
    ik_midway = [f for f, t in reports if "IK: iteration 150 of 250" in t]
    assert ik_midway and 0.6 < ik_midway[0] < 0.95 and "GK: done" in reports[-2][1]
    assert not np.array_equal(r2.embeddings["ik"].coords, r.embeddings["ik"].coords)
    with pytest.raises(ValueError, match="unknown kernel"):
        exp.embed_pair({"cosine": exp.kernel_params(p, "gk")}, memo, lambda f, t: None)


def test_settings_too_large_for_the_data_are_capped_and_reported():
    kw = dict(dataset="w-gaussians", w=2, n_per_cluster=30, **FAST)
    assert exp.embed("ik", psi=800, **kw).info["psi"] == 30           # n // 2 of 61 points
    assert exp.embed("gk", perplexity=800, **kw).info["perplexity"] == pytest.approx(20)
    with pytest.raises(ValueError, match="unknown kernel"):
        exp.affinities("cosine", np.zeros((5, 2)))


def test_figures_mark_the_origin_and_animate_both_panels():
    r = exp.run(exp.Params(w=2, n_per_cluster=50, **FAST))
    fig = plots.result_figure(r, "ik")
    origin = next(tr for tr in fig.data if tr.name == "origin")
    assert len(origin.x) == 1 and origin.x[0] == pytest.approx(r.embeddings["ik"].coords[r.origin, 0])
    assert "5-NN acc." in fig.layout.title.text
    anim = plots.animation_figure(r)
    assert len(anim.frames) == len(r.embeddings["gk"].iterations)
    assert len(anim.frames[2].data) == 4 and anim.frames[2].layout.xaxis2.range is not None
    np.testing.assert_allclose(anim.frames[-1].data[2].x, r.embeddings["ik"].frames[-1][:-1, 0])
    big = plots.embedding_figure(np.zeros((5000, 2)), np.r_[np.zeros(4999, int), -1], ("a",), 4999, "t",
                                 max_points=1000)
    assert len(big.data[0].x) == 999 and len(big.data[1].x) == 1


def fake_embed(kernel, **settings):
    return exp.Embedding(kernel, None, None, None,
                         {"knn_accuracy": 1.0, "silhouette": 0.5, "settings": settings}, {})


def _recording_memo(calls):
    def memo(fn):
        if fn is exp.load_data:   # the search reads the data's size once
            return fn
        assert fn is exp.embed
        def block(kernel, **kw):
            kw.pop("progress")(1.0, "finished")
            calls.append((kernel, kw.get("perplexity"), kw.get("psi")))
            return fake_embed(kernel, **kw)
        return block
    return memo


def test_search_covers_the_paper_range_for_both_kernels():
    calls, reports = [], []
    out = exp.run_search(exp.Params(psi=7), memo=_recording_memo(calls),
                         max_centres_bytes=exp.PAPER_CENTRES_BYTES, progress=lambda f, text: reports.append((f, text)))
    assert set(out) == {"gk", "ik"} and sorted(out["gk"]) == list(exp.PAPER_SEARCH)
    assert ("gk", 800.0, None) in calls and ("ik", None, 5) in calls and len(calls) == 18
    assert out["ik"][800]["settings"]["psi"] == 800 and out["ik"][800]["settings"]["t"] == 200
    # only the ψ over a server's bound carry the raised one (the others keep the page's keys)
    assert out["ik"][800]["settings"]["max_centres_bytes"] == exp.PAPER_CENTRES_BYTES
    assert "max_centres_bytes" not in out["ik"][250]["settings"]
    assert reports[-1] == (1.0, "done") and [f for f, _ in reports] == sorted(f for f, _ in reports)
    assert any(text.startswith("perplexity and ψ = 250: GK:") for _, text in reports)
    fig = plots.search_figure(out, 5000)
    assert len(fig.data) == 4


def test_tables_collect_every_view_and_the_search():
    reports = []
    table = exp.run_tables(exp.Params(n_per_cluster=20, psi=10, t=50, exaggeration_iter=20, n_iter=30),
                           tables={"w-gaussians": (1, 2), "w-gaussians-unequal": (2,)}, search_w=2,
                           search_values=(5, 10), progress=lambda f, text: reports.append((f, text)))
    assert {d: sorted(by_w) for d, by_w in table.results.items()} == {"w-gaussians": [1, 2],
                                                                     "w-gaussians-unequal": [2]}
    assert table.results["w-gaussians"][2].params.w == 2
    unequal = table.results["w-gaussians-unequal"][2]
    assert table.separation["w-gaussians-unequal"]["ik"][2] is unequal.embeddings["ik"].scores
    assert sorted(table.search["gk"]) == [5, 10] and table.search_w == 2
    assert reports[-1] == (1.0, "done") and any(t.startswith("w-gaussians-unequal, w = 2: ") for _, t in reports)
    assert any(t.startswith("search range, w = 2: ") for _, t in reports)
    assert len(plots.figures(table)) == 2 + 3 * len(exp.COLUMNS)    # scores, search, 3 views x a panel per column


@pytest.mark.slow
def test_ik_separates_the_default_w_gaussians_better_than_gk():
    """The paper's effect on the page's default view (w = 5,000, 1,001 points; Table 5)."""
    r = exp.run(exp.Params())
    assert r.params.w == 5000 and len(r.labels) == 1001
    gk, ik = r.embeddings["gk"].scores, r.embeddings["ik"].scores
    assert ik["knn_accuracy"] >= 0.98 and ik["knn_accuracy"] >= gk["knn_accuracy"]
    assert ik["silhouette"] >= 0.8
    # not the paper's result: openTSNE's GK also separates, only far more loosely (reported on the page)
    assert gk["knn_accuracy"] >= 0.95 and ik["silhouette"] > gk["silhouette"] + 0.25
    assert sum(ik["origin_neighbours"]) == exp.ORIGIN_NEIGHBOURS


@pytest.mark.slow
def test_reproduce_writes_separation_per_kernel_and_w(tmp_path):
    paths = reproduce.reproduce("tsne-wgaussians", tmp_path, quick=True)
    payload = json.loads(paths["json"].read_text())
    sep = payload["separation"]
    assert set(sep) == set(exp.COLUMNS) == {"gk", "ik", "fitsne"} and set(sep["ik"]) == {str(w) for w in exp.PAPER_W}
    assert set(payload["separation_unequal_variance"]["gk"]) == {"1", "2", "100"}
    assert set(payload["search_range"]["scores"]["gk"]) == {str(v) for v in exp.PAPER_SEARCH}
    coords = payload["embeddings"]["w-gaussians"]["5000"]["ik"]["coords"]
    assert len(coords) == 201 and sep["ik"]["5000"]["knn_accuracy"] >= 0.95
    assert paths["html"].read_text().count("<div") >= 2


def test_the_data_stage_takes_its_measured_share_of_the_bar():
    """The w-Gaussians at w = 5,000 took 0.12-0.16 of the view making its data: a fixed 0.1 made the store's
    first estimates 2.1-2.2 times the time actually left; a small synthetic set's data is a hundredth."""
    from ikviz.experiments.tsne import Params, data_share, run

    p = Params(w=2, n_per_cluster=30, psi=10, t=50, exaggeration_iter=20, n_iter=30)
    seen = []
    run(p, progress=lambda fraction, text="": seen.append(fraction))
    after_data = [f for f in seen if f > 0][0]
    assert after_data == data_share(p.dataset, p.w) == 0.01
    assert data_share("w-gaussians", 5000) > 10 * data_share("w-gaussians", 2)
    assert seen == sorted(seen) and seen[-1] == 1.0


def test_a_servers_search_leaves_out_the_psi_over_its_centres_bound_and_says_so():
    from ikviz._limits import MAX_IK_CENTRES_BYTES, ik_centres_bytes

    calls = []
    out = exp.run_search(exp.Params(), memo=_recording_memo(calls))   # w = 5,000, 500 points per cluster
    assert ik_centres_bytes(500, 200, 5000, 1001) > MAX_IK_CENTRES_BYTES >= ik_centres_bytes(250, 200, 5000, 1001)
    assert sorted(out["gk"]) == list(exp.PAPER_SEARCH)
    assert sorted(out["ik"]) == [v for v in exp.PAPER_SEARCH if v < 500] and len(calls) == 16
    assert plots.search_note(out).startswith("ψ = 500, 800: not run here.")
    rows = plots.search_table(out)
    assert [r["setting"] for r in rows] == list(exp.PAPER_SEARCH)
    assert rows[-1]["IK knn_accuracy"] is None and rows[-1]["GK knn_accuracy"] == 1.0
    assert len(plots.search_figure(out, 5000).data) == 4
    # the bound is the one affinities() enforces: over it, the fit is refused before it starts
    X = np.zeros((1001, 5000))
    with pytest.raises(ValueError, match="over the limit of 512.0 MB"):
        exp.affinities("ik", X, psi=500, t=200)


def test_the_paper_size_reproduction_runs_the_whole_search_list():
    from ikviz._limits import ik_centres_bytes

    assert reproduce.get("tsne-wgaussians").run is exp.run_paper_tables
    assert ik_centres_bytes(500, 200, 5000, 1001) <= exp.PAPER_CENTRES_BYTES
