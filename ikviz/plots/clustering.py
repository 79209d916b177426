"""Figures of the clustering lab: clusters on a 2-D view, density-peaks decision graphs, AMI vs parameter.

Also the lab's texts and table: the data's labels (:func:`dataset_label`) and caption (:func:`data_caption`),
the scores table (:func:`summary_table`) and the notes under the results (:func:`view_notes`,
:func:`decision_graph_note`).
"""

from __future__ import annotations

import math

import numpy as np
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from ..clustering import match_labels
from ..experiments.clustering import (
    ALGORITHMS,
    DATASET_LABEL,
    MEASURES,
    Data,
    Evaluation,
    Result,
    Sweep,
    WGaussiansResult,
    n_clusters,
    projection_axes,
    summary,
)
from ..registry import label as registry_label
from .style import (
    CLUSTER_COLOURS,
    MEASURE_COLOURS,
    OTHER_COLOURS,
    base_layout,
    panel_width,
    scatter_class,
    wrap,
)


#: under spectral clustering's results: which IK reproduces ting2021 Fig. 2 (a spectral-clustering claim)
SPECTRAL_NOTE = (
    "**Which IK?** ting2021 (Fig. 2) reports spectral clustering on w = 1 at AMI 0.91 with IK and "
    "0.29 with adaptive Gaussian. At the paper's size (`ikviz reproduce clustering-wgaussians`: 500 "
    "points per cluster, best over Table 7's grid, 10 trials) the **Voronoi** IK (the paper's aNNE) "
    "gets 0.31, no better than AG (0.30) or GK (0.23); the **height-limited iForest** IK gets 0.92, "
    "the paper's number. That is why it is this page's default; switch the variant to see the others "
    "(we have not established why the variants differ this much here). At w = 5,000 the Voronoi and "
    "iForest IK both reach 1.00 while GK and AG stay near 0.23, as in the paper's Table 3.")
#: under density peaks' results: how to read the decision graphs
DECISION_GRAPH_NOTE = (
    "**Decision graph**: each point's density ρ against δ, its distance to the nearest "
    "denser point. Centres (red) stand out with both large ρ and large δ; density peaks "
    "takes the k points with the largest ρ·δ and hands every other point down the chain "
    "of nearest denser neighbours.")
#: under best mode's results: the labels chose each parameter
BEST_MODE_NOTE = ("Best mode picks each measure's parameter by its AMI against the true labels, "
                  "as ting2021 Table 3 does: an upper bound, not what an unsupervised user could pick.")


def dataset_label(name: str) -> str:
    """The label of dataset ``name`` in the lab's data selectbox.

    Examples
    --------
    >>> from ikviz.plots.clustering import dataset_label
    >>> dataset_label("w-gaussians")
    'w-Gaussians (ting2021 Fig. 2)'
    """
    return DATASET_LABEL(name)


def data_caption(data: Data, X, y: np.ndarray, k: int) -> str:
    """What the lab clusters: the size of ``X`` (the data or their shape), its classes ``y``, the clusters (``k``,
    0: one per class), the view.

    Examples
    --------
    >>> import numpy as np
    >>> from ikviz.experiments.clustering import Data
    >>> from ikviz.plots.clustering import data_caption
    >>> data_caption(Data("w-gaussians", w=1), np.zeros((6, 2)), np.array([0, 0, 1, 1, 2, 2]), 0)[:66]
    '6 points, 2 features (each scaled to [0, 1]), 3 classes; k = 3 clu'
    """
    n, d = X.shape if hasattr(X, "shape") else X
    n_classes = int(np.unique(y).size)
    view = projection_axes(data, d)[2]
    return (f"{n} points, {d} features (each scaled to [0, 1]), {n_classes} classes; k = {n_clusters(k, y)} "
            f"clusters. Plots show {view}, coloured by cluster.")


def summary_table(result: Result) -> dict[str, list]:
    """The columns of the lab's scores table: measure, parameter, the density-peaks cutoff ε, AMI and NMI.

    One row per measure of :func:`~ikviz.experiments.clustering.summary`; the ε column only for density peaks.

    Examples
    --------
    >>> from ikviz.experiments.clustering import Evaluation, Params, Result
    >>> from ikviz.plots.clustering import summary_table
    >>> ev = Evaluation("kmeans", "raw", None, labels=None, ami=0.5, nmi=0.6, ami_trials=[0.5])
    >>> summary_table(Result(Params(algorithm="kmeans"), None, None, {"raw": ev}))
    {'measure': ['raw features'], 'parameter': ['–'], 'AMI': [0.5], 'NMI': [0.6]}
    """
    rows = summary(result)
    return {
        "measure": [r["measure"] for r in rows],
        "parameter": [f"{r['param_name']} = {r['param']:g}" if r["param_name"] else "–" for r in rows],
        **({"ε (% of m)": [f"{100 * r['eps_fraction']:.0f}" for r in rows]}
           if result.params.algorithm == "density_peaks" else {}),
        "AMI": [r["ami"] for r in rows],
        "NMI": [r["nmi"] for r in rows],
    }


def decision_graph_note(ev: Evaluation) -> str | None:
    """A warning for a density-peaks evaluation whose densities are all 0 (its centres are arbitrary); else None.

    Examples
    --------
    >>> import numpy as np
    >>> from ikviz.experiments.clustering import Evaluation
    >>> from ikviz.plots.clustering import decision_graph_note
    >>> ev = Evaluation("density_peaks", "distance", None, None, 0.0, 0.0, [0.0], rho=np.zeros(3))
    >>> decision_graph_note(ev)[:35]
    'No point has a neighbour within ε, '
    """
    if ev.rho is not None and not np.any(ev.rho):
        return ("No point has a neighbour within ε, so every density is 0 and the centres are "
                "arbitrary: raise ε.")
    return None


def view_notes(algorithm: str, mode: str) -> str:
    """The notes under the lab's results for ``algorithm`` in ``mode`` ("fixed" or "best"); "" when none apply.

    Examples
    --------
    >>> from ikviz.plots.clustering import BEST_MODE_NOTE, view_notes
    >>> view_notes("kmeans", "fixed"), view_notes("kmeans", "best") == BEST_MODE_NOTE
    ('', True)
    """
    notes = []
    if algorithm == "density_peaks":
        notes.append(DECISION_GRAPH_NOTE)
    if algorithm == "spectral":
        notes.append(SPECTRAL_NOTE)
    if mode == "best":
        notes.append(BEST_MODE_NOTE)
    return "\n\n".join(notes)


def _colour(measure: str, i: int = 0) -> str:
    return MEASURE_COLOURS.get(measure, OTHER_COLOURS[i % len(OTHER_COLOURS)])


def _legend_name(measure: str, fallback: str) -> str:
    """The registry's label of ``measure`` (shared by every algorithm), else ``fallback``."""
    try:
        return registry_label(measure)
    except ValueError:
        return fallback


#: up to this many labels a scatter names each on the data (:func:`label_spots`) instead of in a legend: ten digit
#: classes took three legend rows in each of a projected group's three panels (~60 px plots at 1280x720), and two
#: classes one row (~40 px) in each
ON_DATA_MAX = 20


def label_spots(X2: np.ndarray, labels: np.ndarray, room: float = 0.1) -> dict:
    """Where to write each label on a 2-D scatter: one of its own points, clear of the other labels' points,
    near its middle.

    For each label, among its points at least ``room`` times the data's span from any point of another label
    (or, where the groups overlap more, at least half as far as its most isolated point), the one nearest
    the label's median: the name lands inside its group, not on another group's points, nor on the crossing
    of two lines (whose medians coincide).

    Returns
    -------
    dict
        ``{label: (x, y)}``.

    Examples
    --------
    >>> import numpy as np
    >>> from ikviz.plots.clustering import label_spots
    >>> X2 = np.array([[0.0, 0], [0.1, 0], [0.2, 0], [5, 5], [5.1, 5], [5.2, 5]])
    >>> spots = label_spots(X2, np.array([0, 0, 0, 1, 1, 1]))
    >>> spots[0], spots[1]
    ((0.1, 0.0), (5.1, 5.0))
    """
    from scipy.spatial import cKDTree

    X2 = np.asarray(X2, dtype=float)
    labels = np.asarray(labels)
    values = np.unique(labels)
    span = float(np.ptp(X2, axis=0).max()) if len(X2) else 0.0
    spots = {}
    for c in values:
        members = np.flatnonzero(labels == c)
        others = X2[labels != c]
        clear = (cKDTree(others).query(X2[members])[0] if len(others)
                 else np.full(members.size, np.inf))
        enough = min(room * span, 0.5 * float(clear.max()))
        fit = members[clear >= enough]
        middle = np.median(X2[members], axis=0)
        best = fit[np.argmin(((X2[fit] - middle) ** 2).sum(axis=1))]
        spots[c.item() if hasattr(c, "item") else c] = (float(X2[best, 0]), float(X2[best, 1]))
    return spots


def scatter_figure(X2: np.ndarray, labels: np.ndarray, title: str, *, centres=None, height: int = 340,
                   axis_titles=("x₁", "x₂")) -> go.Figure:
    """Points at their 2-D coordinates ``X2``, one colour per integer label; centres as black crosses.

    Pass clusters through :func:`ikviz.clustering.match_labels` first so they take their classes' colours.
    Up to :data:`ON_DATA_MAX` labels are written on the data, each in its colour at :func:`label_spots`, with no
    legend (a projected group of such figures keeps the legend's rows for its plots); more get a legend.
    """
    labels = np.asarray(labels)
    fig = go.Figure()
    scatter = scatter_class(len(labels))
    values = np.unique(labels)
    for c in values:
        mask = labels == c
        # the colour follows the label's value, so matched clusters and classes share colours
        fig.add_trace(scatter(x=X2[mask, 0], y=X2[mask, 1], mode="markers", name=str(c),
                              marker=dict(size=4, color=CLUSTER_COLOURS[int(c) % len(CLUSTER_COLOURS)],
                                          opacity=0.6),
                              hovertemplate=f"cluster {c}<extra></extra>"))
    if centres is not None and len(centres):
        fig.add_trace(go.Scatter(x=X2[centres, 0], y=X2[centres, 1], mode="markers", name="centres",
                                 marker=dict(symbol="x", size=11, color="black"), hoverinfo="skip"))
    fig.update_xaxes(title_text=axis_titles[0])
    fig.update_yaxes(title_text=axis_titles[1], scaleanchor="x", scaleratio=1)
    if 1 < values.size <= ON_DATA_MAX:
        fig.update_layout(showlegend=False)
        for c, (x, y) in label_spots(X2, labels).items():
            fig.add_annotation(x=x, y=y, text=f"<b>{c}</b>", showarrow=False, bgcolor="rgba(255,255,255,0.75)",
                               font=dict(size=13, color=CLUSTER_COLOURS[int(c) % len(CLUSTER_COLOURS)]),
                               borderpad=1)
    # narrow panels: margins no wider than their tick labels and axis titles need
    return base_layout(fig, title, height=height, sides=(40, 10))


def evaluation_title(ev: Evaluation) -> str:
    """A panel title: the measure (its short name where the registry has one) and its AMI and NMI, on two lines
    in the title's size (a ``<sub>`` line is drawn at 70 %: 17 px on a projector).

    Examples
    --------
    >>> from ikviz.experiments.clustering import Evaluation
    >>> from ikviz.plots.clustering import evaluation_title
    >>> evaluation_title(Evaluation("kmeans", "ik_iforest", None, None, 0.71, 0.72, [0.71]))
    'IK · iForest, height ≤ ⌈log₂ψ⌉<br>AMI 0.71 · NMI 0.72'
    """
    return f"{_legend_name(ev.measure, MEASURES[ev.algorithm][ev.measure])}<br>AMI {ev.ami:.2f} · NMI {ev.nmi:.2f}"


def decision_graph_figure(ev: Evaluation, height: int = 300) -> go.Figure:
    """Density peaks' decision graph: delta vs rho; the chosen centres (largest rho·delta) in red."""
    if ev.rho is None:
        raise ValueError("this evaluation is not a density-peaks clustering; it has no decision graph.")
    is_centre = np.zeros(ev.rho.size, dtype=bool)
    is_centre[ev.centres] = True
    fig = go.Figure()
    fig.add_trace(scatter_class(ev.rho.size)(x=ev.rho[~is_centre], y=ev.delta[~is_centre], mode="markers",
                                             name="points", marker=dict(size=4, color="#999999", opacity=0.6),
                                             hovertemplate="ρ=%{x}<br>δ=%{y:.3f}<extra></extra>"))
    fig.add_trace(go.Scatter(x=ev.rho[is_centre], y=ev.delta[is_centre], mode="markers", name="centres",
                             marker=dict(size=10, color="#d62728", symbol="diamond"),
                             hovertemplate="centre<br>ρ=%{x}<br>δ=%{y:.3f}<extra></extra>"))
    fig.update_xaxes(title_text="ρ (neighbours within ε)")
    fig.update_yaxes(title_text="δ (distance to a denser point)")
    eps = "" if ev.eps_fraction is None else f" (ε = {ev.eps_fraction:.0%} of m)"
    fig.update_layout(showlegend=False)
    base_layout(fig, f"Decision graph{eps}", height=height)
    fig.update_layout(title_font_size=13)
    return fig


def _geometric(values) -> bool:
    """Whether a grid grows by about x2 a step (ψ, μ), so a log axis spaces it evenly."""
    vals = np.asarray([v for v in values if v is not None], dtype=float)
    if vals.size < 3 or np.any(vals <= 0):
        return False
    ratios = vals[1:] / vals[:-1]
    return bool(np.all(ratios > 1) and np.median(ratios) >= 1.9)


def sweep_figure(sweeps: dict[str, Sweep], height: int = 300) -> go.Figure:
    """AMI against each measure's parameter (one panel per measure, its best point ringed)."""
    keys = list(sweeps)
    fig = make_subplots(rows=1, cols=max(1, len(keys)), shared_yaxes=True, horizontal_spacing=0.05,
                        subplot_titles=[wrap(MEASURES[sweeps[k].algorithm][k], panel_width(len(keys)))
                                        for k in keys])
    for i, key in enumerate(keys):
        s = sweeps[key]
        x = list(s.values)
        colour = _colour(key, i)
        if x == [None]:  # no parameter: a single point
            x = ["–"]
        fig.add_trace(go.Scatter(x=x, y=s.ami, mode="lines+markers", name=MEASURES[s.algorithm][key],
                                 line=dict(color=colour), marker=dict(size=6),
                                 hovertemplate=f"{s.param_name}=%{{x}}<br>AMI=%{{y:.3f}}<extra></extra>"),
                      row=1, col=i + 1)
        b = int(np.nanargmax(s.ami))
        fig.add_trace(go.Scatter(x=[x[b]], y=[s.ami[b]], mode="markers", showlegend=False, hoverinfo="skip",
                                 marker=dict(size=14, color="rgba(0,0,0,0)", line=dict(color="black", width=2))),
                      row=1, col=i + 1)
        fig.update_xaxes(title_text=s.param_name or "no parameter", row=1, col=i + 1,
                         type="log" if _geometric(s.values) else None)
    fig.update_yaxes(title_text="AMI", range=[-0.05, 1.05], row=1, col=1)
    fig.update_annotations(font_size=12)
    fig.update_layout(showlegend=False)
    base_layout(fig, "AMI over the parameter grid (ting2021 Table 7; ringed: best)", height=height)
    return fig


def ami_bars_figure(ami: dict[str, dict[str, dict[int, float]]], height: int = 380) -> go.Figure:
    """Best AMI of every algorithm x measure, one bar group per w (the reproduction's summary)."""
    algorithms = [a for a in ALGORITHMS if a in ami]
    fig = make_subplots(rows=1, cols=len(algorithms), shared_yaxes=True, horizontal_spacing=0.04,
                        subplot_titles=[wrap(ALGORITHMS[a], panel_width(len(algorithms))) for a in algorithms])
    ws = sorted({w for a in algorithms for m in ami[a] for w in ami[a][m]})
    shown = set()
    for col, a in enumerate(algorithms, start=1):
        for i, m in enumerate(ami[a]):
            # one legend entry per measure (its colour), whichever algorithms use it; the hover names the variant
            fig.add_trace(go.Bar(x=[f"w={w}" for w in ws], y=[ami[a][m].get(w, math.nan) for w in ws],
                                 name=_legend_name(m, MEASURES[a][m]), marker_color=_colour(m, i),
                                 legendgroup=m, showlegend=m not in shown,
                                 hovertemplate=f"{MEASURES[a][m]}<br>%{{x}}: AMI %{{y:.2f}}<extra></extra>"),
                          row=1, col=col)
            shown.add(m)
    fig.update_yaxes(title_text="best AMI", range=[-0.05, 1.05], row=1, col=1)
    fig.update_xaxes(title_text="data (w: dimensions per cluster)")
    fig.update_annotations(font_size=12)
    fig.update_layout(barmode="group")
    return base_layout(fig, "w-Gaussians: best AMI per algorithm and measure", height=height)


def figures(result: WGaussiansResult) -> list[go.Figure]:
    """The reproduction's figures: the AMI summary, then AMI vs parameter for each algorithm at the smallest w."""
    w = result.params.ws[0]
    out = [ami_bars_figure(result.ami)]
    for a, sweeps in result.sweeps_w1.items():
        fig = sweep_figure(sweeps)
        fig.update_layout(title_text=f"{ALGORITHMS[a]}, w = {w}: AMI over the parameter grid")
        out.append(fig)
    sc = result.sweeps_w1.get("spectral", {})
    for key in ("ik_iforest", "ag"):
        if key in sc:
            out.append(scatter_figure(result.X2_w1, match_labels(result.y_w1, sc[key].best.labels),
                                      f"Spectral clustering, w = {w}: {evaluation_title(sc[key].best)}"))
    return out
