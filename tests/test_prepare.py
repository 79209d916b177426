"""Preparing a lecture: every page's default view and every tour step computed ahead, from their Params alone."""

import json
import re
import sys
from pathlib import Path

import pytest

from ikviz import tours, views
from ikviz.experiments import kernel_shapes
from ikviz.params import field_of_name, nearby

APP = Path(__file__).resolve().parents[1] / "app"
sys.path.insert(0, str(APP))
import prepare  # noqa: E402


def test_every_page_with_views_is_a_page_of_the_navigation_and_prepared_at_its_defaults():
    home = (APP / "Home.py").read_text()
    navigation = set(re.findall(r'url_path="([a-z0-9-]+)"', home))
    assert set(views.PAGES) <= navigation
    assert navigation - set(views.PAGES) <= {"your-data", "claims"}, "a page with a computation is not registered"
    defaults = {item.page for item in prepare.views() if item.params == views.page(item.page).views[0].params()}
    assert defaults == set(views.PAGES)


def test_every_tour_step_of_a_registered_page_is_prepared_with_the_values_one_press_away():
    items = {(item.run, item.params): item for item in prepare.views()}
    for tour in tours.TOURS.values():
        for step in tour.steps:
            run, params = step.run_params()
            if run is None:
                continue
            item = items[(run, params)]
            if step.move and field_of_name(params, step.move):
                assert set(nearby(params, step.move)) <= set(item.near)


def test_one_press_is_the_next_choice_either_way_or_the_value_plus_or_minus_its_step():
    p = kernel_shapes.Params(t=10, n=500, ref_x=1.0)
    assert [q.psi for q in nearby(p, "psi")] == [32, 128]     # choices: either side of 64
    assert [q.t for q in nearby(p, "t")] == [50]              # the first choice: only the next one
    assert [q.ref_x for q in nearby(p, "ref_x")] == [0.95]    # a range at its maximum: only one step down
    assert nearby(p, "seed") == []                            # a number box has no press of its own


def test_preparing_fills_the_store_and_a_new_server_is_served_from_it(tmp_path, monkeypatch):
    import store

    monkeypatch.setenv("IKVIZ_STORE_DIR", str(tmp_path))
    monkeypatch.setattr(store, "_STORE", None)  # a fresh process's store, on tmp_path
    small = [prepare.Item("kernel-shapes", {}, kernel_shapes.run, kernel_shapes.Params(n=200, t=10, grid=11),
                          tuple(nearby(kernel_shapes.Params(n=200, t=10, grid=11), "psi")))]
    monkeypatch.setattr(prepare, "views", lambda: small)
    monkeypatch.setattr(prepare, "checks", lambda: [])
    rows = prepare.prepare(echo=lambda row: None)
    assert [r["problems"] for r in rows] == [[]] and rows[0]["near"] == 2
    monkeypatch.setattr(store, "_STORE", None)  # "restart": nothing in memory, everything on disk
    s = store.get_store()
    for params in (small[0].params, *small[0].near):
        assert s.peek(kernel_shapes.run, params)[0], "a prepared view is served from the disk"


def test_a_server_prepares_in_a_thread_of_its_own_only_when_its_store_lacks_the_views(tmp_path, monkeypatch):
    monkeypatch.setenv("IKVIZ_STORE_DIR", "")
    assert prepare.start_in_background() is None          # memory only (as in these tests): nothing to fill
    monkeypatch.setenv("IKVIZ_STORE_DIR", str(tmp_path))
    monkeypatch.setenv("IKVIZ_PREPARE", "0")
    assert prepare.start_in_background() is None          # switched off
    monkeypatch.setenv("IKVIZ_PREPARE", "1")
    done = prepare._marker()
    (tmp_path / prepare.MARKER).write_text(json.dumps(done))
    assert prepare.prepared(tmp_path) and prepare.start_in_background() is None
    (tmp_path / prepare.MARKER).write_text(json.dumps(done[:-1]))  # a view was added since: prepare again
    assert not prepare.prepared(tmp_path)
    stale = [[page, query, "another version of the code"] for page, query, _ in done]
    (tmp_path / prepare.MARKER).write_text(json.dumps(stale))      # the code changed: prepare again
    assert not prepare.prepared(tmp_path)


@pytest.mark.parametrize("marker", ["not json", "[]"])
def test_a_broken_or_stale_marker_means_not_prepared(tmp_path, marker):
    (tmp_path / prepare.MARKER).write_text(marker)
    assert not prepare.prepared(tmp_path)


def test_a_server_prepares_in_its_low_priority_child_not_in_its_own_process(tmp_path, monkeypatch):
    # no viewer's page shares the server's interpreter lock or CPU priority with the preparation (issue 32: a
    # classroom opening a link while a new server prepares itself): the views are computed by another process
    import store

    monkeypatch.setenv("IKVIZ_STORE_DIR", str(tmp_path))
    monkeypatch.setattr(store, "_STORE", None)
    small = [prepare.Item("kernel-shapes", {}, kernel_shapes.run, kernel_shapes.Params(n=200, t=10, grid=11), ())]
    monkeypatch.setattr(prepare, "views", lambda: small)
    monkeypatch.setattr(prepare, "checks", lambda: [])
    s = store.get_store()
    try:
        rows = prepare.prepare(background=True, echo=lambda row: None)
        assert [r["problems"] for r in rows] == [[]]
        assert s.computed == 0, "computed in the server's process"
        assert s.peek(kernel_shapes.run, small[0].params)[0], "the child's result is on the shared disk"
    finally:
        if s._offload is not None:
            s._offload.close()


def test_the_claims_table_is_prepared_under_the_key_the_claims_page_reads(tmp_path, monkeypatch):
    # a prepared server draws every claim's row at once instead of starting 29 checks on the first visit
    import claims_table
    import store
    from ikviz import claims

    assert [item.params for item in prepare.checks()] == list(claims.reproductions())
    monkeypatch.setenv("IKVIZ_STORE_DIR", str(tmp_path))
    monkeypatch.setenv(claims.FULL_RESULTS, "")
    monkeypatch.setattr(store, "_STORE", None)
    monkeypatch.setattr(prepare, "views", lambda: [])
    hubness = [item for item in prepare.checks() if item.params == "hubness"]
    monkeypatch.setattr(prepare, "checks", lambda: hubness)
    rows = prepare.prepare(echo=lambda row: None)
    assert [(r["page"], r["query"], r["problems"]) for r in rows] == [
        ("claims", {"reproduction": "hubness", "size": "quick"}, [])]
    monkeypatch.setattr(store, "_STORE", None)  # a new server: from the disk
    held = claims_table.held_rows("hubness")
    assert held is not None and [r.key for r in held] == [c.key for c in claims.claims("hubness")]
    assert claims_table.held_rows("kernel-shapes") is None   # not prepared: the page computes it
