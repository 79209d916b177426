"""Rows bucketed by Isolation Kernel cell: the inverted index behind every IK similarity query."""

from __future__ import annotations

import math
import os

import numpy as np

from .._validation import check_dense_size
from ._cells import cell_buckets, count_shared_cells, top_shared


class CellIndex:
    """Reference rows of one fitted Isolation Kernel, bucketed by cell in each partitioning.

    K(x, y) is the number of partitionings in which x and y share a cell, over
    t. Bucketing the reference rows once lets a query row visit only the rows it
    shares a cell with: about t * n / psi visits instead of t * n comparisons.
    Build it with :meth:`ikviz.IsolationKernel.index`; every query passes cells
    (``kernel.cells(Q)``) of the same kernel.

    Attributes
    ----------
    cells : ndarray (n, t)
        The cell of each reference row in each partitioning.
    psi, n, t : int
    """

    def __init__(self, cells: np.ndarray, psi: int):
        self.cells = np.ascontiguousarray(cells)
        self.n, self.t = self.cells.shape
        self.psi = int(psi)
        self._order, self._starts = cell_buckets(self.cells, self.psi)

    def similarity(self, cells_q: np.ndarray | None = None, out: np.ndarray | None = None,
                   dense_budget: int | None = None) -> np.ndarray:
        """Dense K(queries, reference rows), (n_q, n), values in [0, 1]; queries default to the reference rows.

        ``out`` (n_q, n) float64 is filled in place (for block-wise callers that
        bound memory themselves); otherwise the result must fit ``dense_budget``.
        """
        cells_q = self.cells if cells_q is None else np.ascontiguousarray(cells_q)
        if out is None:
            check_dense_size(cells_q.shape[0], self.n, dense_budget, "The IK similarity matrix",
                             "Use IsolationKernel.transform(X) and work with the sparse feature map instead.")
            out = np.zeros((cells_q.shape[0], self.n))
        else:
            out.fill(0.0)
        count_shared_cells(cells_q, self._order, self._starts, out)
        out /= self.t
        return out

    def neighbours(self, cells_q: np.ndarray | None = None, k: int = 30) -> tuple[np.ndarray, np.ndarray]:
        """The ``k`` reference rows most IK-similar to each query row, and their similarities.

        With ``cells_q=None`` the queries are the reference rows themselves and
        each row's own index is excluded. Returns ``(indices, similarities)``,
        both (n_q, k), by decreasing similarity (ties in a fixed order); a row
        sharing a cell with fewer than ``k`` rows is padded with index -1 and
        similarity 0. Memory stays O(n) per thread whatever the number of queries.
        """
        exclude_self = cells_q is None
        limit = self.n - 1 if exclude_self else self.n
        if isinstance(k, bool) or not isinstance(k, (int, np.integer)) or k < 1:
            raise ValueError(f"k must be a positive integer; got {k!r}.")
        if k > limit:
            raise ValueError(f"k={k} neighbours asked for, but there are only {limit} other rows.")
        cells_q = self.cells if exclude_self else np.ascontiguousarray(cells_q)
        n_q = cells_q.shape[0]
        idx = np.empty((n_q, k), dtype=np.int64)
        cnt = np.empty((n_q, k), dtype=np.int64)
        # a few chunks per core balance the load; each chunk reuses one O(n) buffer
        chunk = max(1, min(256, math.ceil(n_q / (4 * (os.cpu_count() or 1)))))
        top_shared(cells_q, self._order, self._starts, self.n, int(k), exclude_self, chunk, idx, cnt)
        return idx, cnt / self.t
