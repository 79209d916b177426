"""lu2016 Fig. 4: mistake rate and seconds of the budgeted learners over the budget B, per data set."""

from __future__ import annotations

import plotly.graph_objects as go
from plotly.subplots import make_subplots


def figures(result) -> list[go.Figure]:
    """One figure: mistake rate (top) and seconds (bottom) against B, a column per data set, a line per learner.

    Examples
    --------
    >>> from types import SimpleNamespace
    >>> pt = {"mistake rate": (0.2, 0.0), "seconds": (1.0, 0.0)}
    >>> res = SimpleNamespace(grid={"letter": {"FOGD": {"50": pt, "100": pt}, "RBP": {"50": pt, "100": pt}}})
    >>> len(figures(res)[0].data)
    4
    """
    names = list(result.grid)
    fig = make_subplots(rows=2, cols=max(1, len(names)), subplot_titles=names or None, shared_xaxes=True,
                        vertical_spacing=0.08)
    seen = set()
    for j, name in enumerate(names, start=1):
        for m, points in result.grid[name].items():
            bs = sorted(points, key=int)
            x = [int(b) for b in bs]
            fig.add_scatter(x=x, y=[points[b]["mistake rate"][0] for b in bs], mode="lines+markers", name=m,
                            legendgroup=m, showlegend=m not in seen, row=1, col=j)
            fig.add_scatter(x=x, y=[points[b]["seconds"][0] for b in bs], mode="lines+markers", name=m,
                            legendgroup=m, showlegend=False, row=2, col=j)
            seen.add(m)
        fig.update_xaxes(type="log", title="budget B", row=2, col=j)
        fig.update_xaxes(type="log", row=1, col=j)
    fig.update_yaxes(title="mistake rate", row=1, col=1)
    fig.update_yaxes(title="seconds", type="log", row=2, col=1)
    fig.update_layout(title="lu2016 Fig. 4: sensitivity to the budget B (D = 4B, k = 0.2B)", height=620)
    return [fig]
