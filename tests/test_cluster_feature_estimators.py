"""The estimators of ikviz.clustering and ikviz.features the scikit-learn way.

scikit-learn's estimator checks on every exported estimator, pickle round trips,
declarative parameter validation (NumPy scalars accepted), the size guards, the
RandLocal assignment of Wang et al. (2017, Alg. 1), density peaks independent
of the row order, and the docstring examples.
"""

import doctest
import importlib
import inspect
import pickle

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.base import BaseEstimator, clone
from sklearn.cluster import KMeans
from sklearn.pipeline import Pipeline
from ikviz._sklearn import InvalidParameterError
from sklearn.utils.estimator_checks import parametrize_with_checks
from threadpoolctl import threadpool_limits

from ikviz import IsolationKernel
from ikviz import clustering as cl
from ikviz import features as ft

#: every estimator exported by the two packages, with small settings so the checks run fast
CHECKED = [
    cl.DensityPeaks(),
    cl.DensityPeaks(metric="ik", psi=8, t=20, random_state=0),
    cl.DensityPeaks(metric="adaptive", n_neighbours=3),
    cl.SpectralClustering(psi=8, t=20),
    cl.SpectralClustering(affinity="rbf"),
    cl.SpectralClustering(affinity="adaptive", n_neighbours=3),
    ft.RandomFourierFeatures(n_components=20, random_state=0),
    ft.RandomFourierFeatures("laplacian", n_components=20, random_state=0),
    ft.LowRankNystroem(budget=8, random_state=0),
    ft.LowRankNystroem("laplacian", budget=8, rank=4, random_state=0),
    ft.RandLocal(n_sets=5, random_state=0),
]

#: the k-means pipelines make_kmeans builds on ikviz's maps (seeded, so the checks can compare two fits);
#: "raw" is scikit-learn's KMeans behind an identity FunctionTransformer, tested below
PIPELINES = [cl.make_kmeans(feature_map, psi=8, t=20, n_sets=5, n_init=1, random_state=0)
             for feature_map in ("ik", "randlocal")]

_RANDLOCAL_TRAINING = (
    "RandLocal.fit_transform returns Alg. 1's training features, where a row sampled as an anchor is "
    "assigned to its nearest *other* anchor (Wang et al. 2017, §3: 'to avoid overfitting'); transform "
    "maps any row to its nearest anchor. So fit_transform(X) differs from fit(X).transform(X) in the "
    "anchors' own rows by design, as with scikit-learn's TargetEncoder (see tests below)."
)


_PIPELINE_IN_PLACE = ("scikit-learn's Pipeline fits its steps in place, so its 'steps' parameter changes during fit; "
                      "every Pipeline fails this check, e.g. make_pipeline(StandardScaler(), KMeans()).")


def expected_failures(estimator):
    if isinstance(estimator, ft.RandLocal):
        return {"check_transformer_general": _RANDLOCAL_TRAINING,
                "check_transformer_data_not_an_array": _RANDLOCAL_TRAINING}
    if isinstance(estimator, Pipeline):
        out = {"check_dont_overwrite_parameters": _PIPELINE_IN_PLACE,
               "check_estimators_overwrite_params": _PIPELINE_IN_PLACE}
        if isinstance(estimator["map"], ft.RandLocal):
            out.update(expected_failures(estimator["map"]))
        return out
    return {}


@pytest.fixture(autouse=True, scope="module")
def one_blas_and_openmp_thread():
    """scikit-learn's k-means and eigensolvers on these tiny inputs: thread pools cost more than they save."""
    with threadpool_limits(1):
        yield


@parametrize_with_checks(CHECKED + PIPELINES, expected_failed_checks=expected_failures)
def test_scikit_learn_estimator_checks(estimator, check):
    check(estimator)


def exported_estimators():
    out = []
    for package in (cl, ft):
        for name in package.__all__:
            obj = getattr(package, name)
            if inspect.isclass(obj) and issubclass(obj, BaseEstimator):
                out.append(obj)
    return out


def test_every_exported_estimator_is_checked():
    exported = exported_estimators()
    assert {c.__name__ for c in exported} == {"DensityPeaks", "SpectralClustering", "RandomFourierFeatures",
                                              "LowRankNystroem", "RandLocal"}
    assert {type(e) for e in CHECKED} == set(exported)
    # every parameter is declared, so scikit-learn validates all of them
    for cls in exported:
        assert set(cls._parameter_constraints) == set(cls().get_params()), cls.__name__


@pytest.fixture(scope="module")
def blobs():
    rng = np.random.default_rng(1)
    X = np.vstack([rng.normal(0, 0.4, (40, 3)), rng.normal(3, 0.4, (40, 3))])
    return X, np.repeat([0, 1], 40)


# ------------------------------------------------------------------------------------------ pickling
def _output(est, X):
    if hasattr(est, "transform"):
        out = est.transform(X)
        return out.toarray() if sp.issparse(out) else out
    if isinstance(est, Pipeline):
        return est.predict(X)
    return est.labels_


@pytest.mark.parametrize("est", CHECKED + [cl.make_kmeans("ik", n_clusters=2, psi=8, t=20, random_state=0),
                                           cl.make_kmeans("randlocal", n_clusters=2, n_sets=10, random_state=0)],
                         ids=lambda e: repr(e)[:60])
def test_pickle_round_trip_gives_the_same_results(est, blobs):
    X, _ = blobs
    fitted = clone(est).set_params(**({"n_clusters": 2} if "n_clusters" in est.get_params() else {})).fit(X)
    again = pickle.loads(pickle.dumps(fitted))
    assert type(again) is type(fitted) and again.get_params(deep=False).keys() == fitted.get_params(deep=False).keys()
    np.testing.assert_array_equal(_output(again, X), _output(fitted, X))
    if hasattr(fitted, "labels_"):
        np.testing.assert_array_equal(again.labels_, fitted.labels_)


# ------------------------------------------------------------------------------------------ validation
BAD = [
    (cl.DensityPeaks, "eps_fraction", 0.0,
     "'eps_fraction' parameter of DensityPeaks must be a float in the range (0.0, 1.0]. Got 0.0"),
    (cl.DensityPeaks, "metric", "cosine", "'metric' parameter of DensityPeaks must be a str among"),
    (cl.DensityPeaks, "n_clusters", 2.5, "'n_clusters' parameter of DensityPeaks must be an int"),
    (cl.DensityPeaks, "kernel_params", [1], "'kernel_params' parameter of DensityPeaks must be"),
    (cl.SpectralClustering, "affinity", "nearest_neighbors", "'affinity' parameter of SpectralClustering must be a str"),
    (cl.SpectralClustering, "gamma", float("inf"), "'gamma' parameter of SpectralClustering must be a float"),
    (ft.RandomFourierFeatures, "gamma", -1.0, "'gamma' parameter of RandomFourierFeatures must be a float"),
    (ft.RandomFourierFeatures, "n_components", 0, "'n_components' parameter of RandomFourierFeatures must be an int"),
    (ft.LowRankNystroem, "rank", 0, "'rank' parameter of LowRankNystroem must be an int in the range [1, inf) or None"),
    (ft.RandLocal, "epsilon", 1.0, "'epsilon' parameter of RandLocal must be a float in the range [0.0, 1.0)"),
    (ft.RandLocal, "subspace", "both", "'subspace' parameter of RandLocal must be a str among"),
]


@pytest.mark.parametrize("cls, name, value, message", BAD, ids=lambda v: str(v)[:30])
def test_bad_parameters_are_refused_with_their_name(cls, name, value, message, blobs):
    with pytest.raises(InvalidParameterError) as info:
        cls(**{name: value}).fit(blobs[0])
    assert message in str(info.value)
    assert isinstance(info.value, ValueError) and isinstance(info.value, TypeError)


def test_numpy_scalars_are_accepted_as_parameters(blobs):
    X, y = blobs
    f32, i64 = np.float32, np.int64
    plain = cl.DensityPeaks(2, eps_fraction=0.25).fit(X)
    scalars = cl.DensityPeaks(i64(2), eps_fraction=f32(0.25), n_neighbours=np.int32(5),
                              block_bytes=np.uint64(10**6)).fit(X)
    np.testing.assert_array_equal(plain.labels_, scalars.labels_)
    sc = cl.SpectralClustering(np.int16(2), affinity="rbf", gamma=f32(1), n_init=i64(2), random_state=0).fit(X)
    assert cl.scores(y, sc.labels_)["ami"] > 0.9
    Z = ft.RandomFourierFeatures(gamma=f32(1), n_components=i64(30), random_state=0).fit_transform(X)
    assert Z.shape == (80, 30)
    Z = ft.LowRankNystroem(gamma=np.float64(0.5), budget=i64(20), rank=np.int32(5), random_state=0).fit_transform(X)
    assert Z.shape == (80, 5)
    F = ft.RandLocal(n_sets=i64(10), epsilon=f32(1e-3), min_anchors=np.uint8(4), max_anchors=i64(8),
                     random_state=0).fit_transform(X)
    assert F.shape[0] == 80 and F.getnnz(axis=1).tolist() == [10] * 80
    km = cl.make_kmeans("ik", n_clusters=i64(2), psi=i64(8), t=i64(30), n_init=i64(2), random_state=0)
    assert cl.scores(y, km.fit_predict(X))["ami"] > 0.9


# ------------------------------------------------------------------------------------------ size guards
def test_size_guards_refuse_before_allocating_and_say_what_to_use():
    X = np.random.default_rng(0).random((30_000, 1))
    labels = np.arange(3000)
    with pytest.raises(ValueError, match=r"Matching 3000 clusters \(labels\) to 3000 classes \(y_true\) would be a "
                                         r"dense 3000 x 3000 matrix .* compare such partitions with scores\(\)"):
        cl.match_labels(labels, labels)
    with pytest.raises(ValueError, match=r"The affinity matrix of the 300 rows of X would be a dense 300 x 300 matrix "
                                         r".* DensityPeaks\(metric='ik'\) .* make_kmeans\('ik'\) .* dense_budget"):
        cl.SpectralClustering(2, dense_budget=300 * 300 * 8 - 1).fit(X[:300])
    with pytest.raises(ValueError, match=r"RandLocal's features of the 30000 rows would be .* Use fewer anchor sets"):
        ft.RandLocal(n_sets=10_000).fit(X)
    with pytest.raises(ValueError, match=r"The decision graphs of 1000000 cutoffs would be a dense 6000000 x 100 "
                                         r"matrix .* Pass fewer cutoffs"):
        cl.DensityPeaks().path(X[:100], np.linspace(1e-6, 1, 10**6))
    with pytest.raises(ValueError, match=r"The 1000000000000 random frequencies would be .* Use fewer n_components"):
        ft.RandomFourierFeatures(n_components=10**12).fit(X[:10])


# ------------------------------------------------------------------------------------------ time guards
TIME_GUARDS = [
    (lambda: cl.SpectralClustering(2, affinity="rbf", n_init=10**12), "SpectralClustering", "n_init", 1000),
    (lambda: ft.RandLocal(n_sets=10**5), "RandLocal", "n_sets", 10_000),
]


@pytest.mark.parametrize("make, owner, name, limit", TIME_GUARDS, ids=[g[1] for g in TIME_GUARDS])
def test_time_guards_refuse_at_once_and_name_the_limit(make, owner, name, limit, blobs):
    """Issue 31 item 3: SpectralClustering(n_init=10**12) ran forever, RandLocal(n_sets=10**5) took 21 s on
    40 rows; parameters whose cost is known in advance are bounded, scikit-learn's message names the limit."""
    import time

    start = time.perf_counter()
    with pytest.raises(InvalidParameterError, match=rf"The '{name}' parameter of {owner} must be an int in the "
                                                     rf"range \[1, {limit}\]\. Got"):
        make().fit(blobs[0])
    assert time.perf_counter() - start < 2.0
    make().set_params(**{name: limit})  # the limit itself is allowed


def test_nystroem_refuses_more_basis_points_than_its_limit_before_any_kernel():
    X = np.random.default_rng(0).random((12_000, 1))
    with pytest.raises(ValueError, match=r"budget=50000 on 12000 rows asks for 12,000 basis points, over the limit "
                                         r"of 10,000: .* Use a smaller budget"):
        ft.LowRankNystroem(budget=50_000).fit(X)
    assert ft.LowRankNystroem(budget=50_000).fit(X[:50]).components_.shape[0] == 50  # all 50 rows: allowed


def test_make_kmeans_bounds_its_restarts_and_anchor_sets():
    with pytest.raises(InvalidParameterError, match=r"The 'n_init' parameter of make_kmeans must be an int in the "
                                                     r"range \[1, 1000\]"):
        cl.make_kmeans("raw", n_init=10**12)
    with pytest.raises(InvalidParameterError, match=r"'n_sets' parameter of make_kmeans must be an int in the range "
                                                     r"\[1, 10000\]"):
        cl.make_kmeans("randlocal", n_sets=10**6)


# ------------------------------------------------------------------------------------------ RandLocal (Alg. 1)
def reference_randlocal(rl, X, own: bool):
    """Nearest anchor of every row in every set, by brute force; with ``own`` a row skips the anchor sampled from it."""
    n = len(X)
    cols = np.empty((n, rl.n_anchors_.size), dtype=int)
    dmin = np.empty(cols.shape)
    offset = np.concatenate([[0], np.cumsum(rl.n_anchors_)])
    for s, (feats, anchors, rows) in enumerate(zip(rl.features_, rl.anchors_, rl.anchor_rows_)):
        D = np.sqrt(((X[:, None, feats] - anchors[None]) ** 2).sum(-1))
        if own:
            D[rows, np.arange(len(rows))] = np.inf
        best = D.argmin(axis=1)
        cols[:, s] = offset[s] + best
        dmin[:, s] = D[np.arange(n), best]
    return cols, np.maximum(rl.d_avg_ - dmin, rl.epsilon * rl.d_avg_)


@pytest.fixture(scope="module")
def binary_rows():
    """a9a-like data: few binary features, so many rows coincide with an anchor that is another row."""
    rng = np.random.default_rng(4)
    return (rng.random((300, 6)) < 0.3).astype(float)


def test_randlocal_skips_only_the_rows_own_anchor(binary_rows):
    X = binary_rows
    rl = ft.RandLocal(n_sets=30, min_anchors=8, max_anchors=64, subspace="supervised", random_state=0)
    F = rl.fit_transform(X)
    cols, values = reference_randlocal(rl, X, own=True)
    np.testing.assert_array_equal(F.indices.reshape(300, -1), cols)
    np.testing.assert_allclose(F.data.reshape(300, -1), values, rtol=1e-12)
    # many rows sit exactly on an anchor sampled from another row (the old kernel skipped those: wrong cell)
    on_other_anchor = F.data.reshape(300, -1) == rl.d_avg_
    assert on_other_anchor.mean() > 0.3


def test_randlocal_transform_uses_the_nearest_anchor_even_at_distance_zero(binary_rows):
    X = binary_rows
    rl = ft.RandLocal(n_sets=30, min_anchors=8, max_anchors=64, subspace="supervised", random_state=0).fit(X)
    F = rl.transform(X)
    cols, values = reference_randlocal(rl, X, own=False)
    np.testing.assert_array_equal(F.indices.reshape(300, -1), cols)
    np.testing.assert_allclose(F.data.reshape(300, -1), values, rtol=1e-12)
    # an anchor's own row maps to it, with the largest value D_avg
    s, j = 0, 0
    row = rl.anchor_rows_[s][j]
    assert F[row, j] == pytest.approx(rl.d_avg_[s])
    # fit_transform differs from fit().transform() only in the anchors' own rows, never in the others
    own_rows = np.unique(np.concatenate(rl.anchor_rows_))
    T = rl.fit_transform(X)
    changed = np.flatnonzero(np.any(T.indices.reshape(300, -1) != F.indices.reshape(300, -1), axis=1))
    assert changed.size > 0 and set(changed) <= set(own_rows)


def test_randlocal_is_exact_far_from_the_origin(binary_rows):
    X = binary_rows[:100] * 3.0
    near = ft.RandLocal(n_sets=10, min_anchors=4, max_anchors=16, random_state=1).fit(X)
    far = ft.RandLocal(n_sets=10, min_anchors=4, max_anchors=16, random_state=1).fit(X + 1.7e9)
    a, b = near.transform(X), far.transform(X + 1.7e9)
    np.testing.assert_array_equal(a.indices, b.indices)
    np.testing.assert_allclose(a.data, b.data, rtol=1e-9)


def test_randlocal_scales_exactly_and_refuses_overflowing_rows(binary_rows):
    X = binary_rows[:100] + np.random.default_rng(2).normal(0, 0.1, (100, 6))
    ref = ft.RandLocal(n_sets=10, min_anchors=4, max_anchors=16, random_state=1)
    F = ref.fit_transform(X)
    for scale in (2.0**900, 2.0**-1000):   # huge and tiny data: the same cells, the values scaled exactly
        got = ft.RandLocal(n_sets=10, min_anchors=4, max_anchors=16, random_state=1).fit_transform(X * scale)
        np.testing.assert_array_equal(got.indices, F.indices)
        np.testing.assert_allclose(got.data / scale, F.data, rtol=1e-12)
    sub = ft.RandLocal(n_sets=10, random_state=1).fit_transform(X * 2.0**-1060)   # subnormal: valid, if coarse
    assert sub.indices.min() >= 0 and sub.indices.max() < sub.shape[1] and (sub.data > 0).all()
    far = ref.transform(X * 1e100)   # far from the fitted data, but distances still finite
    assert far.indices.min() >= 0 and far.indices.max() < far.shape[1] and np.isfinite(far.data).all()
    with pytest.raises(ValueError, match="so far from the data RandLocal was fitted on"):
        ref.transform(X * 1e300)   # squared distances would overflow: refused, never a bad column


# ------------------------------------------------------------------------------------------ density peaks order
@pytest.mark.parametrize("metric, eps", [("euclidean", 0.15), ("adaptive", 0.6)])
def test_density_peaks_does_not_depend_on_the_row_order(metric, eps):
    # a full 9 x 7 integer grid: many equal densities and equal distances, so the tie rule decides a lot
    rng = np.random.default_rng(0)
    X = np.array([(i, j) for i in range(9) for j in range(7)], dtype=float)
    dp = cl.DensityPeaks(3, eps_fraction=eps, metric=metric, n_neighbours=6, random_state=5)
    ref = clone(dp).fit(X)
    assert 2 <= len(np.unique(ref.rho_)) <= 8 and len(np.unique(ref.delta_)) <= 16   # ties are plentiful
    for _ in range(5):
        p = rng.permutation(len(X))
        inv = np.argsort(p)
        got = clone(dp).fit(X[p])
        np.testing.assert_array_equal(got.labels_, ref.labels_[p])   # the same partition, even the same names
        np.testing.assert_array_equal(got.rho_, ref.rho_[p])
        np.testing.assert_array_equal(got.delta_, ref.delta_[p])
        np.testing.assert_array_equal(got.parent_, np.where(ref.parent_[p] < 0, -1, inv[ref.parent_[p]]))
        np.testing.assert_array_equal(got.cluster_centers_, ref.cluster_centers_)
    # the rule is seeded: another seed orders the tied points differently, and is as order-free
    other = clone(dp).set_params(random_state=6)
    p = rng.permutation(len(X))
    np.testing.assert_array_equal(clone(other).fit(X[p]).labels_, clone(other).fit(X).labels_[p])
    assert not np.array_equal(clone(other).fit(X).parent_, ref.parent_)


def test_density_peaks_with_duplicate_rows_gives_the_same_partition_in_any_order():
    # identical rows get identical keys: only among them does the position decide, and they share a cluster
    rng = np.random.default_rng(1)
    X = rng.integers(0, 6, size=(120, 2)).astype(float)
    groups = np.unique(X, axis=0, return_inverse=True)[1].ravel()
    ref = cl.DensityPeaks(3, eps_fraction=0.2, random_state=0).fit(X)
    for _ in range(5):
        p = rng.permutation(len(X))
        got = cl.DensityPeaks(3, eps_fraction=0.2, random_state=0).fit(X[p])
        np.testing.assert_array_equal(got.labels_, ref.labels_[p])
        np.testing.assert_array_equal(got.rho_, ref.rho_[p])
        for g in np.unique(groups):   # within a group of identical rows the deltas are the same multiset
            np.testing.assert_array_equal(np.sort(got.delta_[groups[p] == g]), np.sort(ref.delta_[groups == g]))


def test_a_refit_replaces_every_fitted_attribute(blobs):
    X, _ = blobs
    for est, other in ((cl.DensityPeaks(2, metric="ik", psi=8, t=20, random_state=0), {"metric": "euclidean"}),
                       (cl.SpectralClustering(2, psi=8, t=20, random_state=0), {"affinity": "rbf"})):
        est.fit(X)
        assert isinstance(est.kernel_, IsolationKernel)
        est.set_params(**other).fit(X[:, :2])
        assert not hasattr(est, "kernel_") and est.n_features_in_ == 2 and len(est.labels_) == len(X)


def test_density_peaks_path_and_fit_agree_on_every_cutoff(blobs):
    X, _ = blobs
    dp = cl.DensityPeaks(2, metric="ik", psi=8, t=30, random_state=3)
    graph = dp.path(X, [0.1, 0.3])
    assert not hasattr(dp, "labels_")   # path leaves the estimator unfitted
    for e, frac in enumerate([0.1, 0.3]):
        fitted = clone(dp).set_params(eps_fraction=frac).fit(X)
        np.testing.assert_array_equal(graph.labels[e], fitted.labels_)
        np.testing.assert_array_equal(graph.centres[e], fitted.cluster_centers_indices_)
        np.testing.assert_allclose(graph.delta[e], fitted.delta_)
        assert graph.eps[e] == pytest.approx(fitted.eps_)


# ------------------------------------------------------------------------------------------ k-means pipelines
def test_make_kmeans_builds_a_seeded_scikit_learn_pipeline(blobs):
    X, y = blobs
    km = cl.make_kmeans("ik", n_clusters=2, psi=8, t=40, kernel_params={"method": "iforest"}, random_state=0)
    assert isinstance(km, Pipeline) and [name for name, _ in km.steps] == ["map", "kmeans"]
    assert isinstance(km["map"], IsolationKernel) and km["map"].method == "iforest" and km["map"].psi == 8
    labels = km.fit_predict(X)
    assert cl.scores(y, labels)["ami"] > 0.9
    np.testing.assert_array_equal(clone(km).fit_predict(X), labels)     # seeded: the same clusters again
    km.set_params(map__psi=4, kmeans__n_init=1)                            # nested parameters, as any pipeline
    assert km["map"].psi == 4 and km["kmeans"].n_init == 1
    raw = cl.make_kmeans("raw", n_clusters=2, random_state=0)
    np.testing.assert_array_equal(raw.fit_predict(X), KMeans(2, random_state=0).fit_predict(X))
    assert raw.n_features_in_ == 3
    rl = cl.make_kmeans("randlocal", n_clusters=2, n_sets=20, epsilon=1e-3, random_state=0)
    assert rl["map"].get_params()["n_sets"] == 20 and rl["map"].epsilon == 1e-3
    np.testing.assert_array_equal(rl.fit_predict(X), clone(rl).fit_predict(X))
    own = cl.make_kmeans(ft.RandomFourierFeatures(gamma=0.5, n_components=50, random_state=0), n_clusters=2)
    assert isinstance(own["map"], ft.RandomFourierFeatures)
    with pytest.raises(ValueError, match=r"kernel_params cannot set \['t'\]"):
        cl.make_kmeans("ik", kernel_params={"t": 5})


# ------------------------------------------------------------------------------------------ docstrings
MODULES = ["ikviz.clustering", "ikviz.clustering.density_peaks", "ikviz.clustering.spectral",
           "ikviz.clustering.kmeans", "ikviz.clustering.scores", "ikviz.features.fourier",
           "ikviz.features.nystroem", "ikviz.features.randlocal"]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples_run(name):
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.failed == 0


def test_every_public_name_has_a_numpydoc_docstring_with_examples():
    for package in (cl, ft):
        for name in package.__all__:
            obj = getattr(package, name)
            doc = inspect.getdoc(obj) or ""
            assert "Examples\n--------" in doc and ">>> " in doc, name
            # a record documents its attributes; estimators and functions their parameters
            assert ("Attributes\n----------" if name == "DecisionGraph" else "Parameters\n----------") in doc, name
