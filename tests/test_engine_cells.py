"""The fast cell kernels give the cells of the reference kernels, exact ties included (issue 34, issue 31).

* Voronoi and iNNE cells by float32 BLAS tiles (``_gemm.nearest_centres_gemm``) against the
  float64 kernels they replace (``nearest_centres``, ``covering_balls``, still used past
  ``_FLOAT32_MAX_D`` features);
* iForest cells walked as complete heaps (``_itree.route_heaps``) against the pointer walk
  (``_itree.route``);
* exact ties go to the lowest sample index, as documented;
* feature names are recorded at fit and checked at transform; huge ``t`` is refused at once.
"""

import time

import numpy as np
import pytest

from ikviz import IsolationKernel
from ikviz.kernels import isolation
from ikviz.kernels._itree import route


def _data():
    rng = np.random.default_rng(7)
    return {
        "gauss": rng.normal(size=(3000, 6)),
        "grid": rng.integers(0, 4, size=(2000, 3)).astype(float),  # many exact ties
        "far": rng.normal(size=(1500, 4)) * 1e-3 + 1e9,              # far from the origin
        "dup": np.repeat(rng.normal(size=(100, 2)), 4, axis=0),     # sampled points at several indices
    }


@pytest.mark.parametrize("method", ["anne", "inne"])
@pytest.mark.parametrize("name", list(_data()))
def test_float32_tiles_give_the_float64_kernels_cells(name, method, monkeypatch):
    X = _data()[name]
    Q = np.vstack([X, X[:300] + np.random.default_rng(1).normal(size=(300, X.shape[1])) * X.std(axis=0)])
    fast = IsolationKernel(psi=16, t=40, method=method, random_state=0).fit(X)
    assert "_c32" in fast.__dict__
    monkeypatch.setattr(isolation, "_FLOAT32_MAX_D", 0)           # force the float64 kernel
    slow = IsolationKernel(psi=16, t=40, method=method, random_state=0).fit(X)
    assert "_c32" not in slow.__dict__
    assert np.array_equal(fast.cells(Q), slow.cells(Q))
    assert np.array_equal(fast.transform(Q[:50]).toarray(), slow.transform(Q[:50]).toarray())


@pytest.mark.parametrize("max_depth", ["auto", None, 3])
def test_heap_walk_gives_the_pointer_walks_cells(max_depth):
    rng = np.random.default_rng(3)
    X = np.vstack([rng.normal(size=(500, 5)), rng.integers(0, 3, size=(500, 5))])  # values on thresholds too
    ik = IsolationKernel(psi=32, t=30, max_depth=max_depth, random_state=0).fit(X)
    if max_depth is not None:
        assert "_heap" in ik.__dict__ and ik._heap[3] <= (5 if max_depth == "auto" else 3)
    Q = np.vstack([X, rng.normal(size=(200, 5)) * 3])
    expected = np.empty((len(Q), 30), dtype=np.int32)
    route(Q, ik._feature, ik._threshold, ik._left, ik._leaf, 0, 64, expected)
    assert np.array_equal(ik.cells(Q), expected)


@pytest.mark.parametrize("method", ["anne", "inne"])
def test_exact_ties_go_to_the_lowest_sample_index(method):
    # every point twice (so a partitioning often samples one point at two indices) on an integer grid,
    # queried at half-integer points: many exact ties, all computed exactly in float64
    grid = np.array([[a, b] for a in range(4) for b in range(4)], dtype=float)
    X = np.vstack([grid, grid])
    ik = IsolationKernel(psi=12, t=60, method=method, random_state=0).fit(X)
    Q = np.array([[a / 2, b / 2] for a in range(-1, 8) for b in range(-1, 8)])
    cells = ik.cells(Q)
    ties = 0
    for k in range(ik.t_):
        S = ik.samples_[k]
        dist = ((Q[:, None, :] - S[None]) ** 2).sum(axis=2)              # exact: halves and small integers
        if method == "anne":
            best = dist.min(axis=1, keepdims=True)
        else:
            r2 = ik.radii_[k] ** 2
            inside = dist <= r2
            dist = np.where(inside, r2, np.inf)                          # rank covering balls by radius
            best = dist.min(axis=1, keepdims=True)
        tied = dist == best
        expected = np.where(np.isfinite(best[:, 0]), tied.argmax(axis=1), -1)  # the lowest tied index
        ties += int((tied.sum(axis=1) > 1).sum())
        assert np.array_equal(cells[:, k], expected), k
    assert ties > 100  # the test does exercise ties


def test_feature_names_are_recorded_at_fit_and_checked_at_transform():
    pd = pytest.importorskip("pandas")
    rng = np.random.default_rng(0)
    df = pd.DataFrame(rng.normal(size=(200, 3)), columns=["a", "b", "c"])
    ik = IsolationKernel(psi=8, t=20, method="anne", random_state=0).fit(df)
    assert list(ik.feature_names_in_) == ["a", "b", "c"]
    with pytest.warns(UserWarning, match="valid feature names"):       # scikit-learn's warning, as its own
        plain = ik.cells(df.to_numpy())
    assert np.array_equal(ik.cells(df), plain)
    with pytest.raises(ValueError, match="feature names"):
        ik.transform(df[["c", "a", "b"]])
    ik.fit(df.to_numpy())                                               # refit on an array forgets the names
    assert not hasattr(ik, "feature_names_in_")


@pytest.mark.parametrize("kwargs, match", [
    (dict(psi=10**6, t=10**6), "limit of 100,000"),
    (dict(psi=40, t=100_001, method="iforest"), "limit of 100,000"),
    (dict(psi=2**20, t=64), r"limit of 33,554,432"),
])
def test_huge_t_is_refused_before_any_work(kwargs, match):
    X = np.random.default_rng(0).normal(size=(40 if kwargs["psi"] != 2**20 else 2**20 + 1, 2))
    start = time.perf_counter()
    with pytest.warns(UserWarning) if kwargs["psi"] > len(X) else _nothing():
        with pytest.raises(ValueError, match=match):
            IsolationKernel(**kwargs).fit(X)
    assert time.perf_counter() - start < 5


class _nothing:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


@pytest.mark.parametrize("method", ["anne", "inne"])
def test_rows_beyond_float32s_range_get_the_float64_kernels_cells(method):
    """Rows far out of the sample's scale would overflow the float32 tiles: they take the exact kernels."""
    import warnings

    from ikviz import IsolationKernel

    rng = np.random.default_rng(3)
    X = rng.normal(size=(200, 4))
    far = np.vstack([X[:20] * 1e35, X[:20] * -1e200])
    ik = IsolationKernel(method=method, psi=8, t=20, random_state=0).fit(X)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no overflow in a cast
        cells = ik.cells(far)
    exact = IsolationKernel(method=method, psi=8, t=20, random_state=0).fit(X)
    for name in ("_c32", "_c64", "_n64", "_r64"):
        exact.__dict__.pop(name, None)  # the float64 kernels only
    np.testing.assert_array_equal(cells, exact.cells(far))


@pytest.mark.parametrize("psi, t", [(4, 3), (64, 200), (512, 50), (1000, 10)])
@pytest.mark.parametrize("k", [2, 21, 64, 65, 257])
def test_tile_shapes_stay_within_the_small_matrix_kernels_or_one_mib(psi, t, k):
    from ikviz.kernels._gemm import _SMALL_MNK, _TILE_FLOATS, tile_shape

    rows, per_group = tile_shape(psi, k, t)
    assert rows >= 16 and rows % 16 == 0 and 1 <= per_group <= t
    products = rows * per_group * psi
    assert products * k <= _SMALL_MNK or products <= max(_TILE_FLOATS, rows * psi)


@pytest.mark.parametrize("method", ["anne", "inne"])
@pytest.mark.parametrize("d, psi", [(70, 8), (20, 128)])  # the packed tiles (d + 1 > 64), small tiles of few rows
def test_float32_tiles_of_every_shape_give_the_float64_kernels_cells(d, psi, method, monkeypatch):
    rng = np.random.default_rng(3)
    X = rng.normal(size=(700, d))
    Q = np.vstack([X, rng.normal(size=(333, d))])  # a last block shorter than a tile
    fast = IsolationKernel(psi=psi, t=12, method=method, random_state=0).fit(X)
    assert "_c32" in fast.__dict__
    monkeypatch.setattr(isolation, "_FLOAT32_MAX_D", 0)
    slow = IsolationKernel(psi=psi, t=12, method=method, random_state=0).fit(X)
    assert np.array_equal(fast.cells(Q), slow.cells(Q))
