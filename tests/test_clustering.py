"""Clustering: density peaks by hand and against a brute-force reference, streaming = in-memory, the estimators,
the Fig. 2 effect."""

import json

import threading

import numpy as np
import pytest

from ikviz import clustering as cl
from ikviz._sklearn import InvalidParameterError
from ikviz.clustering.density_peaks import tie_keys
from ikviz.experiments import clustering as ex
from ikviz.kernels import adaptive_gaussian


def reference_density_peaks(D, eps, keys, k):
    """Density peaks on a dense dissimilarity matrix, written plainly (the documented rules, no streaming)."""
    n = len(D)
    rho = ((D < eps) & ~np.eye(n, dtype=bool)).sum(axis=1)
    order = np.lexsort((np.arange(n), keys, -rho))   # densest first; equal rho by key
    rank = np.empty(n, dtype=int)
    rank[order] = np.arange(n)
    delta, parent = np.empty(n), np.empty(n, dtype=int)
    for i in range(n):
        denser = np.flatnonzero(rank < rank[i])
        if denser.size == 0:
            delta[i], parent[i] = D[i].max(), -1
            continue
        # nearest denser point; at equal distance the denser one
        j = denser[np.lexsort((rank[denser], D[i, denser]))[0]]
        delta[i], parent[i] = D[i, j], j
    centres = np.lexsort((rank, -(rho * delta)))[:k]
    labels = np.full(n, -1)
    labels[centres] = np.arange(k)
    for i in order:
        if labels[i] < 0:
            labels[i] = labels[parent[i]]
    return rho, delta, parent, centres, labels


# ------------------------------------------------------------------ density peaks by hand
def test_density_peaks_on_a_hand_checked_line():
    # points 0, 1, 2 and 10, 11 on a line; the largest distance is 11, so eps = 1.5 is 1.5 / 11 of it
    X = np.array([[0.0], [1.0], [2.0], [10.0], [11.0]])
    dp = cl.DensityPeaks(2, eps_fraction=1.5 / 11, random_state=0).fit(X)
    assert dp.eps_ == pytest.approx(1.5) and dp.max_distance_ == 11.0
    # neighbours closer than 1.5: 0:{1}, 1:{0,2}, 2:{1}, 3:{4}, 4:{3}
    assert dp.rho_.tolist() == [1, 2, 1, 1, 1]
    # 1 is densest: its delta is its largest distance (to 11), 10; 0 and 2 are 1 from it
    assert dp.parent_[[0, 1, 2]].tolist() == [1, -1, 1] and dp.delta_[[0, 1, 2]].tolist() == [1.0, 10.0, 1.0]
    # the tie between 10 and 11 (rho 1 each) goes to the smaller key: the other hangs on it at distance 1
    keys = tie_keys(X, 0)
    first, second = (3, 4) if keys[3] < keys[4] else (4, 3)
    assert dp.parent_[second] == first and dp.delta_[second] == 1.0
    # the first of the pair hangs on the nearest point ranked before it: 2 (at 8 or 9) if its key is smaller, else 1
    near = 2 if keys[2] < keys[first] else 1
    assert dp.parent_[first] == near and dp.delta_[first] == abs(X[first, 0] - X[near, 0])
    # rho * delta: 20 for point 1, at least 8 for the first of the pair, 1 for the rest: those two are the centres
    assert dp.cluster_centers_indices_.tolist() == [1, first]
    assert dp.labels_.tolist() == [0, 0, 0, 1, 1]
    np.testing.assert_array_equal(dp.cluster_centers_, X[[1, first]])
    one = cl.DensityPeaks(1, eps_fraction=1.5 / 11).fit(X)
    assert one.labels_.tolist() == [0] * 5


@pytest.fixture(scope="module")
def blobs():
    rng = np.random.default_rng(3)
    return np.vstack([rng.normal(0, 0.3, (60, 3)), rng.normal(2, 0.6, (50, 3))])


def _dissimilarities(X, metric, dp):
    """The exact n x n dissimilarities (differences taken first: no cancellation far from the origin)."""
    D = np.sqrt(((X[:, None] - X[None]) ** 2).sum(-1))
    if metric == "euclidean":
        return D
    if metric == "ik":
        return 1 - dp.kernel_.similarity(X)
    scale = np.sort(D, axis=1)[:, dp.n_neighbours]   # k-th neighbour, the point itself excluded
    return 1 - np.exp(-D**2 / np.outer(scale, scale))


@pytest.mark.parametrize("metric", ["euclidean", "ik", "adaptive"])
def test_density_peaks_equals_a_brute_force_reference(blobs, metric):
    dp = cl.DensityPeaks(3, eps_fraction=0.2, metric=metric, psi=8, t=40, n_neighbours=5, random_state=2).fit(blobs)
    D = _dissimilarities(blobs, metric, dp)
    assert dp.max_distance_ == pytest.approx(D.max())
    if metric == "adaptive":   # the package's own kernel gives the same matrix
        np.testing.assert_allclose(D, 1 - adaptive_gaussian(blobs, k=5), atol=1e-12)
    rho, delta, parent, centres, labels = reference_density_peaks(D, dp.eps_, tie_keys(blobs, 2), 3)
    np.testing.assert_array_equal(dp.rho_, rho)
    np.testing.assert_allclose(dp.delta_, delta, rtol=1e-9, atol=1e-12)
    np.testing.assert_array_equal(dp.parent_, parent)
    np.testing.assert_array_equal(dp.cluster_centers_indices_, centres)
    np.testing.assert_array_equal(dp.labels_, labels)


@pytest.mark.parametrize("metric", ["euclidean", "ik", "adaptive"])
def test_streamed_blocks_give_the_same_decision_graph(blobs, metric):
    kw = dict(metric=metric, psi=16, t=50, n_neighbours=5, random_state=0)
    whole = cl.DensityPeaks(2, **kw).path(blobs, [0.05, 0.2, 0.5])
    tiny = cl.DensityPeaks(2, block_bytes=8 * len(blobs) * 7, **kw).path(blobs, [0.05, 0.2, 0.5])  # 7 rows a block
    assert tiny.max_distance == pytest.approx(whole.max_distance)
    for name in ("eps", "rho", "delta", "parent", "labels", "centres"):
        np.testing.assert_allclose(getattr(whole, name), getattr(tiny, name), err_msg=name)
    # several cutoffs in one path = one fit per cutoff
    single = cl.DensityPeaks(2, eps_fraction=0.2, **kw).fit(blobs)
    np.testing.assert_array_equal(single.rho_, whole.rho[1])
    np.testing.assert_allclose(single.delta_, whole.delta[1])
    np.testing.assert_array_equal(single.labels_, whole.labels[1])
    assert single.eps_ == pytest.approx(whole.eps[1])


def test_ik_maximum_distance_and_the_matrix_product_path(blobs):
    # the largest IK distance: proven 1 by a sampled pair (sharp kernel), or found by a full pass
    for psi, t in ((32, 20), (2, 60)):
        dp = cl.DensityPeaks(2, metric="ik", psi=psi, t=t, random_state=0).fit(blobs)
        assert dp.max_distance_ == pytest.approx((1 - dp.kernel_.similarity(blobs)).max())
    # many-feature data take the matrix-product path; it must agree with the exact distances
    wide = np.random.default_rng(0).normal(size=(30, 40)) + 1e6   # far from the origin: no cancellation
    for metric in ("euclidean", "adaptive"):
        dp = cl.DensityPeaks(2, eps_fraction=0.5, metric=metric, n_neighbours=5).fit(wide)
        ref = reference_density_peaks(_dissimilarities(wide, metric, dp), dp.eps_, tie_keys(wide, 0), 2)
        np.testing.assert_allclose(dp.delta_, ref[1], rtol=1e-6)
        np.testing.assert_array_equal(dp.labels_, ref[4])


@pytest.fixture(scope="module")
def tied():
    """Points on an integer grid, some repeated: most densities tie at small cutoffs and many distances are equal."""
    rng = np.random.default_rng(7)
    X = np.vstack([rng.integers(0, 4, (40, 2)), rng.integers(6, 12, (60, 2))]).astype(float)
    return X[rng.permutation(len(X))]


TIE_KW = {"euclidean": {}, "adaptive": {"n_neighbours": 5}, "ik": {"psi": 8, "t": 50}}
TIE_FRACTIONS = [0.01, 0.06, 0.2]


def _shuffled_path(X, metric, perm, seed=0):
    """DensityPeaks.path (3 clusters of 2 groups: ties pick the third centre) on X and on X[perm]; the shuffled
    labels are put back in X's row order."""
    dp = cl.DensityPeaks(3, metric=metric, random_state=seed, **TIE_KW[metric])
    graph, shuffled = dp.path(X, TIE_FRACTIONS), dp.path(X[perm], TIE_FRACTIONS)
    back = np.empty_like(shuffled.labels)
    back[:, perm] = shuffled.labels
    return graph, shuffled, back


@pytest.mark.parametrize("metric", ["euclidean", "ik", "adaptive"])
def test_density_peaks_partition_does_not_depend_on_row_order(tied, metric):
    from sklearn.metrics import adjusted_rand_score

    graph = cl.DensityPeaks(3, metric=metric, random_state=0, **TIE_KW[metric]).path(tied, TIE_FRACTIONS)
    # the data do tie: at the smallest cutoff most points share their density with many others
    assert np.unique(graph.rho[0]).size < len(tied) // 4
    for seed in range(3):
        perm = np.random.default_rng(seed).permutation(len(tied))
        graph, shuffled, back = _shuffled_path(tied, metric, perm)
        for e in range(len(TIE_FRACTIONS)):
            assert adjusted_rand_score(graph.labels[e], back[e]) == 1.0, (seed, e)
        # the densities are the same ones, moved with their rows
        np.testing.assert_array_equal(shuffled.rho, graph.rho[:, perm])


@pytest.mark.parametrize("metric", ["euclidean", "ik", "adaptive"])
def test_ties_broken_by_row_position_would_depend_on_the_order(tied, metric, monkeypatch):
    """The tied data above do discriminate: with every key equal, ties fall back on the row index (the old
    rule; for IK the kernel is then also fitted in the given row order), and a shuffle changes the partition."""
    from sklearn.metrics import adjusted_rand_score

    import ikviz.clustering.density_peaks as dp_module

    monkeypatch.setattr(dp_module, "tie_keys", lambda X, seed: np.zeros(len(X), dtype=np.uint64))
    perm = np.random.default_rng(0).permutation(len(tied))
    graph, _, back = _shuffled_path(tied, metric, perm)
    assert min(adjusted_rand_score(graph.labels[e], back[e]) for e in range(len(TIE_FRACTIONS))) < 1.0


def test_the_tie_rule_is_seeded():
    # four points at the corners of a square: at a small cutoff every density is 0 and every centre a tie
    X = np.array([[0.0, 0.0], [0.0, 1.0], [1.0, 0.0], [1.0, 1.0]])
    assert not np.array_equal(tie_keys(X, 0), tie_keys(X, 1))
    centres = {}
    for seed in range(6):
        dp = cl.DensityPeaks(1, eps_fraction=0.1, random_state=seed).fit(X)
        assert dp.rho_.tolist() == [0, 0, 0, 0]
        # the densest point (the only centre) is the one with the smallest key under this seed
        assert dp.cluster_centers_indices_[0] == np.argmin(tie_keys(X, seed))
        again = cl.DensityPeaks(1, eps_fraction=0.1, random_state=seed).fit(X)
        np.testing.assert_array_equal(again.parent_, dp.parent_)
        centres[seed] = int(dp.cluster_centers_indices_[0])
    assert len(set(centres.values())) > 1   # another seed breaks the ties another way
    # random_state=None means seed 0
    assert cl.DensityPeaks(1, eps_fraction=0.1).fit(X).cluster_centers_indices_[0] == centres[0]


def test_the_tie_rule_is_a_parameter():
    X = np.array([[0.0, 0.0], [0.0, 1.0], [1.0, 0.0], [1.0, 1.0]])
    by_index = cl.DensityPeaks(1, eps_fraction=0.1, ties="row index").fit(X)
    assert by_index.cluster_centers_indices_.tolist() == [0] and by_index.parent_.tolist() == [-1, 0, 0, 1]
    seeded = cl.DensityPeaks(1, eps_fraction=0.1, ties="row values", random_state=1).fit(X)
    assert seeded.cluster_centers_indices_[0] == np.argmin(tie_keys(X, 1)) != 0
    with pytest.raises(InvalidParameterError, match="'ties' parameter of DensityPeaks must be a str among"):
        cl.DensityPeaks(ties="random").fit(X)
    assert not hasattr(__import__("ikviz.clustering.density_peaks").clustering.density_peaks, "ties_by_row_index")


def test_two_threads_with_different_tie_rules_at_once_each_get_their_own_result():
    """Issue 29: the tie rule was a module-wide flag that one session's computation flipped while another's
    read it. Two threads, started together, each fit 30 times under their own rule."""
    X = np.array([[float(i), float(j)] for i in range(4) for j in range(4)])  # a grid: all densities 0 at 0.1
    rules = {"row index": 0, "row values": 1}
    expected = {rule: cl.DensityPeaks(2, eps_fraction=0.1, ties=rule, random_state=seed).fit(X).labels_
                for rule, seed in rules.items()}
    assert not np.array_equal(expected["row index"], expected["row values"])
    start = threading.Barrier(len(rules))
    got: dict = {rule: [] for rule in rules}

    def work(rule):
        start.wait()
        for _ in range(30):
            got[rule].append(cl.DensityPeaks(2, eps_fraction=0.1, ties=rule, random_state=rules[rule]).fit(X).labels_)

    threads = [threading.Thread(target=work, args=(rule,)) for rule in rules]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    for rule in rules:
        assert len(got[rule]) == 30 and all(np.array_equal(labels, expected[rule]) for labels in got[rule])


def test_density_peaks_finds_two_separated_blobs(blobs):
    y = np.repeat([0, 1], [60, 50])
    for metric in ("euclidean", "ik"):
        labels = cl.DensityPeaks(2, eps_fraction=0.2, metric=metric, psi=4, t=100, random_state=0).fit_predict(blobs)
        assert cl.scores(y, labels)["ami"] > 0.9, metric


def test_density_peaks_refuses_bad_input():
    X = np.array([[0.0], [1.0], [2.0]])
    with pytest.raises(ValueError, match="cannot make 5 clusters from 3 points"):
        cl.DensityPeaks(5).fit(X)
    with pytest.raises(InvalidParameterError, match="'n_clusters' parameter of DensityPeaks must be an int"):
        cl.DensityPeaks(0).fit(X)
    with pytest.raises(InvalidParameterError, match="'eps_fraction' parameter"):
        cl.DensityPeaks(2, eps_fraction=1.5).fit(X)
    with pytest.raises(ValueError, match="eps_fractions must be one or more numbers in"):
        cl.DensityPeaks(2).path(X, [0.1, -1.0])
    with pytest.raises(InvalidParameterError, match="'eps_fraction' parameter"):
        cl.DensityPeaks(2, eps_fraction=0).path(X, [0.1])    # path validates the estimator too
    with pytest.raises(ValueError, match="nothing to cluster"):
        cl.DensityPeaks(2).fit(np.ones((4, 2)))
    with pytest.raises(ValueError, match="kernel_params cannot set \\['psi'\\]"):
        cl.DensityPeaks(2, metric="ik", kernel_params={"psi": 4}).fit(X)
    with pytest.raises(InvalidParameterError, match="'metric' parameter"):
        cl.DensityPeaks(2, metric="cosine").fit(X)
    with pytest.raises(ValueError, match="n_neighbours=3 needs more than 3 samples"):
        cl.DensityPeaks(2, metric="adaptive", n_neighbours=3).fit(X)
    with pytest.raises(ValueError, match="NaN"):
        cl.DensityPeaks(2).fit([[0.0], [np.nan]])


# ------------------------------------------------------------------ spectral, k-means, scores
def test_spectral_clustering_and_kmeans_pipelines(blobs):
    y = np.repeat([0, 1], [60, 50])
    for kw in (dict(affinity="ik", psi=16), dict(affinity="rbf", gamma=2.0), dict(affinity="adaptive", n_neighbours=5)):
        sc = cl.SpectralClustering(2, random_state=0, **kw).fit(blobs)
        K = sc.affinity_matrix_
        assert K.shape == (110, 110) and np.allclose(np.diag(K), 1.0)
        assert cl.scores(y, sc.labels_)["ami"] > 0.9, kw
    km = cl.make_kmeans("ik", n_clusters=2, psi=16, t=100, random_state=0)
    assert cl.scores(y, km.fit_predict(blobs))["ami"] > 0.9
    F = km["map"].transform(blobs)
    assert F.shape == (110, 1600) and F.nnz == 110 * 100
    assert cl.SpectralClustering(1, affinity="rbf").fit_predict(blobs).tolist() == [0] * 110


def test_estimators_refuse_degenerate_input(blobs):
    with pytest.raises(ValueError, match="cannot make 200 clusters from 110 points"):
        cl.SpectralClustering(200).fit(blobs)
    with pytest.raises(ValueError, match="n_samples=110 should be >= n_clusters=200"):  # scikit-learn's KMeans
        cl.make_kmeans("raw", n_clusters=200).fit(blobs)
    with pytest.raises(ValueError, match="single class"):
        cl.scores(np.zeros(5), np.arange(5))
    with pytest.raises(ValueError, match="y_true has 5 labels but the clustering \\(labels\\) has 4"):
        cl.scores(np.arange(5), np.arange(4))
    with pytest.raises(ValueError, match="every feature is constant"):
        cl.minmax(np.full((5, 3), 2.0))
    with pytest.raises(InvalidParameterError, match="'gamma' parameter of SpectralClustering"):
        cl.SpectralClustering(2, affinity="rbf", gamma=0).fit(blobs)
    with pytest.raises(InvalidParameterError, match="'feature_map' parameter of make_kmeans"):
        cl.make_kmeans("pca")


def test_match_labels_renames_clusters_after_their_classes():
    y = np.array([0, 0, 0, 1, 1, 2, 2])
    assert cl.match_labels(y, [7, 7, 7, 3, 3, 5, 5]).tolist() == y.tolist()
    # a fourth cluster has no class left: it gets the next free name
    assert cl.match_labels(y, [1, 1, 9, 0, 0, 4, 4]).tolist() == [0, 0, 3, 1, 1, 2, 2]
    assert cl.match_labels(y, [0, 0, 0, 0, 0, 1, 1]).tolist() == [0, 0, 0, 0, 0, 2, 2]


def test_w_gaussians_view_puts_each_cluster_on_its_own_axis():
    data = ex.Data("w-gaussians", w=5, n_per_cluster=50)
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
SMALL = ex.Data("w-gaussians", w=1, n_per_cluster=100)


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


@pytest.mark.parametrize("measure, param", [("gk", 0.25), ("ag", 0.1)])
def test_seed_free_affinity_is_built_once_and_trials_equal_their_own_fits(monkeypatch, measure, param):
    """GK's and AG's affinities do not depend on the seed: one matrix serves every trial, and each trial's
    labels are those of a fit of its own (the path that built the matrix once per trial)."""
    import ikviz.clustering.spectral as spectral

    data = ex.Data("digits", max_points=300)   # ten clusters: the k-means seed changes the labels
    X, y = ex.load(data)
    own = []
    for s in range(4, 7):
        model = ex.estimator("spectral", measure, param, n_clusters=10, n=len(X), d=X.shape[1], seed=s)
        own.append(cl.scores(y, model.fit_predict(X))["ami"])
    calls = []
    for name in ("rbf", "adaptive_gaussian"):
        real = getattr(spectral, name)
        monkeypatch.setattr(spectral, name, lambda *a, real=real, **k: calls.append(1) or real(*a, **k))
    e = ex.evaluate(data, "spectral", measure, param, trials=3, seed=4)
    assert len(calls) == 1
    assert e.ami_trials == own
    assert len(set(own)) == 3   # each seed its own clustering: a trial run under the wrong seed would show


def test_precomputed_affinity_clusters_like_its_source_and_refuses_what_is_not_one(blobs):
    gk = cl.SpectralClustering(n_clusters=2, affinity="rbf", gamma=0.5, random_state=3).fit(blobs)
    again = cl.SpectralClustering(n_clusters=2, affinity="precomputed", random_state=3).fit(gk.affinity_matrix_)
    assert np.array_equal(again.labels_, gk.labels_)
    assert again.affinity_matrix_ is not None and again.affinity_matrix_.shape == (len(blobs), len(blobs))
    K = gk.affinity_matrix_
    with pytest.raises(ValueError, match=r"square .* X has shape \(110, 3\)"):
        cl.SpectralClustering(n_clusters=2, affinity="precomputed").fit(blobs)
    with pytest.raises(ValueError, match="negative values"):
        cl.SpectralClustering(n_clusters=2, affinity="precomputed").fit(K - 0.5)
    asym = K.copy()
    asym[0, 1] += 0.1
    with pytest.raises(ValueError, match="not symmetric"):
        cl.SpectralClustering(n_clusters=2, affinity="precomputed").fit(asym)


def test_sweep_reports_every_grid_point_and_its_best():
    calls = []
    s = ex.sweep(SMALL, "spectral", "gk", progress=lambda f, text: calls.append((f, text)))
    assert s.values == ex.MU_GRID and len(calls) == 11
    assert calls[0] == (0.0, "μ (σ = d·μ) = 0.03125 (1 of 11)") and calls[-1][1].endswith("= 32 (11 of 11)")
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
    with pytest.raises(ValueError, match=r"name must be one of \[.*'w-gaussians'.*\]; got 'nope'"):
        ex.load(ex.Data("nope"))


def test_real_and_density_ratio_data_load_scaled():
    X, y = ex.load(ex.Data("iris", max_points=100))
    assert X.shape == (100, 4) and X.min() == 0.0 and X.max() == 1.0 and np.unique(y).size == 3
    assert ex.projection(ex.Data("iris", max_points=100)).shape == (100, 2)
    X, y = ex.load(ex.Data("density-ratio", n=100))
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

    paths = reproduce("clustering-wgaussians", tmp_path, ws=(1, 2), n_per_cluster=20, trials=1, t=50,
                      algorithms=("spectral", "density_peaks", "kmeans"), measures=())
    numbers = json.loads(paths["json"].read_text())
    ami = numbers["ami"]
    assert set(ami) == {"spectral", "density_peaks", "kmeans"}
    assert set(ami["spectral"]) == {*ex.IK_VARIANTS, "gk", "ag"}
    assert {"ik_anne", "ik_iforest", "ik_iforest_full"} <= set(ex.IK_VARIANTS)
    assert set(ami["kmeans"]["randlocal"]) == {"1", "2"}
    assert all(-0.1 <= v <= 1.0 for a in ami.values() for m in a.values() for v in m.values())
    # Table 3's columns under the paper's short keys, the same numbers as ami's; the paper's row beside them
    assert numbers["table3"]["dp"]["ik"] == ami["density_peaks"]["ik_anne"]
    assert numbers["table3"]["sc"]["gk"] == ami["spectral"]["gk"]
    assert numbers["paper"]["table3"]["dp"] == {"distance": 0.01, "ag": 0.01, "ik": 0.68}
    assert numbers["psi_grid"]["1"] == [2, 4, 8, 16, 32, 40]   # ψ clipped to the 40 rows
    assert isinstance(numbers["seconds"], float)   # the run's seconds, not shadowed by the sweeps'
    assert "<h1>clustering-wgaussians</h1>" in paths["html"].read_text()


def test_wgaussians_reproduction_defaults_follow_the_paper():
    from ikviz.reproduce import get

    p = ex.WGaussiansParams()
    # ting2021: Fig. 2 at w = 1 with 500 points per cluster; Table 3 at w = 5,000 with 2,000 points (Table 2)
    assert p.sizes() == {1: 500, 5000: 1000} and p.trials == 10 and p.dp_trials == 1
    assert ex.PAPER_TABLE3 == {"w": 5000, "n": 2000, "dp": {"distance": 0.01, "ag": 0.01, "ik": 0.68},
                               "sc": {"gk": 0.24, "ag": 0.25, "ik": 1.00}}
    # ψ stops where the t·ψ·d sampled points pass IsolationKernel's 2 GiB: 128 at d = 10,000, the whole grid at d = 2
    assert ex.psi_limit(200, 10_000) == 128 and ex.psi_limit(200, 2) == 1024
    with pytest.raises(ValueError, match="no ψ of the grid"):
        ex.psi_limit(200, 10**9)
    with pytest.raises(ValueError, match="n_per_cluster gives 1 sizes for 2 values of w"):
        ex.WGaussiansParams(n_per_cluster=(10,)).sizes()
    with pytest.raises(ValueError, match=r"no algorithm of \['spectral'\] has the measures \['distance'\]"):
        ex.run_wgaussians(ex.WGaussiansParams(ws=(1,), n_per_cluster=20, algorithms=("spectral",),
                                             measures=("distance",)))
    with pytest.raises(ValueError, match="unknown algorithm 'dbscan'"):
        ex.run_wgaussians(ex.WGaussiansParams(ws=(1,), n_per_cluster=20, algorithms=("dbscan",)))
    quick = get("clustering-wgaussians").quick
    assert quick["ws"] == (1, 5000) and quick["trials"] == 1


def test_wgaussians_reproduction_sweeps_the_capped_grid_and_reads_as_table3():
    p = ex.WGaussiansParams(ws=(1,), n_per_cluster=25, algorithms=("density_peaks",),
                            measures=("distance", "ik_anne"), max_psi=8, t=30)
    r = ex.run_wgaussians(p)
    assert r.psi_grid == {1: (2, 4, 8)}
    assert r.best_param["density_peaks"]["ik_anne"][1]["param"] in (2, 4, 8)
    assert r.table3() == {"dp": {"distance": r.ami["density_peaks"]["distance"],
                                 "ik": r.ami["density_peaks"]["ik_anne"]}}
    assert r.sweeps_w1["density_peaks"]["ik_anne"].values == (2, 4, 8)


def test_row_order_effect_only_moves_the_row_index_rule():
    data = ex.Data("w-gaussians", w=3, n_per_cluster=40)
    effect = ex.row_order_effect(data, ("distance", "ik_anne"), t=30, max_psi=8)
    assert set(effect) == {"row index", "row values"} and set(effect["row values"]) == {"generator", "shuffled"}
    assert effect["row values"]["generator"] == effect["row values"]["shuffled"]
    # the row-index rule on rows as generated: at small cutoffs the first rows of cluster A win every tie
    assert effect["row index"]["generator"]["distance"] != effect["row index"]["shuffled"]["distance"]


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


def test_one_spelling_of_neighbour_with_the_old_names_deprecated(blobs):
    """Issue 29: "neighbour" is the public spelling (kernels.neighbour_sets, shared_neighbours, CellIndex.neighbours,
    the measures' ``neighbours``); the "neighbor" parameters of before still work, with a FutureWarning."""
    import warnings

    from ikviz.embedding import IsolationKernelAffinities, auto_neighbours
    from ikviz.embedding import auto_neighbors  # the deprecated alias stays importable

    new = cl.DensityPeaks(3, metric="adaptive", n_neighbours=5).fit(blobs)
    with pytest.warns(FutureWarning, match="'n_neighbors' is renamed 'n_neighbours'"):
        old = cl.DensityPeaks(3, metric="adaptive", n_neighbors=5).fit(blobs)
    np.testing.assert_array_equal(old.labels_, new.labels_)
    with pytest.warns(FutureWarning, match="'n_neighbors' is renamed 'n_neighbours'"):
        cl.SpectralClustering(2, affinity="adaptive", n_neighbors=5, random_state=0).fit(blobs)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the new names warn about nothing
        cl.SpectralClustering(2, affinity="adaptive", n_neighbours=5, random_state=0).fit(blobs)
        aff = IsolationKernelAffinities(blobs, psi=8, t=20, k_neighbours=6, random_state=0)
    with pytest.warns(FutureWarning, match="'k_neighbors' is renamed 'k_neighbours'"):
        IsolationKernelAffinities(blobs, psi=8, t=20, k_neighbors=6, random_state=0)
    with pytest.warns(FutureWarning, match="k_neighbors_ is renamed k_neighbours_"):
        assert aff.k_neighbors_ == aff.k_neighbours_ == 6
    with pytest.warns(FutureWarning, match="auto_neighbors is renamed auto_neighbours"):
        assert auto_neighbors(1000, 100) == auto_neighbours(1000, 100) == 30
    import ikviz.embedding
    assert "auto_neighbors" not in ikviz.embedding.__all__ and "auto_neighbours" in ikviz.embedding.__all__
