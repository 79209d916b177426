"""Numba kernel for the Voronoi (aNNE) partitioning: the nearest sampled centre per row and partitioning."""

import numpy as np
from numba import njit, prange

from ._tiles import n_tiles, tile


@njit(parallel=True, cache=True, nogil=True)
def nearest_centres(X, centres_t, sq_norms, stride, block, out):
    """Write ``k * stride + argmin_j ||X[i] - c_kj||`` into ``out[i, k]``.

    ``centres_t`` (t, d, psi) holds each partitioning's centres feature-major and
    ``sq_norms`` (t, psi) their squared norms. Work is split into (row block,
    partitioning) tiles: one small matrix product per tile gives x.c for the
    block, and the argmin of |c|^2 - 2 x.c runs while that product is still in
    cache. Ties go to the lowest centre index. ``stride=psi`` yields column
    indices of the concatenated feature map; ``stride=0`` yields cell indices.
    """
    n = X.shape[0]
    t = centres_t.shape[0]
    psi = centres_t.shape[2]
    for task in prange(n_tiles(n, t, block)):
        k, start, stop = tile(task, n, t, block)
        dots = np.dot(X[start:stop], centres_t[k])
        norms = sq_norms[k]
        offset = k * stride
        for i in range(stop - start):
            g = dots[i]
            best = 0
            best_v = norms[0] - 2.0 * g[0]
            for j in range(1, psi):
                v = norms[j] - 2.0 * g[j]
                if v < best_v:
                    best_v = v
                    best = j
            out[start + i, k] = offset + best
    return out
