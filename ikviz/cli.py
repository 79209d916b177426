"""The ``ikviz`` command line: ``ikviz reproduce``, ``ikviz bench`` and ``ikviz scale``."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path


def _reproduce(args) -> int:
    from . import reproduce as registry

    if args.list or not args.name:
        for name in registry.names():
            entry = registry.get(name)
            print(f"{name:<22} {entry.source:<30} {entry.description}")
        return 0
    if args.name == "all":
        index = registry.reproduce_all(args.out, quick=args.quick)
        print(f"wrote {index}")
        return 0
    try:
        paths = registry.reproduce(args.name, args.out, quick=args.quick)
    except ValueError as exc:
        print(f"ikviz reproduce: {exc}", file=sys.stderr)
        return 2
    print(f"{args.name}: wrote {paths['json']} and {paths['html']}")
    return 0


def _bench(args) -> int:
    from .bench import bench_kernel

    rows = bench_kernel(sizes=tuple(args.sizes), methods=tuple(args.methods), d=args.d, t=args.t,
                        psi=args.psi, repeats=args.repeats, peer=not args.no_peer)
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=1))
        print(f"wrote {args.json}")
    return 0


def _bench_classification(args) -> int:
    from .bench_classification import main

    main(json_path=args.json, n=args.n, stream=args.stream, dataset=args.dataset)
    return 0


def _bench_pipeline(args) -> int:
    from .bench_classification import main_pipeline

    main_pipeline(json_path=args.json, n=args.n, dataset=args.dataset, psi=args.psi, t=args.t, seed=args.seed)
    return 0


def build_parser() -> argparse.ArgumentParser:
    """The argument parser (also used by the tests)."""
    parser = argparse.ArgumentParser(prog="ikviz", description="See what the Isolation Kernel does.")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    rep = sub.add_parser("reproduce", help="run a registered paper reproduction; write JSON and HTML",
                         description="Run a registered experiment and write NAME.json and NAME.html.")
    rep.add_argument("name", nargs="?", help="experiment name, or 'all'")
    rep.add_argument("--list", action="store_true", help="list the experiments and the figures they reproduce")
    rep.add_argument("--out", default="ikviz-out", help="output folder (default: ikviz-out)")
    rep.add_argument("--quick", action="store_true", help="reduced sizes, for a fast check")
    rep.set_defaults(func=_reproduce)

    bench = sub.add_parser("bench", help="benchmarks (e.g. 'ikviz bench kernel')",
                           description="Benchmarks against peer libraries, each measured in a fresh process.")
    bench_sub = bench.add_subparsers(dest="target", metavar="TARGET", required=True)
    kern = bench_sub.add_parser("kernel", help="IsolationKernel fit+transform vs ikpykit's IsoKernel")
    kern.add_argument("--sizes", type=int, nargs="+", default=[20_000, 100_000])
    kern.add_argument("--methods", nargs="+", default=["anne", "inne", "iforest"],
                      choices=["anne", "inne", "iforest"])
    kern.add_argument("--d", type=int, default=20)
    kern.add_argument("--t", type=int, default=200)
    kern.add_argument("--psi", type=int, default=64)
    kern.add_argument("--repeats", type=int, default=3, help="ikviz runs per size (best is kept)")
    kern.add_argument("--no-peer", action="store_true", help="do not run ikpykit")
    kern.add_argument("--json", help="also write the rows to this file")
    kern.set_defaults(func=_bench)
    cls = bench_sub.add_parser("classification",
                               help="linear SVM on IK features vs SVC-RBF on 20,000 points; FOGD examples/s")
    cls.add_argument("--n", type=int, default=20_000, help="rows for the SVM comparison")
    cls.add_argument("--dataset", default="a9a", help="bundled dataset for the SVM comparison")
    cls.add_argument("--stream", type=int, default=100_000, help="FOGD stream length")
    cls.add_argument("--json", help="also write the numbers to this file")
    cls.set_defaults(func=_bench_classification)
    pipe = bench_sub.add_parser("pipeline",
                                help="make_pipeline(IsolationKernel(psi=64, t=200), LinearSVC()) vs SVC-RBF, "
                                     "defaults, 20,000 a9a rows")
    pipe.add_argument("--n", type=int, default=20_000, help="training rows (the rest of the dataset is the test set)")
    pipe.add_argument("--dataset", default="a9a", help="bundled dataset")
    pipe.add_argument("--psi", type=int, default=64)
    pipe.add_argument("--t", type=int, default=200)
    pipe.add_argument("--seed", type=int, default=0)
    pipe.add_argument("--json", help="also write the numbers to this file")
    pipe.set_defaults(func=_bench_pipeline)
    # ikviz scale ... and ikviz bench scale (defined in ikviz/scale/cli.py; Dask is imported only when they run)
    from .scale.cli import add_bench_parser as add_bench_scale, add_scale_parser
    add_bench_scale(bench_sub)
    add_scale_parser(sub)
    return parser


def main(argv=None) -> int:
    """Entry point of the ``ikviz`` console script."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 0
    return args.func(args)


if __name__ == "__main__":
    sys.exit(main())
