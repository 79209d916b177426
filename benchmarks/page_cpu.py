"""CPU milliseconds of one Streamlit rerun of every page, on a prepared store, in this process (AppTest).

Run from the repository root, with the tree to measure first on ``PYTHONPATH`` (its ``app/`` is the one run)::

    IKVIZ_STORE_DIR=DIR python benchmarks/page_cpu.py [--pages kernel-shapes ...] [--repeat 5]
    PYTHONPATH=/path/to/other/checkout IKVIZ_STORE_DIR=DIR2 python benchmarks/page_cpu.py

``DIR`` is a store prepared by that tree's ``app/prepare.py`` (``IKVIZ_STORE_DIR=DIR python app/prepare.py``).
Wall clocks on a shared 2-core machine are noisy; the CPU time of the thread that runs the page's script is
not (other threads and processes do not count in it). For each page it prints, as medians of ``--repeat``:

- **tab**: a new session opening the page's link (``app_rerun``'s *first figure* / *reload* on a held view);
- **sidebar**: the same session moving to the page from the page before it (``app_rerun``'s *sidebar*);

each as the script thread's CPU ms, the script thread's wall ms (waiting included), and the messages
(deltas) the run sends to the browser with their bytes. Every page is first opened once (imports, disk reads
into memory) and not counted. The Claims page comes last: where its checks are not held it starts them (in the
store's workers before the offload, in a child process since); ``bg CPU``
is the CPU the process spent outside the script thread during its runs (those checks).
``--after-claims`` then moves through the other pages again, after the Claims page, as ``app_rerun``'s sidebar
pass does.

2026-11-27, under load (2 cores shared, load 5-50), ``--repeat 3 --after-claims``, medians, CPU ms / wall ms of
the script thread for a new tab: 2334864 (its store held its 12 checks) how IK is built 22/137, kernel shapes
40/77, density 54/226, curse 120/477, clustering 35/115, classification 61/102, t-SNE 36/120, Claims 118/148;
d3a5aea (the same store as the next, its 28 checks not held: they ran in the server's threads) 19/88, 75/420,
51/346, 140/883, 45/117, 49/95, 36/148, Claims 61/2340 (its 2 s wait), 660-1380 ms of CPU in other threads
per page; with the checks offloaded (b213a72 on d3a5aea) 18/83, 46/74, 44/104, 100/254, 35/36, 42/142,
36/78, Claims 43/95, ~160 ms in other threads (AppTest's own). Wall clocks here are load-dependent.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import threading
import time
from pathlib import Path

os.environ.setdefault("IKVIZ_PREPARE", "0")  # measure the store as prepared: no preparing in the background

PAGES = ["how-ik-is-built", "kernel-shapes", "density", "curse-of-dimensionality", "clustering", "classification",
         "tsne", "claims"]


def _tree() -> Path:
    import ikviz

    return Path(ikviz.__file__).resolve().parents[1]


_RUNS: list[dict] = []   # one entry per script run: the script thread's CPU seconds


def _instrument() -> None:
    """Time the CPU of every script thread AppTest starts (the thread's own clock: other threads excluded)."""
    from streamlit.testing.v1.local_script_runner import LocalScriptRunner

    original = LocalScriptRunner._run_script_thread

    def timed(self):
        t0, w0 = time.thread_time(), time.perf_counter()
        try:
            original(self)
        finally:
            cpu, wall = time.thread_time() - t0, time.perf_counter() - w0
            deltas = [m for m in self.forward_msgs() if m.WhichOneof("type") == "delta"]
            _RUNS.append({"cpu": cpu, "wall": wall, "deltas": len(deltas), "bytes": sum(m.ByteSize() for m in deltas)})

    LocalScriptRunner._run_script_thread = timed


def _run(at, timeout: float) -> dict:
    """One run of ``at``: the script thread's CPU ms, its wall ms, the deltas sent and the other threads' CPU."""
    n = len(_RUNS)
    p0 = time.process_time()
    at.run(timeout=timeout)
    proc = time.process_time() - p0
    cpu, wall = sum(r["cpu"] for r in _RUNS[n:]), sum(r["wall"] for r in _RUNS[n:])
    count, size = sum(r["deltas"] for r in _RUNS[n:]), sum(r["bytes"] for r in _RUNS[n:])
    if at.exception:
        raise RuntimeError(f"the page raised: {at.exception[0].message}")
    return {"cpu_ms": 1000 * cpu, "wall_ms": 1000 * wall, "deltas": count, "kb": size / 1024,
            "bg_cpu_ms": 1000 * max(0.0, proc - cpu)}


def _page_file(path: str) -> str:
    return f"views/{path.replace('-', '_')}.py"


def _new(home: str, timeout: float):
    from streamlit.testing.v1 import AppTest

    return AppTest.from_file(home, default_timeout=timeout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pages", nargs="+", default=PAGES)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--timeout", type=float, default=120.0)
    parser.add_argument("--json", help="also write the rows here")
    parser.add_argument("--after-claims", action="store_true",
                        help="then move through the other pages again from the sidebar after the Claims page, as "
                             "app_rerun's sidebar pass does (its checks may still run)")
    args = parser.parse_args()
    tree = _tree()
    app = tree / "app"
    sys.path.insert(0, str(app))
    home = str(app / "Home.py")
    _instrument()
    print(json.dumps({"tree": str(tree), "store": os.environ.get("IKVIZ_STORE_DIR"),
                      "python_threads": threading.active_count()}), flush=True)
    pages = [p for p in args.pages if p != "claims"] + [p for p in args.pages if p == "claims"]

    # every page once, not counted: imports, the store's disk reads into memory, figures built
    warm = _new(home, max(args.timeout, 1800.0))   # a view the store lacks is computed here, under load slowly
    warm.run()
    for path in pages:
        warm.switch_page(_page_file(path))
        warm.run()
    rows = []
    for i, path in enumerate(pages):
        tabs, moves = [], []
        for _ in range(args.repeat):
            at = _new(home, args.timeout)
            at._registered_pages = warm._registered_pages   # the link's page, as a browser opens it (no Home first)
            at.switch_page(_page_file(path))
            tabs.append(_run(at, args.timeout))
            before = pages[i - 1] if i else "home"
            at.switch_page("views/home.py" if before == "home" else _page_file(before))
            at.run()
            at.switch_page(_page_file(path))
            moves.append(_run(at, args.timeout))
        row = {"page": path}
        for name, runs in (("tab", tabs), ("sidebar", moves)):
            for key in runs[0]:
                row[f"{name}_{key}"] = round(statistics.median(r[key] for r in runs), 1)
        row["runs_cpu_ms"] = {"tab": [round(r["cpu_ms"]) for r in tabs], "sidebar": [round(r["cpu_ms"]) for r in moves]}
        print(json.dumps(row), flush=True)
        rows.append(row)
    if args.after_claims and "claims" in pages:
        at = _new(home, args.timeout)
        at._registered_pages = warm._registered_pages
        at.switch_page(_page_file("claims"))
        at.run()
        for i, path in enumerate(p for p in pages if p != "claims"):
            moves = []
            for _ in range(args.repeat):
                at.switch_page(_page_file(pages[i - 1] if i else "claims"))
                at.run()
                at.switch_page(_page_file(path))
                moves.append(_run(at, args.timeout))
            row = next(r for r in rows if r["page"] == path)
            for key in moves[0]:
                row[f"after_claims_{key}"] = round(statistics.median(r[key] for r in moves), 1)
            print(json.dumps({"page": path, **{k: v for k, v in row.items() if k.startswith("after")}}), flush=True)
    print("\n| page | tab CPU ms | tab wall ms | tab deltas (KB) | sidebar CPU ms | sidebar wall ms "
          "| sidebar deltas (KB) | bg CPU ms |")
    print("|---|---|---|---|---|---|---|---|")
    for r in rows:
        print(f"| {r['page']} | {r['tab_cpu_ms']:.0f} | {r['tab_wall_ms']:.0f} | {r['tab_deltas']:.0f} "
              f"({r['tab_kb']:.0f}) | {r['sidebar_cpu_ms']:.0f} | {r['sidebar_wall_ms']:.0f} | "
              f"{r['sidebar_deltas']:.0f} ({r['sidebar_kb']:.0f}) | "
              f"{r['tab_bg_cpu_ms'] + r['sidebar_bg_cpu_ms']:.0f} |")
    if args.after_claims:
        print("\n| page | sidebar after Claims: CPU ms | wall ms | bg CPU ms |\n|---|---|---|---|")
        for r in rows:
            if "after_claims_cpu_ms" in r:
                print(f"| {r['page']} | {r['after_claims_cpu_ms']:.0f} | {r['after_claims_wall_ms']:.0f} | "
                      f"{r['after_claims_bg_cpu_ms']:.0f} |")
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=1))
    os._exit(0)   # the store's worker threads may still run a check: do not wait for them


if __name__ == "__main__":
    main()
