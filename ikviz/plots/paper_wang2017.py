"""wang2017 Fig. 4 (outlier AUC per feature set and k) and Fig. 5 (Micro-F1 against ε and T)."""

from __future__ import annotations

import plotly.graph_objects as go
from plotly.subplots import make_subplots


def sensitivity_numbers(result) -> dict:
    """The JSON numbers of Fig. 5: Micro-F1 (%) by ε and by T."""
    return {"micro_f1_by_epsilon": result.by_epsilon, "micro_f1_by_sets": result.by_sets}


def sensitivity_figures(result) -> list[go.Figure]:
    """Fig. 5: Micro-F1 against ε (T = 400) and against T (ε = 1e-4).

    Examples
    --------
    >>> from types import SimpleNamespace
    >>> res = SimpleNamespace(by_epsilon={0.0: 91.0, 1e-4: 92.0}, by_sets={50: 90.0, 400: 92.0})
    >>> len(sensitivity_figures(res)[0].data)
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


def outlier_numbers(result) -> dict:
    """The JSON numbers of Fig. 4: AUC per k and feature set, and the data's size."""
    return {"auc": result.auc, "n": result.n, "n_outliers": result.n_outliers}


def outlier_figures(result) -> list[go.Figure]:
    """Fig. 4: AUC of the k-NN distance outlier score, raw against RandLocal features, per k.

    Examples
    --------
    >>> from types import SimpleNamespace
    >>> res = SimpleNamespace(auc={5: {"RAW": .6, "RandLocal": .7}}, n=100, n_outliers=10)
    >>> [t.name for t in outlier_figures(res)[0].data]
    ['RAW', 'RandLocal']
    """
    ks = list(result.auc)
    fig = go.Figure()
    for features in ("RAW", "RandLocal"):
        fig.add_bar(x=[f"k = {k}" for k in ks], y=[result.auc[k][features] for k in ks], name=features)
    fig.update_layout(title=f"wang2017 Fig. 4: outlier AUC ({result.n:,} rows, {result.n_outliers:,} outliers)",
                      yaxis_title="AUC", barmode="group", height=360)
    return [fig]
