"""The kernel online learners of lu2016 (ikviz.learn.budget): scikit-learn checks, hand-checked cases, budgets."""

import numpy as np
import pytest
from sklearn.base import clone
from sklearn.utils.estimator_checks import parametrize_with_checks

from ikviz._sklearn import InvalidParameterError
from ikviz.learn import (BOGDClassifier, BPASClassifier, BSGDClassifier, ForgetronClassifier, KernelOGDClassifier,
                         KernelPerceptronClassifier, ProjectronClassifier, ProjectronPPClassifier, RBPClassifier)

SMALL = {
    "Perceptron": KernelPerceptronClassifier(gamma=2.0),
    "OGD": KernelOGDClassifier(gamma=2.0, eta=0.5),
    "RBP": RBPClassifier(budget=15, gamma=2.0, random_state=0),
    "Forgetron": ForgetronClassifier(budget=15, gamma=2.0),
    "Projectron": ProjectronClassifier(budget=15, gamma=2.0, eta=0.3),
    "Projectron++": ProjectronPPClassifier(budget=15, gamma=2.0, eta=0.3),
    "BPA-S": BPASClassifier(budget=15, gamma=2.0),
    "BOGD": BOGDClassifier(budget=15, gamma=2.0, eta=0.5, random_state=0),
    "BSGD-R": BSGDClassifier(budget=15, gamma=2.0, lam=0.01, maintenance="remove", random_state=0),
    "BSGD-M": BSGDClassifier(budget=15, gamma=2.0, lam=0.01, maintenance="merge"),
}
BUDGETED = [name for name in SMALL if name not in ("Perceptron", "OGD")]


@parametrize_with_checks(list(SMALL.values()))
def test_sklearn_compatible(estimator, check):
    check(estimator)


def _stream(n=400, n_classes=2, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.uniform(-1, 1, size=(n, 2))
    if n_classes == 2:
        y = (X[:, 0] * X[:, 1] > 0).astype(int)
    else:
        y = (np.floor((np.arctan2(X[:, 1], X[:, 0]) + np.pi) / (2 * np.pi) * n_classes) % n_classes).astype(int)
    return X, y


@pytest.mark.parametrize("name", sorted(SMALL))
@pytest.mark.parametrize("n_classes", [2, 3])
def test_partial_fit_in_chunks_equals_one_fit(name, n_classes):
    X, y = _stream(400, n_classes)
    whole = clone(SMALL[name]).fit(X, y)
    streamed = clone(SMALL[name])
    for lo, hi in ((0, 1), (1, 50), (50, 51), (51, 333), (333, 400)):
        streamed.partial_fit(X[lo:hi], y[lo:hi], classes=np.arange(n_classes))
    assert np.array_equal(whole.mistakes_, streamed.mistakes_)
    assert np.array_equal(whole.support_vectors_, streamed.support_vectors_)
    assert np.array_equal(whole.dual_coef_, streamed.dual_coef_)
    Xt, _ = _stream(50, seed=9)
    assert np.array_equal(whole.decision_function(Xt), streamed.decision_function(Xt))


@pytest.mark.parametrize("name", BUDGETED)
@pytest.mark.parametrize("n_classes", [2, 4])
def test_the_budget_is_never_exceeded_and_the_learner_beats_chance(name, n_classes):
    X, y = _stream(1500, n_classes, seed=1)
    clf = clone(SMALL[name])
    sizes = []
    for lo in range(0, 1500, 25):
        clf.partial_fit(X[lo:lo + 25], y[lo:lo + 25], classes=np.arange(n_classes))
        sizes.append(len(clf.support_vectors_))
    assert max(sizes) <= 15 and sizes[-1] >= 10
    chance = 1 - 1 / n_classes
    assert clf.mistake_rate_ < chance - 0.1, (name, clf.mistake_rate_)


def test_perceptron_by_hand():
    """x = 0 scores 0 (class 0, right); x = 1 wrong (+1); x = 0.1 scores e^{-5 .81} > 0 (wrong, -1); rest right."""
    X = np.array([[0.0], [1.0], [0.1], [0.9], [0.2], [0.8]])
    y = np.array([0, 1, 0, 1, 0, 1])
    clf = KernelPerceptronClassifier(gamma=5.0).fit(X, y)
    assert clf.mistakes_.tolist() == [False, True, True, False, False, False]
    assert clf.support_vectors_.ravel().tolist() == [1.0, 0.1]
    assert clf.dual_coef_.ravel().tolist() == [1.0, -1.0]
    # a separable set: the Perceptron stops making mistakes after a few
    rng = np.random.default_rng(0)
    Xs = np.r_[rng.normal(-3, 0.3, (200, 2)), rng.normal(3, 0.3, (200, 2))]
    ys = np.r_[np.zeros(200, int), np.ones(200, int)]
    order = rng.permutation(400)
    sep = KernelPerceptronClassifier(gamma=0.05).fit(Xs[order], ys[order])
    assert sep.mistakes_.sum() <= 3 and not sep.mistakes_[10:].any()


def test_ogd_adds_every_margin_error_with_step_eta():
    X = np.array([[0.0], [3.0], [0.0]])
    y = np.array([0, 1, 0])
    clf = KernelOGDClassifier(gamma=1.0, eta=0.25).fit(X, y)
    # every example has loss > 0 (scores 0, then -0.25 e^{-9} for x = 3, then -0.25 - ... > -1 for x = 0 again)
    assert clf.dual_coef_.ravel().tolist() == [-0.25, 0.25, -0.25]
    perceptron = KernelPerceptronClassifier(gamma=1.0).fit(X, y)
    # mistakes only: x = 3 (scored 0, class 0) and the second x = 0 (scored e^-9 > 0, class 1)
    assert perceptron.dual_coef_.ravel().tolist() == [1.0, -1.0]


def test_forgetron_removes_the_oldest_and_shrinks():
    X2 = np.array([[0.0], [10.0], [20.0], [30.0], [40.0]])
    y2 = np.array([1, 0, 1, 0, 1])  # far apart: every example scores ~0, so every label-1 / ... is a mistake
    clf = ForgetronClassifier(budget=2, gamma=10.0).fit(X2, y2)  # kernel values between them underflow to 0
    # mistakes on 0 (label 1, score 0), 20, 40 (labels 1); the label-0 ones score 0 = class 0, right
    assert clf.mistakes_.tolist() == [True, False, True, False, True]
    assert sorted(clf.support_vectors_.ravel().tolist()) == [20.0, 40.0]  # the oldest (0) was forgotten
    assert np.all(np.abs(clf.dual_coef_) <= 1.0 + 1e-12)


def test_rbp_removes_at_random_and_seeds_matter():
    X, y = _stream(600, seed=2)
    a = RBPClassifier(budget=10, gamma=2.0, random_state=0).fit(X, y)
    b = RBPClassifier(budget=10, gamma=2.0, random_state=0).fit(X, y)
    c = RBPClassifier(budget=10, gamma=2.0, random_state=1).fit(X, y)
    assert np.array_equal(a.support_vectors_, b.support_vectors_)
    assert not np.array_equal(np.sort(a.support_vectors_, axis=0), np.sort(c.support_vectors_, axis=0))
    assert np.all(np.abs(np.abs(a.dual_coef_) - 1) < 1e-12)  # perceptron coefficients, never rescaled


def test_projectron_keeps_the_inverse_kernel_matrix_and_projects():
    X, y = _stream(800, seed=3)
    clf = ProjectronClassifier(budget=40, gamma=2.0, eta=0.2).fit(X, y)
    S = clf.support_vectors_
    K = np.exp(-2.0 * ((S[:, None, :] - S[None, :, :]) ** 2).sum(-1))
    n = len(S)
    assert np.allclose(clf._kinv[:n, :n] @ K, np.eye(n), atol=1e-6)
    # projected updates: coefficients that are not +-1 (a Perceptron's would all be +-1)
    assert not np.allclose(np.abs(clf.dual_coef_), 1.0)
    # a large threshold projects almost everything: far fewer support vectors
    loose = ProjectronClassifier(budget=40, gamma=2.0, eta=0.9).fit(X, y)
    assert len(loose.support_vectors_) < n


def test_projectron_pp_learns_from_margin_errors():
    X, y = _stream(800, seed=3)
    plain = ProjectronClassifier(budget=40, gamma=2.0, eta=0.3).fit(X, y)
    plus = ProjectronPPClassifier(budget=40, gamma=2.0, eta=0.3).fit(X, y)
    assert not np.array_equal(plain.dual_coef_, plus.dual_coef_)


def test_bpas_replaces_the_least_costly_support_vector():
    # budget 1: the single support vector is replaced by x with alpha_r K(x_r, x) + tau y
    X = np.array([[0.0], [0.5]])
    y = np.array([1, 0])
    clf = BPASClassifier(budget=1, gamma=1.0, C=10.0).fit(X, y)
    k = np.exp(-0.25)
    # first: score 0, loss 1, tau = 1 -> alpha 1 at 0; second: score k, y = -1, loss 1 + k, tau = 1 + k
    assert clf.support_vectors_.ravel().tolist() == [0.5]
    assert np.isclose(clf.dual_coef_[0, 0], 1.0 * k - (1 + k))


def test_bogd_rescales_after_a_random_removal():
    X = np.array([[0.0], [100.0], [200.0]])
    y = np.array([1, 1, 1])
    clf = BOGDClassifier(budget=2, gamma=1.0, eta=0.5, lam=0.0, random_state=0).partial_fit(X, y, classes=[0, 1])
    # third example: one of the two removed at random, the other scaled by 2 / 1
    assert len(clf.support_vectors_) == 2
    assert sorted(clf.dual_coef_.ravel().tolist()) == [0.5, 1.0]


def test_bsgd_merge_keeps_weight_that_removal_loses():
    X, y = _stream(1500, seed=4)
    Xt, yt = _stream(1000, seed=5)
    merge = BSGDClassifier(budget=10, gamma=2.0, lam=0.01, maintenance="merge").fit(X, y)
    remove = BSGDClassifier(budget=10, gamma=2.0, lam=0.01, maintenance="remove", random_state=0).fit(X, y)
    # merged points lie between stream points: not rows of X
    assert not all(any(np.array_equal(s, x) for x in X) for s in merge.support_vectors_)
    assert (merge.predict(Xt) == yt).mean() > (remove.predict(Xt) == yt).mean()


def test_guards_name_the_limit():
    X, y = _stream(300)
    with pytest.raises(ValueError, match="max_support=20"):
        KernelOGDClassifier(gamma=2.0, max_support=20).fit(X, y)
    with pytest.raises(InvalidParameterError, match="budget"):
        RBPClassifier(budget=10**6).fit(X, y)
    with pytest.raises(InvalidParameterError, match="budget"):
        ProjectronClassifier(budget=10**5).fit(X, y)
    with pytest.raises(ValueError, match="eta \\* lam"):
        BOGDClassifier(eta=2.0, lam=1.0).fit(X, y)
