"""Random Fourier features (Rahimi & Recht 2007) for the Gaussian and Laplacian kernels.

This is the feature map of FOGD (Lu et al. 2016, Alg. 1): z(x) . z(y) approximates
a shift-invariant kernel k(x - y) by D random frequencies drawn from the kernel's
Fourier transform. scikit-learn's ``RBFSampler`` already implements the map in its
random-phase form sqrt(2/D) cos(u . x + b) (same expectation as the paper's
(sin, cos) pairs); it is reused here for both kernels, only the frequencies differ.
"""

from __future__ import annotations

import math
import numbers

import numpy as np
from sklearn.base import BaseEstimator, TransformerMixin
from sklearn.kernel_approximation import RBFSampler
from sklearn.utils import check_random_state
from sklearn.utils.validation import check_is_fitted

from .._validation import check_matrix

KERNELS = ("gaussian", "laplacian")


class RandomFourierFeatures(TransformerMixin, BaseEstimator):
    """Dense random Fourier feature map of the Gaussian or the Laplacian kernel.

    Parameters
    ----------
    kernel : {"gaussian", "laplacian"}
        ``"gaussian"``: k(x, y) = exp(-gamma ||x - y||^2) (frequencies normal with
        variance 2 gamma). ``"laplacian"``: k(x, y) = exp(-gamma ||x - y||_1)
        (each frequency coordinate Cauchy with scale gamma, the Fourier transform
        of a 1-D Laplacian; the kernel is their product over coordinates).
    gamma : float
        Kernel parameter (for the Gaussian, gamma = 1 / (2 sigma^2)).
    n_components : int
        D, the number of random frequencies and of output columns.
    random_state : int, RandomState or None
        Seed; the same seed gives the same map.
    """

    def __init__(self, kernel="gaussian", gamma=1.0, n_components=100, random_state=None):
        self.kernel = kernel
        self.gamma = gamma
        self.n_components = n_components
        self.random_state = random_state

    def fit(self, X, y=None):
        """Draw the random frequencies for ``X``'s number of features (the values of ``X`` are not used)."""
        if self.kernel not in KERNELS:
            raise ValueError(f"kernel must be one of {KERNELS}; got {self.kernel!r}.")
        g = self.gamma
        if isinstance(g, bool) or not (isinstance(g, numbers.Real) and math.isfinite(g) and g > 0):
            raise ValueError(f"gamma must be a positive number; got {g!r}.")
        D = self.n_components
        if isinstance(D, bool) or not isinstance(D, numbers.Integral) or D < 1:
            raise ValueError(f"n_components must be a positive integer; got {D!r}.")
        X = check_matrix(X)
        rng = check_random_state(self.random_state)
        sampler = RBFSampler(gamma=float(g), n_components=int(D), random_state=rng).fit(X)
        if self.kernel == "laplacian":
            # same cos(u.x + b) map, frequencies from the Laplacian kernel's spectral density
            sampler.random_weights_ = float(g) * rng.standard_cauchy(size=sampler.random_weights_.shape)
        self.sampler_ = sampler
        self.n_features_in_ = X.shape[1]
        return self

    def transform(self, X) -> np.ndarray:
        """Return the dense (n, n_components) feature matrix; z(x) . z(y) ~ k(x, y)."""
        check_is_fitted(self, "sampler_")
        X = check_matrix(X)
        if X.shape[1] != self.n_features_in_:
            raise ValueError(f"X has {X.shape[1]} features, but the map was fitted with {self.n_features_in_}.")
        return self.sampler_.transform(X)
