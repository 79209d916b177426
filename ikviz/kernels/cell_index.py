"""Rows bucketed by Isolation Kernel cell: the inverted index behind every IK similarity query."""

from __future__ import annotations

import math
import os
from numbers import Integral

import numpy as np

from .._validation import check_dense_size
from ._cells import cell_buckets, count_shared_cells, count_unit, top_shared


class CellIndex:
    """Reference rows of one fitted Isolation Kernel, bucketed by cell in each partitioning.

    K(x, y) is the number of partitionings in which x and y share a cell, over
    t. Bucketing the reference rows once lets a query row visit only the rows it
    shares a cell with: about t * n / psi visits instead of t * n comparisons.
    Build it with :meth:`ikviz.IsolationKernel.index`; every query passes cells
    (``kernel.cells(Q)``) of the same kernel.

    Cells are checked before any compiled code sees them: an index and its
    queries must come from the same kernel (same t, cells below psi); -1
    marks a row in no cell of a partitioning (``method="inne"``).

    Attributes
    ----------
    cells : ndarray (n, t)
        The cell of each reference row in each partitioning.
    psi, n, t : int

    Examples
    --------
    >>> import numpy as np
    >>> from ikviz import IsolationKernel
    >>> X = np.random.default_rng(0).random((50, 2))
    >>> ik = IsolationKernel(psi=8, t=40, random_state=0).fit(X)
    >>> index = ik.index(X)
    >>> idx, sim = index.neighbours(ik.cells(X[:3]), k=2)
    >>> idx[:, 0].tolist()  # each row's most similar row is itself
    [0, 1, 2]
    """

    def __init__(self, cells: np.ndarray, psi: int):
        if isinstance(psi, bool) or not isinstance(psi, Integral) or psi < 1:
            raise ValueError(f"psi must be a positive integer (cells per partitioning); got {psi!r}.")
        self.psi = int(psi)
        self.cells = _check_cells(cells, self.psi, None, "cells")
        self.n, self.t = self.cells.shape
        check_dense_size(self.t, self.psi + 1, None, "The cell index's bucket table",
                         "Pass the psi_ of the kernel that made the cells.")
        self._order, self._starts = cell_buckets(self.cells, self.psi)

    def _queries(self, cells_q) -> np.ndarray:
        return self.cells if cells_q is None else _check_cells(cells_q, self.psi, self.t, "cells_q")

    def similarity(self, cells_q: np.ndarray | None = None, out: np.ndarray | None = None,
                   dense_budget: int | None = None) -> np.ndarray:
        """Dense K(queries, reference rows), (n_q, n), values in [0, 1]; queries default to the reference rows.

        ``out`` (n_q, n) float64 is filled in place (for block-wise callers that
        bound memory themselves); otherwise the result must fit ``dense_budget``.
        """
        cells_q = self._queries(cells_q)
        if out is None:
            check_dense_size(cells_q.shape[0], self.n, dense_budget, "The IK similarity matrix",
                             "Use IsolationKernel.transform(X) and work with the sparse feature map instead.")
            out = np.zeros((cells_q.shape[0], self.n))
        else:
            if not (isinstance(out, np.ndarray) and out.dtype == np.float64 and out.flags.c_contiguous
                    and out.shape == (cells_q.shape[0], self.n)):
                raise ValueError(f"out must be a C-contiguous float64 array of shape {(cells_q.shape[0], self.n)}.")
            out.fill(0.0)
        chunk = max(1, min(256, math.ceil(cells_q.shape[0] / (4 * (os.cpu_count() or 1)))))
        count_shared_cells(cells_q, self._order, self._starts, count_unit(self.t), chunk, out)
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
        cells_q = self._queries(cells_q)
        n_q = cells_q.shape[0]
        idx = np.empty((n_q, k), dtype=np.int64)
        cnt = np.empty((n_q, k), dtype=np.int64)
        # a few chunks per core balance the load; each chunk reuses one O(n) buffer
        chunk = max(1, min(256, math.ceil(n_q / (4 * (os.cpu_count() or 1)))))
        top_shared(cells_q, self._order, self._starts, self.n, int(k), exclude_self, count_unit(self.t), chunk,
                   idx, cnt)
        return idx, cnt / self.t


def _check_cells(cells, psi: int, t: int | None, name: str) -> np.ndarray:
    """``cells`` as a C-contiguous integer (n, t) array with values in -1..psi-1, or a clear ValueError."""
    arr = np.asarray(cells)
    if arr.dtype.kind not in "iu" or arr.ndim != 2:
        raise ValueError(f"{name} must be a 2-D integer array of cells (n_rows, t), as IsolationKernel.cells "
                         f"returns; got dtype {arr.dtype} and shape {arr.shape}.")
    if arr.shape[1] == 0:
        raise ValueError(f"{name} has no partitionings (shape {arr.shape}).")
    if t is not None and arr.shape[1] != t:
        raise ValueError(f"{name} has {arr.shape[1]} partitionings but the index was built with t={t}: "
                         "queries and index must come from the same fitted kernel.")
    if arr.size and (arr.min() < -1 or arr.max() >= psi):
        raise ValueError(f"{name} holds cells in [{arr.min()}, {arr.max()}], outside 0..{psi - 1} (-1 for no "
                         f"cell) for psi={psi}: queries and index must come from the same fitted kernel.")
    return np.ascontiguousarray(arr, dtype=np.int64 if arr.dtype.itemsize > 4 or arr.dtype.kind == "u"
                                else np.int32)


def shared_cells(cells_a: np.ndarray, cells_b: np.ndarray) -> np.ndarray:
    """Boolean array: whether rows share a cell, partitioning by partitioning (broadcasting as ``==``).

    A row in no cell (-1, ``method="inne"``) shares it with nobody, so
    ``shared_cells(a, b).mean(axis=-1)`` is the IK similarity of paired rows.

    Examples
    --------
    >>> import numpy as np
    >>> shared_cells(np.array([[0, 1, -1]]), np.array([[0, 2, -1]])).tolist()
    [[True, False, False]]
    """
    a, b = np.asarray(cells_a), np.asarray(cells_b)
    return (a == b) & (a >= 0)
