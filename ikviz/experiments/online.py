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

from ..data import canonical_name, load
from ..learn import FOGDClassifier, IKOGDClassifier, NOGDClassifier, RandLocalOGDClassifier
from ..runner import Memo, Progress, resolve, within

#: the learners of the lab, in the order they are shown
METHODS = ("FOGD", "NOGD", "IK+OGD", "RandLocal+OGD")


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
    """Stream and learner settings.

    ``dataset`` is "density-ratio" (``n`` points at ``ratio``:1), "w-gaussians" (w = ``w``) or a
    bundled real dataset (features min-max scaled to [0, 1], as usual for online learners);
    underscores are read as hyphens (``w_gaussians`` is ``w-gaussians``).
    The stream is a seeded permutation of the rows, truncated to ``n`` rows. The Gaussian
    kernel of FOGD and NOGD is exp(-gamma |x - y|^2); ``eta`` is every learner's step size,
    unless ``tune_eta``: then each learner gets its own from :data:`ETAS` (see :func:`tune_eta`).
    """

    dataset: str = "ijcnn1-10k"
    n: int = 10000
    ratio: float = 10.0
    w: int = 10
    methods: tuple = METHODS
    D: int = 400  # Fourier components (lu2016: D = 4B)
    B: int = 100  # NOGD budget (lu2016: B = 100, k = 0.2 B)
    gamma: float = 1.0
    psi: int = 64
    t: int = 100
    n_sets: int = 100
    max_anchors: int = 1024
    eta: float = 0.2
    prefix: int = 1000
    seed: int = 0
    tune_eta: bool = False

    def __post_init__(self):
        object.__setattr__(self, "dataset", canonical_name(self.dataset))


#: the settings each learner reads, besides the stream's and its step size
OWN_SETTINGS = {"FOGD": ("D", "gamma"), "NOGD": ("B", "gamma"), "IK+OGD": ("psi", "t", "prefix"),
                "RandLocal+OGD": ("n_sets", "max_anchors", "prefix")}
#: lu2016's step sizes {2, 0.2, ..., 0.0002}
ETAS = (2.0, 0.2, 0.02, 0.002, 0.0002)
#: examples of the separate stream each step size is tried on
TUNING_EXAMPLES = 2000


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
    keep = {"dataset", "n", "seed", "tune_eta", *OWN_SETTINGS[method]}
    keep |= {"density-ratio": {"ratio"}, "w-gaussians": {"w"}}.get(p.dataset, set())
    if not p.tune_eta:
        keep.add("eta")
    default = Params()
    return replace(p, methods=(method,), **{f.name: getattr(default, f.name) for f in fields(Params)
                                            if f.name not in keep and f.name != "methods"})


def make_stream(dataset: str, n: int, seed: int, ratio: float = 10.0, w: int = 10):
    """(X, y): a seeded random order of ``dataset``, at most ``n`` rows.

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
        X, y = load(dataset, scale="minmax")
    order = np.random.default_rng(seed).permutation(len(y))[:n]
    return X[order], y[order]


def _stream_of(p: Params, n: int, seed: int, memo: Memo):
    return memo(make_stream)(p.dataset, n, seed, p.ratio, p.w)


def make_learner(method: str, p: Params, eta: float | None = None):
    """The unfitted classifier of ``method`` (:data:`METHODS`) with ``p``'s settings; ``eta`` defaults to ``p.eta``."""
    eta = p.eta if eta is None else eta
    if method == "FOGD":
        return FOGDClassifier(n_components=p.D, gamma=p.gamma, eta=eta, random_state=p.seed)
    if method == "NOGD":
        return NOGDClassifier(budget=p.B, gamma=p.gamma, eta=eta)
    if method == "IK+OGD":
        return IKOGDClassifier(psi=p.psi, t=p.t, eta=eta, prefix=p.prefix, random_state=p.seed)
    if method == "RandLocal+OGD":
        return RandLocalOGDClassifier(n_sets=p.n_sets, max_anchors=p.max_anchors, eta=eta, prefix=p.prefix,
                                      random_state=p.seed)
    raise ValueError(f"method must be one of {METHODS}; got {method!r}.")


def run_method(method: str, X, y, p: Params, eta: float | None = None) -> StreamResult:
    """One pass of ``method`` (see :data:`METHODS`) over (X, y) with step size ``eta`` or ``p.eta``."""
    clf = make_learner(method, p, eta)
    t0 = time.perf_counter()
    clf.fit(X, y)
    seconds = time.perf_counter() - t0
    width = clf.coef_.shape[1] if clf.coef_ is not None else len(clf.support_vectors_)
    return StreamResult(method, np.array(clf.mistakes_), seconds, int(width))


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
        return [{"method": r.method, "mistake rate": r.mistake_rate, "η": eta, "seconds": r.seconds,
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
    >>> res = run(Params(dataset="density-ratio", n=200, prefix=100, psi=16, methods=("FOGD", "IK+OGD")),
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


@dataclass(frozen=True)
class ReproParams:
    """lu2016 §7 style: each method on several streams, ``n_seeds`` random orders each, η tuned per method."""

    datasets: tuple = ("ijcnn1-10k", "spambase", "letter")
    n: int = 10000
    n_seeds: int = 5
    seed: int = 0
    tune_eta: bool = True


def run_repro(params: ReproParams, *, memo: Memo | None = None, progress: Progress | None = None) -> dict:
    """{dataset: {method: {"mistake rate": (mean, std), "seconds": (mean, std)}}} with default learner settings."""
    memo, progress = resolve(memo, progress)
    p, out = params, {}
    runs = len(p.datasets) * p.n_seeds
    for j, name in enumerate(p.datasets):
        per = {m: ([], []) for m in METHODS}
        for s in range(p.seed, p.seed + p.n_seeds):
            step = (j * p.n_seeds + s - p.seed) / runs
            res = run(Params(dataset=name, n=p.n, seed=s, tune_eta=p.tune_eta), memo=memo,
                      progress=within(progress, step, step + 1 / runs, f"{name}, seed {s}"))
            for r in res.results:
                per[r.method][0].append(r.mistake_rate)
                per[r.method][1].append(r.seconds)
        out[name] = {m: {"mistake rate": (float(np.mean(a)), float(np.std(a, ddof=1)) if len(a) > 1 else 0.0),
                         "seconds": (float(np.mean(b)), float(np.std(b, ddof=1)) if len(b) > 1 else 0.0)}
                     for m, (a, b) in per.items()}
    progress(1.0, "done")
    return out
