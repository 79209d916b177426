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

from numbers import Integral
from typing import Callable

import numpy as np
from scipy.stats import skew

from .._sklearn import Interval, validate_params
from .._validation import check_array, check_dense_size
from ._select import top_k

_BLOCK = 512  # query rows per similarity block: bounds memory to _BLOCK x n floats
_SEED = [Interval(Integral, 0, None, closed="left")]
_COUNT = [Interval(Integral, 1, None, closed="left")]


def _check_k(k, n_available: int, what: str) -> int:
    if k > n_available:
        raise ValueError(f"k={k!r} neighbours asked for, but {what}; pass k <= {n_available}.")
    return int(k)


@validate_params({"S": ["array-like"], "k": _COUNT, "seed": _SEED, "row_offset": [Interval(Integral, 0, 2**62,
                 closed="both")], "exclude_self": ["boolean"], "return_similarity": ["boolean"]},
                 prefer_skip_nested_validation=True)
def k_nearest(S, k: int, *, seed: int = 0, row_offset: int = 0, exclude_self: bool = False,
              return_similarity: bool = False):
    """Indices (n_queries, k) of the k most similar columns of each row of ``S``, nearest first.

    Ties are broken at random, seeded and independently for each query.

    Parameters
    ----------
    S : array-like of shape (n_queries, n_points)
        Similarities (larger = more similar), any finite numbers.
    k : int
        Neighbours per query.
    seed : int, default=0
        Seed of the tie-breaking.
    row_offset : int, default=0
        Global index of row 0 of ``S`` when ``S`` is a block of rows of a
        larger square matrix: the tie-breaking then does not depend on the blocking.
    exclude_self : bool, default=False
        Row ``i`` may not pick column ``row_offset + i`` (the queries are the
        dataset's own points).
    return_similarity : bool, default=False
        Also return the similarities of the picks.

    Returns
    -------
    indices : ndarray of shape (n_queries, k) of int64
    similarities : ndarray of shape (n_queries, k)
        Only with ``return_similarity``.

    Examples
    --------
    >>> from ikviz.measures import k_nearest
    >>> S = [[1.0, 0.2, 0.7], [0.2, 1.0, 0.1], [0.7, 0.1, 1.0]]
    >>> k_nearest(S, 1, exclude_self=True).ravel().tolist()
    [2, 0, 0]
    """
    S = check_array(S, "S", ndim=2)
    n_rows, n_cols = S.shape
    if exclude_self and row_offset + n_rows > n_cols:
        raise ValueError(f"exclude_self needs the queries to be columns of S: row_offset + rows = "
                         f"{row_offset + n_rows} > {n_cols} columns.")
    k = _check_k(k, n_cols - (1 if exclude_self else 0),
                 f"S has {n_cols} column(s)" + (" and each query's own is excluded" if exclude_self else ""))
    exclude = (np.arange(row_offset, row_offset + n_rows, dtype=np.int64) if exclude_self
               else np.full(n_rows, -1, dtype=np.int64))
    idx = np.empty((n_rows, k), dtype=np.int64)
    val = np.empty((n_rows, k))
    top_k(S, k, int(row_offset), exclude, int(seed) % 2**63, idx, val)
    return (idx, val) if return_similarity else idx


@validate_params({"similarity_block": [callable], "n": [Interval(Integral, 2, None, closed="left")], "k": _COUNT,
                  "seed": _SEED, "block": _COUNT, "progress": [callable, None]},
                 prefer_skip_nested_validation=True)
def k_nearest_blocks(similarity_block: Callable[[int, int], np.ndarray], n: int, k: int, *, seed: int = 0,
                     block: int = _BLOCK, progress: Callable[[float], None] | None = None) -> np.ndarray:
    """k nearest neighbours (n, k) of every point of a dataset of size ``n``, itself excluded.

    No n x n matrix is held at once; results do not depend on ``block``.

    Parameters
    ----------
    similarity_block : callable
        ``similarity_block(start, stop)`` returns the (stop - start, n)
        similarities of points ``start..stop-1`` to all points.
    n : int
        Number of points (at least 2).
    k : int
        Neighbours per point, at most n - 1.
    seed : int, default=0
        Seed of the tie-breaking.
    block : int, default=512
        Rows asked for at a time.
    progress : callable, default=None
        Called with the fraction done after each block.

    Returns
    -------
    indices : ndarray of shape (n, k) of int64

    Examples
    --------
    >>> import numpy as np
    >>> from ikviz.measures import k_nearest_blocks
    >>> X = np.array([0.0, 0.1, 5.0, 5.2])
    >>> S = -np.abs(X[:, None] - X[None, :])
    >>> k_nearest_blocks(lambda a, b: S[a:b], n=4, k=1, block=3).ravel().tolist()
    [1, 0, 3, 2]
    """
    k = _check_k(k, n - 1, f"n={n} points have {n - 1} other point(s) each")
    check_dense_size(n, k, None, f"The neighbour indices of n={n} points", "Use a smaller n or k.")
    out = np.empty((n, k), dtype=np.int64)
    for start in range(0, n, block):
        stop = min(n, start + block)
        name = f"similarity_block({start}, {stop})"
        S = check_array(similarity_block(start, stop), name, ndim=2)
        if S.shape != (stop - start, n):
            raise ValueError(f"{name} returned shape {S.shape}; expected {(stop - start, n)}: one row per point "
                             f"asked for and one column per point of the dataset (n={n}).")
        out[start:stop] = k_nearest(S, k, seed=seed, row_offset=start, exclude_self=True)
        if progress is not None:
            progress(stop / n)
    return out


@validate_params({"neighbours": ["array-like"], "n": [Interval(Integral, 1, None, closed="left"), None]},
                 prefer_skip_nested_validation=True)
def k_occurrence(neighbours, n: int | None = None) -> np.ndarray:
    """O_k(x) for every point: how many rows of ``neighbours`` list x.

    Parameters
    ----------
    neighbours : array-like of shape (n_queries, k) of int
        Each query's neighbours, indices in 0..n-1.
    n : int, default=None
        Number of points; ``None`` means one per row of ``neighbours``.

    Returns
    -------
    occurrences : ndarray of shape (n,) of int64

    Examples
    --------
    >>> from ikviz.measures import k_occurrence
    >>> k_occurrence([[1, 2], [0, 2], [0, 1]])
    array([2, 2, 2])
    >>> k_occurrence([[1], [0], [0]], n=4)
    array([2, 1, 0, 0])
    """
    nb = check_array(neighbours, "neighbours", ndim=2, dtype=np.int64, allow_empty=True)
    n = nb.shape[0] if n is None else int(n)
    if n < 1:
        raise ValueError("neighbours has no rows; pass n, the number of points.")
    check_dense_size(n, 1, None, f"The k-occurrence counts of n={n} points", "Use a smaller n.")
    if nb.size and (nb.min() < 0 or nb.max() >= n):
        raise ValueError(f"neighbours holds indices from {nb.min()} to {nb.max()}, outside 0..{n - 1} (n={n}).")
    return np.bincount(nb.ravel(), minlength=n)


def _occurrences(occurrences, minimum: int) -> np.ndarray:
    occ = check_array(occurrences, "occurrences", ndim=1)
    if occ.size < minimum:
        raise ValueError(f"occurrences needs at least {minimum} value(s); got {occ.size}.")
    return occ


@validate_params({"occurrences": ["array-like"]}, prefer_skip_nested_validation=True)
def occurrence_distribution(occurrences) -> tuple[np.ndarray, np.ndarray]:
    """p(O_k): the distinct values of O_k and the fraction of points having each (Ting et al. 2021, Fig. 5).

    Parameters
    ----------
    occurrences : array-like of shape (n,)
        O_k of every point (see :func:`k_occurrence`).

    Returns
    -------
    values : ndarray
        The distinct values, increasing.
    fractions : ndarray
        The share of points with each value; sums to 1.

    Examples
    --------
    >>> from ikviz.measures import occurrence_distribution
    >>> values, p = occurrence_distribution([0, 2, 2, 4])
    >>> values.tolist(), p.tolist()
    ([0.0, 2.0, 4.0], [0.25, 0.5, 0.25])
    """
    values, counts = np.unique(_occurrences(occurrences, 1), return_counts=True)
    return values, counts / counts.sum()


@validate_params({"occurrences": ["array-like"]}, prefer_skip_nested_validation=True)
def skewness(occurrences) -> float:
    """Sample skewness of the k-occurrence distribution; large positive values mean hubs.

    Parameters
    ----------
    occurrences : array-like of shape (n,)
        O_k of every point, at least 3 values.

    Returns
    -------
    skewness : float
        0 when every value is equal.

    Examples
    --------
    >>> from ikviz.measures import skewness
    >>> round(skewness([0, 0, 0, 1, 9]), 3)
    1.457
    """
    occ = _occurrences(occurrences, 3)
    if np.ptp(occ) == 0:
        return 0.0
    # skewness is shift and scale invariant: bring the values near 1 so their cubes neither overflow nor underflow
    top = np.abs(occ).max()
    return float(skew(occ / top, bias=True))
