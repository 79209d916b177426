"""How Isolation Kernel is built, step by step: sample ψ points, draw their cells, average over t partitionings.

The frames of the "how IK is built" animation: the ψ points of the first
partitioning, its cells, then the similarity to a reference point averaged
over the first 1, 2, ..., t partitionings of one fitted
:class:`~ikviz.kernels.IsolationKernel`. The last frame is that kernel's
``similarity`` to the reference on the grid; nothing of the kernel is
reimplemented here.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..data import Data, step
from ..kernels import IsolationKernel, Partition, shared_cells
from ..params import setting
from ..registry import label
from ..runner import Memo, Progress, resolve

__all__ = ["DATASETS", "METHODS", "Params", "Result", "describe", "fitted_kernel", "frame_names", "grid_points", "load_data", "run",
           "summary"]

#: 2-D data sets (names of :func:`ikviz.data.load`) and the options that make them 2-D
DATASETS: dict[str, tuple[str, dict]] = {
    "four-quadrants": ("Four quadrants of different density (ting2018 Fig. 4)", {}),
    "uniform": ("Uniform square (ting2018 Fig. 1)", {"n": 1000}),
    "w-gaussians": ("Two crossing lines (w-Gaussians, w = 1)", {"w": 1, "n_per_cluster": 500}),
    "density-ratio": ("Dense class inside a sparse one (ting2018 Table 1)", {"n": 500, "ratio": 10.0}),
}
#: the partitionings of :class:`~ikviz.kernels.IsolationKernel`, as the page names them
METHODS = {method: label(f"ik_{method}") for method in ("anne", "iforest", "inne")}
LOW, HIGH = -1.0, 1.0
MAX_SHOWN = 1000  # data points drawn (a seeded subsample beyond this keeps the figure light)


@dataclass(frozen=True)
class Params:
    """One build-up animation; every field has a sensible default."""

    dataset: str = setting("four-quadrants", "data", choices=tuple(DATASETS), url="data",
                           format=lambda k: DATASETS[k][0])
    method: str = setting("anne", "partitioning", choices=tuple(METHODS), widget="radio", format=METHODS.get,
                          help="anne: ting2021's IK (Voronoi); iforest: ting2018's (isolation trees of height "
                               "log₂ ψ); inne: balls, so a point may fall in no cell.")
    psi: int = setting(16, "ψ (points per partitioning)", choices=(2, 4, 8, 16, 32, 64, 128),
                       help="More points, smaller cells, a sharper kernel.")
    t: int = setting(20, "t (partitionings, one frame each)", choices=(1, 2, 3, 5, 10, 20, 30, 50),
                     help="IK is the average over t partitionings: larger t, smoother contours.")
    ref_x: float = setting(0.25, "reference x", low=-1.0, high=1.0, step=0.05)
    ref_y: float = setting(0.25, "reference y", low=-1.0, high=1.0, step=0.05)
    seed: int = setting(0, "seed", low=0, high=10_000)
    grid: int = 50              # contour resolution per axis (kept coarse: one grid per frame)


@dataclass
class Result:
    """What the animation draws: the data, the grid, each partitioning's cells and the running average."""

    params: Params
    data: np.ndarray                 # (n_shown, 2) points drawn, in [-1, 1]^2
    labels: np.ndarray               # (n_shown,) class of each drawn point
    axis: np.ndarray                 # (grid,) coordinates of both grid axes
    partitions: list[Partition]      # the t partitionings, clipped to the square
    running: np.ndarray              # (t, grid, grid): similarity to the reference averaged over the first k + 1
    ref_cells: np.ndarray            # (t,) the reference's cell in each partitioning (-1: none, iNNE)


def describe(dataset: str, seed: int) -> Data:
    """The description of 2-D data set ``dataset`` in [-1, 1]^2 (generators not already there are rescaled)."""
    if dataset not in DATASETS:
        raise ValueError(f"unknown data set {dataset!r}; choose one of {list(DATASETS)}.")
    square = () if dataset in ("four-quadrants", "uniform") else (step("rescale", low=LOW, high=HIGH),)
    return Data(dataset, seed=int(seed), options=DATASETS[dataset][1], steps=square)


def load_data(dataset: str, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """The points and labels :func:`describe` names."""
    got = describe(dataset, seed).resolve()
    return got.X, got.y


def fitted_kernel(dataset: str, psi: int, t: int, method: str, seed: int, *, memo: Memo | None = None
                  ) -> IsolationKernel:
    """The Isolation Kernel the animation shows, fitted on the data set (a block: moving the reference reuses it)."""
    if method not in METHODS:
        raise ValueError(f"unknown method {method!r}; choose one of {list(METHODS)}.")
    memo, _ = resolve(memo, None)
    X, _ = memo(load_data)(dataset, seed)
    return IsolationKernel(psi=min(int(psi), len(X)), t=int(t), method=method, random_state=int(seed)).fit(X)


def grid_points(grid: int) -> np.ndarray:
    """All (grid * grid, 2) points of the contour grid over [-1, 1]^2, x varying fastest."""
    axis = np.linspace(LOW, HIGH, int(grid))
    gx, gy = np.meshgrid(axis, axis)
    return np.column_stack([gx.ravel(), gy.ravel()])


def run(p: Params = Params(), *, memo: Memo | None = None, progress: Progress | None = None) -> Result:
    """Fit the kernel and compute every frame of the build-up.

    Examples
    --------
    >>> from ikviz.experiments.build_up import Params, run
    >>> r = run(Params(psi=8, t=5, grid=11))
    >>> r.running.shape, len(r.partitions)
    ((5, 11, 11), 5)
    >>> float(r.running[-1].max())   # the reference's own cell is shared in every partitioning
    1.0
    """
    memo, progress = resolve(memo, progress)
    if p.grid < 2:
        raise ValueError(f"grid must be at least 2; got {p.grid}.")
    if p.t < 1:
        raise ValueError(f"t must be at least 1; got {p.t}.")
    progress(0.0, "sampling the data")
    X, y = memo(load_data)(p.dataset, p.seed)
    progress(0.2, f"fitting {p.t} partitionings of ψ = {p.psi} points")
    ik = memo(fitted_kernel)(p.dataset, p.psi, p.t, p.method, p.seed)
    progress(0.5, "the cells of the grid")
    ref = np.array([[float(p.ref_x), float(p.ref_y)]])
    ref_cells = ik.cells(ref)
    shared = shared_cells(ik.cells(grid_points(p.grid)), ref_cells)            # (grid², t)
    counts = np.cumsum(shared, axis=1, dtype=np.int64)                          # shared cells after k + 1
    running = (counts / np.arange(1, ik.t_ + 1)).T.reshape(ik.t_, p.grid, p.grid)
    progress(0.8, "the cells of each partitioning")
    bounds = np.array([[LOW, LOW], [HIGH, HIGH]])
    partitions = [ik.partition(k, bounds=bounds) for k in range(ik.t_)]
    if len(X) > MAX_SHOWN:
        keep = np.sort(np.random.default_rng(p.seed).choice(len(X), MAX_SHOWN, replace=False))
        X, y = X[keep], y[keep]
    progress(1.0, "done")
    return Result(p, X, y, np.linspace(LOW, HIGH, p.grid), partitions, running, ref_cells[0])


def frame_names(result: Result) -> list[str]:
    """The animation's frame labels: the sample, the cells, then t = 1, 2, ..."""
    return ["ψ points", "cells"] + [f"t = {k}" for k in range(1, len(result.partitions) + 1)]


def summary(result: Result) -> dict:
    """The numbers under the animation: partitionings, how far the finished similarity reaches, coverage.

    ``reach`` is the share of the square where the similarity to the reference
    exceeds 0.5 (small where the data are dense); ``covering`` counts the
    partitionings with a cell holding the reference (iNNE's balls may miss it).

    Examples
    --------
    >>> from ikviz.experiments import build_up
    >>> s = build_up.summary(build_up.run(build_up.Params(psi=8, t=3)))
    >>> s["partitionings"], s["covering"], 0 < s["reach"] < 1
    (3, 3, True)
    """
    return {"partitionings": len(result.partitions), "reach": float(np.mean(result.running[-1] > 0.5)),
            "covering": int(np.sum(result.ref_cells >= 0))}
