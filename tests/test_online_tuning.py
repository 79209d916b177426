"""tune_eta fits each learner's feature map once for its five step sizes, with the rates it had before."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from digests import digest
from ikviz.experiments import online
from ikviz.learn import IKOGDClassifier, RandLocalOGDClassifier

#: recorded from the code before the sharing (five separate passes), german, n = 2,000: (chosen eta, rates digest)
BEFORE = {"IK+OGD": (2.0, "19115a824e062144"), "RandLocal+OGD": (2.0, "2b3bb5cf5d5e5b73")}


def _params(method):
    return online.learner_params(method, replace(online.Params(), dataset="german", n=2000))


@pytest.mark.parametrize("method", sorted(BEFORE))
def test_tuned_rates_are_bit_identical_and_the_map_is_fitted_once(method, monkeypatch):
    cls = {"IK+OGD": IKOGDClassifier, "RandLocal+OGD": RandLocalOGDClassifier}[method]
    fits, maps = [], []
    fit_map, transform = cls._fit_map, cls._transform
    monkeypatch.setattr(cls, "_fit_map", lambda self, X: fits.append(X.shape[0]) or fit_map(self, X))
    monkeypatch.setattr(cls, "_transform", lambda self, X: maps.append(X.shape[0]) or transform(self, X))
    online.warm_up(method, lambda: None)   # the warm-up pass is not the tuning's
    eta, rates = online.tune_eta(method, _params(method))
    assert (eta, digest([rates[e] for e in online.ETAS])) == BEFORE[method]
    assert len(fits) == 1                                     # was one per step size: 5
    assert sum(maps) == 1000                                  # german's 1,000 rows mapped once (was 5 times)


def test_a_shared_cache_never_lends_a_map_to_other_settings():
    rng = np.random.default_rng(0)
    X = rng.uniform(-1, 1, size=(500, 3))
    y = (X[:, 0] > 0).astype(int)
    cache = {}
    a = IKOGDClassifier(psi=8, t=20, prefix=200, random_state=0).share_features(cache).fit(X, y)
    b = IKOGDClassifier(psi=16, t=20, prefix=200, random_state=0).share_features(cache).fit(X, y)
    c = IKOGDClassifier(psi=8, t=20, prefix=200, random_state=1).share_features(cache).fit(X, y)
    assert a.feature_map_ is not b.feature_map_ and a.feature_map_ is not c.feature_map_
    alone = IKOGDClassifier(psi=16, t=20, prefix=200, random_state=0).fit(X, y)
    np.testing.assert_array_equal(b.coef_, alone.coef_)
    with pytest.raises(ValueError, match="cache must be a dict"):
        IKOGDClassifier().share_features([])
