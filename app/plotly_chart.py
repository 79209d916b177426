"""The app's Plotly chart: :func:`draw` in place of ``st.plotly_chart``, which every page reaches through figures.py.

A Streamlit component (``app/plotly_chart.js``) that loads ikviz's partial
Plotly bundle (``app/static/plotly-ikviz.min.js``, built by
``app/plotly-bundle``) once per tab and redraws a changed figure in place.
Why: the full Plotly that ``st.plotly_chart`` loads costs every new tab about
0.9 s before its first figure, and Streamlit draws a figure whose spec changed
from nothing, in a new element.
"""

from __future__ import annotations

from pathlib import Path

import streamlit as st

_COMPONENT = st.components.v2.component(
    "ikviz_plotly_chart", html='<div class="ikviz-plot" data-pending="1"></div>',
    js=(Path(__file__).with_name("plotly_chart.js")).read_text(encoding="utf-8"), isolate_styles=False)


_SPEC = "_ikviz_spec"  # the JSON of a figure that no longer changes (see keep_spec)


def keep_spec(fig, spec: str) -> None:
    """Send ``spec``, ``fig``'s JSON, whenever ``fig`` is drawn: a figure shared and drawn again and again
    is serialised once. ``fig`` must not change afterwards."""
    setattr(fig, _SPEC, spec)


def draw(fig, *, key: str, config: dict | None = None, on_click=None):
    """Draw Plotly figure ``fig`` at the page's full width under ``key``.

    ``on_click`` (no arguments), if given, is called when the viewer clicks a
    point of the figure; ``st.session_state[key]["click"]`` then holds its
    ``{"x": ..., "y": ...}``.
    """
    spec = fig.__dict__.get(_SPEC) or fig.to_json()
    data = {"figure": spec, "config": config or {}, "clickable": on_click is not None}
    return _COMPONENT(key=key, data=data, on_click_change=on_click)


def load_early(key: str) -> None:
    """An empty chart under ``key``: the browser starts loading Plotly's code when it reaches it."""
    _COMPONENT(key=key, data=None, height=0)
