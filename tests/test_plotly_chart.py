"""The app's Plotly chart (app/plotly_chart.py): the partial bundle it loads holds what ikviz's figures draw."""

import re
import tomllib
from pathlib import Path

import plotly.offline

ROOT = Path(__file__).resolve().parents[1]
APP = ROOT / "app"
BUNDLE = APP / "static" / "plotly-ikviz.min.js"


def _bundled_traces() -> set[str]:
    registered = re.findall(r"require\('plotly\.js/lib/(\w+)'\)", (APP / "plotly-bundle" / "entry.js").read_text())
    return {"scatter", *registered}  # Plotly's core holds scatter


def test_the_bundle_registers_every_trace_type_ikviz_draws():
    used = set()
    for path in (ROOT / "ikviz").rglob("*.py"):
        used |= {name.lower() for name in re.findall(r"\bgo\.([A-Z][a-z0-9]+)\(", path.read_text())}
    used -= {"figure", "frame"}
    used.add("scattergl")  # ikviz.plots.style.scatter_class picks it by name for large point sets
    assert {"scatter", "contour", "heatmap", "bar"} <= used  # the scan found the figures
    missing = used - _bundled_traces()
    assert not missing, f"add {sorted(missing)} to app/plotly-bundle/entry.js and rebuild (its README says how)"


def test_the_bundle_is_served_and_matches_plotly_py():
    js = (APP / "plotly_chart.js").read_text()
    served = re.search(r'const BUNDLE = "app/static/([^"]+)"', js).group(1)
    assert (APP / "static" / served) == BUNDLE and BUNDLE.stat().st_size > 1_000_000
    config = tomllib.loads((ROOT / ".streamlit" / "config.toml").read_text())
    assert config["server"]["enableStaticServing"] is True
    version = re.search(r'\.version="(\d+)\.(\d+)\.(\d+)"', BUNDLE.read_text()).groups()
    # plotly.py writes figures for its own Plotly.js; a new major version may change the JSON they are read from
    assert version[0] == plotly.offline.get_plotlyjs_version().split(".")[0]
    licences = (APP / "static" / "plotly-ikviz.licences.txt").read_text()
    assert "plotly.js@" + ".".join(version) + ": MIT" in licences


def test_the_server_skips_the_full_garbage_collection_after_each_run():
    # 140-155 ms with the GIL held after every rerun of every session (benchmarks/app_rerun.py: the press back
    # to a computed value took 0.05-0.1 s less without it); Python's own collector still runs
    config = tomllib.loads((ROOT / ".streamlit" / "config.toml").read_text())
    assert config["runner"]["postScriptGC"] is False


def test_a_server_that_does_not_serve_the_bundle_says_how_to_start_it(monkeypatch):
    import streamlit as st
    from streamlit.testing.v1 import AppTest

    page = AppTest.from_string(f"import sys; sys.path.insert(0, {str(APP)!r}); import ui; ui.warm_up_plotly()")
    assert not page.run().error
    monkeypatch.setattr(st, "get_option", lambda name, _get=st.get_option: (
        False if name == "server.enableStaticServing" else _get(name)))
    assert "start the app from the ikviz folder" in page.run().error[0].value
