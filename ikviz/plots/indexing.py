"""Figures of the indexing comparison (Ting et al. 2021, Table 2)."""

from __future__ import annotations

import plotly.graph_objects as go
from plotly.subplots import make_subplots

from ..experiments.indexing import METHODS
from .style import base_layout

_SEARCH = {"brute_s": ("brute force", "#999999"), "balltree_s": ("ball_tree option (incl. build)", "#1b9e77")}


#: short axis names; the table and the text use ``METHODS``
SHORT = {"distance": "Distance", "ik_sparse": "IK map, sparse", "ik_dense": "IK map, dense", "lk": "LK, normalised"}


def method_label(method: str, row: dict | None = None) -> str:
    """The method's short name on an axis, with what scikit-learn's ball_tree option ran on it (if known)."""
    name = SHORT.get(method, METHODS.get(method, method))
    if row is not None and "fit_method" in row:
        name += "<br>(no tree: brute force)" if row.get("fallback") else "<br>(ball tree)"
    return name


def indexing_figure(summary: dict, k: int = 5, height: int = 400) -> go.Figure:
    """Search runtimes (log scale) and precision@k per method.

    The ball-tree bar of a path where scikit-learn built no tree (sparse
    input) is hatched and its axis label says "no tree"; every ball-tree bar
    carries its time relative to brute force (×), the one label of its group:
    the seconds of neighbouring bars of similar height wrote over each other
    (they are in the hover and in the page's table).
    """
    methods = list(summary["methods"])
    rows = summary["methods"]
    names = [method_label(m, rows[m]) for m in methods]
    fig = make_subplots(rows=1, cols=2, column_widths=[0.66, 0.34], horizontal_spacing=0.1,
                        subplot_titles=(f"exact {k}-NN of every point: seconds (1 thread)", f"precision@{k}"))
    for key, (label, colour) in _SEARCH.items():
        vals = [rows[m][key] for m in methods]
        if key == "balltree_s":
            text = [f"×{rows[m]['tree_over_brute']:.2g}" if rows[m].get("tree_over_brute") else f"{v:.2g} s"
                    for m, v in zip(methods, vals)]
            pattern = dict(shape=["/" if rows[m].get("fallback") else "" for m in methods])
        else:
            text, pattern = None, None
        fig.add_trace(go.Bar(x=names, y=vals, name=label, marker_color=colour, marker_pattern=pattern,
                             text=text, textposition="outside", cliponaxis=False,
                             customdata=[rows[m].get("fit_method", "") for m in methods],
                             hovertemplate=f"%{{x}}<br>{label}: %{{y:.3g}} s<br>scikit-learn ran: %{{customdata}}"
                                           "<extra></extra>"),
                      row=1, col=1)
    maps = [rows[m]["map_s"] for m in methods]
    if any(v > 0 for v in maps):
        fig.add_trace(go.Bar(x=names, y=maps, name="feature mapping (separate)", marker_color="#e6ab02",
                             hovertemplate="%{x}<br>feature mapping: %{y:.3g} s<extra></extra>"),
                      row=1, col=1)
    prec = [rows[m][f"precision_at_{k}"] for m in methods]
    fig.add_trace(go.Bar(x=names, y=prec, name=f"precision@{k}", marker_color="#7570b3", showlegend=False,
                         text=[f"{v:.2f}" for v in prec], textposition="outside"), row=1, col=2)
    fig.update_yaxes(type="log", title_text="seconds", row=1, col=1)
    fig.update_yaxes(range=[0, 1.12], title_text=f"precision@{k}", row=1, col=2)
    fig.update_xaxes(tickfont=dict(size=10), title_text="similarity and search path")
    fig.update_annotations(font_size=12)
    fig.update_layout(barmode="group", uniformtext=dict(minsize=10, mode="show"))
    return base_layout(fig, f"{summary['dataset']}: {summary['n']:,} points, {summary['d']:,} dimensions",
                       height=height)
