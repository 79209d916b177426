"""Seeded synthetic datasets from the papers.

Every generator takes ``seed`` and returns the same data for the same seed.
Generators that have classes return ``(X, y)``; the others return ``X``.
"""

from __future__ import annotations

import numbers

import numpy as np


def _count(name, value, minimum=1):
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value < minimum:
        raise ValueError(f"{name} must be an integer >= {minimum}; got {value!r}.")
    return int(value)


def uniform(n: int, d: int = 2, low: float = -1.0, high: float = 1.0, seed=0) -> np.ndarray:
    """``n`` points uniform in the hypercube [low, high]^d (the square when d = 2)."""
    n, d = _count("n", n), _count("d", d)
    if not high > low:
        raise ValueError(f"high must be greater than low; got low={low}, high={high}.")
    return np.random.default_rng(seed).uniform(low, high, size=(n, d))


#: Quadrant order used by :func:`four_quadrants`: densest first, sparsest last.
QUADRANTS = ("bottom-left", "top-left", "bottom-right", "top-right")


def four_quadrants(counts=(1600, 400, 400, 100), seed=0) -> tuple[np.ndarray, np.ndarray]:
    """The varied-density square of Ting et al. (2018) Fig. 4.

    Points are uniform within each quadrant of [-1, 1]^2; ``counts`` gives the
    number of points in (bottom-left, top-left, bottom-right, top-right), so the
    default has densities 16 : 4 : 4 : 1, densest bottom-left and sparsest
    top-right. Returns ``X`` (sum(counts), 2) and ``quadrant`` labels 0..3 in
    the order of :data:`QUADRANTS`.
    """
    counts = tuple(_count("each quadrant count", c) for c in counts)
    if len(counts) != 4:
        raise ValueError(f"counts needs four numbers (one per quadrant); got {len(counts)}.")
    rng = np.random.default_rng(seed)
    signs = ((-1, -1), (-1, 1), (1, -1), (1, 1))  # (x, y) sign of each quadrant
    parts = [rng.uniform(0.0, 1.0, size=(c, 2)) * s for c, s in zip(counts, signs)]
    X = np.vstack(parts)
    labels = np.repeat(np.arange(4), counts)
    return X, labels


def w_gaussians(n_per_cluster: int = 500, w: int = 1, sigma_a: float = 1.0, sigma_b: float = 1.0,
                seed=0) -> tuple[np.ndarray, np.ndarray]:
    """Two w-dimensional Gaussian subspace clusters in 2w dimensions (Ting et al. 2021).

    Cluster 0 is N(0, sigma_a^2) on coordinates 0..w-1 and zero elsewhere;
    cluster 1 is N(0, sigma_b^2) on coordinates w..2w-1 and zero elsewhere. The
    clusters share only the origin. ``sigma_b = 3`` gives the unequal-variance
    variant of Table 6. Returns ``X`` (2 n_per_cluster, 2w) and labels ``y``.
    """
    n, w = _count("n_per_cluster", n_per_cluster), _count("w", w)
    for name, s in (("sigma_a", sigma_a), ("sigma_b", sigma_b)):
        if not s > 0:
            raise ValueError(f"{name} must be positive; got {s}.")
    rng = np.random.default_rng(seed)
    X = np.zeros((2 * n, 2 * w))
    X[:n, :w] = rng.normal(0.0, sigma_a, size=(n, w))
    X[n:, w:] = rng.normal(0.0, sigma_b, size=(n, w))
    y = np.repeat([0, 1], n)
    return X, y
