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
