"""Seeded synthetic datasets from the papers.

Every generator takes ``seed`` and returns the same data for the same seed.
Generators that have classes return ``(X, y)``; the others return ``X``.
Parameters are checked with scikit-learn's ``validate_params`` (NumPy scalars
such as ``np.int64(500)`` are accepted), and a request for more than 2 GiB of
data is refused before anything is allocated.
"""

from __future__ import annotations

import math
from numbers import Integral, Real

import numpy as np
from .._sklearn import Interval, validate_params

from .._validation import check_dense_size

#: constraints shared by the generators
COUNT = [Interval(Integral, 1, None, closed="left")]
SEED = [Interval(Integral, 0, None, closed="left"), np.random.Generator, np.random.SeedSequence, None]
FINITE = [Interval(Real, None, None, closed="neither")]
#: spreads: positive (and at most 1e300, checked by :func:`check_spread`, so the samples stay finite)
SPREAD = [Interval(Real, 0, None, closed="neither")]


def check_spread(**values) -> None:
    """Refuse spreads over 1e300, whose samples would overflow (compared as Python floats: no float32 casts)."""
    for name, value in values.items():
        if float(value) > 1e300:
            raise ValueError(f"{name} must be at most 1e300 (larger spreads overflow); got {value!r}.")


def _count(name, value, minimum=1):
    """``value`` as an int >= ``minimum``, or a ValueError naming ``name`` (for counts inside sequences)."""
    if isinstance(value, bool) or not isinstance(value, Integral) or value < minimum:
        raise ValueError(f"{name} must be an integer >= {minimum}; got {value!r}.")
    return int(value)


def check_size(n_rows: int, n_cols: int, what: str) -> None:
    """Refuse data larger than 2 GiB, saying which arguments made it so."""
    check_dense_size(n_rows, n_cols, None, what, "Ask for fewer points or dimensions.")


@validate_params({"n": COUNT, "d": COUNT, "low": FINITE, "high": FINITE, "seed": SEED},
                 prefer_skip_nested_validation=True)
def uniform(n: int, d: int = 2, low: float = -1.0, high: float = 1.0, seed=0) -> np.ndarray:
    """``n`` points uniform in the hypercube [low, high]^d (the square when d = 2).

    Parameters
    ----------
    n : int
        Number of points.
    d : int, default=2
        Number of dimensions.
    low, high : float, default=-1.0, 1.0
        The cube's bounds, ``low < high``.
    seed : int, numpy Generator, SeedSequence or None, default=0
        Seed; the same seed gives the same points.

    Returns
    -------
    X : ndarray of shape (n, d)

    Examples
    --------
    >>> from ikviz.data import uniform
    >>> X = uniform(5, d=3, low=0, high=1, seed=0)
    >>> X.shape, bool(X.min() >= 0 and X.max() <= 1)
    ((5, 3), True)
    """
    if not high > low:
        raise ValueError(f"high must be greater than low; got low={low}, high={high}.")
    if not math.isfinite(float(high) - float(low)):
        raise ValueError(f"high - low must be a finite number; got low={low}, high={high}.")
    check_size(n, d, f"uniform(n={n}, d={d})")
    return np.random.default_rng(seed).uniform(low, high, size=(int(n), int(d)))


#: Quadrant order used by :func:`four_quadrants`: densest first, sparsest last.
QUADRANTS = ("bottom-left", "top-left", "bottom-right", "top-right")


@validate_params({"counts": ["array-like"], "seed": SEED}, prefer_skip_nested_validation=True)
def four_quadrants(counts=(1600, 400, 400, 100), seed=0) -> tuple[np.ndarray, np.ndarray]:
    """The varied-density square of Ting et al. (2018) Fig. 4.

    Points are uniform within each quadrant of [-1, 1]^2; the default has
    densities 16 : 4 : 4 : 1, densest bottom-left and sparsest top-right.

    Parameters
    ----------
    counts : sequence of 4 int, default=(1600, 400, 400, 100)
        Points in (bottom-left, top-left, bottom-right, top-right), each >= 1.
    seed : int, numpy Generator, SeedSequence or None, default=0
        Seed; the same seed gives the same points.

    Returns
    -------
    X : ndarray of shape (sum(counts), 2)
    quadrant : ndarray of shape (sum(counts),) of int
        Labels 0..3 in the order of :data:`QUADRANTS`.

    Examples
    --------
    >>> from ikviz.data import four_quadrants
    >>> X, q = four_quadrants(counts=(8, 2, 2, 1), seed=0)
    >>> X.shape, q.tolist()
    ((13, 2), [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 2, 2, 3])
    """
    if isinstance(counts, (str, bytes)) or np.ndim(counts) != 1:
        raise ValueError(f"counts must be a sequence of four integers (one per quadrant); got {counts!r}.")
    if len(counts) != 4:
        raise ValueError(f"counts needs four numbers (one per quadrant); got {len(counts)}.")
    counts = tuple(_count("each of counts", c) for c in counts)
    check_size(sum(counts), 2, f"four_quadrants(counts={counts})")
    rng = np.random.default_rng(seed)
    signs = ((-1, -1), (-1, 1), (1, -1), (1, 1))  # (x, y) sign of each quadrant
    parts = [rng.uniform(0.0, 1.0, size=(c, 2)) * s for c, s in zip(counts, signs)]
    X = np.vstack(parts)
    labels = np.repeat(np.arange(4), counts)
    return X, labels


@validate_params({"n_per_cluster": COUNT, "w": COUNT, "sigma_a": SPREAD, "sigma_b": SPREAD, "seed": SEED},
                 prefer_skip_nested_validation=True)
def w_gaussians(n_per_cluster: int = 500, w: int = 1, sigma_a: float = 1.0, sigma_b: float = 1.0,
                seed=0) -> tuple[np.ndarray, np.ndarray]:
    """Two w-dimensional Gaussian subspace clusters in 2w dimensions (Ting et al. 2021).

    Cluster 0 is N(0, sigma_a^2) on coordinates 0..w-1 and zero elsewhere;
    cluster 1 is N(0, sigma_b^2) on coordinates w..2w-1 and zero elsewhere. The
    clusters share only the origin. ``sigma_b = 3`` gives the unequal-variance
    variant of Table 6.

    Parameters
    ----------
    n_per_cluster : int, default=500
        Points per cluster.
    w : int, default=1
        Dimensions of each cluster's subspace.
    sigma_a, sigma_b : float, default=1.0
        Standard deviations of the two clusters (positive, at most 1e300).
    seed : int, numpy Generator, SeedSequence or None, default=0
        Seed; the same seed gives the same points.

    Returns
    -------
    X : ndarray of shape (2 n_per_cluster, 2 w)
    y : ndarray of shape (2 n_per_cluster,) of int

    Examples
    --------
    >>> from ikviz.data import w_gaussians
    >>> X, y = w_gaussians(n_per_cluster=3, w=2, seed=0)
    >>> X.shape, y.tolist()
    ((6, 4), [0, 0, 0, 1, 1, 1])
    >>> bool((X[:3, 2:] == 0).all() and (X[3:, :2] == 0).all())
    True
    """
    n, w = int(n_per_cluster), int(w)
    check_spread(sigma_a=sigma_a, sigma_b=sigma_b)
    check_size(2 * n, 2 * w, f"w_gaussians(n_per_cluster={n}, w={w})")
    rng = np.random.default_rng(seed)
    X = np.zeros((2 * n, 2 * w))
    X[:n, :w] = rng.normal(0.0, sigma_a, size=(n, w))
    X[n:, w:] = rng.normal(0.0, sigma_b, size=(n, w))
    y = np.repeat([0, 1], n)
    return X, y
