"""Rank-k Nyström feature map from a budget of B basis points (the map of NOGD, Lu et al. 2016 §3.3).

With the B x B kernel matrix of the basis W = V D V^T, keeping its k largest
eigenpairs, z(x) = D_k^{-1/2} V_k^T [k(x, b_1), ..., k(x, b_B)] gives
z(x) . z(y) = k(x, B) W_k^+ k(B, y), the rank-k Nyström approximation.
scikit-learn's ``Nystroem`` always keeps the full rank B, so the rank-k
truncation that NOGD needs is done here on top of scikit-learn's pairwise kernels.
"""

from __future__ import annotations

import math
import numbers

import numpy as np
from sklearn.base import BaseEstimator, TransformerMixin
from sklearn.metrics.pairwise import pairwise_kernels
from sklearn.utils.validation import check_is_fitted

from .._validation import check_matrix
from ..kernels.isolation import _as_generator

KERNELS = {"gaussian": "rbf", "laplacian": "laplacian"}


class LowRankNystroem(TransformerMixin, BaseEstimator):
    """Nyström features of rank ``rank`` from ``budget`` basis points.

    Parameters
    ----------
    kernel : {"gaussian", "laplacian"}
        exp(-gamma ||x - y||^2) or exp(-gamma ||x - y||_1).
    gamma : float
        Kernel parameter.
    budget : int
        B, the number of basis points sampled (without replacement) from the
        rows given to ``fit``; all rows are used when fewer are given.
    rank : int or None
        k <= B, the eigenpairs kept (None: all with a positive eigenvalue).
    random_state : int, numpy Generator or None

    Attributes
    ----------
    basis_ : ndarray (B, d)
    basis_indices_ : ndarray (B,)
        Rows of the fitted ``X`` used as the basis, in basis order.
    components_ : ndarray (B, k)
        V_k D_k^{-1/2}; ``transform(X) = k(X, basis_) @ components_``.
    eigenvalues_ : ndarray (k,)
    """

    def __init__(self, kernel="gaussian", gamma=1.0, budget=100, rank=None, random_state=None):
        self.kernel = kernel
        self.gamma = gamma
        self.budget = budget
        self.rank = rank
        self.random_state = random_state

    def _check_params(self):
        if self.kernel not in KERNELS:
            raise ValueError(f"kernel must be one of {tuple(KERNELS)}; got {self.kernel!r}.")
        g = self.gamma
        if isinstance(g, bool) or not (isinstance(g, numbers.Real) and math.isfinite(g) and g > 0):
            raise ValueError(f"gamma must be a positive number; got {g!r}.")
        for name in ("budget",) + (("rank",) if self.rank is not None else ()):
            v = getattr(self, name)
            if isinstance(v, bool) or not isinstance(v, numbers.Integral) or v < 1:
                raise ValueError(f"{name} must be a positive integer; got {v!r}.")
        if self.rank is not None and self.rank > self.budget:
            raise ValueError(f"rank ({self.rank}) cannot exceed the budget ({self.budget}).")

    def _kernel(self, A, B):
        return pairwise_kernels(A, B, metric=KERNELS[self.kernel], gamma=float(self.gamma))

    def fit(self, X, y=None):
        """Sample the basis from the rows of ``X`` and eigendecompose its kernel matrix."""
        self._check_params()
        X = check_matrix(X)
        n = X.shape[0]
        rng = _as_generator(self.random_state)
        idx = rng.choice(n, size=min(int(self.budget), n), replace=False)
        self.basis_indices_ = idx
        self.basis_ = X[idx]
        self.n_features_in_ = X.shape[1]
        vals, vecs = np.linalg.eigh(self._kernel(self.basis_, self.basis_))
        order = np.argsort(vals)[::-1]
        vals, vecs = vals[order], vecs[:, order]
        # eigenvalues at round-off level would blow up D^{-1/2}
        keep = vals > vals[0] * 1e-10
        if self.rank is not None:
            keep[int(self.rank):] = False
        self.eigenvalues_ = vals[keep]
        self.components_ = vecs[:, keep] / np.sqrt(vals[keep])
        return self

    def transform(self, X) -> np.ndarray:
        """Return the dense (n, k) feature matrix; z(x) . z(y) ~ k(x, y)."""
        check_is_fitted(self, "components_")
        X = check_matrix(X)
        if X.shape[1] != self.n_features_in_:
            raise ValueError(f"X has {X.shape[1]} features, but the map was fitted with {self.n_features_in_}.")
        return self._kernel(X, self.basis_) @ self.components_

    def weights_from_dual(self, alpha) -> np.ndarray:
        """Linear weights w with w . z(x) ~ sum_j alpha_j k(x, basis_j) (NOGD's hand-over, Alg. 2).

        ``alpha`` is (B,) or (B, m) in basis order. With z = D^{-1/2} V^T k(x),
        w = D^{1/2} V^T alpha; it is exact when no eigenpair was dropped.
        """
        check_is_fitted(self, "components_")
        alpha = np.asarray(alpha, dtype=float)
        if alpha.shape[0] != self.components_.shape[0]:
            raise ValueError(f"alpha needs one row per basis point ({self.components_.shape[0]}); "
                             f"got shape {alpha.shape}.")
        # components_ = V D^{-1/2}, so D^{1/2} V^T = D * components_^T
        return (self.components_ * self.eigenvalues_).T @ alpha
