"""The "how IK is built" animation: Plotly frames with a play button and a slider."""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go

from ..experiments.build_up import Result, frame_names
from .contours import cell_lines
from .style import CLASS_COLOURS, SIMILARITY_SCALE, base_layout

SAMPLE_COLOUR = "#ff7f0e"


def _z(z: np.ndarray) -> np.ndarray:
    """Similarities as float32: Plotly sends typed arrays compactly, and K is a multiple of 1/t anyway."""
    return np.asarray(z, dtype=np.float32)


def _lines(part) -> tuple[list, list]:
    """The cell boundaries of one partitioning, rounded to 3 decimals (every frame carries its own)."""
    if part.radii is not None:  # iNNE balls: coarser circles than the shared contour helper's
        angle = np.linspace(0.0, 2.0 * np.pi, 25)
        xs, ys = [], []
        for (cx, cy), r in zip(part.centres[:, :2], part.radii):
            xs += [*np.round(cx + r * np.cos(angle), 3).tolist(), None]
            ys += [*np.round(cy + r * np.sin(angle), 3).tolist(), None]
        return xs, ys
    xs, ys = cell_lines(part)
    return ([None if v is None else round(float(v), 3) for v in xs],
            [None if v is None else round(float(v), 3) for v in ys])


def build_up_figure(result: Result, *, duration: int = 700, height: int = 560) -> go.Figure:
    """The animation: ψ sampled points, their cells, then the running average of t partitionings.

    Traces (the same in every frame): 0 the similarity contour, 1 the data,
    2 the current partitioning's cell boundaries, 3 its sampled points, 4 the
    reference point. Frames change traces 0, 2 and 3 only.
    """
    p = result.params
    axis = result.axis
    zeros = _z(np.zeros((len(axis), len(axis))))
    names = frame_names(result)

    def layers(k: int, z, cells: bool):
        part = result.partitions[k]
        xs, ys = _lines(part) if cells else ([], [])
        # frames carry only what changes: Plotly keeps every other property of the figure's traces
        return [go.Contour(z=z), go.Scatter(x=xs, y=ys),
                go.Scatter(x=np.round(part.centres[:, 0], 3), y=np.round(part.centres[:, 1], 3))]

    steps = [(0, zeros, False), (0, zeros, True)] + [
        (k, _z(result.running[k]), True) for k in range(len(result.partitions))]
    frames = [go.Frame(name=name, data=layers(k, z, cells), traces=[0, 2, 3])
              for name, (k, z, cells) in zip(names, steps)]
    first = frames[0].data
    contour = go.Contour(x=axis, y=axis, z=first[0].z, zmin=0, zmax=1, colorscale=SIMILARITY_SCALE,
                         contours={"start": 0.05, "end": 0.95, "size": 0.1}, line={"width": 0.5},
                         colorbar={"title": "K", "thickness": 10, "len": 0.9},
                         hovertemplate="x=%{x:.2f}<br>y=%{y:.2f}<br>K=%{z:.3f}<extra></extra>")
    cells = go.Scatter(x=first[1].x, y=first[1].y, mode="lines", line={"color": "white", "width": 1.2},
                       hoverinfo="skip", name="cells", showlegend=False)
    sample = go.Scatter(x=first[2].x, y=first[2].y, mode="markers", name="ψ sampled points",
                        marker={"size": 9, "color": SAMPLE_COLOUR, "line": {"color": "black", "width": 1}},
                        hoverinfo="skip", showlegend=False)
    labels = np.asarray(result.labels)
    colours = [CLASS_COLOURS[int(c) % len(CLASS_COLOURS)] for c in np.unique(labels, return_inverse=True)[1]]
    data = go.Scatter(x=result.data[:, 0], y=result.data[:, 1], mode="markers", name="data",
                      marker={"size": 3, "color": colours if np.unique(labels).size > 1 else "white", "opacity": 0.6},
                      hoverinfo="skip", showlegend=False)
    ref = go.Scatter(x=[p.ref_x], y=[p.ref_y], mode="markers", name="reference",
                     marker={"symbol": "x", "size": 13, "color": "red", "line": {"width": 1.5}}, hoverinfo="skip",
                     showlegend=False)
    fig = go.Figure(data=[contour, data, cells, sample, ref], frames=frames)

    play = {"frame": {"duration": duration, "redraw": True}, "fromcurrent": True, "transition": {"duration": 0},
                "mode": "immediate"}
    fig.update_layout(
        updatemenus=[{"type": "buttons", "direction": "left", "x": 0.0, "y": -0.06, "xanchor": "left", "yanchor": "top",
                          "showactive": False, "pad": {"t": 0, "r": 10},
                          "buttons": [{"label": "▶ play", "method": "animate", "args": [None, play]},
                                   {"label": "❚❚ pause", "method": "animate",
                                        "args": [[None], {"frame": {"duration": 0, "redraw": False},
                                                           "mode": "immediate", "transition": {"duration": 0}}]}]}],
        sliders=[{"active": 0, "x": 0.2, "len": 0.8, "y": -0.02, "yanchor": "top", "pad": {"t": 0},
                      "currentvalue": {"prefix": "", "visible": True, "xanchor": "left"},
                      "steps": [{"label": name, "method": "animate",
                                  "args": [[name], {"frame": {"duration": 0, "redraw": True}, "mode": "immediate",
                                                     "transition": {"duration": 0}}]} for name in names]}],
    )
    fig.update_xaxes(range=[axis[0], axis[-1]], constrain="domain")
    fig.update_yaxes(range=[axis[0], axis[-1]], scaleanchor="x", scaleratio=1)
    base_layout(fig, f"ψ = {p.psi}, t = {len(result.partitions)}: similarity to the red × averaged over the "
                     "partitionings so far", height=height)
    fig.update_layout(margin={"l": 30, "r": 10, "t": 50, "b": 110},
                      meta={BESIDE_KEY: beside_layout(p.psi, len(result.partitions))})
    return fig


#: ``layout.meta`` key of the animation's projector layout (see :func:`beside_layout`)
BESIDE_KEY = "ikviz_beside"
#: where the projector layout's column of title, buttons and slider starts (paper x); the plot ends before it
BESIDE_X = 0.6


def beside_layout(psi: int, t: int, *, font: int = 20) -> dict:
    """The animation laid out for a projected tour step: the title, the play buttons and the slider in a column
    beside the square plot instead of above and below it, as ``Plotly.relayout`` updates (``app/tour.py``'s fit
    applies them in presentation mode).

    Below the plot they take ~150 px (the slider's labels, its value, the buttons): at 1280x720 that left the
    plot ~130 px tall. Beside it they use the width a square plot leaves free on a wide screen, and the plot
    gets the figure's height less its x tick labels.

    Examples
    --------
    >>> from ikviz.plots.build_up import beside_layout
    >>> update = beside_layout(16, 20)
    >>> update["xaxis.domain"], update["sliders[0].x"], update["margin.b"]
    ([0, 0.56], 0.6, 44)
    """
    return {
        "title.text": "", "margin.t": 14, "margin.b": 44, "margin.l": 70, "margin.r": 20,
        "xaxis.domain": [0, round(BESIDE_X - 0.04, 2)], "xaxis.constraintoward": "right",
        "annotations": [{"text": f"ψ = {psi}, t = {t}:<br>similarity to the red ×,<br>averaged over the<br>"
                                 "partitionings so far",
                         "xref": "paper", "yref": "paper", "x": BESIDE_X, "y": 1, "xanchor": "left",
                         "yanchor": "top", "align": "left", "showarrow": False, "font": {"size": font}}],
        "updatemenus[0].x": BESIDE_X, "updatemenus[0].y": 0.45, "updatemenus[0].yanchor": "middle",
        "sliders[0].x": BESIDE_X, "sliders[0].len": 1 - BESIDE_X, "sliders[0].y": 0,
        "sliders[0].yanchor": "bottom",
    }
