"""Voronoi and iNNE cells by float32 BLAS products, tile by tile (the fast path of both kernels).

Above :mod:`._voronoi` and :mod:`._inne`, whose exact per-tile passes it drives: a tile's minimum is
taken in float32 and only its near-ties are settled there in exact arithmetic, so the cells are
those of :func:`._voronoi.nearest_centres` and :func:`._inne.covering_balls`.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ._inne import covering_in_tile
from ._threads import SGEMM
from ._voronoi import nearest_in_tile


#: Largest number of float32 products one tile holds (1 MiB: a tile stays in a core's L2 cache).
_TILE_FLOATS = 1 << 18
#: Rows per tile: the columns of a tile, over which the minimum runs as vector operations.
_TILE_ROWS = 256
#: Largest M * N * K of a product that OpenBLAS (NumPy's and SciPy's wheels) hands to its small-matrix
#: kernels on x86-64 (no packing, no separate pass zeroing the output): for few features they run the
#: products at 1.1-1.2x the float32 peak where tiles past it run at 1.5-1.6x (K = 21; issue 34).
_SMALL_MNK = 1_000_000
#: Up to this many columns (features + 1) the small tiles pay; past it the packed kernels are as fast.
_SMALL_MAX_K = 64


def tile_shape(psi: int, k: int, t: int) -> tuple[int, int]:
    """``(rows, partitionings)`` of one tile for ``psi`` centres per partitioning and ``k`` columns.

    Small tiles (at most ``_SMALL_MNK`` multiply-adds, rows a multiple of 16)
    where ``k`` is small enough for them to pay and they hold at least 32
    rows; otherwise ``_TILE_ROWS`` rows by as many partitionings as fit in
    ``_TILE_FLOATS`` products.
    """
    if k <= _SMALL_MAX_K and psi * k * 32 <= _SMALL_MNK:
        rows = min(_TILE_ROWS, _SMALL_MNK // (psi * k) // 16 * 16)
        return rows, max(1, min(t, _SMALL_MNK // (psi * k * rows)))
    return _TILE_ROWS, max(1, min(t, _TILE_FLOATS // (psi * _TILE_ROWS)))


#: SciPy's Fortran sgemm, called from the tile loop in numba: no Python between tiles (a NumPy call and a
#: numba dispatch per tile cost as much as the small tiles' products)
_SGEMM = SGEMM


@njit(cache=True, nogil=True)
def _tiles(sgemm, P, C32, C64, N64, R64, voronoi, Z, samples, index, shift, scale, rel, rel32, cmax, psi, t, stride,
           tile_rows, per_group, start, stop, out):
    """Cells of rows ``start .. stop`` tile by tile: one ``sgemm`` per tile, then its exact per-tile pass.

    A block of ``tile_rows`` rows is copied, transposed and in float32, into
    one contiguous (dim + 1, rows) buffer with a row of ones (the products'
    leading dimension is then the block's, not n: a long stride between the
    features thrashes the cache in the small-matrix kernels); the tile
    ``D = C32[k0 * psi:k1 * psi] @ block`` is (centres, rows), row-major.

    ``R64`` None: Voronoi cells (``voronoi`` True); iNNE's squared radii: iNNE's cells (``voronoi`` None).
    numba prunes a branch ``x is not None`` only where ``x`` is None (not where it is an array or a bool),
    so each per-tile pass sits under a test of an argument that is None for the other kind: each kind
    compiles only its own pass (a bool compiled both, ~1-2 CPU-s more on a fresh clone's first look).
    """
    dim = P.shape[1]
    K = dim + 1
    xb = np.empty(K * tile_rows, dtype=np.float32)
    D = np.empty(per_group * psi * tile_rows, dtype=np.float32)
    tol32 = np.empty(tile_rows, dtype=np.float32)
    tol64 = np.empty(tile_rows)
    zn = np.empty(tile_rows)
    trans = np.empty(1, dtype=np.int8)
    trans[0] = 78  # 'N'
    ab = np.empty(2, dtype=np.float32)  # alpha, beta (np.array of a list: one more compile)
    ab[0] = 1.0
    ab[1] = 0.0
    dims = np.empty(6, dtype=np.int32)
    for b in range(start, stop, tile_rows):
        rows = min(tile_rows, stop - b)
        for i in range(rows):
            p = P[b + i]
            s = 0.0
            for l in range(dim):
                xb[l * rows + i] = p[l]
                s += p[l] * p[l]
            xb[dim * rows + i] = 1.0
            # float32 products err by at most rel32 / 2 * (|c|^2 + 2 |x| |c|); the tile compares within twice that
            tol32[i] = rel32 * (cmax * cmax + 2.0 * np.sqrt(s) * cmax) * (1.0 + 1e-6)
            if R64 is not None:
                z = Z[b + i]
                s = 0.0
                for l in range(z.shape[0]):
                    s += z[l] * z[l]
                zn[i] = s
                tol64[i] = np.float64(tol32[i]) + rel * s
        for k0 in range(0, t, per_group):
            k1 = min(t, k0 + per_group)
            m = (k1 - k0) * psi
            # column-major: D^T (rows x m) = block^T (rows x K, leading dim rows) @ C32^T (K x m, leading dim K)
            dims[0] = rows
            dims[1] = m
            dims[2] = K
            dims[3] = rows
            dims[4] = K
            dims[5] = rows
            sgemm(trans.ctypes, trans.ctypes, dims[0:].ctypes, dims[1:].ctypes, dims[2:].ctypes, ab.ctypes,
                  xb.ctypes, dims[3:].ctypes, C32[k0 * psi:].ctypes, dims[4:].ctypes, ab[1:].ctypes,
                  D.ctypes, dims[5:].ctypes)
            tile = D[:m * rows].reshape((m, rows))
            if R64 is not None:
                covering_in_tile(tile, k0, k1, tol64[:rows], zn[:rows], P, C64, N64, R64, Z, samples, index,
                                 shift, scale, rel, cmax, psi, stride, b, out)
            if voronoi is not None:
                nearest_in_tile(tile, k0, k1, tol32[:rows], P, C64, N64, Z, samples, index, shift, scale, rel,
                                cmax, psi, stride, b, out)
    return out


def nearest_centres_gemm(P, C32, C64, N64, Z, samples, index, shift, scale, rel, rel32, cmax, psi, t,
                         stride, out, workers=1, radii=None):
    """Write ``k * stride + argmin_j ||x_i - c_kj||`` into ``out[i, k]`` by float32 BLAS products.

    The same cells as :func:`nearest_centres` (see :func:`nearest_in_tile`
    for why), computed tile by tile: ``_TILE_ROWS`` rows against as many
    partitionings as fit in ``_TILE_FLOATS`` products, one sgemm and one pass
    over its result per tile, so working memory is bounded per tile whatever
    n, t and psi. ``C32`` (t * psi, dim + 1) holds [-2 c, |c|^2] in float32;
    rows are split into ``workers`` contiguous ranges run in threads (BLAS
    and the numba pass both release the GIL; BLAS must be limited to one
    thread by the caller). With ``radii`` (t * psi squared radii) the cells
    are iNNE's instead (:func:`._inne.covering_in_tile`).
    """
    n, dim = P.shape
    cmax = float(cmax)
    tile_rows, per_group = tile_shape(psi, dim + 1, t)
    R64, voronoi = radii, (True if radii is None else None)  # which per-tile pass: see _tiles

    def run(start, stop):
        if stop > start:
            _tiles(_SGEMM, P, C32, C64, N64, R64, voronoi, Z, samples, index, shift, scale, rel, rel32, cmax, psi, t,
                   stride, tile_rows, per_group, start, stop, out)

    workers = max(1, min(int(workers), -(-n // (4 * tile_rows))))
    if workers == 1:
        run(0, n)
        return out
    from concurrent.futures import ThreadPoolExecutor

    # a few ranges per thread, so a thread slowed by other work on the machine does not hold up the rest
    bounds = np.linspace(0, n, 4 * workers + 1).astype(int)
    with ThreadPoolExecutor(workers) as pool:
        for f in [pool.submit(run, a, b) for a, b in zip(bounds[:-1], bounds[1:])]:
            f.result()
    return out
