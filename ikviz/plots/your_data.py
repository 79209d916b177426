"""Figures and tables of the your-data checks."""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from ..experiments.your_data import KERNEL_LABELS
from .style import CLASS_COLOURS, KERNEL_COLOURS, base_layout

_COLOUR = {"ik": KERNEL_COLOURS["ik_anne"], "gk": KERNEL_COLOURS["rbf"]}
SVM_LABELS = {"ik": "SVM, Isolation Kernel", "ik-linear": "linear SVM on the IK feature map",
              "rbf": "SVM, RBF kernel", "linear": "SVM, linear kernel"}


def neighbour_figure(res: dict, height: int = 360) -> go.Figure:
    """Distributions of N_eps (left) and of the k-occurrence O_k (right) for IK and the Gaussian kernel."""
    fig = make_subplots(rows=1, cols=2, horizontal_spacing=0.12, subplot_titles=(
        f"N_eps per query (ε = {res['eps']:g}); lower is more stable",
        f"{res['k']}-occurrence O_k; a long right tail means hubs"))
    for name in ("ik", "gk"):
        label = KERNEL_LABELS[name]
        fig.add_trace(go.Histogram(x=np.log10(res["n_eps"][name]), name=label, marker_color=_COLOUR[name],
                                   opacity=0.6, nbinsx=30, legendgroup=name), row=1, col=1)
        values, counts = np.unique(res["occurrence"][name], return_counts=True)
        fig.add_trace(go.Bar(x=values, y=counts, name=label, marker_color=_COLOUR[name], opacity=0.6,
                             legendgroup=name, showlegend=False), row=1, col=2)
    fig.update_layout(barmode="overlay")
    fig.update_xaxes(title_text="log₁₀ N_eps", row=1, col=1)
    fig.update_xaxes(title_text="O_k", row=1, col=2)
    fig.update_yaxes(title_text="points", row=1, col=1)
    fig.update_annotations(font_size=12)
    return base_layout(fig, "Nearest-neighbour instability and hubness", height=height)


def svm_table(rows: list[dict]) -> dict[str, list]:
    """Column-wise table of the SVM comparison for st.dataframe."""
    return {"model": [SVM_LABELS[r["kernel"]] for r in rows],
            "test accuracy": [round(r["accuracy"], 4) for r in rows],
            "train s": [round(r["train_s"], 3) for r in rows],
            "predict s": [round(r["test_s"], 3) for r in rows],
            "setting": [", ".join(f"{k}={v:.3g}" if isinstance(v, float) else f"{k}={v}"
                                  for k, v in r["params"].items()) or "–" for r in rows]}


def tsne_figure(res: dict, height: int = 460) -> go.Figure:
    """The Gaussian and IK t-SNE embeddings side by side, coloured by class, scores in the titles."""
    titles = []
    for name in ("gk", "ik"):
        s = res["scores"].get(name)
        extra = f" — 5-NN acc {s['knn_accuracy']:.3f}, silhouette {s['silhouette']:.2f}" if s else ""
        titles.append(f"{'Gaussian' if name == 'gk' else 'IK'} affinities{extra}")
    fig = make_subplots(rows=1, cols=2, subplot_titles=titles, horizontal_spacing=0.06)
    labels = res["labels"]
    for col, name in enumerate(("gk", "ik"), start=1):
        Y = res["coords"][name]
        if labels is None:
            fig.add_trace(go.Scattergl(x=Y[:, 0], y=Y[:, 1], mode="markers", showlegend=False,
                                       marker=dict(size=3, color="#444")), row=1, col=col)
            continue
        for c in np.unique(labels):
            pts = Y[labels == c]
            fig.add_trace(go.Scattergl(x=pts[:, 0], y=pts[:, 1], mode="markers", name=f"class {c}",
                                       legendgroup=str(c), showlegend=(col == 1),
                                       marker=dict(size=3, color=CLASS_COLOURS[int(c) % len(CLASS_COLOURS)])),
                          row=1, col=col)
    fig.update_xaxes(showticklabels=False)
    fig.update_yaxes(showticklabels=False)
    fig.update_annotations(font_size=12)
    return base_layout(fig, "t-SNE of your data", height=height)


def clustering_table(rows: list[dict]) -> dict[str, list]:
    """Column-wise table of the clustering comparison for st.dataframe."""
    return {"affinity": [KERNEL_LABELS[r["measure"]] for r in rows],
            "AMI": [round(r["ami"], 3) for r in rows], "NMI": [round(r["nmi"], 3) for r in rows]}


def learn_figure(res, height: int = 320) -> go.Figure:
    """Progressive mistake rate of each learner as the rows of a big file stream past (``ikviz.scale.run.learn``)."""
    fig = go.Figure()
    rows = [n for n, _ in res.curve]
    for name in res.mistake_rate:
        fig.add_trace(go.Scatter(x=rows, y=[rates[name] for _, rates in res.curve], mode="lines+markers",
                                 name=name, line=dict(color=_COLOUR["ik"] if name.startswith("IK") else
                                                      _COLOUR["gk"], width=2)))
    fig.update_xaxes(title="training rows seen")
    fig.update_yaxes(title="progressive mistake rate", rangemode="tozero")
    return base_layout(fig, "One pass over every row: IK + OGD against FOGD (Gaussian random features)", height)


def learn_table(res) -> dict[str, list]:
    """Final progressive mistake rate and held-out accuracy per learner."""
    names = list(res.mistake_rate)
    return {"learner": names,
            f"mistake rate over {res.n_train:,} training rows": [round(res.mistake_rate[k], 4) for k in names],
            f"accuracy on {res.n_test:,} held-out rows": [round(res.accuracy[k], 4) for k in names]}


def cell_figure(res, height: int = 320) -> go.Figure:
    """Rows per Isolation Kernel cell over every row of a big file, relative to an even share n / psi.

    ``res`` is an :class:`~ikviz.experiments.your_data.BigFileResult`; one bar per
    range of relative size, counting the t * psi cells.
    """
    from ..experiments.your_data import cell_summary

    summary = cell_summary(res)
    t, psi = res.cell_counts.shape[1:]
    fig = go.Figure(go.Histogram(x=summary["relative"], nbinsx=40, marker_color=_COLOUR["ik"], opacity=0.8,
                                 name="cells"))
    fig.add_vline(x=1.0, line_dash="dot", line_color="#555", annotation_text="even share n/ψ",
                  annotation_position="top right")
    fig.update_xaxes(title="rows in the cell ÷ (n / ψ)", rangemode="tozero")
    fig.update_yaxes(title=f"cells (of {t * psi:,})")
    return base_layout(fig, f"Rows per cell: all {res.n_rows:,} rows in each of the {t} partitionings", height)
