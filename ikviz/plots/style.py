"""One Plotly look for every figure of the app and of the exported HTML."""

from __future__ import annotations

import math
import re

import numpy as np
import plotly.graph_objects as go
import plotly.io as pio

from ..registry import MEASURES, colour, colours

SIMILARITY_SCALE = "Viridis"
#: a colour per kernel family, used consistently across pages (from the one registry)
KERNEL_COLOURS = colours("ik_anne", "ik_iforest", "ik_iforest_full", "ik_inne", "laplacian_psi", "rbf")
#: every colour a kernel or measure has (registry): figures use these for kernels only
ALL_KERNEL_COLOURS = frozenset(m.colour.lower() for m in MEASURES.values())
#: true clusters in embeddings: the papers' red and blue first, then a 26-colour palette (none a kernel's colour)
CLASS_COLOURS = ["#d62728", "#1f77b4", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2", "#17becf",
                 "#bcbd22", "#7f7f7f", "#393b79", "#637939", "#8c6d31", "#843c39", "#7b4173", "#3182bd",
                 "#e6550d", "#31a354", "#756bb1", "#636363", "#6baed6", "#fd8d3c", "#74c476", "#9e9ac8",
                 "#fdae6b", "#a1d99b"]
#: found clusters take their classes' colours (after :func:`ikviz.clustering.match_labels`)
CLUSTER_COLOURS = CLASS_COLOURS
ORIGIN_COLOUR = "#000000"
#: the two pairs of the density quadrants: colours of neither a kernel nor a class
SPARSE_COLOUR, DENSE_COLOUR = "#56b4e9", "#882255"
#: classification lab: an SVM kernel has its kernel's colour (IK: the variant it uses, ``ik_colour``)
SVM_COLOURS = {**colours("rbf", "linear"), "laplacian": colour("laplacian_psi"), "ik": colour("ik_iforest"),
               "ik-linear": colour("ik_iforest")}
#: online learners by the kernel they approximate: FOGD (random Fourier features) and NOGD (Nyström) the
#: Gaussian kernel, told apart by their dash (:data:`ONLINE_DASHES`); IK+OGD the IK (aNNE); RandLocal its own
ONLINE_COLOURS = {"FOGD": colour("gk"), "NOGD": colour("gk"), "IK+OGD": colour("ik_anne"),
                  "RandLocal+OGD": colour("randlocal")}
ONLINE_DASHES = {"FOGD": "solid", "NOGD": "dot", "IK+OGD": "solid", "RandLocal+OGD": "solid"}
#: colours for what is not a kernel (a search method, a source, a fallback): none a kernel's colour
OTHER_COLOURS = ["#56b4e9", "#e15759", "#000000", "#882255"]
SEQUENCE = OTHER_COLOURS
#: clustering measures: the IK variants keep their kernel colours; GK matches RBF
MEASURE_COLOURS = {**KERNEL_COLOURS, **colours("gk", "ag", "distance", "raw", "randlocal")}
#: curse-of-dimensionality measures (IK green and GK grey as elsewhere)
DIMENSIONALITY_COLOURS = colours("ik", "gk", "ag", "lk", "lp0.1", "lp0.5", "lp2", "snn", "distance")


def ik_colour(method: str) -> str:
    """The colour of the IK variant an estimator's ``method`` names (``"anne"``, ``"inne"``, ``"iforest"``).

    Examples
    --------
    >>> from ikviz.plots.style import ik_colour
    >>> from ikviz.registry import colour
    >>> ik_colour("iforest") == colour("ik_iforest"), ik_colour("anne") == colour("ik_anne")
    (True, True)
    """
    key = {"anne": "ik_anne", "inne": "ik_inne", "iforest": "ik_iforest"}.get(str(method), "ik_anne")
    return colour(key)


#: above this many points a scatter trace is drawn with WebGL; below it with SVG. Every WebGL trace
#: takes one of the browser's few WebGL contexts (about 16), so a page of small WebGL charts goes
#: blank ("Too many active WebGL contexts") where SVG would have drawn them at no cost. At 2,000 points
#: SVG draws a figure first in 72-90 ms against WebGL's 155-184 ms (and redraws it in 71-80 ms against
#: 15-17 ms): the clustering lab's largest data (2 x 1,000 points, seven figures) stay SVG.
WEBGL_ABOVE = 2_000


def scatter_class(n_points: int) -> type[go.Scatter | go.Scattergl]:
    """The scatter trace class for ``n_points`` points: ``go.Scatter`` up to :data:`WEBGL_ABOVE`, else ``go.Scattergl``.

    Parameters
    ----------
    n_points : int
        How many points the trace draws (the figure's total where several traces share it).

    Returns
    -------
    type
        ``plotly.graph_objects.Scatter`` or ``plotly.graph_objects.Scattergl``.

    Examples
    --------
    >>> from ikviz.plots.style import scatter_class
    >>> scatter_class(500).__name__, scatter_class(50_000).__name__
    ('Scatter', 'Scattergl')
    """
    return go.Scattergl if int(n_points) > WEBGL_ABOVE else go.Scatter


#: the widths (px) the legend's rows are estimated for: a Streamlit column, a projected wide page
LEGEND_WIDTH = 700
PROJECTOR_WIDTH = 1000
#: a page's main column in a 1400 px window with the sidebar open (benchmarks/automargin.py): a figure always
#: drawn in a third of it estimates its legend's rows for ``PAGE_WIDTH // 3``
PAGE_WIDTH = 940


def wrap(text: str, width: int) -> str:
    """``text`` broken with ``<br>`` at spaces into lines of at most ``width`` characters (where it can be).

    For subplot titles, which Plotly neither wraps nor shortens: a long one runs into its neighbour.

    Examples
    --------
    >>> from ikviz.plots.style import wrap
    >>> wrap("IK · iForest, height ≤ ⌈log₂ψ⌉", 16)
    'IK · iForest,<br>height ≤ ⌈log₂ψ⌉'
    >>> wrap("short", 16)
    'short'
    """
    out = []
    for part in str(text).split("<br>"):
        line = ""
        for word in part.split(" "):
            if line and len(line) + 1 + len(word) > width:
                out.append(line)
                line = word
            else:
                line = f"{line} {word}" if line else word
        out.append(line)
    return "<br>".join(out)


def panel_width(cols: int, total: int = 100) -> int:
    """Characters a subplot title may take in one of ``cols`` side-by-side panels (of ``total`` for the row)."""
    return max(12, total // max(1, cols))


def _lines(text) -> float:
    """Lines a title takes: one per ``<br>``, a ``<sup>``/``<sub>`` line counting for 0.8."""
    if not text:
        return 0.0
    parts = str(text).split("<br>")
    return sum(0.8 if p.lstrip().startswith(("<sup>", "<sub>")) else 1.0 for p in parts)


def _projected_title(text, size: float, width: int):
    """A title with its ``<sup>`` / ``<sub>`` lines drawn at ``size`` px and wrapped at ``width`` characters
    (between the `` · ``-separated items where it can be).

    Plotly draws such a line at 70 % of the title's size (17 px of a projector's 24) and never wraps it: a
    panel's line of settings and scores ran past a 720p panel's edge.

    Examples
    --------
    >>> _projected_title("t-SNE<br><sup>perplexity 30 · 5-NN acc. 1.000 · silhouette 0.39</sup>", 18, 32)
    't-SNE<br><span style="font-size:18px">perplexity 30 · 5-NN acc. 1.000</span><br><span style="font-size:18px">silhouette 0.39</span>'
    >>> _projected_title("plain", 18, 30)
    'plain'
    """
    if not text or ("<sup>" not in text and "<sub>" not in text):
        return text
    out = []
    for part in str(text).split("<br>"):
        stripped = part.strip()
        if stripped.startswith(("<sup>", "<sub>")):
            lines = []
            for item in stripped[5:].removesuffix("</sup>").removesuffix("</sub>").split(" · "):  # whole items
                if lines and len(lines[-1]) + 3 + len(item) <= width:
                    lines[-1] += f" · {item}"
                else:
                    lines += wrap(item, width).split("<br>")
            out += [f'<span style="font-size:{size:g}px">{line}</span>' for line in lines]
        else:
            out.append(part)
    return "<br>".join(out)


def _legend_rows(fig: go.Figure, width: int, font_size: float) -> int:
    """Rows a horizontal legend needs across ``width`` pixels (an over- rather than an under-estimate).

    As Plotly lays it out: every item 40 px of symbol and gap besides its name (:func:`text_px`); all in one row
    where they fit, else a grid of equal columns as wide as the widest item.
    """
    if fig.layout.showlegend is False:
        return 0
    names = [str(t.name or "") for t in fig.data if t.showlegend is not False and t.name]
    if not names or (fig.layout.showlegend is None and len(fig.data) == 1):   # plotly hides a lone trace's
        return 0
    items = [40 + text_px(name, font_size) + 4 for name in names]
    room = max(1.0, width - 20)
    if sum(items) <= room:
        return 1
    return -(-len(items) // max(1, int(room // max(items))))


def _tick_lines(fig: go.Figure) -> int:
    """The most lines a category tick label on an x axis takes (``<br>`` in the labels)."""
    most = 1
    for t in fig.data:
        xs = getattr(t, "x", None)
        if xs is not None and len(xs) and isinstance(xs[0], str):
            most = max(most, *(str(x).count("<br>") + 1 for x in xs))
    for axis in fig.select_xaxes():
        if axis.ticktext:
            most = max(most, *(str(x).count("<br>") + 1 for x in axis.ticktext))
    return most


def _wrap_categories(fig: go.Figure, width: int, font_size: float) -> None:
    """Long category tick labels on x axes broken into lines (``ticktext``), so Plotly need not turn them aslant.

    Each category gets its axis's share of ``width`` (its domain) / (number of categories) pixels; the data keep
    their labels.
    """
    for i, axis in enumerate(fig.select_xaxes(), start=1):
        ref = "x" if i == 1 else f"x{i}"
        cats: list[str] = []
        for t in fig.data:
            xs = getattr(t, "x", None)
            if (getattr(t, "xaxis", None) or "x") == ref and xs is not None and len(xs) and isinstance(xs[0], str):
                cats += [str(x) for x in xs if str(x) not in cats]
        if not cats or axis.ticktext is not None or axis.type not in (None, "category", "-"):
            continue
        share = axis.domain[1] - axis.domain[0] if axis.domain else 1.0   # a panel of a row gets its share
        chars = max(8, int(width * share / len(cats) / (0.55 * font_size)))
        if any(len(c) > chars for c in cats):
            axis.update(tickmode="array", tickvals=cats, ticktext=[wrap(c, chars) for c in cats], tickangle=0)


#: the px between an axis and its title in the template (``plotly_white``'s ``title.standoff``)
TITLE_STANDOFF = 15


def title_room(axis_title: float = 12) -> int:
    """The margin (px) an axis title needs beside an axis without tick labels, so that Plotly's automargin,
    which otherwise widens the margin and draws the figure a second time, has nothing to do.

    Examples
    --------
    >>> title_room(12), title_room(20)
    (36, 50)
    """
    return round(TITLE_STANDOFF + 1.75 * axis_title)


#: the width of a character of tick-label text, in em, in the widest font Plotly's font list gets on a reader's
#: screen (``"Open Sans", verdana, arial``: Verdana, and DejaVu Sans where Verdana is missing; digits 0.636 em)
_CHAR_EM = {**dict.fromkeys("0123456789", 0.64), ".": 0.32, ",": 0.32, "−": 0.84, "-": 0.37, " ": 0.32,
            "k": 0.58, "M": 0.86, "G": 0.78, "B": 0.69, "μ": 0.66, "m": 0.98, "n": 0.64, "%": 1.0}


def text_px(text: str, size: float) -> float:
    """The width (px) ``text`` takes at ``size`` px, estimated per character for a wide font (Verdana /
    DejaVu Sans); ``<br>`` starts a new line (the widest counts) and tags take no room.

    Examples
    --------
    >>> round(text_px("0.25", 12)), round(text_px("−1000", 12)), round(text_px("a<br>bb", 10))
    (27, 41, 12)
    """
    lines = re.sub(r"<(?!br>)[^>]*>", "", str(text)).split("<br>")
    return max((sum(_CHAR_EM.get(c, 0.72 if c.isupper() else 0.62) for c in line) for line in lines),
               default=0.0) * size


def _round_dtick(rough: float) -> float:
    """Plotly's linear tick step for a rough step: the next of 2, 5, 10 x 10^k above it."""
    base = 10.0 ** math.floor(math.log10(rough))
    ratio = rough / base   # plotly.js's roundUp takes the first of 2, 5, 10 above it: a rough 0.05 steps by 0.1
    return base * next(m for m in (2, 5, 10) if m > ratio)


def _number_label(value: float, decimals: int) -> str:
    """A tick value as Plotly writes it (exponent format ``"B"``): trailing zeros dropped, U+2212 for the minus,
    10,000 and above with an SI suffix (``"20k"``), below 0.001 in μ or n."""
    sign = "−" if value < 0 and round(abs(value), decimals) else ""
    v = abs(value)
    for scale, suffix in ((1e9, "B"), (1e6, "M"), (1e3, "k")):
        if v >= 1e4 and v >= scale:
            return sign + _trim(f"{v / scale:.{max(0, decimals + round(math.log10(scale)))}f}") + suffix
    if 0 < v < 1e-3 and decimals > 3:
        for scale, suffix in ((1e-6, "μ"), (1e-9, "n")):
            if v >= scale:
                return sign + _trim(f"{v / scale:.{max(0, decimals - round(-math.log10(scale)))}f}") + suffix
    return sign + _trim(f"{v:.{decimals}f}")


def _trim(text: str) -> str:
    return text.rstrip("0").rstrip(".") if "." in text else text


def tick_labels(lo: float, hi: float, length: float, *, log: bool = False, y: bool = True) -> list[str]:
    """The tick labels Plotly draws on a numeric axis over ``lo``...``hi`` (data units; a log axis's too)
    ``length`` px long, with its automatic ticks (a step of 1, 2 or 5 x 10^k for about one label per 40 px of a
    y axis, 80 of an x axis; a log axis's decades).

    Examples
    --------
    >>> tick_labels(0, 1.02, 250)
    ['0', '0.2', '0.4', '0.6', '0.8', '1']
    >>> tick_labels(-2.5, 2.5, 200)
    ['−2', '−1', '0', '1', '2']
    >>> tick_labels(1, 20000, 200, log=True)
    ['1', '10', '100', '1000', '10k']
    """
    if not (math.isfinite(lo) and math.isfinite(hi)) or (log and min(lo, hi) <= 0):
        return []
    lo, hi = min(lo, hi), max(lo, hi)
    if hi == lo:
        hi = lo + (abs(lo) or 1.0)
    nt = min(max(length / (40 if y else 80), 4), 9) + 1
    if log:
        a, b = math.log10(lo), math.log10(hi)
        rough = (b - a) / nt
        if b - a >= 1 or rough > 0.7:   # decades (with small 2 and 5 digits between them, narrower)
            step = max(1, math.ceil(rough)) if rough > 0.7 else 1
            powers = [p for p in range(math.ceil(a - 1e-9), math.floor(b + 1e-9) + 1) if p % step == 0]
            return [_number_label(10.0 ** p, max(0, -p)) for p in powers]
        lo, hi = 10 ** a, 10 ** b       # less than a decade: linear ticks, labelled in full
        nt *= 1.5
    dtick = _round_dtick((hi - lo) / nt)
    decimals = max(0, -math.floor(math.log10(dtick) + 1e-9))
    first = math.ceil(lo / dtick - 1e-9)
    return [_number_label(k * dtick, decimals) for k in range(first, math.floor(hi / dtick + 1e-9) + 1)]


def _numbers(values) -> np.ndarray:
    """The finite numbers among ``values`` (a trace's coordinates), as one float array."""
    if values is None:
        return np.empty(0)
    try:
        a = np.asarray(values, dtype=float).ravel()
    except (TypeError, ValueError):   # mixed: None, strings
        a = np.array([v for v in (_float(x) for x in values) if v is not None], dtype=float)
    return a[np.isfinite(a)]


def _float(value) -> float | None:
    try:
        return float(value)
    except (TypeError, ValueError):
        return None


def _axis_values(fig: go.Figure, letter: str, ref: str) -> tuple[np.ndarray, list[str]]:
    """The numbers and the category labels the traces (and lines) of ``fig`` put on axis ``ref`` ("x", "y2")."""
    nums: list[np.ndarray] = []
    cats: list[str] = []
    for t in fig.data:
        if (getattr(t, f"{letter}axis", None) or letter) != ref:
            continue
        vals = getattr(t, letter, None)
        if vals is None or not len(vals):
            continue
        first = vals.flat[0] if isinstance(vals, np.ndarray) else vals[0]
        if isinstance(first, str):
            cats += [str(v) for v in (vals.ravel() if isinstance(vals, np.ndarray) else vals)]
            continue
        got = _numbers(vals)
        nums.append(got)
        err = getattr(t, f"error_{letter}", None)
        if err is not None and err.visible is not False and err.array is not None and got.size:
            plus = _numbers(err.array)
            minus = _numbers(err.arrayminus) if err.arrayminus is not None else plus
            if plus.size == got.size and minus.size == got.size:
                nums += [got + plus, got - minus]
        if t.type == "bar":
            nums.append(np.zeros(1))
    for shape in fig.layout.shapes:
        if (shape[f"{letter}ref"] or letter) == ref:
            nums.append(_numbers([shape[f"{letter}0"], shape[f"{letter}1"]]))
    return (np.concatenate(nums) if nums else np.empty(0)), cats


def _labels_px(axis, values: tuple[np.ndarray, list[str]], lengths, tick: float, y: bool) -> float:
    """The widest tick label (px) ``axis`` draws over ``values`` (:func:`_axis_values`) at ``tick`` px text, of any
    of the axis's ``lengths`` (px)."""
    if axis.showticklabels is False or axis.type in ("date", "multicategory"):
        return 0.0
    if axis.ticktext:
        return max(text_px(str(t), tick) for t in axis.ticktext)
    nums, cats = values
    if axis.type == "category" or (cats and not nums.size):
        return max((text_px(c, tick) for c in cats), default=0.0)
    log = axis.type == "log"
    if axis.range is not None and None not in tuple(axis.range):
        lo, hi = (10.0 ** float(v) for v in axis.range) if log else (float(v) for v in axis.range)
    else:
        nums = nums[nums > 0] if log else nums
        if not nums.size:
            return 0.0
        lo, hi = float(nums.min()), float(nums.max())
        if log:   # Plotly pads an automatic range (markers, 5 %): a decade's tick just outside may show
            lo, hi = lo / 10 ** (0.05 * math.log10(hi / lo)), hi * 10 ** (0.05 * math.log10(hi / lo))
        else:     # a range starting at 0 (bars) stays there
            pad = 0.05 * (hi - lo)
            lo, hi = (lo if lo == 0 else lo - pad), hi + pad
    labels = {s for length in lengths for s in tick_labels(lo, hi, length, log=log, y=y)}
    return max((text_px(s, tick) for s in labels), default=0.0)


def side_room(fig: go.Figure, *, tick: float = 12, axis_title: float = 12, top: float | None = None,
              bottom: float | None = None) -> tuple[int, int]:
    """The left and right margins (px) the axes of ``fig`` need: at the left the y tick labels of the leftmost
    panels (:func:`tick_labels` for the data's range, the widest of them, :func:`text_px`) and the y-axis title
    beside them (:func:`title_room`); at the right half of the widest x tick label, which sits centred on the
    rightmost tick. Margins at least this wide leave Plotly's automargin nothing to do (otherwise it widens
    them after its first drawing and draws the whole figure again). Call it once the top and bottom margins
    and the height are set: the axes' lengths in pixels decide the ticks.

    Examples
    --------
    >>> import plotly.graph_objects as go
    >>> fig = go.Figure(go.Scatter(x=[0, 1], y=[0, 1000])).update_layout(height=300, margin_t=40, margin_b=50)
    >>> side_room(fig.update_yaxes(title_text="count"))
    (70, 12)
    """
    height = fig.layout.height or 450
    top = (fig.layout.margin.t or 0) if top is None else top
    bottom = (fig.layout.margin.b or 0) if bottom is None else bottom
    plot_h = max(50.0, height - top - bottom)
    xaxes = {("x" if i == 1 else f"x{i}"): ax for i, ax in enumerate(fig.select_xaxes(), start=1)}
    left = right = 0.0
    for i, ax in enumerate(fig.select_yaxes(), start=1):
        ref = "y" if i == 1 else f"y{i}"
        anchor = xaxes.get(ax.anchor or "x")
        start = (anchor.domain[0] if anchor is not None and anchor.domain else 0.0)
        if ax.side == "right" or start > 0.02 or ax.overlaying:
            continue
        dom = ax.domain or (0, 1)
        labels = _labels_px(ax, _axis_values(fig, "y", ref), (plot_h * (dom[1] - dom[0]),), tick, True)
        titled = bool(ax.title.text)
        need = labels + (title_room(axis_title) if titled else 0) + (3 if labels else 0)
        left = max(left, need)
    for i, ax in enumerate(fig.select_xaxes(), start=1):
        if ax.domain and ax.domain[1] < 0.98:
            continue
        ref = "x" if i == 1 else f"x{i}"
        values = _axis_values(fig, "x", ref)
        if ax.type == "category" or values[1]:   # categories sit mid-band, not at the edge
            continue
        # the plot's width is unknown here: the widest label of any width from a phone's to a wide page's
        right = max(right, _labels_px(ax, values, range(300, 1100, 100), tick, False) / 2 + 2)
    return round(left), round(right)


def colorbar_room(fig: go.Figure, *, tick: float = 12, axis_title: float = 12, plot_width: float = PAGE_WIDTH
                  ) -> int:
    """The right margin (px) the vertical colour bars of ``fig`` need beside the plot: each bar's offset from the
    plot's edge, its padding, thickness and tick labels (:func:`text_px`), and its title where that is wider.
    Without this room Plotly's automargin widens the right margin after its first drawing and draws the whole
    figure again.

    Examples
    --------
    >>> import plotly.graph_objects as go
    >>> fig = go.Figure(go.Heatmap(z=[[0, 1], [1, 0]], colorbar={"thickness": 10, "title": {"text": "K"}}))
    >>> colorbar_room(fig)
    83
    >>> colorbar_room(fig.update_traces(colorbar_orientation="h"))    # below the plot: no room at the right
    0
    """
    need = 0.0
    for trace in fig.data:
        bar = getattr(trace, "colorbar", None)
        if bar is None or trace.showscale is False or (bar.orientation or "v") != "v":
            continue
        if trace.type not in ("heatmap", "contour", "histogram2d", "histogram2dcontour", "surface"):
            continue   # a marker's colour bar shows only with marker.showscale
        x = 1.02 if bar.x is None else bar.x
        offset = max(0.0, (x - 1.0) * plot_width) if (bar.xref or "paper") == "paper" else 0.0
        values = bar.tickvals if bar.tickvals is not None else (0.25, 0.5, 0.75, 1)
        size = bar.tickfont.size or tick
        labels = max((text_px(_number_label(float(v), 2), size) for v in values), default=0.0)
        title_text = bar.title.text or ""
        title_px = text_px(title_text, bar.title.font.size or axis_title) if title_text else 0.0
        body = (bar.thickness or 30) + 3 + labels + (title_px + 4 if bar.title.side == "right" else 0)
        pad = 10 if bar.xpad is None else bar.xpad
        need = max(need, offset + 2 * pad + max(body, title_px) + 4)
    return math.ceil(need)


def fit_room(fig: go.Figure, *, title: float = 15, annotation: float = 12, legend: float = 12,
             tick: float = 12, axis_title: float = 12, width: int = LEGEND_WIDTH) -> go.Figure:
    """Margins and positions so that the title, the subplot titles, the legend and the axes never overlap.

    The title sits at the top of the figure; below it, the top row's subplot titles; the legend,
    horizontal, at the bottom of the figure, below the x-axis titles. The margins are computed
    from the text sizes given (px) and the number of legend rows across ``width`` pixels.

    Parameters
    ----------
    fig : plotly.graph_objects.Figure
        Changed in place.
    title, annotation, legend, tick, axis_title : float
        Font sizes of the figure title, the subplot titles, the legend, tick labels and axis titles.
    width : int
        The width the legend is expected to get; fewer pixels mean more rows.

    Returns
    -------
    plotly.graph_objects.Figure
        ``fig``.

    Examples
    --------
    >>> import plotly.graph_objects as go
    >>> from ikviz.plots.style import fit_room
    >>> fig = go.Figure([go.Scatter(y=[1, 2], name="a"), go.Scatter(y=[2, 1], name="b")])
    >>> fig = fit_room(fig.update_layout(title_text="two lines"))
    >>> fig.layout.legend.yref, fig.layout.legend.y, fig.layout.margin.b > 40
    ('container', 0, True)
    """
    title_text = fig.layout.title.text
    title_px = _lines(title_text) * title * 1.3
    top_titles = [a for a in fig.layout.annotations
                  if (a.yref or "paper") == "paper" and a.y is not None and a.y >= 0.97 and a.yanchor == "bottom"]
    sub_px = max((_lines(a.text) * (a.font.size or annotation) * 1.3 for a in top_titles), default=0.0)
    top = (12 + title_px + 8 if title_text else 16) + (sub_px + 6 if sub_px else 0)
    rows = _legend_rows(fig, width, legend)
    has_x_title = any(ax.title.text for ax in fig.select_xaxes())
    shows_ticks = any(ax.showticklabels is not False for ax in fig.select_xaxes())
    # with no tick labels Plotly puts an axis title TITLE_STANDOFF px below the axis line: room for it here, or
    # Plotly's automargin widens the margin after its first drawing and draws the whole figure again
    # with tick labels: 5 px more than their lines and the title's (a subscript, descenders: drawn 51-53 px for 48)
    axis_px = ((tick * 1.4 * _tick_lines(fig) + (axis_title * 1.6 + 5 if has_x_title else 0)) if shows_ticks
               else (TITLE_STANDOFF + axis_title * 1.35 if has_x_title else 0)) + 8
    legend_px = rows * legend * 1.75 + (8 if rows else 0)
    layout = {"margin": {"t": round(top), "b": round(axis_px + legend_px + 4)}}
    # y tick labels and titles, x labels' overhang
    left, right = side_room(fig, tick=tick, axis_title=axis_title, top=layout["margin"]["t"],
                            bottom=layout["margin"]["b"])
    right = max(right, colorbar_room(fig, tick=tick, axis_title=axis_title))
    layout["margin"].update(l=max(fig.layout.margin.l or 0, left), r=max(fig.layout.margin.r or 0, right))
    if title_text:
        # Plotly puts a title's first baseline pad.t below the top: a line's height down, or the first line is
        # cut; the lines after it flow down into the room counted above (pushed down by all of them, a title of
        # three lines ran 24 px into the plot)
        extra = min(_lines(title_text) - 1, 1.0) * title * 1.3
        layout["title"] = {"yref": "container", "y": 1, "yanchor": "top", "pad": {"t": round(10 + extra)}}
    if rows:
        layout["legend"] = {"orientation": "h", "yref": "container", "y": 0, "yanchor": "bottom",
                            "x": 0, "xanchor": "left"}
    fig.update_layout(**layout)
    return fig


def _white(fig: go.Figure) -> None:
    """Give ``fig`` plotly's ``plotly_white`` template.

    ``update_layout(template="plotly_white")`` validates the template's 6 kB
    afresh for every figure: 9 ms (0.7 ms here), about a quarter of a page's
    script time on stored results. A registered template is valid already:
    plotly itself skips the check when it applies its default template, and
    so does this (the figure still gets its own copy).
    """
    layout = fig.layout
    validate = layout._validate
    layout._validate = False
    try:
        layout.template = pio.templates["plotly_white"]
    finally:
        layout._validate = validate


def base_layout(fig: go.Figure, title: str | None = None, height: int = 380, width: int = LEGEND_WIDTH,
                sides: tuple[int, int] = (40, 20)) -> go.Figure:
    """Apply the shared template, fonts and height; place the title, subplot titles and legend apart.

    Call it once the traces and axis titles are in place: the margins depend on them
    (see :func:`fit_room`); ``width`` is the width (px) the figure is expected to get, for its legend's rows;
    ``sides`` the least left and right margins (px), widened where the axes' text needs it (:func:`side_room`).
    """
    _white(fig)
    fig.update_layout(
        title={"text": title, "x": 0.02, "font": {"size": 15}} if title else None,
        height=height,
        margin={"l": sides[0], "r": sides[1]},
        font={"size": 12},
    )
    # long category labels broken into lines: Plotly turns them aslant otherwise, and widens the bottom margin
    # for them after its first drawing (a second drawing of the whole figure)
    _wrap_categories(fig, LEGEND_WIDTH, 12)
    return fit_room(fig, title=15, annotation=12, legend=12, tick=12, axis_title=12, width=width)


#: projector sizes (px): a lecture hall reads 18 px from the back row, so no text of a figure is smaller
PROJECTOR_FONTS = {"title": 24, "axis_title": 20, "tick": 18, "legend": 18, "annotation": 20, "base": 18}
PROJECTOR_MIN_HEIGHT = 620
PROJECTOR_LINE_WIDTH = 3
#: characters of a title's second line per line on a projector: 18 px text across a 720p screen's half
PROJECTOR_SUBTITLE_CHARS = 52
#: plotly traces whose ``line.width`` is a curve's width (not a contour's or a bar's outline)
_LINE_TRACES = ("scatter", "scattergl", "scatterpolar", "scatterternary")


def _is_multirow(fig: go.Figure) -> bool:
    """Whether the figure stacks subplots vertically (several distinct y domains)."""
    return len({tuple(ax.domain) for ax in fig.select_yaxes() if ax.domain}) > 1


def _rows(fig: go.Figure) -> list[tuple[float, float]]:
    """The distinct y domains of ``fig``'s subplots, top row first."""
    return sorted({tuple(ax.domain) for ax in fig.select_yaxes() if ax.domain}, key=lambda d: -d[1])


def row_gaps(fig: go.Figure, *, tick: float = 18, axis_title: float = 20, annotation: float = 20) -> list[int]:
    """The pixels each gap between stacked rows of subplots needs, top first: the upper row's x tick labels and
    x-axis title, then the lower row's subplot titles (each line ``annotation`` px), so that none touches another.

    Examples
    --------
    >>> from plotly.subplots import make_subplots
    >>> fig = make_subplots(rows=2, cols=1, subplot_titles=["a", "b<br>c"])
    >>> row_gaps(fig.update_xaxes(title_text="x"))
    [121]
    """
    rows = _rows(fig)
    names = {f"y{i if i > 1 else ''}": tuple(ax.domain) for i, ax in enumerate(fig.select_yaxes(), start=1)}
    gaps = []
    for upper, lower in zip(rows, rows[1:]):
        below = [ax for ax in fig.select_xaxes() if names.get(ax.anchor or "y") == upper]
        ticks = any(ax.showticklabels is not False for ax in below)
        titled = any(ax.title.text for ax in below)
        titles = [a for a in fig.layout.annotations
                  if (a.yref or "paper") == "paper" and a.y is not None and abs(a.y - lower[1]) < 1e-3]
        lines = max((_lines(a.text) for a in titles), default=0.0)
        gaps.append(round((tick * 1.4 if ticks else 0) + (axis_title * 1.6 if titled else 0)
                          + lines * annotation * 1.3 + 12))
    return gaps


def set_row_gaps(fig: go.Figure, gaps: list[int], plot_height: float) -> go.Figure:
    """Lay the rows of subplots out over ``plot_height`` px (the figure less its top and bottom margins) with
    ``gaps`` px between them (see :func:`row_gaps`), each row keeping its share of the rest; the subplot titles
    move with their rows. Changed in place; the fit script of ``app/tour.py`` does the same in the browser.

    Examples
    --------
    >>> from plotly.subplots import make_subplots
    >>> fig = set_row_gaps(make_subplots(rows=2, cols=1, subplot_titles=["a", "b"]), [100], 500)
    >>> fig.layout.yaxis.domain, fig.layout.yaxis2.domain, fig.layout.annotations[1].y
    ((0.6, 1.0), (0.0, 0.4), 0.4)
    """
    rows = _rows(fig)
    if len(rows) < 2 or len(gaps) != len(rows) - 1 or plot_height <= 0:
        return fig
    space = max(0.1, 1 - sum(gaps) / plot_height)
    shares = [top - bottom for bottom, top in rows]
    total = sum(shares)
    new, top = {}, 1.0
    for i, (row, share) in enumerate(zip(rows, shares)):
        bottom = max(0.0, top - space * share / total)
        new[row] = (round(bottom, 4), round(top, 4))
        top = bottom - (gaps[i] / plot_height if i < len(gaps) else 0)
    for ann in fig.layout.annotations:
        if (ann.yref or "paper") == "paper" and ann.y is not None:
            old = next((r for r in rows if abs(ann.y - r[1]) < 1e-3), None)
            if old is not None:
                ann.y = new[old][1]
    fig.for_each_yaxis(lambda ax: ax.update(domain=new[tuple(ax.domain)]) if ax.domain and tuple(ax.domain) in new
                       else None)
    return fig


def projector(fig: go.Figure) -> go.Figure:
    """A copy of ``fig`` enlarged for a projector: big fonts, thick lines, room for the legend.

    Text becomes readable from the back of a lecture hall (title 24 px, axis titles 20,
    subplot titles 20, ticks 18, legend 18, any other text 18), the height at least 620 px (stacked subplots
    grow with their text, by 1.5), for a figure drawn alone across the screen,
    curves at least 3 px wide and every marker that has a size 1.5 times larger. The title
    sits at the top of the figure, the legend horizontally at its bottom, and the margins are
    recomputed (:func:`fit_room`) so that neither overlaps the plot, the subplot titles or the
    axis titles.

    Parameters
    ----------
    fig : plotly.graph_objects.Figure
        Any figure of the app. It is not modified.

    Returns
    -------
    plotly.graph_objects.Figure
        A new figure with the same data and the enlarged layout.

    Examples
    --------
    >>> import plotly.graph_objects as go
    >>> from ikviz.plots.style import base_layout, projector
    >>> fig = base_layout(go.Figure(go.Scatter(x=[0, 1], y=[1, 0], name="IK")), "Similarity")
    >>> big = projector(fig)
    >>> big.layout.title.font.size, big.layout.height >= 620, big.data[0].line.width >= 3
    (24, True, True)
    >>> fig.layout.title.font.size      # the input is left as it was
    15
    """
    fig = go.Figure(fig)
    f = PROJECTOR_FONTS
    height = fig.layout.height or 450
    # presentation mode draws one figure at a time, full width: room for equal-aspect panels to grow too
    height = max(round(height * 1.5) if _is_multirow(fig) else height, PROJECTOR_MIN_HEIGHT)

    for trace in fig.data:
        if trace.type in _LINE_TRACES:
            mode = trace.mode or "lines"
            if "lines" in mode or trace.fill:
                trace.line.width = max((trace.line.width or 2) * 1.5, PROJECTOR_LINE_WIDTH)
            size = trace.marker.size
            if size is not None:
                trace.marker.size = size * 1.5 if isinstance(size, (int, float)) else [s * 1.5 for s in size]
            if trace.textfont.size is not None:
                trace.textfont.size = max(trace.textfont.size, f["tick"])
        elif trace.type == "bar" and trace.textfont.size is not None:
            trace.textfont.size = max(trace.textfont.size, f["tick"])
        for err in ("error_x", "error_y"):
            bars = getattr(trace, err, None)
            if bars is not None and bars.thickness is not None:
                bars.thickness = max(bars.thickness, 2)
        colorbar = getattr(trace, "colorbar", None)
        if colorbar is not None:
            colorbar.tickfont.size = f["tick"]
            colorbar.title.font.size = f["axis_title"]

    fig.update_xaxes(title_font_size=f["axis_title"], tickfont_size=f["tick"], automargin=True)
    fig.update_yaxes(title_font_size=f["axis_title"], tickfont_size=f["tick"], automargin=True)
    # a log axis labels 2 and 5 between decades at 3/4 of the tick size (13.5 px): decades only, all at 18 px
    fig.for_each_xaxis(lambda axis: axis.update(minorloglabels="none") if axis.type == "log" else None)
    fig.for_each_yaxis(lambda axis: axis.update(minorloglabels="none") if axis.type == "log" else None)
    if fig.layout.coloraxis.colorscale is not None:
        fig.update_coloraxes(colorbar_tickfont_size=f["tick"], colorbar_title_font_size=f["axis_title"])
    for ann in fig.layout.annotations:     # subplot titles and notes
        ann.font.size = max(ann.font.size or 0, f["annotation"])
    for menu in fig.layout.sliders:
        menu.currentvalue.font.size = f["tick"]
        menu.font.size = f["tick"]
    for menu in fig.layout.updatemenus:
        menu.font.size = f["tick"]
    fig.update_layout(height=height, font={"size": f["base"]}, legend_font_size=f["legend"],
                      margin={"l": 80, "r": 40}, title_font_size=f["title"],
                      title_text=_projected_title(fig.layout.title.text, f["tick"], PROJECTOR_SUBTITLE_CHARS))
    # equal-aspect panels shrink their box instead of widening an axis's range, in a taller or a wider figure:
    # both axes of the pair (a wide 720p figure stretched x2 = x1's x axis to -5...6 for data in 0...1)
    pairs = {name: fig.layout[name] for name in fig.layout.to_plotly_json()
             if name.startswith(("xaxis", "yaxis"))}
    for axis in list(pairs.values()):
        if axis.scaleanchor:
            axis.update(constrain="domain")
            partner = pairs.get(axis.scaleanchor.replace("x", "xaxis").replace("y", "yaxis"))
            if partner is not None:
                partner.update(constrain="domain")
    b_before = fig.layout.margin.b
    _wrap_categories(fig, PROJECTOR_WIDTH, f["tick"])
    fit_room(fig, title=f["title"], annotation=f["annotation"], legend=f["legend"], tick=f["tick"],
             axis_title=f["axis_title"], width=PROJECTOR_WIDTH)
    # what a figure placed below its plot itself (play controls, a horizontal colour bar) keeps its room
    grow = 1.4 if fig.layout.sliders or fig.layout.updatemenus else 1.0
    fig.update_layout(margin_b=max(fig.layout.margin.b, round((b_before or 0) * grow)))
    rows = _legend_rows(fig, PROJECTOR_WIDTH, f["legend"])
    if _is_multirow(fig) and rows > 1:
        # stacked rows need the height a legend of several rows takes below them: a column at the right instead
        fig.update_layout(legend={"orientation": "v", "yref": "paper", "y": 1, "yanchor": "top", "x": 1.02,
                                  "xanchor": "left", "tracegroupgap": 0},
                          margin_b=max(40, fig.layout.margin.b - round(rows * f["legend"] * 1.75 + 8)))
    if _is_multirow(fig):  # stacked rows: room between them in pixels (the window's fit keeps it, see meta)
        gaps = row_gaps(fig, tick=f["tick"], axis_title=f["axis_title"], annotation=f["annotation"])
        set_row_gaps(fig, gaps, height - fig.layout.margin.t - fig.layout.margin.b)
        fig.update_layout(meta={"ikviz_row_gaps": gaps})
    return fig
