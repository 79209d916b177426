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
from contextlib import contextmanager, nullcontext

import plotly_chart
import streamlit as st

from ikviz import params as settings_of
from ikviz import views
from ikviz.html import literal_markdown
from ikviz.params import Setting, correction, parse, to_url
from ikviz.runner import Cancelled

PRESENT_KEY = "present"
_SCOPE_KEY = "_page_scope"
_NOTICES_KEY = "_link_notices"  # this run's corrections of link values, as text
_NOTICE_SLOT_KEY = "_link_notice_slot"  # where page_header shows them, under the title
_RUN_KEY = "_page_run"  # what lives for one run of the page (see run_state)
_LINK_KEY = "_link_values"  # the URL values of this run's controls, until write_link writes them


#: session state: where a projected tour step draws its one control (set by ``tour.bar``, under the bar)
TOUR_CONTROL_SLOT = "_tour_control_slot"
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
    ``max_value``, ``step``, ``help``...). A page's settings come from its
    ``Params`` through :func:`controls`; this is for the few controls that are
    no experiment's (presentation mode, an upload's columns).
    """
    url_key, key = key, (state_key(key) if scoped else key)
    state = st.session_state
    _read(Setting(url_key, default, label, choices=kwargs.get("options"), low=kwargs.get("min_value"),
                  high=kwargs.get("max_value")), key)
    if always or not presenting() or st.session_state.get(PINNED_KEY) == url_key:
        # widget keys need not be scoped: widgets of other pages are never drawn in the same run
        widget_key = f"_w_{url_key}"
        state[widget_key] = state[key]

        def sync():
            state[key] = state[widget_key]

        # a projected tour step folds the sidebar: its one control is drawn under the tour's bar instead
        pinned = presenting() and st.session_state.get(PINNED_KEY) == url_key
        slot = st.session_state.get(TOUR_CONTROL_SLOT) if pinned else None
        with slot if slot is not None else nullcontext():
            widget(label, key=widget_key, on_change=sync, **kwargs)
    to_link(url_key, to_url(state[key]))
    return state[key]


def section(path: str, label: str = "Show"):
    """The view page ``path`` shows (see :mod:`ikviz.views`): its sections as a choice in the sidebar, kept in
    the link as ``section``; a page of one view draws nothing."""
    page = views.page(path)
    if len(page.views) == 1:
        return page.views[0]
    keys = [v.key for v in page.views]
    with st.sidebar:
        key = control(st.radio, label, views.SECTION_KEY, keys[0], options=keys,
                      format_func=lambda k: page.view(k).title, horizontal=len(keys) <= 3)
    return page.view(key)


def _read(spec: Setting, key: str) -> None:
    """Put setting ``spec``'s value into session state ``key`` on its first run: from the link, corrected (with
    a notice) where the link's value is not one the control accepts, else its default."""
    state = st.session_state
    if key in state:
        return
    raw = st.query_params.get(spec.url)
    if raw is None:
        state[key] = spec.default
        return
    state[key], problem = parse(spec, raw)
    if problem:
        notice(correction(spec.url, raw, state[key], problem))


def _widget(spec: Setting):
    """The Streamlit widget and its arguments for a setting: chosen from its type, choices and range."""
    kwargs = {"help": spec.help} if spec.help else {}
    kind = spec.widget
    if spec.choices is not None:
        kwargs["options"] = list(spec.choices)
        if spec.format is not None:
            kwargs["format_func"] = spec.format
        numeric = all(isinstance(c, numbers.Real) and not isinstance(c, bool) for c in spec.choices)
        kind = kind or ("select_slider" if numeric else "selectbox")
        if kind == "radio" and len(spec.choices) <= 3:
            kwargs["horizontal"] = True
    elif isinstance(spec.default, bool):
        kind = kind or "toggle"
    else:
        kwargs.update({k: v for k, v in (("min_value", spec.low), ("max_value", spec.high), ("step", spec.step))
                       if v is not None})
        bounded = spec.low is not None and spec.high is not None and spec.step is not None
        kind = kind or ("slider" if bounded else "number")
        if kind == "number" and "step" not in kwargs and isinstance(spec.default, int):
            kwargs["step"] = 1
    widget = {"number": st.number_input}.get(kind) or getattr(st, kind)
    return widget, kwargs


def controls(cls, *, show=None, where=None, **fixed):
    """Draw the controls of experiment parameters ``cls`` (see :mod:`ikviz.params`) and return its instance.

    Every setting of ``cls`` is read (from this session, else the link, else
    its default) and written back to the link; ``show`` (field names) limits
    which are drawn, the others keep their value: a page section that does not
    use ``t`` hides it without losing it. Settings that do not apply to the
    values chosen before them (:func:`ikviz.params.hidden`) are neither drawn
    nor linked. ``where`` is the container to draw in
    (the sidebar by default); ``fixed`` sets fields the page decides itself.
    """
    values = dict(fixed)
    groups = {}  # group title -> its expander, made when its first drawn setting comes
    with where if where is not None else st.sidebar:
        for spec in settings_of.settings(cls):
            if spec.name in values or spec.name in settings_of.hidden(cls, values):
                continue
            if show is not None and spec.name not in show:
                values[spec.name] = _value(spec)
                continue
            widget, kwargs = _widget(spec)
            if spec.group and spec.group not in groups:
                groups[spec.group] = st.expander(spec.group)
            box = groups[spec.group] if spec.group else nullcontext()
            with box:
                values[spec.name] = control(widget, spec.label, spec.url, spec.default, **kwargs)
    return cls(**values)


def _value(spec: Setting):
    """A setting's value without drawing its control (see :func:`controls`); still read from and kept in the link."""
    key = state_key(spec.url)
    _read(spec, key)
    to_link(spec.url, to_url(st.session_state[key]))
    return st.session_state[key]


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
        st.error(f"Problem with {what}: {literal_markdown(str(exc))}")  # a message quoting data is shown as written
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
