"""Quick checks of any dataset: would Isolation Kernel beat a Gaussian kernel here, and why?

Four checks, each a pure function of the (prepared) data and a few settings,
built from the same pieces as the paper pages:

- :func:`neighbour_check`: nearest-neighbour instability (N_eps) and hubness
  (k-occurrence skewness) under IK and a Gaussian kernel (ting2021 §4.1);
- :func:`svm_check`: SVM with IK, RBF and linear kernels, and a linear SVM on
  the IK feature map, on a stratified train/test split (ting2018, ting2021);
- :func:`tsne_check`: t-SNE with Gaussian and IK affinities (ting2021 §4.2.4);
- :func:`clustering_check`: spectral clustering with IK and Gaussian
  affinities, scored by AMI against the classes (ting2021 §4.2.2).

A file too big for memory goes through :func:`big_file_check` instead: the
Dask path of :mod:`ikviz.scale` (the kernel fitted on a sample, IK + OGD and
FOGD trained over every row, held-out accuracy), and a seeded sample of rows,
drawn by row index, for the four checks and the plots.
"""

from __future__ import annotations

import io
import os
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from sklearn.model_selection import train_test_split
from sklearn.preprocessing import minmax_scale

from .._validation import check_dense_size, check_matrix
from ..kernels import rbf
from ..measures import k_nearest, k_occurrence, n_eps, precision_at_k, skewness
from ..measures.similarities import gaussian_gamma
from ..registry import isolation_kernel
from ..runner import Memo, Progress, resolve, within

KERNEL_LABELS = {"ik": "Isolation Kernel", "gk": "Gaussian kernel"}


def prepare(X, scale: bool = True) -> np.ndarray:
    """Validated float features, min-max scaled to [0, 1] per column when ``scale`` (as the papers do)."""
    X = check_matrix(X)
    return minmax_scale(X) if scale else X


def _similarities(X, psi: int, t: int, seed: int) -> dict[str, np.ndarray]:
    """Dense IK and Gaussian similarity matrices of the rows of ``X`` (size-guarded)."""
    check_dense_size(len(X), len(X), 512 * 1024**2, "The similarity matrix", "Use fewer rows.")
    ik = isolation_kernel("ik", psi=psi, t=t, seed=seed, n=len(X)).fit(X)
    return {"ik": ik.similarity(X), "gk": rbf(X, gamma=gaussian_gamma(X))}


def neighbour_check(X, y=None, *, psi: int = 32, t: int = 200, seed: int = 0, eps: float = 0.05,
                    k: int = 5) -> dict:
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
    out = {"eps": eps, "k": k, "n_eps": {}, "occurrence": {}, "skewness": {}, "precision": {}}
    for name, S in _similarities(X, psi, t, seed).items():
        np.fill_diagonal(S, 0.0)  # a point is not its own neighbour
        out["n_eps"][name] = n_eps(S, eps)
        nearest = k_nearest(S, k, seed=seed, exclude_self=True)
        occ = k_occurrence(nearest, len(X))
        out["occurrence"][name] = occ
        out["skewness"][name] = float(skewness(occ))
        if y is not None:
            out["precision"][name] = float(precision_at_k(nearest, np.asarray(y)))
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


def svm_check(X, y, *, psi: int = 32, t: int = 200, seed: int = 0, test_size: float = 0.3) -> list[dict]:
    """Accuracy and time of SVMs with IK, RBF and linear kernels, and a linear SVM on the IK feature map.

    One stratified split; RBF uses gamma = 1 / (d var X) (scikit-learn's
    "scale"), IK the given ``psi`` and ``t``; C = 1 throughout. For tuned
    comparisons use the Classification lab.
    """
    from ..learn.svm import fit_evaluate

    X = check_matrix(X)
    y = np.asarray(y)
    counts = np.bincount(y)
    if (counts > 0).sum() < 2:
        raise ValueError("The SVM comparison needs at least two classes.")
    strat = y if counts[counts > 0].min() >= 2 else None
    X_tr, X_te, y_tr, y_te = train_test_split(X, y, test_size=test_size, random_state=seed, stratify=strat)
    runs = {"ik": {"psi": min(psi, len(X_tr))}, "ik-linear": {"psi": min(psi, len(X_tr))},
            "rbf": {"gamma": gaussian_gamma(X_tr)}, "linear": {}}
    rows = []
    for kernel, params in runs.items():
        ev, _ = fit_evaluate(kernel, params, X_tr, y_tr, X_te, y_te, t=t, ik_method="anne", seed=seed)
        rows.append({"kernel": kernel, "accuracy": ev.accuracy, "train_s": ev.train_seconds,
                     "test_s": ev.test_seconds, "params": params})
    return rows


def tsne_check(X, y=None, *, psi: int = 32, t: int = 200, seed: int = 0, perplexity: float = 30.0,
               progress: Progress | None = None) -> dict:
    """Two t-SNE embeddings (Gaussian affinities, IK affinities) with separation scores when labels exist."""
    from ..embedding import separation_scores
    from .tsne import affinities, optimise

    X = check_matrix(X)
    if len(X) < 10:
        raise ValueError(f"t-SNE needs at least 10 rows; got {len(X)}.")
    out = {"coords": {}, "scores": {}, "settings": {}}
    for i, kernel in enumerate(("gk", "ik")):
        step = within(progress, i / 2, (i + 1) / 2, kernel.upper())
        step(0.0, "affinities…")
        aff, used = affinities(kernel, X, perplexity=perplexity, psi=psi, t=t, seed=seed)
        coords, _ = optimise(aff, X, seed=seed, frame_every=50, progress=step)
        out["coords"][kernel] = coords
        out["settings"][kernel] = used
        if y is not None and len(np.unique(y)) >= 2:
            out["scores"][kernel] = separation_scores(coords, np.asarray(y), seed=seed)
    out["labels"] = None if y is None else np.asarray(y)
    return out


def clustering_check(X, y, *, psi: int = 32, t: int = 200, seed: int = 0) -> list[dict]:
    """Spectral clustering with IK and Gaussian affinities into as many clusters as classes; AMI and NMI."""
    from ..clustering import SpectralClustering, scores

    X = check_matrix(X)
    y = np.asarray(y)
    n_clusters = len(np.unique(y))
    if n_clusters < 2:
        raise ValueError("The clustering comparison needs at least two classes to score against.")
    if n_clusters >= len(X):
        raise ValueError(f"{n_clusters} classes for {len(X)} rows: too few rows per class to cluster.")
    check_dense_size(len(X), len(X), 512 * 1024**2, "The affinity matrix", "Use fewer rows.")
    models = {"ik": SpectralClustering(n_clusters, affinity="ik", psi=psi, t=t, kernel_params={"method": "iforest"},
                                       random_state=seed),
              "gk": SpectralClustering(n_clusters, affinity="rbf", gamma=gaussian_gamma(X), random_state=seed)}
    return [{"measure": measure, **scores(y, model.fit_predict(X))} for measure, model in models.items()]


def run_all(X, y=None, *, psi: int = 32, t: int = 200, seed: int = 0) -> dict:
    """Every check that applies to ``(X, y)`` (the ones needing classes are skipped without two)."""
    out = {"neighbours": neighbour_check(X, y, psi=psi, t=t, seed=seed),
           "tsne": tsne_check(X, y, psi=psi, t=t, seed=seed)}
    if y is not None and len(np.unique(y)) >= 2:
        out["svm"] = svm_check(X, y, psi=psi, t=t, seed=seed)
        out["clustering"] = clustering_check(X, y, psi=psi, t=t, seed=seed)
    return out


def bundled(name: str):
    """A bundled data set as the page's :class:`~ikviz.data.upload.UserData` (features unscaled)."""
    from ..data import dataset_info, load_dataset
    from ..data.upload import UserData

    X, y = load_dataset(name)
    classes = [str(c) for c in range(dataset_info(name).n_classes)]
    return UserData(X, y, [f"x{j + 1}" for j in range(X.shape[1])], "label", classes)


# ------------------------------------------------------------------ files bigger than memory
DATA_ROOT_ENV = "IKVIZ_DATA_ROOT"
_SUFFIXES = (".parquet", ".pq", ".csv", ".tsv", ".txt")


def check_data_path(path: str) -> str:
    """``path`` if it names Parquet/CSV data the server may read, else a ``ValueError`` saying why.

    With ``$IKVIZ_DATA_ROOT`` set, only paths inside that folder are allowed, so
    a visitor cannot read other files of the server by typing their path.
    """
    text = str(path).strip()
    if not text:
        raise ValueError("Type the path of a Parquet or CSV file, a folder of them, or a glob.")
    root = os.environ.get(DATA_ROOT_ENV)
    target = Path(text.split("*")[0] or ".").expanduser().resolve()
    if root and not target.is_relative_to(Path(root).expanduser().resolve()):
        raise ValueError(f"{text} is outside the folder this server reads data from ({DATA_ROOT_ENV}={root}).")
    if "*" not in text and target.is_file() and target.suffix.lower() not in _SUFFIXES:
        raise ValueError(f"{target.name} is not a Parquet or CSV file (expected one of {', '.join(_SUFFIXES)}).")
    if "*" not in text and not target.exists():
        raise ValueError(f"No file or folder at {text}.")
    return text


def guess_label(columns: list[str]) -> str | None:
    """The column most likely to hold the class: the last one called label, class, y or target."""
    return next((c for c in reversed(columns) if c.strip().lower() in ("label", "class", "y", "target")), None)


def file_columns(path: str) -> list[str]:
    """The columns of the data at ``path`` (read from the first file's header or schema only)."""
    from ..scale.io import open_source

    return list(open_source(check_data_path(path)).columns)


@dataclass(frozen=True)
class BigFileParams:
    """A file (folder, glob) read with Dask: IK + OGD over every row, a sample for the other checks."""

    path: str
    label: str | None = None
    psi: int = 64
    t: int = 100
    prefix: int = 1000             # rows the kernel is fitted on (IK + OGD's sample)
    sample_rows: int = 2000        # rows drawn (by index) for the four checks and the plots
    test_fraction: float = 0.2
    seed: int = 0


@dataclass
class BigFileResult:
    params: BigFileParams
    n_rows: int
    features: list
    sample: object                 # UserData of ``sample_rows`` rows drawn by row index
    learn: object | None           # ikviz.scale.run.LearnResult, or None without a label
    seconds: float


def big_file_check(p: BigFileParams, *, memo: Memo | None = None, progress: Progress | None = None) -> BigFileResult:
    """Read ``p.path`` lazily on a Dask cluster; learn over every row; draw a sample for the plots.

    The cluster is ``$DASK_SCHEDULER_ADDRESS`` if set, else a ``LocalCluster``
    of threads in this process, closed at the end.
    """
    import time

    from ..data.upload import UserData
    from ..scale.arrays import n_rows, take_rows
    from ..scale.cluster import connect
    from ..scale.io import read_dataset
    from ..scale.run import learn

    _, progress = resolve(memo, progress)
    start = time.perf_counter()
    path = check_data_path(p.path)
    progress(0.0, "starting the Dask cluster")
    with connect(None, quiet=True, processes=False) as client:
        ds = read_dataset(path, None, p.label)
        progress(0.02, "counting rows")
        n = n_rows(ds.X)
        if n < 2:
            raise ValueError(f"{path} holds {n} row(s); the checks need at least 2.")
        rows = np.sort(np.random.default_rng(p.seed).choice(n, min(p.sample_rows, n), replace=False))
        progress(0.05, f"reading a sample of {len(rows):,} of {n:,} rows")
        X = take_rows(ds.X, rows)
        y, classes = None, []
        if p.label is not None:
            raw = np.asarray(ds.y[rows].compute())  # only the chunks that hold sampled rows
            values, y = np.unique(raw, return_inverse=True)
            classes = [str(v) for v in values]
        sample = UserData(X, y, list(ds.features), p.label or "label", classes)
        result = None
        if p.label is not None:
            result = learn(path, p.label, psi=p.psi, t=p.t, prefix=p.prefix, test_fraction=p.test_fraction,
                           seed=p.seed, client=client, progress=False, stream=io.StringIO(),
                           report=within(progress, 0.1, 1.0, f"IK + OGD and FOGD over {n:,} rows"))
    progress(1.0, "done")
    return BigFileResult(p, int(n), list(ds.features), sample, result, time.perf_counter() - start)
