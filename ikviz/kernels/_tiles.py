"""Work tiles shared by the numba kernels: (block of rows) x (one partitioning).

Tiling this way keeps one partitioning's centres or tree nodes in cache while a
block of rows is processed, and gives numba's prange n_blocks * t independent
tasks to balance over the cores.

numba's on-disk cache of a caller is keyed on the caller's own file, so after
editing this module clear the ``__pycache__`` folders of ``_voronoi`` and
``_itree`` (an installed release is unaffected).
"""

from numba import njit


@njit(cache=True, inline="always")
def n_tiles(n, t, block):
    """Number of tiles for ``n`` rows and ``t`` partitionings."""
    return ((n + block - 1) // block) * t


@njit(cache=True, inline="always")
def tile(task, n, t, block):
    """Partitioning index and row range ``(k, start, stop)`` of tile number ``task``."""
    b = task // t
    k = task - b * t
    start = b * block
    return k, start, min(n, start + block)
