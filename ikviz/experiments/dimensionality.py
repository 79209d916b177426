"""The curse of dimensionality: query instability and hubness (Ting et al. 2021, §4.1, Fig. 1,
Table 1, App. D and App. E).

Instability: on two Gaussian clusters (one dense, one sparse) in d = 10 ...
10,000 dimensions, two queries (q_i between the clusters, q_c at the sparse
cluster's centre) are compared with every point under each measure. N_eps
counts the points almost as near as the nearest one; var(F / E[F]) is the
spread of the dissimilarities. For IK, N_eps is also followed as the number
of partitionings t grows, with partitionings built from the data or from
uniform samples (App. D).

Hubness: the k-occurrence distribution of GK and IK on uniform [0, 1]^d.

Building blocks (:func:`query_similarities`, :func:`ik_same_cell`,
:func:`k_occurrences`) take only what they depend on, so the app can cache
each one; N_eps for another eps is then instant. :func:`instability_views`
derives the paper's setting (eps = 0.005, where every measure stays near
N_eps = 1 up to d = 1,000) and the one where the effect shows (eps = 0.05)
from the same result.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ..data import QUERIES, Data, cluster_queries
from ..kernels import shared_cells
from ..measures import (k_nearest_blocks, k_occurrence, n_eps, occurrence_distribution, relative_variance,
                        skewness)
from ..params import setting
from ..measures.similarities import LABELS, check_measure, fit_similarity, option_subset, sub_seed
from ..runner import Memo, Progress, resolve, within
from ..registry import isolation_kernel

MEASURES = tuple(LABELS)
QUERY_LABELS = {"between": "q_i: between the clusters", "sparse_centre": "q_c: sparse cluster centre"}
IK_SOURCES = {"data": "IK built from the data", "uniform": "IK built from uniform data"}
D_CHOICES = (10, 30, 100, 300, 1000, 3000, 10000)
PAPER_EPS = 0.005    # ting2021 Fig. 1(c, d), Table 1 and Fig. 4
VISIBLE_EPS = 0.05   # a wider window, where GK's instability shows within d <= 10,000
#: eps -> how the page and the reproduction name that view
EPS_VIEWS = {PAPER_EPS: "paper's setting: ε = 0.005", VISIBLE_EPS: "where the effect shows: ε = 0.05"}
#: ting2021's statements on Fig. 1 and Table 1 (quoted from the paper's text)
PAPER_FIG1 = {
    "figure": "ting2021 Fig. 1 (b)-(d), Table 1, §4.1",
    "eps": PAPER_EPS,
    "setup": "The dataset used has 1,000 data points per cluster: the number of dimensions is increased from 10 to "
             "10,000. Query q_c is used in subfigure (b). ϵ=0.005 is used in subfigures (c) & (d).",
    "variance": "Figure 1(b) shows the concentration effect, that is, var(F_{m,d}/E[F_{m,d}]) → 0 as d → ∞ for "
                "Gaussian kernel (GK). Yet, using Isolation Kernel (IK), the variance approaches a non-zero "
                "constant under the same condition.",
    "N_eps": "Figures 1(c) & 1(d) show that N_ϵ increases as d increases for GK for two different queries; and LK "
             "is unstable in one query. Yet, IK has almost always maintained a constant N_ϵ (=1) as d increases.",
    "snn_ag": "Our experiment using SNN has shown that it has query stability if the query is within a cluster; but "
              "it has the worst query instability when the query is outside any clusters when k is set less than "
              "the cluster size (1000 in this case), even in low dimensions! ... AG (k=200) has a similar behaviour "
              "as SNN that uses k>1000.",
    "lp": "It is true that the fractional distances are better than Euclidean distance in delaying the "
          "concentration effect up to d=1000; but they could not resist the concentration effect for higher "
          "dimensions.",
    "summary": "Many existing measures have indistinguishability in high dimensions that have prevented them from "
               "finding the nearest neighbor if the query is outside of any clusters. Only IK has "
               "distinguishability.",
    "numbers": "Fig. 1 and Table 1 are plots: the paper prints no N_ϵ or variance values.",
}
_STREAM = {"data": 1, "ik": 2, "uniform": 3, "ik_uniform": 4, "hub_data": 5}  # seed streams


PSI_CHOICES = (2, 4, 8, 16, 32, 64, 128, 256)


@dataclass(frozen=True)
class InstabilityParams:
    """Parameters of the instability study: d = 10 ... 1,000 (``d_max``); the paper's sweep goes to 10,000."""

    d_max: int = setting(1000, "largest d", choices=D_CHOICES,
                         help="d runs over 10, 30, 100, ... up to this. The full sweep to 10,000 takes about a "
                              "minute the first time (cached afterwards).")
    psi: int = setting(16, "IK ψ", choices=PSI_CHOICES)
    t: int = setting(200, "IK t (partitionings)", choices=(50, 100, 200, 500, 1000))
    gk_sigma: float | str = setting("scaled", "GK width σ", choices=("scaled", 0.5, 1.0, 2.0, 5.0, 10.0, 20.0, 50.0),
                                    url="sigma", widget="select_slider",
                                    help="'scaled': γ = 1/(d·var X), so γ‖x−y‖² stays of order one as d grows. "
                                         "A fixed σ makes GK underflow to 0 for every pair in high d.")
    k_snn: int = setting(50, "SNN k", choices=(5, 10, 20, 50, 100, 200, 500, 1000, 1500))
    k_ag: int = setting(200, "AG k", choices=(5, 10, 20, 50, 100, 200, 500))   # the paper's AG uses k = 200
    t_trials: int = setting(3, "N_eps vs t: trials", low=1, high=10, step=1, url="trials",
                            help="Independent repetitions (fresh partitionings) for the N_eps-vs-t curves.")
    seed: int = setting(0, "seed", low=0, high=10_000)
    d_values: tuple[int, ...] | None = None  # None: the d of D_CHOICES up to d_max
    measures: tuple[str, ...] = MEASURES
    n_per_cluster: int = 1000
    sigma_dense: float = 1.0
    sigma_sparse: float = 2.0
    offset: float = 4.0           # sparse centre at offset * (1, ..., 1); dense centre at 0
    eps: float = 0.005
    t_values: tuple[int, ...] = (1, 2, 5, 10, 20, 50, 100, 200)
    t_curve_d: int | None = None  # d of the N_eps-vs-t curves; None: the largest of d_values

    def __post_init__(self):
        if self.d_values is None:
            object.__setattr__(self, "d_values", tuple(d for d in D_CHOICES if d <= self.d_max))

    def data_kwargs(self) -> dict:
        """The arguments that fix the dataset (with ``d``)."""
        return dict(n_per_cluster=self.n_per_cluster, sigma_dense=self.sigma_dense,
                    sigma_sparse=self.sigma_sparse, offset=self.offset, seed=self.seed)

    def measure_options(self, measure: str) -> dict:
        """The options ``measure`` depends on."""
        scaled = self.gk_sigma is None or self.gk_sigma == "scaled"
        gamma = None if scaled else 1.0 / (2.0 * float(self.gk_sigma) ** 2)
        return option_subset(measure, dict(gamma=gamma, psi=self.psi, t=self.t, k_snn=self.k_snn,
                                           k_ag=self.k_ag))

    def curve_d(self) -> int:
        """The d at which N_eps is followed as t grows."""
        return int(self.t_curve_d or max(self.d_values))


@dataclass
class InstabilityResult:
    """Similarities of both queries to every point, per measure and d, and IK's N_eps-vs-t pools."""

    params: InstabilityParams
    similarities: dict[str, dict[int, np.ndarray]]   # measure -> d -> (2, n), rows in QUERIES order
    same_cell: dict[str, np.ndarray] = field(default_factory=dict)  # IK source -> (2, n, pool) bool
    preview: np.ndarray | None = None                # first two coordinates of the data at the smallest d
    labels: np.ndarray | None = None


def _check_d_values(d_values) -> tuple[int, ...]:
    ds = tuple(sorted({int(d) for d in d_values}))
    if not ds or ds[0] < 1:
        raise ValueError(f"d_values must hold at least one positive dimension; got {d_values!r}.")
    return ds


def cluster_data(d: int, n_per_cluster: int, sigma_dense: float, sigma_sparse: float, offset: float,
                 seed: int) -> tuple[np.ndarray, np.ndarray]:
    """The Fig. 1 dataset at ``d`` (a block: all measures at one d share it). Read-only arrays."""
    got = Data("dense-sparse-clusters", seed=sub_seed(seed, _STREAM["data"], d), steps=("read-only",),
               options={"d": d, "n_per_cluster": n_per_cluster, "sigma_dense": sigma_dense,
                        "sigma_sparse": sigma_sparse, "offset": offset}).resolve()
    return got.X, got.y


IK_CHUNK = 50  # partitionings per IK building block: the sweep's IK and the t-curve pool share blocks
#: t IK partitionings cost about this many times another measure's table at the same d (d = 1,000: 0.4-0.6 s
#: against 0.13 s on average), for the progress bar's weights
IK_WEIGHT = 4


def ik_same_cell_chunk(source: str, d: int, *, psi: int, start: int, size: int = IK_CHUNK,
                       n_per_cluster: int = 1000, sigma_dense: float = 1.0, sigma_sparse: float = 2.0,
                       offset: float = 4.0, seed: int = 0, memo: Memo | None = None) -> np.ndarray:
    """Whether each query shares a cell with each point in IK partitionings ``start ... start+size-1``.

    Returns a bool array (2, n, size). ``source="data"`` draws the
    partitionings' points from the data; ``"uniform"`` from as many points
    uniform in the data's bounding box (App. D). Partitioning ``j`` depends only
    on (seed, source, d, psi, j's block), so any t is a prefix of a longer pool.
    """
    if source not in IK_SOURCES:
        raise ValueError(f"source must be one of {list(IK_SOURCES)}; got {source!r}.")
    memo, _ = resolve(memo, None)
    X, _ = memo(cluster_data)(int(d), n_per_cluster, sigma_dense, sigma_sparse, offset, seed)
    ref = X
    if source == "uniform":
        rng = np.random.default_rng(sub_seed(seed, _STREAM["uniform"], d))
        ref = rng.uniform(X.min(axis=0), X.max(axis=0), size=X.shape)
    stream = _STREAM["ik_uniform" if source == "uniform" else "ik"]
    ik = isolation_kernel("ik", psi=psi, t=size, n=ref.shape[0], seed=sub_seed(seed, stream, d, start)).fit(ref)
    return shared_cells(ik.cells(cluster_queries(int(d), offset))[:, None, :], ik.cells(X)[None, :, :])


def ik_same_cell(source: str, d: int, *, psi: int, pool: int, memo: Memo | None = None,
                 progress: Progress | None = None, **data_kwargs) -> np.ndarray:
    """:func:`ik_same_cell_chunk` for partitionings 0 ... pool-1, as one (2, n, pool) bool array.

    Each chunk of ``IK_CHUNK`` partitionings is a block of ``memo``.
    """
    memo, progress = resolve(memo, progress)
    if isinstance(pool, bool) or not isinstance(pool, (int, np.integer)) or pool < 1:
        raise ValueError(f"the number of partitionings must be a positive integer; got {pool!r}.")
    parts = []
    for start in range(0, pool, IK_CHUNK):
        progress(start / pool, f"IK partitionings {start + 1}–{min(pool, start + IK_CHUNK)} of {pool}")
        parts.append(memo(ik_same_cell_chunk)(source, int(d), psi=psi, start=start,
                                              size=min(IK_CHUNK, pool - start), **data_kwargs))
    return np.concatenate(parts, axis=2)


def query_similarities(measure: str, d: int, *, n_per_cluster: int = 1000, sigma_dense: float = 1.0,
                       sigma_sparse: float = 2.0, offset: float = 4.0, seed: int = 0,
                       memo: Memo | None = None, **options) -> np.ndarray:
    """Similarities (2, n) of q_i and q_c to every point of the Fig. 1 data at ``d`` under ``measure``.

    ``options`` are the measure's own (see ``InstabilityParams.measure_options``).
    IK is the mean of :func:`ik_same_cell` over its t partitionings, so it
    shares its partitionings (blocks of ``memo``) with the N_eps-vs-t pool.
    """
    check_measure(measure)
    memo, _ = resolve(memo, None)
    data = dict(n_per_cluster=n_per_cluster, sigma_dense=sigma_dense, sigma_sparse=sigma_sparse,
                offset=offset, seed=seed)
    if measure == "ik":
        return ik_same_cell("data", d, psi=options["psi"], pool=options["t"], memo=memo, **data).mean(axis=2)
    X, _ = memo(cluster_data)(int(d), n_per_cluster, sigma_dense, sigma_sparse, offset, seed)
    sim = fit_similarity(measure, X, seed=sub_seed(seed, _STREAM["ik"], d), **options)
    return sim(cluster_queries(int(d), offset))


def t_curve(same_cell: np.ndarray, t_values, trials: int, eps: float) -> dict:
    """N_eps of IK with t partitionings, for each t: mean and standard error over ``trials``.

    Trial ``r`` uses partitionings ``r * max(t) ...`` of the pool, so trials are
    independent and, within a trial, a larger t adds partitionings to a smaller one.
    Returns ``{"t": [...], "mean": (2, len(t)), "se": (2, len(t))}`` (rows: queries).
    """
    t_values = sorted({int(t) for t in t_values})
    t_max = t_values[-1]
    if trials < 1 or trials * t_max > same_cell.shape[2]:
        raise ValueError(f"need trials * max(t) = {trials * t_max} partitionings; the pool has {same_cell.shape[2]}.")
    counts = np.empty((trials, len(t_values), 2))
    for r in range(trials):
        block = same_cell[:, :, r * t_max:(r + 1) * t_max]
        cum = np.cumsum(block, axis=2, dtype=np.int32)
        for j, t in enumerate(t_values):
            counts[r, j] = n_eps(cum[:, :, t - 1] / t, eps)
    mean = counts.mean(axis=0).T
    se = (counts.std(axis=0, ddof=1).T / np.sqrt(trials)) if trials > 1 else np.zeros_like(mean)
    return {"t": t_values, "mean": mean, "se": se}


def run_instability(p: InstabilityParams = InstabilityParams(), *, memo: Memo | None = None,
                    progress: Progress | None = None) -> InstabilityResult:
    """Compute every similarity the instability figures need.

    Every (measure, d) table and every chunk of IK partitionings is a block
    of ``memo``: ``eps`` only enters :func:`instability_summary`, and a new
    largest d reuses the smaller ones.
    """
    memo, progress = resolve(memo, progress)
    ds = _check_d_values(p.d_values)
    for m in p.measures:
        check_measure(m)
    curve_d = p.curve_d()
    pool = p.t_trials * max(p.t_values)
    # rough cost weights, so the progress bar moves evenly (the store's estimate of the time left reads its
    # rate): work grows with d, and t IK partitionings cost IK_WEIGHT times another measure's table
    def weight(m, d):
        return d * (IK_WEIGHT if m == "ik" else 1)

    steps = [(m, d) for d in ds for m in p.measures]
    # the data's first t partitionings at curve_d are the IK table's own blocks: computed by then, no work
    shared = p.t if "ik" in p.measures and curve_d in ds else 0
    curve = {source: curve_d * IK_WEIGHT * (pool - (shared if source == "data" else 0)) / p.t
             for source in IK_SOURCES}
    total = sum(weight(m, d) for m, d in steps) + sum(curve.values())
    done = 0.0
    sims: dict[str, dict[int, np.ndarray]] = {m: {} for m in p.measures}
    for i, (m, d) in enumerate(steps, 1):
        progress(done / total, f"{LABELS[m]}: d = {d:,} ({i} of {len(steps)})")
        sims[m][d] = memo(query_similarities)(m, d, **p.data_kwargs(), **p.measure_options(m))
        done += weight(m, d)
    same = {}
    for source in IK_SOURCES:
        step = within(progress, done / total, (done + curve[source]) / total, f"N_eps vs t ({IK_SOURCES[source]})")
        skip = min(shared, pool) / pool if source == "data" else 0.0
        same[source] = ik_same_cell(source, curve_d, psi=p.psi, pool=pool, memo=memo, **p.data_kwargs(),
                                    progress=lambda f, text="", step=step, skip=skip:
                                    step(max(0.0, (f - skip) / (1 - skip)) if skip < 1 else 1.0, text))
        done += curve[source]
    progress(1.0, "done")
    X, y = memo(cluster_data)(ds[0], **p.data_kwargs())
    return InstabilityResult(p, sims, same, X[:, :2].copy(), y)


def instability_summary(result: InstabilityResult, eps: float | None = None) -> dict:
    """The figure's numbers: ``N_eps[measure][query][d]``, ``variance[measure][d]`` (q_c, as in
    Fig. 1(b)), ``variance_by_query[measure][query][d]`` and the IK N_eps-vs-t curves."""
    p = result.params
    eps = p.eps if eps is None else eps
    neps = {m: {q: {} for q in QUERIES} for m in result.similarities}
    var_q = {m: {q: {} for q in QUERIES} for m in result.similarities}
    for m, by_d in result.similarities.items():
        for d, S in sorted(by_d.items()):
            counts, variances = n_eps(S, eps), relative_variance(S)
            for i, q in enumerate(QUERIES):
                neps[m][q][d] = int(counts[i])
                var_q[m][q][d] = float(variances[i])
    curves = {}
    for source, same in result.same_cell.items():
        c = t_curve(same, p.t_values, p.t_trials, eps)
        curves[source] = {q: {"t": c["t"], "mean": c["mean"][i].tolist(), "se": c["se"][i].tolist()}
                          for i, q in enumerate(QUERIES)}
    return {"eps": eps, "ik_step": 1.0 / p.t, "N_eps": neps,
            "variance": {m: v["sparse_centre"] for m, v in var_q.items()},
            "variance_by_query": var_q, "n_points": 2 * p.n_per_cluster,
            "N_eps_vs_t": curves, "t_curve_d": p.curve_d()}


def instability_views(result: InstabilityResult, eps_values=tuple(EPS_VIEWS)) -> dict:
    """:func:`instability_summary` at each of ``eps_values``, all from the one ``result``.

    N_eps at any eps comes from the same stored similarities, so a second
    eps costs no new similarity (no block of the run is recomputed): this
    only counts points within each window. Returns ``{eps: summary}``.
    """
    return {float(eps): instability_summary(result, float(eps)) for eps in eps_values}


# ---------------------------------------------------------------- hubness
HUB_D_CHOICES = (2, 3, 5, 10, 20, 50, 100, 200, 500)


@dataclass(frozen=True)
class HubnessParams:
    """Parameters of the hubness study (App. E: uniform [0, 1]^d, psi = 32, sigma = 5, k = 5)."""

    k: int = setting(5, "k (neighbours)", low=1, high=50, step=1)
    n: int = setting(2000, "points", choices=(500, 1000, 2000, 5000), url="n_hub")
    psi: int = setting(32, "IK ψ", choices=PSI_CHOICES, url="hub_psi")
    sigma: float = setting(5.0, "GK σ", choices=(0.5, 1.0, 2.0, 5.0, 10.0), url="hub_sigma",
                           help="App. E uses σ = 5; GK's neighbour ranking is the Euclidean one whatever σ, unless "
                                "the kernel underflows.")   # GK width: gamma = 1 / (2 sigma^2)
    d1: int = setting(3, "d (panel 1)", choices=HUB_D_CHOICES, url="hd1")
    d2: int = setting(20, "d (panel 2)", choices=HUB_D_CHOICES, url="hd2")
    d3: int = setting(100, "d (panel 3)", choices=HUB_D_CHOICES, url="hd3")
    extra: bool = setting(False, "also ℓ2 distance and SNN", url="hub_extra")
    seed: int = setting(0, "seed", low=0, high=10_000)
    d_values: tuple[int, ...] | None = None    # None: the panels' d1, d2, d3
    measures: tuple[str, ...] | None = None    # None: GK and IK (with ℓ2 and SNN if extra)
    t: int = 200
    k_snn: int = 50
    k_ag: int = 200

    def __post_init__(self):
        if self.d_values is None:
            object.__setattr__(self, "d_values", tuple(sorted({self.d1, self.d2, self.d3})))
        if self.measures is None:
            object.__setattr__(self, "measures", ("gk", "ik") + (("lp2", "snn") if self.extra else ()))

    def measure_options(self, measure: str) -> dict:
        """The options ``measure`` depends on."""
        return option_subset(measure, dict(gamma=1.0 / (2.0 * self.sigma ** 2), psi=self.psi, t=self.t,
                                           k_snn=self.k_snn, k_ag=self.k_ag))


@dataclass
class HubnessResult:
    """k-occurrences of every point, per measure and d."""

    params: HubnessParams
    occurrences: dict[str, dict[int, np.ndarray]]   # measure -> d -> (n,) O_k


def k_occurrences(measure: str, d: int, *, n: int = 2000, k: int = 5, seed: int = 0,
                  progress: Progress | None = None, **options) -> np.ndarray:
    """O_k of every point of ``n`` uniform points in [0, 1]^d under ``measure`` (ties broken at random, seeded)."""
    check_measure(measure)
    X = Data("uniform", seed=sub_seed(seed, _STREAM["hub_data"], d),
             options={"n": n, "d": int(d), "low": 0.0, "high": 1.0}).resolve().X
    sim = fit_similarity(measure, X, seed=sub_seed(seed, _STREAM["ik"], d), **options)
    report = None if progress is None else (lambda f: progress(f, "nearest neighbours"))
    neighbours = k_nearest_blocks(lambda a, b: sim(rows=slice(a, b)), n, k, seed=sub_seed(seed, 6, d),
                                  progress=report)
    return k_occurrence(neighbours, n)


def run_hubness(p: HubnessParams = HubnessParams(), *, memo: Memo | None = None,
                progress: Progress | None = None) -> HubnessResult:
    """k-occurrences for every measure and d (each a block of ``memo``)."""
    memo, progress = resolve(memo, progress)
    ds = _check_d_values(p.d_values)
    for m in p.measures:
        check_measure(m)
    steps = [(m, d) for d in ds for m in p.measures]
    occ: dict[str, dict[int, np.ndarray]] = {m: {} for m in p.measures}
    for i, (m, d) in enumerate(steps):
        step = within(progress, i / len(steps), (i + 1) / len(steps), f"{LABELS[m]}: d = {d}")
        occ[m][d] = memo(k_occurrences)(m, d, n=p.n, k=p.k, seed=p.seed, progress=step, **p.measure_options(m))
    progress(1.0, "done")
    return HubnessResult(p, occ)


def hubness_summary(result: HubnessResult) -> dict:
    """``skewness[measure][d]``, the O_k distribution, the largest O_k and the share of points with O_k = 0."""
    skew, dist, largest, orphans = {}, {}, {}, {}
    for m, by_d in result.occurrences.items():
        skew[m], dist[m], largest[m], orphans[m] = {}, {}, {}, {}
        for d, occ in sorted(by_d.items()):
            skew[m][d] = skewness(occ)
            values, probs = occurrence_distribution(occ)
            dist[m][d] = {"O_k": values.tolist(), "p": probs.tolist()}
            largest[m][d] = int(occ.max())
            orphans[m][d] = float(np.mean(occ == 0))
    return {"k": result.params.k, "skewness": skew, "distribution": dist, "max_O_k": largest,
            "share_O_k_zero": orphans}
