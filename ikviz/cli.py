"""The ``ikviz`` command line: ``ikviz reproduce``, ``ikviz check``, ``ikviz bench`` and ``ikviz scale``."""

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
    if args.quick and args.full:
        print("ikviz reproduce: choose --quick (reduced sizes) or --full (the papers' sizes), not both.",
              file=sys.stderr)
        return 2
    if args.workers < 1:
        print(f"ikviz reproduce: --workers must be at least 1; got {args.workers}.", file=sys.stderr)
        return 2
    if args.name in ("all", "claims"):  # one pass: every experiment, then the claims checked on its numbers
        try:
            from .claims import reproduce_all  # claims sit above reproduce (which never imports them)

            def echo(line):
                print(line, flush=True)

            only = [n.strip() for n in args.only.split(",") if n.strip()] if args.only else None
            index = reproduce_all(args.out, quick=args.quick, echo=echo, names=only, workers=args.workers,
                                  scheduler=args.scheduler,
                                  progress_for=lambda name: _ConsoleProgress(sys.stderr, prefix=f"  {name} "))
        except ValueError as exc:
            print(f"ikviz reproduce: {exc}", file=sys.stderr)
            return 2
        except (RuntimeError, ConnectionError) as exc:
            print(f"ikviz reproduce: {exc}", file=sys.stderr)
            return 1
        print(f"wrote {index}")
        return 0
    try:
        paths = registry.reproduce(args.name, args.out, quick=args.quick, resume=args.full,
                                   progress=_ConsoleProgress(sys.stderr))
    except ValueError as exc:
        print(f"ikviz reproduce: {exc}", file=sys.stderr)
        return 2
    print(f"{args.name}: wrote {paths['json']} and {paths['html']}")
    return 0


class _ConsoleProgress:
    """``progress(fraction, text)`` printed as one line per stage (and every 10 %) on ``stream``."""

    def __init__(self, stream, prefix: str = ""):
        self.stream, self.text, self.tenth, self.prefix = stream, None, -1, prefix

    def __call__(self, fraction: float, text: str = "") -> None:
        stage = text.split(":")[0]
        tenth = int(fraction * 10)
        if stage != self.text or tenth > self.tenth:
            self.text, self.tenth = stage, tenth
            print(f"{self.prefix}[{fraction:4.0%}] {text}", file=self.stream, flush=True)


def _check_roles(args) -> tuple:
    """The column roles of ``ikviz check``'s flags, as the page's (column, role) pairs (one-hot = encode)."""
    roles = {}
    for spec in args.role:
        name, sep, role = spec.rpartition("=")
        role = {"one-hot": "encode", "onehot": "encode"}.get(role.strip().lower(), role.strip().lower())
        if not sep or not name:
            raise ValueError(f"--role takes COLUMN=ROLE (ROLE one of feature, ignore, one-hot, label); got {spec!r}.")
        roles[name] = role
    for flag, role in (("feature", "feature"), ("ignore", "ignore"), ("encode", "encode")):
        roles.update({c: role for c in getattr(args, flag)})
    return tuple(sorted(roles.items()))


def _check(args) -> int:
    """``ikviz check FILE``: every check of the Your data page that applies, as one HTML report (and JSON)."""
    from .data._parse import check_path_text
    from .experiments import your_data as exp
    from .plots.your_data import data_lines, report
    from .runner import RunMemo

    try:
        path = Path(check_path_text(args.file))
        raw = path.read_bytes()
    except ValueError as exc:
        print(f"ikviz check: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:
        print(f"ikviz check: cannot read {str(path)[:200]}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    file = exp.FileBytes(raw, path.name)
    memo = RunMemo()
    missing = "drop" if args.drop_missing else args.missing
    try:
        roles = _check_roles(args)
        label = args.label
        if label is None:
            info = memo(exp.inspect_upload)(file, missing, args.sheet)
            label = info.label_guess
            print(f"label column: {label or '(none)'} (guessed: {info.label_reason} --label COLUMN or --label none "
                  "to choose)", file=sys.stderr)
        elif label.lower() == "none":
            label = None
        source = exp.upload_data(file, label=label, missing=missing, roles=roles, sheet=args.sheet,
                                 indicator=args.indicator, codes=not args.keep_codes, task=args.task)
        params = exp.CheckParams(source, args.rows, not args.no_scale, args.psi, args.t, args.seed, args.k)
        data = memo(exp.load_source)(source, args.rows, args.seed)
        print(f"{path.name}: {len(data.X):,} rows used, {data.X.shape[1]} features, "
              + (f"{len(data.classes)} classes" if data.task == "classification" else
                 "a numeric target" if data.task == "regression" else "no label")
              + f"; missing values: {data.missing}", file=sys.stderr)
        runs = exp.run_checks(params, args.checks, memo=memo, progress=_ConsoleProgress(sys.stderr))
    except ValueError as exc:
        hint = (" On the command line: --missing median, --missing most_frequent or --missing drop."
                if "missing values" in str(exc) and missing == "error" else "")
        named = str(exc) if str(exc).startswith(f"{path.name}:") else f"{path.name}: {exc}"
        print(f"ikviz check: {named}{hint}", file=sys.stderr)
        return 2
    html = report(exp.data_title(source), {name: (params, res) for name, res in runs.items()},
                  fingerprint=file.fingerprint, data_lines=data_lines(data))
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(html, encoding="utf-8")
    if args.json:
        Path(args.json).parent.mkdir(parents=True, exist_ok=True)
        Path(args.json).write_text(json.dumps(exp.numbers(runs, params), indent=1, allow_nan=True), encoding="utf-8")
    print(f"wrote {out}" + (f" and {args.json}" if args.json else "") + f" ({', '.join(runs)})")
    print(exp.summary(runs)["verdict"])
    return 0


def _bench(args) -> int:
    from .bench import bench_floor, bench_kernel

    if args.floor:  # issue 34: the sgemm floor and the peers doing the same work, one table per size
        rows = [bench_floor(n=n, d=args.d, t=args.t, psi=args.psi, repeats=args.repeats, peers=not args.no_peer)
                for n in args.sizes]
    else:
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


def exp_defaults() -> dict:
    """The Your data page's defaults (``CheckParams`` fields and an upload's column choices,
    :data:`ikviz.data.upload.UPLOAD_DEFAULTS`), which ``ikviz check`` shares."""
    import dataclasses

    from .data.upload import UPLOAD_DEFAULTS
    from .experiments.your_data import CheckParams

    out = {f.name: f.default for f in dataclasses.fields(CheckParams) if f.name != "source"}
    out.update(UPLOAD_DEFAULTS)
    return out


def build_parser() -> argparse.ArgumentParser:
    """The argument parser (also used by the tests)."""
    parser = argparse.ArgumentParser(prog="ikviz", description="See what the Isolation Kernel does.")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    rep = sub.add_parser("reproduce", help="run a registered paper reproduction; write JSON and HTML",
                         description="Run a registered experiment and write NAME.json and NAME.html.")
    rep.add_argument("name", nargs="?", help="experiment name, 'all', or 'claims' (every experiment, then every paper claim "
                     "checked on their numbers: claims.json, claims.html)")
    rep.add_argument("--list", action="store_true", help="list the experiments and the figures they reproduce")
    rep.add_argument("--out", default="ikviz-out", help="output folder (default: ikviz-out)")
    rep.add_argument("--quick", action="store_true", help="reduced sizes, for a fast check")
    rep.add_argument("--full", action="store_true",
                     help="the papers' sizes where the data is here (the default without --quick); resumable: a "
                          "reproduction already in --out under the same params and code is read back, not rerun")
    rep.add_argument("--workers", type=int, default=1,
                     help="all/claims: run the reproductions side by side on a local Dask cluster of this many "
                          "worker processes (default 1: one after the other, in this process)")
    rep.add_argument("--only", default=None, help="all/claims: only these reproductions (comma-separated names)")
    rep.add_argument("--scheduler", default=None,
                     help="all/claims: run the reproductions on the Dask cluster at this address (tcp://HOST:PORT)")
    rep.set_defaults(func=_reproduce)

    chk = sub.add_parser("check", help="run the Your data checks on a file; write one HTML report",
                         description="Read a CSV/TSV, Excel, Parquet or LIBSVM file as the app's Your data page does, "
                                     "run every check that applies (neighbours, SVM, t-SNE, clustering) and write a "
                                     "standalone HTML report.")
    chk.add_argument("file", help="the data file")
    _defaults = exp_defaults()
    chk.add_argument("--label", help="the label column (default: guessed, with the reason; 'none' for no label)")
    chk.add_argument("--out", default="report.html", help="the HTML report to write (default: report.html)")
    chk.add_argument("--json", metavar="PATH", help="also write the numbers (and the summary) as JSON")
    chk.add_argument("--rows", type=int, default=_defaults["max_rows"],
                     help=f"rows used by the checks, at most (default {_defaults['max_rows']})")
    chk.add_argument("--psi", type=int, default=_defaults["psi"])
    chk.add_argument("--t", type=int, default=_defaults["t"])
    chk.add_argument("--seed", type=int, default=_defaults["seed"])
    chk.add_argument("--k", type=int, default=_defaults["k"],
                     help="clusters without classes (default: estimated from the eigengap)")
    chk.add_argument("--no-scale", action="store_true", help="do not min-max scale the features to [0, 1]")
    chk.add_argument("--sheet", help="the sheet of an Excel workbook (default: the first)")
    chk.add_argument("--missing", choices=["median", "most_frequent", "drop", "error"], default=_defaults["missing"],
                     help="missing feature values: imputed (scikit-learn SimpleImputer, median or most frequent), "
                          f"rows dropped, or refused (default: {_defaults['missing']})")
    chk.add_argument("--drop-missing", action="store_true", help="the same as --missing drop")
    chk.add_argument("--indicator", action="store_true", help="with imputation, add a 0/1 column per imputed feature")
    chk.add_argument("--keep-codes", action="store_true",
                     help="keep detected missing-value codes (-200, -999, 9999, ...) as numbers")
    chk.add_argument("--task", choices=["auto", "classification", "regression"], default=_defaults["task"],
                     help="what the label asks for (default auto: a numeric label with many values is regression)")
    chk.add_argument("--role", action="append", default=[], metavar="COLUMN=ROLE",
                     help="a column's role, as on the page: feature, ignore, one-hot or label (repeatable)")
    chk.add_argument("--feature", nargs="+", default=[], metavar="COLUMN", help="columns to use as numeric features")
    chk.add_argument("--ignore", nargs="+", default=[], metavar="COLUMN", help="columns to leave out")
    chk.add_argument("--encode", "--one-hot", nargs="+", default=[], metavar="COLUMN",
                     help="columns to one-hot encode")
    chk.add_argument("--checks", nargs="+", choices=["neighbours", "svm", "regression", "tsne", "clustering"],
                     help="only these checks (default: every one that applies)")
    chk.set_defaults(func=_check)

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
    kern.add_argument("--floor", action="store_true", help="cells against the machine's sgemm floor and faiss, isotree, "
                      "scikit-learn, ikpykit (median of --repeats runs, in this process)")
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
