"""ting2021 Table 9: IK mapping and linear SVM seconds, and SVC with GK, per row (ikviz's run)."""

from __future__ import annotations

import plotly.graph_objects as go


def figures(result) -> list[go.Figure]:
    """One figure: stacked IK mapping + LinearSVC seconds beside GK's SVC seconds per row (log scale).

    Examples
    --------
    >>> from types import SimpleNamespace
    >>> res = SimpleNamespace(rows={"A9a": {"map": 1.0, "svm": 2.0, "gk": 5.0}})
    >>> len(figures(res)[0].data)
    3
    """
    rows = list(result.rows)
    fig = go.Figure()
    fig.add_bar(x=rows, y=[result.rows[r]["map"] for r in rows], name="IK mapping", offsetgroup="ik")
    fig.add_bar(x=rows, y=[result.rows[r]["svm"] for r in rows], name="LinearSVC on the map", offsetgroup="ik",
                base=[result.rows[r]["map"] for r in rows])
    fig.add_bar(x=rows, y=[result.rows[r]["gk"] for r in rows], name="SVC with GK", offsetgroup="gk")
    fig.update_yaxes(title_text="seconds (this run)")
    fig.update_layout(title="ting2021 Table 9: IK mapping + SVM vs SVM with GK", height=420)
    return [fig]
