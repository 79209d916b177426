"""The dense-and-sparse two-cluster data of Ting et al. (2021), Fig. 1 and Table 2 ("Gaussians")."""

from __future__ import annotations

import numpy as np
from .._sklearn import validate_params

from .synthetic import COUNT, SEED, SPREAD, check_size, check_spread


@validate_params({"d": COUNT, "n_per_cluster": COUNT, "sigma_dense": SPREAD, "sigma_sparse": SPREAD,
                  "offset": SPREAD, "seed": SEED}, prefer_skip_nested_validation=True)
def dense_sparse_clusters(d: int, n_per_cluster: int = 1000, sigma_dense: float = 1.0,
                          sigma_sparse: float = 2.0, offset: float = 4.0,
                          seed=0) -> tuple[np.ndarray, np.ndarray]:
    """Two isotropic Gaussian clusters in ``d`` dimensions: a dense one and a sparse one.

    Cluster 0 (dense) is N(0, sigma_dense^2 I); cluster 1 (sparse) is
    N(offset * 1, sigma_sparse^2 I), so the centres are ``offset * sqrt(d)``
    apart and the clusters stay well separated at every d (the paper's
    "two well-separated Gaussians"; Euclidean 5-NN retrieval is perfect on
    them). The paper does not give its generator's constants; these are ours.
    Use :func:`cluster_queries` for the two query points.

    Parameters
    ----------
    d : int
        Number of dimensions.
    n_per_cluster : int, default=1000
        Points per cluster.
    sigma_dense, sigma_sparse : float, default=1.0, 2.0
        Standard deviations of the clusters (positive, at most 1e300).
    offset : float, default=4.0
        Every coordinate of the sparse cluster's centre.
    seed : int, numpy Generator, SeedSequence or None, default=0
        Seed; the same seed gives the same points.

    Returns
    -------
    X : ndarray of shape (2 n_per_cluster, d)
    y : ndarray of shape (2 n_per_cluster,) of int
        0 for the dense cluster, 1 for the sparse one.

    Examples
    --------
    >>> from ikviz.data import dense_sparse_clusters
    >>> X, y = dense_sparse_clusters(d=3, n_per_cluster=4, seed=0)
    >>> X.shape, y.tolist()
    ((8, 3), [0, 0, 0, 0, 1, 1, 1, 1])
    """
    n, d = int(n_per_cluster), int(d)
    check_spread(sigma_dense=sigma_dense, sigma_sparse=sigma_sparse, offset=offset)
    check_size(2 * n, d, f"dense_sparse_clusters(d={d}, n_per_cluster={n})")
    rng = np.random.default_rng(seed)
    X = np.empty((2 * n, int(d)))
    X[:n] = rng.normal(0.0, sigma_dense, size=(n, d))
    X[n:] = rng.normal(offset, sigma_sparse, size=(n, d))
    return X, np.repeat([0, 1], n)


#: names of the rows returned by :func:`cluster_queries`, in order
QUERIES = ("between", "sparse_centre")


@validate_params({"d": COUNT, "offset": SPREAD}, prefer_skip_nested_validation=True)
def cluster_queries(d: int, offset: float = 4.0) -> np.ndarray:
    """The two queries of Fig. 1: q_i halfway between the cluster centres and q_c at the sparse cluster's centre.

    Parameters
    ----------
    d : int
        Number of dimensions.
    offset : float, default=4.0
        As in :func:`dense_sparse_clusters`.

    Returns
    -------
    Q : ndarray of shape (2, d)
        In the order of :data:`QUERIES`.

    Examples
    --------
    >>> from ikviz.data import cluster_queries
    >>> cluster_queries(3)
    array([[2., 2., 2.],
           [4., 4., 4.]])
    """
    check_spread(offset=offset)
    check_size(2, d, f"cluster_queries(d={d})")
    return np.vstack([np.full(int(d), offset / 2), np.full(int(d), float(offset))])
