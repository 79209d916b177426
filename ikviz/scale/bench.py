"""``ikviz bench scale``: ``ikviz scale features`` on generated Parquet files, against the in-memory NumPy path.

For each size, Parquet files of ``d`` float64 columns (1,000,000 rows per file,
row groups of 262,144 rows, a seeded mixture of Gaussians) are written once
under ``folder`` and reused. Then, each in a fresh Python process:

* **dask**: a ``LocalCluster`` (one single-threaded worker process per core),
  :func:`ikviz.scale.run.features` (read, fit on t * psi sampled rows, cells of
  every row, Parquet out); wall time from the first read to the renamed output
  (the cluster's start-up is reported apart), peak resident memory of the main
  process (client and scheduler) and of each worker process (``ru_maxrss``,
  read on the workers with ``client.run``);
* **numpy** (sizes up to ``numpy_max_rows``): the files loaded into one NumPy
  array, then ``IsolationKernel.fit(X)`` and ``cells(X)`` (numba on all cores);
  the time of fit + cells (loading reported apart) and the process's peak memory;
  then the same Parquet output as the Dask path's written, timed apart, so that
  the Dask path is compared with the in-memory cells alone and with cells + output.
"""

from __future__ import annotations

import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROWS_PER_FILE = 1_000_000
ROW_GROUP = 262_144


def _cpu_seconds() -> float:
    """User + system CPU time of this process so far."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def _peak_rss() -> int:
    """Peak resident memory of this process, in bytes (Linux reports KiB, macOS bytes)."""
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return int(peak if sys.platform == "darwin" else peak * 1024)


def generate(folder, n: int, d: int = 20, seed: int = 0) -> Path:
    """Write ``n`` rows of ``d`` columns as Parquet files under ``folder`` (skipped when already there)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    folder = Path(folder)
    stamp = folder / "_generated.json"
    want = {"n": n, "d": d, "seed": seed, "rows_per_file": ROWS_PER_FILE}
    if stamp.exists() and json.loads(stamp.read_text()) == want:
        return folder
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    centres = np.random.default_rng(seed).normal(scale=4.0, size=(8, d))
    names = [f"x{j}" for j in range(d)]
    for i, lo in enumerate(range(0, n, ROWS_PER_FILE)):
        m = min(ROWS_PER_FILE, n - lo)
        rng = np.random.default_rng([seed, i])
        X = centres[rng.integers(0, len(centres), m)] + rng.normal(size=(m, d)) * rng.uniform(0.3, 1.5, (m, 1))
        table = pa.table({name: X[:, j] for j, name in enumerate(names)})
        pq.write_table(table, folder / f"part-{i:05d}.parquet", row_group_size=ROW_GROUP)
    stamp.write_text(json.dumps(want))
    return folder


def _rss() -> int:
    """Resident memory of this process now, in bytes (Linux; 0 elsewhere)."""
    try:
        with open("/proc/self/statm") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except OSError:
        return 0


def _child_dask(data: str, out: str, psi: int, t: int, method: str, workers) -> dict:
    import threading

    from .cluster import connect
    from .run import features

    trace, done = [], threading.Event()

    def sample():  # the main process's memory over the run, every 10 s
        start = time.perf_counter()
        while not done.wait(10.0):
            trace.append((round(time.perf_counter() - start), _rss() // 2**20))

    threading.Thread(target=sample, daemon=True).start()
    t0 = time.perf_counter()
    with connect(n_workers=workers, dashboard_address=None, quiet=True) as client:
        startup = time.perf_counter() - t0
        cpu0 = _cpu_seconds() + sum(client.run(_cpu_seconds).values())
        res = features(data, out, psi=psi, t=t, seed=0, method=method, client=client, overwrite=True,
                       stream=sys.stderr)  # out: the benchmark's own earlier output (--keep)
        cpu = _cpu_seconds() + sum(client.run(_cpu_seconds).values()) - cpu0
        worker_peaks = client.run(_peak_rss)
        n_workers = len(worker_peaks)
    done.set()
    return {"main_rss_mb_trace": trace, "rows": res.n_rows, "seconds": res.seconds, "fit_seconds": res.fit_seconds,
            "startup_seconds": startup, "rows_per_second": res.rows_per_second, "partitions": res.partitions,
            "cpu_seconds": cpu, "rows_per_cpu_second": res.n_rows / cpu,
            "workers": n_workers, "peak_main_bytes": _peak_rss(),
            "peak_worker_bytes": sorted(worker_peaks.values())}


def _child_numpy(data: str, psi: int, t: int, method: str) -> dict:
    import pyarrow.parquet as pq

    from ..kernels import IsolationKernel

    t0 = time.perf_counter()
    files = sorted(Path(data).glob("*.parquet"))
    metas = [pq.ParquetFile(f).metadata for f in files]
    n, d = sum(m.num_rows for m in metas), metas[0].num_columns
    X = np.empty((n, d))
    lo = 0
    for f in files:  # column by column into one array: no second copy of the data
        table = pq.read_table(f)
        for j, col in enumerate(table.columns):
            X[lo:lo + table.num_rows, j] = col.to_numpy()
        lo += table.num_rows
        del table
    load = time.perf_counter() - t0
    t1, c1 = time.perf_counter(), _cpu_seconds()
    kernel = IsolationKernel(psi=psi, t=t, method=method, random_state=0).fit(X)
    fit, fit_cpu = time.perf_counter() - t1, _cpu_seconds() - c1
    kernel.cells(X[:1000])  # numba's compiled code is cached on disk; load it before timing
    t2, c2 = time.perf_counter(), _cpu_seconds()
    cells = kernel.cells(X)
    seconds, cpu = fit + time.perf_counter() - t2, fit_cpu + _cpu_seconds() - c2
    # the same output as the Dask path (blocks of ROW_GROUP rows, the same Parquet columns), timed apart
    from .run import cell_dtype, cells_table, write_part

    t3, c3 = time.perf_counter(), _cpu_seconds()
    with tempfile.TemporaryDirectory() as out:
        for i, lo in enumerate(range(0, n, ROW_GROUP)):
            part = np.asfortranarray(cells[lo:lo + ROW_GROUP], dtype=cell_dtype(kernel.psi_))
            write_part(cells_table(part), f"{out}/part.{i:05d}.parquet")
    write, write_cpu = time.perf_counter() - t3, _cpu_seconds() - c3
    return {"rows": n, "load_seconds": load, "seconds": seconds, "rows_per_second": n / seconds,
            "cpu_seconds": cpu, "rows_per_cpu_second": n / cpu, "write_seconds": write,
            "write_cpu_seconds": write_cpu, "rows_per_second_with_write": n / (seconds + write),
            "rows_per_cpu_second_with_write": n / (cpu + write_cpu),
            "peak_bytes": _peak_rss(), "cells_bytes": int(cells.nbytes)}


def _run_child(args: list[str]) -> dict:
    cmd = [sys.executable, "-m", "ikviz.scale.bench", *args]
    proc = subprocess.run(cmd, stdout=subprocess.PIPE, text=True)
    if proc.returncode != 0:
        raise RuntimeError(f"benchmark process failed ({' '.join(cmd)}), exit status {proc.returncode}")
    return json.loads(proc.stdout.strip().splitlines()[-1])


def _best(runs: list[dict]) -> dict:
    best = dict(min(runs, key=lambda r: r["seconds"]))
    best["runs_seconds"] = [r["seconds"] for r in runs]
    best["rows_per_cpu_second"] = max(r["rows_per_cpu_second"] for r in runs)
    return best


def bench_scale(sizes=(1_000_000,), d: int = 20, t: int = 200, psi: int = 64, method: str = "anne",
                folder=None, numpy_max_rows: int = 10_000_000, workers=None, keep: bool = False,
                repeats: int = 1, json_path=None, stream=None) -> list[dict]:
    """Run the benchmark for each size; print a table and return one dict per size.

    With ``repeats > 1`` each path runs that many times (alternating), and the fastest run is
    kept: on a shared machine the other runs measure the neighbours' load too. Besides wall time,
    the CPU seconds of every process (main and workers) are reported: rows per CPU second
    compare the two paths even when the machine is busy.
    """
    stream = sys.stdout if stream is None else stream
    base = Path(folder) if folder else Path(tempfile.gettempdir()) / "ikviz-bench-scale"
    base.mkdir(parents=True, exist_ok=True)
    rows = []
    print(f"ikviz scale features, t={t}, psi={psi}, method={method}, d={d}; {os.cpu_count()} cores", file=stream)
    print(f"{'rows':>12} {'path':>6} {'wall s':>8} {'rows/s':>10} {'rows/cpu-s':>11} "
          f"{'peak MB (main; workers)':>28}", file=stream)
    for n in sizes:
        t0 = time.perf_counter()
        data = generate(base / f"rows-{n}-d{d}", n, d)
        gen = time.perf_counter() - t0
        out = base / f"cells-{n}-d{d}"
        row = {"rows": n, "d": d, "t": t, "psi": psi, "method": method, "generate_seconds": gen}
        dask_runs, numpy_runs = [], []
        for _ in range(max(1, repeats)):
            dk = _run_child(["_dask", str(data), str(out), str(psi), str(t), method, str(workers or 0)])
            dask_runs.append(dk)
            peaks = "; ".join(f"{b / 2**20:,.0f}" for b in [dk["peak_main_bytes"], *dk["peak_worker_bytes"]])
            print(f"{n:>12,} {'dask':>6} {dk['seconds']:>8.1f} {dk['rows_per_second']:>10,.0f} "
                  f"{dk['rows_per_cpu_second']:>11,.0f} {peaks:>28}", file=stream, flush=True)
            if not keep:
                shutil.rmtree(out, ignore_errors=True)
            if n <= numpy_max_rows:
                npy = _run_child(["_numpy", str(data), str(psi), str(t), method])
                numpy_runs.append(npy)
                print(f"{n:>12,} {'numpy':>6} {npy['seconds']:>8.1f} {npy['rows_per_second']:>10,.0f} "
                      f"{npy['rows_per_cpu_second']:>11,.0f} {npy['peak_bytes'] / 2**20:>28,.0f}   "
                      f"(+{npy['load_seconds']:.1f} s to load, +{npy['write_seconds']:.1f} s "
                      f"({npy['write_cpu_seconds']:.1f} CPU-s) to write the same Parquet)", file=stream, flush=True)
        row["dask"] = _best(dask_runs)
        if numpy_runs:
            row["numpy"] = _best(numpy_runs)
            row["dask_over_numpy_throughput"] = row["dask"]["rows_per_second"] / row["numpy"]["rows_per_second"]
            row["dask_over_numpy_cpu_throughput"] = (row["dask"]["rows_per_cpu_second"]
                                                     / row["numpy"]["rows_per_cpu_second"])
            best_write = min(numpy_runs, key=lambda r: r["seconds"] + r["write_seconds"])
            row["dask_over_numpy_with_write"] = (row["dask"]["rows_per_second"]
                                                 / best_write["rows_per_second_with_write"])
            row["dask_over_numpy_cpu_with_write"] = (row["dask"]["rows_per_cpu_second"]
                                                     / max(r["rows_per_cpu_second_with_write"] for r in numpy_runs))
        rows.append(row)
        if json_path:
            Path(json_path).write_text(json.dumps(rows, indent=1))
        if not keep:
            shutil.rmtree(data, ignore_errors=True)
    for a, b in zip(rows, rows[1:]):
        ratio = b["dask"]["seconds"] / a["dask"]["seconds"]
        print(f"time x{ratio:.2f} for rows x{b['rows'] / a['rows']:.0f} ({a['rows']:,} -> {b['rows']:,})",
              file=stream)
    for r in rows:
        if "dask_over_numpy_throughput" in r:
            print(f"{r['rows']:,} rows: dask throughput {r['dask_over_numpy_throughput']:.0%} of the NumPy path's "
                  f"cells (wall); {r['dask_over_numpy_cpu_throughput']:.0%} in rows per CPU second", file=stream)
            print(f"{r['rows']:,} rows: against the NumPy path's cells + the same Parquet written: "
                  f"{r['dask_over_numpy_with_write']:.0%} (wall); {r['dask_over_numpy_cpu_with_write']:.0%} in rows "
                  "per CPU second", file=stream)
    return rows


def _main(argv: list[str]) -> int:
    kind = argv[0]
    if kind == "_dask":
        data, out, psi, t, method, workers = argv[1:7]
        res = _child_dask(data, out, int(psi), int(t), method, int(workers) or None)
    elif kind == "_numpy":
        data, psi, t, method = argv[1:5]
        res = _child_numpy(data, int(psi), int(t), method)
    else:
        raise SystemExit(f"unknown benchmark child {kind!r}")
    print(json.dumps(res))
    return 0


if __name__ == "__main__":
    sys.exit(_main(sys.argv[1:]))
