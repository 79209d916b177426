"""wang2017 Fig. 4 (§4.6): outlier detection AUC on raw and RandLocal features.

The k-nearest-neighbour distance as outlier score on the raw features and on
RandLocal's (ε = 1e-4, T = 400), AUC against the labels; on SPAMBASE, whose
1,813 spam rows are the outliers (the paper's ALOI, KDDCup99 and PageBlock
are not here). The paper does not give k: the run reports each of ``ks``.
RBF, DAE and SDAE are not re-run.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..data import load
from ..params import setting
from ..runner import Memo, Progress, resolve
from ..verdicts import Claim, Finding, direction, fmt, number, readings

#: what ``ikviz reproduce wang2017-outliers`` says it reproduces (see :mod:`ikviz.reproduce`), and its quick size
SOURCE = "wang2017 Fig. 4 (SPAMBASE)"
DESCRIPTION = ("k-NN distance outlier score on raw and RandLocal features (ε = 1e-4, T = 400), AUC, on SPAMBASE "
               "(1,813 spam rows as outliers), for k = 5, 10, 20 (the paper does not give k); ALOI, KDDCup99 "
               "and PageBlock are not here; RBF, DAE and SDAE are not re-run")
QUICK = {"repeats": 2, "max_rows": 2000}


@dataclass(frozen=True)
class Params:
    """Fig. 4 on SPAMBASE: k-NN distance outlier score on raw and RandLocal features, ``repeats`` RandLocal seeds."""

    dataset: str = setting("spambase", "dataset (outliers: class 1)")
    ks: tuple[int, ...] = setting((5, 10, 20), "k of the k-NN distance (the paper does not give it)")
    n_sets: int = setting(400, "RandLocal T")
    epsilon: float = setting(1e-4, "RandLocal ε")
    repeats: int = setting(10, "repeats (the paper: 10)", low=1, high=20)
    max_rows: int | None = setting(None, "rows (None: all)")
    seed: int = setting(0, "seed")


@dataclass(frozen=True)
class Result:
    params: Params
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


def run(params: Params = Params(), *, memo: Memo | None = None,
                 progress: Progress | None = None) -> Result:
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
    return Result(params, auc, len(y), int(outlier.sum()))



def numbers(result: Result) -> dict:
    """The JSON numbers of Fig. 4: AUC per k and feature set, and the data's size."""
    return {"auc": result.auc, "n": result.n, "n_outliers": result.n_outliers}


# ------------------------------------------------------------------ the claims it tests
def _wang2017_outliers(n):
    """RandLocal's features give a better k-NN outlier AUC than the raw ones, under each k (the paper gives none)."""
    auc = number(n, "auc")
    verdicts = {f"k = {k}": direction(v["RandLocal"] - v["RAW"]) for k, v in auc.items()}
    text = "; ".join(f"k = {k}: AUC RAW {fmt(v['RAW'], 3)}, RandLocal {fmt(v['RandLocal'], 3)}" for k, v in auc.items())
    return Finding.judged(f"{text} ({n.get('n_outliers', '?')} outliers in {n.get('n', '?')} rows)",
                          readings("k of the k-NN distance score", verdicts))


#: the paper's claims this reproduction tests (gathered by :data:`ikviz.claims.CLAIMS`)
CLAIMS = (
    Claim("wang2017-fig4", "wang2017", "Fig. 4, SPAMBASE, outlier AUC",
          "The result shows the strong ability of RandLocal in handling outliers.",
          "figure only: RandLocal's AUC above the raw features'", "wang2017-outliers", _wang2017_outliers,
          "k-NN distance score on min-max scaled features; the paper gives no k, so each k is a reading; ALOI, "
          "KDDCup99 and PageBlock are not here.", "classification?data=spambase",
          "{dataset}, {max_rows} rows (None: all 4,601)", ("n_sets", "epsilon", "repeats", "ks")),
)
