"""Open a page of the app headless with Streamlit's AppTest (shared by the page tests)."""

import json
import re
from pathlib import Path
from typing import NamedTuple

import pandas as pd
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


def charts(at: AppTest, *, multiples: bool = False) -> list[Chart]:
    """The page's Plotly charts, without the hidden one that makes the browser load Plotly early (ui.py), and
    without the small multiples over values computed before (they depend on what earlier tests computed in
    this process) unless ``multiples``."""
    sent = [(c.proto.id, json.loads(c.proto.json or "null")) for c in at.get("bidi_component")
            if c.proto.component_name == "ikviz_plotly_chart"]
    return [Chart(id_, data["figure"], data["config"], data["clickable"]) for id_, data in sent
            if data and (multiples or "chart_over_" not in id_)]


def _cell(text: str):
    text = re.sub(r"\\(.)", r"\1", text.strip())
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def read_table(markdown: str) -> pd.DataFrame | None:
    """A Markdown table as app/ui.py's ``markdown_table`` writes it, read back (None if ``markdown`` is none)."""
    lines = markdown.splitlines()
    if len(lines) < 2 or not re.fullmatch(r"\|(-{3}:?\|)+", lines[1]):
        return None
    rows = [[_cell(c) for c in re.split(r"(?<!\\)\|", line)[1:-1]] for line in lines]
    return pd.DataFrame(rows[2:], columns=rows[0])


def tables(at: AppTest) -> list[pd.DataFrame]:
    """The page's result tables (app/ui.py's ``table``, Markdown) read back, numbers as numbers ("–" stays a string)."""
    return [t for t in (read_table(m.value) for m in at.markdown) if t is not None]
