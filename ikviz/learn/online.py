"""One-pass online learners as scikit-learn classifiers: OGD with the hinge loss on an explicit feature map.

The four learners of the online lab (Lu et al. 2016; Wang et al. 2017; Ting et al. 2018):

* :class:`FOGDClassifier`: random Fourier features of the Gaussian kernel + OGD (Alg. 1, 3);
* :class:`NOGDClassifier`: kernel OGD until ``budget`` support vectors, then the rank-k
  Nyström map of those support vectors + OGD, the linear weights initialised from the
  kernel model (Alg. 2, 4);
* :class:`IKOGDClassifier`: the Isolation Kernel feature map (entries 1/sqrt(t), so
  z . z' is the kernel value) + OGD;
* :class:`RandLocalOGDClassifier`: RandLocal features, each row scaled to unit length + OGD.

Every example is predicted before its label is used (progressive validation), so the
running mistake rate (``mistakes_``, ``mistake_rate_``) is an honest estimate of accuracy
on unseen data. The data-dependent maps (IK, RandLocal) draw their samples and anchors
from the first ``prefix`` rows of the stream, using their features only, never their
labels; the map is then frozen and the rest of the stream trains a linear model. So
``partial_fit`` over the chunks of a stream (a Dask array's blocks, files read one at a
time) gives exactly the model that ``fit`` gives on the whole stream, whatever the chunk
sizes: until ``prefix`` rows have been seen, each call refits the map on all rows seen so
far and replays them (at most ``prefix`` rows), as ``fit`` on those rows would.
"""

from __future__ import annotations

import math
import warnings
from numbers import Integral, Real

import numpy as np
import scipy.sparse as sp
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.exceptions import NotFittedError
from sklearn.preprocessing import normalize
from sklearn.utils.multiclass import check_classification_targets, unique_labels
from sklearn.utils.validation import check_is_fitted, column_or_1d
from threadpoolctl import threadpool_limits

from .._sklearn import Interval, StrOptions, fit_context
from .._validation import MAX_ANCHOR_SETS, validate_data
from ..features import LowRankNystroem, RandLocal, RandomFourierFeatures
from ..features.fourier import fourier_map
from ..kernels import IsolationKernel
from ..kernels.isolation import METHODS as IK_METHODS
from .._dask import is_dask_array
from ._ogd import (dense_scores, gaussian_nystroem_map, kernel_ogd_budget, kernel_scores,
                   ogd_dense, ogd_sparse, sparse_scores)

__all__ = ["FOGDClassifier", "NOGDClassifier", "IKOGDClassifier", "RandLocalOGDClassifier"]

_MAX_CHUNK = 4096  # rows mapped at once: bounds the feature block in memory
_CHUNK_BYTES = 32 * 1024**2  # ... and so does this, for wide dense maps
_INT64_MAX = int(np.iinfo(np.int64).max)
#: NOGD's hand-over computes the eigendecomposition of a support set at most this large on one BLAS thread
_ONE_THREAD_EIGH = 2000
#: lu2016 §7.2.1: Gaussian bandwidth sigma = 8, i.e. gamma = 1 / (2 sigma^2) = 1/128
_LU2016_GAMMA = 1.0 / 128


def _check_targets(y, name: str, distinct: bool = False) -> None:
    """Labels for classification (not continuous values, NaN, complex numbers...), or a ValueError naming ``name``.

    ``distinct``: ``y`` is a list of the classes, all distinct by definition, so scikit-learn's
    warning that many distinct labels may mean a regression target is not given.
    """
    try:
        with warnings.catch_warnings():
            if distinct:
                warnings.filterwarnings("ignore", message="The number of unique classes", category=UserWarning)
            check_classification_targets(y)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"Invalid labels {name}: {exc}") from None


def _row_blocks(X, y):
    """(X block, y block) pairs: ``X`` itself, or a Dask array's row blocks computed one at a time."""
    if not is_dask_array(X):
        yield X, (y.compute() if is_dask_array(y) else y)
        return
    import dask

    if X.ndim != 2:
        raise ValueError(f"X must be 2-D (n_samples, n_features); got a Dask array of shape {X.shape}.")
    if X.numblocks[1] > 1:
        X = X.rechunk({1: -1})
    if is_dask_array(y) and (y.numblocks[0] != X.numblocks[0] or y.chunks[0] != X.chunks[0]):
        if any(math.isnan(c) for c in X.chunks[0]):
            raise ValueError("X has unknown chunk sizes and y is chunked differently; call "
                             "X.compute_chunk_sizes() first, or chunk y like X.")
        y = y.rechunk((X.chunks[0],))
    start = 0
    for i in range(X.numblocks[0]):
        if is_dask_array(y):
            Xb, yb = dask.compute(X.blocks[i], y.blocks[i])
        else:
            Xb = X.blocks[i].compute()
            yb = None if y is None else y[start:start + Xb.shape[0]]
        start += Xb.shape[0]
        yield Xb, yb


class _OnlineClassifier(ClassifierMixin, BaseEstimator):
    """Hinge-loss OGD on a feature map fitted on the first rows of the stream, then frozen.

    Subclasses set ``_min_map_rows`` and implement ``_map_rows`` (rows the map is fitted
    on), ``_fit_map`` (fit it, return its width) and ``_transform`` (map a chunk).
    """

    _parameter_constraints: dict = {"eta": [Interval(Real, 0, np.inf, closed="neither")]}
    #: fewest rows the feature map can be fitted on
    _min_map_rows = 1
    #: fitted state besides the attributes ending in "_" (removed by a new fit)
    _STATE = ("_mistakes", "_n_seen", "_n_mistakes", "_n_rows", "_buffer", "_frozen")
    #: a cache of fitted maps and mapped rows shared with learners that differ only in eta (see share_features)
    _shared = None

    def share_features(self, cache: dict | None) -> "_OnlineClassifier":
        """Reuse feature maps and mapped rows through ``cache``, shared by learners that differ only in ``eta``.

        The map and the mapped rows do not depend on the step size, so a step-size
        search fits each map once and maps each chunk once: a learner whose other
        parameters, map rows and chunk are the same as an earlier one's takes the
        earlier one's map and features (keyed by those parameters and a digest of the
        rows). The model is bit-identical to a learner without the cache. ``None``
        stops sharing.

        Parameters
        ----------
        cache : dict or None
            An empty dict for the first learner, then the same dict for the others.

        Returns
        -------
        self : object

        Examples
        --------
        >>> import numpy as np
        >>> from ikviz.learn import IKOGDClassifier
        >>> rng = np.random.default_rng(0)
        >>> X = rng.uniform(-1, 1, size=(600, 2))
        >>> y = (X[:, 0] * X[:, 1] > 0).astype(int)
        >>> cache = {}
        >>> rates = [IKOGDClassifier(psi=8, t=20, eta=eta, prefix=200, random_state=0).share_features(cache)
        ...          .fit(X, y).mistake_rate_ for eta in (0.2, 0.02)]
        >>> alone = IKOGDClassifier(psi=8, t=20, eta=0.02, prefix=200, random_state=0).fit(X, y).mistake_rate_
        >>> rates[1] == alone, sum(key[0] == "map" for key in cache)
        (True, 1)
        """
        if cache is not None and not isinstance(cache, dict):
            raise ValueError(f"cache must be a dict or None; got {type(cache).__name__}.")
        self._shared = cache
        return self

    def _share_key(self, what: str, X) -> tuple:
        import hashlib

        rows = np.ascontiguousarray(X)
        h = hashlib.blake2b(f"{rows.dtype.str}{rows.shape}".encode(), digest_size=16)
        h.update(rows.view(np.uint8).reshape(-1) if rows.size else b"")
        settings = tuple(sorted((k, repr(v)) for k, v in self.get_params().items() if k != "eta"))
        return what, type(self).__name__, settings, bool(self._frozen), h.hexdigest()

    def _map_once(self, X) -> int:
        """``_fit_map(X)``, or the map an earlier learner sharing the cache fitted on the same rows."""
        if self._shared is None:
            return self._fit_map(X)
        key = self._share_key("map", X)
        if key not in self._shared:
            width = self._fit_map(X)
            self._shared[key] = (self.feature_map_, width)
        self.feature_map_, width = self._shared[key]
        return width

    def _mapped(self, X):
        """``_transform(X)``, or the features an earlier learner sharing the cache mapped from the same rows."""
        if self._shared is None:
            return self._transform(X)
        key = self._share_key("rows", X) + (id(self.feature_map_),)
        if key not in self._shared:
            self._shared[key] = self._transform(X)
        return self._shared[key]

    # ------------------------------------------------------------------ public API
    @fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y):
        """Learn from the rows of ``X`` in order, in one pass (the feature map from the first rows).

        Parameters
        ----------
        X : array-like or dask array of shape (n_samples, n_features)
            The stream. A Dask array is read one row block at a time.
        y : array-like or dask array of shape (n_samples,)
            Labels, at least two classes.

        Returns
        -------
        self : object
            The fitted classifier; ``mistakes_`` holds the pass's progressive mistakes.
        """
        self._check_params()
        self._clear()
        blocks = is_dask_array(X) or is_dask_array(y)  # read block by block; otherwise checked once, here
        if blocks:
            if y is None:
                raise ValueError(f"{type(self).__name__} requires y to be passed, but the target y is None.")
            if is_dask_array(y):
                import dask.array as da

                classes = da.unique(y).compute()  # the labels are not all brought into memory
            else:
                classes = np.unique(column_or_1d(y, warn=True))
            _check_targets(classes, "y", distinct=True)
        else:
            X = validate_data(self, X, reset=True)
            y = self._check_y(X, y)
            classes = np.unique(y)
        try:
            self._start(self._check_classes(classes))
            if blocks:
                self._stream(X, y, first=True)
            else:
                self._n_rows = X.shape[0]
                self._learn(X, self._encode(y))
            if self.coef_ is None and not self._kernel_model():
                raise ValueError(f"{type(self).__name__} needs at least {self._min_map_rows} rows to fit its "
                                 f"feature map; got n_samples={self._n_rows}.")
        except BaseException:
            self._clear()
            raise
        if not self._frozen:
            self._fitted()
        return self

    @fit_context(prefer_skip_nested_validation=True)
    def partial_fit(self, X, y, classes=None):
        """Learn from one more chunk of the stream.

        The first call needs ``classes``. Until ``prefix`` rows have been seen (IK,
        RandLocal) the feature map is refitted on all rows seen so far and they are
        replayed, so the model always equals ``fit`` on the concatenated chunks.

        Parameters
        ----------
        X : array-like or dask array of shape (n_samples, n_features)
            The next rows of the stream.
        y : array-like or dask array of shape (n_samples,)
            Their labels, each one of ``classes``.
        classes : array-like of shape (n_classes,), default=None
            Every class of the whole stream; required on the first call, and if
            given later it must be the same.

        Returns
        -------
        self : object
        """
        first = not hasattr(self, "classes_")
        if first:
            if classes is None:
                raise ValueError("classes must be passed on the first call to partial_fit.")
            self._check_params()
            self._clear()
            try:
                classes = unique_labels(classes)
            except (TypeError, ValueError) as exc:
                raise ValueError(f"Invalid classes: {exc}") from None
            _check_targets(classes, "classes", distinct=True)
            try:
                self._start(self._check_classes(classes))
                self._stream(X, y, first=True)
            except BaseException:
                self._clear()
                raise
            return self
        if classes is not None and not np.array_equal(self.classes_, unique_labels(classes)):
            raise ValueError(f"classes={classes!r} is not the same as on the first call to partial_fit, "
                             f"was: {self.classes_!r}.")
        self._stream(X, y, first=False)
        return self

    def decision_function(self, X):
        """Scores w . z(x): shape (n_samples,) for two classes (> 0 means ``classes_[1]``), else (n_samples, n_classes).

        Parameters
        ----------
        X : array-like or dask array of shape (n_samples, n_features)

        Returns
        -------
        scores : ndarray (or dask array) of shape (n_samples,) or (n_samples, n_classes)
        """
        self._check_ready()
        if is_dask_array(X):
            X = self._dask_rows(X)
            if len(self.classes_) == 2:
                return X.map_blocks(self.decision_function, drop_axis=1, dtype=np.float64,
                                    meta=np.empty((0,), dtype=np.float64))
            return X.map_blocks(self.decision_function, chunks=(X.chunks[0], (len(self.classes_),)),
                                dtype=np.float64, meta=np.empty((0, 0), dtype=np.float64))
        X = validate_data(self, X, reset=False)
        scores = np.empty((X.shape[0], self._n_rows_w()))
        step = self._chunk_rows()
        for lo in range(0, X.shape[0], step):
            scores[lo:lo + step] = self._scores(X[lo:lo + step])
        return scores[:, 0] if scores.shape[1] == 1 else scores

    def predict(self, X):
        """The predicted class of each row (two classes: ``classes_[1]`` where the score is > 0).

        Parameters
        ----------
        X : array-like or dask array of shape (n_samples, n_features)

        Returns
        -------
        y : ndarray (or dask array) of shape (n_samples,)
        """
        self._check_ready()
        if is_dask_array(X):
            return self._dask_rows(X).map_blocks(self.predict, drop_axis=1, dtype=self.classes_.dtype,
                                                 meta=np.empty((0,), dtype=self.classes_.dtype))
        scores = self.decision_function(X)
        index = (scores > 0).astype(np.intp) if scores.ndim == 1 else scores.argmax(axis=1)
        return self.classes_[index]

    @property
    def mistakes_(self) -> np.ndarray:
        """Whether each example of the last pass was misclassified before it was learned (read-only)."""
        check_is_fitted(self, "classes_")
        view = self._mistakes[:self._n_seen]
        view.flags.writeable = False
        return view

    @property
    def mistake_rate_(self) -> float:
        """Progressive mistake rate of the last pass: ``mistakes_.mean()`` (NaN before any row)."""
        check_is_fitted(self, "classes_")
        return self._n_mistakes / self._n_seen if self._n_seen else float("nan")

    # ------------------------------------------------------------------ state
    def _check_params(self) -> None:
        """Checks across parameters (each one alone is checked by ``_parameter_constraints``)."""

    def _clear(self) -> None:
        params = self.get_params(deep=False)
        for name in list(self.__dict__):
            if name not in params and (name in self._STATE or (name.endswith("_") and not name.startswith("__"))):
                del self.__dict__[name]

    def _check_classes(self, classes) -> np.ndarray:
        classes = np.asarray(classes)
        if classes.size < 2:
            shown = f": {classes[0]!s}" if classes.size else ""
            raise ValueError(f"{type(self).__name__} needs samples of at least 2 classes in the data, but y "
                             f"contains only one class{shown}.")
        return classes

    def _start(self, classes) -> None:
        self.classes_ = classes
        self._mistakes = np.zeros(1024, dtype=bool)
        self._n_seen = 0  # examples of the pass learned (mistakes_ length)
        self._n_mistakes = 0  # mistakes among them (mistake_rate_ in constant time, after every chunk)
        self._n_rows = 0  # rows received since the pass began
        self._buffer = None  # (X, codes) of the rows seen while the map is not frozen
        self._frozen = False
        self.coef_ = None
        self.feature_map_ = None

    def _n_rows_w(self) -> int:
        return 1 if len(self.classes_) == 2 else len(self.classes_)

    def _kernel_model(self) -> bool:
        return False

    def _fitted(self) -> None:
        """Called at the end of ``fit`` when the stream was shorter than the prefix."""

    def _check_ready(self) -> None:
        check_is_fitted(self, "classes_")
        if self.coef_ is None and not self._kernel_model():
            raise NotFittedError(f"{type(self).__name__} has seen {self._n_rows} row(s); its feature map needs at "
                                 f"least {self._min_map_rows}. Call partial_fit with more rows first.")

    @staticmethod
    def _dask_rows(X):
        if X.ndim != 2:
            raise ValueError(f"X must be 2-D (n_samples, n_features); got a Dask array of shape {X.shape}.")
        return X.rechunk({1: -1}) if X.numblocks[1] > 1 else X

    def _check_y(self, X, y) -> np.ndarray:
        if y is None:
            raise ValueError(f"{type(self).__name__} requires y to be passed, but the target y is None.")
        try:
            y = column_or_1d(y, warn=True)
        except (TypeError, ValueError) as exc:
            raise ValueError(f"y must be a 1-D array of labels, one per row of X: {exc}") from None
        if y.shape[0] != X.shape[0]:
            raise ValueError(f"X has {X.shape[0]} rows but y has {y.shape[0]} labels; y needs one label per row.")
        _check_targets(y, "y")
        return y

    def _encode(self, y) -> np.ndarray:
        classes = self.classes_
        try:
            codes = np.searchsorted(classes, y)
        except TypeError:
            raise ValueError(f"y has labels of another type than the classes {list(classes)!r}.") from None
        codes = np.minimum(codes, classes.size - 1)
        unknown = classes[codes] != y
        if np.any(unknown):
            shown = ", ".join(repr(v) for v in np.unique(np.asarray(y)[unknown])[:5])
            raise ValueError(f"y has labels that are not among the classes {list(classes)!r}: {shown}.")
        return codes.astype(np.int64)

    def _stream(self, X, y, first: bool) -> None:
        for Xb, yb in _row_blocks(X, y):
            Xb = validate_data(self, Xb, reset=first)
            codes = self._encode(self._check_y(Xb, yb))
            first = False
            self._n_rows += Xb.shape[0]
            self._learn(Xb, codes)

    def _claim(self, n: int) -> np.ndarray:
        """The next ``n`` slots of the pass's mistake record."""
        need = self._n_seen + n
        if need > self._mistakes.size:
            grown = np.zeros(max(need, 2 * self._mistakes.size), dtype=bool)
            grown[:self._n_seen] = self._mistakes[:self._n_seen]
            self._mistakes = grown
        out = self._mistakes[self._n_seen:need]
        self._n_seen = need
        return out

    # ------------------------------------------------------------------ learning
    def _map_rows(self) -> int:
        return 1

    def _fit_map(self, X) -> int:  # pragma: no cover - every subclass overrides it
        raise NotImplementedError

    def _transform(self, X):  # pragma: no cover - every subclass overrides it
        raise NotImplementedError

    def _chunk_rows(self) -> int:
        width = self.coef_.shape[1] if self.coef_ is not None else 1
        return int(max(1, min(_MAX_CHUNK, _CHUNK_BYTES // (8 * max(width, 1)))))

    def _learn(self, X, codes) -> None:
        if not self._frozen:
            if self._buffer is not None:
                X = np.concatenate([self._buffer[0], X])
                codes = np.concatenate([self._buffer[1], codes])
            need = self._map_rows()
            if X.shape[0] >= need:
                self._buffer, self._frozen = None, True
                width = self._map_once(X[:need])
            else:  # a provisional map on every row seen so far; refitted while the prefix fills
                self._buffer = (X if self._buffer is not None else X.copy(), codes)
                self._n_seen = self._n_mistakes = 0
                if X.shape[0] < self._min_map_rows:
                    self.coef_ = self.feature_map_ = None
                    return
                width = self._map_once(X)
            self.coef_ = np.zeros((self._n_rows_w(), width))
            self._n_seen = self._n_mistakes = 0
        out = self._claim(X.shape[0])
        self._ogd(X, codes, out)
        self._n_mistakes += int(np.count_nonzero(out))

    def _ogd(self, X, codes, out) -> None:
        eta = float(self.eta)
        step = self._chunk_rows()
        for lo in range(0, X.shape[0], step):
            hi = min(X.shape[0], lo + step)
            Z = self._mapped(X[lo:hi])
            if sp.issparse(Z):
                Z = sp.csr_matrix(Z)
                ogd_sparse(np.asarray(Z.data, dtype=np.float64), Z.indices, Z.indptr, codes[lo:hi], self.coef_,
                           eta, out[lo:hi])
            else:
                ogd_dense(Z, codes[lo:hi], self.coef_, eta, out[lo:hi])
            if not np.isfinite(self.coef_).all():
                raise ValueError(f"eta={self.eta!r} is so large that the weights overflow; use a smaller eta "
                                 "(0.2 suits features of unit length).")

    def _scores(self, X) -> np.ndarray:
        Z = self._transform(X)
        out = np.empty((X.shape[0], self.coef_.shape[0]))
        if sp.issparse(Z):
            Z = sp.csr_matrix(Z)
            sparse_scores(np.asarray(Z.data, dtype=np.float64), Z.indices, Z.indptr, self.coef_, out)
        else:
            dense_scores(Z, self.coef_, out)
        return out


class FOGDClassifier(_OnlineClassifier):
    """FOGD: online gradient descent (hinge loss) on random Fourier features of the Gaussian kernel.

    Lu et al. (2016), Alg. 1 (binary) and Alg. 3 (multi-class): ``n_components``
    random features z(x) with z(x) . z(y) ~ exp(-gamma |x - y|^2), and a linear
    model on them, updated once per example. The map depends only on the number of
    features, so it is fixed by the first row.

    Parameters
    ----------
    n_components : int, default=400
        D, the number of random Fourier features.
    gamma : float, default=1/128
        Width of the Gaussian kernel exp(-gamma |x - y|^2) = exp(-|x - y|^2 / (2 sigma^2)),
        > 0: gamma = 1 / (2 sigma^2). The default is lu2016's bandwidth sigma = 8
        (§7.2.1), meant for the features as given. It suits data whose squared distances
        are in the tens (a9a's binary rows); on data scaled to [0, 1] it is nearly linear,
        and 1 / (d Var X) (scikit-learn's ``gamma="scale"``, the online lab's default) is
        a better start.
    eta : float, default=0.2
        Step size, > 0.
    random_state : int, RandomState or None, default=None
        Seed of the random frequencies.

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
        The class labels.
    n_features_in_ : int
        Number of input features.
    coef_ : ndarray of shape (1, n_map_features) or (n_classes, n_map_features)
        Weights on the feature map: one row for two classes (score > 0 means
        ``classes_[1]``), one per class otherwise. No intercept.
    feature_map_ : RandomFourierFeatures
        The fitted, frozen feature map.
    mistakes_ : ndarray of shape (n_seen,), bool
        For each example of the last pass (since ``fit``, or the first
        ``partial_fit``), in stream order, whether it was misclassified before
        its label was used. ``np.cumsum(mistakes_) / np.arange(1, n_seen + 1)``
        is the running mistake rate.
    mistake_rate_ : float
        ``mistakes_.mean()``: the progressive mistake rate of the last pass.

    See Also
    --------
    NOGDClassifier, IKOGDClassifier, RandLocalOGDClassifier

    Examples
    --------
    >>> import numpy as np
    >>> from ikviz.learn import FOGDClassifier
    >>> rng = np.random.default_rng(0)
    >>> X = rng.uniform(-1, 1, size=(3000, 2))
    >>> y = (X[:, 0] * X[:, 1] > 0).astype(int)
    >>> clf = FOGDClassifier(gamma=4.0, random_state=0).fit(X, y)
    >>> clf.coef_.shape
    (1, 400)
    >>> bool(clf.mistake_rate_ < 0.15)
    True
    >>> clf.predict([[0.5, 0.5], [0.5, -0.5]])
    array([1, 0])
    """

    _parameter_constraints: dict = {
        **_OnlineClassifier._parameter_constraints,
        "n_components": [Interval(Integral, 1, None, closed="left")],
        "gamma": [Interval(Real, 0, np.inf, closed="neither")],
        "random_state": ["random_state"],
    }
    _STATE = _OnlineClassifier._STATE + ("_weights", "_offset", "_centre")

    def __init__(self, n_components=400, gamma=_LU2016_GAMMA, eta=0.2, random_state=None):
        self.n_components = n_components
        self.gamma = gamma
        self.eta = eta
        self.random_state = random_state

    def _fit_map(self, X) -> int:
        rff = RandomFourierFeatures("gaussian", gamma=float(self.gamma), n_components=int(self.n_components),
                                    random_state=self.random_state).fit(X)
        self.feature_map_ = rff
        self._weights = np.ascontiguousarray(rff.sampler_.random_weights_, dtype=np.float64)
        self._offset = np.ascontiguousarray(rff.sampler_.random_offset_, dtype=np.float64)
        self._centre = rff.centre_
        return int(self.n_components)

    def _transform(self, X) -> np.ndarray:
        D = self._weights.shape[1]
        out = np.empty((X.shape[0], D))
        with np.errstate(invalid="ignore", over="ignore"):
            fourier_map(X - self._centre, self._weights, self._offset, math.sqrt(2.0 / D), out)
        if not np.isfinite(out).all():
            raise ValueError("X has values so large that their projections on the random frequencies overflow; "
                             "rescale X (or lower gamma).")
        return out


class NOGDClassifier(_OnlineClassifier):
    """NOGD: kernel OGD (Gaussian) until ``budget`` support vectors, then OGD on their rank-k Nyström map.

    Lu et al. (2016), Alg. 2 (binary) and Alg. 4 (multi-class). Every example with a
    non-zero hinge loss joins the support set until it holds ``budget`` rows; then the
    rank-``rank`` Nyström map of the support set is built, the linear weights are
    initialised from the kernel model, and OGD continues on the map. Deterministic
    given the stream order.

    Parameters
    ----------
    budget : int, default=100
        B, the number of support vectors before the switch to the Nyström map
        (a switch with more than 10,000 is refused: its eigendecomposition
        grows with the cube of B).
    rank : int or None, default=None
        k <= B, the eigenpairs kept; ``None`` uses round(0.2 B), the paper's setting
        (k = 0.2 B, §7.2.1).
    gamma : float, default=1/128
        Width of the Gaussian kernel exp(-gamma |x - y|^2) = exp(-|x - y|^2 / (2 sigma^2)),
        > 0: gamma = 1 / (2 sigma^2). The default is lu2016's bandwidth sigma = 8
        (§7.2.1), meant for the features as given. It suits data whose squared distances
        are in the tens (a9a's binary rows); on data scaled to [0, 1] it is nearly linear,
        and 1 / (d Var X) (scikit-learn's ``gamma="scale"``, the online lab's default) is
        a better start.
    eta : float, default=0.2
        Step size, > 0.

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
        The class labels.
    n_features_in_ : int
        Number of input features.
    support_vectors_ : ndarray of shape (n_support, n_features_in_)
        The support set (the kernel model; frozen once it reaches ``budget``).
    dual_coef_ : ndarray of shape (n_support, 1) or (n_support, n_classes)
        The kernel model's coefficients.
    coef_ : ndarray of shape (1, k) or (n_classes, k), or None
        Weights on the Nyström map; ``None`` while the budget is not filled and the
        kernel model predicts.
    feature_map_ : LowRankNystroem or None
        The Nyström map of the support set, once the budget is filled.
    mistakes_ : ndarray of shape (n_seen,), bool
        For each example of the last pass, whether it was misclassified before its
        label was used. ``np.cumsum(mistakes_) / np.arange(1, n_seen + 1)`` is the
        running mistake rate.
    mistake_rate_ : float
        ``mistakes_.mean()``: the progressive mistake rate of the last pass.

    See Also
    --------
    FOGDClassifier, IKOGDClassifier, RandLocalOGDClassifier

    Examples
    --------
    >>> import numpy as np
    >>> from ikviz.learn import NOGDClassifier
    >>> rng = np.random.default_rng(0)
    >>> X = rng.uniform(-1, 1, size=(3000, 2))
    >>> y = (X[:, 0] * X[:, 1] > 0).astype(int)
    >>> clf = NOGDClassifier(budget=50, gamma=4.0).fit(X, y)
    >>> clf.support_vectors_.shape, clf.coef_.shape
    ((50, 2), (1, 10))
    >>> bool(clf.mistake_rate_ < 0.2)
    True
    """

    _parameter_constraints: dict = {
        **_OnlineClassifier._parameter_constraints,
        "budget": [Interval(Integral, 1, None, closed="left")],
        "rank": [Interval(Integral, 1, None, closed="left"), None],
        "gamma": [Interval(Real, 0, np.inf, closed="neither")],
    }
    _STATE = _OnlineClassifier._STATE + ("_support", "_alpha", "_n_sv", "_basis_t", "_components")

    def __init__(self, budget=100, rank=None, gamma=_LU2016_GAMMA, eta=0.2):
        self.budget = budget
        self.rank = rank
        self.gamma = gamma
        self.eta = eta

    @property
    def support_vectors_(self) -> np.ndarray:
        check_is_fitted(self, "classes_")
        if self._support is None:
            return np.zeros((0, self.n_features_in_))
        return self._support[:self._n_sv]

    @property
    def dual_coef_(self) -> np.ndarray:
        check_is_fitted(self, "classes_")
        return self._alpha[:self._n_sv]

    def _rank(self) -> int:
        return max(1, int(round(0.2 * self.budget))) if self.rank is None else int(self.rank)

    def _check_params(self) -> None:
        if self._rank() > self.budget:
            raise ValueError(f"rank ({self.rank}) cannot exceed the budget ({self.budget}).")

    def _kernel_model(self) -> bool:
        return True

    def _start(self, classes) -> None:
        super()._start(classes)
        self._support = None  # allocated at the first rows (their width is n_features_in_)
        self._alpha = np.zeros((0, self._n_rows_w()))
        self._n_sv = 0

    def _grow(self, d: int) -> None:
        capacity = 0 if self._support is None else self._support.shape[0]
        new = min(int(self.budget), max(64, 2 * capacity))  # the support set grows as it fills
        support, alpha = np.zeros((new, d)), np.zeros((new, self._alpha.shape[1]))
        if capacity:
            support[:capacity], alpha[:capacity] = self._support, self._alpha
        self._support, self._alpha = support, alpha

    def _learn(self, X, codes) -> None:
        out = self._claim(X.shape[0])
        lo, budget = 0, min(int(self.budget), _INT64_MAX)
        while lo < X.shape[0] and self.coef_ is None:
            if self._support is None or self._n_sv == self._support.shape[0]:
                self._grow(X.shape[1])
            used, self._n_sv = kernel_ogd_budget(X[lo:], codes[lo:], float(self.gamma), float(self.eta), budget,
                                                 self._support, self._alpha, self._n_sv, out[lo:])
            lo += used
            if self._n_sv == int(self.budget):
                self._hand_over()
        if lo < X.shape[0]:
            self._ogd(X[lo:], codes[lo:], out[lo:])
        self._n_mistakes += int(np.count_nonzero(out))

    def _hand_over(self) -> None:
        """Alg. 2: the Nyström map of the support set, weights from the kernel model's coefficients."""
        n_sv = self._n_sv
        # budget = n_sv: the basis is exactly the support vectors (fit only reorders them)
        ny = LowRankNystroem("gaussian", self.gamma, budget=n_sv, rank=min(self._rank(), n_sv), random_state=0)
        if n_sv <= _ONE_THREAD_EIGH:
            # a small eigendecomposition on one BLAS thread: with the cores busy, threads that wait on each other
            # made eigh of a 100 x 100 matrix take 0.1-0.6 s instead of 1-10 ms (measured under load)
            with threadpool_limits(limits=1, user_api="blas"):
                ny.fit(self._support[:n_sv])
        else:
            ny.fit(self._support[:n_sv])
        order = ny.basis_indices_  # keep alpha aligned with the basis order
        self.coef_ = np.ascontiguousarray(ny.weights_from_dual(self._alpha[:n_sv][order]).T)
        self.feature_map_ = ny
        self._basis_t = np.ascontiguousarray(ny.basis_.T, dtype=np.float64)
        self._components = np.ascontiguousarray(ny.components_, dtype=np.float64)

    def _transform(self, X) -> np.ndarray:
        out = np.empty((X.shape[0], self._components.shape[1]))
        gaussian_nystroem_map(X, self._basis_t, float(self.gamma), self._components, out)
        return out

    def _scores(self, X) -> np.ndarray:
        if self.coef_ is not None:
            return super()._scores(X)
        out = np.empty((X.shape[0], self._n_rows_w()))
        support = self._support[:self._n_sv] if self._n_sv else np.zeros((0, X.shape[1]))
        kernel_scores(X, support, self._alpha[:self._n_sv], float(self.gamma), out)
        return out


class _PrefixMixin:
    """The feature map is fitted on the first ``prefix`` rows of the stream."""

    def _map_rows(self) -> int:
        return int(self.prefix)


class IKOGDClassifier(_PrefixMixin, _OnlineClassifier):
    """IK + OGD: online gradient descent (hinge loss) on the Isolation Kernel feature map.

    The map (:class:`~ikviz.IsolationKernel`, entries 1/sqrt(t) so that
    z(x) . z(y) = K(x, y)) is built from the first ``prefix`` rows of the stream
    (their features only) and then frozen; a linear model on it is updated once per
    example, as in Ting et al. (2018) with Lu et al. (2016)'s OGD.

    Parameters
    ----------
    psi : int, default=64
        Points per partitioning (clipped, with a warning, to the rows the map is fitted on).
    t : int, default=100
        Number of partitionings.
    method : {"anne", "inne", "iforest"}, default="anne"
        The partitioning (see :class:`~ikviz.IsolationKernel`).
    eta : float, default=0.2
        Step size, > 0.
    prefix : int, default=1000
        Rows of the stream the map is fitted on.
    random_state : int, numpy Generator, RandomState or None, default=None
        Seed of the map. With an int, ``partial_fit`` over any chunking of a stream
        gives the same model as ``fit``.

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
        The class labels.
    n_features_in_ : int
        Number of input features.
    coef_ : ndarray of shape (1, n_map_features) or (n_classes, n_map_features)
        Weights on the feature map: one row for two classes (score > 0 means
        ``classes_[1]``), one per class otherwise. No intercept.
    feature_map_ : IsolationKernel
        The fitted, frozen feature map.
    mistakes_ : ndarray of shape (n_seen,), bool
        For each example of the last pass (since ``fit``, or the first
        ``partial_fit``), in stream order, whether it was misclassified before
        its label was used. ``np.cumsum(mistakes_) / np.arange(1, n_seen + 1)``
        is the running mistake rate.
    mistake_rate_ : float
        ``mistakes_.mean()``: the progressive mistake rate of the last pass.

    See Also
    --------
    FOGDClassifier, NOGDClassifier, RandLocalOGDClassifier

    Examples
    --------
    >>> import numpy as np
    >>> from ikviz.learn import IKOGDClassifier
    >>> rng = np.random.default_rng(0)
    >>> X = rng.uniform(-1, 1, size=(3000, 2))
    >>> y = (X[:, 0] * X[:, 1] > 0).astype(int)
    >>> clf = IKOGDClassifier(psi=16, t=50, prefix=500, random_state=0).fit(X, y)
    >>> bool(clf.mistake_rate_ < 0.15)
    True
    >>> clf.predict([[0.5, 0.5], [0.5, -0.5]])
    array([1, 0])

    The same stream in chunks, as from a Dask array's blocks, gives the same model:

    >>> stream = IKOGDClassifier(psi=16, t=50, prefix=500, random_state=0)
    >>> for lo in range(0, 3000, 400):
    ...     stream = stream.partial_fit(X[lo:lo + 400], y[lo:lo + 400], classes=[0, 1])
    >>> bool(np.array_equal(stream.coef_, clf.coef_))
    True
    """

    _parameter_constraints: dict = {
        **_OnlineClassifier._parameter_constraints,
        "psi": [Interval(Integral, 2, None, closed="left")],
        "t": [Interval(Integral, 1, None, closed="left")],
        "method": [StrOptions(set(IK_METHODS))],
        "prefix": [Interval(Integral, 2, None, closed="left")],
        "random_state": ["random_state", np.random.Generator],
    }
    _min_map_rows = 2

    def __init__(self, psi=64, t=100, method="anne", eta=0.2, prefix=1000, random_state=None):
        self.psi = psi
        self.t = t
        self.method = method
        self.eta = eta
        self.prefix = prefix
        self.random_state = random_state

    def _fit_map(self, X) -> int:
        ik = IsolationKernel(psi=int(self.psi), t=int(self.t), method=self.method, random_state=self.random_state)
        if self._frozen:
            ik.fit(X)  # warns when psi is clipped to the prefix
        else:
            with warnings.catch_warnings():  # a provisional map, refitted while the prefix fills: see fit
                warnings.filterwarnings("ignore", message="psi=", category=UserWarning)
                ik.fit(X)
        self.feature_map_ = ik
        return int(ik.t) * int(ik.psi_)

    def _fitted(self) -> None:
        if self.feature_map_ is not None and self.feature_map_.psi_ < self.psi:
            warnings.warn(f"psi={self.psi} is larger than the {self._n_rows} rows given; using "
                          f"psi={self.feature_map_.psi_}.", UserWarning, stacklevel=3)

    def _transform(self, X):
        return self.feature_map_.transform(X)

    def _chunk_rows(self) -> int:
        return _MAX_CHUNK  # sparse features: t non-zeros per row


class RandLocalOGDClassifier(_PrefixMixin, _OnlineClassifier):
    """RandLocal + OGD: online gradient descent (hinge loss) on RandLocal features (Wang et al. 2017).

    The anchor sets (:class:`~ikviz.features.RandLocal`, supervised subspaces) are
    drawn from the first ``prefix`` rows of the stream (their features only) and then
    frozen. Feature rows are scaled to unit length: raw RandLocal values are
    distances, so the step size would otherwise depend on the data's units.

    Parameters
    ----------
    n_sets : int, default=100
        Number of anchor sets (non-zero features per row), at most 10,000.
    max_anchors : int, default=1024
        Largest number of anchors per set (at least 2; capped at prefix / 2).
    epsilon : float, default=1e-4
        Floor of a feature value as a fraction of the set's mean distance, in [0, 1).
    eta : float, default=0.2
        Step size, > 0.
    prefix : int, default=1000
        Rows of the stream the anchors are drawn from (at least 4).
    random_state : int, numpy Generator, RandomState or None, default=None
        Seed of the anchor sets.

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
        The class labels.
    n_features_in_ : int
        Number of input features.
    coef_ : ndarray of shape (1, n_map_features) or (n_classes, n_map_features)
        Weights on the feature map: one row for two classes (score > 0 means
        ``classes_[1]``), one per class otherwise. No intercept.
    feature_map_ : RandLocal
        The fitted, frozen feature map.
    mistakes_ : ndarray of shape (n_seen,), bool
        For each example of the last pass (since ``fit``, or the first
        ``partial_fit``), in stream order, whether it was misclassified before
        its label was used. ``np.cumsum(mistakes_) / np.arange(1, n_seen + 1)``
        is the running mistake rate.
    mistake_rate_ : float
        ``mistakes_.mean()``: the progressive mistake rate of the last pass.

    See Also
    --------
    FOGDClassifier, NOGDClassifier, IKOGDClassifier

    Examples
    --------
    >>> import numpy as np
    >>> from ikviz.learn import RandLocalOGDClassifier
    >>> rng = np.random.default_rng(0)
    >>> X = rng.uniform(-1, 1, size=(3000, 2))
    >>> y = (X[:, 0] * X[:, 1] > 0).astype(int)
    >>> clf = RandLocalOGDClassifier(n_sets=20, prefix=500, random_state=0).fit(X, y)
    >>> bool(clf.mistake_rate_ < 0.15)
    True
    >>> clf.predict([[0.5, 0.5], [0.5, -0.5]])
    array([1, 0])
    """

    _parameter_constraints: dict = {
        **_OnlineClassifier._parameter_constraints,
        "n_sets": [Interval(Integral, 1, MAX_ANCHOR_SETS, closed="both")],
        "max_anchors": [Interval(Integral, 2, None, closed="left")],
        "epsilon": [Interval(Real, 0, 1, closed="left")],
        "prefix": [Interval(Integral, 4, None, closed="left")],
        "random_state": ["random_state", np.random.Generator],
    }
    _min_map_rows = 4

    def __init__(self, n_sets=100, max_anchors=1024, epsilon=1e-4, eta=0.2, prefix=1000, random_state=None):
        self.n_sets = n_sets
        self.max_anchors = max_anchors
        self.epsilon = epsilon
        self.eta = eta
        self.prefix = prefix
        self.random_state = random_state

    def _fit_map(self, X) -> int:
        rl = RandLocal(n_sets=int(self.n_sets), epsilon=float(self.epsilon), max_anchors=int(self.max_anchors),
                       min_anchors=min(32, int(self.max_anchors)), subspace="supervised",
                       random_state=self.random_state).fit(X)
        self.feature_map_ = rl
        return int(rl.n_anchors_.sum())

    def _transform(self, X):
        return normalize(self.feature_map_.transform(X))

    def _chunk_rows(self) -> int:
        return _MAX_CHUNK  # sparse features: n_sets non-zeros per row
