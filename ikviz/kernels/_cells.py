"""Numba kernel that turns per-partitioning cell indices into a dense similarity matrix."""

import numpy as np
from numba import njit, prange


@njit(parallel=True, cache=True, nogil=True)
def count_shared_cells(cells_a, order_b, starts_b, out):
    """``out[i, j]`` += number of partitionings in which row i of A and row j of B share a cell.

    B is given bucketed by cell: for partitioning ``k``, the rows of B in cell
    ``c`` are ``order_b[k, starts_b[k, c]:starts_b[k, c + 1]]``. The work is
    about t * n_A * n_B / psi increments instead of t * n_A * n_B comparisons.
    """
    n_a, t = cells_a.shape
    for i in prange(n_a):
        row = out[i]
        for k in range(t):
            c = cells_a[i, k]
            ob = order_b[k]
            for p in range(starts_b[k, c], starts_b[k, c + 1]):
                row[ob[p]] += 1.0
    return out
