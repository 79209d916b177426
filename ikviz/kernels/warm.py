"""Compile the engine's numba kernels into numba's on-disk cache ahead of a first visit (issue 32).

A fresh clone compiles each kernel the first time a page needs it (3-7 CPU-s before a heavy page's first
figure). Run in a process of its own at low priority when a server starts::

    nice -n 19 python -m ikviz.kernels.warm

it compiles every kernel once, for the one type signature the callers use (each kernel has one: see
``tests/test_numba_compile.py``), and numba writes them to its cache (``cache=True``), where the server's
process then loads them (a few ms each) instead of compiling. In a process of its own it takes neither the
server's GIL nor numba's compiler lock; a kernel the server needs before it is cached compiles in the server
as before. With a warm cache it returns in about a second.
"""

from __future__ import annotations

import sys
import time


def warm(echo=None) -> float:
    """Call every engine kernel once on tiny data (compiling or loading it); return the seconds taken.

    Examples
    --------
    >>> from ikviz.kernels.warm import warm
    >>> warm() >= 0
    True
    """
    import numpy as np

    from . import isolation
    from .classic import laplacian, rbf
    from .isolation import IsolationKernel
    from .neighbourhood import lp_distance

    start = time.perf_counter()
    rng = np.random.default_rng(0)
    small = rng.normal(size=(64, 2))
    wide = rng.normal(size=(40, isolation._FLOAT32_MAX_D + 1))  # the float64 kernels of many features
    def kernel(method, X):
        ik = IsolationKernel(psi=8, t=4, method=method, random_state=0).fit(X)
        return ik.similarity(X[:20])

    # the kernels most pages need first: Voronoi cells (float32 tiles), trees, the classic kernels
    steps = [("anne cells", lambda: kernel("anne", small)), ("iforest cells", lambda: kernel("iforest", small)),
             ("rbf", lambda: rbf(small, gamma=1.0)), ("laplacian", lambda: laplacian(small, gamma=1.0)),
             ("anne cells, many features", lambda: kernel("anne", wide)),
             ("lp_distance", lambda: lp_distance(small, p=0.5)), ("inne cells", lambda: kernel("inne", small)),
             ("inne cells, many features", lambda: kernel("inne", wide))]
    for name, step in steps:
        t0 = time.perf_counter()
        step()
        if echo is not None:
            echo(f"{name}: {time.perf_counter() - t0:.2f} s")
    return time.perf_counter() - start


if __name__ == "__main__":
    print(f"numba kernels ready in {warm(echo=print):.1f} s")
    sys.exit(0)
