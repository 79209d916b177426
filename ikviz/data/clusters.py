"""The dense-and-sparse two-cluster data of Ting et al. (2021), Fig. 1 and Table 2 ("Gaussians")."""

from __future__ import annotations

import numpy as np

from .synthetic import _count


def _positive(name, value):
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not np.isfinite(value) or value <= 0:
        raise ValueError(f"{name} must be a positive number; got {value!r}.")
    return float(value)


def dense_sparse_clusters(d: int, n_per_cluster: int = 1000, sigma_dense: float = 1.0,
                          sigma_sparse: float = 2.0, offset: float = 4.0,
                          seed=0) -> tuple[np.ndarray, np.ndarray]:
    """Two isotropic Gaussian clusters in ``d`` dimensions: a dense one and a sparse one.

    Cluster 0 (dense) is N(0, sigma_dense^2 I); cluster 1 (sparse) is
    N(offset * 1, sigma_sparse^2 I), so the centres are ``offset * sqrt(d)``
    apart and the clusters stay well separated at every d (the paper's
    "two well-separated Gaussians"; Euclidean 5-NN retrieval is perfect on
    them). The paper does not give its generator's constants; these are ours.
    Returns ``X`` (2 n_per_cluster, d) and labels ``y``. Use
    :func:`cluster_queries` for the two query points.
    """
    d, n = _count("d", d), _count("n_per_cluster", n_per_cluster)
    sd, ss = _positive("sigma_dense", sigma_dense), _positive("sigma_sparse", sigma_sparse)
    offset = _positive("offset", offset)
    rng = np.random.default_rng(seed)
    X = np.empty((2 * n, d))
    X[:n] = rng.normal(0.0, sd, size=(n, d))
    X[n:] = rng.normal(offset, ss, size=(n, d))
    return X, np.repeat([0, 1], n)


#: names of the rows returned by :func:`cluster_queries`, in order
QUERIES = ("between", "sparse_centre")


def cluster_queries(d: int, offset: float = 4.0) -> np.ndarray:
    """The two queries of Fig. 1: q_i halfway between the cluster centres and q_c at the sparse cluster's centre.

    Returns a (2, d) array in the order of :data:`QUERIES`.
    """
    d = _count("d", d)
    offset = _positive("offset", offset)
    return np.vstack([np.full(d, offset / 2), np.full(d, offset)])
