"""Numba kernels of density-peaks clustering, working on one row block of a distance matrix at a time.

Only a block of rows (``rows x n``) is ever in memory, so the full n x n
matrix is never materialised; the caller streams blocks through these kernels.
"""

import numpy as np
from numba import njit, prange


@njit(parallel=True, cache=True, nogil=True)
def count_within(block, row0, eps, out):
    """``out[e, row0 + i]`` = number of j != row0 + i with ``block[i, j] < eps[e]``.

    ``eps`` must be sorted ascending. A per-row histogram over the eps grid
    gives the counts for every cutoff from one read of the block, so a sweep
    over 99 cutoffs costs one pass, not 99.
    """
    rows, n = block.shape
    m = eps.shape[0]
    for i in prange(rows):
        hist = np.zeros(m + 1, dtype=np.int64)
        g = row0 + i
        for j in range(n):
            if j == g:
                continue
            # index of the first cutoff strictly above d: d < eps[e] for every e >= it
            hist[np.searchsorted(eps, block[i, j], side="right")] += 1
        running = 0
        for e in range(m):
            running += hist[e]
            out[e, g] = running


@njit(parallel=True, cache=True, nogil=True)
def nearest_denser(block, row0, rank, delta, parent):
    """Distance to, and index of, the nearest point of lower ``rank`` (denser) for each row and cutoff.

    ``rank`` (m, n): position of each point in the density order of cutoff m
    (0 = densest). Among denser points at the same distance the denser one
    wins, so the result depends on the order, not on the row indices. The
    densest point has no denser neighbour; it gets its largest distance to
    any point and parent -1, the usual convention that makes it a centre.
    """
    rows, n = block.shape
    m = rank.shape[0]
    for i in prange(rows):
        g = row0 + i
        far = 0.0
        for j in range(n):
            if block[i, j] > far:
                far = block[i, j]
        for e in range(m):
            ri = rank[e, g]
            best = np.inf
            arg = -1
            best_rank = ri
            for j in range(n):
                rj = rank[e, j]
                if rj < ri:
                    d = block[i, j]
                    if d < best or (d == best and rj < best_rank):
                        best = d
                        arg = j
                        best_rank = rj
            if arg < 0:
                delta[e, g] = far
            else:
                delta[e, g] = best
            parent[e, g] = arg


@njit(cache=True)
def follow_chain(order, parent, centre_label):
    """Label every point with its denser neighbour's label, walking the points densest first.

    ``centre_label[i]`` is the cluster of centre i and -1 elsewhere. A point's
    parent comes earlier in the density order, so it is already labelled.
    """
    labels = centre_label.copy()
    for p in range(order.shape[0]):
        i = order[p]
        if labels[i] < 0:
            labels[i] = labels[parent[i]]
    return labels


@njit(cache=True, nogil=True, inline="always")
def _sq_dist(A, i, B, j):
    s = 0.0
    for f in range(A.shape[1]):
        d = A[i, f] - B[j, f]
        s += d * d
    return s


@njit(parallel=True, cache=True, nogil=True)
def euclidean_block(A, B, out):
    """``out[i, j] = ||A[i] - B[j]||``, computed directly (faster than a matrix product for few features)."""
    for i in prange(A.shape[0]):
        for j in range(B.shape[0]):
            out[i, j] = np.sqrt(_sq_dist(A, i, B, j))
    return out


@njit(parallel=True, cache=True, nogil=True)
def adaptive_gaussian_block(A, B, scale_a, scale_b, out):
    """``out[i, j] = 1 - exp(-||A[i] - B[j]||^2 / (scale_a[i] * scale_b[j]))`` in one parallel sweep."""
    for i in prange(A.shape[0]):
        for j in range(B.shape[0]):
            out[i, j] = 1.0 - np.exp(-_sq_dist(A, i, B, j) / (scale_a[i] * scale_b[j]))
    return out
