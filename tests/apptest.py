"""Open a page of the app headless with Streamlit's AppTest (shared by the page tests)."""

import json
from pathlib import Path
from typing import NamedTuple

from streamlit.testing.v1 import AppTest

HOME = str(Path(__file__).resolve().parents[1] / "app" / "Home.py")


def open_page(page: str | None = None, *, session: dict | None = None, timeout: int = 300, **query) -> AppTest:
    """Run the app with ``query`` as URL parameters, switch to ``views/<page>.py``, check for exceptions.

    ``session`` values are put into session state before switching (e.g. an
    uploaded file's bytes). The generous timeout covers loading numba's
    compiled kernels on a first run.
    """
    at = AppTest.from_file(HOME, default_timeout=timeout)
    for key, value in query.items():
        at.query_params[key] = value
    at.run()
    for key, value in (session or {}).items():
        at.session_state[key] = value
    if page:
        at.switch_page(f"views/{page}.py")
        at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


class Chart(NamedTuple):
    """One figure of a page as app/plotly_chart.py sent it: element id, Plotly JSON, Plotly config, clickable."""

    id: str
    spec: str
    config: dict
    clickable: bool


def charts(at: AppTest) -> list[Chart]:
    """The page's Plotly charts, without the hidden one that makes the browser load Plotly early (ui.py)."""
    sent = [(c.proto.id, json.loads(c.proto.json or "null")) for c in at.get("bidi_component")
            if c.proto.component_name == "ikviz_plotly_chart"]
    return [Chart(id_, data["figure"], data["config"], data["clickable"]) for id_, data in sent if data]
