"""ting2018 Table 3 (accuracy per dataset, ikviz beside the paper) and Fig. 6 (average ranks, Nemenyi CD)."""

from __future__ import annotations

import plotly.graph_objects as go

from ..experiments.paper_ting2018_svm import KERNELS

_NAMES = {"rbf": "RBF", "laplacian": "Laplacian (L_ψ)", "ik": "Isolation"}
_PAPER_KEY = {"rbf": "RBF", "laplacian": "Laplacian", "ik": "Isolation"}


def accuracy_figure(numbers: dict) -> go.Figure:
    """Accuracy per dataset and kernel: ikviz's mean (bars) and the paper's (markers)."""
    rows = list(numbers["mean"])
    fig = go.Figure()
    for k in KERNELS:
        fig.add_bar(x=rows, y=[numbers["mean"][d][k] for d in rows], name=f"{_NAMES[k]} (ikviz)")
        fig.add_scatter(x=rows, y=[numbers["paper"][d][_PAPER_KEY[k]] for d in rows], mode="markers",
                        name=f"{_NAMES[k]} (paper)", marker={"symbol": "diamond", "size": 9})
    fig.update_layout(barmode="group", title="Table 3: SVM accuracy, ikviz beside ting2018", height=420,
                      yaxis_title="test accuracy")
    return fig


def cd_figure(stats: dict) -> go.Figure:
    """Fig. 6: each kernel's average rank on one axis, with the Nemenyi critical difference as a bar."""
    fig = go.Figure()
    ranks = stats.get("average_rank", [])
    fig.add_scatter(x=ranks, y=[0] * len(ranks), mode="markers+text", text=[_NAMES[m] for m in stats["methods"]],
                    textposition="top center", marker={"size": 12}, name="average rank")
    if ranks:
        fig.add_scatter(x=[min(ranks), min(ranks) + stats["cd"]], y=[-0.3, -0.3], mode="lines",
                        line={"width": 6}, name=f"CD = {stats['cd']:.2f} (α = 0.05)")
    fig.update_xaxes(title_text="average rank (1 = best)", range=[0.5, len(ranks) + 0.5])
    fig.update_yaxes(visible=False, range=[-1, 1])
    fig.update_layout(title=f"Fig. 6: Nemenyi test over {stats.get('n_datasets', 0)} datasets; Friedman "
                            f"p = {stats.get('friedman_p', float('nan')):.3f}", height=300)
    return fig


def figures(result) -> list[go.Figure]:
    """Both figures of one :class:`~ikviz.experiments.paper_ting2018_svm.Result`.

    Examples
    --------
    >>> from ikviz.experiments.paper_ting2018_svm import Params, Result, friedman_nemenyi
    >>> acc = {"Heart": {"rbf": [.8], "laplacian": [.8], "ik": [.85]}, "Vote": {"rbf": [.9], "laplacian": [.95],
    ...        "ik": [.96]}}
    >>> res = Result(Params(datasets=("Heart", "Vote"), runs=1), acc, {}, {**friedman_nemenyi([[.8, .8, .85],
    ...              [.9, .95, .96]]), "methods": ["rbf", "laplacian", "ik"]})
    >>> len(figures(res))
    2
    """
    from ..experiments.paper_ting2018_svm import numbers

    n = numbers(result)
    return [accuracy_figure(n), cd_figure(result.stats)]
