"""The app's results store: every distinct computation runs once, for all sessions, in bounded memory.

A page asks for a result with :func:`compute` (``compute(exp.run, params)``
or ``compute(block, *args)``). The store keys it by the function and its
arguments and then, in this order:

1. returns it at once if it is held in memory or on disk (see
   :func:`store_directory`: a restarted server, or a lecture prepared in
   advance by ``python app/prepare.py``, starts warm);
2. joins the computation if another session already asked for the same thing
   (single flight: thirty students opening one link cost one computation);
3. otherwise queues it for one of a fixed number of worker threads
   (``IKVIZ_WORKERS``, default 2), so heavy settings from many sessions run a
   few at a time instead of all at once, each in a fair time.

While it waits, the page shows the place in the queue, then the run's own
``progress(fraction, text)`` with the elapsed and estimated remaining time,
and a cancel button. A running computation that no session waits for any more
(cancelled, or every viewer moved on) stops at its next progress report.
Inside a run, ``memo`` (see :mod:`ikviz.runner`) sends every building block
through the same store, so two views that share a fitted kernel or a data set
compute it once. Held results are bounded in bytes (``IKVIZ_STORE_MB``,
default 512) and on disk (``IKVIZ_STORE_DISK_MB``, default 2048); the least
recently used go first. Results are shared between sessions: callers must not
modify them. The pages' figures are held too, in memory only (``figures.built``):
a rerun that draws a figure already shown rebuilds nothing.
"""

from __future__ import annotations

import hashlib
import os
import pickle
import shutil
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import Future
from pathlib import Path

import numpy as np

import ikviz
from ikviz.runner import Cancelled, block_key, block_name, call_block

__all__ = ["Job", "ResultsStore", "compute", "get_store", "store_directory"]


def _nbytes(value, _depth: int = 0) -> int:
    """Rough size of ``value`` when it cannot be pickled (arrays dominate every result here)."""
    if isinstance(value, np.ndarray):
        return int(value.nbytes)
    if _depth > 4:
        return 64
    if isinstance(value, dict):
        return sum(_nbytes(k, _depth + 1) + _nbytes(v, _depth + 1) for k, v in value.items())
    if isinstance(value, (list, tuple, set, frozenset)):
        return sum(_nbytes(v, _depth + 1) for v in value)
    if hasattr(value, "__dict__"):
        return _nbytes(vars(value), _depth + 1)
    for attr in ("data", "indices", "indptr"):  # scipy sparse matrices
        if hasattr(value, attr) and isinstance(getattr(value, attr), np.ndarray):
            return sum(int(getattr(value, a).nbytes) for a in ("data", "indices", "indptr") if hasattr(value, a))
    return 64


class Job:
    """One requested computation: its future, its progress, and how many sessions wait for it."""

    def __init__(self, key: str, label: str):
        self.key, self.label = key, label
        self.future: Future = Future()
        self.fraction, self.text = 0.0, ""
        self.submitted, self.started = time.monotonic(), None
        self.waiters = 0
        self.cancelled = False

    def report(self, fraction: float, text: str = "") -> None:
        """The ``progress`` callback the computation receives; stops it once nobody waits."""
        if self.cancelled:
            raise Cancelled(self.label)
        self.fraction = min(1.0, max(self.fraction, float(fraction)))
        self.text = text

    def done(self) -> bool:
        return self.future.done()

    def wait(self, timeout: float) -> bool:
        try:
            self.future.exception(timeout=timeout)
        except TimeoutError:
            return False
        return True

    def result(self):
        return self.future.result()

    def status(self, position: int) -> str:
        """A line for the waiting page: place in the queue, or progress with time elapsed and left."""
        others = f" · shared with {self.waiters - 1} other viewer(s)" if self.waiters > 1 else ""
        if self.started is None:
            ahead = max(0, position - 1)
            return (f"Waiting for a free worker: {ahead} computation(s) ahead of this one{others}"
                    if ahead else f"Starting…{others}")
        elapsed = time.monotonic() - self.started
        line = f"{self.text or 'Computing'} · {elapsed:.0f} s"
        if self.fraction >= 0.05 and elapsed >= 2:
            line += f", about {elapsed * (1 - self.fraction) / self.fraction:.0f} s left"
        return line + others


class ResultsStore:
    """Results keyed by (function, arguments), shared by all sessions, bounded in bytes.

    Parameters
    ----------
    max_bytes : int
        Memory held by finished results; least recently used results are
        dropped beyond it.
    workers : int
        How many top-level computations run at once; the rest queue.
    directory : str or Path, optional
        Also keep every result as a pickle here, and read it back after a restart.
    max_disk_bytes : int
        Bytes of pickles kept in ``directory``; the least recently used go first.

    Examples
    --------
    >>> store = ResultsStore(max_bytes=10_000_000, workers=1)
    >>> job = store.submit(pow, 2, 10)
    >>> job.wait(10) and job.result()
    1024
    >>> store.memo(pow)(2, 10)  # the same key: served from memory
    1024
    """

    def __init__(self, max_bytes: int = 512 << 20, workers: int = 2, directory: str | Path | None = None,
                 max_disk_bytes: int = 2048 << 20):
        self.max_bytes, self.workers = int(max_bytes), max(1, int(workers))
        self.max_disk_bytes = int(max_disk_bytes)
        self.directory = Path(directory) if directory else None
        self._disk_bytes = 0
        if self.directory:
            self.directory.mkdir(parents=True, exist_ok=True)
            self._disk_bytes = sum(f.stat().st_size for f in self.directory.glob("*.pkl"))
        self._held: OrderedDict[str, tuple[object, int]] = OrderedDict()
        self._bytes = 0
        self._inflight: dict[str, Future] = {}
        self._jobs: dict[str, Job] = {}
        self._queue: list[tuple[Job, Callable, tuple, dict]] = []
        self._lock = threading.Condition()
        self.hits = self.misses = self.computed = 0
        for i in range(self.workers):
            threading.Thread(target=self._work, name=f"ikviz-store-{i}", daemon=True).start()

    # -- keys and held results ---------------------------------------------------------------
    key = staticmethod(block_key)

    def _lookup(self, key: str):
        """(True, value) if held in memory or on disk, else (False, None); call with the lock held."""
        if key in self._held:
            self._held.move_to_end(key)
            self.hits += 1
            return True, self._held[key][0]
        if self.directory is not None:
            path = self.directory / f"{key}.pkl"
            try:
                blob = path.read_bytes()
            except OSError:
                pass
            else:
                value = pickle.loads(blob)
                os.utime(path)  # the disk's least recently used order (see _prune_disk)
                self._hold(key, value, len(blob))
                self.hits += 1
                return True, value
        self.misses += 1
        return False, None

    def _hold(self, key: str, value, size: int) -> None:
        if size > self.max_bytes:
            return
        self._held[key] = (value, size)
        self._bytes += size
        while self._bytes > self.max_bytes:
            _, (_, dropped) = self._held.popitem(last=False)
            self._bytes -= dropped

    def _store(self, key: str, value, persist: bool = True) -> None:
        try:
            blob = pickle.dumps(value, protocol=5)
            size = len(blob)
        except Exception:  # e.g. a compiled numba object: held, not persisted
            blob, size = None, _nbytes(value)
        if not persist:
            blob = None
        if blob is not None and self.directory is not None:
            tmp = self.directory / f"{key}.{os.getpid()}.{threading.get_ident()}.tmp"
            tmp.write_bytes(blob)
            os.replace(tmp, self.directory / f"{key}.pkl")
        with self._lock:
            self._hold(key, value, size)
            if blob is not None and self.directory is not None:
                self._disk_bytes += size
                if self._disk_bytes > self.max_disk_bytes:
                    self._prune_disk()

    def _prune_disk(self) -> None:
        """Delete the least recently used pickles down to 3/4 of the disk budget; call with the lock held."""
        files = []
        for path in self.directory.glob("*.pkl"):
            try:
                stat = path.stat()
            except OSError:  # another server pruned it
                continue
            files.append((stat.st_mtime, stat.st_size, path))
        total = sum(size for _, size, _ in files)
        for _, size, path in sorted(files):
            if total <= self.max_disk_bytes * 3 // 4:
                break
            path.unlink(missing_ok=True)
            total -= size
        self._disk_bytes = total

    @property
    def held_bytes(self) -> int:
        return self._bytes

    def clear(self) -> None:
        """Forget every held result (not those on disk)."""
        with self._lock:
            self._held.clear()
            self._bytes = 0

    def peek(self, fn: Callable, *args, **kwargs) -> tuple[bool, object]:
        """``(True, value)`` if ``fn(*args, **kwargs)`` is held (in memory or on disk), else ``(False, None)``.

        Computes nothing: a page shows a heavy result when someone has already asked for it.
        """
        with self._lock:
            return self._lookup(self.key(fn, args, kwargs))

    # -- computing ---------------------------------------------------------------------------
    def call(self, fn: Callable, args: tuple, kwargs: dict, progress=None, persist: bool = True):
        """``fn(*args, **kwargs)``, computed at most once at a time across threads, and then held.

        ``persist=False`` holds it in memory only: for what is quicker to make again than to read back
        from disk (a Plotly figure takes longer to unpickle than to build from its result).
        """
        key = self.key(fn, args, kwargs)
        while True:
            with self._lock:
                found, value = self._lookup(key)
                if found:
                    return value
                future = self._inflight.get(key)
                owner = future is None
                if owner:
                    future = self._inflight[key] = Future()
            if owner:
                break
            try:
                return future.result()
            except Cancelled:  # the job computing this shared block was cancelled; this one was not
                continue
        try:
            value = call_block(fn, args, kwargs, self.memo, progress)
        except BaseException as exc:
            future.set_exception(exc)
            raise
        finally:
            with self._lock:
                self._inflight.pop(key, None)
        self.computed += 1
        self._store(key, value, persist)
        future.set_result(value)
        return value

    def memo(self, fn: Callable) -> Callable:
        """``fn`` sent through the store (the ``memo`` of :mod:`ikviz.runner`)."""
        def stored(*args, **kwargs):
            return self.call(fn, args, kwargs, progress=kwargs.pop("progress", None))
        stored.__wrapped__ = fn
        return stored

    def submit(self, fn: Callable, *args, **kwargs) -> Job:
        """Start (or join) the computation of ``fn(*args, **kwargs)``; the caller must :meth:`release` it."""
        key = self.key(fn, args, kwargs)
        with self._lock:
            job = self._jobs.get(key)
            if job is None:
                job = Job(key, block_name(fn))
                found, value = self._lookup(key)
                if found:
                    job.future.set_result(value)
                    job.waiters += 1
                    return job
                self._jobs[key] = job
                self._queue.append((job, fn, args, kwargs))
                self._lock.notify()
            job.waiters += 1
            return job

    def release(self, job: Job) -> None:
        """One session stops waiting for ``job``; a job nobody waits for is dropped, or stopped if running."""
        with self._lock:
            job.waiters -= 1
            if job.waiters > 0 or job.done():
                return
            if job.started is None:
                self._queue = [entry for entry in self._queue if entry[0] is not job]
                self._jobs.pop(job.key, None)
                job.future.cancel()
            else:  # stops at its next progress report; a session asking again meanwhile gets a new job
                job.cancelled = True
                self._jobs.pop(job.key, None)

    def position(self, job: Job) -> int:
        """1 + the number of queued jobs ahead of ``job``; 0 once it runs."""
        with self._lock:
            for i, entry in enumerate(self._queue):
                if entry[0] is job:
                    return i + 1
        return 0

    def _work(self) -> None:
        while True:
            with self._lock:
                while not self._queue:
                    self._lock.wait()
                job, fn, args, kwargs = self._queue.pop(0)
                job.started = time.monotonic()
            try:
                value = self.call(fn, args, kwargs, progress=job.report)
            except BaseException as exc:  # delivered to every waiting session
                job.future.set_exception(exc)
            else:
                job.future.set_result(value)
            finally:
                with self._lock:
                    if self._jobs.get(job.key) is job:  # not a newer job for the same key (see release)
                        del self._jobs[job.key]


_STORE: ResultsStore | None = None
_STORE_LOCK = threading.Lock()


def code_fingerprint() -> str:
    """A digest of the ikviz package's source files: a store never serves results of other code.

    Examples
    --------
    >>> len(code_fingerprint())
    16
    """
    root = Path(ikviz.__file__).parent
    digest = hashlib.blake2b(digest_size=8)
    for path in sorted(root.rglob("*.py")):
        digest.update(path.relative_to(root).as_posix().encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()


def store_directory() -> Path | None:
    """Where results persist across restarts, or None to keep them in memory only.

    ``IKVIZ_STORE_DIR`` if set (empty: memory only; a lecture prepared in a
    folder of its own), else ``$XDG_CACHE_HOME/ikviz/store/<code fingerprint>``
    (``~/.cache`` by default), so a restarted server starts warm and a changed
    ikviz starts afresh.
    """
    configured = os.environ.get("IKVIZ_STORE_DIR")
    if configured is not None:
        return Path(configured) if configured.strip() else None
    cache = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return cache / "ikviz" / "store" / code_fingerprint()


def _forget_old_versions(directory: Path, days: float = 1.0) -> None:
    """Delete the default stores of other ikviz versions untouched for ``days`` (no code can read them)."""
    cutoff = time.time() - days * 86400
    for sibling in directory.parent.iterdir():
        if sibling != directory and sibling.is_dir() and sibling.stat().st_mtime < cutoff:
            shutil.rmtree(sibling, ignore_errors=True)


def get_store() -> ResultsStore:
    """The process-wide store (``IKVIZ_STORE_MB``, ``IKVIZ_STORE_DISK_MB``, ``IKVIZ_WORKERS``, :func:`store_directory`)."""
    global _STORE
    with _STORE_LOCK:
        if _STORE is None:
            directory = store_directory()
            try:
                if directory is not None and "IKVIZ_STORE_DIR" not in os.environ:
                    directory.mkdir(parents=True, exist_ok=True)
                    _forget_old_versions(directory)
            except OSError:  # e.g. a read-only home: results are still shared, in memory
                directory = None
            _STORE = ResultsStore(max_bytes=int(float(os.environ.get("IKVIZ_STORE_MB", "512")) * (1 << 20)),
                                  workers=int(os.environ.get("IKVIZ_WORKERS", "2")), directory=directory,
                                  max_disk_bytes=int(float(os.environ.get("IKVIZ_STORE_DISK_MB", "2048")) * (1 << 20)))
        return _STORE


_STOPPED_KEY = "_ikviz_stopped"  # session state: the keys of computations this session cancelled
_ASKED_KEY = "_ikviz_asked"  # session state: the keys of heavy computations this session asked to run


def compute(fn: Callable, *args, inline: bool = False, ask: str | None = None, **kwargs):
    """``fn(*args, **kwargs)`` through the shared store, showing queue place and progress meanwhile.

    ``fn`` receives the store's ``memo`` and a ``progress`` callback if its
    signature has them. Exceptions of the computation are raised here (wrap
    the call in :func:`ui.guarded`), and :class:`~ikviz.runner.Cancelled`
    after the viewer pressed Cancel (``ui.guarded`` shows nothing more for
    it: the note and a button to run it after all are drawn here). ``inline=True`` is for quick steps (a
    figure of a finished result, a file's header): they run in the page's own
    thread, still computed once and shared, instead of queueing behind other
    sessions' heavy computations. ``ask`` (a sentence on what it costs) makes
    a computation that is not held yet wait for a click on **Run it**.
    """
    import streamlit as st

    store = get_store()
    if inline:
        return store.call(fn, args, kwargs)
    key = store.key(fn, args, kwargs)
    stopped = st.session_state.setdefault(_STOPPED_KEY, set())
    if key in stopped:  # cancelled here: wait for a changed setting or a click, do not start it again
        st.info("Stopped on request. Change a setting, or run it after all.")
        st.button("Run it", key=f"_run_{key}", on_click=stopped.discard, args=(key,))
        raise Cancelled(block_name(fn))
    asked = st.session_state.setdefault(_ASKED_KEY, set())
    if ask and key not in asked and not store.peek(fn, *args, **kwargs)[0]:  # heavy: on request only
        st.info(ask)
        st.button("Run it", key=f"_run_{key}", on_click=asked.add, args=(key,), icon=":material/play_arrow:")
        raise Cancelled(block_name(fn))
    job = store.submit(fn, *args, **kwargs)
    try:
        if not job.wait(0.05):
            box = st.empty()
            with box.container():
                bar = st.empty()
                # the click reruns the page, which releases this job: if nobody else waits, it stops
                st.button("Cancel", key=f"_cancel_{key}", on_click=stopped.add, args=(key,))
            while not job.wait(0.5):
                bar.progress(job.fraction, text=job.status(store.position(job)))
            box.empty()
        return job.result()
    finally:
        store.release(job)
