"""Similarity measures the curse-of-dimensionality study compares Isolation Kernel with.

Ting et al. (2021, §4.1 and Table 1) compare IK with fractional l_p distances
(Aggarwal et al. 2001), shared-nearest-neighbour similarity (Jarvis & Patrick
1973; Houle et al. 2010) and the linear kernel on normalised vectors. Each is
given here as an ``(X, Y) -> matrix`` function with values in [0, 1], so that
``1 - similarity`` is the dissimilarity the instability measures use.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp
from sklearn.metrics.pairwise import euclidean_distances
from sklearn.neighbors import NearestNeighbors
from sklearn.preprocessing import normalize

from .._sklearn import validate_params
from .._validation import check_matrix
from ._lp import lp_distances
from .classic import BUDGET, NEIGHBOURS, POSITIVE, _check_k, normalise, _pair


def _scaled_lp(X, Y, p):
    """l_p distances of the normalised rows (see ``classic.normalise``) and the exponent that undoes it."""
    Xs, Ys, e = normalise(X, Y)
    if p == 2:
        D = euclidean_distances(Xs, Ys)
    else:
        D = lp_distances(Xs, Ys, float(p), np.empty((Xs.shape[0], Ys.shape[0])))
    if not np.isfinite(D).all():
        raise ValueError(f"p={p!r} is so small that the l_p distances of these {X.shape[1]} features exceed the "
                         "float range (they grow like d ** (1 / p)); use a larger p.")
    return D, e


@validate_params({"X": ["array-like"], "Y": ["array-like", None], "p": POSITIVE, "dense_budget": BUDGET},
                 prefer_skip_nested_validation=True)
def lp_distance(X, Y=None, p: float = 2.0, dense_budget=None) -> np.ndarray:
    """Minkowski / fractional distance ``(sum_f |x_f - y_f|^p)^(1/p)`` for any p > 0.

    For p < 1 this is not a metric (the triangle inequality fails), but it is
    the "fractional distance" that Aggarwal et al. (2001) found to delay the
    concentration of distances in high dimensions.

    Parameters
    ----------
    X : array-like of shape (n_samples_X, n_features)
    Y : array-like of shape (n_samples_Y, n_features), default=None
        ``None`` means ``X``.
    p : float, default=2.0
        The exponent, any positive number.
    dense_budget : int, default=None
        Largest result in bytes (default 2 GiB).

    Returns
    -------
    D : ndarray of shape (n_samples_X, n_samples_Y)
        Non-negative distances.

    Raises
    ------
    ValueError
        When a distance exceeds the float range (data near 1e308, or p so
        small that d ** (1 / p) overflows).

    Examples
    --------
    >>> from ikviz.kernels import lp_distance
    >>> lp_distance([[0.0, 0.0]], [[1.0, 1.0]], p=0.5)  # (1 + 1) ** 2
    array([[4.]])
    """
    X, Y = _pair(X, Y, dense_budget)
    D, e = _scaled_lp(X, Y, p)
    with np.errstate(over="ignore"):
        out = np.ldexp(D, e)
    if not np.isfinite(out).all():
        raise ValueError("The l_p distances of X and Y exceed the float range; rescale X and Y first "
                         "(lp_similarity works at any scale).")
    return out


@validate_params({"X": ["array-like"], "Y": ["array-like", None], "p": POSITIVE, "scale": POSITIVE + [None],
                  "dense_budget": BUDGET}, prefer_skip_nested_validation=True)
def lp_similarity(X, Y=None, p: float = 2.0, scale: float | None = None, dense_budget=None) -> np.ndarray:
    """The l_p distance turned into a similarity in [0, 1]: ``1 - lp(x, y) / scale``.

    The instability measures (``N_eps``, var(F / E[F])) only see ratios of
    dissimilarities, so they are the same as for the raw distance whatever
    the scale.

    Parameters
    ----------
    X : array-like of shape (n_samples_X, n_features)
    Y : array-like of shape (n_samples_Y, n_features), default=None
        ``None`` means ``X``.
    p : float, default=2.0
        The exponent, any positive number.
    scale : float, default=None
        Distance mapped to similarity 0 (larger distances too). ``None``: the
        largest distance in the result, so the farthest pair gets 0.
    dense_budget : int, default=None
        Largest result in bytes (default 2 GiB).

    Returns
    -------
    S : ndarray of shape (n_samples_X, n_samples_Y)
        Values in [0, 1]; all ones when every distance is 0.

    Examples
    --------
    >>> from ikviz.kernels import lp_similarity
    >>> lp_similarity([[0.0], [1.0], [4.0]], p=1)
    array([[1.  , 0.75, 0.  ],
           [0.75, 1.  , 0.25],
           [0.  , 0.25, 1.  ]])
    """
    X, Y = _pair(X, Y, dense_budget)
    D, e = _scaled_lp(X, Y, p)
    with np.errstate(over="ignore", under="ignore"):
        if scale is None:
            top = float(D.max())
            if top == 0:
                return np.ones_like(D)
            ratio = D / top
        else:
            ratio = np.ldexp(D, e) / float(scale)
        return np.clip(1.0 - ratio, 0.0, 1.0)


def _unit_rows(A: np.ndarray) -> np.ndarray:
    """Rows divided by their norm; each row is first divided by its largest entry so the norm cannot overflow."""
    top = np.max(np.abs(A), axis=1, keepdims=True)
    A = np.divide(A, top, out=np.zeros_like(A), where=top > 0)
    return normalize(A)


@validate_params({"X": ["array-like"], "Y": ["array-like", None], "dense_budget": BUDGET},
                 prefer_skip_nested_validation=True)
def normalised_linear(X, Y=None, dense_budget=None) -> np.ndarray:
    """Linear kernel on unit vectors, mapped to [0, 1]: (1 + cos(x, y)) / 2.

    Ting et al. (2021, App. B) normalise each point by the square root of its
    self-similarity before using the linear kernel. A zero vector has no
    direction; it gets cos = 0 (similarity 0.5) with everything.

    Parameters
    ----------
    X : array-like of shape (n_samples_X, n_features)
    Y : array-like of shape (n_samples_Y, n_features), default=None
        ``None`` means ``X``.
    dense_budget : int, default=None
        Largest result in bytes (default 2 GiB).

    Returns
    -------
    S : ndarray of shape (n_samples_X, n_samples_Y)
        Values in [0, 1].

    Examples
    --------
    >>> from ikviz.kernels import normalised_linear
    >>> normalised_linear([[1.0, 0.0]], [[2.0, 0.0], [0.0, 3.0], [-1.0, 0.0]])
    array([[1. , 0.5, 0. ]])
    """
    X, Y_ = _pair(X, Y, dense_budget)
    Xn = _unit_rows(X)
    Yn = Xn if Y is None else _unit_rows(Y_)
    cos = Xn @ Yn.T
    return np.clip((1.0 + cos) / 2.0, 0.0, 1.0)


@validate_params({"X": ["array-like"], "reference": ["array-like"], "k": NEIGHBOURS},
                 prefer_skip_nested_validation=True)
def neighbour_sets(X, reference, k: int) -> sp.csr_matrix:
    """Sparse 0/1 matrix (n_X, n_reference): row i marks the k nearest reference points of X[i].

    Neighbours are Euclidean; a point that is itself in the reference counts as
    its own first neighbour.

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
        The points whose neighbours are sought.
    reference : array-like of shape (n_reference, n_features)
        Where the neighbours come from.
    k : int
        Neighbours per point, at most ``n_reference``.

    Returns
    -------
    sets : scipy.sparse.csr_matrix of shape (n_samples, n_reference)
        Exactly ``k`` ones per row.

    Examples
    --------
    >>> from ikviz.kernels import neighbour_sets
    >>> neighbour_sets([[0.0], [2.9]], [[0.0], [1.0], [3.0]], k=2).toarray()
    array([[1., 1., 0.],
           [0., 1., 1.]])
    """
    X = check_matrix(X, "X")
    ref = check_matrix(reference, "reference")
    if ref.shape[1] != X.shape[1]:
        raise ValueError(f"reference has {ref.shape[1]} features but X has {X.shape[1]}.")
    return _neighbour_sets(X, ref, _check_k(k, ref.shape[0], "reference", exclude_self=False))


def _neighbour_sets(X, ref, k):
    Xs, Rs, _ = normalise(X, ref)  # brute-force neighbours use |x|^2 - 2 x.y + |y|^2: centre first
    idx = NearestNeighbors(algorithm="brute").fit(Rs).kneighbors(Xs, n_neighbors=k, return_distance=False)
    rows = np.repeat(np.arange(X.shape[0]), k)
    return sp.csr_matrix((np.ones(idx.size), (rows, idx.ravel())), shape=(X.shape[0], ref.shape[0]))


@validate_params({"X": ["array-like"], "Y": ["array-like", None], "k": NEIGHBOURS,
                  "reference": ["array-like", None], "dense_budget": BUDGET}, prefer_skip_nested_validation=True)
def shared_neighbours(X, Y=None, k: int = 50, reference=None, dense_budget=None) -> np.ndarray:
    """Shared-nearest-neighbour similarity ``|N_k(x) ∩ N_k(y)| / k``, values in {0, 1/k, ..., 1}.

    N_k(x) is the set of the k nearest points (Euclidean) of x in
    ``reference`` (default: ``Y`` if given, else ``X``); a point of the
    reference counts as its own first neighbour. Like Isolation Kernel it takes
    few distinct values, so nearest-neighbour ties are common.

    Parameters
    ----------
    X : array-like of shape (n_samples_X, n_features)
    Y : array-like of shape (n_samples_Y, n_features), default=None
        ``None`` means ``X``.
    k : int, default=50
        Neighbours per point, at most the number of reference points.
    reference : array-like of shape (n_reference, n_features), default=None
        Where the neighbours come from.
    dense_budget : int, default=None
        Largest result in bytes (default 2 GiB).

    Returns
    -------
    S : ndarray of shape (n_samples_X, n_samples_Y)
        Multiples of 1/k in [0, 1].

    Examples
    --------
    >>> from ikviz.kernels import shared_neighbours
    >>> shared_neighbours([[0.0], [1.0], [5.0], [6.0]], k=2)
    array([[1., 1., 0., 0.],
           [1., 1., 0., 0.],
           [0., 0., 1., 1.],
           [0., 0., 1., 1.]])
    """
    X, Y_ = _pair(X, Y, dense_budget)
    if reference is None:
        ref, name = Y_, "X" if Y is None else "Y"
    else:
        ref, name = check_matrix(reference, "reference"), "reference"
        if ref.shape[1] != X.shape[1]:
            raise ValueError(f"reference has {ref.shape[1]} features but X has {X.shape[1]}.")
    k = _check_k(k, ref.shape[0], name, exclude_self=False)
    a = _neighbour_sets(X, ref, k)
    b = a if Y is None else _neighbour_sets(Y_, ref, k)
    return (a @ b.T).toarray() / k
