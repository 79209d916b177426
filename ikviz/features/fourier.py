"""Random Fourier features (Rahimi & Recht 2007) for the Gaussian and Laplacian kernels.

This is the feature map of FOGD (Lu et al. 2016, Alg. 1): z(x) . z(y) approximates
a shift-invariant kernel k(x - y) by D random frequencies drawn from the kernel's
Fourier transform. scikit-learn's ``RBFSampler`` already implements the map in its
random-phase form sqrt(2/D) cos(u . x + b) (same expectation as the paper's
(sin, cos) pairs); it is reused here for both kernels, only the frequencies differ.

The map is applied to ``x - c``, ``c`` the fitted data's per-feature midrange
(``centre_``): a constant shift of the phases, which leaves the map's
distribution (b uniform) and so the kernel it approximates unchanged, but keeps
u . x free of the cancellation that made a row far from the origin (1e6 and
beyond) lose its phase. The product is computed row by row in a fixed order
(:func:`fourier_map`), so a row alone gets bit for bit its features in a batch.
"""

from __future__ import annotations

from numbers import Integral, Real

import numpy as np
from numba import njit, prange
from sklearn.base import BaseEstimator, ClassNamePrefixFeaturesOutMixin, TransformerMixin
from sklearn.kernel_approximation import RBFSampler
from sklearn.utils import check_random_state
from sklearn.utils.validation import check_is_fitted

from .._sklearn import Interval, StrOptions, fit_context
from .._validation import check_dense_size, validate_data

KERNELS = ("gaussian", "laplacian")
#: below this many rows the map runs on one thread: starting the pool would cost more
_SERIAL_ROWS = 256


@njit(cache=True, nogil=True, inline="always")
def _fourier_row(X, i, W, b, scale, out):
    d = X.shape[1]
    D = W.shape[1]
    for j in range(D):
        out[i, j] = b[j]
    for q in range(d):
        xq = X[i, q]
        for j in range(D):
            out[i, j] += xq * W[q, j]
    for j in range(D):
        out[i, j] = scale * np.cos(out[i, j])


@njit(parallel=True, cache=True, nogil=True)
def _fourier_par(X, W, b, scale, out):
    for i in prange(X.shape[0]):
        _fourier_row(X, i, W, b, scale, out)


@njit(cache=True, nogil=True)
def _fourier_ser(X, W, b, scale, out):
    for i in range(X.shape[0]):
        _fourier_row(X, i, W, b, scale, out)


def fourier_map(X, W, b, scale, out):
    """Random Fourier features ``out = scale * cos(X @ W + b)`` (RBFSampler's map), row by row."""
    (_fourier_ser if X.shape[0] < _SERIAL_ROWS else _fourier_par)(X, W, b, scale, out)


class RandomFourierFeatures(ClassNamePrefixFeaturesOutMixin, TransformerMixin, BaseEstimator):
    """Dense random Fourier feature map of the Gaussian or the Laplacian kernel.

    Parameters
    ----------
    kernel : {"gaussian", "laplacian"}, default="gaussian"
        ``"gaussian"``: k(x, y) = exp(-gamma ||x - y||^2) (frequencies normal with
        variance 2 gamma). ``"laplacian"``: k(x, y) = exp(-gamma ||x - y||_1)
        (each frequency coordinate Cauchy with scale gamma, the Fourier transform
        of a 1-D Laplacian; the kernel is their product over coordinates).
    gamma : float, default=1.0
        Kernel parameter, > 0 (for the Gaussian, gamma = 1 / (2 sigma^2)).
    n_components : int, default=100
        D, the number of random frequencies and of output columns.
    random_state : int, RandomState or None, default=None
        Seed; the same seed gives the same map.

    Attributes
    ----------
    sampler_ : sklearn.kernel_approximation.RBFSampler
        The fitted map (its ``random_weights_`` hold the frequencies).
    centre_ : ndarray of shape (n_features,)
        The fitted data's per-feature midrange; the map is applied to ``x - centre_``.
    n_features_in_ : int
        Number of input features.

    Examples
    --------
    >>> import numpy as np
    >>> from ikviz.features import RandomFourierFeatures
    >>> X = np.random.default_rng(0).normal(size=(50, 3))
    >>> Z = RandomFourierFeatures(gamma=0.5, n_components=2000, random_state=0).fit_transform(X)
    >>> Z.shape
    (50, 2000)
    >>> exact = np.exp(-0.5 * ((X[:5, None] - X[None, :5]) ** 2).sum(-1))
    >>> bool(np.abs(Z[:5] @ Z[:5].T - exact).max() < 0.1)
    True
    """

    _parameter_constraints: dict = {
        "kernel": [StrOptions(set(KERNELS))],
        "gamma": [Interval(Real, 0, np.inf, closed="neither")],
        "n_components": [Interval(Integral, 1, None, closed="left")],
        "random_state": ["random_state"],
    }

    def __init__(self, kernel="gaussian", gamma=1.0, n_components=100, random_state=None):
        self.kernel = kernel
        self.gamma = gamma
        self.n_components = n_components
        self.random_state = random_state

    @property
    def _n_features_out(self):
        return self.n_components

    @fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y=None):
        """Draw the random frequencies for ``X``'s number of features and record its midrange (``centre_``).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : ignored

        Returns
        -------
        self : RandomFourierFeatures
        """
        X = validate_data(self, X, reset=True)
        D = int(self.n_components)
        check_dense_size(X.shape[1], D, None, f"The {D} random frequencies", "Use fewer n_components.")
        rng = check_random_state(self.random_state)
        sampler = RBFSampler(gamma=float(self.gamma), n_components=D, random_state=rng).fit(X)
        if self.kernel == "laplacian":
            # same cos(u.x + b) map, frequencies from the Laplacian kernel's spectral density
            sampler.random_weights_ = float(self.gamma) * rng.standard_cauchy(size=sampler.random_weights_.shape)
        if not np.isfinite(sampler.random_weights_).all():
            raise ValueError(f"gamma={self.gamma!r} is so large that the random frequencies overflow; "
                             "use a smaller gamma (rescale the data instead).")
        self.sampler_ = sampler
        lo, hi = X.min(axis=0), X.max(axis=0)
        self.centre_ = lo * 0.5 + hi * 0.5  # halves first: lo + hi could overflow
        return self

    def transform(self, X) -> np.ndarray:
        """Return the dense feature matrix; z(x) . z(y) ~ k(x, y).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)

        Returns
        -------
        Z : ndarray of shape (n_samples, n_components)
        """
        check_is_fitted(self, "sampler_")
        X = validate_data(self, X, reset=False)
        check_dense_size(X.shape[0], int(self.n_components), None, "The random Fourier features",
                         "Transform the rows in batches, or use fewer n_components.")
        s = self.sampler_
        D = int(s.n_components)
        out = np.empty((X.shape[0], D))
        with np.errstate(over="ignore", invalid="ignore"):
            fourier_map(X - self.centre_, np.ascontiguousarray(s.random_weights_, dtype=np.float64),
                        np.ascontiguousarray(s.random_offset_, dtype=np.float64), (2.0 / D) ** 0.5, out)
        if not np.isfinite(out).all():
            raise ValueError("X has values so far from the data the map was fitted on that their projections on "
                             "the random frequencies overflow; rescale X the way the fitted data was scaled "
                             "(or lower gamma).")
        return out
