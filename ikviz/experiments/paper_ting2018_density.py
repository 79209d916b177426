"""ting2018 Table 2: densities and density ratios of the points SVM misclassifies with Laplacian (L_ψ) and IK.

The paper's protocol (§3): one 80/20 split; SVM with the Laplacian kernel L_ψ
and with Isolation Kernel (iForest, t = 100), each ψ chosen by 5-fold CV as in
Table 3 (:func:`ikviz.experiments.classification.run`); the misclassified test
points split into "Laplacian only", "both kernels" and "Isolation only". For
each such point and its nearest neighbour of the other class (in the whole
dataset), the density ρ by a Gaussian product-kernel KDE over the whole dataset
with bandwidth b_i = σ_i (4 / ((d + 2) n))^(1/(d+4)) (footnote 2); the table
gives the mean of max(ρ, ρ̄), of min(ρ, ρ̄) and of their ratio per group. The
paper does not say whether a point's own kernel term counts in its density;
in 20 to 60 dimensions it decides the result (with it, every isolated point
has about the same density), so both readings are reported.
Features are min-max scaled as in Table 3; the ratio does not depend on it.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..params import setting
from ..runner import Memo, Progress, resolve, within
from . import classification
from ..verdicts import Claim, Finding, all_parts, direction, number, readings

#: the paper's rows -> ikviz's datasets
DATASETS = {"Wilt": "wilt", "German": "german", "Spam": "spambase", "Qsar": "qsar-biodeg"}
GROUPS = ("Laplacian", "Both kernels", "Isolation")
#: ting2018 Table 2 as printed: row -> group -> (count, mean max density, mean min density, mean ratio)
PAPER = {"Wilt": {"Laplacian": (37, .5596, .1947, 7.2), "Both kernels": (15, .4952, .2649, 2.3),
                  "Isolation": (6, .2988, .2415, 1.5)},
         "German": {"Laplacian": (9, .0626, .0010, 62.6), "Both kernels": (37, .1053, .0245, 7.9),
                    "Isolation": (6, .0715, .0275, 1.8)},
         "Spam": {"Laplacian": (14, .0991, .0169, 6.4), "Both kernels": (48, .0506, .0120, 4.8),
                  "Isolation": (15, .0330, .0169, 2.2)},
         "Qsar": {"Laplacian": (4, .2618, .0218, 16.9), "Both kernels": (27, .1606, .0356, 6.3),
                  "Isolation": (6, .1579, .0340, 4.5)}}


#: what ``ikviz reproduce ting2018-density`` says it reproduces (see :mod:`ikviz.reproduce`), and its quick size
SOURCE = "ting2018 Table 2"
DESCRIPTION = ("densities (Gaussian product KDE, footnote 2's bandwidth) and density ratios of the test points "
               "SVM misclassifies with L_psi only, both, IK only (CV-tuned as Table 3, one 80/20 split) on Wilt, "
               "German, Spam and Qsar; with and without a point's own kernel term (the paper does not say)")
QUICK = {"datasets": ("German", "Qsar")}


@dataclass(frozen=True)
class Params:
    """Which of Table 2's datasets, the split's seed and IK's trees (the paper: all four, one split, t = 100)."""

    datasets: tuple[str, ...] = setting(tuple(DATASETS), "datasets (the paper's row names)")
    t: int = setting(100, "IK trees t")
    seed: int = setting(0, "seed of the 80/20 split")


@dataclass(frozen=True)
class Result:
    params: Params
    table: dict      # row -> reading -> group -> {"count", "max_density", "min_density", "ratio"}
    chosen: dict     # row -> kernel -> chosen parameters


def kde_bandwidth(X: np.ndarray) -> np.ndarray:
    """Footnote 2's per-dimension bandwidth b_i = σ_i (4 / ((d + 2) n))^(1/(d+4)) (a constant dimension takes σ_i = 1).

    Examples
    --------
    >>> kde_bandwidth(np.array([[0.0, 1.0], [2.0, 1.0]])).round(4).tolist()
    [0.8909, 0.8909]
    """
    n, d = X.shape
    sigma = X.std(axis=0)
    return np.where(sigma > 0, sigma, 1.0) * (4.0 / ((d + 2) * n)) ** (1.0 / (d + 4))


def log_kde(points: np.ndarray, X: np.ndarray, bandwidth: np.ndarray, exclude: np.ndarray | None = None) -> np.ndarray:
    """Log of the Gaussian product-kernel density of each row of ``points`` over the rows of ``X``.

    ``exclude[i]``: the row of ``X`` that is ``points[i]`` itself, left out (leave-one-out), or None.

    Examples
    --------
    >>> X = np.zeros((4, 1))
    >>> float(np.exp(log_kde(np.zeros((1, 1)), X, np.ones(1)))[0].round(4))
    0.3989
    """
    from scipy.special import logsumexp

    z2 = np.sum(((points[:, None, :] - X[None, :, :]) / bandwidth) ** 2, axis=2)
    n = len(X)
    if exclude is not None:
        z2[np.arange(len(points)), exclude] = np.inf
        n -= 1
    log_norm = np.sum(np.log(bandwidth)) + X.shape[1] / 2 * np.log(2 * np.pi)
    return logsumexp(-0.5 * z2, axis=1) - np.log(n) - log_norm


#: how a point's own kernel term enters its density: the paper does not say
READINGS = {"with itself": False, "leave-one-out": True}


def table_row(X, y, Xt, yt, wrong_lap: np.ndarray, wrong_ik: np.ndarray) -> dict:
    """One dataset's block of Table 2 (per reading of the KDE) from the two kernels' misclassified test points."""
    from sklearn.metrics import pairwise_distances

    Xall, yall = np.vstack([X, Xt]), np.concatenate([y, yt])
    b = kde_bandwidth(Xall)
    groups = {"Laplacian": wrong_lap & ~wrong_ik, "Both kernels": wrong_lap & wrong_ik,
              "Isolation": wrong_ik & ~wrong_lap}
    out = {reading: {} for reading in READINGS}
    for name, mask in groups.items():
        own = len(X) + np.flatnonzero(mask)               # the test points' rows in Xall
        dist = pairwise_distances(Xall[own], Xall)
        dist[yall[own][:, None] == yall[None, :]] = np.inf
        other = np.argmin(dist, axis=1) if mask.any() else own
        for reading, loo in READINGS.items():
            if not mask.any():
                out[reading][name] = {"count": 0, "max_density": None, "min_density": None, "ratio": None}
                continue
            a = log_kde(Xall[own], Xall, b, own if loo else None)
            c = log_kde(Xall[other], Xall, b, other if loo else None)
            hi, lo = np.maximum(a, c), np.minimum(a, c)
            out[reading][name] = {"count": int(mask.sum()), "max_density": float(np.exp(hi).mean()),
                                  "min_density": float(np.exp(lo).mean()), "ratio": float(np.exp(hi - lo).mean())}
    return out


def run(params: Params = Params(), *, memo: Memo | None = None, progress: Progress | None = None) -> Result:
    """Table 2's protocol on each dataset of ``params``.

    Examples
    --------
    >>> res = run(Params(datasets=("German",), t=20))       # doctest: +SKIP
    >>> sorted(res.table["German"])                         # doctest: +SKIP
    ['Both kernels', 'Isolation', 'Laplacian']
    """
    from ..learn.svm import fit_evaluate

    memo, progress = resolve(memo, progress)
    unknown = [d for d in params.datasets if d not in DATASETS]
    if unknown:
        raise ValueError(f"datasets must be among {list(DATASETS)} (ting2018 Table 2's rows); got {unknown}.")
    table, chosen = {}, {}
    for i, row in enumerate(params.datasets):
        step = within(progress, i / len(params.datasets), (i + 1) / len(params.datasets), row)
        p = classification.Params(dataset=DATASETS[row], kernels=("laplacian", "ik"), grid="ting2018",
                                  ik_method="iforest", t=params.t, seed=params.seed, regions=False)
        res = classification.run(p, memo=memo, progress=step)
        X, y, Xt, yt = memo(classification.make_data)(p.data)
        wrong = {}
        for ev in res.evaluations:
            _, model = fit_evaluate(ev.kernel, ev.params, X, y, Xt, yt, C=p.C, t=p.t, ik_method=p.ik_method,
                                    seed=p.seed)
            wrong[ev.kernel] = model.predict(Xt) != yt
        table[row] = table_row(X, y, Xt, yt, wrong["laplacian"], wrong["ik"])
        chosen[row] = {ev.kernel: ev.params for ev in res.evaluations}
    progress(1.0, "done")
    return Result(params, table, chosen)


def numbers(result: Result) -> dict:
    """The JSON numbers: ikviz's table, the paper's beside it, the chosen parameters."""
    paper = {row: {g: dict(zip(("count", "max_density", "min_density", "ratio"), PAPER[row][g])) for g in GROUPS}
             for row in result.table}
    return {"table": result.table, "paper": paper, "chosen": result.chosen}


# ------------------------------------------------------------------ the claims it tests
def _ting2018_table2(n):
    """Per dataset: "Laplacian only" has the highest mean ratio and "Isolation only" the lowest; per KDE reading."""
    table = number(n, "table")
    verdicts, text = {}, []
    readings_seen = list(next(iter(table.values())))
    for reading in readings_seen:
        parts = {}
        for row, by_reading in table.items():
            r = {g: v["ratio"] for g, v in by_reading[reading].items()}
            if None in r.values():
                parts[f"{row}: a group is empty"] = "does not reproduce"
                continue
            parts[f"{row}: Laplacian only highest"] = direction(r["Laplacian"] / max(r["Both kernels"], r["Isolation"])
                                                                - 1, None, tol=0.0)
            parts[f"{row}: Isolation only lowest"] = direction(min(r["Both kernels"], r["Laplacian"]) / r["Isolation"]
                                                               - 1, None, tol=0.0)
            text.append(f"{row} ({reading}): Laplacian {r['Laplacian']:.3g}, both {r['Both kernels']:.3g}, "
                        f"Isolation {r['Isolation']:.3g}")
        verdicts[reading] = all_parts(parts).verdict
    return Finding.judged("mean density ratio of misclassified points: " + "; ".join(text),
                          readings("whether a point's own kernel term counts in its density", verdicts))


#: the paper's claims this reproduction tests (gathered by :data:`ikviz.claims.CLAIMS`)
CLAIMS = (
    Claim("ting2018-table2", "ting2018", "Table 2, density ratio of misclassified points",
          "It is interesting to note that points which are misclassified by Laplacian only has the highest density "
          "ratio; and by Isolation only has the lowest ratio on all these datasets.",
          "ratio Laplacian/both/Isolation: Wilt 7.2/2.3/1.5, German 62.6/7.9/1.8, Spam 6.4/4.8/2.2, Qsar 16.9/6.3/4.5",
          "ting2018-density", _ting2018_table2,
          "One 80/20 split; the paper does not say whether a point's own kernel term counts in its KDE density "
          "(with it, in 20-60 dimensions every isolated point has about the same density).",
          "classification?data=german", "{datasets}, one 80/20 split (seed {seed})", ("t",)),
)
