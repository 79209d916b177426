"""Seeded synthetic data from the papers."""

import numpy as np
import pytest

from ikviz.data import four_quadrants, uniform, w_gaussians


def test_uniform_range_shape_and_seed():
    X = uniform(500, 3, seed=1)
    assert X.shape == (500, 3) and X.min() >= -1 and X.max() <= 1
    assert np.array_equal(X, uniform(500, 3, seed=1))
    assert not np.array_equal(X, uniform(500, 3, seed=2))
    assert uniform(10, 2, low=0, high=1, seed=0).min() >= 0


def test_four_quadrants_densities():
    X, q = four_quadrants(counts=(800, 200, 200, 50), seed=0)
    assert X.shape == (1250, 2) and np.bincount(q).tolist() == [800, 200, 200, 50]
    bottom_left, top_right = X[q == 0], X[q == 3]
    assert np.all(bottom_left < 0) and np.all(top_right > 0)
    assert np.all((X[q == 1, 0] < 0) & (X[q == 1, 1] > 0))


def test_w_gaussians_are_disjoint_subspace_clusters():
    X, y = w_gaussians(100, w=5, sigma_b=3.0, seed=0)
    assert X.shape == (200, 10) and np.bincount(y).tolist() == [100, 100]
    assert np.all(X[y == 0][:, 5:] == 0) and np.all(X[y == 1][:, :5] == 0)
    assert 2.0 < X[y == 1][:, 5:].std() / X[y == 0][:, :5].std() < 4.0


@pytest.mark.parametrize("call,match", [
    (lambda: uniform(0), r"The 'n' parameter of uniform must be an int in the range \[1, inf\)"),
    (lambda: uniform(5, low=1, high=0), "high must be greater than low"),
    (lambda: uniform(5, low=-1e308, high=1e308), "high - low must be a finite number"),
    (lambda: uniform(5, seed=-1), "The 'seed' parameter of uniform"),
    (lambda: uniform(10**12), r"uniform\(n=1000000000000, d=2\) would be a dense .* TiB\), over the 2.0 GiB "
                              "budget. Ask for fewer points"),
    (lambda: four_quadrants(counts=(1, 2, 3)), "four numbers"),
    (lambda: four_quadrants(counts=(1, 2, 3, 0)), "each of counts must be an integer >= 1"),
    (lambda: four_quadrants(counts=5), "The 'counts' parameter of four_quadrants must be an array-like"),
    (lambda: w_gaussians(10, w=0), "The 'w' parameter of w_gaussians"),
    (lambda: w_gaussians(10, sigma_a=0), "The 'sigma_a' parameter of w_gaussians must be a float in the range"),
    (lambda: w_gaussians(10, sigma_a=float("inf")), "The 'sigma_a' parameter"),
    (lambda: w_gaussians(10**9, w=10**3), "would be a dense"),
])
def test_bad_arguments(call, match):
    with pytest.raises(ValueError, match=match):
        call()


def test_numpy_scalars_are_accepted():
    assert np.array_equal(uniform(np.int64(5), np.int32(2), low=np.float32(0), seed=np.uint8(1)),
                          uniform(5, 2, low=0.0, seed=1))
    X, y = w_gaussians(np.int64(4), w=np.int64(2), sigma_b=np.float32(3), seed=np.int64(0))
    assert X.shape == (8, 4)
    assert four_quadrants(counts=np.array([3, 2, 2, 1]), seed=0)[0].shape == (8, 2)


def test_seeds_may_be_generators():
    a = uniform(4, seed=np.random.default_rng(3))
    assert np.array_equal(a, uniform(4, seed=3))


# -- the one loader ---------------------------------------------------------------------------
from ikviz.data import canonical_name, data_names, load  # noqa: E402


def test_load_names_follow_one_scheme_and_old_spellings_still_work():
    a, ya = load("w_gaussians", n_per_cluster=20, w=3, seed=4)
    b, yb = load("w-gaussians", n_per_cluster=20, w=3, seed=4)
    assert np.array_equal(a, b) and np.array_equal(ya, yb)
    assert all(name == canonical_name(name) for name in data_names())
    assert {"uniform", "w-gaussians", "density-ratio", "iris", "a9a"} <= set(data_names())


def test_load_subsamples_in_order_then_scales():
    full, y_full = load("wine")
    X, y = load("wine", max_rows=50, seed=3)
    rows = [int(np.flatnonzero((full == r).all(axis=1))[0]) for r in X]
    assert rows == sorted(rows) and len(set(rows)) == 50
    assert np.array_equal(y, y_full[rows])
    Xs, _ = load("wine", max_rows=50, seed=3, scale="minmax")
    assert np.allclose(Xs.min(axis=0), 0) and np.allclose(Xs.max(axis=0), 1)
    Xz, _ = load("wine", max_rows=50, seed=3, scale="standard")
    assert np.allclose(Xz.mean(axis=0), 0) and np.allclose(Xz.std(axis=0), 1)
    assert not np.array_equal(load("wine", max_rows=50, seed=4)[0], X)


def test_load_refuses_bad_requests_with_a_clear_message():
    with pytest.raises(ValueError, match="name must be one of .*w-gaussians.*got .nope."):
        load("nope")
    with pytest.raises(ValueError, match="'scale' parameter of load must be"):
        load("iris", scale="log")
    with pytest.raises(ValueError, match="'max_rows' parameter of load must be"):
        load("iris", max_rows=0)
    with pytest.raises(TypeError, match="takes no options"):
        load("iris", n=10)


# ----------------------------------------------------------------- density-ratio generators (ting2018 Table 1)
def _negatives_where_dense_class_wins(X, y, layout, shape):
    """Boolean per negative point: does the dense (positive) class have the higher density there?"""
    neg = X[y == 0]
    if shape == "uniform":
        (x0, y0), (x1, y1) = layout["positive"]
        return (neg[:, 0] >= x0) & (neg[:, 0] <= x1) & (neg[:, 1] >= y0) & (neg[:, 1] <= y1)

    def log_density(mean, sd):
        return -((neg - mean) ** 2).sum(axis=1) / (2 * sd ** 2) - 2 * np.log(sd)
    return log_density(layout["positive_mean"], layout["positive_std"]) > \
        log_density(layout["negative_mean"], layout["negative_std"])


@pytest.mark.parametrize("shape", ["uniform", "gaussian"])
@pytest.mark.parametrize("ratio", [1.0, 10.0, 20.0])
def test_density_ratio_generators_class_sizes_density_ratio_and_overlap(shape, ratio):
    from ikviz.data import density_ratio_layout, load

    X, y = load("density-ratio", n=40000, ratio=ratio, shape=shape, seed=2)
    assert X.shape == (40000, 2) and np.bincount(y).tolist() == [20000, 20000]
    layout = density_ratio_layout(ratio, 0.04, shape=shape)
    pos, neg = X[y == 1], X[y == 0]
    # the sparse class spreads over `ratio` times the area: (product of the per-axis spreads) ratio
    spread = np.prod(neg.std(axis=0)) / np.prod(pos.std(axis=0))
    assert spread == pytest.approx(ratio, rel=0.05)
    if shape == "gaussian":
        assert (layout["negative_std"] / layout["positive_std"]) ** 2 == pytest.approx(ratio)
    # overlap: 4 % of the negatives where the dense class is the more likely (3 standard errors)
    share = _negatives_where_dense_class_wins(X, y, layout, shape).mean()
    assert abs(share - 0.04) < 3 * np.sqrt(0.04 * 0.96 / 20000)


def test_gaussian_density_ratio_disc_is_where_the_dense_class_wins():
    from ikviz.data import density_ratio, density_ratio_layout

    layout = density_ratio_layout(20.0, 0.1, shape="gaussian")
    X, y = density_ratio(20000, 20.0, seed=0, overlap=0.1, shape="gaussian")
    cx, cy, radius = layout["winning_disc"]
    inside = np.hypot(X[y == 0, 0] - cx, X[y == 0, 1] - cy) < radius
    assert np.array_equal(inside, _negatives_where_dense_class_wins(X, y, layout, "gaussian"))
    assert abs(inside.mean() - 0.1) < 0.01
    # a larger overlap brings the means closer
    assert density_ratio_layout(20.0, 0.1, shape="gaussian")["separation"] < \
        density_ratio_layout(20.0, 0.04, shape="gaussian")["separation"]
    # ratio 1: equal spreads, the boundary is the perpendicular bisector
    one = density_ratio_layout(1.0, 0.04, shape="gaussian")
    assert one["winning_halfplane_x"] == pytest.approx(0.5 + one["separation"] / 2)


def test_density_ratio_loader_keeps_its_default_and_is_seeded_per_shape():
    from ikviz.data import density_ratio, load

    X, _ = load("density-ratio", seed=5)
    assert np.array_equal(X, density_ratio(500, 10.0, seed=5)[0])
    assert np.array_equal(X, load("density_ratio", shape="uniform", seed=5)[0])  # old spelling, default shape
    G, g = load("density-ratio", shape="gaussian", seed=5)
    assert G.shape == (500, 2) and np.bincount(g).tolist() == [250, 250] and not np.allclose(G, X)
    assert np.array_equal(G, load("density-ratio", shape="gaussian", seed=5)[0])
    assert not np.array_equal(G, load("density-ratio", shape="gaussian", seed=6)[0])


def test_density_ratio_generators_validate_shape_and_overlap():
    from ikviz.data import density_ratio
    from ikviz.data.density_ratio import max_overlap

    with pytest.raises(ValueError, match="shape"):
        density_ratio(shape="square")
    with pytest.raises(ValueError, match="overlap"):
        density_ratio(ratio=20.0, overlap=0.1)  # more than 1 / 20 of the negatives cannot fit in the unit square
    density_ratio(ratio=20.0, overlap=0.1, shape="gaussian")  # Gaussians can overlap more
    with pytest.raises(ValueError, match="overlap"):
        density_ratio(ratio=20.0, overlap=0.2, shape="gaussian")
    assert max_overlap(20.0, "gaussian") == pytest.approx(1 - 20 ** (-1 / 19))
    with pytest.raises(ValueError, match="overlap must be > 0"):
        density_ratio(overlap=0.0, shape="gaussian")
    assert np.isfinite(density_ratio(n=10, overlap=1e-9, shape="gaussian")[0]).all()
