"""Density adaptivity of Isolation Kernel (Ting et al. 2018, §2.2-2.3, Fig. 2 and Fig. 4).

Two points in a sparse region are more IK-similar than two points the same
distance apart in a dense region; the data-independent Laplacian ``L_psi``
and RBF give both pairs the same value. On uniform data, by contrast, IK is
close to ``L_psi`` (Fig. 2).

Building blocks take only what they depend on, so the page caches each one:
:func:`probe_similarities`, :func:`margin_curve`, :func:`similarity_vs_density`,
:func:`rmse_cell` (one cell of the Fig. 2 grid) and :func:`rmse_grid`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from scipy.optimize import minimize_scalar
from sklearn.metrics.pairwise import euclidean_distances
from sklearn.neighbors import NearestNeighbors

from ..data import Data, dataset_info
from ..kernels import laplacian_psi
from ..registry import MEASURES, isolation_kernel
from ..params import dataset_format, setting
from ..runner import Memo, Progress, resolve, within
from . import surfaces
from .surfaces import KERNELS

#: kernels compared on probe pairs and margin curves (IK variants first)
PAIR_KERNELS = ("ik_anne", "ik_inne", "ik_iforest", "ik_iforest_full", "laplacian_psi", "rbf")
#: IK variants for the Fig. 2 grid: key -> IsolationKernel keyword arguments
GRID_METHODS = {k: MEASURES[k].isolation for k in ("ik_anne", "ik_inne", "ik_iforest")}
#: the IK variants compared on density adaptivity
IK_VARIANTS = ("ik_anne", "ik_inne", "ik_iforest")
#: the rows of contour plots on the four-quadrant data: the IK variants, then the data-independent kernels
QUADRANT_ROWS = (IK_VARIANTS, ("laplacian_psi", "rbf"))
#: the contour plots on a real dataset's 2-D view (Fig. 4c-d): two IK variants against L_psi
REAL_DATA_KERNELS = ("ik_anne", "ik_iforest", "laplacian_psi")
#: points of a real dataset's t-SNE view at most
REAL_DATA_POINTS = 2000
#: partitionings of the sharpness profiles (Fig. 3) at most: three profiles are computed for one figure
SHARPNESS_MAX_T = 500


_PROBES = "Probe pairs (S: sparse, D: dense)"
_QUADRANTS = "Quadrant densities"
_REAL_DATASETS = ("digits", "segment", "wheat-seeds", "wine", "iris", "vowel", "phoneme")


def _probe(default: float, label: str, url: str):
    return setting(default, label, low=-2.0, high=2.0, step=0.05, url=url, widget="number", group=_PROBES)


@dataclass(frozen=True)
class Params:
    """Parameters of the density views; every field has a sensible default.

    The probe pairs are given by their coordinates (``s1x`` ... ``d2y``, the
    controls) or as ``sparse_pair`` and ``dense_pair`` (two points each); the
    other form is filled in from the one given.
    """

    psi: int = setting(32, "ψ", choices=(4, 8, 16, 32, 64, 128, 256, 512),
                       help="Cells per partitioning. The density effect is clearest for ψ = 16–64.")
    t: int = setting(1000, "t", choices=(100, 200, 500, 1000, 2000))
    gamma: float = setting(1.0, "RBF γ", choices=(0.1, 0.3, 1.0, 3.0, 10.0, 30.0))
    seed: int = setting(0, "seed", low=0, high=10_000)
    n_dense: int = setting(1600, "dense (bottom-left) points", choices=(400, 800, 1600, 3200), group=_QUADRANTS)
    n_medium: int = setting(400, "medium quadrants, points each", choices=(100, 200, 400, 800),
                            group=_QUADRANTS)   # top-left and bottom-right quadrants, each
    n_sparse: int = setting(100, "sparse (top-right) points", choices=(25, 50, 100, 200, 400), group=_QUADRANTS)
    cells: bool = setting(False, "show one partitioning's cells",
                          help="Voronoi cells, iNNE balls and iForest boxes of the first partitioning: small where "
                               "the data are dense, large where they are sparse.")
    ref_x: float = setting(0.0, "reference x", low=-1.0, high=1.0, step=0.05)
    ref_y: float = setting(0.0, "reference y", low=-1.0, high=1.0, step=0.05)
    s1x: float = _probe(0.0, "S1 x", "s1x")
    s1y: float = _probe(0.0, "S1 y", "s1y")
    s2x: float = _probe(0.25, "S2 x", "s2x")
    s2y: float = _probe(0.25, "S2 y", "s2y")
    d1x: float = _probe(0.0, "D1 x", "d1x")
    d1y: float = _probe(0.0, "D1 y", "d1y")
    d2x: float = _probe(-0.25, "D2 x", "d2x")
    d2y: float = _probe(-0.25, "D2 y", "d2y")
    pair_distance: float = setting(0.1, "pair distance (L1 / d)", choices=(0.02, 0.05, 0.1, 0.2, 0.3), url="pair_dist")
    density_k: int = setting(10, "k for the density estimate", choices=(5, 10, 20, 50), url="k")
    dataset: str = setting("digits", "dataset", choices=_REAL_DATASETS, format=dataset_format({}))
    ref_rx: float = setting(0.0, "reference x (real data)", low=-1.0, high=1.0, step=0.05)
    ref_ry: float = setting(0.0, "reference y (real data)", low=-1.0, high=1.0, step=0.05)
    sparse_pair: tuple | None = None    # ((x, y), (x, y)); None: from s1x ... s2y
    dense_pair: tuple | None = None
    grid: int = 81
    margin_psis: tuple = (4, 8, 16, 32, 64, 128, 256, 512)
    margin_seeds: int = 3
    margin_t: int = 300             # partitionings per kernel in the margin curve (it fits many kernels)
    n_pairs: int = 1500

    def __post_init__(self):
        for name in ("sparse", "dense"):
            pair = getattr(self, f"{name}_pair")
            if pair is None:
                pair = tuple((getattr(self, f"{name[0]}{i}x"), getattr(self, f"{name[0]}{i}y")) for i in (1, 2))
            else:
                pair = tuple((float(x), float(y)) for x, y in pair)
                for i, (x, y) in enumerate(pair, start=1):
                    object.__setattr__(self, f"{name[0]}{i}x", x)
                    object.__setattr__(self, f"{name[0]}{i}y", y)
            object.__setattr__(self, f"{name}_pair", pair)

    @property
    def counts(self) -> tuple[int, int, int, int]:
        return (self.n_dense, self.n_medium, self.n_medium, self.n_sparse)


@dataclass
class Result:
    """Everything the density-adaptivity figures show."""

    params: Params
    data: np.ndarray
    axis: np.ndarray
    surfaces: dict[str, np.ndarray]
    pairs: dict[str, dict[str, float]]
    warnings: list[str]
    margins: dict = field(default_factory=dict)
    density: dict = field(default_factory=dict)


def quadrant_spec(counts, seed: int) -> tuple:
    """The data spec of the four-quadrant square (see :mod:`ikviz.experiments.surfaces`)."""
    return ("quadrants", tuple(int(c) for c in counts), int(seed))


def real_data_spec(name: str, seed: int) -> tuple:
    """The data spec of bundled dataset ``name``'s t-SNE view (see :mod:`ikviz.experiments.surfaces`).

    Examples
    --------
    >>> from ikviz.experiments.density import real_data_spec
    >>> real_data_spec("iris", 3)
    ('tsne', 'iris', 2000, 3)
    """
    return ("tsne", name, REAL_DATA_POINTS, seed)


def surface_settings(p: Params, ref: tuple[float, float]) -> dict:
    """The keyword arguments of :func:`ikviz.experiments.surfaces.surface` for ``p``'s contours around ``ref``.

    Examples
    --------
    >>> from ikviz.experiments.density import Params, surface_settings
    >>> surface_settings(Params(psi=16, t=200), (0.5, 0.0))
    {'psi': 16, 't': 200, 'gamma': 1.0, 'ref': (0.5, 0.0), 'grid': 81, 'seed': 0}
    """
    return {"psi": p.psi, "t": p.t, "gamma": p.gamma, "ref": ref, "grid": p.grid, "seed": p.seed}


def sharpness_t(t: int) -> int:
    """The t of the sharpness profiles (Fig. 3) when the page's t is ``t``: at most :data:`SHARPNESS_MAX_T`.

    Examples
    --------
    >>> from ikviz.experiments.density import sharpness_t
    >>> sharpness_t(200), sharpness_t(1000)
    (200, 500)
    """
    return min(t, SHARPNESS_MAX_T)


def sharpness_psis(psi: int) -> tuple[int, ...]:
    """The ψ of the sharpness profiles (Fig. 3): 8, the chosen ``psi`` and 1024, each once.

    Examples
    --------
    >>> from ikviz.experiments.density import sharpness_psis
    >>> sharpness_psis(32), sharpness_psis(8)
    ((8, 32, 1024), (8, 1024))
    """
    return tuple(dict.fromkeys((8, psi, 1024)))


def probe_coords(p: Params) -> dict[str, float]:
    """The probe pairs of ``p`` by coordinate, keyed "s1x" (sparse pair, first point, x) to "d2y".

    Examples
    --------
    >>> from ikviz.experiments.density import Params, probe_coords
    >>> probe_coords(Params())
    {'s1x': 0.0, 's1y': 0.0, 's2x': 0.25, 's2y': 0.25, 'd1x': 0.0, 'd1y': 0.0, 'd2x': -0.25, 'd2y': -0.25}
    """
    return {f"{label}{i}{axis}": value
            for label, pair in (("s", p.sparse_pair), ("d", p.dense_pair))
            for i, point in enumerate(pair, start=1)
            for axis, value in zip("xy", point)}


def probe_pairs(coords: dict[str, float]) -> dict[str, tuple]:
    """The ``sparse_pair`` and ``dense_pair`` of :class:`Params` from coordinates keyed as :func:`probe_coords`.

    Examples
    --------
    >>> from ikviz.experiments.density import probe_pairs
    >>> coords = {"s1x": 1, "s1y": 2, "s2x": 3, "s2y": 4, "d1x": 5, "d1y": 6, "d2x": 7, "d2y": 8}
    >>> probe_pairs(coords)
    {'sparse_pair': ((1, 2), (3, 4)), 'dense_pair': ((5, 6), (7, 8))}
    """
    return {f"{name}_pair": tuple((coords[f"{name[0]}{i}x"], coords[f"{name[0]}{i}y"]) for i in (1, 2))
            for name in ("sparse", "dense")}


def check_probes(sparse_pair, dense_pair) -> list[str]:
    """Plain-words problems with the probe pairs (empty when they are a fair comparison)."""
    problems = []
    for label, pair in (("sparse", sparse_pair), ("dense", dense_pair)):
        a, b = (np.asarray(p, dtype=float) for p in pair)
        for p in (a, b):
            if np.any(np.abs(p) > 1):
                problems.append(f"The {label}-pair point ({p[0]:g}, {p[1]:g}) lies outside the data square "
                                "[-1, 1]²; IK there is decided by cells that extend beyond the data.")
        if np.array_equal(a, b):
            problems.append(f"The two points of the {label} pair are the same point, so every kernel gives 1; "
                            "move one of them.")
    d_s = np.abs(np.subtract(*sparse_pair)).sum()
    d_d = np.abs(np.subtract(*dense_pair)).sum()
    if not np.isclose(d_s, d_d):
        problems.append(f"The pairs are not the same distance apart (L1 {d_s:.3g} vs {d_d:.3g}), so a "
                        "difference in similarity is not only due to density.")
    return problems


def probe_similarities(counts, sparse_pair, dense_pair, *, psi: int, t: int, gamma: float,
                       seed: int, memo: Memo | None = None) -> dict[str, dict[str, float]]:
    """Similarity of the sparse and the dense pair under every kernel: {kernel: {"sparse", "dense"}}."""
    memo, _ = resolve(memo, None)
    spec = quadrant_spec(counts, seed)
    A = np.array([sparse_pair[0], dense_pair[0]], dtype=float)
    B = np.array([sparse_pair[1], dense_pair[1]], dtype=float)
    out = {}
    for kernel in PAIR_KERNELS:
        s, d = surfaces.similarity(kernel, spec, A, B, psi=psi, t=t, gamma=gamma, seed=seed, memo=memo)
        out[kernel] = {"sparse": float(s), "dense": float(d)}
    return out


#: per IK variant: a fit's cost at t partitionings is t * (a + b * psi + c * psi**2), and the cells of m points
#: cost m * t * d(psi): the steps of a view report progress in proportion to these (measured on this machine,
#: psi 4..512, t 300..1000, 2,500 points: each within a factor 2 of its measured share of a view's time)
_FIT_COST = {"ik_anne": (80.0, 1.0, 0.0), "ik_inne": (200.0, 1.0, 1 / 32), "ik_iforest": (300.0, 1.5, 0.0),
             "ik_iforest_full": (400.0, 2.0, 0.0)}


def fit_cost(kernel: str, psi: int, t: int) -> float:
    """A fit's relative cost (the unit of :func:`cells_cost`): what progress reports are weighted by.

    The data-independent kernels fit nothing (a token cost of 1).

    Examples
    --------
    >>> from ikviz.experiments.density import fit_cost
    >>> fit_cost("ik_inne", 512, 300) > 10 * fit_cost("ik_anne", 512, 300)  # iNNE's radii: psi**2 per partitioning
    True
    >>> fit_cost("rbf", 512, 300)
    1.0
    """
    if kernel not in _FIT_COST:
        return 1.0
    a, b, c = _FIT_COST[kernel]
    return float(t) * (a + b * psi + c * psi * psi)


def cells_cost(kernel: str, psi: int, t: int, m: int) -> float:
    """The relative cost of the cells of ``m`` points (nearest centre or leaf in each of ``t`` partitionings).

    Examples
    --------
    >>> from ikviz.experiments.density import cells_cost, fit_cost
    >>> round(cells_cost("ik_anne", 32, 1000, 81 * 81) / fit_cost("ik_anne", 32, 1000))  # a contour grid's cells
    19
    """
    if kernel not in _FIT_COST:
        return m / 100.0
    per = psi / 100.0 if kernel in ("ik_anne", "ik_inne") else np.log2(max(psi, 2)) / 30.0
    return float(m) * t * per


#: the t-SNE view's cost per point in the unit of :func:`fit_cost`. Measured on digits (1,797 points, the default
#: view): t-SNE 24.2 CPU-s (78.4 s wall under load) against 0.7 CPU-s (1.8 s) for both IK variants' fit and grid
#: cells, whose costs sum to 3.65e6: 70,000-88,000 per point (H4, 2026-11-27)
_TSNE_COST_PER_POINT = 80_000.0


def _weighted(progress: Progress, costs: list[float]):
    """Report step ``i`` of steps costing ``costs`` at the share of the total cost before it: ``step(i, text)``."""
    total = float(sum(costs)) or 1.0
    starts = np.concatenate([[0.0], np.cumsum(costs)]) / total
    return lambda i, text: progress(float(starts[i]), text)


def margin_curve(counts, sparse_pair, dense_pair, *, psis, t: int, seeds: int, seed: int,
                 memo: Memo | None = None, progress: Progress | None = None) -> dict:
    """Sparse-pair minus dense-pair similarity over psi, per IK variant, over ``seeds`` seeds.

    Returns ``{"psi": [...], kernel: array (len(psis), seeds)}``; ``L_psi``'s
    margin is identically 0 for equal-distance pairs and is included for reference.
    """
    memo, progress = resolve(memo, progress)
    A = np.array([sparse_pair[0], dense_pair[0]], dtype=float)
    B = np.array([sparse_pair[1], dense_pair[1]], dtype=float)
    out = {"psi": [int(p) for p in psis]}
    kernels = ("ik_anne", "ik_inne", "ik_iforest", "ik_iforest_full", "laplacian_psi")
    spec = quadrant_spec(counts, seed)  # same data; only the kernel's seed varies
    step = _weighted(progress, [fit_cost(kernel, int(psi), t) for kernel in kernels for psi in psis
                                for _ in range(seeds)])
    for k, kernel in enumerate(kernels):
        values = np.empty((len(psis), seeds))
        for i, psi in enumerate(psis):
            for j in range(seeds):
                step((k * len(psis) + i) * seeds + j, f"{KERNELS[kernel][0]}: ψ = {psi}")
                s, d = surfaces.similarity(kernel, spec, A, B, psi=int(psi), t=t, gamma=1.0, seed=seed + j,
                                           memo=memo)
                values[i, j] = s - d
        out[kernel] = values
    progress(1.0, "done")
    return out


def similarity_vs_density(counts, *, psi: int, t: int, distance: float, n_pairs: int, k: int,
                          seed: int, memo: Memo | None = None) -> dict:
    """IK similarity of many random pairs a fixed distance apart, against local density.

    Each pair is (x, x + delta) with ||delta||_1 / 2 = ``distance`` in a random
    direction, both inside [-1, 1]^2; density is the k-NN estimate
    k / (n * pi * r_k^2) at the pair's midpoint. ``L_psi`` is the same for
    every pair (psi ** -distance): the flat line to compare with.
    """
    if not 0 < distance < 1:
        raise ValueError(f"distance must be between 0 and 1; got {distance}.")
    memo, _ = resolve(memo, None)
    spec = quadrant_spec(counts, seed)
    X = memo(surfaces.make_data)(spec)
    if not 1 <= k < len(X):
        raise ValueError(f"k must be between 1 and {len(X) - 1}; got {k}.")
    rng = np.random.default_rng(seed + 1)
    step = 2 * distance  # the L1 length of delta
    share = rng.uniform(0, 1, n_pairs)
    signs = rng.choice([-1.0, 1.0], size=(n_pairs, 2))
    delta = np.column_stack([share, 1 - share]) * step * signs
    lo = np.maximum(-1, -1 - delta)
    hi = np.minimum(1, 1 - delta)
    A = lo + rng.uniform(0, 1, (n_pairs, 2)) * (hi - lo)
    B = A + delta
    mid = (A + B) / 2
    r_k = NearestNeighbors(n_neighbors=k).fit(X).kneighbors(mid)[0][:, -1]
    density = k / (len(X) * np.pi * r_k**2)
    out = {"density": density, "midpoint": mid, "distance": distance,
           "laplacian_psi": float(psi ** -distance)}
    for kernel in IK_VARIANTS:
        out[kernel] = surfaces.similarity(kernel, spec, A, B, psi=psi, t=t, gamma=1.0, seed=seed, memo=memo)
    return out


def density_trend(result: dict) -> dict[str, float]:
    """Spearman correlation of IK similarity with local density (negative: sparser, more similar)."""
    from scipy.stats import spearmanr

    return {k: float(spearmanr(result["density"], result[k]).statistic) for k in IK_VARIANTS}


# ------------------------------------------------------------------- Fig. 2
def rmse_cell(d: int, psi: int, *, method: str, n: int, t: int, seed: int) -> dict[str, float]:
    """RMSE of IK against ``L_psi`` and against the best-fitting RBF on ``uniform(n, d)`` in [-1, 1]^d.

    The RBF width is fitted to IK itself (the gamma minimising the RMSE), so
    "closer to L_psi than to RBF" is a comparison against RBF's best case.
    """
    if method not in GRID_METHODS:
        raise ValueError(f"method must be one of {list(GRID_METHODS)}; got {method!r}.")
    X = Data("uniform", seed=seed + d, options={"n": n, "d": d}).resolve().X
    K = isolation_kernel(method, psi=psi, t=t, seed=seed, n=n).fit(X).similarity(X)
    off = ~np.eye(n, dtype=bool)  # the diagonal is 1 for every kernel and would flatter all of them
    k_ik = K[off]
    rmse_lap = float(np.sqrt(np.mean((k_ik - laplacian_psi(X, psi=psi)[off]) ** 2)))
    sq = euclidean_distances(X, squared=True)[off]
    scale = np.median(sq)

    def loss(log_gamma):
        return np.mean((k_ik - np.exp(-np.exp(log_gamma) / scale * sq)) ** 2)

    fit = minimize_scalar(loss, bounds=(-8.0, 8.0), method="bounded")
    return {"laplacian": rmse_lap, "rbf": float(np.sqrt(fit.fun)),
            "rbf_gamma": float(np.exp(fit.x) / scale)}


def rmse_grid(ds=(10, 20, 30, 40, 50), psis=(16, 32, 64, 128, 256), *, n: int = 300, t: int = 1000,
              seed: int = 0, methods=tuple(GRID_METHODS), memo: Memo | None = None,
              progress: Progress | None = None) -> dict:
    """The Fig. 2 grid: RMSE(IK, L_psi) and RMSE(IK, best RBF) for every d x psi and IK method.

    Each cell is a block of ``memo``; ``progress(fraction, text)`` is called before each. Returns
    ``{"d": [...], "psi": [...], "laplacian": {method: (len(ds), len(psis))},
    "rbf": {...}, "rbf_gamma": {...}}``.
    """
    memo, progress = resolve(memo, progress)
    out = {"d": list(ds), "psi": list(psis), "laplacian": {}, "rbf": {}, "rbf_gamma": {}}
    # a cell's cost: its fit, the cells of its n points and their n x n similarities, growing with d
    step = _weighted(progress, [(fit_cost(m, psi, t) + cells_cost(m, psi, t, n) + n * n * t / 1000) * (0.6 + d / 50)
                                for m in methods for d in ds for psi in psis])
    done = 0
    for method in methods:
        for key in ("laplacian", "rbf", "rbf_gamma"):
            out[key][method] = np.empty((len(ds), len(psis)))
        for i, d in enumerate(ds):
            for j, psi in enumerate(psis):
                step(done, f"{KERNELS[method][0]}: d = {d}, ψ = {psi}")
                cell = memo(rmse_cell)(d, psi, method=method, n=n, t=t, seed=seed)
                for key in ("laplacian", "rbf", "rbf_gamma"):
                    out[key][method][i, j] = cell[key]
                done += 1
    progress(1.0, "done")
    return out


# ------------------------------------------------------------------- whole figure
def run(p: Params = Params(), *, memo: Memo | None = None, progress: Progress | None = None) -> Result:
    """Compute the four-quadrant contours, the probe pairs, the margin curve and the density scatter.

    Each is a block of ``memo`` (see :mod:`ikviz.runner`), so the app computes
    only the part a control changes.
    """
    memo, progress = resolve(memo, progress)
    spec = quadrant_spec(p.counts, p.seed)
    ref = (float(p.ref_x), float(p.ref_y))
    maps = {}
    kernels = ("ik_anne", "ik_iforest", "laplacian_psi", "rbf")
    costs = _contours_cost(p, kernels)
    costs.append(sum(fit_cost(k, p.psi, p.t) for k in PAIR_KERNELS if k not in kernels))  # probe pairs
    costs.append(sum(fit_cost(k, int(psi), p.margin_t) for k in PAIR_KERNELS for psi in p.margin_psis)
                 * p.margin_seeds)  # margin curve
    costs.append(sum(fit_cost(k, p.psi, p.t) for k in IK_VARIANTS if k not in kernels))  # density scatter
    starts = np.concatenate([[0.0], np.cumsum(costs)]) / sum(costs)
    for i, k in enumerate(kernels):
        progress(starts[i], f"{KERNELS[k][0]}: contours")
        maps[k] = memo(surfaces.surface)(k, spec, **surface_settings(p, ref))
    progress(starts[4], "probe pairs")
    pairs = memo(probe_similarities)(p.counts, p.sparse_pair, p.dense_pair, psi=p.psi, t=p.t, gamma=p.gamma,
                                     seed=p.seed)
    margins = memo(margin_curve)(p.counts, p.sparse_pair, p.dense_pair, psis=p.margin_psis, t=p.margin_t,
                                 seeds=p.margin_seeds, seed=p.seed,
                                 progress=within(progress, starts[5], starts[6], "margin"))
    progress(starts[6], "similarity against density")
    density = memo(similarity_vs_density)(p.counts, psi=p.psi, t=p.t, distance=p.pair_distance,
                                          n_pairs=p.n_pairs, k=p.density_k, seed=p.seed)
    progress(1.0, "done")
    return Result(p, memo(surfaces.make_data)(spec), surfaces.grid_axis(p.grid), maps, pairs,
                  check_probes(p.sparse_pair, p.dense_pair), margins, density)


# ------------------------------------------------------------------- the page's views, one run each
@dataclass
class ContoursResult:
    """Contour surfaces of several kernels around one reference point, with the data under them."""

    params: Params
    data: np.ndarray
    axis: np.ndarray
    ref: tuple[float, float]
    surfaces: dict[str, np.ndarray]                     # kernel -> (grid, grid)
    partitions: dict = field(default_factory=dict)      # IK kernel -> its first partitioning (if p.cells)
    pairs: dict = field(default_factory=dict)           # probe pair similarities (four quadrants only)
    warnings: list = field(default_factory=list)        # problems with the probe pairs


def _contours_cost(p: Params, kernels) -> list[float]:
    """The relative cost of each kernel's contours (:func:`fit_cost` and :func:`cells_cost` of the grid)."""
    return [fit_cost(k, p.psi, p.t) + cells_cost(k, p.psi, p.t, p.grid * p.grid) for k in kernels]


def _contours(p: Params, spec: tuple, kernels, ref, memo, progress, cells: bool) -> ContoursResult:
    """Each kernel's contours around ``ref``; an IK variant's in two reported steps, its fit and the cells of the
    grid's points (the blocks :func:`surfaces.surface` reads, asked for first with the same arguments: computed
    once, reported as they go)."""
    maps, parts = {}, {}
    grid_points = p.grid * p.grid
    costs, texts = [], []
    for k in kernels:
        name = KERNELS[k][0]
        if k in surfaces.IK_KERNELS:
            costs += [fit_cost(k, p.psi, p.t), cells_cost(k, p.psi, p.t, grid_points)]
            texts += [f"{name}: fitting {p.t:,} partitionings", f"{name}: cells of the {grid_points:,} grid points"]
        else:
            costs.append(fit_cost(k, p.psi, p.t) + cells_cost(k, p.psi, p.t, grid_points))
            texts.append(f"{name}: contours")
    step, i = _weighted(progress, costs), 0
    for k in kernels:
        if k in surfaces.IK_KERNELS:
            step(i, texts[i])
            memo(surfaces.fitted_kernel)(k, spec, p.psi, p.t, p.seed)
            step(i + 1, texts[i + 1])
            memo(surfaces.grid_cells)(k, spec, p.psi, p.t, p.seed, p.grid)
            i += 2
        else:
            step(i, texts[i])
            i += 1
        maps[k] = memo(surfaces.surface)(k, spec, **surface_settings(p, ref))
        if cells and k in surfaces.IK_KERNELS:
            parts[k] = memo(surfaces.partition_cells)(k, spec, psi=p.psi, t=p.t, seed=p.seed, index=0)
    return ContoursResult(p, memo(surfaces.make_data)(spec), surfaces.grid_axis(p.grid), ref, maps, parts)


def run_quadrants(p: Params = Params(), *, memo: Memo | None = None,
                  progress: Progress | None = None) -> ContoursResult:
    """The four-quadrant view: every kernel's contours around the reference, and the probe pairs' similarities.

    Examples
    --------
    >>> from ikviz.experiments.density import Params, run_quadrants
    >>> r = run_quadrants(Params(n_dense=100, n_medium=50, n_sparse=25, t=50, grid=11))
    >>> sorted(r.surfaces)[:2], r.pairs["laplacian_psi"]["sparse"] == r.pairs["laplacian_psi"]["dense"]
    (['ik_anne', 'ik_iforest'], True)
    """
    memo, progress = resolve(memo, progress)
    spec = quadrant_spec(p.counts, p.seed)
    kernels = QUADRANT_ROWS[0] + QUADRANT_ROWS[1]
    contours = sum(_contours_cost(p, kernels))  # the probe pairs fit only the variants the contours did not
    share = contours / (contours + sum(fit_cost(k, p.psi, p.t) for k in PAIR_KERNELS if k not in kernels))
    result = _contours(p, spec, kernels, (float(p.ref_x), float(p.ref_y)), memo, within(progress, 0.0, share),
                       p.cells)
    progress(share, "probe pairs")
    result.pairs = memo(probe_similarities)(p.counts, p.sparse_pair, p.dense_pair, psi=p.psi, t=p.t,
                                            gamma=p.gamma, seed=p.seed)
    result.warnings = check_probes(p.sparse_pair, p.dense_pair)
    return result


def tsne_cost(n: int) -> float:
    """The relative cost (the unit of :func:`fit_cost`) of the t-SNE view of ``n`` points that the real-data
    contours are drawn on: what its share of the view's progress is weighted by.

    Examples
    --------
    >>> from ikviz.experiments.density import tsne_cost
    >>> tsne_cost(4000) / tsne_cost(2000)   # Barnes-Hut t-SNE: about linear in the points
    2.0
    >>> from ikviz.experiments.density import Params, _contours_cost, REAL_DATA_KERNELS
    >>> share = tsne_cost(1797) / (tsne_cost(1797) + sum(_contours_cost(Params(), REAL_DATA_KERNELS)))
    >>> round(float(share), 2)   # digits at the defaults: the t-SNE view is most of the view's time
    0.98
    """
    return float(n) * _TSNE_COST_PER_POINT


def run_real_data(p: Params = Params(), *, memo: Memo | None = None,
                  progress: Progress | None = None) -> ContoursResult:
    """Contours of two IK variants and L_ψ on a 2-D (t-SNE) view of real data ``p.dataset`` (Fig. 4c-d).

    ``progress`` moves through its steps: the t-SNE view, then each IK variant's fit and grid cells, then L_ψ;
    each step's share is its relative cost (:func:`tsne_cost`, :func:`fit_cost`, :func:`cells_cost`).

    Examples
    --------
    >>> from ikviz.experiments.density import Params, run_real_data
    >>> seen = []
    >>> r = run_real_data(Params(dataset="iris", t=20, grid=9), progress=lambda f, text: seen.append(f))
    >>> sorted(r.surfaces), seen == sorted(seen), seen[0], seen[-1]
    (['ik_anne', 'ik_iforest', 'laplacian_psi'], True, 0.0, 1.0)
    """
    memo, progress = resolve(memo, progress)
    spec = real_data_spec(p.dataset, p.seed)
    tsne = tsne_cost(min(REAL_DATA_POINTS, dataset_info(p.dataset).n))
    share = tsne / (tsne + sum(_contours_cost(p, REAL_DATA_KERNELS)))
    progress(0.0, f"t-SNE view of {p.dataset}")   # its iterations report below (none when it is held already)
    memo(surfaces.make_data)(spec, progress=within(progress, 0.0, share, f"t-SNE view of {p.dataset}"))
    result = _contours(p, spec, REAL_DATA_KERNELS, (float(p.ref_rx), float(p.ref_ry)), memo,
                       within(progress, share, 1.0), False)
    progress(1.0, "done")
    return result


def run_margins(p: Params = Params(), *, memo: Memo | None = None, progress: Progress | None = None) -> dict:
    """Sparse-pair minus dense-pair similarity over ψ (see :func:`margin_curve`), at ``p.margin_t`` partitionings."""
    memo, progress = resolve(memo, progress)
    return memo(margin_curve)(p.counts, p.sparse_pair, p.dense_pair, psis=p.margin_psis, t=p.margin_t,
                              seeds=p.margin_seeds, seed=p.seed, progress=progress)


def run_similarity_vs_density(p: Params = Params(), *, memo: Memo | None = None,
                              progress: Progress | None = None) -> dict:
    """IK similarity of random pairs ``p.pair_distance`` apart against local density (see
    :func:`similarity_vs_density`)."""
    memo, _ = resolve(memo, progress)
    return memo(similarity_vs_density)(p.counts, psi=p.psi, t=p.t, distance=p.pair_distance, n_pairs=p.n_pairs,
                                       k=p.density_k, seed=p.seed)


def run_sharpness(p: Params = Params(), *, memo: Memo | None = None, progress: Progress | None = None) -> list:
    """Fig. 3's sharpness profiles on uniform data: ψ = 8, ``p.psi`` and 1024, at t ≤ :data:`SHARPNESS_MAX_T`."""
    from .kernel_shapes import sharpness

    memo, progress = resolve(memo, progress)
    psis = sharpness_psis(p.psi)
    profiles = []
    for i, psi in enumerate(psis):
        progress(i / len(psis), f"sharpness at ψ = {psi}")
        profiles.append(memo(sharpness)(n=2000, psi=psi, t=sharpness_t(p.t), ref=(0.0, 0.0), seed=p.seed))
    return profiles


def verdict(pairs: dict[str, dict[str, float]]) -> str:
    """One sentence per kernel family saying which pair is more similar, and why."""
    lines = []
    for kernel, v in pairs.items():
        s, d = v["sparse"], v["dense"]
        label = KERNELS[kernel][0]
        if np.isclose(s, d, atol=1e-9):
            lines.append(f"**{label}**: both pairs {s:.3f} — it looks only at distance, not at the data.")
        elif s > d:
            lines.append(f"**{label}**: sparse pair {s:.3f} > dense pair {d:.3f} — larger cells where the data "
                         "are sparse put the sparse pair together more often.")
        else:
            lines.append(f"**{label}**: sparse pair {s:.3f} < dense pair {d:.3f} — no density adaptivity here "
                         "at these settings.")
    return "\n".join(f"- {line}" for line in lines)


@dataclass(frozen=True)
class GridParams:
    """Parameters of the Fig. 2 grid (uniform data in [-1, 1]^d)."""

    t: int = setting(1000, "t", choices=(100, 200, 500, 1000, 2000))
    seed: int = setting(0, "seed", low=0, high=10_000)
    ds: tuple = (10, 20, 30, 40, 50)
    psis: tuple = (16, 32, 64, 128, 256)
    n: int = 300


def grid_cost(p: GridParams) -> str:
    """What the grid costs, said before it runs.

    Examples
    --------
    >>> from ikviz.experiments.density import GridParams, grid_cost
    >>> grid_cost(GridParams())
    'The grid computes 75 cells (5 d × 5 ψ × 3 IK variants) at t = 1000; once computed, it is kept for everyone.'
    """
    cells = len(p.ds) * len(p.psis) * len(GRID_METHODS)
    return (f"The grid computes {cells} cells ({len(p.ds)} d × {len(p.psis)} ψ × {len(GRID_METHODS)} IK variants) "
            f"at t = {p.t}; once computed, it is kept for everyone.")


def run_grid(p: GridParams = GridParams(), *, memo: Memo | None = None, progress: Progress | None = None) -> dict:
    """The Fig. 2 grid with the parameters of ``p`` (see :func:`rmse_grid`)."""
    return rmse_grid(p.ds, p.psis, n=p.n, t=p.t, seed=p.seed, memo=memo, progress=progress)


def grid_summary(grid: dict) -> dict:
    """Per IK method: the RMSE range against L_psi and the cells where the best RBF fits IK better."""
    out = {}
    for method, lap in grid["laplacian"].items():
        lap = np.asarray(lap)
        rbf = np.asarray(grid["rbf"][method])
        worse = [{"d": grid["d"][i], "psi": grid["psi"][j]} for i, j in zip(*np.nonzero(rbf < lap))]
        out[method] = {"rmse_laplacian_min": float(lap.min()), "rmse_laplacian_max": float(lap.max()),
                       "cells_closer_to_laplacian": int((lap <= rbf).sum()), "cells": int(lap.size),
                       "cells_where_rbf_fits_better": worse}
    return out
