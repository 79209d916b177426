"""The kernel online learners lu2016 compares FOGD and NOGD with, as scikit-learn classifiers.

Each learns in one pass with the Gaussian kernel K(x, x') = exp(-gamma |x - x'|^2) and
keeps its model as support vectors and coefficients (lu2016 §2, Table 1; §7.1-7.3):

* no budget: :class:`KernelPerceptronClassifier`, :class:`KernelOGDClassifier`;
* removal: :class:`RBPClassifier` (random), :class:`ForgetronClassifier` (oldest, with
  shrinking), :class:`BPASClassifier` (the one whose loss is least), :class:`BOGDClassifier`
  (random, rescaled);
* projection: :class:`ProjectronClassifier`, :class:`ProjectronPPClassifier`;
* Pegasos with a budget: :class:`BSGDClassifier` (``maintenance="remove"`` or ``"merge"``).

Like :class:`~ikviz.learn.FOGDClassifier` they predict every example before using its
label (``mistakes_``, ``mistake_rate_``), learn two classes with one coefficient column
(y = +-1) and m classes with m columns (the true class up, the best wrong one down), and
``partial_fit`` over any chunking of a stream gives the model of ``fit`` on it. The
updates are one numba pass (:func:`ikviz.learn._budget.kernel_pass`); a budgeted learner
costs O(B d) per example, an unbudgeted one O(|S| d) with |S| growing with the stream
(bounded by ``max_support``).
"""

from __future__ import annotations

from numbers import Integral, Real

import numpy as np
from sklearn.utils import check_random_state
from sklearn.utils.validation import check_is_fitted

from .._sklearn import Interval, StrOptions
from ._budget import (BOGD, BPAS, BSGD_MERGE, BSGD_REMOVE, FORGETRON, OGD, PERCEPTRON, PROJECTRON, PROJECTRON_PP,
                      RBP, kernel_pass)
from ._ogd import kernel_scores
from .online import _LU2016_GAMMA, _OnlineClassifier

__all__ = ["KernelPerceptronClassifier", "KernelOGDClassifier", "RBPClassifier", "ForgetronClassifier",
           "ProjectronClassifier", "ProjectronPPClassifier", "BPASClassifier", "BOGDClassifier", "BSGDClassifier"]

#: largest budget (support vectors) a budgeted learner accepts: each example costs O(B d)
MAX_BUDGET = 20_000
#: largest budget of the Projectrons, which keep a B x B inverse kernel matrix (O(B^2) per update)
MAX_PROJECTRON_BUDGET = 4_000

_COMMON_ATTRIBUTES = """
    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
        The class labels.
    n_features_in_ : int
        Number of input features.
    feature_names_in_ : ndarray of shape (n_features_in_,)
        Names of the features, when ``X`` had string column names.
    support_vectors_ : ndarray of shape (n_support, n_features_in_)
        The support set.
    dual_coef_ : ndarray of shape (n_support, 1) or (n_support, n_classes)
        Its coefficients: the score of x is ``sum_s dual_coef_[s] K(support_vectors_[s], x)``.
    mistakes_ : ndarray of shape (n_seen,), bool
        For each example of the last pass, whether it was misclassified before its label
        was used; ``np.cumsum(mistakes_) / np.arange(1, n_seen + 1)`` is the running
        mistake rate.
    mistake_rate_ : float
        ``mistakes_.mean()``: the progressive mistake rate of the last pass.
"""

_GAMMA_DOC = """gamma : float, default=1/128
        Width of the Gaussian kernel ``exp(-gamma |x - y|^2)``, > 0; the default is lu2016's
        bandwidth sigma = 8 (gamma = 1 / (2 sigma^2))."""
_BUDGET_DOC = """budget : int, default=100
        B, the most support vectors kept (lu2016: 100 for binary, 100-200 multi-class)."""


def _doc(cls):
    cls.__doc__ = cls.__doc__.replace("{gamma}", _GAMMA_DOC).replace("{budget}", _BUDGET_DOC).replace(
        "{attributes}", _COMMON_ATTRIBUTES)
    return cls


class _KernelOnline(_OnlineClassifier):
    """Support vectors and coefficients updated by :func:`ikviz.learn._budget.kernel_pass`."""

    _algo = -1
    _parameter_constraints: dict = {"gamma": [Interval(Real, 0, np.inf, closed="neither")]}
    _STATE = _OnlineClassifier._STATE + ("_support", "_alpha", "_age", "_lab", "_kinv", "_n_sv", "_state",
                                         "_rng")
    #: scikit-learn's check of training accuracy (> 0.83 after one fit) is not for learners whose budget
    #: forgets at random: one pass of RBP, Forgetron or BSGD-R with a small budget falls short of it
    _poor_score = False

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.classifier_tags.poor_score = self._poor_score
        return tags

    # ------------------------------------------------------------------ model
    @property
    def support_vectors_(self) -> np.ndarray:
        check_is_fitted(self, "classes_")
        if self._support is None:
            return np.zeros((0, getattr(self, "n_features_in_", 0)))
        return self._support[:self._n_sv]

    @property
    def dual_coef_(self) -> np.ndarray:
        check_is_fitted(self, "classes_")
        return self._alpha[:self._n_sv]

    def _kernel_model(self) -> bool:
        return True

    def _budget(self) -> int | None:
        return int(self.budget)

    def _capacity(self) -> int | None:
        budget = self._budget()
        return None if budget is None else budget + 1

    def _step_size(self) -> float:
        return float(getattr(self, "eta", 1.0))

    def _lam(self) -> float:
        return float(getattr(self, "lam", 0.0))

    def _start(self, classes) -> None:
        super()._start(classes)
        self._support = None
        self._alpha = np.zeros((0, self._n_rows_w()))
        self._age = self._lab = self._kinv = None
        self._n_sv = 0
        self._state = np.zeros(4)
        self._rng = check_random_state(getattr(self, "random_state", None))

    def _grow(self, d: int) -> None:
        old = 0 if self._support is None else self._support.shape[0]
        capacity = self._capacity()
        if capacity is None:  # no budget: the support set doubles as it fills
            limit = int(self.max_support)
            if old >= limit:
                raise ValueError(f"{type(self).__name__} has {old:,} support vectors, max_support={limit:,}: "
                                 "an unbudgeted learner's cost grows with the stream (O(|S| d) per example); "
                                 "stream fewer rows, raise max_support, or use a budgeted learner (RBP, BOGD...).")
            capacity = min(limit, max(64, 2 * old))
        support, alpha = np.zeros((capacity, d)), np.zeros((capacity, self._alpha.shape[1]))
        age, lab = np.zeros(capacity, dtype=np.int64), np.zeros(capacity, dtype=np.int64)
        if old:
            support[:old], alpha[:old] = self._support, self._alpha[:old]
            age[:old], lab[:old] = self._age, self._lab
        self._support, self._alpha, self._age, self._lab = support, alpha, age, lab
        if self._algo in (PROJECTRON, PROJECTRON_PP):
            self._kinv = np.zeros((capacity, capacity))
        elif self._kinv is None:
            self._kinv = np.zeros((1, 1))

    def _learn(self, X, codes) -> None:
        n = X.shape[0]
        out = self._claim(n)
        u = self._rng.random_sample(n)  # one draw per example: the same sequence whatever the chunking
        budget = self._budget()
        budget = np.iinfo(np.int64).max if budget is None else budget
        lo = 0
        while lo < n:
            if self._support is None or self._n_sv >= self._support.shape[0]:
                self._grow(X.shape[1])
            used, self._n_sv = kernel_pass(
                X[lo:], codes[lo:], u[lo:], self._algo, float(self.gamma), self._step_size(), self._lam(), budget,
                self._support, self._alpha, self._age, self._lab, self._kinv, self._n_sv, self._state, out[lo:])
            lo += used
        if not np.isfinite(self._alpha[:self._n_sv]).all():
            raise ValueError(f"{type(self).__name__}'s coefficients overflow; use a smaller step size.")
        self._n_mistakes += int(np.count_nonzero(out))

    def _scores(self, X) -> np.ndarray:
        out = np.empty((X.shape[0], self._n_rows_w()))
        support = self._support[:self._n_sv] if self._n_sv else np.zeros((0, X.shape[1]))
        kernel_scores(X, support, np.ascontiguousarray(self._alpha[:self._n_sv]), float(self.gamma), out)
        return out


@_doc
class KernelPerceptronClassifier(_KernelOnline):
    """Kernel Perceptron without a budget (Freund & Schapire 1999; lu2016's "Perceptron").

    On a mistake, the example joins the support set with coefficient y (two classes), or
    +1 for its class and -1 for the predicted one (more classes).

    Parameters
    ----------
    {gamma}
    max_support : int, default=100000
        Guard: a ValueError when the support set would grow past it (each example costs
        O(|S| d)).
    {attributes}
    See Also
    --------
    KernelOGDClassifier, RBPClassifier

    Examples
    --------
    >>> import numpy as np
    >>> from ikviz.learn import KernelPerceptronClassifier
    >>> X = np.array([[0.0], [1.0], [0.1], [0.9], [0.2], [0.8]])
    >>> y = np.array([0, 1, 0, 1, 0, 1])
    >>> clf = KernelPerceptronClassifier(gamma=5.0).fit(X, y)

    By hand: x = 0 scores 0, predicted class 0 (right); x = 1 scores 0 too (wrong: joins
    with +1); x = 0.1 scores exp(-5 * 0.81) > 0 (wrong: joins with -1); the rest are right.

    >>> clf.mistakes_.astype(int), clf.support_vectors_.ravel(), clf.dual_coef_.ravel()
    (array([0, 1, 1, 0, 0, 0]), array([1. , 0.1]), array([ 1., -1.]))
    >>> clf.predict([[0.05], [0.95]])
    array([0, 1])
    """

    _algo = PERCEPTRON
    _parameter_constraints: dict = {**_KernelOnline._parameter_constraints,
                                    "max_support": [Interval(Integral, 1, None, closed="left")]}

    def __init__(self, gamma=_LU2016_GAMMA, max_support=100_000):
        self.gamma = gamma
        self.max_support = max_support

    def _budget(self):
        return None


@_doc
class KernelOGDClassifier(_KernelOnline):
    """Kernel online gradient descent with the hinge loss, without a budget (Kivinen et al. 2004; lu2016's "OGD").

    Every example with a non-zero hinge loss joins the support set with coefficient
    eta y (two classes) or +eta / -eta for its class and the best wrong one.

    Parameters
    ----------
    {gamma}
    eta : float, default=0.2
        Step size, > 0.
    max_support : int, default=100000
        Guard: a ValueError when the support set would grow past it.
    {attributes}
    See Also
    --------
    KernelPerceptronClassifier, BOGDClassifier, NOGDClassifier

    Examples
    --------
    >>> import numpy as np
    >>> from ikviz.learn import KernelOGDClassifier
    >>> rng = np.random.default_rng(0)
    >>> X = rng.uniform(-1, 1, size=(1000, 2))
    >>> y = (X[:, 0] * X[:, 1] > 0).astype(int)
    >>> clf = KernelOGDClassifier(gamma=4.0, eta=0.5).fit(X, y)
    >>> bool(clf.mistake_rate_ < 0.2), clf.dual_coef_.shape[1]
    (True, 1)
    """

    _algo = OGD
    _parameter_constraints: dict = {**_KernelOnline._parameter_constraints,
                                    "eta": [Interval(Real, 0, np.inf, closed="neither")],
                                    "max_support": [Interval(Integral, 1, None, closed="left")]}

    def __init__(self, gamma=_LU2016_GAMMA, eta=0.2, max_support=100_000):
        self.gamma = gamma
        self.eta = eta
        self.max_support = max_support

    def _budget(self):
        return None


_BUDGETED = {**_KernelOnline._parameter_constraints, "budget": [Interval(Integral, 1, MAX_BUDGET, closed="both")]}


@_doc
class RBPClassifier(_KernelOnline):
    """Random Budget Perceptron (Cavallanti et al. 2007): a kernel Perceptron that removes a random support vector.

    When the budget is full, a mistake first removes a support vector drawn uniformly at
    random, then adds the example.

    Parameters
    ----------
    {budget}
    {gamma}
    random_state : int, RandomState or None, default=None
        Seed of the removals.
    {attributes}
    See Also
    --------
    ForgetronClassifier, KernelPerceptronClassifier

    Examples
    --------
    >>> import numpy as np
    >>> from ikviz.learn import RBPClassifier
    >>> rng = np.random.default_rng(0)
    >>> X = rng.uniform(-1, 1, size=(1000, 2))
    >>> y = (X[:, 0] * X[:, 1] > 0).astype(int)
    >>> clf = RBPClassifier(budget=20, gamma=4.0, random_state=0).fit(X, y)
    >>> len(clf.support_vectors_), bool(clf.mistake_rate_ < 0.5)
    (20, True)
    """

    _algo = RBP
    _poor_score = True
    _parameter_constraints: dict = {**_BUDGETED, "random_state": ["random_state"]}

    def __init__(self, budget=100, gamma=_LU2016_GAMMA, random_state=None):
        self.budget = budget
        self.gamma = gamma
        self.random_state = random_state


@_doc
class ForgetronClassifier(_KernelOnline):
    """Self-tuned Forgetron (Dekel, Shalev-Shwartz & Singer 2008): forget the oldest support vector, shrinking first.

    A kernel Perceptron; past the budget every coefficient is scaled by the largest
    phi in (0, 1] that keeps the accumulated damage Q + psi(phi sigma, mu) within 15/32
    of the mistakes so far (sigma: the oldest coefficient's size, mu: its margin), then
    the oldest support vector is removed.

    Parameters
    ----------
    {budget}
    {gamma}
    {attributes}
    See Also
    --------
    RBPClassifier, KernelPerceptronClassifier

    Examples
    --------
    >>> import numpy as np
    >>> from ikviz.learn import ForgetronClassifier
    >>> rng = np.random.default_rng(0)
    >>> X = rng.uniform(-1, 1, size=(1000, 2))
    >>> y = (X[:, 0] * X[:, 1] > 0).astype(int)
    >>> clf = ForgetronClassifier(budget=20, gamma=4.0).fit(X, y)
    >>> len(clf.support_vectors_), bool(clf.mistake_rate_ < 0.5)
    (20, True)
    """

    _algo = FORGETRON
    _parameter_constraints: dict = _BUDGETED

    def __init__(self, budget=100, gamma=_LU2016_GAMMA):
        self.budget = budget
        self.gamma = gamma


@_doc
class ProjectronClassifier(_KernelOnline):
    """Projectron (Orabona, Keshet & Caputo 2009): a kernel Perceptron that projects instead of growing.

    On a mistake, the example's kernel function K(x, .) is projected onto the span of the
    support set (d = K_S^-1 k, distance delta = sqrt(1 - k . d)). When delta <= ``eta``, or
    the support set holds ``budget`` vectors, the update is the projection (the
    coefficients move by y d); otherwise x joins the support set and K_S^-1 grows by
    blocks (O(B^2) per update).

    Parameters
    ----------
    {budget}
    {gamma}
    eta : float, default=0.1
        The projection threshold on delta (Orabona et al.'s eta), >= 0.
    {attributes}
    See Also
    --------
    ProjectronPPClassifier, KernelPerceptronClassifier

    Examples
    --------
    >>> import numpy as np
    >>> from ikviz.learn import ProjectronClassifier
    >>> rng = np.random.default_rng(0)
    >>> X = rng.uniform(-1, 1, size=(1000, 2))
    >>> y = (X[:, 0] * X[:, 1] > 0).astype(int)
    >>> clf = ProjectronClassifier(budget=50, gamma=4.0, eta=0.3).fit(X, y)
    >>> len(clf.support_vectors_) <= 50, bool(clf.mistake_rate_ < 0.3)
    (True, True)
    """

    _algo = PROJECTRON
    _parameter_constraints: dict = {**_KernelOnline._parameter_constraints,
                                    "budget": [Interval(Integral, 1, MAX_PROJECTRON_BUDGET, closed="both")],
                                    "eta": [Interval(Real, 0, np.inf, closed="left")]}

    def __init__(self, budget=100, gamma=_LU2016_GAMMA, eta=0.1):
        self.budget = budget
        self.gamma = gamma
        self.eta = eta

    def _step_size(self) -> float:
        return max(float(self.eta), 1e-300)


@_doc
class ProjectronPPClassifier(ProjectronClassifier):
    """Projectron++ (Orabona et al. 2009): the Projectron that also learns from margin errors.

    Besides the Projectron's update on a mistake, a correct prediction with hinge loss
    l > 0 moves the coefficients by tau y d with tau = min(l / |P k|^2, 2 (l - delta / eta)
    / |P k|^2, 1) when tau > 0 (|P k|^2 = k . d), never adding a support vector.

    Parameters
    ----------
    {budget}
    {gamma}
    eta : float, default=0.1
        The projection threshold on delta, >= 0.
    {attributes}
    See Also
    --------
    ProjectronClassifier

    Examples
    --------
    >>> import numpy as np
    >>> from ikviz.learn import ProjectronPPClassifier
    >>> rng = np.random.default_rng(0)
    >>> X = rng.uniform(-1, 1, size=(1000, 2))
    >>> y = (X[:, 0] * X[:, 1] > 0).astype(int)
    >>> clf = ProjectronPPClassifier(budget=50, gamma=4.0, eta=0.3).fit(X, y)
    >>> len(clf.support_vectors_) <= 50, bool(clf.mistake_rate_ < 0.3)
    (True, True)
    """

    _algo = PROJECTRON_PP


@_doc
class BPASClassifier(_KernelOnline):
    """Budgeted Passive-Aggressive, simple variant (BPA-S; Wang & Vucetic 2010).

    A PA-I update (step tau = min(C, l / |g|^2), l the hinge loss); when the budget is
    full, the new example replaces the support vector r whose removal changes the model
    least once x takes coefficient alpha_r K(x_r, x) + tau g (the cost |alpha_r|^2 (1 -
    K(x_r, x)^2)). Every class's coefficient of the replaced vector changes, so a
    multi-class update costs O(m B) (lu2016 §7.3.2).

    Parameters
    ----------
    {budget}
    {gamma}
    C : float, default=1.0
        PA-I's aggressiveness (the largest step), > 0.
    {attributes}
    See Also
    --------
    BOGDClassifier, RBPClassifier

    Examples
    --------
    >>> import numpy as np
    >>> from ikviz.learn import BPASClassifier
    >>> rng = np.random.default_rng(0)
    >>> X = rng.uniform(-1, 1, size=(1000, 2))
    >>> y = (X[:, 0] * X[:, 1] > 0).astype(int)
    >>> clf = BPASClassifier(budget=30, gamma=4.0).fit(X, y)
    >>> len(clf.support_vectors_), bool(clf.mistake_rate_ < 0.3)
    (30, True)
    """

    _algo = BPAS
    _parameter_constraints: dict = {**_BUDGETED, "C": [Interval(Real, 0, np.inf, closed="neither")]}

    def __init__(self, budget=100, gamma=_LU2016_GAMMA, C=1.0):
        self.budget = budget
        self.gamma = gamma
        self.C = C

    def _step_size(self) -> float:
        return float(self.C)


@_doc
class BOGDClassifier(_KernelOnline):
    """Bounded Online Gradient Descent (BOGD; Zhao et al. 2012): kernel OGD that removes at random and rescales.

    Every round the coefficients shrink by 1 - eta lam (regularisation); an example with
    a non-zero hinge loss joins with coefficient eta g, after, when the budget is full, a
    support vector drawn uniformly at random is removed and the others are scaled by
    B / (B - 1) (the removal's expectation is the unbudgeted model).

    Parameters
    ----------
    {budget}
    {gamma}
    eta : float, default=0.2
        Step size, > 0.
    lam : float, default=0.01
        Regularisation, >= 0 (eta lam < 1).
    random_state : int, RandomState or None, default=None
        Seed of the removals.
    {attributes}
    See Also
    --------
    KernelOGDClassifier, BSGDClassifier

    Examples
    --------
    >>> import numpy as np
    >>> from ikviz.learn import BOGDClassifier
    >>> rng = np.random.default_rng(0)
    >>> X = rng.uniform(-1, 1, size=(1000, 2))
    >>> y = (X[:, 0] * X[:, 1] > 0).astype(int)
    >>> clf = BOGDClassifier(budget=30, gamma=4.0, eta=0.5, random_state=0).fit(X, y)
    >>> len(clf.support_vectors_), bool(clf.mistake_rate_ < 0.4)
    (30, True)
    """

    _algo = BOGD
    _parameter_constraints: dict = {**_BUDGETED, "eta": [Interval(Real, 0, np.inf, closed="neither")],
                                    "lam": [Interval(Real, 0, np.inf, closed="left")],
                                    "random_state": ["random_state"]}

    def __init__(self, budget=100, gamma=_LU2016_GAMMA, eta=0.2, lam=0.01, random_state=None):
        self.budget = budget
        self.gamma = gamma
        self.eta = eta
        self.lam = lam
        self.random_state = random_state

    def _check_params(self) -> None:
        if self.eta * self.lam >= 1:
            raise ValueError(f"eta * lam must be below 1 (the coefficients shrink by 1 - eta lam each round); "
                             f"got eta={self.eta}, lam={self.lam}.")


@_doc
class BSGDClassifier(_KernelOnline):
    """Budgeted Stochastic Gradient Descent (BSGD; Wang, Crammer & Vucetic 2012): kernel Pegasos with a budget.

    Round t: the coefficients shrink by 1 - 1/t and an example with a non-zero hinge loss
    joins with coefficient g / (lam t). Past the budget, ``maintenance="remove"``
    (lu2016's BSGD-R) removes a support vector drawn uniformly at random;
    ``"merge"`` (BSGD-M) merges the one of the smallest coefficient norm with the partner
    that loses least weight, into z = x_r + h (x_m - x_r) with h by golden-section search.

    Parameters
    ----------
    {budget}
    {gamma}
    lam : float, default=1e-4
        Pegasos's regularisation lambda, > 0 (lambda = 1 / (C n) matches an SVM's C on n rows).
    maintenance : {"merge", "remove"}, default="merge"
        How the budget is kept.
    random_state : int, RandomState or None, default=None
        Seed of the removals.
    {attributes}
    See Also
    --------
    BOGDClassifier, NOGDClassifier

    Examples
    --------
    >>> import numpy as np
    >>> from ikviz.learn import BSGDClassifier
    >>> rng = np.random.default_rng(0)
    >>> X = rng.uniform(-1, 1, size=(1000, 2))
    >>> y = (X[:, 0] * X[:, 1] > 0).astype(int)
    >>> clf = BSGDClassifier(budget=30, gamma=4.0, lam=0.01).fit(X, y)
    >>> len(clf.support_vectors_), bool((clf.predict(X) == y).mean() > 0.8)
    (30, True)
    """

    _algo = BSGD_MERGE
    _parameter_constraints: dict = {**_BUDGETED, "lam": [Interval(Real, 0, np.inf, closed="neither")],
                                    "maintenance": [StrOptions({"merge", "remove"})],
                                    "random_state": ["random_state"]}

    def __init__(self, budget=100, gamma=_LU2016_GAMMA, lam=1e-4, maintenance="merge", random_state=None):
        self.budget = budget
        self.gamma = gamma
        self.lam = lam
        self.maintenance = maintenance
        self.random_state = random_state

    @property
    def _poor_score(self):
        return self.maintenance == "remove"

    def _start(self, classes) -> None:
        super()._start(classes)
        self._algo = BSGD_MERGE if self.maintenance == "merge" else BSGD_REMOVE
