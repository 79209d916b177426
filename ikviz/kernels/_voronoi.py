"""Numba kernel for the Voronoi (aNNE) partitioning: the nearest sampled centre per row and partitioning."""

import numpy as np
from numba import njit, prange

from ._tiles import n_tiles, tile


@njit(parallel=True, cache=True, nogil=True)
def nearest_centres(X, centres, sq_norms, psi, t, stride, block, out):
    """Write ``k * stride + argmin_j ||X[i] - c_kj||`` into ``out[i, k]``.

    The centres of ``g`` consecutive partitionings are packed side by side:
    ``centres`` is (n_groups, d, g * psi) and ``sq_norms`` (n_groups, g * psi)
    their squared norms (the last group padded). Work is split into (row
    block, group) tiles: one matrix product per tile gives x.c for the block
    and all ``g`` partitionings, so X is read once per group rather than once
    per partitioning (what matters when d is large), and the argmin of
    |c|^2 - 2 x.c runs while the product is still in cache. Ties go to the
    lowest centre index. ``stride=psi`` yields column indices of the
    concatenated feature map; ``stride=0`` yields cell indices.
    """
    n = X.shape[0]
    n_groups = centres.shape[0]
    per_group = centres.shape[2] // psi
    for task in prange(n_tiles(n, n_groups, block)):
        grp, start, stop = tile(task, n, n_groups, block)
        dots = np.dot(X[start:stop], centres[grp])
        norms = sq_norms[grp]
        for member in range(per_group):
            k = grp * per_group + member
            if k >= t:
                break
            base = member * psi
            offset = k * stride
            for i in range(stop - start):
                g = dots[i]
                best = 0
                best_v = norms[base] - 2.0 * g[base]
                for j in range(1, psi):
                    v = norms[base + j] - 2.0 * g[base + j]
                    if v < best_v:
                        best_v = v
                        best = j
                out[start + i, k] = offset + best
    return out


def pack_centres(samples: np.ndarray, width: int) -> tuple[np.ndarray, np.ndarray]:
    """Pack (t, psi, d) centres into groups of up to ``width`` columns for :func:`nearest_centres`.

    Grouping pays only when reading a row block of X costs more than the
    products it feeds (d well above psi); for small d one partitioning per
    group keeps each tile's products in L2 cache.
    """
    t, psi, d = samples.shape
    per_group = max(1, min(t, min(width, d) // psi))
    n_groups = -(-t // per_group)
    padded = np.zeros((n_groups * per_group, psi, d))
    padded[:t] = samples
    # (group, member, psi, d) -> (group, d, member * psi)
    packed = padded.reshape(n_groups, per_group, psi, d).transpose(0, 3, 1, 2).reshape(n_groups, d, per_group * psi)
    norms = np.einsum("kjd,kjd->kj", padded, padded).reshape(n_groups, per_group * psi)
    return np.ascontiguousarray(packed), np.ascontiguousarray(norms)
