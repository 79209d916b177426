"""ting2021 App. C, Fig. 3: TLE's local intrinsic dimension estimates per dataset, as box plots."""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go


def figures(result) -> list[go.Figure]:
    """One figure: a box of TLE's local estimates per row (log scale), the true ID of the synthetic rows marked.

    Examples
    --------
    >>> from types import SimpleNamespace
    >>> res = SimpleNamespace(local_id={"A9a": np.array([5.0, 7.0, 9.0]), "Gaussians": np.array([300.0, 400.0])},
    ...                       params=SimpleNamespace(k=50))
    >>> [t.type for t in figures(res)[0].data]
    ['box', 'box', 'scatter']
    """
    from ..experiments.paper_ting2021_tle import TRUE_ID

    fig = go.Figure()
    for row, ids in result.local_id.items():
        fig.add_box(y=np.asarray(ids)[np.isfinite(ids)], name=row, boxpoints=False)
    true = [r for r in result.local_id if r in TRUE_ID]
    if true:
        fig.add_scatter(x=true, y=[TRUE_ID[r] for r in true], mode="markers", name="true ID",
                        marker={"symbol": "diamond", "size": 10, "color": "#000000"})
    fig.update_yaxes(type="log", title_text="local intrinsic dimension (TLE)")
    fig.update_layout(title=f"ting2021 Fig. 3: TLE estimates, k = {result.params.k}", height=420)
    return [fig]
