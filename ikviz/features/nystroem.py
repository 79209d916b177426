"""Rank-k Nyström feature map from a budget of B basis points (the map of NOGD, Lu et al. 2016 §3.3).

With the B x B kernel matrix of the basis W = V D V^T, keeping its k largest
eigenpairs, z(x) = D_k^{-1/2} V_k^T [k(x, b_1), ..., k(x, b_B)] gives
z(x) . z(y) = k(x, B) W_k^+ k(B, y), the rank-k Nyström approximation.
scikit-learn's ``Nystroem`` always keeps the full rank B, so the rank-k
truncation that NOGD needs is done here on top of scikit-learn's pairwise kernels.
"""

from __future__ import annotations

from numbers import Integral, Real

import numpy as np
from sklearn.base import BaseEstimator, ClassNamePrefixFeaturesOutMixin, TransformerMixin
from sklearn.utils.validation import check_is_fitted

from .._sklearn import Interval, StrOptions, fit_context
from .._validation import MAX_BASIS, as_generator, check_dense_size, check_matrix, validate_data
from ..kernels.classic import _pairs as kernel_pairs

KERNELS = {"gaussian": "rbf", "laplacian": "laplacian"}
#: rows of k(X, basis) computed at once in ``transform`` (bounds the intermediate kernel block)
_BLOCK_BYTES = 64 * 1024**2


class LowRankNystroem(ClassNamePrefixFeaturesOutMixin, TransformerMixin, BaseEstimator):
    """Nyström features of rank ``rank`` from ``budget`` basis points.

    Parameters
    ----------
    kernel : {"gaussian", "laplacian"}, default="gaussian"
        exp(-gamma ||x - y||^2) or exp(-gamma ||x - y||_1).
    gamma : float, default=1.0
        Kernel parameter, > 0.
    budget : int, default=100
        B, the number of basis points sampled (without replacement) from the
        rows given to ``fit``; all rows are used when fewer are given. More
        than 10,000 basis points are refused (the B x B eigendecomposition
        grows with the cube of B: about a minute at 10,000).
    rank : int or None, default=None
        k <= B, the eigenpairs kept (None: all with a positive eigenvalue).
    random_state : int, numpy Generator, RandomState or None, default=None
        Seed for the choice of the basis.

    Attributes
    ----------
    basis_ : ndarray of shape (B, n_features)
    basis_indices_ : ndarray of shape (B,)
        Rows of the fitted ``X`` used as the basis, in basis order.
    components_ : ndarray of shape (B, k)
        V_k D_k^{-1/2}; ``transform(X) = k(X, basis_) @ components_``.
    eigenvalues_ : ndarray of shape (k,)
    n_features_in_ : int
        Number of input features.

    Examples
    --------
    >>> import numpy as np
    >>> from ikviz.features import LowRankNystroem
    >>> X = np.random.default_rng(0).normal(size=(100, 2))
    >>> ny = LowRankNystroem(gamma=0.5, budget=100, random_state=0).fit(X)
    >>> Z = ny.transform(X)
    >>> exact = np.exp(-0.5 * ((X[:, None] - X[None]) ** 2).sum(-1))
    >>> bool(np.abs(Z @ Z.T - exact).max() < 1e-6)
    True
    >>> LowRankNystroem(budget=10, rank=3, random_state=0).fit(X).transform(X).shape
    (100, 3)
    """

    _parameter_constraints: dict = {
        "kernel": [StrOptions(set(KERNELS))],
        "gamma": [Interval(Real, 0, np.inf, closed="neither")],
        "budget": [Interval(Integral, 1, None, closed="left")],
        "rank": [Interval(Integral, 1, None, closed="left"), None],
        "random_state": ["random_state", np.random.Generator],
    }

    def __init__(self, kernel="gaussian", gamma=1.0, budget=100, rank=None, random_state=None):
        self.kernel = kernel
        self.gamma = gamma
        self.budget = budget
        self.rank = rank
        self.random_state = random_state

    @property
    def _n_features_out(self):
        return self.components_.shape[1]

    def _kernel(self, A, B):
        # pair by pair from the differences (ikviz.kernels.classic): k(x, x) = 1 exactly, a row's values do not
        # depend on the other rows, and a huge gamma or distance gives the true limit 0
        return kernel_pairs(A, B, float(self.gamma), 2 if self.kernel == "gaussian" else 1)

    def _centred(self, X) -> np.ndarray:
        # both kernels are translation invariant: centring on the basis avoids the cancellation in
        # |x|^2 - 2 x.y + |y|^2 for data far from the origin (timestamps...)
        with np.errstate(over="ignore", invalid="ignore"):
            Z = X - self._shift
        if not np.isfinite(Z).all():
            raise ValueError("X has values so far from the basis that their differences overflow; rescale X.")
        return Z

    @fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y=None):
        """Sample the basis from the rows of ``X`` and eigendecompose its kernel matrix.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : ignored

        Returns
        -------
        self : LowRankNystroem
        """
        if self.rank is not None and self.rank > self.budget:
            raise ValueError(f"rank ({self.rank}) cannot exceed the budget ({self.budget}).")
        X = validate_data(self, X, reset=True)
        n = X.shape[0]
        B = min(int(self.budget), n)
        if B > MAX_BASIS:
            raise ValueError(f"budget={self.budget} on {n} rows asks for {B:,} basis points, over the limit of "
                             f"{MAX_BASIS:,}: their eigendecomposition grows with the cube of the budget. Use a "
                             "smaller budget (a few hundred are usually enough) or RandomFourierFeatures.")
        check_dense_size(B, B, None, f"The basis kernel matrix of budget={B} points",
                         "Use a smaller budget (a few hundred basis points are usually enough), or "
                         "RandomFourierFeatures, whose cost does not grow with the square of the budget.")
        rng = as_generator(self.random_state)
        idx = rng.choice(n, size=B, replace=False)
        basis = X[idx]
        self._shift = basis.min(axis=0) / 2 + basis.max(axis=0) / 2
        self._basis_c = self._centred(basis)
        W = self._kernel(self._basis_c, self._basis_c)
        if not np.isfinite(W).all():
            raise ValueError("X has values so large that the kernel between them overflows; rescale X.")
        vals, vecs = np.linalg.eigh(W)
        order = np.argsort(vals)[::-1]
        vals, vecs = vals[order], vecs[:, order]
        # eigenvalues at round-off level would blow up D^{-1/2}
        keep = vals > vals[0] * 1e-10
        if self.rank is not None:
            keep[int(self.rank):] = False
        self.basis_indices_ = idx
        self.basis_ = basis
        self.eigenvalues_ = vals[keep]
        self.components_ = vecs[:, keep] / np.sqrt(vals[keep])
        return self

    def transform(self, X) -> np.ndarray:
        """Return the dense feature matrix; z(x) . z(y) ~ k(x, y).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)

        Returns
        -------
        Z : ndarray of shape (n_samples, k)
        """
        check_is_fitted(self, "components_")
        X = validate_data(self, X, reset=False)
        n, (B, k) = X.shape[0], self.components_.shape
        check_dense_size(n, k, None, "The Nyström features", "Transform the rows in batches.")
        out = np.empty((n, k))
        step = max(1, _BLOCK_BYTES // (8 * B))
        for start in range(0, n, step):
            block = self._kernel(self._centred(X[start:start + step]), self._basis_c)
            if not np.isfinite(block).all():
                raise ValueError("X has values so large that the kernel with the basis overflows; rescale X.")
            out[start:start + step] = block @ self.components_
        return out

    def weights_from_dual(self, alpha) -> np.ndarray:
        """Linear weights w with w . z(x) ~ sum_j alpha_j k(x, basis_j) (NOGD's hand-over, Alg. 2).

        With z = D^{-1/2} V^T k(x), w = D^{1/2} V^T alpha; it is exact when no
        eigenpair was dropped.

        Parameters
        ----------
        alpha : array-like of shape (B,) or (B, m)
            Dual coefficients, in basis order.

        Returns
        -------
        w : ndarray of shape (k,) or (k, m)

        Examples
        --------
        >>> import numpy as np
        >>> from ikviz.features import LowRankNystroem
        >>> X = np.random.default_rng(0).normal(size=(30, 2))
        >>> ny = LowRankNystroem(budget=10, random_state=0).fit(X)
        >>> alpha = np.ones(10)
        >>> w = ny.weights_from_dual(alpha)
        >>> direct = np.exp(-((X[:, None] - ny.basis_[None]) ** 2).sum(-1)) @ alpha
        >>> bool(np.allclose(ny.transform(X) @ w, direct))
        True
        """
        check_is_fitted(self, "components_")
        alpha = np.asarray(alpha)
        B = self.components_.shape[0]
        if alpha.ndim not in (1, 2) or alpha.shape[0] != B:
            raise ValueError(f"alpha needs one row per basis point ({B}); got shape {alpha.shape}.")
        alpha = check_matrix(alpha.reshape(B, -1), "alpha").reshape(alpha.shape)
        # components_ = V D^{-1/2}, so D^{1/2} V^T = D * components_^T
        return (self.components_ * self.eigenvalues_).T @ alpha
