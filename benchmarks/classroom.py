"""A classroom on one server: many browsers at once, in headless Chromium (Playwright).

Run from the repository root (needs Debian's ``chromium`` and the ``playwright``
Python package, no browser download)::

    python benchmarks/classroom.py [--students 30] [--heavy 6] [--port 8765]

It starts ``streamlit run app/Home.py`` and measures, on that one server:

1. **Same link**: ``--students`` browser sessions open one lecture link nobody
   has opened yet, all at once. Reported: when each shows its finished figure;
   target: the last within 15 s of the first.
2. **Different heavy settings**: ``--heavy`` sessions each open a different,
   not yet computed t-SNE setting at once, against the same number of other
   new settings opened one after another. Target: the concurrent batch takes
   at most 2x the one-after-another total (no thrashing, nobody starves).
3. **Claims** (``--phases claims``): the Claims page's first visit (every
   reduced-size reproduction computed) and three warm visits; target: warm
   under 3 s.
4. **Memory**: the server's resident memory (its whole process tree) after a
   tour of every page with a slider moved on each; target under 1.5 GB.

Prints one JSON line per phase and a summary table.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import signal
import socket
import subprocess
import sys
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


async def open_and_wait(browser, url: str, t0: float, timeout: float = 900.0, charts: int = 1) -> dict:
    """Open ``url`` in a fresh browser context; seconds from ``t0`` until its figures are drawn."""
    ctx = await browser.new_context(viewport={"width": 1400, "height": 900})
    page = await ctx.new_page()
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
                return {"url": url, "seconds": round(time.monotonic() - t0, 2)}
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
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
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


async def same_link(browser, base, args, report):
    """Phase 1: every student opens one link nobody has opened yet, at once."""
    t0 = time.monotonic()
    same = await asyncio.gather(*[open_and_wait(browser, f"{base}/tsne?seed=101", t0)
                                  for _ in range(args.students)])
    times = sorted(r["seconds"] for r in same if r["seconds"] is not None)
    report["same_link"] = {"sessions": args.students, "finished": len(times),
                           "first_s": times[0] if times else None, "last_s": times[-1] if times else None,
                           "spread_s": round(times[-1] - times[0], 2) if times else None}
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
    parser.add_argument("--students", type=int, default=30)
    parser.add_argument("--heavy", type=int, default=6)
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    parser.add_argument("--phases", nargs="+", default=["same", "heavy", "memory"],
                        choices=["home", "same", "heavy", "claims", "memory"])
    result = asyncio.run(main(parser.parse_args()))
    if "home" in result:
        print(f"\n{result['home']['sessions']} sessions opening the Home page (no computation): last shown at "
              f"{result['home']['last_s']} s (the browsers share the server's cores)")
    if "claims" in result:
        print(f"\nClaims page: first visit {result['claims']['first_visit_s']} s, warm visits "
              f"{result['claims']['warm_visits_s']} s (target: warm < 3 s)")
    if "same_link" in result:
        same = result["same_link"]
        print(f"\n{same['sessions']} sessions, one new link: first figure at {same['first_s']} s, last at "
              f"{same['last_s']} s (spread {same['spread_s']} s; target <= 15 s)")
    if "heavy" in result:
        heavy_ = result["heavy"]
        print(f"{heavy_['sessions']} different heavy settings at once: last at {heavy_['at_once_last_s']} s, "
              f"against {heavy_['one_after_another_total_s']} s one after another (ratio {heavy_['ratio']}; "
              "target <= 2)")
    if "memory" in result:
        print(f"server memory after a tour of every page: {result['memory']['server_rss_mb_after_tour']} MB "
              "(target < 1536 MB)")
