"""Everything exportable: a figure's numbers (CSV, JSON), the code behind it, and the pages' Export menus."""

import dataclasses
import json
from dataclasses import replace
from io import StringIO

import apptest
import numpy as np
import pandas as pd
import plotly.graph_objects as go
import pytest

from ikviz.experiments import density, kernel_shapes
from ikviz.export import (
    figure_csv,
    figure_json,
    figure_table,
    figure_title,
    python_snippet,
)
from ikviz.plots import kernel_shapes as shape_plots
from ikviz.plots.style import PROJECTOR_FONTS

FULL_RUN = kernel_shapes.run
TINY = kernel_shapes.Params(n=120, psi=8, t=10, grid=7, partition=2, psi_small=4, psi_large=16, seed=3)


def small_run(p, *, memo=None, progress=None):
    """The kernel-shapes run on little data and a coarse grid (the page tests check layout, not numbers)."""
    small = replace(p, n=min(p.n, 200), psi=min(p.psi, 200), t=min(p.t, 20), grid=11,
                    psi_large=min(p.psi_large, 200), partition=min(p.partition, 19))
    return FULL_RUN(small, memo=memo, progress=progress)


def two_traces():
    return go.Figure([go.Scatter(x=[0.0, 0.5, 1.0], y=[1.0, 0.25, 0.0], name="IK", text=["a", "b", "c"]),
                      go.Bar(x=["sparse", "dense"], y=[0.75, 0.5], name="pairs")],
                     layout={"title": {"text": "similarity<br><sub>two traces</sub>"}})


# ------------------------------------------------------------------ tables
def test_two_trace_figure_gives_exactly_its_points():
    table = figure_table(two_traces())
    assert list(table.columns) == ["trace", "x", "y", "text"]
    rows = [tuple(None if isinstance(v, float) and np.isnan(v) else v for v in row)
            for row in table.itertuples(index=False)]
    assert rows == [("IK", 0.0, 1.0, "a"), ("IK", 0.5, 0.25, "b"), ("IK", 1.0, 0.0, "c"),
                    ("pairs", "sparse", 0.75, None), ("pairs", "dense", 0.5, None)]


def test_heatmap_flattens_to_one_row_per_cell_with_z_at_its_x_and_y():
    x, y = np.array([0.0, 1.0, 2.0, 3.0]), np.array([-1.0, 0.0, 1.0])
    z = np.arange(12, dtype=float).reshape(3, 4)  # z[j, i] is drawn at (x[i], y[j])
    table = figure_table(go.Figure(go.Heatmap(x=x, y=y, z=z, name="K")))
    assert len(table) == x.size * y.size == 12
    assert list(table.columns) == ["trace", "x", "y", "z"]
    for row in table.itertuples(index=False):
        assert row.z == z[list(y).index(row.y), list(x).index(row.x)]


def test_contour_without_axes_uses_indices():
    table = figure_table(go.Figure(go.Contour(z=[[1, 2], [3, 4], [5, 6]])))
    assert len(table) == 6 and table["x"].tolist() == [0, 1] * 3 and table["y"].tolist() == [0, 0, 1, 1, 2, 2]
    assert table["trace"].unique().tolist() == ["trace 0"]


def test_customdata_columns_and_animation_frames():
    fig = go.Figure(go.Scatter(x=[1, 2], y=[3, 4], customdata=[[10, "p"], [20, "q"]], name="emb"),
                    frames=[go.Frame(data=[go.Scatter(x=[5, 6], y=[7, 8])], name="it 25"),
                            go.Frame(data=[go.Scatter(x=[9], y=[0])], name="it 50")])
    table = figure_table(fig)
    assert table["customdata_0"].tolist()[:2] == [10, 20] and table["customdata_1"].tolist()[:2] == ["p", "q"]
    frames = table.dropna(subset=["frame"])
    assert frames["frame"].tolist() == ["it 25", "it 25", "it 50"] and frames["x"].tolist() == [5, 6, 9]
    assert len(table) == 5


def test_a_figure_with_no_data_gives_an_empty_table():
    table = figure_table(go.Figure())
    assert table.empty and list(table.columns) == ["trace", "x", "y"]


def test_csv_reads_back_as_the_table():
    fig = two_traces()
    back = pd.read_csv(StringIO(figure_csv(fig)))
    assert back["trace"].tolist() == ["IK"] * 3 + ["pairs"] * 2
    assert back["y"].tolist() == [1.0, 0.25, 0.0, 0.75, 0.5]
    assert back["text"].isna().tolist() == [False] * 3 + [True] * 2


def test_json_has_the_title_as_text_and_nulls_for_missing_values():
    doc = json.loads(figure_json(two_traces()))
    assert doc["title"] == figure_title(two_traces()) == "similarity two traces"
    assert doc["columns"] == ["trace", "x", "y", "text"]
    assert doc["rows"][3] == {"trace": "pairs", "x": "sparse", "y": 0.75, "text": None}
    assert len(doc["rows"]) == 5


def test_a_real_contour_figure_exports_its_grid():
    result = kernel_shapes.run(TINY)
    fig = shape_plots.contour_figure(result, "rbf", show_cells=True, show_data=True)
    table = figure_table(fig)
    grid = table[table["z"].notna()]
    assert len(grid) >= TINY.grid ** 2  # the similarity surface, one row per grid point
    assert np.isclose(grid["z"].max(), result.surfaces["rbf"].max())


# ------------------------------------------------------------------ the code behind a figure
def same(a, b) -> bool:
    """Deep equality of results: dataclasses, dicts, sequences, arrays (NaN equal to NaN)."""
    if dataclasses.is_dataclass(a):
        return type(a) is type(b) and all(same(getattr(a, f.name), getattr(b, f.name))
                                          for f in dataclasses.fields(a))
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    if isinstance(a, (list, tuple)):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        return np.array_equal(np.asarray(a), np.asarray(b), equal_nan=np.asarray(a).dtype.kind == "f")
    if hasattr(a, "__dict__") and not isinstance(a, type):
        return type(a) is type(b) and same(vars(a), vars(b))
    return a == b or (isinstance(a, float) and np.isnan(a) and np.isnan(b))


def test_snippet_of_a_run_reruns_it_outside_the_app():
    code = python_snippet(kernel_shapes.run, TINY)
    assert code.startswith("from ikviz.experiments.kernel_shapes import run, Params\n")
    assert "    psi_small=4,\n" in code and "result = run(params)" in code
    scope = {}
    exec(compile(code, "<snippet>", "exec"), scope)  # noqa: S102 -- a fresh namespace, as in a script
    assert scope["params"] == TINY
    assert same(scope["result"], kernel_shapes.run(TINY))


def test_snippet_of_a_building_block_with_positional_and_keyword_arguments():
    args = ((200, 100, 100, 50), ((0.0, 0.0), (0.25, 0.25)), ((0.0, 0.0), (-0.25, -0.25)))
    kwargs = {"psi": np.int64(8), "t": 20, "gamma": 1.0, "seed": 1}  # a NumPy number is written as a plain one
    code = python_snippet(density.probe_similarities, *args, **kwargs)
    assert "np.int64" not in code and "psi=8" in code
    scope = {}
    exec(code, scope)  # noqa: S102
    assert scope["result"] == density.probe_similarities(*args, **kwargs)


def test_snippet_refuses_what_it_cannot_import_or_write():
    with pytest.raises(TypeError):
        python_snippet(lambda p: p, 1)
    with pytest.raises(TypeError):
        python_snippet(density.probe_similarities, object())


# ------------------------------------------------------------------ the pages
@pytest.fixture
def small_kernel_shapes(monkeypatch):
    monkeypatch.setattr(kernel_shapes, "run", small_run)


def test_every_figure_has_an_export_menu_with_csv_json_and_code(small_kernel_shapes):
    at = apptest.open_page("kernel_shapes", psi="32")
    charts = apptest.charts(at)
    labels = [b.label for b in at.download_button]
    whole = "The whole result (JSON, as `ikviz reproduce` writes it)"  # kernel_shapes.run is a registered run
    assert len(charts) == 7 and labels == ["CSV", "JSON", whole, ".py script", "Notebook"] * 7
    snippets = [c.value for c in at.code]
    assert len(snippets) == 7 and all("params = Params(" in s and "    psi=32," in s for s in snippets)
    assert "small_run" in snippets[0]  # the function the page really ran (here the small stand-in)


def test_presentation_mode_hides_the_export_menus(small_kernel_shapes):
    at = apptest.open_page("kernel_shapes")
    at.toggle(key="_w_present").set_value(True).run()
    assert not at.exception
    assert len(apptest.charts(at)) == 1 and len(at.download_button) == 0 and len(at.code) == 0


def chart_keys(at) -> list[str]:
    return [c.id.rsplit("-", 1)[-1] for c in apptest.charts(at)]


def test_presentation_mode_shows_one_figure_at_a_time_with_a_pager(small_kernel_shapes):
    at = apptest.open_page("kernel_shapes", present="1")
    pager = at.radio(key="_w_fig")
    assert len(pager.options) == 7 and pager.value == 1 and pager.options[6].startswith("7 · Sharpness")
    assert chart_keys(at) == ["chart_ik_anne"]
    spec = apptest.charts(at)[0].spec.replace(" ", "")
    assert f'"size":{PROJECTOR_FONTS["title"]}' in spec  # drawn at projector size (title font)
    pager.set_value(7).run()
    assert not at.exception and chart_keys(at) == ["chart_sharpness"] and at.query_params["fig"] == "7"
    at.toggle(key="_w_present").set_value(False).run()  # out of presentation mode: every figure, no pager
    assert len(apptest.charts(at)) == 7 and "fig" not in at.query_params
    assert not [r for r in at.radio if r.key == "_w_fig"]


def test_a_link_names_the_figure_and_one_beyond_the_last_is_the_last_with_a_notice(small_kernel_shapes):
    at = apptest.open_page("kernel_shapes", present="1", fig="3")
    assert chart_keys(at) == ["chart_ik_iforest"] and at.radio(key="_w_fig").value == 3
    at = apptest.open_page("kernel_shapes", present="1", fig="12")
    assert chart_keys(at) == ["chart_sharpness"] and at.radio(key="_w_fig").value == 7
    assert any("`fig=12` → `fig=7`" in w.value for w in at.warning) and at.query_params["fig"] == "7"
    at = apptest.open_page(None, present="1", fig="zero")  # said on the page the link opens
    assert any("`fig=zero` → `fig=1`" in w.value for w in at.warning) and at.query_params["fig"] == "1"


def quadrant_text(at) -> bool:
    return any("four quadrants of different density" in m.value for m in at.markdown)


def test_density_quadrant_intro_only_where_the_quadrants_are_shown():
    at = apptest.open_page("density", t="100")
    assert quadrant_text(at)
    at = apptest.open_page("density", t="100", section="Margin vs ψ")
    assert not quadrant_text(at)
    assert len(apptest.charts(at)) == 1 and len(at.download_button) == 4  # CSV, JSON, .py script, notebook


def test_density_margin_hides_the_t_it_does_not_use():
    at = apptest.open_page("density", t="100", section="Margin vs ψ")
    assert "t" not in [s.label for s in at.select_slider]
    assert any(f"t = {density.Params.margin_t}" in c.value for c in at.caption)
    at = apptest.open_page("density", t="100", section="Similarity vs density")
    assert at.select_slider(key="_w_t").value == 100


def test_clustering_note_on_spectral_results_only_under_spectral_clustering():
    def note(at):
        return any("Which IK?" in c.value for c in at.caption)

    at = apptest.open_page("clustering", n_per="50", alg="spectral")
    assert note(at) and not at.error
    at.radio(key="_w_alg").set_value("kmeans").run()
    assert not at.exception and not at.error
    assert not note(at)
    assert len(at.download_button) == 4 * len(apptest.charts(at))  # every figure exports, and goes home


def test_the_whole_result_is_what_ikviz_reproduce_writes():
    import json

    from ikviz import reproduce
    from ikviz.experiments import density, kernel_shapes

    settings = dict(n=300, psi=16, t=20, grid=21, psi_small=8, psi_large=32)
    params = kernel_shapes.Params(**settings)
    result = kernel_shapes.run(params)
    numbers = reproduce.numbers_of(kernel_shapes.run, params, result)
    written = reproduce.payload("kernel-shapes", **settings)  # what `ikviz reproduce kernel-shapes` writes
    assert numbers.pop("seconds") is None and written.pop("seconds") > 0
    assert numbers == written and json.loads(json.dumps(numbers)) == numbers
    assert reproduce.numbers_of(density.probe_similarities, params, result) is None  # not a registered run
    assert reproduce.numbers_of(kernel_shapes.run, density.Params(), result) is None  # parameters of another run


def test_plotly_code_is_loaded_early_on_pages_with_figures_only():
    warm = [c for c in apptest.open_page("claims").get("bidi_component") if "warm-up" in c.proto.id]
    assert not warm
    at = apptest.open_page("density", t="100", section="Margin vs ψ")
    assert [c for c in at.get("bidi_component") if "warm-up" in c.proto.id]


# ------------------------------------------------------------------ CSV injection (issue 31 item 6)
def test_csv_cells_that_a_spreadsheet_would_run_are_quoted_and_numbers_are_not():
    from ikviz.export import csv_cell

    evil = ["=HYPERLINK(\"http://x\",\"y\")", "+1+cmd|' /C calc'!A0", "-2+3", "@SUM(A1:A2)", "\tTAB", "\rCR"]
    fig = go.Figure([go.Bar(x=evil, y=[-1.5, -2, 0.0, 3, -1e-9, 7], name="=evil()", text=["-3", "ok", "a", "b", "c",
                                                                                             "+5e3"]),
                     go.Scatter(x=[-0.25, 1.0], y=[-7, 8], name="-neg", customdata=[["@x", -1], ["y", 2]])])
    text = figure_csv(fig)
    table = pd.read_csv(StringIO(text), keep_default_na=False, dtype=str)
    bars = table[table["trace"] == "'=evil()"]
    assert list(bars["x"]) == ["'" + v for v in evil]
    # numbers, negative ones included, and text that is exactly a number are written unchanged
    assert list(bars["y"]) == ["-1.5", "-2.0", "0.0", "3.0", "-1e-09", "7.0"]
    assert list(bars["text"]) == ["-3", "ok", "a", "b", "c", "+5e3"]
    line = table[table["trace"] == "'-neg"]
    assert list(line["x"]) == ["-0.25", "1.0"] and list(line["y"]) == ["-7.0", "8.0"]
    assert list(line["customdata_0"]) == ["'@x", "y"]
    # no cell of the file starts with a formula character unless it is a number
    cells = [c for row in table.itertuples(index=False) for c in row if c != ""]
    assert all(not c.startswith(("=", "+", "-", "@", "\t", "\r")) or csv_cell(c) == c for c in cells)
    assert csv_cell(-3) == -3 and csv_cell(np.float64(-0.5)) == -0.5 and csv_cell(None) is None
