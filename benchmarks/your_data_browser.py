"""The Your data page in a real browser, with every messy file of tests/messy_files.py uploaded in turn.

Run from the repository root: ``python benchmarks/your_data_browser.py [--out /tmp/yd_shots]``.
Starts one Streamlit server, opens the page in headless Chromium (Playwright,
``/usr/bin/chromium``), uploads each file through the page's file uploader,
waits for the page to settle and saves a full-page screenshot per file. Prints
one line per file: whether an exception box appeared, the first message shown
(error, warning or note), the metrics and the seconds until the page settled.
Exits 1 if any file showed an exception box.
"""

from __future__ import annotations

import argparse
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
from messy_files import MESSY, messy_bytes  # noqa: E402

BUSY = '[data-testid="stSkeleton"],[data-testid^="stStatusWidgetRunning"]'
# Streamlit scrolls inside stMain: a full-page screenshot needs the window as tall as its content
HEIGHT_JS = "() => (document.querySelector('[data-testid=\"stMain\"]') || document.body).scrollHeight"
ALERTS_JS = """() => [...document.querySelectorAll('[data-testid="stAlert"]')].map(e => e.innerText.trim())"""


def start_server(port: int) -> subprocess.Popen:
    proc = subprocess.Popen([sys.executable, "-m", "streamlit", "run", "app/Home.py", "--server.headless", "true",
                             "--server.port", str(port), "--browser.gatherUsageStats", "false"],
                            cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
    for _ in range(300):
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/_stcore/health", timeout=2)
            return proc
        except OSError:
            time.sleep(0.2)
    proc.kill()
    raise RuntimeError("the Streamlit server did not start within 60 s")


def settle(page, timeout: float = 120.0, quiet: float = 1.0) -> None:
    """Wait until nothing is running or loading and the page's size has not changed for ``quiet`` seconds."""
    start, last, since = time.monotonic(), None, time.monotonic()
    while time.monotonic() - start < timeout:
        state = (page.locator(BUSY).count(), page.evaluate(HEIGHT_JS), page.locator("[data-testid]").count())
        if state != last or state[0]:
            last, since = state, time.monotonic()
        elif time.monotonic() - since >= quiet:
            return
        page.wait_for_timeout(100)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default="/tmp/yd_shots", help="folder for the screenshots")
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    args = parser.parse_args(argv)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = start_server(port)
    failed = 0
    files = Path(tempfile.mkdtemp())
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=args.chromium, headless=True)
            page = browser.new_page(viewport={"width": 1400, "height": 1000})
            for i, (case, (name, raw, _)) in enumerate(MESSY.items()):
                if name.endswith(".gz"):
                    continue  # the uploader's file types leave compressed files out before they reach the page
                path = files / name
                path.write_bytes(messy_bytes(raw))
                page.goto(f"http://127.0.0.1:{port}/your-data?source=upload+a+file")
                settle(page)
                t0 = time.monotonic()
                page.locator('input[type="file"]').set_input_files(str(path))
                page.wait_for_timeout(300)
                settle(page)
                seconds = time.monotonic() - t0
                exception = page.locator('[data-testid="stException"]').count() > 0
                failed += exception
                alerts = page.evaluate(ALERTS_JS)
                metrics = [m.inner_text().split("\n")[-1] for m in page.locator('[data-testid="stMetricValue"]').all()]
                page.set_viewport_size({"width": 1400, "height": min(int(page.evaluate(HEIGHT_JS)) + 40, 12000)})
                page.wait_for_timeout(300)
                page.screenshot(path=str(out / f"{i:02d}_{name}.png"), full_page=True)
                page.set_viewport_size({"width": 1400, "height": 1000})
                first = (alerts[0] if alerts else "").replace("\n", " ")[:150]
                print(f"{case:<40} exception={'YES' if exception else 'no '} {seconds:5.1f} s  metrics={metrics[:4]}  "
                      f"{first}", flush=True)
            browser.close()
    finally:
        server.kill()
    print(f"screenshots in {out}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
