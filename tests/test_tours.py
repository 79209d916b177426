"""Guided tours: every step opens a real page with values it accepts; the bar; the "how IK is built" page."""

import re
import sys
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from apptest import charts, open_page

from ikviz import IsolationKernel, claims, tours
from ikviz.experiments import build_up, kernel_shapes
from ikviz.params import to_url
from ikviz.runner import Cancelled

APP = Path(__file__).resolve().parents[1] / "app"
sys.path.insert(0, str(APP))
import figures
import store
import tour as tour_bar
import ui

STEPS = [(name, i) for name, t in tours.TOURS.items() for i in range(len(t.steps))]
FULL_RUN = kernel_shapes.run


def _pages() -> set[str]:
    return set(re.findall(r'url_path="([a-z0-9-]+)"', (APP / "Home.py").read_text()))


def _widget_text(value) -> str:
    return to_url(value)


def test_the_tours_of_the_four_papers():
    assert set(tours.TOURS) == {"ting2018", "ting2021", "lu2016", "wang2017"}
    for name, t in tours.TOURS.items():
        assert t.name == name and t.paper in {c.paper for c in claims.CLAIMS}
        assert t.steps[0].page == "how-ik-is-built", f"{name} must open with how IK is built"
        assert len(t.steps) >= 2


@pytest.mark.parametrize("name,i", STEPS)
def test_every_step_names_a_page_a_claim_and_its_control(name, i):
    step = tours.TOURS[name].steps[i]
    assert step.page in _pages() and (APP / tour_bar.script(step.page)).is_file()
    assert step.title and 2 <= step.text.count(". ") + 1 <= 3, (step.text, "2–3 sentences to say")
    assert (step.move is None) == (step.control is None), "the control to move has a link key"
    if step.claim is not None:
        claim = next(c for c in claims.CLAIMS if c.key == step.claim)
        assert claim.paper == tours.TOURS[name].paper and step.published
    assert all(isinstance(v, str) for v in step.params.values()), "URL values are strings"


@pytest.mark.parametrize("name,i", STEPS)
def test_step_url_round_trips(name, i):
    step = tours.TOURS[name].steps[i]
    url = tours.step_url(name, i)
    assert not url.startswith("/") and url.split("?")[0] == step.page
    page, query = tours.parse_step(url)
    assert page == step.page
    assert query == {**step.params, "tour": name, "step": str(i), ui.PRESENT_KEY: "1"}
    found, j = tours.find_step(query)
    assert (found.name, j) == (name, i)
    assert ui.PRESENT_KEY not in tours.parse_step(tours.step_url(name, i, present=False))[1]


def test_step_url_refuses_a_missing_step_and_find_step_ignores_bad_links():
    with pytest.raises(ValueError):
        tours.step_url("ting2018", 99)
    for query in ({}, {"tour": "nope", "step": "0"}, {"tour": "ting2018", "step": "x"},
                  {"tour": "ting2018", "step": "-1"}):
        assert tours.find_step(query) is None


@pytest.mark.parametrize("name,i", STEPS)
def test_every_step_is_valid_for_its_page(name, i, monkeypatch):
    """The page reads each value of the step as given: no correction notice, no exception.

    The computations are skipped (a viewer's Cancel): this checks the controls, fast.
    """
    def cancelled(fn, *args, **kwargs):
        raise Cancelled("skipped in this test")

    monkeypatch.setattr(store, "compute", cancelled)
    step = tours.TOURS[name].steps[i]
    page, query = tours.parse_step(tours.step_url(name, i, present=False))
    at = open_page(tour_bar.script(page)[len("views/"):-3], **query)
    notices = " ".join(w.value for w in at.warning)
    assert "could not be used as given" not in notices, notices
    for key, value in step.params.items():
        if key == figures.GROUP_KEY:  # the figures a step compares, side by side: presentation mode's alone
            continue
        if key == figures.SLIDE_KEY:  # which figure presentation mode shows: read in presentation mode alone
            shown = open_page(tour_bar.script(page)[len("views/"):-3], **query, present="1")
            assert "could not be used as given" not in " ".join(w.value for w in shown.warning)
            assert shown.session_state[f"_w_{key}"] == int(value)
            continue
        scoped = f"{at.session_state[ui._SCOPE_KEY]}:{key}"  # every setting's value, drawn or not
        assert scoped in at.session_state, f"{page} has no setting {key!r}"
        assert _widget_text(at.session_state[scoped]) == value, (key, at.session_state[scoped])


@pytest.mark.parametrize("name,i", STEPS)
def test_a_step_of_a_registered_page_is_its_view_run_exactly(name, i):
    """The step's settings are fields of its view's Params, and its link reads back as the same params."""
    from ikviz.params import from_query

    step = tours.TOURS[name].steps[i]
    view = step.view()
    if view is None:
        pytest.skip(f"{step.page} is not in ikviz.views")
    run, params = step.run_params()
    assert run is view.run and params == view.params(**step.settings)
    back, notes = from_query(view.params, tours.parse_step(tours.step_url(name, i))[1])
    assert back == params and not notes


# ------------------------------------------------------------------ how IK is built
@pytest.mark.parametrize("method", list(build_up.METHODS))
def test_the_last_frame_is_the_kernel_similarity(method):
    p = build_up.Params(dataset="four-quadrants", psi=16, t=12, method=method, ref_x=0.3, ref_y=-0.4,
                        grid=21, seed=7)
    r = build_up.run(p)
    X, _ = build_up.load_data(p.dataset, p.seed)
    ik = IsolationKernel(psi=16, t=12, method=method, random_state=7).fit(X)
    expected = ik.similarity(build_up.grid_points(21), np.array([[0.3, -0.4]]))[:, 0].reshape(21, 21)
    assert r.running.shape == (12, 21, 21) and len(r.partitions) == 12
    np.testing.assert_array_equal(r.running[-1], expected)
    assert np.all(np.isin(r.running[0], (0.0, 1.0))), "one partitioning: in the reference's cell or not"


@pytest.mark.parametrize("dataset", list(build_up.DATASETS))
def test_every_build_up_data_set_is_2d_in_the_square(dataset):
    X, y = build_up.load_data(dataset, 0)
    assert X.shape[1] == 2 and len(X) == len(y) and X.min() >= -1 and X.max() <= 1


def test_the_animation_has_a_frame_per_partitioning_and_stays_light():
    from ikviz.plots.build_up import build_up_figure

    r = build_up.run(build_up.Params())
    fig = build_up_figure(r)
    assert [f.name for f in fig.frames][:3] == ["ψ points", "cells", "t = 1"]
    assert len(fig.frames) == r.params.t + 2
    assert fig.layout.updatemenus[0].buttons[0].method == "animate"
    assert len(fig.to_json()) < 600_000, "the default animation must stay light for every browser"


def test_how_ik_is_built_renders():
    at = open_page("how_ik_is_built", psi="8", t="5", method="iforest", data="w-gaussians")
    assert not at.error and len(charts(at)) == 1
    assert at.select_slider(key="_w_t").value == 5 and at.radio(key="_w_method").value == "iforest"


# ------------------------------------------------------------------ the bar
def small_kernel_shapes(p, *, memo=None, progress=None):
    small = replace(p, n=min(p.n, 200), psi=min(p.psi, 200), t=min(p.t, 20), grid=11,
                    psi_large=min(p.psi_large, 200), partition=min(p.partition, 19))
    return FULL_RUN(small, memo=memo, progress=progress)


def _links(at) -> list[str]:
    return [e.proto.label for e in at.get("page_link")]


def test_the_bar_shows_the_step_its_links_and_pins_its_control(monkeypatch):
    monkeypatch.setattr(kernel_shapes, "run", small_kernel_shapes)
    _page, query = tours.parse_step(tours.step_url("ting2018", 1))
    at = open_page("kernel_shapes", **query)
    text = " ".join(m.value for m in at.markdown)
    assert "step 2 of 5" in text and tours.TOURS["ting2018"].steps[1].title in text
    assert "Fig. 3" in text                                            # the paper's number
    links = _links(at)
    assert "Previous" in links and "Next" in links and "Leave the tour" in links
    assert all(t.title in links for t in tours.TOURS.values())        # the sidebar's guided tours
    # presentation mode: every control hidden but the step's own
    assert at.toggle(key="_w_present").value is True
    assert [s.key for s in at.select_slider] == ["_w_psi"] and len(at.slider) == 0
    at.select_slider(key="_w_psi").set_value(64).run()
    assert not at.exception and at.query_params["psi"] == "64" and at.query_params["tour"] == "ting2018"
    assert any(tours.step_url("ting2018", 1, present=False) in c.value for c in at.code)  # link for the class


def test_a_step_that_compares_kernels_shows_its_group_side_by_side(monkeypatch):
    """ting2018 step 2 says IK is like L_ψ and unlike RBF: projected, it shows those three panels together."""
    from apptest import charts

    monkeypatch.setattr(kernel_shapes, "run", small_kernel_shapes)
    step = tours.TOURS["ting2018"].steps[1]
    assert step.figs and step.params[figures.GROUP_KEY] == ",".join(map(str, step.figs))
    at = open_page("kernel_shapes", **tours.parse_step(tours.step_url("ting2018", 1))[1])
    drawn = [c.id for c in charts(at)]
    assert len(drawn) == len(step.figs) == 3, drawn
    assert not [r for r in at.radio if r.key == "_w_fig"]  # no pager: the step's group is what it shows
    kernels = list(kernel_shapes.KERNELS)
    assert all(any(kernels[i - 1] in d for d in drawn) for i in step.figs)


def test_the_spectral_clustering_step_shows_the_three_clusterings_it_compares():
    """ting2021's last step says GK and AG cut the crossing lines wrongly and IK recovers them: projected, it
    shows those three clusterings side by side (it showed the true classes alone)."""
    from apptest import charts

    last = len(tours.TOURS["ting2021"].steps) - 1
    step = tours.TOURS["ting2021"].steps[last]
    at = open_page("clustering", **tours.parse_step(tours.step_url("ting2021", last))[1])
    drawn = [c.id for c in charts(at)]
    assert len(drawn) == len(step.figs) == 3, drawn
    assert [next(m for m in ("ik_iforest", "gk", "ag") if d.endswith(m)) for d in drawn] == ["ik_iforest", "gk", "ag"]


def test_the_first_and_last_steps_have_no_previous_and_no_next(monkeypatch):
    at = open_page("how_ik_is_built", **tours.parse_step(tours.step_url("wang2017", 0))[1])
    assert "Previous" not in _links(at) and "Next" in _links(at)
    assert [s.key for s in at.select_slider] == ["_w_t"]               # the pinned t, psi hidden

    def cancelled(fn, *args, **kwargs):
        raise Cancelled("skipped in this test")

    monkeypatch.setattr(store, "compute", cancelled)
    last = len(tours.TOURS["wang2017"].steps) - 1
    page, query = tours.parse_step(tours.step_url("wang2017", last))
    at = open_page(tour_bar.script(page)[len("views/"):-3], **query)
    assert "Previous" in _links(at) and "Next" not in _links(at)
    assert f"step {last + 1} of {last + 1}" in " ".join(m.value for m in at.markdown)


def test_a_step_link_wins_over_values_the_session_set_before(monkeypatch):
    monkeypatch.setattr(kernel_shapes, "run", small_kernel_shapes)
    at = open_page("kernel_shapes", psi="256")
    assert at.select_slider(key="_w_psi").value == 256
    for key, value in tours.parse_step(tours.step_url("ting2018", 1, present=False))[1].items():
        at.query_params[key] = value
    at.run()
    assert not at.exception and at.select_slider(key="_w_psi").value == 16


def test_no_tour_no_bar_nothing_pinned():
    at = open_page("how_ik_is_built")
    assert "Previous" not in _links(at) and tour_bar.PINNED_KEY not in at.session_state
    assert "step 1 of" not in " ".join(m.value for m in at.markdown)


def test_live_number_comes_from_the_checked_claims(monkeypatch):
    step = tours.TOURS["ting2021"].steps[2]
    assert step.claim == "ting2021-appE"
    row = claims.rows_for({"experiment": "hubness", "quick": True,
                           "skewness": {"gk": {"3": 0.3, "100": 2.5}, "ik": {"3": 0.2, "100": 0.8}}})[0]

    class Peek:
        def peek(self, fn, name, quick):
            return (quick and name == "hubness"), [row]

    monkeypatch.setattr(store, "get_store", lambda: Peek())
    assert tour_bar.live_number(step) is row
    assert tour_bar.live_number(tours.TOURS["ting2021"].steps[0]) is None
