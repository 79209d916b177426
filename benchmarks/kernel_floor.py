"""ikviz's cells against the machine's sgemm floor and the peers, in one run (issue 34).

The same as ``ikviz bench kernel --floor``::

    python benchmarks/kernel_floor.py --n 1000000
"""

import argparse
import json

from ikviz.bench import bench_floor

if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=100_000)
    parser.add_argument("--d", type=int, default=20)
    parser.add_argument("--t", type=int, default=200)
    parser.add_argument("--psi", type=int, default=64)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--json", help="also write the numbers to this file")
    args = parser.parse_args()
    result = bench_floor(n=args.n, d=args.d, t=args.t, psi=args.psi, repeats=args.repeats)
    if args.json:
        with open(args.json, "w") as fh:
            json.dump(result, fh, indent=1)
