"""Numba kernels over cell indices (n, t): bucket rows by cell, count shared cells, find top-k rows.

IK similarity is the number of partitionings in which two rows share a cell
(divided by t). With the reference rows bucketed by cell, a query row visits
only the rows it shares a cell with (about t * n / psi visits, not t * n).
:class:`ikviz.kernels.CellIndex` wraps them.
"""

import numpy as np
from numba import njit, prange


def count_unit(t: int) -> np.ndarray:
    """An empty array of the smallest unsigned integer type that counts to ``t`` (the kernels' counter type).

    A query's counters take one random increment per row it shares a cell
    with; in uint8 (t < 256) or uint16 they stay in a core's L2 cache up to
    millions of reference rows, where float64 or int32 counters spill.

    Examples
    --------
    >>> count_unit(200).dtype, count_unit(1000).dtype
    (dtype('uint8'), dtype('uint16'))
    """
    dtype = np.uint8 if t < 2**8 else np.uint16 if t < 2**16 else np.uint32
    return np.zeros(0, dtype=dtype)


@njit(parallel=True, cache=True, nogil=True)
def count_shared_cells(cells_a, order_b, starts_b, unit, chunk, out):
    """``out[i, j]`` += number of partitionings in which row i of A and row j of B share a cell.

    B is given bucketed by cell: for partitioning ``k``, the rows of B in cell
    ``c`` are ``order_b[k, starts_b[k, c]:starts_b[k, c + 1]]``. The work is
    about t * n_A * n_B / psi increments instead of t * n_A * n_B comparisons,
    made in counters of ``unit``'s type (:func:`count_unit`), one buffer per
    chunk of ``chunk`` rows of A, then added to ``out`` in one pass per row.
    """
    n_a, t = cells_a.shape
    n_b = out.shape[1]
    for ch in prange((n_a + chunk - 1) // chunk):
        counts = np.zeros(n_b, dtype=unit.dtype)
        for i in range(ch * chunk, min(n_a, (ch + 1) * chunk)):
            for k in range(t):
                c = cells_a[i, k]
                if c < 0:  # covered by no cell of this partitioning (inne)
                    continue
                ob = order_b[k]
                for p in range(starts_b[k, c], starts_b[k, c + 1]):
                    counts[ob[p]] += 1
            row = out[i]
            for j in range(n_b):
                row[j] += counts[j]
                counts[j] = 0
    return out


@njit(cache=True)
def cell_buckets(cells, psi):
    """Bucket rows by cell: for partitioning ``k``, the rows in cell ``c`` are
    ``order[k, starts[k, c]:starts[k, c + 1]]`` (in increasing row order).
    Rows in no cell (-1) are left out."""
    n, t = cells.shape
    starts = np.zeros((t, psi + 1), dtype=np.int64)
    for i in range(n):
        for k in range(t):
            if cells[i, k] >= 0:
                starts[k, cells[i, k] + 1] += 1
    for k in range(t):
        for c in range(psi):
            starts[k, c + 1] += starts[k, c]
    fill = starts[:, :psi].copy()
    order = np.empty((t, n), dtype=np.int32)
    for i in range(n):
        for k in range(t):
            c = cells[i, k]
            if c < 0:
                continue
            order[k, fill[k, c]] = i
            fill[k, c] += 1
    return order, starts


@njit(parallel=True, cache=True, nogil=True)
def top_shared(cells_q, order, starts, n_ref, k, exclude_self, unit, chunk, out_idx, out_cnt):
    """For each query row, the ``k`` reference rows sharing the most cells with it.

    Writes indices (descending count; ties by first discovery, which is
    deterministic) into ``out_idx`` and counts into ``out_cnt``; rows with
    fewer than ``k`` sharing candidates are padded with index -1 and count 0.
    ``exclude_self`` drops reference row ``i`` from query row ``i`` (queries
    are the reference rows). Rows are processed in chunks so each thread
    reuses one count buffer (of ``unit``'s type, :func:`count_unit`),
    resetting only the entries it touched.
    """
    n_q, t = cells_q.shape
    n_chunks = (n_q + chunk - 1) // chunk
    for ch in prange(n_chunks):
        counts = np.zeros(n_ref, dtype=unit.dtype)
        touched = np.empty(n_ref, dtype=np.int32)
        hist = np.zeros(t + 1, dtype=np.int64)
        sel = np.empty(k, dtype=np.int64)
        sel_cnt = np.empty(k, dtype=np.int64)
        for i in range(ch * chunk, min(n_q, (ch + 1) * chunk)):
            m = 0
            for kk in range(t):
                c = cells_q[i, kk]
                if c < 0:
                    continue
                ok = order[kk]
                for p in range(starts[kk, c], starts[kk, c + 1]):
                    j = ok[p]
                    touched[m] = j  # kept only on a row's first visit: no branch to mispredict
                    m += counts[j] == 0
                    counts[j] += 1
            if exclude_self:
                counts[i] = 0
            # counting sort on the small integer range 0..t finds the k-th largest count in O(m + t)
            for q in range(m):
                hist[counts[touched[q]]] += 1
            above = 0
            thr = t
            while thr > 0 and above + hist[thr] < k:
                above += hist[thr]
                thr -= 1
            ties = k - above if thr > 0 else 0
            s = 0
            for q in range(m):
                j = touched[q]
                cj = counts[j]
                if cj > thr:
                    sel[s] = j
                    sel_cnt[s] = cj
                    s += 1
                elif cj == thr and ties > 0 and cj > 0:
                    sel[s] = j
                    sel_cnt[s] = cj
                    s += 1
                    ties -= 1
            rank = np.argsort(-sel_cnt[:s], kind="mergesort")
            for r in range(s):
                out_idx[i, r] = sel[rank[r]]
                out_cnt[i, r] = sel_cnt[rank[r]]
            for r in range(s, k):
                out_idx[i, r] = -1
                out_cnt[i, r] = 0
            for q in range(m):
                counts[touched[q]] = 0
            hist[:] = 0
    return out_idx, out_cnt
