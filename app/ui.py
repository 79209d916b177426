"""Shared Streamlit helpers: controls that live in the URL, presentation mode, error boxes.

Every control keeps its value in ``st.session_state[key]`` (which survives
while the widget is hidden) and mirrors it into ``st.query_params[key]``, so
a shared link opens exactly the same view. The run's URL values are written
once, at its end (:func:`write_link`).
"""

from __future__ import annotations

import math
import numbers
import re
from contextlib import contextmanager

import plotly_chart
import streamlit as st

from ikviz.runner import Cancelled

PRESENT_KEY = "present"
_SCOPE_KEY = "_page_scope"
_NOTICES_KEY = "_link_notices"  # this run's corrections of link values, as text
_NOTICE_SLOT_KEY = "_link_notice_slot"  # where page_header shows them, under the title
_RUN_KEY = "_page_run"  # what lives for one run of the page (see run_state)
_LINK_KEY = "_link_values"  # the URL values of this run's controls, until write_link writes them
_TRUE, _FALSE = ("1", "true", "yes", "on"), ("0", "false", "no", "off")
# Streamlit's number widgets refuse integers beyond JavaScript's safe range
_JS_SAFE_INT = 2 ** 53 - 1


def _parse(raw: str, default, options=None, min_value=None, max_value=None):
    """Read the URL value ``raw`` as a value the control accepts; never raises.

    Returns ``(value, problem)``. ``problem`` is None when ``raw`` is used as
    given, else a few words on why ``value`` differs (for the notice of
    :func:`control`): a number out of range or not finite is clamped to the
    nearest allowed one, a number that is not an option becomes the nearest
    option, and anything with no sensible nearest value (``nan``, ``banana``)
    becomes ``default``.
    """
    if options is not None:
        return _pick_option(raw, default, list(options))
    if isinstance(default, bool):  # before int: bool is a subclass of int
        word = raw.strip().lower()
        if word in _TRUE or word in _FALSE:
            return word in _TRUE, None
        return default, "not on or off"
    if isinstance(default, (int, float)):
        return _clamp_number(raw, default, min_value, max_value)
    return raw, None


def _number(raw: str) -> float | None:
    """``raw`` as a float (``inf`` and ``nan`` included), or None if it is no number at all."""
    try:
        return float(raw)
    except (TypeError, ValueError):
        return None


def _pick_option(raw: str, default, options: list):
    """The option ``raw`` names, else the nearest numeric option, else ``default`` (see :func:`_parse`)."""
    for option in options:
        # old links spelled data set names with underscores (w_gaussians): one naming scheme now
        if str(option) in (raw, raw.replace("_", "-")):
            return option, None
    x = _number(raw)
    numeric = [o for o in options if isinstance(o, numbers.Real) and not isinstance(o, bool)]
    if x is None or math.isnan(x) or not numeric:
        return default, "not one of the choices"
    for option in numeric:
        if option == x:  # "16.0" or "1.6e1" name the option 16 too
            return option, None
    # clamp first so that inf picks the largest option (every option is infinitely far from it)
    x = min(max(x, min(numeric)), max(numeric))
    return min(numeric, key=lambda o: abs(o - x)), "not one of the choices"


def _clamp_number(raw: str, default, min_value, max_value):
    """``raw`` as a number of ``default``'s type within the bounds (see :func:`_parse`)."""
    x = _number(raw)
    if x is None or math.isnan(x):
        return default, "not a number"
    low = -math.inf if min_value is None else min_value
    high = math.inf if max_value is None else max_value
    if isinstance(default, int):
        low, high = max(low, -_JS_SAFE_INT), min(high, _JS_SAFE_INT)
    clamped = min(max(x, low), high)
    if math.isinf(clamped):  # inf with no bound on its side: nothing near it to use
        return default, "not a finite number"
    value = round(clamped) if isinstance(default, int) else float(clamped)
    if value == x:
        return value, None
    if not math.isfinite(x):
        return value, "not a finite number"
    if clamped != x:
        return value, "out of range"
    return value, "not a whole number"


def _to_url(value) -> str:
    if isinstance(value, bool):
        return "1" if value else "0"
    return str(value)


#: session state: the URL key of the one control a guided tour's step keeps visible in presentation mode
PINNED_KEY = "_pinned"


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
    not drawn (unless ``always``, or ``key`` is the control a guided tour's
    step pins: ``st.session_state[PINNED_KEY]``, see ``tour.py``) and the last
    value is kept. ``kwargs`` go to the widget (``options``, ``min_value``,
    ``max_value``, ``step``, ``help``...).
    """
    url_key, key = key, (state_key(key) if scoped else key)
    state = st.session_state
    if key not in state:
        raw = st.query_params.get(url_key)
        if raw is None:
            state[key] = default
        else:
            state[key], problem = _parse(
                raw, default, kwargs.get("options"), kwargs.get("min_value"), kwargs.get("max_value"))
            if problem:
                given = raw[:40].replace("`", "'")  # a link can hold anything: keep the notice short and plain
                notice(f"`{url_key}={given}` → `{url_key}={_to_url(state[key])}` ({problem})")
    if always or not presenting() or st.session_state.get(PINNED_KEY) == url_key:
        # widget keys need not be scoped: widgets of other pages are never drawn in the same run
        widget_key = f"_w_{url_key}"
        state[widget_key] = state[key]

        def sync():
            state[key] = state[widget_key]

        widget(label, key=widget_key, on_change=sync, **kwargs)
    to_link(url_key, _to_url(state[key]))
    return state[key]


def to_link(url_key: str, value: str) -> None:
    """Put ``url_key=value`` into the link at the end of this run (see :func:`write_link`)."""
    st.session_state.setdefault(_LINK_KEY, {})[url_key] = value


def write_link() -> None:
    """Write the values of this run's :func:`to_link` calls into the URL: once, and only those that changed.

    Call once, when the run ends (Home.py). Why not at each control: every
    change of ``st.query_params`` is a message on which the browser records a
    history entry and re-renders the whole app, even for an unchanged value; a
    page with 16 controls did so 16 times while it opened, and again on every
    rerun.
    """
    values = st.session_state.pop(_LINK_KEY, {})
    changed = {k: v for k, v in values.items() if st.query_params.get(k) != v}
    if changed:
        st.query_params.update(changed)


def stop() -> None:
    """``st.stop()`` for a page that cannot go on: its link gets this run's values first (Streamlit sends
    no message after a stop, so :func:`write_link` at the run's end could not)."""
    write_link()
    st.stop()


def notice(text: str) -> None:
    """Add a correction of a link value to this run's notice (see :func:`page_header`)."""
    st.session_state.setdefault(_NOTICES_KEY, []).append(text)
    _show_notices()


def _show_notices() -> None:
    """Draw all of this run's corrections as one warning in the page's slot (redrawn as more come)."""
    notices = st.session_state.get(_NOTICES_KEY)
    slot = st.session_state.get(_NOTICE_SLOT_KEY)
    if notices and slot is not None:
        slot.warning("Some values in the link could not be used as given:\n\n"
                     + "\n".join(f"- {n}" for n in notices))


def set_value(key: str, value) -> None:
    """Change control ``key`` of the current page from code (e.g. a chart click); call from a callback."""
    st.session_state[state_key(key)] = value


@contextmanager
def guarded(what: str):
    """Show a readable error box instead of a traceback if computing ``what`` (e.g. "the contours") fails."""
    try:
        yield
    except Cancelled:  # the viewer pressed Cancel: store.compute has said so
        pass
    except ValueError as exc:
        st.error(f"Problem with {what}: {exc}")
    except MemoryError:
        st.error(f"Not enough memory for {what}; try smaller settings.")
    except Exception as exc:  # the app must never show a raw traceback
        st.error(f"Something went wrong with {what} ({type(exc).__name__}: {exc}). "
                 "Try other settings; if it persists, please report it with the page link.")


# inline markup within a table cell (block markup such as "- " or "# " is not read there)
_MARKDOWN_SPECIAL = re.compile(r"([\\`*_\[\]<>|$~])")


def _cell(value, fmt: str | None) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "–"
    text = fmt.format(value) if fmt and isinstance(value, numbers.Number) else str(value)
    return _MARKDOWN_SPECIAL.sub(r"\\\1", " ".join(text.split()))


def markdown_table(table, formats: dict[str, str] | None = None) -> str:
    """``table`` (columns ``{name: values}`` or rows ``[{name: value}]``) as a Markdown table.

    Missing values (None, NaN) show as "–"; ``formats`` maps a column to a
    format such as ``"{:.3f}"`` for its numbers; a column of numbers is
    aligned right. Every character Markdown would read as markup is escaped.
    """
    if isinstance(table, list):  # rows
        table = {name: [row.get(name) for row in table] for name in (table[0] if table else {})}
    columns = dict(table)
    if not columns:
        return ""
    formats = formats or {}

    def numeric(values):
        present = [v for v in values if v is not None]
        return bool(present) and all(isinstance(v, numbers.Number) and not isinstance(v, bool) for v in present)

    lines = ["| " + " | ".join(_cell(name, None) for name in columns) + " |",
             "|" + "|".join("---:" if numeric(v) else "---" for v in columns.values()) + "|"]
    for row in zip(*columns.values()):
        lines.append("| " + " | ".join(_cell(v, formats.get(name)) for name, v in zip(columns, row)) + " |")
    return "\n".join(lines)


def table(table, formats: dict[str, str] | None = None) -> None:
    """Show a page's few-row result table (see :func:`markdown_table`) as Markdown, not ``st.dataframe``.

    Why: every new tab that meets a data grid loads its code (about 0.5 MB)
    while the page's other elements wait; Markdown's code is loaded already.
    Data to browse (an upload's preview, the Claims list) keeps ``st.dataframe``.
    """
    st.markdown(markdown_table(table, formats))


#: the key of the hidden chart that starts the browser's Plotly code early (tests leave it out of their counts)
WARM_UP_KEY = "ikviz-plotly-warm-up"


def warm_up_plotly() -> None:
    """An empty chart, off screen, first on every page with figures: the browser fetches and evaluates Plotly's
    code while the page still computes, not after its first figure arrives. A page without figures leaves it
    out (the Claims page)."""
    if not st.get_option("server.enableStaticServing"):
        st.error("This server does not serve the figures' code: start the app from the ikviz folder, "
                 "`streamlit run app/Home.py`, so that its `.streamlit/config.toml` is read.")
    st.html(f"<style>.st-key-{WARM_UP_KEY} {{position: absolute; left: -10000px; width: 50px; height: 50px;"
            " overflow: hidden}</style>")
    with st.container(key=WARM_UP_KEY):
        plotly_chart.load_early(f"{WARM_UP_KEY}-chart")


def page_header(title: str, intro: str, *, figures: bool = True) -> None:
    """Title and a one-paragraph explanation (hidden in presentation mode); call first on every page.

    It also sets the page's scope for :func:`control`'s session-state keys, and
    holds the warning that lists the link values :func:`control` had to correct.
    ``figures=False`` for a page that draws none: Plotly's code is then not loaded.
    """
    state = st.session_state
    state[_SCOPE_KEY] = re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-")
    if figures:
        warm_up_plotly()
    st.title(title)
    # One slot for the corrections of link values (see control). Page controls come after this call;
    # only Home.py's presentation toggle comes before, and it reads the link on a session's first run
    # alone, before any slot exists: keep notices from then, start afresh on every later run.
    if _NOTICE_SLOT_KEY in state:
        state[_NOTICES_KEY] = []
    state[_NOTICE_SLOT_KEY] = st.empty()
    _show_notices()
    state[_RUN_KEY] = {}
    if not presenting():
        st.markdown(intro)


def run_state() -> dict:
    """A dict for this run of the page alone (:func:`page_header` starts a new one on every run)."""
    return st.session_state.setdefault(_RUN_KEY, {})


def page_scope() -> str:
    """The current page's scope (see :func:`state_key`), e.g. ``kernel-shapes``."""
    return st.session_state.get(_SCOPE_KEY, "")
