"""SVM helpers: precomputed-kernel SVC for RBF, Laplacian L_psi and IK; linear SVM on the IK feature map.

Every model is a scikit-learn ``Pipeline`` so cross-validation refits the kernel on
each training fold (IK is data dependent: its partitionings must come from the
training rows only).
"""

from __future__ import annotations

import math
import time
import warnings
from dataclasses import dataclass
from numbers import Integral, Real

import numpy as np
from sklearn.base import BaseEstimator, TransformerMixin
from sklearn.model_selection import StratifiedKFold, cross_val_score
from sklearn.pipeline import Pipeline
from sklearn.svm import SVC, LinearSVC
from sklearn.utils.validation import check_is_fitted

from .._sklearn import Interval, StrOptions, fit_context
from .._validation import check_matrix, validate_data
from ..kernels import IsolationKernel, laplacian_psi, linear, rbf
from ..kernels.isolation import METHODS as IK_METHODS

#: Kernels of the SVM lab: precomputed SVC for the first four, LinearSVC on Phi for the last.
KERNELS = ("rbf", "laplacian", "ik", "linear", "ik-linear")
LABELS = {"rbf": "SVC, Gaussian (RBF)", "laplacian": "SVC, Laplacian L_ψ", "ik": "SVC, Isolation Kernel",
          "linear": "SVC, linear kernel", "ik-linear": "linear SVM on IK features"}
#: The parameter each kernel tunes (None: nothing to tune besides C).
TUNED = {"rbf": "gamma", "laplacian": "psi", "ik": "psi", "linear": None, "ik-linear": "psi"}
GRIDS = ("ting2018", "ting2021")


class KernelGram(TransformerMixin, BaseEstimator):
    """Turns rows into kernel values against the rows seen by ``fit``: K(X, X_fit).

    With ``SVC(kernel="precomputed")`` after it, ``fit`` trains on K(X_train, X_train)
    and ``predict`` uses K(X_test, X_train), so cross-validation refits the kernel
    (for IK, its partitionings) on each training fold.

    Parameters
    ----------
    kernel : {"rbf", "laplacian", "ik", "linear"}, default="rbf"
        ``"rbf"``: exp(-gamma |x - y|^2); ``"laplacian"``: the psi form L_psi of
        Ting et al. (2018), psi ** (-|x - y|_1 / d); ``"ik"``: the Isolation Kernel
        (psi, t, ik_method) built on the fitted rows; ``"linear"``: x . y.
    gamma : float, default=1.0
        ``"rbf"`` only, > 0.
    psi : int, default=16
        ``"laplacian"`` and ``"ik"``, at least 2.
    t : int, default=100
        ``"ik"`` only: number of partitionings.
    ik_method : {"anne", "inne", "iforest"}, default="iforest"
        ``"ik"`` only: the partitioning.
    random_state : int, numpy Generator, RandomState or None, default=None
        ``"ik"`` only: seed of the partitionings.

    Attributes
    ----------
    X_fit_ : ndarray of shape (n_fit, n_features_in_)
        The rows given to ``fit``.
    n_features_in_ : int
        Number of input features.
    ik_ : IsolationKernel
        ``"ik"`` only: the kernel fitted on ``X_fit_``.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.pipeline import make_pipeline
    >>> from sklearn.svm import SVC
    >>> from ikviz.learn import KernelGram
    >>> rng = np.random.default_rng(0)
    >>> X = rng.uniform(-1, 1, size=(200, 2))
    >>> y = (X[:, 0] * X[:, 1] > 0).astype(int)
    >>> KernelGram("rbf", gamma=2.0).fit(X).transform(X[:3]).shape
    (3, 200)
    >>> model = make_pipeline(KernelGram("ik", psi=16, random_state=0), SVC(kernel="precomputed"))
    >>> model.fit(X, y).predict([[0.5, 0.5], [0.5, -0.5]])
    array([1, 0])
    """

    _parameter_constraints: dict = {
        "kernel": [StrOptions({"rbf", "laplacian", "ik", "linear"})],
        "gamma": [Interval(Real, 0, np.inf, closed="neither")],
        "psi": [Interval(Integral, 2, None, closed="left")],
        "t": [Interval(Integral, 1, None, closed="left")],
        "ik_method": [StrOptions(set(IK_METHODS))],
        "random_state": ["random_state", np.random.Generator],
    }

    def __init__(self, kernel="rbf", gamma=1.0, psi=16, t=100, ik_method="iforest", random_state=None):
        self.kernel = kernel
        self.gamma = gamma
        self.psi = psi
        self.t = t
        self.ik_method = ik_method
        self.random_state = random_state

    @fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y=None):
        """Remember ``X`` (and, for IK, build the partitionings from it).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : ignored

        Returns
        -------
        self : KernelGram
        """
        for stale in ("ik_", "index_"):
            self.__dict__.pop(stale, None)
        self.X_fit_ = validate_data(self, X, reset=True)
        if self.kernel == "ik":
            self.ik_ = IsolationKernel(psi=self.psi, t=self.t, method=self.ik_method,
                                       random_state=self.random_state).fit(self.X_fit_)
            self.index_ = self.ik_.index(self.X_fit_)
        return self

    def transform(self, X):
        """Kernel matrix between ``X`` and the fitted rows.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features_in_)

        Returns
        -------
        K : ndarray of shape (n_samples, n_fit)
        """
        check_is_fitted(self, "X_fit_")
        X = validate_data(self, X, reset=False)
        if self.kernel == "rbf":
            return rbf(X, self.X_fit_, gamma=float(self.gamma))
        if self.kernel == "laplacian":
            return laplacian_psi(X, self.X_fit_, psi=float(self.psi))
        if self.kernel == "linear":
            return linear(X, self.X_fit_)
        return self.index_.similarity(self.ik_.cells(X))


def make_svm(kernel: str, C: float = 1.0, gamma: float = 1.0, psi: int = 16, t: int = 100,
             ik_method: str = "iforest", seed=0) -> Pipeline:
    """An unfitted SVM pipeline for ``kernel`` (see :data:`KERNELS`)."""
    if kernel not in KERNELS:
        raise ValueError(f"kernel must be one of {KERNELS}; got {kernel!r}.")
    if isinstance(C, bool) or not (isinstance(C, Real) and math.isfinite(C) and C > 0):
        raise ValueError(f"C must be a positive number; got {C!r}.")
    if kernel == "ik-linear":
        # Phi . Phi' = K (entries 1/sqrt(t)): LinearSVC with the same C solves SVC's problem on K
        return Pipeline([("map", IsolationKernel(psi=psi, t=t, method=ik_method, random_state=seed)),
                         ("svm", LinearSVC(C=float(C), dual=True, max_iter=10000, random_state=0))])
    return Pipeline([("map", KernelGram(kernel, gamma=gamma, psi=psi, t=t, ik_method=ik_method,
                                        random_state=seed)),
                     ("svm", SVC(kernel="precomputed", C=float(C)))])


def param_grid(kernel: str, grid: str = "ting2018", n_train: int | None = None, d: int = 2) -> list:
    """Candidate values of the tuned parameter of ``kernel`` (empty list: nothing to tune).

    ``"ting2018"`` (Table 4): gamma in 2^-10..2^5, psi in 2^2..2^12. ``"ting2021"``
    (App. B, Table 8): sigma = d * mu with mu in 2^-5..2^5, i.e. gamma = 1 / (2 sigma^2),
    and the same psi range. psi values above ``n_train`` (the rows a fold trains on) are dropped.
    """
    if grid not in GRIDS:
        raise ValueError(f"grid must be one of {GRIDS}; got {grid!r}.")
    name = TUNED[kernel] if kernel in TUNED else None
    if kernel not in KERNELS:
        raise ValueError(f"kernel must be one of {KERNELS}; got {kernel!r}.")
    if name is None:
        return []
    if name == "gamma":
        if grid == "ting2018":
            return [2.0 ** m for m in range(-10, 6)]
        return [1.0 / (2.0 * (d * 2.0 ** m) ** 2) for m in range(-5, 6)]
    values = [2 ** m for m in range(2, 13)]
    return [v for v in values if n_train is None or v <= n_train]


def cv_accuracy(kernel: str, value, X, y, C=1.0, t=100, ik_method="iforest", folds=5, seed=0) -> float:
    """Mean 5-fold (stratified, seeded) CV accuracy of ``kernel`` with its tuned parameter set to ``value``."""
    X = check_matrix(X)
    kw = {TUNED[kernel]: value} if TUNED.get(kernel) else {}
    model = make_svm(kernel, C=C, t=t, ik_method=ik_method, seed=seed, **kw)
    cv = StratifiedKFold(n_splits=folds, shuffle=True, random_state=seed)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # LinearSVC convergence chatter on tiny folds
        return float(cross_val_score(model, X, y, cv=cv).mean())


@dataclass(frozen=True)
class Evaluation:
    """Test-set performance of one fitted SVM (returned by :func:`fit_evaluate`).

    Examples
    --------
    >>> import numpy as np
    >>> from ikviz.learn.svm import fit_evaluate
    >>> rng = np.random.default_rng(0)
    >>> X = rng.uniform(-1, 1, size=(300, 2))
    >>> y = (X[:, 0] * X[:, 1] > 0).astype(int)
    >>> ev, model = fit_evaluate("ik-linear", {"psi": 16}, X[:200], y[:200], X[200:], y[200:], t=50)
    >>> ev.kernel, bool(ev.accuracy > 0.8), ev.train_seconds > 0
    ('ik-linear', True, True)
    """

    kernel: str
    params: dict
    accuracy: float
    fpr: float  # negatives (class 0) called positive; NaN unless binary
    fnr: float  # positives (class 1) called negative; NaN unless binary
    train_seconds: float
    test_seconds: float


def rates(y_true, y_pred) -> tuple[float, float, float]:
    """(accuracy, false-positive rate, false-negative rate); the rates are NaN unless labels are {0, 1}."""
    y_true, y_pred = np.asarray(y_true), np.asarray(y_pred)
    acc = float(np.mean(y_true == y_pred))
    if not set(np.unique(y_true)) <= {0, 1}:
        return acc, float("nan"), float("nan")
    neg, pos = y_true == 0, y_true == 1
    fpr = float(np.mean(y_pred[neg] == 1)) if neg.any() else float("nan")
    fnr = float(np.mean(y_pred[pos] == 0)) if pos.any() else float("nan")
    return acc, fpr, fnr


def fit_evaluate(kernel: str, params: dict, X_train, y_train, X_test, y_test, C=1.0, t=100,
                 ik_method="iforest", seed=0) -> tuple[Evaluation, Pipeline]:
    """Fit ``kernel``'s SVM on the training rows, time it, and score it on the test rows."""
    model = make_svm(kernel, C=C, t=t, ik_method=ik_method, seed=seed, **params)
    t0 = time.perf_counter()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        model.fit(X_train, y_train)
    t1 = time.perf_counter()
    pred = model.predict(X_test)
    t2 = time.perf_counter()
    acc, fpr, fnr = rates(y_test, pred)
    return Evaluation(kernel, dict(params), acc, fpr, fnr, t1 - t0, t2 - t1), model
