"""ting2018 Table 6: SVM accuracy with RF_DG, RF_B and Isolation Kernel per dataset, ikviz's and the paper's."""

from __future__ import annotations

import plotly.graph_objects as go


def figures(result) -> list[go.Figure]:
    """One figure: mean accuracy per dataset and kernel (bars), the paper's Table 6 as markers.

    Examples
    --------
    >>> from types import SimpleNamespace
    >>> acc = {"Heart": {"rf_dg": [0.8], "rf_b": [0.7], "ik": [0.85]}}
    >>> res = SimpleNamespace(accuracy=acc, mean=lambda: {"Heart": {"rf_dg": 0.8, "rf_b": 0.7, "ik": 0.85}})
    >>> len(figures(res)[0].data)
    6
    """
    from ..experiments.paper_ting2018_table6 import KERNELS, PAPER

    mean = result.mean()
    rows = list(mean)
    fig = go.Figure()
    for i, (k, name) in enumerate(KERNELS.items()):
        fig.add_bar(x=rows, y=[mean[r][k] for r in rows], name=f"{name} (ikviz)", offsetgroup=k)
        fig.add_scatter(x=rows, y=[PAPER[r][i] for r in rows], mode="markers", name=f"{name} (paper)",
                        marker={"symbol": "diamond", "size": 8})
    fig.update_yaxes(title_text="test accuracy", range=[0, 1.02])
    fig.update_layout(title="ting2018 Table 6: RF kernels vs Isolation Kernel (SVM, C = 1)", barmode="group",
                      height=440)
    return [fig]
