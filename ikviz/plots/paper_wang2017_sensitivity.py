"""wang2017 Fig. 5: Micro-F1 against ε and T."""

from __future__ import annotations

import plotly.graph_objects as go
from plotly.subplots import make_subplots


def figures(result) -> list[go.Figure]:
    """Fig. 5: Micro-F1 against ε (T = 400) and against T (ε = 1e-4).

    Examples
    --------
    >>> from types import SimpleNamespace
    >>> res = SimpleNamespace(by_epsilon={0.0: 91.0, 1e-4: 92.0}, by_sets={50: 90.0, 400: 92.0})
    >>> len(figures(res)[0].data)
    2
    """
    fig = make_subplots(rows=1, cols=2, subplot_titles=("ε (T = 400)", "T (ε = 1e-4)"))
    eps = list(result.by_epsilon)
    fig.add_scatter(x=[f"{e:g}" for e in eps], y=[result.by_epsilon[e] for e in eps], mode="lines+markers",
                    name="by ε", row=1, col=1)
    sets = list(result.by_sets)
    fig.add_scatter(x=sets, y=[result.by_sets[t] for t in sets], mode="lines+markers", name="by T", row=1, col=2)
    fig.update_yaxes(title_text="Micro-F1 (%)", row=1, col=1)
    fig.update_layout(title="wang2017 Fig. 5: RandLocal's sensitivity to ε and T", height=380)
    return [fig]
