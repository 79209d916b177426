"""Projector mode at 1280x720 (issue 32 item 3): a tour step's stacked figure fits under the bar, nothing waits.

The Chromium screenshots of every step (/work/notes/projector/s3/) measure the bar's bottom at 319-322 px on a
720p screen with the step's control beside its text, and the figure's top 32-48 px below it; the browser's fit
(``tour.FIT_SCRIPT``) then gives the figure the rest of the window less 12 px. These tests hold the figures of
the steps that stack rows of panels (ting2018 step 4, the Fig. 2 grid; ting2021 step 2, the 2x2 instability
figure) to that budget, the way the fit lays them out, and open the steps with a secondary study below their
figure (paired runs over seeds, t-SNE's search range) to check that projected, nothing asks for a button.
"""

import re
import sys
from pathlib import Path

import numpy as np
import pytest
from apptest import open_page

from ikviz import tours
from ikviz.experiments.dimensionality import PAPER_EPS, QUERY_LABELS, VISIBLE_EPS
from ikviz.measures.similarities import LABELS
from ikviz.plots import clustering as clustering_plots
from ikviz.plots import density, dimensionality, style
from ikviz.runner import Cancelled

APP = Path(__file__).resolve().parents[1] / "app"
sys.path.insert(0, str(APP))
import figures  # noqa: E402
import store  # noqa: E402
import tour as tour_bar  # noqa: E402

#: 720p: the window, the bar's bottom with the tallest step text (ting2021 step 2), the gap above the figure,
#: the fit's margin below it (px, measured in Chromium)
WINDOW, BAR_BOTTOM, GAP_ABOVE, FIT_MARGIN = 720, 322, 48, 12
BUDGET = WINDOW - BAR_BOTTOM - GAP_ABOVE - FIT_MARGIN
#: the least height of a row of panels that still shows its 18 px ticks apart (a log axis over 3 decades, 5 d's)
ROW_PX = 90


def _needed(fig) -> int:
    """The height a projected figure needs for ROW_PX a row, as the fit lays it out: its margins, the pixels
    between its rows, and no title when the rows would get less than 110 px (the tour's bar names the step)."""
    big = style.projector(fig)
    rows = len({tuple(ax.domain) for ax in big.select_yaxes() if ax.domain})
    gaps = (big.layout.meta or {}).get("ikviz_row_gaps", [])
    assert len(gaps) == rows - 1, "stacked rows carry the pixels between them for the browser's fit"
    top = big.layout.margin.t
    if big.layout.title.text:
        top -= round((big.layout.title.text.count("<br>") + 1) * big.layout.title.font.size * 1.3 + 4)
    return top + big.layout.margin.b + sum(gaps) + rows * ROW_PX


def _grid():
    rng = np.random.default_rng(0)
    methods = ("ik_anne", "ik_inne", "ik_iforest")
    return {"d": [10, 20, 30, 40, 50], "psi": [16, 32, 64, 128, 256],
            "laplacian": {m: rng.uniform(0, 0.14, (5, 5)) for m in methods},
            "rbf": {m: rng.uniform(0, 0.06, (5, 5)) for m in methods}}


def _instability_views():
    ds = (10, 30, 100, 300, 1000)
    return {eps: {"n_points": 2000, "N_eps": {m: {q: {d: 1 + d * k for d in ds} for q in QUERY_LABELS}
                                             for k, m in enumerate(LABELS)}}
            for eps in (PAPER_EPS, VISIBLE_EPS)}


@pytest.mark.parametrize("name,build", [
    ("ting2018 step 4: the Fig. 2 grid", lambda: density.rmse_figure(_grid())),
    ("ting2021 step 2: N_eps at two eps", lambda: dimensionality.neps_by_eps_figure(_instability_views())),
])
def test_a_stacked_tour_figure_fits_under_the_bar_at_720p(name, build):
    fig = build()
    assert _needed(fig) <= BUDGET, f"{name} needs {_needed(fig)} px at 720p, {BUDGET} are left under the bar"
    big = style.projector(fig)
    texts = [a.font.size for a in big.layout.annotations] + [big.layout.legend.font.size]
    assert min(texts) >= 18                                            # readable from the back row


def test_rows_keep_the_pixels_their_titles_and_ticks_need():
    """The subplot titles of a lower row never touch the tick labels of the row above, at any height."""
    from plotly.subplots import make_subplots

    fig = make_subplots(rows=2, cols=2, subplot_titles=["a", "b", "c<br>d", "e"])
    fig.update_xaxes(title_text="x")
    big = style.projector(style.base_layout(fig, "t", height=400))
    gap = big.layout.meta["ikviz_row_gaps"][0]
    assert gap >= 18 * 1.4 + 20 * 1.6 + 2 * 20 * 1.3                      # ticks, axis title, two title lines
    plot = big.layout.height - big.layout.margin.t - big.layout.margin.b
    lower_top = big.layout.yaxis3.domain[1]
    assert round((big.layout.yaxis.domain[0] - lower_top) * plot) == gap
    assert [a.y for a in big.layout.annotations if a.text in ("c<br>d", "e")] == [lower_top, lower_top]


def test_the_fit_script_has_no_markup_inside_its_script():
    """``st.html`` drops a script with markup in its text (a ``<br>`` in a string stopped the whole fit)."""
    for script in (tour_bar.FIT_SCRIPT, tour_bar._KEYS_SCRIPT):
        body = re.fullmatch(r"<script>(.*)</script>", script, re.S).group(1)
        assert "<" not in body.replace("< ", "").replace("<=", ""), "write < in a script as \\u003c"


SECONDARY = {"paired_runs", "run_search"}


@pytest.mark.parametrize("name,i", [("ting2018", 4), ("ting2021", 4)])
def test_a_projected_tour_step_asks_for_nothing_below_its_figure(name, i, monkeypatch):
    """Paired runs over seeds (the SVM step) and t-SNE's search range are the pages' own studies: projected,
    a tour step neither computes them nor draws their button, even when the store holds them."""
    asked = []

    def compute(fn, *args, **kwargs):
        asked.append(fn.__name__)
        raise Cancelled("skipped in this test")

    monkeypatch.setattr(store, "compute", compute)
    monkeypatch.setattr(figures, "held", lambda run, params: True)
    page, query = tours.parse_step(tours.step_url(name, i))
    at = open_page(tour_bar.script(page)[len("views/"):-3], **query)
    assert not SECONDARY & set(asked), asked
    assert not [b.label for b in at.button if not str(b.key).startswith("_tour_")]
    assert not [e.label for e in at.expander if "search range" in e.label]
    assert not [h.value for h in at.subheader if "Paired runs" in h.value]


#: 720p, the opening step (how IK is built): the bar's bottom (its control's label takes two lines), the gap above
#: the figure and the fit's margin below it, measured in Chromium (/work/notes/projector/s4)
BUILD_UP_FIGURE_PX = WINDOW - 368 - 32 - FIT_MARGIN


def test_the_build_up_animation_puts_its_controls_beside_its_plot_at_720p():
    """The animation's play buttons and slider under the plot took ~150 px of the ~300 a 720p window leaves under
    the bar: a ~130 px plot. Projected, they go in a column beside the square plot (``meta.ikviz_beside``, which
    the fit applies), and the plot gets the figure's height less its tick labels."""
    from ikviz.experiments import build_up as exp
    from ikviz.plots import build_up

    big = style.projector(build_up.build_up_figure(exp.run(exp.Params(method="iforest", psi=8, t=2))))
    beside = (big.layout.meta or {}).get("ikviz_beside")
    below = BUILD_UP_FIGURE_PX - 10 - big.layout.margin.b           # the fit drops the title, keeps the margin
    assert beside, f"no layout beside the plot: the controls below it leave a {below} px plot at 720p"
    plot = BUILD_UP_FIGURE_PX - beside["margin.t"] - beside["margin.b"]
    assert plot >= 240 and plot >= 1.5 * below
    column = beside["sliders[0].x"]
    assert beside["xaxis.domain"][1] < column and beside["updatemenus[0].x"] >= column   # beside, not under
    assert beside["sliders[0].len"] <= 1 - column and beside["title.text"] == ""
    assert min(a["font"]["size"] for a in beside["annotations"]) >= 18                # the title, now beside it
    assert big.layout.sliders[0].font.size >= 18 and big.layout.updatemenus[0].font.size >= 18
    assert build_up.BESIDE_KEY == "ikviz_beside" and "ikviz_beside" in tour_bar.FIT_SCRIPT


#: 720p, wang2017 step 3: each of the three panels, a third of the width less the page's padding (px, Chromium)
GROUP_FIGURE_PX, GROUP_PANEL_PX = WINDOW - 368 - 32 - FIT_MARGIN, 363


def test_the_digits_kmeans_step_compares_three_clusterings_each_with_room_at_720p():
    """wang2017 step 3 showed the true classes alone: three panels, each with its ten-class legend (three rows in
    a third of a 1280 px window), left ~60 px plots. Now the step shows k-means on raw, IK and RandLocal features
    side by side, each class named on its points in its colour (no legend), and each plot keeps at least 150 px."""
    from ikviz.experiments import clustering as exp

    step = tours.TOURS["wang2017"].steps[2]
    assert step.page == "clustering" and len(step.figs) == 3
    rng = np.random.default_rng(0)
    y = np.repeat(np.arange(10), 30)
    X2 = rng.normal(size=(300, 2)) + 3 * np.c_[np.cos(y), np.sin(y)]
    ev = exp.Evaluation("kmeans", "ik_iforest", None, labels=y, ami=0.71, nmi=0.72, ami_trials=[0.71])
    fig = clustering_plots.scatter_figure(X2, y, clustering_plots.evaluation_title(ev), axis_titles=("PC 1", "PC 2"))
    big = style.projector(fig)
    legend_rows = style._legend_rows(big, GROUP_PANEL_PX - 40, 18)
    assert legend_rows == 0, f"a {legend_rows}-row legend in each panel"
    named = {a.text: a for a in big.layout.annotations if a.xref in (None, "x")}
    assert set(named) == {f"<b>{c}</b>" for c in range(10)} and min(a.font.size for a in named.values()) >= 18
    for c in range(10):                                            # each name sits on a point of its own class
        a = named[f"<b>{c}</b>"]
        assert ((X2[y == c] - [a.x, a.y]) ** 2).sum(axis=1).min() < 1e-12
    # the fit gives a group's equal-aspect panel the height below the bar; its x-axis title goes in a short window
    plot = GROUP_FIGURE_PX - big.layout.margin.t - (big.layout.margin.b - round(1.6 * 20))
    assert plot >= 150
    assert "margin.l" in tour_bar.FIT_SCRIPT and "scaleanchor" in tour_bar.FIT_SCRIPT


def test_class_names_on_two_crossing_lines_leave_the_crossing():
    """Two lines crossing at the origin (w-Gaussians at w = 1) have the same median: each name goes where its own
    class is alone, not on the crossing where the other class's points lie too."""
    t = np.linspace(-1, 1, 201)
    X2 = np.r_[np.c_[t, 0 * t], np.c_[0 * t, t]]
    y = np.repeat([0, 1], 201)
    spots = clustering_plots.label_spots(X2, y)
    assert abs(spots[0][0]) >= 0.2 and spots[0][1] == 0               # a tenth of the span from the other line
    assert abs(spots[1][1]) >= 0.2 and spots[1][0] == 0
