"""ting2021 Fig. 1(b) under each reading of GK's bandwidth: var(F/E[F]) against d."""

from __future__ import annotations

import plotly.graph_objects as go


def figures(result) -> list[go.Figure]:
    """One figure: GK's variance under each bandwidth reading and IK's, against d (log-log).

    Examples
    --------
    >>> from types import SimpleNamespace
    >>> res = SimpleNamespace(variance={"scaled": {"gk": {10: 0.15, 100: 0.12}, "ik": {10: 0.04, 100: 0.05}},
    ...                                 "fixed": {"gk": {10: 0.15, 100: 1e-5}, "ik": {10: 0.04, 100: 0.05}}})
    >>> [t.name for t in figures(res)[0].data]
    ['GK, scaled', 'GK, fixed', 'IK']
    """
    fig = go.Figure()
    for reading, var in result.variance.items():
        ds = sorted(var["gk"], key=int)
        fig.add_scatter(x=[int(d) for d in ds], y=[var["gk"][d] for d in ds], name=f"GK, {reading}",
                        mode="lines+markers")
    ik = next(iter(result.variance.values()))["ik"]
    ds = sorted(ik, key=int)
    fig.add_scatter(x=[int(d) for d in ds], y=[ik[d] for d in ds], name="IK", mode="lines+markers")
    fig.update_xaxes(type="log", title_text="d")
    fig.update_yaxes(title_text="var(F / E[F])")
    fig.update_layout(title="Fig. 1(b): does GK's variance vanish? It depends on how its bandwidth follows d",
                      height=380)
    return [fig]
