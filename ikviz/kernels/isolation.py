"""The Isolation Kernel as a scikit-learn transformer.

Isolation Kernel (Ting et al. 2018; Qin et al. 2019; Ting et al. 2021) draws
``t`` random subsets of ``psi`` points from the data; each subset partitions the
space into at most ``psi`` cells that isolate its points. Two points are similar
in proportion to the number of partitionings that put them in the same cell:

    K(x, y) = (1 / t) * sum_k 1[x and y fall in the same cell of partitioning k]
            = Phi(x) . Phi(y),

where Phi(x) has one entry 1/sqrt(t) per partitioning (in t * psi columns), the
convention of scikit-learn's ``RBFSampler`` and ``Nystroem``: a linear model on
Phi is a kernel machine on K. Because cells are small where data are dense and
large where data are sparse, the kernel adapts to local density.
"""

from __future__ import annotations

import math
import warnings
from dataclasses import dataclass
from functools import lru_cache
from numbers import Integral

import numba
import numpy as np
import scipy.sparse as sp
from sklearn.base import BaseEstimator, ClassNamePrefixFeaturesOutMixin, TransformerMixin
from .._sklearn import Interval, StrOptions
from .._sklearn import fit_context as _fit_context
from sklearn.utils.validation import check_is_fitted, validate_data
from threadpoolctl import ThreadpoolController

from .._validation import as_generator, check_dense_size, check_matrix
from .._dask import is_dask_array
from .cell_index import CellIndex
from ._inne import covering_balls, sample_radii
from ._itree import build_forest, heap_height, route, route_heaps, to_heaps
from ._gemm import nearest_centres_gemm
from ._voronoi import nearest_centres, pack_centres, pack_values

METHODS = ("anne", "iforest", "inne")
_ROW_BLOCK = 1024  # rows per (rows x partitioning) tile; a tile's working set stays in cache
#: largest |coordinate| the float32 tiles take: products stay far from float32's overflow (3.4e38)
_FLOAT32_SAFE = 1e30
_GROUP_WIDTH = 256  # centres handled per matrix product (partitionings packed side by side)
# Voronoi cells by float32 products up to this many features: the float32 error bound grows with d, and past
# it near-ties (decided in float64) would become common
_FLOAT32_MAX_D = 256
# iForest trees are walked as complete heaps when that takes at most this many times psi nodes per tree
_HEAP_GROWTH = 16
# time guards, checked before any work: fit costs about 25 us per partitioning and transform grows with t * psi
_MAX_T = 100_000
_MAX_SAMPLED = 1 << 25
_HEAP_BLOCK = 128  # rows per task that walk every tree (a block of rows stays in L1 cache)
_FITTED = ("psi_", "t_", "method_", "n_features_in_", "bounds_", "max_depth_", "n_leaves_", "radii_")


@dataclass(frozen=True)
class Partition:
    """The cells of one partitioning, for drawing.

    ``centres`` (psi, d) are the sampled points. For ``"anne"`` they are the
    Voronoi sites; for ``"inne"`` ``radii`` (psi,) holds each ball's radius;
    for ``"iforest"`` ``boxes`` is an array (n_leaves, 2, d) of each leaf's
    [lower, upper] corners, clipped to ``bounds``.

    Examples
    --------
    >>> import numpy as np
    >>> from ikviz import IsolationKernel
    >>> X = np.random.default_rng(0).random((100, 2))
    >>> part = IsolationKernel(psi=8, t=3, method="inne", random_state=0).fit(X).partition(0)
    >>> part.centres.shape, part.radii.shape, part.boxes is None
    ((8, 2), (8,), True)
    """

    method: str
    centres: np.ndarray
    boxes: np.ndarray | None
    bounds: np.ndarray
    radii: np.ndarray | None = None


class _Span:
    """Coordinates in an orthonormal basis of the span of the sampled (centred) rows.

    Voronoi and hypersphere cells depend only on the distances to the sampled
    rows. For any point, the part orthogonal to their span adds the same amount
    to its distance to every sampled row, so nearest centres do not change and
    distances follow from the span coordinates plus the point's own norm. When
    d is much larger than the number of distinct sampled rows u (the
    w-Gaussians have d = 10,000 for n = 1,000), each lookup costs
    t * psi * u instead of t * psi * d. The basis comes from the u x u Gram
    matrix (one product and a small eigendecomposition), not from a
    d-dimensional QR or SVD, which is many times slower.
    """

    def __init__(self, Z: np.ndarray):
        lam, U = np.linalg.eigh(Z @ Z.T)
        keep = lam > lam.max() * Z.shape[0] * np.finfo(float).eps
        self.coords = U[:, keep] * np.sqrt(lam[keep])          # Z @ basis, without a second product
        self.basis = Z.T @ (U[:, keep] / np.sqrt(lam[keep]))  # (d, rank), orthonormal columns

    @staticmethod
    def pays(u: int, d: int, t: int, psi: int) -> bool:
        """Whether projecting a row (d * u) and working in u dimensions beats t * psi * d (flop estimate)."""
        return d > u and d * u + t * psi * u < t * psi * d


@lru_cache(maxsize=1)
def _blas() -> ThreadpoolController:
    # built once: scanning the loaded libraries on every call would cost ~0.4 ms per transform
    return ThreadpoolController()


class IsolationKernel(ClassNamePrefixFeaturesOutMixin, TransformerMixin, BaseEstimator):
    """Isolation Kernel with Voronoi (``"anne"``), hypersphere (``"inne"``) or isolation-tree cells.

    Parameters
    ----------
    psi : int, default=16
        Points per subset, hence at most ``psi`` cells per partitioning. Larger
        ``psi`` gives a sharper kernel. Clipped (with a warning) to the number
        of rows seen by ``fit``.
    t : int, default=200
        Number of partitionings; the kernel is an average over them, so larger
        ``t`` gives a smoother estimate. At most 100,000, and ``t * psi_`` at
        most 2**25: larger values are refused with a ``ValueError`` before
        any work starts.
    method : {"anne", "inne", "iforest"}, default="iforest"
        ``"iforest"`` (the default, Ting et al. 2018's IK): isolation trees
        grown on each subset with random axis-parallel splits; the cheapest
        to compute (no distances), and in ``ikviz bench pipeline`` the most
        accurate under a linear model. ``"anne"`` (Ting et al. 2021's IK):
        a point belongs to the cell of its nearest sampled point
        (Euclidean Voronoi cells; ties go to the lowest sample index).
        ``"inne"``: each sampled point is the centre of a ball reaching its
        nearest other sampled point; a point belongs to the smallest ball
        covering it, and to no cell of that partitioning when none does (so
        K(x, x) < 1 far from the data).
    max_depth : "auto", int or None, default="auto"
        ``"iforest"`` only. ``"auto"`` limits the height to ceil(log2 psi) as in
        Ting et al. (2018, §4.1); ``None`` grows every tree until each sampled
        point is isolated; an int sets the limit.
    binary : bool, default=False
        What ``transform`` returns: by default entries 1/sqrt(t), so that
        ``transform(X) @ transform(Y).T == similarity(X, Y)`` (the convention
        of scikit-learn's kernel approximations, which linear models' default
        regularisation expects); ``True`` gives 0/1 features (one 1 per
        partitioning, squared norm t).
    random_state : int, numpy Generator, RandomState or None, default=None
        Seed; the same seed gives the same kernel, whether ``X`` is a NumPy
        or a Dask array.
    dense_budget : int or None, default=None
        Largest dense ``similarity`` result in bytes (default 2 GiB).

    Attributes
    ----------
    psi_ : int
        The ``psi`` actually used.
    t_ : int
        The number of partitionings fitted.
    method_ : str
        The partitioning the kernel was fitted with.
    n_features_in_ : int
        Number of input features seen by ``fit``.
    samples_ : ndarray of shape (t, psi_, n_features_in_)
        The sampled points of each partitioning.
    bounds_ : ndarray of shape (2, n_features_in_)
        Per-feature min and max of the sampled rows (used to clip drawn cells).
    radii_ : ndarray of shape (t, psi_)
        ``"inne"`` only: the radius of each ball.

    Notes
    -----
    Rows and centres are centred on the sampled rows' mean and scaled by a
    power of two before any distance is taken, and near-ties are decided on
    exactly summed distances, so cells stay exact for data far from the origin
    (timestamps, 1e200-scaled columns) and one row gets the same cell alone, in
    a batch or in a Dask chunk.

    ``fit``, ``cells`` and ``transform`` accept Dask arrays: ``fit`` computes
    only the t * psi sampled rows; ``cells`` and ``transform`` return Dask
    arrays chunked by rows like the input (chunks of scipy CSR matrices for
    ``transform``).

    Examples
    --------
    >>> import numpy as np
    >>> from ikviz import IsolationKernel
    >>> X = np.random.default_rng(0).normal(size=(100, 2))
    >>> ik = IsolationKernel(psi=8, t=50, random_state=0).fit(X)
    >>> Phi = ik.transform(X)
    >>> Phi.shape
    (100, 400)
    >>> K = ik.similarity(X[:5])
    >>> bool(np.allclose(K, (Phi[:5] @ Phi[:5].T).toarray()))
    True
    >>> float(K[0, 0])
    1.0
    """

    _parameter_constraints: dict = {
        "psi": [Interval(Integral, 2, None, closed="left")],
        "t": [Interval(Integral, 1, None, closed="left")],
        "method": [StrOptions(set(METHODS))],
        "max_depth": [StrOptions({"auto"}), Interval(Integral, 1, None, closed="left"), None],
        "binary": ["boolean"],
        "random_state": ["random_state", np.random.Generator],
        "dense_budget": [Interval(Integral, 1, None, closed="left"), None],
    }

    def __init__(self, psi=16, t=200, method="iforest", max_depth="auto", binary=False, random_state=None,
                 dense_budget=None):
        self.psi = psi
        self.t = t
        self.method = method
        self.max_depth = max_depth
        self.binary = binary
        self.random_state = random_state
        self.dense_budget = dense_budget

    # ------------------------------------------------------------------ fit
    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y=None):
        """Draw ``t`` subsets of ``psi`` distinct rows of ``X`` and build their partitionings.

        Parameters
        ----------
        X : array-like or dask array of shape (n_samples, n_features)
            Training data. Only the sampled rows of a Dask array are computed.
        y : ignored

        Returns
        -------
        self : IsolationKernel
        """
        if is_dask_array(X):
            from .._dask import n_rows, take_rows

            n, d = n_rows(X), X.shape[1]
        else:
            frame, X = X, check_matrix(X)
            # records feature_names_in_ for a data frame (scikit-learn's convention), checked at transform
            validate_data(self, frame, reset=True, skip_check_array=True)
            n, d = X.shape
        psi, t = int(self.psi), int(self.t)
        if psi > n:
            if n < 2:
                raise ValueError(f"IsolationKernel needs at least 2 rows in X to fit; got n_samples={n}.")
            warnings.warn(f"psi={psi} is larger than the {n} rows given; using psi={n}.",
                          UserWarning, stacklevel=2)
            psi = n
        if t > _MAX_T:
            raise ValueError(f"t={t:,} partitionings is more than the limit of {_MAX_T:,} (fitting alone would take "
                             "minutes; the kernel's estimate improves as 1/sqrt(t), so t in the hundreds is "
                             "usually enough). Use a smaller t.")
        if t * psi > _MAX_SAMPLED:
            raise ValueError(f"t * psi = {t:,} x {psi:,} = {t * psi:,} sampled points is more than the limit of "
                             f"{_MAX_SAMPLED:,}. Use a smaller t or psi.")
        # the cells keep t * psi centres, each in the span of the u <= n distinct sampled rows when that
        # is smaller than d (_Span); trees keep every sampled point in all d coordinates
        least = d if self.method == "iforest" else min(d, n)
        check_dense_size(t * psi, least, None, f"The {t} x {psi} sampled points", "Use a smaller t or psi.")
        rng = as_generator(self.random_state)
        idx = np.empty((t, psi), dtype=np.int64)
        for k in range(t):
            idx[k] = rng.choice(n, size=psi, replace=False)
        rows, index = np.unique(idx, return_inverse=True)
        u = len(rows)
        width = min(d, u) if self.method != "iforest" and _Span.pays(u, d, t, psi) else d
        check_dense_size(t * psi, width, None, f"The {t} x {psi} sampled points", "Use a smaller t or psi.")
        samples = check_matrix(take_rows(X, rows), "X") if is_dask_array(X) else X[rows]
        for stale in [*_FITTED, "_samples", "_index", "_centres", "_sq_norms", "_span", "_shift",
                      "_scale", "_radii", "_rel", "_cmax", "_c32", "_c64", "_n64", "_r64", "_rel32", "_heap",
                      "_feature", "_threshold", "_left", "_leaf"]:
            self.__dict__.pop(stale, None)
        self._samples, self._index = samples, index.reshape(t, psi)
        self.psi_, self.t_, self.method_, self.n_features_in_ = psi, t, self.method, d
        self.bounds_ = np.vstack([samples.min(axis=0), samples.max(axis=0)])
        if self.method == "iforest":
            self._fit_trees(rng)
        else:
            self._fit_centres()
        return self

    def _fit_centres(self) -> None:
        S = self._samples
        # a sampled value per column (lower median): on grid data, x - shift is exact wherever the grid sits
        self._shift = np.quantile(S, 0.5, axis=0, method="lower")
        spread = np.abs(S - self._shift).max()
        # a power of two: scaling is exact and keeps squared distances far from overflow
        # (the exponent is clamped so that subnormal spreads still give a finite factor)
        self._scale = 2.0 ** -max(math.frexp(spread)[1], -1020) if spread > 0 else 1.0
        Z = (S - self._shift) * self._scale
        u, d = Z.shape
        if _Span.pays(u, d, self.t_, self.psi_):
            self._span = _Span(Z)
            Z = np.ascontiguousarray(self._span.coords)  # C order: the kernels compile for one layout
        # bound on the relative rounding error of one dot product (with the projection), with margin
        self._rel = 4.0 * (d + 4) * np.finfo(float).eps
        # the float64 kernels' packed centres: the path for many features, and for rows beyond float32's range
        self._centres, self._sq_norms = pack_centres(Z, self._index, _GROUP_WIDTH)
        self._cmax = math.sqrt(self._sq_norms.max())
        if d <= _FLOAT32_MAX_D:
            rows = self._index.ravel()
            self._c64 = np.ascontiguousarray(Z[rows])
            self._n64 = np.einsum("ij,ij->i", Z, Z)[rows]
            self._c32 = np.hstack([-2.0 * self._c64, self._n64[:, None]]).astype(np.float32)
            self._rel32 = 4.0 * (d + 4) * float(np.finfo(np.float32).eps) + self._rel
        if self.method == "inne":
            radii = np.empty((self.t_, self.psi_))
            with _blas().limit(limits=1, user_api="blas"):  # its gemm in threads: 10x slower at psi 512 if not
                sample_radii(Z, self._samples, self._index, self._shift, self._scale, self._rel, self._cmax, radii)
            if "_c32" in self.__dict__:
                self._r64 = radii.ravel()
            self._radii = pack_values(radii, self._sq_norms)
            self.radii_ = np.sqrt(radii) / self._scale

    def _fit_trees(self, rng: np.random.Generator) -> None:
        t, psi = self._index.shape
        depth = self.max_depth
        # a tree on psi points never grows deeper than psi - 1
        self.max_depth_ = math.ceil(math.log2(psi)) if depth == "auto" else -1 if depth is None else min(int(depth), psi)
        uniforms = rng.random((t, psi, 2))
        m = 2 * psi - 1
        self._feature = np.full((t, m), -1, dtype=np.int64)
        self._threshold = np.zeros((t, m))
        self._left = np.zeros((t, m), dtype=np.int64)
        self._leaf = np.full((t, m), -1, dtype=np.int64)
        self.n_leaves_ = np.zeros(t, dtype=np.int64)
        build_forest(self._samples[self._index], uniforms, self.max_depth_, self._feature, self._threshold,
                     self._left, self._leaf, self.n_leaves_)
        height = int(heap_height(self._feature, self._left))
        if (1 << height) <= _HEAP_GROWTH * psi:  # always for the default height limit; rarely for full growth
            h_feature = np.empty((t, (1 << height) - 1), dtype=np.int32)
            h_threshold = np.empty((t, (1 << height) - 1))
            h_leaf = np.empty((t, 1 << height), dtype=np.int32)
            to_heaps(self._feature, self._threshold, self._left, self._leaf, height, h_feature, h_threshold, h_leaf)
            self._heap = (h_feature, h_threshold, h_leaf, height)

    @property
    def _n_features_out(self) -> int:
        # get_feature_names_out: isolationkernel0 ... isolationkernel{t * psi_ - 1}
        return self.t_ * self.psi_

    @property
    def samples_(self) -> np.ndarray:
        """The sampled points of each partitioning, (t, psi_, n_features_in_)."""
        check_is_fitted(self, "psi_")
        return self._samples[self._index]

    # ------------------------------------------------------------ transform
    def _check_X(self, X, name="X") -> np.ndarray:
        check_is_fitted(self, "psi_")
        frame, X = X, check_matrix(X, name)
        # the same columns in the same order as at fit, or scikit-learn's ValueError naming them
        validate_data(self, frame, reset=False, skip_check_array=True)
        if X.shape[1] != self.n_features_in_:
            raise ValueError(
                f"{name} has {X.shape[1]} features, but IsolationKernel is expecting "
                f"{self.n_features_in_} features as input (the number it was fitted with)."
            )
        return X

    def _cell_dtype(self, stride: int):
        return np.int32 if self.t_ * max(stride, 1) < 2**31 - 1 else np.int64

    def _index_rows(self, X, stride: int) -> np.ndarray:
        X = self._check_X(X)
        out = np.empty((X.shape[0], self.t_), dtype=self._cell_dtype(stride))
        if self.method_ == "iforest" and not X.flags.writeable:
            X = X.copy()  # numba compiles a read-only array as another type: a second signature (~2 CPU-s)
        if "_heap" in self.__dict__:
            h_feature, h_threshold, h_leaf, height = self._heap
            route_heaps(X, h_feature, h_threshold, h_leaf, height, stride, _HEAP_BLOCK, out)
            return out
        if self.method_ == "iforest":
            route(X, self._feature, self._threshold, self._left, self._leaf, stride, _ROW_BLOCK, out)
            return out
        with np.errstate(over="ignore", invalid="ignore"):
            Z = (X - self._shift) * self._scale
        if not np.isfinite(Z).all():
            raise ValueError("X has values so far from the data the kernel was fitted on that their distances "
                             "overflow; rescale X the way the training data was scaled.")
        P = Z @ self._span.basis if "_span" in self.__dict__ else Z
        args = (self._samples, self._index, self._shift, self._scale, self._rel, self._cmax,
                self.psi_, self.t_, stride, _ROW_BLOCK, out)
        # BLAS must not start threads of its own inside numba's parallel tiles
        with _blas().limit(limits=1, user_api="blas"):
            # rows beyond float32's range (far out of the sample's scale) keep the float64 kernels: same cells
            if "_c32" in self.__dict__ and (P.size == 0 or np.abs(P).max() < _FLOAT32_SAFE):
                nearest_centres_gemm(P, self._c32, self._c64, self._n64, Z, self._samples, self._index,
                                     self._shift, self._scale, self._rel, self._rel32, self._cmax, self.psi_,
                                     self.t_, stride, out, workers=numba.get_num_threads(),
                                     radii=self._r64 if self.method_ == "inne" else None)
            elif self.method_ == "anne":
                nearest_centres(P, self._centres, self._sq_norms, Z, *args)
            else:
                covering_balls(P, self._centres, self._sq_norms, self._radii, Z, *args)
        return out

    def _map_dask(self, X, func, n_cols, dtype, sparse=False):
        from .._dask import map_row_blocks

        check_is_fitted(self, "psi_")
        if X.ndim != 2 or X.shape[1] != self.n_features_in_:
            raise ValueError(f"X has shape {X.shape}, but IsolationKernel is expecting "
                             f"{self.n_features_in_} features as input (the number it was fitted with).")
        return map_row_blocks(func, X, n_cols=n_cols, dtype=dtype, sparse=sparse)

    def cells(self, X):
        """The cell of each row in each partitioning.

        Parameters
        ----------
        X : array-like or dask array of shape (n_samples, n_features_in_)

        Returns
        -------
        cells : ndarray (or dask array) of shape (n_samples, t), integer
            Values in 0..psi_-1; -1 where an ``"inne"`` partitioning covers no
            ball around the row.
        """
        check_is_fitted(self, "psi_")
        if is_dask_array(X):
            return self._map_dask(X, self.cells, self.t_, self._cell_dtype(0))
        return self._index_rows(X, 0)

    def transform(self, X):
        """Map ``X`` to the sparse feature space: CSR of shape (n, t * psi_).

        Each row has one non-zero per partitioning that covers it (all ``t``
        for ``"anne"`` and ``"iforest"``), of value 1/sqrt(t), or 1 with
        ``binary=True``. A Dask array in gives a Dask array of CSR chunks out.
        """
        check_is_fitted(self, "psi_")
        if is_dask_array(X):
            return self._map_dask(X, self.transform, self.t_ * self.psi_, np.float64, sparse=True)
        columns = self._index_rows(X, self.psi_)
        n, t = columns.shape
        value = 1.0 if self.binary else 1.0 / math.sqrt(t)
        if self.method_ == "inne":
            covered = columns >= 0
            indptr = np.concatenate([[0], np.cumsum(covered.sum(axis=1))])
            indices = columns[covered]
        else:
            indptr = np.arange(0, n * t + 1, t)
            indices = columns.ravel()
        index_dtype = np.int64 if indptr[-1] >= 2**31 - 1 else np.int32
        # columns within a row increase with k, so the indices are sorted and unique
        out = sp.csr_matrix((np.full(indices.size, value), indices.astype(index_dtype, copy=False),
                             indptr.astype(index_dtype)), shape=(n, t * self.psi_), copy=False)
        out.has_sorted_indices = True
        return out

    def similarity(self, X, Y=None) -> np.ndarray:
        """Dense kernel matrix K(X, Y), values in [0, 1].

        With ``Y=None`` the result is K(X, X): symmetric, with ones on the
        diagonal for ``"anne"`` and ``"iforest"``. Raises ``ValueError`` when
        the result would exceed ``dense_budget``; use ``transform`` and sparse
        products for large inputs.
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

        ``bounds`` (2, d) clips the iForest boxes; default: the sampled rows'
        bounding box.
        """
        check_is_fitted(self, "psi_")
        if isinstance(k, bool) or not isinstance(k, Integral) or not 0 <= k < self.t_:
            raise ValueError(f"partitioning index must be an integer in [0, {self.t_ - 1}]; got {k!r}.")
        bounds = self.bounds_ if bounds is None else np.asarray(bounds, dtype=float)
        if bounds.shape != (2, self.n_features_in_):
            raise ValueError(f"bounds must have shape (2, {self.n_features_in_}); got {bounds.shape}.")
        boxes = None
        if self.method_ == "iforest":
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
        radii = self.radii_[k].copy() if self.method_ == "inne" else None
        return Partition(self.method_, self._samples[self._index[k]], boxes, bounds, radii)
