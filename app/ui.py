"""Shared Streamlit helpers: controls that live in the URL, presentation mode, error boxes.

Every control keeps its value in ``st.session_state[key]`` (which survives
while the widget is hidden) and mirrors it into ``st.query_params[key]``, so
a shared link opens exactly the same view.
"""

from __future__ import annotations

import math
import numbers
import re
from contextlib import contextmanager

import streamlit as st

from ikviz.runner import Cancelled

PRESENT_KEY = "present"
_SCOPE_KEY = "_page_scope"
_NOTICES_KEY = "_link_notices"  # this run's corrections of link values, as text
_NOTICE_SLOT_KEY = "_link_notice_slot"  # where page_header shows them, under the title
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
                _note(f"`{url_key}={given}` → `{url_key}={_to_url(state[key])}` ({problem})")
    if always or not presenting() or st.session_state.get(PINNED_KEY) == url_key:
        # widget keys need not be scoped: widgets of other pages are never drawn in the same run
        widget_key = f"_w_{url_key}"
        state[widget_key] = state[key]

        def sync():
            state[key] = state[widget_key]

        widget(label, key=widget_key, on_change=sync, **kwargs)
    st.query_params[url_key] = _to_url(state[key])
    return state[key]


def _note(text: str) -> None:
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


#: the key of the hidden chart that starts the browser's Plotly code early (tests leave it out of their counts)
WARM_UP_KEY = "ikviz-plotly-warm-up"


def warm_up_plotly() -> None:
    """An empty chart, off screen, first on every page with figures: the browser fetches and compiles Plotly's
    code (a 4.7 MB chunk, about a second) while the page still computes, not after its first figure arrives.
    On a page without figures it would only cost that second (the Claims page: 1.6 s to complete without
    it, 2.2–3.1 s with it)."""
    import plotly.graph_objects as go

    st.html(f"<style>.st-key-{WARM_UP_KEY} {{position: absolute; left: -10000px; width: 50px; height: 50px;"
            " overflow: hidden}</style>")
    with st.container(key=WARM_UP_KEY):
        st.plotly_chart(go.Figure(layout={"height": 50, "width": 50}), key=f"{WARM_UP_KEY}-chart",
                        config={"staticPlot": True}, width="content")


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
    if presenting():
        _start_slides()
    else:
        st.query_params.pop(SLIDE_KEY, None)  # one figure at a time is presentation mode's alone
        st.markdown(intro)


# ------------------------------------------------------------------ presentation mode: one figure at a time
#: URL key of the figure presentation mode shows (1-based, in the page's order)
SLIDE_KEY = "fig"
_SLIDES_KEY = "_slides"  # this run's slides: the pager's slot, the figures' titles, the chosen one
#: a page has fewer figures than this; a link's larger value is clamped to it, then to the page's last
MAX_SLIDES = 20


class _Slides:
    """This run's figures in presentation mode: which one to draw, and the pager that picks it."""

    def __init__(self):
        self.slot = st.empty()  # the pager, under the title: drawn once the page has counted its figures
        self.titles: list[str] = []
        self.pager = None  # the deferred widget call of ui.control: (label, key, on_change)
        self.last = None  # how to draw the last figure, if the link asked for one beyond it
        self.shown = False  # whether the latest figure was the chosen one
        self.chosen = control(self._defer, "Figure", SLIDE_KEY, 1, always=True, min_value=1, max_value=MAX_SLIDES)

    def _defer(self, label, *, key, on_change, **_):
        self.pager = (label, key, on_change)

    def take(self, title: str, draw) -> None:
        """Count one figure of the page; draw it (``draw()``) if it is the chosen one."""
        self.titles.append(title or f"Figure {len(self.titles) + 1}")
        self.shown = len(self.titles) == self.chosen
        if self.shown:
            draw()
        self.last = draw

    def finish(self) -> None:
        """Draw the pager, and the last figure if the link chose one beyond it."""
        n = len(self.titles)
        if n == 0:
            return
        with self.slot.container():
            if self.chosen > n:
                _note(f"`{SLIDE_KEY}={self.chosen}` → `{SLIDE_KEY}={n}` (this page has {n} figures)")
                st.session_state[state_key(SLIDE_KEY)] = n
                st.query_params[SLIDE_KEY] = str(n)
                self.last()
            if n > 1:
                label, key, on_change = self.pager
                st.session_state[key] = min(self.chosen, n)
                st.radio(label, options=range(1, n + 1), key=key, on_change=on_change, horizontal=True,
                         format_func=lambda i: f"{i} · {_short(self.titles[i - 1])}",
                         help="Presentation mode shows one figure at a time, as large as the screen allows.")


def _short(title: str, length: int = 40) -> str:
    return title if len(title) <= length else title[:length - 1].rstrip() + "…"


def _start_slides() -> None:
    st.session_state[_SLIDES_KEY] = _Slides()


def finish_page() -> None:
    """After the page's script (Home.py): in presentation mode, the pager over the page's figures."""
    slides = st.session_state.pop(_SLIDES_KEY, None)
    if slides is not None and presenting():
        slides.finish()


def figure_shown() -> bool:
    """Whether the latest :func:`figure` was drawn: always, but in presentation mode, where only the
    chosen one is (for what belongs to a figure alone, such as the scores under it)."""
    slides = st.session_state.get(_SLIDES_KEY) if presenting() else None
    return slides is None or slides.shown


def figure_columns(spec) -> list:
    """``st.columns(spec)`` for a grid of figures; in presentation mode one full-width place for all of
    them, since :func:`figure` then draws one figure at a time."""
    if presenting():
        return [st.container()] * (spec if isinstance(spec, int) else len(spec))
    return st.columns(spec)


# ------------------------------------------------------------------ figures, with their numbers and code
def _projector(fig):
    """``fig`` enlarged for a projector (see :func:`ikviz.plots.style.projector`)."""
    from ikviz.plots.style import projector

    return projector(fig)


def _snippet(source) -> str | None:
    """The Python snippet of ``source``: ``(fn, params)`` or ``(fn, args, kwargs)``; None if it cannot be written."""
    from ikviz.export import python_snippet

    fn, *rest = source
    if len(rest) == 2 and isinstance(rest[0], tuple) and isinstance(rest[1], dict):
        args, kwargs = rest
    else:
        args, kwargs = tuple(rest), {}
    try:
        return python_snippet(fn, *args, **kwargs)
    except TypeError:  # a function or an argument with no importable name: no snippet rather than an error
        return None


def figure(fig, key: str, *, source=None, **kwargs):
    """Draw Plotly figure ``fig`` full width and, under it, an **Export** menu with its numbers and code.

    The menu offers the numbers the figure draws as CSV and JSON (built only
    when a button is clicked, see :mod:`ikviz.export`) and, when ``source``
    is given, a Python snippet that recomputes the result outside the app:
    ``source=(run, params)`` for ``store.compute(run, params)``, or
    ``(fn, args, kwargs)`` for ``store.compute(fn, *args, **kwargs)``.
    In presentation mode the page shows one figure at a time, enlarged for
    projectors, with no menu; a pager under the title picks the figure
    (``?fig=N`` in the link, see :func:`finish_page`).
    Plotly's own toolbar keeps its camera button for a PNG.
    ``kwargs`` go to ``st.plotly_chart`` (``on_select``, ``selection_mode``,
    ``config``...); returns what it returns (the selection of a clickable chart).
    """
    config = {"displaylogo": False,
              "toImageButtonOptions": {"filename": _file_stem(key), "scale": 2},
              **(kwargs.pop("config", None) or {})}
    slides = st.session_state.get(_SLIDES_KEY) if presenting() else None
    if slides is None:
        state = st.plotly_chart(fig, key=key, width="stretch", config=config, **kwargs)
        _export_menu(fig, key, source)
        return state
    from ikviz.export import figure_title

    drawn = {}

    def draw():
        drawn["state"] = st.plotly_chart(_projector(fig), key=key, width="stretch", config=config, **kwargs)

    slides.take(figure_title(fig), draw)
    return drawn.get("state")


def _file_stem(key: str) -> str:
    """A download's file name without extension: the page and the chart, e.g. ``kernel-shapes-chart_rbf``."""
    scope = st.session_state.get(_SCOPE_KEY, "")
    return re.sub(r"[^A-Za-z0-9_.-]+", "-", f"{scope}-{key}" if scope else key).strip("-")


def _result_download(fn, params, *, key: str, stem: str) -> None:
    """A download of the view's whole result as ``ikviz reproduce`` writes it, when ``fn`` is a registered run."""
    from ikviz import reproduce

    if reproduce.entry_for(fn) is None:
        return

    def numbers() -> str:
        import json

        import store  # here, not at the top: store draws through this module

        # the view's own result: held by the store (computed again only if it was evicted meanwhile)
        result = store.get_store().call(fn, (params,), {})
        return json.dumps(reproduce.numbers_of(fn, params, result), indent=1)

    st.download_button("The whole result (JSON, as `ikviz reproduce` writes it)", data=numbers,
                       file_name=f"{stem}-result.json", mime="application/json", key=f"{key}:result",
                       on_click="ignore", icon=":material/description:")


def _export_menu(fig, key: str, source) -> None:
    from ikviz import export

    stem = _file_stem(key)
    with st.popover("Export", icon=":material/download:", type="tertiary", key=f"{key}:export"):
        st.caption("The numbers this figure draws, one row per point (heatmaps: one row per cell). "
                   "For a picture, use the camera button above the figure.")
        csv, js = st.columns(2)
        # callables: the files are built only when the button is clicked, and clicking reruns nothing
        csv.download_button("CSV", data=lambda: export.figure_csv(fig), file_name=f"{stem}.csv", mime="text/csv",
                            key=f"{key}:csv", on_click="ignore", icon=":material/table:")
        js.download_button("JSON", data=lambda: export.figure_json(fig), file_name=f"{stem}.json",
                           mime="application/json", key=f"{key}:json", on_click="ignore",
                           icon=":material/data_object:")
        if source is not None and len(source) == 2:
            _result_download(*source, key=key, stem=stem)
        if source is not None:
            code = _snippet(source)
            if code is not None:
                st.caption("Recompute it outside the app (after `pip install -e .` in the ikviz folder):")
                st.code(code, language="python")
