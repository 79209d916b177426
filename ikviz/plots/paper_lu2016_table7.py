"""lu2016 Table 7 and Figs. 1-2: the table beside the paper's numbers, and the running mistake rate and time."""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from .paper_lu2016_table5 import table_figure


def curves_figure(first: dict) -> go.Figure:
    """Figs. 1-2: per data set, the running mistake rate (top) and seconds spent (bottom) along the first order.

    Examples
    --------
    >>> from types import SimpleNamespace
    >>> r = SimpleNamespace(method="FOGD", mistakes=np.array([True, False, False, False]), times=(0.1, 0.2),
    ...                     curve=lambda k=200: (np.array([1, 4]), np.array([1.0, 0.25])))
    >>> len(curves_figure({"letter": SimpleNamespace(results=(r,))}).data)
    2
    """
    names = list(first)
    fig = make_subplots(rows=2, cols=max(1, len(names)), subplot_titles=[*(f"{n}: mistake rate" for n in names),
                                                                         *(f"{n}: seconds" for n in names)])
    for j, name in enumerate(names, start=1):
        for r in first[name].results:
            at, rate = r.curve()
            fig.add_scatter(x=at, y=rate, mode="lines", name=r.method, legendgroup=r.method, showlegend=j == 1,
                            row=1, col=j)
            if r.times:
                ends = np.linspace(0, len(r.mistakes), len(r.times) + 1)[1:].round()
                fig.add_scatter(x=ends, y=list(r.times), mode="lines+markers", name=r.method, legendgroup=r.method,
                                showlegend=False, row=2, col=j)
        fig.update_xaxes(title="examples seen", row=2, col=j)
        fig.update_yaxes(type="log", row=2, col=j)
    fig.update_layout(title="lu2016 Figs. 1-2: mistake rate and time along the stream (first order)", height=700)
    return fig


def figures(result) -> list[go.Figure]:
    """Table 7 as bars beside the paper's numbers, then Figs. 1-2."""
    return [table_figure(result.summary, "lu2016 Table 7: online multi-class classification"),
            curves_figure(result.first)]
