"""Numba kernel for RandLocal: the nearest anchor of every row in every anchor set's subspace."""

import numpy as np
from numba import njit

from ..kernels._threads import DGEMM, dgemm, run_tasks, workers_for
from ..kernels._tiles import tile


def nearest_anchors(X, row_ids, feats, feat_ptr, anchors_t, anchor_ptr, anchor_sq, anchor_rows, n_anchors,
                    col_ptr, block, want_sums, cols, dmin, sums, workers=None):
    """For every row i and anchor set s, find the nearest anchor in the set's feature subspace (see
    :func:`nearest_anchor_tiles`); the (row block, set) tiles run in ``workers`` threads (default: numba's
    thread count, one for little work; see :mod:`ikviz.kernels._threads`). BLAS must be limited to one
    thread by the caller."""
    n, n_sets = X.shape[0], n_anchors.shape[0]
    if workers is None:
        workers = workers_for(n * int(n_anchors.sum()) * max(1, int(feat_ptr[-1]) // max(n_sets, 1)))
    run_tasks(nearest_anchor_tiles, -(-n // block) * n_sets, DGEMM, X, row_ids, feats, feat_ptr, anchors_t,
              anchor_ptr, anchor_sq, anchor_rows, n_anchors, col_ptr, block, want_sums, cols, dmin, sums,
              workers=workers)


@njit(cache=True, nogil=True)
def nearest_anchor_tiles(gemm, X, row_ids, feats, feat_ptr, anchors_t, anchor_ptr, anchor_sq, anchor_rows,
                         n_anchors, col_ptr, block, want_sums, cols, dmin, sums, task0, task1):
    """For every row i and anchor set s, find the nearest anchor in the set's feature subspace, in the
    tiles ``task0 .. task1`` (compiled serial: ``parallel=True`` and ``np.dot`` doubled its first compile
    on a fresh clone; ``gemm`` is :data:`ikviz.kernels._threads.DGEMM`).

    Set ``s`` uses input columns ``feats[feat_ptr[s]:feat_ptr[s + 1]]`` (m of them); its
    ``r = n_anchors[s]`` anchors are stored feature-major (m x r) from ``anchors_t[anchor_ptr[s]]``
    with squared norms ``anchor_sq[col_ptr[s]:]``. Work runs in (row block, set) tiles: the
    block's subspace is gathered once, one matrix product gives all x.a, and the scan for
    the minimum runs while it is in cache.

    ``row_ids[i]`` is the fitted row that row i is (-1 for a row of new data) and
    ``anchor_rows[col_ptr[s] + j]`` the fitted row anchor j was sampled from: a row skips
    only the anchor sampled from itself (Wang et al. 2017, Alg. 1 step 7: "if the
    nearest anchor is x_i itself, use the second nearest anchor"). Any other anchor,
    even at distance 0 (a duplicate row), is a candidate like every other.

    Writes ``cols[i, s] = col_ptr[s] + j`` (j the nearest anchor, the lowest index on an
    exact tie: candidates are found with the matrix product and, within its rounding
    error of the best, ranked by their exact distances) and ``dmin[i, s]`` the
    Euclidean distance to it. With ``want_sums``,
    ``sums[i, s]`` gets the summed distances from row i to all of set s's anchors, its
    own included (for D_avg, the mean over all r x N anchor-point distances).
    """
    n = X.shape[0]
    n_sets = n_anchors.shape[0]
    for task in range(task0, task1):
        s, start, stop = tile(task, n, n_sets, block)
        f0 = feat_ptr[s]
        m = feat_ptr[s + 1] - f0
        r = n_anchors[s]
        c0 = col_ptr[s]
        a_t = anchors_t[anchor_ptr[s]:anchor_ptr[s] + m * r].reshape((m, r))
        a_sq = anchor_sq[c0:c0 + r]
        rows = stop - start
        # error bound of |x|^2 + |a|^2 - 2 x.a, relative to |x|^2 + |a|^2
        slack = 4.0 * (m + 2) * 2.220446049250313e-16
        xs = np.empty((rows, m))
        for i in range(rows):
            for q in range(m):
                xs[i, q] = X[start + i, feats[f0 + q]]
        dots = np.empty((rows, r))
        # dots (rows, r), C order = column-major (r, rows) = a_t (r, m) @ xs (m, rows), both column-major views
        dgemm(gemm, False, False, r, rows, m, a_t, r, xs, m, dots, r)
        for i in range(rows):
            me = row_ids[start + i]
            x_sq = 0.0
            for q in range(m):
                x_sq += xs[i, q] * xs[i, q]
            # start from the first anchor that is not the row's own (r >= 2, so there is one): the
            # winner is always a valid anchor, whatever the values
            best = 1 if me >= 0 and anchor_rows[c0] == me else 0
            best_v = np.inf
            best_tol = 0.0
            total = 0.0
            for j in range(r):
                d2 = max(x_sq + a_sq[j] - 2.0 * dots[i, j], 0.0)
                if want_sums:
                    total += np.sqrt(d2)
                if me >= 0 and anchor_rows[c0 + j] == me:
                    continue  # the row's own anchor
                if d2 < best_v:
                    best_v = d2
                    best = j
                    best_tol = slack * (x_sq + a_sq[j])
            # The expansion's rounding can reorder anchors whose distances differ by less than its error
            # (and break an exact tie either way): rank every anchor within that error of the best by its
            # exact distance, the lowest index winning an exact tie.
            acc = 0.0
            for q in range(m):
                diff = xs[i, q] - a_t[q, best]
                acc += diff * diff
            for j in range(r):
                if j == best or (me >= 0 and anchor_rows[c0 + j] == me):
                    continue
                d2 = x_sq + a_sq[j] - 2.0 * dots[i, j]
                if d2 - slack * (x_sq + a_sq[j]) > best_v + best_tol:
                    continue
                exact = 0.0
                for q in range(m):
                    diff = xs[i, q] - a_t[q, j]
                    exact += diff * diff
                if exact < acc or (exact == acc and j < best):
                    acc = exact
                    best = j
            cols[start + i, s] = c0 + best
            dmin[start + i, s] = np.sqrt(acc)
            if want_sums:
                sums[start + i, s] = total
