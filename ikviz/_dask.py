"""Dask arrays on the ground floor: row access and row-block maps, for any estimator of ikviz.

The one place where ikviz meets Dask arrays: the engine (``ikviz.kernels``,
``ikviz.learn``) dispatches on them through these four functions, and the
top-level pipeline :mod:`ikviz.scale` (files, clusters, ``ikviz scale``) is
built on them; nothing here imports from the rest of ikviz.

Import-light: nothing here imports Dask at module import time, so
``ikviz.kernels`` stays fast to import for NumPy users. The kernel calls

* :func:`is_dask_array` to decide which path to take;
* :func:`n_rows` and :func:`take_rows` in ``fit``, to compute only the
  ``t * psi`` sampled rows of a Dask array (as a NumPy array);
* :func:`map_row_blocks` in ``cells`` and ``transform``, to map every row
  block with the fitted kernel (which is pickled to the workers: it holds
  only NumPy arrays, a few hundred kilobytes for t = 200, psi = 64, d = 20).
"""

from __future__ import annotations

import sys

import numpy as np


def is_dask_array(X) -> bool:
    """True for a ``dask.array.Array`` (without importing Dask when nobody has)."""
    da = sys.modules.get("dask.array")
    if da is None:
        return False
    return isinstance(X, da.Array)


def _known_rows(X):
    """``X`` with known row-chunk sizes (computing them if needed, see :func:`n_rows`)."""
    if any(np.isnan(c) for c in X.chunks[0]):
        # one pass over the data that keeps only each block's length: every block is
        # read (or computed) once, in parallel, and dropped; nothing but the sizes is kept
        X.compute_chunk_sizes()
    return X


def n_rows(X) -> int:
    """Number of rows of a NumPy or Dask array.

    A Dask array made from a data frame without lengths (``to_dask_array()``)
    has unknown row-chunk sizes (NaN); they are computed here, in place
    (``X.compute_chunk_sizes()``): one parallel pass that reads every block and
    keeps only its length. Dask arrays made by :func:`ikviz.data.files.read_dataset`
    from Parquet know their sizes from the files' metadata and need no pass.
    """
    if not is_dask_array(X):
        return int(np.shape(X)[0])
    return int(sum(_known_rows(X).chunks[0]))


def take_rows(X, rows: np.ndarray) -> np.ndarray:
    """Rows ``rows`` (sorted, unique, int64) of ``X`` as a C-contiguous float64 NumPy array.

    For a Dask array only the blocks holding a requested row are computed, and
    from each only the requested rows travel back to the caller, so the memory
    used is one block per worker thread plus ``len(rows)`` rows, never the
    whole array. (A block is still read or computed in full to extract its rows:
    with ``t * psi`` rows drawn at random from a large array, that is usually
    every block once.) Unknown chunk sizes are computed first (see :func:`n_rows`).
    """
    rows = np.asarray(rows, dtype=np.int64)
    if not is_dask_array(X):
        return np.ascontiguousarray(np.asarray(X)[rows], dtype=np.float64)
    import dask
    import dask.array as da

    X = _known_rows(X)
    if X.ndim != 2:
        raise ValueError(f"X must be 2-D; got a Dask array of shape {X.shape}.")
    n = int(sum(X.chunks[0]))
    if rows.size and (rows[0] < 0 or rows[-1] >= n):
        raise ValueError(f"row indices must lie in [0, {n - 1}].")
    if rows.size == 0:
        return np.empty((0, X.shape[1]), dtype=np.float64)
    if X.numblocks[1] > 1:
        X = X.rechunk({1: -1})
    # one small task per block that holds requested rows: block[local rows]
    starts = np.concatenate([[0], np.cumsum(X.chunks[0])]).astype(np.int64)
    which = np.searchsorted(starts, rows, side="right") - 1
    parts = []
    for b in np.unique(which):
        local = rows[which == b] - starts[b]
        parts.append(X.blocks[int(b), 0][local])
    (out,) = dask.compute(da.concatenate(parts, axis=0))
    return np.ascontiguousarray(out, dtype=np.float64)


def map_row_blocks(func, X, *, n_cols: int, dtype, sparse: bool = False):
    """A Dask array whose row blocks are ``func(block)`` for the row blocks of ``X``.

    The result has the row chunks of ``X`` and one column chunk of width
    ``n_cols``. ``func`` gets each block as a NumPy array (all the columns of
    those rows) and returns an (n_block_rows, n_cols) array, or a
    ``scipy.sparse.csr_matrix`` with ``sparse=True`` (the blocks of the result
    are then CSR matrices: ``result.compute()`` concatenates them into one
    sparse matrix; ``result.map_blocks`` or ``to_delayed`` give the blocks).
    Empty blocks never reach ``func``: they give an empty block of the right
    type and width. ``func`` is pickled with the task graph (for the kernel,
    a bound method: the fitted kernel travels once per block).
    """
    import dask.array as da

    if not is_dask_array(X):
        raise TypeError(f"map_row_blocks needs a Dask array; got {type(X).__name__}.")
    if X.ndim != 2:
        raise ValueError(f"X must be 2-D; got a Dask array of shape {X.shape}.")
    n_cols, dtype = int(n_cols), np.dtype(dtype)
    if X.numblocks[1] > 1:
        X = X.rechunk({1: -1})
    if sparse:
        import scipy.sparse as sp

        meta = sp.csr_matrix((0, n_cols), dtype=dtype)
    else:
        meta = np.empty((0, n_cols), dtype=dtype)
    return da.map_blocks(_RowBlock(func, n_cols, dtype, sparse), X, chunks=(X.chunks[0], (n_cols,)),
                         dtype=dtype, meta=meta)


class _RowBlock:
    """Picklable wrapper: empty blocks give an empty result without calling ``func``."""

    def __init__(self, func, n_cols, dtype, sparse):
        self.func, self.n_cols, self.dtype, self.sparse = func, n_cols, dtype, sparse

    def __call__(self, block):
        block = np.asarray(block)
        if block.shape[0] == 0:
            if self.sparse:
                import scipy.sparse as sp

                return sp.csr_matrix((0, self.n_cols), dtype=self.dtype)
            return np.empty((0, self.n_cols), dtype=self.dtype)
        out = self.func(block)
        if not self.sparse:
            out = np.asarray(out, dtype=self.dtype)
        return out
