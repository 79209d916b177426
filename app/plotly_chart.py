"""The app's Plotly chart: :func:`draw` in place of ``st.plotly_chart``, which every page reaches through figures.py.

A Streamlit component (``app/plotly_chart.js``) that loads ikviz's partial
Plotly bundle (``app/static/plotly-ikviz.min.js``, built by
``app/plotly-bundle``) once per tab and redraws a changed figure in place.
Why: the full Plotly that ``st.plotly_chart`` loads costs every new tab about
0.9 s before its first figure, and Streamlit draws a figure whose spec changed
from nothing, in a new element.
"""

from __future__ import annotations

import base64
from pathlib import Path

import numpy as np
import streamlit as st
from plotly.io.json import to_json_plotly

_COMPONENT = st.components.v2.component(
    "ikviz_plotly_chart", html='<div class="ikviz-plot" data-pending="1"></div>',
    js=(Path(__file__).with_name("plotly_chart.js")).read_text(encoding="utf-8"), isolate_styles=False)


_SPEC = "_ikviz_spec"  # the JSON of a figure that no longer changes (see keep_spec)

#: the widest a figure is drawn (px, a 4K screen): :func:`to_spec` keeps every number within half a pixel of it
WIDEST = 4000


def _narrowed(node: dict) -> dict:
    """``node``, a typed array as plotly.py encodes it (``{"dtype": "f8", "bdata": ...}``), in float32 where
    float32 keeps every value within half a pixel of the widest drawing of the array's span; else ``node``."""
    exact = np.frombuffer(base64.b64decode(node["bdata"]), dtype=np.float64)
    finite = exact[np.isfinite(exact)]
    if not finite.size:
        return node
    span = float(finite.max() - finite.min()) or float(np.abs(finite).max())
    narrow = exact.astype(np.float32)
    with np.errstate(invalid="ignore", over="ignore"):
        error = np.abs(narrow.astype(np.float64) - exact)
    if not np.all((error <= span / (2 * WIDEST)) | (np.isnan(exact) & np.isnan(narrow))):
        return node
    return {**node, "dtype": "f4", "bdata": base64.b64encode(narrow.tobytes()).decode("ascii")}


#: arrays the browser shows as written, not where it draws: float32's 0.087 reads "0.08699999749660492" in a
#: heat map's cells (plotly.js prints a typed array's numbers as they are), so these stay float64
AS_WRITTEN = frozenset({"text", "hovertext", "customdata", "ids"})


def _compact(obj):
    """Every float64 typed array in ``obj`` (a trace, a frame, lists and dicts of them), narrowed in place,
    except those shown as written (:data:`AS_WRITTEN`)."""
    if isinstance(obj, dict):
        for key, value in obj.items():
            if key in AS_WRITTEN:
                continue
            if isinstance(value, dict) and value.get("dtype") == "f8" and "bdata" in value:  # also 2-D ("shape")
                obj[key] = _narrowed(value)
            else:
                _compact(value)
    elif isinstance(obj, list):
        for value in obj:
            _compact(value)
    return obj


def to_spec(fig) -> str:
    """The JSON the browser receives for ``fig``: ``fig.to_json()`` with its float64 arrays sent as float32.

    Float32 keeps a number's first 7 significant digits: every point stays within half a pixel of where the
    exact number puts it at up to :data:`WIDEST` px (an array whose span needs more stays float64). The
    figure itself keeps its exact numbers: exports and the take-home code read them, not this JSON. Half the
    bytes of each array, for each tab that draws it (a t-SNE embedding's 1,000 points: 62 -> 39 kB).
    """
    spec = fig.to_dict()
    _compact(spec.get("data"))
    _compact(spec.get("frames"))
    return to_json_plotly(spec)


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
    spec = fig.__dict__.get(_SPEC) or to_spec(fig)
    data = {"figure": spec, "config": config or {}, "clickable": on_click is not None}
    return _COMPONENT(key=key, data=data, on_click_change=on_click)


def load_early(key: str) -> None:
    """An empty chart under ``key``: the browser starts loading Plotly's code when it reaches it."""
    _COMPONENT(key=key, data=None, height=0)
