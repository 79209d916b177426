"""Spectral clustering through scikit-learn with a precomputed affinity: IK, Gaussian or adaptive Gaussian."""

from __future__ import annotations

import math
import warnings

import numpy as np
from sklearn.cluster import SpectralClustering
from threadpoolctl import threadpool_limits

from .._validation import check_matrix
from ..kernels import IsolationKernel, adaptive_gaussian, rbf
from .density_peaks import check_n_clusters

AFFINITIES = ("ik", "gk", "ag")


def affinity(X, measure: str, *, psi: int = 64, t: int = 200, ik_kwargs: dict | None = None,
             sigma: float = 1.0, k: int = 7, seed=0) -> np.ndarray:
    """Dense (n, n) affinity of the rows of ``X``.

    ``"ik"``: Isolation Kernel with ``psi``, ``t`` and ``ik_kwargs`` (``method``,
    ``max_depth``), fitted on ``X``; ``"gk"``: Gaussian exp(-||x - y||^2 / (2 sigma^2));
    ``"ag"``: adaptive Gaussian with the ``k``-th neighbour scale (Zelnik-Manor & Perona).
    """
    X = check_matrix(X)
    if measure == "ik":
        ik = IsolationKernel(psi=min(int(psi), X.shape[0]), t=t, random_state=seed, **(ik_kwargs or {}))
        return ik.fit(X).similarity(X)
    if measure == "gk":
        if not (isinstance(sigma, (int, float)) and math.isfinite(sigma) and sigma > 0):
            raise ValueError(f"sigma must be a positive number; got {sigma!r}.")
        return rbf(X, gamma=1.0 / (2.0 * sigma**2))
    if measure == "ag":
        return adaptive_gaussian(X, k=k)
    raise ValueError(f"measure must be one of {AFFINITIES}; got {measure!r}.")


def spectral_clustering(K, n_clusters: int, seed=0) -> np.ndarray:
    """Labels from scikit-learn's normalised spectral clustering on the precomputed affinity ``K``."""
    K = check_matrix(K, "the affinity matrix")
    n = K.shape[0]
    if K.shape != (n, n):
        raise ValueError(f"the affinity matrix must be square; got shape {K.shape}.")
    if np.any(K < 0):
        raise ValueError("the affinity matrix has negative entries; spectral clustering needs K >= 0.")
    k = check_n_clusters(n_clusters, n)
    if k == 1:
        return np.zeros(n, dtype=np.int64)
    # one thread: at these sizes OpenMP/BLAS pools cost more than they save (n = 1000: 1.8 s -> 0.2 s)
    with warnings.catch_warnings(), threadpool_limits(1):
        # a very sharp kernel leaves the graph disconnected; the clustering is still defined
        warnings.filterwarnings("ignore", message="Graph is not fully connected")
        model = SpectralClustering(n_clusters=k, affinity="precomputed", random_state=seed)
        return model.fit_predict(K).astype(np.int64)
