"""Figures of the indexing comparison (Ting et al. 2021, Table 2)."""

from __future__ import annotations

import plotly.graph_objects as go
from plotly.subplots import make_subplots

from ..experiments.indexing import METHODS
from .style import base_layout

_SEARCH = {"brute_s": ("brute force", "#999999"), "balltree_s": ("ball tree (incl. build)", "#1b9e77")}


def indexing_figure(summary: dict, k: int = 5, height: int = 380) -> go.Figure:
    """Search runtimes (log scale) and precision@k per method."""
    methods = list(summary["methods"])
    names = [METHODS[m] for m in methods]
    fig = make_subplots(rows=1, cols=2, column_widths=[0.62, 0.38], horizontal_spacing=0.12,
                        subplot_titles=(f"exact {k}-NN of every point: seconds (1 thread)", f"precision@{k}"))
    for key, (label, colour) in _SEARCH.items():
        vals = [summary["methods"][m][key] for m in methods]
        fig.add_trace(go.Bar(x=names, y=vals, name=label, marker_color=colour,
                             text=[f"{v:.2g} s" for v in vals], textposition="outside"), row=1, col=1)
    maps = [summary["methods"][m]["map_s"] for m in methods]
    if any(v > 0 for v in maps):
        fig.add_trace(go.Bar(x=names, y=maps, name="feature mapping (separate)", marker_color="#e6ab02",
                             text=[f"{v:.2g} s" if v > 0 else "" for v in maps], textposition="outside"),
                      row=1, col=1)
    prec = [summary["methods"][m][f"precision_at_{k}"] for m in methods]
    fig.add_trace(go.Bar(x=names, y=prec, name=f"precision@{k}", marker_color="#7570b3", showlegend=False,
                         text=[f"{v:.2f}" for v in prec], textposition="outside"), row=1, col=2)
    fig.update_yaxes(type="log", title_text="seconds", row=1, col=1)
    fig.update_yaxes(range=[0, 1.12], row=1, col=2)
    base_layout(fig, f"{summary['dataset']}: {summary['n']:,} points, {summary['d']:,} dimensions", height=height)
    fig.update_layout(barmode="group", margin=dict(t=70, b=90),
                      legend=dict(orientation="h", y=-0.2, x=0, yanchor="top"))
    fig.update_annotations(font_size=12)
    return fig
