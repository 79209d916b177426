"""Shared Streamlit helpers: controls that live in the URL, presentation mode, error boxes.

Every control keeps its value in ``st.session_state[key]`` (which survives
while the widget is hidden) and mirrors it into ``st.query_params[key]``, so
a shared link opens exactly the same view.
"""

from __future__ import annotations

import re
from contextlib import contextmanager

import streamlit as st

PRESENT_KEY = "present"
_SCOPE_KEY = "_page_scope"


def _parse(raw: str, default, options=None, min_value=None, max_value=None):
    """Read a URL value with the type of ``default``; fall back to ``default`` if it does not fit."""
    try:
        if isinstance(default, bool):
            value = raw.lower() in ("1", "true", "yes", "on")
        elif isinstance(default, int):
            value = int(float(raw))
        elif isinstance(default, float):
            value = float(raw)
        else:
            value = raw
    except (TypeError, ValueError):
        return default
    if options is not None:
        # old links spelled data set names with underscores (w_gaussians): one naming scheme now
        match = [o for o in options if str(o) == str(value) or o == value
                 or str(o) == str(value).replace("_", "-")]
        return match[0] if match else default
    if min_value is not None and value < min_value:
        return default
    if max_value is not None and value > max_value:
        return default
    return value


def _to_url(value) -> str:
    if isinstance(value, bool):
        return "1" if value else "0"
    return str(value)


def presenting() -> bool:
    """Whether presentation mode (controls hidden) is on."""
    return bool(st.session_state.get(PRESENT_KEY, False))


def state_key(key: str) -> str:
    """The session-state key of control ``key`` on the current page (pages share one session state)."""
    return f"{st.session_state.get(_SCOPE_KEY, '')}:{key}"


def control(widget, label: str, key: str, default, *, always: bool = False, scoped: bool = True, **kwargs):
    """Render ``widget`` (e.g. ``st.slider``) bound to ``key``, with the value mirrored in the URL.

    ``key`` is the URL parameter; in session state it is scoped to the page
    (see :func:`page_header`) unless ``scoped=False``, so two pages can both
    have a ``psi`` with different ranges. In presentation mode the widget is
    not drawn (unless ``always``) and the last value is kept. ``kwargs`` go to
    the widget (``options``, ``min_value``, ``max_value``, ``step``, ``help``...).
    """
    url_key, key = key, (state_key(key) if scoped else key)
    state = st.session_state
    if key not in state:
        raw = st.query_params.get(url_key)
        state[key] = default if raw is None else _parse(
            raw, default, kwargs.get("options"), kwargs.get("min_value"), kwargs.get("max_value"))
    if always or not presenting():
        # widget keys need not be scoped: widgets of other pages are never drawn in the same run
        widget_key = f"_w_{url_key}"
        state[widget_key] = state[key]

        def sync():
            state[key] = state[widget_key]

        widget(label, key=widget_key, on_change=sync, **kwargs)
    st.query_params[url_key] = _to_url(state[key])
    return state[key]


def set_value(key: str, value) -> None:
    """Change control ``key`` of the current page from code (e.g. a chart click); call from a callback."""
    st.session_state[state_key(key)] = value


@contextmanager
def guarded(what: str):
    """Show a readable error box instead of a traceback if computing ``what`` (e.g. "the contours") fails."""
    try:
        yield
    except ValueError as exc:
        st.error(f"Problem with {what}: {exc}")
    except MemoryError:
        st.error(f"Not enough memory for {what}; try smaller settings.")
    except Exception as exc:  # the app must never show a raw traceback
        st.error(f"Something went wrong with {what} ({type(exc).__name__}: {exc}). "
                 "Try other settings; if it persists, please report it with the page link.")


def page_header(title: str, intro: str) -> None:
    """Title and a one-paragraph explanation (hidden in presentation mode); call first on every page.

    It also sets the page's scope for :func:`control`'s session-state keys.
    """
    st.session_state[_SCOPE_KEY] = re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-")
    st.title(title)
    if not presenting():
        st.markdown(intro)
