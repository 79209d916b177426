"""Which figures of each page Plotly draws twice: those whose margins its ``automargin`` widens.

Run from the repository root (headless Chromium and Playwright, as ``benchmarks/classroom.py``)::

    IKVIZ_STORE_DIR=DIR python benchmarks/automargin.py [--pages tsne density ...] [--viewport 390x844]

Plotly draws a figure, measures its tick labels, titles, legend and colour bars, and when they need more room
than the figure's margins give, widens the margins and draws the whole figure again: about a third more of
the browser's CPU for that figure (the t-SNE page's two panels: 0.31-0.48 -> 0.21-0.34 CPU-s per tab once
their margins left room for the axis titles, 0f6d847). For every figure of each page's default view this
prints its width and the margins asked for and those Plotly drew with (left, right, top, bottom); ``widened`` marks a
figure drawn twice. ``DIR``: a prepared store (``python app/prepare.py``) makes the run quick.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import signal
import time

from classroom import DONE_JS, PAGES, async_playwright, free_port, start_server

PROBE = """() => Array.from(document.querySelectorAll('.ikviz-plot')).filter(g => g._fullLayout).map(g => {
  const m = g._fullLayout.margin, s = g._fullLayout._size, t = (g.layout.title || {}).text || '';
  return {title: String(t).split('<br>')[0].slice(0, 48), width: Math.round(g._fullLayout.width),
          asked: [m.l, m.r, m.t, m.b],
          drawn: [s.l, s.r, s.t, s.b].map(Math.round),
          widened: s.l > m.l + 0.5 || s.r > m.r + 0.5 || s.t > m.t + 0.5 || s.b > m.b + 0.5}; })"""


async def main(pages: list[str], chromium: str, viewport: tuple[int, int] = (1400, 900)) -> None:
    port = free_port()
    server = start_server(port, {**os.environ, "IKVIZ_PREPARE": "0"})
    try:
        async with async_playwright() as pw:
            browser = await pw.chromium.launch(executable_path=chromium, headless=True, args=["--no-sandbox"])
            page = await (await browser.new_context(viewport={"width": viewport[0], "height": viewport[1]})).new_page()
            for path in pages:
                await page.goto(f"http://127.0.0.1:{port}/{path}", wait_until="domcontentloaded")
                t0 = time.monotonic()
                await asyncio.sleep(2.0)
                while time.monotonic() - t0 < 600:
                    s = await page.evaluate(DONE_JS)
                    if s["state"] == "notRunning" and s["busy"] == 0 and s["charts"] > 0:
                        break
                    await asyncio.sleep(0.5)
                await asyncio.sleep(1.0)
                rows = await page.evaluate(PROBE)
                print(f"{path}: {sum(r['widened'] for r in rows)} of {len(rows)} figures drawn twice")
                for r in rows:
                    print(f"    {'widened' if r['widened'] else 'ok     '} {r['width']:4d} px wide, asked {r['asked']}"
                          f" drawn {r['drawn']}  {r['title']}")
            await browser.close()
    finally:
        os.killpg(server.pid, signal.SIGTERM)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pages", nargs="+", default=[p for p in PAGES if p not in ("", "your-data")])
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    parser.add_argument("--viewport", default="1400x900", help="the window, WIDTHxHEIGHT (a phone: 390x844)")
    args = parser.parse_args()
    width, height = (int(v) for v in args.viewport.lower().split("x"))
    asyncio.run(main(args.pages, args.chromium, (width, height)))
