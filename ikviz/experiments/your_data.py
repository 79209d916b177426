"""Quick checks of any dataset: would Isolation Kernel beat a Gaussian kernel here, and why?

Four checks, each a pure function of the (prepared) data and a few settings,
built from the same pieces as the paper pages:

- :func:`neighbour_check`: nearest-neighbour instability (N_eps) and hubness
  (k-occurrence skewness) under IK and a Gaussian kernel (ting2021 §4.1);
- :func:`svm_check`: SVM with IK, Gaussian (RBF) and linear kernels, accuracy
  as mean ± sd over stratified k-fold cross-validation, each kernel's parameter
  tuned on a small grid (ting2018, ting2021);
- :func:`regression_check`: kernel ridge regression on IK vs Gaussian vs linear,
  R² over k folds, for a numeric target;
- :func:`tsne_check`: t-SNE with Gaussian and IK affinities (ting2021 §4.2.4);
- :func:`clustering_check`: spectral clustering with IK and Gaussian
  affinities, scored by AMI against the classes (ting2021 §4.2.2); without
  classes, into k clusters (chosen, or estimated from the eigengap).

:func:`summary` says in one sentence per check what the numbers mean and how
sure they are, and gives an overall verdict; :func:`numbers` is what
``ikviz check --json`` writes.

Each has a run (:func:`neighbour_check_run`, :func:`svm_check_run`,
:func:`tsne_check_run`, :func:`clustering_check_run`) with the signature of
:mod:`ikviz.runner`: its :class:`CheckParams` name the data (a :class:`~ikviz.data.Data`
description: a bundled data set, an ``upload`` with its column choices, or a
sample of a big ``server-file``; see :func:`upload_data`, :func:`server_file`),
the rows used and the kernel's settings; the rows are resolved once
(:func:`check_data`) and shared by the four runs.

A file too big for memory goes through :func:`big_file_check`: the Dask path
of :mod:`ikviz.scale` on the server's shared cluster. The Isolation Kernel is
fitted on its ``t * psi`` rows drawn by row index, every row is mapped to its
cells (rows per cell, per class), IK + OGD and FOGD learn from every row chunk
by chunk and are scored on a held-out part, and a seeded sample of rows, drawn
by row index (:func:`big_file_sample`), feeds the four checks and the plots.

Examples
--------
>>> from ikviz.data import Data
>>> from ikviz.experiments.your_data import CheckParams, neighbour_check_run
>>> res = neighbour_check_run(CheckParams(Data("iris"), max_rows=60, psi=8, t=30))
>>> sorted(res["skewness"]), len(res["n_eps"]["ik"])
(['gk', 'ik'], 60)
"""

from __future__ import annotations

import io
import time
import warnings
from dataclasses import dataclass, replace

import numpy as np
from sklearn.preprocessing import minmax_scale

from .._validation import check_dense_size, check_matrix
from ..params import setting
from ..kernels import rbf
from ..measures import k_nearest, k_occurrence, n_eps, precision_at_k, skewness
from ..measures.similarities import gaussian_gamma
from ..registry import isolation_kernel, label as kernel_label
from ..data import Data, step
from ..data import resolve as resolve_data
# the server's data folder and an upload's bytes: read in ikviz.data, named here too for the page and old callers
from ..data.files import DATA_ROOT_ENV, DATA_SUFFIXES, check_data_path, data_root, path_help  # noqa: F401
from ..data.upload import FileBytes, as_file  # noqa: F401
from ..runner import Memo, Progress, resolve, within

#: the two kernels compared, labelled as every page labels them (:func:`ikviz.registry.label`)
KERNEL_LABELS = {key: kernel_label(key) for key in ("ik", "gk")}


def prepare(X, scale: bool = True) -> np.ndarray:
    """Validated float features, min-max scaled to [0, 1] per column when ``scale`` (as the papers do).

    Rows that are all alike (every feature constant) are refused: no kernel has anything to compare.

    Examples
    --------
    >>> import numpy as np
    >>> from ikviz.experiments.your_data import prepare
    >>> prepare(np.array([[1.0, 5.0], [1.0, 5.0], [1.0, 5.0]]))
    Traceback (most recent call last):
    ...
    ValueError: Every feature is constant (2 feature(s), one value each in all 3 rows): the kernels have nothing to compare. Use other feature columns (or mark a text column one-hot).
    """
    X = check_matrix(X)
    if len(X) and np.all(np.ptp(X, axis=0) == 0):
        raise ValueError(f"Every feature is constant ({X.shape[1]} feature(s), one value each in all {len(X):,} "
                         "rows): the kernels have nothing to compare. Use other feature columns (or mark a text "
                         "column one-hot).")
    return minmax_scale(X) if scale else X


# ------------------------------------------------------------------ the checks' budget (issue 31)
#: the work one check may do before it is reduced, in multiply-adds of kernel evaluations: rows x points compared
#: x features, summed over every fit and transform (IK: ψ·t centres per row; Gaussian: the other rows), see
#: :func:`check_work`. Measured under load: the SVM check at 3.9e10 (2,000 distinct rows x 99 features) 6.8 s of
#: CPU; on rows with many exact duplicates IK is several times slower. Issue 31 bounds ``ikviz check`` on any
#: file under 10 MB to 60 s on 2 cores for all its checks together.
WORK_BUDGET = 4e10
#: the fewest folds and features a reduction goes down to
MIN_FOLDS, MIN_FEATURES = 3, 16


_SPAN_CACHE: dict = {}   # the last span computed (the neighbour, SVM and t-SNE checks share the rows)


def span_coordinates(X) -> tuple[np.ndarray, bool]:
    """``X`` in the coordinates of its own row span when that has fewer dimensions than ``X`` has columns (always
    when there are more columns than rows), and whether it was rotated; else ``(X, False)``.

    ``Z = X @ V`` with ``V`` (d x r) an orthonormal basis of the span of the
    rows: ``Z @ Z.T == X @ X.T`` (to rounding), so every Euclidean distance and
    inner product between rows is kept, and with them everything the checks'
    aNNE Isolation Kernel (nearest sample point), the Gaussian and the linear
    kernel compute; identical rows stay identical. Directions of singular
    value under 1e-6 of the largest are left out only when the rows lose at
    most 1e-12 of their sum of squares (else ``X`` is returned as it is).
    Only the (axis-parallel) iForest kernel would change: the clustering check
    keeps the columns.

    Examples
    --------
    >>> import numpy as np
    >>> from ikviz.experiments.your_data import span_coordinates
    >>> X = np.random.default_rng(0).random((5, 40))
    >>> Z, rotated = span_coordinates(X)
    >>> Z.shape, rotated, bool(np.allclose(Z @ Z.T, X @ X.T))
    ((5, 5), True, True)
    """
    import hashlib

    X = np.ascontiguousarray(X, dtype=float)
    n, d = X.shape
    if n == 0 or d <= 1:
        return X, False
    key = (X.shape, hashlib.blake2b(X.data, digest_size=16).hexdigest())
    if key in _SPAN_CACHE:
        return _SPAN_CACHE[key]
    w, U = np.linalg.eigh(X @ X.T)          # n x n: far cheaper than an SVD of n x d when d >> n
    keep = w > max(w[-1], 0.0) * 1e-12
    out = (X, False)
    if 0 < keep.sum() < d:
        V, _ = np.linalg.qr(X.T @ U[:, keep])   # d x r, orthonormal
        Z = X @ V
        total = float(np.einsum("ij,ij->", X, X))
        if total - float(np.einsum("ij,ij->", Z, Z)) <= 1e-12 * total:
            out = (Z, True)
    _SPAN_CACHE.clear()
    _SPAN_CACHE[key] = out
    return out


def check_work(name: str, n: int, d: int, psi: int, t: int, folds: int = 0, psi_grid=(), n_gamma: int = 3) -> float:
    """Multiply-adds of check ``name`` on ``n`` rows of ``d`` features: what :data:`WORK_BUDGET` bounds.

    IK maps each row to its nearest of ψ points in each of ``t`` partitionings
    (``n * ψ * t * d``); the Gaussian kernel compares rows with rows
    (``n * n * d``). The SVM and regression checks do both for every ψ of
    their grid and each γ, in each of ``folds`` folds.

    Examples
    --------
    >>> from ikviz.experiments.your_data import check_work
    >>> check_work("neighbours", 1000, 10, 32, 200)   # 1000 * 32 * 200 * 10 + 1000 * 1000 * 10
    74000000.0
    """
    if name in ("svm", "regression"):
        return float(folds) * n * d * (t * sum(psi_grid) + n_gamma * n)
    psi = min(int(psi), n // 2 if name == "tsne" else n)
    return float(n) * d * (t * psi + n)


def _truncate(Z: np.ndarray, k: int) -> tuple[np.ndarray, float]:
    """The rows' coordinates along their ``k`` leading principal directions (uncentred) and the share of the sum of
    squares kept."""
    _, s, vt = np.linalg.svd(Z, full_matrices=False)
    return Z @ vt[:k].T, float(np.sum(s[:k] ** 2)) / (float(np.sum(s ** 2)) or 1.0)


def budget(name: str, X: np.ndarray, *, psi: int, t: int, folds: int = 0, psi_grid=(), n_gamma: int = 3,
           limit: float | None = None) -> dict:
    """How check ``name`` runs on ``X`` within :data:`WORK_BUDGET`: the features it uses and what was reduced.

    Returns ``{"X", "features", "of_features", "folds", "psi_grid", "work", "reduced"}``: ``X`` the rows in
    :func:`span_coordinates` (exact) when that has fewer dimensions, then, while the estimated work
    (:func:`check_work`) is over the budget, in order: fewer folds (down to :data:`MIN_FOLDS`), the ψ grid
    down to the chosen ψ (largest values dropped first), then only the leading principal directions of the
    span (not below :data:`MIN_FEATURES`). ``reduced`` says each step and why, in words the report shows.

    Examples
    --------
    >>> import numpy as np
    >>> from ikviz.experiments.your_data import budget
    >>> X = np.random.default_rng(0).random((200, 30))
    >>> b = budget("svm", X, psi=32, t=200, folds=5, psi_grid=[8, 32, 128], limit=5e7)
    >>> b["folds"], b["psi_grid"], b["X"].shape
    (3, [32], (200, 16))
    >>> b["reduced"][:2]
    ['3-fold instead of 5-fold cross-validation', 'ψ = 128 left out of the ψ grid']
    """
    limit = WORK_BUDGET if limit is None else float(limit)
    X = np.asarray(X, dtype=float)
    n, d = X.shape
    Z, _ = span_coordinates(X)
    grid = sorted(int(v) for v in psi_grid)
    notes = []

    def work():
        return check_work(name, n, Z.shape[1], psi, t, folds, grid, n_gamma)

    asked = check_work(name, n, d, psi, t, folds, grid, n_gamma)
    if folds > MIN_FOLDS and work() > limit:
        notes.append(f"{MIN_FOLDS}-fold instead of {folds}-fold cross-validation")
        folds = MIN_FOLDS
    while len(grid) > 1 and work() > limit:
        drop = max(v for v in grid if v != int(psi)) if any(v != int(psi) for v in grid) else grid[-1]
        grid.remove(drop)
        notes.append(f"ψ = {drop} left out of the ψ grid")
    if work() > limit and Z.shape[1] > MIN_FEATURES:
        k = max(MIN_FEATURES, int(limit // (work() / Z.shape[1])))
        if k < Z.shape[1]:
            Z, kept = _truncate(Z, k)
            notes.append(f"the rows' {k} leading principal directions (uncentred: {kept:.1%} of the sum of squares) "
                         f"instead of their {d:,} features")
    return {"X": Z, "features": Z.shape[1], "of_features": d, "folds": folds, "psi_grid": grid, "work": work(),
            "asked": asked, "limit": limit, "reduced": notes}


def budget_text(b: dict | None) -> str:
    """What a check's ``budget`` (from :func:`budget`) changed, in a sentence for the page and the report ("" when
    nothing).

    Examples
    --------
    >>> from ikviz.experiments.your_data import budget_text
    >>> print(budget_text({"features": 10, "of_features": 10000, "reduced": [], "asked": 1e9, "limit": 4e10}))
    Computed on the rows' coordinates in their own 10-dimensional span instead of their 10,000 features: exact (every distance and inner product between rows is kept, and with them every kernel of this check).
    """
    if not b:
        return ""
    out = []
    if not b.get("reduced") and b["features"] < b["of_features"]:
        out.append(f"Computed on the rows' coordinates in their own {b['features']:,}-dimensional span instead of "
                   f"their {b['of_features']:,} features: exact (every distance and inner product between rows is "
                   "kept, and with them every kernel of this check).")
    if b.get("reduced"):
        out.append(f"Reduced to stay within the check's time budget ({b['limit']:.2g} multiply-adds of kernel "
                   f"evaluations; as asked it would be {b['asked'] / b['limit']:,.1f} times that): "
                   + "; ".join(b["reduced"]) + ".")
    return " ".join(out)


def _similarities(X, psi: int, t: int, seed: int, gamma: float | None = None) -> dict[str, np.ndarray]:
    """Dense IK and Gaussian similarity matrices of the rows of ``X`` (size-guarded)."""
    check_dense_size(len(X), len(X), 512 * 1024**2, "The similarity matrix", "Use fewer rows.")
    ik = isolation_kernel("ik", psi=psi, t=t, seed=seed, n=len(X)).fit(X)
    return {"ik": ik.similarity(X), "gk": rbf(X, gamma=gaussian_gamma(X) if gamma is None else gamma)}


def neighbour_check(X, y=None, *, psi: int = 32, t: int = 200, seed: int = 0, eps: float = 0.05,
                    k: int = 5, gamma: float | None = None, progress: Progress | None = None) -> dict:
    """N_eps of every point's nearest-neighbour query (itself excluded), k-occurrence and its skewness.

    A large N_eps means many points are almost as near as the nearest one
    (unstable neighbours); a large positive skewness of O_k means a few
    "hubs" are everyone's neighbours. Ties in IK (values are multiples of
    1/t) are broken at random, seeded. With labels, precision@k of the
    k-NN retrieval is reported too.
    """
    X = check_matrix(X)
    if len(X) <= k + 1:
        raise ValueError(f"The neighbour check needs more than {k + 1} rows; got {len(X)}.")
    progress = within(progress, 0.0, 1.0)
    out = {"eps": eps, "k": k, "n_eps": {}, "occurrence": {}, "skewness": {}, "precision": {}}
    progress(0.0, "similarities")
    for i, (name, S) in enumerate(_similarities(X, psi, t, seed, gamma).items()):
        progress(0.4 + 0.3 * i, f"{KERNEL_LABELS[name]}: nearest neighbours")
        np.fill_diagonal(S, 0.0)  # a point is not its own neighbour
        out["n_eps"][name] = n_eps(S, eps)
        nearest = k_nearest(S, k, seed=seed, exclude_self=True)
        occ = k_occurrence(nearest, len(X))
        out["occurrence"][name] = occ
        out["skewness"][name] = float(skewness(occ))
        if y is not None:
            out["precision"][name] = float(precision_at_k(nearest, np.asarray(y)))
    progress(1.0, "done")
    return out


def neighbour_verdict(res: dict) -> str:
    """The neighbour check in words."""
    med = {k: float(np.median(v)) for k, v in res["n_eps"].items()}
    mean = {k: float(np.mean(v)) for k, v in res["n_eps"].items()}
    if mean["ik"] < 0.8 * mean["gk"]:
        nn = "IK's nearest neighbours stand out more clearly."
    elif mean["gk"] < 0.8 * mean["ik"]:
        nn = "the Gaussian kernel's nearest neighbours stand out more clearly."
    else:
        nn = "about the same: both kernels' nearest neighbours are about as distinct."
    lines = [f"- N_eps (ε = {res['eps']:g}), median / mean: IK **{med['ik']:.0f} / {mean['ik']:.1f}**, Gaussian "
             f"**{med['gk']:.0f} / {mean['gk']:.1f}** — {nn}",
             f"- skewness of the {res['k']}-occurrence: IK **{res['skewness']['ik']:.2f}**, Gaussian "
             f"**{res['skewness']['gk']:.2f}** — "
             + ("IK has fewer hubs." if res["skewness"]["ik"] < res["skewness"]["gk"] else
                "IK does not reduce hubness here.")]
    if res["precision"]:
        lines.append(f"- precision@{res['k']} against the classes: IK **{res['precision']['ik']:.3f}**, "
                     f"Gaussian **{res['precision']['gk']:.3f}**")
    return "\n".join(lines)


#: cross-validation folds of the SVM and regression checks (fewer when the smallest class is smaller)
FOLDS = 5


def _cv(y, folds: int, seed: int, classify: bool = True):
    from sklearn.model_selection import KFold, StratifiedKFold

    if not classify:
        return KFold(min(folds, len(y)), shuffle=True, random_state=seed)
    counts = np.bincount(y)
    smallest = int(counts[counts > 0].min())
    if smallest < 2:
        raise ValueError("A class has a single row: cross-validation needs at least two rows of every class. "
                         "Pick another label column, or drop that class's row.")
    return StratifiedKFold(min(folds, smallest), shuffle=True, random_state=seed)


def _psi_grid(psi: int, n_train: int, grid=None) -> list[int]:
    grid = {8, 32, 128, int(psi)} if grid is None else {int(v) for v in grid}
    return [v for v in sorted(grid) if v <= n_train] or [max(2, min(int(psi), n_train))]


def _tune(candidates: dict, X, y, cv, progress, score: str = "accuracy") -> list[dict]:
    """Each model's grid scored over the same folds; per model the best setting's fold scores."""
    from sklearn.model_selection import cross_val_score

    total = sum(len(g) for g in candidates.values())
    done, rows = 0, []
    for name, grid in candidates.items():
        best = None
        tried = []
        for params, make in grid:
            progress(done / total, f"{name}: {', '.join(f'{k}={v:.3g}' for k, v in params.items()) or 'fit'}")
            start = time.perf_counter()
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")   # LinearSVC convergence chatter on tiny folds
                folds = cross_val_score(make(), X, y, cv=cv, scoring=score)
            seconds = time.perf_counter() - start
            tried.append({"params": params, "mean": float(folds.mean())})
            if best is None or folds.mean() > best[0].mean() + 1e-12:
                best = (folds, params, seconds)
            done += 1
        folds, params, seconds = best
        rows.append({"kernel": name, "mean": float(folds.mean()),
                     "sd": float(folds.std(ddof=1)) if len(folds) > 1 else 0.0,
                     "folds": [float(v) for v in folds], "params": params, "tried": tried, "seconds": seconds})
    return rows


def svm_check(X, y, *, psi: int = 32, t: int = 200, seed: int = 0, folds: int = FOLDS, psi_grid=None,
              gamma: float | None = None, progress: Progress | None = None) -> list[dict]:
    """SVM accuracy with IK, Gaussian (RBF) and linear kernels as mean ± sd over stratified k-fold CV.

    Each kernel's parameter is tuned on a small grid (IK: ψ in 8, 32, 128 and
    the given ``psi``; Gaussian: γ = 0.1, 1 and 10 times scikit-learn's
    "scale"), each setting scored on the same folds; the best setting's fold
    accuracies are kept (``folds``), so the kernels are compared fold by fold.
    Choosing the setting on the folds that score it flatters every kernel a
    little, the same way. C = 1 throughout; IK is aNNE with ``t``. ``psi_grid``
    replaces IK's grid (values over the rows a fold trains on are left out);
    ``gamma`` the Gaussian's base width (default: scikit-learn's "scale" of ``X``).
    """
    from ..learn.svm import make_svm

    X = check_matrix(X)
    y = np.asarray(y)
    counts = np.bincount(y)
    if (counts > 0).sum() < 2:
        raise ValueError("The SVM comparison needs at least two classes.")
    cv = _cv(y, folds, seed)
    k = cv.get_n_splits()
    n_train = len(X) - -(-len(X) // k)
    gamma0 = gaussian_gamma(X) if gamma is None else float(gamma)
    candidates = {
        "ik": [({"psi": v}, lambda v=v: make_svm("ik", psi=v, t=t, ik_method="anne", seed=seed))
               for v in _psi_grid(psi, n_train, psi_grid)],
        "rbf": [({"gamma": gamma0 * f}, lambda f=f: make_svm("rbf", gamma=gamma0 * f)) for f in (0.1, 1.0, 10.0)],
        "linear": [({}, lambda: make_svm("linear"))]}
    rows = _tune(candidates, X, y, cv, within(progress, 0.0, 1.0))
    split = {"n_folds": k, "n_train": n_train, "n_test": len(X) - n_train, "stratified": True, "split_seed": seed}
    out = [{**r, "accuracy": r["mean"], **split} for r in rows]
    within(progress, 0.0, 1.0)(1.0, "done")
    return out


def regression_check(X, y, *, psi: int = 32, t: int = 200, seed: int = 0, folds: int = FOLDS, psi_grid=None,
                     gamma: float | None = None, progress: Progress | None = None) -> list[dict]:
    """Kernel ridge regression on IK vs Gaussian vs linear: R² as mean ± sd over k folds (shuffled, seeded).

    The target is standardised inside each fit (kernel ridge has no intercept);
    IK's ψ and the Gaussian's γ are tuned as in :func:`svm_check`; the ridge's
    α is 1 throughout.
    """
    from sklearn.compose import TransformedTargetRegressor
    from sklearn.kernel_ridge import KernelRidge
    from sklearn.pipeline import Pipeline
    from sklearn.preprocessing import StandardScaler

    from ..learn.svm import KernelGram

    X = check_matrix(X)
    y = np.asarray(y, dtype=float)
    if len(np.unique(y)) < 3:
        raise ValueError("The regression check needs a numeric target with at least three distinct values.")
    cv = _cv(y, folds, seed, classify=False)
    k = cv.get_n_splits()
    n_train = len(X) - -(-len(X) // k)
    gamma0 = gaussian_gamma(X) if gamma is None else float(gamma)

    def ridge(kernel, alpha, **kw):
        return TransformedTargetRegressor(Pipeline([
            ("gram", KernelGram(kernel, t=t, ik_method="anne", random_state=seed, **kw)),
            ("ridge", KernelRidge(alpha=alpha, kernel="precomputed"))]), transformer=StandardScaler())

    alphas = (1.0,)
    candidates = {
        "ik": [({"psi": v, "alpha": a}, lambda v=v, a=a: ridge("ik", a, psi=v))
               for v in _psi_grid(psi, n_train, psi_grid) for a in alphas],
        "rbf": [({"gamma": gamma0 * f, "alpha": a}, lambda f=f, a=a: ridge("rbf", a, gamma=gamma0 * f))
                for f in (0.1, 1.0, 10.0) for a in alphas],
        "linear": [({"alpha": a}, lambda a=a: ridge("linear", a)) for a in alphas]}
    rows = _tune(candidates, X, y, cv, within(progress, 0.0, 1.0), score="r2")
    return [{**r, "r2": r["mean"], "n_folds": k, "split_seed": seed} for r in rows]


def tsne_check(X, y=None, *, psi: int = 32, t: int = 200, seed: int = 0, perplexity: float = 30.0,
               progress: Progress | None = None) -> dict:
    """Two t-SNE embeddings (Gaussian affinities, IK affinities) with separation scores when labels exist."""
    from openTSNE.initialization import pca

    from ..embedding import separation_scores
    from .tsne import affinities, optimise

    X = check_matrix(X)
    if len(X) < 10:
        raise ValueError(f"t-SNE needs at least 10 rows; got {len(X)}.")
    out = {"coords": {}, "scores": {}, "settings": {}}
    if X.shape[1] >= 2:
        start = pca(X, 2, random_state=seed)  # one start for both kernels, so only the affinities differ
    else:  # one feature: it is the first coordinate (scaled as openTSNE's pca start is), a tiny random second
        col = X[:, 0] - X[:, 0].mean()
        start = np.column_stack([col / (col.std() or 1.0) * 1e-4,
                                 np.random.default_rng(seed).normal(0.0, 1e-4, len(X))])
    for i, kernel in enumerate(("gk", "ik")):
        step = within(progress, i / 2, (i + 1) / 2, kernel.upper())
        step(0.0, "affinities…")
        aff, used = affinities(kernel, X, perplexity=perplexity, psi=psi, t=t, seed=seed)
        coords, _ = optimise(aff.P, start, seed=seed, frame_every=50, progress=step)
        out["coords"][kernel] = coords
        out["settings"][kernel] = used
        if two_classes(y):
            out["scores"][kernel] = separation_scores(coords, np.asarray(y), seed=seed)
    out["labels"] = None if y is None else np.asarray(y)
    return out


def estimate_clusters(S: np.ndarray, k_max: int = 10) -> int:
    """The number of clusters the eigengap of the normalised affinity ``S`` suggests (2 to ``k_max``).

    Examples
    --------
    >>> import numpy as np
    >>> from ikviz.experiments.your_data import estimate_clusters
    >>> blocks = np.kron(np.eye(3), np.ones((5, 5))) + 0.01
    >>> estimate_clusters(blocks)
    3
    """
    from scipy.linalg import eigh

    S = np.asarray(S, dtype=float)
    n = len(S)
    k_max = int(min(k_max, n - 1))
    if k_max < 2:
        return 2
    d = S.sum(axis=1)
    d = np.where(d > 0, d, 1.0) ** -0.5
    M = d[:, None] * S * d[None, :]
    top = eigh(M, eigvals_only=True, subset_by_index=[n - k_max - 1, n - 1])[::-1]
    gaps = top[1:k_max] - top[2:k_max + 1]       # gap after the 2nd, 3rd, ... eigenvalue
    return int(np.argmax(gaps)) + 2


def clustering_check(X, y=None, *, psi: int = 32, t: int = 200, seed: int = 0, k: int = 0,
                     gamma: float | None = None, progress: Progress | None = None) -> list[dict]:
    """Spectral clustering with IK and Gaussian affinities; AMI and NMI against the classes when there are any.

    The number of clusters: the number of classes; else ``k`` when 2 or more;
    else estimated from the eigengap of the IK affinity (:func:`estimate_clusters`).
    Without classes each row states the silhouette (Euclidean, on the rows
    clustered) and the AMI between the IK and Gaussian clusterings.
    """
    from sklearn.metrics import adjusted_mutual_info_score, silhouette_score

    from ..clustering import SpectralClustering, scores

    X = check_matrix(X)
    progress = within(progress, 0.0, 1.0)
    labelled = y is not None and len(np.unique(y)) >= 2
    if labelled:
        y = np.asarray(y)
        n_clusters, how = len(np.unique(y)), "classes"
    elif k and int(k) >= 2:
        n_clusters, how = int(k), "chosen"
    else:
        progress(0.0, "estimating the number of clusters")
        S = _similarities(X, psi, t, seed, gamma)["ik"]
        n_clusters, how = estimate_clusters(S), "estimated from the eigengap of the IK affinity"
    if n_clusters >= len(X):
        raise ValueError(f"{n_clusters} clusters for {len(X)} rows: too few rows per cluster.")
    check_dense_size(len(X), len(X), 512 * 1024**2, "The affinity matrix", "Use fewer rows.")
    models = {"ik": SpectralClustering(n_clusters, affinity="ik", psi=psi, t=t, kernel_params={"method": "iforest"},
                                       random_state=seed),
              "gk": SpectralClustering(n_clusters, affinity="rbf", gamma=gaussian_gamma(X) if gamma is None else gamma,
                                       random_state=seed)}
    rows, found = [], {}
    for i, (measure, model) in enumerate(models.items()):
        progress(0.1 + 0.9 * i / len(models), f"spectral clustering with the {KERNEL_LABELS[measure]}")
        found[measure] = model.fit_predict(X)
        row = {"measure": measure, "k": n_clusters, "k_from": how}
        if labelled:
            row.update(scores(y, found[measure]))
        else:
            m = len(np.unique(found[measure]))
            row["silhouette"] = float(silhouette_score(X, found[measure])) if 1 < m < len(X) else float("nan")
        rows.append(row)
    if not labelled:
        agree = float(adjusted_mutual_info_score(found["ik"], found["gk"]))
        for row in rows:
            row["agreement"] = agree
    progress(1.0, "done")
    return rows


def run_all(X, y=None, *, psi: int = 32, t: int = 200, seed: int = 0, task: str | None = None) -> dict:
    """Every check that applies to ``(X, y)`` (``task``: "classification", "regression" or None)."""
    task = task or ("classification" if two_classes(y) else None)
    classes = y if task == "classification" else None
    out = {"neighbours": neighbour_check(X, classes, psi=psi, t=t, seed=seed),
           "tsne": tsne_check(X, classes, psi=psi, t=t, seed=seed),
           "clustering": clustering_check(X, classes, psi=psi, t=t, seed=seed)}
    if task == "classification" and two_classes(y):
        out["svm"] = svm_check(X, y, psi=psi, t=t, seed=seed)
    if task == "regression":
        out["regression"] = regression_check(X, y, psi=psi, t=t, seed=seed)
    return out


# ------------------------------------------------------------------ the data of the checks
#: the kinds of data the page offers, by the :class:`~ikviz.data.Data` source that reads them: a bundled data set,
#: an uploaded file (``upload``), a sample of a big file on the server (``server-file``)
SOURCE_KINDS = ("bundled", "upload", "big")


def inspect_upload(file: FileBytes, missing: str = "error", sheet: str | None = None, *, memo: Memo | None = None):
    """:func:`ikviz.data.upload.inspect_file` of an upload: format, columns with kind and suggested role, preview
    (the parse a block of ``memo``, which the checks' reading of the same file shares)."""
    from ..data import upload

    return upload.inspect_file(file, file.name or None, missing=missing, sheet=sheet, memo=memo)


def upload_data(file, **choices) -> Data:
    """An uploaded file (:class:`FileBytes`, bytes or str) with its column choices as a :class:`~ikviz.data.Data`
    description: source ``upload``, every choice of :data:`~ikviz.data.upload.UPLOAD_DEFAULTS` spelled out (one
    spelling, one cache key); ``name`` names bytes given bare. Bad choices give a ``ValueError`` saying what to fix.

    Examples
    --------
    >>> from ikviz.experiments.your_data import upload_data
    >>> d = upload_data(b"a,b,c\\n1,2,x\\n3,4,y\\n", name="mine.csv", label="c")
    >>> d.source, dict(d.options)["label"], dict(d.options)["missing"]
    ('upload', 'c', 'median')
    """
    from ..data.upload import upload_options

    name = choices.pop("name", "")
    return Data("upload", options=upload_options(as_file(file, name), **choices))


def server_file(path: str, label: str | None = None) -> Data:
    """A big file (folder, glob) on the server as a :class:`~ikviz.data.Data` description: source ``server-file``
    (its ``rows`` and seed are the checks', see :func:`check_description`). Read only with ``$IKVIZ_DATA_ROOT`` set.

    Examples
    --------
    >>> from ikviz.experiments.your_data import server_file
    >>> server_file("big", "label")
    Data(source='server-file', seed=0, options=(('label', 'label'), ('path', 'big')), steps=())
    """
    from ..data.files import server_file_options

    options = server_file_options(path, label=label)
    options.pop("rows")
    return Data("server-file", options=options)


def source_kind(source: Data) -> str:
    """Which of :data:`SOURCE_KINDS` ``source`` is: ``upload``, ``big`` (a ``server-file``) or ``bundled``.

    Examples
    --------
    >>> from ikviz.data import Data
    >>> from ikviz.experiments.your_data import source_kind
    >>> source_kind(Data("wine")), source_kind(Data("server-file", options={"path": "x"}))
    ('bundled', 'big')
    """
    return {"upload": "upload", "server-file": "big"}.get(source.source, "bundled")


def source_name(source: Data) -> str:
    """The data's name: a bundled set's, an upload's file name, a server file's path."""
    options = dict(source.options)
    kind = source_kind(source)
    return options["file"].name if kind == "upload" else options["path"] if kind == "big" else source.source


def data_title(source: Data) -> str:
    """The data in a few words: ``wine (bundled data set)``, ``mine.csv (your file)``, a path (file on the server).

    Examples
    --------
    >>> from ikviz.data import Data
    >>> from ikviz.experiments.your_data import data_title
    >>> data_title(Data("wine"))
    'wine (bundled data set)'
    """
    return f"{source_name(source)} " + {"bundled": "(bundled data set)", "upload": "(your file)",
                                        "big": "(file on the server)"}[source_kind(source)]


def check_description(source: Data, max_rows: int, seed: int = 0) -> Data:
    """The description the checks resolve: at most ``max_rows`` rows of ``source`` with ``seed``.

    A bundled set or an upload is read whole (an upload once per file and choices, as a block of the caller's
    memo) and drawn by the ``stratified`` step; a server file draws its ``rows`` by row index, never read whole.

    Examples
    --------
    >>> from ikviz.data import Data
    >>> from ikviz.experiments.your_data import check_description
    >>> check_description(Data("wine"), 500, 3).steps
    (Step(name='stratified', options=(('n', 500), ('seed', 3))),)
    """
    if source_kind(source) == "big":
        return replace(source, seed=seed, options={**dict(source.options), "rows": int(max_rows)})
    return replace(source, steps=source.steps + (step("stratified", n=int(max_rows), seed=int(seed)),))


def load_source(source: Data, max_rows: int, seed: int = 0, *, memo: Memo | None = None):
    """At most ``max_rows`` rows of ``source`` as :class:`~ikviz.data.upload.UserData` (unscaled): the
    :func:`check_description` resolved with ``memo`` (:func:`ikviz.data.resolve`).

    A bundled data set or an upload is read whole (an upload once: the
    reading is a memoised block keyed by the file's fingerprint and the column
    choices) and subsampled at random (stratified, with a note); a big file
    gives ``max_rows`` rows drawn by row index, never reading the file whole.
    """
    from ..data.upload import user_data

    memo, _ = resolve(memo, None)
    if source_kind(source) == "big":
        from ..scale.run import shared_client

        shared_client()   # the sample is computed on the server's shared cluster
    return user_data(resolve_data(check_description(source, max_rows, seed), memo=memo))


def source_rows(source: Data, seed: int = 0, *, memo: Memo | None = None) -> int:
    """How many rows ``source`` has in all (the checks may use a sample of them)."""
    memo, _ = resolve(memo, None)
    if source_kind(source) == "big":
        from .._dask import n_rows
        from ..data.files import read_dataset

        options = dict(source.options)
        return int(n_rows(read_dataset(check_data_path(options["path"]), None, options.get("label")).X))
    return len(resolve_data(source, memo=memo).X)


@dataclass(frozen=True)
class CheckParams:
    """One check's view: the data, how many rows, scaling, the Isolation Kernel's settings, clusters (0: estimated)."""

    source: Data = Data("wine")
    max_rows: int = setting(2000, "rows used by the checks (at most)", choices=(500, 1000, 2000, 5000),
                            help="Larger data are subsampled at random, with a notice.")
    scale: bool = setting(True, "min-max scale features to [0, 1]",
                          help="The papers scale every feature to [0, 1] before comparing kernels.")
    psi: int = setting(32, "IK ψ", choices=(4, 8, 16, 32, 64, 128, 256),
                       help="Points per partitioning; the SVM and regression checks also try 8, 32 and 128.")
    t: int = setting(200, "IK t", choices=(50, 100, 200, 500), help="Partitionings of the Isolation Kernel.")
    seed: int = setting(0, "seed", low=0, high=10_000, step=1)
    k: int = setting(0, "clusters without classes (0: estimated)", low=0, high=30, step=1,
                     help="Unlabelled data: spectral clustering into this many clusters; 0 estimates k from the "
                          "eigengap of the IK affinity.")

    def settings(self) -> dict:
        """The settings in words, for tables and reports."""
        out = {"ψ": self.psi, "t": self.t, "seed": self.seed, "rows used (at most)": self.max_rows,
               "features scaled to [0, 1]": "yes" if self.scale else "no"}
        if self.k:
            out["clusters (without classes)"] = self.k
        if source_kind(self.source) == "upload":
            from ..data.upload import MISSING_WORDS

            options = dict(self.source.options)
            missing = options.get("missing", "median")
            out["missing values"] = MISSING_WORDS.get(missing, missing) + (
                ", with indicator columns" if options.get("indicator") and missing in ("median", "most_frequent")
                else "")
        return out


def check_data(source: Data, max_rows: int, scale: bool, seed: int, *, memo: Memo | None = None):
    """``(X, y)`` the checks run on: :func:`load_source`'s rows, :func:`prepare`\\ d; ``y`` None without a label
    (class codes, or the numbers of a regression target)."""
    data = resolve(memo, None)[0](load_source)(source, max_rows, seed)
    return prepare(data.X, scale=scale), data.y


def _kernel_settings(p: CheckParams) -> dict:
    return {"psi": p.psi, "t": p.t, "seed": p.seed}


def _rows(p: CheckParams, memo: Memo) -> tuple[np.ndarray, np.ndarray | None, dict]:
    """The rows of ``p`` and what every result states about them: rows used, of how many, class names, task,
    how missing values were handled. ``y`` is None unless the label holds classes (see ``about["target"]``)."""
    X, y = memo(check_data)(p.source, p.max_rows, p.scale, p.seed)
    data = memo(load_source)(p.source, p.max_rows, p.seed)
    if source_kind(p.source) == "big":   # counted with the sample (its memo block): a big CSV is not read twice
        total = resolve_data(check_description(p.source, p.max_rows, p.seed), memo=memo).about["of_rows"]
    else:
        total = memo(source_rows)(p.source, p.seed)
    task = getattr(data, "task", None) or ("classification" if y is not None else None)
    about = {"rows": len(X), "of_rows": int(total), "classes": list(data.classes) if task == "classification" else [],
             "task": task, "missing": getattr(data, "missing", "")}
    return X, (y if task == "classification" else None), {**about, "target": y if task == "regression" else None}


def _stated(about: dict) -> dict:
    return {k: v for k, v in about.items() if k != "target"}


def _budgeted(name: str, p: CheckParams, X: np.ndarray, y=None) -> tuple[np.ndarray, dict, dict]:
    """The rows check ``name`` runs on within :data:`WORK_BUDGET` (:func:`budget`), the keywords that carry its
    reductions (folds, ψ grid; the Gaussian's width, always that of the features as given), and what the result
    states about them (``budget``: features used, of how many, each reduction in words)."""
    kw: dict = {"gamma": gaussian_gamma(X)}
    if name in ("svm", "regression"):
        k = _cv(y, FOLDS, p.seed, classify=name == "svm").get_n_splits()
        n_train = len(X) - -(-len(X) // k)
        b = budget(name, X, psi=p.psi, t=p.t, folds=k, psi_grid=_psi_grid(p.psi, n_train))
        kw.update(folds=b["folds"], psi_grid=b["psi_grid"])
    else:
        b = budget(name, X, psi=p.psi, t=p.t)
    return b["X"], kw, {"budget": {k: b[k] for k in ("features", "of_features", "reduced", "work", "asked",
                                                       "limit")}}


def neighbour_check_run(p: CheckParams, *, memo: Memo | None = None, progress: Progress | None = None) -> dict:
    """:func:`neighbour_check` on the rows of ``p`` (runner convention); states ``rows``, ``of_rows``, ``classes``
    and the ``budget`` (:func:`budget`)."""
    memo, progress = resolve(memo, progress)
    X, y, about = _rows(p, memo)
    X, kw, stated = _budgeted("neighbours", p, X)
    return {**neighbour_check(X, y, **_kernel_settings(p), **kw, progress=progress), **_stated(about), **stated}


def svm_check_run(p: CheckParams, *, memo: Memo | None = None, progress: Progress | None = None) -> list[dict]:
    """:func:`svm_check` on the rows of ``p`` (runner convention); each row also states ``rows``, ``of_rows`` and
    the ``budget`` (:func:`budget`)."""
    memo, progress = resolve(memo, progress)
    X, y, about = _rows(p, memo)
    if y is None:
        raise ValueError("The SVM comparison needs at least two classes: pick a label column.")
    X, kw, stated = _budgeted("svm", p, X, y)
    return [{**r, **_stated(about), **stated} for r in svm_check(X, y, **_kernel_settings(p), **kw,
                                                                  progress=progress)]


def regression_check_run(p: CheckParams, *, memo: Memo | None = None,
                         progress: Progress | None = None) -> list[dict]:
    """:func:`regression_check` on the rows of ``p`` (runner convention), for a numeric target."""
    memo, progress = resolve(memo, progress)
    X, _, about = _rows(p, memo)
    if about["target"] is None:
        raise ValueError("The regression check needs a numeric target: pick a label column that holds numbers.")
    X, kw, stated = _budgeted("regression", p, X, about["target"])
    return [{**r, **_stated(about), **stated} for r in regression_check(X, about["target"], **_kernel_settings(p),
                                                                         **kw, progress=progress)]


def tsne_check_run(p: CheckParams, *, memo: Memo | None = None, progress: Progress | None = None) -> dict:
    """:func:`tsne_check` on the rows of ``p`` (runner convention); states ``rows``, ``of_rows``, ``classes``
    and the ``budget`` (:func:`budget`)."""
    memo, progress = resolve(memo, progress)
    X, y, about = _rows(p, memo)
    X, _, stated = _budgeted("tsne", p, X)
    return {**tsne_check(X, y, **_kernel_settings(p), progress=progress), **_stated(about), **stated}


def clustering_check_run(p: CheckParams, *, memo: Memo | None = None,
                         progress: Progress | None = None) -> list[dict]:
    """:func:`clustering_check` on the rows of ``p`` (runner convention); each row also states the rows used."""
    memo, progress = resolve(memo, progress)
    X, y, about = _rows(p, memo)
    return [{**r, **_stated(about)} for r in clustering_check(X, y, **_kernel_settings(p), k=p.k,
                                                              progress=progress)]


@dataclass(frozen=True)
class Check:
    """One of the checks: how the page names it, how it runs, what data it needs, what it costs."""

    title: str  #: its heading
    run: str  #: the name of its run in this module (looked up when called, see :func:`check_run`)
    needs_classes: bool
    button: str  #: the label of the button that runs it
    what: str  #: the check as a sentence names it ("Problem with the SVM comparison: ...")
    help: str  #: what it does, in a line
    base_seconds: float  #: rough seconds on 1,000 rows with t = 200, before a run of it has been timed
    without_classes: str = ""  #: why a check that needs classes (or numbers) is not offered without them
    needs_numbers: bool = False  #: needs a numeric target (regression)


#: the checks by name, in the page's order
CHECKS = {
    "neighbours": Check("Nearest neighbours: instability and hubness", "neighbour_check_run", False,
                        button="Run the neighbour check", what="the neighbour check",
                        help="IK vs Gaussian: N_eps and k-occurrence skewness", base_seconds=0.6),
    "svm": Check("SVM: IK vs Gaussian vs linear", "svm_check_run", True,
                 button="Run the SVM comparison", what="the SVM comparison",
                 help="Stratified 5-fold cross-validation, each kernel's parameter tuned on a small grid; "
                      "accuracy as mean ± sd", base_seconds=8.0,
                 without_classes="The SVM comparison needs a label column with at least two classes."),
    "regression": Check("Regression: kernel ridge with IK vs Gaussian vs linear", "regression_check_run", False,
                        button="Run the regression comparison", what="the regression comparison",
                        help="Kernel ridge regression, 5-fold cross-validation, R² as mean ± sd", base_seconds=8.0,
                        without_classes="The regression comparison needs a label column that holds numbers "
                                        "(a numeric target).", needs_numbers=True),
    "tsne": Check("t-SNE: Gaussian vs IK affinities", "tsne_check_run", False,
                  button="Run t-SNE", what="t-SNE",
                  help="Two t-SNE embeddings side by side, coloured by class or by any column", base_seconds=6.0),
    "clustering": Check("Clustering: spectral clustering with IK vs Gaussian", "clustering_check_run", False,
                        button="Run the clustering comparison", what="the clustering comparison",
                        help="Spectral clustering: AMI against the classes, or k clusters (chosen or estimated) "
                             "without them", base_seconds=2.0),
}


def check_run(name: str):
    """The run of check ``name`` (looked up at call time, so a test can replace it)."""
    import sys

    return getattr(sys.modules[__name__], CHECKS[name].run)


def two_classes(y) -> bool:
    """Whether the labels ``y`` (None: no label column) hold two classes or more, as classes are compared.

    Examples
    --------
    >>> from ikviz.experiments.your_data import two_classes
    >>> two_classes([0, 1, 0]), two_classes([2, 2]), two_classes(None)
    (True, False, False)
    """
    return y is not None and len(np.unique(y)) >= 2


def applicable(name: str, has_classes: bool | str | None) -> bool:
    """Whether check ``name`` applies: ``has_classes`` True/False (two classes or more), or the task
    ("classification", "regression" or None)."""
    task = ("classification" if has_classes else None) if isinstance(has_classes, bool) else has_classes
    check = CHECKS[name]
    if check.needs_numbers:
        return task == "regression"
    return task == "classification" or not check.needs_classes


def estimate_seconds(name: str, rows: int, t: int, previous: tuple[int, int, float] | None = None) -> float:
    """Expected seconds of check ``name`` on ``rows`` rows with ``t``: scaled from a previous run when known.

    The checks build n x n similarity matrices, so time grows about as
    ``rows**2`` and linearly in ``t``; ``previous`` is ``(rows, t, seconds)``
    of a run of the same check on the same data.

    Examples
    --------
    >>> from ikviz.experiments.your_data import estimate_seconds
    >>> estimate_seconds("svm", 2000, 200, previous=(1000, 200, 1.0))
    4.0
    """
    rows0, t0, seconds0 = previous if previous else (1000, 200, CHECKS[name].base_seconds)
    return float(seconds0) * (rows / max(rows0, 1)) ** 2 * max(t, 1) / max(t0, 1)


#: a check run before on the same data and expected to take less than this is recomputed without asking
AUTO_SECONDS = 2.0


def check_step(name: str, held: bool, last: dict | None, params: CheckParams, rows: int) -> tuple[str, float | None]:
    """What to do with check ``name`` for ``params``, and its expected seconds when it would be recomputed.

    ``held``: whether a result for ``params`` is held; ``last``: the check's
    last run in this session (``{"params", "rows", "seconds"}``, seconds None
    when not timed), or None. The steps:

    - ``"show"``: the result for ``params`` is held;
    - ``"button"``: the check has not run on this data: it waits for its button;
    - ``"auto"``: it ran on this data and is expected to take under
      :data:`AUTO_SECONDS`: recompute it at once;
    - ``"ask"``: it would take longer: offer a re-run, show the last result as stale.

    Examples
    --------
    >>> from ikviz.experiments.your_data import CheckParams, check_step
    >>> last = {"params": CheckParams(psi=16), "rows": 1000, "seconds": 60.0}
    >>> check_step("svm", False, None, CheckParams(), 1000), check_step("svm", False, last, CheckParams(), 1000)
    (('button', None), ('ask', 60.0))
    """
    if held:
        return "show", None
    if last is None or last["params"].source != params.source:
        return "button", None
    previous = None if last["seconds"] is None else (last["rows"], last["params"].t, last["seconds"])
    estimate = estimate_seconds(name, rows, params.t, previous)
    return ("auto" if estimate < AUTO_SECONDS else "ask"), estimate


def run_checks(p: CheckParams, checks=None, *, memo: Memo | None = None,
               progress: Progress | None = None) -> dict:
    """Every check of ``checks`` (default: all four) that applies to the rows of ``p``: ``{name: result}``.

    Checks needing classes are skipped without a label of two classes or more.
    """
    memo, progress = resolve(memo, progress)
    names = [c for c in (checks or CHECKS) if applicable(c, task_of(p, memo=memo))]
    out = {}
    for i, name in enumerate(names):
        out[name] = memo(check_run(name))(p, progress=within(progress, i / len(names), (i + 1) / len(names),
                                                           CHECKS[name].title.split(":")[0]))
    progress(1.0, "done")
    return out


#: a difference in accuracy, R² or AMI smaller than this counts as none
TIE = 0.01


def _paired(a: list, b: list) -> tuple[float, float]:
    """Mean and standard error of the fold-by-fold difference a - b."""
    d = np.asarray(a, dtype=float) - np.asarray(b, dtype=float)
    se = float(d.std(ddof=1) / np.sqrt(len(d))) if len(d) > 1 else float("inf")
    return float(d.mean()), se


def _winner(diff: float, se: float = 0.0) -> str:
    """"ik", "gk" or "tie": IK ahead when the difference is over :data:`TIE` and two standard errors."""
    if abs(diff) <= max(TIE, 2 * se):
        return "tie"
    return "ik" if diff > 0 else "gk"


def _fmt_params(params: dict) -> str:
    names = {"psi": "ψ", "gamma": "γ", "alpha": "α"}
    text = ", ".join(f"{names.get(k, k)} = {v:.3g}" for k, v in params.items())
    return f" ({text})" if text else ""


def summary(results: dict) -> dict:
    """One sentence per check saying what its numbers mean and how sure they are, and an overall verdict.

    ``results`` maps check names to their results (any subset). Returns
    ``{"sentences": {name: sentence}, "verdict": sentence, "wins": {name: "ik"|"gk"|"tie"}}``.
    A cross-validated difference counts when it is over :data:`TIE` and
    over two standard errors of the fold-by-fold differences; a single-run
    difference (AMI, neighbours) when it is over :data:`TIE` or 20 %.

    Examples
    --------
    >>> from ikviz.experiments.your_data import summary
    >>> rows = [{"kernel": "ik", "mean": 0.95, "sd": 0.01, "folds": [0.94, 0.95, 0.96], "params": {"psi": 32}},
    ...         {"kernel": "rbf", "mean": 0.90, "sd": 0.01, "folds": [0.89, 0.90, 0.91], "params": {"gamma": 0.5}},
    ...         {"kernel": "linear", "mean": 0.80, "sd": 0.02, "folds": [0.78, 0.80, 0.82], "params": {}}]
    >>> out = summary({"svm": [dict(r, n_folds=3, rows=150) for r in rows]})
    >>> out["wins"], out["verdict"]
    ({'svm': 'ik'}, 'Overall: IK ahead on 1 of 1 check(s) (SVM); the Gaussian kernel on none; no clear difference on none.')
    """
    sentences, wins = {}, {}
    if "neighbours" in results:
        r = results["neighbours"]
        m = {k: float(np.mean(v)) for k, v in r["n_eps"].items()}
        sk = r["skewness"]
        stable = "ik" if m["ik"] < 0.8 * m["gk"] else "gk" if m["gk"] < 0.8 * m["ik"] else "tie"
        hubs = "ik" if sk["ik"] < sk["gk"] - 0.1 else "gk" if sk["gk"] < sk["ik"] - 0.1 else "tie"
        wins["neighbours"] = stable if stable == hubs or hubs == "tie" else (hubs if stable == "tie" else "tie")
        stable_words = {"ik": "IK's neighbours are clearly more stable", "gk": "the Gaussian's neighbours are "
                        "clearly more stable", "tie": "neither kernel's neighbours are clearly more stable"}
        hub_words = {"ik": "IK has clearly fewer hubs", "gk": "the Gaussian kernel has clearly fewer hubs",
                     "tie": "neither has clearly fewer hubs"}
        sentences["neighbours"] = (
            f"Nearest neighbours: mean N_eps {m['ik']:.1f} with IK against {m['gk']:.1f} with the Gaussian kernel "
            f"(points almost as near as the nearest; fewer is more stable) and k-occurrence skewness "
            f"{sk['ik']:.2f} against {sk['gk']:.2f} (lower: fewer hubs): {stable_words[stable]}, {hub_words[hubs]} "
            f"(one seed, {r.get('rows', len(r['n_eps']['ik'])):,} "
            "rows; a difference under 20 % or 0.1 counts as none).")
    for name, unit, what in (("svm", "accuracy", "SVM"), ("regression", "R²", "Kernel ridge")):
        if name not in results:
            continue
        rows = {r["kernel"]: r for r in results[name]}
        ik, gk, lin = rows["ik"], rows["rbf"], rows["linear"]
        diff, se = _paired(ik["folds"], gk["folds"])
        wins[name] = _winner(diff, se)
        verdict = {"ik": "IK is better here", "gk": "the Gaussian kernel is better here",
                   "tie": "no clear difference between IK and the Gaussian kernel"}[wins[name]]
        k = ik.get("n_folds", len(ik["folds"]))
        sentences[name] = (
            f"{what}, {unit} over {k}-fold {'stratified ' if name == 'svm' else ''}cross-validation on "
            f"{ik.get('rows', 0):,} rows: IK {ik['mean']:.3f} ± {ik['sd']:.3f}{_fmt_params(ik['params'])}, "
            f"Gaussian {gk['mean']:.3f} ± {gk['sd']:.3f}{_fmt_params(gk['params'])}, linear "
            f"{lin['mean']:.3f} ± {lin['sd']:.3f}; IK − Gaussian = {diff:+.3f} ± {se:.3f} (standard error over "
            f"the folds): {verdict}" + (f" (a difference counts over {TIE} and two standard errors)." if
                                        wins[name] == "tie" else "."))
    if "clustering" in results:
        rows = {r["measure"]: r for r in results["clustering"]}
        ik, gk = rows["ik"], rows["gk"]
        if "ami" in ik:
            diff = ik["ami"] - gk["ami"]
            wins["clustering"] = "tie" if abs(diff) <= max(TIE, 0.02) else ("ik" if diff > 0 else "gk")
            verdict = {"ik": "IK's clusters are closer to the classes", "gk": "the Gaussian's clusters are closer "
                       "to the classes", "tie": "no clear difference"}[wins["clustering"]]
            sentences["clustering"] = (
                f"Clustering into {ik['k']} clusters (one per class): AMI {ik['ami']:.3f} with IK against "
                f"{gk['ami']:.3f} with the Gaussian kernel (1: the classes exactly, 0: chance): {verdict} "
                "(one seed; a difference under 0.02 counts as none).")
        else:
            sil = {m: rows[m].get("silhouette", float("nan")) for m in ("ik", "gk")}
            sentences["clustering"] = (
                f"Clustering without classes into {ik['k']} clusters ({ik['k_from']}): silhouette "
                f"{sil['ik']:.2f} with IK against {sil['gk']:.2f} with the Gaussian kernel (Euclidean; higher: "
                f"tighter, better separated clusters), and the two agree with AMI {ik.get('agreement', 0):.2f}; "
                "with no classes there is nothing to score them against, so no winner is called.")
    if "tsne" in results:
        sc = results["tsne"].get("scores") or {}
        if sc.get("ik") and sc.get("gk"):
            diff = sc["ik"]["knn_accuracy"] - sc["gk"]["knn_accuracy"]
            wins["tsne"] = "tie" if abs(diff) <= max(TIE, 0.02) else ("ik" if diff > 0 else "gk")
            sentences["tsne"] = (
                f"t-SNE: 5-NN accuracy of the classes in the 2-D map {sc['ik']['knn_accuracy']:.3f} with IK "
                f"affinities against {sc['gk']['knn_accuracy']:.3f} with Gaussian ones (how well the map keeps "
                "the classes apart; one seed, a difference under 0.02 counts as none).")
        else:
            sentences["tsne"] = ("t-SNE: two maps drawn; without classes there is no score, look at the maps "
                                 "(colour them by any column).")
    counted = {k: v for k, v in wins.items()}
    named = {"neighbours": "neighbours", "svm": "SVM", "regression": "regression", "clustering": "clustering",
             "tsne": "t-SNE"}

    def who(w):
        got = [named[k] for k, v in counted.items() if v == w]
        return f"{len(got)} of {len(counted)} check(s) ({', '.join(got)})" if got else "none"

    verdict = (f"Overall: IK ahead on {who('ik')}; the Gaussian kernel on {who('gk')}; no clear difference on "
               f"{who('tie')}." if counted else "Overall: no check with a winner to call has been run yet.")
    return {"sentences": sentences, "verdict": verdict, "wins": wins}


def _plain(value):
    """``value`` as JSON-able numbers and strings (arrays summarised by their mean and median)."""
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, np.ndarray):
        return {"mean": float(np.mean(value)), "median": float(np.median(value))} if value.size else {}
    if isinstance(value, (np.integer, np.floating)):
        return value.item()
    return value


def numbers(results: dict, params: CheckParams | None = None) -> dict:
    """The numbers of ``results`` as plain JSON (what ``ikviz check --json`` writes and the page shows).

    Per-point arrays (N_eps, k-occurrence, t-SNE coordinates) are summarised
    by their mean and median; the summary's sentences and verdict come first.

    Examples
    --------
    >>> from ikviz.experiments.your_data import numbers
    >>> rows = [{"measure": "ik", "ami": 0.5, "k": 2}, {"measure": "gk", "ami": 0.25, "k": 2}]
    >>> out = numbers({"clustering": rows})
    >>> out["checks"]["clustering"][0], out["summary"]["wins"]
    ({'measure': 'ik', 'ami': 0.5, 'k': 2}, {'clustering': 'ik'})
    """
    out = {"summary": summary(results)}
    if params is not None:
        out["settings"] = _plain(params.settings())
    checks = {}
    for name, res in results.items():
        if name == "tsne":
            res = {k: v for k, v in res.items() if k not in ("coords", "labels")}
        checks[name] = _plain(res)
    out["checks"] = checks
    return out


def data_task(data) -> str | None:
    """What a :class:`~ikviz.data.upload.UserData`'s label asks for: "classification" (two classes or more),
    "regression" (numbers) or None.

    Examples
    --------
    >>> import numpy as np
    >>> from ikviz.data.upload import UserData
    >>> from ikviz.experiments.your_data import data_task
    >>> X = np.zeros((3, 1))
    >>> data_task(UserData(X, np.array([0, 1, 0]), ["x"])), data_task(UserData(X, None, ["x"]))
    ('classification', None)
    """
    if getattr(data, "task", None) == "regression":
        return "regression"
    return "classification" if two_classes(data.y) else None


def page_checks(task: str | None) -> list[str]:
    """The checks a page lists for data whose label asks for ``task``: those that apply, and those that need
    classes (to say why they do not run); the regression check only for a numeric target.

    Examples
    --------
    >>> from ikviz.experiments.your_data import page_checks
    >>> page_checks(None), page_checks("regression")[1]
    (['neighbours', 'svm', 'tsne', 'clustering'], 'svm')
    """
    return [name for name in CHECKS if applicable(name, task) or not CHECKS[name].needs_numbers]


def task_of(p: CheckParams, *, memo: Memo | None = None) -> str | None:
    """:func:`data_task` of ``p``'s rows."""
    memo, _ = resolve(memo, None)
    return data_task(memo(load_source)(p.source, p.max_rows, p.seed))


def data_fingerprint(source: Data, data=None) -> str:
    """The SHA-256 of the uploaded file's bytes, else of the rows (for a report to name what it ran on)."""
    if source_kind(source) == "upload":
        return dict(source.options)["file"].fingerprint
    import hashlib

    if data is None:
        return ""
    h = hashlib.sha256(np.ascontiguousarray(data.X).tobytes())
    if data.y is not None:
        h.update(np.ascontiguousarray(data.y).tobytes())
    return h.hexdigest()


# ------------------------------------------------------------------ files bigger than memory
#: classes up to which the rows per cell are also counted per class (cell purity)
MAX_CELL_CLASSES = 20


def guess_label(columns: list[str]) -> str | None:
    """The column most likely to hold the class: the last one called label, class, y or target.

    Examples
    --------
    >>> from ikviz.experiments.your_data import guess_label
    >>> guess_label(["a", "b", "Class"]), guess_label(["a", "b"])
    ('Class', None)
    """
    return next((c for c in reversed(columns) if c.strip().lower() in ("label", "class", "y", "target")), None)


def file_columns(path: str) -> list[str]:
    """The columns of the data at ``path`` (read from the first file's header or schema only)."""
    from ..data.files import open_source

    return list(open_source(check_data_path(path)).columns)


@dataclass
class BigSample:
    """Rows of a big file drawn by row index: the rows, their data, and how many rows the file has."""

    data: object                    # UserData (features unscaled, labels coded)
    rows: np.ndarray                # sorted row indices into the whole input
    n_rows: int


def big_file_sample(path: str, label: str | None, rows: int, seed: int = 0, *,
                    memo: Memo | None = None) -> BigSample:
    """``rows`` rows of ``path`` drawn at random (seeded) by row index; only the blocks holding them are read.

    The ``server-file`` source of :mod:`ikviz.data` (:func:`ikviz.data.files.load_server_file`), resolved with
    ``memo`` (the block :func:`load_source` shares), on :func:`ikviz.scale.run.shared_client`'s cluster. Labels
    are coded 0..k-1 in the order of their sorted values (``data.classes``).
    """
    from ..data.upload import user_data
    from ..scale.run import shared_client

    shared_client()
    got = resolve_data(check_description(server_file(path, label), rows, seed), memo=resolve(memo, None)[0])
    return BigSample(user_data(got), got.about["row_index"], got.about["of_rows"])


@dataclass(frozen=True)
class BigFileParams:
    """A file (folder, glob) read with Dask: cells and IK + OGD over every row, a sample for the plots."""

    path: str
    label: str | None = None
    psi: int = 64
    t: int = 100
    prefix: int = 1000             # rows IK + OGD fits its map on (the first of the training stream)
    sample_rows: int = 2000        # rows drawn (by index) for the four checks and the plots
    test_fraction: float = 0.2
    seed: int = 0


@dataclass
class BigFileResult:
    """What :func:`big_file_check` found over every row of a big file."""

    params: BigFileParams
    n_rows: int
    features: list
    sample: BigSample               # ``sample_rows`` rows drawn by row index (the checks' and plots' rows)
    fit_rows: int                   # rows the Isolation Kernel was fitted on (t * psi, drawn by row index)
    cell_counts: np.ndarray         # (n_classes or 1, t, psi): rows of every row's class in each cell
    count_classes: list | None      # the classes of ``cell_counts``' first axis, None when not split by class
    sample_cells: np.ndarray        # (sample rows, t): the cells of the sampled rows
    learn: object | None           # ikviz.scale.run.LearnResult, or None without a label
    seconds: float


def big_file_check(p: BigFileParams, *, memo: Memo | None = None, progress: Progress | None = None) -> BigFileResult:
    """Read ``p.path`` lazily on the shared Dask cluster: cells and IK + OGD over every row, a sample for the plots.

    1. The Isolation Kernel (aNNE, ``p.psi``, ``p.t``, seed ``p.seed``) is
       fitted on its ``t * psi`` rows drawn by row index: only those rows are
       computed. The same seed and rows give the same kernel as in memory.
    2. With a label, IK + OGD and FOGD learn from every training row, block by
       block (:func:`ikviz.scale.run.learn`), and are scored on a held-out
       ``p.test_fraction`` of each block.
    3. Every row is mapped to its cell in each partitioning on the workers;
       only the rows per cell (per class, up to :data:`MAX_CELL_CLASSES`
       classes) come back.
    4. :func:`big_file_sample` draws ``p.sample_rows`` rows by index for the
       checks and plots.

    The cluster is :func:`ikviz.scale.run.shared_client`'s: ``$DASK_SCHEDULER_ADDRESS``
    if set, else a ``LocalCluster`` of threads started once per process.
    """
    from .._dask import n_rows
    from ..data.files import read_dataset
    from ..scale.run import cell_counts, learn, shared_client

    memo, progress = resolve(memo, progress)
    start = time.perf_counter()
    path = check_data_path(p.path)
    progress(0.0, "connecting to the Dask cluster")
    client = shared_client()
    ds = read_dataset(path, None, p.label)
    progress(0.01, "counting rows")
    n = n_rows(ds.X)
    if n < 2:
        raise ValueError(f"{path} holds {n} row(s); the checks need at least 2.")
    progress(0.03, f"reading a sample of {min(p.sample_rows, n):,} of {n:,} rows")
    sample = big_file_sample(p.path, p.label, p.sample_rows, p.seed, memo=memo)  # the block load_source uses
    progress(0.08, f"fitting the Isolation Kernel on {p.t * min(p.psi, n):,} rows drawn by row index")
    kernel = isolation_kernel("ik", psi=p.psi, t=p.t, seed=p.seed, n=n).fit(ds.X)
    result = classes = None
    if p.label is not None:
        result = learn(path, p.label, psi=p.psi, t=p.t, prefix=p.prefix, test_fraction=p.test_fraction,
                       seed=p.seed, client=client, stream=io.StringIO(),
                       progress=within(progress, 0.12, 0.7, f"IK + OGD and FOGD over {n:,} rows"))
        if len(result.classes) <= MAX_CELL_CLASSES:
            classes = result.classes
    counts = cell_counts(kernel, ds.X, None if classes is None else ds.y, classes, client=client,
                         progress=within(progress, 0.7 if p.label is not None else 0.12, 1.0,
                                       f"cells of all {n:,} rows"))
    progress(1.0, "done")
    return BigFileResult(p, int(n), list(ds.features), sample, kernel.t * kernel.psi_, counts, classes,
                         kernel.cells(sample.data.X), result, time.perf_counter() - start)


def cell_summary(res: BigFileResult) -> dict:
    """Rows per cell relative to an even share (n / psi), and, with classes, how pure the cells are.

    ``purity``: the fraction of rows whose cell (in one partitioning, averaged
    over the ``t``) has their class as its majority class; ``majority``: the
    share of the largest class, what purity would be if cells ignored classes.
    """
    counts = res.cell_counts
    per_cell = counts.sum(axis=0)                          # (t, psi)
    psi = per_cell.shape[1]
    out = {"relative": (per_cell * psi / max(res.n_rows, 1)).ravel(), "empty": float((per_cell == 0).mean()),
           "purity": None, "majority": None}
    if res.count_classes is not None:
        covered = per_cell.sum(axis=1)                     # rows covered in each partitioning
        out["purity"] = float(np.mean(counts.max(axis=0).sum(axis=1) / np.maximum(covered, 1)))
        out["majority"] = float(counts[:, 0].sum(axis=1).max() / max(covered[0], 1))
    return out
