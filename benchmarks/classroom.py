"""A classroom on one server: many browsers at once, in headless Chromium (Playwright).

Run from the repository root (needs Debian's ``chromium`` and the ``playwright``
Python package, no browser download)::

    python benchmarks/classroom.py [--students 30] [--heavy 6] [--port 8765]

It starts ``streamlit run app/Home.py`` on an empty store folder of its own (``--store DIR`` to give one):
a new server, which prepares every page in the background meanwhile (``IKVIZ_PREPARE=0`` switches that
off), and measures, on that one server:

1. **Same link**: ``--students`` browser sessions open one lecture link nobody
   has opened yet, all at once. Reported: when each shows its finished figure;
   target: the last within 15 s of the first. Also when the server's last message reached each tab
   (``delivered``): the server's part of the spread; the rest is the browsers drawing.
2. **Different heavy settings**: ``--heavy`` sessions each open a different,
   not yet computed t-SNE setting at once, against the same number of other
   new settings opened one after another. Target: the concurrent batch takes
   at most 2x the one-after-another total (no thrashing, nobody starves).
3. **Claims** (``--phases claims``): the Claims page's first visit (every
   reduced-size reproduction computed) and three warm visits; target: warm
   under 3 s.
4. **Memory**: the server's resident memory (its whole process tree) after a
   tour of every page with a slider moved on each; target under 1.5 GB.
5. **What one tab pays** (``--phases tab``): each page opened by one measured
   tab alone on the server (after an unmeasured visit computed it), and the
   t-SNE page on a new link: bytes over HTTP and over the websocket, websocket
   messages, the tab's main-thread CPU in thread time (Chrome DevTools
   Protocol, so other processes on the cores do not inflate it), figure specs
   received and drawn (:class:`TabMeter`). The ``same`` phase reports the same
   per tab (median, max). Cheap enough to run under load; ``--tabs N`` runs the
   ``same`` phase with fewer tabs.

Prints one JSON line per phase and a summary table.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

from playwright.async_api import async_playwright

ROOT = Path(__file__).resolve().parents[1]
PAGES = ["", "kernel-shapes", "density", "curse-of-dimensionality", "clustering", "classification", "tsne",
         "your-data"]
DONE_JS = """() => { const app = document.querySelector('[data-testid="stApp"]');
  const main = document.querySelector('[data-testid="stMain"]') || document.body;
  return {state: app && app.getAttribute("data-test-script-state"),
          conn: app && app.getAttribute("data-test-connection-state"),
          charts: Array.from(main.querySelectorAll(".ikviz-plot, [data-testid='stPlotlyChart']"))
            .filter(e => !e.closest(".st-key-ikviz-plotly-warm-up")).length,
          // a figure the page sent and the browser has not drawn yet (app/plotly_chart.js) is work still to do
          busy: main.querySelectorAll('[data-testid="stProgress"],[data-testid="stSkeleton"],.ikviz-plot[data-pending]')
            .length,
          titled: main.querySelectorAll("h1").length,
          errors: main.querySelectorAll('[data-testid="stException"]').length}; }"""


# the time (epoch ms) each websocket message reaches the tab's code: when the server delivered what the tab draws
DELIVERY_JS = """(() => { const WS = window.WebSocket;
  function Timed(...args) { const ws = new WS(...args);
    ws.addEventListener("message", () => { window.__ikvizLastMessage = performance.timeOrigin + performance.now(); });
    return ws; }
  Timed.prototype = WS.prototype; Object.assign(Timed, WS); window.WebSocket = Timed; })();"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def tree_rss_bytes(pid: int) -> int:
    """Resident memory of ``pid`` and all its descendants (Linux /proc)."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                ppid = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            children.setdefault(ppid, []).append(int(entry.name))
    total, todo = 0, [pid]
    while todo:
        p = todo.pop()
        todo.extend(children.get(p, []))
        try:
            for line in Path(f"/proc/{p}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1]) * 1024
        except OSError:
            pass
    return total


def start_server(port: int, env: dict, entry: str = "app/Home.py") -> subprocess.Popen:
    cmd = [sys.executable, "-m", "streamlit", "run", entry, "--server.headless", "true",
           "--server.port", str(port), "--browser.gatherUsageStats", "false"]
    proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT,
                            start_new_session=True)
    for _ in range(300):
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/_stcore/health", timeout=2):
                return proc
        except OSError:
            time.sleep(0.2)
    proc.kill()
    raise RuntimeError("streamlit did not start within 60 s")


class TabMeter:
    """What one browser tab pays, read through the Chrome DevTools Protocol: load-insensitive counts.

    ``http_kb``: bytes received over HTTP (as transferred, compressed where the server compresses: the app's
    code, Plotly's bundle, fonts); ``ws_kb`` and ``ws_messages``: what the server sent over the websocket
    (Streamlit's deltas, figure specs included); ``cpu_ms``: the tab's main thread's CPU time in tasks
    (``Performance.getMetrics``'s TaskDuration measured in thread time, not wall time, so other processes
    on the cores do not inflate it), with its ``script_ms``, ``layout_ms`` and ``style_ms`` parts;
    ``draws``: figures drawn by app/plotly_chart.js (``Plotly.react`` calls), ``specs``: figure specs it
    received, ``spec_kb``: their size.
    """

    def __init__(self, ctx, page):
        self.ctx, self.page = ctx, page
        self.http = self.ws = self.ws_messages = self.ws_sent = 0

    async def start(self) -> None:
        self.cdp = await self.ctx.new_cdp_session(self.page)
        try:
            await self.cdp.send("Performance.enable", {"timeDomain": "threadTicks"})
            self.thread_time = True
        except Exception:  # noqa: BLE001 - a Chromium without thread ticks: wall time of the tasks
            await self.cdp.send("Performance.enable")
            self.thread_time = False
        await self.cdp.send("Network.enable")
        self.cdp.on("Network.loadingFinished", self._loaded)
        self.cdp.on("Network.webSocketFrameReceived", self._frame)
        self.cdp.on("Network.webSocketFrameSent", self._sent)

    def _loaded(self, event) -> None:
        self.http += event.get("encodedDataLength", 0)

    def _frame(self, event) -> None:
        response = event["response"]
        data = response.get("payloadData", "")
        # a binary frame (opcode 2, Streamlit's protobuf messages) arrives base64-encoded
        size = (len(data) * 3) // 4 - data[-2:].count("=") if response.get("opcode") == 2 else len(data.encode())
        self.ws += size
        self.ws_messages += 1

    def _sent(self, _event) -> None:
        self.ws_sent += 1

    async def read(self) -> dict:
        metrics = {m["name"]: m["value"] for m in (await self.cdp.send("Performance.getMetrics"))["metrics"]}
        plot = await self.page.evaluate("""() => ({...(window.__ikvizStats || {}),
          // figures drawn (Plotly's SVG root inside) and figures Plotly refused (app/plotly_chart.js's message)
          shown: document.querySelectorAll(".ikviz-plot .main-svg").length,
          failed: Array.from(document.querySelectorAll(".ikviz-plot"))
            .filter(e => e.textContent.startsWith("The figure could not be drawn")).length})""")
        ms = lambda name: round(metrics.get(name, 0.0) * 1000)  # noqa: E731 - seconds to ms
        return {"http_kb": round(self.http / 1024), "ws_kb": round(self.ws / 1024), "ws_messages": self.ws_messages,
                "ws_sent": self.ws_sent, "cpu_ms": ms("TaskDuration"), "script_ms": ms("ScriptDuration"),
                "layout_ms": ms("LayoutDuration"), "style_ms": ms("RecalcStyleDuration"),
                "thread_time": self.thread_time, "heap_mb": round(metrics.get("JSHeapUsedSize", 0) / 2**20, 1),
                "draws": plot.get("draws", 0), "specs": plot.get("specs", 0), "shown": plot.get("shown", 0),
                "failed": plot.get("failed", 0),
                "spec_kb": round(plot.get("specBytes", 0) / 1024)}


async def open_and_wait(browser, url: str, t0: float, timeout: float = 900.0, charts: int = 1,
                        meter: bool = False) -> dict:
    """Open ``url`` in a fresh browser context; seconds from ``t0`` until its figures are drawn.

    ``meter``: also what the tab paid to get there (:class:`TabMeter`), under ``"tab"``, and ``"delivered"``:
    seconds from ``t0`` until the last websocket message before the figures were drawn reached the tab (what
    the server did; the rest, to ``"seconds"``, is the browser's drawing).
    """
    ctx = await browser.new_context(viewport={"width": 1400, "height": 900})
    epoch0 = time.time() - (time.monotonic() - t0)   # t0 on the tabs' clock (epoch)
    if meter:
        await ctx.add_init_script(DELIVERY_JS)
    page = await ctx.new_page()
    tab = TabMeter(ctx, page) if meter else None
    if tab is not None:
        await tab.start()
    try:
        await page.goto(url, wait_until="domcontentloaded", timeout=timeout * 1000)
        seen_running = False
        while time.monotonic() - t0 < timeout:
            s = await page.evaluate(DONE_JS)
            seen_running |= s["state"] in ("running", "rerunRequested")
            if s["errors"]:
                return {"url": url, "seconds": None, "error": "exception box"}
            if (s["state"] == "notRunning" and s["conn"] == "CONNECTED" and s["charts"] >= charts
                    and s["busy"] == 0 and s["titled"] > 0):
                done = {"url": url, "seconds": round(time.monotonic() - t0, 2)}
                if tab is not None:
                    last = await page.evaluate("window.__ikvizLastMessage || 0")
                    done["delivered"] = round(last / 1000 - epoch0, 2) if last else None
                    await asyncio.sleep(0.5)  # the paint after the last figure's draw
                    done["tab"] = await tab.read()
                return done
            await asyncio.sleep(0.2)
        return {"url": url, "seconds": None, "error": "timeout"}
    finally:
        await ctx.close()


async def tour(browser, base: str) -> None:
    """Every page, with its first slider moved by three arrow presses."""
    ctx = await browser.new_context(viewport={"width": 1400, "height": 900})
    page = await ctx.new_page()
    for path in PAGES:
        t0 = time.monotonic()
        await page.goto(f"{base}/{path}", wait_until="domcontentloaded")
        await asyncio.sleep(1.0)
        while time.monotonic() - t0 < 600:
            s = await page.evaluate(DONE_JS)
            if s["state"] == "notRunning" and s["busy"] == 0:
                break
            await asyncio.sleep(0.3)
        sliders = page.locator('[data-testid="stSlider"] input[type="range"]')
        if await sliders.count():
            await sliders.first.focus()
            for _ in range(3):
                await page.keyboard.press("ArrowRight")
            await asyncio.sleep(1.0)
            t1 = time.monotonic()
            while time.monotonic() - t1 < 600:
                s = await page.evaluate(DONE_JS)
                if s["state"] == "notRunning" and s["busy"] == 0:
                    break
                await asyncio.sleep(0.3)
    await ctx.close()


async def main(args) -> dict:
    port = args.port or free_port()
    base = f"http://127.0.0.1:{port}"
    # a new server: an empty store folder of its own (which it prepares in the background unless
    # IKVIZ_PREPARE=0), never the user's store, so that one run does not start where another left off
    folder = None if args.store else tempfile.mkdtemp(prefix="ikviz-classroom-")
    env = {**os.environ, "PYTHONUNBUFFERED": "1", "IKVIZ_STORE_DIR": args.store or folder}
    try:
        return await _run(args, base, port, env)
    finally:
        if folder is not None:
            shutil.rmtree(folder, ignore_errors=True)


async def _run(args, base: str, port: int, env: dict) -> dict:
    server = start_server(port, env)
    report: dict = {}
    try:
        async with async_playwright() as pw:
            browser = await pw.chromium.launch(executable_path=args.chromium, headless=True,
                                               args=["--no-sandbox", "--disable-dev-shm-usage"])
            # warm up: compile numba and import everything once (as any server does for its first visitor)
            await open_and_wait(browser, f"{base}/tsne?seed=100", time.monotonic())

            if "home" in args.phases:  # the browsers' own cost: the Home page computes nothing
                t0 = time.monotonic()
                home = await asyncio.gather(*[open_and_wait(browser, f"{base}/", t0, charts=0)
                                              for _ in range(args.students)])
                times = sorted(r["seconds"] for r in home if r["seconds"] is not None)
                report["home"] = {"sessions": args.students, "first_s": times[0], "last_s": times[-1]}
                print(json.dumps(report["home"]), flush=True)
            if "tab" in args.phases:
                await per_tab(browser, base, report)
            if "same" in args.phases:
                await same_link(browser, base, args, report)
            if "heavy" in args.phases:
                await heavy(browser, base, args, report)
            if "claims" in args.phases:
                await claims_page(browser, base, report)
            if "memory" in args.phases:
                await tour(browser, base)
                report["memory"] = {"server_rss_mb_after_tour": round(tree_rss_bytes(server.pid) / 2**20)}
                print(json.dumps(report["memory"]), flush=True)
            await browser.close()
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        try:
            server.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, signal.SIGKILL)
    return report


async def per_tab(browser, base, report):
    """What one tab pays for each page, alone on the server: bytes, messages, its own CPU (:class:`TabMeter`).

    Each page is opened twice: first by a tab that is not measured (the server computes what the page shows),
    then by a measured one; the t-SNE page also on a link nobody has opened (the classroom's phase 1: the tab
    waits for the computation and receives its progress)."""
    rows = {}
    new = f"tsne?seed={int(time.time()) % 10_000 + 10_000}"
    first = await open_and_wait(browser, f"{base}/{new}", time.monotonic(), meter=True)
    rows[f"{new} (new link)"] = {"seconds": first["seconds"], **first.get("tab", {})}
    print(json.dumps({"page": f"{new} (new link)", **rows[f"{new} (new link)"]}), flush=True)
    for path in [new] + PAGES:
        charts = 0 if path in ("", "your-data") else 1
        if path != new:
            await open_and_wait(browser, f"{base}/{path}", time.monotonic(), charts=charts)
        got = await open_and_wait(browser, f"{base}/{path}", time.monotonic(), charts=charts, meter=True)
        rows[path or "home"] = {"seconds": got["seconds"], **got.get("tab", {}),
                                **({"error": got["error"]} if "error" in got else {})}
        print(json.dumps({"page": path or "home", **rows[path or "home"]}), flush=True)
    report["per_tab"] = rows


async def same_link(browser, base, args, report):
    """Phase 1: every student opens one link nobody has opened yet, at once."""
    t0 = time.monotonic()
    link = f"tsne?seed={args.seed}"
    same = await asyncio.gather(*[open_and_wait(browser, f"{base}/{link}", t0, meter=True)
                                  for _ in range(args.students)])
    times = sorted(r["seconds"] for r in same if r["seconds"] is not None)
    delivered = sorted(r["delivered"] for r in same if r.get("delivered") is not None)
    tabs = [r["tab"] for r in same if "tab" in r]
    each = {c: (round(statistics.median(t[c] for t in tabs)), max(t[c] for t in tabs)) if tabs else None
            for c in ("cpu_ms", "script_ms", "ws_messages", "ws_kb", "http_kb", "draws")}
    report["same_link"] = {"sessions": args.students, "link": link, "finished": len(times),
                           "first_s": times[0] if times else None, "last_s": times[-1] if times else None,
                           "spread_s": round(times[-1] - times[0], 2) if times else None,
                           # the server's part of the spread: when the last message reached each tab
                           "delivered_first_last_s": [delivered[0], delivered[-1]] if delivered else None,
                           "per_tab_median_max": each}
    print(json.dumps(report["same_link"]), flush=True)


async def claims_page(browser, base, report):
    """The Claims page: a first visit runs every reduced-size reproduction; later visits read the store."""
    cold = await open_and_wait(browser, f"{base}/claims", time.monotonic(), charts=0)
    warm = []
    for _ in range(3):
        warm.append((await open_and_wait(browser, f"{base}/claims", time.monotonic(), charts=0))["seconds"])
    report["claims"] = {"first_visit_s": cold["seconds"], "warm_visits_s": warm}
    print(json.dumps(report["claims"]), flush=True)


async def heavy(browser, base, args, report):
    """Phase 2: different heavy settings one after another, then as many others at once."""
    serial = []
    for seed in range(200, 200 + args.heavy):
        t1 = time.monotonic()
        serial.append((await open_and_wait(browser, f"{base}/tsne?seed={seed}", t1))["seconds"])
    t2 = time.monotonic()
    together = await asyncio.gather(*[open_and_wait(browser, f"{base}/tsne?seed={seed}", t2)
                                      for seed in range(300, 300 + args.heavy)])
    each = sorted(r["seconds"] for r in together if r["seconds"] is not None)
    serial_total = round(sum(s for s in serial if s is not None), 2)
    report["heavy"] = {"sessions": args.heavy, "one_after_another_s": serial,
                       "one_after_another_total_s": serial_total, "at_once_each_s": each,
                       "at_once_last_s": each[-1] if each else None,
                       "ratio": round(each[-1] / serial_total, 2) if each and serial_total else None}
    print(json.dumps(report["heavy"]), flush=True)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--students", "--tabs", type=int, default=30,
                        help="browser sessions of the 'same', 'home' phases (fewer: a lighter run)")
    parser.add_argument("--seed", type=int, default=101, help="the 'same' phase's link: tsne?seed=SEED "
                        "(a seed no run of this server has opened; the warm-up opens 100)")
    parser.add_argument("--heavy", type=int, default=6)
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    parser.add_argument("--store", help="the server's store folder (default: a new, empty one, removed after)")
    parser.add_argument("--phases", nargs="+", default=["same", "heavy", "memory"],
                        choices=["home", "tab", "same", "heavy", "claims", "memory"])
    result = asyncio.run(main(parser.parse_args()))
    if "home" in result:
        print(f"\n{result['home']['sessions']} sessions opening the Home page (no computation): last shown at "
              f"{result['home']['last_s']} s (the browsers share the server's cores)")
    if "claims" in result:
        print(f"\nClaims page: first visit {result['claims']['first_visit_s']} s, warm visits "
              f"{result['claims']['warm_visits_s']} s (target: warm < 3 s)")
    if "per_tab" in result:
        cols = ("seconds", "http_kb", "ws_kb", "ws_messages", "cpu_ms", "script_ms", "layout_ms", "style_ms",
                "specs", "spec_kb", "draws", "failed")
        print("\nWhat one tab pays per page (alone on the server; CPU: the tab's main thread, thread time)")
        print("| page | " + " | ".join(cols) + " |")
        print("|---|" + "---:|" * len(cols))
        for name, row in result["per_tab"].items():
            print(f"| {name} | " + " | ".join(str(row.get(c, "")) for c in cols) + " |")
    if "same_link" in result:
        same = result["same_link"]
        print(f"\n{same['sessions']} sessions, one new link: first figure at {same['first_s']} s, last at "
              f"{same['last_s']} s (spread {same['spread_s']} s; target <= 15 s)")
        if same.get("delivered_first_last_s"):
            first, last = same["delivered_first_last_s"]
            print(f"the server's last message reached the tabs between {first} and {last} s (the rest: drawing)")
        print("per tab (median, max): " + ", ".join(f"{k} {v[0]}, {v[1]}" for k, v in
                                                   (same["per_tab_median_max"] or {}).items() if v))
    if "heavy" in result:
        heavy_ = result["heavy"]
        print(f"{heavy_['sessions']} different heavy settings at once: last at {heavy_['at_once_last_s']} s, "
              f"against {heavy_['one_after_another_total_s']} s one after another (ratio {heavy_['ratio']}; "
              "target <= 2)")
    if "memory" in result:
        print(f"server memory after a tour of every page: {result['memory']['server_rss_mb_after_tour']} MB "
              "(target < 1536 MB)")
