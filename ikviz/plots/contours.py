"""Contour plots of a kernel's similarity around a reference point, shared by the 2-D pages."""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go
from scipy.spatial import Voronoi

from ..kernels import Partition
from .style import SIMILARITY_SCALE, base_layout, scatter_class


def cell_lines(part: Partition) -> tuple[list, list]:
    """Line segments (x, y with None separators) outlining the cells of one partitioning."""
    xs, ys = [], []
    if part.boxes is not None:
        for (x0, y0), (x1, y1) in part.boxes[:, :, :2]:
            xs += [x0, x1, x1, x0, x0, None]
            ys += [y0, y0, y1, y1, y0, None]
        return xs, ys
    if part.radii is not None:
        # each ball drawn as a circle in the first two coordinates (exact in 2-D)
        angle = np.linspace(0.0, 2.0 * np.pi, 49)
        for (cx, cy), r in zip(part.centres[:, :2], part.radii):
            xs += [*(cx + r * np.cos(angle)), None]
            ys += [*(cy + r * np.sin(angle)), None]
        return xs, ys
    pts = part.centres[:, :2]
    lo, hi = part.bounds[0, :2], part.bounds[1, :2]
    span = float(np.max(hi - lo)) or 1.0
    centre = (lo + hi) / 2
    # far-away guard points make every ridge between real centres finite
    guards = centre + 10 * span * np.array([[-1, -1], [-1, 1], [1, -1], [1, 1]])
    unique = np.unique(pts, axis=0)
    if len(unique) < 2:
        return xs, ys
    vor = Voronoi(np.vstack([unique, guards]))
    real = len(unique)
    for (a, b), (va, vb) in zip(vor.ridge_points, vor.ridge_vertices):
        if a < real and b < real and va >= 0 and vb >= 0:
            (x0, y0), (x1, y1) = vor.vertices[va], vor.vertices[vb]
            xs += [x0, x1, None]
            ys += [y0, y1, None]
    return xs, ys


#: data points drawn under a contour at most (a seeded sample beyond)
MAX_BACKDROP_POINTS = 1000


def similarity_contour(axis: np.ndarray, z: np.ndarray, *, title: str, ref: tuple[float, float],
                       data: np.ndarray | None = None, partition: Partition | None = None,
                       probes: dict[str, np.ndarray] | None = None, clickable: bool = False,
                       height: int = 360) -> go.Figure:
    """Contours of ``z`` (similarity to ``ref`` on the grid ``axis`` x ``axis``).

    Optional layers: the data points, one partitioning's cells, named probe
    points (drawn as labelled markers), and an invisible grid of points so that
    a click (a Plotly selection) can report where the user wants the reference.
    """
    fig = go.Figure(go.Contour(
        x=axis, y=axis, z=z, zmin=0, zmax=1, colorscale=SIMILARITY_SCALE,
        contours=dict(start=0.05, end=0.95, size=0.1), line=dict(width=0.5),
        # below the plot, not beside it: a narrow column keeps its width for the square of contours
        colorbar=dict(title=dict(text="K(ref, x)", side="top"), orientation="h", thickness=8, len=1.0,
                      y=-0.22, yanchor="top", tickvals=[0, 0.25, 0.5, 0.75, 1]),
        hovertemplate="x=%{x:.2f}<br>y=%{y:.2f}<br>K=%{z:.3f}<extra></extra>",
    ))
    if data is not None and len(data):
        shown = data
        if len(data) > MAX_BACKDROP_POINTS:
            # a seeded sample keeps the regions' relative density; a WebGL layer per panel costs the browser
            # more than the contours themselves, and several panels exhaust its WebGL contexts
            rows = np.random.default_rng(0).choice(len(data), MAX_BACKDROP_POINTS, replace=False)
            shown = data[np.sort(rows)]
        name = "data" if len(shown) == len(data) else f"data ({len(shown):,} of {len(data):,} shown)"
        fig.add_trace(scatter_class(len(shown))(x=shown[:, 0], y=shown[:, 1], mode="markers", name=name,
                                                marker=dict(size=2, color="white", opacity=0.5), hoverinfo="skip",
                                                showlegend=False))
    if partition is not None:
        xs, ys = cell_lines(partition)
        fig.add_trace(go.Scatter(x=xs, y=ys, mode="lines", line=dict(color="white", width=1),
                                 hoverinfo="skip", showlegend=False, name="cells"))
        fig.add_trace(go.Scatter(x=partition.centres[:, 0], y=partition.centres[:, 1], mode="markers",
                                 marker=dict(size=4, color="white", line=dict(color="black", width=0.5)),
                                 hoverinfo="skip", showlegend=False, name="sampled points"))
    if clickable:
        step = axis[1] - axis[0]
        coarse = axis[:: max(1, round(0.1 / step))]
        gx, gy = np.meshgrid(coarse, coarse)
        # a click selects the nearest hovered point, drawn or not: one drawn marker instead of a few hundred
        # invisible ones saves the browser a quarter of each panel's drawing
        fig.add_trace(go.Scatter(x=gx.ravel(), y=gy.ravel(), mode="markers", name="click target",
                                 marker=dict(size=10, opacity=0, maxdisplayed=1), showlegend=False,
                                 hovertemplate="click to move the reference here<extra></extra>"))
    for label, pts in (probes or {}).items():
        pts = np.atleast_2d(pts)
        fig.add_trace(go.Scatter(x=pts[:, 0], y=pts[:, 1], mode="markers+lines+text", name=label,
                                 text=[label] * len(pts), textposition="top center",
                                 textfont=dict(color="white", size=11),
                                 marker=dict(symbol="circle-open", size=10, color="white", line=dict(width=2)),
                                 line=dict(color="white", dash="dot"), showlegend=False, hoverinfo="skip"))
    fig.add_trace(go.Scatter(x=[ref[0]], y=[ref[1]], mode="markers", name="reference",
                             marker=dict(symbol="x", size=11, color="red", line=dict(width=1)),
                             showlegend=False, hoverinfo="skip"))
    fig.update_xaxes(range=[axis[0], axis[-1]], constrain="domain", title_text="x₁", title_standoff=4)
    fig.update_yaxes(range=[axis[0], axis[-1]], scaleanchor="x", scaleratio=1, constrain="domain",
                     title_text="x₂", title_standoff=4)
    base_layout(fig, title, height=height)
    # room for the colour bar below and the last tick label's overhang at the right: margins Plotly's
    # automargin would widen make it draw the panel twice (benchmarks/automargin.py)
    fig.update_layout(margin_l=33, margin_r=16, margin_b=max(fig.layout.margin.b or 0, 122))
    return fig
