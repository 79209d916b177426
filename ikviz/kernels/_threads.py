"""Serial numba kernels run over ranges of their tasks in Python threads, and BLAS products called from them.

numba's ``parallel=True`` compiles a ``prange`` loop through its parfor passes and a generated gufunc: on
a fresh clone that doubled a kernel's first compile (``_voronoi.nearest_centres`` 1.7 -> 4.1 CPU-s,
``classic._kernel_args`` 1.0 -> 2.1, ``_lp.lp_distances`` 0.6 -> 1.6; issue 32). The kernels are
therefore compiled serial, ``nogil``, taking the range ``task0 .. task1`` of their tasks as their last
two arguments, and :func:`run_tasks` spreads the ranges over threads, as numba's ``prange`` spread the
tasks over its own: every task writes its own rows, so the result does not depend on the split.
(``classic._kernel_args`` keeps its ``prange``: compiled serial, its loop took 1.7x the CPU time.) The
number of threads is numba's (:func:`numba.get_num_threads`), so ``numba.set_num_threads(1)`` still
runs a kernel on one core.

``np.dot`` inside numba pulls in numba's linear-algebra layer (0.7-4 CPU-s of compiles); the kernels
call SciPy's Fortran BLAS through a function pointer passed as an argument (:data:`DGEMM`,
:func:`dgemm`), which compiles as one external call.
"""

from __future__ import annotations

import ctypes

import numba
import numpy as np
import scipy.linalg.cython_blas  # noqa: F401  (loads SciPy's BLAS, whose gemm the kernels call)
from numba import njit
from numba.extending import get_cython_function_address

_GEMM = ctypes.CFUNCTYPE(None, *([ctypes.c_void_p] * 13))
#: SciPy's Fortran sgemm and dgemm (every argument by address), passed to the kernels as an argument: a
#: global function pointer would keep numba from caching the kernel on disk
SGEMM = _GEMM(get_cython_function_address("scipy.linalg.cython_blas", "sgemm"))
DGEMM = _GEMM(get_cython_function_address("scipy.linalg.cython_blas", "dgemm"))

#: multiply-adds (or comparable steps) below which a call runs in the calling thread: a pool of threads
#: costs ~0.2 ms, about this much work
_SERIAL_WORK = 1 << 19


def workers_for(work: float) -> int:
    """Threads for ``work`` steps: numba's thread count, or 1 for work too small to pay for a thread pool."""
    return 1 if work < _SERIAL_WORK else max(1, numba.get_num_threads())


def run_tasks(kernel, n_tasks: int, *args, workers: int = 1) -> None:
    """Call ``kernel(*args, task0, task1)`` over ``0 .. n_tasks`` in ``workers`` threads.

    A few ranges per thread, so a thread slowed by other work on the machine
    does not hold up the rest; one range in the calling thread when
    ``workers`` is 1.
    """
    workers = max(1, min(int(workers), n_tasks))
    if workers == 1:
        if n_tasks > 0:
            kernel(*args, 0, n_tasks)
        return
    from concurrent.futures import ThreadPoolExecutor

    bounds = np.linspace(0, n_tasks, min(n_tasks, 4 * workers) + 1).astype(np.int64)
    with ThreadPoolExecutor(workers) as pool:
        futures = [pool.submit(kernel, *args, int(a), int(b)) for a, b in zip(bounds[:-1], bounds[1:]) if b > a]
        for f in futures:
            f.result()


@njit(cache=True, nogil=True)
def dgemm(gemm, trans_a, trans_b, m, n, k, a, lda, b, ldb, c, ldc):
    """``C = op(A) @ op(B)`` in Fortran (column-major) terms, through the BLAS function pointer ``gemm``.

    ``a``, ``b`` and ``c`` are float64 arrays (any shape) whose first
    element is the matrix's; ``trans_a`` / ``trans_b`` are True for a
    transposed operand. A C-ordered (rows, cols) array is a column-major
    (cols, rows) one with leading dimension cols.
    """
    flags = np.empty(2, dtype=np.int8)
    flags[0] = 84 if trans_a else 78  # 'T' or 'N'
    flags[1] = 84 if trans_b else 78
    dims = np.empty(6, dtype=np.int32)
    dims[0] = m
    dims[1] = n
    dims[2] = k
    dims[3] = max(lda, 1)
    dims[4] = max(ldb, 1)
    dims[5] = max(ldc, 1)
    ab = np.empty(2)
    ab[0] = 1.0
    ab[1] = 0.0
    gemm(flags[0:].ctypes, flags[1:].ctypes, dims[0:].ctypes, dims[1:].ctypes, dims[2:].ctypes, ab[0:].ctypes,
         a.ctypes, dims[3:].ctypes, b.ctypes, dims[4:].ctypes, ab[1:].ctypes, c.ctypes, dims[5:].ctypes)
