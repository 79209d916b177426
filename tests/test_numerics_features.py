"""Issue 31 item 5 for the explicit feature maps: random Fourier features and RandLocal.

Before: a row of RandomFourierFeatures alone differed from the same row in a
batch by up to 0.42 far from the origin (u . x lost its phase to rounding);
RandLocal gave all-infinite features for data spread near the float maximum;
and RandLocal's nearest anchor was picked with ``|x|^2 - 2 x.a + |a|^2``,
whose rounding broke exact ties against the documented lowest index.
"""

import numpy as np
import pytest

from ikviz.features import RandLocal, RandomFourierFeatures
from ikviz.learn import FOGDClassifier


@pytest.mark.parametrize("kernel", ["gaussian", "laplacian"])
@pytest.mark.parametrize("offset", [0.0, 1e6, 1e15])
def test_fourier_row_alone_equals_its_row_in_a_batch(kernel, offset):
    rng = np.random.default_rng(0)
    X = rng.normal(size=(60, 3)) + offset
    rff = RandomFourierFeatures(kernel, gamma=0.5, n_components=300, random_state=0).fit(X)
    batch = rff.transform(X)
    alone = np.vstack([rff.transform(X[i:i + 1]) for i in range(len(X))])
    assert np.array_equal(alone, batch)


def test_fourier_features_far_from_the_origin_approximate_the_kernel_of_the_differences():
    rng = np.random.default_rng(1)
    local = rng.normal(size=(40, 2))
    X = local + 1e15  # exact: the grid of 1e15 is 0.125, and local rounds to it
    diff = X[:, None, :] - X[None, :, :]
    exact = np.exp(-0.5 * (diff ** 2).sum(-1))
    Z = RandomFourierFeatures(gamma=0.5, n_components=4000, random_state=0).fit_transform(X)
    assert np.abs(Z @ Z.T - exact).max() < 0.1
    assert np.allclose(RandomFourierFeatures(gamma=0.5, n_components=50, random_state=0).fit(X).centre_,
                       (X.min(0) + X.max(0)) / 2)


def test_fogd_scores_do_not_depend_on_the_batch_far_from_the_origin():
    rng = np.random.default_rng(2)
    X = rng.uniform(-1, 1, size=(600, 2)) + 1e9
    y = (X[:, 0] > 1e9).astype(int)
    clf = FOGDClassifier(gamma=4.0, n_components=100, random_state=0).fit(X, y)
    batch = clf.decision_function(X[:50])
    alone = np.concatenate([clf.decision_function(X[i:i + 1]) for i in range(50)])
    assert np.array_equal(alone, batch)
    assert clf.mistake_rate_ < 0.2  # the map still separates the two halves a unit apart


@pytest.mark.parametrize("scale", [1.0, 0.9, 0.5])
def test_randlocal_features_stay_finite_near_the_float_maximum(scale):
    big = np.finfo(float).max * scale
    X = np.random.default_rng(0).uniform(-1, 1, size=(50, 3)) * big
    rl = RandLocal(n_sets=8, min_anchors=2, max_anchors=8, random_state=0).fit(X)
    F = rl.transform(X)
    assert np.isfinite(F.data).all() and (F.data > 0).all() and np.isfinite(rl.d_avg_).all()
    # the same data a power of two smaller gives the same features, in units 2 ** value_exponent_
    small = RandLocal(n_sets=8, min_anchors=2, max_anchors=8, random_state=0).fit(np.ldexp(X, -600))
    assert np.allclose(np.ldexp(small.transform(np.ldexp(X, -600)).data, 600 - rl.value_exponent_), F.data,
                       rtol=1e-12)
    assert rl.value_exponent_ >= (1 if scale == 1.0 else 0)  # there, distances of 2 max overflow


def test_randlocal_value_exponent_is_zero_for_ordinary_data():
    X = np.random.default_rng(0).normal(size=(100, 3)) * 1e300
    assert RandLocal(n_sets=5, random_state=0).fit(X).value_exponent_ == 0


def _symmetric_pairs(seed, offset):
    """60 centres q and, for each, two rows q - v and q + v exactly as far from q (45-bit values)."""
    rng = np.random.default_rng(seed)
    q = np.round(rng.uniform(0, 1, size=(60, 3)) * 2**45) / 2**45 + offset
    v = np.round(rng.uniform(-1, 1, size=(60, 3)) * 2**30) / 2**45
    X = np.vstack([q - v, q + v])
    assert np.array_equal(np.abs(X[:60] - q), np.abs(X[60:] - q))  # exact ties by construction
    return X, q


@pytest.mark.parametrize("offset", [0.0, 1e3])
def test_randlocal_exact_ties_go_to_the_lowest_anchor_index(offset):
    ties = 0
    for seed in range(4):
        X, q = _symmetric_pairs(seed, offset)
        rl = RandLocal(n_sets=50, min_anchors=4, max_anchors=16, random_state=seed).fit(X)
        F = rl.transform(q)
        starts = np.concatenate([[0], np.cumsum(rl.n_anchors_)])
        for s, (anchors, feats) in enumerate(zip(rl.anchors_, rl.features_)):
            d2 = ((q[:, None, feats] - anchors[None]) ** 2).sum(-1)  # exact: both pair members share |q - a|
            chosen = np.array([F[i, starts[s]:starts[s + 1]].nonzero()[1][0] for i in range(len(q))])
            nearest = d2.min(axis=1, keepdims=True)
            tied = (d2 == nearest).sum(axis=1) > 1
            ties += int(tied.sum())
            assert np.array_equal(chosen[tied], np.argmax(d2[tied] == nearest[tied], axis=1))
    assert ties > 20  # the construction does produce exact ties


def test_randlocal_row_alone_equals_its_row_in_a_batch():
    X = np.random.default_rng(3).normal(size=(300, 4)) + 1e8
    rl = RandLocal(n_sets=20, random_state=0).fit(X)
    batch = rl.transform(X[:40]).toarray()
    alone = np.vstack([rl.transform(X[i:i + 1]).toarray() for i in range(40)])
    assert np.array_equal(alone, batch)
