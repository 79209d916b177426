"""ting2021 Table 2 on the rows ikviz has: ball tree ÷ brute force per method, and precision@5."""

from __future__ import annotations

import plotly.graph_objects as go
from plotly.subplots import make_subplots


def figures(result) -> list[go.Figure]:
    """One figure: ball tree ÷ brute-force time per row and method (log scale; below 1 the tree is faster),
    and precision@5 of distance and IK beside the paper's.

    Examples
    --------
    >>> from types import SimpleNamespace
    >>> s = {"n": 10, "d": 2, "tree_over_brute": {"distance": 2.0, "ik_sparse": 1.0}, "fallback": {},
    ...      "methods": {"distance": {"precision_at_5": .9}, "ik_sparse": {"precision_at_5": .95}}}
    >>> res = SimpleNamespace(summaries={"A9a": s})
    >>> len(figures(res)[0].data)
    5
    """
    from ..experiments.paper_ting2021_table2 import PAPER_PRECISION

    rows = list(result.summaries)
    fig = make_subplots(rows=1, cols=2, subplot_titles=("ball tree ÷ brute force (< 1: tree faster)",
                                                        "precision@5"))
    methods = list(next(iter(result.summaries.values()))["tree_over_brute"]) if rows else []
    for m in methods:
        fig.add_bar(x=rows, y=[result.summaries[r]["tree_over_brute"][m] for r in rows], name=m, row=1, col=1)
    for i, m in enumerate(("distance", "ik_sparse")):
        fig.add_bar(x=rows, y=[result.summaries[r]["methods"][m]["precision_at_5"] for r in rows],
                    name=f"precision, {'IK' if i else 'distance'}", row=1, col=2)
    fig.add_scatter(x=rows, y=[PAPER_PRECISION[r][1] for r in rows], mode="markers", name="paper, IK",
                    marker={"symbol": "diamond", "size": 9}, row=1, col=2)
    fig.update_yaxes(type="log", row=1, col=1)
    fig.update_layout(title="ting2021 Table 2 on the rows ikviz has", height=420, barmode="group")
    return [fig]
