"""ting2018 Table 5: training and testing seconds per kernel, ikviz's and the paper's, as multiples of RBF's."""

from __future__ import annotations

import plotly.graph_objects as go


def figures(result) -> list[go.Figure]:
    """One figure: each kernel's training + testing time over RBF's, here and in the paper (log scale).

    Examples
    --------
    >>> from types import SimpleNamespace
    >>> s = {"train": 1.0, "test": 0.5}
    >>> res = SimpleNamespace(seconds={"rbf": s, "laplacian": s, "ik": {"train": 9.0, "test": 3.0}})
    >>> len(figures(res)[0].data)
    2
    """
    from ..experiments.paper_ting2018_table5 import KERNELS, PAPER, SHOWN

    names = {**KERNELS, **SHOWN}
    total = {k: s["train"] + s["test"] for k, s in result.seconds.items()}
    paper = {k: sum(v) for k, v in PAPER["IJCNN"].items()}
    fig = go.Figure()
    fig.add_bar(x=[names[k] for k in total], y=[v / total["rbf"] for v in total.values()], name="ikviz (this run)")
    fig.add_bar(x=[KERNELS[k] for k in KERNELS], y=[paper[KERNELS[k]] / paper["RBF"] for k in KERNELS],
                name="paper (IJCNN)")
    fig.update_yaxes(type="log", title_text="training + testing time ÷ RBF's")
    fig.update_layout(title="ting2018 Table 5: SVM time as a multiple of RBF's", barmode="group", height=420)
    return [fig]
