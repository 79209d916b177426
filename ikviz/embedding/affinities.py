"""t-SNE affinities from the Isolation Kernel, for openTSNE.

Standard t-SNE turns Gaussian-kernel similarities into neighbour
probabilities, with a bandwidth per point tuned to a target perplexity. Ting
et al. (2021, §4.2.4) replace the Gaussian kernel with the Isolation Kernel:
IK adapts to the local density by construction (its cells are small where the
data are dense), so it needs no per-point bandwidth, and it keeps telling
points apart in high dimensions where Euclidean distances concentrate.

:class:`IsolationKernelAffinities` is an ``openTSNE.affinity.Affinities``: pass
it to ``openTSNE.TSNE().fit(X, affinities=...)`` or ``TSNEEmbedding``. Each
point keeps its ``k`` most IK-similar neighbours (found without an n x n
matrix), ``p(j|i) = K(i, j) / sum_l K(i, l)`` over i's neighbours l, and
P = (P_cond + P_cond^T) / (2 n), with a zero diagonal.
"""

from __future__ import annotations

import math
import warnings
from numbers import Integral, Real

import numpy as np
import scipy.sparse as sp
from openTSNE.affinity import Affinities
from sklearn.neighbors import NearestNeighbors

from .._sklearn import Interval, StrOptions, validate_params
from .._validation import check_dense_size, check_matrix, check_n_features, renamed, validate_data
from ..kernels import IsolationKernel

#: the neighbour count "auto" never exceeds (memory and time grow linearly with it)
MAX_AUTO_NEIGHBOURS = 150
MAX_AUTO_NEIGHBORS = MAX_AUTO_NEIGHBOURS  # deprecated spelling
_MIN_AUTO_NEIGHBOURS = 15
_COUNT = [Interval(Integral, 1, None, closed="left")]


@validate_params({"n": [Interval(Integral, 2, None, closed="left")], "psi": [Interval(Integral, 1, None,
                  closed="left")]}, prefer_skip_nested_validation=True)
def auto_neighbours(n: int, psi: int) -> int:
    """The neighbour count ``k_neighbours="auto"`` picks for ``n`` points and ``psi``.

    A cell of one partitioning holds about n / psi points, so a point's IK
    similarities add up to roughly n / psi: that is IK's counterpart of the
    perplexity (the effective number of neighbours). Like openTSNE, which keeps
    3 x perplexity neighbours, we keep 3 n / psi, clipped to
    [15, MAX_AUTO_NEIGHBOURS] and to n - 1.

    Parameters
    ----------
    n : int
        Number of points (at least 2).
    psi : int
        The Isolation Kernel's sample size.

    Returns
    -------
    k : int
        Between 1 and n - 1.

    Examples
    --------
    >>> from ikviz.embedding import auto_neighbours
    >>> auto_neighbours(1000, 100), auto_neighbours(1000, 5), auto_neighbours(10, 2)
    (30, 150, 9)
    """
    k = int(np.clip(math.ceil(3 * n / psi), _MIN_AUTO_NEIGHBOURS, MAX_AUTO_NEIGHBOURS))
    return max(1, min(n - 1, k))


def auto_neighbors(n: int, psi: int) -> int:
    """Deprecated alias of :func:`auto_neighbours` (ikviz spells "neighbour" one way).

    Examples
    --------
    >>> import warnings
    >>> from ikviz.embedding.affinities import auto_neighbors, auto_neighbours
    >>> with warnings.catch_warnings():
    ...     warnings.simplefilter("ignore", FutureWarning)
    ...     auto_neighbors(1000, 64) == auto_neighbours(1000, 64)
    True
    """
    warnings.warn("auto_neighbors is renamed auto_neighbours (ikviz spells \"neighbour\" one way); the old name "
                  "will be removed in a future release.", FutureWarning, stacklevel=2)
    return auto_neighbours(n, psi)


def small_n_psi(n: int, psi: int) -> int:
    """The ``psi`` :class:`IsolationKernelAffinities` uses for ``n`` points: at most n / 2 (and at least 2).

    With psi close to n nearly every point is sampled in every partitioning,
    becomes the centre of its own cell and shares it with no other point: all
    affinities vanish. Capping psi at n / 2 keeps about two points per cell,
    as openTSNE caps the perplexity at (n - 1) / 3 for small n.

    Examples
    --------
    >>> from ikviz.embedding.affinities import small_n_psi
    >>> small_n_psi(1000, 64), small_n_psi(64, 64), small_n_psi(3, 64)
    (64, 32, 2)
    """
    return int(max(2, min(psi, n // 2)))


def _conditional(idx: np.ndarray, sim: np.ndarray, n_cols: int) -> sp.csr_matrix:
    """Row-normalise the neighbour similarities into ``p(j|i)``; rows with no similar neighbour stay empty."""
    sums = sim.sum(axis=1, keepdims=True)
    vals = np.divide(sim, sums, out=np.zeros_like(sim), where=sums > 0)
    keep = (idx >= 0) & (vals > 0)
    rows = np.repeat(np.arange(idx.shape[0]), keep.sum(axis=1))
    return sp.csr_matrix((vals[keep], (rows, idx[keep])), shape=(idx.shape[0], n_cols))


class IsolationKernelAffinities(Affinities):
    """openTSNE affinities from the Isolation Kernel's k-nearest-neighbour graph.

    Parameters
    ----------
    data : array-like of shape (n_samples, n_features)
        The points to embed (at least 3); the Isolation Kernel is fitted on them.
    psi : int, default=64
        Points per partitioning (IK's sharpness); the paper searches 5..800.
        Capped at n_samples / 2, with a warning, for small data (see
        :func:`small_n_psi`), as openTSNE caps the perplexity.
    t : int, default=200
        Number of partitionings (the paper uses 200).
    k_neighbours : "auto" or int, default="auto"
        Neighbours kept per point, at most n_samples - 1; ``"auto"`` =
        :func:`auto_neighbours` (3 n / psi, clipped).
    method : {"anne", "inne", "iforest"}, default="anne"
        IK partitioning (see :class:`ikviz.IsolationKernel`).
    symmetrize : bool, default=True
        ``(P + P^T) / 2`` as in standard t-SNE. openTSNE's precomputed path does
        not do this itself, so it is done here.
    random_state : int, numpy Generator, RandomState or None, default=None
        Seed of the Isolation Kernel.
    verbose : bool, default=False
    k_neighbors : "auto", int or None, default=None
        Deprecated alias of ``k_neighbours`` (ikviz spells "neighbour" one
        way); it still works, with a FutureWarning.
    progress : callable or None, default=None
        ``progress(fraction, text)`` after each stage of the fit: the
        partitionings built (0.45), every point's cells (0.9), the
        neighbours (1.0); seconds each for thousands of points in high
        dimensions.

    Attributes
    ----------
    P : scipy.sparse.csr_matrix of shape (n_samples, n_samples)
        Joint probabilities: symmetric (with ``symmetrize``), zero diagonal, sums to 1.
    kernel_ : IsolationKernel
        The fitted kernel; ``kernel_.psi_`` is the psi used.
    index_ : ikviz.kernels.CellIndex
        The points bucketed by the kernel's cells (neighbour queries for new points).
    k_neighbours_ : int
        Neighbours kept per point.
    n_isolated_ : int
        Points that share no cell with any other point (their row of P is empty
        before symmetrisation); only possible when psi is close to n.
    n_features_in_ : int
        Number of features of ``data``.
    feature_names_in_ : ndarray of str
        The column names when ``data`` is a data frame with string names; a
        frame passed to :meth:`to_new` must have the same columns in the same
        order (as scikit-learn's transformers require).

    Examples
    --------
    >>> import numpy as np
    >>> from openTSNE import TSNEEmbedding
    >>> from ikviz.embedding import IsolationKernelAffinities
    >>> X = np.random.default_rng(0).normal(size=(200, 5))
    >>> aff = IsolationKernelAffinities(X, psi=16, t=100, random_state=0)
    >>> aff.P.shape, round(float(aff.P.sum()), 6), aff.k_neighbours_
    ((200, 200), 1.0, 38)
    >>> init = np.random.default_rng(0).normal(scale=1e-4, size=(200, 2))
    >>> Z = TSNEEmbedding(init, aff, random_state=0).optimize(n_iter=50)
    >>> Z.shape
    (200, 2)
    """

    @validate_params({"data": ["array-like"], "psi": [Interval(Integral, 2, None, closed="left")],
                      "t": [Interval(Integral, 1, None, closed="left")],
                      "k_neighbours": [StrOptions({"auto"}), Interval(Integral, 1, None, closed="left")],
                      "k_neighbors": [StrOptions({"auto"}), Interval(Integral, 1, None, closed="left"), None],
                      "method": [StrOptions({"anne", "inne", "iforest"})], "symmetrize": ["boolean"],
                      "random_state": ["random_state", np.random.Generator], "verbose": ["verbose"],
                      "progress": [callable, None]},
                     prefer_skip_nested_validation=True)
    def __init__(self, data, psi=64, t=200, k_neighbours="auto", method="anne", symmetrize=True,
                 random_state=None, verbose=False, k_neighbors=None, progress=None):
        super().__init__(verbose=verbose)
        X = check_matrix(data, "data")
        n = X.shape[0]
        if n < 3:
            raise ValueError(f"data has {n} row(s); t-SNE needs at least 3 points.")
        psi_used = small_n_psi(n, int(psi))
        if psi_used < psi:
            warnings.warn(f"psi={psi} is too large for {n} points (cells would hold a single point and no two "
                          f"points would be similar); using psi={psi_used}.", UserWarning, stacklevel=2)
        check_n_features(self, X, reset=True, name="data")
        report = progress or (lambda fraction, text="": None)
        self.kernel_ = IsolationKernel(psi=psi_used, t=int(t), method=method, random_state=random_state).fit(X)
        report(0.45, "partitionings built")
        validate_data(self.kernel_, data, reset=True, name="data")  # a data frame's column names, for to_new
        k_neighbours = renamed("IsolationKernelAffinities", "k_neighbors", "k_neighbours", k_neighbors, k_neighbours)
        self.k_neighbours_ = (auto_neighbours(n, self.kernel_.psi_) if k_neighbours == "auto" else int(k_neighbours))
        if self.k_neighbours_ > n - 1:
            raise ValueError(f"k_neighbours={self.k_neighbours_} must be less than the {n} points of data.")
        check_dense_size(n, 2 * self.k_neighbours_, None,
                         f"The neighbour lists of k_neighbours={self.k_neighbours_}",
                         'Use a smaller k_neighbours ("auto" keeps at most 150).')
        self.index_ = self.kernel_.index(X)
        report(0.9, "cells")
        idx, sim = self.index_.neighbours(k=self.k_neighbours_)
        cond = _conditional(idx, sim, n)
        self.n_isolated_ = int(np.sum(cond.getnnz(axis=1) == 0))
        P = (cond + cond.T) / 2 if symmetrize else cond
        P = sp.csr_matrix(P)
        P.setdiag(0)  # self was excluded already; this guards the invariant openTSNE assumes
        P.eliminate_zeros()
        total = P.sum()
        if total <= 0:
            raise ValueError("No point of data shares an IK cell with another; use a smaller psi.")
        self.P = P / total
        report(1.0, "neighbours")
        self.symmetrize = symmetrize
        self._n = n
        self._X = X

    @property
    def k_neighbors_(self) -> int:
        """Deprecated alias of ``k_neighbours_`` (ikviz spells "neighbour" one way)."""
        warnings.warn("k_neighbors_ is renamed k_neighbours_ (ikviz spells \"neighbour\" one way); the old name "
                      "will be removed in a future release.", FutureWarning, stacklevel=2)
        return self.k_neighbours_

    @property
    def feature_names_in_(self) -> np.ndarray:
        """The fitted data frame's column names (absent for other data)."""
        return self.kernel_.feature_names_in_

    @property
    def n_samples(self) -> int:
        """Number of reference points (rows of ``P``)."""
        return self._n

    @validate_params({"data": ["array-like"], "perplexity": [Interval(Real, 0, None, closed="neither"), None],
                      "k_neighbours": [Interval(Integral, 1, None, closed="left"), None],
                      "k_neighbors": [Interval(Integral, 1, None, closed="left"), None],
                      "return_distances": ["boolean"]}, prefer_skip_nested_validation=True)
    def to_new(self, data, perplexity=None, k_neighbours=None, return_distances=False, k_neighbors=None):
        """Affinities of new points to the fitted points, for ``TSNEEmbedding.transform``.

        Each new point gets ``p(j | new)`` over its ``k_neighbours`` most IK-similar
        fitted points (rows sum to 1, no symmetrisation: openTSNE's convention
        for adding points). IK has no bandwidth to calibrate, so ``perplexity``
        (which ``TSNEEmbedding.transform`` passes) only sets the neighbour count
        the way openTSNE does, 3 x perplexity, when ``k_neighbours`` is not given;
        with neither, the fitted ``k_neighbours_`` is used.

        Parameters
        ----------
        data : array-like of shape (n_new, n_features)
            The new points.
        perplexity : float, default=None
            Sets the neighbour count to ceil(3 x perplexity) (at most n_samples).
        k_neighbours : int, default=None
            Neighbours per new point (at most n_samples).
        return_distances : bool, default=False
            Also return the neighbour indices and the IK distances 1 - K
            (used by openTSNE to place new points initially).
        k_neighbors : int, default=None
            Deprecated alias of ``k_neighbours``.

        Returns
        -------
        P : scipy.sparse.csr_matrix of shape (n_new, n_samples)
            A row is empty for a point that shares no cell with any fitted
            point (possible with ``method="inne"`` far from the data).
        indices : ndarray of shape (n_new, k) of int
            Only with ``return_distances``; rows with fewer similar points
            repeat their best neighbour, and a point with none gets its
            nearest fitted point in Euclidean distance.
        distances : ndarray of shape (n_new, k)
            Only with ``return_distances``.

        Examples
        --------
        >>> import numpy as np
        >>> from ikviz.embedding import IsolationKernelAffinities
        >>> X = np.random.default_rng(0).normal(size=(100, 3))
        >>> aff = IsolationKernelAffinities(X, psi=8, t=50, random_state=0)
        >>> P = aff.to_new(X[:4] + 0.01, k_neighbours=5)
        >>> P.shape, np.allclose(P.sum(axis=1), 1.0)
        ((4, 100), True)
        """
        X_new = check_matrix(data, "data")
        check_n_features(self, X_new, reset=False, name="data")
        validate_data(self.kernel_, data, reset=False, name="data")  # columns renamed or reordered: refused
        k_neighbours = renamed("IsolationKernelAffinities.to_new", "k_neighbors", "k_neighbours", k_neighbors,
                               k_neighbours)
        if k_neighbours is None:
            k_neighbours = self.k_neighbours_ if perplexity is None else math.ceil(3 * perplexity)
        k = min(int(k_neighbours), self._n)
        check_dense_size(X_new.shape[0], 2 * k, None, f"The neighbour lists of {k} neighbours per new point",
                         "Pass fewer points at a time or a smaller k_neighbours.")
        idx, sim = self.index_.neighbours(self.kernel_.cells(X_new), k)
        P = _conditional(idx, sim, self._n)
        if not return_distances:
            return P
        # padding (no shared cell) repeats the best neighbour so openTSNE's median/weighted
        # initialisation never indexes a missing point; a point sharing no cell with any fitted
        # point ("inne" far from the data) is placed by its nearest fitted point in Euclidean distance
        orphans = np.flatnonzero(idx[:, 0] < 0)
        if orphans.size:
            nearest = NearestNeighbors(n_neighbors=1).fit(self._X).kneighbors(X_new[orphans], return_distance=False)
            idx[orphans, 0] = nearest[:, 0]
        idx = np.where(idx >= 0, idx, idx[:, :1])
        return P, idx, 1.0 - sim
