"""Online lab: mistake rate along a stream for FOGD, NOGD, IK+OGD and RandLocal+OGD (lu2016 §7, wang2017).

:func:`make_stream` builds a seeded permutation of a dataset; :func:`run_method` runs one
learner over it (the page caches each separately); :func:`run` runs them all.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from sklearn.preprocessing import MinMaxScaler

from ..data import density_ratio, load_dataset, w_gaussians
from ..learn.online import METHODS, StreamResult, fogd, ik_ogd, nogd, randlocal_ogd

STREAMS = ("density-ratio", "w-gaussians")


@dataclass(frozen=True)
class Params:
    """Stream and learner settings.

    ``dataset`` is "density-ratio" (``n`` points at ``ratio``:1), "w-gaussians" (w = ``w``) or a
    bundled real dataset (features min-max scaled to [0, 1], as usual for online learners).
    The stream is a seeded permutation of the rows, truncated to ``n`` rows. The Gaussian
    kernel of FOGD and NOGD is exp(-gamma |x - y|^2); ``eta`` is every learner's step size.
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


def make_stream(dataset: str, n: int, seed: int, ratio: float = 10.0, w: int = 10):
    """(X, y): a seeded random order of ``dataset``, at most ``n`` rows."""
    if n < 10:
        raise ValueError(f"the stream needs at least 10 examples; got n={n}.")
    if dataset == "density-ratio":
        X, y = density_ratio(n + n % 2, ratio, seed=seed)
    elif dataset == "w-gaussians":
        X, y = w_gaussians((n + 1) // 2, w=w, seed=seed)
    else:
        X, y = load_dataset(dataset)
        X = MinMaxScaler().fit_transform(X)
    order = np.random.default_rng(seed).permutation(len(y))[:n]
    return X[order], y[order]


def run_method(method: str, X, y, p: Params) -> StreamResult:
    """One pass of ``method`` (see :data:`ikviz.learn.METHODS`) over the stream (X, y)."""
    if method == "FOGD":
        return fogd(X, y, n_components=p.D, gamma=p.gamma, eta=p.eta, seed=p.seed)
    if method == "NOGD":
        return nogd(X, y, budget=p.B, gamma=p.gamma, eta=p.eta)
    if method == "IK+OGD":
        return ik_ogd(X, y, psi=p.psi, t=p.t, eta=p.eta, prefix=p.prefix, seed=p.seed)
    if method == "RandLocal+OGD":
        return randlocal_ogd(X, y, n_sets=p.n_sets, max_anchors=p.max_anchors, eta=p.eta, prefix=p.prefix,
                             seed=p.seed)
    raise ValueError(f"method must be one of {METHODS}; got {method!r}.")


@dataclass(frozen=True)
class Result:
    params: Params
    results: tuple  # StreamResult per method

    def table(self) -> list[dict]:
        """Final mistake rate, seconds, examples per second and feature count per method."""
        n = self.results[0].mistakes.size if self.results else 0
        return [{"method": r.method, "mistake rate": r.mistake_rate, "seconds": r.seconds,
                 "examples/s": n / r.seconds if r.seconds > 0 else float("inf"), "features": r.n_features}
                for r in self.results]


def run(p: Params, progress=None) -> Result:
    """Run every method of ``p`` on the same stream; ``progress(fraction)`` after each method."""
    X, y = make_stream(p.dataset, p.n, p.seed, p.ratio, p.w)
    out = []
    for i, m in enumerate(p.methods):
        out.append(run_method(m, X, y, p))
        if progress:
            progress((i + 1) / len(p.methods))
    return Result(p, tuple(out))


@dataclass(frozen=True)
class ReproParams:
    """lu2016 §7 style: each method on several streams, ``n_seeds`` random orders each."""

    datasets: tuple = ("ijcnn1-10k", "spambase", "letter")
    n: int = 10000
    n_seeds: int = 5
    seed: int = 0


def run_repro(p: ReproParams) -> dict:
    """{dataset: {method: {"mistake rate": (mean, std), "seconds": (mean, std)}}} with default learner settings."""
    out = {}
    for name in p.datasets:
        per = {m: ([], []) for m in METHODS}
        for s in range(p.seed, p.seed + p.n_seeds):
            res = run(Params(dataset=name, n=p.n, seed=s))
            for r in res.results:
                per[r.method][0].append(r.mistake_rate)
                per[r.method][1].append(r.seconds)
        out[name] = {m: {"mistake rate": (float(np.mean(a)), float(np.std(a, ddof=1)) if len(a) > 1 else 0.0),
                         "seconds": (float(np.mean(b)), float(np.std(b, ddof=1)) if len(b) > 1 else 0.0)}
                     for m, (a, b) in per.items()}
    return out
