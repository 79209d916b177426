"""wang2017 Table 7: Micro-F1 under noise per method, beside the paper's (DAE and SDAE as printed)."""

from __future__ import annotations

import plotly.graph_objects as go
from plotly.subplots import make_subplots

from .style import base_layout

_ORDER = ("RAW", "RBF Kernel", "DAE", "SDAE", "RandLocal")


def figures(result, height: int = 380) -> list[go.Figure]:
    """One panel per noise kind and column: ikviz's Micro-F1 (mean ± std over draws and folds) beside the paper's.

    Examples
    --------
    >>> from ikviz.experiments.paper_wang2017_noise import Params, Result
    >>> scores = {"IJCNN": {"RAW": [90.0], "RBF Kernel (h)": [85.0], "RBF Kernel (γ)": [91.0], "RandLocal": [93.0]}}
    >>> res = Result(Params(columns=("IJCNN",), kinds=("add",)), {"none": scores, "add": scores}, {"IJCNN": 100})
    >>> fig = figures(res)[0]
    >>> [t.name for t in fig.data], list(fig.data[1].x)
    (['ikviz', 'wang2017 (DAE, SDAE: not re-run)'], ['RAW', 'RBF Kernel (h)', 'RBF Kernel (γ)', 'DAE', 'SDAE', 'RandLocal'])
    """
    from ..experiments.paper_wang2017_noise import PAPER_TABLE7, numbers
    from .paper_wang2017_table3 import paper_bars

    table = numbers(result)["table7"]
    panels = [(kind, column) for kind in table for column in table[kind]]
    fig = make_subplots(rows=1, cols=len(panels), subplot_titles=[f"{k} 10 % noise, {c}" for k, c in panels])
    for col, (kind, column) in enumerate(panels, start=1):
        cell = table[kind][column]
        ours = list(cell)
        fig.add_bar(x=ours, y=[cell[m]["micro_f1"][0] for m in ours],
                    error_y=dict(array=[cell[m]["micro_f1"][1] for m in ours]), name="ikviz",
                    marker_color="#56b4e9", showlegend=col == 1, row=1, col=col)
        x, y = paper_bars(ours, {m: PAPER_TABLE7[kind][column][m][0] for m in _ORDER})
        fig.add_bar(x=x, y=y, name="wang2017 (DAE, SDAE: not re-run)", marker_color="#bbbbbb", showlegend=col == 1,
                    hovertext=["the paper's one RBF number (its grid's reading not stated)"
                               if c.startswith("RBF Kernel") else "" for c in x], row=1, col=col)
        fig.update_xaxes(categoryorder="array", categoryarray=x, row=1, col=col)
    fig.update_yaxes(title_text="Micro-F1 (%)", row=1, col=1)
    p = result.params
    return [base_layout(fig, f"wang2017 Table 7: classification with noise<br><sup>{p.noise_repeats} noise draw(s), "
                             f"{p.folds}-fold CV</sup>", height)]
