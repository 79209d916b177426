"""Preparing a lecture: every page's default view computed ahead into the store on disk, then served from it."""

import json
import sys
from pathlib import Path

import pytest

APP = Path(__file__).resolve().parents[1] / "app"
sys.path.insert(0, str(APP))
import prepare  # noqa: E402


def test_every_page_of_the_navigation_is_prepared():
    home = (APP / "Home.py").read_text()
    pages = {page for page, query in prepare.views() if not query}
    assert pages, "no page found"
    for page in pages:
        assert f'url_path="{page}"' in home, f"{page} is not a page of Home.py's navigation"
    assert home.count("st.Page(") == len(pages) + 1  # + Home, which computes nothing


def test_preparing_fills_the_store_and_a_new_server_is_served_from_it(tmp_path, monkeypatch):
    import store

    monkeypatch.setenv("IKVIZ_STORE_DIR", str(tmp_path))
    monkeypatch.setattr(store, "_STORE", None)  # a fresh process's store, on tmp_path
    rows = prepare.prepare(["kernel-shapes"])
    # the default view and the tour steps on that page
    assert {r["page"] for r in rows} == {"kernel-shapes"} and len(rows) >= 2
    assert all(r["problems"] == [] for r in rows)
    assert any(tmp_path.glob("*.pkl"))

    monkeypatch.setattr(store, "_STORE", None)  # "restart": nothing in memory, everything on disk
    again = prepare.prepare(["kernel-shapes"])
    assert all(r["problems"] == [] for r in again) and store.get_store().computed == 0  # nothing computed: all from disk


def test_a_server_prepares_in_the_background_only_when_its_store_lacks_the_views(tmp_path, monkeypatch):
    monkeypatch.setenv("IKVIZ_STORE_DIR", "")
    assert prepare.start_in_background() is None          # memory only (as in these tests): nothing to fill
    monkeypatch.setenv("IKVIZ_STORE_DIR", str(tmp_path))
    monkeypatch.setenv("IKVIZ_PREPARE", "0")
    assert prepare.start_in_background() is None          # switched off
    monkeypatch.setenv("IKVIZ_PREPARE", "1")
    done = [{"page": page, "query": query} for page, query in prepare.views()]
    (tmp_path / prepare.MARKER).write_text(json.dumps(done))
    assert prepare.prepared(tmp_path) and prepare.start_in_background() is None
    (tmp_path / prepare.MARKER).write_text(json.dumps(done[:-1]))  # a view was added since: prepare again
    assert not prepare.prepared(tmp_path)


@pytest.mark.parametrize("marker", ["not json", "[]"])
def test_a_broken_or_stale_marker_means_not_prepared(tmp_path, marker):
    (tmp_path / prepare.MARKER).write_text(marker)
    assert not prepare.prepared(tmp_path)
