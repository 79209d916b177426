"""Small multiples over ψ and perplexity, from results already computed (issue 32 item 6)."""

import json

import numpy as np
import plotly.graph_objects as go
import pytest

from ikviz.experiments import kernel_shapes
from ikviz.experiments import tsne as tsne_exp
from ikviz.plots import kernel_shapes as shape_plots
from ikviz.plots.multiples import kernel_shapes_over_psi, small_multiples, tsne_over

PSIS = (4, 16, 64)


@pytest.fixture(scope="module")
def shapes():
    return {p: kernel_shapes.run(kernel_shapes.Params(psi=p, n=120, t=10, grid=9, seed=1)) for p in PSIS}


def _z(trace):
    return np.asarray(trace.z, dtype=float)


def test_one_panel_per_psi_in_order_each_the_pages_own_contour(shapes):
    fig = kernel_shapes_over_psi({p: shapes[p] for p in reversed(PSIS)}, "ik_anne", cols=3)
    assert [a.text for a in fig.layout.annotations[:3]] == [f"ψ = {p}" for p in PSIS]
    contours = [t for t in fig.data if t.type == "contour"]
    assert len(contours) == len(PSIS)
    for k, (psi, trace) in enumerate(zip(PSIS, contours), start=1):
        single = next(t for t in shape_plots.contour_figure(shapes[psi], "ik_anne", show_cells=False).data
                      if t.type == "contour")
        assert np.array_equal(_z(trace), _z(single))                         # the same numbers, not recomputed
        assert trace.xaxis == ("x" if k == 1 else f"x{k}")                  # each in its own panel
    assert sum(bool(t.showscale) for t in contours) == 1                     # one colour bar for all
    sharper = [float(np.mean(_z(t) > 0.5)) for t in contours]
    assert sharper[0] > sharper[-1]            # larger ψ, sharper kernel: less area above 0.5


def test_equal_aspect_and_one_legend_entry_per_name():
    square = go.Figure(go.Scatter(x=[0, 1], y=[0, 1], name="points"))
    square.update_yaxes(scaleanchor="x", scaleratio=1)
    fig = small_multiples([("a", square), ("b", square), ("c", square), ("d", square), ("e", square)], cols=2)
    assert len({t.yaxis for t in fig.data}) == 5
    assert [t.showlegend for t in fig.data].count(False) == 4
    layout = json.loads(fig.to_json())["layout"]
    assert layout["yaxis3"]["scaleanchor"] == "x3" and layout["yaxis5"]["scaleanchor"] == "x5"
    with pytest.raises(ValueError, match="at least one panel"):
        small_multiples([])


def _tsne_result(value, rng):
    coords = rng.normal(size=(30, 2))
    emb = tsne_exp.Embedding("ik", coords, coords[None], np.array([0]),
                             {"knn_accuracy": 0.9, "silhouette": 0.4}, {}, {"psi": value, "t": 10, "neighbours": 5})
    return tsne_exp.Result(tsne_exp.Params(), np.repeat([0, 1, 2], 10), ("a", "b", "c"), 0, {"ik": emb})


def test_tsne_over_psi_draws_each_embedding_as_computed():
    rng = np.random.default_rng(0)
    results = {v: _tsne_result(v, rng) for v in (100, 20, 5)}
    fig = tsne_over(results, "ik")
    assert [a.text.split("<br>")[0] for a in fig.layout.annotations[:3]] == ["ψ = 5", "ψ = 20", "ψ = 100"]
    points = [t for t in fig.data if t.x is not None and len(t.x) == 30]
    assert len(points) == 3
    assert np.allclose(points[0].x, results[5].embeddings["ik"].coords[:, 0])
    with pytest.raises(ValueError, match="choose one of"):
        tsne_over(results, "rbf")
