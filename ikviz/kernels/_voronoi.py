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


def pack_centres(X: np.ndarray, rows: np.ndarray, width: int) -> tuple[np.ndarray, np.ndarray]:
    """Pack the centres ``X[rows[k]]`` of each partitioning ``k`` into groups of up to ``width`` columns.

    Returns the (n_groups, d, g * psi) centres and (n_groups, g * psi) squared
    norms :func:`nearest_centres` takes. Grouping pays only when reading a row
    block of X costs more than the products it feeds (d well above psi); for
    small d one partitioning per group keeps each tile's products in L2 cache.
    The centres are gathered straight from X's columns into place: building
    the (t, psi, d) array first and transposing it took 5x longer at d = 1,000.
    """
    t, psi = rows.shape
    d = X.shape[1]
    per_group = max(1, min(t, min(width, d) // psi))
    n_groups = -(-t // per_group)
    cols = np.zeros(n_groups * per_group * psi, dtype=np.intp)  # the padding is never read past t
    cols[:t * psi] = rows.ravel()
    cols = cols.reshape(n_groups, per_group * psi)
    XT = np.ascontiguousarray(X.T)
    packed = np.empty((n_groups, d, per_group * psi))
    for g in range(n_groups):
        np.take(XT, cols[g], axis=1, out=packed[g])
    return packed, np.einsum("ij,ij->i", X, X)[cols]


def packed_centres(packed: np.ndarray, psi: int, k: int) -> np.ndarray:
    """The (psi, d) centres of partitioning ``k`` in :func:`pack_centres`'s output (a view)."""
    grp, member = divmod(k, packed.shape[2] // psi)
    return packed[grp][:, member * psi:(member + 1) * psi].T
