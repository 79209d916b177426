"""The online learners of ikviz.learn as scikit-learn classifiers, and KernelGram as a transformer.

scikit-learn's estimator checks; ``partial_fit`` over any chunking (NumPy slices or a
Dask array's blocks) equals ``fit`` on the whole stream; pickling mid-stream; the
learners' behaviour (kernel OGD before NOGD's budget, multi-class, progressive
mistakes) and their validation.
"""

import math
import pickle

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sklearn.base import clone
from sklearn.exceptions import NotFittedError
from ikviz._sklearn import InvalidParameterError
from sklearn.utils.estimator_checks import parametrize_with_checks

from ikviz.data import density_ratio
from ikviz.learn import FOGDClassifier, IKOGDClassifier, KernelGram, NOGDClassifier, RandLocalOGDClassifier

# small maps so every check runs in well under a second
SMALL = {
    "FOGD": FOGDClassifier(n_components=100, gamma=1.0, random_state=0),
    "NOGD": NOGDClassifier(budget=30, gamma=1.0),
    "IK+OGD": IKOGDClassifier(psi=8, t=30, prefix=60, random_state=0),
    "RandLocal+OGD": RandLocalOGDClassifier(n_sets=10, max_anchors=32, prefix=60, random_state=0),
}


@parametrize_with_checks([*SMALL.values(), KernelGram(), KernelGram("ik", psi=8, t=30, random_state=0),
                          KernelGram("laplacian", psi=8)])
def test_sklearn_compatible(estimator, check):
    check(estimator)


def _stream(n=300, n_classes=2, seed=0):
    """A non-linear stream: XOR of the signs (two classes) or angular sectors (more)."""
    rng = np.random.default_rng(seed)
    X = rng.uniform(-1, 1, size=(n, 2))
    if n_classes == 2:
        y = (X[:, 0] * X[:, 1] > 0).astype(int)
    else:
        y = (np.floor((np.arctan2(X[:, 1], X[:, 0]) + np.pi) / (2 * np.pi) * n_classes) % n_classes).astype(int)
    return X, y


def _assert_same_model(a, b):
    assert np.array_equal(a.mistakes_, b.mistakes_)
    assert a.mistake_rate_ == b.mistake_rate_ and math.isclose(a.mistake_rate_, a.mistakes_.mean())
    if a.coef_ is None:
        assert b.coef_ is None
    else:
        assert np.array_equal(a.coef_, b.coef_)
    Xt, _ = _stream(50, seed=9)
    assert np.array_equal(a.decision_function(Xt), b.decision_function(Xt))


@settings(max_examples=10, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
@given(name=st.sampled_from(sorted(SMALL)), n_classes=st.sampled_from([2, 3]),
       blocks=st.lists(st.integers(1, 120), min_size=1, max_size=30))
def test_partial_fit_over_any_chunking_equals_fit(name, n_classes, blocks):
    X, y = _stream(300, n_classes)
    whole = clone(SMALL[name]).fit(X, y)
    streamed = clone(SMALL[name])
    lo, i = 0, 0
    while lo < len(y):
        hi = min(len(y), lo + blocks[i % len(blocks)])
        streamed.partial_fit(X[lo:hi], y[lo:hi], classes=np.arange(n_classes))
        lo, i = hi, i + 1
    _assert_same_model(whole, streamed)
    assert whole.mistakes_.size == 300


@pytest.mark.parametrize("name", sorted(SMALL))
@pytest.mark.parametrize("block", [1, 59, 60, 61, 300])
def test_block_sizes_around_the_prefix(name, block):
    n = 90 if block == 1 else 300  # one row at a time: the prefix (60 rows) and 30 rows after it
    X, y = _stream(n)
    whole = clone(SMALL[name]).fit(X, y)
    streamed = clone(SMALL[name])
    for lo in range(0, n, block):
        streamed.partial_fit(X[lo:lo + block], y[lo:lo + block], classes=[0, 1])
    _assert_same_model(whole, streamed)


@pytest.mark.parametrize("name", sorted(SMALL))
def test_dask_array_is_learned_block_by_block(name):
    da = pytest.importorskip("dask.array")
    X, y = _stream(300)
    whole = clone(SMALL[name]).fit(X, y)
    Xd, yd = da.from_array(X, chunks=(37, 1)), da.from_array(y, chunks=53)  # y chunked unlike X
    _assert_same_model(whole, clone(SMALL[name]).fit(Xd, yd))
    _assert_same_model(whole, clone(SMALL[name]).fit(Xd, y))
    streamed = clone(SMALL[name])
    for block in np.array_split(np.arange(300), 4):  # partial_fit on Dask pieces, each read block by block
        streamed.partial_fit(Xd[block[0]:block[-1] + 1], y[block], classes=[0, 1])
    _assert_same_model(whole, streamed)
    Xt, _ = _stream(100, seed=4)
    pred = whole.predict(da.from_array(Xt, chunks=30))
    assert isinstance(pred, da.Array) and np.array_equal(pred.compute(), whole.predict(Xt))
    assert np.array_equal(whole.decision_function(da.from_array(Xt, chunks=30)).compute(),
                          whole.decision_function(Xt))


@pytest.mark.parametrize("name", sorted(SMALL))
def test_pickle_round_trip_mid_stream(name):
    X, y = _stream(400, 3)
    clf = clone(SMALL[name]).partial_fit(X[:150], y[:150], classes=[0, 1, 2])
    copy = pickle.loads(pickle.dumps(clf))
    assert np.array_equal(copy.predict(X), clf.predict(X))
    clf.partial_fit(X[150:], y[150:])
    copy.partial_fit(X[150:], y[150:])
    _assert_same_model(clf, copy)


# ----------------------------------------------------------------- behaviour
def _kernel_ogd_reference(X, y, gamma, eta):
    """Plain-Python kernel OGD (binary hinge), the first phase of NOGD without a budget."""
    sv, al, mistakes = [], [], []
    for x, label in zip(X, y):
        s = sum(a * math.exp(-gamma * float(((x - v) ** 2).sum())) for v, a in zip(sv, al))
        sign = 1.0 if label == 1 else -1.0
        mistakes.append((1 if s > 0 else 0) != label)
        if sign * s < 1:
            sv.append(x)
            al.append(eta * sign)
    return np.array(mistakes), np.array(sv), np.array(al)


def test_nogd_before_the_budget_is_kernel_ogd():
    X, y = density_ratio(200, 5.0, seed=0)
    order = np.random.default_rng(0).permutation(200)
    X, y = X[order], y[order]
    mistakes, sv, alpha = _kernel_ogd_reference(X, y, 2.0, 0.5)
    clf = NOGDClassifier(budget=1000, gamma=2.0, eta=0.5).fit(X, y)
    assert np.array_equal(clf.mistakes_, mistakes)
    assert clf.coef_ is None and clf.feature_map_ is None  # never reached the budget
    assert np.array_equal(clf.support_vectors_, sv) and np.allclose(clf.dual_coef_[:, 0], alpha)
    Xt = X[:20] + 0.01
    expected = np.exp(-2.0 * ((Xt[:, None] - sv[None]) ** 2).sum(-1)) @ alpha
    assert np.allclose(clf.decision_function(Xt), expected)


def test_nogd_hands_over_to_a_nystroem_model_that_agrees_with_the_kernel_model():
    X, y = _stream(2000)
    clf = NOGDClassifier(budget=40, rank=40, gamma=4.0).fit(X, y)
    S = clf.support_vectors_
    assert clf.coef_.shape == (1, 40) and S.shape == (40, 2)
    n_used = np.flatnonzero((X == S[-1]).all(axis=1))[0] + 1  # the example that filled the budget
    kernel = NOGDClassifier(budget=10**6, gamma=4.0).fit(X[:n_used], y[:n_used])
    assert np.array_equal(kernel.support_vectors_, S) and np.array_equal(kernel.mistakes_, clf.mistakes_[:n_used])
    fresh = NOGDClassifier(budget=40, rank=40, gamma=4.0).fit(X[:n_used], y[:n_used])
    assert fresh.coef_ is not None  # handed over on the last example
    # full rank: the Nyström model equals the kernel model on the support vectors
    assert np.allclose(fresh.decision_function(S), kernel.decision_function(S), atol=1e-6)
    assert clf.mistake_rate_ < 0.25 and clf.mistakes_[-500:].mean() < clf.mistakes_[:100].mean()


def test_ogd_learns_a_separable_stream_binary_and_multiclass():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(3000, 2))
    y = (X[:, 0] + X[:, 1] > 0).astype(int)
    clf = FOGDClassifier(gamma=0.05, n_components=200, eta=0.5, random_state=0).fit(X, y)
    m = clf.mistakes_
    assert m[:100].mean() > m[-1000:].mean() and m[-1000:].mean() < 0.05
    X3, y3 = _stream(3000, 3)
    clf3 = IKOGDClassifier(psi=16, t=50, prefix=300, random_state=0).fit(X3, y3)
    assert clf3.coef_.shape == (3, clf3.feature_map_.t * clf3.feature_map_.psi_)
    assert clf3.mistakes_[-1000:].mean() < 0.15
    assert clf3.decision_function(X3[:5]).shape == (5, 3)
    assert np.array_equal(clf3.predict(X3[:50]), clf3.decision_function(X3[:50]).argmax(1))


@pytest.mark.parametrize("name", ["FOGD", "NOGD", "IK+OGD", "RandLocal+OGD"])
def test_every_learner_beats_the_majority_class_on_a_nonlinear_stream(name):
    X, y = density_ratio(4000, 10.0, seed=0)
    order = np.random.default_rng(0).permutation(4000)
    X, y = X[order], y[order]
    clf = {"FOGD": FOGDClassifier(gamma=10.0, random_state=0), "NOGD": NOGDClassifier(gamma=10.0),
           "IK+OGD": IKOGDClassifier(random_state=0), "RandLocal+OGD": RandLocalOGDClassifier(random_state=0)}[name]
    clf.fit(X, y)
    assert clf.mistakes_.shape == (4000,) and clf.mistakes_.dtype == bool
    assert clf.mistake_rate_ < 0.15  # majority class: 0.5
    assert math.isclose(clf.mistake_rate_, clf.mistakes_.mean())
    Xt, yt = density_ratio(2000, 10.0, seed=1)
    assert np.mean(clf.predict(Xt) == yt) > 0.85


def test_ik_features_are_the_kernel_and_prefix_is_respected():
    X, y = _stream(500)
    clf = IKOGDClassifier(psi=8, t=40, prefix=100, random_state=3).fit(X, y)
    ik = clf.feature_map_
    Z = ik.transform(X[:10])
    assert np.allclose((Z @ Z.T).toarray(), ik.similarity(X[:10]))  # unit-norm rows: K(x, x) = 1
    from ikviz import IsolationKernel
    ref = IsolationKernel(psi=8, t=40, method="anne", random_state=3).fit(X[:100])  # the map comes from the prefix only
    assert np.array_equal(ref.cells(X), ik.cells(X))


def test_labels_keep_their_values_and_seed_matters():
    X, y = _stream(600)
    names = np.array(["no", "yes"])[y]
    a = FOGDClassifier(random_state=1).fit(X, names)
    assert list(a.classes_) == ["no", "yes"] and set(a.predict(X)) <= {"no", "yes"}
    b = FOGDClassifier(random_state=1).fit(X, names)
    c = FOGDClassifier(random_state=2).fit(X, names)
    assert np.array_equal(a.coef_, b.coef_) and not np.array_equal(a.coef_, c.coef_)


def test_too_few_rows_for_the_map():
    X, y = _stream(40)
    clf = RandLocalOGDClassifier(n_sets=5, prefix=20, random_state=0)
    clf.partial_fit(X[:2], y[:2], classes=[0, 1])  # RandLocal needs 4 rows: not ready yet
    with pytest.raises(NotFittedError, match="at least 4"):
        clf.predict(X)
    clf.partial_fit(X[2:40], y[2:40])
    _assert_same_model(clf, RandLocalOGDClassifier(n_sets=5, prefix=20, random_state=0).fit(X, y))
    with pytest.raises(ValueError, match="at least 4 rows"):
        RandLocalOGDClassifier().fit(X[[0, 1, 2]], [0, 1, 0])


def test_validation_messages():
    X, y = _stream(200)
    with pytest.raises(InvalidParameterError, match="eta"):
        FOGDClassifier(eta=0).fit(X, y)
    with pytest.raises(InvalidParameterError, match="method"):
        IKOGDClassifier(method="voronoi").fit(X, y)
    with pytest.raises(ValueError, match="rank"):
        NOGDClassifier(budget=5, rank=6).fit(X, y)
    with pytest.raises(ValueError, match="only one class"):
        FOGDClassifier().fit(X, np.zeros(200))
    with pytest.raises(ValueError, match="y has 100 labels"):
        IKOGDClassifier().fit(X, y[::2])
    with pytest.raises(ValueError, match="classes must be passed"):
        FOGDClassifier().partial_fit(X, y)
    clf = FOGDClassifier(n_components=20).partial_fit(X, y, classes=[0, 1])
    with pytest.raises(ValueError, match="not among the classes"):
        clf.partial_fit(X[:3], [0, 1, 2])
    with pytest.raises(ValueError, match="not the same"):
        clf.partial_fit(X[:3], [0, 1, 0], classes=[0, 1, 2])
    with pytest.raises(ValueError, match="2 features, but FOGDClassifier is expecting"):
        FOGDClassifier(n_components=20).fit(X[:, :1], y).predict(X)
    with pytest.raises(ValueError, match="eta"):
        FOGDClassifier(eta=1e308, gamma=1.0, n_components=20, random_state=0).fit(X, y)
    with pytest.raises(NotFittedError):
        NOGDClassifier().predict(X)
    assert not hasattr(FOGDClassifier(), "mistakes_")


def test_numpy_scalars_are_accepted():
    X, y = _stream(300)
    a = IKOGDClassifier(psi=np.int64(8), t=np.int32(20), eta=np.float32(0.2), prefix=np.int16(50),
                        random_state=0).fit(X, y)
    b = IKOGDClassifier(psi=8, t=20, eta=float(np.float32(0.2)), prefix=50, random_state=0).fit(X, y)
    assert np.array_equal(a.coef_, b.coef_)
    NOGDClassifier(budget=np.int64(10), rank=np.int64(2), gamma=np.float32(1.0)).fit(X, y)
    FOGDClassifier(n_components=np.int64(10), gamma=np.float64(2.0)).fit(X, y)
    RandLocalOGDClassifier(n_sets=np.int64(4), max_anchors=np.int64(8), epsilon=np.float32(1e-3)).fit(X, y)


def test_refit_forgets_the_previous_stream():
    X, y = _stream(300)
    X2, y2 = _stream(200, 3, seed=5)
    clf = clone(SMALL["IK+OGD"]).fit(X2, y2)
    clf.fit(X, y)
    _assert_same_model(clf, clone(SMALL["IK+OGD"]).fit(X, y))
    assert list(clf.classes_) == [0, 1]


def test_online_time_guards_name_the_limit():
    """Issue 31 item 3: RandLocal-OGD's anchor sets are bounded before any work (NOGD's switch to more than
    10,000 basis points is refused by LowRankNystroem, tested with it)."""
    X = np.random.default_rng(0).normal(size=(50, 2))
    y = (X[:, 0] > 0).astype(int)
    with pytest.raises(InvalidParameterError, match=r"The 'n_sets' parameter of RandLocalOGDClassifier must be an "
                                                     r"int in the range \[1, 10000\]\. Got 100000 instead"):
        RandLocalOGDClassifier(n_sets=10**5).fit(X, y)
