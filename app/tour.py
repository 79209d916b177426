"""The guided-tour bar: a lecture that runs itself, one step of :mod:`ikviz.tours` at a time.

Home.py calls :func:`bar` before the page runs when the link names a tour and
a step (``?tour=ting2018&step=1``). The bar shows the tour, the step and what
to say, the paper's number beside ikviz's (when the claims have been checked),
Previous/Next links (also the ← and → keys), the link and a QR code for the
class, and a way out. It pins the step's control, so that
:func:`ui.control` draws it even in presentation mode.
"""

from __future__ import annotations

import store
import streamlit as st
from ui import PINNED_KEY  # the control ui.control draws even in presentation mode

from ikviz import claims, tours

_APPLIED_KEY = "_tour_applied"  # session state: the (tour, step) whose link values were last applied

_KEYS_SCRIPT = """<script>
(() => {
  const w = window;
  if (w.__ikvizTourKeys) return;
  w.__ikvizTourKeys = true;
  w.document.addEventListener("keydown", (e) => {
    if (e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey || e.shiftKey) return;
    const el = e.target;
    if (el && el.closest && (el.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(el.tagName) ||
        el.closest('[role="slider"],[role="tablist"],[role="listbox"],[role="radiogroup"]'))) return;
    const which = e.key === "ArrowRight" ? "next" : e.key === "ArrowLeft" ? "previous" : null;
    const link = which && w.document.querySelector(".st-key-ikviz-tour-" + which + " a");
    if (link) { e.preventDefault(); link.click(); }
  });
})();
</script>"""


def current() -> tuple[tours.Tour, int] | None:
    """The tour and step the link names, or None."""
    return tours.find_step({k: st.query_params.get(k) for k in (tours.TOUR_KEY, tours.STEP_KEY)})


def script(page: str) -> str:
    """The page script of a URL path (Home.py's convention: ``kernel-shapes`` is ``views/kernel_shapes.py``)."""
    return f"views/{page.replace('-', '_')}.py"


def _link(name: str, i: int, *, present: bool = True) -> tuple[str, dict]:
    page, query = tours.parse_step(tours.step_url(name, i, present=present))
    return script(page), query


def _apply(tour: tours.Tour, i: int) -> None:
    """On arriving at a step, let its link values win over values this session set earlier.

    Controls keep their values in session state (see :func:`ui.control`) and
    read the link only when they have none; a step's values must show even
    when the session has been on that page before.
    """
    state = st.session_state
    if state.get(_APPLIED_KEY) == (tour.name, i):
        return
    state[_APPLIED_KEY] = (tour.name, i)
    keys = set(tour.steps[i].params)
    for key in list(state.keys()):
        scoped = key.split(":", 1)[1] if ":" in key else None
        if scoped in keys or (key.startswith("_w_") and key[3:] in keys):
            del state[key]


def live_number(step: tours.Step):
    """ikviz's checked row for the step's claim, if the claims have been computed (never computed here)."""
    if not step.claim:
        return None
    claim = next((c for c in claims.CLAIMS if c.key == step.claim), None)
    if claim is None:
        return None
    for quick in (False, True):  # a full-size check wins over a reduced one
        found, rows = store.get_store().peek(claims.check_reproduction, claim.reproduction, quick)
        if found:
            row = next((r for r in rows if r.key == step.claim), None)
            if row is not None:
                return row
    return None


def class_url(name: str, i: int) -> str:
    """The full link of the step for the class (presentation mode off), or the relative one if the host is unknown."""
    relative = tours.step_url(name, i, present=False)
    url = getattr(st.context, "url", None) or ""  # empty without a browser (a headless run)
    if not url.startswith(("http://", "https://")):
        return relative
    base = url.split("?", 1)[0].split("#", 1)[0]
    page = tours.TOURS[name].steps[i].page
    root = base.rsplit("/", 1)[0] if base.rstrip("/").endswith("/" + page) else base.rstrip("/")
    return f"{root}/{relative}"


def qr_svg(url: str) -> str:
    """A QR code of ``url`` as an inline SVG (pure Python, segno)."""
    import segno

    return segno.make(url, error="m").svg_inline(scale=4, border=2, dark="#000000", light="#ffffff")


def leave() -> None:
    """No tour in the link: nothing pinned."""
    st.session_state.pop(PINNED_KEY, None)
    st.session_state.pop(_APPLIED_KEY, None)


def bar() -> None:
    """The tour bar at the top of the page, when the link names a tour step; else nothing."""
    found = current()
    if found is None:
        leave()
        return
    tour, i = found
    step, n = tour.steps[i], len(tour.steps)
    _apply(tour, i)
    st.session_state[PINNED_KEY] = step.control
    with st.container(border=True, key="ikviz-tour-bar"):
        text, numbers, nav = st.columns([5, 3, 3], vertical_alignment="top")
        with text:
            st.markdown(f"**{tour.title}** · step {i + 1} of {n}  \n### {step.title}")
            st.markdown(step.text)
        with numbers:
            if step.published:
                st.markdown(f"**Paper:** {step.published}")
                row = live_number(step)
                if row is not None:
                    size = "reduced size" if row.quick else "full size"
                    st.markdown(f"**ikviz** ({size}): {row.ikviz} · *{row.verdict}*")
                else:
                    st.caption("ikviz's number appears here once the Claims page has checked this claim.")
            if step.control:
                st.caption(f"Move **{step.control}** (kept visible in presentation mode).")
        with nav:
            prev_col, next_col = st.columns(2)
            with prev_col, st.container(key="ikviz-tour-previous"):
                if i > 0:
                    page, query = _link(tour.name, i - 1)
                    st.page_link(page, label="Previous", icon=":material/arrow_back:", query_params=query)
                else:
                    st.button("Previous", icon=":material/arrow_back:", disabled=True, key="_tour_prev_off")
            with next_col, st.container(key="ikviz-tour-next"):
                if i + 1 < n:
                    page, query = _link(tour.name, i + 1)
                    st.page_link(page, label="Next", icon=":material/arrow_forward:", query_params=query)
                else:
                    st.button("Next", icon=":material/arrow_forward:", disabled=True, key="_tour_next_off")
            url = class_url(tour.name, i)
            with st.popover("Link for the class", icon=":material/qr_code_2:"):
                st.caption("Copy the link (button at its right) or scan the code: it opens this step with the "
                           "controls shown.")
                st.code(url, language=None, wrap_lines=True)
                st.html(qr_svg(url))
            exit_query = {k: v for k, v in step.params.items()}
            st.page_link(script(step.page), label="Leave the tour", icon=":material/close:",
                         query_params=exit_query)
    st.html(_KEYS_SCRIPT, unsafe_allow_javascript=True)


def sidebar_links() -> None:
    """The "Guided tours" list: one link per tour, to its first step."""
    st.markdown("**Guided tours**")
    for name, tour in tours.TOURS.items():
        page, query = _link(name, 0)
        st.page_link(page, label=tour.title, icon=":material/school:", query_params=query)
