"""The figures project well: SVG for small scatters, axis titles everywhere, legends clear of titles,
registry colours, a fixed sharpness legend, emphasised instability curves, visible twin hubness curves,
equal-aspect embeddings, and :func:`ikviz.plots.style.projector`."""

import json
import re
from types import SimpleNamespace

import numpy as np
import plotly.graph_objects as go
import pytest
from plotly.subplots import make_subplots

from ikviz.experiments import clustering as cx
from ikviz.experiments import dimensionality as dim
from ikviz.experiments import tsne as tx
from ikviz.experiments.kernel_shapes import sharpness
from ikviz.plots import (
    classification,
    clustering,
    contours,
    density,
    dimensionality,
    indexing,
    kernel_shapes,
    randlocal,
    style,
    tsne,
    your_data,
)
from ikviz.registry import colour

RNG = np.random.default_rng(0)


# ------------------------------------------------------------------ small seeded inputs
@pytest.fixture(scope="module")
def tsne_result():
    return tx.run(tx.Params(w=2, n_per_cluster=50, exaggeration_iter=100, n_iter=150, frame_every=50))


@pytest.fixture(scope="module")
def instability():
    r = dim.run_instability(dim.InstabilityParams(d_values=(10, 300), n_per_cluster=100,
                                                  measures=("gk", "ik", "lp2", "lk"), t_values=(1, 10),
                                                  t_trials=2))
    return dim.instability_summary(r, eps=0.05)


@pytest.fixture(scope="module")
def hubness():
    r = dim.run_hubness(dim.HubnessParams(d_values=(3, 50), n=300, measures=("gk", "lp2", "ik")))
    return dim.hubness_summary(r)


def profiles(psis):
    return [sharpness(n=300, psi=q, t=20, ref=(0.0, 0.0), seed=0) for q in psis]


def classification_result(n=60):
    X = RNG.uniform(-1, 1, size=(n, 2))
    y = (X[:, 0] > 0).astype(int)
    axis = np.linspace(-1, 1, 11)
    Z = (np.add.outer(np.zeros(11), axis) > 0).astype(int)
    curve = SimpleNamespace(method="IK+OGD", curve=lambda: (np.arange(1, 11), np.linspace(0.5, 0.1, 10)))
    return SimpleNamespace(
        regions={"ik": (axis, axis, Z)}, X_train=X, y_train=y,
        evaluations=[SimpleNamespace(kernel="ik", accuracy=0.9, fpr=0.1)],
        cv={"ik": ([2, 4, 8], [0.8, 0.9, 0.85]), "rbf": ([0.5, 1.0, 2.0], [0.7, 0.8, 0.75])},
        results=[curve])


def density_inputs():
    dens = RNG.uniform(0.1, 10, size=200)
    sims = {k: RNG.uniform(0, 1, size=200) for k in ("ik_anne", "ik_inne", "ik_iforest")}
    grid = {key: {m: RNG.uniform(0, 0.2, size=(2, 3)) for m in ("ik_anne", "ik_iforest")}
            for key in ("laplacian", "rbf")}
    return {"pairs": {"ik_anne": {"sparse": 0.4, "dense": 0.2}, "rbf": {"sparse": 0.3, "dense": 0.3}},
            "margins": {"psi": [2, 4, 8], "ik_anne": RNG.uniform(0, 0.3, size=(3, 2)),
                        "laplacian_psi": np.zeros((3, 2))},
            "density": {"density": dens, "distance": 0.1, "laplacian_psi": 0.3, **sims},
            "grid": {**grid, "psi": [2, 8, 32], "d": [2, 10]}}


def your_data_inputs():
    Y = RNG.normal(size=(80, 2))
    return {
        "neighbours": {"eps": 0.05, "k": 5, "rows": 50, "of_rows": 80,
                       "n_eps": {"ik": RNG.integers(1, 20, 50), "gk": RNG.integers(1, 40, 50)},
                       "occurrence": {"ik": RNG.integers(0, 10, 50), "gk": RNG.integers(0, 20, 50)}},
        "tsne": {"labels": np.repeat([0, 1], 40), "classes": ["x", "y"], "rows": 80,
                 "coords": {"gk": Y, "ik": Y * 2},
                 "scores": {"gk": {"knn_accuracy": 0.9, "silhouette": 0.4},
                            "ik": {"knn_accuracy": 0.95, "silhouette": 0.5}}},
        "learn": SimpleNamespace(curve=[(100, {"IK+OGD": 0.3, "FOGD": 0.4}), (200, {"IK+OGD": 0.2, "FOGD": 0.35})],
                                 mistake_rate={"IK+OGD": 0.2, "FOGD": 0.35}, n_train=200),
    }


def indexing_summary():
    row = {"brute_s": 0.1, "balltree_s": 0.2, "map_s": 0.0, "precision_at_5": 0.8, "tree_over_brute": 2.0,
           "fit_method": "ball_tree", "fallback": False}
    return {"dataset": "toy", "n": 100, "d": 5, "methods": {"distance": row, "ik_sparse": {**row, "fallback": True}}}


def randlocal_result():
    ours = {"RAW": (90.0, 1.0), "RandLocal": (95.0, 0.5)}
    return SimpleNamespace(micro_f1=ours, kmeans_acc={"RAW": (0.4, 0.01), "RandLocal": (0.6, 0.02)},
                           kmeans_nmi={"RAW": (0.4, 0.01), "RandLocal": (0.6, 0.02)}, n_classification=200,
                           params=SimpleNamespace(classification="ijcnn1", folds=2, clustering="mnist",
                                                  kmeans_repeats=1))


@pytest.fixture(scope="module")
def all_figures(tsne_result, instability, hubness):
    """Every figure builder of the app on small seeded or hand-made inputs: ``{name: figure}``."""
    figs = {}
    axis = np.linspace(-1, 1, 21)
    z = np.exp(-np.abs(np.add.outer(axis, axis)))
    figs["contour"] = contours.similarity_contour(axis, z, title="IK", ref=(0.0, 0.0),
                                                  data=RNG.uniform(-1, 1, (100, 2)), clickable=True)
    figs["sharpness"] = kernel_shapes.sharpness_figure(profiles((8, 64)))
    d = density_inputs()
    figs["pairs"] = density.pairs_figure(d["pairs"])
    figs["margin"] = density.margin_figure(d["margins"])
    figs["density"] = density.density_figure(d["density"])
    figs["rmse"] = density.rmse_figure(d["grid"])
    figs["data"] = dimensionality.dataset_figure(RNG.normal(size=(100, 2)), np.repeat([0, 1], 50), 3.0)
    figs["neps"] = dimensionality.neps_figure(instability)
    figs["variance"] = dimensionality.variance_figure(instability)
    figs["t_curve"] = dimensionality.t_curve_figure(instability)
    figs["hubness"] = dimensionality.hubness_figure(hubness)
    figs["tsne_result"] = tsne.result_figure(tsne_result, "ik")
    figs["tsne_animation"] = tsne.animation_figure(tsne_result)
    figs["tsne_search"] = tsne.search_figure({"gk": {5: {"knn_accuracy": 0.9, "silhouette": 0.3},
                                                     30: {"knn_accuracy": 0.95, "silhouette": 0.4}},
                                              "ik": {5: {"knn_accuracy": 0.97, "silhouette": 0.5},
                                                     30: {"knn_accuracy": 0.99, "silhouette": 0.6}}}, 5000)
    c = classification_result()
    figs["regions"] = classification.regions_figure(c, "ik")
    figs["cv"] = classification.cv_figure(c)
    paired = SimpleNamespace(kernels=["rbf", "ik"], metrics={("rbf", "FPR"): [0.3, 0.4], ("ik", "FPR"): [0.1, 0.2]})
    figs["paired"] = classification.paired_figure(paired, "FPR", title="uniform data, density ratio 10")
    figs["mistakes"] = classification.mistake_curve_figure(c)
    labels = np.repeat([0, 1], 30)
    figs["clusters"] = clustering.scatter_figure(RNG.normal(size=(60, 2)), labels, "true classes")
    ev = cx.evaluate(cx.Data("w-gaussians", w=1, n_per_cluster=60), "density_peaks", "distance", eps_fraction=0.1)
    figs["decision"] = clustering.decision_graph_figure(ev)
    sweeps = {m: cx.Sweep("spectral", m, "ψ", (2, 4, 8), np.array([0.2, 0.5, 0.4]), np.zeros(3), ev)
              for m in ("ik_iforest", "ik_iforest_full", "ik_inne", "gk")}
    figs["sweep"] = clustering.sweep_figure(sweeps)
    figs["ami_bars"] = clustering.ami_bars_figure({"spectral": {"ik_anne": {1: 0.9, 5: 0.8}, "gk": {1: 0.5}},
                                                   "kmeans": {"ik_anne": {1: 0.7}, "raw": {1: 0.3, 5: 0.2}}})
    y = your_data_inputs()
    figs["your_neighbours"] = your_data.neighbour_figure(y["neighbours"])
    figs["your_tsne"] = your_data.tsne_figure(y["tsne"])
    figs["your_learn"] = your_data.learn_figure(y["learn"])
    figs["indexing"] = indexing.indexing_figure(indexing_summary())
    figs["randlocal"] = randlocal.figures(randlocal_result())[0]
    return figs


# ------------------------------------------------------------------ one template, applied without re-validating it
def test_every_figure_gets_its_own_copy_of_plotly_white(all_figures):
    import plotly.io as pio

    white = pio.templates["plotly_white"].to_plotly_json()
    for name, fig in all_figures.items():
        assert fig.layout.template.to_plotly_json() == white, name
    fig = style.base_layout(go.Figure(go.Scatter(x=[0, 1], y=[1, 0])), "t")
    # the same JSON as plotly's own (validating) path, and a change to one figure's template stays in it
    assert json.loads(fig.to_json())["layout"]["template"] == json.loads(
        go.Figure().update_layout(template="plotly_white").to_json())["layout"]["template"]
    fig.update_layout(template_layout_font_size=30)
    assert pio.templates["plotly_white"].layout.font.size is None
    assert style.base_layout(go.Figure(), "u").layout.template.layout.font.size is None
    # validation is back on for everything after the template
    with pytest.raises(ValueError):
        fig.update_layout(height="tall")


# ------------------------------------------------------------------ WebGL only where it pays
def test_scatter_class_switches_to_webgl_above_the_threshold():
    assert style.scatter_class(10) is go.Scatter
    assert style.scatter_class(style.WEBGL_ABOVE) is go.Scatter
    assert style.scatter_class(style.WEBGL_ABOVE + 1) is go.Scattergl


def test_small_figures_draw_no_webgl(all_figures):
    for name, fig in all_figures.items():
        assert not [tr for tr in fig.data if tr.type == "scattergl"], name


def test_the_clustering_labs_largest_data_stay_svg():
    # seven scatter figures of 2 x 1,000 points (points per cluster at its maximum): as WebGL they took
    # 14 of the browser's ~16 contexts and the oldest went blank on an algorithm switch
    X2 = RNG.normal(size=(2 * 1_000, 2))
    assert {tr.type for tr in clustering.scatter_figure(X2, np.arange(2_000) % 2, "t").data} == {"scatter"}


def test_large_scatters_use_webgl():
    n = style.WEBGL_ABOVE + 500
    X2 = RNG.normal(size=(n, 2))
    assert {tr.type for tr in clustering.scatter_figure(X2, np.arange(n) % 2, "t").data} == {"scattergl"}
    coords = RNG.normal(size=(n, 2))
    fig = tsne.embedding_figure(coords, np.arange(n) % 2, ("a", "b"), None, "t")
    assert fig.data[0].type == "scattergl"
    axis = np.linspace(-1, 1, 5)
    fig = contours.similarity_contour(axis, np.ones((5, 5)), title="t", ref=(0, 0), data=X2)
    # under a contour the data are a backdrop: a seeded sample of at most 1,000 points, drawn as SVG
    assert fig.data[1].type == "scatter" and len(fig.data[1].x) == contours.MAX_BACKDROP_POINTS
    assert fig.data[1].name == f"data (1,000 of {n:,} shown)"
    again = contours.similarity_contour(axis, np.ones((5, 5)), title="t", ref=(0, 0), data=X2)
    assert np.array_equal(again.data[1].x, fig.data[1].x)  # the same sample every time
    y = your_data_inputs()["tsne"]
    big = {**y, "labels": None, "coords": {"gk": X2, "ik": X2}}
    assert {tr.type for tr in your_data.tsne_figure(big).data} == {"scattergl"}


# ------------------------------------------------------------------ axis titles, titles, legends
def _axis_titles(fig, which):
    axes = fig.select_xaxes() if which == "x" else fig.select_yaxes()
    return [ax.title.text for ax in axes if ax.title.text]


def test_every_figure_names_its_x_and_y_axes(all_figures):
    for name, fig in all_figures.items():
        assert _axis_titles(fig, "x"), f"{name}: no x-axis title"
        assert _axis_titles(fig, "y"), f"{name}: no y-axis title"


def _plain(text):
    return re.sub(r"<[^>]+>", "", text or "")


def test_titles_fit_their_figure_and_subplot_titles_their_panel(all_figures):
    for name, fig in all_figures.items():
        for line in (fig.layout.title.text or "").split("<br>"):
            assert len(_plain(line)) <= 90, f"{name}: title line too long: {line!r}"
        cols = max(1, len({tuple(ax.domain or (0, 1)) for ax in fig.select_xaxes()}))
        rows_of_titles = [a for a in fig.layout.annotations if a.yanchor == "bottom" and a.xref == "paper"]
        for a in rows_of_titles:   # subplot titles: one per panel, side by side
            for line in a.text.split("<br>"):
                assert len(_plain(line)) <= style.panel_width(cols) + 2, f"{name}: {line!r} runs past its panel"


def test_legends_sit_below_the_plot_clear_of_every_title(all_figures):
    for name, fig in all_figures.items():
        shown = fig.layout.showlegend is not False and any(tr.showlegend is not False and tr.name for tr in fig.data)
        if not shown or (fig.layout.showlegend is None and len(fig.data) == 1):
            continue
        leg = fig.layout.legend
        assert leg.yref == "container" and leg.y == 0 and leg.yanchor == "bottom", name
        assert fig.layout.margin.b >= 50, name       # the axis titles and at least one legend row


def test_a_longer_legend_gets_a_larger_bottom_margin():
    def fig_with(n):
        fig = go.Figure([go.Scatter(x=[0, 1], y=[i, i], name=f"measure number {i}") for i in range(n)])
        fig.update_xaxes(title_text="x")
        return style.base_layout(fig, "t")
    assert fig_with(12).layout.margin.b > fig_with(2).layout.margin.b


def test_the_top_margin_makes_room_for_two_line_subplot_titles():
    fig = make_subplots(rows=1, cols=2, subplot_titles=("a<br>b", "c"))
    one = make_subplots(rows=1, cols=2, subplot_titles=("a", "c"))
    assert style.base_layout(fig, "t").layout.margin.t > style.base_layout(one, "t").layout.margin.t


# ------------------------------------------------------------------ colours and orders
def test_sharpness_keeps_its_legend_order_and_kernel_colours_for_any_psi():
    def legend(psis):
        fig = kernel_shapes.sharpness_figure(profiles(psis))
        entries = sorted((tr for tr in fig.data if tr.showlegend is not False), key=lambda tr: tr.legendrank)
        return [tr.legendgroup for tr in entries], [tr.line.color for tr in entries], entries

    groups_a, colours_a, entries = legend((8, 64))
    groups_b, colours_b, _ = legend((256, 16))           # other values, given in the other order
    assert groups_a == groups_b == ["ik0", "ik1", "lap0", "lap1"]
    assert colours_a == colours_b
    assert [tr.name for tr in entries] == ["IK, ψ=8", "IK, ψ=64", "L_ψ, ψ=8", "L_ψ, ψ=64"]
    assert colours_a[1] == colour("ik_iforest") and colours_a[3] == colour("laplacian_psi")


def test_kernel_colours_come_from_the_registry(all_figures):
    margin = all_figures["margin"]
    assert {tr.name: tr.line.color for tr in margin.data}["IK · Voronoi (aNNE)"] == colour("ik_anne")
    search = all_figures["tsne_search"]
    assert {tr.legendgroup: tr.line.color for tr in search.data} == {"gk": colour("rbf"), "ik": colour("ik_anne")}
    bars = all_figures["ami_bars"]
    assert {tr.legendgroup: tr.marker.color for tr in bars.data}["ik_anne"] == colour("ik_anne")
    assert sum(tr.legendgroup == "ik_anne" and tr.showlegend is not False for tr in bars.data) == 1


def test_instability_emphasises_gk_and_ik_drawn_last(all_figures):
    for name in ("neps", "variance"):
        fig = all_figures[name]
        per_panel = [tr for tr in fig.data if tr.xaxis == "x"]
        groups = [tr.legendgroup for tr in per_panel]
        assert set(groups[-2:]) == {"gk", "ik"}, name      # on top of the faint ones
        for tr in fig.data:
            if tr.legendgroup in ("gk", "ik"):
                assert tr.line.width >= 3 and tr.opacity == 1
            else:
                assert tr.line.width < 2 and tr.opacity == pytest.approx(0.35)
        assert {tr.legendgroup for tr in fig.data if tr.showlegend} == {"gk", "ik", "lp2", "lk"}


def test_hubness_twin_curves_stay_visible_and_say_so(hubness, all_figures):
    fig = all_figures["hubness"]
    first = [tr for tr in fig.data if tr.xaxis == "x"]
    gk, lp2, ik = (next(tr for tr in first if tr.legendgroup == m) for m in ("gk", "lp2", "ik"))
    assert np.array_equal(gk.y, lp2.y)                        # GK ranks neighbours as ℓ2 does
    assert (gk.line.dash or "solid") != lp2.line.dash and gk.line.width > lp2.line.width
    assert gk.marker.symbol != lp2.marker.symbol
    assert "same values as" in gk.hovertemplate and "same values as" in lp2.hovertemplate
    assert "same values as" not in ik.hovertemplate
    assert fig.data.index(lp2) > fig.data.index(gk)           # the thin dotted one on top


# ------------------------------------------------------------------ equal aspect
def test_tsne_embeddings_keep_an_equal_aspect(all_figures):
    for name in ("tsne_result", "your_tsne"):
        fig = all_figures[name]
        assert fig.layout.yaxis.scaleanchor == "x" and fig.layout.yaxis.scaleratio == 1, name
    anim = all_figures["tsne_animation"]
    assert anim.layout.yaxis.scaleanchor == "x" and anim.layout.yaxis2.scaleanchor == "x2"
    assert anim.layout.margin.b > 110                         # the play controls below the axis titles


# ------------------------------------------------------------------ projector
def test_projector_enlarges_a_copy_and_leaves_the_input_alone(all_figures):
    for name, fig in all_figures.items():
        before = json.loads(fig.to_json())
        big = style.projector(fig)
        assert json.loads(fig.to_json()) == before, name
        assert big is not fig
        assert big.layout.title.font.size == 24
        assert big.layout.height >= 620, name
        assert big.layout.legend.font.size == 18 and big.layout.font.size >= 18   # issue 32: no figure text < 18 px
        assert all(ax.title.font.size == 20 and ax.tickfont.size == 18
                   for ax in [*big.select_xaxes(), *big.select_yaxes()])
        assert all(a.font.size >= 18 for a in big.layout.annotations)
        for tr in big.data:
            if tr.type == "scatter" and "lines" in (tr.mode or "lines"):
                assert tr.line.width >= 3, name
        assert big.layout.margin.t > fig.layout.margin.t and big.layout.margin.b >= fig.layout.margin.b


def test_projector_enlarges_markers_and_keeps_the_emphasis(all_figures):
    fig = all_figures["neps"]
    big = style.projector(fig)
    for small, large in zip(fig.data, big.data):
        assert large.marker.size == pytest.approx(1.5 * small.marker.size)
        assert large.line.width >= small.line.width and large.opacity == small.opacity
    stacked = all_figures["rmse"]
    assert style.projector(stacked).layout.height >= 1.5 * stacked.layout.height - 1


def test_the_indexing_chart_labels_each_group_once_with_the_tree_over_brute_ratio():
    # the seconds of side-by-side bars of similar height wrote over each other: one label per group
    fig = indexing.indexing_figure(indexing_summary())
    brute, tree = (next(t for t in fig.data if t.name.startswith(s)) for s in ("brute force", "ball_tree"))
    assert brute.text is None and list(tree.text) == ["×2", "×2"]
    assert "brute force: %{y:.3g} s" in brute.hovertemplate  # the seconds stay in the hover (and the page's table)
