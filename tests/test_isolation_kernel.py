"""Properties a wrong Isolation Kernel would break."""

import math
import subprocess
import sys
import textwrap

import numpy as np
import pytest
from sklearn.base import clone
from sklearn.linear_model import LogisticRegression
from sklearn.pipeline import make_pipeline

from ikviz import IsolationKernel
from ikviz.data import four_quadrants, uniform
from ikviz.kernels import CellIndex, laplacian_psi


# ----------------------------------------------------------------- feature map
def test_feature_map_has_one_entry_per_covering_partitioning(fitted, blobs):
    F = fitted.transform(blobs)
    t, psi = fitted.t, fitted.psi_
    assert F.shape == (len(blobs), t * psi)
    assert F.format == "csr"
    assert np.allclose(F.data, 1 / np.sqrt(t))                       # Phi(x) . Phi(y) = K(x, y)
    dense = F.toarray().reshape(len(blobs), t, psi) != 0
    per_partitioning = dense.sum(axis=2)
    assert per_partitioning.max() == 1                                # at most one cell per partitioning
    if fitted.method_ == "inne":
        assert 0.2 < per_partitioning.mean() < 1                      # balls leave gaps
    else:
        assert np.all(per_partitioning == 1)
    assert np.array_equal(dense.argmax(axis=2)[per_partitioning == 1],
                          fitted.cells(blobs)[per_partitioning == 1])
    assert np.all(fitted.cells(blobs)[per_partitioning == 0] == -1)


def test_binary_features_count_shared_cells(fitted, blobs):
    binary = clone(fitted).set_params(binary=True).fit(blobs).transform(blobs[:40])
    assert np.all(binary.data == 1.0)
    np.testing.assert_allclose((binary @ binary.T).toarray(), fitted.t * fitted.similarity(blobs[:40]))


def test_similarity_is_a_valid_kernel(fitted, blobs):
    S = fitted.similarity(blobs)
    assert S.shape == (300, 300)
    assert np.array_equal(S, S.T)
    if fitted.method_ == "inne":                                      # K(x, x): the share of balls covering x
        assert np.all(np.diag(S) > 0) and np.all(S <= np.sqrt(np.outer(np.diag(S), np.diag(S))) + 1e-12)
    else:
        assert np.all(np.diag(S) == 1.0)
    assert S.min() >= 0.0 and S.max() <= 1.0
    assert np.linalg.eigvalsh(S).min() >= -1e-8
    # values are multiples of 1/t
    assert np.allclose(S * fitted.t, np.round(S * fitted.t))


def test_similarity_equals_feature_map_product(fitted, blobs):
    F = fitted.transform(blobs)
    S = fitted.similarity(blobs[:50], blobs[100:180])
    assert np.allclose(S, (F[:50] @ F[100:180].T).toarray())


def test_similarity_is_not_constant(fitted, blobs):
    S = fitted.similarity(blobs)
    within, between = S[:150, :150].mean(), S[:150, 150:].mean()
    assert within > 0.1 and within > 20 * between  # same cluster far more similar


def test_same_seed_same_kernel_other_seed_other_kernel(variant, blobs):
    a = IsolationKernel(psi=16, t=50, random_state=3, **variant).fit(blobs).similarity(blobs)
    b = IsolationKernel(psi=16, t=50, random_state=3, **variant).fit(blobs).similarity(blobs)
    c = IsolationKernel(psi=16, t=50, random_state=4, **variant).fit(blobs).similarity(blobs)
    assert np.array_equal(a, b)
    assert not np.array_equal(a, c)


# ----------------------------------------------------------------- partitionings
def test_anne_assigns_nearest_centre(blobs):
    ik = IsolationKernel(psi=32, t=20, method="anne", random_state=0).fit(blobs)
    X = np.random.default_rng(1).normal(1.5, 2, size=(200, 3))
    cells = ik.cells(X)
    for k in range(ik.t):
        d2 = ((X[:, None, :] - ik.samples_[k][None, :, :]) ** 2).sum(axis=2)
        assert np.array_equal(cells[:, k], d2.argmin(axis=1))
    # every sampled point isolates itself
    for k in range(ik.t):
        assert np.array_equal(ik.cells(ik.samples_[k])[:, k], np.arange(ik.psi_))


def test_iforest_height_limit_and_full_growth(blobs):
    limited = IsolationKernel(psi=64, t=30, method="iforest", random_state=0).fit(blobs)
    assert limited.max_depth_ == 6
    assert np.all(limited.n_leaves_ <= 2 ** 6)
    full = IsolationKernel(psi=64, t=30, method="iforest", max_depth=None, random_state=0).fit(blobs)
    # fully grown: each of the 64 distinct sampled points ends in a leaf of its own
    assert np.all(full.n_leaves_ == 64)
    for k in range(full.t):
        assert len(np.unique(full.cells(full.samples_[k])[:, k])) == 64
    limited3 = IsolationKernel(psi=64, t=30, method="iforest", max_depth=3, random_state=0).fit(blobs)
    assert np.all(limited3.n_leaves_ <= 8)


def test_iforest_boxes_tile_the_bounding_box(blobs):
    X = blobs[:, :2]
    ik = IsolationKernel(psi=32, t=5, method="iforest", max_depth=None, random_state=0).fit(X)
    part = ik.partition(2)
    lo, hi = part.boxes[:, 0], part.boxes[:, 1]
    assert np.all(hi >= lo)
    total = np.prod(part.bounds[1] - part.bounds[0])
    assert math.isclose(np.prod(hi - lo, axis=1).sum(), total, rel_tol=1e-9)
    # each sampled point lies inside the box of the leaf it is routed to
    leaves = ik.cells(part.centres)[:, 2]
    inside = (part.centres >= lo[leaves] - 1e-12) & (part.centres <= hi[leaves] + 1e-12)
    assert inside.all()


def test_anne_partition_returns_centres(blobs):
    ik = IsolationKernel(psi=8, t=4, method="anne", random_state=0).fit(blobs)
    part = ik.partition(1)
    assert part.boxes is None and part.centres.shape == (8, 3)
    assert np.array_equal(part.centres, ik.samples_[1])
    with pytest.raises(ValueError, match="partitioning index"):
        ik.partition(4)


def test_inne_puts_a_point_in_the_smallest_ball_covering_it(blobs):
    ik = IsolationKernel(psi=16, t=30, method="inne", random_state=0).fit(blobs)
    X = np.random.default_rng(1).normal(1.5, 2, size=(300, 3))
    cells = ik.cells(X)
    for k in range(ik.t):
        S = ik.samples_[k]
        gaps = np.sqrt(((S[:, None] - S[None]) ** 2).sum(axis=2)) + np.diag(np.full(16, np.inf))
        np.testing.assert_allclose(ik.radii_[k], gaps.min(axis=1))          # radius: nearest other sample
        dist = np.sqrt(((X[:, None, :] - S[None]) ** 2).sum(axis=2))
        covered = dist <= ik.radii_[k][None, :]
        smallest = np.where(covered, ik.radii_[k][None, :], np.inf).argmin(axis=1)
        assert np.array_equal(cells[:, k], np.where(covered.any(axis=1), smallest, -1))
    assert (cells == -1).any() and (cells >= 0).any()
    part = ik.partition(3)
    assert part.boxes is None and np.array_equal(part.radii, ik.radii_[3])


# ----------------------------------------------------------------- numerics and state
@pytest.mark.parametrize("method", ["anne", "inne"])
@pytest.mark.parametrize("offset", [1e6, 1e8, 1.7e9])
def test_cells_are_exact_far_from_the_origin(method, offset):
    X = uniform(2000, 2, seed=0) + offset                 # e.g. Unix timestamps
    ik = IsolationKernel(psi=16, t=20, method=method, random_state=0).fit(X)
    for k in range(ik.t):
        S = ik.samples_[k]
        d2 = ((X[:, None, :] - S[None]) ** 2).sum(axis=2)   # differences of close numbers are exact
        if method == "anne":
            assert np.array_equal(ik.cells(X)[:, k], d2.argmin(axis=1))
        else:
            inside = d2 <= ik.radii_[k][None] ** 2 * (1 + 1e-9)
            assert np.all(inside[np.arange(len(X)), np.maximum(ik.cells(X)[:, k], 0)] | (ik.cells(X)[:, k] < 0))


@pytest.mark.parametrize("method", ["anne", "inne", "iforest"])
def test_cells_do_not_change_with_a_power_of_two_scale(method):
    X = uniform(500, 3, seed=2)
    small = IsolationKernel(psi=16, t=30, method=method, random_state=0).fit(X)
    huge = IsolationKernel(psi=16, t=30, method=method, random_state=0).fit(X * 2.0 ** 660)   # ~1e199
    assert np.array_equal(small.cells(X), huge.cells(X * 2.0 ** 660))
    assert huge.similarity(X[:20] * 2.0 ** 660).mean() < 0.5


def test_one_row_alone_gets_the_cells_it_gets_in_a_batch(fitted, blobs):
    batch = fitted.cells(blobs)
    alone = np.vstack([fitted.cells(blobs[i:i + 1]) for i in range(0, 300, 7)])
    assert np.array_equal(alone, batch[::7])
    order = np.random.default_rng(0).permutation(300)
    assert np.array_equal(fitted.cells(blobs[order]), batch[order])


def test_ties_go_to_the_lowest_sample_index():
    X = np.array([[0.0, 0.0], [2.0, 0.0], [1.0, 5.0], [1.0, -5.0]])
    ik = IsolationKernel(psi=4, t=3, method="anne", random_state=0).fit(X)
    midpoint = np.array([[1.0, 0.0]])                       # equidistant from the first two rows
    for k in range(3):
        S = ik.samples_[k]
        tied = np.flatnonzero(np.isclose(((S - midpoint) ** 2).sum(axis=1), 1.0))
        assert ik.cells(midpoint)[0, k] == tied.min()


def test_fitted_state_is_recorded_at_fit_and_replaced_on_refit(blobs):
    ik = IsolationKernel(psi=8, t=20, method="inne", random_state=0).fit(blobs)
    before = ik.cells(blobs)
    ik.set_params(method="iforest")                        # not refitted: still the fitted iNNE kernel
    assert ik.method_ == "inne" and np.array_equal(ik.cells(blobs), before)
    ik.fit(blobs)
    assert ik.method_ == "iforest" and not hasattr(ik, "radii_")
    assert np.all(ik.cells(blobs) >= 0)
    ik.set_params(method="anne").fit(blobs[:, :2])
    assert ik.n_features_in_ == 2 and not hasattr(ik, "max_depth_") and not hasattr(ik, "n_leaves_")


def test_cell_index_refuses_cells_of_another_kernel(blobs):
    a = IsolationKernel(psi=8, t=20, random_state=0).fit(blobs)
    b = IsolationKernel(psi=16, t=20, random_state=0).fit(blobs)
    c = IsolationKernel(psi=8, t=30, random_state=0).fit(blobs)
    index = a.index(blobs)
    with pytest.raises(ValueError, match="outside 0..7"):
        index.similarity(b.cells(blobs))
    with pytest.raises(ValueError, match="30 partitionings but the index was built with t=20"):
        index.neighbours(c.cells(blobs), k=3)
    with pytest.raises(ValueError, match="integer array"):
        index.similarity(a.cells(blobs).astype(float))
    with pytest.raises(ValueError, match="outside"):
        index.similarity(np.full((2, 20), -5))
    with pytest.raises(ValueError, match="psi must be a positive integer"):
        CellIndex(a.cells(blobs), 0)
    with pytest.raises(ValueError, match="shape"):
        index.similarity(a.cells(blobs[:3]), out=np.zeros((2, 300)))


# ----------------------------------------------------------------- paper effects
@pytest.mark.parametrize("d,psi", [(10, 16), (30, 64)])
def test_height_limited_iforest_approximates_laplacian_on_uniform_data(d, psi):
    """Ting et al. 2018 Fig. 2: on uniform data IK (iForest) ~ L_psi."""
    X = uniform(200, d, seed=1)
    ik = IsolationKernel(psi=psi, t=1000, method="iforest", random_state=1).fit(X)
    rmse = np.sqrt(np.mean((ik.similarity(X) - laplacian_psi(X, psi=psi)) ** 2))
    assert rmse < 0.04
    # and far closer to L_psi than to a Gaussian with the same sharpness at the median distance
    from ikviz.kernels import rbf
    assert rmse < 0.5 * np.sqrt(np.mean((ik.similarity(X) - rbf(X, gamma=1.0 / d)) ** 2))


@pytest.mark.parametrize("method", ["anne", "inne", "iforest"])
def test_sparse_pair_more_similar_than_dense_pair(method):
    """Ting et al. 2018 §2.3 / Fig. 4: equal distance, sparse region more similar."""
    X, _ = four_quadrants(seed=0)
    ik = IsolationKernel(psi=32, t=2000, method=method, random_state=0).fit(X)
    S = ik.similarity(np.array([[0.0, 0.0]]), np.array([[0.25, 0.25], [-0.25, -0.25]]))[0]
    sparse, dense = S
    assert sparse > dense + 0.05
    lap = laplacian_psi(np.zeros((1, 2)), np.array([[0.25, 0.25], [-0.25, -0.25]]), psi=32)[0]
    assert lap[0] == pytest.approx(lap[1])


# ----------------------------------------------------------------- scikit-learn
def test_sklearn_api_clone_params_and_pipeline(blobs):
    ik = IsolationKernel(psi=8, t=30, method="iforest", random_state=0)
    assert ik.get_params()["psi"] == 8
    ik.set_params(psi=12)
    assert clone(ik).get_params() == ik.get_params()
    y = np.repeat([0, 1], 150)
    model = make_pipeline(IsolationKernel(psi=16, t=50, random_state=0), LogisticRegression())
    assert model.fit(blobs, y).score(blobs, y) > 0.95
    assert IsolationKernel(psi=8, t=10, random_state=0).fit_transform(blobs).shape == (300, 80)


# ----------------------------------------------------------------- bad input
@pytest.mark.parametrize("kwargs,match", [
    (dict(psi=1), "'psi' parameter of IsolationKernel must be an int in the range \\[2, inf\\)"),
    (dict(psi=2.5), "'psi' parameter"),
    (dict(t=0), "'t' parameter of IsolationKernel must be an int in the range \\[1, inf\\)"),
    (dict(method="kmeans"), "'method' parameter of IsolationKernel must be a str among"),
    (dict(method="iforest", max_depth=0), "max_depth"),
    (dict(method="iforest", max_depth="deep"), "max_depth"),
    (dict(binary="yes"), "binary"),
    (dict(t=10**9), "limit of 100,000"),
])
def test_bad_parameters(kwargs, match, blobs):
    with pytest.raises(ValueError, match=match):
        IsolationKernel(**kwargs).fit(blobs)


def test_numpy_scalar_parameters_are_accepted(blobs):
    ik = IsolationKernel(psi=np.int64(8), t=np.int32(10), random_state=np.int64(3)).fit(blobs)
    assert ik.transform(blobs).shape == (300, 80)


def test_bad_data_messages(blobs):
    ik = IsolationKernel(psi=4, t=5)
    X = blobs.copy()
    X[[3, 10], 1] = np.nan
    X[20, 0] = np.inf
    with pytest.raises(ValueError, match=r"3 row\(s\) with NaN or infinity \(rows 3, 10, 20\)"):
        ik.fit(X)
    with pytest.raises(ValueError, match="non-numeric"):
        ik.fit(np.array([["a", "b"], ["c", "d"]], dtype=object))
    with pytest.raises(ValueError, match="must be 2-D.*reshape"):
        ik.fit(np.arange(5.0))
    with pytest.raises(ValueError, match="empty"):
        ik.fit(np.empty((0, 3)))
    with pytest.raises(ValueError, match="sparse input is not supported"):
        ik.fit(__import__("scipy.sparse").sparse.csr_matrix(blobs))
    with pytest.raises(ValueError, match="at least 2 rows"):
        ik.fit(np.ones((1, 3)))


def test_non_numeric_dataframe_columns_are_named():
    pd = pytest.importorskip("pandas")
    df = pd.DataFrame({"x": [1.0, 2.0, 3.0], "colour": ["r", "g", "b"]})
    with pytest.raises(ValueError, match="non-numeric column.*colour"):
        IsolationKernel(psi=2, t=3).fit(df)


def test_feature_count_mismatch_and_unfitted(blobs):
    from sklearn.exceptions import NotFittedError
    with pytest.raises(NotFittedError):
        IsolationKernel().transform(blobs)
    ik = IsolationKernel(psi=4, t=5).fit(blobs)
    with pytest.raises(ValueError, match="has 2 features, but IsolationKernel is expecting 3 features"):
        ik.transform(blobs[:, :2])


def test_psi_larger_than_n_warns_and_clips():
    X = uniform(10, 2, seed=0)
    with pytest.warns(UserWarning, match="psi=64 is larger than the 10 rows"):
        ik = IsolationKernel(psi=64, t=5).fit(X)
    assert ik.psi_ == 10 and ik.transform(X).shape == (10, 50)


def test_similarity_refuses_over_budget(blobs):
    ik = IsolationKernel(psi=4, t=5, dense_budget=1000).fit(blobs)
    with pytest.raises(ValueError, match="transform"):
        ik.similarity(blobs)


# ----------------------------------------------------------------- numba cache
def test_numba_compilation_is_cached_across_processes(tmp_path):
    """A second process loads the compiled kernels from the cache instead of compiling."""
    script = textwrap.dedent("""
        import numpy as np
        from ikviz import IsolationKernel
        from ikviz.kernels import _gemm, _itree
        X = np.random.default_rng(0).normal(size=(50, 3))
        for m in ("anne", "iforest"):
            IsolationKernel(psi=8, t=5, method=m).fit(X).transform(X)
        stats = [f.stats for f in (_gemm._tiles, _itree.build_trees, _itree.route_heap_blocks)]
        print(sum(len(s.cache_misses) for s in stats), sum(len(s.cache_hits) for s in stats))
    """)
    for _ in range(2):
        out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    misses, hits = map(int, out.stdout.split())
    assert misses == 0 and hits >= 3


def test_passes_every_scikit_learn_estimator_check():
    from sklearn.utils.estimator_checks import check_estimator

    results = check_estimator(IsolationKernel(psi=4, t=10, random_state=0), on_fail=None)
    failed = [(r["check_name"], str(r["exception"])[:200]) for r in results if r["status"] == "failed"]
    assert not failed


def test_voronoi_cells_in_the_span_of_the_fitted_rows_are_the_cells(monkeypatch):
    # d > n: the kernel works in span coordinates; it must give exactly the cells of the full space
    from ikviz.kernels import isolation
    rng = np.random.default_rng(0)
    X, Y = rng.standard_normal((300, 3000)), rng.standard_normal((200, 3000))
    short = IsolationKernel(psi=64, t=100, method="anne", random_state=1).fit(X)
    assert "_span" in vars(short) and short._span.basis.shape == (3000, 300)
    monkeypatch.setattr(isolation._Span, "pays", staticmethod(lambda *args: False))
    full = IsolationKernel(psi=64, t=100, method="anne", random_state=1).fit(X)
    assert "_span" not in vars(full)
    for Z in (X, Y):
        assert np.array_equal(short.cells(Z), full.cells(Z))
    np.testing.assert_allclose(short.samples_, full.samples_, atol=1e-10)
    with pytest.raises(ValueError, match="3000 features"):
        short.cells(Y[:, :10])


def test_cell_index_answers_similarity_and_neighbour_queries():
    rng = np.random.default_rng(2)
    X, Q = rng.random((200, 4)), rng.random((30, 4))
    ik = IsolationKernel(psi=16, t=80, random_state=0).fit(X)
    index = ik.index(X)
    K = (ik.transform(Q) @ ik.transform(X).T).toarray()               # from the feature map
    np.testing.assert_allclose(index.similarity(ik.cells(Q)), K)
    out = np.full((10, 200), 7.0)                                     # reused buffers are overwritten
    index.similarity(index.cells[:10], out=out)
    np.testing.assert_allclose(out, ik.similarity(X[:10], X))
    idx, sim = index.neighbours(ik.cells(Q), k=5)
    np.testing.assert_allclose(sim, -np.sort(-K, axis=1)[:, :5])
    np.testing.assert_allclose(np.take_along_axis(K, idx, axis=1), sim)
    own, _ = index.neighbours(k=5)
    assert not np.any(own == np.arange(200)[:, None])                 # a row is not its own neighbour
    with pytest.raises(ValueError, match="only 199 other rows"):
        index.neighbours(k=200)
    with pytest.raises(ValueError, match="positive integer"):
        index.neighbours(k=0)


def test_voronoi_cells_in_many_dimensions_are_budgeted_on_the_span_of_the_sample():
    """1,400 x 50 centres of d = 4,000 coordinates would be 2.2 GB; in the span of the 60 rows, 34 MB."""
    X = np.random.default_rng(0).normal(size=(60, 4000))
    for method in ("anne", "inne"):
        ik = IsolationKernel(psi=50, t=1400, method=method, random_state=0).fit(X)
        K = ik.similarity(X[:5])
        assert K.shape == (5, 5) and np.all((K >= 0) & (K <= 1))
        if method == "anne":
            assert np.allclose(np.diag(K), 1.0)  # every point shares its own Voronoi cell
    with pytest.raises(ValueError, match="sampled points would be a dense 70000 x 4000"):
        IsolationKernel(psi=50, t=1400, method="iforest").fit(X)  # trees keep all d coordinates
