"""wang2017 Fig. 4 (outlier detection AUC) and Fig. 5 (sensitivity of RandLocal to ε and T).

Fig. 5 (§4.7): RandLocal features for each ε and T, then a linear SVM by
k-fold cross-validation (C chosen by an inner 3-fold CV on the training part),
Micro-F1 in %; on the full ijcnn1 training file (fetched), sampled to
``max_rows``. The paper's grids: ε ∈ {0, 1e-5, 1e-4, 1e-3, 1e-2, 0.1} at
T = 400 and T ∈ {50, 100, ..., 1000} at ε = 1e-4.

Fig. 4 (§4.6): the k-nearest-neighbour distance as outlier score on the raw
features and on RandLocal's (ε = 1e-4, T = 400), AUC against the labels; on
SPAMBASE, whose 1,813 spam rows are the outliers (the paper's ALOI, KDDCup99
and PageBlock are not here). The paper does not give k: the run reports
each of ``ks``. RBF, DAE and SDAE are not re-run.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..data import load
from ..params import setting
from ..runner import Memo, Progress, resolve

#: the paper's grids (Fig. 5)
EPSILONS = (0.0, 1e-5, 1e-4, 1e-3, 1e-2, 0.1)
SETS = (50, 100, 200, 300, 400, 500, 600, 800, 1000)


@dataclass(frozen=True)
class SensitivityParams:
    """Fig. 5's grids on one dataset (the paper: every dataset of Table 3, 5-fold CV)."""

    dataset: str = setting("ijcnn1", "dataset")
    epsilons: tuple[float, ...] = setting(EPSILONS, "ε values (at T = 400)")
    sets: tuple[int, ...] = setting(SETS, "T values (at ε = 1e-4)")
    max_rows: int = setting(10_000, "rows (sampled)", low=200, high=50_000)
    folds: int = setting(5, "CV folds", low=2, high=10)
    seed: int = setting(0, "seed")


@dataclass(frozen=True)
class SensitivityResult:
    params: SensitivityParams
    by_epsilon: dict   # ε -> Micro-F1 (%), mean over folds
    by_sets: dict      # T -> Micro-F1 (%)


def micro_f1(dataset: str, n_sets: int, epsilon: float, *, max_rows: int, folds: int, seed: int) -> float:
    """Mean Micro-F1 (%) over ``folds`` of a linear SVM on RandLocal(``n_sets``, ``epsilon``) features.

    Examples
    --------
    >>> 50 < micro_f1("iris", 20, 1e-4, max_rows=150, folds=2, seed=0) <= 100
    True
    """
    from sklearn.metrics import f1_score
    from sklearn.model_selection import GridSearchCV, StratifiedKFold
    from sklearn.svm import LinearSVC

    from ..features import RandLocal

    X, y = load(dataset, scale="minmax", max_rows=max_rows, seed=seed)
    scores = []
    for fold, (train, test) in enumerate(StratifiedKFold(folds, shuffle=True, random_state=seed).split(X, y)):
        features = RandLocal(n_sets=n_sets, epsilon=epsilon, min_anchors=32, max_anchors=1024,
                             random_state=seed + fold)
        Z = features.fit_transform(X[train])
        model = GridSearchCV(LinearSVC(), {"C": [0.01, 0.1, 1.0, 10.0]},
                             cv=StratifiedKFold(3, shuffle=True, random_state=seed)).fit(Z, y[train])
        scores.append(100 * f1_score(y[test], model.predict(features.transform(X[test])), average="micro"))
    return float(np.mean(scores))


def run_sensitivity(params: SensitivityParams = SensitivityParams(), *, memo: Memo | None = None,
                    progress: Progress | None = None) -> SensitivityResult:
    """Micro-F1 over the ε grid (T = 400) and the T grid (ε = 1e-4); each setting is a block of ``memo``."""
    memo, progress = resolve(memo, progress)
    common = dict(max_rows=params.max_rows, folds=params.folds, seed=params.seed)
    jobs = [("ε", e, 400, e) for e in params.epsilons] + [("T", t, t, 1e-4) for t in params.sets]
    by_eps, by_sets = {}, {}
    for i, (name, value, n_sets, eps) in enumerate(jobs):
        progress(i / len(jobs), f"{name} = {value:g}")
        score = memo(micro_f1)(params.dataset, n_sets, eps, **common)
        (by_eps if name == "ε" else by_sets)[value] = score
    progress(1.0, "done")
    return SensitivityResult(params, by_eps, by_sets)


@dataclass(frozen=True)
class OutlierParams:
    """Fig. 4 on SPAMBASE: k-NN distance outlier score on raw and RandLocal features, ``repeats`` RandLocal seeds."""

    dataset: str = setting("spambase", "dataset (outliers: class 1)")
    ks: tuple[int, ...] = setting((5, 10, 20), "k of the k-NN distance (the paper does not give it)")
    n_sets: int = setting(400, "RandLocal T")
    epsilon: float = setting(1e-4, "RandLocal ε")
    repeats: int = setting(10, "repeats (the paper: 10)", low=1, high=20)
    max_rows: int | None = setting(None, "rows (None: all)")
    seed: int = setting(0, "seed")


@dataclass(frozen=True)
class OutlierResult:
    params: OutlierParams
    auc: dict          # k -> {"RAW": auc, "RandLocal": mean auc over repeats}
    n: int
    n_outliers: int


def knn_auc(Z, outlier: np.ndarray, k: int) -> float:
    """AUC of the distance to the k-th nearest neighbour (itself excluded) as an outlier score.

    Examples
    --------
    >>> X = np.vstack([np.zeros((20, 2)) + np.random.default_rng(0).normal(0, .1, (20, 2)), [[5, 5]]])
    >>> knn_auc(X, np.r_[np.zeros(20), 1], k=3)
    1.0
    """
    from sklearn.metrics import roc_auc_score
    from sklearn.neighbors import NearestNeighbors

    dist, _ = NearestNeighbors(n_neighbors=k + 1).fit(Z).kneighbors(Z)
    return float(roc_auc_score(outlier, dist[:, k]))


def run_outliers(params: OutlierParams = OutlierParams(), *, memo: Memo | None = None,
                 progress: Progress | None = None) -> OutlierResult:
    """AUC of the k-NN distance score on raw features and on RandLocal's, for each k."""
    from ..features import RandLocal

    memo, progress = resolve(memo, progress)
    X, y = load(params.dataset, scale="minmax", max_rows=params.max_rows, seed=params.seed)
    outlier = (y == 1).astype(int)
    auc = {k: {"RAW": knn_auc(X, outlier, k), "RandLocal": []} for k in params.ks}
    for r in range(params.repeats):
        progress(r / params.repeats, f"RandLocal features, repeat {r + 1} of {params.repeats}")
        Z = RandLocal(n_sets=params.n_sets, epsilon=params.epsilon, random_state=params.seed + r).fit_transform(X)
        for k in params.ks:
            auc[k]["RandLocal"].append(knn_auc(Z, outlier, k))
    progress(1.0, "done")
    auc = {k: {"RAW": v["RAW"], "RandLocal": float(np.mean(v["RandLocal"]))} for k, v in auc.items()}
    return OutlierResult(params, auc, len(y), int(outlier.sum()))
