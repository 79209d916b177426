"""The guided-tour bar: a lecture that runs itself, one step of :mod:`ikviz.tours` at a time.

Home.py calls :func:`bar` before the page runs when the link names a tour and
a step (``?tour=ting2018&step=1``). The bar shows the tour, the step and what
to say, the paper's number beside ikviz's (when the claims have been checked),
Previous/Next links (also the ← and → keys), the link and a QR code for the
class, and a way out. It pins the step's control, so that
:func:`ui.control` draws it even in presentation mode.
"""

from __future__ import annotations

import re

import store
import streamlit as st
from ui import PINNED_KEY  # the control ui.control draws even in presentation mode

from ikviz import claims, tours

_APPLIED_KEY = "_tour_applied"  # session state: the (tour, step) whose link values were last applied
#: session state: where a projected tour step's own control goes (the main area under the bar, since the
#: sidebar is folded away when presenting); None outside a projected step. Set by :func:`bar` on every run.
CONTROL_SLOT_KEY = "_tour_control_slot"

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


#: presentation mode in a tour step: text readable from the back of a lecture hall (at least 24 px), no room
#: lost above the bar or below it (the page's own title is the bar's step title; scripts and styles take no
#: gap), the figure pager in 18 px without its label
PROJECTOR_CSS = """<style id="ikviz-projector-css">
.st-key-ikviz-tour-bar p, .st-key-ikviz-tour-bar li, .st-key-ikviz-tour-bar a, .st-key-ikviz-tour-bar span,
.st-key-ikviz-tour-bar button, .st-key-ikviz-tour-bar code { font-size: 24px !important; line-height: 1.3 !important; }
.st-key-ikviz-tour-control p, .st-key-ikviz-tour-control [data-baseweb="select"] div, .st-key-ikviz-tour-control input,
.st-key-ikviz-tour-control div[data-testid="stSliderThumbValue"] { font-size: 24px !important; }
.st-key-ikviz-tour-control [data-testid="stSlider"] [data-testid="stWidgetLabel"] { margin-bottom: 1.1rem !important; }
.st-key-ikviz-tour-bar h3 { font-size: 30px !important; padding: 0 0 0.2rem 0 !important; }
.st-key-ikviz-tour-bar [data-testid="stMarkdownContainer"] p { margin-bottom: 0.35rem; }
.st-key-ikviz-tour-bar [data-testid="stVerticalBlock"] { gap: 0.45rem !important; }
[data-testid="stMainBlockContainer"] { padding-top: 3.6rem !important; padding-bottom: 1rem !important; }
@media (max-height: 800px) {   /* a 720p projector: the step's figure, without the pager over the page's others */
  [data-testid="stMain"] .st-key-_w_fig { display: none; }
}
[data-testid="stMain"] [data-testid="stElementContainer"]:has(h1),
[data-testid="stMain"] [data-testid="stElementContainer"]:has(> [data-testid="stHtml"] > script:only-child),
[data-testid="stMain"] [data-testid="stElementContainer"]:has(> [data-testid="stHtml"] > style:only-child) { display: none; }
[data-testid="stMain"] .st-key-_w_fig label[data-testid="stWidgetLabel"] { display: none; }
[data-testid="stMain"] .st-key-_w_fig [role="radiogroup"] p { font-size: 18px !important; }
</style>"""
#: presentation mode in a tour step: each figure as tall as the window allows below its top (a single row at
#: least 30% of the window, 300 px at most; stacked rows 150 px a row at least), so that the step's figure, legend
#: and axis titles included, is on screen without scrolling. Plotly draws a figure at the height it was built
#: for; this relayouts it whenever the page or the window changes. Stacked rows keep the pixels between them
#: that :func:`ikviz.plots.style.projector` asked for (``meta.ikviz_row_gaps``: the upper row's tick labels,
#: the lower row's subplot titles), whatever the height, and the subplot titles move with their rows. An animation
#: that carries a layout for beside its plot (``meta.ikviz_beside``: the build-up's title, buttons and slider) gets it.
FIT_SCRIPT = r"""<script>
(() => {
  const w = window;
  if (w.__ikvizFit) { w.__ikvizFit(); return; }
  const rowsOf = (fl) => {   // the distinct y domains, top row first
    const seen = new Map();
    for (const k of Object.keys(fl).filter(k => /^yaxis\d*$/.test(k))) seen.set(String(fl[k].domain), fl[k].domain);
    return [...seen.values()].sort((a, b) => b[1] - a[1]);
  };
  const fit = () => {
    if (!w.Plotly || !w.document.getElementById("ikviz-projector-css")) return;   // a tour step, projected
    const main = w.document.querySelector('[data-testid="stMain"]');
    for (const gd of w.document.querySelectorAll('[data-testid="stMain"] .js-plotly-plot')) {
      const fl = gd._fullLayout;
      if (!fl || !gd.offsetParent) continue;
      const top = gd.getBoundingClientRect().top + (main ? main.scrollTop : 0);
      const rows = rowsOf(fl);
      const least = rows.length > 1 ? 150 * rows.length : Math.min(300, Math.round(0.3 * w.innerHeight));
      const height = Math.max(least, Math.floor(w.innerHeight - top - 12));
      // an animation's title, buttons and slider in a column beside its square plot (meta.ikviz_beside, see
      // ikviz.plots.build_up.beside_layout): below it they took ~150 px of a 720p window's ~300
      const beside = (gd.layout.meta || {}).ikviz_beside;
      const fresh = !!beside && (gd.layout.sliders || [{}])[0].x !== beside["sliders[0].x"];
      if (!fresh && Math.abs(fl.height - height) <= 4) continue;
      const update = {height: height};
      if (fresh) Object.assign(update, beside);
      const gaps = (gd.layout.meta || {}).ikviz_row_gaps;
      const stacked = rows.length > 1 && Array.isArray(gaps) && gaps.length === rows.length - 1;
      const size = fresh ? {t: beside["margin.t"], b: beside["margin.b"]} : (fl._size || fl.margin);
      let plot = height - size.t - size.b;
      const title = !fresh && fl.title && fl.title.text;
      const alone = ![...w.document.querySelectorAll('[data-testid="stMain"] .js-plotly-plot')]
        .some(o => o !== gd && o.offsetParent && Math.abs(o.getBoundingClientRect().top - gd.getBoundingClientRect().top) < 4);
      const perRow = stacked ? (plot - gaps.reduce((a, b) => a + b, 0)) / rows.length : plot;
      const equal = Object.keys(fl).some(k => /^yaxis\d*$/.test(k) && fl[k].scaleanchor);
      const xTitled = Object.keys(fl).filter(k => /^xaxis\d*$/.test(k) && fl[k].title && fl[k].title.text);
      if (!alone && equal) {
        // a group of equal-aspect panels (the clusters found on digits, kernel contours), each a third of the width:
        // its square plot is as wide as the panel less its side margins, so these are what the ticks, the y-axis
        // title and a colour bar need (Plotly's automargin adds it) instead of the projector's 80 + 40 px
        update["margin.l"] = 10;
        update["margin.r"] = 10;
        if (xTitled.length && perRow < 200) {
          // a short window: the x-axis title (PC 1, x1) gives its ~32 px to the plot; ticks and y-axis title stay
          for (const k of xTitled) update[k + ".title.text"] = "";
          const room = Math.round(1.6 * fl[xTitled[0]].title.font.size);
          update["margin.b"] = Math.max(10, fl.margin.b - room);
          plot += fl.margin.b - update["margin.b"];
        }
      }
      if (title && (stacked ? perRow < 110 : alone && perRow < 150)) {
        // a short window: the tour's bar names the step, the plot gets the title's room (rows >= 110 px each, a
        // figure alone >= 150 px, if they can); a group's figures keep their titles (they name the kernels)
        const lines = (title.match(/\u003cbr/g) || []).length + 1;   // no markup inside this script, see st.html
        const room = Math.round(lines * fl.title.font.size * 1.3 + 4);
        update["title.text"] = "";
        update["margin.t"] = Math.max(10, fl.margin.t - room);
        plot += fl.margin.t - update["margin.t"];
      }
      if (stacked) {
        const space = Math.max(0.1, 1 - gaps.reduce((a, b) => a + b, 0) / plot);
        const total = rows.reduce((a, d) => a + d[1] - d[0], 0);
        const moved = new Map();
        let upper = 1;
        rows.forEach((d, i) => {
          const lower = Math.max(0, upper - space * (d[1] - d[0]) / total);
          moved.set(String(d), [lower, upper]);
          upper = lower - (i < gaps.length ? gaps[i] / plot : 0);
        });
        for (const k of Object.keys(fl).filter(k => /^yaxis\d*$/.test(k))) {
          const to = moved.get(String(fl[k].domain));
          if (to) update[k + ".domain"] = to;
        }
        (gd.layout.annotations || []).forEach((a, i) => {
          const row = (a.yref || "paper") === "paper" && a.y != null && rows.find(d => Math.abs(a.y - d[1]) < 1e-3);
          if (row) update["annotations[" + i + "].y"] = moved.get(String(row))[1];
        });
      }
      gd.style.height = height + "px";
      w.Plotly.relayout(gd, update);
    }
  };
  let pending = null;
  const soon = () => { clearTimeout(pending); pending = setTimeout(fit, 150); };
  w.__ikvizFit = soon;
  w.addEventListener("resize", soon);
  new MutationObserver(soon).observe(w.document.body, {childList: true, subtree: true});
  soon();
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


#: session state: where the step's own number goes (filled by :func:`finish` once the page has drawn its result)
NUMBER_SLOT_KEY = "_tour_number_slot"


def page_params(step: tours.Step):
    """``(run, params)`` of the step's view at the settings the page has now (this run's link values), or
    ``(None, None)`` for a page outside :mod:`ikviz.views`."""
    import ui
    from ikviz.params import from_query

    view = step.view()
    if view is None:
        return None, None
    values = {**{k: st.query_params.get(k) for k in st.query_params}, **st.session_state.get(ui._LINK_KEY, {})}
    params, _notes = from_query(view.params, values)
    return view.run, params


def step_number(step: tours.Step) -> str | None:
    """ikviz's number at this step, from the very result the page drew (the store's ``run(params)`` at the page's
    settings): None while it is not computed, or when the step has none."""
    run, params = page_params(step)
    if run is None:
        return None
    found, result = store.get_store().peek(run, params)
    return step.number(result, params) if found else None


def _never_ask(step: tours.Step) -> None:
    """A tour step's view computes on arrival, heavy or not: the lecturer's link is the request (``store.compute``
    asks before a heavy run only once per session and key)."""
    run, params = step.run_params()
    if run is not None:
        st.session_state.setdefault(store._ASKED_KEY, set()).add(store.get_store().key_of(run, (params,), {}))


def finish() -> None:
    """After the page ran (Home.py): the step's number into its place in the bar, from the result just drawn."""
    slot = st.session_state.pop(NUMBER_SLOT_KEY, None)
    found = current()
    if slot is None or found is None:
        return
    tour, i = found
    step = tour.steps[i]
    number = step_number(step)
    if number is not None:
        slot.markdown(f"**ikviz, these settings:** {number}")


#: environment variable: the address students reach the app at (``https://ikviz.example.org``), when the server
#: cannot tell it (behind a proxy, or opened on the lecturer's laptop as localhost)
PUBLIC_URL_ENV = "IKVIZ_PUBLIC_URL"
_LOOPBACK_NAMES = {"localhost", "localhost.localdomain", "ip6-localhost", "ip6-loopback"}


def is_loopback(host: str) -> bool:
    """Whether ``host`` (a name or an IP, IPv6 with or without brackets) names this computer only."""
    import ipaddress

    host = host.strip().strip("[]").lower()
    if host in _LOOPBACK_NAMES or host.endswith(".localhost"):
        return True
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return False
    return address.is_loopback or address.is_unspecified


def lan_address() -> str | None:
    """This computer's address on its network (the one Streamlit prints as "Network URL"), or None."""
    import socket

    from streamlit import net_util

    candidates = [net_util.get_internal_ip() or ""]  # the interface of the default route; sends nothing
    try:
        candidates += socket.gethostbyname_ex(socket.gethostname())[2]
    except OSError:
        pass
    return next((ip for ip in candidates if ip and not is_loopback(ip)), None)


def class_base(url: str | None, headers, *, public: str | None = None, lan: str | None = None,
               page: str = "", bound_to: str | None = None) -> tuple[str | None, str | None]:
    """The app's root address for a class, and a note for the lecturer when it is not one a phone can open.

    ``public`` (``IKVIZ_PUBLIC_URL``) wins. Otherwise the address the
    lecturer's browser used: ``url`` (``st.context.url``) or, without it, the
    request's headers (``X-Forwarded-Proto``/``X-Forwarded-Host`` of a proxy,
    else ``Host``). A loopback host (localhost, 127.0.0.1, ::1) is replaced by
    this computer's network address ``lan``, same port, unless there is none
    or the server listens on loopback alone (``bound_to``): then the loopback
    address stays and the note says that only this computer can open it.
    Returns ``(None, note)`` when nothing tells the address.
    """
    from urllib.parse import urlsplit

    if public and public.strip():
        public = public.strip()
        if public.startswith(("http://", "https://")) and urlsplit(public).hostname:
            return public.rstrip("/"), None
        return None, f"`{PUBLIC_URL_ENV}` must be a full address such as `https://host:8501`; it was ignored."
    scheme = host_port = path = None
    if url and url.startswith(("http://", "https://")):
        parts = urlsplit(url)
        scheme, host_port, path = parts.scheme, parts.netloc, parts.path
    elif _header(headers, "X-Forwarded-Host") or _header(headers, "Host"):
        scheme = (_header(headers, "X-Forwarded-Proto") or "http").split(",")[0].strip()
        host_port = (_header(headers, "X-Forwarded-Host") or _header(headers, "Host")).split(",")[0].strip()
        path = ""
    if not host_port:
        return None, None
    path = path.rstrip("/")
    if page and path.endswith("/" + page):
        path = path[: -len(page) - 1]
    host = urlsplit(f"//{host_port}").hostname or ""
    port = urlsplit(f"//{host_port}").port
    if is_loopback(host):
        if lan and not (bound_to and is_loopback(bound_to)):
            return f"{scheme}://{lan}{f':{port}' if port else ''}{path}", (
                f"This browser opened the app as `{host}`, which only this computer can reach: the link uses this "
                f"computer's network address, {lan}, for phones on the same network. If it does not open, set "
                f"`{PUBLIC_URL_ENV}` to the address students can reach.")
        return f"{scheme}://{host_port}{path}", (
            f"Only this computer can open this link (`{host}`): no network address was found"
            f"{' and the server listens on loopback only' if bound_to and is_loopback(bound_to) else ''}. "
            f"Start the app with `--server.address 0.0.0.0` on a network, or set `{PUBLIC_URL_ENV}`.")
    return f"{scheme}://{host_port}{path}", None


def _header(headers, name: str) -> str | None:
    """A request header by name, in any case (Streamlit's headers are case-insensitive, a plain dict is not)."""
    if not headers:
        return None
    value = headers.get(name)
    if value is None:
        value = next((v for k, v in headers.items() if k.lower() == name.lower()), None)
    return value or None


def _host(url: str | None, headers) -> str | None:
    """The host name in ``url``, else in the ``Host`` header; None if neither has one."""
    from urllib.parse import urlsplit

    if url and url.startswith(("http://", "https://")):
        return urlsplit(url).hostname
    host = _header(headers, "X-Forwarded-Host") or _header(headers, "Host")
    return urlsplit(f"//{host.split(',')[0].strip()}").hostname if host else None


def class_url(name: str, i: int) -> tuple[str, str | None]:
    """The full link of the step for the class (presentation mode off) and a note for the lecturer, if any.

    See :func:`class_base`; the relative link when nothing tells the address (a headless run).
    """
    import os

    relative = tours.step_url(name, i, present=False)
    page = tours.TOURS[name].steps[i].page
    public = os.environ.get(PUBLIC_URL_ENV)
    url = getattr(st.context, "url", None)
    headers = getattr(st.context, "headers", None)
    lan = None
    if not public:
        host = _host(url, headers)
        lan = lan_address() if host is not None and is_loopback(host) else None
    base, note = class_base(url, headers, public=public, lan=lan, page=page,
                            bound_to=st.get_option("server.address"))
    return (f"{base}/{relative}" if base else relative), note


def qr_png(url: str) -> bytes:
    """A QR code of ``url`` as a PNG image (segno; black on white, a 4-module quiet zone, 8 px modules)."""
    import io

    import segno

    buffer = io.BytesIO()
    segno.make(url, error="m").save(buffer, kind="png", scale=8, border=4, dark="#000000", light="#ffffff")
    return buffer.getvalue()


def leave() -> None:
    """No tour in the link: nothing pinned."""
    st.session_state.pop(PINNED_KEY, None)
    st.session_state.pop(_APPLIED_KEY, None)
    st.session_state.pop(CONTROL_SLOT_KEY, None)
    st.session_state.pop(NUMBER_SLOT_KEY, None)


def _numbers(step: tours.Step, *, presenting: bool) -> None:
    """The paper's number and ikviz's from the result the page draws below (never typed, never another run's):
    at once when the store holds it, else once the page has computed it (:func:`finish`)."""
    if not step.published:
        return
    st.markdown(f"**Paper:** {step.published}")
    slot = st.empty()
    number = step_number(step)
    if number is not None:
        slot.markdown(f"**ikviz, these settings:** {number}")
    elif step.says or step.claim:
        st.session_state[NUMBER_SLOT_KEY] = slot
    if not presenting and step.claim:
        row = live_number(step)
        if row is not None:
            st.caption(f"Claims page: *{row.verdict}* ({row.size} size, its own settings; "
                       f"[its result]({row.page})).")


def _navigation(tour: tours.Tour, i: int) -> None:
    """Previous and Next (also the arrow keys), the link for the class, the way out."""
    step, n = tour.steps[i], len(tour.steps)
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
    url, note = class_url(tour.name, i)
    with st.popover("Link for the class", icon=":material/qr_code_2:"):
        st.caption("Copy the link (button at its right) or scan the code: it opens this step with the "
                   "controls shown.")
        st.code(url, language=None, wrap_lines=True)
        if note:
            st.warning(note, icon=":material/wifi_off:")
        st.image(qr_png(url), width=280, caption="Scan to open this step")
    st.page_link(script(step.page), label="Leave the tour", icon=":material/close:", query_params=dict(step.params))


def bar() -> None:
    """The tour bar at the top of the page, when the link names a tour step; else nothing.

    In presentation mode it is laid out for a projector (:data:`PROJECTOR_CSS`): text of at least
    24 px in two columns (what to say, how to move on), the page's own title hidden (the bar names
    the step), and the step's figures fitted to the window below the bar (:data:`FIT_SCRIPT`).
    """
    from ui import presenting

    found = current()
    if found is None:
        leave()
        return
    tour, i = found
    step, n = tour.steps[i], len(tour.steps)
    _apply(tour, i)
    _never_ask(step)
    st.session_state.pop(NUMBER_SLOT_KEY, None)
    st.session_state[PINNED_KEY] = step.control
    projecting = presenting()
    with st.container(border=True, key="ikviz-tour-bar"):
        if projecting:
            text, nav = st.columns([7, 3], vertical_alignment="top")
            with text:
                st.markdown(f"### {step.title}")
                st.markdown(step.text)
                _numbers(step, presenting=True)
        else:
            text, numbers, nav = st.columns([5, 3, 3], vertical_alignment="top")
            with text:
                st.markdown(f"**{tour.title}** · step {i + 1} of {n}  \n### {step.title}")
                st.markdown(step.text)
            with numbers:
                _numbers(step, presenting=False)
                if step.control:
                    st.caption(f"Move **{step.control}** (kept visible in presentation mode).")
        with nav:
            _navigation(tour, i)
            if projecting:   # the paper in short: "Ting et al. 2018" of "Isolation Kernel ... (Ting et al. 2018)"
                short = re.search(r"\(([^()]*)\)\s*$", tour.title)
                st.markdown(f"{short.group(1) if short else tour.title} · step {i + 1} of {n}")
                # the step's control, in the bar's right column beside the text (ui draws the pinned control
                # here): the figures start right under the bar, ~100 px higher than with the control below it
                st.session_state[CONTROL_SLOT_KEY] = (st.container(key="ikviz-tour-control") if step.control
                                                      else None)
    if not projecting:
        st.session_state[CONTROL_SLOT_KEY] = None
    st.html(_KEYS_SCRIPT, unsafe_allow_javascript=True)
    if projecting:
        st.html(PROJECTOR_CSS)
        st.html(FIT_SCRIPT, unsafe_allow_javascript=True)


def sidebar_links() -> None:
    """The "Guided tours" list: one link per tour, to its first step."""
    st.markdown("**Guided tours**")
    for name, tour in tours.TOURS.items():
        page, query = _link(name, 0)
        st.page_link(page, label=tour.title, icon=":material/school:", query_params=query)
