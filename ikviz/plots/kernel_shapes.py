"""Figures of the kernel-shapes experiment (Ting et al. 2018, Fig. 1 and Fig. 3)."""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go
from plotly.subplots import make_subplots
from scipy.spatial import Voronoi

from ..experiments.kernel_shapes import KERNELS, Result
from ..kernels import Partition
from .style import SEQUENCE, SIMILARITY_SCALE, base_layout


def _cell_lines(part: Partition) -> tuple[list, list]:
    """Line segments (x, y with None separators) outlining the cells of one partitioning."""
    xs, ys = [], []
    if part.boxes is not None:
        for (x0, y0), (x1, y1) in part.boxes[:, :, :2]:
            xs += [x0, x1, x1, x0, x0, None]
            ys += [y0, y0, y1, y1, y0, None]
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


def contour_figure(result: Result, kernel: str, show_cells: bool = True, show_data: bool = False,
                   clickable: bool = False, height: int = 360) -> go.Figure:
    """Contours of ``kernel`` around the reference point, optionally with one partitioning's cells.

    ``clickable`` adds an invisible grid of points, so that a click (a Plotly
    selection) can report where the user wants the reference point.
    """
    p = result.params
    axis = result.axis
    fig = go.Figure(go.Contour(
        x=axis, y=axis, z=result.surfaces[kernel], zmin=0, zmax=1, colorscale=SIMILARITY_SCALE,
        contours=dict(start=0.05, end=0.95, size=0.1), line=dict(width=0.5),
        colorbar=dict(title="K", thickness=10, len=0.9), hovertemplate="x=%{x:.2f}<br>y=%{y:.2f}<br>K=%{z:.3f}<extra></extra>",
    ))
    if show_data:
        fig.add_trace(go.Scattergl(x=result.data[:, 0], y=result.data[:, 1], mode="markers",
                                   marker=dict(size=2, color="white", opacity=0.5), hoverinfo="skip",
                                   name="data", showlegend=False))
    part = result.partitions.get(kernel)
    if show_cells and part is not None:
        xs, ys = _cell_lines(part)
        fig.add_trace(go.Scatter(x=xs, y=ys, mode="lines", line=dict(color="white", width=1),
                                 hoverinfo="skip", showlegend=False, name="cells"))
        fig.add_trace(go.Scatter(x=part.centres[:, 0], y=part.centres[:, 1], mode="markers",
                                 marker=dict(size=4, color="white", line=dict(color="black", width=0.5)),
                                 hoverinfo="skip", showlegend=False, name="sampled points"))
    if clickable:
        step = axis[1] - axis[0]
        coarse = axis[:: max(1, round(0.1 / step))]  # a 0.1 grid keeps the SVG light
        gx, gy = np.meshgrid(coarse, coarse)
        fig.add_trace(go.Scatter(x=gx.ravel(), y=gy.ravel(), mode="markers", name="click target",
                                 marker=dict(size=10, opacity=0), showlegend=False,
                                 hovertemplate="click to move the reference here<extra></extra>"))
    fig.add_trace(go.Scatter(x=[p.ref_x], y=[p.ref_y], mode="markers", name="reference",
                             marker=dict(symbol="x", size=11, color="red", line=dict(width=1)),
                             showlegend=False, hoverinfo="skip"))
    fig.update_xaxes(range=[axis[0], axis[-1]], constrain="domain")
    fig.update_yaxes(range=[axis[0], axis[-1]], scaleanchor="x", scaleratio=1)
    base_layout(fig, KERNELS[kernel][0], height=height)
    fig.update_layout(margin=dict(l=30, r=10, t=40, b=30))
    return fig


def sharpness_figure(result: Result, height: int = 360) -> go.Figure:
    """Mean IK similarity vs distance from the reference for each psi, with L_psi dashed; and histograms."""
    fig = make_subplots(rows=1, cols=2, subplot_titles=(
        "mean IK vs distance (L_ψ dashed)", "distribution of IK values"), horizontal_spacing=0.12)
    for i, prof in enumerate(result.sharpness):
        psi, colour = prof["psi"], SEQUENCE[i % len(SEQUENCE)]
        fig.add_trace(go.Scatter(x=prof["distance"], y=prof["mean"], mode="lines+markers",
                                 name=f"IK ψ={psi}", line=dict(color=colour), legendgroup=str(psi)),
                      row=1, col=1)
        fig.add_trace(go.Scatter(x=prof["distance"], y=prof["laplacian"], mode="lines",
                                 name=f"L_ψ ψ={psi}", line=dict(color=colour, dash="dash"),
                                 legendgroup=str(psi), showlegend=False), row=1, col=1)
        counts = np.asarray(prof["hist"], dtype=float)
        edges = prof["hist_edges"]
        fig.add_trace(go.Bar(x=(edges[:-1] + edges[1:]) / 2, y=counts / max(counts.sum(), 1),
                             name=f"ψ={psi}", marker_color=colour, opacity=0.6, legendgroup=str(psi),
                             showlegend=False), row=1, col=2)
    fig.update_layout(barmode="overlay")
    fig.update_annotations(font_size=12)
    fig.update_xaxes(title_text="‖x − ref‖₁ / d", row=1, col=1)
    fig.update_yaxes(title_text="similarity", range=[0, 1.02], row=1, col=1)
    fig.update_xaxes(title_text="K(ref, x)", row=1, col=2)
    fig.update_yaxes(title_text="fraction of points", row=1, col=2)
    base_layout(fig, "Sharpness: larger ψ, sharper kernel", height=height)
    fig.update_layout(margin=dict(t=70, b=90), legend=dict(orientation="h", y=-0.3, x=0, yanchor="top"))
    return fig


def figures(result: Result) -> list[go.Figure]:
    """All figures of the experiment, for export."""
    return [contour_figure(result, k) for k in result.surfaces] + [sharpness_figure(result)]
