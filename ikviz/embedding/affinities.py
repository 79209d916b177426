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
matrix), p(j|i) = K(i, j) / sum over i's neighbours l of K(i, l), and
P = (P_cond + P_cond^T) / (2 n), with a zero diagonal.
"""

from __future__ import annotations

import math
import numbers

import numpy as np
import scipy.sparse as sp
from openTSNE.affinity import Affinities

from .._validation import check_matrix
from ..kernels import IsolationKernel

#: the neighbour count "auto" never exceeds (memory and time grow linearly with it)
MAX_AUTO_NEIGHBORS = 150
_MIN_AUTO_NEIGHBORS = 15


def auto_neighbors(n: int, psi: int) -> int:
    """The neighbour count ``k_neighbors="auto"`` picks for ``n`` points and ``psi``.

    A cell of one partitioning holds about n / psi points, so a point's IK
    similarities add up to roughly n / psi: that is IK's counterpart of the
    perplexity (the effective number of neighbours). Like openTSNE, which keeps
    3 x perplexity neighbours, we keep 3 n / psi, clipped to
    [15, MAX_AUTO_NEIGHBORS] and to n - 1.
    """
    k = int(np.clip(math.ceil(3 * n / psi), _MIN_AUTO_NEIGHBORS, MAX_AUTO_NEIGHBORS))
    return max(1, min(n - 1, k))


def _check_k(k, name="k_neighbors"):
    if isinstance(k, bool) or not isinstance(k, numbers.Integral) or k < 1:
        raise ValueError(f"{name} must be 'auto' or a positive integer; got {k!r}.")
    return int(k)


def _conditional(idx: np.ndarray, sim: np.ndarray, n_cols: int) -> sp.csr_matrix:
    """Row-normalise the neighbour similarities into p(j|i); rows with no similar neighbour stay empty."""
    sums = sim.sum(axis=1, keepdims=True)
    vals = np.divide(sim, sums, out=np.zeros_like(sim), where=sums > 0)
    keep = (idx >= 0) & (vals > 0)
    rows = np.repeat(np.arange(idx.shape[0]), keep.sum(axis=1))
    return sp.csr_matrix((vals[keep], (rows, idx[keep])), shape=(idx.shape[0], n_cols))


class IsolationKernelAffinities(Affinities):
    """openTSNE affinities from the Isolation Kernel's k-nearest-neighbour graph.

    Parameters
    ----------
    data : array-like (n, d)
        The points to embed; the Isolation Kernel is fitted on them.
    psi : int, default=64
        Points per partitioning (IK's sharpness); the paper searches 5..800.
    t : int, default=200
        Number of partitionings (the paper uses 200).
    k_neighbors : "auto" or int, default="auto"
        Neighbours kept per point; ``"auto"`` = :func:`auto_neighbors` (3 n / psi, clipped).
    method : {"anne", "iforest"}, default="anne"
        IK partitioning (see :class:`ikviz.IsolationKernel`).
    symmetrize : bool, default=True
        ``(P + P^T) / 2`` as in standard t-SNE. openTSNE's precomputed path does
        not do this itself, so it is done here.
    random_state : int, Generator or None
        Seed of the Isolation Kernel.
    verbose : bool

    Attributes
    ----------
    P : scipy.sparse.csr_matrix (n, n)
        Joint probabilities: symmetric (with ``symmetrize``), zero diagonal, sums to 1.
    kernel_ : IsolationKernel
        The fitted kernel.
    index_ : ikviz.kernels.CellIndex
        The points bucketed by the kernel's cells (neighbour queries for new points).
    k_neighbors_ : int
        Neighbours kept per point.
    n_isolated_ : int
        Points that share no cell with any other point (their row of P is empty
        before symmetrisation); only possible when psi is close to n.
    """

    def __init__(self, data, psi=64, t=200, k_neighbors="auto", method="anne", symmetrize=True,
                 random_state=None, verbose=False):
        super().__init__(verbose=verbose)
        X = check_matrix(data, "data")
        n = X.shape[0]
        if n < 3:
            raise ValueError(f"t-SNE needs at least 3 points; got {n}.")
        self.kernel_ = IsolationKernel(psi=psi, t=t, method=method, random_state=random_state).fit(X)
        self.k_neighbors_ = (auto_neighbors(n, self.kernel_.psi_) if k_neighbors == "auto"
                             else _check_k(k_neighbors))
        if self.k_neighbors_ > n - 1:
            raise ValueError(f"k_neighbors={self.k_neighbors_} must be less than the {n} points.")
        self.index_ = self.kernel_.index(X)
        idx, sim = self.index_.neighbours(k=self.k_neighbors_)
        cond = _conditional(idx, sim, n)
        self.n_isolated_ = int(np.sum(cond.getnnz(axis=1) == 0))
        P = (cond + cond.T) / 2 if symmetrize else cond
        P = sp.csr_matrix(P)
        P.setdiag(0)  # self was excluded already; this guards the invariant openTSNE assumes
        P.eliminate_zeros()
        total = P.sum()
        if total <= 0:
            raise ValueError("No point shares an IK cell with another; use a smaller psi.")
        self.P = P / total
        self.symmetrize = symmetrize
        self._n = n

    @property
    def n_samples(self) -> int:
        """Number of reference points (rows of ``P``)."""
        return self._n

    def to_new(self, data, perplexity=None, k_neighbors=None, return_distances=False):
        """Affinities of new points to the fitted points, for ``TSNEEmbedding.transform``.

        Each new point gets p(j | new) over its ``k_neighbors`` most IK-similar
        fitted points (rows sum to 1, no symmetrisation: openTSNE's convention
        for adding points). IK has no bandwidth to calibrate, so ``perplexity``
        (which ``TSNEEmbedding.transform`` passes) only sets the neighbour count
        the way openTSNE does, 3 x perplexity, when ``k_neighbors`` is not given;
        with neither, the fitted ``k_neighbors_`` is used.

        With ``return_distances`` also returns the neighbour indices and the IK
        distances 1 - K (used by openTSNE to place new points initially).
        """
        X_new = check_matrix(data, "data")
        if k_neighbors is None:
            k_neighbors = self.k_neighbors_ if perplexity is None else math.ceil(3 * perplexity)
        k = min(_check_k(k_neighbors), self._n)
        idx, sim = self.index_.neighbours(self.kernel_.cells(X_new), k)
        P = _conditional(idx, sim, self._n)
        if not return_distances:
            return P
        # padding (no shared cell) repeats the best neighbour so openTSNE's median/weighted
        # initialisation never indexes a missing point
        idx = np.where(idx >= 0, idx, idx[:, :1])
        return P, idx, 1.0 - sim
