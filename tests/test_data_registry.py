"""One data description (ikviz.data.Data) resolved through one loader registry and one step registry.

The equality tests pin each migrated experiment's data to checksums of the
arrays its own private loader gave before the migration (captured from commit
839aca7's code, the same cases run through the old functions): a step out of
order, another scaling formula, another seed or a lost row breaks them.
"""

import json

import numpy as np
import pytest

from ikviz.data import LOADERS, STEPS, Data, Step, data_names, load, resolve, step
from ikviz.data import description
from digests import digest


# ------------------------------------------------------------------ the old loaders' arrays, per experiment
BUILD_UP = {("four-quadrants", 0): "51237b2fa99b8b31", ("four-quadrants", 3): "7dc53c1498adf55c",
            ("uniform", 0): "48acf826fda94543", ("uniform", 3): "8dcdafba12fd0ade",
            ("w-gaussians", 0): "3fecd3f707806535", ("w-gaussians", 3): "77af030073fbe659",
            ("density-ratio", 0): "bfcce61810b11343", ("density-ratio", 3): "8e096f2f5b7c1fc3"}
CLUSTERING = {  # load(data), and projection(data) where w > 1 (its unscaled w-Gaussians)
    '{"name": "w-gaussians", "w": 3, "n_per_cluster": 50, "sigma_b": 3.0, "seed": 2}': "25213507c1f477a5",
    '{}': "cc9af06822332da7",
    '{"name": "density-ratio", "n": 100, "ratio": 20.0, "seed": 1}': "0dac7886a04d4c3c",
    '{"name": "iris", "max_points": 100, "seed": 4}': "c0b1436316d34513",
    '{"name": "wine"}': "dd099fb62c214e1b",
    '{"name": "W_Gaussians", "w": 2, "n_per_cluster": 30}': "a68b51fa1495a28a"}
INDEXING = {("iris", 100, 10000, 3): "51526cbbdd3ddfdd", ("wine", 2000, 10000, 0): "a11b96fef56f442c",
            ("gaussians", 500, 20, 1): "167d784bc227909d"}
INDEXING_SLOW = {("w-gaussians", 300, 10000, 0): "9bdd84c0b5d5527f"}  # 2,000 x 10,000 generated first
TSNE = {("w-gaussians", 3, 20, 1): "f5a15b4a8e1d5aa5", ("w-gaussians-unequal", 2, 30, 0): "cdd7cb0e3bb0222d",
        ("iris", 2, 500, 0): "8f023050f49a5b3a", ("w_gaussians", 1, 25, 5): "d7b9c538efcf7558"}
CLASSIFICATION = {
    '{"dataset": "density-ratio", "ratio": 20.0, "shape": "gaussian", "n": 100, "n_test": 300}': "47a666f09ab6ba47",
    '{"n": 50, "n_test": 70, "seed": 4}': "9fa7431ac88a5a43",
    '{"dataset": "w-gaussians", "w": 5, "n": 60, "n_test": 80, "seed": 2}': "7307411961b35170",
    '{"dataset": "w-gaussians", "n": 100, "w": 3, "fresh_test": false}': "7ea4c421625fdd75",
    '{"dataset": "density-ratio", "n": 102, "fresh_test": false, "seed": 1}': "c93ae2443e7d5ecd",
    '{"dataset": "wine", "seed": 1}': "7cf8a742a39d2e7d",
    '{"dataset": "iris"}': "3b8ef7b512575e78"}
SURFACES = {("uniform", 200, 3): "73a79a808bdec65d", ("quadrants", (160, 40, 40, 10), 1): "713204ad40a46dbd"}


@pytest.mark.parametrize("case", list(BUILD_UP))
def test_build_up_data_as_before(case):
    from ikviz.experiments import build_up

    assert digest(*build_up.load_data(*case)) == BUILD_UP[case]


@pytest.mark.parametrize("case", list(CLUSTERING))
def test_clustering_data_as_before(case):
    from ikviz.experiments import clustering

    data = clustering.Data(**json.loads(case))
    assert digest(*clustering.load(data), clustering.projection(data) if data.w > 1 else 0) == CLUSTERING[case]


@pytest.mark.parametrize("case", list(INDEXING) + [pytest.param(c, marks=pytest.mark.slow) for c in INDEXING_SLOW])
def test_indexing_data_as_before_scaled_then_subsampled(case):
    from ikviz.experiments import indexing

    X, y = indexing.load(*case)
    assert digest(X, y, X.flags.writeable, X.flags.c_contiguous) == {**INDEXING, **INDEXING_SLOW}[case]


def test_indexing_scales_before_it_subsamples():
    from ikviz.experiments import indexing

    X, _ = indexing.load("iris", 100, seed=3)
    stated = indexing.describe("iris", 100, seed=3)
    assert [s.name for s in stated.steps] == ["rescale", "subsample", "read-only"]
    swapped = Data(stated.source, seed=stated.seed, steps=(stated.steps[1], stated.steps[0]))
    assert not np.array_equal(X, swapped.resolve().X)  # the subsample's own range: other numbers
    assert not X.flags.writeable


@pytest.mark.parametrize("case", list(TSNE))
def test_tsne_data_as_before(case):
    from ikviz.experiments import tsne

    d = tsne.load_data(*case)
    assert digest(d.X, d.labels, -2 if d.origin is None else d.origin, list(d.classes)) == TSNE[case]


@pytest.mark.parametrize("case", list(CLASSIFICATION))
def test_classification_data_as_before(case):
    from ikviz.experiments import classification

    assert digest(*classification.make_data(classification.DataSpec(**json.loads(case)))) == CLASSIFICATION[case]


@pytest.mark.parametrize("case", list(SURFACES))
def test_surfaces_data_as_before(case):
    from ikviz.experiments import surfaces

    assert digest(surfaces.make_data(case)) == SURFACES[case]


def test_dimensionality_clusters_as_before_and_read_only():
    from ikviz.experiments import dimensionality

    X, y = dimensionality.cluster_data(5, 50, 1.0, 2.0, 4.0, 0)
    assert digest(X, y, X.flags.writeable) == "357351f1a34271eb"


@pytest.fixture
def resolved(monkeypatch):
    """Every array set :func:`ikviz.data.resolve` hands out while the test runs."""
    seen = []
    original = description.resolve

    def spy(data, **kwargs):
        got = original(data, **kwargs)
        seen.append(got)
        return got

    monkeypatch.setattr(description, "resolve", spy)
    return seen


def test_the_uniform_data_of_density_kernel_shapes_and_hubness_as_before(resolved):
    """The data of density's Fig. 2 cell, kernel shapes' sharpness and the hubness study: the old uniform() calls."""
    from ikviz.experiments import density, dimensionality, kernel_shapes

    density.rmse_cell(3, 8, method="ik_anne", n=120, t=5, seed=1)
    assert digest(resolved[-1].X) == "222be752952b1bab"  # uniform(120, 3, seed=1 + 3)
    dimensionality.k_occurrences("gk", 4, n=200, k=5, seed=1)
    assert digest(resolved[-1].X) == "d0d45a403ba174aa"  # uniform(200, 4, low=0, high=1, seed=sub_seed(1, 5, 4))
    kernel_shapes.sharpness(n=300, psi=8, t=5, ref=(0.25, 0.25), seed=2)
    assert digest(resolved[-1].X) == "105ce78adc7b5d93"  # uniform(300, 2, seed=2)


@pytest.mark.slow
def test_the_tsne_view_step_is_the_views_module_s_tsne_view():
    from ikviz.data.views import tsne_view
    from ikviz.experiments import surfaces

    np.testing.assert_array_equal(surfaces.make_data(("tsne", "iris", 60, 0)), tsne_view("iris", 60, 0)[0])


# ------------------------------------------------------------------------------------- the registries
def test_every_loadable_name_has_one_loader():
    assert list(LOADERS) == data_names()
    assert {"uniform", "four-quadrants", "w-gaussians", "density-ratio", "dense-sparse-clusters", "iris",
            "ijcnn1", "mnist-test"} <= set(LOADERS)


def test_load_is_resolve_of_a_description():
    X, y = load("wine", scale="minmax", max_rows=50, seed=3)
    got = Data("wine", seed=3, steps=(step("subsample", n=50), "minmax")).resolve()
    np.testing.assert_array_equal(X, got.X)
    np.testing.assert_array_equal(y, got.y)
    assert resolve(Data("wine", seed=3, steps=(step("subsample", n=50),))).X.max() > 1  # unscaled without the step


def test_a_description_is_one_hashable_value_whatever_the_spelling():
    a = Data("W_Gaussians", seed=1, options={"w": 2, "n_per_cluster": 5}, steps=("minmax",))
    b = Data("w-gaussians", seed=1, options=(("n_per_cluster", 5), ("w", 2)), steps=(Step("minmax"),))
    assert a == b and hash(a) == hash(b)
    assert a != Data("w-gaussians", seed=2, options={"w": 2, "n_per_cluster": 5}, steps=("minmax",))
    np.testing.assert_array_equal(a.resolve().X, b.resolve().X)
    assert Data("four-quadrants", options={"counts": [4, 2, 2, 1]}) == Data("four-quadrants", options={"counts": (4, 2, 2, 1)})


def test_steps_run_in_the_order_declared():
    scaled_first = Data("iris", seed=5, steps=("rescale", step("subsample", n=20))).resolve().X
    sampled_first = Data("iris", seed=5, steps=(step("subsample", n=20), "rescale")).resolve().X
    assert not np.array_equal(scaled_first, sampled_first)
    assert sampled_first.min() == 0.0 and sampled_first.max() == 1.0
    assert scaled_first.shape == sampled_first.shape == (20, 4)


def test_rescale_and_minmax_are_the_two_old_formulas():
    X = load("wine")[0]
    from sklearn.preprocessing import minmax_scale

    np.testing.assert_array_equal(Data("wine", steps=("minmax",)).resolve().X, minmax_scale(X))
    span = X.max(axis=0) - X.min(axis=0)
    np.testing.assert_array_equal(Data("wine", steps=("rescale",)).resolve().X, (X - X.min(axis=0)) / span)
    square = Data("wine", steps=(step("rescale", low=-1.0, high=1.0),)).resolve().X
    np.testing.assert_array_equal(square, -1.0 + 2.0 * (X - X.min(axis=0)) / span)


def test_split_fresh_test_and_train_scaling():
    got = Data("density-ratio", seed=1, options={"n": 100}, steps=(step("split", test_size=0.25),)).resolve()
    assert got.X.shape == (75, 2) and got.X_test.shape == (25, 2)
    assert sorted(np.bincount(got.y_test).tolist()) == [12, 13]  # stratified
    fresh = Data("density-ratio", seed=1, options={"n": 100}, steps=(step("fresh-test", seed=7, n=40),)).resolve()
    assert fresh.X.shape == (100, 2) and fresh.X_test.shape == (40, 2)
    np.testing.assert_array_equal(fresh.X_test, load("density-ratio", n=40, seed=7)[0])
    real = Data("wine", steps=("split", step("minmax-train", clip=(0.0, 1.0)))).resolve()
    assert real.X.min() == 0.0 and real.X.max() == 1.0 and 0.0 <= real.X_test.min() and real.X_test.max() <= 1.0


def test_origin_and_read_only():
    got = Data("w-gaussians", options={"n_per_cluster": 4, "w": 1}, steps=(step("origin", label=9), "read-only")).resolve()
    assert got.origin == 8 and got.y[-1] == 9 and not got.X[-1].any()
    assert not got.X.flags.writeable and not got.y.flags.writeable
    with pytest.raises(ValueError, match="read-only"):
        got.X[0, 0] = 1.0


@pytest.mark.parametrize("make,match", [
    (lambda: Data("no-such-data").resolve(), "name must be one of"),
    (lambda: Data("iris", steps=("shuffle",)), "unknown step 'shuffle'; choose one of"),
    (lambda: Data("iris", steps="minmax"), "steps must be a tuple of steps"),
    (lambda: Data("iris", seed=-1), "seed must be an integer >= 0"),
    (lambda: Data("iris", steps=(step("subsample", n=0),)).resolve(), "subsample's n must be an integer >= 1"),
    (lambda: Data("iris", steps=(step("fresh-test", seed=1, n=5),)).resolve(), "needs a generator"),
    (lambda: Data("iris", steps=("minmax-train",)).resolve(), "put a 'split' or 'fresh-test' step before it"),
    (lambda: Data("iris", steps=(step("rescale", low=1.0, high=0.0),)).resolve(), "rescale needs low < high"),
    (lambda: Data("uniform", options={"n": 5, "d": 1, "low": 0.0, "high": 1e-300},
                  steps=(step("subsample", n=1), "rescale")).resolve(), "every feature is constant"),
])
def test_clear_errors(make, match):
    with pytest.raises(ValueError, match=match):
        make()


def test_real_data_take_no_options():
    with pytest.raises(TypeError, match="takes no options"):
        Data("iris", options={"n": 5}).resolve()


def test_every_step_is_documented():
    for name in STEPS:
        assert f"``{name}``" in description.__doc__, name
