"""Density peaks on 10,000 points: time and peak memory, for each measure (issue: under 10 s, bounded memory).

Run from the repository root: ``python benchmarks/clustering.py [--n 10000] [--d 2]``.
Each case runs in a fresh process (after a small warm-up, so numba's compile or
cache load is not timed) and reports:

* the wall time of ``DensityPeaks.fit`` (for IK the kernel fit and cell indexing included;
  max-distance, rho and delta passes, assignment);
* the peak of Python-tracked allocations during the call (tracemalloc, which numpy
  reports to), and the process's peak resident memory.

A dense 10,000 x 10,000 float64 distance matrix alone would be 763 MiB.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys

CASE = r"""
import json, resource, sys, time, tracemalloc
import numpy as np
from ikviz.clustering import DensityPeaks

n, d, measure, psi = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3], int(sys.argv[4])
rng = np.random.default_rng(0)
# three Gaussian blobs of different spread
X = np.vstack([rng.normal(c, s, size=(m, d)) for c, s, m in ((0, 0.5, n // 2), (4, 1.0, n // 4), (8, 0.3, n - n // 2 - n // 4))])
warm = X[:300]
metric = {"euclidean": "euclidean", "ik": "ik", "ag": "adaptive"}[measure]
DensityPeaks(3, eps_fraction=0.05, metric=metric, psi=16, t=20, n_neighbours=10, random_state=0).fit(warm)

base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
tracemalloc.start()
start = time.perf_counter()
dp = DensityPeaks(3, eps_fraction=0.05, metric=metric, psi=psi, t=200, n_neighbours=50, random_state=0).fit(X)
labels = dp.labels_
seconds = time.perf_counter() - start
prepare = 0.0
peak = tracemalloc.get_traced_memory()[1]
tracemalloc.stop()
print(json.dumps({"measure": measure, "n": n, "d": d, "psi": psi if measure == "ik" else None,
                  "prepare_s": round(prepare, 3), "density_peaks_s": round(seconds, 3),
                  "total_s": round(prepare + seconds, 3),
                  "traced_peak_MiB": round(peak / 2**20, 1),
                  "rss_peak_MiB": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
                  "rss_before_MiB": round(base / 1024, 1),
                  "rows_per_block": max(1, min(n, 64 * 1024**2 // (8 * n))), "cluster_sizes": np.bincount(labels).tolist()}))
"""


def main(argv=None) -> list[dict]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=10_000)
    parser.add_argument("--d", type=int, default=2)
    parser.add_argument("--psi", type=int, default=64)
    parser.add_argument("--measures", nargs="+", default=["euclidean", "ik", "ag"])
    args = parser.parse_args(argv)
    rows = []
    for measure in args.measures:
        out = subprocess.run([sys.executable, "-c", CASE, str(args.n), str(args.d), measure, str(args.psi)],
                             capture_output=True, text=True, check=True)
        row = json.loads(out.stdout.strip().splitlines()[-1])
        rows.append(row)
        print(f"{measure:<10} n={row['n']} d={row['d']}: density peaks {row['density_peaks_s']:.2f} s "
              f"(+ {row['prepare_s']:.2f} s kernel/scales), traced peak {row['traced_peak_MiB']} MiB, "
              f"process peak RSS {row['rss_peak_MiB']} MiB, {row['rows_per_block']} rows per block",
              flush=True)
    return rows


if __name__ == "__main__":
    main()
