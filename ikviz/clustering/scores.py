"""Agreement of a clustering with the class labels, and the min-max scaling the papers apply first."""

from __future__ import annotations

import numpy as np
from scipy.optimize import linear_sum_assignment
from sklearn.metrics import adjusted_mutual_info_score, normalized_mutual_info_score

from .._sklearn import validate_params
from .._validation import check_dense_size, check_matrix

#: largest clusters x classes overlap table match_labels builds (its matching costs ~ the cube of the side)
MATCH_BUDGET = 32 * 1024**2


def _label_pair(y_true, labels) -> tuple[np.ndarray, np.ndarray]:
    """Both label arrays as 1-D arrays of equal length, or a ValueError naming the problem."""
    out = []
    for name, value in (("y_true", y_true), ("labels", labels)):
        arr = np.asarray(value)
        if arr.ndim == 2 and arr.shape[1] == 1:
            arr = arr[:, 0]
        if arr.ndim != 1:
            raise ValueError(f"{name} must be 1-D (one label per point); got an array of shape {arr.shape}.")
        if arr.size == 0:
            raise ValueError(f"{name} is empty; pass one label per point.")
        if arr.dtype.kind == "c":
            raise ValueError(f"{name} is complex-valued; labels must be integers or strings.")
        if arr.dtype.kind == "f" and not np.isfinite(arr).all():
            raise ValueError(f"{name} has NaN or infinite labels; every point needs a label.")
        out.append(arr)
    if out[0].shape != out[1].shape:
        raise ValueError(f"y_true has {out[0].size} labels but the clustering (labels) has {out[1].size}.")
    return out[0], out[1]


def _unique(arr: np.ndarray, name: str):
    """``np.unique(arr, return_inverse=True)``, or a TypeError naming ``name`` for labels that cannot be sorted."""
    try:
        return np.unique(arr, return_inverse=True)
    except TypeError as exc:
        raise TypeError(f"{name} holds labels that cannot be compared ({exc}); use integers or strings.") from None


@validate_params({"y_true": ["array-like"], "labels": ["array-like"]}, prefer_skip_nested_validation=True)
def scores(y_true, labels) -> dict[str, float]:
    """AMI (Vinh et al. 2010; ting2021 Table 3) and NMI (wang2017 Table 6) of ``labels`` against ``y_true``.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        Class labels, at least two classes.
    labels : array-like of shape (n_samples,)
        Cluster labels; only the partition matters, not the names.

    Returns
    -------
    scores : dict
        ``{"ami": float, "nmi": float}``; 1 = the classes recovered, AMI about 0 = chance.

    Examples
    --------
    >>> from ikviz.clustering import scores
    >>> scores([0, 0, 1, 1], [5, 5, 3, 3])
    {'ami': 1.0, 'nmi': 1.0}
    """
    y_true, labels = _label_pair(y_true, labels)
    _unique(labels, "labels")
    if _unique(y_true, "y_true")[0].size < 2:
        raise ValueError("y_true has a single class, so AMI and NMI cannot tell a good clustering "
                         "from a bad one; use data with at least two classes.")
    return {"ami": float(adjusted_mutual_info_score(y_true, labels)),
            "nmi": float(normalized_mutual_info_score(y_true, labels))}


@validate_params({"X": ["array-like"]}, prefer_skip_nested_validation=True)
def minmax(X) -> np.ndarray:
    """Scale every feature to [0, 1], as ting2021 (App. B) does before clustering.

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)

    Returns
    -------
    X_scaled : ndarray of shape (n_samples, n_features)
        Constant features become 0 (they carry no information).

    Raises
    ------
    ValueError
        If every feature is constant: there is nothing to cluster.

    Examples
    --------
    >>> from ikviz.clustering import minmax
    >>> minmax([[1.0, 7.0], [3.0, 7.0], [2.0, 7.0]]).tolist()
    [[0.0, 0.0], [1.0, 0.0], [0.5, 0.0]]
    """
    X = check_matrix(X)
    lo, hi = X.min(axis=0), X.max(axis=0)
    # halves first: hi - lo overflows for columns spanning more than the float range
    half_span = hi / 2 - lo / 2
    if not np.any(half_span > 0):
        raise ValueError("every feature is constant in X, so all points are identical; there is nothing to cluster.")
    live = half_span > 0
    out = np.zeros_like(X)
    out[:, live] = np.clip(((X[:, live] / 2 - lo[live] / 2) / half_span[live]), 0.0, 1.0)
    return out


@validate_params({"y_true": ["array-like"], "labels": ["array-like"]}, prefer_skip_nested_validation=True)
def match_labels(y_true, labels) -> np.ndarray:
    """Rename the clusters in ``labels`` so each matches the class it overlaps most (Hungarian matching).

    The partition is unchanged (AMI and NMI are too); only the names move, so a
    plot can colour a recovered class like the class itself. Clusters left
    over when there are more clusters than classes get the next free names.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        Class labels.
    labels : array-like of shape (n_samples,)
        Cluster labels.

    Returns
    -------
    renamed : ndarray of shape (n_samples,), int64
        Cluster names 0, 1, ...: class i's position in ``np.unique(y_true)``
        for the cluster matched to it.

    Raises
    ------
    ValueError
        When the clusters x classes overlap table would exceed 32 MiB (about
        2,000 x 2,000): the matching would take minutes. Compare such
        partitions with :func:`scores` instead.

    Examples
    --------
    >>> from ikviz.clustering import match_labels
    >>> match_labels([0, 0, 1, 1, 2], [7, 7, 3, 3, 5]).tolist()
    [0, 0, 1, 1, 2]
    """
    y_true, labels = _label_pair(y_true, labels)
    classes, y_idx = _unique(y_true, "y_true")
    clusters, c_idx = _unique(labels, "labels")
    check_dense_size(clusters.size, classes.size, MATCH_BUDGET,
                     f"Matching {clusters.size} clusters (labels) to {classes.size} classes (y_true)",
                     "match_labels is meant for a few clusters and classes; compare such partitions with "
                     "scores() (AMI / NMI), which needs no matching.")
    overlap = np.zeros((clusters.size, classes.size), dtype=np.int64)
    np.add.at(overlap, (c_idx, y_idx), 1)
    rows, cols = linear_sum_assignment(-overlap)
    names = np.full(clusters.size, -1, dtype=np.int64)
    names[rows] = cols
    spare = np.flatnonzero(names < 0)
    names[spare] = classes.size + np.arange(spare.size)
    return names[c_idx]
