"""lu2016 Table 3: test accuracy and train seconds of SVC and the online learners on a9a, beside the paper's."""

from __future__ import annotations

import plotly.graph_objects as go
from plotly.subplots import make_subplots


def figures(result) -> list[go.Figure]:
    """Accuracy (left) and train seconds (right, log), ikviz's bars and the paper's diamonds.

    Examples
    --------
    >>> from types import SimpleNamespace
    >>> row = {"train": (1.0, 0.0), "test": (0.1, 0.0), "accuracy": (0.85, 0.0)}
    >>> len(figures(SimpleNamespace(rows={"FOGD": row, "LIBSVM": row}))[0].data)
    4
    """
    from ..experiments.paper_lu2016_table3 import PAPER

    methods = list(result.rows)
    fig = make_subplots(rows=1, cols=2, subplot_titles=("test accuracy", "train seconds (log)"))
    fig.add_bar(x=methods, y=[result.rows[m]["accuracy"][0] for m in methods], name="ikviz",
                error_y={"type": "data", "array": [result.rows[m]["accuracy"][1] for m in methods]}, row=1, col=1)
    fig.add_bar(x=methods, y=[result.rows[m]["train"][0] for m in methods], name="ikviz, s", row=1, col=2)
    fig.add_scatter(x=list(PAPER), y=[PAPER[m][2][0] for m in PAPER], mode="markers", name="paper",
                    marker={"symbol": "diamond", "size": 9}, row=1, col=1)
    fig.add_scatter(x=list(PAPER), y=[PAPER[m][0] for m in PAPER], mode="markers", name="paper, s",
                    marker={"symbol": "diamond", "size": 9}, row=1, col=2)
    fig.update_yaxes(type="log", row=1, col=2)
    fig.update_layout(title="lu2016 Table 3 on a9a: LIBSVM (SVC) vs one pass of the online learners", height=440)
    return [fig]
