"""Figures of the kernel-shapes experiment (Ting et al. 2018, Fig. 1 and Fig. 3)."""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from ..experiments.kernel_shapes import KERNELS, Result
from .contours import similarity_contour
from .style import SEQUENCE, base_layout


def contour_figure(result: Result, kernel: str, show_cells: bool = True, show_data: bool = False,
                   clickable: bool = False, height: int = 360) -> go.Figure:
    """Contours of ``kernel`` around the reference point, optionally with one partitioning's cells."""
    p = result.params
    return similarity_contour(
        result.axis, result.surfaces[kernel], title=KERNELS[kernel][0], ref=(p.ref_x, p.ref_y),
        data=result.data if show_data else None,
        partition=result.partitions.get(kernel) if show_cells else None,
        clickable=clickable, height=height,
    )


def sharpness_figure(profiles: list[dict], height: int = 360) -> go.Figure:
    """Mean IK similarity vs distance from the reference for each psi, with L_psi dashed; and histograms.

    ``profiles`` are the outputs of :func:`ikviz.experiments.kernel_shapes.sharpness`, one per psi.
    """
    fig = make_subplots(rows=1, cols=2, subplot_titles=(
        "mean IK vs distance (L_ψ dashed)", "distribution of IK values"), horizontal_spacing=0.12)
    for i, prof in enumerate(profiles):
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
    return [contour_figure(result, k) for k in result.surfaces] + [sharpness_figure(result.sharpness)]
