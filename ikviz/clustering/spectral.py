"""Spectral clustering on an Isolation Kernel, Gaussian or adaptive Gaussian affinity.

scikit-learn's ``SpectralClustering`` does the clustering on the affinity
matrix built here; :class:`SpectralClustering` adds the two affinities it
lacks (``"ik"``, ``"adaptive"``) behind the same interface; ``"precomputed"`` takes an affinity
already built, so one matrix serves several seeds.
"""

from __future__ import annotations

import warnings
from numbers import Integral, Real

import numpy as np
from sklearn import cluster as _sk_cluster
from sklearn.base import BaseEstimator, ClusterMixin
from threadpoolctl import threadpool_limits

from .._sklearn import Hidden, Interval, StrOptions, fit_context
from .._validation import MAX_RESTARTS, check_dense_size, renamed, validate_data
from ..kernels import adaptive_gaussian, rbf
from .density_peaks import _isolation_kernel

AFFINITIES = ("ik", "rbf", "adaptive", "precomputed")


class SpectralClustering(ClusterMixin, BaseEstimator):
    """Normalised spectral clustering on an IK, Gaussian (RBF) or adaptive Gaussian affinity.

    Parameters
    ----------
    n_clusters : int, default=8
        Number of clusters.
    affinity : {"ik", "rbf", "adaptive", "precomputed"}, default="ik"
        ``"ik"``: Isolation Kernel similarity, the kernel fitted on ``X`` with
        ``psi``, ``t`` and ``kernel_params``. ``"rbf"``: exp(-gamma ||x - y||^2).
        ``"adaptive"``: exp(-||x - y||^2 / (s_x s_y)), s_x the distance from x to
        its ``n_neighbours``-th nearest neighbour (Zelnik-Manor & Perona 2004).
        ``"precomputed"``: ``X`` is the affinity itself, a symmetric
        (n_samples, n_samples) matrix of non-negative values, e.g. another
        fit's ``affinity_matrix_`` clustered again under another seed.
    psi : int, default=16
        ``affinity="ik"``: points per partitioning, clipped to the number of rows.
    t : int, default=200
        ``affinity="ik"``: number of partitionings.
    kernel_params : dict or None, default=None
        ``affinity="ik"``: further :class:`~ikviz.IsolationKernel` parameters,
        e.g. ``{"method": "iforest"}``.
    gamma : float, default=1.0
        ``affinity="rbf"``: kernel width, gamma = 1 / (2 sigma^2).
    n_neighbours : int, default=7
        ``affinity="adaptive"``: the neighbour that sets each point's scale.
    assign_labels : {"kmeans", "discretize", "cluster_qr"}, default="kmeans"
        How scikit-learn turns the spectral embedding into labels.
    n_init : int, default=10
        k-means restarts in the embedding (``assign_labels="kmeans"``), at
        most 1000 (:data:`ikviz._validation.MAX_RESTARTS`).
    random_state : int, RandomState or None, default=None
        Seeds the Isolation Kernel, the eigensolver and k-means.
    dense_budget : int or None, default=None
        Largest n x n affinity matrix in bytes (default 2 GiB).
    n_neighbors : int, default="deprecated"
        Deprecated alias of ``n_neighbours`` (ikviz spells "neighbour" one
        way); it still works, with a FutureWarning.

    Attributes
    ----------
    labels_ : ndarray of shape (n_samples,)
        Cluster of each point, 0 .. n_clusters - 1.
    affinity_matrix_ : ndarray of shape (n_samples, n_samples)
        The affinity the clustering used.
    kernel_ : IsolationKernel
        ``affinity="ik"`` only: the fitted kernel.
    n_features_in_ : int
        Number of input features.

    Examples
    --------
    >>> import numpy as np
    >>> from ikviz.clustering import SpectralClustering
    >>> rng = np.random.default_rng(0)
    >>> X = np.vstack([rng.normal(0, 0.3, (40, 2)), rng.normal(3, 0.3, (40, 2))])
    >>> sc = SpectralClustering(n_clusters=2, psi=8, t=100, random_state=0).fit(X)
    >>> sorted(np.bincount(sc.labels_).tolist())
    [40, 40]
    >>> SpectralClustering(n_clusters=2, affinity="rbf", random_state=0).fit(X).affinity_matrix_.shape
    (80, 80)
    """

    _parameter_constraints: dict = {
        "n_clusters": [Interval(Integral, 1, None, closed="left")],
        "affinity": [StrOptions(set(AFFINITIES))],
        "psi": [Interval(Integral, 2, None, closed="left")],
        "t": [Interval(Integral, 1, None, closed="left")],
        "kernel_params": [dict, None],
        "gamma": [Interval(Real, 0, np.inf, closed="neither")],
        "n_neighbours": [Interval(Integral, 1, None, closed="left")],
        "n_neighbors": [Interval(Integral, 1, None, closed="left"), Hidden(StrOptions({"deprecated"}))],
        "assign_labels": [StrOptions({"kmeans", "discretize", "cluster_qr"})],
        "n_init": [Interval(Integral, 1, MAX_RESTARTS, closed="both")],
        "random_state": ["random_state"],
        "dense_budget": [Interval(Integral, 1, None, closed="left"), None],
    }

    def __init__(self, n_clusters=8, *, affinity="ik", psi=16, t=200, kernel_params=None, gamma=1.0, n_neighbours=7,
                 assign_labels="kmeans", n_init=10, random_state=None, dense_budget=None, n_neighbors="deprecated"):
        self.n_clusters = n_clusters
        self.affinity = affinity
        self.psi = psi
        self.t = t
        self.kernel_params = kernel_params
        self.gamma = gamma
        self.n_neighbours = n_neighbours
        self.n_neighbors = n_neighbors
        self.assign_labels = assign_labels
        self.n_init = n_init
        self.random_state = random_state
        self.dense_budget = dense_budget

    @fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y=None):
        """Build the affinity of the rows of ``X`` and cluster it.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            At least 2 rows.
        y : ignored

        Returns
        -------
        self : SpectralClustering
        """
        self.__dict__.pop("kernel_", None)   # a refit with another affinity leaves no stale kernel
        X = validate_data(self, X, reset=True)
        n = X.shape[0]
        k = int(self.n_clusters)
        if n < 2:
            raise ValueError(f"SpectralClustering needs at least 2 samples to cluster; X has n_samples={n}.")
        if k > n:
            raise ValueError(f"cannot make {k} clusters from {n} points (X has n_samples={n}); "
                             f"choose n_clusters <= {n}.")
        check_dense_size(n, n, self.dense_budget, f"The affinity matrix of the {n} rows of X",
                         "Use fewer rows, or DensityPeaks(metric='ik') (streamed distances) or "
                         "make_kmeans('ik') (sparse features), which scale to many more rows; or raise "
                         "dense_budget.")
        if self.affinity == "precomputed":
            K = _checked_affinity(X)
        elif self.affinity == "ik":
            kernel = _isolation_kernel(self).set_params(psi=min(int(self.psi), n))
            self.kernel_ = kernel.fit(X)
            K = kernel.similarity(X)
        elif self.affinity == "rbf":
            K = rbf(X, gamma=float(self.gamma))
        else:
            k_nn = int(renamed("SpectralClustering", "n_neighbors", "n_neighbours", self.n_neighbors,
                               self.n_neighbours))
            if k_nn >= n:
                raise ValueError(f"n_neighbours={k_nn} needs more than {k_nn} samples; "
                                 f"X has n_samples={n}. Choose n_neighbours < {n}.")
            K = adaptive_gaussian(X, k=k_nn)
        self.affinity_matrix_ = K
        if k == 1:
            self.labels_ = np.zeros(n, dtype=np.int64)
            return self
        model = _sk_cluster.SpectralClustering(n_clusters=k, affinity="precomputed",
                                               assign_labels=self.assign_labels, n_init=int(self.n_init),
                                               random_state=self.random_state)
        # one thread: at these sizes OpenMP/BLAS pools cost more than they save (n = 1000: 1.8 s -> 0.2 s)
        with warnings.catch_warnings(), threadpool_limits(1):
            # a very sharp kernel leaves the graph disconnected; the clustering is still defined
            warnings.filterwarnings("ignore", message="Graph is not fully connected")
            # on a handful of rows scipy's sparse eigensolver falls back to a dense one, and says so
            warnings.filterwarnings("ignore", message="k >= N")
            self.labels_ = model.fit_predict(K).astype(np.int64)
        return self


def _checked_affinity(K: np.ndarray) -> np.ndarray:
    """``K`` if it can be an affinity matrix (square, symmetric, non-negative), else a ValueError saying what is wrong."""
    n, m = K.shape
    if n != m:
        raise ValueError(f"affinity='precomputed' needs a square (n_samples, n_samples) affinity matrix; "
                         f"X has shape {K.shape}.")
    if K.min() < 0:
        raise ValueError(f"affinity='precomputed': the affinity matrix has negative values (min {K.min():.3g}); "
                         "an affinity is a similarity, 0 or more.")
    if not np.allclose(K, K.T, rtol=1e-10, atol=1e-12):
        raise ValueError("affinity='precomputed': the affinity matrix is not symmetric "
                         f"(largest |K - K.T| {np.abs(K - K.T).max():.3g}).")
    return K
