"""Hubness: how often each point is among the k nearest neighbours of the others.

Radovanović et al. (2010) showed that in high dimensions the k-occurrence
O_k(x) = |{y : x in N_k(y)}| becomes strongly right-skewed: a few "hub" points
are everyone's neighbours and many points are no one's. Ting et al. (2021,
App. E) show that Isolation Kernel is much less affected than the Gaussian
kernel.

The nearest neighbours are found from similarities (larger = nearer) of any
kernel. Measures with few distinct values (Isolation Kernel: multiples of
1/t) produce many exact ties; ties are broken at random, seeded and
independently for each query, so the result reflects the kernel and not the
order of the points in memory.
"""

from __future__ import annotations

import numbers
from typing import Callable

import numpy as np
from scipy.stats import skew

from ._select import top_k

_BLOCK = 512  # query rows per similarity block: bounds memory to _BLOCK x n floats


def _check_k(k, n_available: int) -> int:
    if isinstance(k, bool) or not isinstance(k, numbers.Integral) or not 1 <= k <= n_available:
        raise ValueError(f"k must be an integer between 1 and {n_available} (the candidates per query); got {k!r}.")
    return int(k)


def _seed(seed) -> int:
    if isinstance(seed, bool) or not isinstance(seed, numbers.Integral) or seed < 0:
        raise ValueError(f"seed must be a non-negative integer; got {seed!r}.")
    return int(seed) % 2**63


def k_nearest(S, k: int, *, seed: int = 0, row_offset: int = 0, exclude_self: bool = False,
              return_similarity: bool = False):
    """Indices (n_queries, k) of the k most similar columns of each row of ``S``, nearest first.

    Ties are broken at random (seeded; each query independently). With
    ``exclude_self`` row ``i`` may not pick column ``row_offset + i`` (the
    queries are the dataset's own points, ``S`` being rows
    ``row_offset...`` of a square similarity matrix). With
    ``return_similarity`` the similarities of the picks come too.
    """
    S = np.asarray(S, dtype=np.float64)
    if S.ndim != 2 or S.size == 0:
        raise ValueError(f"S must be a non-empty 2-D array (queries x points); got shape {S.shape}.")
    if np.isnan(S).any():
        raise ValueError("S contains NaN; similarities must be numbers.")
    n_rows, n_cols = S.shape
    k = _check_k(k, n_cols - (1 if exclude_self else 0))
    exclude = (np.arange(row_offset, row_offset + n_rows, dtype=np.int64) if exclude_self
               else np.full(n_rows, -1, dtype=np.int64))
    if exclude_self and row_offset + n_rows > n_cols:
        raise ValueError("exclude_self needs the queries to be columns of S (row_offset + rows <= columns).")
    idx = np.empty((n_rows, k), dtype=np.int64)
    val = np.empty((n_rows, k))
    top_k(np.ascontiguousarray(S), k, int(row_offset), exclude, _seed(seed), idx, val)
    return (idx, val) if return_similarity else idx


def k_nearest_blocks(similarity_block: Callable[[int, int], np.ndarray], n: int, k: int, *, seed: int = 0,
                     block: int = _BLOCK, progress: Callable[[float], None] | None = None) -> np.ndarray:
    """k nearest neighbours (n, k) of every point of a dataset of size ``n``, itself excluded.

    ``similarity_block(start, stop)`` must return the (stop - start, n)
    similarities of points ``start..stop-1`` to all points, so no n x n matrix
    is held at once. Results do not depend on ``block``.
    """
    if isinstance(n, bool) or not isinstance(n, numbers.Integral) or n < 2:
        raise ValueError(f"n must be an integer >= 2; got {n!r}.")
    k = _check_k(k, n - 1)
    out = np.empty((n, k), dtype=np.int64)
    for start in range(0, n, block):
        stop = min(n, start + block)
        S = similarity_block(start, stop)
        if np.shape(S) != (stop - start, n):
            raise ValueError(f"similarity_block({start}, {stop}) returned shape {np.shape(S)}; "
                             f"expected {(stop - start, n)}.")
        out[start:stop] = k_nearest(S, k, seed=seed, row_offset=start, exclude_self=True)
        if progress is not None:
            progress(stop / n)
    return out


def k_occurrence(neighbours, n: int | None = None) -> np.ndarray:
    """O_k(x) for every point: how many rows of ``neighbours`` (n_queries, k) list x."""
    neighbours = np.asarray(neighbours)
    if neighbours.ndim != 2 or neighbours.dtype.kind not in "iu":
        raise ValueError(f"neighbours must be a 2-D integer array (queries x k); got {neighbours.dtype} "
                         f"of shape {neighbours.shape}.")
    n = neighbours.shape[0] if n is None else int(n)
    if neighbours.size and (neighbours.min() < 0 or neighbours.max() >= n):
        raise ValueError(f"neighbour indices must lie in [0, {n - 1}].")
    return np.bincount(neighbours.ravel(), minlength=n)


def occurrence_distribution(occurrences) -> tuple[np.ndarray, np.ndarray]:
    """p(O_k): the distinct values of O_k and the fraction of points having each (Ting et al. 2021, Fig. 5)."""
    values, counts = np.unique(np.asarray(occurrences), return_counts=True)
    return values, counts / counts.sum()


def skewness(occurrences) -> float:
    """Sample skewness of the k-occurrence distribution; large positive values mean hubs."""
    occ = np.asarray(occurrences, dtype=np.float64)
    if occ.ndim != 1 or occ.size < 3:
        raise ValueError(f"need a 1-D array of at least 3 occurrences; got shape {occ.shape}.")
    if np.ptp(occ) == 0:
        return 0.0
    return float(skew(occ, bias=True))
