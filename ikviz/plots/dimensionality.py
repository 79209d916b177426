"""Figures of the curse-of-dimensionality study (Ting et al. 2021, Fig. 1, Table 1, Fig. 4, Fig. 5).

The builders take the summaries of :mod:`ikviz.experiments.dimensionality`
(plain dicts), so the app can assemble them from cached pieces.
"""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from ..experiments.dimensionality import IK_SOURCES, QUERY_LABELS
from ..measures.similarities import LABELS
from .style import CLASS_COLOURS, DIMENSIONALITY_COLOURS, base_layout, scatter_class

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


def dataset_figure(preview: np.ndarray, labels: np.ndarray, offset: float, height: int = 340) -> go.Figure:
    """The Fig. 1(a) data seen through its first two coordinates, with the two queries."""
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
    return base_layout(fig, "The data (first two of d coordinates)", height=height)


def _ordered(by_measure: dict, emphasis) -> list:
    """Measures with the emphasised ones last, so they are drawn on top."""
    return sorted(by_measure, key=lambda m: m in (emphasis or ()))


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
    return base_layout(fig, title, height=height)


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
    names = [f"<b>{titles.get(e, f'ε = {e:g}')}</b><br>{QUERY_LABELS[q]}" for q in queries for e in eps_values]
    fig = make_subplots(rows=len(queries), cols=len(eps_values), subplot_titles=names, shared_yaxes=True,
                        horizontal_spacing=0.06, vertical_spacing=0.16)
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
                       height=height)


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
            fig.add_annotation(x=1, y=1 - 0.08 * j, xref=f"x{axis} domain",
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
