"""ting2018 Table 2: mean density ratio of the misclassified points per group, ikviz (each reading) beside the paper."""

from __future__ import annotations

import plotly.graph_objects as go

from ..experiments.paper_ting2018_density import GROUPS, PAPER


def figures(result) -> list[go.Figure]:
    """One figure: mean max/min density ratio per dataset and group, log scale, the paper's as markers.

    Examples
    --------
    >>> from types import SimpleNamespace
    >>> cell = {"count": 3, "max_density": 1.0, "min_density": 0.5, "ratio": 2.0}
    >>> res = SimpleNamespace(table={"German": {"with itself": {g: cell for g in GROUPS}}})
    >>> len(figures(res)[0].data)
    4
    """
    fig = go.Figure()
    rows = list(result.table)
    readings = list(next(iter(result.table.values()))) if rows else []
    for reading in readings:
        for g in GROUPS:
            fig.add_bar(x=[f"{r}" for r in rows], y=[result.table[r][reading][g]["ratio"] for r in rows],
                        name=f"{g} only ({reading})" if g != "Both kernels" else f"both ({reading})")
    fig.add_scatter(x=rows, y=[PAPER[r]["Laplacian"][3] for r in rows], mode="markers", name="paper, Laplacian only",
                    marker={"symbol": "diamond", "size": 10})
    fig.update_yaxes(type="log", title_text="mean density ratio max/min")
    fig.update_layout(title="ting2018 Table 2: density ratio of misclassified points", barmode="group", height=400)
    return [fig]
