"""Similarity measures the curse-of-dimensionality study compares Isolation Kernel with.

Ting et al. (2021, §4.1 and Table 1) compare IK with fractional l_p distances
(Aggarwal et al. 2001), shared-nearest-neighbour similarity (Jarvis & Patrick
1973; Houle et al. 2010) and the linear kernel on normalised vectors. Each is
given here as an ``(X, Y) -> matrix`` function with values in [0, 1], so that
``1 - similarity`` is the dissimilarity the instability measures use.
"""

from __future__ import annotations

import math

import numpy as np
import scipy.sparse as sp
from sklearn.metrics.pairwise import euclidean_distances
from sklearn.neighbors import NearestNeighbors
from sklearn.preprocessing import normalize

from .._validation import check_matrix
from ._lp import lp_power_sums
from .classic import _pair


def lp_distance(X, Y=None, p: float = 2.0, dense_budget=None) -> np.ndarray:
    """Minkowski / fractional distance (sum_f |x_f - y_f|^p)^(1/p) for any p > 0.

    For p < 1 this is not a metric (the triangle inequality fails), but it is
    the "fractional distance" that Aggarwal et al. (2001) found to delay the
    concentration of distances in high dimensions.
    """
    if isinstance(p, bool) or not isinstance(p, (int, float)) or not math.isfinite(p) or p <= 0:
        raise ValueError(f"p must be a positive number; got {p!r}.")
    X, Y = _pair(X, Y, dense_budget)
    if p == 2:
        return euclidean_distances(X, Y)
    out = np.empty((X.shape[0], Y.shape[0]))
    lp_power_sums(X, Y, float(p), out)
    if p != 1:
        np.power(out, 1.0 / p, out=out)
    return out


def lp_similarity(X, Y=None, p: float = 2.0, scale: float | None = None, dense_budget=None) -> np.ndarray:
    """The l_p distance turned into a similarity in [0, 1]: ``1 - lp(x, y) / scale``.

    ``scale`` defaults to the largest distance in the result, so the farthest
    pair gets 0. The instability measures (``N_eps``, var(F / E[F])) only see
    ratios of dissimilarities, so they are the same as for the raw distance
    whatever the scale.
    """
    dist = lp_distance(X, Y, p=p, dense_budget=dense_budget)
    if scale is None:
        scale = float(dist.max())
    elif not (isinstance(scale, (int, float)) and math.isfinite(scale) and scale > 0):
        raise ValueError(f"scale must be a positive number; got {scale!r}.")
    if scale == 0:
        return np.ones_like(dist)
    return np.clip(1.0 - dist / scale, 0.0, 1.0)


def normalised_linear(X, Y=None, dense_budget=None) -> np.ndarray:
    """Linear kernel on unit vectors, mapped to [0, 1]: (1 + cos(x, y)) / 2.

    Ting et al. (2021, App. B) normalise each point by the square root of its
    self-similarity before using the linear kernel. A zero vector has no
    direction; it gets cos = 0 (similarity 0.5) with everything.
    """
    X, Y = _pair(X, Y, dense_budget)
    cos = normalize(X) @ normalize(Y).T
    return np.clip((1.0 + cos) / 2.0, 0.0, 1.0)


def neighbour_sets(X, reference, k: int) -> sp.csr_matrix:
    """Sparse 0/1 matrix (n_X, n_reference): row i marks the k nearest reference points of X[i].

    Neighbours are Euclidean; a point that is itself in the reference counts as
    its own first neighbour.
    """
    X = check_matrix(X, "X")
    ref = check_matrix(reference, "reference")
    if ref.shape[1] != X.shape[1]:
        raise ValueError(f"reference has {ref.shape[1]} features but X has {X.shape[1]}.")
    if isinstance(k, bool) or not isinstance(k, (int, np.integer)) or not 1 <= k <= ref.shape[0]:
        raise ValueError(f"k must be an integer between 1 and {ref.shape[0]} (the reference size); got {k!r}.")
    k = int(k)
    idx = NearestNeighbors(algorithm="brute").fit(ref).kneighbors(X, n_neighbors=k, return_distance=False)
    rows = np.repeat(np.arange(X.shape[0]), k)
    return sp.csr_matrix((np.ones(idx.size), (rows, idx.ravel())), shape=(X.shape[0], ref.shape[0]))


def shared_neighbours(X, Y=None, k: int = 50, reference=None, dense_budget=None) -> np.ndarray:
    """Shared-nearest-neighbour similarity |N_k(x) ∩ N_k(y)| / k, values in {0, 1/k, ..., 1}.

    N_k(x) is the set of the k nearest points (Euclidean) of x in
    ``reference`` (default: ``Y`` if given, else ``X``); a point of the
    reference counts as its own first neighbour. Like Isolation Kernel it takes
    few distinct values, so nearest-neighbour ties are common.
    """
    X, Y_ = _pair(X, Y, dense_budget)
    ref = Y_ if reference is None else reference
    a = neighbour_sets(X, ref, k)
    b = a if Y is None else neighbour_sets(Y_, ref, k)
    return (a @ b.T).toarray() / k
