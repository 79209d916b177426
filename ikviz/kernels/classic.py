"""The data-independent kernels Isolation Kernel is compared with, as ``(X, Y) -> matrix`` functions.

All are thin wrappers over scikit-learn's pairwise kernels, adding the
papers' parameterisations, input checks and a guard on the dense result size.
"""

from __future__ import annotations

import math

import numpy as np
from sklearn.metrics.pairwise import euclidean_distances
from sklearn.metrics.pairwise import laplacian_kernel as _sk_laplacian
from sklearn.metrics.pairwise import linear_kernel as _sk_linear
from sklearn.metrics.pairwise import rbf_kernel as _sk_rbf
from sklearn.neighbors import NearestNeighbors

from .._validation import check_dense_size, check_matrix


def _pair(X, Y, dense_budget):
    X = check_matrix(X, "X")
    Y = X if Y is None else check_matrix(Y, "Y")
    if X.shape[1] != Y.shape[1]:
        raise ValueError(f"X has {X.shape[1]} features but Y has {Y.shape[1]}.")
    check_dense_size(X.shape[0], Y.shape[0], dense_budget, "The kernel matrix",
                     "Subsample the data or use an explicit feature map.")
    return X, Y


def _positive(name, value):
    if not (isinstance(value, (int, float)) and math.isfinite(value) and value > 0):
        raise ValueError(f"{name} must be a positive number; got {value!r}.")


def rbf(X, Y=None, gamma: float = 1.0, dense_budget=None) -> np.ndarray:
    """Gaussian (RBF) kernel exp(-gamma * ||x - y||^2)."""
    _positive("gamma", gamma)
    X, Y = _pair(X, Y, dense_budget)
    return _sk_rbf(X, Y, gamma=gamma)


def laplacian(X, Y=None, gamma: float = 1.0, dense_budget=None) -> np.ndarray:
    """Laplacian kernel in its usual lambda form exp(-gamma * ||x - y||_1)."""
    _positive("gamma", gamma)
    X, Y = _pair(X, Y, dense_budget)
    return _sk_laplacian(X, Y, gamma=gamma)


def laplacian_psi(X, Y=None, psi: float = 16, dense_budget=None) -> np.ndarray:
    """Laplacian kernel in Ting et al. (2018) Eq. 5: L_psi(x, y) = psi ** (-(1/d) * ||x - y||_1).

    This is the lambda form with lambda = log(psi) / d, the kernel that
    Isolation Kernel approximates on uniformly distributed data.
    """
    if not (isinstance(psi, (int, float)) and psi > 1):
        raise ValueError(f"psi must be a number greater than 1; got {psi!r}.")
    X, Y = _pair(X, Y, dense_budget)
    return _sk_laplacian(X, Y, gamma=math.log(psi) / X.shape[1])


def linear(X, Y=None, dense_budget=None) -> np.ndarray:
    """Linear kernel x . y."""
    X, Y = _pair(X, Y, dense_budget)
    return _sk_linear(X, Y)


def local_scale(X, reference=None, k: int = 7) -> np.ndarray:
    """Distance from each row of ``X`` to its k-th nearest neighbour in ``reference``.

    With ``reference=None`` the neighbours come from ``X`` itself, the point
    excluded. Zero scales (duplicates) are replaced by the smallest positive
    scale so the adaptive kernel stays finite.
    """
    X = check_matrix(X, "X")
    ref = X if reference is None else check_matrix(reference, "reference")
    n_ref = ref.shape[0] - (1 if reference is None else 0)
    if not (isinstance(k, int) and 1 <= k <= n_ref):
        raise ValueError(f"k must be an integer between 1 and {n_ref} (the neighbours available); got {k!r}.")
    nn = NearestNeighbors(n_neighbors=k).fit(ref)
    dist, _ = nn.kneighbors(None if reference is None else X, n_neighbors=k)
    scale = dist[:, -1]
    positive = scale[scale > 0]
    floor = positive.min() if positive.size else 1.0
    return np.where(scale > 0, scale, floor)


def adaptive_gaussian(X, Y=None, k: int = 7, reference=None, dense_budget=None) -> np.ndarray:
    """Self-tuning Gaussian kernel (Zelnik-Manor & Perona 2004): exp(-||x - y||^2 / (s_x * s_y)).

    ``s_x`` is the distance from x to its k-th nearest neighbour in
    ``reference`` (default: ``Y`` if given, else ``X``), so the kernel is wide
    in sparse regions and narrow in dense ones.
    """
    X, Y_ = _pair(X, Y, dense_budget)
    if reference is None:
        # queries X against data Y: X's scales come from Y, Y's from Y without the point itself
        sx = local_scale(X, None if Y is None else Y_, k)
        sy = sx if Y is None else local_scale(Y_, None, k)
    else:
        sx = local_scale(X, reference, k)
        sy = sx if Y is None else local_scale(Y_, reference, k)
    sq = euclidean_distances(X, Y_, squared=True)
    return np.exp(-sq / np.outer(sx, sy))
