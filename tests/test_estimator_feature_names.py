"""Issue 31 item 4: every estimator of ikviz's features/, learn/, clustering/ and embedding/ records a data
frame's column names at fit and refuses, at transform / predict, a frame whose columns were renamed or
reordered, as scikit-learn's own transformers do (through scikit-learn's public ``validate_data``)."""

import warnings

import numpy as np
import pandas as pd
import pytest

from ikviz import clustering as cl
from ikviz import features as ft
from ikviz.embedding import IsolationKernelAffinities
from ikviz.learn import FOGDClassifier, IKOGDClassifier, KernelGram, NOGDClassifier, RandLocalOGDClassifier

rng = np.random.default_rng(0)
FRAME = pd.DataFrame(rng.normal(size=(80, 3)), columns=["height", "weight", "age"])
Y = (FRAME["height"] > 0).astype(int).to_numpy()
REORDERED = FRAME[["age", "weight", "height"]]
RENAMED = FRAME.set_axis(["h", "w", "a"], axis=1)

TRANSFORMERS = [
    ft.RandomFourierFeatures(n_components=20, random_state=0),
    ft.LowRankNystroem(budget=8, random_state=0),
    ft.RandLocal(n_sets=5, random_state=0),
    KernelGram(),
]
CLASSIFIERS = [
    FOGDClassifier(n_components=20, random_state=0),
    NOGDClassifier(budget=10),
    IKOGDClassifier(psi=8, t=20, prefix=40, random_state=0),
    RandLocalOGDClassifier(n_sets=5, max_anchors=8, prefix=40, random_state=0),
]
CLUSTERERS = [cl.DensityPeaks(), cl.SpectralClustering(psi=8, t=20, random_state=0)]

MESSAGE = "The feature names should match those that were passed during fit"


@pytest.mark.parametrize("estimator", TRANSFORMERS, ids=lambda e: type(e).__name__)
def test_transformers_refuse_reordered_or_renamed_columns(estimator):
    estimator.fit(FRAME)
    assert list(estimator.feature_names_in_) == ["height", "weight", "age"]
    estimator.transform(FRAME)
    for other in (REORDERED, RENAMED):
        with pytest.raises(ValueError, match=MESSAGE):
            estimator.transform(other)
    with pytest.raises(ValueError, match=MESSAGE):
        estimator.transform(FRAME.assign(extra=1.0))
    with pytest.raises(ValueError, match=rf"X has 4 features, but {type(estimator).__name__} is expecting 3"):
        estimator.transform(FRAME.assign(extra=1.0).to_numpy())


@pytest.mark.parametrize("estimator", CLASSIFIERS, ids=lambda e: type(e).__name__)
def test_classifiers_refuse_reordered_or_renamed_columns(estimator):
    estimator.fit(FRAME, Y)
    assert list(estimator.feature_names_in_) == ["height", "weight", "age"]
    estimator.predict(FRAME)
    for method in (estimator.predict, estimator.decision_function):
        for other in (REORDERED, RENAMED):
            with pytest.raises(ValueError, match=MESSAGE):
                method(other)
    with pytest.raises(ValueError, match=MESSAGE):
        estimator.partial_fit(REORDERED, Y)


@pytest.mark.parametrize("estimator", CLUSTERERS, ids=lambda e: type(e).__name__)
def test_clusterers_record_the_names_and_forget_them_on_an_array(estimator):
    estimator.fit(FRAME)
    assert list(estimator.feature_names_in_) == ["height", "weight", "age"]
    estimator.fit(FRAME.to_numpy())
    assert not hasattr(estimator, "feature_names_in_")


def test_an_array_after_a_frame_warns_as_scikit_learn_does():
    rff = ft.RandomFourierFeatures(n_components=5, random_state=0).fit(FRAME)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        rff.transform(FRAME.to_numpy())
    assert any("does not have valid feature names" in str(w.message) for w in caught)


def test_tsne_affinities_refuse_reordered_columns_for_new_points():
    aff = IsolationKernelAffinities(FRAME, psi=8, t=20, random_state=0)
    assert list(aff.feature_names_in_) == ["height", "weight", "age"]
    assert aff.to_new(FRAME.iloc[:3], k_neighbours=5).shape == (3, 80)
    with pytest.raises(ValueError, match=MESSAGE):
        aff.to_new(REORDERED.iloc[:3], k_neighbours=5)
