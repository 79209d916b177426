"""How well a 2-D embedding keeps known groups apart and high-dimensional neighbours together.

The scores turn "the clusters look separated" into numbers:

* :func:`knn_accuracy` - leave-one-out k-NN accuracy of the true label in the
  embedding: 1.0 when every point's k nearest 2-D neighbours mostly share its label.
* :func:`silhouette` - mean silhouette of the true labels in the embedding:
  near 1 for tight, well-apart groups, near 0 for touching or overlapping ones.
* :func:`trustworthiness` - scikit-learn's trustworthiness: whether the 2-D
  neighbours were also neighbours in the original space (1.0 = no intruders).
"""

from __future__ import annotations

import numpy as np
from sklearn.manifold import trustworthiness as _sk_trustworthiness
from sklearn.metrics import silhouette_score
from sklearn.neighbors import NearestNeighbors

from .._validation import check_matrix

#: above this many points the O(n^2) scores use a seeded subsample
MAX_EXACT = 3000


def _check(Y, labels):
    Y = check_matrix(Y, "embedding")
    labels = np.asarray(labels)
    if labels.shape != (Y.shape[0],):
        raise ValueError(f"labels must have one entry per embedded point ({Y.shape[0]}); "
                         f"got shape {labels.shape}.")
    if np.unique(labels).size < 2:
        raise ValueError("the separation scores need at least two different labels.")
    return Y, labels


def _subsample(n: int, max_n: int, seed) -> np.ndarray:
    if n <= max_n:
        return np.arange(n)
    return np.sort(np.random.default_rng(seed).choice(n, size=max_n, replace=False))


def knn_accuracy(Y, labels, k: int = 5) -> float:
    """Leave-one-out accuracy of a ``k``-nearest-neighbour majority vote of ``labels`` in ``Y``.

    Ties between labels go to the smallest label value.
    """
    Y, labels = _check(Y, labels)
    if not 1 <= k < Y.shape[0]:
        raise ValueError(f"k must be between 1 and n - 1 = {Y.shape[0] - 1}; got {k}.")
    _, codes = np.unique(labels, return_inverse=True)
    nn = NearestNeighbors(n_neighbors=k + 1).fit(Y)
    _, idx = nn.kneighbors(Y)
    # drop each point itself; with duplicates it need not be the first column
    own = idx == np.arange(Y.shape[0])[:, None]
    drop = np.where(own.any(axis=1), own.argmax(axis=1), k)
    keep = np.ones_like(idx, dtype=bool)
    keep[np.arange(len(idx)), drop] = False
    neigh = codes[idx[keep].reshape(len(idx), k)]
    votes = np.zeros((len(idx), codes.max() + 1), dtype=np.int64)
    np.add.at(votes, (np.repeat(np.arange(len(idx)), k), neigh.ravel()), 1)
    return float(np.mean(votes.argmax(axis=1) == codes))


def silhouette(Y, labels, max_n: int = MAX_EXACT, seed=0) -> float:
    """Mean silhouette of ``labels`` in ``Y`` (a seeded subsample of ``max_n`` points when larger)."""
    Y, labels = _check(Y, labels)
    keep = _subsample(len(Y), max_n, seed)
    if np.unique(labels[keep]).size < 2:
        keep = np.arange(len(Y))
    return float(silhouette_score(Y[keep], labels[keep]))


def trustworthiness(X, Y, k: int = 5, max_n: int = MAX_EXACT, seed=0) -> float:
    """scikit-learn's trustworthiness of ``Y`` for ``X`` with ``k`` neighbours.

    It compares rankings of all pairwise distances, so above ``max_n`` points
    it is computed on a seeded subsample (the ranks are then within the subsample).
    """
    X = check_matrix(X, "X")
    Y = check_matrix(Y, "embedding")
    if X.shape[0] != Y.shape[0]:
        raise ValueError(f"X has {X.shape[0]} rows but the embedding has {Y.shape[0]}.")
    keep = _subsample(len(Y), max_n, seed)
    k = min(k, len(keep) // 2 - 1)
    if k < 1:
        raise ValueError("trustworthiness needs at least 4 points.")
    return float(_sk_trustworthiness(X[keep], Y[keep], n_neighbors=k))


def separation_scores(Y, labels, X=None, k: int = 5, seed=0) -> dict:
    """All scores as a dict: ``knn_accuracy`` (k-NN), ``silhouette`` and, given ``X``, ``trustworthiness``."""
    out = {"knn_accuracy": knn_accuracy(Y, labels, k), "silhouette": silhouette(Y, labels, seed=seed)}
    if X is not None:
        out["trustworthiness"] = trustworthiness(X, Y, k, seed=seed)
    return out
