"""Figures of the curse-of-dimensionality study (Ting et al. 2021, Fig. 1, Table 1, Fig. 4, Fig. 5).

The builders take the summaries of :mod:`ikviz.experiments.dimensionality`
(plain dicts), so the app can assemble them from cached pieces.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from ..data import QUERIES
from ..experiments.dimensionality import EPS_VIEWS, IK_SOURCES, PAPER_EPS, PAPER_FIG1, QUERY_LABELS, VISIBLE_EPS
from ..measures.similarities import LABELS
from ..params import setting
from .style import CLASS_COLOURS, DIMENSIONALITY_COLOURS, PAGE_WIDTH, base_layout, scatter_class

_DASH = {"data": "solid", "uniform": "dash"}
#: the measures the paper's argument is about: drawn thick and in full colour, the others thin and faded
EMPHASIS = ("gk", "ik")
_FADED_OPACITY = 0.35


def _colour(measure: str) -> str:
    return DIMENSIONALITY_COLOURS.get(measure, "#333333")


def _style(measure: str, emphasis) -> dict:
    """Line width, marker size and opacity of ``measure``'s curve: thick for ``emphasis``, thin and faded otherwise."""
    if not emphasis or measure in emphasis:
        return dict(line=dict(color=_colour(measure), width=3.5), marker=dict(size=7), opacity=1.0)
    return dict(line=dict(color=_colour(measure), width=1.2), marker=dict(size=4), opacity=_FADED_OPACITY)


def dataset_figure(preview: np.ndarray, labels: np.ndarray, offset: float, height: int = 340,
                   width: int = PAGE_WIDTH // 3) -> go.Figure:
    """The Fig. 1(a) data seen through its first two coordinates, with the two queries; ``width`` (px) is the
    width it is drawn at (a third of the page), for its legend's rows."""
    fig = go.Figure()
    scatter = scatter_class(len(preview))
    for c, name in enumerate(("dense cluster", "sparse cluster")):
        pts = preview[labels == c]
        fig.add_trace(scatter(x=pts[:, 0], y=pts[:, 1], mode="markers", name=name,
                              marker=dict(size=3, color=CLASS_COLOURS[1 - c], opacity=0.5)))
    for (x, y), name, symbol in (((offset / 2, offset / 2), "q_i (between)", "x"),
                                 ((offset, offset), "q_c (sparse centre)", "star")):
        fig.add_trace(go.Scatter(x=[x], y=[y], mode="markers+text", name=name, text=[name.split()[0]],
                                 textposition="top right",
                                 marker=dict(symbol=symbol, size=13, color="black")))
    fig.update_xaxes(title_text="coordinate 1")
    fig.update_yaxes(title_text="coordinate 2", scaleanchor="x", scaleratio=1)
    return base_layout(fig, "The data (first two of d coordinates)", height=height, width=width)


def _ordered(by_measure: dict, emphasis) -> list:
    """Measures with the emphasised ones last, so they are drawn on top (and listed first: see :data:`FIRST`)."""
    return sorted(by_measure, key=lambda m: m in (emphasis or ()))


#: the legend lists the traces in reverse, so that the emphasised measures drawn last (GK and IK) come first: a
#: projected legend in a column beside the plot scrolls, and at 720p it cut off its last entry, IK's
FIRST = {"legend_traceorder": "reversed"}


def _add_curves(fig: go.Figure, by_q: dict, m: str, q: str, value_hover: str, emphasis, show_legend: bool,
                row: int, col: int) -> None:
    ds = sorted(by_q[q])
    fig.add_trace(go.Scatter(x=ds, y=[by_q[q][d] for d in ds], mode="lines+markers", name=LABELS[m],
                             legendgroup=m, showlegend=show_legend, **_style(m, emphasis),
                             hovertemplate=f"{LABELS[m]}<br>d=%{{x}}<br>{value_hover}<extra></extra>"),
                  row=row, col=col)


def _per_query_curves(by_measure: dict, value_hover: str, shared_y: bool, emphasis=EMPHASIS) -> go.Figure:
    """One panel per query, one curve per measure: ``by_measure[m][query][d] -> value``; ``emphasis`` drawn thick."""
    queries = list(QUERY_LABELS)
    fig = make_subplots(rows=1, cols=2, subplot_titles=[QUERY_LABELS[q] for q in queries],
                        horizontal_spacing=0.08, shared_yaxes=shared_y)
    for col, q in enumerate(queries, start=1):
        for m in _ordered(by_measure, emphasis):
            _add_curves(fig, by_measure[m], m, q, value_hover, emphasis, col == 1, 1, col)
    fig.update_xaxes(type="log", title_text="d (dimensions)")
    return fig


def _finish_per_query(fig: go.Figure, title: str, height: int) -> go.Figure:
    fig.update_annotations(font_size=12)
    return base_layout(fig, title, height=height).update_layout(**FIRST)


def neps_figure(summary: dict, height: int = 380, emphasis=EMPHASIS) -> go.Figure:
    """N_eps vs d for each measure, one panel per query (log-log), as Fig. 1(c, d) and Table 1."""
    fig = _per_query_curves(summary["N_eps"], "N_eps=%{y}", shared_y=True, emphasis=emphasis)
    top = max(2, summary["n_points"])
    fig.update_yaxes(type="log", range=[-0.05, np.log10(top) + 0.1])
    fig.update_yaxes(title_text=f"N_eps (eps = {summary['eps']:g})", row=1, col=1)
    return _finish_per_query(fig, "Instability: points within (1 + eps) of the nearest neighbour", height)


def neps_by_eps_figure(views: dict, titles: dict | None = None, height: int = 620,
                       emphasis=EMPHASIS) -> go.Figure:
    """N_eps vs d at several eps side by side: one column per eps, one row per query (log-log).

    ``views`` maps eps to :func:`~ikviz.experiments.dimensionality.instability_summary`
    at that eps (all from one result); ``titles`` names each column (default
    ``"eps = ..."``). ``emphasis`` (GK and IK) are thick and in full colour,
    the other measures thin and faded.
    """
    eps_values = list(views)
    titles = titles or {}
    queries = list(QUERY_LABELS)
    # the columns' settings named once, above the top row; each panel names its query inside its empty upper
    # left corner (few points are near-ties in low d); x ticks under the last row: rows need no room between them
    names = [f"<b>{titles.get(e, f'ε = {e:g}')}</b>" for e in eps_values] + [""] * (len(queries) - 1) * len(eps_values)
    fig = make_subplots(rows=len(queries), cols=len(eps_values), subplot_titles=names, shared_yaxes=True,
                        shared_xaxes=True, horizontal_spacing=0.06, vertical_spacing=0.06)
    for row, q in enumerate(queries, start=1):
        for col in range(1, len(eps_values) + 1):
            fig.add_annotation(text=QUERY_LABELS[q], xref="x domain", yref="y domain", x=0.01, y=0.99,
                               xanchor="left", yanchor="top", showarrow=False, bgcolor="rgba(255,255,255,0.75)",
                               row=row, col=col)
    top = 2
    for col, eps in enumerate(eps_values, start=1):
        summary = views[eps]
        top = max(top, summary["n_points"])
        for row, q in enumerate(queries, start=1):
            for m in _ordered(summary["N_eps"], emphasis):
                _add_curves(fig, summary["N_eps"][m], m, q, f"ε={eps:g}: N_eps=%{{y}}", emphasis,
                            row == 1 and col == 1, row, col)
    fig.update_xaxes(type="log")
    fig.update_xaxes(title_text="d (dimensions)", row=len(queries))
    fig.update_yaxes(type="log", range=[-0.05, np.log10(top) + 0.1])
    for row in range(1, len(queries) + 1):
        fig.update_yaxes(title_text="N_eps", row=row, col=1)
    fig.update_annotations(font_size=12)
    return base_layout(fig, f"Instability: points within (1 + ε) of the nearest neighbour (of {top:,})",
                       height=height).update_layout(**FIRST)


def variance_figure(summary: dict, height: int = 380, emphasis=EMPHASIS) -> go.Figure:
    """var(F / E[F]) vs d for each measure, one panel per query; Fig. 1(b) is the q_c panel."""
    fig = _per_query_curves(summary["variance_by_query"], "var=%{y:.4f}", shared_y=False, emphasis=emphasis)
    # log scale: the question is whether a curve heads for 0, and the measures differ by decades
    fig.update_yaxes(type="log")
    fig.update_yaxes(title_text="var(F / E[F]) (log)", row=1, col=1)
    return _finish_per_query(fig, "Concentration: spread of the dissimilarities 1 − κ(q, ·)", height)


def t_curve_figure(summary: dict, height: int = 360) -> go.Figure:
    """IK's N_eps vs t at one d (mean ± standard error over trials), from the data and from uniform data (Fig. 4)."""
    queries = list(QUERY_LABELS)
    fig = make_subplots(rows=1, cols=2, subplot_titles=[QUERY_LABELS[q] for q in queries],
                        horizontal_spacing=0.08, shared_yaxes=True)
    for col, q in enumerate(queries, start=1):
        for source, curves in summary["N_eps_vs_t"].items():
            c = curves[q]
            fig.add_trace(go.Scatter(x=c["t"], y=c["mean"], error_y=dict(type="data", array=c["se"], visible=True),
                                     mode="lines+markers", name=IK_SOURCES[source], legendgroup=source,
                                     showlegend=col == 1,
                                     line=dict(color=_colour("ik"), dash=_DASH.get(source, "solid"))),
                          row=1, col=col)
    fig.update_xaxes(type="log", title_text="t (partitionings)")
    fig.update_yaxes(type="log", title_text=f"N_eps (eps = {summary['eps']:g})", row=1, col=1)
    fig.update_annotations(font_size=12)
    return base_layout(fig, f"IK: more partitionings, more distinguishable (d = {summary['t_curve_d']:,})",
                       height=height)


#: marker symbols of the hubness curves, one per measure: with the dotted line of a curve equal to an
#: earlier one (GK and ℓ2 rank neighbours alike, so their k-occurrences are the same), both stay visible
_SYMBOLS = ("circle", "diamond-open", "square", "x", "triangle-up-open", "star")


def _same_curves(dists: dict) -> dict:
    """``{measure: [earlier measures with exactly the same (O_k, p) curve]}`` for one panel."""
    same: dict = {}
    for i, (m, dist) in enumerate(dists.items()):
        same[m] = [o for o, other in list(dists.items())[:i]
                   if np.array_equal(np.asarray(other["O_k"]), np.asarray(dist["O_k"]))
                   and np.allclose(np.asarray(other["p"], dtype=float), np.asarray(dist["p"], dtype=float))]
    return same


def hubness_figure(summary: dict, height: int = 360) -> go.Figure:
    """p(O_k) vs O_k for each measure, one panel per d (Fig. 5), skewness in the legend.

    Each measure has its own marker as well as its colour; a curve equal to one drawn
    before it (GK and ℓ2 give the same neighbours) is drawn thinner, dotted and on top, so
    both stay visible, and its hover says which curves it coincides with.
    """
    ds = sorted({d for by_d in summary["distribution"].values() for d in by_d})
    measures = list(summary["distribution"])
    fig = make_subplots(rows=1, cols=len(ds), subplot_titles=[f"d = {d}" for d in ds], horizontal_spacing=0.06)
    for col, d in enumerate(ds, start=1):
        panel = {m: by_d[d] for m, by_d in summary["distribution"].items() if d in by_d}
        same = _same_curves(panel)
        for m, dist in panel.items():
            j = measures.index(m)
            twins = same[m] + [o for o, earlier in same.items() if m in earlier]
            style = dict(line=dict(color=_colour(m), width=2.5),
                         marker=dict(size=6, symbol=_SYMBOLS[j % len(_SYMBOLS)]))
            if twins and not same[m]:       # the first of equal curves: wide and light, underneath
                style = dict(line=dict(color=_colour(m), dash="solid", width=6), opacity=0.55,
                             marker=dict(size=10, symbol="circle"))
            elif same[m]:                   # a later equal curve: thin and dotted, on top
                style = dict(line=dict(color=_colour(m), dash="dot", width=2),
                             marker=dict(size=7, symbol=_SYMBOLS[j % len(_SYMBOLS)], line=dict(width=1.5)))
            note = (f"<br>same values as {', '.join(LABELS[o] for o in twins)} (curves overlap)" if twins else "")
            fig.add_trace(go.Scatter(x=dist["O_k"], y=dist["p"], mode="lines+markers", name=LABELS[m],
                                     legendgroup=m, showlegend=col == 1, **style,
                                     hovertemplate=(f"{LABELS[m]}, d={d}<br>O_k=%{{x}}<br>p=%{{y:.3f}}"
                                                    f"<br>skewness {summary['skewness'][m][d]:.2f}{note}"
                                                    "<extra></extra>")),
                          row=1, col=col)
            axis = "" if col == 1 else str(col)
            # one line apart in pixels, whatever the figure's height (a projected 720p figure is short)
            fig.add_annotation(x=1, y=1, yshift=-26 * j, xref=f"x{axis} domain", yanchor="top",
                               yref=f"y{axis} domain", showarrow=False, xanchor="right",
                               text=f"skew {summary['skewness'][m][d]:.2f}", font=dict(color=_colour(m), size=11))
    fig.update_xaxes(title_text=f"O_{summary['k']} (k-occurrence)")
    fig.update_yaxes(title_text=f"p(O_{summary['k']}) (share of points)", row=1, col=1)
    return base_layout(fig, f"Hubness on uniform [0, 1]^d: distribution of the {summary['k']}-occurrence",
                       height=height)


def instability_figures(summary: dict) -> list[go.Figure]:
    """The instability figures for export (the data preview needs the raw result, see :func:`dataset_figure`)."""
    figs = [variance_figure(summary), neps_figure(summary)]
    if summary.get("N_eps_vs_t"):
        figs.append(t_curve_figure(summary))
    return figs


def eps_titles(eps_values) -> dict:
    """The name of each eps view: the paper's and the visible eps by their role, any other as "your choice".

    Examples
    --------
    >>> from ikviz.plots.dimensionality import eps_titles
    >>> eps_titles([0.005, 0.2])
    {0.005: "paper's setting: ε = 0.005", 0.2: 'your choice: ε = 0.2'}
    """
    return {e: EPS_VIEWS.get(e, f"your choice: ε = {e:g}") for e in eps_values}


def instability_table(views: dict, d_values) -> dict[str, list]:
    """Column-wise table of the instability views for st.dataframe, one row per measure.

    Parameters
    ----------
    views : dict
        ``{eps: summary}`` from :func:`~ikviz.experiments.dimensionality.instability_views`;
        it must hold the paper's eps (``PAPER_EPS``).
    d_values : iterable of int
        The dimensions of the sweep.

    Returns
    -------
    dict
        The measures, N_eps of both queries at the largest d for every eps, and
        q_c's var(F / E[F]) at the smallest and the largest d.
    """
    d_lo, d_top = min(d_values), max(d_values)
    first = views[PAPER_EPS]
    var = first["variance"]
    rows = {"measure": [LABELS[m] for m in first["N_eps"]]}
    for e, s in views.items():
        for q, short in (("between", "q_i"), ("sparse_centre", "q_c")):
            rows[f"N_eps {short}, ε={e:g} (d={d_top:,})"] = [s["N_eps"][m][q][d_top] for m in s["N_eps"]]
    rows[f"var q_c (d={d_lo})"] = [round(var[m][d_lo], 4) for m in var]
    rows[f"var q_c (d={d_top:,})"] = [round(var[m][d_top], 4) for m in var]
    return rows


def instability_findings(views: dict, titles: dict, p) -> str:
    """The instability views in words ("Reading the numbers"): GK's and IK's N_eps, the spread, IK's steps.

    Parameters
    ----------
    views : dict
        ``{eps: summary}`` as for :func:`instability_table`.
    titles : dict
        The name of each eps view (:func:`eps_titles`).
    p : InstabilityParams
        The run's parameters (its ``d_values`` and ``t``).

    Returns
    -------
    str
        Markdown: N_eps of the between-clusters query per view, the largest N_eps
        at the paper's eps (and whether that window is too narrow to show the
        curse), GK's variance at both ends and the size of IK's similarity steps.
    """
    d_lo, d_top = min(p.d_values), max(p.d_values)
    first = views[PAPER_EPS]
    var = first["variance"]
    step = 1.0 / p.t
    parts = []
    for e, s in views.items():
        gk, ik = s["N_eps"]["gk"]["between"], s["N_eps"]["ik"]["between"]
        parts.append(f"*{titles[e]}*: GK's N_eps for the between-clusters query goes from {gk[d_lo]} at "
                     f"d = {d_lo} to **{gk[d_top]:,}** at d = {d_top:,} (of {first['n_points']:,} points); IK's "
                     f"from {ik[d_lo]} to **{ik[d_top]:,}**.")
    gk_var = var["gk"]
    worst = max(first["N_eps"], key=lambda m: max(first["N_eps"][m][q][d_top] for q in QUERIES))
    top = max(first["N_eps"][worst][q][d_top] for q in QUERIES)
    return (
        "**Reading the numbers.** " + " ".join(parts) + " "
        f"At the paper's ε the largest N_eps of any measure at d = {d_top:,} is {top:,} ({LABELS[worst]}) of "
        f"{first['n_points']:,} points" + (": the window is too narrow to show the curse here, and a wider one "
                                           "shows it" if top < 0.02 * first["n_points"] else "") + ". "
        f"GK's spread var(F/E[F]) for q_c goes from {gk_var[d_lo]:.3g} (d = {d_lo}) to {gk_var[d_top]:.3g} "
        f"(d = {d_top:,}): with γ scaled to the data it levels off rather than going to 0 as in the paper's "
        f"Fig. 1(b). IK's similarity is a count of shared cells, so it only takes the values 0, 1/t, …, 1 "
        f"(steps of {step:.3g} at t = {p.t}); when ε × (1 − max similarity) is smaller than one step, IK's "
        f"N_eps is just the number of points tied at the top. SNN takes steps of 1/k in the same way."
    )


def instability_note(p) -> str:
    """How to read the N_eps panels, the data of ``p`` (an InstabilityParams) and the paper's words on them.

    Examples
    --------
    >>> from ikviz.experiments.dimensionality import InstabilityParams
    >>> from ikviz.plots.dimensionality import instability_note
    >>> "N(4, 2²) (sparse)" in instability_note(InstabilityParams())
    True
    """
    return (
        "GK and IK, the two measures the paper's argument is about, are drawn thick; the other six thin and "
        "faded (click a legend entry to hide or show it). Ties: N_eps counts every point tied with the nearest "
        "one (≤, so N_eps ≥ 1). Where nearest neighbours must be *ranked* (hubness, precision@k) ties are broken "
        "at random, seeded, separately for every query. The data: two Gaussian clusters of 1,000 points each, "
        f"N(0, 1) (dense) and N({p.offset:g}, {p.sigma_sparse:g}²) (sparse) in every coordinate; q_i halfway "
        "between their centres, q_c at the sparse centre. The paper does not give its generator's constants; "
        "these are ours. Fig. 1(b) of the paper uses q_c for the variance. The paper: “"
        + PAPER_FIG1["N_eps"] + "”"
    )


def t_curve_note(p) -> str:
    """What the N_eps-vs-t figure (App. D) shows, at ``p.curve_d()`` over ``p.t_trials`` trials.

    Examples
    --------
    >>> from ikviz.experiments.dimensionality import InstabilityParams
    >>> from ikviz.plots.dimensionality import t_curve_note
    >>> t_curve_note(InstabilityParams(d_values=(10, 1000), t_trials=3))[:60]
    "App. D: IK's N_eps (paper's ε = 0.005) at d = 1,000 as t gro"
    """
    return (
        f"App. D: IK's N_eps (paper's ε = {PAPER_EPS:g}) at d = {p.curve_d():,} as t grows (mean ± standard "
        f"error over {p.t_trials} trials with fresh partitionings). Solid: partitionings built from the "
        "data; dashed: from as many points uniform in the data's bounding box. Lemma 3 predicts that both "
        "give the same distinguishability once t is large."
    )


def hubness_table(summary: dict) -> dict[str, list]:
    """Column-wise table of :func:`~ikviz.experiments.dimensionality.hubness_summary` for st.dataframe.

    One row per measure: O_k's skewness at every d, then its largest value at every d.

    Examples
    --------
    >>> from ikviz.plots.dimensionality import hubness_table
    >>> hubness_table({"skewness": {"gk": {3: 0.512}}, "max_O_k": {"gk": {3: 11}}})
    {'measure': ['Gaussian kernel (GK)'], 'skewness d=3': [0.51], 'max O_k d=3': [11]}
    """
    measures = list(summary["skewness"])
    d_values = sorted({d for by_d in summary["skewness"].values() for d in by_d})
    return {"measure": [LABELS[m] for m in measures],
            **{f"skewness d={d}": [round(summary["skewness"][m][d], 2) for m in measures] for d in d_values},
            **{f"max O_k d={d}": [summary["max_O_k"][m][d] for m in measures] for d in d_values}}


def hubness_note(p) -> str:
    """What O_k and its skewness mean, on the data of ``p`` (a HubnessParams: ``k`` and ``n``).

    Examples
    --------
    >>> from ikviz.experiments.dimensionality import HubnessParams
    >>> from ikviz.plots.dimensionality import hubness_note
    >>> note = hubness_note(HubnessParams(k=5, n=2000))
    >>> "among their 5 nearest neighbours" in note, "2,000 points uniform" in note
    (True, True)
    """
    return (
        f"O_k(x) counts the points that have x among their {p.k} nearest neighbours; its mean is "
        f"always k. A long right tail (high skewness) means hubs: a few points are everyone's "
        f"neighbour while many are no one's. {p.n:,} points uniform in [0, 1]^d (Radovanović et al. "
        "2010; Ting et al. 2021, App. E). IK's similarities take few values, so ties for the k-th "
        "place are broken at random (seeded, per query): a fixed order would itself create hubs."
    )


@dataclass(frozen=True)
class Display:
    """What the instability section shows of one result (changing it recomputes nothing)."""

    eps: float = setting(VISIBLE_EPS, "ε of the right-hand panel", choices=(0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2),
                         help="N_eps counts points within a factor (1 + ε) of the nearest neighbour's dissimilarity. "
                              f"The left panel always uses the paper's ε = {PAPER_EPS:g}; this one sets the right "
                              "panel (0.05: where the effect shows). Changing it recomputes nothing.")
