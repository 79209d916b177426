"""How long each page takes for a lecturer, in headless Chromium on a freshly started server.

Run from the repository root (needs Debian's ``chromium`` and the ``playwright``
Python package, no browser download)::

    python benchmarks/app_rerun.py [--pages kernel-shapes density ...] [--json out.json]

It starts ``streamlit run app/Home.py`` with an empty results store, opens Home
once (the browser fetches the app's scripts: a student's first visit) and then,
page by page in a new tab, measures (issue 16's targets in brackets):

- **first figure**: opening the page's link until its first Plotly figure is drawn (2 s; on an empty store,
  issue 32: 10 s for a page, 5 s for a tour step). On an empty store a slow view first shows a *first look*
  (the same computation at a smaller size, ``app/figures.py``'s ``PREVIEWS``) while the full view computes:
  the table marks such a first figure "(first look)", and **complete** is then the full view's;
- **complete**: until the script has finished and nothing waits any more;
- **reload**: the same after a browser reload of the computed view (1.5 s);
- **new value**: one arrow press on an ordinary control until the rerun is drawn (2 s);
- **back**: the arrow press back to the computed value (0.5 s);
  both are timed until what the figures draw shows it: changed figures for the new value, the figures
  from before for the press back (the script's end alone can come a moment before the last figure has its
  data). The table says "no figure changed" when the new value left every figure as it was for 3 s, and
  "figures not as before!" when going back did not restore them (then both give the script's end);
- **sidebar**: afterwards, in one tab, moving to the page through the sidebar (as a
  lecture goes from page to page; nothing new to compute).

``--store DIR`` starts the server on a store prepared by ``python app/prepare.py``
(``IKVIZ_STORE_DIR=DIR``), the state of a server after its first start.

``--floor`` first measures the same on ``benchmarks/floor_app.py``, a Streamlit
page with one small Plotly figure and a slider: what Streamlit and Plotly alone
cost in this browser on this machine (the row ``floor``), so that each page's
figures can be read against it.

``--tours`` also measures every step of the guided tours as a lecture opens it: its link, in
presentation mode (one figure, the step's control), moving the step's control; the Claims page is then
measured after the steps (it starts every reproduction's check, minutes of work on both cores). With a prepared
store, that first press lands on a prepared view too (``app/prepare.py`` moves each step's control
one press either way).

Each page is measured in ``--repeat`` new tabs (default 3) and the table gives the medians: single
runs on a 2-core machine vary by half a second, as much as some targets. The JSON rows keep every run.

``--server-only`` instead times the script reruns in AppTest (no browser), the
old form of this benchmark. Prints one JSON line per page and a table.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time

from classroom import (  # one way to start and watch a server
    DONE_JS,
    free_port,
    start_server,
)
from playwright.async_api import async_playwright

# page -> the URL key of an ordinary control to move (a slider; one arrow press is one step)
CONTROLS = {
    "kernel-shapes": "ref_x",
    "density": "gamma",
    "curse-of-dimensionality": "eps",
    "clustering": "sigma_b",
    "classification": "n_test",
    "tsne": "perplexity",
    "how-ik-is-built": "psi",
    "claims": None,
}
# the page's figures, drawn and current; not the hidden chart that loads Plotly early (app/ui.py)
FIRST_FIGURE_JS = """() => Array.from(document.querySelectorAll(
  '[data-testid="stMain"] [data-stale="false"] .js-plotly-plot .main-svg'))
  .filter(e => !e.closest('.st-key-ikviz-plotly-warm-up')).length"""


# whether the page shows a first look (app/figures.py: a smaller computation while the full view computes)
FIRST_LOOK_JS = """() => Array.from(document.querySelectorAll('[data-testid="stMain"] [data-testid="stAlert"]'))
  .some(e => e.innerText.includes("First look"))"""


# counts the script runs the page has started: a fast rerun can start and end between two polls
RUNS_JS = """(() => { window.__ikvizRuns = 0;
  const watch = () => new MutationObserver((records) => {
    // the values the script state took, in order, even those undone before this callback ran:
    // record i's new value is record i + 1's old one, the last record's is the current value
    const mine = records.filter(r => r.target.getAttribute("data-testid") === "stApp");
    mine.forEach((r, i) => {
      const now = i + 1 < mine.length ? mine[i + 1].oldValue : r.target.getAttribute(r.attributeName);
      if (now === "running" && r.oldValue !== "running") window.__ikvizRuns += 1;
    });
  }).observe(document.documentElement, {subtree: true, attributes: true, attributeOldValue: true,
                                        attributeFilter: ["data-test-script-state"]});
  if (document.documentElement) watch(); else document.addEventListener("DOMContentLoaded", watch);
})();"""


async def _runs(page) -> int:
    try:
        return await page.evaluate("window.__ikvizRuns || 0")
    except Exception:
        return 0


async def _started(page, before: int, timeout: float = 3.0) -> bool:
    """Wait until the page has started a script run after the ``before``-th; False if none showed."""
    t0 = time.monotonic()
    while time.monotonic() - t0 < timeout:
        if await _runs(page) > before:
            return True
        await asyncio.sleep(0.01)
    return False


def _watch_frames(page) -> dict:
    """The time of the last message the page received from the server (kept up to date)."""
    last = {"at": None}

    def on_socket(ws):
        ws.on("framereceived", lambda _payload: last.update(at=time.monotonic()))

    page.on("websocket", on_socket)
    return last


async def _state(page) -> dict | None:
    """The page's script state (see classroom.DONE_JS), or None while a new document is still loading."""
    try:
        return await page.evaluate(DONE_JS)
    except Exception:  # the document was replaced between two polls
        return None


async def _count_figures(page) -> int:
    try:
        return await page.evaluate(FIRST_FIGURE_JS)
    except Exception:
        return 0


def _complete(state) -> bool:
    return (state["state"] == "notRunning" and state["conn"] == "CONNECTED" and state["busy"] == 0
            and state["titled"] > 0)


async def _open(page, action, timeout: float, in_app: bool = False) -> dict:
    """Run ``action`` (a goto, a reload or, ``in_app``, a click) and time the first figure and the finished page."""
    before = await _runs(page)
    t0 = time.monotonic()
    await action()
    if in_app:  # the same document: wait for the page's own run to start, not the previous page's end
        await _started(page, before)
    first = None
    look = False
    while time.monotonic() - t0 < timeout:
        state = await _state(page)
        if state is None:
            await asyncio.sleep(0.05)
            continue
        if state["errors"]:
            return {"error": "exception box"}
        if first is None and await _count_figures(page):
            first = time.monotonic() - t0
            try:
                look = bool(await page.evaluate(FIRST_LOOK_JS))
            except Exception:
                look = False
        if _complete(state) and (first is not None or state["charts"] == 0):
            done = time.monotonic() - t0
            return {"first_figure_s": round(first if first is not None else done, 2), "complete_s": round(done, 2),
                    "first_look": look}
        await asyncio.sleep(0.05)
    return {"error": "timeout", **({"first_figure_s": round(first, 2), "first_look": look} if first else {})}


async def _move(page, frames: dict, key: str, press: str, timeout: float, drawn, settle: float = 3.0):
    """One arrow press on control ``key``: ``(seconds until the rerun it starts has been drawn, drawn(picture))``.

    ``drawn`` tells from the figures' picture (a :data:`PICTURE_JS` hash) whether the press has been
    drawn: changed figures for a new value, the figures from before for the press back. The script state
    alone can read done a moment early: a changed figure's data reach its chart after the script's end,
    and a chart already drawn marks itself pending again only when they arrive. A page that stays done
    for ``settle`` seconds without ``drawn`` holding gives the time it was first done and False (a control
    that changes no figure, or figures that did not come back). ``(None, None)`` if the rerun did not end
    in ``timeout``.
    """
    thumb = page.locator(f".st-key-_w_{key} input[type='range']")
    if not await thumb.count():
        return None, None
    await thumb.first.focus()
    before = await _runs(page)
    t0 = time.monotonic()
    await page.keyboard.press(press)
    # the rerun starts after the slider's own debounce; wait to see it start before waiting for its end
    if not await _started(page, before):
        # a rerun of a few milliseconds can come and go within one rendering, never showing as running:
        # it ended with the last message the server sent
        at = frames["at"]
        if at is None or at <= t0:
            return None, None
        return round(at - t0, 2), drawn(await _picture(page))
    done_at = None
    while time.monotonic() - t0 < timeout:
        state = await _state(page)
        now = time.monotonic()
        if state is None or not _complete(state):
            done_at = None
        elif drawn(await _picture(page)):
            return round(now - t0, 2), True
        elif done_at is None:
            done_at = now
        elif now - done_at > settle:
            return round(done_at - t0, 2), False
        await asyncio.sleep(0.02)
    return None, None


# what the page's figures draw, as a hash of the data each Plotly graph holds: a rerun that is fast because the
# browser kept the old picture (as a chart whose element id stays the same does) must not count as a fast move
PICTURE_JS = """() => { const text = Array.from(document.querySelectorAll('[data-testid="stMain"] .js-plotly-plot'))
  .filter(g => !g.closest('.st-key-ikviz-plotly-warm-up')).map(g => JSON.stringify(g.data || null)).join('|');
  let h = 0; for (let i = 0; i < text.length; i++) h = (h * 31 + text.charCodeAt(i)) | 0; return h; }"""


async def _picture(page) -> int | None:
    try:
        return await page.evaluate(PICTURE_JS)
    except Exception:
        return None


async def _settled_picture(page, wait: float = 0.3, timeout: float = 5.0) -> int | None:
    """The picture once two reads ``wait`` seconds apart agree: what the press back must bring back."""
    t0 = time.monotonic()
    shown = await _picture(page)
    while time.monotonic() - t0 < timeout:
        await asyncio.sleep(wait)
        again = await _picture(page)
        if again == shown:
            return shown
        shown = again
    return shown


async def measure(ctx, base: str, path: str, timeout: float, control: str | None = None) -> dict:
    """One page in a new tab of ``ctx`` (whose browser cache already holds the app's scripts);
    ``control``: the URL key of the slider to move, by default the page's own from ``CONTROLS``."""
    page = await ctx.new_page()
    frames = _watch_frames(page)
    row: dict = {"page": path}
    try:
        first = await _open(page, lambda: page.goto(f"{base}/{path}", wait_until="commit"), timeout)
        row.update({f"first_{k}": v for k, v in first.items()})
        reload = await _open(page, lambda: page.reload(wait_until="commit"), timeout)
        row.update({f"reload_{k}": v for k, v in reload.items()})
        key = control or CONTROLS.get(path)
        if key and "error" not in reload:
            shown = await _settled_picture(page)
            row["new_value_s"], row["new_value_redrawn"] = await _move(
                page, frames, key, "ArrowRight", timeout, drawn=lambda picture: picture != shown)
            row["back_s"], row["back_restored"] = await _move(
                page, frames, key, "ArrowLeft", timeout, drawn=lambda picture: picture == shown)
    finally:
        await page.close()
    return row


def tour_steps() -> list[tuple[str, str | None]]:
    """Every distinct step of the guided tours as a lecture opens it (presentation mode), with its control."""
    from ikviz.tours import TOURS, step_url

    steps = {}
    for name, tour in TOURS.items():
        for i, step in enumerate(tour.steps):
            # the opening step is the same page in every tour: measure it once per setting
            steps.setdefault((step.page, tuple(sorted(step.params.items()))), (step_url(name, i), step.control))
    return list(steps.values())


async def measured(ctx, base: str, path: str, timeout: float, repeat: int, control: str | None = None) -> dict:
    """:func:`measure` in ``repeat`` new tabs, as one row of medians (:func:`median_row`), printed as it comes."""
    row = median_row([await measure(ctx, base, path, timeout, control=control) for _ in range(repeat)])
    print(json.dumps(row), flush=True)
    return row


def median_row(rows: list[dict]) -> dict:
    """One row of the medians of ``rows`` (the same page measured in several new tabs), with each
    measurement's values in ``runs`` so that the spread can be read; the new value is the first
    tab's (the later tabs move to a value the first computed)."""
    import statistics

    out: dict = {"page": rows[0]["page"]}
    for key in rows[0]:
        if key == "page":
            continue
        # only the first tab's move computes something new: the later tabs move to a value it computed
        # (and only the first tab can meet a first look: the later ones find the full view computed)
        values = [r.get(key) for r in (rows[:1] if key in ("new_value_s", "first_first_look") else rows)]
        if all(isinstance(v, bool) for v in values):  # a check of the picture holds only if it held in every tab
            out[key] = all(values)
            continue
        numbers = [v for v in values if isinstance(v, (int, float))]
        if len(numbers) == len(values):
            out[key] = round(statistics.median(numbers), 2)
        else:  # an error or a missing value in any run is reported, not hidden in a median
            out[key] = next(v for v in values if not isinstance(v, (int, float)))
    if len(rows) > 1:
        out["runs"] = {k: [r.get(k) for r in rows] for k in out if k not in ("page", "runs")}
    return out


def stop_server(server: subprocess.Popen) -> None:
    os.killpg(server.pid, signal.SIGTERM)
    try:
        server.wait(timeout=20)
    except subprocess.TimeoutExpired:
        os.killpg(server.pid, signal.SIGKILL)


async def floor_row(browser, timeout: float, repeat: int = 1) -> dict:
    """The measurements of :func:`measure` on ``floor_app.py``, in a browser context of its own."""
    port = free_port()
    server = start_server(port, {**os.environ, "PYTHONUNBUFFERED": "1"}, entry="benchmarks/floor_app.py")
    try:
        ctx = await browser.new_context(viewport={"width": 1400, "height": 900})
        await ctx.add_init_script(RUNS_JS)
        home = await ctx.new_page()  # the first visit fetches the scripts, as for the app
        await _open(home, lambda: home.goto(f"http://127.0.0.1:{port}", wait_until="commit"), timeout)
        await home.close()
        row = await measured(ctx, f"http://127.0.0.1:{port}", "", timeout, repeat, control="x")
        await ctx.close()
    finally:
        stop_server(server)
    return {**row, "page": "floor"}


async def browser_main(args) -> list[dict]:
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    empty = tempfile.mkdtemp(prefix="ikviz-store-")
    # a prepared store (app/prepare.py), or an empty one that nothing fills in the background
    env = {**os.environ, "PYTHONUNBUFFERED": "1", "IKVIZ_STORE_DIR": args.store or empty, "IKVIZ_PREPARE": "0"}
    rows = []
    async with async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=args.chromium, headless=True,
                                           args=["--no-sandbox", "--disable-dev-shm-usage"])
        if args.floor:
            rows.append(await floor_row(browser, args.timeout, args.repeat))
        t0 = time.monotonic()
        server = start_server(port, env)
        print(json.dumps({"server_start_s": round(time.monotonic() - t0, 2)}), flush=True)
        try:
            ctx = await browser.new_context(viewport={"width": 1400, "height": 900})
            await ctx.add_init_script(RUNS_JS)
            # a student's first visit: the browser fetches and compiles the app's scripts once
            home = await ctx.new_page()
            cold = await _open(home, lambda: home.goto(base, wait_until="commit"), args.timeout)
            print(json.dumps({"home_cold_browser_s": cold.get("complete_s")}), flush=True)
            await home.close()
            # with --tours, the Claims page after the steps: opening it starts every reproduction's check (minutes
            # of work on both cores, run to their end), which every step measured after it would compete with
            last = [p for p in args.pages if p == "claims"] if args.tours else []
            pages = [await measured(ctx, base, path, args.timeout, args.repeat)
                     for path in args.pages if path not in last]
            steps = [await measured(ctx, base, path, args.timeout, args.repeat, control=control)
                     for path, control in (tour_steps() if args.tours else [])]
            pages += [await measured(ctx, base, path, args.timeout, args.repeat) for path in last]
            # the lecture's own path: one tab, from page to page through the sidebar (everything computed)
            tab = await ctx.new_page()
            await _open(tab, lambda: tab.goto(base, wait_until="commit"), args.timeout)
            for row in pages:
                link = tab.locator(f'[data-testid="stSidebarNav"] a[href$="/{row["page"]}"]')
                moved = await _open(tab, lambda link=link: link.first.click(), args.timeout, in_app=True)
                row.update({f"sidebar_{k}": v for k, v in moved.items()})
                print(json.dumps({"page": row["page"], **{k: v for k, v in row.items() if k.startswith("sidebar")}}),
                      flush=True)
            rows += pages + steps
        finally:
            stop_server(server)
            shutil.rmtree(empty, ignore_errors=True)
        await browser.close()
    return rows


def print_table(rows: list[dict]) -> None:
    cols = [("first figure", "first_first_figure_s"), ("complete", "first_complete_s"),
            ("reload figure", "reload_first_figure_s"), ("reload complete", "reload_complete_s"),
            ("new value", "new_value_s"), ("back", "back_s"), ("sidebar figure", "sidebar_first_figure_s"),
            ("sidebar complete", "sidebar_complete_s")]
    print("\n| page | " + " | ".join(c for c, _ in cols) + " |")
    print("|---|" + "---|" * len(cols))
    notes = {"new_value_s": ("new_value_redrawn", " (no figure changed)"),
             "back_s": ("back_restored", " (figures not as before!)")}
    for row in rows:
        cells = [row.get(k, row.get("first_error", "")) for _, k in cols]
        for i, (_, k) in enumerate(cols):
            check, note = notes.get(k, (None, ""))
            if check and row.get(check) is False and cells[i] is not None:
                cells[i] = f"{cells[i]}{note}"
        if row.get("first_first_look") is True:  # the first figure was a first look (app/figures.py PREVIEWS)
            cells[0] = f"{cells[0]} (first look)"
        print(f"| {row['page']} | " + " | ".join("–" if c is None or c == "" else str(c) for c in cells) + " |")


def server_only(pages: list[str], repeats: int = 3) -> None:
    """The script's own rerun time in AppTest: first render, then each page's control moved."""
    import statistics
    from pathlib import Path

    from streamlit.testing.v1 import AppTest

    home = str(Path(__file__).resolve().parents[1] / "app" / "Home.py")
    for path in pages:
        at = AppTest.from_file(home, default_timeout=600)
        at.run()
        at.switch_page(f"views/{path.replace('-', '_')}.py")
        start = time.perf_counter()
        at.run()
        print(f"{path}: first render {time.perf_counter() - start:.2f} s")
        key = CONTROLS.get(path)
        widgets = [w for kind in ("slider", "select_slider") for w in getattr(at, kind) if w.key == f"_w_{key}"]
        if not widgets:
            continue
        times = []
        for _ in range(repeats):
            start = time.perf_counter()
            at.run()
            times.append(time.perf_counter() - start)
        print(f"{path}: unchanged rerun, median {statistics.median(times):.2f} s")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pages", nargs="+", default=[p for p in CONTROLS])
    parser.add_argument("--store", help="a results store prepared by app/prepare.py; default: an empty one")
    parser.add_argument("--timeout", type=float, default=600.0)
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    parser.add_argument("--json", help="also write the rows here")
    parser.add_argument("--floor", action="store_true", help="first measure benchmarks/floor_app.py")
    parser.add_argument("--tours", action="store_true",
                        help="also measure every tour step as a lecture opens it, in presentation mode")
    parser.add_argument("--repeat", type=int, default=3,
                        help="measure each page in this many new tabs and report the medians (default 3)")
    parser.add_argument("--server-only", action="store_true")
    args = parser.parse_args()
    if args.server_only:
        server_only(args.pages)
        sys.exit(0)
    result = asyncio.run(browser_main(args))
    print_table(result)
    if args.json:
        with open(args.json, "w") as fh:
            json.dump(result, fh, indent=1)
