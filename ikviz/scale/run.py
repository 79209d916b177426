"""``ikviz scale features`` and ``ikviz scale learn``: the Isolation Kernel over files larger than memory.

Both read a Parquet or CSV file, folder or glob lazily (:mod:`ikviz.data.files`)
and run on a ``dask.distributed`` cluster (:mod:`ikviz.scale.cluster`): an
in-process ``LocalCluster`` on all cores by default, or the scheduler given by
``scheduler`` / ``$DASK_SCHEDULER_ADDRESS``.

* :func:`features`: fits an :class:`~ikviz.IsolationKernel` on its ``t * psi``
  sampled rows (only those rows come back), then each worker maps a block to
  its cells and writes them as one Parquet file. Data that take at most a
  quarter of the workers' memory are read once, into it (sample and cells
  from there); larger data are read twice, for the sample and for the cells,
  never held whole. Each Parquet file has one integer column
  ``p0 .. p{t-1}`` per partitioning, rows in input order. The output is written
  under a temporary name and put in the place of ``--out`` only when complete;
  ``--out`` must be new, empty, or an earlier ikviz output (with ``overwrite``).
* :func:`learn`: trains IK + OGD and FOGD chunk by chunk with ``partial_fit``
  (blocks are read on the workers, a few ahead of the learner), prints the
  progressive mistake rate, and scores a held-out part on the workers.
* :func:`shared_client` (one cluster for a whole server, such as the app) and
  :func:`cell_counts` (rows per cell over every row) serve the app's Your data page.

Progress follows the house convention, ``progress(fraction, text)`` (see
:mod:`ikviz.runner`); the command line draws it as a console bar. Cluster
faults (no live worker for ``worker_timeout`` seconds, a lost scheduler) end
the run with a one-line :class:`~ikviz.scale.cluster.ClusterError`, a full disk
with a one-line ``OSError``; either way ``out`` is left as it was.
"""

from __future__ import annotations

import atexit
import json
import sys
import threading
import time
from dataclasses import asdict, dataclass, field

import numpy as np

from .._dask import n_rows
from ..runner import within
from .cluster import WORKER_TIMEOUT, Watch, compute, connect
from ..data.files import CHUNK_ROWS, CSV_BLOCKSIZE, find_files, read_dataset
from .io import OUTPUT_MARK, check_output, discard, publish, temporary_path

_SUB_ROWS = 65_536  # rows mapped at once inside a block: bounds the int32 cells kept before narrowing
MAX_CLASSES = 1000
LEARN_CHUNK_ROWS = 65_536  # rows per block handed to partial_fit (row groups are grouped up to it)


def cell_dtype(psi: int) -> np.dtype:
    """Smallest signed integer type holding cells 0..psi-1 and -1 (an uncovered iNNE row)."""
    for dtype in (np.int8, np.int16, np.int32):
        if psi - 1 <= np.iinfo(dtype).max:
            return np.dtype(dtype)
    return np.dtype(np.int64)


class _PartWriter:
    """Maps a row block to its cells (``_SUB_ROWS`` rows at a time) and writes them as one Parquet file (picklable).

    The columns ``p0 .. p{t-1}`` are non-nullable ``dtype`` columns built straight from a
    column-major array (no data frame in between); this is where the Dask path spends what
    it spends beyond the in-memory path's cells.
    """

    def __init__(self, kernel, dtype, folder: str):
        self.kernel, self.dtype, self.folder = kernel, np.dtype(dtype), str(folder)

    def __call__(self, block, i: int) -> int:
        block = np.asarray(block)
        n, t = block.shape[0], self.kernel.t_
        cells = np.empty((n, t), dtype=self.dtype, order="F")
        for lo in range(0, n, _SUB_ROWS):
            cells[lo:lo + _SUB_ROWS] = self.kernel.cells(block[lo:lo + _SUB_ROWS])
        try:
            write_part(cells_table(cells), f"{self.folder}/{_part_name(i)}")
        except OSError as exc:
            raise OutputError(exc.errno, str(exc)) from None
        return n


class OutputError(OSError):
    """Writing the output failed (a full disk, say): raised on a worker, reported by :func:`features`.

    Examples
    --------
    >>> import errno
    >>> from ikviz.scale.run import OutputError
    >>> OutputError(errno.ENOSPC, "No space left on device").errno == errno.ENOSPC
    True
    """


def cells_table(cells: np.ndarray):
    """The cells (n, t) as an Arrow table of non-nullable columns ``p0 .. p{t-1}`` (column-major in: no copy).

    Examples
    --------
    >>> import numpy as np
    >>> from ikviz.scale.run import cells_table
    >>> cells_table(np.array([[1, 2], [3, 0]], dtype=np.int8)).column_names
    ['p0', 'p1']
    """
    import pyarrow as pa

    kind = pa.from_numpy_dtype(cells.dtype)
    schema = pa.schema([pa.field(f"p{k}", kind, nullable=False) for k in range(cells.shape[1])])
    return pa.Table.from_arrays([pa.array(cells[:, k]) for k in range(cells.shape[1])], schema=schema)


def write_part(table, path: str) -> None:
    """Write one block's cells (an Arrow table) to ``path`` as Parquet (the Dask path's only output write).

    Examples
    --------
    >>> import tempfile, pyarrow as pa, pyarrow.parquet as pq
    >>> from ikviz.scale.run import write_part
    >>> path = tempfile.mkdtemp() + "/part.00000.parquet"
    >>> write_part(pa.table({"p0": pa.array([3, 1], pa.int8())}), path)
    >>> pq.read_table(path).column("p0").to_pylist()
    [3, 1]
    """
    import pyarrow.parquet as pq

    pq.write_table(table, path, write_statistics=False)


def _write_block(writer, block, i):
    return writer(block, i)


def _output_error(exc: OSError, out) -> OSError:
    import errno

    if exc.errno == errno.ENOSPC or "No space left" in str(exc):
        why = "no space left on the device"
    elif exc.errno == errno.EDQUOT or "quota" in str(exc).lower():
        why = "over the disk quota"
    else:
        why = (exc.strerror or str(exc)).strip().splitlines()[0] if (exc.strerror or str(exc)) else type(exc).__name__
    return OSError(f"Could not write the output next to {out}: {why}. The partial output was removed and {out} was "
                   "left as it was.")


@dataclass
class FeaturesResult:
    """What :func:`features` did."""

    out: str
    n_rows: int
    n_features: int
    columns: list[str]
    files: list[str]
    psi: int
    t: int
    method: str
    seed: int
    dtype: str
    fit_seconds: float
    seconds: float                  # wall time from start to the renamed output, cluster start-up excluded
    partitions: int = 0
    extra: dict = field(default_factory=dict)

    @property
    def rows_per_second(self) -> float:
        return self.n_rows / self.seconds if self.seconds > 0 else float("nan")


def features(spec, out, *, psi: int = 64, t: int = 200, seed: int = 0, method: str = "anne", columns=None,
             scheduler: str | None = None, client=None, n_workers: int | None = None, overwrite: bool = False,
             progress=None, worker_timeout: float = WORKER_TIMEOUT, chunk_rows: int = CHUNK_ROWS,
             blocksize: int = CSV_BLOCKSIZE, stream=None) -> FeaturesResult:
    """Write the Isolation Kernel cells of every row of ``spec`` to the Parquet folder ``out``.

    Parameters
    ----------
    spec : str or Path
        A Parquet or CSV file, a folder of them, or a glob.
    out : str or Path
        Output folder: ``part.00000.parquet``... (columns ``p0``..``p{t-1}``, the smallest integer type
        holding 0..psi-1), and ``_ikviz.json`` with the parameters. It must not exist, be empty, or
        hold an earlier ikviz output (replaced only with ``overwrite=True``); a folder holding the
        input, or anything ikviz did not write, is refused (:func:`ikviz.scale.io.check_output`).
    psi, t, seed, method
        The :class:`~ikviz.IsolationKernel` parameters (``seed`` is its ``random_state``).
    columns : list of str, optional
        Feature columns (default: every numeric column).
    scheduler : str, optional
        Scheduler address; default ``$DASK_SCHEDULER_ADDRESS``, else a local cluster on all cores.
    client : distributed.Client, optional
        Use this client (and its cluster) instead of starting or connecting one.
    overwrite : bool, default=False
        Replace an earlier ikviz output at ``out`` (once the new one is complete).
    progress : callable, optional
        ``progress(fraction, text)`` as the sample is read and blocks are written.
    worker_timeout : float, default=30
        Seconds without a live worker after which the run stops with a ``ClusterError``.

    Examples
    --------
    >>> import numpy as np, pandas as pd, tempfile
    >>> from pathlib import Path
    >>> from ikviz.scale.run import features
    >>> folder = Path(tempfile.mkdtemp())
    >>> pd.DataFrame(np.random.default_rng(0).normal(size=(500, 3)), columns=list("abc")).to_parquet(
    ...     folder / "x.parquet")
    >>> res = features(folder / "x.parquet", folder / "cells", psi=8, t=10, n_workers=1,
    ...                stream=open("/dev/null", "w"))                 # doctest: +SKIP
    >>> pd.read_parquet(folder / "cells").shape                        # doctest: +SKIP
    (500, 10)
    """
    files = find_files(spec)
    out = check_output(out, files, overwrite=overwrite)  # before any work: nothing ikviz did not write is at stake
    if client is None:
        with connect(scheduler, n_workers=n_workers, stream=stream) as own:
            return features(spec, out, psi=psi, t=t, seed=seed, method=method, columns=columns, client=own,
                            overwrite=overwrite, progress=progress, worker_timeout=worker_timeout,
                            chunk_rows=chunk_rows, blocksize=blocksize, stream=stream)
    import dask

    from ..kernels import IsolationKernel

    stream = sys.stderr if stream is None else stream
    report = within(progress, 0.0, 1.0)
    start = time.perf_counter()
    ds = read_dataset(spec, columns, chunk_rows=chunk_rows, blocksize=blocksize)
    X = ds.X
    once = _fits_in_memory(client, ds)
    report(0.0, "reading the data into the workers' memory" if once else "reading the sampled rows")
    with dask.config.set(scheduler=client.get), Watch(client, worker_timeout=worker_timeout):
        if once:  # one read: the sample and the cells both come from the workers' memory
            X = client.persist(X)
        n = n_rows(X)  # CSV read twice: one parallel pass to count the rows of each piece
        kernel = IsolationKernel(psi=psi, t=t, method=method, random_state=seed).fit(X)
    fit_seconds = time.perf_counter() - start
    print(f"kernel fitted on {kernel.t * kernel.psi_:,} sampled rows of {n:,} ({len(ds.features)} columns) "
          f"in {fit_seconds:.1f} s", file=stream)
    dtype = cell_dtype(kernel.psi_)
    tmp = temporary_path(out)
    discard(tmp)
    result = FeaturesResult(str(out), n, len(ds.features), ds.features, ds.source.files, kernel.psi_, t, method,
                            seed, dtype.name, fit_seconds, 0.0, X.numblocks[0])
    try:
        try:
            tmp.mkdir()
        except OSError as exc:
            raise OutputError(exc.errno, str(exc)) from None
        writer = dask.delayed(_PartWriter(kernel, dtype, str(tmp)), pure=True)  # one copy per worker
        parts = [dask.delayed(_write_block)(writer, block, i) for i, block in enumerate(X.to_delayed().ravel())]
        written = compute(client, parts, progress=within(report, 0.05, 1.0), worker_timeout=worker_timeout,
                          text="block {done} of {total} written")
        if sum(written) != n:
            raise RuntimeError(f"wrote {sum(written):,} rows of {n:,}")
        result.seconds = time.perf_counter() - start
        info = asdict(result) | {"rows_per_second": result.rows_per_second}
        try:
            (tmp / OUTPUT_MARK).write_text(json.dumps(info, indent=1))
            publish(tmp, out, files, overwrite=overwrite)
        except OSError as exc:
            raise OutputError(exc.errno, str(exc)) from None
    except OutputError as exc:
        discard(tmp)
        raise _output_error(exc, out) from None
    except BaseException:
        discard(tmp)
        raise
    report(1.0, f"{n:,} rows written")
    return result


#: the data are held in the workers' memory (and read once) when they take at most this share of it
MEMORY_SHARE = 0.25


def _fits_in_memory(client, ds) -> bool:
    """Whether the feature matrix takes at most ``MEMORY_SHARE`` of the workers' memory limits together.

    The size is the float64 matrix's for Parquet (rows known from the metadata), and the files' size for
    CSV (text takes more bytes than the numbers it holds). Workers without a memory limit (the app's
    threads) never hold the data: it is then read twice, once for the sample and once for the cells.
    """
    import os

    try:
        workers = client.scheduler_info(n_workers=-1).get("workers", {})
    except TypeError:  # a distributed without n_workers
        workers = client.scheduler_info().get("workers", {})
    limits = [w.get("memory_limit") or 0 for w in workers.values()]
    if not limits or min(limits) <= 0:
        return False
    if ds.source.lengths is not None:
        size = sum(ds.source.lengths) * len(ds.features) * 8
    else:
        size = sum(os.path.getsize(f) for f in ds.source.files)
    return size <= MEMORY_SHARE * sum(limits)


def _part_name(i: int) -> str:
    return f"part.{i:05d}.parquet"


# ------------------------------------------------------------------ learn
@dataclass
class LearnResult:
    """What :func:`learn` did: progressive mistake rates (training rows) and held-out accuracies."""

    n_train: int
    n_test: int
    classes: list
    mistake_rate: dict              # learner name -> progressive mistake rate over the training rows
    accuracy: dict                  # learner name -> accuracy on the held-out rows
    curve: list                     # (rows seen, {learner: running mistake rate}) after each block
    seconds: float


def test_mask(seed: int, block: int, n: int, fraction: float) -> np.ndarray:
    """Held-out rows of block ``block`` (n rows): a seeded random draw, the same on every machine."""
    if fraction <= 0:
        return np.zeros(n, dtype=bool)
    return np.random.default_rng([int(seed), int(block)]).random(n) < fraction


test_mask.__test__ = False  # a helper, not a test: pytest --doctest-modules collects test_* names


def _score_block(models, X, y, seed, block, fraction):
    mask = test_mask(seed, block, len(y), fraction)
    if not mask.any():
        return np.zeros(len(models) + 1, dtype=np.int64)
    X, y = np.asarray(X)[mask], np.asarray(y)[mask]
    return np.array([mask.sum()] + [int((m.predict(X) == y).sum()) for m in models], dtype=np.int64)


def learn(spec, label: str, *, columns=None, psi: int = 64, t: int = 100, method: str = "anne", eta: float = 0.2,
          prefix: int = 1000, n_components: int = 400, gamma: float | None = None, test_fraction: float = 0.2,
          seed: int = 0, scheduler: str | None = None, client=None, n_workers: int | None = None,
          progress=None, worker_timeout: float = WORKER_TIMEOUT, chunk_rows: int = LEARN_CHUNK_ROWS,
          blocksize: int = CSV_BLOCKSIZE // 4, ahead: int = 4, stream=None) -> LearnResult:
    """Train IK + OGD and FOGD over ``spec`` chunk by chunk; print progressive mistakes and held-out accuracy.

    Each row block is read on the workers (``ahead`` blocks are read ahead of the learner), its
    held-out rows (a seeded ``test_fraction`` of each block) are set aside, and the others train
    both learners with ``partial_fit``, in file order. The held-out rows are then scored on the
    workers with the final models. ``gamma`` (FOGD) defaults to 1 / (d * variance) of the first
    block's training rows (scikit-learn's ``"scale"``). ``progress(fraction, text)``, if
    given, follows the blocks (the app's progress bar, the command line's console bar). No live
    worker for ``worker_timeout`` seconds, or a lost scheduler, stops the run with a one-line
    :class:`~ikviz.scale.cluster.ClusterError`.

    Examples
    --------
    >>> from ikviz.scale.run import learn
    >>> res = learn("data/", "label", psi=16, t=50, n_workers=1)   # doctest: +SKIP
    >>> sorted(res.accuracy)                                       # doctest: +SKIP
    ['FOGD', 'IK+OGD']
    """
    if client is None:
        with connect(scheduler, n_workers=n_workers, stream=stream) as own:
            return learn(spec, label, columns=columns, psi=psi, t=t, method=method, eta=eta, prefix=prefix,
                         n_components=n_components, gamma=gamma, test_fraction=test_fraction, seed=seed,
                         client=own, progress=progress, worker_timeout=worker_timeout, chunk_rows=chunk_rows,
                         blocksize=blocksize, ahead=ahead, stream=stream)
    import dask

    with dask.config.set(scheduler=client.get), Watch(client, worker_timeout=worker_timeout) as watch:
        return _learn(spec, label, columns, psi, t, method, eta, prefix, n_components, gamma, test_fraction, seed,
                      client, within(progress, 0.0, 1.0), chunk_rows, blocksize, ahead, stream, watch)


def _learn(spec, label, columns, psi, t, method, eta, prefix, n_components, gamma, test_fraction, seed, client,
           report, chunk_rows, blocksize, ahead, stream, watch) -> LearnResult:
    import dask

    from ..learn import FOGDClassifier, IKOGDClassifier

    out = sys.stdout if stream is None else stream
    if not 0 <= test_fraction < 1:
        raise ValueError(f"test_fraction must be in [0, 1); got {test_fraction}.")
    start = time.perf_counter()
    ds = read_dataset(spec, columns, label, chunk_rows=chunk_rows, blocksize=blocksize)
    classes = np.sort(np.asarray(ds.frame[label].drop_duplicates().compute()))
    if classes.size < 2:
        raise ValueError(f"The label column {label!r} holds a single value ({classes[0]!r}); it needs two classes "
                         "or more.")
    if classes.size > MAX_CLASSES:
        raise ValueError(f"The label column {label!r} has {classes.size:,} distinct values: is it a class label? "
                         f"(at most {MAX_CLASSES} classes).")
    models = {"IK+OGD": IKOGDClassifier(psi=psi, t=t, method=method, eta=eta, prefix=prefix, random_state=seed),
              "FOGD": None}
    X_blocks, y_blocks = ds.X.to_delayed().ravel(), ds.y.to_delayed().ravel()
    n_blocks = len(X_blocks)
    pending = {}

    def submit(i):
        if i < n_blocks and i not in pending:
            pending[i] = client.compute([X_blocks[i], y_blocks[i]])

    print(f"learning from {len(ds.features)} columns, {classes.size} classes, {n_blocks} blocks; "
          f"{test_fraction:.0%} of each block held out", file=out)
    print(f"{'rows':>12}  " + "  ".join(f"{name + ' mistakes':>16}" for name in models), file=out)
    curve, n_train, step = [], 0, max(1, n_blocks // 20)
    for i in range(min(ahead, n_blocks)):
        submit(i)
    for i in range(n_blocks):
        Xb, yb = (f.result() for f in pending.pop(i))
        watch.check()
        submit(i + ahead)
        train = ~test_mask(seed, i, len(yb), test_fraction)
        Xb, yb = np.asarray(Xb)[train], np.asarray(yb)[train]
        if not len(yb):
            continue
        if models["FOGD"] is None:
            g = gamma if gamma is not None else 1.0 / (Xb.shape[1] * max(float(Xb.var()), 1e-300))
            models["FOGD"] = FOGDClassifier(n_components=n_components, gamma=g, eta=eta, random_state=seed)
        for model in models.values():
            model.partial_fit(Xb, yb, classes=classes)
        n_train += len(yb)
        rates = {name: m.mistake_rate_ for name, m in models.items()}
        curve.append((n_train, rates))
        report(0.9 * (i + 1) / n_blocks, f"block {i + 1} of {n_blocks}: {n_train:,} rows learnt")
        if i % step == 0 or i == n_blocks - 1:
            print(f"{n_train:>12,}  " + "  ".join(f"{r:>16.4f}" for r in rates.values()), file=out, flush=True)
    if models["FOGD"] is None:
        raise ValueError(f"No training rows in {spec}: the input is empty.")
    fitted = dask.delayed(list(models.values()), pure=True, traverse=False)  # sent once to each worker
    n_test, accuracy = 0, {name: float("nan") for name in models}
    if test_fraction > 0:
        report(0.9, "scoring the held-out rows on the workers")
        parts = [dask.delayed(_score_block)(fitted, xb, yb, seed, i, test_fraction)
                 for i, (xb, yb) in enumerate(zip(X_blocks, y_blocks))]
        counts = sum(compute(client, parts, progress=within(report, 0.9, 1.0, "held-out rows"),
                             worker_timeout=watch.worker_timeout))
        n_test = int(counts[0])
        if n_test:
            accuracy = {name: counts[k + 1] / n_test for k, name in enumerate(models)}
    seconds = time.perf_counter() - start
    print(f"progressive mistake rate over {n_train:,} training rows: "
          + ", ".join(f"{name} {m.mistake_rate_:.4f}" for name, m in models.items()), file=out)
    print(f"held-out accuracy on {n_test:,} rows: " + ", ".join(f"{k} {v:.4f}" for k, v in accuracy.items())
          + f"  ({seconds:.1f} s)", file=out, flush=True)
    return LearnResult(n_train, n_test, classes.tolist(), {k: m.mistake_rate_ for k, m in models.items()},
                       accuracy, curve, seconds)


# ------------------------------------------------------------------ one cluster for a server
_SHARED: tuple | None = None        # (address or None, context manager, client): a resource, not a result cache
_SHARED_LOCK = threading.Lock()
_CLOSE_AT_EXIT: list = []           # [True] once close_shared_client is registered with atexit


def shared_client(scheduler: str | None = None):
    """A ``distributed.Client`` shared by every caller in this process: started on first use, kept until exit.

    ``scheduler`` or ``$DASK_SCHEDULER_ADDRESS`` if set (an existing cluster);
    otherwise the embedded default, a ``LocalCluster`` of worker threads in
    this process (threads, not processes: a server such as the app must not
    spawn copies of itself). A server calls it for every request and gets
    the same cluster; a client whose cluster went away, or an address that
    changed, is replaced. :func:`close_shared_client` closes it (also at exit).

    Examples
    --------
    >>> from ikviz.scale.run import close_shared_client, shared_client
    >>> client = shared_client()          # doctest: +SKIP
    >>> shared_client() is client         # doctest: +SKIP
    True
    >>> close_shared_client()
    """
    global _SHARED
    from .cluster import scheduler_address

    address = scheduler_address(scheduler)
    with _SHARED_LOCK:
        if _SHARED is not None:
            was, _, client = _SHARED
            if was == address and client.status == "running":
                return client
            _close(_SHARED)
            _SHARED = None
        context = connect(address, quiet=True, processes=False, memory_limit=0)
        client = context.__enter__()
        if not _CLOSE_AT_EXIT:
            atexit.register(close_shared_client)
            _CLOSE_AT_EXIT.append(True)
        _SHARED = (address, context, client)
        return client


def _close(shared) -> None:
    try:
        shared[1].__exit__(None, None, None)
    except Exception:  # a cluster that is already gone
        pass


def close_shared_client() -> None:
    """Close the client of :func:`shared_client` (and its local cluster), if one was started."""
    global _SHARED
    with _SHARED_LOCK:
        if _SHARED is not None:
            _close(_SHARED)
            _SHARED = None


# ------------------------------------------------------------------ rows per cell over every row
class _CellCounter:
    """Rows per cell of each partitioning in a row block, per class given the sorted ``classes`` (picklable)."""

    def __init__(self, kernel, classes=None):
        self.kernel, self.classes = kernel, classes

    def __call__(self, X, y=None) -> np.ndarray:
        t, psi = self.kernel.t, self.kernel.psi_
        n_classes = 1 if self.classes is None else len(self.classes)
        out = np.zeros(n_classes * t * psi, dtype=np.int64)
        X = np.asarray(X)
        offsets = np.arange(t, dtype=np.int64) * psi
        for lo in range(0, X.shape[0], _SUB_ROWS):
            cells = np.asarray(self.kernel.cells(X[lo:lo + _SUB_ROWS]), dtype=np.int64)
            index = cells + offsets
            if self.classes is not None:
                codes = np.searchsorted(self.classes, np.asarray(y)[lo:lo + _SUB_ROWS])
                index += (codes.astype(np.int64) * (t * psi))[:, None]
            out += np.bincount(index[cells >= 0], minlength=out.size)  # iNNE: -1 (no ball) is not counted
        return out.reshape(n_classes, t, psi)


def _count_block(counter, X, y):
    return counter(X, y)


def cell_counts(kernel, X, y=None, classes=None, *, client, progress=None,
                worker_timeout: float = WORKER_TIMEOUT) -> np.ndarray:
    """How many rows of the Dask array ``X`` fall in each cell of the fitted ``kernel``, counted on the workers.

    Parameters
    ----------
    kernel : IsolationKernel
        Fitted (e.g. on ``X`` itself: it then computes only its ``t * psi`` sampled rows).
    X : dask.array.Array of shape (n, d)
        Every row is mapped to its cells, block by block, on the workers; only the counts come back.
    y, classes : dask.array.Array of shape (n,) and sorted ndarray, optional
        Labels and their sorted distinct values: the counts are then split by class.
    client : distributed.Client
    progress : callable, optional
        ``progress(fraction, text)`` as blocks finish.
    worker_timeout : float, default=30
        Seconds without a live worker after which the counting stops with a ``ClusterError``.

    Returns
    -------
    ndarray of shape (n_classes, t, psi_), int64
        ``[c, k, j]``: rows of class ``classes[c]`` in cell ``j`` of partitioning ``k`` (``n_classes`` = 1
        without labels). Rows that no cell covers (iNNE) are not counted.
    """
    import dask

    if X.numblocks[1] > 1:
        X = X.rechunk({1: -1})
    X_blocks = X.to_delayed().ravel()
    y_blocks = [None] * len(X_blocks) if y is None else y.to_delayed().ravel()
    counter = dask.delayed(_CellCounter(kernel, None if y is None else np.asarray(classes)), pure=True,
                           traverse=False)  # one copy per worker
    parts = compute(client, [dask.delayed(_count_block)(counter, xb, yb) for xb, yb in zip(X_blocks, y_blocks)],
                    progress=within(progress, 0.0, 1.0), worker_timeout=worker_timeout,
                    text="block {done} of {total} mapped to its cells")
    return np.sum(parts, axis=0)
