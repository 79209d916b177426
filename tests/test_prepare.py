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
    import subprocess

    import store

    started = []
    popen = subprocess.Popen
    monkeypatch.setattr(subprocess, "Popen", lambda args, *a, **k: started.append(args) or popen(args, *a, **k))
    monkeypatch.setenv("IKVIZ_STORE_DIR", str(tmp_path))
    monkeypatch.delenv("IKVIZ_PREPARE", raising=False)
    monkeypatch.setattr(store, "_STORE", None)  # a fresh process's store, on tmp_path
    rows = prepare.prepare(["kernel-shapes"])
    # the default view and the tour steps on that page
    assert {r["page"] for r in rows} == {"kernel-shapes"} and len(rows) >= 2
    assert all(r["problems"] == [] for r in rows)
    assert any(tmp_path.glob("*.pkl"))
    # ting2018's step on this page asks the lecturer to move ψ (16): one press either way is prepared too
    step = next(r for r in rows if r["query"].get("tour") == "ting2018")
    assert step["query"]["psi"] == "16" and [n["psi"] for n in step["next"]] == ["8", "32"]
    assert all("next" not in r for r in rows if "tour" not in r["query"])  # a default view has no step control

    monkeypatch.setattr(store, "_STORE", None)  # "restart": nothing in memory, everything on disk
    computed = []
    call_block = store.call_block
    monkeypatch.setattr(store, "call_block", lambda fn, *a: computed.append(fn.__name__) or call_block(fn, *a))
    again = prepare.prepare(["kernel-shapes"])
    # nothing computed, all from disk; only the figures are built again (figures.built: quicker than unpickled)
    assert all(r["problems"] == [] for r in again) and computed and set(computed) == {"_with_spec"}
    # the app it opens does not start a preparation of its own in the background (it did, once per test run)
    assert not [args for args in started if "prepare.py" in " ".join(map(str, args))]


def test_one_press_is_the_next_option_either_way_or_the_value_plus_or_minus_its_step():
    at, _ = prepare._open("kernel-shapes", {"t": "10", "n": "500", "ref_x": "1.0"}, 600)
    assert prepare.one_press(at, "psi") == ["32", "128"]   # a select slider: the options either side of 64
    assert prepare.one_press(at, "t") == ["50"]            # the first option: only the next one
    assert prepare.one_press(at, "ref_x") == ["0.95"]      # a slider at its maximum: only one step down
    assert prepare.one_press(at, "seed") == []             # a number box has no press of its own
    assert prepare.one_press(at, "no_such_control") == []
    # an option shown with a mark (t-SNE's w: "5,000 ★") goes into the link as its number
    assert [prepare._url_value(x) for x in ("5,000 ★", "0.05", "german")] == ["5000", "0.05", "german"]


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
