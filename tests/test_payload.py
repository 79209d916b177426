"""What each browser tab receives for a figure (issue 32, the classroom): fewer bytes, the same picture.

``plotly_chart.to_spec`` sends float64 arrays as float32 where every point stays within half a pixel of the
widest drawing (:data:`plotly_chart.WIDEST`); the figure object keeps the exact numbers for exports. The t-SNE
figures send class colours as one byte a point and the replay's frames only the points' positions.
"""

from __future__ import annotations

import base64
import json
import sys
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import plotly.graph_objects as go
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "app"))

import plotly_chart  # noqa: E402

from ikviz.plots import tsne as plots  # noqa: E402


def _array(node) -> np.ndarray:
    if isinstance(node, dict) and "bdata" in node:
        return np.frombuffer(base64.b64decode(node["bdata"]), dtype=np.dtype(node["dtype"])).astype(np.float64)
    return np.asarray(node, dtype=np.float64)


def test_points_sent_within_half_a_pixel_and_the_figure_keeps_exact_numbers():
    rng = np.random.default_rng(0)
    x, y = rng.normal(3.0, 40.0, 5000), rng.uniform(-1e-3, 1e-3, 5000) + 0.123456789
    fig = go.Figure(go.Scatter(x=x, y=y, mode="markers"))
    spec = json.loads(plotly_chart.to_spec(fig))
    trace = spec["data"][0]
    assert trace["x"]["dtype"] == "f4" and trace["y"]["dtype"] == "f4"  # half the bytes of each array
    for sent, exact in ((trace["x"], x), (trace["y"], y)):
        pixel = (exact.max() - exact.min()) / plotly_chart.WIDEST
        assert np.abs(_array(sent) - exact).max() <= pixel / 2
    assert np.array_equal(fig.data[0].x, x) and fig.data[0].x.dtype == np.float64  # exports read these
    assert len(plotly_chart.to_spec(fig)) < 0.6 * len(fig.to_json())


def test_an_array_that_float32_would_move_by_more_than_half_a_pixel_stays_float64():
    # a span of 1e-4 around 1e6: float32's step there (0.06) is far more than a pixel of the span
    y = 1e6 + np.linspace(0, 1e-4, 50)
    spec = json.loads(plotly_chart.to_spec(go.Figure(go.Scatter(x=np.arange(50.0), y=y))))
    assert spec["data"][0]["y"]["dtype"] == "f8" and np.array_equal(_array(spec["data"][0]["y"]), y)
    assert spec["data"][0]["x"]["dtype"] == "f4"


def test_nan_gaps_and_heatmap_grids_survive():
    z = np.linspace(0, 1, 12).reshape(3, 4)
    z[1, 2] = np.nan
    fig = go.Figure([go.Heatmap(z=z), go.Scatter(x=[0.0, np.nan, 2.5], y=np.array([1.0, np.nan, 3.0]))])
    spec = json.loads(plotly_chart.to_spec(fig))
    sent = spec["data"][0]["z"]  # a 2-D typed array: its flat buffer and its "shape"
    assert sent["dtype"] == "f4" and sent["shape"].replace(" ", "") == "3,4"
    got = _array(sent).reshape(3, 4)
    assert np.allclose(got, z, equal_nan=True, atol=1 / (2 * plotly_chart.WIDEST)) and np.isnan(got[1, 2])
    assert np.isnan(_array(spec["data"][1]["y"])[1])


def test_numbers_shown_as_written_stay_float64():
    """A heat map's cell texts are its numbers as written: float32's 0.087 read "0.08699999749660492", each cell
    shrunk to fit it (the density grid's tour step on a projector)."""
    z = np.round(np.linspace(0.01, 0.13, 12).reshape(3, 4), 3)
    fig = go.Figure(go.Heatmap(z=z, text=z, texttemplate="%{text}", customdata=z))
    sent = json.loads(plotly_chart.to_spec(fig))["data"][0]
    assert sent["z"]["dtype"] == "f4"   # where it is drawn: narrowed
    for key in ("text", "customdata"):
        assert np.array_equal(_array(sent[key]).reshape(3, 4), z), key
        assert sent[key]["dtype"] == "f8", key


def _result(n: int = 300, frames: int = 3):
    rng = np.random.default_rng(1)
    labels = np.r_[np.zeros(n // 2, int), np.ones(n - n // 2 - 1, int), [-1]]
    emb = lambda: SimpleNamespace(  # noqa: E731
        coords=rng.normal(size=(n, 2)), frames=[rng.normal(size=(n, 2)) for _ in range(frames)],
        iterations=np.arange(frames) * 25, info={"psi": 8, "t": 100, "neighbours": 30, "perplexity": 30},
        scores={"knn_accuracy": 0.9, "silhouette": 0.5}, seconds={"affinities": 1.0, "optimisation": 1.0})
    return SimpleNamespace(embeddings={"gk": emb(), "ik": emb()}, labels=labels, classes=("a", "b"),
                           origin=n - 1, params=SimpleNamespace(seed=0, exaggeration_iter=250))


def test_tsne_class_colours_are_one_byte_a_point_on_the_same_colour_scale():
    fig = plots.result_figure(_result(), "gk")
    marker = fig.data[0].marker
    colours = np.asarray(marker.color)
    assert colours.dtype == np.uint8
    # the position on the stepped colour scale is the middle of class c's step, as with c + 0.5 on [0, k]
    k = len(plots.CLASS_COLOURS)
    position = (colours - marker.cmin) / (marker.cmax - marker.cmin)
    labels = _result().labels
    assert np.allclose(position, ((labels[labels != plots.ORIGIN_LABEL] % k) + 0.5) / k)
    assert '"dtype":"u1"' in plotly_chart.to_spec(fig).replace(" ", "")


def test_tsne_replay_frames_carry_only_the_points_positions():
    result = _result()
    fig = plots.animation_figure(result)
    keep = result.labels != plots.ORIGIN_LABEL
    for f, frame in enumerate(fig.frames):
        points, origin = frame.data[0], frame.data[1]
        assert points.text is None and points.marker.color is None  # kept from the traces, not repeated
        assert np.array_equal(points.x, result.embeddings["gk"].frames[f][keep, 0])
        assert list(origin.y) == [result.embeddings["gk"].frames[f][result.origin, 1]]
        assert type(points) is type(fig.data[frame.traces[0]])
    first = fig.data[frame.traces[0]]
    assert np.array_equal(first.x, result.embeddings["gk"].frames[0][keep, 0]) and first.text is not None


@pytest.mark.parametrize("builder", ["result_figure", "animation_figure"])
def test_tsne_figures_send_less_than_before(builder):
    result = _result(n=1001, frames=5)
    fig = plots.result_figure(result, "ik") if builder == "result_figure" else plots.animation_figure(result)
    # before (fig.to_json(): f8 colours and coordinates, every frame repeating colours and hover text): 53 and
    # 559 kB; float32 alone: 35 and 333 kB; now 29 and 191 kB
    assert len(plotly_chart.to_spec(fig)) < {"result_figure": 32_000, "animation_figure": 250_000}[builder]
