"""Every paper claim checked in one place: the paper's number, ikviz's number under the paper's protocol, a verdict.

A :class:`Claim` names the reproduction that tests it (an entry of
:mod:`ikviz.reproduce`) and a check that reads that reproduction's JSON
numbers, the same payload ``ikviz reproduce NAME`` writes, and returns a
:class:`Finding`: ikviz's number, formatted, and a verdict computed from the
numbers by the rules of :mod:`ikviz.verdicts`. Nothing here types in a result;
the paper's side is quoted from the paper text (``../shared/papers``) with its
table and cell.

The rules (:mod:`ikviz.verdicts`): only the paper's own settings decide (other
settings are shown, labelled, never counted); a claim of several parts holds
only when every part does, and the row names the part that fails; "faster",
"lower", "beats" are tested in that direction; where the paper leaves out a
detail that decides the outcome the verdict is *protocol unspecified*, with
the result under each reading; a claim on data not obtainable here says
*data not available here* (:data:`ikviz.data.fetch.UNAVAILABLE`). Every row
states its data, its size (quick or full) and the settings it ran.

:func:`check_reproduction` is the building block (one reproduction, its
claims' rows); :func:`run` follows :mod:`ikviz.runner` for all of them;
:func:`reproduce_all` is ``ikviz reproduce all|claims``. This module sits
above :mod:`ikviz.reproduce` (which never imports it).
"""

from __future__ import annotations

import string
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

import numpy as np

from .runner import Memo, Progress, resolve, within
from .verdicts import (TOLERANCE, VERDICTS, Claim, Finding, all_parts, direction, fmt,
                       number, paper_settings, readings, unavailable)

__all__ = ["CLAIMS", "VERDICTS", "Claim", "Finding", "Row", "Params", "Result", "check_reproduction", "claims",
           "reproduce_all", "reproductions", "rows_for", "run", "stored_rows", "summary", "unavailable_rows", "write"]

#: AMI of one clustering moves by a few hundredths between seeds: smaller gaps are not an effect
AMI_TOLERANCE = 0.05


@dataclass(frozen=True)
class Row:
    """A checked claim: the claim's text fields, ikviz's finding, and the data, size and settings it ran.

    Examples
    --------
    >>> [row] = rows_for({"experiment": "hubness", "quick": True, "params": {"n": 1000},
    ...                   "skewness": {"gk": {"3": 0.3, "100": 2.5}, "ik": {"3": 0.2, "100": 0.8}}})
    >>> row.key, row.verdict, row.measured, row.size
    ('ting2021-appE', 'holds', True, 'quick')
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
    note: str = ""          # which part fails / what each reading gives
    shown: str = ""         # results under settings the paper did not use: shown, not counted
    data: str = ""          # the data and its size
    settings: str = ""      # the settings it ran
    explore: str = ""       # the page to explore the idea at other settings (``page`` opens the row's own result)

    @property
    def size(self) -> str:
        """"quick" (CI's reduced size), "full" (the paper's size where the data is here), or "not run"."""
        if not self.reproduction or self.verdict == "data not available here":
            return "not run"
        return "quick" if self.quick else "full"


class _Blank(dict):
    def __missing__(self, key):
        return "?"


def _describe(claim: Claim, params: dict) -> tuple[str, str]:
    """The row's data (``claim.data`` filled from ``params``) and settings (``name = value`` of ``claim.settings``)."""
    values = _Blank({k: (f"{v:,}" if isinstance(v, int) and not isinstance(v, bool) else
                         ", ".join(map(str, v)) if isinstance(v, (list, tuple)) else v)
                     for k, v in params.items()})
    data = string.Formatter().vformat(claim.data, (), values) if claim.data else ""
    settings = "; ".join(f"{k} = {values[k]}" for k in claim.settings)
    return data, settings


# ------------------------------------------------------------------ ting2018
def _fig2(n):
    lap = np.asarray(number(n, "rmse_laplacian", "ik_iforest"), dtype=float)
    rbf = np.asarray(number(n, "rmse_rbf", "ik_iforest"), dtype=float)
    closer = float(np.mean(lap <= rbf))
    small = float(lap.max()) <= 0.1
    verdict = "holds" if small and closer == 1 else "holds, smaller" if closer >= 0.5 else "does not reproduce"
    return Finding(f"RMSE(IK, L_ψ) {fmt(lap.min(), 3)}–{fmt(lap.max(), 3)}; closer to L_ψ than to the best RBF "
                   f"in {closer:.0%} of (d, ψ) cells", verdict, float(lap.max()))


def _fig3(n):
    widths = {int(k): v for k, v in number(n, "summary", "sharpness_half_width").items() if v is not None}
    psis = sorted(widths)
    values = [widths[p] for p in psis]
    sharper = all(b < a for a, b in zip(values, values[1:]))
    return Finding("half-width of IK's similarity profile: "
                   + ", ".join(f"ψ={p}: {w:.3f}" for p, w in zip(psis, values)),
                   "holds" if sharper and len(values) > 1 else "does not reproduce", values[-1] if values else None)


def _fig4(n):
    pairs = number(n, "pairs")
    ik = pairs["ik_iforest"]["sparse"] - pairs["ik_iforest"]["dense"]
    lap = abs(pairs["laplacian_psi"]["sparse"] - pairs["laplacian_psi"]["dense"])
    judged = all_parts({"IK higher in the sparse region": direction(ik),
                        "L_ψ equal in both": "holds" if lap <= TOLERANCE else "does not reproduce"})
    return Finding.judged(f"IK (iForest): sparse {fmt(pairs['ik_iforest']['sparse'])} vs dense "
                          f"{fmt(pairs['ik_iforest']['dense'])}; L_ψ: {fmt(pairs['laplacian_psi']['sparse'])} vs "
                          f"{fmt(pairs['laplacian_psi']['dense'])}", judged, float(ik))


#: ting2018 Table 1's FPR (data_10, data_20): the paper's gaps of RBF and Laplacian over IK
_TABLE1_GAPS = {("RBF", "10"): 0.082 - 0.064, ("RBF", "20"): 0.094 - 0.056,
                ("Laplacian", "10"): 0.070 - 0.064, ("Laplacian", "20"): 0.067 - 0.056}


def _table1(n):
    """IK's FPR below RBF's *and* Laplacian's at every density ratio > 1, under each density-ratio generator."""
    peers = {"RBF": number(n, "fpr_ik_minus_rbf"), "Laplacian": number(n, "fpr_ik_minus_laplacian")}
    by_generator, parts_text = {}, []
    for generator in peers["RBF"]:
        parts = {}
        for peer, table in peers.items():
            for ratio, stats in table[generator].items():
                if float(ratio) <= 1 or stats is None:
                    continue
                r = f"{float(ratio):g}"
                # lower FPR: FPR(peer) − FPR(IK) > 0; the paper's own Laplacian gap at ratio 10 is 0.006, so no tolerance
                parts[f"vs {peer} at ratio {r}"] = direction(-stats["mean"], _TABLE1_GAPS.get((peer, r)), tol=0.0)
                parts_text.append(f"{generator}, ratio {r}: FPR(IK) − FPR({peer}) = {stats['mean']:+.3f}")
        judged = all_parts(parts)
        by_generator[f"{generator} generator"] = judged.verdict
        if judged.note:
            parts_text.append(f"{generator}: {judged.note}")
    return Finding.judged("; ".join(parts_text), readings("the density-ratio generator (its shapes and overlap)",
                                                         by_generator))




# ------------------------------------------------------------------ ting2021
def _variance_verdict(gk: dict, ik: dict) -> str:
    d_lo, d_hi = min(gk), max(gk)
    gk_falls = gk[d_hi] < 0.5 * gk[d_lo]
    ik_stays = ik[d_hi] >= 0.5 * ik[d_lo]
    return ("holds" if gk_falls and ik_stays and gk[d_hi] < 0.05 else
            "holds, smaller" if gk_falls and ik_stays else "does not reproduce")


def _instability_variance(n):
    """Fig. 1(b) under each reading of GK's bandwidth (the paper does not give it)."""
    by_reading = number(n, "variance_by_bandwidth")
    verdicts, parts = {}, []
    for reading, var in by_reading.items():
        gk, ik = {int(d): v for d, v in var["gk"].items()}, {int(d): v for d, v in var["ik"].items()}
        d_lo, d_hi = min(gk), max(gk)
        verdicts[reading] = _variance_verdict(gk, ik)
        parts.append(f"GK {reading}: {fmt(gk[d_lo], 3)} → {fmt(gk[d_hi], 3)}")
    ik = {int(d): v for d, v in next(iter(by_reading.values()))["ik"].items()}
    text = (f"var(F/E[F]) from d = {min(ik)} to {max(ik)}: " + "; ".join(parts)
            + f"; IK {fmt(ik[min(ik)], 3)} → {fmt(ik[max(ik)], 3)}")
    return Finding.judged(text, readings("the Gaussian kernel's bandwidth", verdicts))


def _instability_neps(n):
    """Only the paper's ε = 0.005 decides; other ε are shown, labelled."""
    counted, shown = paper_settings(number(n, "N_eps_by_eps"), (0.005,))
    if not counted:
        raise KeyError("instability has no N_eps at the paper's ε = 0.005")

    def line(eps, table):
        gk, ik = {int(d): v for d, v in table["gk"].items()}, {int(d): v for d, v in table["ik"].items()}
        d_hi = max(gk)
        verdict = all_parts({"GK's N_eps large": "holds" if gk[d_hi] >= 10 * max(ik[d_hi], 1) else
                             "holds, smaller" if gk[d_hi] > ik[d_hi] else "does not reproduce"}).verdict
        return verdict, f"ε = {eps}, d = {d_hi}: N_eps GK {gk[d_hi]:.0f}, IK {ik[d_hi]:.0f}"

    [(eps, table)] = counted.items()
    verdict, text = line(eps, table)
    extra = "; ".join(f"{line(e, t)[1]} → {line(e, t)[0]} (ε not the paper's; not counted)" for e, t in shown.items())
    return Finding(text, verdict, shown=extra)


def _neps_vs_t(n):
    table = {int(t): v for t, v in number(n, "N_eps_vs_t").items()}
    ts = sorted(table)
    means = [float(np.mean(table[t])) if isinstance(table[t], list) else float(table[t]) for t in ts]
    return Finding("IK N_eps by t: " + ", ".join(f"t={t}: {m:.1f}" for t, m in zip(ts, means)),
                   direction(means[0] - means[-1], None, tol=0.0), means[-1])


def _curves_at_paper_eps(n) -> dict:
    counted, _ = paper_settings(number(n, "N_eps_vs_t_by_eps"), (0.005,))
    if not counted:
        raise KeyError("instability has no N_eps-vs-t curves at the paper's ε = 0.005")
    return next(iter(counted.values()))


def _mean_curve(curves: dict, key: str) -> tuple[list, np.ndarray]:
    """t and the mean over both queries of the curve's ``key`` ("mean" N_eps or its standard error "se")."""
    by_query = list(curves.values())
    return by_query[0]["t"], np.mean([np.asarray(c[key], dtype=float) for c in by_query], axis=0)


def _appd_uniform(n):
    """Fig. 4(b): IK from uniform data behaves like IK from the data, worse at small t, the same at high t."""
    table = _curves_at_paper_eps(n)
    ts, data = _mean_curve(table["data"], "mean")
    _, uni = _mean_curve(table["uniform"], "mean")
    _, se_data = _mean_curve(table["data"], "se")
    _, se_uni = _mean_curve(table["uniform"], "se")
    close = abs(uni[-1] - data[-1]) <= max(1.0, 0.1 * data[-1])
    parts = {"uniform IK's N_eps falls with t": direction(uni[0] - uni[-1], None, tol=0.0),
             f"t = {ts[0]}: higher N_eps than IK from the data": direction(uni[0] - data[0], None, tol=0.0),
             f"t = {ts[0]}: higher variance (standard error over trials)": direction(se_uni[0] - se_data[0], None,
                                                                                    tol=0.0),
             f"t = {ts[-1]}: virtually no difference (within 1 or 10 %)": "holds" if close else "does not reproduce"}
    return Finding.judged(f"N_eps (mean of q_i, q_c) at t = {ts[0]} / {ts[-1]}: uniform {uni[0]:.1f} / {uni[-1]:.1f}"
                          f", data {data[0]:.1f} / {data[-1]:.1f}; standard error at t = {ts[0]}: uniform "
                          f"{se_uni[0]:.1f}, data {se_data[0]:.1f}", all_parts(parts), float(uni[-1]))


def _neps_table(n) -> dict:
    counted, _ = paper_settings(number(n, "N_eps_by_eps_and_query"), (0.005,))
    if not counted:
        raise KeyError("instability has no N_eps at the paper's ε = 0.005")
    return {m: {q: {int(d): v for d, v in by_d.items()} for q, by_d in by_q.items()}
            for m, by_q in next(iter(counted.values())).items()}


def _table1_snn(n):
    """SNN (k below the cluster size): stable for the query in a cluster, the worst of all for the query between."""
    t = _neps_table(n)
    if "snn" not in t:
        raise KeyError("instability did not run SNN")
    d_lo = min(t["snn"]["between"])
    points = int(n.get("n_points", 2000))
    worst = max(v["between"][d_lo] for m, v in t.items() if m != "snn")
    parts = {f"q_c, d = {d_lo}: SNN stable (N_eps at most 1 % of the points)":
             "holds" if t["snn"]["sparse_centre"][d_lo] <= 0.01 * points else "does not reproduce",
             f"q_i, d = {d_lo}: SNN unstable (N_eps above 1 % of the points)":
             "holds" if t["snn"]["between"][d_lo] > 0.01 * points else "does not reproduce",
             f"q_i, d = {d_lo}: SNN the worst of all measures": direction(t["snn"]["between"][d_lo] - worst, None,
                                                                         tol=0.0)}
    return Finding.judged(f"d = {d_lo}: SNN N_eps q_c {t['snn']['sparse_centre'][d_lo]}, q_i "
                          f"{t['snn']['between'][d_lo]} (next worst at q_i {worst}) of {points} points",
                          all_parts(parts), float(t["snn"]["between"][d_lo]))


def _table1_lp(n):
    """Fractional distances: below Euclidean's N_eps at d = 1,000, but rising beyond it (both queries)."""
    t = _neps_table(n)
    ds = sorted(t["lp2"]["between"])
    if 1000 not in ds or ds[-1] <= 1000:
        raise KeyError(f"instability ran d = {ds}: the claim needs d = 1,000 and a larger d (the paper's size "
                       "goes to 10,000)")
    parts = {}
    for q in ("between", "sparse_centre"):
        frac_1k = max(t["lp0.1"][q][1000], t["lp0.5"][q][1000])
        parts[f"{q}, d = 1,000: fractional below Euclidean"] = direction(t["lp2"][q][1000] - frac_1k, None, tol=0.0)
        parts[f"{q}, d = {ds[-1]:,}: fractional N_eps rises"] = direction(
            min(t["lp0.1"][q][ds[-1]], t["lp0.5"][q][ds[-1]]) - frac_1k, None, tol=0.0)
    text = "; ".join(f"{q}: lp0.1 {t['lp0.1'][q][1000]} → {t['lp0.1'][q][ds[-1]]}, lp0.5 {t['lp0.5'][q][1000]} → "
                     f"{t['lp0.5'][q][ds[-1]]}, lp2 {t['lp2'][q][1000]} → {t['lp2'][q][ds[-1]]}"
                     for q in ("between", "sparse_centre"))
    return Finding.judged(f"N_eps from d = 1,000 to {ds[-1]:,}: {text}", all_parts(parts))


#: ting2021 Table 2, Ijcnn1: IK's ball tree 654 s against brute force 706 s
_TABLE2_RATIO = 654 / 706


def _table2(n):
    """"IK yielded a faster search using the ball tree": tested for *faster*, under each way to index IK's map.

    The interleaved repeats' median decides (:func:`ikviz.verdicts.faster_repeats`); where scikit-learn built
    no tree, the "ball tree" is brute force and cannot be faster
    (:func:`~ikviz.experiments.paper_ting2021_table2.tree_faster`).
    """
    from .experiments.paper_ting2021_table2 import _ratios, tree_faster

    ratio = number(n, "tree_over_brute")
    fallback = n.get("fallback", {})
    verdicts, notes = {}, []
    for key, label in (("ik_sparse", "sparse map (scikit-learn falls back to brute force)"),
                       ("ik_dense", "dense map (a real ball tree)")):
        if ratio.get(key) is not None:
            judged = tree_faster(_ratios(n, key), bool(fallback.get(key)), _TABLE2_RATIO)
            verdicts[label] = judged.verdict
            notes.append(f"{key}: {judged.note}")
    if not verdicts:
        raise KeyError("indexing has no ik_sparse or ik_dense ratio")
    text = "ball tree ÷ brute-force time: " + ", ".join(
        f"{k} {float(v):.2f}" + (" (brute force ran)" if fallback.get(k) else "") for k, v in ratio.items()
        if v is not None)
    judged = readings("how the ball tree indexes IK's feature map", verdicts)
    return Finding(text, judged.verdict, ratio.get("ik_sparse"), judged.note + " | " + " | ".join(notes))


#: ting2021 reports "IK" without saying which isolation mechanism its experiments used (§3.2's theory is Voronoi)
_IK_VARIANTS = {"ik_anne": "Voronoi IK", "ik_iforest": "iForest IK"}


def _by_variant(ami: dict, w: str, peers: tuple[str, ...], paper: dict, what: str):
    """Verdict per IK variant (each: beats every peer), text, and the Voronoi value."""
    verdicts, parts = {}, []
    for variant, label in _IK_VARIANTS.items():
        if w not in ami.get(variant, {}):
            continue
        ours = ami[variant][w]
        judged = all_parts({f"beats {p}": direction(ours - ami[p][w], paper["ik"] - paper[p], tol=AMI_TOLERANCE)
                            for p in peers})
        verdicts[label] = judged.verdict
        parts.append(f"{label} {fmt(ours)}" + (f" ({judged.note})" if judged.note else ""))
    if not verdicts:
        raise KeyError(f"no IK result at w = {w}")
    text = f"w = {w}, {what}: " + ", ".join(f"{p} {fmt(ami[p][w])}" for p in peers) + "; " + ", ".join(parts)
    return readings("which IK (isolation mechanism) the experiments used", verdicts), text


def _table3(algorithm: str, peers: tuple[str, ...], paper: dict):
    def check(n):
        ami = number(n, "ami", algorithm)
        w = str(max(int(k) for k in ami[peers[0]]))
        judged, text = _by_variant(ami, w, peers, paper, f"best AMI of {algorithm.replace('_', ' ')}")
        return Finding.judged(text, judged, float(ami.get("ik_anne", {}).get(w, np.nan)))
    return check


def _fig2_ting2021(n):
    ami = number(n, "ami", "spectral")
    judged, text = _by_variant(ami, "1", ("ag",), {"ik": 0.91, "ag": 0.29}, "spectral clustering AMI")
    return Finding.judged(text, judged, float(ami.get("ik_anne", {}).get("1", np.nan)))


def _table4(n):
    """Only ting2021's own CV grid decides; ting2018's grid is shown, labelled. IK must beat LK *and* GK."""
    grids = {g: {r["kernel"]: r["accuracy"] for r in number(n, g)} for g in ("ting2021", "ting2018") if g in n}
    counted, shown = paper_settings(grids, ("ting2021",))
    rows = number(counted, "ting2021")
    judged = all_parts({"beats LK": direction(rows["ik-linear"] - rows["linear"], 1.00 - 0.49),
                        "beats GK": direction(rows["ik-linear"] - rows["rbf"], 1.00 - 0.62)})
    extra = "; ".join(f"{g} grid (not this paper's; not counted): LK {fmt(r['linear'])}, IK {fmt(r['ik-linear'])}, "
                      f"GK {fmt(r['rbf'])}" for g, r in shown.items())
    return Finding.judged(f"ting2021 grid: LK {fmt(rows['linear'])}, IK {fmt(rows['ik-linear'])}, GK {fmt(rows['rbf'])}",
                          judged, float(rows["ik-linear"]), extra)


#: ting2021 App. B: the search list of perplexity (GK) and ψ (IK) for t-SNE
_TSNE_SEARCH = (5, 20, 40, 60, 80, 100, 250, 500, 800)


def _table5(n):
    """Best 5-NN accuracy over the paper's search list only; perplexity 30 (not in the list) is shown, not counted."""
    scores = number(n, "search_range", "scores")
    w = number(n, "search_range", "w")
    best = {}
    for kernel in ("gk", "ik"):
        counted, _ = paper_settings({k: s["knn_accuracy"] for k, s in scores[kernel].items()}, _TSNE_SEARCH)
        if not counted:
            raise KeyError(f"tsne-wgaussians has no {kernel} score over the paper's search list")
        at = max(counted, key=counted.get)
        best[kernel] = (counted[at], at)
    judged = all_parts({"IK separates": direction(best["ik"][0] - 0.5, 0.5),
                        "GK fails to separate": direction(best["ik"][0] - best["gk"][0], 1.0 - 0.5)})
    sep = n.get("separation", {})
    w_sep = str(max((int(k) for k in sep.get("gk", {})), default=0))
    extra = ""
    if w_sep in sep.get("gk", {}):
        extra = (f"perplexity 30, ψ = 100 at w = {w_sep} (not in the paper's list; not counted): GK "
                 f"{fmt(sep['gk'][w_sep]['knn_accuracy'])}, IK {fmt(sep['ik'][w_sep]['knn_accuracy'])}")
    return Finding.judged(f"w = {w}, best 5-NN accuracy over the paper's list: GK {fmt(best['gk'][0])} (perplexity "
                          f"{best['gk'][1]}), IK {fmt(best['ik'][0])} (ψ = {best['ik'][1]})", judged,
                          float(best["gk"][0]), extra)


def _table6(n):
    sep = number(n, "separation_unequal_variance")
    ws = sorted(int(w) for w in sep["gk"])

    def mixed(scores):  # both clusters among the origin's embedded neighbours: the origin joins them
        return min(scores["origin_neighbours"]) > 0

    parts = {}
    for w in ws:
        gk, ik = mixed(sep["gk"][str(w)]), mixed(sep["ik"][str(w)])
        parts[f"w = {w}: GK misplaces the origin"] = "holds" if not gk else "does not reproduce"
        parts[f"w = {w}: IK places it in both"] = "holds" if ik else "does not reproduce"
    return Finding.judged("origin's 10 embedded neighbours from both clusters: "
                          + ", ".join(f"w={w}: GK {'yes' if mixed(sep['gk'][str(w)]) else 'no'}, "
                                      f"IK {'yes' if mixed(sep['ik'][str(w)]) else 'no'}" for w in ws),
                          all_parts(parts))


def _best_over_search(n, column: str) -> tuple[float, str]:
    """``column``'s best 5-NN accuracy over the paper's search list (other settings are not counted), and where."""
    scores = number(n, "search_range", "scores", column)
    counted, _ = paper_settings({k: s["knn_accuracy"] for k, s in scores.items()}, _TSNE_SEARCH)
    if not counted:
        raise KeyError(f"tsne-wgaussians has no {column} score over the paper's search list")
    at = max(counted, key=counted.get)
    return counted[at], at


def _table5_fitsne(n):
    """FIt-SNE (GK's affinities, FFT gradient) at its best perplexity of the list still mixes the w = 5,000 clusters."""
    w = number(n, "search_range", "w")
    (fit, fit_at), (ik, ik_at) = _best_over_search(n, "fitsne"), _best_over_search(n, "ik")
    judged = all_parts({"FIt-SNE fails to separate": direction(ik - fit, 1.0 - 0.5)})
    return Finding.judged(f"w = {w}, best 5-NN accuracy over the paper's list: FIt-SNE {fmt(fit)} (perplexity "
                          f"{fit_at}), IK {fmt(ik)} (ψ = {ik_at})", judged, float(fit))


def _table6_fitsne(n):
    """FIt-SNE's origin among one cluster only at every w of Table 6 (GK's misrepresentation, the FFT gradient)."""
    sep = number(n, "separation_unequal_variance", "fitsne")
    ws = sorted(int(w) for w in sep)
    mixed = {w: min(sep[str(w)]["origin_neighbours"]) > 0 for w in ws}
    parts = {f"w = {w}: FIt-SNE misplaces the origin": "does not reproduce" if mixed[w] else "holds" for w in ws}
    return Finding.judged("origin's 10 embedded neighbours (red, blue): "
                          + ", ".join(f"w={w}: FIt-SNE {sep[str(w)]['origin_neighbours']}" for w in ws),
                          all_parts(parts))


def _hubness(n):
    skew = number(n, "skewness")
    gk = {int(d): v for d, v in skew["gk"].items()}
    ik = {int(d): v for d, v in skew["ik"].items()}
    d_lo, d_hi = min(gk), max(gk)
    judged = all_parts({"GK's skew grows with d": direction(gk[d_hi] - gk[d_lo], None, tol=0.5),
                        "IK's skew below GK's": direction(gk[d_hi] - ik[d_hi], None, tol=0.5)})
    return Finding.judged(f"skewness of O_5 at d = {d_lo} → {d_hi}: GK {fmt(gk[d_lo])} → {fmt(gk[d_hi])}, "
                          f"IK {fmt(ik[d_lo])} → {fmt(ik[d_hi])}", judged, float(gk[d_hi] - ik[d_hi]))


# ------------------------------------------------------------------ lu2016, wang2017
def _wang2017_clustering(n):
    acc, nmi = number(n, "kmeans_acc"), number(n, "kmeans_nmi")
    judged = all_parts({"ACC beats RAW": direction(acc["RandLocal"][0] - acc["RAW"][0], 0.6872 - 0.4642),
                        "NMI beats RAW": direction(nmi["RandLocal"][0] - nmi["RAW"][0], 0.6685 - 0.4016)})
    best = n.get("best_anchors") or {}
    return Finding.judged(f"k-means: ACC RAW {fmt(acc['RAW'][0])}, RandLocal {fmt(acc['RandLocal'][0])}; NMI RAW "
                          f"{fmt(nmi['RAW'][0])}, RandLocal {fmt(nmi['RandLocal'][0])} (best over max_anchors: "
                          f"{best.get('acc')} for ACC, {best.get('nmi')} for NMI); RBF kernel k-means, DAE and SDAE "
                          "not run (the paper's numbers)", judged, float(acc["RandLocal"][0]))


CLAIMS: tuple[Claim, ...] = (
    Claim("ting2018-fig2", "ting2018", "Fig. 2 (d ∈ 10–50, ψ ∈ 16–256)",
          "Figure 2 shows that the RMSE between the two kernels is small for all values of ψ and d.",
          "figure only: RMSE(IK, Laplacian) small in every cell", "ik-vs-laplacian", _fig2,
          "ikviz calls 'small' an RMSE ≤ 0.1 closer to L_ψ than the best-fitting RBF; the paper gives no threshold.",
          "density?section=IK+%E2%89%88+Laplacian+%28Fig.+2%29",
          "uniform data, {n} points, d ∈ {ds}", ("psis", "t")),
    Claim("ting2018-fig3", "ting2018", "Fig. 3",
          "Isolation Kernel's contours become sharper as ψ increases.",
          "figure only: sharper contours at larger ψ", "kernel-shapes", _fig3,
          "Half-width of the mean similarity profile around the reference point.", "kernel-shapes",
          "uniform 2-D data, {n} points", ("psi_small", "psi_large", "t")),
    Claim("ting2018-fig4", "ting2018", "Fig. 4(a)-(b)",
          "Isolation Kernel has a higher value at (0.25, 0.25) in the sparsest region than that at "
          "(−0.25, −0.25) in the densest region.", "figure only: IK sparse > dense; Laplacian equal",
          "density-adaptivity", _fig4,
          "Mean similarity over equal-distance probe pairs in the sparse and the dense quadrant.",
          "density?section=Four+quadrants", "four quadrants, {n_dense}/{n_medium}/{n_sparse} points",
          ("psi", "t", "n_pairs")),
    Claim("ting2018-table1", "ting2018", "Table 1, FPR at data_10 and data_20",
          "Isolation Kernel always has lower false positive rates than RBF and Laplacian for datasets having "
          "density ratio > 1.", "FPR IK .064 vs RBF .082, Lap .070 (data_10); IK .056 vs RBF .094, Lap .067 "
          "(data_20)", "svm-density-ratio", _table1,
          "The paper describes its generator only in words (500 2-D points, class areas varied, overlap "
          "controlled); both readings are run.", "classification?data=density-ratio&ratio=20",
          "density-ratio data (generators: {shapes}), 500 training points, {n_test} test points, {n_seeds} seeds",
          ("ratios", "ik_method", "t")),
    Claim("ting2021-fig1-variance", "ting2021", "Fig. 1(b)",
          "var(F/E[F]) → 0 as d → ∞ for Gaussian kernel (GK). Yet, using Isolation Kernel (IK), the variance "
          "approaches a non-zero constant under the same condition.", "figure only: GK → 0, IK non-zero",
          "gk-bandwidth", _instability_variance,
          "The paper does not say how GK's bandwidth follows d: scaled with d, GK's variance barely falls; "
          "fixed, it falls to 0 by d = 100.", "curse-of-dimensionality?section=instability",
          "two Gaussian clusters, {n_per_cluster} points each, d ∈ {d_values}", ("psi", "t", "fixed_gamma")),
    Claim("ting2021-fig1-neps", "ting2021", "Fig. 1(c)-(d), Table 1 (ε = 0.005)",
          "Many existing measures have indistinguishability in high dimensions that have prevented them from "
          "finding the nearest neighbor if the query is outside of any clusters. Only IK has distinguishability.",
          "figure only: N_eps of GK grows with d, IK stays small", "instability", _instability_neps,
          "Only the paper's ε = 0.005 decides; the contrast at ε = 0.05 is shown beside it, not counted.",
          "curse-of-dimensionality?section=instability",
          "two Gaussian clusters, {n_per_cluster} points each, d ∈ {d_values}", ("eps", "psi", "t")),
    Claim("ting2021-appD", "ting2021", "App. D, Fig. 4 (d = 10,000)",
          "N_ε decreases as t increases.", "figure only: N_eps falls with t", "instability", _neps_vs_t,
          "Averaged over the reproduction's trials (the paper: 10).",
          "curse-of-dimensionality?section=instability",
          "two Gaussian clusters, {n_per_cluster} points each, at the largest d of {d_values}",
          ("t_values", "t_trials", "eps")),
    Claim("ting2021-appD-uniform", "ting2021", "App. D, Fig. 4(b) (IK from uniform data, d = 10,000)",
          "It is possible to derive an IK using a dataset of uniform distribution ... it exhibits the same "
          "phenomenon as the IK derived from the given dataset, except that small t leads to poorer "
          "distinguishability (having higher N_ε and higher variance.) At high t, there is virtually no "
          "difference between the two versions of IK.", "figure only: uniform IK's N_ε higher at small t, equal "
          "at high t", "instability", _appd_uniform,
          "Uniform points in the data's bounding box; N_ε averaged over q_i and q_c and the trials (the paper: "
          "10 trials); 'virtually no difference' read as within 1 point or 10 %.",
          "curse-of-dimensionality?section=instability",
          "two Gaussian clusters, {n_per_cluster} points each, at the largest d of {d_values}",
          ("t_values", "t_trials", "psi")),
    Claim("ting2021-table1-snn", "ting2021", "Table 1, SNN (ε = 0.005)",
          "Our experiment using SNN has shown that it has query stability if the query is within a cluster; but "
          "it has the worst query instability when the query is outside any clusters when k is set less than "
          "the cluster size (1000 in this case), even in low dimensions!", "figure only",
          "instability", _table1_snn,
          "At the smallest d run; 'stable' read as N_ε at most 1 % of the points; AG's statement (like SNN with "
          "k > 1,000) gives no behaviour to test and is not judged.", "curse-of-dimensionality?section=instability",
          "two Gaussian clusters, {n_per_cluster} points each, d ∈ {d_values}", ("k_snn", "eps")),
    Claim("ting2021-table1-lp", "ting2021", "Table 1, fractional distances (ε = 0.005)",
          "It is true that the fractional distances are better than Euclidean distance in delaying the "
          "concentration effect up to d=1000; but they could not resist the concentration effect for higher "
          "dimensions.", "figure only", "instability", _table1_lp,
          "ℓ_0.1 and ℓ_0.5 against ℓ_2 at d = 1,000 and the largest d run, both queries; needs d > 1,000 "
          "(the quick size stops at 1,000: not measured there).", "curse-of-dimensionality?section=instability",
          "two Gaussian clusters, {n_per_cluster} points each, d ∈ {d_values}", ("eps",)),
    Claim("ting2021-table2", "ting2021", "Table 2, Ijcnn1, IK brute vs ball tree",
          "Yet, with an appropriate value of ψ, IK yielded a faster search using the ball tree index than the "
          "brute force search in all datasets, without exception.",
          "IK: brute 706 s, ball tree 654 s (ratio 0.93)", "indexing", _table2,
          "scikit-learn's ball tree falls back to brute force on a sparse IK map; a real tree on the dense map "
          "is slower. Either way the ball tree is not faster.", "curse-of-dimensionality?section=indexing",
          "{dataset}, at most {n_max} rows", ("psi", "t", "k")),
    Claim("ting2021-table3-dp", "ting2021", "Table 3, w-Gaussians, DP",
          "Best AMI scores of Density-Peak clustering (DP) ... using Distance ... and IK.",
          "DP: Distance .01, AG .01, IK .68", "clustering-wgaussians",
          _table3("density_peaks", ("distance", "ag"), {"distance": 0.01, "ag": 0.01, "ik": 0.68}),
          "The paper does not say which IK its experiments used; density ties broken by a seeded rule "
          "independent of row order.", "clustering?data=w-gaussians&alg=density_peaks",
          "w-Gaussians, w ∈ {ws}, {n_per_cluster} points per cluster", ("t", "max_psi", "trials")),
    Claim("ting2021-table3-sc", "ting2021", "Table 3, w-Gaussians, SC",
          "With SC, IK improves over GK or AG ... Large improvements are found on w-Gaussians.",
          "SC: GK .24, AG .25, IK 1.00", "clustering-wgaussians",
          _table3("spectral", ("gk", "ag"), {"gk": 0.24, "ag": 0.25, "ik": 1.00}),
          "Best AMI over the paper's Table 7 search ranges; the paper does not say which IK.",
          "clustering?data=w-gaussians&alg=spectral",
          "w-Gaussians, w ∈ {ws}, {n_per_cluster} points per cluster", ("t", "max_psi", "trials")),
    Claim("ting2021-fig2", "ting2021", "Fig. 2 (w = 1)",
          "spectral clustering with AG (or GK) fails to separate the two clusters; but spectral clustering with "
          "IK succeeds.", "SC AMI: IK .91, AG .29 (figure panels)", "clustering-wgaussians", _fig2_ting2021,
          "Best AMI over the search ranges at w = 1; Voronoi and iForest IK disagree.",
          "clustering?data=w-gaussians&w=1&alg=spectral",
          "w-Gaussians, w ∈ {ws}, {n_per_cluster} points per cluster", ("t", "max_psi", "trials")),
    Claim("ting2021-table4", "ting2021", "Table 4, w-Gaussians accuracy",
          "[linear and Gaussian kernels] both perform substantially poorer than IK on News20 and w-Gaussians.",
          "LK .49, IK 1.00, GK .62", "svm-wgaussians", _table4,
          "Only ting2021's own CV grid decides; ting2018's wider γ grid (which rescues GK) is shown, not counted.",
          "classification?data=w-gaussians&w=5000", "w-Gaussians, w = {w}, {n} training / {n_test} test points",
          ("grids", "t")),
    Claim("ting2021-table4-news20", "ting2021", "Table 4, News20 accuracy",
          "[linear and Gaussian kernels] both perform substantially poorer than IK on News20 and w-Gaussians.",
          "LK .85, IK .92 ± .007, GK .84", "", None, "News20 (15,997 + 3,999 rows, 1,355,191 dimensions) is not "
          "obtainable here.", "classification", "News20", unavailable="news20"),
    Claim("ting2021-table5", "ting2021", "Table 5 (w = 5,000)",
          "t-SNE using GK ... fails completely to separate the two clusters in high dimensional (w = 5,000) data "
          "space. In contrast, t-SNE with IK correctly separates the two clusters.",
          "figure only: GK mixes the clusters, IK separates them", "tsne-wgaussians", _table5,
          "The paper reports the best over its search list [5, 20, ..., 800] of perplexity (GK) and ψ (IK); "
          "perplexity 30 is not in it and is shown, not counted.", "tsne?data=w-gaussians&w=5000",
          "w-Gaussians, {n_per_cluster} points per cluster", ("n_iter", "exaggeration_iter")),
    Claim("ting2021-table6", "ting2021", "Table 6 (different variances)",
          "t-SNE using GK ... has misrepresented the origin in the data space as belonging to the red cluster "
          "only ... There is no such issue with IK.", "figure only: GK's origin in one cluster, IK's in both",
          "tsne-wgaussians", _table6, "Judged by the clusters of the origin's 10 nearest embedded neighbours.",
          "tsne?data=w-gaussians-unequal", "w-Gaussians with unequal variances, {n_per_cluster} points per cluster",
          ("perplexity", "psi")),
    Claim("ting2021-table5-fitsne", "ting2021", "Table 5, FIt-SNE column (w = 5,000)",
          "Recent improvements on t-SNE, e.g., FIt-SNE ... and q-SNE ... As they employ Gaussian kernel, they "
          "also produce misrepresented structures, as shown in Table 5.",
          "figure only: FIt-SNE mixes the w = 5,000 clusters", "tsne-wgaussians", _table5_fitsne,
          "FIt-SNE is openTSNE's FFT gradient on GK's affinities, best over the paper's perplexity list (App. B: "
          "other parameters at their defaults; openTSNE's schedule stands in for FIt-SNE's own). q-SNE (Häkkinen "
          "et al. 2020, the same protocol) is a C++ program with no Python package here: its column is not run.",
          "tsne?data=w-gaussians&w=5000", "w-Gaussians, {n_per_cluster} points per cluster",
          ("n_iter", "exaggeration_iter")),
    Claim("ting2021-table6-fitsne", "ting2021", "Table 6, FIt-SNE column (different variances)",
          "As they employ Gaussian kernel, they also produce misrepresented structures (Table 5's text; Table 6 "
          "shows the FIt-SNE column too).", "figure only: FIt-SNE's origin in one cluster",
          "tsne-wgaussians", _table6_fitsne,
          "Judged as the GK row: the clusters of the origin's 10 nearest embedded neighbours, at every w of "
          "Table 6; q-SNE not run (no package here).", "tsne?data=w-gaussians-unequal",
          "w-Gaussians with unequal variances, {n_per_cluster} points per cluster", ("perplexity",)),
    Claim("ting2021-appE", "ting2021", "App. E, Fig. 5 (ψ = 32, σ = 5)",
          "Gaussian kernel suffers from the hubness effect as the number of dimensions increases. In contrast, "
          "IK is not severely affected by the hubness effect.", "figure only: GK's O_5 skews with d, IK's less",
          "hubness", _hubness, "Skewness of the k-occurrence O_5 on uniform [0, 1]^d.",
          "curse-of-dimensionality?section=hubness", "uniform [0, 1]^d, {n} points, d ∈ {d_values}",
          ("psi", "sigma")),
    Claim("wang2017-table3-covtype", "wang2017", "Table 3, COVTYPE, Micro-F1",
          "RandLocal outperforms RBF kernel and the other compared method.",
          "RAW 63.28, RBF 75.04, RandLocal 89.52", "", None, "covtype (581,012 rows) is not obtainable here.",
          "classification", "COVTYPE", unavailable="covtype"),
    Claim("wang2017-table3-gisette", "wang2017", "Table 3, GISETTE, Micro-F1",
          "RandLocal outperforms RBF kernel and the other compared method.",
          "RAW 92.91, RBF 97.13, RandLocal 97.60", "", None, "GISETTE is not obtainable here.",
          "classification", "GISETTE", unavailable="gisette"),
    Claim("wang2017-tables5-6", "wang2017", "Tables 5-6, MNIST, k-means",
          "RandLocal significantly outperforms RBF Kernel, DAE and SDAE [and RAW].",
          "ACC RAW .4642, RBF .5329, RandLocal .6872; NMI RAW .4016, RBF .5017, RandLocal .6685", "randlocal",
          _wang2017_clustering,
          "MNIST's test set (10,000 digits) stands for the paper's MNIST (the 60,000-row training set is not "
          "obtainable here); RBF kernel k-means, DAE and SDAE are not re-run.",
          "clustering?data=digits&alg=kmeans",
          "{clustering} (MNIST test set, 10,000 digits), {max_rows} sampled", ("kmeans_repeats", "anchors_grid")),
    Claim("wang2017-tables5-6-gisette", "wang2017", "Tables 5-6, GISETTE, k-means",
          "RandLocal significantly outperforms RBF Kernel, DAE and SDAE [and RAW].",
          "ACC RAW .6842, RandLocal .8322; NMI RAW .1219, RandLocal .3652", "", None,
          "GISETTE is not obtainable here.", "clustering", "GISETTE", unavailable="gisette"),
)


def _declared() -> tuple[Claim, ...]:
    """The claims a reproduction's own module declares (``CLAIMS`` beside its ``run``; see :mod:`ikviz.reproduce`)."""
    import importlib

    from .reproduce import _MODULES

    return tuple(claim for module in _MODULES.values()
                 for claim in getattr(importlib.import_module(f"{__package__}.experiments.{module}"), "CLAIMS", ()))


CLAIMS = CLAIMS + _declared()


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
    """The reproductions the claims read, in the order of :data:`CLAIMS` (claims on unavailable data read none).

    Examples
    --------
    >>> "svm-wgaussians" in reproductions()
    True
    """
    return list(dict.fromkeys(c.reproduction for c in CLAIMS if c.reproduction))


def _row(claim: Claim, finding: Finding, payload: dict, measured: bool = True) -> Row:
    params = payload.get("params", {})
    data, settings = _describe(claim, params)
    return Row(claim.key, claim.paper, claim.where, claim.statement, claim.paper_number, finding.ikviz,
               finding.value, finding.verdict, claim.condition, link(claim, params, bool(payload.get("quick"))),
               claim.reproduction, bool(payload.get("quick")), params, measured, finding.note, finding.shown, data,
               settings, claim.page)


#: the Claims page's link keys: one reproduction (its figures and rows) and its size ("quick" or "full")
REPRODUCTION_KEY, SIZE_KEY = "reproduction", "size"


def _as_params(cls, values: dict):
    """``cls`` from a payload's JSON ``params`` (lists back to tuples); None if they do not fit it."""
    try:
        return cls(**{k: tuple(v) if isinstance(v, list) else v for k, v in values.items()})
    except (TypeError, ValueError):
        return None


def link(claim: Claim, params: dict, quick: bool) -> str:
    """The relative link of the page that shows exactly the result a row's number comes from.

    Where the claim's reproduction is a page's view (its ``run``, see
    :mod:`ikviz.views`) and the link can carry every one of ``params``, the
    link opens that view at those settings (the store holds the result the
    row was checked on, so it opens at once). Otherwise it opens the Claims
    page on the reproduction itself (``claims?reproduction=NAME&size=quick``):
    its figures and rows drawn from that same result. ``claim.page`` stays the
    page to explore the idea at other settings (:attr:`Row.explore`).

    Examples
    --------
    >>> [hub] = claims("hubness")
    >>> link(hub, {"n": 1000}, True).split("&")[:3]
    ['curse-of-dimensionality?section=hubness', 'k=5', 'n_hub=1000']
    >>> [fig2] = [c for c in CLAIMS if c.key == "ting2021-fig2"]
    >>> link(fig2, {}, True)
    'claims?reproduction=clustering-wgaussians&size=quick'
    """
    from urllib.parse import parse_qsl, urlencode, urlsplit

    from . import views
    from .params import from_query, to_query
    from .reproduce import get

    if not claim.reproduction:
        return claim.page
    parts = urlsplit(claim.page)
    section = dict(parse_qsl(parts.query)).get(views.SECTION_KEY)
    if parts.path in views.PAGES:
        view = views.view_of(parts.path, section)
        entry = get(claim.reproduction)
        p = _as_params(view.params, params) if view.run is entry.run else None
        if p is not None:
            query = to_query(p, every=True)
            back, notes = from_query(view.params, query)
            if back == p and not notes:
                return f"{parts.path}?{urlencode({**({views.SECTION_KEY: section} if section else {}), **query})}"
    return f"claims?{urlencode({REPRODUCTION_KEY: claim.reproduction, SIZE_KEY: 'quick' if quick else 'full'})}"


def rows_for(payload: dict) -> list[Row]:
    """The checked rows of every claim that ``payload`` (a reproduction's JSON numbers) tests.

    A check that cannot read its number gives a row saying so (verdict
    "does not reproduce", ``measured`` False), never an exception, so one
    broken reproduction does not hide the others. A reproduction whose data
    is not here (``payload["unavailable"]``, see :func:`ikviz.reproduce.payload`)
    gives "data not available here" rows naming the file that would serve.

    Examples
    --------
    >>> [row] = rows_for({"experiment": "hubness", "skewness": {}})
    >>> row.measured, row.ikviz
    (False, "not measured: 'gk'")
    """
    out = []
    for claim in claims(payload["experiment"]):
        if payload.get("unavailable"):
            finding, measured = Finding(f"not run: {payload['unavailable']}", "data not available here"), True
        else:
            try:
                finding, measured = claim.check(payload), True
            except (KeyError, TypeError, ValueError, IndexError) as exc:
                finding, measured = Finding(f"not measured: {exc}", "does not reproduce"), False
        out.append(_row(claim, finding, payload, measured))
    return out


def unavailable_rows(papers: tuple[str, ...] = ()) -> list[Row]:
    """The rows of the claims whose data cannot be obtained here: "data not available here", with the source.

    Examples
    --------
    >>> rows = unavailable_rows(("wang2017",))
    >>> {r.verdict for r in rows}, all("https://" in r.note for r in rows)
    ({'data not available here'}, True)
    """
    from .data.fetch import UNAVAILABLE

    out = []
    for claim in CLAIMS:
        if claim.unavailable and (not papers or claim.paper in papers):
            missing = UNAVAILABLE[claim.unavailable]
            judged = unavailable(missing.name, missing.url)
            out.append(_row(claim, Finding.judged(f"not run: {missing.why}", judged), {"quick": False}))
    return out


def check_reproduction(name: str, quick: bool = True, *, memo: Memo | None = None,
                       progress: Progress | None = None) -> list[Row]:
    """Run reproduction ``name`` (its quick size or the full one) and check its claims: a building block.

    The reproduction's ``run(params)`` is a block of ``memo``: in the app's
    store it is the very result a page's view at the same settings reads
    (:func:`link`), so a row, its link and a tour step show one number.

    Examples
    --------
    >>> [row.verdict for row in check_reproduction("hubness")]   # doctest: +SKIP
    ['holds']
    """
    from . import reproduce
    from .data.fetch import FetchError

    memo, progress = resolve(memo, progress)
    entry = reproduce.get(name)
    params = entry.params(**{**entry.paper, **(entry.quick if quick else {})})
    start = time.perf_counter()
    try:
        result = memo(entry.run)(params, progress=progress)
    except FetchError:   # the data is not here: the payload says so and which file would serve
        return rows_for(reproduce.payload(name, quick=quick))
    return rows_for(reproduce._payload(name, entry, params, result, time.perf_counter() - start, quick))


#: the environment variable naming the folder of ``ikviz reproduce claims --full``'s results, read by :func:`run`
#: and the Claims page; set to an empty string, none is read
FULL_RESULTS = "IKVIZ_FULL_RESULTS"
#: the paper-size results kept in a checkout of ikviz (``ikviz reproduce claims --full --out paper-size``):
#: the folder read when ``$IKVIZ_FULL_RESULTS`` is not set; each result counts only while the code it ran is
#: unchanged (an installed package has no such folder)
KEPT_RESULTS = Path(__file__).resolve().parent.parent / "paper-size"


def full_results_dir(out_dir=None) -> str | None:
    """The folder of full-size results to read: ``out_dir``, else ``$IKVIZ_FULL_RESULTS`` (empty: none), else
    :data:`KEPT_RESULTS` where it exists; None when there is none.

    Examples
    --------
    >>> import tempfile
    >>> folder = tempfile.mkdtemp()
    >>> full_results_dir(folder) == folder
    True
    """
    import os

    if out_dir:
        return str(out_dir)
    named = os.environ.get(FULL_RESULTS)
    if named is not None:
        return named or None
    return str(KEPT_RESULTS) if KEPT_RESULTS.is_dir() else None


def stored_rows(name: str, out_dir=None) -> list[Row] | None:
    """The rows of reproduction ``name`` from a finished full-size run in ``out_dir``, or None.

    ``out_dir`` defaults to :func:`full_results_dir` (``$IKVIZ_FULL_RESULTS``,
    else the checkout's ``paper-size`` folder). Only a result under the
    params and code the reproduction would run now counts
    (:func:`ikviz.reproduce.stored`); its rows say ``size`` "full".

    Examples
    --------
    >>> import tempfile
    >>> stored_rows("hubness", tempfile.mkdtemp()) is None
    True
    """
    from .reproduce import stored

    folder = full_results_dir(out_dir)
    numbers = stored(name, folder) if folder else None
    return None if numbers is None else rows_for(numbers)


@dataclass(frozen=True)
class Params:
    """Which claims to check and at which size.

    ``full_dir``: a folder of ``ikviz reproduce claims --full`` results (default
    :func:`full_results_dir`: ``$IKVIZ_FULL_RESULTS``, else the checkout's
    ``paper-size`` folder); a reproduction finished there at full size under
    the current params and code gives its full-size rows, the others run at
    ``quick`` size (each row's ``size`` says which).
    """

    quick: bool = True
    papers: tuple[str, ...] = ()   # empty: every paper
    full_dir: str = ""


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
    as soon as it is done and never runs it twice; one finished at full size in
    ``params.full_dir`` (or :func:`full_results_dir`) is read back instead, and
    its rows say "full". Claims on data not obtainable here come last, as
    "data not available here".

    Examples
    --------
    >>> result = run(Params(papers=("wang2017",)))   # doctest: +SKIP
    >>> summary(result.rows)                          # doctest: +SKIP
    """
    memo, progress = resolve(memo, progress)
    names = [n for n in reproductions() if not params.papers
             or any(c.paper in params.papers for c in claims(n))]
    start = time.perf_counter()
    rows = []
    for i, name in enumerate(names):
        step = within(progress, i / len(names), (i + 1) / len(names), name)
        found = stored_rows(name, params.full_dir or None) if params.quick else None
        found = found if found is not None else memo(check_reproduction)(name, params.quick, progress=step)
        rows += [r for r in found if not params.papers or r.paper in params.papers]
    rows += unavailable_rows(params.papers)
    progress(1.0, "done")
    return Result(params, rows, time.perf_counter() - start)


# ------------------------------------------------------------------ reports
_PLURAL = {"holds": "hold", "holds, smaller": "hold smaller", "protocol unspecified": "protocol unspecified",
           "too close to call on this machine": "too close to call on this machine",
           "does not reproduce": "do not reproduce", "data not available here": "data not available here"}


def summary(rows: list[Row]) -> str:
    """One line: how many claims got each verdict.

    Examples
    --------
    >>> print(summary([]).replace(", ", ",\\n"))
    0 claims: 0 hold,
    0 hold smaller,
    0 protocol unspecified,
    0 too close to call on this machine,
    0 do not reproduce,
    0 data not available here
    """
    n = {v: sum(r.verdict == v for r in rows) for v in VERDICTS}
    missing = sum(not r.measured for r in rows)
    return (f"{len(rows)} claims: " + ", ".join(f"{n[v]} {_PLURAL[v]}" for v in VERDICTS)
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

    from .html import Section, write_report
    from .reproduce import to_jsonable

    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    json_path = out / "claims.json"
    json_path.write_text(json.dumps(to_jsonable({"quick": quick, "summary": summary(rows),
                                                 "claims": [asdict(r) | {"size": r.size} for r in rows]}),
                                    indent=1))
    cells = ("paper", "where", "statement", "paper_number", "ikviz", "verdict", "note", "shown", "data", "size",
             "settings", "condition", "reproduction")
    table = [{c.replace("_", " "): getattr(r, c) for c in cells} for r in rows]
    html_path = write_report(out / "claims.html", f"Every paper claim, checked{' (quick sizes)' if quick else ''}",
                             summary(rows), [Section("Claims", tables=[table])])
    return {"json": json_path, "html": html_path}


def _reproduce_one(name: str, out_dir, quick: bool, progress=None) -> dict:
    """One reproduction into ``out_dir`` (resumed at full size): its paths, payload and wall seconds."""
    from . import reproduce

    start = time.perf_counter()
    paths = reproduce.reproduce(name, out_dir, quick=quick, resume=not quick, progress=progress)
    return {**paths, "wall": time.perf_counter() - start}


def _side_by_side(pending: list[str], out_dir, quick: bool, workers: int, scheduler: str | None):
    """Yield ``(name, outcome or exception)`` as each of ``pending`` finishes on a Dask cluster.

    :func:`ikviz.scale.cluster.connect` gives the cluster (a ``LocalCluster`` of
    ``workers`` single-threaded processes, or ``scheduler``'s); each reproduction
    is one task, written into ``out_dir`` by the worker that runs it.
    """
    from distributed import as_completed

    from .scale.cluster import connect

    with connect(scheduler, n_workers=workers, quiet=True) as client:
        futures = {client.submit(_reproduce_one, name, str(out_dir), quick, key=f"reproduce-{name}", pure=False): name
                   for name in pending}
        for future in as_completed(futures):
            try:
                yield futures[future], future.result()
            except Exception as exc:   # reported with the reproduction's name, like a run in this process
                yield futures[future], exc


def reproduce_all(out_dir, quick: bool = False, echo=print, names: list[str] | None = None, *,
                  workers: int = 1, scheduler: str | None = None, progress_for=None):
    """Run every registered reproduction into ``out_dir``; write ``claims.json``/``claims.html`` and ``index.html``.

    The claims are checked on the numbers just computed, so ``ikviz reproduce
    claims`` and ``ikviz reproduce all`` run each reproduction once. At full
    size (``quick`` False, ``ikviz reproduce claims --full``) the run resumes: a
    reproduction whose ``NAME.json`` in ``out_dir`` holds the fingerprint of the
    params and code it would run now (:func:`ikviz.reproduce.stored`) is read
    back, not recomputed, and each finished one is written at once (whole, or
    not at all), so an interrupted run loses only the reproduction under way.
    ``echo`` hears one line as each starts and ends (``[i/n] name: ...``), with
    its wall time; ``progress_for(name)`` may return a ``progress(fraction,
    text)`` for a run in this process. ``workers`` above 1 (or a ``scheduler``
    address) runs the pending reproductions side by side on a Dask cluster
    (:func:`ikviz.scale.cluster.connect`), one task each.

    Examples
    --------
    >>> reproduce_all("out", quick=True, names=["hubness"])   # doctest: +SKIP
    """
    from .html import Link, Section, write_report
    from . import reproduce

    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    order = list(names or reproduce.names())
    unknown = [n for n in order if n not in reproduce.names()]
    if unknown:
        raise ValueError(f"unknown reproduction(s) {', '.join(unknown)}; choose among: {', '.join(reproduce.names())}.")
    outcomes: dict[str, dict | Exception] = {}
    pending = []
    for i, name in enumerate(order, start=1):
        done = None if quick else reproduce.stored(name, out)
        if done is not None:
            outcomes[name] = {"json": out / f"{name}.json", "html": out / f"{name}.html", "payload": done,
                              "resumed": True, "wall": 0.0}
            echo(f"[{i}/{len(order)}] {name}: read back (done at full size before, same params and code; "
                 f"{done.get('seconds') or 0:.1f} s then)")
        else:
            pending.append(name)
    if pending and (workers > 1 or scheduler):
        echo(f"running {len(pending)} reproduction(s) side by side on a Dask cluster "
             f"({scheduler or f'{workers} local worker processes'})")
        finished = _side_by_side(pending, out, quick, workers, scheduler)
    else:
        def one_by_one():
            for name in pending:
                echo(f"[{order.index(name) + 1}/{len(order)}] {name}: running at {'quick' if quick else 'full'} size")
                try:
                    yield name, _reproduce_one(name, out, quick, progress_for(name) if progress_for else None)
                except Exception as exc:   # one broken reproduction must not hide the others' rows
                    yield name, exc
        finished = one_by_one()
    for name, outcome in finished:
        outcomes[name] = outcome
        tag = f"[{order.index(name) + 1}/{len(order)}] {name}"
        if isinstance(outcome, Exception):
            echo(f"{tag}: failed: {type(outcome).__name__}: {outcome}")
        else:
            echo(f"{tag}: {outcome['wall']:.1f} s -> {outcome['json'].name}, {outcome['html'].name}")
    rows, checked = [], []
    for name in order:
        outcome = outcomes[name]
        if isinstance(outcome, Exception):
            checked += [_row(c, Finding(f"not measured: {type(outcome).__name__}: {outcome}", "does not reproduce"),
                             {"quick": quick}, measured=False) for c in claims(name)]
            continue
        numbers = outcome["payload"]
        checked += rows_for(numbers)
        entry = reproduce.get(name)
        rows.append({"experiment": name, "reproduces": entry.source, "what": entry.description,
                     "figure": Link("figure", outcome["html"].name), "numbers": Link("numbers", outcome["json"].name),
                     "seconds": round(numbers.get("seconds") or outcome["wall"], 1),
                     "read back": "yes" if outcome.get("resumed") else ""})
    checked += unavailable_rows()
    claim_paths = write(checked, out, quick=quick)
    missing = [r.key for r in checked if not r.measured]
    if missing:  # a check that cannot read its reproduction's numbers is a bug, not a verdict
        raise RuntimeError(f"claims not measured: {', '.join(missing)} (see {claim_paths['json']})")
    echo(summary(checked) + f" -> {claim_paths['json'].name}, {claim_paths['html'].name}")
    return write_report(out / "index.html", f"ikviz reproductions{' (quick sizes)' if quick else ''}",
                        sections=[Section("Paper claims", tables=[[{"checked": Link(summary(checked),
                                                                                   claim_paths["html"].name)}]]),
                                  Section("Experiments", tables=[rows])])
