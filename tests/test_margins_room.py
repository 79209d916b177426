"""Margins with room for the text Plotly draws beside the plot (issues 29/32).

Plotly's ``automargin`` widens a margin too small for the tick labels, axis titles or legend after its first
drawing and draws the whole figure again (a third more of a phone's CPU for that figure). ``style.side_room``
estimates the y tick labels (Plotly's automatic ticks over the data's range) and the y title; the builders of
kernel shapes, density, curse, clustering and classification must ask at least that much, whatever the data.
"""

from __future__ import annotations

import json
import shutil
from types import SimpleNamespace

import numpy as np
import pytest

from ikviz.plots import classification as clp
from ikviz.plots import clustering as cp
from ikviz.plots import density as dp
from ikviz.plots import dimensionality as dimp
from ikviz.plots import kernel_shapes as kp
from ikviz.plots.style import base_layout, colorbar_room, projector, side_room, text_px, tick_labels, title_room


# ---------------------------------------------------------------------------------------------- the estimates
@pytest.mark.parametrize("lo, hi, length, log, expected", [
    (0, 1.05, 240, False, ["0", "0.2", "0.4", "0.6", "0.8", "1"]),
    (0.5, 1.0, 240, False, ["0.5", "0.6", "0.7", "0.8", "0.9", "1"]),
    (0.5, 1.0, 400, False, ["0.5", "0.6", "0.7", "0.8", "0.9", "1"]),   # 0.05 / 0.01 > 5 in floating point
    (0.5, 0.95, 400, False, ["0.5", "0.55", "0.6", "0.65", "0.7", "0.75", "0.8", "0.85", "0.9", "0.95"]),
    (-12000, 48000, 240, False, ["−10k", "0", "10k", "20k", "30k", "40k"]),
    (-2.4, 2.4, 200, False, ["−2", "−1", "0", "1", "2"]),
    (1, 2000, 240, True, ["1", "10", "100", "1000"]),
    (1e-4, 0.5, 240, True, ["100μ", "0.001", "0.01", "0.1"]),
])
def test_tick_labels_are_plotlys(lo, hi, length, log, expected):
    """The labels the app's Plotly bundle draws for these ranges (read off its figures in Chromium; a log axis's
    decades: the small 2 and 5 between them are narrower)."""
    assert tick_labels(lo, hi, length, log=log) == expected


def test_text_px_counts_wide_characters():
    # Verdana / DejaVu Sans: digits 0.636 em, the minus sign U+2212 0.838 em, a point 0.318 em
    assert 26 <= text_px("0.25", 12) <= 28
    assert text_px("−1", 12) > text_px("11", 12) > text_px("1.", 12)
    assert text_px("a<br>bbb", 10) == pytest.approx(text_px("bbb", 10))
    assert text_px("<b>x</b>", 12) == pytest.approx(text_px("x", 12))


def test_side_room_grows_with_the_labels():
    import plotly.graph_objects as go

    def left(ys):
        fig = go.Figure(go.Scatter(x=[0, 1], y=ys)).update_layout(height=300, margin_t=40, margin_b=50)
        return side_room(fig.update_yaxes(title_text="value"))[0]

    short, long = left([0, 9]), left([-123456.5, 987654])
    assert short >= title_room(12) + text_px("8", 12)
    assert long >= title_room(12) + text_px("800k", 12)
    assert long > short + 20


# ------------------------------------------------------------------------------------- the builders' margins
def _widest_y_label(fig, tick=12.0) -> float:
    """The widest label among Plotly's ticks for the first y axis of ``fig`` (its range or the data's)."""
    ax = fig.layout.yaxis
    log = ax.type == "log"
    if ax.range is not None:
        lo, hi = (10 ** v for v in ax.range) if log else ax.range
    else:
        ys = np.concatenate([np.asarray(t.y, dtype=float) for t in fig.data
                             if (t.yaxis or "y") == "y" and t.y is not None])
        ys = ys[ys > 0] if log else ys
        lo, hi = ys.min(), ys.max()
    plot = fig.layout.height - fig.layout.margin.t - fig.layout.margin.b
    return max(text_px(s, tick) for s in tick_labels(lo, hi, plot * (ax.domain or (0, 1))[1], log=log))


def _sample_figures():
    rng = np.random.default_rng(0)
    X2 = rng.normal(size=(200, 2)) * 25000          # long y tick labels ("−40k")
    y = (X2[:, 0] > 0).astype(int)
    ds = [10, 100, 1000, 10000]
    queries = ("between", "sparse_centre")
    var = {m: {q: {d: 10.0 ** -(i + d / 2500) for d in ds} for q in queries} for i, m in enumerate(["ik", "gk"])}
    neps = {m: {q: {d: 1 + d * (i + 1) for d in ds} for q in queries} for i, m in enumerate(["ik", "gk"])}
    summary = {"variance_by_query": var, "N_eps": neps, "n_points": 20000, "eps": 0.005, "t_curve_d": 1000,
               "N_eps_vs_t": {"data": {q: {"t": [1, 10, 100], "mean": [900.5, 90, 9], "se": [5, 3, 1]}
                                       for q in queries}}}
    edges = np.linspace(0, 1, 11)
    profiles = [{"psi": psi, "distance": np.linspace(0, 1, 10), "mean": np.linspace(1, 0, 10),
                 "laplacian": np.linspace(1, 0, 10), "hist": np.arange(10), "hist_edges": edges}
                for psi in (8, 64, 1024)]
    cv = SimpleNamespace(cv={"rbf": ([2.0 ** k for k in range(-4, 5)], list(np.linspace(0.5, 0.975, 9))),
                             "ik": ([2.0 ** k for k in range(1, 9)], list(np.linspace(0.61, 0.995, 8)))},
                         params=SimpleNamespace(ik_method="iforest"))
    pairs = {k: {"sparse": 0.8, "dense": 0.3} for k in ("ik_anne", "ik_inne", "ik_iforest", "laplacian_psi", "rbf")}
    return {
        "clustering scatter": cp.scatter_figure(X2, y, "true classes<br><sub>the labels AMI compares with</sub>"),
        "classification cv": clp.cv_figure(cv),
        "kernel shapes sharpness": kp.sharpness_figure(profiles),
        "density pairs": dp.pairs_figure(pairs),
        "curse dataset": dimp.dataset_figure(X2, y, 30000.0),
        "curse variance": dimp.variance_figure(summary),
        "curse instability": dimp.neps_by_eps_figure({0.005: summary, 0.05: summary}),
        "curse t curve": dimp.t_curve_figure(summary),
    }


@pytest.mark.parametrize("name", list(_sample_figures()))
def test_left_margin_holds_the_y_tick_labels_and_title(name):
    """The old margins (left 40 px for all of them) were 11-25 px short of these labels and titles."""
    fig = _sample_figures()[name]
    need = _widest_y_label(fig) + (title_room(12) if fig.layout.yaxis.title.text else 0)
    assert fig.layout.margin.l >= need, (name, fig.layout.margin.l, need)
    assert fig.layout.margin.l <= need + 30, "no wider than the text needs (a few px of pad)"


@pytest.mark.parametrize("name", list(_sample_figures()))
def test_bottom_margin_holds_x_tick_labels_and_title(name):
    fig = _sample_figures()[name]
    # drawn: 51-53 px for one line of x tick labels and an x title at 12 px (48 asked before)
    assert fig.layout.margin.b >= 53


def test_long_categories_are_wrapped_not_aslant():
    """Density's pairs: five kernel names Plotly turned aslant (bottom widened 77 -> 155 px)."""
    fig = _sample_figures()["density pairs"]
    assert fig.layout.xaxis.tickangle == 0
    assert any("<br>" in t for t in fig.layout.xaxis.ticktext)


def test_projector_keeps_room_at_its_fonts():
    for name, fig in _sample_figures().items():
        big = projector(fig)
        assert big.layout.margin.l >= side_room(big, tick=18, axis_title=20)[0], name


def test_base_layout_leaves_small_margins_alone():
    import plotly.graph_objects as go

    fig = base_layout(go.Figure(go.Scatter(x=[0, 1], y=[0, 1])))
    assert fig.layout.margin.l == 40 and fig.layout.margin.r == 20


def _multiples():
    """Kernel shapes over ψ: small multiples with one vertical colour bar at their right (drawn twice before:
    right margin 20 -> 90 px, bottom 29 -> 88 px, the bar hanging from the middle of the plot)."""
    from ikviz.experiments import kernel_shapes
    from ikviz.plots.multiples import kernel_shapes_over_psi

    runs = {p: kernel_shapes.run(kernel_shapes.Params(psi=p, n=100, t=10, grid=9)) for p in (4, 16, 64)}
    return kernel_shapes_over_psi(runs, "ik_anne")


def test_the_colour_bar_of_small_multiples_sits_inside_the_plot_height_with_room_at_the_right():
    fig = _multiples()
    [bar] = [t.colorbar for t in fig.data if t.type == "contour" and t.showscale]
    assert bar.orientation == "v" and bar.yanchor == "middle"
    assert 0 <= bar.y - bar.len / 2 and bar.y + bar.len / 2 <= 1, "the bar hangs below the plot"
    assert fig.layout.margin.r >= colorbar_room(fig) >= 90, "Chromium drew this bar in 90 px"
    big = projector(fig)
    assert big.layout.margin.r >= colorbar_room(big, tick=18, axis_title=20) > fig.layout.margin.r


def test_colorbar_room_counts_only_vertical_bars_shown():
    import plotly.graph_objects as go

    fig = go.Figure(go.Heatmap(z=[[0, 1], [1, 0]], colorbar={"thickness": 10}))
    room = colorbar_room(fig)
    assert colorbar_room(fig, tick=18) > room                               # larger labels, more room
    assert colorbar_room(fig.update_traces(colorbar_title_text="a long colour bar title")) > room
    assert colorbar_room(fig.update_traces(showscale=False)) == 0
    assert colorbar_room(fig.update_traces(showscale=True, colorbar_orientation="h")) == 0


# ------------------------------------------------------------------------------ drawn once in the browser
BUNDLE = "app/static/plotly-ikviz.min.js"


@pytest.mark.slow
def test_drawn_once_in_chromium():
    """Every sample figure drawn in headless Chromium (the app's Plotly bundle) at 700 and 1000 px keeps the
    margins asked for: automargin had nothing to do."""
    playwright = pytest.importorskip("playwright.sync_api")
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium is None:
        pytest.skip("no chromium")
    from pathlib import Path

    bundle = Path(__file__).resolve().parents[1] / BUNDLE
    widened = []
    with playwright.sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=chromium, headless=True, args=["--no-sandbox"])
        page = browser.new_page()
        page.set_content("<html><body></body></html>")
        page.add_script_tag(path=str(bundle))
        for name, fig in {**_sample_figures(), "kernel shapes over psi": _multiples(),
                          "kernel shapes over psi, projector": projector(_multiples())}.items():
            spec = json.loads(fig.to_json())
            for width in (700, 1000):
                got = page.evaluate("""async ([spec, w]) => {
                  const d = document.createElement('div'); d.style.width = w + 'px'; document.body.appendChild(d);
                  await Plotly.newPlot(d, spec.data, spec.layout);
                  const m = d._fullLayout.margin, s = d._fullLayout._size;
                  const r = [s.l - m.l, s.r - m.r, s.t - m.t, s.b - m.b];
                  Plotly.purge(d); d.remove(); return r; }""", [spec, width])
                if max(got) > 0.5:
                    widened.append((name, width, got))
        browser.close()
    assert not widened


# ----------------------------------------------------------------------------------------- the legend's rows
DATA_NAMES = ["dense cluster", "sparse cluster", "q_i (between)", "q_c (sparse centre)"]
MEASURE_NAMES = ["Gaussian kernel (GK)", "linear kernel, normalised (LK)", "Isolation Kernel (IK)", "ℓ0.1 distance",
                 "ℓ0.5 distance", "ℓ2 (Euclidean) distance", "shared nearest neighbours (SNN)",
                 "adaptive Gaussian (AG)", "distance"]


@pytest.mark.parametrize("names, width, font, plotly_rows", [
    (DATA_NAMES, 305, 12, 4), (DATA_NAMES, 450, 12, 2), (DATA_NAMES, 619, 12, 1), (DATA_NAMES, 619, 18, 2),
    (MEASURE_NAMES, 450, 12, 9), (MEASURE_NAMES, 619, 12, 5), (MEASURE_NAMES, 940, 12, 3),
    (MEASURE_NAMES, 940, 18, 5),
])
def test_legend_rows_as_plotly_lays_them_out(names, width, font, plotly_rows):
    """Rows the app's Plotly bundle gave these legends in Chromium (one row where all fit, else equal columns
    as wide as the widest item); the old estimate (0.6 em a character, items packed) said 2 for the first."""
    import plotly.graph_objects as go

    from ikviz.plots.style import _legend_rows

    fig = go.Figure([go.Scatter(x=[0, 1], y=[0, 1], name=n) for n in names])
    assert _legend_rows(fig, width, font) == plotly_rows


def test_dataset_figure_keeps_room_for_its_legend_in_a_third_of_the_page():
    """Curse's data preview, drawn 305 px wide: its four legend items take four rows (bottom drawn 139 px for 82)."""
    rng = np.random.default_rng(1)
    fig = dimp.dataset_figure(rng.random((50, 2)), (rng.random(50) > 0.5).astype(int), 0.5)
    assert fig.layout.margin.b >= 53 + 4 * 19 + 8
