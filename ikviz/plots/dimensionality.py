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
from .style import CLASS_COLOURS, DIMENSIONALITY_COLOURS, base_layout

_DASH = {"data": "solid", "uniform": "dash"}


def _colour(measure: str) -> str:
    return DIMENSIONALITY_COLOURS.get(measure, "#333333")


def dataset_figure(preview: np.ndarray, labels: np.ndarray, offset: float, height: int = 340) -> go.Figure:
    """The Fig. 1(a) data seen through its first two coordinates, with the two queries."""
    fig = go.Figure()
    for c, name in enumerate(("dense cluster", "sparse cluster")):
        pts = preview[labels == c]
        fig.add_trace(go.Scattergl(x=pts[:, 0], y=pts[:, 1], mode="markers", name=name,
                                   marker=dict(size=3, color=CLASS_COLOURS[1 - c], opacity=0.5)))
    for (x, y), name, symbol in (((offset / 2, offset / 2), "q_i (between)", "x"),
                                 ((offset, offset), "q_c (sparse centre)", "star")):
        fig.add_trace(go.Scatter(x=[x], y=[y], mode="markers+text", name=name, text=[name.split()[0]],
                                 textposition="top right",
                                 marker=dict(symbol=symbol, size=13, color="black")))
    fig.update_xaxes(title_text="coordinate 1")
    fig.update_yaxes(title_text="coordinate 2", scaleanchor="x", scaleratio=1)
    base_layout(fig, "The data (first two of d coordinates)", height=height)
    fig.update_layout(margin=dict(t=50, b=100), legend=dict(orientation="h", y=-0.3, x=0, yanchor="top"))
    return fig


def _per_query_curves(by_measure: dict, value_hover: str, shared_y: bool) -> go.Figure:
    """One panel per query, one curve per measure: ``by_measure[m][query][d] -> value``."""
    queries = list(QUERY_LABELS)
    fig = make_subplots(rows=1, cols=2, subplot_titles=[QUERY_LABELS[q] for q in queries],
                        horizontal_spacing=0.08, shared_yaxes=shared_y)
    for col, q in enumerate(queries, start=1):
        for m, by_q in by_measure.items():
            ds = sorted(by_q[q])
            fig.add_trace(go.Scatter(x=ds, y=[by_q[q][d] for d in ds], mode="lines+markers", name=LABELS[m],
                                     legendgroup=m, showlegend=col == 1, line=dict(color=_colour(m)),
                                     hovertemplate=f"{LABELS[m]}<br>d=%{{x}}<br>{value_hover}<extra></extra>"),
                          row=1, col=col)
    fig.update_xaxes(type="log", title_text="d (dimensions)")
    return fig


def _finish_per_query(fig: go.Figure, title: str, height: int) -> go.Figure:
    base_layout(fig, title, height=height)
    fig.update_layout(margin=dict(t=70, b=110), legend=dict(orientation="h", y=-0.25, x=0, yanchor="top"))
    fig.update_annotations(font_size=12)
    return fig


def neps_figure(summary: dict, height: int = 380) -> go.Figure:
    """N_eps vs d for each measure, one panel per query (log-log), as Fig. 1(c, d) and Table 1."""
    fig = _per_query_curves(summary["N_eps"], "N_eps=%{y}", shared_y=True)
    top = max(2, summary["n_points"])
    fig.update_yaxes(type="log", range=[-0.05, np.log10(top) + 0.1])
    fig.update_yaxes(title_text=f"N_eps (eps = {summary['eps']:g})", row=1, col=1)
    return _finish_per_query(fig, "Instability: points within (1 + eps) of the nearest neighbour", height)


def variance_figure(summary: dict, height: int = 380) -> go.Figure:
    """var(F / E[F]) vs d for each measure, one panel per query; Fig. 1(b) is the q_c panel."""
    fig = _per_query_curves(summary["variance_by_query"], "var=%{y:.4f}", shared_y=False)
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
    base_layout(fig, f"IK: more partitionings, more distinguishable (d = {summary['t_curve_d']:,})",
                height=height)
    fig.update_layout(margin=dict(t=70, b=90), legend=dict(orientation="h", y=-0.3, x=0, yanchor="top"))
    fig.update_annotations(font_size=12)
    return fig


def hubness_figure(summary: dict, height: int = 360) -> go.Figure:
    """p(O_k) vs O_k for each measure, one panel per d (Fig. 5), skewness in the legend."""
    ds = sorted({d for by_d in summary["distribution"].values() for d in by_d})
    fig = make_subplots(rows=1, cols=len(ds), subplot_titles=[f"d = {d}" for d in ds], horizontal_spacing=0.06)
    for col, d in enumerate(ds, start=1):
        for m, by_d in summary["distribution"].items():
            if d not in by_d:
                continue
            dist = by_d[d]
            fig.add_trace(go.Scatter(x=dist["O_k"], y=dist["p"], mode="lines+markers", name=LABELS[m],
                                     legendgroup=m, showlegend=col == 1, marker=dict(size=4),
                                     line=dict(color=_colour(m)),
                                     hovertemplate=(f"{LABELS[m]}, d={d}<br>O_k=%{{x}}<br>p=%{{y:.3f}}"
                                                    f"<br>skewness {summary['skewness'][m][d]:.2f}<extra></extra>")),
                          row=1, col=col)
            axis = "" if col == 1 else str(col)
            fig.add_annotation(x=1, y=1 - 0.08 * list(summary["distribution"]).index(m), xref=f"x{axis} domain",
                               yref=f"y{axis} domain", showarrow=False, xanchor="right",
                               text=f"skew {summary['skewness'][m][d]:.2f}", font=dict(color=_colour(m), size=11))
    fig.update_xaxes(title_text=f"O_{summary['k']} (k-occurrence)")
    fig.update_yaxes(title_text=f"p(O_{summary['k']})", row=1, col=1)
    base_layout(fig, f"Hubness on uniform [0, 1]^d: distribution of the {summary['k']}-occurrence", height=height)
    fig.update_layout(margin=dict(t=70, b=90), legend=dict(orientation="h", y=-0.3, x=0, yanchor="top"))
    return fig


def instability_figures(summary: dict) -> list[go.Figure]:
    """The instability figures for export (the data preview needs the raw result, see :func:`dataset_figure`)."""
    figs = [variance_figure(summary), neps_figure(summary)]
    if summary.get("N_eps_vs_t"):
        figs.append(t_curve_figure(summary))
    return figs
