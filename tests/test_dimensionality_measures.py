"""Measures of the curse of dimensionality: N_eps, var(F/E[F]), k-occurrence, precision@k, and the
similarities they are fed (fractional l_p, SNN, normalised linear)."""

import numpy as np
import pytest

from ikviz.kernels.neighbourhood import lp_distance, lp_similarity, normalised_linear, shared_neighbours
from ikviz.measures import (k_nearest, k_nearest_blocks, k_occurrence, n_eps, occurrence_distribution,
                            precision_at_k, relative_variance, skewness)
from ikviz.measures.similarities import LABELS, fit_similarity


# ------------------------------------------------------------------ N_eps and variance
def test_n_eps_counts_points_within_the_eps_window_and_ties():
    # dissimilarities 0.10, 0.1004, 0.104, 0.5 and a tie at the top
    S = 1 - np.array([[0.10, 0.1004, 0.104, 0.5, 0.10]])
    assert n_eps(S, 0.005).tolist() == [3]      # 0.10, 0.10 (tie) and 0.1004 <= 0.1005
    assert n_eps(S, 0.05).tolist() == [4]       # 0.104 <= 0.105 joins
    assert n_eps(S[0], 0.0) == 2                # only the tie; a single row gives an int
    assert n_eps(S, 10.0).tolist() == [5]


def test_n_eps_is_one_for_an_exact_match_and_invariant_to_scaling_distances():
    rng = np.random.default_rng(0)
    dist = rng.uniform(1, 2, size=(3, 50))
    a = n_eps(1 - dist / dist.max(), 0.05)
    b = n_eps(1 - dist / (10 * dist.max()), 0.05)
    assert (a == b).all()
    S = np.full((1, 4), 0.2)
    S[0, 2] = 1.0
    assert n_eps(S, 0.5).tolist() == [1]


def test_relative_variance_matches_definition_and_is_scale_free():
    m = np.array([0.2, 0.4, 0.6, 0.8])
    expected = np.var(m / m.mean())
    assert relative_variance(1 - m) == pytest.approx(expected)
    assert relative_variance(1 - m / 4) == pytest.approx(expected)
    assert relative_variance(np.full(5, 0.3)) == 0.0       # all equally far: fully concentrated
    assert np.isnan(relative_variance(np.ones(3)))         # all identical to the query


@pytest.mark.parametrize("bad, match", [
    (np.array([[0.2, 1.5]]), "lie in \\[0, 1\\]"),
    (np.array([[np.nan, 0.1]]), "NaN"),
    (np.zeros((0, 3)), "S is empty"),
])
def test_instability_rejects_bad_similarities(bad, match):
    with pytest.raises(ValueError, match=match):
        n_eps(bad, 0.01)


def test_n_eps_rejects_negative_eps():
    with pytest.raises(ValueError, match="eps"):
        n_eps(np.array([0.1, 0.2]), -0.1)


# ------------------------------------------------------------------ k nearest with random ties
def test_k_nearest_orders_by_similarity_and_excludes_self():
    S = np.array([[1.0, 0.9, 0.1, 0.5],
                  [0.9, 1.0, 0.2, 0.3]])
    assert k_nearest(S, 2, exclude_self=True).tolist() == [[1, 3], [0, 3]]
    assert k_nearest(S, 2).tolist() == [[0, 1], [1, 0]]


def test_ties_are_broken_at_random_reproducibly_and_per_query():
    S = np.zeros((400, 400))  # everything tied
    a = k_nearest(S, 3, seed=1, exclude_self=True)
    assert (a == k_nearest(S, 3, seed=1, exclude_self=True)).all()
    assert (a != k_nearest(S, 3, seed=2, exclude_self=True)).any()
    assert not (a == np.arange(400)[:, None]).any()
    # each query draws its own order: picks spread over the points, no artificial hubs
    occ = k_occurrence(a, 400)
    assert occ.max() <= 12 and (occ > 0).mean() > 0.9
    # only the tied candidates are drawn from: a strictly better column always wins
    S[:, 7] = 0.5
    b = k_nearest(S, 1, seed=3)
    assert (b[:, 0] == 7).all()


def test_block_results_do_not_depend_on_block_size():
    rng = np.random.default_rng(1)
    S = rng.integers(0, 4, size=(300, 300)) / 3.0
    full = k_nearest(S, 4, seed=5, exclude_self=True)
    blocked = k_nearest_blocks(lambda a, b: S[a:b], 300, 4, seed=5, block=64)
    assert (full == blocked).all()


def test_k_occurrence_distribution_and_skewness():
    nb = np.array([[1, 2], [0, 2], [0, 1], [2, 0]])
    occ = k_occurrence(nb)
    assert occ.tolist() == [3, 2, 3, 0]
    assert occ.sum() == nb.size
    values, probs = occurrence_distribution(occ)
    assert values.tolist() == [0, 2, 3] and probs.tolist() == [0.25, 0.25, 0.5]
    assert skewness([0, 0, 0, 0, 10]) > 1 > abs(skewness([1, 2, 3, 4, 5]))
    with pytest.raises(ValueError, match="indices"):
        k_occurrence(np.array([[5]]), 3)


def test_k_nearest_rejects_bad_k():
    with pytest.raises(ValueError, match=r"k=3 neighbours asked for, but S has 3 column\(s\) and each query's own"):
        k_nearest(np.zeros((2, 3)), 3, exclude_self=True)
    with pytest.raises(ValueError, match="The 'k' parameter of k_nearest must be an int"):
        k_nearest(np.zeros((2, 3)), 1.5)
    with pytest.raises(ValueError, match=r"S has 1 row\(s\) with NaN"):
        k_nearest(np.array([[0.0, np.nan]]), 1)
    assert k_nearest(np.eye(3), np.int64(1), seed=np.uint32(3)).shape == (3, 1)


def test_hubness_inputs_are_checked():
    with pytest.raises(ValueError, match="neighbours must hold whole numbers"):
        k_occurrence([[0.5, 1.0]])
    with pytest.raises(ValueError, match=r"The 'n' parameter of k_nearest_blocks"):
        k_nearest_blocks(lambda a, b: np.zeros((b - a, 4)), 1, 1)
    with pytest.raises(ValueError, match=r"The neighbour indices of n=1000000000000 points would be a dense"):
        k_nearest_blocks(lambda a, b: np.zeros((b - a, 4)), 10**12, 1)
    with pytest.raises(ValueError, match=r"similarity_block\(0, 4\) returned shape \(4, 3\)"):
        k_nearest_blocks(lambda a, b: np.zeros((b - a, 3)), 4, 1)
    with pytest.raises(ValueError, match="occurrences has 1 NaN"):
        skewness([1.0, np.nan, 2.0])
    assert skewness(np.array([0, 0, 0, 1, 9]) * 1e300) == pytest.approx(skewness([0, 0, 0, 1, 9]))


def test_precision_at_k():
    labels = np.array([0, 0, 1, 1])
    nb = np.array([[1, 2], [0, 3], [3, 0], [2, 1]])
    assert precision_at_k(nb, labels) == pytest.approx(0.5)
    with pytest.raises(ValueError, match=r"query_labels has 2 label\(s\) but neighbours has 4 row\(s\)"):
        precision_at_k(nb, labels, query_labels=[0, 1])


# ------------------------------------------------------------------ similarities
def test_lp_distance_matches_the_definition_for_fractional_p():
    rng = np.random.default_rng(2)
    X, Y = rng.normal(size=(5, 7)), rng.normal(size=(4, 7))
    for p in (0.1, 0.5, 1.0, 2.0, 3.0):
        expected = (np.abs(X[:, None] - Y[None]) ** p).sum(-1) ** (1 / p)
        assert np.allclose(lp_distance(X, Y, p=p), expected)
    S = lp_similarity(X, Y, p=0.5)
    assert S.min() == pytest.approx(0.0) and S.max() <= 1.0
    with pytest.raises(ValueError, match="The 'p' parameter of lp_distance must be a float in the range"):
        lp_distance(X, Y, p=0)


@pytest.mark.parametrize("p", [0.1, 0.5, 1.0, 2.0, 3.0, 60.0])
@pytest.mark.parametrize("scale", [1e-300, 1.0, 1e300])
def test_lp_distance_is_exact_at_any_magnitude_and_p(p, scale):
    """Differences are divided by their largest before the power: no overflow, no underflow, any p."""
    rng = np.random.default_rng(5)
    X, Y = rng.normal(size=(6, 5)), rng.normal(size=(3, 5))
    top = np.abs(X[:, None] - Y[None]).max(-1, keepdims=True)
    expected = top[..., 0] * ((np.abs(X[:, None] - Y[None]) / top) ** p).sum(-1) ** (1 / p)
    assert np.allclose(lp_distance(X * scale, Y * scale, p=p) / scale, expected, rtol=1e-10)
    assert np.allclose(lp_similarity(X * scale, Y * scale, p=p), lp_similarity(X, Y, p=p))
    shifted = lp_similarity(X + 1e9, Y + 1e9, p=p)
    assert np.allclose(shifted, lp_similarity(X, Y, p=p), atol=1e-6)


def test_lp_distance_refuses_results_beyond_the_float_range():
    X = np.random.default_rng(0).normal(size=(4, 50))
    with pytest.raises(ValueError, match="p=0.001 is so small"):
        lp_distance(X, p=0.001)
    with pytest.raises(ValueError, match="exceed the float range; rescale X"):
        lp_distance(X * 1e307, p=0.5)
    assert np.isfinite(lp_similarity(X * 1e307, p=0.5)).all()


def test_normalised_linear_is_cosine_in_unit_range():
    X = np.array([[1.0, 0.0], [0.0, 2.0], [-3.0, 0.0]])
    S = normalised_linear(X)
    assert np.allclose(np.diag(S), 1.0)
    assert S[0, 1] == pytest.approx(0.5) and S[0, 2] == pytest.approx(0.0)


def test_shared_neighbours_counts_common_neighbours():
    X = np.array([[0.0], [0.1], [0.2], [5.0], [5.1]])
    S = shared_neighbours(X, k=2)
    # N_2: 0->{0,1}, 1->{1,0 or 2}, 3->{3,4}, 4->{4,3}
    assert S[3, 4] == 1.0 and S[0, 3] == 0.0
    assert set(np.unique(S)) <= {0.0, 0.5, 1.0}
    with pytest.raises(ValueError, match=r"k=9 neighbours asked for, but X has 5 row\(s\)"):
        shared_neighbours(X, k=9)
    far = shared_neighbours(X + 1.7e9, k=2)  # brute-force neighbours centre the data first
    assert np.array_equal(far[3:, 3:], S[3:, 3:]) and far[0, 3] == 0.0


@pytest.mark.parametrize("measure", list(LABELS))
def test_every_measure_gives_unit_range_similarities_for_queries_and_rows(measure):
    rng = np.random.default_rng(3)
    X = rng.normal(size=(60, 4))
    sim = fit_similarity(measure, X, seed=0, psi=8, t=50, k_snn=5, k_ag=5)
    S_q = sim(X[:6] + 0.01)
    S_r = sim(rows=slice(0, 6))
    for S in (S_q, S_r):
        assert S.shape == (6, 60) and S.min() >= 0 and S.max() <= 1 + 1e-12
    # a point is at least as similar to itself as to any other point (IK and SNN may tie)
    assert np.all(S_r[np.arange(6), np.arange(6)] >= S_r.max(axis=1) - 1e-12)
    with pytest.raises(ValueError, match="either queries"):
        sim()


def test_unknown_measure_is_rejected():
    with pytest.raises(ValueError, match="unknown measure"):
        fit_similarity("cosine", np.zeros((3, 2)))
