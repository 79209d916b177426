"""A recompute keeps the previous figure on the page, greyed and marked outdated, under the progress bar.

In headless Chromium (Debian's ``chromium`` and the ``playwright`` package), on a small page of its own:
``pytest -m slow tests/test_store_outdated.py``.
"""

import asyncio
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
APP = ROOT / "app"
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"

PAGE = f'''
import sys
import time

sys.path.insert(0, {str(APP)!r})
import plotly.graph_objects as go
import streamlit as st

import plotly_chart
import store


def slow(n, *, progress):
    for i in range(40):
        progress(i / 40, f"step {{i}}")
        time.sleep(0.1)
    return n


st.button("Redraw")  # a rerun that finds its result held: no wait
if st.button("More"):
    st.session_state["n"] = st.session_state.get("n", 1) + 1
value = store.compute(slow, st.session_state.get("n", 1))
with st.columns(2)[0]:  # as the pages lay figures out (figures.grid); a positional block
    plotly_chart.draw(go.Figure(go.Bar(x=[1], y=[value])), key="fig")
'''

STATE_JS = """() => {
  const gd = document.querySelector('.ikviz-plot[data-drawn]');
  const holder = gd && gd.closest('[data-stale]');
  return {figure: !!gd, stale: holder ? holder.getAttribute('data-stale') : null,
          opacity: gd ? parseFloat(getComputedStyle(gd).opacity) : null,
          label: gd ? getComputedStyle(gd, '::after').opacity : null,
          progress: document.querySelectorAll('[data-testid="stProgress"]').length,
          y: gd && gd.data ? gd.data[0].y[0] : null};
}"""


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.mark.slow
def test_a_recompute_keeps_the_previous_figure_greyed_under_the_progress_bar(tmp_path):
    playwright = pytest.importorskip("playwright.async_api")
    if not os.path.exists(CHROMIUM):
        pytest.skip("needs Debian's chromium")
    (tmp_path / "page.py").write_text(PAGE)
    (tmp_path / "static").symlink_to(APP / "static")  # the Plotly bundle, served as the app serves it
    port = _free_port()
    env = {**os.environ, "IKVIZ_STORE_DIR": "", "IKVIZ_PREPARE": "0"}
    server = subprocess.Popen([sys.executable, "-m", "streamlit", "run", str(tmp_path / "page.py"),
                               "--server.headless", "true", "--server.port", str(port),
                               "--browser.gatherUsageStats", "false"],
                              cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT,
                              start_new_session=True)
    try:
        for _ in range(300):
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/_stcore/health", timeout=2):
                    break
            except OSError:
                time.sleep(0.2)
        states = asyncio.run(_watch(playwright, f"http://127.0.0.1:{port}/"))
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(10)
    first, during, after = states
    assert first["figure"] and first["y"] == 1 and first["opacity"] == 1
    # computing n=2 (4 s): the figure for n=1 is still there, stale, greyed and labelled, under the bar
    assert during["figure"] and during["y"] == 1 and during["stale"] == "true" and during["progress"] == 1
    assert during["opacity"] < 0.6 and float(during["label"]) > 0.9
    assert after["y"] == 2 and after["opacity"] == 1 and after["progress"] == 0


async def _watch(playwright, url):
    async with playwright.async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=["--no-sandbox"])
        page = await browser.new_page()
        await page.goto(url)
        await page.wait_for_selector(".ikviz-plot[data-drawn]", timeout=60_000)
        await page.wait_for_timeout(500)
        await page.get_by_role("button", name="Redraw").click()  # the view again, from the store at once
        await page.wait_for_timeout(1500)
        first = await page.evaluate(STATE_JS)
        await page.get_by_role("button", name="More").click()
        await page.wait_for_timeout(2000)
        during = await page.evaluate(STATE_JS)
        await page.wait_for_function("() => { const gd = document.querySelector('.ikviz-plot[data-drawn]');"
                                     " return gd && gd.data && gd.data[0].y[0] === 2; }", timeout=30_000)
        await page.wait_for_timeout(1000)
        after = await page.evaluate(STATE_JS)
        await browser.close()
        return first, during, after
