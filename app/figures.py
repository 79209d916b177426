"""Figures on a page: each with its numbers and code to take home, one at a time in presentation mode.

:func:`figure` draws every figure of every page (through :mod:`plotly_chart`): under the figure an
**Export** menu gives its numbers (CSV, JSON), the view's whole result as
``ikviz reproduce`` writes it and a Python snippet that recomputes it. In
presentation mode a page shows one figure at a time, full width and redrawn
for a projector (:func:`ikviz.plots.style.projector`), with a pager above it
that picks the figure (``?fig=N`` in the link); :func:`grid` lays figures out
side by side outside presentation mode. Pages build their figures through
:func:`built`: once for every session, held by the results store with their JSON.
"""

from __future__ import annotations

import dataclasses
import functools
import re

import plotly_chart
import store
import streamlit as st
import ui

from ikviz import export
from ikviz.plots.style import projector

#: URL key of the figure presentation mode shows (1-based, in the page's order)
SLIDE_KEY = "fig"
#: a page has fewer figures than this; a link's larger value is clamped to it, then to the page's last
MAX_SLIDES = 20


class _Slides:
    """This run's figures in presentation mode: which one to draw, and the pager that picks it."""

    def __init__(self):
        self.slot = st.empty()  # the pager, above the first figure: drawn once the page has counted them
        self.titles: list[str] = []
        self.pager = None  # the deferred widget call of ui.control: (label, key, on_change)
        self.last = None  # how to draw the last figure, if the link asked for one beyond it
        self.shown = False  # whether the latest figure was the chosen one
        self.chosen = ui.control(self._defer, "Figure", SLIDE_KEY, 1, always=True, min_value=1, max_value=MAX_SLIDES)
        self.group = _group()  # the figures a tour step compares (?figs=3,5,6), side by side; () if none
        self.columns = None

    def _draw(self, draw) -> None:
        if not self.group:
            draw()
            return
        if self.columns is None:  # at the group's first figure: one column for each
            self.columns = st.columns(len(self.group))
        with self.columns[self.group.index(len(self.titles))]:
            draw()

    def _defer(self, label, *, key, on_change, **_):
        self.pager = (label, key, on_change)

    def take(self, title: str, draw) -> None:
        """Count one figure of the page; draw it (``draw()``) if it is the chosen one."""
        self.titles.append(title or f"Figure {len(self.titles) + 1}")
        n = len(self.titles)
        self.shown = n in self.group if self.group else n == self.chosen
        if self.shown:
            self._draw(draw)
        self.last = draw

    def finish(self) -> None:
        """Draw the pager, and the last figure if the link chose one beyond it."""
        n = len(self.titles)
        if n == 0 or (self.group and self.columns is not None):  # a step's group: its figures, no pager
            return
        with self.slot.container():
            if self.chosen > n:
                ui.notice(f"`{SLIDE_KEY}={self.chosen}` → `{SLIDE_KEY}={n}` (this page has {n} figures)")
                st.session_state[ui.state_key(SLIDE_KEY)] = n
                ui.to_link(SLIDE_KEY, str(n))  # replaces the value the pager's control put there
                self.last()
            if n > 1:
                label, key, on_change = self.pager
                st.session_state[key] = min(self.chosen, n)
                st.radio(label, options=range(1, n + 1), key=key, on_change=on_change, horizontal=True,
                         format_func=lambda i: f"{i} · {_short(self.titles[i - 1])}",
                         help="Presentation mode shows one figure at a time, as large as the screen allows.")


#: URL key of the figures a tour step compares, drawn side by side in presentation mode (``figs=3,5,6``)
GROUP_KEY = "figs"


def _group() -> tuple[int, ...]:
    """The figure numbers of ``?figs=`` (each at least 1, at most :data:`MAX_SLIDES`, at most 4), or ()."""
    text = st.query_params.get(GROUP_KEY) or ""
    numbers = []
    for part in text.split(","):
        if part.strip().isdigit() and 1 <= int(part) <= MAX_SLIDES and int(part) not in numbers:
            numbers.append(int(part))
    return tuple(numbers[:4]) if len(numbers) > 1 else ()


def _short(title: str, length: int = 40) -> str:
    return title if len(title) <= length else title[:length - 1].rstrip() + "…"


def _slides() -> _Slides | None:
    """This run's slides in presentation mode (made at the page's first figure), else None."""
    if not ui.presenting():
        return None
    run = ui.run_state()
    if "slides" not in run:
        run["slides"] = _Slides()
    return run["slides"]


def finish_page() -> None:
    """After the page's script (Home.py): in presentation mode, the pager over the page's figures; then, if
    the page drew a first look (:func:`view`), the wait for its full view, and the page again with it."""
    slides = _slides()  # made here if the page drew no figure: a link's fig= is still read and checked
    if slides is not None:
        slides.finish()
    else:
        for key in (SLIDE_KEY, GROUP_KEY):  # one figure (or a step's group) at a time is presentation mode's alone
            st.query_params.pop(key, None)
    pending = ui.run_state().pop("pending", None)
    if pending is not None:
        slot, run, params, kwargs = pending
        done = False
        with slot.container(), ui.guarded("the full view"):
            store.compute(run, params, **kwargs)
            done = True
        if done:
            st.rerun()


def shown() -> bool:
    """Whether the latest :func:`figure` was drawn: always, but in presentation mode, where only the
    chosen one is (for what belongs to a figure alone, such as the scores under it)."""
    slides = ui.run_state().get("slides") if ui.presenting() else None
    return slides is None or slides.shown


def grid(spec) -> list:
    """``st.columns(spec)`` for a grid of figures; in presentation mode one full-width place for all of
    them, since :func:`figure` then draws one figure at a time."""
    if ui.presenting():
        return [st.container()] * (spec if isinstance(spec, int) else len(spec))
    return st.columns(spec)


# ------------------------------------------------------------------ one figure, with its numbers and code
def _with_spec(builder, args: tuple, kwargs: dict):
    """What the store holds for :func:`built`: the figure and its JSON (both count towards its memory bound)."""
    fig = builder(*args, **kwargs)
    return fig, plotly_chart.to_spec(fig)


def built(builder, *args, **kwargs):
    """``builder(*args, **kwargs)``, a Plotly figure of a result, built once for every session and rerun.

    The results store holds it in memory (not on disk: a figure takes longer
    to unpickle than to build), with the JSON :func:`plotly_chart.draw`
    sends, so that going back to a value already shown, a reload or another
    viewer's visit rebuilds and serialises nothing. The figure is shared
    between sessions: do not modify it.
    """
    fig, spec = store.get_store().call(_with_spec, (builder, args, kwargs), {}, persist=False)
    plotly_chart.keep_spec(fig, spec)
    fig._ikviz_draw = (builder, args, kwargs)  # how it was drawn: the take-home script draws it the same way
    return fig


def _snippet(source) -> str | None:
    """The Python snippet of ``source``: ``(fn, params)`` or ``(fn, args, kwargs)``; None if it cannot be written."""
    fn, *rest = source
    if len(rest) == 2 and isinstance(rest[0], tuple) and isinstance(rest[1], dict):
        args, kwargs = rest
    else:
        args, kwargs = tuple(rest), {}
    try:
        return export.python_snippet(fn, *args, **kwargs)
    except TypeError:  # a function or an argument with no importable name: no snippet rather than an error
        return None


#: ``module:run`` -> the settings of a first look at a view that is slow to compute from nothing: the same
#: computation at a smaller size, drawn within seconds on a new server while the full view computes
#: (:func:`view`); each value is the most that setting gets (a tuple: the values kept)
PREVIEWS: dict[str, dict] = {
    "ikviz.experiments.tsne:run": {"n_per_cluster": 100},
    # d_values too: a replaced d_max does not recompute the d the params derived from it
    "ikviz.experiments.dimensionality:run_instability": {"d_max": 300, "d_values": (10, 30, 100, 300), "t_trials": 1,
                                                          "n_per_cluster": 250},
    "ikviz.experiments.dimensionality:run_hubness": {"n": 500},
    "ikviz.experiments.indexing:run": {"n_max": 200},
    # the SVMs' parameters at the sliders' values: 5 fits instead of a 5-fold search over each kernel's grid
    "ikviz.experiments.classification:run": {"tuning": "fixed"},
    # 3 x 2 cells (the view: 5 x 5): the ting2018 Fig. 2 step 2.0 -> 1.8 CPU-s before its figure (first_look.py)
    "ikviz.experiments.density:run_grid": {"psis": (16, 64, 256), "ds": (10, 50), "n": 100},
    # digits at 500 points (the wang2017 step, k-means on three feature maps): 3.2 CPU-s before its figure; 250: 1.9
    "ikviz.experiments.clustering:run": {"max_points": 250, "n_per_cluster": 250},
    # η at its slider's value (0.2) instead of tuned over 5 values on a separate stream: 4 passes instead of 24
    # (a9a at n = 2,000 with tuning cost 70% of the whole view at 10,000: 7.3 against 10.3 CPU-s); 1,000 rows, the
    # maps fitted on the first 500: a9a's tour step 9.9 -> 2.1 CPU-s before its figure (benchmarks/first_look.py)
    "ikviz.experiments.online:run": {"n": 1000, "prefix": 500, "tune_eta": False},
}


def preview_of(run, params):
    """The first look of :data:`PREVIEWS` at ``run(params)``: smaller settings, or None (none, or no smaller).

    Examples
    --------
    >>> from ikviz.experiments import tsne
    >>> preview_of(tsne.run, tsne.Params(n_per_cluster=500)).n_per_cluster
    100
    >>> preview_of(tsne.run, tsne.Params(n_per_cluster=100)) is None
    True
    """
    most = PREVIEWS.get(f"{run.__module__}:{run.__name__}")
    if not most or not dataclasses.is_dataclass(params):
        return None
    names = {f.name for f in dataclasses.fields(params)}
    changes = {}
    for name, limit in most.items():
        if name not in names:
            continue
        value = getattr(params, name)
        if isinstance(limit, tuple):
            kept = tuple(v for v in (value or ()) if v in limit)
            smaller = kept if kept and len(kept) < len(value) else value
        elif isinstance(value, (int, float)) and not isinstance(value, bool):
            smaller = min(value, limit)
        else:  # a quicker choice of the same computation (e.g. fixed parameters instead of a CV search)
            smaller = limit
        if smaller != value:
            changes[name] = smaller
    if not changes:
        return None
    try:
        return dataclasses.replace(params, **changes)
    except (TypeError, ValueError):  # a size the params refuse: no first look rather than a wrong one
        return None


def _describe(params, quick) -> str:
    """What a first look changed, e.g. ``points per cluster 100 (the view: 500)``."""
    from ikviz.params import field_of_name

    parts = []
    for f in dataclasses.fields(params):
        full, small = getattr(params, f.name), getattr(quick, f.name)
        if full != small:
            spec = field_of_name(params, f.name)
            name = spec.label if spec is not None else f.name.replace("_", " ")
            shown = spec.format if spec is not None and callable(spec.format) else str
            if isinstance(full, bool):  # a box ticked or not: "tune η per learner off (the view: on)"
                shown = {True: "on", False: "off"}.get
            show = (lambda v: ", ".join(map(str, v))) if isinstance(full, tuple) else (lambda v: str(shown(v)))
            parts.append(f"{name} {show(small)} (the view: {show(full)})")
    return "; ".join(parts)


@functools.lru_cache(maxsize=1)
def _prepared_views() -> frozenset:
    """The views ``app/prepare.py`` computes ahead (every page's first view, every tour step): keys of the store."""
    import prepare

    s = store.get_store()
    return frozenset(s.key_of(item.run, (item.params,), {}) for item in prepare.views())


def view(run, params, **kwargs):
    """The result of a view, ``run(params)``, from the results store: a page's one computation per view.

    The figures drawn after it (:func:`figure`) export ``(run, params)``: their snippet recomputes exactly
    this result. ``kwargs`` go to :func:`store.compute` (``ask``: a heavy view waits for a click).

    A view that ``app/prepare.py`` prepares (a page's first view, a tour step) but that the store does not
    hold yet, on a new server, and that has a first look (:data:`PREVIEWS`) starts computing in full and
    returns the first look at once: the same computation at a smaller size, said above its figures; the page
    then waits for the full view under them (:func:`finish_page`) and draws it when it is ready. The first
    look is computed in the page's own thread (shared with other sessions all the same): it never queues
    behind the store's workers, which the full views of pages just left may all hold.
    """
    state = ui.run_state()
    state["source"] = (run, params)
    s = store.get_store()
    quick = preview_of(run, params) if "pending" not in state and kwargs.get("persist", True) else None
    if quick is not None and s.key_of(run, (params,), {}) in _prepared_views() and not s.peek(run, params)[0]:
        slot = st.empty()  # the full view's progress, above the first look's figures (finish_page)
        kwargs.pop("ask", None)  # a page's own view (or a tour step's) is the request
        slot.caption("Computing a first look at a smaller size…")
        # in this page's own thread, not queued for the store's workers: they may all be busy with the full
        # views of pages a lecture has just left (computed to their end), and a first look takes seconds
        result = store.compute(run, quick, **{**kwargs, "inline": True})
        # then the full view, computed to its end whoever waits (everyone's first view): after the first look,
        # which it would otherwise slow down on the same cores
        s.submit_call(run, (params,), {}, keep=True)
        st.info(f"**First look**, computed at a smaller size: {_describe(params, quick)}. The full view is "
                "computing (its progress is above) and replaces this one when it is ready.",
                icon=":material/hourglass_top:")
        state["pending"] = (slot, run, params, kwargs)
        state["source"] = (run, quick)
        return result
    return store.compute(run, params, **kwargs)


def held(run, params) -> bool:
    """Whether the store holds ``run(params)`` already (nothing is computed)."""
    return store.get_store().peek(run, params)[0]


def held_over(run, params, name: str, values) -> dict:
    """The results of ``run`` the store already holds for ``params`` with field ``name`` set to each of ``values``
    (nothing is computed): the panels of a small multiple over one setting, as far as viewers went."""
    held = {}
    for value in values:
        found, result = store.get_store().peek(run, dataclasses.replace(params, **{name: value}))
        if found:
            held[value] = result
    return held


def figure(fig, key: str, *, source=None, config: dict | None = None, on_click=None) -> None:
    """Draw Plotly figure ``fig`` full width and, under it, an **Export** menu with its numbers and code.

    The menu offers the numbers the figure draws as CSV and JSON (built only
    when a button is clicked, see :mod:`ikviz.export`) and a Python snippet
    that recomputes the result outside the app: that of the page's last
    :func:`view` unless ``source=(run, params)`` says otherwise (``source=False``: none, e.g. for uploaded
    data, which a snippet could not load elsewhere).
    In presentation mode the page shows one figure at a time, enlarged for
    projectors, with no menu; a pager above it picks the figure
    (``?fig=N`` in the link, see :func:`finish_page`).
    Plotly's own toolbar keeps its camera button for a PNG.
    ``config`` adds to Plotly's configuration; ``on_click`` is
    :func:`plotly_chart.draw`'s.
    """
    source = ui.run_state().get("source") if source is None else (source or None)  # False: no snippet
    config = {"displaylogo": False, "toImageButtonOptions": {"filename": _file_stem(key), "scale": 2},
              **(config or {})}
    slides = _slides()
    if slides is None:
        plotly_chart.draw(fig, key=key, config=config, on_click=on_click)
        _export_menu(fig, key, source)
        return
    # the enlarged copy is held as well, keyed by the figure's content (a pickle of it: a few ms, against 25 to make)
    slides.take(export.figure_title(fig),
                lambda: plotly_chart.draw(built(projector, fig), key=key, config=config, on_click=on_click))


def clickable(fig, key: str, x_key: str, y_key: str, *, source=None):
    """Draw ``fig`` (see :func:`figure`) so that a click on it sets the page's controls ``x_key`` and ``y_key``
    to the point clicked, e.g. a contour plot's reference point.

    The figure needs points under the cursor to click: ``clickable=True`` of
    :func:`ikviz.plots.contours.similarity_contour` lays an invisible grid of them.
    """
    def moved():
        point = st.session_state[key]["click"]
        if point:
            ui.set_value(x_key, round(float(point["x"]), 2))
            ui.set_value(y_key, round(float(point["y"]), 2))

    # the camera alone in the toolbar: a click moves the reference, so zoom and pan would only get in the way
    figure(fig, key, source=source, on_click=moved, config={"modeBarButtons": [["toImage"]]})


def _file_stem(key: str) -> str:
    """A download's file name without extension: the page and the chart, e.g. ``kernel-shapes-chart_rbf``."""
    scope = ui.page_scope()
    return re.sub(r"[^A-Za-z0-9_.-]+", "-", f"{scope}-{key}" if scope else key).strip("-")


def _result_download(fn, params, *, key: str, stem: str) -> None:
    """A download of the view's whole result as ``ikviz reproduce`` writes it, when ``fn`` is a registered run."""
    from ikviz import reproduce

    if reproduce.entry_for(fn) is None:
        return

    def numbers() -> str:
        import json

        import store

        # the view's own result: held by the store (computed again only if it was evicted meanwhile)
        result = store.get_store().call(fn, (params,), {})
        return json.dumps(reproduce.numbers_of(fn, params, result), indent=1)

    st.download_button("The whole result (JSON, as `ikviz reproduce` writes it)", data=numbers,
                       file_name=f"{stem}-result.json", mime="application/json", key=f"{key}:result",
                       on_click="ignore", icon=":material/description:")


def _export_menu(fig, key: str, source) -> None:
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
                _take_home(fig, source, key=key, stem=stem)


def _take_home(fig, source, *, key: str, stem: str) -> None:
    """Downloads of the view as a ``.py`` script and a notebook that recompute it and draw this figure."""
    fn, *rest = source
    args, kwargs = (rest if len(rest) == 2 and isinstance(rest[0], tuple) and isinstance(rest[1], dict)
                    else (tuple(rest), {}))
    draw, title = getattr(fig, "_ikviz_draw", None), export.figure_title(fig)

    def write(how) -> str:  # the view's own result, so that the figure's argument is written as `result...`
        result = store.get_store().call(fn, args, kwargs) if draw is not None else None
        return how(fn, *args, draw=draw, result=result, title=title, **kwargs)

    py, nb = st.columns(2)
    py.download_button(".py script", data=lambda: write(export.python_script), file_name=f"{stem}.py",
                       mime="text/x-python", key=f"{key}:py", on_click="ignore", icon=":material/code:")
    nb.download_button("Notebook", data=lambda: write(export.notebook), file_name=f"{stem}.ipynb",
                       mime="application/x-ipynb+json", key=f"{key}:ipynb", on_click="ignore",
                       icon=":material/menu_book:")
