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

from numbers import Integral

import numpy as np
from sklearn.manifold import trustworthiness as _sk_trustworthiness
from sklearn.metrics import silhouette_score
from sklearn.neighbors import NearestNeighbors

from .._sklearn import Interval, validate_params
from .._validation import check_dense_size, check_labels, check_matrix
from ..kernels.classic import normalise

#: above this many points the O(n^2) scores use a seeded subsample
MAX_EXACT = 3000
_K = [Interval(Integral, 1, None, closed="left")]
_SEED = ["random_state", np.random.Generator]
_MAX_N = [Interval(Integral, 4, None, closed="left")]


def _check(Y, labels):
    # every score depends only on ratios of distances: centring and scaling by a power of two keeps
    # data at 1e300 or 1e-300, or far from the origin, from overflowing or cancelling
    Y = normalise(check_matrix(Y, "Y"))[0]
    labels = check_labels(labels, "labels", n=Y.shape[0], other="Y")
    try:
        _, codes = np.unique(labels, return_inverse=True)
    except TypeError:
        raise TypeError("labels holds values that cannot be compared (e.g. dicts); use integers or strings.") from None
    if codes.max() < 1:
        raise ValueError("labels has a single class; the separation scores need at least two different labels.")
    return Y, codes


def _rng(seed) -> np.random.Generator:
    if isinstance(seed, np.random.RandomState):
        return np.random.default_rng(seed.randint(2**31 - 1))
    return np.random.default_rng(seed)


def _subsample(n: int, max_n: int, seed) -> np.ndarray:
    if n <= max_n:
        return np.arange(n)
    return np.sort(_rng(seed).choice(n, size=max_n, replace=False))


@validate_params({"Y": ["array-like"], "labels": ["array-like"], "k": _K}, prefer_skip_nested_validation=True)
def knn_accuracy(Y, labels, k: int = 5) -> float:
    """Leave-one-out accuracy of a ``k``-nearest-neighbour majority vote of ``labels`` in ``Y``.

    Ties between labels go to the smallest label value.

    Parameters
    ----------
    Y : array-like of shape (n_samples, n_components)
        The embedding.
    labels : array-like of shape (n_samples,)
        The true groups (at least two).
    k : int, default=5
        Neighbours voting, at most n_samples - 1.

    Returns
    -------
    accuracy : float in [0, 1]

    Examples
    --------
    >>> from ikviz.embedding import knn_accuracy
    >>> Y = [[0.0], [0.1], [0.2], [5.0], [5.1], [5.2]]
    >>> knn_accuracy(Y, [0, 0, 0, 1, 1, 1], k=2)
    1.0
    """
    Y, codes = _check(Y, labels)
    n, k = Y.shape[0], int(k)
    if k >= n:
        raise ValueError(f"k={k} neighbours asked for, but Y has {n} point(s); pass k between 1 and {n - 1}.")
    check_dense_size(n, 2 * (k + 1), None, f"The neighbour lists of k={k}", "Use a smaller k.")
    nn = NearestNeighbors(n_neighbors=k + 1).fit(Y)
    _, idx = nn.kneighbors(Y)
    # drop each point itself; with duplicates it need not be the first column
    own = idx == np.arange(n)[:, None]
    drop = np.where(own.any(axis=1), own.argmax(axis=1), k)
    keep = np.ones_like(idx, dtype=bool)
    keep[np.arange(n), drop] = False
    neigh = codes[idx[keep].reshape(n, k)]
    votes = np.zeros((n, codes.max() + 1), dtype=np.int64)
    np.add.at(votes, (np.repeat(np.arange(n), k), neigh.ravel()), 1)
    return float(np.mean(votes.argmax(axis=1) == codes))


@validate_params({"Y": ["array-like"], "labels": ["array-like"], "max_n": _MAX_N, "seed": _SEED},
                 prefer_skip_nested_validation=True)
def silhouette(Y, labels, max_n: int = MAX_EXACT, seed=0) -> float:
    """Mean silhouette of ``labels`` in ``Y`` (a seeded subsample of ``max_n`` points when larger).

    Parameters
    ----------
    Y : array-like of shape (n_samples, n_components)
        The embedding.
    labels : array-like of shape (n_samples,)
        The true groups: between 2 and n_samples - 1 distinct values.
    max_n : int, default=3000
        Largest number of points scored exactly (the cost grows with its square).
    seed : int, numpy Generator or None, default=0
        Seed of the subsample.

    Returns
    -------
    silhouette : float in [-1, 1]

    Examples
    --------
    >>> from ikviz.embedding import silhouette
    >>> round(silhouette([[0.0], [0.1], [5.0], [5.1]], [0, 0, 1, 1]), 3)
    0.98
    """
    Y, codes = _check(Y, labels)
    n_groups = codes.max() + 1
    if n_groups >= Y.shape[0]:
        raise ValueError(f"labels has {n_groups} distinct values for the {Y.shape[0]} points of Y; the silhouette "
                         "needs between 2 and n - 1 groups.")
    keep = _subsample(len(Y), max_n, seed)
    if not 2 <= np.unique(codes[keep]).size < keep.size:
        keep = np.arange(len(Y))
    return float(silhouette_score(Y[keep], codes[keep]))


@validate_params({"X": ["array-like"], "Y": ["array-like"], "k": _K, "max_n": _MAX_N, "seed": _SEED},
                 prefer_skip_nested_validation=True)
def trustworthiness(X, Y, k: int = 5, max_n: int = MAX_EXACT, seed=0) -> float:
    """scikit-learn's trustworthiness of ``Y`` for ``X`` with ``k`` neighbours.

    It compares rankings of all pairwise distances, so above ``max_n`` points
    it is computed on a seeded subsample (the ranks are then within the
    subsample), and ``k`` is capped below half the points scored.

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
        The original data.
    Y : array-like of shape (n_samples, n_components)
        The embedding (at least 4 points).
    k : int, default=5
        Neighbours compared.
    max_n : int, default=3000
        Largest number of points scored exactly.
    seed : int, numpy Generator or None, default=0
        Seed of the subsample.

    Returns
    -------
    trustworthiness : float in [0, 1]
        1.0 when no embedded neighbour is an intruder.

    Examples
    --------
    >>> import numpy as np
    >>> from ikviz.embedding import trustworthiness
    >>> X = np.random.default_rng(0).normal(size=(30, 4))
    >>> trustworthiness(X, X[:, :4], k=3)
    1.0
    """
    X = normalise(check_matrix(X, "X"))[0]
    Y = normalise(check_matrix(Y, "Y"))[0]
    if X.shape[0] != Y.shape[0]:
        raise ValueError(f"X has {X.shape[0]} rows but the embedding Y has {Y.shape[0]}.")
    if X.shape[0] < 4:
        raise ValueError(f"X and Y have {X.shape[0]} point(s); trustworthiness needs at least 4.")
    keep = _subsample(len(Y), max_n, seed)
    check_dense_size(2 * len(keep), len(keep), None, f"trustworthiness's distance matrices of {len(keep)} points",
                     f"Use a smaller max_n (the default, {MAX_EXACT}, scores a subsample).")
    k = min(int(k), len(keep) // 2 - 1)
    return float(_sk_trustworthiness(X[keep], Y[keep], n_neighbors=max(k, 1)))


@validate_params({"Y": ["array-like"], "labels": ["array-like"], "X": ["array-like", None], "k": _K,
                  "seed": _SEED}, prefer_skip_nested_validation=True)
def separation_scores(Y, labels, X=None, k: int = 5, seed=0) -> dict:
    """All scores as a dict: ``knn_accuracy`` (k-NN), ``silhouette`` and, given ``X``, ``trustworthiness``.

    Parameters
    ----------
    Y : array-like of shape (n_samples, n_components)
        The embedding.
    labels : array-like of shape (n_samples,)
        The true groups.
    X : array-like of shape (n_samples, n_features), default=None
        The original data, for trustworthiness.
    k : int, default=5
        Neighbours for the k-NN accuracy and trustworthiness.
    seed : int, numpy Generator or None, default=0
        Seed of the subsamples.

    Returns
    -------
    scores : dict of str to float

    Examples
    --------
    >>> from ikviz.embedding import separation_scores
    >>> Y = [[0.0], [0.1], [0.2], [5.0], [5.1], [5.2]]
    >>> scores = separation_scores(Y, [0, 0, 0, 1, 1, 1], k=2)
    >>> sorted(scores), scores["knn_accuracy"]
    (['knn_accuracy', 'silhouette'], 1.0)
    """
    out = {"knn_accuracy": knn_accuracy(Y, labels, k), "silhouette": silhouette(Y, labels, seed=seed)}
    if X is not None:
        out["trustworthiness"] = trustworthiness(X, Y, k, seed=seed)
    return out
