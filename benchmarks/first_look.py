"""What a new server computes before a page's or a tour step's first figure, in CPU-seconds (issue 32 item 4).

Run from the repository root::

    python benchmarks/first_look.py [--only tsne ting2021 ...] [--fresh-numba] [--json out.json]

Each page's default link and each distinct tour step (as a lecture opens it: presentation mode) is opened
in a **process of its own** with an empty results store on disk, as on a new server: the app's Home
script runs first (the server's start and the student's first visit, not counted), then the page's
script runs in Streamlit's AppTest (``app/Home.py`` with the link's values, the same script a browser
gets) until it draws its first figure (``plotly_chart.draw``), where the run is stopped. Counted is the
CPU time of the whole process over the page's run, every thread included (the store's workers compute in
threads; processes it waited for too): the first look's computation (``app/figures.py``'s ``PREVIEWS``)
or, for a view without one, the full view, with the imports and numba kernels it loads, its data, and
the figures built before the first one is drawn.

A first look starts the full view in the store right after it (``figures.view``); here that start is
held back, so that the number is the first figure's own work and not a share of the full view's, which
on a real server runs beside it on the other core. A process of its own for each link is the worst
case: on a server a page also finds what earlier pages loaded.

The targets (issue 32, 2 cores): the first figure within 10 s for a page and 5 s for a tour step on an
empty store; CPU-seconds of at most 5 (page) and 2.5 (step) leave room for the browser, the server's
messages and a machine that is not idle. ``--fresh-numba`` gives each process an empty numba cache
(``NUMBA_CACHE_DIR``): a fresh clone's first visits, which compile the kernels they use.

Prints one JSON line per link and a table.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import parse_qsl, urlsplit

ROOT = Path(__file__).resolve().parents[1]
HOME = ROOT / "app" / "Home.py"
#: CPU-seconds before the first figure that leave the targets' wall time a margin on 2 cores
BUDGET = {"page": 5.0, "step": 2.5}


def links() -> list[dict]:
    """Every page's default link, then every distinct tour step's (presentation mode), as app_rerun opens them."""
    from ikviz import views
    from ikviz.tours import TOURS, step_url

    rows = [{"kind": "page", "name": path, "link": path} for path in views.PAGES]
    seen = set()
    for name, tour in TOURS.items():
        for i, step in enumerate(tour.steps):
            key = (step.page, tuple(sorted(step.params.items())))
            if key not in seen:  # the opening step is the same page in every tour: once per setting
                seen.add(key)
                rows.append({"kind": "step", "name": f"{name} {i}", "link": step_url(name, i)})
    return rows


def _cpu() -> float:
    """CPU-seconds of this process (every thread) and of the children it waited for."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


class _Compiles:
    """numba's compilations in this process (``numba:compile`` events, every thread): what a fresh clone's first
    look compiles, one row per function and type signature, with its seconds (``self_s`` less the functions it
    compiled inside it, e.g. an ``inline="always"`` helper or a callee): CPU-seconds of the compiling thread, so
    that a loaded machine does not inflate them."""

    def __init__(self):
        import threading

        from numba.core import event

        self.rows, self.local, self.lock = [], threading.local(), threading.Lock()
        listener = self

        class _Listener(event.Listener):
            def on_start(self, ev):
                listener.local.stack = getattr(listener.local, "stack", [])
                listener.local.stack.append([time.thread_time(), 0.0])  # CPU: the compiling thread's

            def on_end(self, ev):
                start, inner = listener.local.stack.pop()
                took = time.thread_time() - start
                if listener.local.stack:
                    listener.local.stack[-1][1] += took
                d = ev.data["dispatcher"]
                with listener.lock:
                    listener.rows.append({"fn": f"{d.py_func.__module__}.{d.py_func.__qualname__}",
                                          "sig": ", ".join(map(str, ev.data["args"])), "s": round(took, 3),
                                          "self_s": round(took - inner, 3)})

        event.register("numba:compile", _Listener())


def measure_one(link: str, compiles: bool = False) -> dict:
    """Open ``link`` on an empty store in this process and measure until its first figure (see the module);
    ``compiles``: also list numba's compilations (see :class:`_Compiles`)."""
    import threading

    recorder = _Compiles() if compiles else None

    from streamlit.runtime.scriptrunner_utils.exceptions import StopException
    from streamlit.testing.v1 import AppTest

    path, query = urlsplit(link).path, dict(parse_qsl(urlsplit(link).query))
    at = AppTest.from_file(str(HOME), default_timeout=600)
    for key, value in query.items():
        at.query_params[key] = value
    at.run()  # Home: the server's start and the first visit (imports the app's own modules)
    for thread in threading.enumerate():  # the store's code digests, started with it (see app/store.py)
        if thread.name == "ikviz-store-digest":
            thread.join()
    import figures
    import plotly_chart
    import store

    marks: dict = {}
    draw, view, s = plotly_chart.draw, figures.view, store.get_store()
    submit = s.submit_call

    def first_draw(*args, **kwargs):
        draw(*args, **kwargs)
        marks["figure"] = (_cpu(), time.perf_counter())
        raise StopException()

    def timed_view(*args, **kwargs):
        out = view(*args, **kwargs)
        marks.setdefault("view", (_cpu(), time.perf_counter()))
        marks.setdefault("first_look", "pending" in __import__("ui").run_state())
        return out

    def held_back(fn, args, kwargs, **options):  # the full view a first look starts: not this measurement's
        if options.get("keep"):
            marks["held_back"] = True
            return None
        return submit(fn, args, kwargs, **options)

    plotly_chart.draw, figures.view, s.submit_call = first_draw, timed_view, held_back
    script = "views/home.py" if not path else f"views/{path.replace('-', '_')}.py"
    at.switch_page(script)
    cpu0, wall0 = _cpu(), time.perf_counter()
    at.run()
    row = {"link": link}
    if "figure" not in marks:
        row["error"] = "no figure drawn" + (f": {[e.value for e in at.exception]}" if at.exception else "")
        row["cpu_s"] = round(_cpu() - cpu0, 2)
        return row
    cpu_view, wall_view = marks.get("view", marks["figure"])
    row.update(cpu_s=round(marks["figure"][0] - cpu0, 2), wall_s=round(marks["figure"][1] - wall0, 2),
               view_cpu_s=round(cpu_view - cpu0, 2), figure_cpu_s=round(marks["figure"][0] - cpu_view, 2),
               first_look=bool(marks.get("first_look")))
    if recorder is not None:
        row["compiles"] = sorted(recorder.rows, key=lambda r: -r["self_s"])
        row["compile_s"] = round(sum(r["self_s"] for r in recorder.rows), 2)
    return row


def run_all(rows: list[dict], fresh_numba: bool, compiles: bool = False) -> list[dict]:
    out = []
    for row in rows:
        with tempfile.TemporaryDirectory(prefix="ikviz-first-look-") as tmp:
            env = {**os.environ, "IKVIZ_STORE_DIR": str(Path(tmp) / "store"), "IKVIZ_PREPARE": "0",
                   "PYTHONPATH": str(ROOT / "app")}
            if fresh_numba:
                env["NUMBA_CACHE_DIR"] = str(Path(tmp) / "numba")
            done = subprocess.run([sys.executable, __file__, "--one", row["link"], *(["--compiles"] if compiles else [])],
                                  env=env, cwd=ROOT,
                                  capture_output=True, text=True)
        lines = [line for line in done.stdout.splitlines() if line.startswith("{")]
        measured = json.loads(lines[-1]) if lines else {"error": (done.stderr or "no output")[-300:]}
        merged = {**row, **measured, "budget_s": BUDGET[row["kind"]]}
        print(json.dumps(merged, ensure_ascii=False), flush=True)
        out.append(merged)
    return out


def print_table(rows: list[dict]) -> None:
    print("\n| link | CPU s to first figure | of which the view | figure build | wall s | first look | budget |")
    print("|---|---|---|---|---|---|---|")
    for r in rows:
        over = " **over**" if "cpu_s" in r and r["cpu_s"] > r["budget_s"] else ""
        if "error" in r:
            print(f"| {r['kind']} {r['name']} | {r['error']} | | | | | {r['budget_s']} |")
            continue
        print(f"| {r['kind']} {r['name']} | {r['cpu_s']}{over} | {r['view_cpu_s']} | {r['figure_cpu_s']} | "
              f"{r['wall_s']} | {'yes' if r['first_look'] else 'no'} | {r['budget_s']} |")


def print_compiles(rows: list[dict]) -> None:
    """Per link, numba's compile seconds and its costliest compilations; then each function's signatures."""
    every: dict = {}
    for r in rows:
        found = r.get("compiles") or []
        top = ", ".join(f"{c['fn'].rsplit('.', 1)[-1]}({c['sig'][:40]}) {c['self_s']}" for c in found[:4])
        print(f"{r['kind']} {r['name']}: {len(found)} compilations, {r.get('compile_s', 0)} s; {top}")
        for c in found:
            every.setdefault(c["fn"], set()).add(c["sig"])
    print("\nfunction: type signatures compiled over all links")
    for fn, sigs in sorted(every.items(), key=lambda kv: -len(kv[1])):
        print(f"{fn}: {len(sigs)}" + ("".join(f"\n    {s}" for s in sorted(sigs)) if len(sigs) > 1 else ""))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--one", help=argparse.SUPPRESS)  # the child: measure one link
    parser.add_argument("--only", nargs="+", metavar="WORD", help="only links whose name contains one of these")
    parser.add_argument("--fresh-numba", action="store_true", help="an empty numba cache in each process")
    parser.add_argument("--compiles", action="store_true",
                        help="list numba's compilations of each link (function, type signature, seconds)")
    parser.add_argument("--json", help="also write the rows here")
    args = parser.parse_args()
    if args.one:
        sys.path.insert(0, str(ROOT / "app"))
        print(json.dumps(measure_one(args.one, args.compiles)), flush=True)
        return 0
    rows = links()
    if args.only:
        rows = [r for r in rows if any(w in r["name"] for w in args.only)]
    t0 = time.perf_counter()
    out = run_all(rows, args.fresh_numba, args.compiles)
    print_table(out)
    if args.compiles:
        print_compiles(out)
    print(f"\n{len(out)} links in {time.perf_counter() - t0:.0f} s; load average {os.getloadavg()[0]:.2f}")
    if args.json:
        Path(args.json).write_text(json.dumps(out, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
