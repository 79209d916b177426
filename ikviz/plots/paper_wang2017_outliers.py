"""wang2017 Fig. 4: outlier AUC per feature set and k."""

from __future__ import annotations

import plotly.graph_objects as go


def figures(result) -> list[go.Figure]:
    """Fig. 4: AUC of the k-NN distance outlier score, raw against RandLocal features, per k.

    Examples
    --------
    >>> from types import SimpleNamespace
    >>> res = SimpleNamespace(auc={5: {"RAW": .6, "RandLocal": .7}}, n=100, n_outliers=10)
    >>> [t.name for t in figures(res)[0].data]
    ['RAW', 'RandLocal']
    """
    ks = list(result.auc)
    fig = go.Figure()
    for features in ("RAW", "RandLocal"):
        fig.add_bar(x=[f"k = {k}" for k in ks], y=[result.auc[k][features] for k in ks], name=features)
    fig.update_layout(title=f"wang2017 Fig. 4: outlier AUC ({result.n:,} rows, {result.n_outliers:,} outliers)",
                      yaxis_title="AUC", barmode="group", height=360)
    return [fig]
