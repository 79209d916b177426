"""Figures of the classification lab: decision regions, CV curves, paired spreads, mistake-rate curves.

Also the lab's tables (:func:`svm_table`, :func:`paired_table`, :func:`online_table`), the labels of its γ
values (:func:`power_label`) and the texts that explain its views (:func:`svm_note`, :func:`regions_caption`).
"""

from __future__ import annotations

import math

import numpy as np
import plotly.graph_objects as go

from ..data import density_ratio_layout
from ..experiments.classification import power_label
from ..experiments.online import gamma_label  # noqa: F401  (the online γ choices' labels, said once there)
from ..learn.svm import LABELS, TUNED
from .style import (
    CLASS_COLOURS,
    ONLINE_COLOURS,
    ONLINE_DASHES,
    SVM_COLOURS,
    base_layout,
    ik_colour,
    scatter_class,
)


#: what the online lab's curve and table measure
ONLINE_CAPTION = ("One pass, each example predicted before its label is used (lu2016 §7). Seconds include "
                  "building the feature map; the first run of a session also loads compiled code. FOGD and "
                  "NOGD use exp(−γ‖x−y‖²); NOGD runs kernel OGD until B support vectors, then a rank-0.2B "
                  "Nyström map. IK rows are scaled by 1/√t and RandLocal rows to unit length.")


def svm_table(result) -> list[dict]:
    """The rows of the SVM comparison (:func:`ikviz.experiments.classification.run`), one per kernel.

    Its label, the chosen parameter ("gamma = 2^-2", "psi = 16" or "–"), accuracy, FPR and FNR
    to 4 places (None where undefined) and the seconds to 3.

    Examples
    --------
    >>> from types import SimpleNamespace
    >>> from ikviz.plots.classification import svm_table
    >>> row = {"kernel": "rbf", "gamma": 0.25, "accuracy": 0.91234, "FPR": 0.05, "FNR": float("nan"),
    ...        "train s": 0.12345, "test s": 0.0101}
    >>> svm_table(SimpleNamespace(table=lambda: [row]))
    [{'kernel': 'SVC, Gaussian (RBF)', 'parameter': 'gamma = 2^-2', 'accuracy': 0.9123, 'FPR': 0.05, \
'FNR': None, 'train s': 0.123, 'test s': 0.01}]
    """
    rows = []
    for r in result.table():
        row = {"kernel": LABELS[r["kernel"]]}
        name = TUNED[r["kernel"]]
        row["parameter"] = f"{name} = {power_label(r[name]) if name == 'gamma' else r[name]}" if name else "–"
        for key in ("accuracy", "FPR", "FNR"):
            row[key] = None if math.isnan(r[key]) else round(r[key], 4)
        row["train s"], row["test s"] = round(r["train s"], 3), round(r["test s"], 3)
        rows.append(row)
    return rows


def svm_table_caption(result) -> str:
    """What :func:`svm_table` measures, with the number of training and test points of ``result``.

    Examples
    --------
    >>> from types import SimpleNamespace
    >>> from ikviz.plots.classification import svm_table_caption
    >>> svm_table_caption(SimpleNamespace(X_train=[0] * 400, n_test=20000))[:38]
    '400 training and 20000 test points. FP'
    """
    return (f"{len(result.X_train)} training and {result.n_test} test points. FPR: negatives (sparse "
            "class) called positive; FNR: positives called negative (binary data only). Times are "
            "wall-clock seconds on this machine, kernel computation included.")


def paired_table(paired) -> list[dict]:
    """The paired runs' summary (:meth:`~ikviz.experiments.classification.PairedResult.summary`), to 4 places.

    Examples
    --------
    >>> from types import SimpleNamespace
    >>> from ikviz.plots.classification import paired_table
    >>> paired_table(SimpleNamespace(summary=lambda: [{"kernel": "ik", "FPR": 0.061234, "FPR std": 0.0}]))
    [{'kernel': 'ik', 'FPR': 0.0612, 'FPR std': 0.0}]
    """
    return [{k: (round(v, 4) if isinstance(v, float) else v) for k, v in r.items()} for r in paired.summary()]


def region_marks(dataset: str, ratio: float, shape: str) -> tuple:
    """(box, disc) for :func:`regions_figure`: the overlap marks of density-ratio data, (None, None) for others.

    Examples
    --------
    >>> from ikviz.plots.classification import region_marks
    >>> region_marks("wine", 10.0, "uniform")
    (None, None)
    >>> box, disc = region_marks("density-ratio", 10.0, "gaussian")
    >>> box is None, len(disc)
    (True, 3)
    """
    if dataset != "density-ratio":
        return None, None
    layout = density_ratio_layout(float(ratio), shape=shape)
    return layout.get("overlap_box"), layout.get("winning_disc")


def regions_caption(dataset: str, shape: str) -> str:
    """What the decision-region maps show; for density-ratio data also the dotted mark of ``shape``'s generator.

    Examples
    --------
    >>> from ikviz.plots.classification import regions_caption
    >>> regions_caption("density-ratio", "uniform").endswith("dense positive class, the dotted box the overlap strip).")
    True
    >>> regions_caption("wine", "uniform").endswith("the dense positive class).")
    True
    """
    mark = {"uniform": ", the dotted box the overlap strip",
            "gaussian": ", the dotted circle where the dense class is the more likely"}
    return ("Shading: the class each SVM predicts; points: the training data (red: class 0, "
            "blue: class 1; for density-ratio data the sparse negative and the dense positive "
            f"class{mark[shape] if dataset == 'density-ratio' else ''}).")


def svm_note(dataset: str, grid: str, shape: str = "uniform", tuning: str = "cv") -> str:
    """What to look for in the SVM comparison (Markdown): the paper's claim for ``dataset`` and these settings.

    Examples
    --------
    >>> from ikviz.plots.classification import svm_note
    >>> svm_note("w-gaussians", "ting2021").endswith("This run uses the **ting2021** grid; switch the CV grid to "
    ...                                              "see the difference.")
    True
    >>> svm_note("wine", "ting2018").startswith("Real data are min-max scaled")
    True
    """
    if dataset == "density-ratio":
        where = ("The dense positive class sits in the unit square; the sparse negative class covers a larger "
                 "square that overlaps it in the dotted strip." if shape == "uniform" else
                 "Both classes are Gaussian; the sparse negative one is wider and to the right, and overlaps the "
                 "dense one around the dotted circle, inside which the dense class is the more likely.")
        return ("**What to look for (ting2018 Table 1).** " + where + " IK's cells are small where data are "
                "dense, so the dense class should spill less into the sparse region and the false-positive rate "
                "(FPR) should be lower than RBF's and Laplacian's for ratios > 1. The paper reports FPR 0.064 (IK), "
                "0.070 (Laplacian), 0.082 (RBF) at 10:1 and 0.056, 0.067, 0.094 at 20:1. The paper does not "
                "publish its generator; switch between the two here, and judge from the paired runs below, whose "
                "caption says from their numbers whether the effect appears (`ikviz reproduce svm-density-ratio` "
                "runs both generators).")
    if dataset == "w-gaussians":
        return ("**What to look for (ting2021 Table 4).** Two w-dimensional Gaussian clusters meet only at the "
                "origin. The linear kernel cannot separate them (≈ 0.5), IK can (≈ 1.0). The paper's Gaussian "
                "kernel scored 0.62 at w = 5,000 because its grid fixes σ = d·μ with μ ≥ 2^-5, i.e. σ ≥ 312 "
                "for d = 10,000: far too wide. The ting2018 γ grid reaches the narrow kernels it needs. "
                + (f"This run uses the **{grid}** grid; switch the CV grid to see the difference."
                   if tuning == "cv" else
                   "This run takes γ and ψ from the sliders, so no grid is used; choose **5-fold CV** under "
                   "*parameters* to compare the two grids."))
    return ("Real data are min-max scaled on the training rows and split 80/20 (stratified, by seed). "
            "FPR and FNR treat the second class as positive.")


def online_table(result) -> list[dict]:
    """The rows of the online lab (:func:`ikviz.experiments.online.run`), one per learner, rounded for reading.

    Examples
    --------
    >>> from types import SimpleNamespace
    >>> from ikviz.plots.classification import online_table
    >>> row = {"method": "FOGD", "mistake rate": 0.123456, "η": 0.2, "γ": 0.5, "seconds": 0.01234,
    ...        "examples/s": 810372.7, "features": 800}
    >>> online_table(SimpleNamespace(table=lambda: [row]))
    [{'method': 'FOGD', 'final mistake rate': 0.1235, 'η': 0.2, 'seconds': 0.012, 'examples/s': 810372, \
'features': 800}]
    """
    return [{"method": r["method"], "final mistake rate": round(r["mistake rate"], 4),
             "η": r["η"], "seconds": round(r["seconds"], 3), "examples/s": _whole(r["examples/s"]),
             "features": r["features"]} for r in result.table()]


def _whole(rate: float) -> int | float:
    """A rate as a whole number; a pass too fast for the clock has an infinite rate, which has none."""
    return int(rate) if math.isfinite(rate) else rate


def regions_figure(result, kernel: str, box=None, height: int = 360, disc=None) -> go.Figure:
    """Predicted class on a grid (shaded) with the training points of one SVM.

    ``box`` ([[x0, y0], [x1, y1]]) marks the overlap strip of the uniform density-ratio data;
    ``disc`` ([cx, cy, radius]) the disc where the dense class is the more likely, of the Gaussian ones.
    """
    xs, ys, Z = result.regions[kernel]
    classes = np.unique(result.y_train)
    ev = next(e for e in result.evaluations if e.kernel == kernel)
    fig = go.Figure()
    n = max(1, classes.size - 1)
    scale = [[i / n, CLASS_COLOURS[i % len(CLASS_COLOURS)]] for i in range(classes.size)] if n > 0 else None
    fig.add_trace(go.Heatmap(x=xs, y=ys, z=Z, colorscale=scale, zmin=0, zmax=n, opacity=0.25, showscale=False,
                             hoverinfo="skip"))
    scatter = scatter_class(len(result.y_train))
    for c in classes:
        pts = result.X_train[result.y_train == c]
        name = {1: "positive (dense)", 0: "negative (sparse)"}.get(int(c), f"class {c}") \
            if classes.size == 2 else f"class {c}"
        fig.add_trace(scatter(x=pts[:, 0], y=pts[:, 1], mode="markers", name=name,
                              marker=dict(size=4, color=CLASS_COLOURS[int(c) % len(CLASS_COLOURS)])))
    if box is not None:
        (x0, y0), (x1, y1) = box
        fig.add_shape(type="rect", x0=x0, y0=y0, x1=x1, y1=y1, line=dict(color="black", dash="dot", width=1))
    if disc is not None:
        cx, cy, r = (float(v) for v in disc)
        fig.add_shape(type="circle", x0=cx - r, y0=cy - r, x1=cx + r, y1=cy + r,
                      line=dict(color="black", dash="dot", width=1))
    # two lines: the panels stand three abreast, and one long line ran past the panel's edge
    title = f"{LABELS[kernel]}<br><sub>accuracy {ev.accuracy:.3f}"
    if not np.isnan(ev.fpr):
        title += f" · FPR {ev.fpr:.3f}"
    title += "</sub>"
    fig.update_xaxes(range=[xs[0], xs[-1]], title_text="x₁ (first feature)")
    fig.update_yaxes(range=[ys[0], ys[-1]], scaleanchor="x", scaleratio=1, title_text="x₂ (second feature)")
    # the class colours are explained once next to the figures; a legend per panel collides with the title
    fig.update_layout(showlegend=False)
    return base_layout(fig, title, height)


def svm_colour(kernel: str, ik_method: str = "iforest") -> str | None:
    """An SVM kernel's colour: its kernel's; IK's (and linear SVM on IK features') that of the IK variant used.

    Examples
    --------
    >>> from ikviz.registry import colour
    >>> svm_colour("ik", "anne") == colour("ik_anne"), svm_colour("rbf") == colour("rbf")
    (True, True)
    """
    if kernel in ("ik", "ik-linear"):
        return ik_colour(ik_method)
    return SVM_COLOURS.get(kernel)


def cv_figure(result, height: int = 320) -> go.Figure:
    """Mean CV accuracy against the tuned parameter, one line per kernel (log-2 x axis)."""
    fig = go.Figure()
    method = getattr(getattr(result, "params", None), "ik_method", "iforest")
    for kernel, (values, scores) in result.cv.items():
        if not values:
            continue
        fig.add_trace(go.Scatter(x=values, y=scores, mode="lines+markers", name=f"{LABELS[kernel]} ({TUNED[kernel]})",
                                 line=dict(color=svm_colour(kernel, method),
                                           dash="dash" if kernel == "ik-linear" else None)))
    ticks = [2.0 ** m for m in range(-10, 13, 2)]
    fig.update_xaxes(type="log", title="γ (RBF) or ψ (L_ψ, IK)", tickvals=ticks,
                     ticktext=[f"2^{m}" for m in range(-10, 13, 2)])
    fig.update_yaxes(title="5-fold CV accuracy")
    return base_layout(fig, "Parameter search on the training rows", height)


def paired_figure(paired, metric: str = "FPR", height: int = 320, title: str | None = None,
                  ik_method: str = "iforest") -> go.Figure:
    """Per-seed values of ``metric`` for every kernel, seeds joined by thin lines (the runs are paired).

    ``title``, if given, goes before the default title (e.g. which generator and ratio); ``ik_method``
    is the IK variant the runs used (its colour).
    """
    fig = go.Figure()
    x = [LABELS[k] for k in paired.kernels]
    values = np.array([paired.metrics[(k, metric)] for k in paired.kernels])  # kernels x seeds
    for j in range(values.shape[1]):
        fig.add_trace(go.Scatter(x=x, y=values[:, j], mode="lines", line=dict(color="#cccccc", width=1),
                                 showlegend=False, hoverinfo="skip"))
    for i, k in enumerate(paired.kernels):
        fig.add_trace(go.Box(x=[x[i]] * values.shape[1], y=values[i], name=x[i], boxpoints="all", jitter=0.2,
                             marker=dict(color=svm_colour(k, ik_method)), showlegend=False))
    fig.update_xaxes(title="kernel")
    fig.update_yaxes(title=f"{metric} (one point per seed)")
    text = f"{metric} over {values.shape[1]} seeds (same data for every kernel per seed)"
    return base_layout(fig, f"{title}<br><sup>{text}</sup>" if title else text, height)


def mistake_curve_figure(result, height: int = 380) -> go.Figure:
    """Running mistake rate (mistakes so far / examples so far) along the stream, one line per learner."""
    fig = go.Figure()
    for r in result.results:
        at, rate = r.curve()
        fig.add_trace(go.Scatter(x=at, y=rate, mode="lines", name=r.method,
                                 line=dict(color=ONLINE_COLOURS.get(r.method), width=2,
                                           dash=ONLINE_DASHES.get(r.method))))
    fig.update_xaxes(title="examples seen")
    fig.update_yaxes(title="mistake rate so far", rangemode="tozero")
    return base_layout(fig, "Online mistake rate (each example predicted before it is learned)", height)
