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

import numpy as np

from ..kernels import Partition, shared_cells
from ..params import setting
from ..runner import Memo, Progress, resolve
from . import surfaces
from .surfaces import IK_KERNELS, KERNELS, grid_axis
from .surfaces import make_data as surfaces_data

__all__ = ["Params", "Result", "notes", "KERNELS", "IK_KERNELS", "grid_axis", "kernel_surface", "partition_cells",
           "sharpness", "sharpness_psis", "run", "summary"]


PSI_CHOICES = (2, 4, 8, 16, 32, 64, 128, 256, 512, 1024)
T_CHOICES = (10, 50, 100, 200, 500, 1000, 2000)


@dataclass(frozen=True)
class Params:
    """Parameters of the kernel-shapes figure; every field has a sensible default."""

    psi: int = setting(64, "ψ (points per partitioning)", choices=PSI_CHOICES,
                       help="Cells per partitioning: larger ψ, smaller cells, sharper kernel.")
    t: int = setting(200, "t (partitionings)", choices=T_CHOICES,
                     help="IK averages over t partitionings: larger t, smoother contours.")
    gamma: float = setting(1.0, "RBF γ", choices=(0.1, 0.3, 1.0, 3.0, 10.0, 30.0),
                           help="RBF(x, y) = exp(−γ‖x−y‖²); the paper's Fig. 1 uses γ = 1.")
    ref_x: float = setting(0.0, "reference x", low=-1.0, high=1.0, step=0.05)
    ref_y: float = setting(0.0, "reference y", low=-1.0, high=1.0, step=0.05)
    n: int = setting(2000, "data points", choices=(500, 1000, 2000, 5000))   # uniform points in [-1, 1]^2
    seed: int = setting(0, "seed", low=0, high=10_000)
    partition: int = setting(0, "which partitioning", low=0, high=max(T_CHOICES) - 1, step=1, url="part",
                             help="Index of the partitioning whose cells are drawn.")
    psi_small: int = setting(8, "sharpness: small ψ", choices=PSI_CHOICES)   # Fig. 3 uses 8 and 1024
    psi_large: int = setting(1024, "sharpness: large ψ", choices=PSI_CHOICES)
    grid: int = 81              # contour resolution per axis


@dataclass
class Result:
    """Everything the kernel-shapes figures show."""

    params: Params
    data: np.ndarray                       # (n, 2)
    axis: np.ndarray                       # (grid,) coordinates of both grid axes
    surfaces: dict[str, np.ndarray]        # kernel -> (grid, grid), rows along y
    partitions: dict[str, Partition]       # IK kernel -> one partitioning's cells
    sharpness: list[dict] = field(default_factory=list)  # one profile per psi, see sharpness()


def kernel_surface(kernel: str, *, n: int, psi: int, t: int, gamma: float, ref: tuple[float, float],
                   grid: int, seed: int, memo: Memo | None = None) -> np.ndarray:
    """Similarity of every grid point to ``ref`` under ``kernel`` on ``uniform(n, seed)`` data."""
    return surfaces.surface(kernel, ("uniform", n, seed), psi=psi, t=t, gamma=gamma, ref=ref, grid=grid,
                            seed=seed, memo=memo)


def partition_cells(kernel: str, *, n: int, psi: int, t: int, seed: int, index: int,
                    memo: Memo | None = None) -> Partition:
    """Partitioning ``index`` of IK variant ``kernel`` on ``uniform(n, seed)``, clipped to the square."""
    return surfaces.partition_cells(kernel, ("uniform", n, seed), psi=psi, t=t, seed=seed, index=index,
                                    memo=memo)


def sharpness(*, n: int, psi: int, t: int, ref: tuple[float, float], seed: int,
              kernel: str = "ik_iforest", bins: int = 20, memo: Memo | None = None) -> dict:
    """IK similarity of the data to ``ref`` for one ``psi`` (Fig. 3: larger psi, sharper kernel).

    Returns the mean similarity in bins of the normalised L1 distance
    ||x - ref||_1 / d (``mean``, with ``laplacian`` = psi ** -distance
    alongside) and a histogram of the similarity values (``hist`` over
    ``hist_edges``).
    """
    X = surfaces_data(("uniform", n, seed))
    psi = min(int(psi), n)
    dist = np.abs(X - np.asarray(ref)).sum(axis=1) / 2
    corners = np.array([[-1.0, -1.0], [-1.0, 1.0], [1.0, -1.0], [1.0, 1.0]])
    farthest = np.abs(corners - np.asarray(ref)).sum(axis=1).max() / 2
    edges = np.linspace(0.0, farthest, bins + 1)
    which = np.clip(np.digitize(dist, edges) - 1, 0, bins - 1)
    centres = (edges[:-1] + edges[1:]) / 2
    counts = np.bincount(which, minlength=bins)
    memo, _ = resolve(memo, None)
    ik = memo(surfaces.fitted_kernel)(kernel, ("uniform", n, seed), psi, t, seed)
    sims = shared_cells(ik.cells(X), ik.cells(np.asarray([ref], dtype=float))).mean(axis=1)
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


def run(p: Params = Params(), *, memo: Memo | None = None, progress: Progress | None = None) -> Result:
    """Compute every panel of the kernel-shapes page.

    Every kernel's fitted partitionings and the grid's cells are blocks of
    ``memo``: moving the reference point or changing γ recomputes only the
    comparisons with the new point.

    Examples
    --------
    >>> from ikviz.experiments.kernel_shapes import Params, run, summary
    >>> r = run(Params(n=200, psi=16, t=20, grid=11, psi_large=64))
    >>> sorted(r.surfaces)[:2], r.surfaces["rbf"].shape
    (['ik_anne', 'ik_iforest'], (11, 11))
    """
    memo, progress = resolve(memo, progress)
    if p.n < 2:
        raise ValueError(f"n must be at least 2; got {p.n}.")
    ref = (float(p.ref_x), float(p.ref_y))
    common = dict(n=p.n, psi=min(p.psi, p.n), t=p.t, seed=p.seed)
    psis = sharpness_psis(p)
    surfaces, partitions, sharp = {}, {}, []
    # shares of the time, measured on the default view: contours 0.78 (fitting each kernel), cells 0.02,
    # sharpness 0.2, so that the time left shown from these reports is near the truth
    for i, k in enumerate(KERNELS):
        progress(0.78 * i / len(KERNELS), f"{KERNELS[k][0]}: contours")
        surfaces[k] = memo(kernel_surface)(k, gamma=p.gamma, ref=ref, grid=p.grid, **common)
    for i, k in enumerate(IK_KERNELS):
        progress(0.78 + 0.02 * i / len(IK_KERNELS), f"{KERNELS[k][0]}: cells")
        partitions[k] = memo(partition_cells)(k, index=min(p.partition, p.t - 1), **common)
    for i, psi in enumerate(psis):
        progress(0.8 + 0.2 * i / len(psis), f"sharpness at ψ = {psi}")
        sharp.append(memo(sharpness)(n=p.n, psi=psi, t=p.t, ref=ref, seed=p.seed))
    progress(1.0, "done")
    data = memo(surfaces_data)(("uniform", p.n, p.seed))
    return Result(p, data, grid_axis(p.grid), surfaces, partitions, sharp)


def notes(p: Params) -> list[str]:
    """What the run changes in ``p`` before computing, as sentences for the page."""
    return [f"ψ = {p.psi} is more than the {p.n} data points; using ψ = {p.n}."] if p.psi > p.n else []


def summary(result: Result) -> dict:
    """The numbers worth comparing: each kernel's RMSE against L_psi on the grid, and the sharpness."""
    lap = result.surfaces["laplacian_psi"]
    rmse = {k: float(np.sqrt(np.mean((s - lap) ** 2))) for k, s in result.surfaces.items()}
    half_width = {}
    for profile in result.sharpness:
        below = np.flatnonzero(np.nan_to_num(profile["mean"], nan=1.0) < 0.5)
        half_width[profile["psi"]] = float(profile["distance"][below[0]]) if below.size else None
    return {"rmse_vs_laplacian_psi": rmse, "sharpness_half_width": half_width}
