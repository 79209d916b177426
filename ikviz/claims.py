"""Every paper claim checked in one place: the paper's number, ikviz's number under the paper's protocol, a verdict.

A :class:`Claim` names the reproduction that tests it (an entry of
:mod:`ikviz.reproduce`) and a check that reads that reproduction's JSON
numbers, the same payload ``ikviz reproduce NAME`` writes, and returns a
:class:`Finding`: ikviz's number, formatted, and a verdict computed from the
numbers by a stated rule. Nothing here types in a result; the paper's side is
quoted from the paper text (``../shared/papers``) with its table and cell.

Verdicts (:data:`VERDICTS`):

* **holds**: the paper's direction, at least half the paper's size;
* **holds, smaller**: the paper's direction, less than half its size;
* **setting-dependent**: the direction holds under one named setting and not
  under another that the paper leaves open (a CV grid, a generator, ε);
* **does not reproduce**: not the paper's direction.

:func:`check_reproduction` is the building block (one reproduction, its
claims' rows); :func:`run` follows :mod:`ikviz.runner` for all of them.
"""

from __future__ import annotations

import time
from dataclasses import asdict, dataclass, field
from typing import Callable

import numpy as np

from .runner import Memo, Progress, resolve, within

VERDICTS = ("holds", "holds, smaller", "setting-dependent", "does not reproduce")
#: differences smaller than this (in the claim's own unit: accuracy, AMI, rate) count as no difference
TOLERANCE = 0.01
#: AMI of one clustering moves by a few hundredths between seeds: smaller gaps are not an effect
AMI_TOLERANCE = 0.05


@dataclass(frozen=True)
class Finding:
    """What ikviz found for one claim: its number (text and headline value) and the verdict.

    Examples
    --------
    >>> Finding("GK 0.48, IK 1.00", direction(0.52, 0.38), 1.0).verdict
    'holds'
    """

    ikviz: str
    verdict: str
    value: float | None = None

    def __post_init__(self):
        if self.verdict not in VERDICTS:
            raise ValueError(f"verdict must be one of {VERDICTS}; got {self.verdict!r}.")


@dataclass(frozen=True)
class Claim:
    """One claim of a paper and how ikviz tests it.

    Examples
    --------
    >>> from ikviz.claims import CLAIMS
    >>> claim = next(c for c in CLAIMS if c.key == "ting2021-table4")
    >>> claim.paper, claim.reproduction, claim.paper_number
    ('ting2021', 'svm-wgaussians', 'LK .49, IK 1.00, GK .62')
    """

    key: str
    paper: str              # ting2018, ting2021, lu2016, wang2017
    where: str              # table / figure and cell
    statement: str          # the paper's words
    paper_number: str       # the paper's number(s) as printed
    reproduction: str       # the ikviz.reproduce entry that tests it
    check: Callable[[dict], Finding]
    condition: str          # the one condition that explains a difference
    page: str               # app page and settings that show it (a relative link)


@dataclass(frozen=True)
class Row:
    """A checked claim: the claim's text fields, ikviz's finding and the size it was run at.

    Examples
    --------
    >>> [row] = rows_for({"experiment": "hubness", "quick": True,
    ...                   "skewness": {"gk": {"3": 0.3, "100": 2.5}, "ik": {"3": 0.2, "100": 0.8}}})
    >>> row.key, row.verdict, row.measured
    ('ting2021-appE', 'holds', True)
    """

    key: str
    paper: str
    where: str
    statement: str
    paper_number: str
    ikviz: str
    value: float | None
    verdict: str
    condition: str
    page: str
    reproduction: str
    quick: bool
    params: dict = field(default_factory=dict)
    measured: bool = True   # False: the check could not read its number (a bug in ikviz, never a verdict)


# ------------------------------------------------------------------ verdict rules
def direction(gap: float, paper_gap: float | None = None, tol: float = TOLERANCE) -> str:
    """Verdict for a claimed advantage ``gap`` (> 0: the paper's direction), against the paper's own gap.

    Examples
    --------
    >>> direction(0.30, 0.5), direction(0.1, 0.5), direction(0.0, 0.5)
    ('holds', 'holds, smaller', 'does not reproduce')
    """
    if not np.isfinite(gap) or gap <= tol:
        return "does not reproduce"
    if paper_gap is None or gap >= 0.5 * paper_gap:
        return "holds"
    return "holds, smaller"


def across(verdicts: dict[str, str]) -> str:
    """One verdict from the verdicts under several named settings: agreeing ones, or setting-dependent.

    Examples
    --------
    >>> across({"ting2018 grid": "holds", "ting2021 grid": "holds, smaller"})
    'holds, smaller'
    >>> across({"uniform": "does not reproduce", "gaussian": "holds"})
    'setting-dependent'
    """
    found = set(verdicts.values())
    if len(found) == 1:
        return found.pop()
    if "does not reproduce" in found:
        return "setting-dependent"
    return "holds, smaller"


def _f(x, digits: int = 2) -> str:
    return "n/a" if x is None or not np.isfinite(x) else f"{x:.{digits}f}"


def _get(numbers: dict, *path):
    """``numbers[path[0]][path[1]]...`` with JSON's string keys; a clear error naming the missing key."""
    node = numbers
    for key in path:
        if not isinstance(node, dict) or str(key) not in node:
            raise KeyError(f"{numbers.get('experiment', 'the reproduction')} has no {'/'.join(map(str, path))}")
        node = node[str(key)]
    return node


# ------------------------------------------------------------------ ting2018
def _fig2(n):
    lap = np.asarray(_get(n, "rmse_laplacian", "ik_iforest"), dtype=float)
    rbf = np.asarray(_get(n, "rmse_rbf", "ik_iforest"), dtype=float)
    closer = float(np.mean(lap <= rbf))
    small = float(lap.max()) <= 0.1
    verdict = "holds" if small and closer == 1 else "holds, smaller" if closer >= 0.5 else "does not reproduce"
    return Finding(f"RMSE(IK, L_ψ) {_f(lap.min(), 3)}–{_f(lap.max(), 3)}; closer to L_ψ than to the best RBF "
                   f"in {closer:.0%} of (d, ψ) cells", verdict, float(lap.max()))


def _fig3(n):
    widths = {int(k): v for k, v in _get(n, "summary", "sharpness_half_width").items() if v is not None}
    psis = sorted(widths)
    values = [widths[p] for p in psis]
    sharper = all(b < a for a, b in zip(values, values[1:]))
    return Finding("half-width of IK's similarity profile: "
                   + ", ".join(f"ψ={p}: {w:.3f}" for p, w in zip(psis, values)),
                   "holds" if sharper and len(values) > 1 else "does not reproduce", values[-1] if values else None)


def _fig4(n):
    pairs = _get(n, "pairs")
    ik = pairs["ik_iforest"]["sparse"] - pairs["ik_iforest"]["dense"]
    lap = abs(pairs["laplacian_psi"]["sparse"] - pairs["laplacian_psi"]["dense"])
    verdict = direction(ik) if lap <= TOLERANCE else "does not reproduce"
    return Finding(f"IK (iForest): sparse {_f(pairs['ik_iforest']['sparse'])} vs dense "
                   f"{_f(pairs['ik_iforest']['dense'])}; L_ψ: {_f(pairs['laplacian_psi']['sparse'])} vs "
                   f"{_f(pairs['laplacian_psi']['dense'])}", verdict, float(ik))


def _table1(n):
    """IK's FPR below RBF's and Laplacian's at density ratios > 1, per generator when there are several."""
    paper_gap = {"10": 0.082 - 0.064, "20": 0.094 - 0.056}
    by_setting = _get(n, "fpr_ik_minus_rbf")
    if all(isinstance(v, dict) and "mean" not in v for v in by_setting.values()):  # generator -> ratio -> stats
        settings = by_setting
    else:
        settings = {"": by_setting}
    verdicts, parts, head = {}, [], None
    for name, by_ratio in settings.items():
        ratios = [r for r in by_ratio if float(r) > 1]
        gaps = {r: -by_ratio[r]["mean"] for r in ratios}  # RBF − IK: > 0 is the paper's direction
        verdicts[name] = across({r: direction(g, paper_gap.get(str(int(float(r))))) for r, g in gaps.items()})
        parts.append((f"{name}: " if name else "") + ", ".join(
            f"ratio {float(r):g}: FPR(IK) − FPR(RBF) = {-g:+.3f} (IK lower in {by_ratio[r]['seeds_ik_lower']} seeds)"
            for r, g in gaps.items()))
        head = gaps[max(ratios, key=float)] if ratios and head is None else head
    return Finding("; ".join(parts), across(verdicts), None if head is None else float(-head))


# ------------------------------------------------------------------ ting2021
def _instability_variance(n):
    var = _get(n, "variance")
    gk, ik = {int(d): v for d, v in var["gk"].items()}, {int(d): v for d, v in var["ik"].items()}
    d_lo, d_hi = min(gk), max(gk)
    gk_falls = gk[d_hi] < 0.5 * gk[d_lo]
    ik_stays = ik[d_hi] >= 0.5 * ik[d_lo]
    verdict = "holds" if gk_falls and ik_stays and gk[d_hi] < 0.05 else \
        "holds, smaller" if gk_falls and ik_stays else "does not reproduce"
    return Finding(f"var(F/E[F]) from d={d_lo} to d={d_hi}: GK {_f(gk[d_lo], 3)} → {_f(gk[d_hi], 3)}, "
                   f"IK {_f(ik[d_lo], 3)} → {_f(ik[d_hi], 3)}", verdict, float(gk[d_hi]))


def _instability_neps(n):
    by_eps = _get(n, "N_eps_by_eps")
    verdicts, parts = {}, []
    for eps, table in by_eps.items():
        gk, ik = {int(d): v for d, v in table["gk"].items()}, {int(d): v for d, v in table["ik"].items()}
        d_hi = max(gk)
        verdicts[f"ε = {eps}"] = "holds" if gk[d_hi] >= 10 * max(ik[d_hi], 1) else \
            "holds, smaller" if gk[d_hi] > ik[d_hi] else "does not reproduce"
        parts.append(f"ε = {eps}, d = {d_hi}: N_eps GK {gk[d_hi]:.0f}, IK {ik[d_hi]:.0f}")
    return Finding("; ".join(parts), across(verdicts))


def _neps_vs_t(n):
    table = {int(t): v for t, v in _get(n, "N_eps_vs_t").items()}
    ts = sorted(table)
    means = [float(np.mean(table[t])) if isinstance(table[t], list) else float(table[t]) for t in ts]
    falls = means[-1] < means[0]
    return Finding("IK N_eps by t: " + ", ".join(f"t={t}: {m:.1f}" for t, m in zip(ts, means)),
                   direction(means[0] - means[-1], None, tol=0.0) if falls else "does not reproduce", means[-1])


def _table2(n):
    ratio = _get(n, "tree_over_brute")
    parts = [f"{k}: {float(v):.2f}" for k, v in ratio.items()]
    sparse = ratio.get("ik_sparse")
    dense = ratio.get("ik_dense")
    # the paper: IK's ball tree within 7% of brute force (654 vs 706 s on Ijcnn1) — what a brute-force fallback does
    verdict = "setting-dependent" if sparse is not None and dense is not None and abs(sparse - dense) > 0.2 else \
        "holds" if sparse is not None and abs(sparse - 1) <= 0.25 else "does not reproduce"
    return Finding("ball tree ÷ brute-force time: " + ", ".join(parts), verdict, sparse)


#: ting2021's IK is the Voronoi (aNNE) implementation (§3.2); the reproductions also run the other partitionings
_IK = "ik_anne"


def _table3(algorithm: str, measures: tuple[str, str], paper: dict):
    def check(n):
        ami = _get(n, "ami", algorithm)
        w = max(int(k) for k in ami[measures[1]])
        ours = {m: ami[m][str(w)] for m in measures}
        gap = ours[measures[1]] - ours[measures[0]]
        return Finding(f"w = {w}: " + ", ".join(f"{m} {_f(v)}" for m, v in ours.items()),
                       direction(gap, paper[measures[1]] - paper[measures[0]], tol=AMI_TOLERANCE),
                       float(ours[measures[1]]))
    return check


def _fig2_ting2021(n):
    ami = _get(n, "ami", "spectral")
    ik, ag = _get(ami, _IK, 1), _get(ami, "ag", 1)
    text = f"w = 1: spectral AMI IK {_f(ik)}, AG {_f(ag)}"
    if "1" in ami.get("ik_iforest", {}):   # the other IK: the paper's claim may hold for it, not for Voronoi
        text += f" (iForest IK {_f(ami['ik_iforest']['1'])})"
    return Finding(text, direction(ik - ag, 0.91 - 0.29, tol=AMI_TOLERANCE), float(ik))


def _table4(n):
    verdicts, parts = {}, []
    for grid in ("ting2021", "ting2018"):
        rows = {r["kernel"]: r["accuracy"] for r in _get(n, grid)}
        gap = rows["ik-linear"] - max(rows["rbf"], rows["linear"])
        verdicts[f"{grid} grid"] = direction(gap, 1.00 - 0.62)
        parts.append(f"{grid} grid: LK {_f(rows['linear'])}, IK {_f(rows['ik-linear'])}, GK {_f(rows['rbf'])}")
    w = _get(n, "params", "w")
    return Finding(f"w = {w}: " + "; ".join(parts), across(verdicts),
                   float(next(r["accuracy"] for r in _get(n, "ting2021") if r["kernel"] == "ik-linear")))


def _table5(n):
    sep = _get(n, "separation")
    w = str(max(int(k) for k in sep["gk"]))
    search = n.get("search_range", {}).get("scores", {})
    best_gk = max((s["knn_accuracy"] for s in search.get("gk", {}).values()), default=None)
    default = {"gk": sep["gk"][w]["knn_accuracy"], "ik": sep["ik"][w]["knn_accuracy"]}
    verdicts = {"perplexity 30": direction(default["ik"] - default["gk"], 1.0 - 0.5)}
    text = f"w = {w}, 5-NN accuracy in the embedding: GK {_f(default['gk'])}, IK {_f(default['ik'])} (perplexity 30)"
    if best_gk is not None:
        best_ik = max(s["knn_accuracy"] for s in search["ik"].values())
        verdicts["best over the paper's range"] = direction(best_ik - best_gk, 1.0 - 0.5)
        text += f"; best over the paper's search range: GK {_f(best_gk)}, IK {_f(best_ik)}"
    return Finding(text, across(verdicts), float(default["gk"]))


def _table6(n):
    sep = _get(n, "separation_unequal_variance")
    ws = sorted(int(w) for w in sep["gk"])

    def mixed(scores):  # both clusters among the origin's embedded neighbours: the origin joins them
        return min(scores["origin_neighbours"]) > 0

    gk_joins = {w: mixed(sep["gk"][str(w)]) for w in ws}
    ik_joins = {w: mixed(sep["ik"][str(w)]) for w in ws}
    better = sum(ik_joins[w] and not gk_joins[w] for w in ws)
    worse = sum(gk_joins[w] and not ik_joins[w] for w in ws)
    verdict = "holds" if better == len(ws) else "holds, smaller" if better > worse else "does not reproduce"
    return Finding("origin's 10 embedded neighbours from both clusters: "
                   + ", ".join(f"w={w}: GK {'yes' if gk_joins[w] else 'no'}, IK {'yes' if ik_joins[w] else 'no'}"
                               for w in ws), verdict, float(better))


def _hubness(n):
    skew = _get(n, "skewness")
    gk = {int(d): v for d, v in skew["gk"].items()}
    ik = {int(d): v for d, v in skew["ik"].items()}
    d_lo, d_hi = min(gk), max(gk)
    grows = gk[d_hi] > gk[d_lo] + 0.5
    verdict = direction(gk[d_hi] - ik[d_hi], None, tol=0.5) if grows else "does not reproduce"
    return Finding(f"skewness of O_5 at d = {d_lo} → {d_hi}: GK {_f(gk[d_lo])} → {_f(gk[d_hi])}, "
                   f"IK {_f(ik[d_lo])} → {_f(ik[d_hi])}", verdict, float(gk[d_hi] - ik[d_hi]))


# ------------------------------------------------------------------ lu2016, wang2017
def _lu2016(dataset: str):
    """FOGD and NOGD mistake rates against lu2016 Table 5: the paper's number, or its gain over the majority class."""
    def check(n):
        res = _get(n, "results", dataset)
        majority = float(res["majority"])
        verdicts, parts = {}, []
        for method in ("FOGD", "NOGD"):
            ours = float(res["methods"][method]["mistake rate"][0])
            paper = float(res["paper"][method]["mistake rate"][0])
            paper = paper / 100 if paper > 1 else paper
            # within 2 points of the paper, or at least half the paper's gain over predicting the majority class
            verdicts[method] = "holds" if abs(ours - paper) <= 0.02 else direction(majority - ours, majority - paper)
            parts.append(f"{method} {100 * ours:.1f}% (paper {100 * paper:.1f}%)")
        rows = res.get("rows")
        return Finding(f"{dataset}{f', {rows:,} rows' if rows else ''}: " + ", ".join(parts)
                       + f"; majority class {100 * majority:.1f}%", across(verdicts),
                       float(res["methods"]["FOGD"]["mistake rate"][0]))
    return check


def _wang2017_table3(n):
    micro = _get(n, "micro_f1")
    raw, rbf, rl = micro["RAW"][0], micro["RBF Kernel"][0], micro["RandLocal"][0]
    verdicts = {"vs RAW": direction((rl - raw) / 100, (98.84 - 92.08) / 100),
                "vs RBF": direction((rl - rbf) / 100, (98.84 - 97.06) / 100)}
    return Finding(f"Micro-F1 on {n['params']['classification']} ({n.get('n_classification', '?')} rows): "
                   f"RAW {raw:.2f}, RBF {rbf:.2f}, RandLocal {rl:.2f}", across(verdicts), float(rl))


def _wang2017_clustering(n):
    acc, nmi = _get(n, "kmeans_acc"), _get(n, "kmeans_nmi")
    verdicts = {"ACC": direction(acc["RandLocal"][0] - acc["RAW"][0], 0.6872 - 0.4642),
                "NMI": direction(nmi["RandLocal"][0] - nmi["RAW"][0], 0.6685 - 0.4016)}
    best = n.get("best_anchors") or {}
    return Finding(f"k-means on {n['params']['clustering']}: ACC RAW {_f(acc['RAW'][0])}, RandLocal "
                   f"{_f(acc['RandLocal'][0])}; NMI RAW {_f(nmi['RAW'][0])}, RandLocal {_f(nmi['RandLocal'][0])} "
                   f"(best over max_anchors: {best.get('acc')} for ACC, {best.get('nmi')} for NMI)",
                   across(verdicts), float(acc["RandLocal"][0]))



CLAIMS: tuple[Claim, ...] = (
    Claim("ting2018-fig2", "ting2018", "Fig. 2 (d ∈ 10–50, ψ ∈ 16–256)",
          "Figure 2 shows that the RMSE between the two kernels is small for all values of ψ and d.",
          "figure only: RMSE(IK, Laplacian) small in every cell", "ik-vs-laplacian", _fig2,
          "ikviz calls 'small' an RMSE ≤ 0.1 closer to L_ψ than the best-fitting RBF; the paper gives no threshold.",
          "density?section=IK+%E2%89%88+Laplacian+%28Fig.+2%29"),
    Claim("ting2018-fig3", "ting2018", "Fig. 3",
          "Isolation Kernel's contours become sharper as ψ increases.",
          "figure only: sharper contours at larger ψ", "kernel-shapes", _fig3,
          "Half-width of the mean similarity profile around the reference point.", "kernel-shapes"),
    Claim("ting2018-fig4", "ting2018", "Fig. 4(a)-(b)",
          "Isolation Kernel has a higher value at (0.25, 0.25) in the sparsest region than that at "
          "(−0.25, −0.25) in the densest region.", "figure only: IK sparse > dense; Laplacian equal",
          "density-adaptivity", _fig4,
          "Mean similarity over equal-distance probe pairs in the sparse and the dense quadrant.",
          "density?section=Four+quadrants"),
    Claim("ting2018-table1", "ting2018", "Table 1, FPR at data_10 and data_20",
          "Isolation Kernel always has lower false positive rates than RBF and Laplacian for datasets having "
          "density ratio > 1.", "FPR IK .064 vs RBF .082 (data_10); IK .056 vs RBF .094 (data_20)",
          "svm-density-ratio", _table1,
          "The paper does not specify its density-ratio generator fully; the effect depends on class overlap.",
          "classification?data=density-ratio&ratio=20"),
    Claim("ting2021-fig1-variance", "ting2021", "Fig. 1(b)",
          "var(F/E[F]) → 0 as d → ∞ for Gaussian kernel (GK). Yet, using Isolation Kernel (IK), the variance "
          "approaches a non-zero constant under the same condition.", "figure only: GK → 0, IK non-zero",
          "instability", _instability_variance,
          "At d up to the reproduction's largest d; the paper goes to d = 10,000.",
          "curse-of-dimensionality?section=instability"),
    Claim("ting2021-fig1-neps", "ting2021", "Fig. 1(c)-(d), Table 1 (ε = 0.005)",
          "Many existing measures have indistinguishability in high dimensions that have prevented them from "
          "finding the nearest neighbor if the query is outside of any clusters. Only IK has distinguishability.",
          "figure only: N_eps of GK grows with d, IK stays small", "instability", _instability_neps,
          "ε: at the paper's ε = 0.005 GK's N_eps stays small; at ε = 0.05 the contrast is stark.",
          "curse-of-dimensionality?section=instability"),
    Claim("ting2021-appD", "ting2021", "App. D, Fig. 4 (d = 10,000)",
          "N_ε decreases as t increases.", "figure only: N_eps falls with t", "instability", _neps_vs_t,
          "Averaged over the reproduction's trials (the paper: 10).",
          "curse-of-dimensionality?section=instability"),
    Claim("ting2021-table2", "ting2021", "Table 2, Ijcnn1, IK brute vs ball tree",
          "Runtimes of exact 5-nearest-neighbors search. Brute force vs Ball tree index.",
          "IK: brute 706 s, ball tree 654 s (ratio 0.93)", "indexing", _table2,
          "scikit-learn's ball tree falls back to brute force on a sparse IK map; a real tree on the dense map "
          "behaves differently.", "curse-of-dimensionality?section=indexing"),
    Claim("ting2021-table3-dp", "ting2021", "Table 3, w-Gaussians, DP",
          "Best AMI scores of Density-Peak clustering (DP) ... using Distance ... and IK.",
          "DP: Distance .01, AG .01, IK .68", "clustering-wgaussians",
          _table3("density_peaks", ("distance", _IK), {"distance": 0.01, _IK: 0.68}),
          "Density ties broken by a seeded rule independent of row order (the paper's .01 may be a row-order "
          "artefact).", "clustering?data=w-gaussians&alg=density_peaks"),
    Claim("ting2021-table3-sc", "ting2021", "Table 3, w-Gaussians, SC",
          "With SC, IK improves over GK or AG ... Large improvements are found on w-Gaussians.",
          "SC: GK .24, AG .25, IK 1.00", "clustering-wgaussians",
          _table3("spectral", ("gk", _IK), {"gk": 0.24, _IK: 1.00}),
          "Best AMI over the paper's Table 7 search ranges.", "clustering?data=w-gaussians&alg=spectral"),
    Claim("ting2021-fig2", "ting2021", "Fig. 2 (w = 1)",
          "spectral clustering with AG (or GK) fails to separate the two clusters; but spectral clustering with "
          "IK succeeds.", "SC AMI: IK .91, AG .29 (figure panels)", "clustering-wgaussians", _fig2_ting2021,
          "Best AMI over the search ranges at w = 1.", "clustering?data=w-gaussians&w=1&alg=spectral"),
    Claim("ting2021-table4", "ting2021", "Table 4, w-Gaussians accuracy",
          "[linear and Gaussian kernels] both perform substantially poorer than IK on News20 and w-Gaussians.",
          "LK .49, IK 1.00, GK .62", "svm-wgaussians", _table4,
          "The CV grid: ting2018's γ grid reaches GK's working width, ting2021's does not.",
          "classification?data=w-gaussians&w=5000"),
    Claim("ting2021-table5", "ting2021", "Table 5 (w = 5,000)",
          "t-SNE using GK ... fails completely to separate the two clusters in high dimensional (w = 5,000) data "
          "space. In contrast, t-SNE with IK correctly separates the two clusters.",
          "figure only: GK mixes the clusters, IK separates them", "tsne-wgaussians", _table5,
          "The paper reports the best over its search range of perplexity (GK) and ψ (IK); a small perplexity "
          "lets GK separate the clusters.", "tsne?data=w-gaussians&w=5000"),
    Claim("ting2021-table6", "ting2021", "Table 6 (different variances)",
          "t-SNE using GK ... has misrepresented the origin in the data space as belonging to the red cluster "
          "only ... There is no such issue with IK.", "figure only: GK's origin in one cluster, IK's in both",
          "tsne-wgaussians", _table6, "Judged by the clusters of the origin's 10 nearest embedded neighbours.",
          "tsne?data=w-gaussians-unequal"),
    Claim("ting2021-appE", "ting2021", "App. E, Fig. 5 (ψ = 32, σ = 5)",
          "Gaussian kernel suffers from the hubness effect as the number of dimensions increases. In contrast, "
          "IK is not severely affected by the hubness effect.", "figure only: GK's O_5 skews with d, IK's less",
          "hubness", _hubness, "Skewness of the k-occurrence O_5 on uniform [0, 1]^d.",
          "curse-of-dimensionality?section=hubness"),
    Claim("lu2016-table5-german", "lu2016", "Table 5, german, mistake rate",
          "Evaluation of Large-scale Online Kernel Learning on Binary Classification Task (Table 5).",
          "FOGD 29.9 ± 0.7%, NOGD 30.4 ± 0.8%", "online", _lu2016("german"),
          "The paper's own rates sit at the majority class (30.0%); the step size η is tuned on a separate "
          "2,000-example stream.", "classification?section=Online+learning&o_data=german"),
    Claim("lu2016-table5-spambase", "lu2016", "Table 5, spambase, mistake rate",
          "Evaluation of Large-scale Online Kernel Learning on Binary Classification Task (Table 5).",
          "FOGD 26.9 ± 1.0%, NOGD 29.1 ± 0.4%", "online", _lu2016("spambase"),
          "lu2016's settings (features as given, σ = 8, B = 100, D = 400); η tuned on a separate stream.",
          "classification?section=Online+learning&o_data=spambase"),
    Claim("lu2016-table5-a9a", "lu2016", "Table 5, a9a, mistake rate",
          "Evaluation of Large-scale Online Kernel Learning on Binary Classification Task (Table 5).",
          "FOGD 17.4 ± 0.1%, NOGD 17.4 ± 0.2%", "online", _lu2016("a9a"),
          "ikviz's a9a is the 32,561-row training file (the paper: 48,842 rows, train and test).",
          "classification?section=Online+learning&o_data=a9a"),
    Claim("wang2017-table3", "wang2017", "Table 3, IJCNN, Micro-F1",
          "RandLocal outperforms RBF kernel and the other compared method.",
          "RAW 92.08, RBF 97.06, RandLocal 98.84", "randlocal", _wang2017_table3,
          "ikviz ships a 10,000-row sample of IJCNN (the paper: 49,990 + 91,701 rows).",
          "classification?section=Online+learning&o_data=ijcnn1-10k"),
    Claim("wang2017-tables5-6", "wang2017", "Tables 5-6, MNIST, k-means",
          "RandLocal significantly outperforms RBF Kernel, DAE and SDAE [and RAW].",
          "ACC RAW .4642, RandLocal .6872; NMI RAW .4016, RandLocal .6685", "randlocal", _wang2017_clustering,
          "MNIST is not shipped: scikit-learn's 8×8 digits stands in, and raw k-means already does well on it.",
          "clustering?data=digits&alg=kmeans"),
)


def claims(reproduction: str | None = None) -> list[Claim]:
    """The registered claims, or those one reproduction tests.

    Examples
    --------
    >>> from ikviz.claims import claims
    >>> [c.key for c in claims("hubness")]
    ['ting2021-appE']
    """
    return [c for c in CLAIMS if reproduction is None or c.reproduction == reproduction]


def reproductions() -> list[str]:
    """The reproductions the claims read, in the order of :data:`CLAIMS`.

    Examples
    --------
    >>> "svm-wgaussians" in reproductions()
    True
    """
    return list(dict.fromkeys(c.reproduction for c in CLAIMS))


def rows_for(payload: dict) -> list[Row]:
    """The checked rows of every claim that ``payload`` (a reproduction's JSON numbers) tests.

    A check that cannot read its number gives a row saying so (verdict
    "does not reproduce", ``measured`` False), never an exception, so one
    broken reproduction does not hide the others.

    Examples
    --------
    >>> [row] = rows_for({"experiment": "hubness", "skewness": {}})
    >>> row.measured, row.ikviz
    (False, "not measured: 'gk'")
    """
    out = []
    for claim in claims(payload["experiment"]):
        try:
            finding, measured = claim.check(payload), True
        except (KeyError, TypeError, ValueError, IndexError) as exc:
            finding, measured = Finding(f"not measured: {exc}", "does not reproduce"), False
        out.append(Row(claim.key, claim.paper, claim.where, claim.statement, claim.paper_number, finding.ikviz,
                       finding.value, finding.verdict, claim.condition, claim.page, claim.reproduction,
                       bool(payload.get("quick")), payload.get("params", {}), measured))
    return out


def check_reproduction(name: str, quick: bool = True, *, progress: Progress | None = None) -> list[Row]:
    """Run reproduction ``name`` (its quick size or the full one) and check its claims: a building block.

    Examples
    --------
    >>> [row.verdict for row in check_reproduction("hubness")]   # doctest: +SKIP
    ['holds']
    """
    from .reproduce import payload

    return rows_for(payload(name, quick=quick, progress=progress))


@dataclass(frozen=True)
class Params:
    """Which claims to check and at which size."""

    quick: bool = True
    papers: tuple[str, ...] = ()   # empty: every paper


@dataclass(frozen=True)
class Result:
    params: Params
    rows: list[Row]
    seconds: float

    def counts(self) -> dict[str, int]:
        """Rows per verdict."""
        return {v: sum(r.verdict == v for r in self.rows) for v in VERDICTS}

    def to_json(self) -> dict:
        return {"quick": self.params.quick, "seconds": self.seconds, "counts": self.counts(),
                "claims": [asdict(r) for r in self.rows]}


def run(params: Params = Params(), *, memo: Memo | None = None, progress: Progress | None = None) -> Result:
    """Check every claim (of ``params.papers``) by running the reproductions they read.

    Each reproduction is one block of ``memo``, so a page shows the rows of one
    as soon as it is done and never runs it twice.

    Examples
    --------
    >>> result = run(Params(papers=("wang2017",)))   # doctest: +SKIP
    >>> summary(result.rows)                          # doctest: +SKIP
    '2 claims: 0 hold, 0 hold smaller, 0 setting-dependent, 2 do not reproduce'
    """
    memo, progress = resolve(memo, progress)
    names = [n for n in reproductions() if not params.papers
             or any(c.paper in params.papers for c in claims(n))]
    start = time.perf_counter()
    rows = []
    for i, name in enumerate(names):
        step = within(progress, i / len(names), (i + 1) / len(names), name)
        rows += [r for r in memo(check_reproduction)(name, params.quick, progress=step)
                 if not params.papers or r.paper in params.papers]
    progress(1.0, "done")
    return Result(params, rows, time.perf_counter() - start)


# ------------------------------------------------------------------ reports
def summary(rows: list[Row]) -> str:
    """One line: how many claims got each verdict.

    Examples
    --------
    >>> summary([])
    '0 claims: 0 hold, 0 hold smaller, 0 setting-dependent, 0 do not reproduce'
    """
    n = {v: sum(r.verdict == v for r in rows) for v in VERDICTS}
    missing = sum(not r.measured for r in rows)
    return (f"{len(rows)} claims: {n['holds']} hold, {n['holds, smaller']} hold smaller, "
            f"{n['setting-dependent']} setting-dependent, {n['does not reproduce']} do not reproduce"
            + (f" ({missing} not measured)" if missing else ""))


def write(rows: list[Row], out_dir, quick: bool = False) -> dict:
    """Write ``claims.json`` (every row's fields, for diffing two runs) and ``claims.html`` into ``out_dir``.

    Examples
    --------
    >>> import tempfile
    >>> rows = rows_for({"experiment": "hubness", "skewness": {"gk": {"3": 0.3, "100": 2.5},
    ...                                                        "ik": {"3": 0.2, "100": 0.8}}})
    >>> sorted(p.name for p in write(rows, tempfile.mkdtemp()).values())
    ['claims.html', 'claims.json']
    """
    import json
    from pathlib import Path

    from .html import Section, write_report
    from .reproduce import to_jsonable

    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    json_path = out / "claims.json"
    json_path.write_text(json.dumps(to_jsonable({"quick": quick, "summary": summary(rows),
                                                 "claims": [asdict(r) for r in rows]}), indent=1))
    cells = ("paper", "where", "statement", "paper_number", "ikviz", "verdict", "condition", "reproduction")
    table = [{c.replace("_", " "): getattr(r, c) for c in cells} for r in rows]
    html_path = write_report(out / "claims.html", f"Every paper claim, checked{' (quick sizes)' if quick else ''}",
                             summary(rows), [Section("Claims", tables=[table])])
    return {"json": json_path, "html": html_path}
