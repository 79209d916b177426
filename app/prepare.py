"""Prepare a lecture: compute every page's default view and every tour step ahead, into the results store.

Run from the repository root::

    python app/prepare.py [--only kernel-shapes density ...]

Each view is opened headless (Streamlit's AppTest) exactly as a browser opens
its link, so the defaults and tour settings come from the pages themselves and
nothing is listed twice. A tour step's control is also moved one press each
way: the move the step asks the lecturer to make is then drawn from the store.
The results land in the store on disk (see
:func:`store.store_directory`), where every server started later finds them:
its pages then paint from stored results instead of computing. A server
starts this in the background by itself (:func:`start_in_background`) when
its store has not been prepared for the current code.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path
from unittest import mock
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


def one_press(at, control: str) -> list[str]:
    """The URL values one arrow press away from control ``control`` of the view open in ``at``: the
    options either side of a select slider's value, or a slider's value ± its step (within its range).
    Empty for other widgets (a lecturer picks a data set from a list, there is no *next* one), or
    when the control is not drawn."""
    key = f"_w_{control}"
    for widget in at.get("select_slider"):
        if widget.key == key:
            options = list(widget.options)  # as shown (format_func applied)
            shown = widget.format_func(widget.value)
            if shown not in options:
                return []
            i = options.index(shown)
            # a shown option is the URL's spelling, or starts with it ("5,000 ★" for w=5000)
            return [_url_value(options[j]) for j in (i - 1, i + 1) if 0 <= j < len(options)]
    for widget in at.get("slider"):
        if widget.key == key and isinstance(widget.value, (int, float)):
            step = widget.step
            values = [round(widget.value + d, 10) for d in (-step, step)]
            return [str(v) for v in values if widget.min <= v <= widget.max]
    return []


def _url_value(shown: str) -> str:
    """The URL value of a select slider's shown option: its leading number if it has one, else itself."""
    number = re.match(r"[-+]?\d[\d,]*(\.\d+)?(?![\w.])", shown.strip())
    return number.group(0).replace(",", "") if number else shown


def _open(page: str, query: dict, timeout: float):
    """AppTest of ``page`` opened as a browser opens its link with ``query``, and the seconds it took."""
    from streamlit.testing.v1 import AppTest

    t0 = time.perf_counter()
    at = AppTest.from_file(HOME, default_timeout=timeout)
    for key, value in query.items():
        at.query_params[key] = value
    with mock.patch.dict(os.environ, IKVIZ_PREPARE="0"):  # the app opened here must not start one of its own
        at.run()
        at.switch_page(f"views/{page.replace('-', '_')}.py")
        at.run()
    return at, round(time.perf_counter() - t0, 1)


def _problems(at) -> list[str]:
    return [e.value for e in at.exception] + [e.value for e in at.error]


def prepare(selected: list[str] | None = None, timeout: float = 900.0) -> list[dict]:
    """Open each view headless, which computes it through the store; returns a row per view.

    A tour step's row also lists, under ``next``, the views one press away on the step's control
    (:func:`one_press`), prepared too: the lecturer's first move is the one the step asks for.
    """
    from ikviz import tours

    rows = []
    for page, query in views():
        if selected and page not in selected:
            continue
        at, seconds = _open(page, query, timeout)
        row = {"page": page, "query": query, "seconds": seconds, "problems": _problems(at)}
        found = tours.find_step(query)
        control = found[0].steps[found[1]].control if found else None
        if control and not row["problems"]:
            row["next"] = []
            for value in one_press(at, control):
                near, seconds = _open(page, {**query, control: value}, timeout)
                row["next"].append({control: value, "seconds": seconds})
                row["problems"] += _problems(near)
        rows.append(row)
        print(json.dumps(row, ensure_ascii=False), flush=True)
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
