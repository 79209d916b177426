"""Clustering lab: spectral clustering, density peaks and k-means with IK (ting2021 §4.2.2, Fig. 2,
Table 3, Table 7; wang2017 §4.4).

Each (algorithm, measure) pair is scored by AMI and NMI against the class
labels, either at one parameter setting or at its best over the grid of
ting2021 Table 7 (the paper's protocol: best AMI, i.e. the labels pick the
parameter). The building blocks (:func:`load`, :func:`evaluate`,
:func:`param_grid`) take only what they depend on, so the app caches each
(data, method, parameter) point separately and can show a progress bar while
sweeping a grid.

Measures whose key starts with ``ik_`` are Isolation Kernel variants (Voronoi,
height-limited iForest, fully grown iForest; see :data:`IK_VARIANTS`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from sklearn.decomposition import PCA
from threadpoolctl import threadpool_limits

from .. import clustering as cl
from ..data import Data as Description
from ..data import canonical_name, dataset_names, step
from ..params import dataset_format, setting
from ..registry import label
from ..runner import Memo, Progress, resolve, within
from .surfaces import IK_KERNELS, KERNELS

#: IK variant key -> (label, IsolationKernel keyword arguments)
IK_VARIANTS: dict[str, tuple[str, dict]] = {k: KERNELS[k] for k in IK_KERNELS}
#: The variant the evidence supports on w-Gaussians: only the height-limited iForest
#: separates the w = 1 clusters (AMI ~0.99 at psi 32-64; Voronoi ~0.32, fully grown ~0.31).
DEFAULT_IK = "ik_iforest"

ALGORITHMS = {"spectral": "Spectral clustering", "density_peaks": "Density peaks", "kmeans": "k-means"}
_IK_LABELS = {k: label(k) for k in IK_VARIANTS}
#: algorithm -> measure -> label
MEASURES: dict[str, dict[str, str]] = {
    "spectral": {**_IK_LABELS, "gk": label("gk"), "ag": label("ag")},
    "density_peaks": {"distance": label("distance"), **{k: f"1 − {v}" for k, v in _IK_LABELS.items()},
                      "ag": f"1 − {label('ag')}"},
    "kmeans": {"raw": label("raw"), **{k: f"{v} feature map" for k, v in _IK_LABELS.items()},
               "randlocal": label("randlocal")},
}

#: ting2021 Table 7 grids; GK's sigma = d * mu, AG's k = fraction * n, DP's eps = fraction * m
PSI_GRID = tuple(2**i for i in range(1, 11))
MU_GRID = tuple(2.0**i for i in range(-5, 6))
AG_FRACTIONS = tuple(round(0.05 * i, 2) for i in range(1, 11))
EPS_FRACTIONS = tuple(round(0.01 * i, 2) for i in range(1, 100))
#: wang2017 §4.4: RandLocal with T = 400 sets and epsilon = 1e-4 for clustering
RANDLOCAL = {"n_sets": 400, "epsilon": 1e-4}

SYNTHETIC = ("w-gaussians", "density-ratio")
#: how the lab offers its data: the generators by their papers, bundled data as every page shows them
DATASET_LABEL = dataset_format({"w-gaussians": "w-Gaussians (ting2021 Fig. 2)",
                                "density-ratio": "Density ratio (two classes, ting2018)"})


@dataclass(frozen=True)
class Data:
    """Which data to cluster. Real datasets are subsampled to ``max_points`` (seeded)."""

    name: str = "w-gaussians"     # "w-gaussians", "density-ratio" or a bundled dataset name
    w: int = 1                    # w-Gaussians: dimensions of each cluster's subspace
    n_per_cluster: int = 500      # w-Gaussians
    sigma_b: float = 1.0          # w-Gaussians: spread of the second cluster (3 = unequal variances)
    ratio: float = 10.0           # density ratio data
    n: int = 500                  # density ratio data: total points
    max_points: int = 1000        # real data
    seed: int = 0


def data_names() -> list[str]:
    """Every dataset :func:`load` accepts: the two generators, then the bundled real datasets."""
    return [*SYNTHETIC, *dataset_names()]


def describe(data: Data, *, scaled: bool = True) -> Description:
    """The :class:`ikviz.data.Data` that ``data`` names: its rows, each feature rescaled to [0, 1] (ting2021 App. B).

    ``scaled=False``: the same rows as generated or read, before scaling.
    """
    name = canonical_name(data.name)
    if name == "w-gaussians":
        options, steps = {"n_per_cluster": data.n_per_cluster, "w": data.w, "sigma_b": data.sigma_b}, ()
    elif name == "density-ratio":
        options, steps = {"n": data.n, "ratio": data.ratio}, ()
    else:
        if data.max_points < 2:
            raise ValueError(f"max_points must be at least 2; got {data.max_points}.")
        options, steps = {}, (step("subsample", n=data.max_points),)
    return Description(name, seed=data.seed, options=options, steps=steps + (("rescale",) if scaled else ()))


def load(data: Data) -> tuple[np.ndarray, np.ndarray]:
    """``(X, y)`` for ``data``, as :func:`describe` states them."""
    got = describe(data).resolve()
    return got.X, got.y


def projection(data: Data, *, memo: Memo | None = None) -> np.ndarray:
    """2-D coordinates for the scatter plots (their axis names: :func:`projection_axes`).

    2-D data as they are; w-Gaussians with w > 1 as the length of each point's part in
    cluster A's subspace against its part in cluster B's (A lies on the x axis, B on the
    y axis, as in the w = 1 picture); anything else as its first two principal components.
    """
    memo, _ = resolve(memo, None)
    X, _ = memo(load)(data)
    if X.shape[1] == 2:
        return X
    if data.name == "w-gaussians":
        raw = describe(data, scaled=False).resolve().X
        return np.column_stack([np.linalg.norm(raw[:, :data.w], axis=1), np.linalg.norm(raw[:, data.w:], axis=1)])
    if X.shape[1] == 1:
        return np.column_stack([X[:, 0], np.zeros(X.shape[0])])
    return PCA(n_components=2, random_state=0).fit_transform(X)


def projection_axes(data: Data, d: int) -> tuple[str, str, str]:
    """Axis titles of :func:`projection` for ``d``-feature data, and a phrase saying what the view is."""
    if d == 2:
        return "x₁", "x₂", "the data"
    if data.name == "w-gaussians":
        return ("‖x‖ in A's subspace", "‖x‖ in B's subspace",
                f"each point's length in cluster A's {data.w} dimensions against B's (unscaled)")
    return "PC 1", "PC 2", f"the first two principal components of the {d}-D data"


def check_measure(algorithm: str, measure: str) -> None:
    """``ValueError`` naming the choices if ``algorithm`` or ``measure`` is unknown."""
    if algorithm not in ALGORITHMS:
        raise ValueError(f"unknown algorithm {algorithm!r}; choose one of {list(ALGORITHMS)}.")
    if measure not in MEASURES[algorithm]:
        raise ValueError(f"{ALGORITHMS[algorithm]} has no measure {measure!r}; choose one of "
                         f"{list(MEASURES[algorithm])}.")


def param_grid(measure: str) -> tuple[str, tuple]:
    """Name and ting2021 Table 7 grid of ``measure``'s parameter; ``("", (None,))`` if it has none."""
    if measure.startswith("ik_"):
        return "ψ", PSI_GRID
    if measure == "gk":
        return "μ (σ = d·μ)", MU_GRID
    if measure == "ag":
        return "k / n", AG_FRACTIONS
    return "", (None,)


def _ag_k(fraction: float, n: int) -> int:
    return int(min(n - 1, max(1, round(fraction * n))))


def _randomised(algorithm: str, measure: str) -> bool:
    # density peaks is deterministic given its distances; only IK makes them random
    return algorithm != "density_peaks" or measure.startswith("ik_")


@dataclass
class Evaluation:
    """One (algorithm, measure, parameter) point: the clustering of the first trial and the mean scores."""

    algorithm: str
    measure: str
    param: float | int | None
    labels: np.ndarray            # (n,) clusters of the first trial
    ami: float                    # mean over trials
    nmi: float
    ami_trials: list[float]
    eps_fraction: float | None = None   # density peaks: the cutoff used (the best one when swept)
    eps_curve: np.ndarray | None = None  # density peaks swept over EPS_FRACTIONS: AMI per cutoff
    rho: np.ndarray | None = None        # density peaks: decision graph of the first trial
    delta: np.ndarray | None = None
    centres: np.ndarray | None = None


def estimator(algorithm: str, measure: str, param=None, *, n_clusters: int, n: int, d: int, t: int = 200,
              seed: int = 0, eps_fraction: float = 0.02):
    """The scikit-learn estimator :func:`evaluate` fits for one (algorithm, measure, parameter) point.

    ``param`` is ψ for IK (clipped to the ``n`` rows), μ for GK (σ = d·μ, so
    gamma = 1 / (2 σ²)), k/n for AG, unused otherwise. Spectral clustering is
    :class:`~ikviz.clustering.SpectralClustering`, density peaks
    :class:`~ikviz.clustering.DensityPeaks` (at ``eps_fraction``) and k-means
    the pipeline of :func:`~ikviz.clustering.make_kmeans`; every one is seeded
    with ``seed`` (the IK, RandLocal, the eigensolver, k-means).
    """
    check_measure(algorithm, measure)
    ik = measure.startswith("ik_")
    ik_params = dict(psi=min(int(param), n), t=t, kernel_params=dict(IK_VARIANTS[measure][1])) if ik else {}
    if algorithm == "spectral":
        if ik:
            return cl.SpectralClustering(n_clusters, affinity="ik", random_state=seed, **ik_params)
        if measure == "gk":
            sigma = d * float(param)
            return cl.SpectralClustering(n_clusters, affinity="rbf", gamma=1.0 / (2.0 * sigma**2), random_state=seed)
        return cl.SpectralClustering(n_clusters, affinity="adaptive", n_neighbours=_ag_k(param, n), random_state=seed)
    if algorithm == "kmeans":
        if ik:
            return cl.make_kmeans("ik", n_clusters=n_clusters, random_state=seed, **ik_params)
        if measure == "randlocal":
            return cl.make_kmeans("randlocal", n_clusters=n_clusters, random_state=seed, **RANDLOCAL)
        return cl.make_kmeans("raw", n_clusters=n_clusters, random_state=seed)
    if ik:
        return cl.DensityPeaks(n_clusters, eps_fraction=eps_fraction, metric="ik", random_state=seed, **ik_params)
    if measure == "ag":
        return cl.DensityPeaks(n_clusters, eps_fraction=eps_fraction, metric="adaptive",
                               n_neighbours=_ag_k(param, n), random_state=seed)
    return cl.DensityPeaks(n_clusters, eps_fraction=eps_fraction, metric="euclidean", random_state=seed)


def _density_peaks_trial(model, X, y, eps_fraction):
    """One density-peaks run; with ``eps_fraction=None`` every cutoff in EPS_FRACTIONS, keeping the best."""
    if eps_fraction is not None:
        model.fit(X)
        return (model.labels_, model.cluster_centers_indices_, model.rho_, model.delta_, float(eps_fraction),
                None)
    graph = model.path(X, EPS_FRACTIONS)
    # neighbouring cutoffs often give the same partition; score each distinct one once (AMI is the slow part)
    amis, seen = np.empty(len(EPS_FRACTIONS)), {}
    for e, labels in enumerate(graph.labels):
        key = labels.tobytes()
        if key not in seen:
            seen[key] = cl.scores(y, labels)["ami"]
        amis[e] = seen[key]
    best = int(np.argmax(amis))
    return (graph.labels[best], graph.centres[best], graph.rho[best], graph.delta[best],
            float(graph.eps_fraction[best]), amis)


def evaluate(data: Data, algorithm: str, measure: str, param=None, *, k: int = 0, t: int = 200,
             trials: int = 1, eps_fraction: float | None = 0.02, seed: int = 0,
             memo: Memo | None = None) -> Evaluation:
    """Cluster ``data`` with ``algorithm`` on ``measure`` at parameter ``param`` and score it.

    ``param``: ψ for IK, μ for GK (σ = d·μ), k/n for AG, unused otherwise.
    ``k``: number of clusters (0: the number of classes). Randomised methods
    run ``trials`` times with seeds ``seed, seed + 1, ...`` and report the mean
    AMI/NMI (ting2021 averages spectral clustering over 10 trials).
    ``eps_fraction``: the density-peaks cutoff as a fraction of the largest
    pairwise distance; ``None`` takes the best of EPS_FRACTIONS.
    The estimator of each trial is :func:`estimator`'s.
    """
    check_measure(algorithm, measure)
    if isinstance(trials, bool) or not isinstance(trials, int) or trials < 1:
        raise ValueError(f"trials must be a positive integer; got {trials!r}.")
    memo, _ = resolve(memo, None)
    X, y = memo(load)(data)
    n, d = X.shape
    k = n_clusters(k, y)
    if k > n:
        raise ValueError(f"cannot make {k} clusters from {n} points; choose k <= {n}.")
    if param is None and param_grid(measure)[0]:
        raise ValueError(f"{MEASURES[algorithm][measure]} needs a parameter ({param_grid(measure)[0]}).")
    labels0, ami, nmi, extra, shared = None, [], [], {}, None
    for trial in range(trials if _randomised(algorithm, measure) else 1):
        s = seed + trial
        model = estimator(algorithm, measure, param, n_clusters=k, n=n, d=d, t=t, seed=s,
                          eps_fraction=0.02 if eps_fraction is None else eps_fraction)
        if algorithm == "density_peaks":
            labels, centres, rho, delta, eps_used, curve = _density_peaks_trial(model, X, y, eps_fraction)
            if trial == 0:
                extra = dict(rho=rho, delta=delta, centres=centres, eps_fraction=eps_used, eps_curve=curve)
        else:
            # one thread for scikit-learn's k-means / eigensolver pools: at these sizes they cost more than they
            # save (k-means on the IK map of 1,000 points: 0.9 s -> 0.17 s); numba's threads are unaffected
            with threadpool_limits(1):
                if shared is None:
                    labels = model.fit_predict(X)
                else:   # the same affinity, another seed for the eigensolver and k-means
                    labels = model.set_params(affinity="precomputed").fit_predict(shared)
            if algorithm == "spectral" and not measure.startswith("ik_"):
                # GK's and AG's affinities do not depend on the seed: at w = 5,000 (d = 10,000) each is
                # n^2 * d exact operations, ~5 s, which the trials repeated 10 times at every grid point
                shared = model.affinity_matrix_
        sc = cl.scores(y, labels)
        ami.append(sc["ami"])
        nmi.append(sc["nmi"])
        if labels0 is None:
            labels0 = np.asarray(labels, dtype=np.int64)
    return Evaluation(algorithm, measure, param, labels0, float(np.mean(ami)), float(np.mean(nmi)), ami,
                      **extra)


@dataclass
class Sweep:
    """AMI/NMI of one (algorithm, measure) over its parameter grid, and the best point."""

    algorithm: str
    measure: str
    param_name: str
    values: tuple
    ami: np.ndarray
    nmi: np.ndarray
    best: Evaluation


def sweep(data: Data, algorithm: str, measure: str, *, k: int = 0, t: int = 200, trials: int = 1, seed: int = 0,
          max_psi: int | None = None, memo: Memo | None = None, progress: Progress | None = None) -> Sweep:
    """Evaluate every value of ``measure``'s grid (density peaks: each at its best cutoff).

    Each grid point is a block of ``memo`` (a sweep reuses every point already
    computed); ``progress(fraction, text)`` is called before each. ψ is
    clipped to the number of rows, and grid values of ψ above ``max_psi``
    (if given) are left out.
    """
    memo, progress = resolve(memo, progress)
    check_measure(algorithm, measure)
    name, values = param_grid(measure)
    X, _ = memo(load)(data)
    if name == "ψ":
        values = tuple(dict.fromkeys(min(v, X.shape[0]) for v in values if max_psi is None or v <= max_psi))
        if not values:
            raise ValueError(f"max_psi={max_psi} leaves no ψ of the grid {PSI_GRID}.")
    evals = []
    for i, value in enumerate(values):
        progress(i / len(values), f"{name} = {value:g} ({i + 1} of {len(values)})" if name else "")
        evals.append(memo(evaluate)(data, algorithm, measure, value, k=k, t=t, trials=trials, eps_fraction=None,
                                    seed=seed))
    ami = np.array([e.ami for e in evals])
    best = evals[int(np.argmax(ami))]
    if not name and algorithm == "density_peaks":
        # no kernel parameter: the cutoff is what is swept
        name, values, ami = "ε / m", EPS_FRACTIONS, best.eps_curve
        return Sweep(algorithm, measure, name, values, ami, np.full(len(values), np.nan), best)
    return Sweep(algorithm, measure, name, values, ami, np.array([e.nmi for e in evals]), best)


def _family(measure: str) -> str:
    """The measure's tick box: ``show_ik`` for every IK variant, ``show_<measure>`` for the others."""
    return "show_ik" if measure.startswith("ik_") else f"show_{measure}"


def _shown(measure: str, help: str | None = None):
    """The tick box of measure ``measure`` (its label from :mod:`ikviz.registry`), ticked by default."""
    return setting(True, label(measure), widget="checkbox", help=help)


@dataclass(frozen=True)
class Params:
    """One view of the clustering lab: a dataset, an algorithm, its measures, fixed or best-over-grid.

    The defaults are the page's view. The measures compared are ``measures`` if given, else those of
    :func:`view_measures` whose ``show_*`` box is ticked (``show_ik`` for the chosen IK variant);
    ``eps`` is density peaks' cutoff in % of the largest distance (:attr:`eps_fraction`).

    Examples
    --------
    >>> from ikviz.experiments.clustering import Params
    >>> Params(show_gk=False).chosen_measures(), Params(algorithm="kmeans").chosen_measures()
    (['ik_iforest', 'ag'], ['raw', 'ik_iforest', 'randlocal'])
    >>> sorted(Params.hidden({"dataset": "iris", "algorithm": "kmeans", "mode": "best"}))[:6]
    ['ag_fraction', 'eps', 'mu', 'n_per_cluster', 'n_ratio', 'psi']
    """

    dataset: str = setting("w-gaussians", "data", choices=(*SYNTHETIC, *dataset_names()), url="data",
                           format=DATASET_LABEL)
    w: int = setting(1, "w (dimensions of each cluster)", choices=(1, 2, 5, 10, 50, 100, 500),
                     help="The data have 2w dimensions; cluster A uses the first w, cluster B the last w.")
    n_per_cluster: int = setting(500, "points per cluster", choices=(10, 50, 100, 250, 500, 1000), url="n_per")
    sigma_b: float = setting(1.0, "spread of cluster B (A has 1)", choices=(1.0, 2.0, 3.0),
                             help="ting2021: with unequal spreads (e.g. 3) adaptive Gaussian also succeeds.")
    ratio: float = setting(10.0, "density ratio", choices=(1.0, 5.0, 10.0, 20.0))
    n_ratio: int = setting(500, "points", choices=(100, 250, 500, 1000))
    max_points: int = setting(1000, "at most this many points (random subsample)",
                              choices=(30, 100, 300, 1000, 2000))
    algorithm: str = setting("spectral", "algorithm", choices=tuple(ALGORITHMS), url="alg", widget="radio",
                             format=ALGORITHMS.get)
    ik_variant: str = setting(DEFAULT_IK, "IK variant", choices=tuple(IK_VARIANTS), url="ik", widget="selectbox",
                              format=label,
                              help="How IK partitions the space. The default, the height-limited iForest, is the "
                                   "only variant that reproduces ting2021 Fig. 2 with spectral clustering (see "
                                   "the note under spectral clustering's results).")
    show_distance: bool = _shown("distance")
    show_raw: bool = _shown("raw")
    show_ik: bool = _shown("ik", help="With the variant chosen above.")
    show_gk: bool = _shown("gk")
    show_ag: bool = _shown("ag")
    show_randlocal: bool = _shown("randlocal")
    mode: str = setting("fixed", "parameters", choices=("fixed", "best"), widget="radio",
                        format={"fixed": "one setting", "best": "best over the parameter grid"}.get,
                        help="'best' sweeps each measure's grid from ting2021 Table 7 and keeps the best AMI, "
                             "as the paper reports; the labels choose the parameter, so it is an upper bound.")
    psi: int = setting(32, "ψ (IK)", choices=PSI_GRID)
    mu: float = setting(1.0, "GK: σ = d × μ, μ =", choices=MU_GRID)
    ag_fraction: float = setting(0.05, "AG: k = fraction of n", choices=AG_FRACTIONS, url="ag_k",
                                 help="The adaptive Gaussian scales each point by its distance to its k-th "
                                      "nearest neighbour.")
    eps: int = setting(2, "ε, % of the largest distance m", low=1, high=99, step=1,
                       help="Density peaks counts the neighbours closer than ε.")
    k: int = setting(0, "clusters k (0 = number of classes)", low=0, high=50)
    t: int = setting(200, "t (IK partitionings)", choices=(50, 100, 200, 500))
    trials: int = setting(1, "trials (mean AMI over seeds)", choices=(1, 3, 5, 10),
                          help="ting2021 averages spectral clustering over 10 trials.")
    seed: int = setting(0, "seed", low=0, high=10_000)
    measures: tuple[str, ...] = ()   # () = the view's measures whose box is ticked (chosen_measures)

    @staticmethod
    def hidden(values: dict) -> set[str]:
        """The settings that do not apply given the values chosen so far (see :func:`ikviz.params.hidden`)."""
        dataset = canonical_name(values.get("dataset", "w-gaussians"))
        algorithm = values.get("algorithm", "spectral")
        out = set() if dataset == "w-gaussians" else {"w", "n_per_cluster", "sigma_b"}
        if dataset != "density-ratio":
            out |= {"ratio", "n_ratio"}
        if dataset in SYNTHETIC:
            out.add("max_points")
        shown = {_family(m) for m in MEASURES.get(algorithm, {})}
        out |= {f"show_{m}" for m in ("distance", "raw", "ik", "gk", "ag", "randlocal")} - shown
        fixed = values.get("mode", "fixed") == "fixed"
        out |= {name for name, applies in (("psi", fixed), ("mu", fixed and algorithm == "spectral"),
                                           ("ag_fraction", fixed and "ag" in MEASURES.get(algorithm, {})),
                                           ("eps", fixed and algorithm == "density_peaks")) if not applies}
        return out

    @property
    def eps_fraction(self) -> float:
        """Density peaks' cutoff as a fraction of the largest pairwise distance."""
        return self.eps / 100

    def chosen_measures(self) -> list[str]:
        """The measures this view compares: ``measures``, else the ticked ones of :func:`view_measures`."""
        if self.measures:
            return list(self.measures)
        return [m for m in view_measures(self.algorithm, self.ik_variant) if getattr(self, _family(m))]

    def data(self) -> Data:
        """The :class:`Data` this view clusters."""
        return Data(canonical_name(self.dataset), w=self.w, n_per_cluster=self.n_per_cluster, sigma_b=self.sigma_b,
                    ratio=self.ratio, n=self.n_ratio, max_points=self.max_points, seed=self.seed)


def view_measures(algorithm: str, ik_variant: str) -> list[str]:
    """The measures a view compares by default: the chosen IK variant and the non-IK measures."""
    if ik_variant not in IK_VARIANTS:
        raise ValueError(f"unknown IK variant {ik_variant!r}; choose one of {list(IK_VARIANTS)}.")
    return [m for m in MEASURES[algorithm] if not m.startswith("ik_") or m == ik_variant]


def n_clusters(k: int, y) -> int:
    """The number of clusters a view makes: ``k``, or the number of classes in ``y`` when ``k`` is 0.

    Examples
    --------
    >>> from ikviz.experiments.clustering import n_clusters
    >>> n_clusters(0, [0, 1, 1, 2]), n_clusters(5, [0, 1])
    (3, 5)
    """
    return int(np.unique(y).size) if k == 0 else k


def view_problem(X, y, k: int) -> str | None:
    """Why AMI cannot score a clustering of ``X`` (classes ``y``) into ``k`` clusters, in words; None if it can.

    ``k`` as in :func:`n_clusters` (0: one cluster per class).

    Examples
    --------
    >>> import numpy as np
    >>> from ikviz.experiments.clustering import view_problem
    >>> X = np.zeros((4, 2))
    >>> view_problem(X, [0, 0, 1, 1], 0) is None
    True
    >>> view_problem(X, [0, 0, 1, 1], 9)
    'k = 9 clusters is more than the 4 points; lower k or use more points.'
    """
    n = len(X)
    if np.unique(y).size < 2:
        return "These data have a single class, so AMI cannot score a clustering. Pick other data."
    k = n_clusters(k, y)
    if k > n:
        return f"k = {k} clusters is more than the {n} points; lower k or use more points."
    return None


def fixed_param(p: Params, measure: str):
    """The parameter of ``measure`` in a fixed-setting view."""
    if measure.startswith("ik_"):
        return p.psi
    return {"gk": p.mu, "ag": p.ag_fraction}.get(measure)


@dataclass
class Result:
    """A clustering-lab view: the data, its 2-D projection, and one evaluation (or sweep) per measure.

    ``shape`` is that of the data clustered (rows, features); ``problem`` says, in words, why the data
    cannot be scored (:func:`view_problem`): then nothing is clustered.
    """

    params: Params
    X2: np.ndarray
    y: np.ndarray
    evaluations: dict[str, Evaluation]
    sweeps: dict[str, Sweep] = field(default_factory=dict)
    shape: tuple = ()
    problem: str | None = None


def run(p: Params = Params(), *, memo: Memo | None = None, progress: Progress | None = None) -> Result:
    """Compute one view of the clustering lab: load the data, then cluster it (every step a block of ``memo``).

    Examples
    --------
    >>> from ikviz.experiments.clustering import Params, run
    >>> r = run(Params(n_per_cluster=10, k=50))
    >>> r.problem, r.evaluations
    ('k = 50 clusters is more than the 20 points; lower k or use more points.', {})
    """
    memo, progress = resolve(memo, progress)
    if p.mode not in ("fixed", "best"):
        raise ValueError(f"mode must be 'fixed' or 'best'; got {p.mode!r}.")
    measures = p.chosen_measures()
    if not measures:
        raise ValueError("no measure to compare: tick at least one (or pass measures=...).")
    data = p.data()
    X, y = memo(load)(data)
    problem = view_problem(X, y, p.k)
    if problem:
        return Result(p, None, y, {}, shape=X.shape, problem=problem)
    common = dict(k=p.k, t=p.t, trials=p.trials, seed=p.seed)
    evals, sweeps = {}, {}
    for i, m in enumerate(measures):
        name = MEASURES[p.algorithm][m]
        if p.mode == "best":
            sweeps[m] = sweep(data, p.algorithm, m, memo=memo,
                              progress=within(progress, i / len(measures), (i + 1) / len(measures), name), **common)
            evals[m] = sweeps[m].best
        else:
            progress(i / len(measures), name)
            evals[m] = memo(evaluate)(data, p.algorithm, m, fixed_param(p, m), eps_fraction=p.eps_fraction,
                                      **common)
    progress(1.0, "done")
    return Result(p, memo(projection)(data), y, evals, sweeps, shape=X.shape)


def summary(result: Result) -> list[dict]:
    """One row per measure: AMI, NMI and the parameter used (the best one in "best" mode)."""
    rows = []
    for m, e in result.evaluations.items():
        rows.append({"measure": MEASURES[e.algorithm][m], "key": m, "param_name": param_grid(m)[0],
                     "param": e.param, "eps_fraction": e.eps_fraction, "ami": e.ami, "nmi": e.nmi})
    return rows


# ------------------------------------------------------------------------- reproduction

#: ting2021 Table 3, the w-Gaussians row (w = 5,000, 2,000 points, d = 10,000; Table 2 gives the size), and
#: Fig. 2 (w = 1, 500 points per cluster): best AMI, quoted from the paper. Its IK is the Voronoi one (§3.2).
PAPER_TABLE3 = {"w": 5000, "n": 2000,
                "dp": {"distance": 0.01, "ag": 0.01, "ik": 0.68},
                "sc": {"gk": 0.24, "ag": 0.25, "ik": 1.00}}
PAPER_FIG2 = {"w": 1, "n_per_cluster": 500, "sc": {"ik": 0.91, "ag": 0.29}}
#: Table 3's columns: short algorithm key -> (algorithm, {short measure key -> measure}); IK is the Voronoi variant
TABLE3_COLUMNS = {"dp": ("density_peaks", {"distance": "distance", "ag": "ag", "ik": "ik_anne"}),
                  "sc": ("spectral", {"gk": "gk", "ag": "ag", "ik": "ik_anne"})}


def psi_limit(t: int, d: int, budget: int | None = None) -> int:
    """The largest ψ of the Table 7 grid whose ``t`` x ψ sampled points of ``d`` features fit ``budget`` bytes.

    :class:`~ikviz.IsolationKernel` refuses a kernel whose t·ψ sampled points
    would be a dense matrix over its ``dense_budget`` (2 GiB by default); at
    w = 5,000 (d = 10,000) and t = 200 that leaves ψ ≤ 128 of the grid's 1024.

    Examples
    --------
    >>> from ikviz.experiments.clustering import psi_limit
    >>> psi_limit(200, 10_000), psi_limit(200, 2)
    (128, 1024)
    """
    from .._validation import DEFAULT_DENSE_BUDGET

    budget = DEFAULT_DENSE_BUDGET if budget is None else budget
    fits = [v for v in PSI_GRID if t * v * d * 8 <= budget]
    if not fits:
        raise ValueError(f"no ψ of the grid {PSI_GRID} fits: t={t} x ψ x d={d} floats exceed {budget} bytes.")
    return max(fits)


@dataclass(frozen=True)
class WGaussiansParams:
    """``ikviz reproduce clustering-wgaussians``: best AMI of each algorithm and measure for each w.

    The defaults are ting2021's protocol: w = 1 at 500 points per cluster
    (Fig. 2) and w = 5,000 at 1,000 per cluster (Table 3; d = 10,000),
    Table 7's grids, spectral clustering averaged over 10 trials (density
    peaks: one trial, ``dp_trials``, as the paper runs it). ``n_per_cluster`` is
    one number for every w or one per w. ``max_psi=None`` caps ψ where
    :func:`psi_limit` says the kernel would exceed its memory budget.
    ``algorithms`` and ``measures`` (``()``: all) restrict what is run.
    """

    ws: tuple[int, ...] = (1, 5000)
    n_per_cluster: int | tuple[int, ...] = (500, 1000)
    algorithms: tuple[str, ...] = ("spectral", "density_peaks")
    measures: tuple[str, ...] = ("distance", "gk", "ag", "ik_anne", "ik_iforest")
    max_psi: int | None = None
    sigma_b: float = 1.0
    t: int = 200
    trials: int = 10
    dp_trials: int = 1
    seed: int = 0

    def sizes(self) -> dict[int, int]:
        """Points per cluster for each w."""
        n = self.n_per_cluster
        if isinstance(n, (int, np.integer)):
            return {w: int(n) for w in self.ws}
        if len(n) != len(self.ws):
            raise ValueError(f"n_per_cluster gives {len(n)} sizes for {len(self.ws)} values of w ({self.ws}); "
                             f"give one size, or one per w.")
        return {w: int(v) for w, v in zip(self.ws, n)}


@dataclass
class WGaussiansResult:
    """``ami[algorithm][measure][w]`` (best over the Table 7 grid) with the parameter that gave it."""

    params: WGaussiansParams
    ami: dict[str, dict[str, dict[int, float]]]
    nmi: dict[str, dict[str, dict[int, float]]]
    best_param: dict[str, dict[str, dict[int, object]]]
    sweeps_w1: dict[str, dict[str, Sweep]]    # the full curves for the smallest w, for the figures
    X2_w1: np.ndarray
    y_w1: np.ndarray
    psi_grid: dict[int, tuple[int, ...]] = field(default_factory=dict)   # the ψ values swept at each w
    seconds: dict[str, dict[str, dict[int, float]]] = field(default_factory=dict)

    def table3(self) -> dict[str, dict[str, dict[int, float]]]:
        """Table 3's columns, ``table3()["dp"]["ik"][w]``: dp (distance, ag, ik) and sc (gk, ag, ik), IK = Voronoi."""
        return {short: {col: dict(self.ami[a][m]) for col, m in cols.items() if m in self.ami.get(a, {})}
                for short, (a, cols) in TABLE3_COLUMNS.items() if a in self.ami}


def run_wgaussians(p: WGaussiansParams = WGaussiansParams(), *, memo: Memo | None = None,
                   progress: Progress | None = None) -> WGaussiansResult:
    """Sweep every algorithm x measure over the Table 7 grid on w-Gaussians for each w in ``p.ws``."""
    import time

    memo, progress = resolve(memo, progress)
    if not p.ws:
        raise ValueError("ws must list at least one w.")
    sizes = p.sizes()
    for a in p.algorithms:
        if a not in ALGORITHMS:
            raise ValueError(f"unknown algorithm {a!r}; choose from {list(ALGORITHMS)}.")
    unknown = sorted(set(p.measures) - {m for a in p.algorithms for m in MEASURES[a]})
    if unknown:
        raise ValueError(f"no algorithm of {list(p.algorithms)} has the measures {unknown}.")
    chosen = {a: [m for m in MEASURES[a] if not p.measures or m in p.measures] for a in p.algorithms}
    ami, nmi, best, seconds = ({a: {m: {} for m in chosen[a]} for a in p.algorithms} for _ in range(4))
    sweeps_w1: dict[str, dict[str, Sweep]] = {a: {} for a in p.algorithms}
    psi_grid = {}
    w_first = p.ws[0]
    jobs = [(w, a, m) for w in p.ws for a in p.algorithms for m in chosen[a]]
    for w in p.ws:
        data = Data("w-gaussians", w=w, n_per_cluster=sizes[w], sigma_b=p.sigma_b, seed=p.seed)
        cap = psi_limit(p.t, 2 * w) if p.max_psi is None else p.max_psi
        psi_grid[w] = tuple(dict.fromkeys(min(v, 2 * sizes[w]) for v in PSI_GRID if v <= cap))
        for a in p.algorithms:
            for m in chosen[a]:
                i = jobs.index((w, a, m))
                start = time.perf_counter()
                trials = p.dp_trials if a == "density_peaks" else p.trials
                s = sweep(data, a, m, t=p.t, trials=trials, seed=p.seed, max_psi=cap, memo=memo,
                          progress=within(progress, i / len(jobs), (i + 1) / len(jobs), f"w = {w}, {a}, {m}"))
                seconds[a][m][w] = time.perf_counter() - start
                ami[a][m][w] = float(s.best.ami)
                nmi[a][m][w] = float(s.best.nmi)
                best[a][m][w] = {"param": s.best.param, "eps_fraction": s.best.eps_fraction}
                if w == w_first:
                    sweeps_w1[a][m] = s
    data1 = Data("w-gaussians", w=w_first, n_per_cluster=sizes[w_first], sigma_b=p.sigma_b, seed=p.seed)
    return WGaussiansResult(p, ami, nmi, best, sweeps_w1, memo(projection)(data1), memo(load)(data1)[1],
                            psi_grid, seconds)


def row_order_effect(data: Data = Data("w-gaussians", w=5000, n_per_cluster=1000),
                     measures: tuple[str, ...] = ("distance", "ag", "ik_anne"), *, t: int = 200,
                     max_psi: int | None = None, shuffle_seed: int = 0, seed: int = 0,
                     progress: Progress | None = None) -> dict[str, dict[str, dict[str, float]]]:
    """Best density-peaks AMI with ties broken by row index (the old rule) and by row values, rows as generated
    and shuffled: ``effect[rule][order][measure]``.

    ``rule`` is ``"row index"`` or ``"row values"``, ``order`` is ``"generator"``
    or ``"shuffled"`` (a seeded permutation). Each value is the best over the
    measure's Table 7 grid (ψ capped as in :func:`psi_limit`) and the 99
    cutoffs. Under the row-index rule the two orders can differ widely; under
    the row-values rule they agree.

    Examples
    --------
    >>> from ikviz.experiments.clustering import Data, row_order_effect
    >>> effect = row_order_effect(Data("w-gaussians", w=2, n_per_cluster=30), ("distance",))
    >>> effect["row values"]["generator"] == effect["row values"]["shuffled"]
    True
    """
    _, progress = resolve(None, progress)
    X, y = load(data)
    n, d = X.shape
    k = int(np.unique(y).size)
    perm = np.random.default_rng(shuffle_seed).permutation(n)
    cap = psi_limit(t, d) if max_psi is None else max_psi
    orders = {"generator": (X, y), "shuffled": (X[perm], y[perm])}
    effect: dict = {}
    steps = [(r, o, m) for r in ("row index", "row values") for o in orders for m in measures]
    for i, (rule, order, m) in enumerate(steps):
        progress(i / len(steps), f"{rule}, {order}, {m}")
        check_measure("density_peaks", m)
        name, values = param_grid(m)
        if name == "ψ":
            values = tuple(dict.fromkeys(min(v, n) for v in values if v <= cap))
        Xo, yo = orders[order]
        best = max(float(np.max(_density_peaks_trial(estimator(
            "density_peaks", m, v, n_clusters=k, n=n, d=d, t=t, seed=seed).set_params(ties=rule), Xo, yo, None)[-1]))
            for v in values)
        effect.setdefault(rule, {}).setdefault(order, {})[m] = best
    progress(1.0, "done")
    return effect


__all__ = ["Data", "Params", "Result", "Evaluation", "Sweep", "run", "evaluate", "estimator", "sweep", "load",
           "projection",
           "summary", "WGaussiansParams", "WGaussiansResult", "run_wgaussians", "psi_limit", "PAPER_TABLE3",
           "PAPER_FIG2", "TABLE3_COLUMNS", "row_order_effect"]
