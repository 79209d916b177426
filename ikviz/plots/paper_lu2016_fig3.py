"""lu2016 Fig. 3: mistake rate and seconds of FOGD over rho_f and NOGD over rho_n, per data set."""

from __future__ import annotations

import plotly.graph_objects as go
from plotly.subplots import make_subplots


def figures(result) -> list[go.Figure]:
    """One figure: mistake rate (top) and seconds (bottom) against rho, a column per learner, a line per data set.

    Examples
    --------
    >>> from types import SimpleNamespace
    >>> pt = {"mistake rate": (0.2, 0.0), "seconds": (1.0, 0.0)}
    >>> res = SimpleNamespace(grid={"letter": {"FOGD": {"1": pt, "4": pt}, "NOGD": {"0.2": pt}}})
    >>> len(figures(res)[0].data)
    4
    """
    fig = make_subplots(rows=2, cols=2, subplot_titles=("FOGD: mistake rate", "NOGD: mistake rate",
                                                        "FOGD: seconds", "NOGD: seconds"))
    for name, methods in result.grid.items():
        for j, m in enumerate(("FOGD", "NOGD"), start=1):
            points = methods.get(m, {})
            rhos = sorted(points, key=float)
            x = [float(r) for r in rhos]
            fig.add_scatter(x=x, y=[points[r]["mistake rate"][0] for r in rhos], mode="lines+markers",
                            name=f"{name}", legendgroup=name, showlegend=j == 1, row=1, col=j)
            fig.add_scatter(x=x, y=[points[r]["seconds"][0] for r in rhos], mode="lines+markers", name=name,
                            legendgroup=name, showlegend=False, row=2, col=j)
        fig.update_xaxes(title="rho_f = D / B", row=2, col=1)
        fig.update_xaxes(title="rho_n = k / B", row=2, col=2)
    fig.update_layout(title="lu2016 Fig. 3: sensitivity to rho_f and rho_n (B = 200)", height=620)
    return [fig]
