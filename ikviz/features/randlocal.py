"""RandLocal (Wang et al. 2017, Alg. 1-2): sparse local features from random anchor sets.

Each of ``n_sets`` anchor sets samples a feature subspace and between
``min_anchors`` and ``max_anchors`` anchors (log-uniformly, capped by n/2), and
gives a point one non-zero feature: its nearest anchor k in that subspace, with
value max(D_avg - D_min, epsilon * D_avg), where D_min is the distance to that
anchor and D_avg the mean anchor-to-point distance over the fitted data. A
linear model on these features pieces its decision boundary together from
Voronoi cells of several granularities.
"""

from __future__ import annotations

import math
from numbers import Integral, Real

import numpy as np
import scipy.sparse as sp
from sklearn.base import BaseEstimator, ClassNamePrefixFeaturesOutMixin, TransformerMixin
from sklearn.utils.validation import check_is_fitted
from threadpoolctl import threadpool_limits

from .._sklearn import Interval, StrOptions, fit_context
from .._validation import MAX_ANCHOR_SETS, as_generator, check_dense_size, validate_data
from ._anchors import nearest_anchors

SUBSPACES = ("auto", "supervised", "unsupervised")
_ROW_CHUNK = 8192  # rows per numba call: bounds the (rows x sets) scratch arrays
_TILE_ROWS = 512  # rows per (rows x anchor set) tile: a tile's distances fit in cache
_FAR = 1e150  # largest |coordinate| (in units of the fitted data's spread) whose squared distances stay finite


def _frame(X) -> tuple[np.ndarray, int]:
    """Centre (per-feature midrange) and power of two that bring ``X`` into [-1, 1].

    Distances are taken on ``np.ldexp(X - shift, -power)``: no cancellation for
    data far from the origin, no overflow for huge values; scaling by a power
    of two is exact, so a distance in the original units is
    ``np.ldexp(distance, power)``.
    """
    lo, hi = X.min(axis=0), X.max(axis=0)
    shift = lo / 2 + hi / 2  # halves first: lo + hi could overflow
    spread = float(np.max(np.maximum(hi - shift, shift - lo)))
    return shift, (math.frexp(spread)[1] if spread > 0 else 0)


class RandLocal(ClassNamePrefixFeaturesOutMixin, TransformerMixin, BaseEstimator):
    """RandLocal feature engineering as a scikit-learn transformer (sparse output).

    Parameters
    ----------
    n_sets : int, default=100
        Number of anchor sets (the paper's T), at most 10,000; every row gets
        exactly ``n_sets`` non-zero features.
    epsilon : float, default=1e-4
        Floor of a feature value as a fraction of D_avg, in [0, 1), so far-away
        points (outliers) keep a small positive value.
    min_anchors : int, default=32
        Smallest number of anchors per set (at least 2).
    max_anchors : int, default=1024
        Largest number of anchors per set. The number is 2**p with p uniform
        in [log2 min_anchors, log2 max_anchors], the upper end capped at n/2
        (n = rows given to ``fit``) so anchors stay much fewer than points.
    subspace : {"auto", "supervised", "unsupervised"}, default="auto"
        How many input features each set samples: 1..d ("supervised", Alg. 2)
        or ceil(d/2)..d ("unsupervised", §3.1, less likely to drop every
        relevant feature when no labels can sort features out later).
        ``"auto"`` picks "supervised" when ``fit`` receives ``y`` and
        "unsupervised" otherwise; ``y`` itself is not used.
    random_state : int, numpy Generator, RandomState or None, default=None
        Seed; the same seed gives the same features.

    Attributes
    ----------
    n_anchors_ : ndarray of shape (n_sets,)
        Anchors in each set; the output has ``n_anchors_.sum()`` columns.
    features_ : list of ndarray
        Input columns used by each set.
    anchors_ : list of ndarray
        Each set's anchors, of shape ``(n_anchors_[s], len(features_[s]))``.
    anchor_rows_ : list of ndarray
        The rows of the fitted ``X`` each set's anchors were sampled from.
    d_avg_ : ndarray of shape (n_sets,)
        Mean point-to-anchor distance of each set on the fitted data (in
        units of ``2 ** value_exponent_``).
    value_exponent_ : int
        0, unless the fitted data's distances exceed the float range (data
        spread near 1e308): then distances, ``d_avg_`` and the feature values
        are all given in units of ``2 ** value_exponent_``, so they stay
        finite (a common scale, which a linear model on the features absorbs).
    subspace_ : str
        The subspace mode used ("supervised" or "unsupervised").
    n_features_in_ : int
        Number of input features.

    Notes
    -----
    ``fit_transform(X)`` returns the *training* representation of Alg. 1: a
    row that was sampled as an anchor is assigned to its nearest *other*
    anchor ("in order to avoid overfitting", Wang et al. 2017, §3), so its
    D_min is not 0. ``transform`` maps any data, the fitted rows included, to
    the nearest anchor, whichever row it came from. So ``fit(X).transform(X)``
    differs from ``fit_transform(X)`` exactly in the entries of the anchors'
    own rows, as scikit-learn's ``TargetEncoder`` differs between the two
    (a ``Pipeline`` uses ``fit_transform`` on the training data and
    ``transform`` on new data, which is the paper's protocol). A row that only
    *coincides* with an anchor (a duplicate) is assigned to it in both.

    Examples
    --------
    >>> import numpy as np
    >>> from ikviz.features import RandLocal
    >>> X = np.random.default_rng(0).normal(size=(200, 3))
    >>> rl = RandLocal(n_sets=20, random_state=0)
    >>> F = rl.fit_transform(X)
    >>> F.shape[0], int(F.getnnz(axis=1).min())
    (200, 20)
    >>> rl.transform(X[:5]).shape == (5, int(rl.n_anchors_.sum()))
    True
    """

    _parameter_constraints: dict = {
        "n_sets": [Interval(Integral, 1, MAX_ANCHOR_SETS, closed="both")],
        "epsilon": [Interval(Real, 0, 1, closed="left")],
        "min_anchors": [Interval(Integral, 2, None, closed="left")],
        "max_anchors": [Interval(Integral, 2, None, closed="left")],
        "subspace": [StrOptions(set(SUBSPACES))],
        "random_state": ["random_state", np.random.Generator],
    }

    def __init__(self, n_sets=100, epsilon=1e-4, min_anchors=32, max_anchors=1024, subspace="auto",
                 random_state=None):
        self.n_sets = n_sets
        self.epsilon = epsilon
        self.min_anchors = min_anchors
        self.max_anchors = max_anchors
        self.subspace = subspace
        self.random_state = random_state

    @property
    def _n_features_out(self):
        return int(self.n_anchors_.sum())

    @fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y=None):
        """Sample the subspaces and anchors from the rows of ``X`` and measure each set's D_avg.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Training data, at least 4 rows.
        y : array-like of shape (n_samples,), default=None
            Not used, except that its presence selects supervised subspaces
            when ``subspace="auto"``.

        Returns
        -------
        self : RandLocal
        """
        self._fit(X, y)
        return self

    @fit_context(prefer_skip_nested_validation=True)
    def fit_transform(self, X, y=None):
        """Fit, then return the training features of Alg. 1 (an anchor's own row skips that anchor).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Training data, at least 4 rows.
        y : array-like of shape (n_samples,), default=None
            As in :meth:`fit`.

        Returns
        -------
        F : scipy.sparse.csr_matrix of shape (n_samples, n_output_features)
            ``n_output_features = n_anchors_.sum()``; exactly ``n_sets``
            positive values per row. See the class Notes for
            how it differs from ``fit(X).transform(X)``.
        """
        X = self._fit(X, y)
        return self._features(X, np.arange(X.shape[0], dtype=np.int64))

    def _fit(self, X, y) -> np.ndarray:
        if self.max_anchors < self.min_anchors:
            raise ValueError(f"max_anchors ({self.max_anchors}) must be >= min_anchors ({self.min_anchors}).")
        X = validate_data(self, X, reset=True)
        n, d = X.shape
        if n < 4:
            raise ValueError(f"RandLocal needs at least 4 rows of X to fit (2 to n/2 anchors per set); "
                             f"got n_samples={n}.")
        n_sets = int(self.n_sets)
        hint = "Use fewer anchor sets (n_sets)."
        check_dense_size(n, n_sets, None, f"RandLocal's features of the {n} rows", hint)
        mode = self.subspace
        if mode == "auto":
            mode = "unsupervised" if y is None else "supervised"
        m_low = 1 if mode == "supervised" else math.ceil(d / 2)
        p_hi = min(math.log2(self.max_anchors), math.log2(n / 2))
        p_lo = min(math.log2(self.min_anchors), p_hi)
        check_dense_size(n_sets, max(2, int(2.0 ** p_hi)) * d, None, "RandLocal's anchors",
                         hint + " or a smaller max_anchors")
        rng = as_generator(self.random_state)
        features, rows_of, counts = [], [], np.empty(n_sets, dtype=np.int64)
        for s in range(n_sets):
            m = int(rng.integers(m_low, d + 1))
            features.append(np.sort(rng.choice(d, size=m, replace=False)))
            r = max(2, int(math.floor(2.0 ** rng.uniform(p_lo, p_hi))))
            rows_of.append(rng.choice(n, size=r, replace=False).astype(np.int64))
            counts[s] = r
        self.subspace_ = mode
        self.features_ = features
        self.anchor_rows_ = rows_of
        self.anchors_ = [X[np.ix_(rows, feats)] for rows, feats in zip(rows_of, features)]
        self.n_anchors_ = counts
        self._shift, self._power = _frame(X)
        self._pack()
        # D_avg: the mean of all n x r point-anchor distances of a set (Alg. 1 step 4)
        Z = self._normalise(X)
        totals = np.zeros(n_sets)
        for start in range(0, n, _ROW_CHUNK):
            _, _, sums = self._nearest(Z[start:start + _ROW_CHUNK], None, want_sums=True)
            totals += sums.sum(axis=0)
        d_avg = totals / (n * counts)  # in the normalised frame
        # distances of data spread near the float maximum overflow in the data's own units: give them all
        # (D_avg, and so every feature) in units of a power of two that keeps them finite
        top = math.frexp(float(d_avg.max()))[1] + self._power if d_avg.max() > 0 else 0
        self.value_exponent_ = max(0, top - 1023)
        self.d_avg_ = np.ldexp(d_avg, self._power - self.value_exponent_)
        return X

    def _normalise(self, X) -> np.ndarray:
        with np.errstate(over="ignore", invalid="ignore"):
            Z = np.ldexp(X - self._shift, -self._power)
        # the fitted data span [-1, 1] here; squared distances overflow beyond ~1e154
        if not (np.isfinite(Z).all() and np.abs(Z).max() < _FAR):
            raise ValueError("X has values so far from the data RandLocal was fitted on (more than 1e150 times "
                             "its spread) that their distances overflow; rescale X the way the training data "
                             "was scaled.")
        return Z

    def _pack(self):
        # flat arrays, in the normalised frame, so one numba call handles every set
        anchors = [np.ldexp(a - self._shift[f], -self._power) for a, f in zip(self.anchors_, self.features_)]
        self._feats = np.concatenate(self.features_).astype(np.int64)
        self._feat_ptr = np.concatenate([[0], np.cumsum([f.size for f in self.features_])]).astype(np.int64)
        self._anchors_t = np.concatenate([np.ascontiguousarray(a.T).ravel() for a in anchors])
        self._anchor_ptr = np.concatenate([[0], np.cumsum([a.size for a in anchors])]).astype(np.int64)
        self._anchor_sq = np.concatenate([np.einsum("ij,ij->i", a, a) for a in anchors])
        self._anchor_rows = np.concatenate(self.anchor_rows_).astype(np.int64)
        self._col_ptr = np.concatenate([[0], np.cumsum(self.n_anchors_)]).astype(np.int64)

    def _nearest(self, Z, row_ids, want_sums=False):
        n, n_sets = Z.shape[0], self.n_anchors_.size
        if row_ids is None:
            row_ids = np.full(n, -1, dtype=np.int64)
        cols = np.empty((n, n_sets), dtype=np.int64)
        dmin = np.empty((n, n_sets))
        sums = np.empty((n, n_sets) if want_sums else (0, 0))
        with threadpool_limits(1, user_api="blas"):  # numba's tiles already use every core
            nearest_anchors(Z, row_ids, self._feats, self._feat_ptr, self._anchors_t, self._anchor_ptr,
                            self._anchor_sq, self._anchor_rows, self.n_anchors_, self._col_ptr, _TILE_ROWS,
                            want_sums, cols, dmin, sums)
        return cols, dmin, sums

    def transform(self, X) -> sp.csr_matrix:
        """Map ``X`` to the sparse features: each row's nearest anchor in every set.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)

        Returns
        -------
        F : scipy.sparse.csr_matrix of shape (n_samples, n_output_features)
            ``n_output_features = n_anchors_.sum()``; exactly ``n_sets``
            positive values per row, max(D_avg - D_min,
            epsilon * D_avg). A row at distance 0 from an anchor (the row an
            anchor was sampled from, or a duplicate of it) gets that anchor.
        """
        check_is_fitted(self, "d_avg_")
        X = validate_data(self, X, reset=False)
        return self._features(X, None)

    def _features(self, X, row_ids) -> sp.csr_matrix:
        n, n_sets = X.shape[0], self.n_anchors_.size
        check_dense_size(n, n_sets, None, f"RandLocal's features of the {n} rows",
                         "Transform the rows in batches.")
        Z = self._normalise(X)
        indices = np.empty((n, n_sets), dtype=np.int64)
        data = np.empty((n, n_sets))
        floor = float(self.epsilon) * self.d_avg_
        for start in range(0, n, _ROW_CHUNK):
            stop = min(n, start + _ROW_CHUNK)
            ids = None if row_ids is None else row_ids[start:stop]
            cols, dmin, _ = self._nearest(Z[start:stop], ids)
            indices[start:stop] = cols
            with np.errstate(over="ignore"):  # a row far beyond the fitted data: D_min inf, the floor applies
                data[start:stop] = np.maximum(self.d_avg_ - np.ldexp(dmin, self._power - self.value_exponent_),
                                              floor)
        indptr = np.arange(0, n * n_sets + 1, n_sets, dtype=np.int64)
        out = sp.csr_matrix((data.ravel(), indices.ravel(), indptr), shape=(n, int(self._col_ptr[-1])))
        out.has_sorted_indices = True  # column blocks increase with the set index
        return out
