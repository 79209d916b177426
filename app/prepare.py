"""Prepare a lecture: compute every page's default view, every tour step and the Claims table ahead, into the store.

Run from the repository root::

    python app/prepare.py [--only kernel-shapes density ...]

The views come from :mod:`ikviz.views` and :mod:`ikviz.tours` as ``(run,
params)``: each page's first view at its ``Params`` defaults, each tour step's
view with its settings, and the values one press either way of the setting the
step asks the lecturer to move (:func:`ikviz.params.nearby`); then the Claims
page's table, every reproduction's check at its quick size (:func:`checks`),
last because it is the longest (:func:`items`). Each is computed through the
store exactly as the page asks for it, so the page then paints from the stored
result. The results land in the store on disk (see :func:`store.store_directory`),
where every server started later finds them. A server prepares by itself, in a
background thread of its own store at low priority (a viewer's request always
goes first), when its store has not been prepared for the current code
(:func:`start_in_background`).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path

APP = Path(__file__).resolve().parent
MARKER = "prepared.json"  # written into the store directory when every view is in


@dataclass(frozen=True)
class Item:
    """One view to prepare: its page, its link values, ``run(params, *args)``, and the views one press away."""

    page: str
    query: dict
    run: Callable
    params: object
    near: tuple = field(default_factory=tuple)
    args: tuple = ()


def _item(page: str, section: str | None, run, params, move: str | None = None) -> Item:
    from ikviz import params as settings
    from ikviz.views import SECTION_KEY

    query = {**({SECTION_KEY: section} if section else {}), **settings.to_query(params)}
    near = tuple(settings.nearby(params, move)) if move and settings.field_of_name(params, move) else ()
    return Item(page, query, run, params, near)


def views() -> list[Item]:
    """Every view to prepare: each page's first view at its defaults, then each tour step (once each)."""
    from ikviz import tours, views as registry

    items = []
    for path in registry.PAGES:
        view = registry.page(path).views[0]
        items.append(_item(path, view.key, view.run, view.params()))
    for tour in tours.TOURS.values():
        for step in tour.steps:
            run, params = step.run_params()
            if run is not None:
                items.append(_item(step.page, step.section, run, params, step.move))
    unique: dict = {}  # one item per view, with every value one press away that any step asks for
    for item in items:
        key = (item.run.__module__, item.run.__name__, item.params)
        seen = unique.setdefault(key, item)
        if seen is not item:
            unique[key] = replace(seen, near=seen.near + tuple(p for p in item.near if p not in seen.near))
    return list(unique.values())


def checks() -> list[Item]:
    """The Claims page's table: each reproduction's check at its quick size, called as the page calls it."""
    from ikviz import claims

    return [Item("claims", {claims.REPRODUCTION_KEY: name, claims.SIZE_KEY: "quick"}, claims.check_reproduction,
                 name, args=(True,))
            for name in claims.reproductions()]


def items() -> list[Item]:
    """Everything to prepare, in order: the views, then the Claims table's checks (the longest)."""
    return views() + checks()


def prepare(selected: list[str] | None = None, *, background: bool = False, echo=print) -> list[dict]:
    """Compute each view (and the views one press away from a tour step) through the store; a row per view.

    ``background=True`` (a server preparing itself) sends them to the store's low-priority child process
    (:meth:`ResultsStore.offload`): no viewer's page shares the server's interpreter lock or CPU priority with
    them, and a view a viewer asks for before the child reached it is computed for that viewer at once;
    otherwise they run on the store's workers like any request (``python app/prepare.py``).
    """
    import store

    s = store.get_store()

    def start(run, *args):
        if background:
            return s.offload(run, *args)
        return s.submit(run, *args)

    jobs = []
    for item in items():
        if selected and item.page not in selected:
            continue
        jobs.append((item, start(item.run, item.params, *item.args),
                     [start(item.run, p, *item.args) for p in item.near]))
    rows = []
    for item, job, near in jobs:
        t0 = time.perf_counter()
        problems = []
        for j in (job, *near):
            try:
                j.result()
            except Exception as exc:  # a view that fails is reported, the others go on
                problems.append(f"{type(exc).__name__}: {exc}")
            finally:
                if not background:
                    s.release(j)
        row = {"page": item.page, "query": item.query, "near": len(near),
               "seconds": round(time.perf_counter() - t0, 1), "problems": problems}
        rows.append(row)
        echo(json.dumps(row, ensure_ascii=False))
    return rows


def _marker() -> list:
    """What a prepared store holds: each view's page and link, and the code its run depends on."""
    from ikviz.store import module_fingerprint

    return [[item.page, item.query, module_fingerprint(item.run.__module__)] for item in items()]


def prepared(directory: Path) -> bool:
    """Whether ``directory`` holds everything :func:`items` lists, for the current code."""
    try:
        return json.loads((directory / MARKER).read_text()) == json.loads(json.dumps(_marker()))
    except (OSError, ValueError):
        return False


def _prepare_and_mark(directory: Path) -> None:
    rows = prepare(background=True, echo=lambda row: None)
    if not any(r["problems"] for r in rows):
        (directory / MARKER).write_text(json.dumps(_marker(), ensure_ascii=False))


def start_in_background() -> threading.Thread | None:
    """Prepare every view in this server's store, behind every viewer's request, if its disk lacks them; else None.

    Off when results are kept in memory only (``IKVIZ_STORE_DIR=""``, as in
    the tests) or with ``IKVIZ_PREPARE=0``. A thread of this process hands the views to the store's offload
    child (``nice`` 19), which ends when it has nothing left to do or when the server ends (even killed): it
    leaves nothing behind.
    """
    import store

    directory = store.store_directory()
    if directory is None or os.environ.get("IKVIZ_PREPARE", "1") == "0" or prepared(directory):
        return None
    thread = threading.Thread(target=_prepare_and_mark, args=(directory,), name="ikviz-prepare", daemon=True)
    thread.start()
    return thread


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
    near = sum(r["near"] for r in rows)
    print(f"{len(rows)} views (Claims checks included) and {near} one press away in "
          f"{time.perf_counter() - t0:.0f} s into {directory}; "
          f"{len(failed)} with problems")
    if not args.only and not failed:
        (directory / MARKER).write_text(json.dumps(_marker(), ensure_ascii=False))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
