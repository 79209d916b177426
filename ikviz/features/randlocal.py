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
import numbers

import numpy as np
import scipy.sparse as sp
from sklearn.base import BaseEstimator, TransformerMixin
from sklearn.utils.validation import check_is_fitted
from threadpoolctl import threadpool_limits

from .._validation import check_matrix
from ..kernels.isolation import _as_generator
from ._anchors import nearest_anchors

SUBSPACES = ("auto", "supervised", "unsupervised")
_ROW_CHUNK = 8192  # rows per numba call: bounds the (rows x sets) scratch arrays
_TILE_ROWS = 512  # rows per (rows x anchor set) tile: a tile's distances fit in cache


def _positive_int(name, value, minimum):
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value < minimum:
        raise ValueError(f"{name} must be an integer >= {minimum}; got {value!r}.")
    return int(value)


class RandLocal(TransformerMixin, BaseEstimator):
    """RandLocal feature engineering as a scikit-learn transformer (sparse output).

    Parameters
    ----------
    n_sets : int, default=100
        Number of anchor sets (the paper's T); every row gets exactly ``n_sets``
        non-zero features.
    epsilon : float, default=1e-4
        Floor of a feature value as a fraction of D_avg, so far-away points
        (outliers) keep a small positive value.
    min_anchors, max_anchors : int, default 32 and 1024
        Range of the number of anchors per set; the number is 2**p with p
        uniform in [log2 min_anchors, log2 max_anchors]. The upper end is capped
        at n/2 (n = rows given to ``fit``) so anchors stay much fewer than points.
    subspace : {"auto", "supervised", "unsupervised"}, default="auto"
        How many input features each set samples: 1..d ("supervised", Alg. 2)
        or ceil(d/2)..d ("unsupervised", §3.1, less likely to drop every
        relevant feature when no labels can sort features out later).
        ``"auto"`` picks "supervised" when ``fit`` receives ``y`` and
        "unsupervised" otherwise; ``y`` itself is not used.
    random_state : int, numpy Generator or None
        Seed; the same seed gives the same features.

    Attributes
    ----------
    n_anchors_ : ndarray (n_sets,)
        Anchors in each set; the output has ``n_anchors_.sum()`` columns.
    features_ : list of ndarray
        Input columns used by each set.
    anchors_ : list of ndarray
        Each set's anchors, shape (n_anchors_[s], len(features_[s])).
    d_avg_ : ndarray (n_sets,)
        Mean point-to-anchor distance of each set on the fitted data.
    """

    def __init__(self, n_sets=100, epsilon=1e-4, min_anchors=32, max_anchors=1024, subspace="auto",
                 random_state=None):
        self.n_sets = n_sets
        self.epsilon = epsilon
        self.min_anchors = min_anchors
        self.max_anchors = max_anchors
        self.subspace = subspace
        self.random_state = random_state

    def _check_params(self):
        n_sets = _positive_int("n_sets", self.n_sets, 1)
        lo = _positive_int("min_anchors", self.min_anchors, 2)
        hi = _positive_int("max_anchors", self.max_anchors, 2)
        if hi < lo:
            raise ValueError(f"max_anchors ({hi}) must be >= min_anchors ({lo}).")
        eps = self.epsilon
        if not (isinstance(eps, numbers.Real) and math.isfinite(eps) and 0 <= eps < 1):
            raise ValueError(f"epsilon must be a number in [0, 1); got {eps!r}.")
        if self.subspace not in SUBSPACES:
            raise ValueError(f"subspace must be one of {SUBSPACES}; got {self.subspace!r}.")
        return n_sets, lo, hi, float(eps)

    def fit(self, X, y=None):
        """Sample the subspaces and anchors from the rows of ``X`` and measure each set's D_avg."""
        n_sets, lo, hi, _ = self._check_params()
        X = check_matrix(X)
        n, d = X.shape
        if n < 4:
            raise ValueError(f"RandLocal needs at least 4 rows to fit (anchors <= n/2, >= 2); got {n}.")
        rng = _as_generator(self.random_state)
        mode = self.subspace
        if mode == "auto":
            mode = "unsupervised" if y is None else "supervised"
        m_low = 1 if mode == "supervised" else math.ceil(d / 2)
        p_hi = min(math.log2(hi), math.log2(n / 2))
        p_lo = min(math.log2(lo), p_hi)
        self.subspace_ = mode
        self.n_features_in_ = d
        self.features_, self.anchors_ = [], []
        counts = np.empty(n_sets, dtype=np.int64)
        for s in range(n_sets):
            m = int(rng.integers(m_low, d + 1))
            feats = np.sort(rng.choice(d, size=m, replace=False))
            r = max(2, int(math.floor(2.0 ** rng.uniform(p_lo, p_hi))))
            rows = rng.choice(n, size=r, replace=False)
            self.features_.append(feats)
            self.anchors_.append(X[np.ix_(rows, feats)])
            counts[s] = r
        self.n_anchors_ = counts
        self._pack()
        # D_avg: the mean of all n x r point-anchor distances of a set (Alg. 1 step 4)
        totals = np.zeros(n_sets)
        for start in range(0, n, _ROW_CHUNK):
            _, _, sums = self._nearest(X[start:start + _ROW_CHUNK], want_sums=True)
            totals += sums.sum(axis=0)
        self.d_avg_ = totals / (n * counts)
        return self

    def _pack(self):
        # flat arrays so one numba call handles every set
        self._feats = np.concatenate(self.features_).astype(np.int64)
        self._feat_ptr = np.concatenate([[0], np.cumsum([f.size for f in self.features_])]).astype(np.int64)
        self._anchors_t = np.concatenate([np.ascontiguousarray(a.T).ravel() for a in self.anchors_])
        self._anchor_ptr = np.concatenate([[0], np.cumsum([a.size for a in self.anchors_])]).astype(np.int64)
        self._anchor_sq = np.concatenate([np.einsum("ij,ij->i", a, a) for a in self.anchors_])
        self._col_ptr = np.concatenate([[0], np.cumsum(self.n_anchors_)]).astype(np.int64)

    def _nearest(self, X, want_sums=False):
        n, n_sets = X.shape[0], self.n_anchors_.size
        cols = np.empty((n, n_sets), dtype=np.int64)
        dmin = np.empty((n, n_sets))
        sums = np.empty((n, n_sets) if want_sums else (0, 0))
        with threadpool_limits(1, user_api="blas"):  # numba's tiles already use every core
            nearest_anchors(X, self._feats, self._feat_ptr, self._anchors_t, self._anchor_ptr, self._anchor_sq,
                            self.n_anchors_, self._col_ptr, _TILE_ROWS, want_sums, cols, dmin,
                            sums)
        return cols, dmin, sums

    def transform(self, X) -> sp.csr_matrix:
        """Map ``X`` to CSR (n, n_anchors_.sum()) with exactly ``n_sets`` positive values per row.

        A row that coincides with an anchor is assigned to the nearest *other*
        anchor of that set, as the paper does for anchors among the training data.
        """
        check_is_fitted(self, "d_avg_")
        X = check_matrix(X)
        if X.shape[1] != self.n_features_in_:
            raise ValueError(f"X has {X.shape[1]} features, but RandLocal was fitted with {self.n_features_in_}.")
        eps = self._check_params()[3]
        n, n_sets = X.shape[0], self.n_anchors_.size
        indices = np.empty((n, n_sets), dtype=np.int64)
        data = np.empty((n, n_sets))
        for start in range(0, n, _ROW_CHUNK):
            stop = min(n, start + _ROW_CHUNK)
            cols, dmin, _ = self._nearest(X[start:stop])
            indices[start:stop] = cols
            data[start:stop] = np.maximum(self.d_avg_ - dmin, eps * self.d_avg_)
        indptr = np.arange(0, n * n_sets + 1, n_sets, dtype=np.int64)
        out = sp.csr_matrix((data.ravel(), indices.ravel(), indptr), shape=(n, int(self._col_ptr[-1])))
        out.has_sorted_indices = True  # column blocks increase with the set index
        return out
