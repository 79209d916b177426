"""Kernel similarity around a reference point on 2-D data: shared by the kernel-shapes and density pages.

A dataset is named by a hashable *spec* so fitted kernels and the cells of
the contour grid can be memoised and reused when only the reference point,
the RBF width or the probe points change:

- ``("uniform", n, seed)``: uniform points in [-1, 1]^2;
- ``("quadrants", (dense, medium, medium, sparse), seed)``: ting2018 Fig. 4;
- ``("tsne", dataset_name, n, seed)``: a t-SNE view of a bundled dataset in [-1, 1]^2.
"""

from __future__ import annotations

import numpy as np

from ..data import Data, step
from ..kernels import IsolationKernel, laplacian_psi, rbf, shared_cells
from ..registry import MEASURES, isolation_kernel
from ..runner import Memo, resolve

#: kernel key -> (label, IsolationKernel keyword arguments or None), from the one registry
KERNELS: dict[str, tuple[str, dict | None]] = {
    k: (MEASURES[k].label, MEASURES[k].isolation)
    for k in ("ik_anne", "ik_inne", "ik_iforest", "ik_iforest_full", "laplacian_psi", "rbf")
}
IK_KERNELS = tuple(k for k, (_, kw) in KERNELS.items() if kw is not None)
LOW, HIGH = -1.0, 1.0  # every 2-D dataset here lives in [-1, 1]^2


def check_kernel(kernel: str) -> None:
    """Raise a ``ValueError`` naming the choices if ``kernel`` is unknown."""
    if kernel not in KERNELS:
        raise ValueError(f"unknown kernel {kernel!r}; choose one of {list(KERNELS)}.")


def describe(spec: tuple) -> Data:
    """The :class:`ikviz.data.Data` a data spec names (see the module docstring).

    Examples
    --------
    >>> from ikviz.experiments.surfaces import describe
    >>> describe(("tsne", "iris", 60, 0)).steps[-1].name
    'tsne'
    """
    kind, *args = spec
    if kind == "uniform":
        n, seed = args
        return Data("uniform", seed=seed, options={"n": n, "d": 2})
    if kind == "quadrants":
        counts, seed = args
        return Data("four-quadrants", seed=seed, options={"counts": tuple(counts)})
    if kind == "tsne":
        name, n, seed = args
        if n < 10:
            raise ValueError(f"n must be at least 10 points for a t-SNE view; got {n}.")
        return Data(name, seed=seed, steps=(step("subsample", n=int(n)), "minmax", "tsne"))
    raise ValueError(f"unknown data spec {spec!r}.")


def make_data(spec: tuple, *, progress=None) -> np.ndarray:
    """The 2-D points a data spec names (:func:`describe`); ``progress``: a t-SNE view's iterations."""
    return describe(spec).resolve(progress=progress).X


def grid_axis(grid: int) -> np.ndarray:
    """Coordinates of the contour grid along each axis."""
    if grid < 2:
        raise ValueError(f"grid must be at least 2; got {grid}.")
    return np.linspace(LOW, HIGH, grid)


def grid_points(grid: int) -> np.ndarray:
    """All (grid * grid, 2) grid points, x varying fastest."""
    gx, gy = np.meshgrid(grid_axis(grid), grid_axis(grid))
    return np.column_stack([gx.ravel(), gy.ravel()])


def fitted_kernel(kernel: str, spec: tuple, psi: int, t: int, seed: int, *, memo: Memo | None = None
                  ) -> IsolationKernel:
    """IK variant ``kernel`` fitted on the data ``spec`` names (a block every view of that data reuses)."""
    check_kernel(kernel)
    if KERNELS[kernel][1] is None:
        raise ValueError(f"{kernel!r} is not an Isolation Kernel variant.")
    memo, _ = resolve(memo, None)
    X = memo(make_data)(spec)
    return isolation_kernel(kernel, psi=psi, t=t, seed=seed, n=len(X)).fit(X)


def grid_cells(kernel: str, spec: tuple, psi: int, t: int, seed: int, grid: int, *, memo: Memo | None = None
               ) -> np.ndarray:
    """The cells of every contour grid point under IK variant ``kernel`` (a block: the slow part of a surface)."""
    memo, _ = resolve(memo, None)
    return memo(fitted_kernel)(kernel, spec, psi, t, seed).cells(grid_points(grid))


def similarity(kernel: str, spec: tuple, A, B, *, psi: int, t: int, gamma: float, seed: int,
               memo: Memo | None = None) -> np.ndarray:
    """Row-wise similarity K(A[i], B[i]) of point pairs under ``kernel`` (IK fitted on ``spec``)."""
    check_kernel(kernel)
    A = np.atleast_2d(np.asarray(A, dtype=float))
    B = np.atleast_2d(np.asarray(B, dtype=float))
    if A.shape != B.shape:
        raise ValueError(f"A and B must hold the same number of points; got {A.shape} and {B.shape}.")
    if kernel == "laplacian_psi":
        return psi ** (-np.abs(A - B).sum(axis=1) / A.shape[1])
    if kernel == "rbf":
        return np.exp(-gamma * ((A - B) ** 2).sum(axis=1))
    memo, _ = resolve(memo, None)
    ik = memo(fitted_kernel)(kernel, spec, psi, t, seed)
    return shared_cells(ik.cells(A), ik.cells(B)).mean(axis=1)


def surface(kernel: str, spec: tuple, *, psi: int, t: int, gamma: float, ref: tuple[float, float],
            grid: int, seed: int, memo: Memo | None = None) -> np.ndarray:
    """Similarity of every grid point to ``ref``: a (grid, grid) array, rows along y.

    With a shared ``memo``, moving ``ref`` reuses the fitted kernel and the
    grid's cells: only the cheap comparison with the new point is computed.
    """
    check_kernel(kernel)
    memo, _ = resolve(memo, None)
    ref_pt = np.asarray([ref], dtype=float)
    if kernel == "laplacian_psi":
        values = laplacian_psi(grid_points(grid), ref_pt, psi=psi)[:, 0]
    elif kernel == "rbf":
        values = rbf(grid_points(grid), ref_pt, gamma=gamma)[:, 0]
    else:
        ref_cells = memo(fitted_kernel)(kernel, spec, psi, t, seed).cells(ref_pt)
        values = shared_cells(memo(grid_cells)(kernel, spec, psi, t, seed, grid), ref_cells).mean(axis=1)
    return values.reshape(grid, grid)


def partition_cells(kernel: str, spec: tuple, *, psi: int, t: int, seed: int, index: int,
                    memo: Memo | None = None):
    """Partitioning ``index`` of IK variant ``kernel``, clipped to [-1, 1]^2."""
    memo, _ = resolve(memo, None)
    bounds = np.array([[LOW, LOW], [HIGH, HIGH]])
    return memo(fitted_kernel)(kernel, spec, psi, t, seed).partition(index, bounds=bounds)
