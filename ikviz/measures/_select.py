"""Numba kernel: the k most similar columns of each row, ties broken by a seeded hash."""

import numpy as np
from numba import njit, prange

_MASK = np.uint64(0xFFFFFFFFFFFFFFFF)


@njit(cache=True, inline="always")
def _mix(z):
    # splitmix64 finaliser: a stateless, thread-independent pseudo-random draw per (row, column)
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


@njit(cache=True, inline="always")
def tie_key(seed, row, col):
    """Pseudo-random priority of column ``col`` for query ``row``: the same for the same seed."""
    return _mix(_mix(np.uint64(seed) + np.uint64(row) * np.uint64(0x9E3779B97F4A7C15)) ^ np.uint64(col))


@njit(parallel=True, cache=True, nogil=True)
def top_k(S, k, row_offset, exclude, seed, out_idx, out_val):
    """Write the k largest entries of each row of ``S`` (most similar first) into ``out_*``.

    Among equal values the column with the larger ``tie_key`` wins, so ties are
    broken at random but reproducibly, and independently per query (a shared
    order would make the same points win every tie and create false hubs).
    ``exclude[i] >= 0`` is a column row ``i`` may not pick (the query itself).
    ``row_offset`` is the global index of row 0, so results do not depend on
    how the rows were blocked.
    """
    n_rows, n_cols = S.shape
    for i in prange(n_rows):
        row = row_offset + i
        vals = np.full(k, -np.inf)
        keys = np.zeros(k, dtype=np.uint64)
        idx = np.full(k, -1, dtype=np.int64)
        filled = 0
        skip = exclude[i]
        for j in range(n_cols):
            if j == skip:
                continue
            v = S[i, j]
            h = tie_key(seed, row, j)
            if filled == k:
                last = k - 1
                if v < vals[last] or (v == vals[last] and h <= keys[last]):
                    continue
                pos = last
            else:
                pos = filled
                filled += 1
            # insertion step: shift weaker entries down (k is small)
            while pos > 0 and (v > vals[pos - 1] or (v == vals[pos - 1] and h > keys[pos - 1])):
                vals[pos] = vals[pos - 1]
                keys[pos] = keys[pos - 1]
                idx[pos] = idx[pos - 1]
                pos -= 1
            vals[pos] = v
            keys[pos] = h
            idx[pos] = j
        out_idx[i] = idx
        out_val[i] = vals
