"""Figures of the classification lab: decision regions, CV curves, paired spreads, mistake-rate curves."""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go

from ..learn.svm import LABELS, TUNED
from .style import (
    CLASS_COLOURS,
    ONLINE_COLOURS,
    SVM_COLOURS,
    base_layout,
    scatter_class,
)


def regions_figure(result, kernel: str, box=None, height: int = 360, disc=None) -> go.Figure:
    """Predicted class on a grid (shaded) with the training points of one SVM.

    ``box`` ([[x0, y0], [x1, y1]]) marks the overlap strip of the uniform density-ratio data;
    ``disc`` ([cx, cy, radius]) the disc where the dense class is the more likely, of the Gaussian ones.
    """
    xs, ys, Z = result.regions[kernel]
    classes = np.unique(result.y_train)
    ev = next(e for e in result.evaluations if e.kernel == kernel)
    fig = go.Figure()
    n = max(1, classes.size - 1)
    scale = [[i / n, CLASS_COLOURS[i % len(CLASS_COLOURS)]] for i in range(classes.size)] if n > 0 else None
    fig.add_trace(go.Heatmap(x=xs, y=ys, z=Z, colorscale=scale, zmin=0, zmax=n, opacity=0.25, showscale=False,
                             hoverinfo="skip"))
    scatter = scatter_class(len(result.y_train))
    for c in classes:
        pts = result.X_train[result.y_train == c]
        name = {1: "positive (dense)", 0: "negative (sparse)"}.get(int(c), f"class {c}") \
            if classes.size == 2 else f"class {c}"
        fig.add_trace(scatter(x=pts[:, 0], y=pts[:, 1], mode="markers", name=name,
                              marker=dict(size=4, color=CLASS_COLOURS[int(c) % len(CLASS_COLOURS)])))
    if box is not None:
        (x0, y0), (x1, y1) = box
        fig.add_shape(type="rect", x0=x0, y0=y0, x1=x1, y1=y1, line=dict(color="black", dash="dot", width=1))
    if disc is not None:
        cx, cy, r = (float(v) for v in disc)
        fig.add_shape(type="circle", x0=cx - r, y0=cy - r, x1=cx + r, y1=cy + r,
                      line=dict(color="black", dash="dot", width=1))
    # two lines: the panels stand three abreast, and one long line ran past the panel's edge
    title = f"{LABELS[kernel]}<br><sub>accuracy {ev.accuracy:.3f}"
    if not np.isnan(ev.fpr):
        title += f" · FPR {ev.fpr:.3f}"
    title += "</sub>"
    fig.update_xaxes(range=[xs[0], xs[-1]], title_text="x₁ (first feature)")
    fig.update_yaxes(range=[ys[0], ys[-1]], scaleanchor="x", scaleratio=1, title_text="x₂ (second feature)")
    # the class colours are explained once next to the figures; a legend per panel collides with the title
    fig.update_layout(showlegend=False)
    return base_layout(fig, title, height)


def cv_figure(result, height: int = 320) -> go.Figure:
    """Mean CV accuracy against the tuned parameter, one line per kernel (log-2 x axis)."""
    fig = go.Figure()
    for kernel, (values, scores) in result.cv.items():
        if not values:
            continue
        fig.add_trace(go.Scatter(x=values, y=scores, mode="lines+markers", name=f"{LABELS[kernel]} ({TUNED[kernel]})",
                                 line=dict(color=SVM_COLOURS.get(kernel))))
    ticks = [2.0 ** m for m in range(-10, 13, 2)]
    fig.update_xaxes(type="log", title="γ (RBF) or ψ (L_ψ, IK)", tickvals=ticks,
                     ticktext=[f"2^{m}" for m in range(-10, 13, 2)])
    fig.update_yaxes(title="5-fold CV accuracy")
    return base_layout(fig, "Parameter search on the training rows", height)


def paired_figure(paired, metric: str = "FPR", height: int = 320, title: str | None = None) -> go.Figure:
    """Per-seed values of ``metric`` for every kernel, seeds joined by thin lines (the runs are paired).

    ``title``, if given, goes before the default title (e.g. which generator and ratio).
    """
    fig = go.Figure()
    x = [LABELS[k] for k in paired.kernels]
    values = np.array([paired.metrics[(k, metric)] for k in paired.kernels])  # kernels x seeds
    for j in range(values.shape[1]):
        fig.add_trace(go.Scatter(x=x, y=values[:, j], mode="lines", line=dict(color="#cccccc", width=1),
                                 showlegend=False, hoverinfo="skip"))
    for i, k in enumerate(paired.kernels):
        fig.add_trace(go.Box(x=[x[i]] * values.shape[1], y=values[i], name=x[i], boxpoints="all", jitter=0.2,
                             marker=dict(color=SVM_COLOURS.get(k)), showlegend=False))
    fig.update_xaxes(title="kernel")
    fig.update_yaxes(title=f"{metric} (one point per seed)")
    text = f"{metric} over {values.shape[1]} seeds (same data for every kernel per seed)"
    return base_layout(fig, f"{title}<br><sup>{text}</sup>" if title else text, height)


def mistake_curve_figure(result, height: int = 380) -> go.Figure:
    """Running mistake rate (mistakes so far / examples so far) along the stream, one line per learner."""
    fig = go.Figure()
    for r in result.results:
        at, rate = r.curve()
        fig.add_trace(go.Scatter(x=at, y=rate, mode="lines", name=r.method,
                                 line=dict(color=ONLINE_COLOURS.get(r.method), width=2)))
    fig.update_xaxes(title="examples seen")
    fig.update_yaxes(title="mistake rate so far", rangemode="tozero")
    return base_layout(fig, "Online mistake rate (each example predicted before it is learned)", height)
