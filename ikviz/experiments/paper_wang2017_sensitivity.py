"""wang2017 Fig. 5 (§4.7): the sensitivity of RandLocal to ε and T.

RandLocal features for each ε and T, then a linear SVM by k-fold
cross-validation (C chosen by an inner 3-fold CV on the training part),
Micro-F1 in %; on the full ijcnn1 training file (fetched), sampled to
``max_rows``. The paper's grids: ε ∈ {0, 1e-5, 1e-4, 1e-3, 1e-2, 0.1} at
T = 400 and T ∈ {50, 100, ..., 1000} at ε = 1e-4.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..data import load
from ..params import setting
from ..runner import Memo, Progress, resolve
from ..verdicts import Claim, Finding, all_parts, direction, number

#: the paper's grids (Fig. 5)
EPSILONS = (0.0, 1e-5, 1e-4, 1e-3, 1e-2, 0.1)
SETS = (50, 100, 200, 300, 400, 500, 600, 800, 1000)


@dataclass(frozen=True)
class Params:
    """Fig. 5's grids on one dataset (the paper: every dataset of Table 3, 5-fold CV)."""

    dataset: str = setting("ijcnn1", "dataset")
    epsilons: tuple[float, ...] = setting(EPSILONS, "ε values (at T = 400)")
    sets: tuple[int, ...] = setting(SETS, "T values (at ε = 1e-4)")
    max_rows: int = setting(10_000, "rows (sampled)", low=200, high=50_000)
    folds: int = setting(5, "CV folds", low=2, high=10)
    seed: int = setting(0, "seed")


@dataclass(frozen=True)
class Result:
    params: Params
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


def run(params: Params = Params(), *, memo: Memo | None = None,
                    progress: Progress | None = None) -> Result:
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
    return Result(params, by_eps, by_sets)


#: what ``ikviz reproduce wang2017-sensitivity`` says it reproduces (see :mod:`ikviz.reproduce`), and its quick size
SOURCE = "wang2017 Fig. 5"
DESCRIPTION = ("Micro-F1 of a linear SVM on RandLocal features over the paper's ε grid (T = 400) and T grid "
               "(ε = 1e-4), k-fold CV, on the full ijcnn1 training file (fetched), sampled")
QUICK = {"epsilons": (0.0, 1e-5, 1e-4, 0.1), "sets": (50, 200, 400), "max_rows": 2000, "folds": 2}


def numbers(result: Result) -> dict:
    """The JSON numbers of Fig. 5: Micro-F1 (%) by ε and by T."""
    return {"micro_f1_by_epsilon": result.by_epsilon, "micro_f1_by_sets": result.by_sets}


# ------------------------------------------------------------------ the claims it tests
def _by_value(table: dict) -> dict[float, float]:
    return {float(k): float(v) for k, v in table.items()}


def _wang2017_sets(n):
    """With T the Micro-F1 first rises, then stays (T = 200 to 400 gives good performance)."""
    f1 = _by_value(number(n, "micro_f1_by_sets"))
    ts = sorted(f1)
    parts = {f"rises from T = {ts[0]:g} to 400": direction((f1[400.0] - f1[ts[0]]) / 100, None, tol=0.001)}
    beyond = [t for t in ts if t > 400]
    if beyond:
        parts["stable beyond T = 400"] = "holds" if abs(f1[max(beyond)] - f1[400.0]) <= 0.5 else "does not reproduce"
    return Finding.judged("Micro-F1 by T: " + ", ".join(f"{t:g}: {f1[t]:.2f}" for t in ts)
                          + ("" if beyond else " (no T above 400 at this size: 'stable' not tested)"),
                          all_parts(parts), f1[400.0])


def _wang2017_epsilon(n):
    """ε = 0 is not as good as ε = 1e-5."""
    f1 = _by_value(number(n, "micro_f1_by_epsilon"))
    return Finding("Micro-F1 by ε: " + ", ".join(f"{e:g}: {v:.2f}" for e, v in sorted(f1.items())),
                   direction((f1[1e-5] - f1[0.0]) / 100, None, tol=0.001), f1[1e-5])


#: the paper's claims this reproduction tests (gathered by :data:`ikviz.claims.CLAIMS`)
CLAIMS = (
    Claim("wang2017-fig5-T", "wang2017", "Fig. 5, T",
          "Generally, with the increment of T, the performance tends to first increase then become stable.",
          "figure only: Micro-F1 rises with T, then flat (T ≈ 200-400 good)", "wang2017-sensitivity",
          _wang2017_sets, "Linear SVM on RandLocal features, Micro-F1; one dataset (IJCNN), sampled.",
          "classification?data=ijcnn1-10k", "{dataset} (49,990 rows), {max_rows} sampled, {folds}-fold CV",
          ("sets",)),
    Claim("wang2017-fig5-eps", "wang2017", "Fig. 5, ε",
          "When we set ε = 0 ... the performance is not as good as the performance when ε is 1e-5.",
          "figure only: ε = 0 below ε = 1e-5", "wang2017-sensitivity", _wang2017_epsilon,
          "A gain of 0.1 Micro-F1 point or more counts (the figure gives no size).",
          "classification?data=ijcnn1-10k", "{dataset} (49,990 rows), {max_rows} sampled, {folds}-fold CV",
          ("epsilons",)),
)
