"""The Isolation Kernel as a scikit-learn transformer.

Isolation Kernel (Ting et al. 2018; Qin et al. 2019; Ting et al. 2021) draws
``t`` random subsets of ``psi`` points from the data; each subset partitions the
space into at most ``psi`` cells that isolate its points. Two points are similar
in proportion to the number of partitionings that put them in the same cell:

    K(x, y) = (1 / t) * sum_k 1[x and y fall in the same cell of partitioning k]
            = Phi(x) . Phi(y) / t,

where Phi(x) is the binary feature map with one 1 per partitioning (t ones in
t * psi columns). Because cells are small where data are dense and large where
data are sparse, the kernel adapts to local density.
"""

from __future__ import annotations

import math
import numbers
import warnings
from dataclasses import dataclass
from functools import lru_cache

import numpy as np
import scipy.sparse as sp
from sklearn.base import BaseEstimator, TransformerMixin
from sklearn.utils.validation import check_is_fitted
from threadpoolctl import ThreadpoolController

from .._validation import check_matrix
from .cell_index import CellIndex
from ._itree import build_forest, route
from ._voronoi import nearest_centres, pack_centres, packed_centres

METHODS = ("anne", "iforest")
_ROW_BLOCK = 1024  # rows per (rows x partitioning) tile; a tile's working set stays in cache
_GROUP_WIDTH = 256  # Voronoi centres handled per matrix product (partitionings packed side by side)


@dataclass(frozen=True)
class Partition:
    """The cells of one partitioning, for drawing.

    ``centres`` (psi, d) are the sampled points. For ``"anne"`` they are the
    Voronoi sites and ``boxes`` is None; for ``"iforest"`` ``boxes`` is an array
    (n_leaves, 2, d) of each leaf's [lower, upper] corners, clipped to ``bounds``.
    """

    method: str
    centres: np.ndarray
    boxes: np.ndarray | None
    bounds: np.ndarray


class _Span:
    """Coordinates in an orthonormal basis of the span of the rows a Voronoi kernel was fitted on.

    Voronoi (aNNE) cells depend only on the distances to the sampled rows,
    which lie in that span. For any point, the part orthogonal to the span adds
    the same amount to its distance to every sampled row, so its nearest one
    does not change: cells computed on span coordinates are the cells. When
    d > n (the w-Gaussians have d = 10,000 for n = 1,000) each cell lookup
    costs t * psi * rank instead of t * psi * d. The basis comes from the
    n x n Gram matrix (one product and a small eigendecomposition), not from a
    d-dimensional QR or SVD, which is many times slower.
    """

    def __init__(self, X: np.ndarray):
        lam, U = np.linalg.eigh(X @ X.T)
        keep = lam > lam.max() * X.shape[0] * np.finfo(float).eps
        self.coords = U[:, keep] * np.sqrt(lam[keep])          # X @ basis, without a second product
        self.basis = X.T @ (U[:, keep] / np.sqrt(lam[keep]))  # (d, rank), orthonormal columns

    @staticmethod
    def pays(n: int, d: int, t: int, psi: int) -> bool:
        """Whether the basis costs less than it saves on the fitted rows' own cells (flop estimate)."""
        return d > n and t * psi * (d - n) > d * n + 10 * n * n


@lru_cache(maxsize=1)
def _blas() -> ThreadpoolController:
    # built once: scanning the loaded libraries on every call would cost ~0.4 ms per transform
    return ThreadpoolController()


def _as_generator(random_state) -> np.random.Generator:
    if isinstance(random_state, np.random.Generator):
        return random_state
    if isinstance(random_state, np.random.RandomState):
        return np.random.default_rng(random_state.randint(2**31 - 1))
    return np.random.default_rng(random_state)


class IsolationKernel(TransformerMixin, BaseEstimator):
    """Isolation Kernel with a Voronoi (``"anne"``) or isolation-tree (``"iforest"``) partitioning.

    Parameters
    ----------
    psi : int, default=16
        Points per subset, hence at most ``psi`` cells per partitioning. Larger
        ``psi`` gives a sharper kernel. Clipped (with a warning) to the number
        of rows seen by ``fit``.
    t : int, default=200
        Number of partitionings; the kernel is an average over them, so larger
        ``t`` gives a smoother estimate.
    method : {"anne", "iforest"}, default="anne"
        ``"anne"``: a point belongs to the cell of its nearest sampled point
        (Euclidean Voronoi cells). ``"iforest"``: isolation trees grown on each
        subset with random axis-parallel splits.
    max_depth : "auto", int or None, default="auto"
        ``"iforest"`` only. ``"auto"`` limits the height to ceil(log2 psi) as in
        Ting et al. (2018, §4.1); ``None`` grows every tree until each sampled
        point is isolated; an int sets the limit.
    random_state : int, numpy Generator or None
        Seed; the same seed gives the same kernel.
    dense_budget : int or None
        Largest dense ``similarity`` result in bytes (default 2 GiB).

    Attributes
    ----------
    psi_ : int
        The ``psi`` actually used.
    n_features_in_ : int
        Number of input features seen by ``fit``.
    samples_ : ndarray of shape (t, psi_, n_features_in_)
        The sampled points of each partitioning.
    bounds_ : ndarray of shape (2, n_features_in_)
        Per-feature min and max of the fitted data (used to clip drawn cells).
    """

    def __init__(self, psi=16, t=200, method="anne", max_depth="auto", random_state=None,
                 dense_budget=None):
        self.psi = psi
        self.t = t
        self.method = method
        self.max_depth = max_depth
        self.random_state = random_state
        self.dense_budget = dense_budget

    # ------------------------------------------------------------------ fit
    def _check_params(self) -> int:
        if self.method not in METHODS:
            raise ValueError(f"method must be one of {METHODS}; got {self.method!r}.")
        for name in ("psi", "t"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, numbers.Integral):
                raise ValueError(f"{name} must be an integer; got {value!r}.")
        if self.psi < 2:
            raise ValueError(f"psi must be at least 2 (cells per partitioning); got {self.psi}.")
        if self.t < 1:
            raise ValueError(f"t must be at least 1 (number of partitionings); got {self.t}.")
        depth = self.max_depth
        if depth is None:
            return -1
        if isinstance(depth, str):
            if depth != "auto":
                raise ValueError(f"max_depth must be 'auto', None or a positive integer; got {depth!r}.")
            return -2  # resolved once psi_ is known
        if isinstance(depth, bool) or not isinstance(depth, numbers.Integral) or depth < 1:
            raise ValueError(f"max_depth must be 'auto', None or a positive integer; got {depth!r}.")
        return int(depth)

    def fit(self, X, y=None):
        """Draw ``t`` subsets of ``psi`` distinct rows of ``X`` and build their partitionings."""
        depth = self._check_params()
        X = check_matrix(X)
        n, d = X.shape
        psi = int(self.psi)
        if psi > n:
            if n < 2:
                raise ValueError(f"IsolationKernel needs at least 2 rows to fit; got n_samples={n}.")
            warnings.warn(f"psi={psi} is larger than the {n} rows given; using psi={n}.",
                          UserWarning, stacklevel=2)
            psi = n
        rng = _as_generator(self.random_state)
        t = int(self.t)
        idx = np.empty((t, psi), dtype=np.int64)
        for k in range(t):
            idx[k] = rng.choice(n, size=psi, replace=False)
        self.psi_ = psi
        self.n_features_in_ = d
        self.bounds_ = np.vstack([X.min(axis=0), X.max(axis=0)])
        for stale in ("_samples", "_centres", "_span"):
            self.__dict__.pop(stale, None)
        if self.method == "anne":
            if _Span.pays(n, d, t, psi):
                self._span = _Span(X)
                X = self._span.coords
            # only the packed centres are kept; samples_ unpacks them when asked
            self._centres, self._sq_norms = pack_centres(X, idx, _GROUP_WIDTH)
        else:
            self._samples = X[idx]
            self.max_depth_ = math.ceil(math.log2(psi)) if depth == -2 else depth
            uniforms = rng.random((t, psi, 2))
            m = 2 * psi - 1
            self._feature = np.full((t, m), -1, dtype=np.int64)
            self._threshold = np.zeros((t, m))
            self._left = np.zeros((t, m), dtype=np.int64)
            self._leaf = np.full((t, m), -1, dtype=np.int64)
            self.n_leaves_ = np.zeros(t, dtype=np.int64)
            build_forest(self._samples, uniforms, self.max_depth_, self._feature, self._threshold,
                         self._left, self._leaf, self.n_leaves_)
        return self

    @property
    def samples_(self) -> np.ndarray:
        """The sampled points of each partitioning, (t, psi_, n_features_in_).

        For the Voronoi kernel they are rebuilt from the packed centres on each
        access (t * psi_ * d values): read it once, not in a loop.
        """
        if "_samples" in self.__dict__:
            return self._samples
        if "_centres" in self.__dict__:
            return np.stack([self._centres_of(k) for k in range(self.t)])
        raise AttributeError("samples_ exists once the kernel is fitted.")

    # ------------------------------------------------------------ transform
    def _check_X(self, X, name="X") -> np.ndarray:
        check_is_fitted(self, "psi_")
        X = check_matrix(X, name)
        if X.shape[1] != self.n_features_in_:
            raise ValueError(
                f"{name} has {X.shape[1]} features, but IsolationKernel is expecting "
                f"{self.n_features_in_} features as input (the number it was fitted with)."
            )
        return X

    def _index(self, X, stride: int) -> np.ndarray:
        X = self._check_X(X)
        n = X.shape[0]
        dtype = np.int32 if self.t * max(stride, 1) < 2**31 - 1 else np.int64
        out = np.empty((n, self.t), dtype=dtype)
        if self.method == "anne":
            if "_span" in self.__dict__:
                X = X @ self._span.basis
            # BLAS must not start threads of its own inside numba's parallel tiles
            with _blas().limit(limits=1, user_api="blas"):
                nearest_centres(X, self._centres, self._sq_norms, self.psi_, self.t, stride, _ROW_BLOCK, out)
        else:
            route(X, self._feature, self._threshold, self._left, self._leaf, stride, _ROW_BLOCK, out)
        return out

    def cells(self, X) -> np.ndarray:
        """Return an int array (n, t): the cell of each row in each partitioning (0..psi_-1)."""
        return self._index(X, 0)

    def transform(self, X) -> sp.csr_matrix:
        """Map ``X`` to the sparse binary feature space: CSR of shape (n, t * psi_), t ones per row."""
        check_is_fitted(self, "psi_")
        columns = self._index(X, self.psi_)
        n, t = columns.shape
        indptr = np.arange(0, n * t + 1, t, dtype=np.int64 if n * t >= 2**31 - 1 else columns.dtype)
        data = np.ones(n * t, dtype=np.float64)
        # columns within a row increase with k, so the indices are sorted and unique
        out = sp.csr_matrix((data, columns.ravel(), indptr), shape=(n, t * self.psi_), copy=False)
        out.has_sorted_indices = True
        return out

    def similarity(self, X, Y=None) -> np.ndarray:
        """Dense kernel matrix K(X, Y) = Phi(X) Phi(Y)^T / t, values in [0, 1].

        With ``Y=None`` the result is K(X, X): symmetric with ones on the diagonal.
        Raises ``ValueError`` when the result would exceed ``dense_budget``; use
        ``transform`` and sparse products for large inputs.
        """
        cells_x = self.cells(X)
        if Y is None:
            return CellIndex(cells_x, self.psi_).similarity(dense_budget=self.dense_budget)
        return self.index(Y).similarity(cells_x, dense_budget=self.dense_budget)

    def index(self, X) -> CellIndex:
        """The rows of ``X`` bucketed by cell, for repeated similarity or nearest-neighbour queries."""
        return CellIndex(self.cells(X), self.psi_)

    # -------------------------------------------------------------- drawing
    def partition(self, k: int = 0, bounds=None) -> Partition:
        """Return the cells of partitioning ``k`` for drawing (see :class:`Partition`).

        ``bounds`` (2, d) clips the iForest boxes; default: the fitted data's
        bounding box.
        """
        check_is_fitted(self, "psi_")
        if not 0 <= k < self.t:
            raise ValueError(f"partitioning index must be in [0, {self.t - 1}]; got {k}.")
        bounds = self.bounds_ if bounds is None else np.asarray(bounds, dtype=float)
        if bounds.shape != (2, self.n_features_in_):
            raise ValueError(f"bounds must have shape (2, {self.n_features_in_}); got {bounds.shape}.")
        boxes = None
        if self.method == "iforest":
            boxes = np.empty((int(self.n_leaves_[k]), 2, self.n_features_in_))
            stack = [(0, bounds[0].copy(), bounds[1].copy())]
            while stack:
                node, lo, hi = stack.pop()
                f = self._feature[k, node]
                if f < 0:
                    boxes[self._leaf[k, node]] = (lo, hi)
                    continue
                s = self._threshold[k, node]
                lo_r, hi_l = lo.copy(), hi.copy()
                hi_l[f] = min(hi[f], s)
                lo_r[f] = max(lo[f], s)
                stack.append((self._left[k, node], lo, hi_l))
                stack.append((self._left[k, node] + 1, lo_r, hi))
        return Partition(self.method, self._centres_of(k), boxes, bounds)

    def _centres_of(self, k: int) -> np.ndarray:
        """A copy of the sampled points of partitioning ``k``, (psi_, n_features_in_)."""
        if "_samples" in self.__dict__:
            return self._samples[k].copy()
        centres = packed_centres(self._centres, self.psi_, k)
        return centres @ self._span.basis.T if "_span" in self.__dict__ else centres.copy()
