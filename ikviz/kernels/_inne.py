"""Numba kernels for the hypersphere (iNNE) partitioning.

Each sampled point c_j of a partitioning is the centre of a ball whose radius
is the distance to its nearest other sampled point (Ting et al. 2020,
*Isolation Distributional Kernel*). A row falls in the smallest ball that
covers it, and in no cell of that partitioning when none does. As in
:mod:`._voronoi`, distances come from one matrix product per tile and are
recomputed exactly, in a fixed order, whenever the product's rounding could
flip a decision; ties go to the lowest centre index.
"""

import numpy as np
from numba import njit

from ._threads import DGEMM, dgemm, run_tasks, workers_for
from ._tiles import tile
from ._voronoi import exact_sq_dist, row_tolerance


@njit(cache=True, nogil=True)
def sample_radius_tasks(gemm, P, samples, index, shift, scale, rel, cmax, out, task0, task1):
    """Partitionings ``task0 .. task1`` of :func:`sample_radii` (``gemm``: :data:`._threads.DGEMM`)."""
    t, psi = index.shape
    dim = P.shape[1]
    Pk = np.empty((psi, dim))
    G = np.empty((psi, psi))
    z = np.empty(samples.shape[1])
    for k in range(task0, task1):
        rows = index[k]
        for j in range(psi):
            for l in range(dim):  # element by element: an array assignment compiles numba's shape-error
                Pk[j, l] = P[rows[j], l]  # messages (string formatting, ~1.3 CPU-s on a fresh clone)
        # G = Pk @ Pk.T: column-major Pk.T (dim, psi), leading dimension dim; G is symmetric
        dgemm(gemm, True, False, psi, psi, dim, Pk, dim, Pk, dim, G, psi)
        for j in range(psi):
            tol = row_tolerance(Pk[j], rel, cmax)
            best = np.inf
            for i in range(psi):
                if i != j:
                    v = G[i, i] - 2.0 * G[i, j]
                    if v < best:
                        best = v
            r = rows[j]
            for l in range(z.shape[0]):
                z[l] = (samples[r, l] - shift[l]) * scale
            exact = np.inf
            for i in range(psi):
                if i != j and G[i, i] - 2.0 * G[i, j] <= best + tol:
                    dist = exact_sq_dist(z, samples, rows[i], shift, scale)
                    if dist < exact:
                        exact = dist
            out[k, j] = exact
    return out


def sample_radii(P, samples, index, shift, scale, rel, cmax, out, workers=None):
    """Squared radius of each sampled point's ball: its squared distance to the nearest other sample.

    ``P`` (u, dim) are the unique sampled rows in packed coordinates and
    ``index`` (t, psi) says which of them each partitioning uses; ``samples``
    are the original rows for the exact recomputation (``shift``/``scale``
    centre them as the rows are centred). Partitionings run in ``workers``
    threads (see :mod:`._threads`); BLAS must be limited to one thread by
    the caller.
    """
    t, psi = index.shape
    if workers is None:
        workers = workers_for(t * psi * psi * max(P.shape[1], 1))
    run_tasks(sample_radius_tasks, t, DGEMM, P, samples, index, shift, scale, rel, cmax, out, workers=workers)
    return out


@njit(cache=True, nogil=True)
def covering_ball_tiles(gemm, P, centres, sq_norms, radii, Z, samples, index, shift, scale, rel, cmax,
                        psi, t, stride, block, out, task0, task1):
    """Tiles ``task0 .. task1`` of :func:`covering_balls` (``gemm``: :data:`._threads.DGEMM`)."""
    n, dim = P.shape
    n_groups, _, width = centres.shape
    per_group = width // psi
    dots = np.empty((block, width))
    for task in range(task0, task1):
        grp, start, stop = tile(task, n, n_groups, block)
        dgemm(gemm, False, False, width, stop - start, dim, centres[grp], width, P[start:], dim, dots, width)
        norms = sq_norms[grp]
        rad = radii[grp]
        for i in range(stop - start):
            z = Z[start + i]
            zn = 0.0
            for l in range(z.shape[0]):
                zn += z[l] * z[l]
            tol = row_tolerance(P[start + i], rel, cmax) + rel * zn
            g = dots[i]
            for member in range(per_group):
                k = grp * per_group + member
                if k >= t:
                    break
                base = member * psi
                best = -1
                best_r = np.inf
                for j in range(psi):
                    r2 = rad[base + j]
                    if r2 > best_r:
                        continue
                    dist = zn + norms[base + j] - 2.0 * g[base + j]
                    if dist > r2 + tol:
                        continue
                    if dist >= r2 - tol and exact_sq_dist(z, samples, index[k, j], shift, scale) > r2:
                        continue
                    if r2 < best_r:
                        best_r = r2
                        best = j
                out[start + i, k] = -1 if best < 0 else k * stride + best
    return out


def covering_balls(P, centres, sq_norms, radii, Z, samples, index, shift, scale, rel, cmax,
                   psi, t, stride, block, out, workers=None):
    """Write ``k * stride + j`` for the smallest ball j of partitioning k covering row i, or -1.

    Arguments as :func:`._voronoi.nearest_centres`, plus ``radii`` (squared,
    packed like ``sq_norms``).
    """
    n, dim = P.shape
    if workers is None:
        workers = workers_for(n * t * psi * max(dim, 1))
    run_tasks(covering_ball_tiles, -(-n // block) * centres.shape[0], DGEMM, P, centres, sq_norms, radii, Z,
              samples, index, shift, scale, rel, cmax, psi, t, stride, block, out, workers=workers)
    return out


@njit(cache=True, nogil=True)
def sq_norms(Z, out):
    """``out[i] = |Z[i]|^2``, summed in order as :func:`covering_balls` sums it."""
    for i in range(Z.shape[0]):
        s = 0.0
        for l in range(Z.shape[1]):
            s += Z[i, l] * Z[i, l]
        out[i] = s
    return out


@njit(cache=True, nogil=True)
def covering_in_tile(D, k0, k1, tol32, zn, P, C64, N64, R64, Z, samples, index, shift, scale, rel, cmax,
                     psi, stride, row0, out):
    """iNNE cells of rows ``row0 .. row0 + B`` in partitionings ``k0 .. k1`` from one float32 tile of products.

    ``D`` as in :func:`._voronoi.nearest_in_tile`; ``zn`` the block's squared
    norms and ``R64`` (t * psi) the squared radii. A ball is certainly
    covering when |x|^2 + D <= r^2 - ``tol32[i]``, certainly not when
    beyond r^2 + ``tol32[i]``; a row with no ball in between gets the
    smallest certainly covering ball (lowest index on equal radii) from
    vector passes over the block's rows. Any other row (a ball's boundary
    within the float32 error) is decided as :func:`covering_balls` decides
    every row: float64 products summed in a fixed order, then the exact
    distance.
    """
    B = D.shape[1]
    best_r = np.empty(B)
    best = np.empty(B, dtype=np.int64)
    unsure = np.empty(B, dtype=np.int64)
    dim = P.shape[1]
    for k in range(k0, k1):
        base = (k - k0) * psi
        for i in range(B):
            best_r[i] = np.inf
            best[i] = -1
            unsure[i] = 0
        for j in range(psi):
            r = D[base + j]
            r2 = R64[k * psi + j]
            for i in range(B):
                s = np.float64(r[i]) + (zn[i] - r2)
                tol = tol32[i]
                inside = s <= -tol
                unsure[i] += 1 if (s > -tol and s <= tol) else 0
                if inside and r2 < best_r[i]:
                    best_r[i] = r2
                    best[i] = j
        for i in range(B):
            if unsure[i] == 0:
                out[row0 + i, k] = -1 if best[i] < 0 else k * stride + best[i]
                continue
            # a ball's boundary within the float32 error: the certainly covering balls already gave the
            # smallest radius among them (best); only the unsure balls that would beat it are decided in float64
            # then exactly, as covering_balls decides every ball (on tied data, e.g. binary features, most rows
            # land here, and deciding all psi balls cost 10x the tile)
            p = P[row0 + i]
            z = Z[row0 + i]
            tol = row_tolerance(p, rel, cmax) + rel * zn[i]
            b = best[i]
            b_r = best_r[i]
            for j in range(psi):
                r2 = R64[k * psi + j]
                if r2 > b_r or (r2 == b_r and j > b):
                    continue
                s32 = np.float64(D[base + j, i]) + (zn[i] - r2)
                if s32 <= -tol32[i] or s32 > tol32[i]:   # decided by the tile: covering (in best) or not
                    continue
                c = C64[k * psi + j]
                g = 0.0
                for l in range(dim):
                    g += p[l] * c[l]
                dist = zn[i] + N64[k * psi + j] - 2.0 * g
                if dist > r2 + tol:
                    continue
                if dist >= r2 - tol and exact_sq_dist(z, samples, index[k, j], shift, scale) > r2:
                    continue
                b_r = r2
                b = j
            out[row0 + i, k] = -1 if b < 0 else k * stride + b
    return out
