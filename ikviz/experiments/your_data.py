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

Each has a run (:func:`neighbour_check_run`, :func:`svm_check_run`,
:func:`tsne_check_run`, :func:`clustering_check_run`) with the signature of
:mod:`ikviz.runner`: its :class:`CheckParams` name the data (a :class:`Source`:
a bundled data set, an uploaded file's bytes, or a big file's sample), the
rows used and the kernel's settings; the rows are loaded once
(:func:`check_data`) and shared by the four runs.

A file too big for memory goes through :func:`big_file_check`: the Dask path
of :mod:`ikviz.scale` on the server's shared cluster. The Isolation Kernel is
fitted on its ``t * psi`` rows drawn by row index, every row is mapped to its
cells (rows per cell, per class), IK + OGD and FOGD learn from every row chunk
by chunk and are scored on a held-out part, and a seeded sample of rows, drawn
by row index (:func:`big_file_sample`), feeds the four checks and the plots.

Examples
--------
>>> from ikviz.experiments.your_data import CheckParams, Source, neighbour_check_run
>>> res = neighbour_check_run(CheckParams(Source("bundled", "iris"), max_rows=60, psi=8, t=30))
>>> sorted(res["skewness"]), len(res["n_eps"]["ik"])
(['gk', 'ik'], 60)
"""

from __future__ import annotations

import io
import os
import time
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
                    k: int = 5, progress: Progress | None = None) -> dict:
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
    for i, (name, S) in enumerate(_similarities(X, psi, t, seed).items()):
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


def svm_check(X, y, *, psi: int = 32, t: int = 200, seed: int = 0, test_size: float = 0.3,
              progress: Progress | None = None) -> list[dict]:
    """Accuracy and time of SVMs with IK, RBF and linear kernels, and a linear SVM on the IK feature map.

    One split (stratified when every class has two rows or more; every row
    states it: ``n_train``, ``n_test``, ``stratified``, ``split_seed``,
    ``test_size``); RBF uses gamma = 1 / (d var X) (scikit-learn's "scale"),
    IK the given ``psi`` and ``t``; C = 1 throughout. For tuned comparisons
    use the Classification lab.
    """
    from ..learn.svm import fit_evaluate

    X = check_matrix(X)
    y = np.asarray(y)
    counts = np.bincount(y)
    if (counts > 0).sum() < 2:
        raise ValueError("The SVM comparison needs at least two classes.")
    strat = y if counts[counts > 0].min() >= 2 else None
    X_tr, X_te, y_tr, y_te = train_test_split(X, y, test_size=test_size, random_state=seed, stratify=strat)
    split = {"n_train": len(y_tr), "n_test": len(y_te), "stratified": strat is not None, "split_seed": seed,
             "test_size": test_size}
    runs = {"ik": {"psi": min(psi, len(X_tr))}, "ik-linear": {"psi": min(psi, len(X_tr))},
            "rbf": {"gamma": gaussian_gamma(X_tr)}, "linear": {}}
    progress = within(progress, 0.0, 1.0)
    rows = []
    for i, (kernel, params) in enumerate(runs.items()):
        progress(i / len(runs), f"SVM {i + 1} of {len(runs)}: {kernel}")
        ev, _ = fit_evaluate(kernel, params, X_tr, y_tr, X_te, y_te, t=t, ik_method="anne", seed=seed)
        rows.append({"kernel": kernel, "accuracy": ev.accuracy, "train_s": ev.train_seconds,
                     "test_s": ev.test_seconds, "params": params, **split})
    progress(1.0, "done")
    return rows


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
    start = pca(X, 2, random_state=seed)  # one start for both kernels, so only the affinities differ
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


def clustering_check(X, y, *, psi: int = 32, t: int = 200, seed: int = 0,
                     progress: Progress | None = None) -> list[dict]:
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
    progress = within(progress, 0.0, 1.0)
    rows = []
    for i, (measure, model) in enumerate(models.items()):
        progress(i / len(models), f"spectral clustering with the {KERNEL_LABELS[measure]}")
        rows.append({"measure": measure, **scores(y, model.fit_predict(X))})
    progress(1.0, "done")
    return rows


def run_all(X, y=None, *, psi: int = 32, t: int = 200, seed: int = 0) -> dict:
    """Every check that applies to ``(X, y)`` (the ones needing classes are skipped without two)."""
    out = {"neighbours": neighbour_check(X, y, psi=psi, t=t, seed=seed),
           "tsne": tsne_check(X, y, psi=psi, t=t, seed=seed)}
    if two_classes(y):
        out["svm"] = svm_check(X, y, psi=psi, t=t, seed=seed)
        out["clustering"] = clustering_check(X, y, psi=psi, t=t, seed=seed)
    return out


# ------------------------------------------------------------------ the data of the checks
def bundled(name: str):
    """A bundled data set as the page's :class:`~ikviz.data.upload.UserData` (features unscaled)."""
    from ..data import dataset_info, load_dataset
    from ..data.upload import UserData

    X, y = load_dataset(name)
    classes = [str(c) for c in range(dataset_info(name).n_classes)]
    return UserData(X, y, [f"x{j + 1}" for j in range(X.shape[1])], "label", classes)


class FileBytes:
    """An uploaded file's bytes, known by their SHA-256 fingerprint.

    Equal, hashed and pickled by the fingerprint (and name) only, so a memo
    key of a 50 MB upload digests 64 characters instead of the whole file on
    every rerun. The bytes of a file unpickled in this process are found again
    while any :class:`FileBytes` of it is alive; elsewhere they are not sent.

    Examples
    --------
    >>> from ikviz.experiments.your_data import FileBytes
    >>> a, b = FileBytes(b"x,y\\n1,2\\n", "a.csv"), FileBytes(b"x,y\\n1,2\\n", "a.csv")
    >>> a == b, hash(a) == hash(b), a.fingerprint[:12], len(a)
    (True, True, '81bf9fa83c6f', 8)
    """

    __slots__ = ("__weakref__", "fingerprint", "name", "raw")
    _alive = None  # weakref.WeakValueDictionary, created on first use

    def __init__(self, raw: bytes, name: str = ""):
        import hashlib
        import weakref

        self.raw = bytes(raw)
        self.name = str(name or "")
        self.fingerprint = hashlib.sha256(self.raw).hexdigest()
        if FileBytes._alive is None:
            FileBytes._alive = weakref.WeakValueDictionary()
        FileBytes._alive[self.fingerprint] = self

    def __len__(self) -> int:
        return len(self.raw)

    def __eq__(self, other) -> bool:
        return isinstance(other, FileBytes) and (self.fingerprint, self.name) == (other.fingerprint, other.name)

    def __hash__(self) -> int:
        return hash((self.fingerprint, self.name))

    def __repr__(self) -> str:
        return f"FileBytes({self.name!r}, {len(self.raw):,} bytes, sha256 {self.fingerprint[:12]})"

    def __reduce__(self):
        return _file_bytes, (self.fingerprint, self.name)


def _file_bytes(fingerprint: str, name: str) -> FileBytes:
    found = (FileBytes._alive or {}).get(fingerprint)
    if found is None:
        raise ValueError(f"The bytes of {name or 'the uploaded file'} are no longer held: upload it again.")
    return found if found.name == name else FileBytes(found.raw, name)


def as_file(raw, name: str = "") -> FileBytes:
    """``raw`` (bytes, str or :class:`FileBytes`) as :class:`FileBytes`."""
    if isinstance(raw, FileBytes):
        return raw
    return FileBytes(raw.encode("utf-8") if isinstance(raw, str) else raw, name)


def inspect_upload(file: FileBytes, missing: str = "error"):
    """:func:`ikviz.data.upload.inspect_file` of an upload: format, columns with kind and suggested role, preview."""
    from ..data import upload

    return upload.inspect_file(file.raw, file.name or None, missing=missing)


def read_upload(file: FileBytes, label: str | None = None, missing: str = "error", roles: tuple = ()):
    """:func:`ikviz.data.upload.read_table` of an upload with the column choices (``roles``: name, role pairs)."""
    from ..data import upload

    return upload.read_table(file.raw, label=label, missing=missing, filename=file.name or None,
                             roles=dict(roles) or None)


SOURCE_KINDS = ("bundled", "upload", "big")


@dataclass(frozen=True)
class Source:
    """Where the rows come from: a bundled data set, an uploaded file, or a sample of a big file on the server."""

    kind: str = "bundled"           # one of SOURCE_KINDS
    name: str = "wine"              # bundled: the data set; upload: the file's name; big: its path
    raw: bytes | FileBytes = b""    # upload: the file's bytes (FileBytes: keyed by fingerprint)
    label: str | None = None        # upload, big: the label column (None: no classes)
    drop_missing: bool = False      # upload: drop rows with missing values instead of refusing them
    roles: tuple = ()               # upload: (column, role) pairs, role one of feature/label/ignore/encode

    def title(self) -> str:
        """The data in a few words: ``wine (bundled)``, ``mine.csv (your file)``, a path (big file)."""
        return {"bundled": f"{self.name} (bundled data set)", "upload": f"{self.name} (your file)",
                "big": f"{self.name} (file on the server)"}.get(self.kind, self.name)


def _full_data(source: Source, *, memo: Memo | None = None):
    memo, _ = resolve(memo, None)
    if source.kind == "bundled":
        return memo(bundled)(source.name)
    if source.kind == "upload":
        return memo(read_upload)(as_file(source.raw, source.name), source.label,
                                 "drop" if source.drop_missing else "error", tuple(source.roles))
    raise ValueError(f"Unknown data source {source.kind!r}; expected one of {', '.join(SOURCE_KINDS)}.")


def load_source(source: Source, max_rows: int, seed: int = 0, *, memo: Memo | None = None):
    """At most ``max_rows`` rows of ``source`` as :class:`~ikviz.data.upload.UserData` (unscaled).

    A bundled data set or an upload is read whole (once: the reading is a
    memoised block keyed by the file's fingerprint and the column choices) and
    subsampled at random (stratified, with a note); a big file gives the
    :func:`big_file_sample` of ``max_rows`` rows drawn by row index, never
    reading the file whole.
    """
    from ..data import upload

    memo, _ = resolve(memo, None)
    if source.kind == "big":
        return memo(big_file_sample)(source.name, source.label, max_rows, seed).data
    return upload.subsample(_full_data(source, memo=memo), max_rows, seed=seed)


def source_rows(source: Source, seed: int = 0, *, memo: Memo | None = None) -> int:
    """How many rows ``source`` has in all (the checks may use a sample of them)."""
    memo, _ = resolve(memo, None)
    if source.kind == "big":
        from .._dask import n_rows
        from ..scale.io import read_dataset

        return int(n_rows(read_dataset(check_data_path(source.name), None, source.label).X))
    return len(_full_data(source, memo=memo).X)


@dataclass(frozen=True)
class CheckParams:
    """One check's view: the data, how many rows, scaling, and the Isolation Kernel's settings."""

    source: Source = Source()
    max_rows: int = 2000
    scale: bool = True
    psi: int = 32
    t: int = 200
    seed: int = 0

    def settings(self) -> dict:
        """The settings in words, for tables and reports."""
        return {"ψ": self.psi, "t": self.t, "seed": self.seed, "rows used (at most)": self.max_rows,
                "features scaled to [0, 1]": "yes" if self.scale else "no"}


def check_data(source: Source, max_rows: int, scale: bool, seed: int, *, memo: Memo | None = None):
    """``(X, y)`` the checks run on: :func:`load_source`'s rows, :func:`prepare`\\ d; ``y`` None without classes."""
    data = resolve(memo, None)[0](load_source)(source, max_rows, seed)
    return prepare(data.X, scale=scale), data.y


def _kernel_settings(p: CheckParams) -> dict:
    return {"psi": p.psi, "t": p.t, "seed": p.seed}


def _rows(p: CheckParams, memo: Memo) -> tuple[np.ndarray, np.ndarray | None, dict]:
    """The rows of ``p`` and what every result states about them: rows used, of how many, class names."""
    X, y = memo(check_data)(p.source, p.max_rows, p.scale, p.seed)
    data = memo(load_source)(p.source, p.max_rows, p.seed)
    if p.source.kind == "big":
        total = memo(big_file_sample)(p.source.name, p.source.label, p.max_rows, p.seed).n_rows
    else:
        total = memo(source_rows)(p.source, p.seed)
    return X, y, {"rows": len(X), "of_rows": int(total), "classes": list(data.classes) if y is not None else []}


def neighbour_check_run(p: CheckParams, *, memo: Memo | None = None, progress: Progress | None = None) -> dict:
    """:func:`neighbour_check` on the rows of ``p`` (runner convention); states ``rows``, ``of_rows``, ``classes``."""
    memo, progress = resolve(memo, progress)
    X, y, about = _rows(p, memo)
    return {**neighbour_check(X, y, **_kernel_settings(p), progress=progress), **about}


def svm_check_run(p: CheckParams, *, memo: Memo | None = None, progress: Progress | None = None) -> list[dict]:
    """:func:`svm_check` on the rows of ``p`` (runner convention); each row also states ``rows``, ``of_rows``."""
    memo, progress = resolve(memo, progress)
    X, y, about = _rows(p, memo)
    if y is None:
        raise ValueError("The SVM comparison needs at least two classes: pick a label column.")
    return [{**r, **about} for r in svm_check(X, y, **_kernel_settings(p), progress=progress)]


def tsne_check_run(p: CheckParams, *, memo: Memo | None = None, progress: Progress | None = None) -> dict:
    """:func:`tsne_check` on the rows of ``p`` (runner convention); states ``rows``, ``of_rows``, ``classes``."""
    memo, progress = resolve(memo, progress)
    X, y, about = _rows(p, memo)
    return {**tsne_check(X, y, **_kernel_settings(p), progress=progress), **about}


def clustering_check_run(p: CheckParams, *, memo: Memo | None = None,
                         progress: Progress | None = None) -> list[dict]:
    """:func:`clustering_check` on the rows of ``p`` (runner convention); each row also states the rows used."""
    memo, progress = resolve(memo, progress)
    X, y, about = _rows(p, memo)
    if y is None:
        raise ValueError("The clustering comparison needs at least two classes: pick a label column.")
    return [{**r, **about} for r in clustering_check(X, y, **_kernel_settings(p), progress=progress)]


@dataclass(frozen=True)
class Check:
    """One of the four checks: how the page names it, how it runs, whether it needs classes, what it costs."""

    title: str  #: its heading
    run: str  #: the name of its run in this module (looked up when called, see :func:`check_run`)
    needs_classes: bool
    button: str  #: the label of the button that runs it
    what: str  #: the check as a sentence names it ("Problem with the SVM comparison: ...")
    help: str  #: what it does, in a line
    base_seconds: float  #: rough seconds on 1,000 rows with t = 200, before a run of it has been timed
    without_classes: str = ""  #: why a check that needs classes is not offered without them


#: the four checks by name, in the page's order
CHECKS = {
    "neighbours": Check("Nearest neighbours: instability and hubness", "neighbour_check_run", False,
                        button="Run the neighbour check", what="the neighbour check",
                        help="IK vs Gaussian: N_eps and k-occurrence skewness", base_seconds=0.6),
    "svm": Check("SVM: IK vs RBF vs linear", "svm_check_run", True,
                 button="Run the SVM comparison", what="the SVM comparison",
                 help="Train/test split, accuracy and time per kernel", base_seconds=1.5,
                 without_classes="The SVM comparison needs a label column with at least two classes."),
    "tsne": Check("t-SNE: Gaussian vs IK affinities", "tsne_check_run", False,
                  button="Run t-SNE", what="t-SNE",
                  help="Two t-SNE embeddings side by side, coloured by class", base_seconds=6.0),
    "clustering": Check("Clustering: spectral clustering with IK vs Gaussian", "clustering_check_run", True,
                        button="Run the clustering comparison", what="the clustering comparison",
                        help="Spectral clustering, AMI against the classes", base_seconds=2.0,
                        without_classes="The clustering comparison scores clusters against the classes, so it "
                                        "needs a label column with at least two classes."),
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


def applicable(name: str, has_classes: bool) -> bool:
    """Whether check ``name`` applies to data with (or without) two classes or more."""
    return has_classes or not CHECKS[name].needs_classes


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
    _, y = memo(check_data)(p.source, p.max_rows, p.scale, p.seed)
    names = [c for c in (checks or CHECKS) if applicable(c, two_classes(y))]
    out = {}
    for i, name in enumerate(names):
        out[name] = memo(check_run(name))(p, progress=within(progress, i / len(names), (i + 1) / len(names),
                                                           CHECKS[name].title.split(":")[0]))
    progress(1.0, "done")
    return out


def data_fingerprint(source: Source, data=None) -> str:
    """The SHA-256 of the uploaded file's bytes, else of the rows (for a report to name what it ran on)."""
    if source.kind == "upload":
        return as_file(source.raw, source.name).fingerprint
    import hashlib

    if data is None:
        return ""
    h = hashlib.sha256(np.ascontiguousarray(data.X).tobytes())
    if data.y is not None:
        h.update(np.ascontiguousarray(data.y).tobytes())
    return h.hexdigest()


# ------------------------------------------------------------------ files bigger than memory
DATA_ROOT_ENV = "IKVIZ_DATA_ROOT"
#: what the server reads from a typed path (the formats of :mod:`ikviz.scale.io`); nothing else is opened
DATA_SUFFIXES = (".parquet", ".pq", ".csv")
#: classes up to which the rows per cell are also counted per class (cell purity)
MAX_CELL_CLASSES = 20


def data_root() -> Path | None:
    """The folder typed paths must lie in (``$IKVIZ_DATA_ROOT``), or None when unrestricted."""
    root = os.environ.get(DATA_ROOT_ENV, "").strip()
    return Path(root).expanduser().resolve() if root else None


def path_help() -> str:
    """How a typed path is read, and which paths may be typed (from ``$IKVIZ_DATA_ROOT``).

    Examples
    --------
    >>> from ikviz.experiments.your_data import path_help
    >>> "Only Parquet (.parquet, .pq) and CSV (.csv) files are opened." in path_help()
    True
    """
    root = data_root()
    where = (f"Only paths inside {root} can be read ({DATA_ROOT_ENV})." if root else
             f"Any folder this server can read is allowed: set {DATA_ROOT_ENV} to restrict typed paths to "
             "one folder.")
    return ("Read with Dask, never loaded whole: the kernel is fitted on rows drawn by row index, every row is "
            "mapped to its cells, IK + OGD and FOGD learn from every row. Only Parquet (.parquet, .pq) and CSV "
            f"(.csv) files are opened. {where}")


def check_data_path(path: str) -> str:
    """``path`` if it names Parquet/CSV data the server may read, else a ``ValueError`` saying why.

    Only Parquet and CSV files are opened. With ``$IKVIZ_DATA_ROOT`` set, the
    path and every file it names (after following links) must lie inside that
    folder, so a visitor cannot read other files of the server by typing their
    path. Only names are looked at here, never the files' contents.

    Examples
    --------
    >>> from ikviz.experiments.your_data import check_data_path
    >>> check_data_path("/no/such/folder")
    Traceback (most recent call last):
    ...
    ValueError: No file or folder at /no/such/folder.
    """
    from ..scale.io import find_files

    text = str(path).strip()
    if not text:
        raise ValueError("Type the path of a Parquet or CSV file, a folder of them, or a glob.")
    root = data_root()
    glob = any(ch in text for ch in "*?[")
    start = Path(text.split("*")[0].split("?")[0].split("[")[0] or ".").expanduser().resolve()
    if root is not None and not start.is_relative_to(root):
        raise ValueError(f"{text} is outside the folder this server reads data from ({DATA_ROOT_ENV}={root}).")
    if not glob and not start.exists():
        raise ValueError(f"No file or folder at {text}.")
    if not glob and start.is_file() and start.suffix.lower() not in DATA_SUFFIXES:
        raise ValueError(f"{start.name} is not a Parquet or CSV file (expected one of {', '.join(DATA_SUFFIXES)}).")
    for file in find_files(text):
        real = Path(file).resolve()
        if real.suffix.lower() not in DATA_SUFFIXES:
            raise ValueError(f"{file} is not a Parquet or CSV file (expected one of {', '.join(DATA_SUFFIXES)}).")
        if root is not None and not real.is_relative_to(root):
            raise ValueError(f"{file} leads outside the folder this server reads data from "
                             f"({DATA_ROOT_ENV}={root}).")
    return text


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
    from ..scale.io import open_source

    return list(open_source(check_data_path(path)).columns)


@dataclass
class BigSample:
    """Rows of a big file drawn by row index: the rows, their data, and how many rows the file has."""

    data: object                    # UserData (features unscaled, labels coded)
    rows: np.ndarray                # sorted row indices into the whole input
    n_rows: int


def big_file_sample(path: str, label: str | None, rows: int, seed: int = 0) -> BigSample:
    """``rows`` rows of ``path`` drawn at random (seeded) by row index; only the blocks holding them are read.

    Runs on :func:`ikviz.scale.run.shared_client`'s cluster. Labels are coded
    0..k-1 in the order of their sorted values (``data.classes``).
    """
    from ..data.upload import UserData
    from .._dask import n_rows, take_rows
    from ..scale.io import read_dataset
    from ..scale.run import shared_client

    path = check_data_path(path)
    shared_client()
    ds = read_dataset(path, None, label)
    n = n_rows(ds.X)
    if n < 2:
        raise ValueError(f"{path} holds {n} row(s); the checks need at least 2.")
    index = np.sort(np.random.default_rng(seed).choice(n, min(int(rows), n), replace=False))
    X = take_rows(ds.X, index)
    y, classes = None, []
    if label is not None:
        raw = np.asarray(ds.y[index].compute())  # only the chunks that hold sampled rows
        values, y = np.unique(raw, return_inverse=True)
        classes = [str(v) for v in values]
    note = (f"A sample of {len(index):,} of the {n:,} rows, drawn at random by row index (seed {seed}): "
            "the checks and plots below use these rows.")
    return BigSample(UserData(X, y, list(ds.features), label or "label", classes, [note]), index, int(n))


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
    from ..scale.io import read_dataset
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
    sample = memo(big_file_sample)(p.path, p.label, p.sample_rows, p.seed)  # the key load_source uses
    progress(0.08, f"fitting the Isolation Kernel on {p.t * min(p.psi, n):,} rows drawn by row index")
    kernel = isolation_kernel("ik", psi=p.psi, t=p.t, seed=p.seed, n=n).fit(ds.X)
    result = classes = None
    if p.label is not None:
        result = learn(path, p.label, psi=p.psi, t=p.t, prefix=p.prefix, test_fraction=p.test_fraction,
                       seed=p.seed, client=client, progress=False, stream=io.StringIO(),
                       report=within(progress, 0.12, 0.7, f"IK + OGD and FOGD over {n:,} rows"))
        if len(result.classes) <= MAX_CELL_CLASSES:
            classes = result.classes
    counts = cell_counts(kernel, ds.X, None if classes is None else ds.y, classes, client=client,
                         report=within(progress, 0.7 if p.label is not None else 0.12, 1.0,
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
