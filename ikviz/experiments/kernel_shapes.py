"""Kernel shapes on uniform 2-D data (Ting et al. 2018, Fig. 1 and Fig. 3).

Contours of Isolation Kernel (Voronoi, height-limited iForest, fully grown
iForest), the Laplacian ``L_psi`` and RBF around a reference point, one
partitioning's cells for each IK variant, and the sharpness of IK for a small
and a large ``psi``.

The building blocks (:func:`kernel_surface`, :func:`partition_cells`,
:func:`sharpness`) take only the parameters they depend on, so a caller (the
app) can cache each one and recompute only what a change touches.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

import numpy as np

from ..data import uniform
from ..kernels import IsolationKernel, Partition, laplacian_psi, rbf

#: kernel key -> (label, IsolationKernel keyword arguments or None)
KERNELS: dict[str, tuple[str, dict | None]] = {
    "ik_anne": ("IK · Voronoi (aNNE)", {"method": "anne"}),
    "ik_iforest": ("IK · iForest, height ≤ ⌈log₂ψ⌉", {"method": "iforest", "max_depth": "auto"}),
    "ik_iforest_full": ("IK · iForest, fully grown", {"method": "iforest", "max_depth": None}),
    "laplacian_psi": ("Laplacian L_ψ", None),
    "rbf": ("RBF (Gaussian)", None),
}
IK_KERNELS = tuple(k for k, (_, kw) in KERNELS.items() if kw is not None)
LOW, HIGH = -1.0, 1.0  # the data square


@dataclass(frozen=True)
class Params:
    """Parameters of the kernel-shapes figure; every field has a sensible default."""

    n: int = 2000               # uniform points in [-1, 1]^2
    psi: int = 64
    t: int = 200
    gamma: float = 1.0          # RBF width (the paper's Fig. 1 uses 1)
    ref_x: float = 0.0
    ref_y: float = 0.0
    grid: int = 81              # contour resolution per axis
    partition: int = 0          # which partitioning's cells to draw
    psi_small: int = 8          # sharpness comparison (Fig. 3 uses 8 and 1024)
    psi_large: int = 1024
    seed: int = 0


@dataclass
class Result:
    """Everything the kernel-shapes figures show."""

    params: Params
    data: np.ndarray                       # (n, 2)
    axis: np.ndarray                       # (grid,) coordinates of both grid axes
    surfaces: dict[str, np.ndarray]        # kernel -> (grid, grid), rows along y
    partitions: dict[str, Partition]       # IK kernel -> one partitioning's cells
    sharpness: list[dict] = field(default_factory=list)  # one profile per psi, see sharpness()


def grid_axis(grid: int) -> np.ndarray:
    """Coordinates of the contour grid along each axis."""
    if grid < 2:
        raise ValueError(f"grid must be at least 2; got {grid}.")
    return np.linspace(LOW, HIGH, grid)


def _grid_points(grid: int) -> np.ndarray:
    gx, gy = np.meshgrid(grid_axis(grid), grid_axis(grid))
    return np.column_stack([gx.ravel(), gy.ravel()])


def _check_kernel(kernel: str) -> None:
    if kernel not in KERNELS:
        raise ValueError(f"unknown kernel {kernel!r}; choose one of {list(KERNELS)}.")


@lru_cache(maxsize=16)
def fitted_kernel(kernel: str, n: int, psi: int, t: int, seed: int) -> IsolationKernel:
    """The IK variant ``kernel`` fitted on ``uniform(n, seed)`` (memoised: it is reused for every view)."""
    _check_kernel(kernel)
    kwargs = KERNELS[kernel][1]
    if kwargs is None:
        raise ValueError(f"{kernel!r} is not an Isolation Kernel variant.")
    return IsolationKernel(psi=psi, t=t, random_state=seed, **kwargs).fit(uniform(n, 2, seed=seed))


@lru_cache(maxsize=16)
def _grid_cells(kernel: str, n: int, psi: int, t: int, seed: int, grid: int) -> np.ndarray:
    return fitted_kernel(kernel, n, psi, t, seed).cells(_grid_points(grid))


def kernel_surface(kernel: str, *, n: int, psi: int, t: int, gamma: float, ref: tuple[float, float],
                   grid: int, seed: int) -> np.ndarray:
    """Similarity of every grid point to ``ref`` under ``kernel``: a (grid, grid) array, rows along y."""
    _check_kernel(kernel)
    ref_pt = np.asarray([ref], dtype=float)
    if kernel == "laplacian_psi":
        values = laplacian_psi(_grid_points(grid), ref_pt, psi=psi)[:, 0]
    elif kernel == "rbf":
        values = rbf(_grid_points(grid), ref_pt, gamma=gamma)[:, 0]
    else:
        ref_cells = fitted_kernel(kernel, n, psi, t, seed).cells(ref_pt)
        values = (_grid_cells(kernel, n, psi, t, seed, grid) == ref_cells).mean(axis=1)
    return values.reshape(grid, grid)


def partition_cells(kernel: str, *, n: int, psi: int, t: int, seed: int, index: int) -> Partition:
    """Partitioning ``index`` of IK variant ``kernel``, clipped to the data square."""
    bounds = np.array([[LOW, LOW], [HIGH, HIGH]])
    return fitted_kernel(kernel, n, psi, t, seed).partition(index, bounds=bounds)


def sharpness(*, n: int, psi: int, t: int, ref: tuple[float, float], seed: int,
              kernel: str = "ik_iforest", bins: int = 20) -> dict:
    """IK similarity of the data to ``ref`` for one ``psi`` (Fig. 3: larger psi, sharper kernel).

    Returns the mean similarity in bins of the normalised L1 distance
    ||x - ref||_1 / d (``mean``, with ``laplacian`` = psi ** -distance
    alongside) and a histogram of the similarity values (``hist`` over
    ``hist_edges``).
    """
    X = uniform(n, 2, seed=seed)
    psi = min(int(psi), n)
    dist = np.abs(X - np.asarray(ref)).sum(axis=1) / 2
    corners = np.array([[LOW, LOW], [LOW, HIGH], [HIGH, LOW], [HIGH, HIGH]])
    farthest = np.abs(corners - np.asarray(ref)).sum(axis=1).max() / 2
    edges = np.linspace(0.0, farthest, bins + 1)
    which = np.clip(np.digitize(dist, edges) - 1, 0, bins - 1)
    centres = (edges[:-1] + edges[1:]) / 2
    counts = np.bincount(which, minlength=bins)
    ik = fitted_kernel(kernel, n, psi, t, seed)
    sims = (ik.cells(X) == ik.cells(np.asarray([ref], dtype=float))).mean(axis=1)
    sums = np.bincount(which, weights=sims, minlength=bins)
    hist_edges = np.linspace(0.0, 1.0, 21)
    return {
        "psi": psi,
        "distance": centres,
        "mean": np.where(counts > 0, sums / np.maximum(counts, 1), np.nan),
        "laplacian": psi ** -centres,
        "hist": np.histogram(sims, bins=hist_edges)[0],
        "hist_edges": hist_edges,
    }


def sharpness_psis(p: Params) -> tuple[int, ...]:
    """The distinct psi values the sharpness panel compares: small, the user's, large."""
    return tuple(dict.fromkeys(min(v, p.n) for v in (p.psi_small, p.psi, p.psi_large)))


def run(p: Params = Params()) -> Result:
    """Compute every panel of the kernel-shapes page."""
    if p.n < 2:
        raise ValueError(f"n must be at least 2; got {p.n}.")
    ref = (float(p.ref_x), float(p.ref_y))
    common = dict(n=p.n, psi=min(p.psi, p.n), t=p.t, seed=p.seed)
    surfaces = {k: kernel_surface(k, gamma=p.gamma, ref=ref, grid=p.grid, **common) for k in KERNELS}
    partitions = {k: partition_cells(k, index=p.partition, **common) for k in IK_KERNELS}
    sharp = [sharpness(n=p.n, psi=psi, t=p.t, ref=ref, seed=p.seed) for psi in sharpness_psis(p)]
    return Result(p, uniform(p.n, 2, seed=p.seed), grid_axis(p.grid), surfaces, partitions, sharp)


def summary(result: Result) -> dict:
    """The numbers worth comparing: each kernel's RMSE against L_psi on the grid, and the sharpness."""
    lap = result.surfaces["laplacian_psi"]
    rmse = {k: float(np.sqrt(np.mean((s - lap) ** 2))) for k, s in result.surfaces.items()}
    half_width = {}
    for profile in result.sharpness:
        below = np.flatnonzero(np.nan_to_num(profile["mean"], nan=1.0) < 0.5)
        half_width[profile["psi"]] = float(profile["distance"][below[0]]) if below.size else None
    return {"rmse_vs_laplacian_psi": rmse, "sharpness_half_width": half_width}
