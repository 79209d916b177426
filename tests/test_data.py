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
    (lambda: uniform(0), "n must be an integer >= 1"),
    (lambda: uniform(5, low=1, high=0), "high must be greater than low"),
    (lambda: four_quadrants(counts=(1, 2, 3)), "four numbers"),
    (lambda: w_gaussians(10, w=0), "w must be an integer >= 1"),
    (lambda: w_gaussians(10, sigma_a=0), "sigma_a must be positive"),
])
def test_bad_arguments(call, match):
    with pytest.raises(ValueError, match=match):
        call()
