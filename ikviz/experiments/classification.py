"""SVM lab: does the Isolation Kernel help an SVM where class densities differ? (ting2018 §3, ting2021 §4.2.3).

Building blocks, each pure and separately cacheable by the page:

* :func:`make_data` -- training and test rows for a :class:`DataSpec`;
* :func:`cv_accuracy` (from :mod:`ikviz.learn.svm`) -- one CV score per candidate value;
* :func:`evaluate` -- fit with chosen parameters, test metrics and timings;
* :func:`decision_regions` -- predictions on a grid for 2-D data;
* :func:`paired_runs` -- the Table 1 protocol repeated over seeds, every kernel on the same data.

:func:`run` strings them together for the CLI and tests.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

import numpy as np
from sklearn.model_selection import train_test_split
from sklearn.preprocessing import MinMaxScaler

from ..data import density_ratio, load_dataset, w_gaussians
from ..learn.svm import KERNELS, LABELS, TUNED, Evaluation, cv_accuracy, fit_evaluate, param_grid
from ..runner import Memo, Progress, resolve, within

SYNTHETIC = ("density-ratio", "w-gaussians")


@dataclass(frozen=True)
class DataSpec:
    """Which data to classify.

    ``dataset`` is "density-ratio" (ting2018 Table 1: ``n`` training points at ``ratio``:1),
    "w-gaussians" (ting2021 Table 4: 2 x ``n // 2`` points in 2w dimensions) or the name of a
    bundled real dataset. Synthetic data get a fresh test sample of ``n_test`` points from the
    same distribution (seed + 1,000,000) when ``fresh_test``; otherwise (and always for real
    data) the rows are split 80/20, stratified. Real data are min-max scaled to [0, 1] on the
    training rows.
    """

    dataset: str = "density-ratio"
    ratio: float = 10.0
    n: int = 500
    w: int = 100
    n_test: int = 20000
    fresh_test: bool = True
    seed: int = 0


def _generate(spec: DataSpec, n: int, seed: int):
    if spec.dataset == "density-ratio":
        return density_ratio(n, spec.ratio, seed=seed)
    return w_gaussians(n // 2, w=spec.w, seed=seed)


def make_data(spec: DataSpec):
    """(X_train, y_train, X_test, y_test) for ``spec``; classes are 0..m-1 (1 = dense class for density-ratio)."""
    if spec.dataset in SYNTHETIC:
        X, y = _generate(spec, spec.n, spec.seed)
        if spec.fresh_test:
            Xt, yt = _generate(spec, spec.n_test, spec.seed + 1_000_000)
            return X, y, Xt, yt
    else:
        X, y = load_dataset(spec.dataset)
        y = np.unique(y, return_inverse=True)[1]
    X_tr, X_te, y_tr, y_te = train_test_split(X, y, test_size=0.2, stratify=y, random_state=spec.seed)
    if spec.dataset not in SYNTHETIC:
        scaler = MinMaxScaler().fit(X_tr)
        X_tr, X_te = scaler.transform(X_tr), np.clip(scaler.transform(X_te), -0.5, 1.5)
    return X_tr, y_tr, X_te, y_te


@dataclass(frozen=True)
class Params:
    """One SVM comparison: data, kernels, and how their parameters are set.

    ``tuning="cv"`` picks each kernel's parameter (gamma for RBF, psi for L_psi and IK) by
    5-fold CV on the training rows over ``grid`` (see :func:`ikviz.learn.svm.param_grid`);
    ``tuning="fixed"`` uses ``gamma`` and ``psi``. C = 1 and t = 100 trees as in ting2018 §4.1.
    """

    data: DataSpec = field(default_factory=DataSpec)
    kernels: tuple = ("rbf", "laplacian", "ik", "ik-linear")
    tuning: str = "cv"
    grid: str = "ting2018"
    gamma: float = 1.0
    psi: int = 16
    t: int = 100
    C: float = 1.0
    ik_method: str = "iforest"
    seed: int = 0
    regions: bool = True          # draw each model's decision regions (2-D data only)


def check_params(p: Params) -> None:
    """Raise ``ValueError`` for settings :func:`run` cannot use."""
    bad = [k for k in p.kernels if k not in KERNELS]
    if bad or not p.kernels:
        raise ValueError(f"kernels must be a non-empty subset of {KERNELS}; got {p.kernels!r}.")
    if p.tuning not in ("cv", "fixed"):
        raise ValueError(f"tuning must be 'cv' or 'fixed'; got {p.tuning!r}.")


def candidates(kernel: str, p: Params, X_train) -> list:
    """The values CV tries for ``kernel`` (a 5-fold training fold has 4/5 of the rows)."""
    if p.tuning == "fixed":
        return []
    return param_grid(kernel, p.grid, n_train=int(len(X_train) * 0.8), d=X_train.shape[1])


def chosen(kernel: str, p: Params, values: list, scores: list) -> dict:
    """The parameter dict for ``kernel``: the best CV value (first on ties) or the fixed slider value."""
    name = TUNED[kernel]
    if name is None:
        return {}
    if p.tuning == "fixed" or not values:
        return {name: p.gamma if name == "gamma" else p.psi}
    return {name: values[int(np.argmax(scores))]}


def cv_score(kernel: str, value, spec: DataSpec, *, C: float, t: int, ik_method: str, seed: int,
             memo: Memo | None = None) -> float:
    """5-fold CV accuracy of ``kernel`` with its tuned parameter at ``value`` (a block of :func:`run`)."""
    memo, _ = resolve(memo, None)
    X, y, _, _ = memo(make_data)(spec)
    return cv_accuracy(kernel, value, X, y, C=C, t=t, ik_method=ik_method, seed=seed)


def fit_and_test(kernel: str, params: tuple, p: Params, *, memo: Memo | None = None) -> tuple[Evaluation, tuple | None]:
    """``kernel`` with ``params`` (``(name, value)`` pairs) fitted and tested, and its decision regions.

    A block of :func:`run`: the regions are drawn only for 2-D data when ``p.regions``.
    """
    memo, _ = resolve(memo, None)
    data = memo(make_data)(p.data)
    ev, model = evaluate(kernel, dict(params), p, data)
    regions = decision_regions(model, data[0]) if p.regions and data[0].shape[1] == 2 else None
    return ev, regions


def evaluate(kernel: str, params: dict, p: Params, data) -> tuple[Evaluation, object]:
    """Fit ``kernel`` with ``params`` on the training rows of ``data``; metrics on its test rows."""
    X, y, Xt, yt = data
    return fit_evaluate(kernel, params, X, y, Xt, yt, C=p.C, t=p.t, ik_method=p.ik_method, seed=p.seed)


def decision_regions(model, X, resolution: int = 120, margin: float = 0.1):
    """(xs, ys, Z): the model's predicted class on a ``resolution`` x ``resolution`` grid around 2-D ``X``."""
    X = np.asarray(X)
    if X.shape[1] != 2:
        raise ValueError(f"decision regions need 2-D data; got {X.shape[1]} features.")
    lo, hi = X.min(axis=0), X.max(axis=0)
    pad = (hi - lo) * margin
    xs = np.linspace(lo[0] - pad[0], hi[0] + pad[0], resolution)
    ys = np.linspace(lo[1] - pad[1], hi[1] + pad[1], resolution)
    gx, gy = np.meshgrid(xs, ys)
    Z = model.predict(np.column_stack([gx.ravel(), gy.ravel()])).reshape(gx.shape)
    return xs, ys, Z


@dataclass(frozen=True)
class Result:
    params: Params
    evaluations: tuple  # Evaluation per kernel, in params.kernels order
    cv: dict  # kernel -> (values, scores)
    regions: dict  # kernel -> (xs, ys, Z) for 2-D data, else empty
    X_train: np.ndarray
    y_train: np.ndarray

    def table(self) -> list[dict]:
        """One row per kernel: parameters, accuracy, FPR, FNR and times."""
        return [{"kernel": e.kernel, **e.params, "accuracy": e.accuracy, "FPR": e.fpr, "FNR": e.fnr,
                 "train s": e.train_seconds, "test s": e.test_seconds} for e in self.evaluations]


def run(p: Params, *, memo: Memo | None = None, progress: Progress | None = None) -> Result:
    """Tune (or fix), fit and evaluate every kernel of ``p`` on one draw of the data.

    Every CV candidate and every final fit is a block of ``memo``;
    ``progress(fraction, text)`` is called before each.
    """
    memo, progress = resolve(memo, progress)
    check_params(p)
    data = memo(make_data)(p.data)
    X, y = data[0], data[1]
    grids = {k: candidates(k, p, X) for k in p.kernels}
    total, done = sum(len(v) for v in grids.values()) + len(p.kernels), 0
    evals, cv, drawn = [], {}, {}
    for k in p.kernels:
        scores = []
        for i, v in enumerate(grids[k], 1):
            progress(done / total, f"{LABELS[k]}: CV {i} of {len(grids[k])}")
            scores.append(memo(cv_score)(k, v, p.data, C=p.C, t=p.t, ik_method=p.ik_method, seed=p.seed))
            done += 1
        cv[k] = (list(grids[k]), scores)
        progress(done / total, f"{LABELS[k]}: fitting and testing")
        ev, regions = memo(fit_and_test)(k, tuple(chosen(k, p, grids[k], scores).items()), p)
        done += 1
        evals.append(ev)
        if regions is not None:
            drawn[k] = regions
    progress(1.0, "done")
    return Result(p, tuple(evals), cv, drawn, X, y)


@dataclass(frozen=True)
class PairedResult:
    """Per-seed metrics of several kernels on the same data (paired), for mean +- std and differences."""

    kernels: tuple
    seeds: tuple
    metrics: dict  # (kernel, "accuracy" | "FPR" | "FNR") -> array over seeds

    def summary(self) -> list[dict]:
        """Mean and standard deviation over seeds per kernel and metric."""
        rows = []
        for k in self.kernels:
            row = {"kernel": k}
            for m in ("accuracy", "FPR", "FNR"):
                v = self.metrics[(k, m)]
                row[m] = float(v.mean())
                row[m + " std"] = float(v.std(ddof=1)) if v.size > 1 else 0.0
            rows.append(row)
        return rows

    def paired_difference(self, a: str, b: str, metric: str = "FPR") -> tuple[float, float, int]:
        """Mean and std over seeds of metric(a) - metric(b), and the number of seeds where a < b."""
        diff = self.metrics[(a, metric)] - self.metrics[(b, metric)]
        return float(diff.mean()), float(diff.std(ddof=1)) if diff.size > 1 else 0.0, int((diff < 0).sum())


def paired_runs(p: Params, seeds, *, memo: Memo | None = None, progress: Progress | None = None) -> PairedResult:
    """Repeat :func:`run` (without decision regions) for each seed; all kernels see the same data per seed."""
    memo, progress = resolve(memo, progress)
    seeds = tuple(int(s) for s in seeds)
    if not seeds:
        raise ValueError("paired_runs needs at least one seed.")
    metrics = {(k, m): np.empty(len(seeds)) for k in p.kernels for m in ("accuracy", "FPR", "FNR")}
    for i, s in enumerate(seeds):
        q = replace(p, seed=s, data=replace(p.data, seed=s), regions=False)
        res = run(q, memo=memo, progress=within(progress, i / len(seeds), (i + 1) / len(seeds), f"seed {s}"))
        for e in res.evaluations:
            metrics[(e.kernel, "accuracy")][i] = e.accuracy
            metrics[(e.kernel, "FPR")][i] = e.fpr
            metrics[(e.kernel, "FNR")][i] = e.fnr
    return PairedResult(tuple(p.kernels), seeds, metrics)


@dataclass(frozen=True)
class DensityRatioParams:
    """ting2018 Table 1: paired runs per density ratio, CV-tuned, large fresh test sample."""

    ratios: tuple = (1.0, 10.0, 20.0)
    n_seeds: int = 10
    n_test: int = 20000
    kernels: tuple = ("rbf", "laplacian", "ik", "ik-linear")
    t: int = 100
    ik_method: str = "iforest"
    seed: int = 0


def run_density_ratio(p: DensityRatioParams, *, memo: Memo | None = None, progress: Progress | None = None) -> dict:
    """{ratio: PairedResult} over seeds ``seed .. seed + n_seeds - 1``."""
    memo, progress = resolve(memo, progress)
    out = {}
    for i, r in enumerate(p.ratios):
        base = Params(data=DataSpec("density-ratio", ratio=float(r), n=500, n_test=p.n_test), kernels=p.kernels,
                      t=p.t, ik_method=p.ik_method)
        sub = within(progress, i / len(p.ratios), (i + 1) / len(p.ratios), f"ratio {r:g}")
        out[float(r)] = paired_runs(base, range(p.seed, p.seed + p.n_seeds), memo=memo, progress=sub)
    return out


@dataclass(frozen=True)
class WGaussiansParams:
    """ting2021 Table 4: w-Gaussians, 1,000 training and 1,000 test points, both CV grids."""

    w: int = 5000
    n: int = 1000
    n_test: int = 1000
    kernels: tuple = ("linear", "rbf", "ik-linear")
    grids: tuple = ("ting2018", "ting2021")
    t: int = 200
    seed: int = 0


def run_wgaussians(p: WGaussiansParams, *, memo: Memo | None = None, progress: Progress | None = None) -> dict:
    """{grid: Result} on the same data; IK is the aNNE (Voronoi) version with t = 200, as in ting2021."""
    memo, progress = resolve(memo, progress)
    out = {}
    for i, g in enumerate(p.grids):
        q = Params(data=DataSpec("w-gaussians", w=p.w, n=p.n, n_test=p.n_test, seed=p.seed), kernels=p.kernels,
                   grid=g, t=p.t, ik_method="anne", seed=p.seed, regions=False)
        out[g] = run(q, memo=memo, progress=within(progress, i / len(p.grids), (i + 1) / len(p.grids), g))
    return out
