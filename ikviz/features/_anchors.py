"""Numba kernel for RandLocal: the nearest anchor of every row in every anchor set's subspace."""

import numpy as np
from numba import njit, prange

from ..kernels._tiles import n_tiles, tile


@njit(parallel=True, cache=True, nogil=True)
def nearest_anchors(X, feats, feat_ptr, anchors_t, anchor_ptr, anchor_sq, n_anchors, col_ptr,
                    block, want_sums, cols, dmin, sums):
    """For every row i and anchor set s, find the nearest anchor in the set's feature subspace.

    Set ``s`` uses input columns ``feats[feat_ptr[s]:feat_ptr[s + 1]]`` (m of them); its
    ``r = n_anchors[s]`` anchors are stored feature-major (m x r) from ``anchors_t[anchor_ptr[s]]``
    with squared norms ``anchor_sq[col_ptr[s]:]``. Work runs in (row block, set) tiles: the
    block's subspace is gathered once, one matrix product gives all x.a, and the scan for
    the minimum runs while it is in cache.

    Writes ``cols[i, s] = col_ptr[s] + j`` (j the nearest anchor) and ``dmin[i, s]`` the
    Euclidean distance to it. An anchor at (numerically) zero distance is the row itself
    (Wang et al. 2017, Alg. 1 step 7) and is skipped, so the next-nearest anchor is used.
    With ``want_sums``, ``sums[i, s]`` gets the summed distances from row i to all of set s's
    anchors (for D_avg).
    """
    n = X.shape[0]
    n_sets = n_anchors.shape[0]
    for task in prange(n_tiles(n, n_sets, block)):
        s, start, stop = tile(task, n, n_sets, block)
        f0 = feat_ptr[s]
        m = feat_ptr[s + 1] - f0
        r = n_anchors[s]
        a_t = anchors_t[anchor_ptr[s]:anchor_ptr[s] + m * r].reshape((m, r))
        a_sq = anchor_sq[col_ptr[s]:col_ptr[s] + r]
        rows = stop - start
        xs = np.empty((rows, m))
        for i in range(rows):
            for q in range(m):
                xs[i, q] = X[start + i, feats[f0 + q]]
        dots = np.dot(xs, a_t)
        for i in range(rows):
            x_sq = 0.0
            for q in range(m):
                x_sq += xs[i, q] * xs[i, q]
            best = -1
            best_v = np.inf
            total = 0.0
            for j in range(r):
                d2 = x_sq + a_sq[j] - 2.0 * dots[i, j]
                if d2 <= 1e-12 * (x_sq + a_sq[j]):
                    continue  # the row is this anchor
                if d2 < best_v:
                    best_v = d2
                    best = j
                if want_sums:
                    total += np.sqrt(d2)
            if best < 0:  # every anchor coincides with the row
                best = 0
            # exact distance for the winner: the expansion loses digits for close points
            acc = 0.0
            for q in range(m):
                diff = xs[i, q] - a_t[q, best]
                acc += diff * diff
            cols[start + i, s] = col_ptr[s] + best
            dmin[start + i, s] = np.sqrt(acc)
            if want_sums:
                sums[start + i, s] = total
