"""Density-peaks clustering (Rodriguez & Laio 2014) on a distance or on 1 - kernel similarity.

For a cutoff ``eps``:

* rho_i   = number of other points closer than ``eps`` (local density);
* delta_i = distance to the nearest point that is denser; the densest point
  gets its largest distance to any point;
* the ``n_clusters`` points with the largest rho * delta are the centres, and
  every other point joins the cluster of its nearest denser point.

"Denser" is a strict order: equal densities are ordered by a seeded hash of
each row's values (:func:`tie_keys`), so the clustering does not depend on
the order of the rows. Only identical rows fall back on their position, and
those normally share a cluster (one hangs on the other at distance 0).
``DensityPeaks(ties="row index")`` orders equal densities by row position
instead, the rule before the hash, kept to measure what it changes. Among
denser points at the same distance the denser one is the nearest denser
point, and among equal rho * delta the denser point is the centre.

Plotting delta against rho (the *decision graph*) is how a user sees the
centres: they stand out with both a high density and a large delta.

Distances are streamed in row blocks of a bounded size (``_Distances``),
so 10,000 points never need the 800 MB dense matrix. The rho pass handles
any number of cutoffs at once, so :meth:`DensityPeaks.path` sweeps 99 cutoffs
at the cost of one fit.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from numbers import Integral, Real

import numpy as np
from sklearn.base import BaseEstimator, ClusterMixin, clone

from .._sklearn import Hidden, Interval, StrOptions, fit_context
from .._validation import check_dense_size, renamed, validate_data
from ..kernels import IsolationKernel, local_scale, shared_cells
from ._dp import adaptive_gaussian_block, count_within, euclidean_block, follow_chain, nearest_denser

#: default size of one streamed block of distances (rows x n float64)
DEFAULT_BLOCK_BYTES = 64 * 1024**2
METRICS = ("euclidean", "ik", "adaptive")
#: how points of equal density are ordered (DensityPeaks' ``ties``)
TIES = ("row values", "row index")
#: up to this many features a direct loop beats a BLAS matrix product for Euclidean blocks
_DIRECT_MAX_FEATURES = 16
#: IsolationKernel parameters DensityPeaks and SpectralClustering set themselves
_OWN_IK_PARAMS = ("psi", "t", "random_state")


def _unit_frame(X: np.ndarray) -> tuple[np.ndarray, int]:
    """``X`` centred on each feature's midrange and scaled by a power of two into [-1, 1], and that power.

    Distances taken on the result have no cancellation (data far from the
    origin) and no overflow (huge values); scaling by a power of two is exact,
    and min, max and elementwise arithmetic do not depend on the row order. A
    Euclidean distance ``dist`` of the result is ``np.ldexp(dist, power)`` in
    the original units.
    """
    lo, hi = X.min(axis=0), X.max(axis=0)
    shift = lo / 2 + hi / 2  # halves first: lo + hi could overflow
    spread = float(np.max(np.maximum(hi - shift, shift - lo)))
    power = math.frexp(spread)[1] if spread > 0 else 0
    return np.ldexp(X - shift, -power), power


def _splitmix64(z: np.ndarray) -> np.ndarray:
    """The splitmix64 finaliser on a uint64 array (wrapping arithmetic, elementwise)."""
    z = z + np.uint64(0x9E3779B97F4A7C15)
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


def tie_keys(X: np.ndarray, seed: int) -> np.ndarray:
    """A seeded pseudo-random uint64 key per row that depends only on the row's values.

    Used to order points of equal density. Equal rows get equal keys; -0.0 and
    0.0 count as equal.

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features), float64
    seed : int

    Returns
    -------
    keys : ndarray of shape (n_samples,), uint64

    Examples
    --------
    >>> import numpy as np
    >>> from ikviz.clustering.density_peaks import tie_keys
    >>> X = np.array([[0.0, 1.0], [2.0, 3.0], [0.0, 1.0]])
    >>> k = tie_keys(X, seed=0)
    >>> bool(k[0] == k[2]), bool(k[0] == k[1])
    (True, False)
    >>> bool(np.array_equal(tie_keys(X[::-1], seed=0), k[::-1]))
    True
    """
    bits = np.ascontiguousarray(X + 0.0, dtype=np.float64).view(np.uint64)
    n, d = bits.shape
    salt = _splitmix64(np.full(d, seed & 0xFFFFFFFFFFFFFFFF, dtype=np.uint64) + np.arange(d, dtype=np.uint64))
    acc = np.zeros(n, dtype=np.uint64)
    step = max(1, 2**22 // max(n, 1))  # columns per pass: bounds the temporary (n, step) arrays
    for c0 in range(0, d, step):
        acc += _splitmix64(bits[:, c0:c0 + step] ^ salt[None, c0:c0 + step]).sum(axis=1, dtype=np.uint64)
    return _splitmix64(acc)


def _kernel_params(kernel_params, owner: str) -> dict:
    """``kernel_params`` as a dict of IsolationKernel parameters other than psi, t and random_state."""
    params = dict(kernel_params or {})
    allowed = set(IsolationKernel().get_params()) - set(_OWN_IK_PARAMS)
    bad = sorted(set(params) - allowed)
    if bad:
        raise ValueError(f"kernel_params cannot set {bad}: it takes IsolationKernel parameters other than "
                         f"psi, t and random_state ({sorted(allowed)}), which are {owner}'s own parameters.")
    return params


def _isolation_kernel(estimator) -> IsolationKernel:
    """The unfitted IsolationKernel of a clusterer's ``t``, ``kernel_params`` and ``random_state``.

    ``psi`` is left for the caller to set (clipped to the rows it fits on).
    """
    params = _kernel_params(estimator.kernel_params, type(estimator).__name__)
    return IsolationKernel(t=int(estimator.t), random_state=estimator.random_state, **params)


class _Distances:
    """Pairwise dissimilarities of the rows of ``X``, served one row block at a time.

    ``metric``: ``"euclidean"`` (on ``X`` as given), ``"ik"`` (1 - IK similarity
    from ``index``, a :class:`~ikviz.kernels.CellIndex` of the rows) or
    ``"adaptive"`` (1 - exp(-||x - y||^2 / (s_x s_y)) with the scales ``scale``).
    At most ``block_bytes`` of distances are held at once; when the whole
    matrix fits in one block it is computed once and reused by every pass.
    """

    def __init__(self, X, metric: str, *, index=None, scale=None, block_bytes: int | None = None):
        self.X = X
        self.metric = metric
        self.n = X.shape[0]
        budget = DEFAULT_BLOCK_BYTES if block_bytes is None else int(block_bytes)
        self.rows_per_block = max(1, min(self.n, budget // (8 * self.n)))
        self._sq_norms = np.einsum("ij,ij->i", X, X)
        self._index, self._scale = index, scale
        self._whole = self._buffer = None
        self._max = None

    def _compute(self, start: int, stop: int, out: np.ndarray) -> np.ndarray:
        """Write the distances of rows ``start:stop`` into ``out`` (rows, n), in place."""
        rows = self.X[start:stop]
        if self.metric == "ik":
            self._index.similarity(self._index.cells[start:stop], out=out)
            out *= -1.0
            out += 1.0
            return out
        if self.X.shape[1] <= _DIRECT_MAX_FEATURES:
            if self.metric == "euclidean":
                return euclidean_block(rows, self.X, out)
            return adaptive_gaussian_block(rows, self.X, self._scale[start:stop], self._scale, out)
        np.matmul(rows, self.X.T, out=out)
        out *= -2.0
        out += self._sq_norms[start:stop, None]
        out += self._sq_norms[None, :]
        np.maximum(out, 0.0, out=out)  # rounding can make tiny squared distances negative
        if self.metric == "euclidean":
            return np.sqrt(out, out=out)
        out /= self._scale[start:stop, None]
        out /= self._scale[None, :]
        np.negative(out, out=out)
        np.exp(out, out=out)
        out *= -1.0
        out += 1.0
        return out

    def blocks(self):
        """Yield ``(start, block)`` pairs covering all rows; ``block`` is (rows, n) float64.

        Every block is written into the same buffer, so at most one block of
        distances exists at a time: use a block before asking for the next.
        """
        if self.rows_per_block >= self.n:
            if self._whole is None:
                self._whole = self._compute(0, self.n, np.empty((self.n, self.n)))
            yield 0, self._whole
            return
        if self._buffer is None:
            self._buffer = np.empty((self.rows_per_block, self.n))
        for start in range(0, self.n, self.rows_per_block):
            stop = min(self.n, start + self.rows_per_block)
            yield start, self._compute(start, stop, self._buffer[: stop - start])

    def max_distance(self) -> float:
        """The largest pairwise dissimilarity (the paper's m; cutoffs are fractions of it)."""
        if self._max is None and self.metric == "ik" and self.n > 1:
            # 1 - IK is at most 1 (no shared cell). A random sample of pairs usually contains such a
            # pair, which proves m = 1 exactly and saves a full pass over the n^2 distances.
            rng = np.random.default_rng(0)
            a, b = rng.integers(0, self.n, size=(2, min(20_000, self.n * self.n)))
            cells = self._index.cells
            if np.any(shared_cells(cells[a], cells[b]).sum(axis=1) == 0):
                self._max = 1.0
        if self._max is None:
            self._max = float(max(block.max() for _, block in self.blocks()))
        return self._max


def _decision_graph(distances: _Distances, eps: np.ndarray, keys: np.ndarray):
    """rho, delta, parent and the density order for each cutoff in ``eps`` (two streamed passes)."""
    n = distances.n
    sort = np.argsort(eps, kind="stable")
    eps_sorted = np.ascontiguousarray(eps[sort])
    rho_sorted = np.zeros((eps_sorted.size, n), dtype=np.int64)
    for start, block in distances.blocks():
        count_within(block, start, eps_sorted, rho_sorted)
    rho = np.empty_like(rho_sorted)
    rho[sort] = rho_sorted
    # densest first; equal densities by the rows' keys, then (identical rows only) by position
    position = np.arange(n)
    order = np.stack([np.lexsort((position, keys, -r)) for r in rho])
    rank = np.empty_like(order)
    np.put_along_axis(rank, order, position[None, :], axis=1)
    delta = np.empty(rho.shape)
    parent = np.empty(rho.shape, dtype=np.int64)
    for start, block in distances.blocks():
        nearest_denser(block, start, rank, delta, parent)
    return rho, delta, parent, order, rank


def _assign(rho, delta, parent, order, rank, n_clusters: int):
    """Labels (n,) and centres (n_clusters,) for one cutoff; the centres are numbered by decreasing rho * delta."""
    centres = np.lexsort((rank, -(rho * delta)))[:n_clusters]
    centre_label = np.full(rho.size, -1, dtype=np.int64)
    centre_label[centres] = np.arange(n_clusters)
    return follow_chain(order, parent, centre_label), centres


@dataclass
class DecisionGraph:
    """Density peaks at several cutoffs (returned by :meth:`DensityPeaks.path`); row e is cutoff e.

    Attributes
    ----------
    eps_fraction : ndarray of shape (m,)
        The cutoffs as fractions of ``max_distance``.
    eps : ndarray of shape (m,)
        The cutoffs as dissimilarities.
    max_distance : float
        The largest pairwise dissimilarity.
    rho : ndarray of shape (m, n_samples)
        Local densities (neighbours closer than eps).
    delta : ndarray of shape (m, n_samples)
        Dissimilarity to the nearest denser point (the densest point: to the farthest point).
    parent : ndarray of shape (m, n_samples)
        Index of the nearest denser point; -1 for the densest.
    labels : ndarray of shape (m, n_samples)
        The clusters, 0 .. n_clusters - 1.
    centres : ndarray of shape (m, n_clusters)
        Row indices of the centres; ``labels[e, centres[e, c]] == c``.

    Examples
    --------
    >>> import numpy as np
    >>> from ikviz.clustering import DensityPeaks
    >>> X = np.array([[0.0], [1.0], [2.0], [10.0], [11.0]])
    >>> graph = DensityPeaks(n_clusters=2).path(X, [0.15, 0.5])
    >>> graph.rho.tolist()
    [[1, 2, 1, 1, 1], [2, 2, 2, 1, 1]]
    >>> graph.centres[0].tolist(), float(graph.delta[0, 1])
    ([1, 3], 10.0)
    """

    eps_fraction: np.ndarray
    eps: np.ndarray
    max_distance: float
    rho: np.ndarray
    delta: np.ndarray
    parent: np.ndarray
    labels: np.ndarray
    centres: np.ndarray


class DensityPeaks(ClusterMixin, BaseEstimator):
    """Density-peaks clustering (Rodriguez & Laio 2014) with a Euclidean, 1 - IK or 1 - adaptive Gaussian dissimilarity.

    Parameters
    ----------
    n_clusters : int, default=2
        Number of clusters (centres).
    eps_fraction : float, default=0.02
        The cutoff eps as a fraction of the largest pairwise dissimilarity, in
        (0, 1] (ting2021 Table 7 sweeps 0.01 .. 0.99; see :meth:`path`).
    metric : {"euclidean", "ik", "adaptive"}, default="euclidean"
        ``"euclidean"``: the Euclidean distance. ``"ik"``: 1 - Isolation Kernel
        similarity, the kernel fitted on ``X`` with ``psi``, ``t`` and
        ``kernel_params``. ``"adaptive"``: 1 - adaptive Gaussian similarity
        exp(-||x - y||^2 / (s_x s_y)), s_x the distance from x to its
        ``n_neighbours``-th nearest neighbour.
    psi : int, default=16
        ``metric="ik"``: points per partitioning, clipped to the number of rows.
    t : int, default=200
        ``metric="ik"``: number of partitionings.
    kernel_params : dict or None, default=None
        ``metric="ik"``: further :class:`~ikviz.IsolationKernel` parameters,
        e.g. ``{"method": "iforest", "max_depth": None}``.
    n_neighbours : int, default=7
        ``metric="adaptive"``: the neighbour that sets each point's scale.
    block_bytes : int or None, default=None
        Largest block of distances held at once (default 64 MiB); the n x n
        matrix is never built when it is larger.
    ties : {"row values", "row index"}, default="row values"
        How points of equal density are ordered. ``"row values"``: by a
        seeded hash of each row's values (:func:`tie_keys`), so the result
        does not depend on the order of the rows. ``"row index"``: by row
        position, the rule before the hash; with it the clustering depends on
        the order of the rows (and for ``metric="ik"`` the kernel is fitted in
        the given row order). It exists to measure that effect
        (:func:`ikviz.experiments.clustering.row_order_effect`).
    random_state : int, numpy Generator, RandomState or None, default=None
        Seeds the Isolation Kernel and the hash that orders points of equal
        density (seed 0 when None, so the Euclidean and adaptive clusterings
        are deterministic).
    n_neighbors : int, default="deprecated"
        Deprecated alias of ``n_neighbours`` (ikviz spells "neighbour" one
        way); it still works, with a FutureWarning.

    Attributes
    ----------
    labels_ : ndarray of shape (n_samples,)
        Cluster of each point, 0 .. n_clusters - 1 (cluster c has centre
        ``cluster_centers_indices_[c]``).
    cluster_centers_indices_ : ndarray of shape (n_clusters,)
        Row indices of the centres, by decreasing rho * delta.
    cluster_centers_ : ndarray of shape (n_clusters, n_features)
        The centres' rows.
    rho_ : ndarray of shape (n_samples,)
        Local density: the number of other points closer than ``eps_``.
    delta_ : ndarray of shape (n_samples,)
        Dissimilarity to the nearest denser point (for the densest point: to
        the farthest point). ``rho_`` against ``delta_`` is the decision graph.
    parent_ : ndarray of shape (n_samples,)
        Index of the nearest denser point, -1 for the densest.
    eps_ : float
        The cutoff as a dissimilarity.
    max_distance_ : float
        The largest pairwise dissimilarity.
    kernel_ : IsolationKernel
        ``metric="ik"`` only: the fitted kernel.
    n_features_in_ : int
        Number of input features.

    Notes
    -----
    The result does not depend on the order of the rows (ties are broken by
    the rows' values, see the module notes); up to 16 features the distances
    are computed pair by pair, so shuffling the rows shuffles the labels and
    nothing else. With more
    features a matrix product is used, whose last-digit rounding may depend on
    a row's position. ``metric="ik"`` fits the kernel on the rows sorted by
    their tie keys, so a shuffle draws the same kernel and gives the same
    partition too.

    Examples
    --------
    >>> import numpy as np
    >>> from ikviz.clustering import DensityPeaks
    >>> rng = np.random.default_rng(0)
    >>> X = np.vstack([rng.normal(0, 0.3, (50, 2)), rng.normal(3, 0.3, (50, 2))])
    >>> dp = DensityPeaks(n_clusters=2, eps_fraction=0.1).fit(X)
    >>> np.bincount(dp.labels_).tolist()
    [50, 50]
    >>> dp.rho_.shape, dp.cluster_centers_.shape
    ((100,), (2, 2))
    >>> np.bincount(DensityPeaks(n_clusters=2, metric="ik", psi=8, t=50, random_state=0).fit_predict(X)).tolist()
    [50, 50]

    Equal densities: every point below has density 0 at a small cutoff, so
    the tie rule alone picks the centre.

    >>> square = np.array([[0.0, 0.0], [0.0, 1.0], [1.0, 0.0], [1.0, 1.0]])
    >>> DensityPeaks(1, eps_fraction=0.1, ties="row index").fit(square).cluster_centers_indices_.tolist()
    [0]
    """

    _parameter_constraints: dict = {
        "n_clusters": [Interval(Integral, 1, None, closed="left")],
        "eps_fraction": [Interval(Real, 0, 1, closed="right")],
        "metric": [StrOptions(set(METRICS))],
        "psi": [Interval(Integral, 2, None, closed="left")],
        "t": [Interval(Integral, 1, None, closed="left")],
        "kernel_params": [dict, None],
        "n_neighbours": [Interval(Integral, 1, None, closed="left")],
        "n_neighbors": [Interval(Integral, 1, None, closed="left"), Hidden(StrOptions({"deprecated"}))],
        "block_bytes": [Interval(Integral, 1, None, closed="left"), None],
        "ties": [StrOptions(set(TIES))],
        "random_state": ["random_state", np.random.Generator],
    }

    def __init__(self, n_clusters=2, *, eps_fraction=0.02, metric="euclidean", psi=16, t=200, kernel_params=None,
                 n_neighbours=7, block_bytes=None, ties="row values", random_state=None, n_neighbors="deprecated"):
        self.n_clusters = n_clusters
        self.eps_fraction = eps_fraction
        self.metric = metric
        self.psi = psi
        self.t = t
        self.kernel_params = kernel_params
        self.n_neighbours = n_neighbours
        self.n_neighbors = n_neighbors
        self.block_bytes = block_bytes
        self.ties = ties
        self.random_state = random_state

    @fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y=None):
        """Cluster ``X`` at the cutoff ``eps_fraction``.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            At least 2 rows, not all identical.
        y : ignored

        Returns
        -------
        self : DensityPeaks
        """
        X, graph = self._fit_path(X, np.array([float(self.eps_fraction)]))
        self.labels_ = graph.labels[0]
        self.cluster_centers_indices_ = graph.centres[0]
        self.cluster_centers_ = X[graph.centres[0]]
        self.rho_, self.delta_, self.parent_ = graph.rho[0], graph.delta[0], graph.parent[0]
        self.eps_, self.max_distance_ = float(graph.eps[0]), graph.max_distance
        return self

    def path(self, X, eps_fractions) -> DecisionGraph:
        """Cluster ``X`` at every cutoff in ``eps_fractions`` for the cost of one fit.

        The distances are streamed twice whatever the number of cutoffs (and
        the Isolation Kernel is fitted once), so sweeping ting2021's 99 cutoffs
        costs about what :meth:`fit` does. The estimator itself is not changed.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        eps_fractions : array-like of shape (m,)
            Cutoffs as fractions of the largest pairwise dissimilarity, each in (0, 1].

        Returns
        -------
        graph : DecisionGraph
            Row e holds what :meth:`fit` with ``eps_fraction=eps_fractions[e]`` would give.

        Examples
        --------
        >>> import numpy as np
        >>> from ikviz.clustering import DensityPeaks
        >>> X = np.array([[0.0], [1.0], [2.0], [10.0], [11.0]])
        >>> graph = DensityPeaks(n_clusters=2).path(X, [0.1, 0.5])
        >>> graph.eps.tolist()
        [1.1, 5.5]
        >>> graph.labels[0].tolist()
        [0, 0, 0, 1, 1]
        """
        fractions = np.atleast_1d(np.asarray(eps_fractions, dtype=float)) if not isinstance(
            eps_fractions, (str, bytes)) else np.array([np.nan])
        if (fractions.ndim != 1 or fractions.size == 0 or not np.all(np.isfinite(fractions))
                or np.any(fractions <= 0) or np.any(fractions > 1)):
            raise ValueError(f"eps_fractions must be one or more numbers in (0, 1]; got {eps_fractions!r}.")
        n_rows = np.shape(X)[0] if hasattr(X, "shape") or isinstance(X, (list, tuple)) else 0
        # rho, delta, parent, order, rank and labels: six (cutoffs x rows) arrays
        check_dense_size(6 * fractions.size, max(int(n_rows), 1), None,
                         f"The decision graphs of {fractions.size} cutoffs",
                         "Pass fewer cutoffs (ting2021 sweeps 99) or fewer rows.")
        est = clone(self)
        est._validate_params()
        return est._fit_path(X, fractions)[1]

    def _tie_seed(self) -> int:
        rs = self.random_state
        if rs is None:
            return 0
        if isinstance(rs, Integral):
            return int(rs)
        if isinstance(rs, np.random.Generator):
            return int(rs.integers(2**63))
        return int(rs.randint(2**31 - 1))

    def _fit_path(self, X, fractions: np.ndarray):
        self.__dict__.pop("kernel_", None)   # a refit with another metric leaves no stale kernel
        X = validate_data(self, X, reset=True)
        n = X.shape[0]
        k = int(self.n_clusters)
        if n < 2:
            raise ValueError(f"DensityPeaks needs at least 2 samples to cluster; X has n_samples={n}.")
        if k > n:
            raise ValueError(f"cannot make {k} clusters from {n} points (X has n_samples={n}); "
                             f"choose n_clusters <= {n}.")
        kernel = _isolation_kernel(self) if self.metric == "ik" else None
        seed = self._tie_seed()
        keys = np.zeros(n, dtype=np.uint64) if self.ties == "row index" else tie_keys(X, seed)
        Z, power = _unit_frame(X)
        if self.metric == "ik":
            kernel.set_params(psi=min(int(self.psi), n))
            # The kernel samples its psi points by row position; fitted on the rows sorted by their keys it
            # sees the same rows in the same order however X is shuffled, so the clustering does not depend
            # on the row order (identical rows are interchangeable, so their position does not matter).
            self.kernel_ = kernel.fit(X[np.lexsort((np.arange(n), keys))])
            source = _Distances(Z, "ik", index=kernel.index(X), block_bytes=self.block_bytes)
            power = 0
        elif self.metric == "adaptive":
            k_nn = int(renamed("DensityPeaks", "n_neighbors", "n_neighbours", self.n_neighbors,
                               self.n_neighbours))
            if k_nn >= n:
                raise ValueError(f"n_neighbours={k_nn} needs more than {k_nn} samples; "
                                 f"X has n_samples={n}. Choose n_neighbours < {n}.")
            scale = local_scale(Z, None, k_nn)
            source = _Distances(Z, "adaptive", scale=scale, block_bytes=self.block_bytes)
            power = 0
        else:
            source = _Distances(Z, "euclidean", block_bytes=self.block_bytes)
        m = source.max_distance()
        if not m > 0:
            raise ValueError("all rows of X are at distance 0 from each other (identical rows or constant "
                             "features); there is nothing to cluster.")
        eps = fractions * m
        rho, delta, parent, order, rank = _decision_graph(source, eps, keys)
        labels = np.empty(rho.shape, dtype=np.int64)
        centres = np.empty((rho.shape[0], k), dtype=np.int64)
        for e in range(rho.shape[0]):
            labels[e], centres[e] = _assign(rho[e], delta[e], parent[e], order[e], rank[e], k)
        graph = DecisionGraph(fractions, np.ldexp(eps, power), float(np.ldexp(m, power)), rho,
                              np.ldexp(delta, power), parent, labels, centres)
        return X, graph
