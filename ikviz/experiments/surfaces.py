"""Kernel similarity around a reference point on 2-D data: shared by the kernel-shapes and density pages.

A dataset is named by a hashable *spec* so fitted kernels and the cells of
the contour grid can be memoised and reused when only the reference point,
the RBF width or the probe points change:

- ``("uniform", n, seed)``: uniform points in [-1, 1]^2;
- ``("quadrants", (dense, medium, medium, sparse), seed)``: ting2018 Fig. 4;
- ``("tsne", dataset_name, n, seed)``: a t-SNE view of a bundled dataset in [-1, 1]^2.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from ..data import four_quadrants, uniform
from ..data.views import tsne_view
from ..kernels import IsolationKernel, laplacian_psi, rbf, shared_cells

#: kernel key -> (label, IsolationKernel keyword arguments or None)
KERNELS: dict[str, tuple[str, dict | None]] = {
    "ik_anne": ("IK · Voronoi (aNNE)", {"method": "anne"}),
    "ik_inne": ("IK · hyperspheres (iNNE)", {"method": "inne"}),
    "ik_iforest": ("IK · iForest, height ≤ ⌈log₂ψ⌉", {"method": "iforest", "max_depth": "auto"}),
    "ik_iforest_full": ("IK · iForest, fully grown", {"method": "iforest", "max_depth": None}),
    "laplacian_psi": ("Laplacian L_ψ", None),
    "rbf": ("RBF (Gaussian)", None),
}
IK_KERNELS = tuple(k for k, (_, kw) in KERNELS.items() if kw is not None)
LOW, HIGH = -1.0, 1.0  # every 2-D dataset here lives in [-1, 1]^2


def check_kernel(kernel: str) -> None:
    """Raise a ``ValueError`` naming the choices if ``kernel`` is unknown."""
    if kernel not in KERNELS:
        raise ValueError(f"unknown kernel {kernel!r}; choose one of {list(KERNELS)}.")


def make_data(spec: tuple) -> np.ndarray:
    """The 2-D points a data spec names (see the module docstring)."""
    kind, *args = spec
    if kind == "uniform":
        n, seed = args
        return uniform(n, 2, seed=seed)
    if kind == "quadrants":
        counts, seed = args
        return four_quadrants(tuple(counts), seed=seed)[0]
    if kind == "tsne":
        name, n, seed = args
        return tsne_view(name, n, seed)[0]
    raise ValueError(f"unknown data spec {spec!r}.")


def grid_axis(grid: int) -> np.ndarray:
    """Coordinates of the contour grid along each axis."""
    if grid < 2:
        raise ValueError(f"grid must be at least 2; got {grid}.")
    return np.linspace(LOW, HIGH, grid)


def grid_points(grid: int) -> np.ndarray:
    """All (grid * grid, 2) grid points, x varying fastest."""
    gx, gy = np.meshgrid(grid_axis(grid), grid_axis(grid))
    return np.column_stack([gx.ravel(), gy.ravel()])


@lru_cache(maxsize=128)  # the density page's margin curve alone fits 72 small kernels
def fitted_kernel(kernel: str, spec: tuple, psi: int, t: int, seed: int) -> IsolationKernel:
    """IK variant ``kernel`` fitted on the data ``spec`` names (memoised: every view reuses it)."""
    check_kernel(kernel)
    kwargs = KERNELS[kernel][1]
    if kwargs is None:
        raise ValueError(f"{kernel!r} is not an Isolation Kernel variant.")
    X = make_data(spec)
    return IsolationKernel(psi=min(psi, len(X)), t=t, random_state=seed, **kwargs).fit(X)


@lru_cache(maxsize=24)
def _grid_cells(kernel: str, spec: tuple, psi: int, t: int, seed: int, grid: int) -> np.ndarray:
    return fitted_kernel(kernel, spec, psi, t, seed).cells(grid_points(grid))


def similarity(kernel: str, spec: tuple, A, B, *, psi: int, t: int, gamma: float, seed: int) -> np.ndarray:
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
    ik = fitted_kernel(kernel, spec, psi, t, seed)
    return shared_cells(ik.cells(A), ik.cells(B)).mean(axis=1)


def surface(kernel: str, spec: tuple, *, psi: int, t: int, gamma: float, ref: tuple[float, float],
            grid: int, seed: int) -> np.ndarray:
    """Similarity of every grid point to ``ref``: a (grid, grid) array, rows along y."""
    check_kernel(kernel)
    ref_pt = np.asarray([ref], dtype=float)
    if kernel == "laplacian_psi":
        values = laplacian_psi(grid_points(grid), ref_pt, psi=psi)[:, 0]
    elif kernel == "rbf":
        values = rbf(grid_points(grid), ref_pt, gamma=gamma)[:, 0]
    else:
        ref_cells = fitted_kernel(kernel, spec, psi, t, seed).cells(ref_pt)
        values = shared_cells(_grid_cells(kernel, spec, psi, t, seed, grid), ref_cells).mean(axis=1)
    return values.reshape(grid, grid)


def partition_cells(kernel: str, spec: tuple, *, psi: int, t: int, seed: int, index: int):
    """Partitioning ``index`` of IK variant ``kernel``, clipped to [-1, 1]^2."""
    bounds = np.array([[LOW, LOW], [HIGH, HIGH]])
    return fitted_kernel(kernel, spec, psi, t, seed).partition(index, bounds=bounds)
