"""Online lab: mistake rate along a stream for FOGD, NOGD, IK+OGD and RandLocal+OGD (lu2016 §7, wang2017).

:func:`make_stream` builds a seeded permutation of a dataset; :func:`run_method` runs one
learner (a classifier of :mod:`ikviz.learn`, built by :func:`make_learner`) over it (the
page caches each separately); :func:`run` runs them all.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from ..data import density_ratio, load, w_gaussians
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
    bundled real dataset (features min-max scaled to [0, 1], as usual for online learners).
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


#: lu2016's step sizes {2, 0.2, ..., 0.0002}
ETAS = (2.0, 0.2, 0.02, 0.002, 0.0002)
#: examples of the separate stream each step size is tried on
TUNING_EXAMPLES = 2000


def make_stream(dataset: str, n: int, seed: int, ratio: float = 10.0, w: int = 10):
    """(X, y): a seeded random order of ``dataset``, at most ``n`` rows."""
    if n < 10:
        raise ValueError(f"the stream needs at least 10 examples; got n={n}.")
    if dataset == "density-ratio":
        X, y = density_ratio(n + n % 2, ratio, seed=seed)
    elif dataset == "w-gaussians":
        X, y = w_gaussians((n + 1) // 2, w=w, seed=seed)
    else:
        X, y = load(dataset, scale="minmax")
    order = np.random.default_rng(seed).permutation(len(y))[:n]
    return X[order], y[order]


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
    X, y = memo(make_stream)(p.dataset, p.n, p.seed, p.ratio, p.w)
    return run_method(method, X, y, p, eta)


def tune_eta(method: str, p: Params) -> tuple[float, dict[float, float]]:
    """The step size of :data:`ETAS` with the fewest mistakes for ``method``, and each one's mistake rate.

    lu2016 tunes every learner's step size by cross-validation on its training
    data. A stream has no held-out part, so each step size is tried on a
    separate stream: the same data in another seeded order (fresh points for
    the generated data), at most :data:`TUNING_EXAMPLES` long. The stream the
    page reports is never used to choose.
    """
    X, y = make_stream(p.dataset, min(p.n, TUNING_EXAMPLES), p.seed + 1, p.ratio, p.w)
    rates = {eta: run_method(method, X, y, p, eta).mistake_rate for eta in ETAS}
    return min(rates, key=rates.get), rates


def step_size(method: str, p: Params) -> float:
    """``method``'s step size under ``p``: tuned (:func:`tune_eta`) or ``p.eta``."""
    return tune_eta(method, p)[0] if p.tune_eta else p.eta


@dataclass(frozen=True)
class Result:
    params: Params
    results: tuple  # StreamResult per method
    etas: tuple = ()  # the step size each method used (default: params.eta for all)

    def table(self) -> list[dict]:
        """Final mistake rate, step size, seconds, examples per second and feature count per method."""
        n = self.results[0].mistakes.size if self.results else 0
        etas = self.etas or (self.params.eta,) * len(self.results)
        return [{"method": r.method, "mistake rate": r.mistake_rate, "η": eta, "seconds": r.seconds,
                 "examples/s": n / r.seconds if r.seconds > 0 else float("inf"), "features": r.n_features}
                for r, eta in zip(self.results, etas)]


def run(p: Params, *, memo: Memo | None = None, progress: Progress | None = None) -> Result:
    """Run every method of ``p`` on the same stream (each method's step size and pass a block of ``memo``)."""
    memo, progress = resolve(memo, progress)
    out, etas = [], []
    for i, m in enumerate(p.methods):
        if p.tune_eta:
            progress(i / len(p.methods), f"{m}: trying {len(ETAS)} step sizes")
        etas.append(memo(step_size)(m, p))
        progress((i + 0.5) / len(p.methods), f"{m}: one pass over {p.n:,} examples")
        out.append(memo(learn)(m, p, etas[-1]))
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


def run_repro(p: ReproParams, *, memo: Memo | None = None, progress: Progress | None = None) -> dict:
    """{dataset: {method: {"mistake rate": (mean, std), "seconds": (mean, std)}}} with default learner settings."""
    memo, progress = resolve(memo, progress)
    out = {}
    for j, name in enumerate(p.datasets):
        per = {m: ([], []) for m in METHODS}
        for s in range(p.seed, p.seed + p.n_seeds):
            step = (j * p.n_seeds + s - p.seed) / (len(p.datasets) * p.n_seeds)
            res = run(Params(dataset=name, n=p.n, seed=s, tune_eta=p.tune_eta), memo=memo,
                      progress=within(progress, step, step + 1 / (len(p.datasets) * p.n_seeds), f"{name}, seed {s}"))
            for r in res.results:
                per[r.method][0].append(r.mistake_rate)
                per[r.method][1].append(r.seconds)
        out[name] = {m: {"mistake rate": (float(np.mean(a)), float(np.std(a, ddof=1)) if len(a) > 1 else 0.0),
                         "seconds": (float(np.mean(b)), float(np.std(b, ddof=1)) if len(b) > 1 else 0.0)}
                     for m, (a, b) in per.items()}
    return out
