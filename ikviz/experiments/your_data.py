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
"""

from __future__ import annotations

import numpy as np
from sklearn.model_selection import train_test_split
from sklearn.preprocessing import minmax_scale

from .._validation import check_dense_size, check_matrix
from ..kernels import IsolationKernel, rbf
from ..measures import k_nearest, k_occurrence, n_eps, precision_at_k, skewness
from ..measures.similarities import gaussian_gamma

KERNEL_LABELS = {"ik": "Isolation Kernel", "gk": "Gaussian kernel"}


def prepare(X, scale: bool = True) -> np.ndarray:
    """Validated float features, min-max scaled to [0, 1] per column when ``scale`` (as the papers do)."""
    X = check_matrix(X)
    return minmax_scale(X) if scale else X


def _similarities(X, psi: int, t: int, seed: int) -> dict[str, np.ndarray]:
    """Dense IK and Gaussian similarity matrices of the rows of ``X`` (size-guarded)."""
    check_dense_size(len(X), len(X), 512 * 1024**2, "The similarity matrix", "Use fewer rows.")
    ik = IsolationKernel(psi=min(psi, len(X)), t=t, random_state=seed).fit(X)
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


def tsne_check(X, y=None, *, psi: int = 32, t: int = 200, seed: int = 0, perplexity: float = 30.0) -> dict:
    """Two t-SNE embeddings (Gaussian affinities, IK affinities) with separation scores when labels exist."""
    from ..embedding import separation_scores
    from .tsne import affinities, optimise

    X = check_matrix(X)
    if len(X) < 10:
        raise ValueError(f"t-SNE needs at least 10 rows; got {len(X)}.")
    out = {"coords": {}, "scores": {}, "settings": {}}
    for kernel in ("gk", "ik"):
        aff, used = affinities(kernel, X, perplexity=perplexity, psi=psi, t=t, seed=seed)
        coords, _ = optimise(aff, X, seed=seed, frame_every=10_000)
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
