"""Online lab: mistake rate along a stream for FOGD, NOGD, IK+OGD and RandLocal+OGD (lu2016 §7, wang2017).

Every experiment follows :mod:`ikviz.runner`, ``fn(params, *, memo=None, progress=None)``:
:func:`run` runs every learner of :class:`Params` over one stream (the page's view), and
:func:`run_repro` repeats it over data sets and stream orders (lu2016 §7).

Their building blocks, each a block of ``memo``: :func:`make_stream` (a seeded
permutation of a data set), :func:`step_size` (a learner's step size, tuned by
:func:`tune_eta` on a separate stream) and :func:`learn` (one learner's pass, see
:func:`run_method`). A learner's blocks are keyed by the settings it reads
(:func:`learner_params`), so moving FOGD's D does not rerun IK+OGD.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, fields, replace

import numpy as np

from ..data import canonical_name, dataset_label, load
from ..learn import FOGDClassifier, IKOGDClassifier, NOGDClassifier, RandLocalOGDClassifier
from ..params import setting
from ..runner import Memo, Progress, resolve, within
from .classification import DATASETS, GAMMAS, PSIS, power_label

#: the learners of the lab, in the order they are shown
METHODS = ("FOGD", "NOGD", "IK+OGD", "RandLocal+OGD")
#: lu2016's step sizes {2, 0.2, ..., 0.0002}
ETAS = (2.0, 0.2, 0.02, 0.002, 0.0002)
#: examples of the separate stream each step size is tried on
TUNING_EXAMPLES = 2000
#: ``Params.gamma``'s value for a Gaussian kernel width set from the stream (:func:`scale_gamma`)
PER_DATA_SET = "per data set"


def gamma_label(value) -> str:
    """A γ choice: a word ("per data set") as it is, a number as a power of two (:func:`power_label`).

    Examples
    --------
    >>> from ikviz.experiments.online import gamma_label
    >>> gamma_label("per data set"), gamma_label(0.125)
    ('per data set', '2^-3')
    """
    return value if isinstance(value, str) else power_label(value)


@dataclass(frozen=True)
class StreamResult:
    """What one learner did on one pass over a stream (returned by :func:`run_method`).

    Examples
    --------
    >>> import numpy as np
    >>> from ikviz.experiments.online import StreamResult
    >>> r = StreamResult("FOGD", np.array([True, True, False, False]), 0.1, 400)
    >>> r.mistake_rate
    0.5
    >>> r.curve(4)
    (array([1, 2, 3, 4]), array([1.        , 1.        , 0.66666667, 0.5       ]))
    """

    method: str
    mistakes: np.ndarray  # bool (n,), in stream order
    seconds: float  # map fitting + mapping + learning
    n_features: int
    gamma: float | None = None  # the Gaussian kernel's gamma (FOGD, NOGD); None for the other learners

    @property
    def mistake_rate(self) -> float:
        """Mistakes over the whole stream divided by its length."""
        return float(self.mistakes.mean())

    def curve(self, n_points: int = 200) -> tuple[np.ndarray, np.ndarray]:
        """Running mistake rate at ``n_points`` positions: (examples seen, mistakes / examples seen)."""
        n = self.mistakes.size
        at = np.unique(np.linspace(1, n, min(n_points, n)).astype(int))
        return at, np.cumsum(self.mistakes)[at - 1] / at


@dataclass(frozen=True)
class Params:
    """Stream and learner settings; the defaults are the page's view.

    ``dataset`` is "density-ratio" (``n`` points at ``ratio``:1), "w-gaussians" (w = ``w``) or a
    bundled real dataset, its features scaled by ``scale`` ("minmax": to [0, 1], as usual for
    online learners; None: as given, lu2016's setting); underscores are read as hyphens
    (``w_gaussians`` is ``w-gaussians``). The stream is a seeded permutation of the rows,
    truncated to ``n`` rows.

    The Gaussian kernel of FOGD and NOGD is exp(-gamma |x - y|^2) = exp(-|x - y|^2 / (2 sigma^2)),
    so gamma = 1 / (2 sigma^2); lu2016 §7.2.1 sets the bandwidth sigma = 8, i.e.
    gamma = 1/128 (:data:`LU2016_GAMMA`), on the features as given. ``gamma="per data set"``
    (:data:`PER_DATA_SET`, the default; None says the same) sets it per data set from the stream's
    rows, gamma = 1 / (d Var X) (:func:`scale_gamma`, scikit-learn SVC's ``gamma="scale"``): one
    fixed gamma cannot suit every data set (on the min-max scaled data, gamma = 1 leaves FOGD on a9a
    at 46% mistakes against 24% for predicting the majority class, and gamma = 1/128 leaves it at
    the majority rate on spambase).
    ``eta`` is every learner's step size, unless ``tune_eta``: then each learner gets its own
    from :data:`ETAS` (see :func:`tune_eta`).

    Examples
    --------
    >>> from ikviz.experiments.online import Params
    >>> Params().gamma, Params(gamma=None) == Params(), Params().scale
    ('per data set', True, 'minmax')
    >>> sorted(Params.hidden({"tune_eta": True}))
    ['eta']
    """

    dataset: str = setting("letter", "stream", choices=DATASETS, url="o_data", format=dataset_label,
                           help="The rows in a seeded random order; real data min-max scaled to [0, 1].")
    n: int = setting(10000, "stream length", choices=(2000, 5000, 10000, 20000, 50000), url="o_n")
    seed: int = setting(0, "seed (stream order, maps)", low=0, high=10_000, url="o_seed")
    # lu2016: D = 4B, B = 100
    D: int = setting(400, "D (Fourier components, FOGD)", choices=(50, 100, 200, 400, 800, 1600))
    B: int = setting(100, "B (budget, NOGD; rank k = 0.2 B)", choices=(25, 50, 100, 200, 400))
    gamma: float | str = setting(PER_DATA_SET, "γ (Gaussian kernel)", choices=(PER_DATA_SET, *GAMMAS),
                                 url="o_gamma", format=gamma_label, widget="select_slider",
                                 help="per data set: γ = 1 / (d · Var X) of the stream (scikit-learn's "
                                      "gamma=\"scale\"); one fixed γ cannot suit every data set. lu2016 uses "
                                      "σ = 8, i.e. γ = 2^-7, on its features as given.")
    psi: int = setting(64, "ψ (IK)", choices=PSIS[:9], url="o_psi")
    t: int = setting(100, "t (IK)", choices=(25, 50, 100, 200, 400), url="o_t")
    prefix: int = setting(1000, "prefix for IK / RandLocal", choices=(200, 500, 1000, 2000, 5000),
                          help="IK samples and RandLocal anchors come from the first rows of the stream "
                               "(their features only).")
    n_sets: int = setting(100, "T (RandLocal anchor sets)", choices=(25, 50, 100, 200, 400))
    max_anchors: int = setting(1024, "max anchors per set (RandLocal)", choices=(64, 128, 256, 512, 1024),
                               url="anchors")
    tune_eta: bool = setting(True, "tune η per learner",
                             help=f"lu2016 tunes each learner's step size. Each η in "
                                  f"{{{', '.join(f'{e:g}' for e in ETAS)}}} is tried on a separate "
                                  f"{TUNING_EXAMPLES:,}-example stream (the same data in another order) "
                                  "and the one with the fewest mistakes is used.")
    eta: float = setting(0.2, "η (step size, all learners)", choices=tuple(sorted(ETAS)),
                         help="Used by every learner when η is not tuned.")
    ratio: float = 10.0
    w: int = 10
    methods: tuple = METHODS
    scale: str | None = "minmax"  # real data: "minmax" (to [0, 1]), "standard" or None (as given)

    def __post_init__(self):
        object.__setattr__(self, "dataset", canonical_name(self.dataset))
        if self.gamma is None:
            object.__setattr__(self, "gamma", PER_DATA_SET)

    @staticmethod
    def hidden(values: dict) -> set[str]:
        """The settings that do not apply given the values chosen so far (see :func:`ikviz.params.hidden`)."""
        return {"eta"} if values.get("tune_eta", True) else set()


#: lu2016 §7.2.1's Gaussian kernel bandwidth sigma = 8 as gamma = 1 / (2 sigma^2)
LU2016_GAMMA = 1.0 / (2 * 8.0**2)


def scale_gamma(X) -> float:
    """gamma = 1 / (d Var X), the Gaussian kernel's width set from the rows (scikit-learn's ``gamma="scale"``).

    ``Var X`` is the variance of all entries of ``X``; labels are not used.

    Examples
    --------
    >>> import numpy as np
    >>> from ikviz.experiments.online import scale_gamma
    >>> scale_gamma(np.array([[0.0, 0.0], [1.0, 1.0]]))
    2.0
    """
    X = np.asarray(X, dtype=np.float64)
    var = float(X.var())
    return 1.0 / (X.shape[1] * var) if var > 0 else 1.0


#: the settings each learner reads, besides the stream's and its step size
OWN_SETTINGS = {"FOGD": ("D", "gamma"), "NOGD": ("B", "gamma"), "IK+OGD": ("psi", "t", "prefix"),
                "RandLocal+OGD": ("n_sets", "max_anchors", "prefix")}


def learner_params(method: str, p: Params) -> Params:
    """``p`` with every setting ``method`` does not read put back to its default: the key of its blocks.

    Examples
    --------
    >>> from ikviz.experiments.online import Params, learner_params
    >>> a, b = Params(D=100, psi=16), Params(D=800, psi=16)
    >>> learner_params("IK+OGD", a) == learner_params("IK+OGD", b)
    True
    >>> learner_params("FOGD", a) == learner_params("FOGD", b)
    False
    """
    if method not in OWN_SETTINGS:
        raise ValueError(f"method must be one of {METHODS}; got {method!r}.")
    keep = {"dataset", "n", "seed", "tune_eta", "scale", *OWN_SETTINGS[method]}
    keep |= {"density-ratio": {"ratio"}, "w-gaussians": {"w"}}.get(p.dataset, set())
    if not p.tune_eta:
        keep.add("eta")
    default = Params()
    return replace(p, methods=(method,), **{f.name: getattr(default, f.name) for f in fields(Params)
                                            if f.name not in keep and f.name != "methods"})


def make_stream(dataset: str, n: int, seed: int, ratio: float = 10.0, w: int = 10, scale: str | None = "minmax"):
    """(X, y): a seeded random order of ``dataset``, at most ``n`` rows; real data scaled by ``scale``.

    Examples
    --------
    >>> from ikviz.experiments.online import make_stream
    >>> X, y = make_stream("w_gaussians", 50, seed=0, w=3)
    >>> X.shape, y.shape
    ((50, 6), (50,))
    """
    if n < 10:
        raise ValueError(f"the stream needs at least 10 examples; got n={n}.")
    dataset = canonical_name(dataset)
    if dataset == "density-ratio":
        X, y = load(dataset, n=n + n % 2, ratio=ratio, seed=seed)
    elif dataset == "w-gaussians":
        X, y = load(dataset, n_per_cluster=(n + 1) // 2, w=w, seed=seed)
    else:
        X, y = load(dataset, scale=scale)
    order = np.random.default_rng(seed).permutation(len(y))[:n]
    return X[order], y[order]


def _stream_of(p: Params, n: int, seed: int, memo: Memo):
    return memo(make_stream)(p.dataset, n, seed, p.ratio, p.w, p.scale)


def make_learner(method: str, p: Params, eta: float | None = None, X=None):
    """The unfitted classifier of ``method`` (:data:`METHODS`) with ``p``'s settings; ``eta`` defaults to ``p.eta``.

    With ``p.gamma`` "per data set", FOGD's and NOGD's gamma is :func:`scale_gamma` of the stream ``X``.

    Examples
    --------
    >>> import numpy as np
    >>> from ikviz.experiments.online import Params, make_learner
    >>> make_learner("FOGD", Params(gamma=0.5)).gamma
    0.5
    >>> make_learner("NOGD", Params(), X=np.array([[0.0, 0.0], [1.0, 1.0]])).gamma
    2.0
    """
    eta = p.eta if eta is None else eta
    if method in ("FOGD", "NOGD"):
        if p.gamma == PER_DATA_SET and X is None:
            raise ValueError(f"gamma={PER_DATA_SET!r} sets the kernel width from the stream: pass its rows X.")
        gamma = scale_gamma(X) if p.gamma == PER_DATA_SET else p.gamma
        if method == "FOGD":
            return FOGDClassifier(n_components=p.D, gamma=gamma, eta=eta, random_state=p.seed)
        return NOGDClassifier(budget=p.B, gamma=gamma, eta=eta)
    if method == "IK+OGD":
        return IKOGDClassifier(psi=p.psi, t=p.t, eta=eta, prefix=p.prefix, random_state=p.seed)
    if method == "RandLocal+OGD":
        return RandLocalOGDClassifier(n_sets=p.n_sets, max_anchors=p.max_anchors, eta=eta, prefix=p.prefix,
                                      random_state=p.seed)
    raise ValueError(f"method must be one of {METHODS}; got {method!r}.")


def run_method(method: str, X, y, p: Params, eta: float | None = None) -> StreamResult:
    """One pass of ``method`` (see :data:`METHODS`) over (X, y) with step size ``eta`` or ``p.eta``."""
    t0 = time.perf_counter()
    clf = make_learner(method, p, eta, X)
    clf.fit(X, y)
    seconds = time.perf_counter() - t0
    width = clf.coef_.shape[1] if clf.coef_ is not None else len(clf.support_vectors_)
    return StreamResult(method, np.array(clf.mistakes_), seconds, int(width), getattr(clf, "gamma", None))


def learn(method: str, p: Params, eta: float, *, memo: Memo | None = None) -> StreamResult:
    """One pass of ``method`` over ``p``'s stream with step size ``eta`` (a block of :func:`run`)."""
    memo, _ = resolve(memo, None)
    X, y = _stream_of(p, p.n, p.seed, memo)
    return run_method(method, X, y, p, eta)


def tune_eta(method: str, p: Params, *, memo: Memo | None = None,
             progress: Progress | None = None) -> tuple[float, dict[float, float]]:
    """The step size of :data:`ETAS` with the fewest mistakes for ``method``, and each one's mistake rate.

    lu2016 tunes every learner's step size by cross-validation on its training
    data. A stream has no held-out part, so each step size is tried on a
    separate stream: the same data in another seeded order (fresh points for
    the generated data), at most :data:`TUNING_EXAMPLES` long. The stream the
    page reports is never used to choose.
    """
    memo, progress = resolve(memo, progress)
    X, y = _stream_of(p, min(p.n, TUNING_EXAMPLES), p.seed + 1, memo)
    rates = {}
    for i, eta in enumerate(ETAS):
        progress(i / len(ETAS), f"step size {i + 1} of {len(ETAS)}")
        rates[eta] = run_method(method, X, y, p, eta).mistake_rate
    return min(rates, key=rates.get), rates


def step_size(method: str, p: Params, *, memo: Memo | None = None, progress: Progress | None = None) -> float:
    """``method``'s step size under ``p``: tuned (:func:`tune_eta`) or ``p.eta`` (a block of :func:`run`)."""
    return tune_eta(method, p, memo=memo, progress=progress)[0] if p.tune_eta else p.eta


@dataclass(frozen=True)
class Result:
    """What :func:`run` found: each learner's pass and the step size it used."""

    params: Params
    results: tuple  # StreamResult per method, in params.methods order
    etas: tuple  # the step size each method used

    def table(self) -> list[dict]:
        """Final mistake rate, step size, seconds, examples per second and feature count per method."""
        n = self.results[0].mistakes.size if self.results else 0
        return [{"method": r.method, "mistake rate": r.mistake_rate, "η": eta, "γ": r.gamma, "seconds": r.seconds,
                 "examples/s": n / r.seconds if r.seconds > 0 else float("inf"), "features": r.n_features}
                for r, eta in zip(self.results, self.etas)]


def run(params: Params, *, memo: Memo | None = None, progress: Progress | None = None) -> Result:
    """Run every learner of ``params`` over the same stream.

    Each learner's step size (:func:`step_size`) and pass (:func:`learn`) is a
    block of ``memo``, keyed by the settings that learner reads
    (:func:`learner_params`); ``progress(fraction, text)`` reports each stage
    ("IK+OGD: one pass over 10,000 examples").

    Examples
    --------
    >>> from ikviz.experiments.online import Params, run
    >>> res = run(Params(dataset="density-ratio", n=200, prefix=100, psi=16, methods=("FOGD", "IK+OGD"),
    ...               tune_eta=False),
    ...           progress=lambda f, text: print(f"{f:.2f} {text}"))
    0.00 FOGD: one pass over 200 examples
    0.50 IK+OGD: one pass over 200 examples
    1.00 done
    >>> [row["method"] for row in res.table()], res.etas
    (['FOGD', 'IK+OGD'], (0.2, 0.2))
    """
    memo, progress = resolve(memo, progress)
    p, out, etas = params, [], []
    for i, m in enumerate(p.methods):
        q = learner_params(m, p)
        passing = (i + 0.5) / len(p.methods) if p.tune_eta else i / len(p.methods)
        if p.tune_eta:
            tuning = within(progress, i / len(p.methods), passing, f"{m}: tuning η")
            etas.append(memo(step_size)(m, q, progress=tuning))
        else:
            etas.append(p.eta)
        progress(passing, f"{m}: one pass over {p.n:,} examples")
        # keyed by the step size used, tuned or not: the same pass either way
        out.append(memo(learn)(m, replace(q, tune_eta=False, eta=etas[-1]), etas[-1]))
    progress(1.0, "done")
    return Result(p, tuple(out), tuple(etas))


#: lu2016 Table 5 (online binary classification, B = 100, D = 4B, sigma = 8, 20 random orders), the
#: rows of FOGD and NOGD for the data sets ikviz ships: mistake rate (mean, std) and seconds, as printed
#: ("29.9 % ± 0.7" is (0.299, 0.007)); ``rows`` is the paper's data size (Table 4). ijcnn1-10k is a
#: 10,000-row sample of the paper's 141,691-row ijcnn1; the paper's a9a is train + test (48,842 rows),
#: ikviz's ``a9a`` the 32,561-row training part.
PAPER_TABLE5 = {
    "german": {"rows": 1000, "FOGD": {"mistake rate": (0.299, 0.007), "seconds": 0.045},
               "NOGD": {"mistake rate": (0.304, 0.008), "seconds": 0.109}},
    "spambase": {"rows": 4601, "FOGD": {"mistake rate": (0.269, 0.010), "seconds": 0.263},
                 "NOGD": {"mistake rate": (0.291, 0.004), "seconds": 0.633}},
    "a9a": {"rows": 48842, "FOGD": {"mistake rate": (0.174, 0.001), "seconds": 1.8},
            "NOGD": {"mistake rate": (0.174, 0.002), "seconds": 15.6}},
    "ijcnn1-10k": {"rows": 141691, "FOGD": {"mistake rate": (0.0906, 0.0005), "seconds": 3.3},
                   "NOGD": {"mistake rate": (0.0955, 0.0001), "seconds": 19.1}},
}


@dataclass(frozen=True)
class ReproParams:
    """lu2016 §7.2 (Table 5): each learner on several data sets, ``n_seeds`` random orders each.

    The paper's settings are the defaults: features as given (``scale=None``), Gaussian
    bandwidth sigma = 8 (``gamma`` = 1 / (2 sigma^2) = 1/128), B = 100, D = 4B = 400,
    k = 0.2 B, η tuned over {2, 0.2, ..., 0.0002} per learner, every row of each data set
    (``n=None``). The paper averages 20 orders; ``n_seeds`` defaults to 5.

    Examples
    --------
    >>> from ikviz.experiments.online import LU2016_GAMMA, ReproParams
    >>> ReproParams().gamma == LU2016_GAMMA == 1 / 128
    True
    """

    datasets: tuple = ("german", "spambase", "a9a")
    n: int | None = None  # rows of each stream; None: every row
    n_seeds: int = 5
    seed: int = 0
    tune_eta: bool = True
    methods: tuple = METHODS
    gamma: float | None = LU2016_GAMMA
    scale: str | None = None


@dataclass(frozen=True)
class ReproResult:
    """What :func:`run_repro` found: ``summary`` (JSON numbers) and the first order's :class:`Result` per data set."""

    params: ReproParams
    summary: dict
    first: dict  # dataset -> Result of the first order (its mistake curves)


def run_repro(params: ReproParams, *, memo: Memo | None = None, progress: Progress | None = None) -> ReproResult:
    """Every learner on every data set in ``n_seeds`` orders, beside lu2016 Table 5 and the majority class.

    ``summary[dataset]`` holds ``"rows"`` (the stream length), ``"majority"`` (the mistake
    rate of always predicting the stream's most frequent class, mean over orders),
    ``"methods"`` ({method: {"mistake rate": (mean, std), "seconds": (mean, std),
    "eta": [per order], "gamma": γ of the first order or None}}) and ``"paper"``
    (:data:`PAPER_TABLE5`'s entry, or None). Std is over orders (ddof = 1).

    Examples
    --------
    >>> from ikviz.experiments.online import ReproParams, run_repro
    >>> res = run_repro(ReproParams(datasets=("german",), n=300, n_seeds=2, methods=("FOGD",), tune_eta=False))
    >>> sorted(res.summary["german"]), sorted(res.summary["german"]["methods"]["FOGD"])
    (['majority', 'methods', 'paper', 'rows'], ['eta', 'gamma', 'mistake rate', 'seconds'])
    """
    memo, progress = resolve(memo, progress)
    p, out, first = params, {}, {}
    runs = len(p.datasets) * p.n_seeds

    def mean_std(a):
        return float(np.mean(a)), float(np.std(a, ddof=1)) if len(a) > 1 else 0.0

    for j, name in enumerate(p.datasets):
        n = p.n if p.n is not None else len(load(name)[1])
        per = {m: ([], [], []) for m in p.methods}
        majority = []
        gammas = {}
        for s in range(p.seed, p.seed + p.n_seeds):
            step = (j * p.n_seeds + s - p.seed) / runs
            q = Params(dataset=name, n=n, seed=s, tune_eta=p.tune_eta, methods=tuple(p.methods), gamma=p.gamma,
                       scale=p.scale)
            res = run(q, memo=memo, progress=within(progress, step, step + 1 / runs, f"{name}, seed {s}"))
            first.setdefault(name, res)
            _, y = _stream_of(q, q.n, q.seed, memo)
            n = len(y)
            majority.append(1.0 - max(np.mean(y == c) for c in np.unique(y)))
            for r, eta in zip(res.results, res.etas):
                per[r.method][0].append(r.mistake_rate)
                per[r.method][1].append(r.seconds)
                per[r.method][2].append(float(eta))
                gammas.setdefault(r.method, r.gamma)
        out[canonical_name(name)] = {
            "rows": int(n), "majority": float(np.mean(majority)),
            "methods": {m: {"mistake rate": mean_std(a), "seconds": mean_std(b), "eta": c,
                            "gamma": gammas.get(m)} for m, (a, b, c) in per.items()},
            "paper": PAPER_TABLE5.get(canonical_name(name))}
    progress(1.0, "done")
    return ReproResult(p, out, first)
