"""One Plotly look for every figure of the app and of the exported HTML."""

from __future__ import annotations

import plotly.graph_objects as go

from ..registry import colour, colours

SIMILARITY_SCALE = "Viridis"
#: a colour per kernel family, used consistently across pages (from the one registry)
KERNEL_COLOURS = colours("ik_anne", "ik_iforest", "ik_iforest_full", "ik_inne", "laplacian_psi", "rbf")
#: true clusters in embeddings: the papers' red and blue first, then a 26-colour palette
CLASS_COLOURS = ["#d62728", "#1f77b4", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2", "#17becf",
                 "#bcbd22", "#7f7f7f", "#393b79", "#637939", "#8c6d31", "#843c39", "#7b4173", "#3182bd",
                 "#e6550d", "#31a354", "#756bb1", "#636363", "#6baed6", "#fd8d3c", "#74c476", "#9e9ac8",
                 "#fdae6b", "#a1d99b"]
ORIGIN_COLOUR = "#000000"
#: classification lab: SVM kernels keep their kernel family colours; online learners
SVM_COLOURS = {**colours("rbf", "linear"), "laplacian": colour("laplacian_psi"), "ik": colour("ik_iforest"),
               "ik-linear": colour("ik_anne")}
ONLINE_COLOURS = {"FOGD": "#666666", "NOGD": "#7570b3", "IK+OGD": "#1b9e77", "RandLocal+OGD": "#a6761d"}
SEQUENCE = ["#1b9e77", "#d95f02", "#7570b3", "#e7298a", "#66a61e", "#e6ab02", "#a6761d", "#666666"]
#: clustering measures: the IK variants keep their kernel colours; GK matches RBF
MEASURE_COLOURS = {**KERNEL_COLOURS, **colours("gk", "ag", "distance", "raw", "randlocal")}
#: curse-of-dimensionality measures (IK green and GK grey as elsewhere)
DIMENSIONALITY_COLOURS = colours("ik", "gk", "ag", "lk", "lp0.1", "lp0.5", "lp2", "snn", "distance")


def base_layout(fig: go.Figure, title: str | None = None, height: int = 380) -> go.Figure:
    """Apply the shared margins, fonts and template."""
    fig.update_layout(
        template="plotly_white",
        title=dict(text=title, x=0.02, font=dict(size=15)) if title else None,
        height=height,
        margin=dict(l=40, r=20, t=80 if title else 30, b=40),  # room for the title above the legend
        font=dict(size=12),
        legend=dict(orientation="h", yanchor="bottom", y=1.02, x=0),
    )
    return fig
