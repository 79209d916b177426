"""Open a page of the app headless with Streamlit's AppTest (shared by the page tests)."""

from pathlib import Path

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


def charts(at: AppTest) -> list:
    """The page's Plotly charts, without the hidden one that makes the browser load Plotly early (ui.py)."""
    return [c for c in at.get("plotly_chart") if not c.proto.id.endswith("ikviz-plotly-warm-up-chart")]
