"""Figures of the clustering lab: clusters on a 2-D view, density-peaks decision graphs, AMI vs parameter."""

from __future__ import annotations

import math

import numpy as np
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from ..clustering import match_labels
from ..experiments.clustering import (
    ALGORITHMS,
    MEASURES,
    Evaluation,
    Sweep,
    WGaussiansResult,
)
from ..registry import label as registry_label
from .style import (
    MEASURE_COLOURS,
    SEQUENCE,
    base_layout,
    panel_width,
    scatter_class,
    wrap,
)


def _colour(measure: str, i: int = 0) -> str:
    return MEASURE_COLOURS.get(measure, SEQUENCE[i % len(SEQUENCE)])


def _legend_name(measure: str, fallback: str) -> str:
    """The registry's label of ``measure`` (shared by every algorithm), else ``fallback``."""
    try:
        return registry_label(measure)
    except ValueError:
        return fallback


def scatter_figure(X2: np.ndarray, labels: np.ndarray, title: str, *, centres=None, height: int = 340,
                   axis_titles=("x₁", "x₂")) -> go.Figure:
    """Points at their 2-D coordinates ``X2``, one colour per integer label; centres as black crosses.

    Pass clusters through :func:`ikviz.clustering.match_labels` first so they take their classes' colours.
    """
    labels = np.asarray(labels)
    fig = go.Figure()
    scatter = scatter_class(len(labels))
    for c in np.unique(labels):
        mask = labels == c
        # the colour follows the label's value, so matched clusters and classes share colours
        fig.add_trace(scatter(x=X2[mask, 0], y=X2[mask, 1], mode="markers", name=str(c),
                              marker=dict(size=4, color=SEQUENCE[int(c) % len(SEQUENCE)], opacity=0.6),
                              hovertemplate=f"cluster {c}<extra></extra>"))
    if centres is not None and len(centres):
        fig.add_trace(go.Scatter(x=X2[centres, 0], y=X2[centres, 1], mode="markers", name="centres",
                                 marker=dict(symbol="x", size=11, color="black"), hoverinfo="skip"))
    fig.update_xaxes(title_text=axis_titles[0])
    fig.update_yaxes(title_text=axis_titles[1], scaleanchor="x", scaleratio=1)
    base_layout(fig, title, height=height)
    fig.update_layout(margin_l=40, margin_r=10)
    return fig


def evaluation_title(ev: Evaluation) -> str:
    """A panel title: the measure and its AMI."""
    return f"{MEASURES[ev.algorithm][ev.measure]}<br><sub>AMI {ev.ami:.2f} · NMI {ev.nmi:.2f}</sub>"


def decision_graph_figure(ev: Evaluation, height: int = 300) -> go.Figure:
    """Density peaks' decision graph: delta vs rho; the chosen centres (largest rho·delta) in red."""
    if ev.rho is None:
        raise ValueError("this evaluation is not a density-peaks clustering; it has no decision graph.")
    is_centre = np.zeros(ev.rho.size, dtype=bool)
    is_centre[ev.centres] = True
    fig = go.Figure()
    fig.add_trace(scatter_class(ev.rho.size)(x=ev.rho[~is_centre], y=ev.delta[~is_centre], mode="markers",
                                             name="points", marker=dict(size=4, color="#999999", opacity=0.6),
                                             hovertemplate="ρ=%{x}<br>δ=%{y:.3f}<extra></extra>"))
    fig.add_trace(go.Scatter(x=ev.rho[is_centre], y=ev.delta[is_centre], mode="markers", name="centres",
                             marker=dict(size=10, color="#d62728", symbol="diamond"),
                             hovertemplate="centre<br>ρ=%{x}<br>δ=%{y:.3f}<extra></extra>"))
    fig.update_xaxes(title_text="ρ (neighbours within ε)")
    fig.update_yaxes(title_text="δ (distance to a denser point)")
    eps = "" if ev.eps_fraction is None else f" (ε = {ev.eps_fraction:.0%} of m)"
    fig.update_layout(showlegend=False)
    base_layout(fig, f"Decision graph{eps}", height=height)
    fig.update_layout(title_font_size=13)
    return fig


def _geometric(values) -> bool:
    """Whether a grid grows by about x2 a step (ψ, μ), so a log axis spaces it evenly."""
    vals = np.asarray([v for v in values if v is not None], dtype=float)
    if vals.size < 3 or np.any(vals <= 0):
        return False
    ratios = vals[1:] / vals[:-1]
    return bool(np.all(ratios > 1) and np.median(ratios) >= 1.9)


def sweep_figure(sweeps: dict[str, Sweep], height: int = 300) -> go.Figure:
    """AMI against each measure's parameter (one panel per measure, its best point ringed)."""
    keys = list(sweeps)
    fig = make_subplots(rows=1, cols=max(1, len(keys)), shared_yaxes=True, horizontal_spacing=0.05,
                        subplot_titles=[wrap(MEASURES[sweeps[k].algorithm][k], panel_width(len(keys)))
                                        for k in keys])
    for i, key in enumerate(keys):
        s = sweeps[key]
        x = list(s.values)
        colour = _colour(key, i)
        if x == [None]:  # no parameter: a single point
            x = ["–"]
        fig.add_trace(go.Scatter(x=x, y=s.ami, mode="lines+markers", name=MEASURES[s.algorithm][key],
                                 line=dict(color=colour), marker=dict(size=6),
                                 hovertemplate=f"{s.param_name}=%{{x}}<br>AMI=%{{y:.3f}}<extra></extra>"),
                      row=1, col=i + 1)
        b = int(np.nanargmax(s.ami))
        fig.add_trace(go.Scatter(x=[x[b]], y=[s.ami[b]], mode="markers", showlegend=False, hoverinfo="skip",
                                 marker=dict(size=14, color="rgba(0,0,0,0)", line=dict(color="black", width=2))),
                      row=1, col=i + 1)
        fig.update_xaxes(title_text=s.param_name or "no parameter", row=1, col=i + 1,
                         type="log" if _geometric(s.values) else None)
    fig.update_yaxes(title_text="AMI", range=[-0.05, 1.05], row=1, col=1)
    fig.update_annotations(font_size=12)
    fig.update_layout(showlegend=False)
    base_layout(fig, "AMI over the parameter grid (ting2021 Table 7; ringed: best)", height=height)
    return fig


def ami_bars_figure(ami: dict[str, dict[str, dict[int, float]]], height: int = 380) -> go.Figure:
    """Best AMI of every algorithm x measure, one bar group per w (the reproduction's summary)."""
    algorithms = [a for a in ALGORITHMS if a in ami]
    fig = make_subplots(rows=1, cols=len(algorithms), shared_yaxes=True, horizontal_spacing=0.04,
                        subplot_titles=[wrap(ALGORITHMS[a], panel_width(len(algorithms))) for a in algorithms])
    ws = sorted({w for a in algorithms for m in ami[a] for w in ami[a][m]})
    shown = set()
    for col, a in enumerate(algorithms, start=1):
        for i, m in enumerate(ami[a]):
            # one legend entry per measure (its colour), whichever algorithms use it; the hover names the variant
            fig.add_trace(go.Bar(x=[f"w={w}" for w in ws], y=[ami[a][m].get(w, math.nan) for w in ws],
                                 name=_legend_name(m, MEASURES[a][m]), marker_color=_colour(m, i),
                                 legendgroup=m, showlegend=m not in shown,
                                 hovertemplate=f"{MEASURES[a][m]}<br>%{{x}}: AMI %{{y:.2f}}<extra></extra>"),
                          row=1, col=col)
            shown.add(m)
    fig.update_yaxes(title_text="best AMI", range=[-0.05, 1.05], row=1, col=1)
    fig.update_xaxes(title_text="data (w: dimensions per cluster)")
    fig.update_annotations(font_size=12)
    fig.update_layout(barmode="group")
    return base_layout(fig, "w-Gaussians: best AMI per algorithm and measure", height=height)


def figures(result: WGaussiansResult) -> list[go.Figure]:
    """The reproduction's figures: the AMI summary, then AMI vs parameter for each algorithm at the smallest w."""
    w = result.params.ws[0]
    out = [ami_bars_figure(result.ami)]
    for a, sweeps in result.sweeps_w1.items():
        fig = sweep_figure(sweeps)
        fig.update_layout(title_text=f"{ALGORITHMS[a]}, w = {w}: AMI over the parameter grid")
        out.append(fig)
    sc = result.sweeps_w1.get("spectral", {})
    for key in ("ik_iforest", "ag"):
        if key in sc:
            out.append(scatter_figure(result.X2_w1, match_labels(result.y_w1, sc[key].best.labels),
                                      f"Spectral clustering, w = {w}: {evaluation_title(sc[key].best)}"))
    return out
