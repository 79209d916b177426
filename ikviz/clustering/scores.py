"""Agreement of a clustering with the class labels, and the min-max scaling the papers apply first."""

from __future__ import annotations

import numpy as np
from scipy.optimize import linear_sum_assignment
from sklearn.metrics import adjusted_mutual_info_score, normalized_mutual_info_score

from .._validation import check_matrix


def scores(y_true, labels) -> dict[str, float]:
    """AMI (Vinh et al. 2010; ting2021 Table 3) and NMI (wang2017 Table 6) of ``labels`` against ``y_true``."""
    y_true, labels = np.asarray(y_true).ravel(), np.asarray(labels).ravel()
    if y_true.shape != labels.shape:
        raise ValueError(f"y_true has {y_true.size} labels but the clustering has {labels.size}.")
    if np.unique(y_true).size < 2:
        raise ValueError("the labels have a single class, so AMI and NMI cannot tell a good clustering "
                         "from a bad one; use data with at least two classes.")
    return {"ami": float(adjusted_mutual_info_score(y_true, labels)),
            "nmi": float(normalized_mutual_info_score(y_true, labels))}


def minmax(X) -> np.ndarray:
    """Scale every feature to [0, 1], as ting2021 (App. B) does before clustering.

    Constant features become 0 (they carry no information); if every feature is
    constant there is nothing to cluster and a ``ValueError`` says so.
    """
    X = check_matrix(X)
    lo, span = X.min(axis=0), np.ptp(X, axis=0)
    if not np.any(span > 0):
        raise ValueError("every feature is constant, so all points are identical; there is nothing to cluster.")
    return np.where(span > 0, (X - lo) / np.where(span > 0, span, 1.0), 0.0)


def match_labels(y_true, labels) -> np.ndarray:
    """Rename the clusters in ``labels`` so each matches the class it overlaps most (Hungarian matching).

    The partition is unchanged (AMI and NMI are too); only the names move, so a
    plot can colour a recovered class like the class itself. Clusters left
    over when there are more clusters than classes get the next free names.
    """
    y_true, labels = np.asarray(y_true).ravel(), np.asarray(labels).ravel()
    if y_true.shape != labels.shape:
        raise ValueError(f"y_true has {y_true.size} labels but the clustering has {labels.size}.")
    classes, y_idx = np.unique(y_true, return_inverse=True)
    clusters, c_idx = np.unique(labels, return_inverse=True)
    overlap = np.zeros((clusters.size, classes.size), dtype=np.int64)
    np.add.at(overlap, (c_idx, y_idx), 1)
    rows, cols = linear_sum_assignment(-overlap)
    names = np.full(clusters.size, -1, dtype=np.int64)
    names[rows] = cols
    spare = np.flatnonzero(names < 0)
    names[spare] = classes.size + np.arange(spare.size)
    return names[c_idx]
