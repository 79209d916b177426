"""Numba kernels for the Voronoi (aNNE) partitioning: the nearest sampled centre per row and partitioning.

Rows and centres arrive centred on the sample mean and scaled by a power of two
(see :class:`ikviz.kernels.isolation.IsolationKernel`), so |c|^2 - 2 x.c does not
cancel catastrophically for data far from the origin. The fast path ranks
centres by |c|^2 - 2 x.c from one matrix product per tile; whenever a second
centre comes within the product's rounding error of the best, the candidates
are ranked again by their exact squared distance, summed in a fixed order. The
answer therefore depends only on the row and the centres, never on the block
the row was computed in: one row alone, in a batch or in a Dask chunk gets the
same cell. Exact ties go to the lowest centre index.

Up to ``isolation._FLOAT32_MAX_D`` features the products are float32 BLAS
tiles (:func:`._gemm.nearest_centres_gemm`, issue 34): the float32 error bound is
wider, so near-ties are a little more frequent (still well under 1% of
rows), and they are then decided exactly as below, in float64 and on exact
distances; the cells are the same.
"""

import numpy as np
from numba import njit

from ._threads import DGEMM, dgemm, run_tasks, workers_for
from ._tiles import tile


@njit(cache=True, nogil=True)
def exact_sq_dist(z, samples, row, shift, scale):
    """Squared distance, summed in a fixed order, between centred row ``z`` and sample row ``row``."""
    s = 0.0
    for l in range(z.shape[0]):
        diff = z[l] - (samples[row, l] - shift[l]) * scale
        s += diff * diff
    return s


@njit(cache=True, nogil=True, inline="always")
def row_tolerance(p, rel, cmax):
    """Bound on the rounding error of |c|^2 - 2 p.c for any centre c of norm <= cmax."""
    pn = 0.0
    for l in range(p.shape[0]):
        pn += p[l] * p[l]
    pn = np.sqrt(pn)
    return rel * (cmax * cmax + 2.0 * pn * cmax)


@njit(cache=True, nogil=True)
def nearest_centre_tiles(gemm, P, centres, sq_norms, Z, samples, index, shift, scale, rel, cmax,
                         psi, t, stride, block, out, task0, task1):
    """Tiles ``task0 .. task1`` of :func:`nearest_centres` (arguments as there; ``gemm`` is
    :data:`._threads.DGEMM`)."""
    n, dim = P.shape
    n_groups, _, width = centres.shape
    per_group = width // psi
    dots = np.empty((block, width))
    tols = np.empty(block)
    for task in range(task0, task1):
        grp, start, stop = tile(task, n, n_groups, block)
        rows = stop - start
        # dots (rows, width), C order = column-major (width, rows) = centres[grp] (width, dim) @ P rows (dim, rows)
        dgemm(gemm, False, False, width, rows, dim, centres[grp], width, P[start:], dim, dots, width)
        norms = sq_norms[grp]
        for i in range(rows):
            tols[i] = row_tolerance(P[start + i], rel, cmax)
        for member in range(per_group):
            k = grp * per_group + member
            if k >= t:
                break
            base = member * psi
            for i in range(rows):
                g = dots[i]
                best = 0
                best_v = norms[base] - 2.0 * g[base]
                second_v = np.inf
                for j in range(1, psi):
                    v = norms[base + j] - 2.0 * g[base + j]
                    second_v = min(second_v, max(best_v, v))  # branch-free runner-up
                    if v < best_v:
                        best_v = v
                        best = j
                limit = best_v + tols[i]
                if second_v <= limit:  # a near-tie: rank the close ones by exact distance
                    best_d = np.inf
                    for j in range(psi):
                        if norms[base + j] - 2.0 * g[base + j] <= limit:
                            dist = exact_sq_dist(Z[start + i], samples, index[k, j], shift, scale)
                            if dist < best_d:
                                best_d = dist
                                best = j
                out[start + i, k] = k * stride + best
    return out


def nearest_centres(P, centres, sq_norms, Z, samples, index, shift, scale, rel, cmax,
                    psi, t, stride, block, out, workers=None):
    """Write ``k * stride + argmin_j ||x_i - c_kj||`` into ``out[i, k]``.

    ``P`` holds the rows in the coordinates the centres are packed in (the
    centred rows, or their span coordinates); ``Z`` the centred rows in full
    and ``samples`` / ``index`` (t, psi) the original sampled rows, for the
    exact re-ranking. The centres of ``g`` consecutive partitionings are
    packed side by side: ``centres`` is (n_groups, dim, g * psi) and
    ``sq_norms`` (n_groups, g * psi). Work is split into (row block, group)
    tiles: one matrix product per tile gives x.c for the block and all ``g``
    partitionings, so a row block is read once per group. ``stride=psi``
    yields column indices of the concatenated feature map; ``stride=0`` cells.
    Tiles run in ``workers`` threads (default: numba's thread count, one for
    little work; see :mod:`._threads`); BLAS must be limited to one thread
    by the caller.
    """
    n, dim = P.shape
    if workers is None:
        workers = workers_for(n * t * psi * max(dim, 1))
    run_tasks(nearest_centre_tiles, -(-n // block) * centres.shape[0], DGEMM, P, centres, sq_norms, Z, samples,
              index, shift, scale, rel, cmax, psi, t, stride, block, out, workers=workers)
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


def pack_values(values: np.ndarray, like: np.ndarray) -> np.ndarray:
    """Lay out per-centre ``values`` (t, psi) like :func:`pack_centres`' squared norms (n_groups, g * psi)."""
    t, psi = values.shape
    n_groups, width = like.shape
    flat = np.zeros(n_groups * width)
    flat[:t * psi] = values.ravel()
    return flat.reshape(n_groups, width)


@njit(cache=True, nogil=True, inline="always")
def _take(v, m, s, ix, j):
    """One sampled point's value ``v`` into a row's (minimum, runner-up, index of the minimum)."""
    lt = v < m
    s = m if lt else (v if v < s else s)  # the runner-up: the old minimum, or min(runner-up, v)
    return (v if lt else m), s, (j if lt else ix)


@njit(cache=True, nogil=True)
def nearest_in_tile(D, k0, k1, tol32, P, C64, N64, Z, samples, index, shift, scale, rel, cmax,
                    psi, stride, row0, out):
    """Cells of rows ``row0 .. row0 + B`` in partitionings ``k0 .. k1`` from one float32 tile of products.

    ``D[(k - k0) * psi + j, i]`` holds |c_kj|^2 - 2 x_i.c_kj in float32 (one
    BLAS sgemm per tile), rows of the block across the columns, so that the
    minimum over the centres, its index and the runner-up are element-wise
    vector operations over the rows, taken in one pass over the tile (four
    centres per pass over the block's rows). ``tol32`` bounds twice the
    float32 product's error: a row whose runner-up lies beyond the minimum
    plus ``tol32[i]`` (exactly one centre within it of the minimum) has that
    centre as its true nearest. Every other row (about 0.04% of them) is
    decided as :func:`nearest_centres` decides all: float64 products
    (``C64`` (t * psi, dim) centres, ``N64`` squared norms, summed in a fixed
    order) and, on a float64 near-tie, the exact distances.
    """
    B = D.shape[1]
    mn = np.empty(B, dtype=np.float32)
    sec = np.empty(B, dtype=np.float32)
    idx = np.empty(B, dtype=np.int32)
    v64 = np.empty(psi)
    dim = P.shape[1]
    for k in range(k0, k1):
        base = (k - k0) * psi
        first = D[base]
        for i in range(B):
            mn[i] = first[i]
            sec[i] = np.float32(np.inf)
            idx[i] = 0
        j = 1
        while j + 4 <= psi:  # four centres per pass: the row's state is loaded and stored once for them
            r0, r1, r2, r3 = D[base + j], D[base + j + 1], D[base + j + 2], D[base + j + 3]
            for i in range(B):
                m, s, ix = _take(r0[i], mn[i], sec[i], idx[i], j)
                m, s, ix = _take(r1[i], m, s, ix, j + 1)
                m, s, ix = _take(r2[i], m, s, ix, j + 2)
                m, s, ix = _take(r3[i], m, s, ix, j + 3)
                mn[i] = m
                sec[i] = s
                idx[i] = ix
            j += 4
        while j < psi:
            r0 = D[base + j]
            for i in range(B):
                m, s, ix = _take(r0[i], mn[i], sec[i], idx[i], j)
                mn[i] = m
                sec[i] = s
                idx[i] = ix
            j += 1
        for i in range(B):
            if sec[i] > np.float32(mn[i] + tol32[i]):  # one centre within the bound of the minimum
                out[row0 + i, k] = k * stride + np.int64(idx[i])
                continue
            # a float32 near-tie: decide in float64, then exactly, as nearest_centres does, among the centres
            # within the bound of the float32 minimum only (the true nearest is one of them; on data with many
            # exact ties, e.g. binary features, nearly every row lands here and all psi centres cost 10-30x more)
            p = P[row0 + i]
            lim32 = np.float32(mn[i] + tol32[i])
            best = -1
            best_v = np.inf
            second_v = np.inf
            for j in range(psi):
                if D[base + j, i] > lim32:
                    v64[j] = np.inf
                    continue
                c = C64[k * psi + j]
                g = 0.0
                for l in range(dim):
                    g += p[l] * c[l]
                v = N64[k * psi + j] - 2.0 * g
                v64[j] = v
                if best < 0:
                    best_v = v
                    best = j
                    continue
                second_v = min(second_v, max(best_v, v))
                if v < best_v:
                    best_v = v
                    best = j
            limit = best_v + row_tolerance(p, rel, cmax)
            if second_v <= limit:
                best_d = np.inf
                for j in range(psi):
                    if v64[j] <= limit:
                        dist = exact_sq_dist(Z[row0 + i], samples, index[k, j], shift, scale)
                        if dist < best_d:
                            best_d = dist
                            best = j
            out[row0 + i, k] = k * stride + best
    return out
