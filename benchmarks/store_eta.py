"""How close the results store's "about N s left" comes to the time a view actually takes.

Run from the repository root::

    python benchmarks/store_eta.py [--pages tsne density ...] [--json out.json]

Each view of :mod:`ikviz.views` is computed with its default ``Params`` on a
fresh, memory-only :class:`ikviz.store.ResultsStore` (one worker: a new
server's first visit), then again with its ``seed`` one more (a recompute with
a changed setting: the store has the first run's profile), and the waiting
page's estimate is read every 0.25 s, as the page reads it. For every reading the page would show (after 2 s and 5%
progress) with at least 1 s actually left, it compares the estimate with the
time actually left: the table gives the run's time, the worst factor between
the two (max(est/actual, actual/est)), and the median ratio est/actual, for the
store's estimate (``new``: the rate over the latest half of the run, and on the second run its geometric mean with the first run's profile) and the
estimate it replaced (``old``: the rate since the start).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time


def measure(store, run, params, every: float = 0.25) -> dict:
    job = store.submit(run, params)
    samples = []
    while not job.wait(every):
        if job.started is None:
            continue
        elapsed, fraction = job.elapsed(), job.fraction
        old = elapsed * (1 - fraction) / fraction if fraction >= 0.05 and elapsed >= 2 else None
        new = job.remaining() if elapsed >= 2 else None
        profile, job.profile = job.profile, None  # the same reading without the earlier run's profile
        rate = job.remaining() if elapsed >= 2 else None
        job.profile = profile
        samples.append((elapsed, fraction, new, old, rate))
    total = job.elapsed()
    job.result()  # raises if the run failed
    store.release(job)
    row = {"seconds": round(total, 1), "readings": 0, "profile": job.profile is not None,
           "samples": [[round(x, 3) if x is not None else None for x in s] for s in samples]}
    for name, column in (("new", 2), ("old", 3)):
        ratios = [s[column] / (total - s[0]) for s in samples if s[column] is not None and total - s[0] >= 1.0]
        ratios = [r for r in ratios if r > 0]
        row["readings"] = max(row["readings"], len(ratios))
        row[f"{name}_worst"] = round(max(max(r, 1 / r) for r in ratios), 2) if ratios else None
        row[f"{name}_median"] = round(statistics.median(ratios), 2) if ratios else None
        row[f"{name}_within2"] = round(sum(0.5 <= r <= 2 for r in ratios) / len(ratios), 2) if ratios else None
        first = next((s for s in samples if s[column] is not None), None)
        row[f"{name}_first"] = None if first is None else [round(first[0], 1), round(first[column], 1)]
    return row


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pages", nargs="+", help="only these pages (ikviz.views names)")
    parser.add_argument("--json", help="also write the rows here")
    parser.add_argument("--skip", nargs="+", help="views (their section key) not to measure")
    args = parser.parse_args()
    from ikviz.views import PAGES, page

    import dataclasses

    from ikviz.store import ResultsStore

    rows = []
    for name in PAGES:
        if args.pages and name not in args.pages:
            continue
        for view in page(name).views:
            if args.skip and view.key in args.skip:
                continue
            store = ResultsStore(workers=1)
            params = view.params()
            runs = [("first", params)]
            if "seed" in {f.name for f in dataclasses.fields(params)}:
                runs.append(("seed+1", dataclasses.replace(params, seed=params.seed + 1)))
            for which, p in runs:
                t0 = time.perf_counter()
                try:
                    row = measure(store, view.run, p)
                except Exception as exc:  # noqa: BLE001 - a failing view is reported, the others measured
                    row = {"error": f"{type(exc).__name__}: {exc}"[:200], "seconds": round(time.perf_counter() - t0, 1)}
                row = {"page": name, "view": view.key, "run": which, **row}
                rows.append(row)
                print(json.dumps({k: v for k, v in row.items() if k != "samples"}, ensure_ascii=False), flush=True)
    print("\n| page | view | run | seconds | readings | new: worst | new: median est/actual | new: within 2x | "
          "old: worst | old: median | old: within 2x |")
    print("|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for r in rows:
        print(f"| {r['page']} | {r['view'] or ''} | {r['run']} | {r['seconds']} | {r.get('readings', '')} | "
              f"{r.get('new_worst')} | {r.get('new_median')} | {r.get('new_within2')} | {r.get('old_worst')} | "
              f"{r.get('old_median')} | {r.get('old_within2')} |")
    if args.json:
        with open(args.json, "w") as out:
            json.dump(rows, out, indent=1, ensure_ascii=False)
    return 0


if __name__ == "__main__":
    sys.exit(main())
