"""Figures of the kernel-shapes experiment (Ting et al. 2018, Fig. 1 and Fig. 3)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from ..experiments.kernel_shapes import KERNELS, Result
from ..params import setting
from .contours import similarity_contour
from .style import KERNEL_COLOURS, base_layout


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


#: marker symbols of the ψ values in ascending order (colour stays the kernel's)
_PSI_SYMBOLS = ("circle", "square", "diamond", "triangle-up", "cross", "star")


def _shade(colour: str, amount: float) -> str:
    """``colour`` (``#rrggbb``) mixed with ``amount`` (0-1) of white: a lighter tint of the same hue."""
    rgb = [int(colour[i:i + 2], 16) for i in (1, 3, 5)]
    return "#" + "".join(f"{round(c + (255 - c) * amount):02x}" for c in rgb)


def sharpness_figure(profiles: list[dict], height: int = 360) -> go.Figure:
    """Mean IK similarity vs distance from the reference for each psi, with L_psi dashed; and histograms.

    ``profiles`` are the outputs of :func:`ikviz.experiments.kernel_shapes.sharpness`, one per psi.
    Colours are the kernels' (registry): IK in its colour, L_ψ in its own and dashed, a smaller ψ a
    lighter tint with its own marker. The legend order is fixed whatever ψ values are given, and
    in whatever order: IK by ascending ψ, then L_ψ by ascending ψ.
    """
    fig = make_subplots(rows=1, cols=2, subplot_titles=(
        "mean IK vs distance (L_ψ dashed)", "distribution of IK values"), horizontal_spacing=0.12)
    ordered = sorted(profiles, key=lambda prof: prof["psi"])
    m = len(ordered)
    for i, prof in enumerate(ordered):
        psi = prof["psi"]
        tint = 0.0 if m == 1 else 0.55 * (m - 1 - i) / (m - 1)   # the largest ψ in full colour
        ik_colour = _shade(KERNEL_COLOURS[prof.get("kernel", "ik_iforest")], tint)
        lap_colour = _shade(KERNEL_COLOURS["laplacian_psi"], tint)
        symbol = _PSI_SYMBOLS[i % len(_PSI_SYMBOLS)]
        fig.add_trace(go.Scatter(x=prof["distance"], y=prof["mean"], mode="lines+markers",
                                 name=f"IK, ψ={psi}", line=dict(color=ik_colour), legendgroup=f"ik{i}",
                                 marker=dict(symbol=symbol, size=7), legendrank=100 + i,
                                 hovertemplate=f"IK, ψ={psi}<br>distance %{{x:.2f}}<br>mean K %{{y:.3f}}"
                                               "<extra></extra>"),
                      row=1, col=1)
        fig.add_trace(go.Scatter(x=prof["distance"], y=prof["laplacian"], mode="lines",
                                 name=f"L_ψ, ψ={psi}", line=dict(color=lap_colour, dash="dash"),
                                 legendgroup=f"lap{i}", legendrank=200 + i,
                                 hovertemplate=f"L_ψ, ψ={psi}<br>distance %{{x:.2f}}<br>K %{{y:.3f}}<extra></extra>"),
                      row=1, col=1)
        counts = np.asarray(prof["hist"], dtype=float)
        edges = prof["hist_edges"]
        fig.add_trace(go.Bar(x=(edges[:-1] + edges[1:]) / 2, y=counts / max(counts.sum(), 1),
                             name=f"IK, ψ={psi}", marker_color=ik_colour, opacity=0.6, legendgroup=f"ik{i}",
                             showlegend=False, hovertemplate=f"IK, ψ={psi}<br>K ≈ %{{x:.2f}}: %{{y:.1%}} of points"
                                                             "<extra></extra>"),
                      row=1, col=2)
    fig.update_layout(barmode="overlay", legend_traceorder="normal")
    fig.update_annotations(font_size=12)
    fig.update_xaxes(title_text="distance ‖x − ref‖₁ / d", row=1, col=1)
    fig.update_yaxes(title_text="similarity K(ref, x)", range=[0, 1.02], row=1, col=1)
    fig.update_xaxes(title_text="similarity K(ref, x)", row=1, col=2)
    fig.update_yaxes(title_text="fraction of points", row=1, col=2)
    return base_layout(fig, "Sharpness: larger ψ, sharper kernel", height=height)


def figures(result: Result) -> list[go.Figure]:
    """All figures of the experiment, for export."""
    return [contour_figure(result, k) for k in result.surfaces] + [sharpness_figure(result.sharpness)]


@dataclass(frozen=True)
class Display:
    """What the page draws on top of the contours (the computation is the same either way)."""

    cells: bool = setting(True, "show one partitioning's cells")
    data: bool = setting(False, "show data points")
    # on request: a figure that appears only when two ψ are held made every press back draw one figure more
    # than the press forward took away (0.58-0.61 s, the page's target 0.5 s; 0.50 s without it)
    over_psi: bool = setting(False, "IK over ψ, side by side", help="the ψ values computed so far, "
                             "as small multiples: move ψ to add one")
