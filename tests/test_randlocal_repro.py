"""wang2017's protocol on shipped data (ikviz.experiments.randlocal): validation, and the scores are the real ones."""

import numpy as np
import pytest
from sklearn.cluster import KMeans
from sklearn.metrics import normalized_mutual_info_score

from ikviz.data import load
from ikviz.experiments import randlocal as exp

SMALL = exp.Params(max_rows=300, folds=2, kmeans_repeats=2, n_sets=20, anchors_grid=(8, 32))


@pytest.mark.parametrize("bad, message", [({"folds": 1}, "folds must be at least 2"),
                                          ({"kmeans_repeats": 0}, "kmeans_repeats and n_sets"),
                                          ({"anchors_grid": (1,)}, "anchors_grid needs values")])
def test_bad_parameters_are_refused(bad, message):
    with pytest.raises(ValueError, match=message):
        exp.Params(**bad)


def test_raw_kmeans_scores_are_scikit_learns_own():
    out = exp.cluster_once(SMALL, 1)
    X, y = load("digits", scale="minmax", max_rows=300, seed=0)
    labels = KMeans(len(np.unique(y)), n_init=1, random_state=1).fit_predict(X)
    assert out["RAW"][1] == pytest.approx(normalized_mutual_info_score(y, labels))
    assert set(out) == {"RAW", "RandLocal/8", "RandLocal/32"}


def test_the_best_grid_value_is_reported_and_its_scores_kept():
    res = exp.run(SMALL)
    assert res.best_anchors["acc"] in SMALL.anchors_grid and res.best_anchors["nmi"] in SMALL.anchors_grid
    repeats = [exp.cluster_once(SMALL, r) for r in range(SMALL.kmeans_repeats)]
    best = max(np.mean([r[f"RandLocal/{a}"][0] for r in repeats]) for a in SMALL.anchors_grid)
    assert res.kmeans_acc["RandLocal"][0] == pytest.approx(best)
    assert 50 < res.micro_f1["RAW"][0] <= 100  # a percentage, as the paper prints it and res.n_classification == 300
