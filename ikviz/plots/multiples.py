"""Small multiples: one view over a parameter (ψ, perplexity), panel beside panel, from results already computed.

As in distill's t-SNE article: the same picture drawn for every value of one
setting, on a grid, so that what the setting does is seen at a glance.
:func:`small_multiples` lays any single-panel figures out on one grid (one
legend, one colour bar); :func:`kernel_shapes_over_psi` and
:func:`tsne_over` build the two the pages offer from the results the
store already holds (nothing is computed here).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

import plotly.graph_objects as go
from plotly.subplots import make_subplots

from .style import base_layout, panel_width, wrap

__all__ = ["small_multiples", "kernel_shapes_over_psi", "tsne_over"]

#: copied from each panel's own axes to its place on the grid
_AXIS_FIELDS = ("range", "showticklabels", "zeroline", "showgrid", "type", "constrain")


def _copy(trace):
    """A fresh trace of the same type and content (a trace belongs to one figure)."""
    return type(trace)(trace.to_plotly_json())


def _axis_id(letter: str, k: int) -> str:
    return letter if k == 1 else f"{letter}{k}"


def small_multiples(panels: Sequence[tuple[str, go.Figure]], *, cols: int | None = None, title: str | None = None,
                    panel_height: int = 260) -> go.Figure:
    """Single-panel figures side by side on one grid, with one legend and one colour bar.

    Parameters
    ----------
    panels : sequence of (str, plotly.graph_objects.Figure)
        Each panel's title and its figure (one x and one y axis; its traces,
        axis ranges and equal aspect are kept).
    cols : int, optional
        Panels per row (default: up to 4, as few rows as possible).
    title : str, optional
        The figure's title.
    panel_height : int
        Height of one row in pixels.

    Returns
    -------
    plotly.graph_objects.Figure

    Raises
    ------
    ValueError
        If ``panels`` is empty.

    Examples
    --------
    >>> import plotly.graph_objects as go
    >>> from ikviz.plots.multiples import small_multiples
    >>> panels = [(f"ψ = {p}", go.Figure(go.Scatter(x=[0, 1], y=[1, p], name="IK"))) for p in (4, 16, 64)]
    >>> fig = small_multiples(panels, title="IK over ψ")
    >>> len(fig.data), [a.text for a in fig.layout.annotations]
    (3, ['ψ = 4', 'ψ = 16', 'ψ = 64'])
    >>> [t.showlegend for t in fig.data]    # one legend entry for the three panels' "IK"
    [None, False, False]
    """
    if not panels:
        raise ValueError("small_multiples needs at least one panel; compute a value first.")
    n = len(panels)
    cols = max(1, min(int(cols or min(n, 4)), n))
    rows = math.ceil(n / cols)
    fig = make_subplots(rows=rows, cols=cols, subplot_titles=[wrap(label, panel_width(cols, 80)) for label, _ in panels],
                        horizontal_spacing=0.04 if cols > 1 else 0.0, vertical_spacing=min(0.12, 0.3 / rows))
    seen, scale_shown = set(), False
    for i, (_, panel) in enumerate(panels):
        row, col = divmod(i, cols)
        for trace in panel.data:
            copy = _copy(trace)
            key = copy.legendgroup or copy.name
            if key and key in seen:
                copy.showlegend = False
            elif key:
                seen.add(key)
            if copy.type in ("contour", "heatmap"):   # one colour bar: the panels share their scale
                show = copy.showscale is not False and not scale_shown
                copy.showscale = show
                scale_shown = scale_shown or show
            fig.add_trace(copy, row=row + 1, col=col + 1)
        k = i + 1
        source_x, source_y = panel.layout.xaxis, panel.layout.yaxis
        fig.update_xaxes({f: source_x[f] for f in _AXIS_FIELDS if source_x[f] is not None}, row=row + 1, col=col + 1)
        fig.update_yaxes({f: source_y[f] for f in _AXIS_FIELDS if source_y[f] is not None}, row=row + 1, col=col + 1)
        if source_y.scaleanchor:   # equal aspect, as the panel had it
            fig.update_yaxes(scaleanchor=_axis_id("x", k), scaleratio=source_y.scaleratio or 1, constrain="domain",
                             row=row + 1, col=col + 1)
            fig.update_xaxes(constrain="domain", row=row + 1, col=col + 1)
    for trace in fig.data:
        colorbar = getattr(trace, "colorbar", None)
        if colorbar is not None and getattr(trace, "showscale", None):
            colorbar.update(orientation="v", x=1.01, y=0.5, yanchor="middle", len=0.9, thickness=10)
    fig.update_annotations(font_size=12)
    return base_layout(fig, title, height=rows * panel_height + 80)


def kernel_shapes_over_psi(results: Mapping, kernel: str = "ik_anne", *, cols: int | None = None,
                           show_cells: bool = False, panel_height: int = 260) -> go.Figure:
    """One kernel's contours around the reference point for every ψ computed, smallest ψ first.

    Parameters
    ----------
    results : mapping of ψ to :class:`ikviz.experiments.kernel_shapes.Result`
        Results that differ in ψ alone (the store's, for the values already shown).
    kernel : str
        A key of the result's ``surfaces`` (``"ik_anne"``, ``"laplacian_psi"``, ...).

    Examples
    --------
    >>> from ikviz.experiments import kernel_shapes
    >>> from ikviz.plots.multiples import kernel_shapes_over_psi
    >>> runs = {p: kernel_shapes.run(kernel_shapes.Params(psi=p, n=100, t=10, grid=9)) for p in (4, 16)}
    >>> fig = kernel_shapes_over_psi(runs, "ik_anne")
    >>> [a.text for a in fig.layout.annotations][:2]
    ['ψ = 4', 'ψ = 16']
    """
    from .kernel_shapes import contour_figure
    from ..registry import label

    if not results:
        raise ValueError("no kernel-shapes result to draw: compute a ψ first.")
    panels = [(f"ψ = {psi}", contour_figure(results[psi], kernel, show_cells=show_cells))
              for psi in sorted(results)]
    return small_multiples(panels, cols=cols, panel_height=panel_height, title=f"{label(kernel)} over ψ")


def tsne_over(results: Mapping, kernel: str = "ik", *, cols: int | None = None,
              panel_height: int = 260) -> go.Figure:
    """t-SNE embeddings of one kernel for every value of its parameter computed: IK over ψ, GK over perplexity.

    Parameters
    ----------
    results : mapping of value to :class:`ikviz.experiments.tsne.Result`
        Results that differ in ``kernel``'s parameter alone (ψ for ``"ik"``, perplexity for ``"gk"``).
    kernel : {"ik", "gk"}
    """
    from ..experiments.tsne import KERNELS
    from .tsne import embedding_figure, scores_text

    if kernel not in KERNELS:
        raise ValueError(f"unknown t-SNE kernel {kernel!r}; choose one of {list(KERNELS)}.")
    if not results:
        raise ValueError("no t-SNE result to draw: compute a value first.")
    name = "ψ" if kernel == "ik" else "perplexity"
    panels = []
    for value in sorted(results):
        result = results[value]
        emb = result.embeddings[kernel]
        label = f"{name} = {value:g}<br><sub>{scores_text(emb.scores)}</sub>"
        panels.append((label, embedding_figure(emb.coords, result.labels, result.classes, result.origin, "")))
    return small_multiples(panels, cols=cols, panel_height=panel_height,
                           title=f"t-SNE with {KERNELS[kernel]} over {name}")
