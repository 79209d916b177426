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
from numba import njit, prange

from ._tiles import n_tiles, tile
from ._voronoi import exact_sq_dist, row_tolerance


@njit(parallel=True, cache=True, nogil=True)
def sample_radii(P, samples, index, shift, scale, rel, cmax, out):
    """Squared radius of each sampled point's ball: its squared distance to the nearest other sample.

    ``P`` (u, dim) are the unique sampled rows in packed coordinates and
    ``index`` (t, psi) says which of them each partitioning uses; ``samples``
    are the original rows for the exact recomputation (``shift``/``scale``
    centre them as the rows are centred).
    """
    t, psi = index.shape
    for k in prange(t):
        rows = index[k]
        Pk = np.empty((psi, P.shape[1]))
        for j in range(psi):
            Pk[j] = P[rows[j]]
        G = np.dot(Pk, Pk.T)
        z = np.empty(samples.shape[1])
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


@njit(parallel=True, cache=True, nogil=True)
def covering_balls(P, centres, sq_norms, radii, Z, samples, index, shift, scale, rel, cmax,
                   psi, t, stride, block, out):
    """Write ``k * stride + j`` for the smallest ball j of partitioning k covering row i, or -1.

    Arguments as :func:`._voronoi.nearest_centres`, plus ``radii`` (squared,
    packed like ``sq_norms``).
    """
    n = P.shape[0]
    n_groups = centres.shape[0]
    per_group = centres.shape[2] // psi
    for task in prange(n_tiles(n, n_groups, block)):
        grp, start, stop = tile(task, n, n_groups, block)
        dots = np.dot(P[start:stop], centres[grp])
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
