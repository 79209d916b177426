"""Prepare a lecture: compute every page's default view and every tour step ahead, into the results store.

Run from the repository root::

    python app/prepare.py [--only kernel-shapes density ...]

Each view is opened headless (Streamlit's AppTest) exactly as a browser opens
its link, so the defaults and tour settings come from the pages themselves and
nothing is listed twice. The results land in the store on disk (see
:func:`store.store_directory`), where every server started later finds them:
its pages then paint from stored results instead of computing. A server
starts this in the background by itself (:func:`start_in_background`) when
its store has not been prepared for the current code.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import parse_qsl, urlsplit

APP = Path(__file__).resolve().parent
HOME = str(APP / "Home.py")
MARKER = "prepared.json"  # written into the store directory when every view is in


def views() -> list[tuple[str, dict]]:
    """Every view to prepare: ``(url_path, query parameters)``, the default views and then each tour step."""
    # a page's URL path is its script's name with hyphens (Home.py's navigation); Home computes nothing
    found = [(path.stem.replace("_", "-"), {}) for path in sorted((APP / "views").glob("*.py")) if path.stem != "home"]
    try:
        from ikviz import tours
    except ImportError:
        return found
    for name in tours.TOURS:
        for i in range(len(tours.TOURS[name].steps)):
            url = urlsplit(tours.step_url(name, i))
            found.append((url.path.strip("/"), dict(parse_qsl(url.query))))
    return found


def prepare(selected: list[str] | None = None, timeout: float = 900.0) -> list[dict]:
    """Open each view headless, which computes it through the store; returns a row per view."""
    from streamlit.testing.v1 import AppTest

    rows = []
    for page, query in views():
        if selected and page not in selected:
            continue
        t0 = time.perf_counter()
        at = AppTest.from_file(HOME, default_timeout=timeout)
        for key, value in query.items():
            at.query_params[key] = value
        at.run()
        at.switch_page(f"views/{page.replace('-', '_')}.py")
        at.run()
        problems = [e.value for e in at.exception] + [e.value for e in at.error]
        rows.append({"page": page, "query": query, "seconds": round(time.perf_counter() - t0, 1),
                     "problems": problems})
        print(json.dumps(rows[-1], ensure_ascii=False), flush=True)
    return rows


def prepared(directory: Path) -> bool:
    """Whether ``directory`` holds every view of :func:`views` (the marker lists those it was prepared with)."""
    try:
        done = json.loads((directory / MARKER).read_text())
    except (OSError, ValueError):
        return False
    return [[row["page"], row["query"]] for row in done] == [[page, query] for page, query in views()]


def start_in_background() -> subprocess.Popen | None:
    """Start ``prepare.py`` at low priority if this server's store on disk was not prepared; else None.

    Off when results are kept in memory only (``IKVIZ_STORE_DIR=""``, as in
    the tests) or with ``IKVIZ_PREPARE=0``.
    """
    import store

    directory = store.store_directory()
    if directory is None or os.environ.get("IKVIZ_PREPARE", "1") == "0" or prepared(directory):
        return None
    env = {**os.environ, "IKVIZ_STORE_DIR": str(directory), "IKVIZ_WORKERS": "1"}
    nice = ["nice", "-n", "10"] if sys.platform != "win32" else []  # visitors' own computations go first
    return subprocess.Popen([*nice, sys.executable, __file__], env=env, cwd=APP.parent,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", nargs="+", metavar="PAGE", help="only these pages' views")
    args = parser.parse_args()
    sys.path.insert(0, str(APP))
    os.environ["IKVIZ_PREPARE"] = "0"  # the app opened below must not start another preparation
    import store

    directory = store.store_directory()
    if directory is None:
        print("IKVIZ_STORE_DIR is empty: results would be kept in memory only, nothing to prepare")
        return 2
    t0 = time.perf_counter()
    rows = prepare(args.only)
    failed = [r for r in rows if r["problems"]]
    print(f"{len(rows)} views in {time.perf_counter() - t0:.0f} s into {directory}; {len(failed)} with problems")
    if not args.only and not failed:
        (directory / MARKER).write_text(json.dumps(rows, indent=1, ensure_ascii=False))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
