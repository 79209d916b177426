"""Figures of the t-SNE experiment (Ting et al. 2021, Tables 5-6): GK vs IK embeddings side by side."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from ..experiments.tsne import (
    COLUMNS,
    KERNELS,
    ORIGIN_LABEL,
    ORIGIN_NEIGHBOURS,
    PAPER_SEARCH,
    SEARCH_QUICK_N,
    SYNTHETIC,
    Result,
    Table,
    dataset_label,
    w_label,
)
from ..params import setting
from .style import (
    CLASS_COLOURS,
    KERNEL_COLOURS,
    ORIGIN_COLOUR,
    base_layout,
    scatter_class,
    title_room,
)

#: most points drawn per panel of the replay animation (every frame carries them all)
ANIMATION_POINTS = 3000
#: the embedding axes carry no ticks (t-SNE coordinates have no unit or meaning), only what they are
AXIS_TITLES = ("t-SNE dimension 1", "t-SNE dimension 2")


def _colour_marker(labels: np.ndarray) -> dict:
    """Marker colours by class as numbers on a stepped colour scale.

    Plotly checks a list of colour strings one by one (seconds for an
    animation's frames); a numeric array with a colour scale is checked at once.
    Class ``c`` is the integer ``c`` (one byte a point in the JSON, where
    ``c + 0.5`` took eight) in the middle of its step from ``c - 0.5`` to ``c + 0.5``.
    """
    k = len(CLASS_COLOURS)
    scale = []
    for i, colour in enumerate(CLASS_COLOURS):
        scale += [[i / k, colour], [(i + 1) / k, colour]]
    return dict(color=(np.asarray(labels) % k).astype(np.uint8), colorscale=scale, cmin=-0.5, cmax=k - 0.5,
                showscale=False)


def _setting(result: Result, kernel: str) -> str:
    info = result.embeddings[kernel].info
    if kernel in ("gk", "fitsne"):
        return f"perplexity {info['perplexity']:g}"
    return f"ψ = {info['psi']}, t = {info['t']}, {info['neighbours']} neighbours"


def scores_text(scores: dict) -> str:
    """One line with the separation scores of an embedding."""
    parts = [f"5-NN acc. {scores['knn_accuracy']:.3f}", f"silhouette {scores['silhouette']:.2f}"]
    if "trustworthiness" in scores:
        parts.append(f"trustw. {scores['trustworthiness']:.2f}")
    return " · ".join(parts)


def _traces(coords, labels, classes, origin, *, legend: bool, legendgroup: str = ""):
    """Points coloured by class (one trace, so animation frames stay small), the origin, legend stubs.

    The points are SVG up to :data:`~ikviz.plots.style.WEBGL_ABOVE` and WebGL beyond (a page holds
    only a few WebGL contexts).
    """
    scatter = scatter_class(len(coords))
    keep = labels != ORIGIN_LABEL
    pts = scatter(x=coords[keep, 0], y=coords[keep, 1], mode="markers", name="points", showlegend=False,
                  marker=dict(size=4 if keep.sum() < 3000 else 3, opacity=0.75, **_colour_marker(labels[keep])),
                  text=np.array([classes[c] if 0 <= c < len(classes) else str(c) for c in labels[keep]]),
                  hovertemplate="%{text}<extra></extra>")
    ox, oy = ([coords[origin, 0]], [coords[origin, 1]]) if origin is not None else ([], [])
    org = go.Scatter(x=ox, y=oy, mode="markers", name="origin", showlegend=legend and origin is not None,
                     legendgroup="origin", marker=dict(symbol="x", size=14, color=ORIGIN_COLOUR,
                                                       line=dict(width=2, color="white")),
                     hovertemplate="the origin (shared by both clusters)<extra></extra>")
    stubs = []
    if legend:
        shown = np.unique(labels[keep])
        if len(shown) <= len(CLASS_COLOURS):
            stubs = [go.Scatter(x=[None], y=[None], mode="markers", name=classes[c] if c < len(classes) else str(c),
                                legendgroup=f"class{c}", marker=dict(size=8, color=CLASS_COLOURS[c]))
                     for c in shown]
    return [pts, org], stubs


def _range(values: np.ndarray, pad: float = 0.05) -> list[float]:
    lo, hi = float(np.min(values)), float(np.max(values))
    span = hi - lo or 1.0
    return [lo - pad * span, hi + pad * span]


def embedding_figure(coords: np.ndarray, labels: np.ndarray, classes, origin: int | None, title: str,
                     subtitle: str | None = None, height: int = 440, max_points: int | None = None,
                     seed: int = 0) -> go.Figure:
    """One 2-D embedding: points coloured by true class, the origin as a black ×.

    ``max_points`` draws a seeded subsample (keeping the origin), e.g. for live frames.
    """
    coords = np.asarray(coords)
    labels = np.asarray(labels)
    if max_points is not None and len(coords) > max_points:
        keep = _animation_subset(len(coords), max_points, origin, seed)
        origin = int(np.flatnonzero(keep == origin)[0]) if origin is not None else None
        coords, labels = coords[keep], labels[keep]
    main, stubs = _traces(coords, labels, classes, origin, legend=True)
    fig = go.Figure(main + stubs)
    fig.update_xaxes(showticklabels=False, range=_range(coords[:, 0]), zeroline=False, title_text=AXIS_TITLES[0])
    # equal aspect: a round cluster stays round
    fig.update_yaxes(showticklabels=False, range=_range(coords[:, 1]), zeroline=False, scaleanchor="x",
                     scaleratio=1, title_text=AXIS_TITLES[1])
    text = title if subtitle is None else f"{title}<br><sup>{subtitle}</sup>"
    base_layout(fig, text, height=height)
    fig.update_layout(margin_l=title_room(), margin_r=10)
    return fig


def result_figure(result: Result, kernel: str, height: int = 440) -> go.Figure:
    """The final embedding of ``kernel`` with its setting and scores in the title."""
    emb = result.embeddings[kernel]
    return embedding_figure(emb.coords, result.labels, result.classes, result.origin,
                            f"t-SNE with {COLUMNS[kernel]}", f"{_setting(result, kernel)} · {scores_text(emb.scores)}",
                            height=height)


def _animation_subset(n: int, max_points: int, origin: int | None, seed: int) -> np.ndarray:
    if n <= max_points:
        return np.arange(n)
    rng = np.random.default_rng(seed)
    keep = np.sort(rng.choice(n, size=max_points, replace=False))
    if origin is not None and origin not in keep:
        keep = np.sort(np.append(keep, origin))
    return keep


def animation_figure(result: Result, max_points: int = ANIMATION_POINTS, height: int = 520) -> go.Figure:
    """Both optimisations replayed side by side: a play button and an iteration slider.

    Each frame is the embedding every ``frame_every`` iterations; the axes follow
    the points (t-SNE spreads out after the early-exaggeration phase). Above
    ``max_points`` a seeded subsample is drawn, keeping the origin.
    """
    kernels = list(result.embeddings)
    first = result.embeddings[kernels[0]]
    keep = _animation_subset(len(result.labels), max_points, result.origin, result.params.seed)
    labels = result.labels[keep]
    origin = int(np.flatnonzero(keep == result.origin)[0]) if result.origin is not None else None
    fig = make_subplots(rows=1, cols=len(kernels), subplot_titles=[KERNELS[k] for k in kernels],
                        horizontal_spacing=0.04)
    for col, k in enumerate(kernels, start=1):
        # no legend: the panels above it explain the colours, and it would crowd the title
        main, stubs = _traces(result.embeddings[k].frames[0][keep], labels, result.classes, origin,
                              legend=False)
        for tr in main + stubs:
            fig.add_trace(tr, row=1, col=col)
    # each frame replaces the points and the origin of every panel, not the legend stubs
    indices = [i for i, tr in enumerate(fig.data) if tr.name in ("points", "origin")]
    frames, steps = [], []
    exag = result.params.exaggeration_iter
    for f, it in enumerate(first.iterations):
        data, layout = [], {}
        for col, k in enumerate(kernels, start=1):
            xy = result.embeddings[k].frames[f][keep]
            # a frame carries what moves, the points' positions: their colours and hover text stay the first
            # frame's (Plotly merges a frame into the traces), not repeated in every frame
            points = fig.data[indices[2 * (col - 1)]]
            data += [type(points)(x=xy[labels != ORIGIN_LABEL, 0], y=xy[labels != ORIGIN_LABEL, 1]),
                     go.Scatter(x=[xy[origin, 0]] if origin is not None else [],
                                y=[xy[origin, 1]] if origin is not None else [])]
            suffix = "" if col == 1 else str(col)
            layout[f"xaxis{suffix}"] = dict(range=_range(xy[:, 0]))
            layout[f"yaxis{suffix}"] = dict(range=_range(xy[:, 1]))
        name = str(int(it))
        frames.append(go.Frame(data=data, traces=indices, name=name, layout=layout))
        steps.append(dict(method="animate", label=name,
                          args=[[name], dict(mode="immediate", frame=dict(duration=0, redraw=True),
                                             transition=dict(duration=0))]))
    fig.frames = frames
    fig.update_xaxes(showticklabels=False, zeroline=False, title_text=AXIS_TITLES[0])
    fig.update_yaxes(showticklabels=False, zeroline=False, title_text=AXIS_TITLES[1], row=1, col=1)
    for col, k in enumerate(kernels, start=1):
        suffix = "" if col == 1 else str(col)
        start = result.embeddings[k].frames[0][keep]
        fig.layout[f"xaxis{suffix}"].range = _range(start[:, 0])
        fig.layout[f"yaxis{suffix}"].range = _range(start[:, 1])
        # equal aspect in every panel: a round cluster stays round as the frames play
        fig.layout[f"yaxis{suffix}"].update(scaleanchor=f"x{suffix}", scaleratio=1)
    play = dict(label="▶ play", method="animate",
                args=[None, dict(frame=dict(duration=250, redraw=True), transition=dict(duration=0),
                                 fromcurrent=True, mode="immediate")])
    pause = dict(label="❚❚ pause", method="animate",
                 args=[[None], dict(frame=dict(duration=0, redraw=False), mode="immediate")])
    fig.update_layout(showlegend=False)
    base_layout(fig, "Watch the optimisation<br><sup>iteration slider; early exaggeration until "
                     f"iteration {exag}</sup>", height=height)
    below = fig.layout.margin.b   # the axis titles; the play button and the slider go under them
    fig.update_layout(
        updatemenus=[dict(type="buttons", buttons=[play, pause], direction="left", x=0, y=-0.02,
                          xanchor="left", yanchor="top", pad=dict(t=30))],
        sliders=[dict(steps=steps, active=0, x=0.16, len=0.84, y=-0.02, yanchor="top", pad=dict(t=20),
                      currentvalue=dict(prefix="iteration ", font=dict(size=12)))],
        margin=dict(l=30, r=10, b=below + 110),
    )
    fig.update_annotations(font_size=13)
    return fig


#: each column's line: GK and FIt-SNE share GK's colour (FIt-SNE dashed), IK has its own
_COLUMN_LINES = {"gk": dict(color=KERNEL_COLOURS["rbf"]), "ik": dict(color=KERNEL_COLOURS["ik_anne"]),
                 "fitsne": dict(color=KERNEL_COLOURS["rbf"], dash="dash")}


def separation_figure(table: Table, height: int = 380) -> go.Figure:
    """5-NN accuracy and silhouette of the true clusters against w, per column (GK, IK, FIt-SNE), one row per dataset."""
    datasets = list(table.separation)
    fig = make_subplots(rows=len(datasets), cols=2, shared_xaxes=True, vertical_spacing=0.14,
                        subplot_titles=[f"{SYNTHETIC[d][0]}: {m}" for d in datasets
                                        for m in ("5-NN accuracy", "silhouette")])
    for row, d in enumerate(datasets, start=1):
        for col, metric in enumerate(("knn_accuracy", "silhouette"), start=1):
            for k in table.separation[d]:
                by_w = table.separation[d][k]
                ws = sorted(by_w)
                fig.add_trace(go.Scatter(x=[str(w) for w in ws], y=[by_w[w][metric] for w in ws],
                                         mode="lines+markers", name=COLUMNS[k], legendgroup=k,
                                         showlegend=row == 1 and col == 1, line=_COLUMN_LINES[k]),
                              row=row, col=col)
    fig.update_xaxes(title_text="w (dimensions per cluster)", type="category", row=len(datasets))
    fig.update_yaxes(range=[-0.05, 1.05])
    for row in range(1, len(datasets) + 1):
        fig.update_yaxes(title_text="5-NN accuracy", row=row, col=1)
        fig.update_yaxes(title_text="silhouette", row=row, col=2)
    fig.update_annotations(font_size=12)
    return base_layout(fig, "Separation of the true clusters in 2-D, GK vs IK", height=height * len(datasets))


def search_figure(search: dict, w: int | None = None, height: int = 360) -> go.Figure:
    """Scores over the paper's search range: GK against perplexity, IK against psi (same axis values)."""
    fig = make_subplots(rows=1, cols=2, subplot_titles=("5-NN accuracy", "silhouette"), horizontal_spacing=0.1)
    names = {"gk": "GK, x = perplexity", "ik": "IK, x = ψ", "fitsne": "FIt-SNE, x = perplexity"}
    for col, metric in enumerate(("knn_accuracy", "silhouette"), start=1):
        for k, by_value in search.items():
            values = sorted(by_value)
            fig.add_trace(go.Scatter(x=[str(v) for v in values], y=[by_value[v][metric] for v in values],
                                     mode="lines+markers", name=names[k], legendgroup=k, showlegend=col == 1,
                                     line=_COLUMN_LINES[k]), row=1, col=col)
    fig.update_xaxes(title_text="perplexity (GK) or ψ (IK)", type="category")
    fig.update_yaxes(range=[-0.05, 1.05])
    fig.update_yaxes(title_text="5-NN accuracy", row=1, col=1)
    fig.update_yaxes(title_text="silhouette", row=1, col=2)
    where = "" if w is None else f", w = {w}"
    fig.update_annotations(font_size=12)
    return base_layout(fig, f"The paper's search range (Appendix B){where}", height=height)


def figures(table: Table) -> list[go.Figure]:
    """All figures of the tables, for export: the scores, then every embedding."""
    figs = [separation_figure(table)]
    if table.search:
        figs.append(search_figure(table.search, table.search_w))
    for dataset, by_w in table.results.items():
        for w, result in by_w.items():
            for k in result.embeddings:
                fig = result_figure(result, k, height=420)
                fig.update_layout(title_text=f"{SYNTHETIC[dataset][0]}, w = {w}<br><sup>"
                                             f"{COLUMNS[k]} · {_setting(result, k)} · "
                                             f"{scores_text(result.embeddings[k].scores)}</sup>")
                figs.append(fig)
    return figs


def score_metrics(scores: dict) -> list[tuple[str, str, str]]:
    """The scores shown under an embedding: ``(label, value, help)`` for 5-NN accuracy, silhouette, trustworthiness.

    Examples
    --------
    >>> from ikviz.plots.tsne import score_metrics
    >>> [m[:2] for m in score_metrics({"knn_accuracy": 0.9876, "silhouette": 0.5, "trustworthiness": 0.912})]
    [('5-NN accuracy', '0.988'), ('silhouette', '0.50'), ('trustworthiness', '0.91')]
    """
    return [("5-NN accuracy", f"{scores['knn_accuracy']:.3f}",
             "Leave-one-out 5-nearest-neighbour vote of the true cluster in 2-D (origin left out)."),
            ("silhouette", f"{scores['silhouette']:.2f}",
             "Near 1: tight, well-apart clusters; near 0: touching or overlapping."),
            ("trustworthiness", f"{scores['trustworthiness']:.2f}",
             "Whether 2-D neighbours were neighbours in the original space (Euclidean), "
             "5 neighbours; 1 = no intruders.")]


def embedding_caption(result: Result, kernel: str) -> str:
    """The caption under ``kernel``'s embedding: where the origin's 2-D neighbours are (if it has one), its times.

    Examples
    --------
    >>> from types import SimpleNamespace
    >>> from ikviz.plots.tsne import embedding_caption
    >>> emb = SimpleNamespace(seconds={"affinities": 1.23, "optimisation": 4.56}, scores={})
    >>> embedding_caption(SimpleNamespace(embeddings={"gk": emb}, classes=("red", "blue")), "gk")
    'affinities 1.2 s · optimisation 4.6 s'
    """
    emb = result.embeddings[kernel]
    secs = emb.seconds
    caption = f"affinities {secs['affinities']:.1f} s · optimisation {secs['optimisation']:.1f} s"
    if "origin_neighbours" in emb.scores:
        counts = ", ".join(f"{c} {name.split()[0]}" for c, name in
                           zip(emb.scores["origin_neighbours"], result.classes))
        caption = f"The origin's {ORIGIN_NEIGHBOURS} nearest points in 2-D: {counts}. " + caption
    return caption


def setting_notes(result: Result) -> list[str]:
    """Where the run used another ψ or perplexity than asked for (too few points), one sentence each."""
    p, n = result.params, len(result.labels)
    info_ik, info_gk = result.embeddings["ik"].info, result.embeddings["gk"].info
    notes = []
    if info_ik["psi"] != p.psi:
        notes.append(f"ψ = {p.psi} is more than half of the {n} points; using ψ = {info_ik['psi']}.")
    if info_gk["perplexity"] != p.perplexity:
        notes.append(f"perplexity {p.perplexity:g} needs 3 × perplexity neighbours; "
                     f"using {info_gk['perplexity']:.0f}.")
    return notes


def summary_text(result: Result) -> str:
    """GK's and IK's 5-NN accuracy and silhouette side by side, in one sentence (markdown)."""
    gk, ik = (result.embeddings[k].scores for k in KERNELS)
    p = result.params
    where = f"w = {p.w:,}" if p.dataset in SYNTHETIC else p.dataset
    return (f"**What happened here ({where}).** 5-NN accuracy GK {gk['knn_accuracy']:.3f} vs IK "
            f"{ik['knn_accuracy']:.3f}; silhouette GK {gk['silhouette']:.2f} vs IK {ik['silhouette']:.2f}.")


#: the paper's claim on the w-Gaussians and how to check it against the scores
PAPER_NOTE = (
    "The paper reports that GK t-SNE fails to separate the clusters at w = 5,000 (Table 5) and, "
    "with unequal variances, attaches the origin to one cluster (Table 6). Check it against the "
    "numbers above: a 5-NN accuracy near 1 means the clusters are kept apart, a lower silhouette "
    "that they are drawn more loosely. With openTSNE, whether GK keeps them apart depends on the "
    "perplexity: try the paper's whole range (5–800) with the slider or the search below. "
    "Trustworthiness is measured against Euclidean neighbours, which in thousands of dimensions "
    "are themselves unreliable, so it is low for both kernels at large w."
)
#: what the search range runs
SEARCH_INTRO = ("Ting et al. report the best picture over perplexity (GK) and ψ (IK) in "
                f"{', '.join(map(str, PAPER_SEARCH))}. This runs all "
                f"{2 * len(PAPER_SEARCH)} embeddings with the other settings above.")


def search_table(search: dict) -> list[dict]:
    """Rows of the search range's scores for st.dataframe: one per setting, GK's and IK's scores side by side.

    Examples
    --------
    >>> from ikviz.plots.tsne import search_table
    >>> s = {"knn_accuracy": 0.98765, "silhouette": 0.4321}
    >>> search_table({"gk": {5: s}, "ik": {5: s}})[0]["GK knn_accuracy"]
    0.988
    """
    return [{"setting": v, **{f"{k.upper()} {m}": round(search[k][v][m], 3) if v in search[k] else None
                              for k in KERNELS for m in ("knn_accuracy", "silhouette")}}
            for v in sorted(set(search["gk"]) | set(search["ik"]))]


def search_note(search: dict) -> str | None:
    """What the search range left out: the ψ whose IK centres were over the server's memory bound (None: none).

    Examples
    --------
    >>> from ikviz.plots.tsne import search_note
    >>> s = {"knn_accuracy": 1.0, "silhouette": 0.5}
    >>> search_note({"gk": {5: s, 500: s}, "ik": {5: s}})[:43]
    'ψ = 500: not run here. Its Isolation Kernel'
    >>> search_note({"gk": {5: s}, "ik": {5: s}}) is None
    True
    """
    left = sorted(set(search.get("gk", {})) - set(search.get("ik", {})))
    if not left:
        return None
    return (f"ψ = {', '.join(map(str, left))}: not run here. Its Isolation Kernel would hold more centres than this "
            "server's memory bound allows (at w = 5,000 with 500 points per cluster: 764 MB against 512 MB). "
            "`ikviz reproduce tsne-wgaussians --full` runs the paper's whole list on your own machine.")


@dataclass(frozen=True)
class Display:
    """What the page draws beside the two embeddings."""

    replay: bool = setting(False, "replay the optimisation",
                           help="Both embeddings every 25 iterations, side by side, as an animation. "
                                "Off by default: the replay is a few MB for each browser to draw.")
    search: str = setting("quick", "size of the search", choices=("quick", "page"), url="search", widget="radio",
                          format={"quick": f"{SEARCH_QUICK_N} points per cluster (a third of the time)",
                                  "page": "this page's size"}.get)
