"""One number, one place (issue 32 item 2): a claim row, its link, a tour step's box and the page all read one result.

* Every claim's link opens the result its row's number comes from: the page's view at exactly the row's settings
  (the link reads back as the reproduction's params and the view's ``run`` is the reproduction's), or the Claims
  page drawing that reproduction's own figures and rows (``claims?reproduction=NAME&size=...``).
* Opened in the app, the link shows the row's number: the page draws the very result the row was checked on (the
  store holds it from the check), and the row's numbers are among those the page shows.
* Every tour step's box says ikviz's number from the result the page draws (its template filled from it, or its
  claim checked on it), the numbers it says are on the page, and no step shows a notice or waits for a button.

Cheap cases run by default; every claim and every step computed for real are ``slow``.
"""

import json
import re
import sys
from pathlib import Path
from urllib.parse import parse_qsl, urlsplit

import pytest
from apptest import charts, open_page

from ikviz import claims, reproduce, tours, views
from ikviz.params import from_query

APP = Path(__file__).resolve().parents[1] / "app"
sys.path.insert(0, str(APP))
import store  # noqa: E402
import tour as tour_bar  # noqa: E402

from ikviz.experiments.density import run_grid as FULL_GRID  # noqa: E402

CHECKED = [c for c in claims.CLAIMS if c.reproduction]
STEPS = [(name, i) for name, t in tours.TOURS.items() for i in range(len(t.steps))]
#: steps whose view computes in a few seconds: opened for real in the default run (the others are slow)
CHEAP_STEPS = {("ting2018", 1), ("ting2018", 2), ("ting2021", 2), ("ting2021", 5)}
#: reproductions cheap at their quick size: one with a view link (hubness), one drawn on the Claims page
CHEAP_REPRODUCTIONS = {"hubness", "kernel-shapes"}
_NUMBER = re.compile(r"(?<![\w.])[-−]?\d+\.\d+%?|(?<![\w.])\d+%")
_BOX = "**ikviz, these settings:**"


def _params(name: str, quick: bool):
    entry = reproduce.get(name)
    return entry, entry.params(**{**entry.paper, **(entry.quick if quick else {})})


def _page(link: str) -> tuple[str, dict]:
    parts = urlsplit(link)
    return parts.path, dict(parse_qsl(parts.query))


def _script(path: str) -> str:
    return tour_bar.script(path)[len("views/"):-3]


# ------------------------------------------------------------------ every link, without computing
@pytest.mark.parametrize("quick", [True, False], ids=["quick", "full"])
@pytest.mark.parametrize("claim", CHECKED, ids=[c.key for c in CHECKED])
def test_every_claim_links_to_exactly_the_result_its_number_comes_from(claim, quick):
    import dataclasses

    from ikviz.reproduce import to_jsonable

    entry, params = _params(claim.reproduction, quick)
    link = claims.link(claim, to_jsonable(dataclasses.asdict(params)), quick)
    path, query = _page(link)
    if path == "claims":   # the Claims page draws the reproduction itself
        assert query == {claims.REPRODUCTION_KEY: claim.reproduction, claims.SIZE_KEY: "quick" if quick else "full"}
        view = views.view_of(*_page(claim.page)[0:1]) if _page(claim.page)[0] in views.PAGES else None
        section = _page(claim.page)[1].get(views.SECTION_KEY)
        if view is not None and views.view_of(_page(claim.page)[0], section).run is entry.run:
            # a view that computes this reproduction but cannot be told these settings by a link
            back, _ = from_query(view.params, {})
            assert back != params
        return
    view = views.view_of(path, query.get(views.SECTION_KEY))
    assert view.run is entry.run, f"{claim.key}: the page's view is not the computation behind the number"
    back, notes = from_query(view.params, query)
    assert back == params and not notes, f"{claim.key}: the link does not carry the row's settings"


def test_a_link_that_cannot_carry_the_settings_opens_the_reproduction_not_a_nearby_page():
    [fig3] = [c for c in claims.CLAIMS if c.key == "ting2018-fig3"]
    quick = claims.link(fig3, {"n": 1100, "t": 100, "grid": 41}, True)   # grid is not a setting of the page
    assert quick == "claims?reproduction=kernel-shapes&size=quick"
    full = claims.link(fig3, {}, False)
    assert full.startswith("kernel-shapes?") and "grid" not in full


# ------------------------------------------------------------------ what a page shows
def _shown(at) -> str:
    """All the page shows, as text: its text, tables, metrics and figures (their data and labels), without the
    tour bar's own sentences."""
    texts = [m.value for m in at.markdown if _BOX not in m.value and "**Paper:**" not in m.value]
    texts += [c.value for c in at.caption] + [str(m.value) for m in at.metric]
    texts += [df.value.to_json(force_ascii=False) if hasattr(df.value, "to_json") else str(df.value)
              for df in at.dataframe]
    texts += [json.dumps(c.spec, ensure_ascii=False) if not isinstance(c.spec, str) else c.spec for c in charts(at)]
    return " ".join(texts)


def _places(text: str) -> int:
    mantissa = text.split("e")[0]
    return len(mantissa.split(".")[1]) if "." in mantissa else 0


def _on_page(said: str, shown: str) -> list[str]:
    """The numbers of ``said`` (decimals, percentages) that the page does not show: written the same, or the same
    value at the precision of either (a page may round 0.325 to 0.33; one place less at most)."""
    values = [(float(v), _places(v)) for v in re.findall(r"-?\d+\.\d+(?:e-?\d+)?", shown)]
    missing = []
    for token in _NUMBER.findall(said):
        if re.search(rf"(?<![\d.]){re.escape(token)}(?![\d])", shown):
            continue
        text = token.replace("−", "-")
        percent = text.endswith("%")
        value = float(text.rstrip("%")) / (100 if percent else 1)
        places = _places(text.rstrip("%")) + (2 if percent else 0)
        if not any(q >= max(1, places - 1) and abs(round(value, min(places, q)) - round(v, min(places, q))) < 1e-9
                   for v, q in values):
            missing.append(token)
    return missing


# ------------------------------------------------------------------ claim links opened
def _claim_opens(name: str) -> None:
    """Check reproduction ``name`` through the app's store at its quick size (as the Claims page does), open each
    row's link, and find the row's number there, drawn from the same result."""
    s = store.get_store()
    rows = s.call(claims.check_reproduction, (name, True), {})
    entry, params = _params(name, True)
    found, result = s.peek(entry.run, params)
    assert found, "the check keeps the reproduction's result in the store, under the view's own key"
    for row in rows:
        path, query = _page(row.page)
        at = open_page(_script(path), **query)
        assert not at.error, [e.value for e in at.error]
        if path == "claims":
            table = at.dataframe[0].value
            assert list(table["ikviz"]) == [r.ikviz for r in rows] and list(table["verdict"]) == [r.verdict for r in rows]
            assert len(charts(at)) == len(entry.figures(result)), "the reproduction's figures, from its result"
        else:
            page_params, _ = from_query(entry.params, query)
            assert page_params == params
            held, page_result = s.peek(entry.run, page_params)
            assert held and page_result is result, "the page draws the result the row was checked on"
        missing = _on_page(row.ikviz, _shown(at))
        assert not missing, f"{row.key}: {row.ikviz!r}; not on {row.page}: {missing}"


@pytest.mark.parametrize("name", sorted(CHEAP_REPRODUCTIONS))
def test_a_claim_link_shows_the_rows_number(name):
    _claim_opens(name)


@pytest.mark.slow
@pytest.mark.parametrize("name", [n for n in claims.reproductions() if n not in CHEAP_REPRODUCTIONS])
def test_every_claim_link_shows_the_rows_number(name):
    _claim_opens(name)


# ------------------------------------------------------------------ tour steps opened
def _step_opens(name: str, i: int) -> None:
    step = tours.TOURS[name].steps[i]
    page, query = tours.parse_step(tours.step_url(name, i, present=False))   # the whole page, as the class sees it
    at = open_page(_script(page), **query)
    notices = [w.value for w in at.warning] + [n.value for n in at.info]
    assert not [n for n in notices if "could not be used as given" in n], notices
    assert not at.error, [e.value for e in at.error]
    said = [m.value for m in at.markdown if _BOX in m.value]
    run, params = step.run_params()
    found, result = store.get_store().peek(run, params)
    # the step's own view computed on arrival: no "Run it" / "Compute ..." before it (a section further down the
    # page that is not the step's, such as t-SNE's search range, may still ask)
    assert found, f"{name} step {i}: the step's view waits for a button: {[b.label for b in at.button]}"
    expected = step.number(result, params)
    if expected is None:
        assert not said, "a box with a number the step's result does not give"
        return
    assert said == [f"{_BOX} {expected}"], (said, expected)
    missing = _on_page(expected, _shown(at))
    assert not missing, f"{name} step {i}: {expected!r}; the page does not show {missing}"


@pytest.mark.parametrize("name,i", sorted(CHEAP_STEPS))
def test_a_tour_step_says_the_number_its_page_shows(name, i):
    _step_opens(name, i)


@pytest.mark.slow
@pytest.mark.parametrize("name,i", [s for s in STEPS if s not in CHEAP_STEPS])
def test_every_tour_step_says_the_number_its_page_shows(name, i):
    _step_opens(name, i)


def test_no_number_in_a_tour_is_typed():
    """ikviz's numbers come from a run: a step's template holds none, and a decimal in its text is a setting the
    page offers (ε = 0.005 or 0.05) or the paper's own (``published``), never a result."""
    import importlib
    import importlib.util

    from ikviz.params import settings

    for name, i in STEPS:
        step = tours.TOURS[name].steps[i]
        template = re.sub(r"\{[^}]*\}", "", step.says or "")
        assert not re.search(r"\d\.\d", template), (name, i, step.says)
        view = step.view()
        plots = view.run.__module__.replace(".experiments.", ".plots.") if view else None
        display = getattr(importlib.import_module(plots), "Display", None) \
            if plots and importlib.util.find_spec(plots) else None   # display-only settings (ε of a panel)
        specs = [*(settings(view.params) if view else ()), *(settings(display) if display else ())]
        offered = {float(v) for spec in specs for v in (spec.choices or ()) + (spec.default,)
                   if isinstance(v, (int, float))}
        offered |= {float(x) for x in re.findall(r"\d*\.\d+", step.published or "")}
        typed = [x for x in re.findall(r"\d*\.\d+", step.text) if float(x) not in offered]
        assert not typed, (name, i, f"numbers typed into the text: {typed}")


def small_grid(p, *, memo=None, progress=None):
    """density.run_grid on a grid small enough for the default run."""
    from dataclasses import replace

    return FULL_GRID(replace(p, ds=(5, 10), psis=(8, 16), n=60, t=20), memo=memo, progress=progress)


def test_a_heavy_step_computes_on_arrival_instead_of_asking(monkeypatch):
    """ting2018's "IK ≈ L_ψ" step: the grid the density page computes only on request ("Compute the grid") opens
    computed in the tour, its box filled from it (the grid made small here: the behaviour, not the size)."""
    from ikviz.experiments import density

    monkeypatch.setattr(density, "run_grid", small_grid)
    name, i = "ting2018", next(i for i, s in enumerate(tours.TOURS["ting2018"].steps) if s.claim == "ting2018-fig2")
    step = tours.TOURS[name].steps[i]
    page, query = tours.parse_step(tours.step_url(name, i, present=False))
    at = open_page(_script(page), **query)
    run, params = step.run_params()
    assert run is small_grid and store.get_store().peek(run, params)[0], [b.label for b in at.button]
    said = [m.value for m in at.markdown if _BOX in m.value]
    assert said and "RMSE(IK, L_ψ)" in said[0]
    # the same page outside the tour still asks before this heavy grid
    plain = open_page(_script(page), **{**{k: v for k, v in query.items() if k not in ("tour", "step")}, "t": "40"})
    assert any(b.label != "Cancel" for b in plain.button), "outside a tour the grid waits for a click"
