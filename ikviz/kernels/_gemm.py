"""Voronoi and iNNE cells by float32 BLAS products, tile by tile (the fast path of both kernels).

Above :mod:`._voronoi` and :mod:`._inne`, whose exact per-tile passes it drives: a tile's minimum is
taken in float32 and only its near-ties are settled there in exact arithmetic, so the cells are
those of :func:`._voronoi.nearest_centres` and :func:`._inne.covering_balls`.
"""

from __future__ import annotations

import numpy as np

from ._inne import covering_in_tile, sq_norms
from ._voronoi import nearest_in_tile


#: Largest number of float32 products one tile holds (1 MiB: a tile stays in a core's L2 cache).
_TILE_FLOATS = 1 << 18
#: Rows per tile: the columns of a tile, over which the minimum runs as vector operations.
_TILE_ROWS = 256


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
    per_group = max(1, min(t, _TILE_FLOATS // (psi * _TILE_ROWS)))

    def run(start, stop):
        if stop <= start:
            return
        XT = np.empty((dim + 1, stop - start), dtype=np.float32)
        XT[:dim] = P[start:stop].T
        XT[dim] = 1.0
        pn = np.sqrt(np.einsum("ij,ij->i", P[start:stop], P[start:stop]))
        # float32 products err by at most rel32 / 2 * (|c|^2 + 2 |x| |c|); the tile compares within twice that
        tol32 = (rel32 * (cmax * cmax + 2.0 * pn * cmax) * (1.0 + 1e-6)).astype(np.float32)
        if radii is not None:
            zn = sq_norms(Z[start:stop], np.empty(stop - start))
            tol64 = tol32.astype(np.float64) + rel * zn
        buf = np.empty(per_group * psi * _TILE_ROWS, dtype=np.float32)
        for b in range(start, stop, _TILE_ROWS):
            rows = min(_TILE_ROWS, stop - b)
            cols = XT[:, b - start:b - start + rows]
            for k0 in range(0, t, per_group):
                k1 = min(t, k0 + per_group)
                D = buf[:(k1 - k0) * psi * rows].reshape((k1 - k0) * psi, rows)
                np.matmul(C32[k0 * psi:k1 * psi], cols, out=D)
                if radii is not None:
                    here = slice(b - start, b - start + rows)
                    covering_in_tile(D, k0, k1, tol64[here], zn[here], P, C64, N64, radii, Z, samples, index,
                                     shift, scale, rel, cmax, psi, stride, b, out)
                    continue
                nearest_in_tile(D, k0, k1, tol32[b - start:b - start + rows], P, C64, N64, Z, samples, index,
                                shift, scale, rel, cmax, psi, stride, b, out)

    workers = max(1, min(int(workers), -(-n // (4 * _TILE_ROWS))))
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
