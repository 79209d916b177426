"""How close the results store's "about N s left" comes to the time a view actually takes.

Run from the repository root::

    python benchmarks/store_eta.py [--pages tsne density ...] [--json out.json]

Each view of :mod:`ikviz.views` is computed with its default ``Params`` on a
fresh, memory-only :class:`ikviz.store.ResultsStore` (one worker: a new
server's first visit), and the waiting page's estimate is read every 0.25 s,
as the page reads it. For every reading the page would show (after 2 s and 5%
progress) with at least 1 s actually left, it compares the estimate with the
time actually left: the table gives the run's time, the worst factor between
the two (max(est/actual, actual/est)), and the median ratio est/actual, for the
store's estimate (``new``: the rate over the latest half of the run) and the
estimate it replaced (``old``: the rate since the start).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time


def measure(run, params, every: float = 0.25) -> dict:
    from ikviz.store import ResultsStore

    store = ResultsStore(workers=1)
    job = store.submit(run, params)
    samples = []
    while not job.wait(every):
        if job.started is None:
            continue
        elapsed, fraction = job.elapsed(), job.fraction
        old = elapsed * (1 - fraction) / fraction if fraction >= 0.05 and elapsed >= 2 else None
        new = job.remaining() if elapsed >= 2 else None
        samples.append((elapsed, fraction, new, old))
    total = job.elapsed()
    job.result()  # raises if the run failed
    store.release(job)
    row = {"seconds": round(total, 1), "readings": 0}
    for name, column in (("new", 2), ("old", 3)):
        ratios = [s[column] / (total - s[0]) for s in samples if s[column] is not None and total - s[0] >= 1.0]
        ratios = [r for r in ratios if r > 0]
        row["readings"] = max(row["readings"], len(ratios))
        row[f"{name}_worst"] = round(max(max(r, 1 / r) for r in ratios), 2) if ratios else None
        row[f"{name}_median"] = round(statistics.median(ratios), 2) if ratios else None
        first = next((s for s in samples if s[column] is not None), None)
        row[f"{name}_first"] = None if first is None else [round(first[0], 1), round(first[column], 1)]
    return row


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pages", nargs="+", help="only these pages (ikviz.views names)")
    parser.add_argument("--json", help="also write the rows here")
    args = parser.parse_args()
    from ikviz.views import PAGES, page

    rows = []
    for name in PAGES:
        if args.pages and name not in args.pages:
            continue
        for view in page(name).views:
            t0 = time.perf_counter()
            try:
                row = measure(view.run, view.params())
            except Exception as exc:  # noqa: BLE001 - a failing view is reported, the others measured
                row = {"error": f"{type(exc).__name__}: {exc}"[:200], "seconds": round(time.perf_counter() - t0, 1)}
            row = {"page": name, "view": view.key, **row}
            rows.append(row)
            print(json.dumps(row, ensure_ascii=False), flush=True)
    print("\n| page | view | seconds | readings | new: worst factor | new: median est/actual | "
          "old: worst factor | old: median est/actual |")
    print("|---|---|---:|---:|---:|---:|---:|---:|")
    for r in rows:
        print(f"| {r['page']} | {r['view'] or ''} | {r['seconds']} | {r.get('readings', '')} | "
              f"{r.get('new_worst')} | {r.get('new_median')} | {r.get('old_worst')} | {r.get('old_median')} |")
    if args.json:
        with open(args.json, "w") as out:
            json.dump(rows, out, indent=1, ensure_ascii=False)
    return 0


if __name__ == "__main__":
    sys.exit(main())
