"""One Plotly look for every figure of the app and of the exported HTML."""

from __future__ import annotations

import plotly.graph_objects as go

SIMILARITY_SCALE = "Viridis"
#: a colour per kernel family, used consistently across pages
KERNEL_COLOURS = {
    "ik_anne": "#1b9e77",
    "ik_iforest": "#d95f02",
    "ik_iforest_full": "#7570b3",
    "laplacian_psi": "#e7298a",
    "rbf": "#666666",
}
SEQUENCE = ["#1b9e77", "#d95f02", "#7570b3", "#e7298a", "#66a61e", "#e6ab02", "#a6761d", "#666666"]


def base_layout(fig: go.Figure, title: str | None = None, height: int = 380) -> go.Figure:
    """Apply the shared margins, fonts and template."""
    fig.update_layout(
        template="plotly_white",
        title=dict(text=title, x=0.02, font=dict(size=15)) if title else None,
        height=height,
        margin=dict(l=40, r=20, t=50 if title else 20, b=40),
        font=dict(size=12),
        legend=dict(orientation="h", yanchor="bottom", y=1.02, x=0),
    )
    return fig
