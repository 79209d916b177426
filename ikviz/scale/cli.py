"""Arguments and handlers of ``ikviz scale features``, ``ikviz scale learn`` and ``ikviz bench scale``.

``ikviz/cli.py`` only calls :func:`add_scale_parser` and :func:`add_bench_parser`; nothing here
imports Dask until a command runs.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path


def _columns(values):
    """``--columns a b`` or ``--columns a,b``."""
    if not values:
        return None
    return [c.strip() for v in values for c in v.split(",") if c.strip()]


def _fail(exc) -> int:
    print(f"ikviz scale: {exc}", file=sys.stderr)
    return 2


#: what a run may end with, printed as one line (a cluster fault is a ConnectionError, a full disk an OSError)
_CLEAR = (ValueError, OSError)


class ConsoleBar:
    """The command line's ``progress(fraction, text)``: one line of ``#`` on a terminal, redrawn in place.

    Examples
    --------
    >>> import io
    >>> from ikviz.scale.cli import ConsoleBar
    >>> out = io.StringIO()
    >>> bar = ConsoleBar(out, width=10)
    >>> bar(0.5, "block 2 of 4 written"); bar.close()
    >>> out.getvalue().strip()
    '[#####     ]  50%  block 2 of 4 written'
    """

    def __init__(self, stream=None, width: int = 30):
        self.stream, self.width, self.drawn = (sys.stderr if stream is None else stream), width, False

    def __call__(self, fraction: float, text: str = "") -> None:
        full = int(round(self.width * min(1.0, max(0.0, fraction))))
        line = f"[{'#' * full}{' ' * (self.width - full)}] {fraction:4.0%}  {text}"
        self.stream.write("\r" + line[:119].ljust(119 if self.drawn else 0))
        self.stream.flush()
        self.drawn = True

    def close(self) -> None:
        if self.drawn:
            self.stream.write("\n")
            self.stream.flush()
            self.drawn = False


def _progress(args):
    return None if args.no_progress else ConsoleBar()


def _cluster_args(p) -> None:
    p.add_argument("--scheduler", metavar="ADDRESS",
                   help="tcp://HOST:8786 of a running Dask scheduler (default: $DASK_SCHEDULER_ADDRESS, else a "
                        "LocalCluster on all cores in this process)")
    p.add_argument("--workers", type=int, help="local cluster: worker processes (default: one per core)")
    p.add_argument("--worker-timeout", type=float, default=30, metavar="SECONDS",
                   help="stop when no worker has been alive for this long (default 30)")
    p.add_argument("--no-progress", action="store_true", help="do not draw the progress bar")


def _features(args) -> int:
    from .run import features

    bar = _progress(args)
    try:
        res = features(args.input, args.out, psi=args.psi, t=args.t, seed=args.seed, method=args.method,
                       columns=_columns(args.columns), scheduler=args.scheduler, n_workers=args.workers,
                       overwrite=args.overwrite, progress=bar, worker_timeout=args.worker_timeout)
    except _CLEAR as exc:
        return _fail(exc)
    finally:
        if bar is not None:
            bar.close()
    print(f"wrote {res.out}: {res.n_rows:,} rows x {res.t} partitionings ({res.dtype} cells) in {res.seconds:.1f} s, "
          f"{res.rows_per_second:,.0f} rows/s")
    return 0


def _learn(args) -> int:
    from .run import learn

    try:
        learn(args.input, args.label, columns=_columns(args.columns), psi=args.psi, t=args.t, method=args.method,
              eta=args.eta, prefix=args.prefix, n_components=args.components, gamma=args.gamma,
              test_fraction=args.test_fraction, seed=args.seed, scheduler=args.scheduler, n_workers=args.workers,
              worker_timeout=args.worker_timeout)  # learn prints its own table as blocks go by
    except _CLEAR as exc:
        return _fail(exc)
    return 0


def add_scale_parser(sub) -> None:
    """Add ``scale features`` and ``scale learn`` to the top-level sub-parsers."""
    scale = sub.add_parser("scale", help="the Isolation Kernel on files larger than memory (Dask)",
                           description="Run the Isolation Kernel on Parquet or CSV files with Dask: a local "
                                       "cluster on all cores by default, or any cluster by address.")
    scale_sub = scale.add_subparsers(dest="action", metavar="ACTION", required=True)

    feat = scale_sub.add_parser("features", help="write the cells of every row as Parquet",
                                description="Fit an Isolation Kernel on t*psi sampled rows of INPUT and write the "
                                            "cell of every row in every partitioning to OUT (Parquet; one integer "
                                            "column p0..p{t-1} per partitioning, rows in input order).")
    feat.add_argument("input", help="Parquet or CSV file, a folder of them, or a glob (quote it)")
    feat.add_argument("--out", required=True,
                      help="output folder: new or empty (ikviz never deletes files it did not write; written under "
                           "a temporary name, then renamed)")
    feat.add_argument("--overwrite", action="store_true",
                      help="replace an earlier ikviz output at --out (once the new one is complete)")
    feat.add_argument("--psi", type=int, default=64)
    feat.add_argument("--t", type=int, default=200)
    feat.add_argument("--seed", type=int, default=0)
    feat.add_argument("--method", default="anne", choices=["anne", "inne", "iforest"])
    feat.add_argument("--columns", nargs="+", help="feature columns (default: every numeric column)")
    _cluster_args(feat)
    feat.set_defaults(func=_features)

    lrn = scale_sub.add_parser("learn", help="train IK+OGD and FOGD chunk by chunk; held-out accuracy",
                               description="Train IK+OGD (and FOGD for comparison) over INPUT one row block at a "
                                           "time; print the progressive mistake rate and the accuracy on a "
                                           "held-out fraction of every block.")
    lrn.add_argument("input", help="Parquet or CSV file, a folder of them, or a glob (quote it)")
    lrn.add_argument("--label", required=True, help="the class column")
    lrn.add_argument("--columns", nargs="+", help="feature columns (default: every numeric column but the label)")
    lrn.add_argument("--psi", type=int, default=64)
    lrn.add_argument("--t", type=int, default=100)
    lrn.add_argument("--method", default="anne", choices=["anne", "inne", "iforest"])
    lrn.add_argument("--eta", type=float, default=0.2, help="OGD step size")
    lrn.add_argument("--prefix", type=int, default=1000, help="rows the IK map is fitted on")
    lrn.add_argument("--components", type=int, default=400, help="FOGD random features")
    lrn.add_argument("--gamma", type=float, help="FOGD kernel width (default 1 / (d * variance))")
    lrn.add_argument("--test-fraction", type=float, default=0.2, help="held-out fraction of each block")
    lrn.add_argument("--seed", type=int, default=0)
    _cluster_args(lrn)
    lrn.set_defaults(func=_learn)


def _bench_scale(args) -> int:
    from .bench import bench_scale

    rows = bench_scale(sizes=tuple(args.sizes), d=args.d, t=args.t, psi=args.psi, method=args.method,
                       folder=args.folder, numpy_max_rows=args.numpy_max_rows, workers=args.workers,
                       keep=args.keep, repeats=args.repeats, json_path=args.json)
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=1))
        print(f"wrote {args.json}")
    return 0


def add_bench_parser(bench_sub) -> None:
    """Add ``bench scale`` to the ``bench`` sub-parsers."""
    p = bench_sub.add_parser("scale", help="'ikviz scale features' on generated Parquet files vs the NumPy path",
                             description="Generate Parquet files of each size (d columns), run 'ikviz scale "
                                         "features' on a LocalCluster, and the in-memory NumPy path on the sizes "
                                         "that fit; report rows/s, wall time and peak memory per process.")
    p.add_argument("--sizes", type=int, nargs="+", default=[1_000_000], help="rows (e.g. 1000000 10000000 50000000)")
    p.add_argument("--d", type=int, default=20)
    p.add_argument("--t", type=int, default=200)
    p.add_argument("--psi", type=int, default=64)
    p.add_argument("--method", default="anne", choices=["anne", "inne", "iforest"])
    p.add_argument("--folder", default=None, help="where the files go (default: a folder under the temp dir)")
    p.add_argument("--numpy-max-rows", type=int, default=10_000_000,
                   help="run the in-memory NumPy path up to this many rows")
    p.add_argument("--workers", type=int, help="local cluster worker processes (default: one per core)")
    p.add_argument("--repeats", type=int, default=1, help="runs of each path per size (the fastest is kept)")
    p.add_argument("--keep", action="store_true", help="keep the generated files and outputs")
    p.add_argument("--json", help="also write the rows to this file")
    p.set_defaults(func=_bench_scale)
