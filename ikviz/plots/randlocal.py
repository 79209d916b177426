"""Figures of the RandLocal reproduction (wang2017 Table 3, Tables 5-6): RAW vs RandLocal, beside the paper."""

from __future__ import annotations

import plotly.graph_objects as go
from plotly.subplots import make_subplots

from .style import base_layout

#: wang2017's own numbers for the data sets ikviz stands in for (Table 3: IJCNN; Tables 5-6: MNIST)
PAPER = {"micro_f1": {"RAW": 92.08, "RBF Kernel": 97.06, "RandLocal": 98.84},
         "kmeans_acc": {"RAW": 0.4642, "RandLocal": 0.6872},
         "kmeans_nmi": {"RAW": 0.4016, "RandLocal": 0.6685}}
_PANELS = (("micro_f1", "linear SVM: Micro-F1 (%)"), ("kmeans_acc", "k-means: accuracy"),
           ("kmeans_nmi", "k-means: NMI"))


def figures(result, height: int = 360) -> list[go.Figure]:
    """One figure, three panels: ikviz's mean ± std beside the paper's number for each feature set.

    Examples
    --------
    >>> from ikviz.experiments.randlocal import Params, run
    >>> from ikviz.plots.randlocal import figures
    >>> [fig] = figures(run(Params(max_rows=200, folds=2, kmeans_repeats=1, n_sets=10)))
    >>> len(fig.data)
    6
    """
    fig = make_subplots(rows=1, cols=3, subplot_titles=[title for _, title in _PANELS])
    for col, (key, _) in enumerate(_PANELS, start=1):
        ours = getattr(result, key)
        names = list(ours)
        fig.add_trace(go.Bar(x=names, y=[ours[n][0] for n in names], error_y=dict(array=[ours[n][1] for n in names]),
                             name="ikviz", marker_color="#56b4e9", showlegend=col == 1), row=1, col=col)
        fig.add_trace(go.Bar(x=names, y=[PAPER[key].get(n) for n in names], name="wang2017 (IJCNN / MNIST)",
                             marker_color="#bbbbbb", showlegend=col == 1), row=1, col=col)
    fig.update_xaxes(title_text="features")
    for col, (_, title) in enumerate(_PANELS, start=1):
        fig.update_yaxes(title_text=title.split(": ")[1], row=1, col=col)
    p = result.params
    return [base_layout(fig, f"RandLocal vs raw features<br><sup>{p.classification} ({result.n_classification:,} rows, "
                             f"{p.folds}-fold) and {p.clustering} ({p.kmeans_repeats} k-means runs)</sup>", height)]
