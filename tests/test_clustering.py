"""Clustering: density peaks by hand, streaming = in-memory, spectral / k-means helpers, the Fig. 2 effect."""

import json

import numpy as np
import pytest

from ikviz import IsolationKernel
from ikviz import clustering as cl
from ikviz.experiments import clustering as ex
from ikviz.kernels import adaptive_gaussian


# ------------------------------------------------------------------ density peaks by hand
def test_density_peaks_on_a_hand_checked_line():
    # points 0, 1, 2 and 10, 11 on a line; eps = 1.5
    X = np.array([[0.0], [1.0], [2.0], [10.0], [11.0]])
    graph = cl.decision_graph(cl.Distances(X), 1.5)
    # neighbours closer than 1.5: 0:{1}, 1:{0,2}, 2:{1}, 3:{4}, 4:{3}
    assert graph.rho[0].tolist() == [1, 2, 1, 1, 1]
    # density order: 1 first, then ties by index 0, 2, 3, 4
    assert graph.order[0].tolist() == [1, 0, 2, 3, 4]
    # 1 is densest: its largest distance (to 11) is 10; 3's nearest denser point is 2, at 8
    assert graph.delta[0].tolist() == [1.0, 10.0, 1.0, 8.0, 1.0]
    assert graph.parent[0].tolist() == [1, -1, 1, 2, 3]
    labels, centres = cl.assign(graph, 2)
    # rho * delta = 1, 20, 1, 8, 1: centres 1 and 3
    assert centres.tolist() == [1, 3]
    assert labels.tolist() == [0, 0, 0, 1, 1]


def test_density_peaks_uses_eps_as_a_fraction_of_the_largest_distance():
    X = np.array([[0.0], [1.0], [2.0], [10.0], [11.0]])
    labels, centres, graph = cl.density_peaks(cl.Distances(X), 2, eps_fraction=0.15)  # 0.15 * 11 = 1.65
    assert graph.eps[0] == pytest.approx(1.65)
    assert labels.tolist() == [0, 0, 0, 1, 1]
    one, _, _ = cl.density_peaks(cl.Distances(X), 1, eps_fraction=0.15)
    assert one.tolist() == [0] * 5


@pytest.fixture(scope="module")
def blobs():
    rng = np.random.default_rng(3)
    return np.vstack([rng.normal(0, 0.3, (60, 3)), rng.normal(2, 0.6, (50, 3))])


@pytest.mark.parametrize("measure", ["euclidean", "ik", "ag"])
def test_streamed_blocks_give_the_same_decision_graph(blobs, measure):
    ik = IsolationKernel(psi=16, t=50, random_state=0).fit(blobs)
    whole = cl.Distances(blobs, measure, kernel=ik, k=5)
    tiny = cl.Distances(blobs, measure, kernel=ik, k=5, block_bytes=8 * len(blobs) * 7)  # 7 rows a block
    assert whole.rows_per_block == len(blobs) and tiny.rows_per_block == 7
    eps = np.array([0.05, 0.2, 0.5]) * whole.max_distance()
    a, b = cl.decision_graph(whole, eps), cl.decision_graph(tiny, eps)
    assert tiny.max_distance() == pytest.approx(whole.max_distance())
    for name in ("rho", "delta", "parent", "order"):
        np.testing.assert_allclose(getattr(a, name), getattr(b, name), err_msg=name)
    # several cutoffs in one pass = one cutoff at a time
    single = cl.decision_graph(whole, eps[1])
    np.testing.assert_array_equal(single.rho[0], a.rho[1])
    np.testing.assert_allclose(single.delta[0], a.delta[1])


def test_ik_and_ag_distances_are_one_minus_the_kernels(blobs):
    ik = IsolationKernel(psi=8, t=40, method="iforest", random_state=1).fit(blobs)
    block = next(cl.Distances(blobs, "ik", kernel=ik).blocks())[1]
    np.testing.assert_allclose(block, 1 - ik.similarity(blobs))
    block = next(cl.Distances(blobs, "ag", k=5).blocks())[1]
    np.testing.assert_allclose(block, 1 - adaptive_gaussian(blobs, k=5), atol=1e-12)
    wide_ag = next(cl.Distances(np.hstack([blobs] * 6), "ag", k=5).blocks())[1]  # 18 features: BLAS path
    np.testing.assert_allclose(wide_ag, 1 - adaptive_gaussian(np.hstack([blobs] * 6), k=5), atol=1e-9)
    # the largest IK distance: proven 1 by a sampled pair (sharp kernel), or found by a full pass
    for psi, t in ((32, 20), (2, 60)):
        ik = IsolationKernel(psi=psi, t=t, random_state=0).fit(blobs)
        assert cl.Distances(blobs, "ik", kernel=ik).max_distance() == pytest.approx((1 - ik.similarity(blobs)).max())
    # many-feature data take the matrix-product path; it must agree with the direct loop
    wide = np.random.default_rng(0).normal(size=(30, 40))
    ref = np.sqrt(((wide[:, None] - wide[None]) ** 2).sum(-1))
    np.testing.assert_allclose(next(cl.Distances(wide).blocks())[1], ref, atol=1e-6)


def test_density_peaks_finds_two_separated_blobs(blobs):
    y = np.repeat([0, 1], [60, 50])
    for measure in ("euclidean", "ik"):
        ik = IsolationKernel(psi=4, t=100, random_state=0).fit(blobs)
        labels, _, _ = cl.density_peaks(cl.Distances(blobs, measure, kernel=ik), 2, 0.2)
        assert cl.scores(y, labels)["ami"] > 0.9, measure


def test_density_peaks_refuses_bad_input():
    X = np.array([[0.0], [1.0], [2.0]])
    with pytest.raises(ValueError, match="cannot make 5 clusters from 3 points"):
        cl.density_peaks(cl.Distances(X), 5)
    with pytest.raises(ValueError, match="positive integer"):
        cl.assign(cl.decision_graph(cl.Distances(X), 1.0), 0)
    with pytest.raises(ValueError, match="eps must be"):
        cl.decision_graph(cl.Distances(X), -1.0)
    with pytest.raises(ValueError, match="eps_fraction"):
        cl.density_peaks(cl.Distances(X), 2, eps_fraction=1.5)
    with pytest.raises(ValueError, match="nothing to cluster"):
        cl.density_peaks(cl.Distances(np.ones((4, 2))), 2)
    with pytest.raises(ValueError, match="fitted IsolationKernel"):
        cl.Distances(X, "ik")
    with pytest.raises(ValueError, match="measure must be one of"):
        cl.Distances(X, "cosine")
    with pytest.raises(ValueError, match="NaN"):
        cl.Distances([[0.0], [np.nan]])


# ------------------------------------------------------------------ spectral, k-means, scores
def test_spectral_and_kmeans_helpers(blobs):
    y = np.repeat([0, 1], [60, 50])
    for measure in ("ik", "gk", "ag"):
        K = cl.affinity(blobs, measure, psi=16, sigma=0.5, k=5)
        assert K.shape == (110, 110) and np.allclose(np.diag(K), 1.0)
        assert cl.scores(y, cl.spectral_clustering(K, 2, seed=0))["ami"] > 0.9, measure
    F = cl.feature_map(blobs, "ik", psi=16, t=100)
    assert F.shape == (110, 1600) and F.nnz == 110 * 100
    assert cl.scores(y, cl.kmeans(F, 2))["ami"] > 0.9
    assert cl.spectral_clustering(cl.affinity(blobs, "gk"), 1).tolist() == [0] * 110


def test_helpers_refuse_degenerate_input(blobs):
    with pytest.raises(ValueError, match="square"):
        cl.spectral_clustering(np.ones((3, 4)), 2)
    with pytest.raises(ValueError, match="negative"):
        cl.spectral_clustering(-np.eye(3), 2)
    with pytest.raises(ValueError, match="cannot make 200 clusters from 110 points"):
        cl.kmeans(blobs, 200)
    with pytest.raises(ValueError, match="single class"):
        cl.scores(np.zeros(5), np.arange(5))
    with pytest.raises(ValueError, match="has 5 labels but the clustering has 4"):
        cl.scores(np.arange(5), np.arange(4))
    with pytest.raises(ValueError, match="every feature is constant"):
        cl.minmax(np.full((5, 3), 2.0))
    with pytest.raises(ValueError, match="sigma"):
        cl.affinity(blobs, "gk", sigma=0)
    with pytest.raises(ValueError, match="kind must be one of"):
        cl.feature_map(blobs, "pca")


def test_match_labels_renames_clusters_after_their_classes():
    y = np.array([0, 0, 0, 1, 1, 2, 2])
    assert cl.match_labels(y, [7, 7, 7, 3, 3, 5, 5]).tolist() == y.tolist()
    # a fourth cluster has no class left: it gets the next free name
    assert cl.match_labels(y, [1, 1, 9, 0, 0, 4, 4]).tolist() == [0, 0, 3, 1, 1, 2, 2]
    assert cl.match_labels(y, [0, 0, 0, 0, 0, 1, 1]).tolist() == [0, 0, 0, 0, 0, 2, 2]


def test_w_gaussians_view_puts_each_cluster_on_its_own_axis():
    data = ex.Data("w_gaussians", w=5, n_per_cluster=50)
    X2, (_, y) = ex.projection(data), ex.load(data)
    assert X2.shape == (100, 2)
    assert np.all(X2[y == 0, 1] == 0) and np.all(X2[y == 1, 0] == 0) and np.all(X2[:, :] >= 0)
    assert "A's 5 dimensions" in ex.projection_axes(data, 10)[2]


def test_scores_ignore_label_names_and_minmax_zeroes_constant_features():
    y = np.array([0, 0, 1, 1, 2, 2])
    assert cl.scores(y, [5, 5, 3, 3, 9, 9]) == pytest.approx({"ami": 1.0, "nmi": 1.0})
    assert cl.scores(y, [0, 1, 0, 1, 0, 1])["ami"] < 0.1
    X = cl.minmax([[1.0, 7.0], [3.0, 7.0], [2.0, 7.0]])
    np.testing.assert_allclose(X, [[0.0, 0.0], [1.0, 0.0], [0.5, 0.0]])


# ------------------------------------------------------------------ the experiment
SMALL = ex.Data("w_gaussians", w=1, n_per_cluster=100)


def test_fig2_only_the_height_limited_iforest_separates_the_w1_clusters():
    """ting2021 Fig. 2: SC with IK separates the two lines (paper 0.91); GK and AG do not (0.29).

    Our finding, shown on the page: only the height-limited iForest IK does it."""
    ami = {m: ex.evaluate(SMALL, "spectral", m, prm, trials=3).ami
           for m, prm in [("ik_iforest", 16), ("ik_anne", 16), ("gk", 1.0), ("ag", 0.05)]}
    assert ami["ik_iforest"] > 0.8
    assert max(ami["ik_anne"], ami["gk"], ami["ag"]) < 0.45
    # k-means on the same IK feature map separates them too; on the raw features it cannot
    assert ex.evaluate(SMALL, "kmeans", "ik_iforest", 32).ami > 0.8
    assert ex.evaluate(SMALL, "kmeans", "raw").ami < 0.1


def test_evaluate_is_seeded_and_averages_trials():
    a = ex.evaluate(SMALL, "spectral", "ik_anne", 8, trials=2, seed=4)
    b = ex.evaluate(SMALL, "spectral", "ik_anne", 8, trials=2, seed=4)
    assert a.ami == b.ami and np.array_equal(a.labels, b.labels)
    assert len(a.ami_trials) == 2 and a.ami == pytest.approx(np.mean(a.ami_trials))
    # density peaks on a distance is deterministic: one trial whatever is asked
    assert len(ex.evaluate(SMALL, "density_peaks", "distance", trials=3).ami_trials) == 1


def test_sweep_reports_every_grid_point_and_its_best():
    calls = []
    s = ex.sweep(SMALL, "spectral", "gk", progress=lambda i, total: calls.append((i, total)))
    assert s.values == ex.MU_GRID and calls[-1] == (11, 11) and len(calls) == 11
    assert s.best.ami == pytest.approx(s.ami.max())
    assert s.best.param == ex.MU_GRID[int(np.argmax(s.ami))]
    # psi is clipped to n, without repeating a grid point
    assert ex.sweep(SMALL, "kmeans", "ik_iforest").values == (2, 4, 8, 16, 32, 64, 128, 200)
    # density peaks on a distance has no kernel parameter: the cutoff is swept
    dp = ex.sweep(SMALL, "density_peaks", "distance")
    assert dp.param_name == "ε / m" and len(dp.ami) == 99
    assert dp.best.ami == pytest.approx(dp.ami.max())
    assert dp.best.eps_fraction == ex.EPS_FRACTIONS[int(np.argmax(dp.ami))]


def test_experiment_refuses_unknown_choices():
    with pytest.raises(ValueError, match="has no measure 'gk'"):
        ex.evaluate(SMALL, "kmeans", "gk", 1.0)
    with pytest.raises(ValueError, match="unknown algorithm"):
        ex.evaluate(SMALL, "dbscan", "raw")
    with pytest.raises(ValueError, match="needs a parameter"):
        ex.evaluate(SMALL, "spectral", "ik_anne")
    with pytest.raises(ValueError, match="cannot make 300 clusters from 200 points"):
        ex.evaluate(SMALL, "kmeans", "raw", k=300)
    with pytest.raises(ValueError, match="unknown dataset"):
        ex.load(ex.Data("nope"))


def test_real_and_density_ratio_data_load_scaled():
    X, y = ex.load(ex.Data("iris", max_points=100))
    assert X.shape == (100, 4) and X.min() == 0.0 and X.max() == 1.0 and np.unique(y).size == 3
    assert ex.projection(ex.Data("iris", max_points=100)).shape == (100, 2)
    X, y = ex.load(ex.Data("density_ratio", n=100))
    assert X.shape == (100, 2) and np.unique(y).size == 2
    # ionosphere has a constant feature: it is zeroed, not a division by zero
    X, _ = ex.load(ex.Data("ionosphere"))
    assert np.isfinite(X).all()


@pytest.mark.slow
def test_run_and_reproduce_write_ami_per_algorithm_measure_and_w(tmp_path):
    r = ex.run(ex.Params(n_per_cluster=50, algorithm="density_peaks"))
    assert set(r.evaluations) == {"distance", "ik_iforest", "ag"}
    assert r.evaluations["distance"].rho.shape == (100,)
    from ikviz.reproduce import reproduce

    paths = reproduce("clustering-wgaussians", tmp_path, ws=(1, 2), n_per_cluster=20, trials=1, t=50)
    ami = json.loads(paths["json"].read_text())["ami"]
    assert set(ami) == {"spectral", "density_peaks", "kmeans"}
    assert set(ami["spectral"]) == {"ik_anne", "ik_iforest", "ik_iforest_full", "gk", "ag"}
    assert set(ami["kmeans"]["randlocal"]) == {"1", "2"}
    assert all(-0.1 <= v <= 1.0 for a in ami.values() for m in a.values() for v in m.values())
    assert "<h1>clustering-wgaussians</h1>" in paths["html"].read_text()


def test_figures_show_clusters_decision_graph_and_sweep():
    from ikviz.plots import clustering as plots

    ev = ex.evaluate(SMALL, "density_peaks", "distance", eps_fraction=0.1)
    fig = plots.decision_graph_figure(ev)
    centres = fig.data[1]
    assert len(centres.x) == 2 and set(centres.x) == set(ev.rho[ev.centres])
    scatter = plots.scatter_figure(ex.projection(SMALL), cl.match_labels(ex.load(SMALL)[1], ev.labels), "t",
                                   centres=ev.centres)
    assert len(scatter.data) == 3  # two clusters and the centres
    with pytest.raises(ValueError, match="no decision graph"):
        plots.decision_graph_figure(ex.evaluate(SMALL, "kmeans", "raw"))
    sweeps = {"gk": ex.sweep(SMALL, "spectral", "gk"), "ag": ex.sweep(SMALL, "spectral", "ag")}
    fig = plots.sweep_figure(sweeps)
    assert fig.layout.xaxis.type == "log" and fig.layout.xaxis2.type != "log"  # μ doubles; k/n steps by 0.05
    assert list(fig.data[0].y) == pytest.approx(list(sweeps["gk"].ami))
