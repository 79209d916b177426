"""lu2016 Table 5 (and Table 7, :mod:`ikviz.plots.paper_lu2016_table7`): each learner's mistake rate and seconds
beside the paper's, and the running mistake rate of the first order."""

from __future__ import annotations

import plotly.graph_objects as go
from plotly.subplots import make_subplots

from .classification import mistake_curve_figure


def table_figure(summary: dict, title: str) -> go.Figure:
    """Mistake rate (left) and seconds (right, log scale) per learner and data set; the paper's as diamonds.

    Examples
    --------
    >>> m = {"mistake rate": [0.3, 0.01], "seconds": [0.1, 0.0]}
    >>> s = {"german": {"rows": 10, "majority": 0.3, "methods": {"FOGD": m},
    ...                 "paper": {"FOGD": {"mistake rate": [0.299, 0.007], "seconds": 0.045}}}}
    >>> len(table_figure(s, "t").data)
    4
    """
    fig = make_subplots(rows=1, cols=2, subplot_titles=("mistake rate (lines: ikviz, diamonds: paper)",
                                                        "seconds per pass (log)"))
    for name, res in summary.items():
        methods = list(res["methods"])
        rates = [res["methods"][m]["mistake rate"][0] for m in methods]
        errs = [res["methods"][m]["mistake rate"][1] for m in methods]
        fig.add_bar(x=methods, y=rates, error_y={"type": "data", "array": errs}, name=f"{name} ({res['rows']:,})",
                    legendgroup=name, row=1, col=1)
        fig.add_bar(x=methods, y=[res["methods"][m]["seconds"][0] for m in methods], name=f"{name}, s",
                    legendgroup=name, showlegend=False, row=1, col=2)
        paper = res.get("paper") or {}
        shown = [m for m in methods if m in paper]
        fig.add_scatter(x=shown, y=[paper[m]["mistake rate"][0] for m in shown], mode="markers",
                        marker={"symbol": "diamond", "size": 8}, name=f"{name}, paper", legendgroup=name,
                        row=1, col=1)
        fig.add_scatter(x=shown, y=[paper[m]["seconds"] for m in shown], mode="markers",
                        marker={"symbol": "diamond", "size": 8}, name=f"{name}, paper s", legendgroup=name,
                        showlegend=False, row=1, col=2)
    fig.update_yaxes(type="log", row=1, col=2)
    fig.update_layout(title=title, height=460, barmode="group")
    return fig


def figures(result) -> list[go.Figure]:
    """The table as bars beside the paper's numbers, then each data set's running mistake rate (first order)."""
    return [table_figure(result.repro.summary, "lu2016 Table 5: online binary classification"),
            *(mistake_curve_figure(res) for res in result.repro.first.values())]
