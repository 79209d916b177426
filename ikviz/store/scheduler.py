"""The results store's scheduler: every distinct computation runs once, for all callers, a few at a time.

:class:`ResultsStore` keys a computation by its function and arguments
(:func:`ikviz.runner.block_key`, a token of the values, not their pickle) and then,
in this order:

1. returns it at once if it is held in memory or on disk (:mod:`ikviz.store.storage`:
   a restarted server, or a lecture prepared in advance, starts warm);
2. joins the computation if another caller already asked for the same thing
   (single flight: thirty students opening one link cost one computation), also
   one that the offload child (:meth:`ResultsStore.offload`) runs now: the
   viewer's job follows it, progress and all, instead of computing it again;
3. otherwise queues it for one of a fixed number of worker threads, so that
   heavy settings from many sessions run a few at a time, each in a fair time.

Requested work goes first: jobs submitted with ``priority=BACKGROUND`` (a
lecture prepared ahead) run only on their own worker (``background_workers``)
and only when no requested job waits for it, and a background job that a
viewer asks for meanwhile is moved to the requested queue. A running job that
nobody waits for any more stops at its next progress report
(:class:`~ikviz.runner.Cancelled`). Inside a job, the run's ``memo`` sends
each building block through the same store. The disk holds a result with the
digest of the code it depends on (:mod:`ikviz.store.fingerprint`): changed
code computes it again, an edited docstring does not.

Nothing slow happens under the store's lock: disk reads, unpickling, pickling
and computing all run outside it, and two callers that want the same result
from disk read it once.

Streamlit-free: the app's waiting widget is ``app/store.py``; the command line
and tests use this module directly.
"""

from __future__ import annotations

import pickle
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future
from pathlib import Path

from ..runner import Cancelled, block_key, block_name, call_block
from .fingerprint import block_fingerprint
from .storage import DiskCache, MemoryCache, nbytes

__all__ = ["BACKGROUND", "FOREGROUND", "Job", "ResultsStore"]

#: priority of a computation a viewer waits for
FOREGROUND = 0
#: priority of work prepared ahead (``app/prepare.py``): runs when no requested job waits
BACKGROUND = 10

_QUEUED = object()  # what an in-flight disk read hands its joiners when it found nothing: look again


class _Held:
    """A stand-in for a result the store holds, in a key: tokenized as that result's key."""

    __slots__ = ("key",)

    def __init__(self, key: str):
        self.key = key

    def __dask_tokenize__(self):
        return ("ikviz-store-result", self.key)


def _stand_ins(value, held: Callable, depth: int = 0):
    """``value`` with every held result in it (to depth 3 of tuples, lists and dicts) replaced by :class:`_Held`."""
    key = held(value)
    if key is not None:
        return _Held(key)
    if depth >= 3:
        return value
    if type(value) in (tuple, list):
        return type(value)(_stand_ins(v, held, depth + 1) for v in value)
    if type(value) is dict:
        return {k: _stand_ins(v, held, depth + 1) for k, v in value.items()}
    return value


def _share_at(points: list[tuple[float, float]], fraction: float) -> float:
    """The share of an earlier run's time at which it first reported ``fraction`` (linear between reports).

    Examples
    --------
    >>> _share_at([(0.0, 0.0), (0.5, 0.1), (1.0, 1.0)], 0.55)
    0.75
    """
    previous = points[0]
    for point in points[1:]:
        if point[1] >= fraction:
            (s0, f0), (s1, f1) = previous, point
            return s1 if f1 <= f0 else s0 + (s1 - s0) * (fraction - f0) / (f1 - f0)
        previous = point
    return 1.0


class Job:
    """One requested computation: its future, its progress, and how many callers wait for it.

    ``priority`` is :data:`FOREGROUND` or :data:`BACKGROUND`; ``keep`` jobs (work
    prepared ahead) are not dropped when nobody waits for them. ``profile``,
    when the same block ran before (with any arguments), is that run's
    ``(seconds, [(share of its time, fraction reported), ...])``: see :meth:`remaining`.

    Examples
    --------
    >>> from ikviz.store import ResultsStore
    >>> store = ResultsStore(workers=1)
    >>> job = store.submit(pow, 2, 10)
    >>> job.wait(10), job.result()
    (True, 1024)
    >>> store.release(job)
    """

    def __init__(self, key: str, label: str, priority: int = FOREGROUND, persist: bool = True,
                 keep: bool = False, profile: tuple[float, list] | None = None):
        self.key, self.label, self.priority, self.persist, self.keep = key, label, int(priority), persist, keep
        self.future: Future = Future()
        self.fraction, self.text = 0.0, ""
        self.submitted, self.started = time.monotonic(), None
        self.finished: float | None = None
        self.waiters = 0
        self.cancelled = False
        self.profile = profile
        self._samples: list[tuple[float, float]] = []  # (seconds since start, fraction), at most ~200

    def report(self, fraction: float, text: str = "") -> None:
        """The ``progress`` callback the computation receives; stops it once nobody waits."""
        if self.cancelled:
            raise Cancelled(self.label)
        fraction = min(1.0, max(self.fraction, float(fraction)))
        if self.started is not None and fraction > self.fraction:
            if not self._samples or fraction - self._samples[-1][1] >= 0.005 or fraction >= 1.0:
                self._samples.append((time.monotonic() - self.started, fraction))
        self.fraction, self.text = fraction, text

    def done(self) -> bool:
        return self.future.done()

    def wait(self, timeout: float) -> bool:
        try:
            self.future.exception(timeout=timeout)
        except TimeoutError:
            return False
        except Exception:  # cancelled while queued
            return True
        return True

    def result(self):
        return self.future.result()

    def elapsed(self) -> float:
        """Seconds since the job started running (0 while it is queued)."""
        if self.started is None:
            return 0.0
        return (self.finished or time.monotonic()) - self.started

    def learned(self) -> tuple[float, list] | None:
        """This finished run as a profile for the next run of the same block (see :meth:`remaining`)."""
        total = self.elapsed()
        if total <= 0:
            return None
        points = [(0.0, 0.0)] + [(min(1.0, t / total), f) for t, f in self._samples] + [(1.0, 1.0)]
        return total, points

    def remaining(self) -> float | None:
        """Estimated seconds left, or None while there is too little to go on.

        Two readings, combined by their geometric mean when both exist: the
        rate of the progress made over the latest half of the elapsed time
        (a run's stages differ in speed: its first stage says little about its
        last), and, when the same block ran before (other settings), the share
        of that run's time at which it had reached the fraction reported now
        (its shape carries over, its time scales). Each alone was off by more
        than a factor of 2 for some of the pages' views
        (``benchmarks/store_eta.py``); their mean was so less often.

        Examples
        --------
        >>> job = Job("k", "block")
        >>> job.started = time.monotonic() - 10
        >>> job._samples.extend([(5.0, 0.25), (10.0, 0.5)])
        >>> job.fraction = 0.5
        >>> round(job.remaining())
        10
        >>> job.profile = (8.0, [(0.0, 0.0), (0.2, 0.5), (1.0, 1.0)])  # last time: half done at 20% of the time
        >>> round(job.remaining())  # the mean of 10 s (the rate) and 40 s (the profile)
        20
        >>> job.profile = None
        >>> job.started -= 4  # 4 s on without a report: 4 s less to go
        >>> round(job.remaining())
        6
        """
        elapsed, fraction = self.elapsed(), self.fraction
        if fraction >= 1.0:
            return 0.0
        # both readings are taken as of the latest report and count down from it: a long step that reports
        # nothing until its end (a ball tree's search) must not look slower and slower while it runs; once
        # past the time a reading gave it, the estimate is a quarter of the time since the report
        last = self._samples[-1][0] if self._samples and self._samples[-1][1] >= fraction else elapsed
        since_report = max(0.0, elapsed - last)
        shaped = None
        if self.profile is not None:
            total, points = self.profile
            share = _share_at(points, fraction)
            if share >= 0.02 and fraction >= 0.01 and last > 0:
                shaped = max(last / share - elapsed, 0.25 * since_report)
            elif total > elapsed:  # nothing reported yet: the earlier run's time
                shaped = total - elapsed
        rated = None
        if fraction >= 0.05 and elapsed >= 2 and last > 0:
            since = last / 2  # the rate over the latest half of the run (with few reports, the whole run)
            start_t, start_f = 0.0, 0.0
            for t, f in self._samples:
                if t <= since:
                    start_t, start_f = t, f
            rate = (fraction - start_f) / max(last - start_t, 1e-9)
            if rate <= 0:
                rate = fraction / last
            rated = max((1.0 - fraction) / rate - since_report, 0.25 * since_report)
        if shaped is None or rated is None:
            return rated if shaped is None else shaped
        return (max(shaped, 1e-3) * max(rated, 1e-3)) ** 0.5

    def status(self, position: int) -> str:
        """A line for the waiting page: place in the queue, or progress with time elapsed and left."""
        others = f" · shared with {self.waiters - 1} other viewer(s)" if self.waiters > 1 else ""
        if self.started is None:
            ahead = max(0, position - 1)
            return (f"Waiting for a free worker: {ahead} computation(s) ahead of this one{others}"
                    if ahead else f"Starting…{others}")
        elapsed = self.elapsed()
        line = f"{self.text or 'Computing'} · {elapsed:.0f} s"
        left = self.remaining()
        if left is not None and elapsed >= 2:
            line += f", about {left:.0f} s left"
        return line + others


class ResultsStore:
    """Results keyed by (function, arguments), shared by all callers, bounded in bytes.

    Parameters
    ----------
    max_bytes : int
        Memory held by finished results; least recently used results are
        dropped beyond it.
    workers : int
        How many requested computations run at once; the rest queue.
    directory : str or Path, optional
        Also keep results in this folder (mode 0700, files signed and 0600,
        see :class:`~ikviz.store.storage.DiskCache`), and read them back after
        a restart.
    max_disk_bytes : int
        Bytes kept in ``directory``; the least recently used go first.
    background_workers : int
        How many :data:`BACKGROUND` jobs run at once (on threads of their own).

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
                 max_disk_bytes: int = 2048 << 20, background_workers: int = 1):
        self.max_bytes, self.workers = int(max_bytes), max(1, int(workers))
        self.max_disk_bytes = int(max_disk_bytes)
        self.directory = Path(directory) if directory else None
        self._disk = DiskCache(self.directory, self.max_disk_bytes) if self.directory else None
        self._memory = MemoryCache(self.max_bytes)
        self._inflight: dict[str, Future] = {}
        self._jobs: dict[str, Job] = {}
        self._queues: dict[int, list[Job]] = {FOREGROUND: [], BACKGROUND: []}
        self._calls: dict[Job, tuple[Callable, tuple, dict]] = {}
        self._profiles: dict[str, tuple[float, list]] = {}  # block name -> its latest finished run's profile
        self._lock = threading.Condition()
        self.hits = self.misses = self.computed = 0
        self._unwatched = 0  # requested workers running kept work that nobody waited for when it started
        self._offload = None  # the low-priority child process of :meth:`offload`, started at its first call
        for i in range(self.workers):
            threading.Thread(target=self._work, args=(FOREGROUND,), name=f"ikviz-store-{i}", daemon=True).start()
        for i in range(max(1, int(background_workers))):
            threading.Thread(target=self._work, args=(BACKGROUND,), name=f"ikviz-store-bg-{i}", daemon=True).start()

    # -- keys and held results ---------------------------------------------------------------
    key = staticmethod(block_key)  # the key of a call whose arguments hold no result of this store

    def key_of(self, fn: Callable, args: tuple, kwargs: dict) -> str:
        """The store's key for ``fn(*args, **kwargs)``: :func:`~ikviz.runner.block_key`, where each argument
        that is a result this store holds (a figure of a result: ``figures.built``) is stood for by that
        result's own key, instead of being hashed again on every rerun."""
        return self._keys(fn, args, kwargs)[0]

    def _keys(self, fn: Callable, args: tuple, kwargs: dict) -> tuple[str, Callable[[], str]]:
        """The memory key, and a function that gives the disk key (called only on a miss)."""
        held = self._memory.key_of
        standing = _stand_ins(args, held), {k: _stand_ins(v, held) for k, v in kwargs.items()}
        key = block_key(fn, *standing)
        plain = all(a is b for a, b in zip(standing[0], args)) and \
            all(standing[1][k] is v for k, v in kwargs.items())

        def disk_key() -> str:
            # a held result stands for its key in memory only: on disk the arguments' own values count,
            # and the digest of the code the block depends on
            return f"{key if plain else block_key(fn, args, kwargs)}-{block_fingerprint(fn)}"

        return key, disk_key

    def _read_disk(self, disk_key: Callable[[], str]) -> tuple[bool, object, int]:
        """``(found, value, size)`` from disk; call without the lock (reads and unpickles)."""
        if self._disk is None:
            return False, None, 0
        found, value = self._disk.get(disk_key())
        return found, value, (nbytes(value) if found else 0)

    def _write(self, disk_key: Callable[[], str], value, persist: bool) -> int:
        """Keep ``value`` on disk if ``persist``; its size in bytes. Call without the lock (pickles)."""
        if not persist or self._disk is None:
            return nbytes(value)
        try:
            body = pickle.dumps(value, protocol=5)
        except Exception:  # e.g. a compiled numba object: held in memory, not on disk
            return nbytes(value)
        self._disk.put_pickled(disk_key(), body)
        return len(body)

    @property
    def held_bytes(self) -> int:
        """Bytes of results held in memory now."""
        return self._memory.bytes

    @property
    def disk_entries(self) -> int:
        """How many results are kept on disk now (0 without a folder)."""
        return 0 if self._disk is None else len(self._disk)

    @property
    def disk_bytes(self) -> int:
        """Bytes the disk cache takes now (0 without a folder)."""
        return 0 if self._disk is None else self._disk.bytes

    def clear(self) -> None:
        """Forget every held result (not those on disk)."""
        with self._lock:
            self._memory.clear()

    def _from_memory(self, key: str) -> tuple[bool, object]:
        """Call with the lock held."""
        found, value = self._memory.get(key)
        if found:
            self.hits += 1
        return found, value

    def peek(self, fn: Callable, *args, **kwargs) -> tuple[bool, object]:
        """``(True, value)`` if ``fn(*args, **kwargs)`` is held (in memory or on disk), else ``(False, None)``.

        Computes nothing: a page shows a heavy result when someone has already asked for it.
        """
        key, disk_key = self._keys(fn, args, kwargs)
        with self._lock:
            found, value = self._from_memory(key)
        if found:
            return True, value
        found, value, size = self._read_disk(disk_key)
        if found:
            with self._lock:
                self._memory.put(key, value, size)
                self.hits += 1
        return found, value

    # -- computing ---------------------------------------------------------------------------
    def _memo_for(self, persist: bool) -> Callable:
        return self.memo if persist else self.memo_in_memory

    def call(self, fn: Callable, args: tuple, kwargs: dict, progress=None, persist: bool = True):
        """``fn(*args, **kwargs)``, computed at most once at a time across threads, and then held.

        ``persist=False`` holds it in memory only, with every block it computes
        through its ``memo``: for what must not reach the disk (an upload) or is
        quicker to make again than to read back (a Plotly figure).
        """
        key, disk_key = self._keys(fn, args, kwargs)
        while True:
            with self._lock:
                found, value = self._from_memory(key)
                if found:
                    return value
                future = self._inflight.get(key)
                owner = future is None
                if owner:
                    future = self._inflight[key] = Future()
            if owner:
                break
            try:
                value = future.result()
            except Cancelled:  # the job computing this shared block was cancelled; this one was not
                continue
            if value is _QUEUED:
                continue
            return value
        try:
            found, value, size = self._read_disk(disk_key) if persist else (False, None, 0)
            if not found:
                with self._lock:
                    self.misses += 1
                value = call_block(fn, args, kwargs, self._memo_for(persist), progress)
                size = self._write(disk_key, value, persist)
                with self._lock:
                    self.computed += 1
        except BaseException as exc:
            with self._lock:
                self._inflight.pop(key, None)
            future.set_exception(exc)
            raise
        with self._lock:
            self._memory.put(key, value, size)
            self._inflight.pop(key, None)
        future.set_result(value)
        return value

    def memo(self, fn: Callable) -> Callable:
        """``fn`` sent through the store (the ``memo`` of :mod:`ikviz.runner`)."""
        def stored(*args, **kwargs):
            return self.call(fn, args, kwargs, progress=kwargs.pop("progress", None))
        stored.__wrapped__ = fn
        return stored

    def memo_in_memory(self, fn: Callable) -> Callable:
        """:meth:`memo` that keeps results in memory only (the blocks of a ``persist=False`` computation)."""
        def stored(*args, **kwargs):
            return self.call(fn, args, kwargs, progress=kwargs.pop("progress", None), persist=False)
        stored.__wrapped__ = fn
        return stored

    def _profile(self, name: str) -> tuple[float, list] | None:
        """The latest profile of block ``name`` (this process's, else the disk's); call without the lock."""
        with self._lock:
            profile = self._profiles.get(name)
        if profile is None and self._disk is not None:
            found, value = self._disk.get(f"profile:{name}")
            if found:
                profile = value
                with self._lock:
                    self._profiles.setdefault(name, profile)
        return profile

    def _finished_job(self, key: str, fn: Callable, value) -> Job:
        job = Job(key, block_name(fn))
        job.future.set_result(value)
        job.waiters += 1
        return job

    def submit(self, fn: Callable, *args, priority: int = FOREGROUND, persist: bool = True, **kwargs) -> Job:
        """Start (or join) the computation of ``fn(*args, **kwargs)``; the caller must :meth:`release` it.

        ``priority=BACKGROUND`` for work prepared ahead: it waits for every
        requested job (see :meth:`prepare`). ``persist=False`` keeps the result
        and its blocks in memory only.
        """
        return self.submit_call(fn, args, kwargs, priority=priority, persist=persist)

    def prepare(self, fn: Callable, *args, persist: bool = True, **kwargs) -> Job:
        """Compute ``fn(*args, **kwargs)`` in the background, after every requested job; nobody needs to wait.

        The job needs no :meth:`release`: it runs to its end whoever waits. A
        viewer who asks for the same result meanwhile joins it (and moves it
        ahead of other background work if it has not started yet).

        Examples
        --------
        >>> store = ResultsStore(workers=1)
        >>> job = store.prepare(pow, 3, 4)
        >>> job.wait(10), store.peek(pow, 3, 4)
        (True, (True, 81))
        """
        return self.submit_call(fn, args, kwargs, priority=BACKGROUND, persist=persist, keep=True)

    def offload(self, fn: Callable, *args):
        """Compute ``fn(*args)`` where it slows no viewer down; it runs to its end whoever waits.

        With a folder, in a child process at the lowest CPU priority that writes into the same disk cache
        (:class:`~ikviz.store.offload.Offload`): the server's page scripts share no interpreter lock and no
        CPU priority with it, and :meth:`peek` finds the result once it is written. Without a folder (memory
        only), as :meth:`prepare` moved ahead of other prepared work. Returns a task with ``done()``,
        ``wait(timeout)``, ``result()`` and ``fraction``; ``fn`` must be importable by name.

        Examples
        --------
        >>> store = ResultsStore(workers=1)
        >>> task = store.offload(pow, 2, 5)
        >>> task.wait(10) and task.result()
        32
        """
        if self.directory is None:
            job = self.prepare(fn, *args)
            self.release(self.submit(fn, *args))   # asked for: ahead of other prepared work
            return job
        from .offload import Offload

        key = self.key_of(fn, args, {})
        with self._lock:   # one decision for the key: the viewers' submit_call decides under the same lock
            job = self._jobs.get(key)
            if job is not None:   # a viewer's computation of it is queued or running here: the same work,
                job.keep = True   # run to its end whoever waits, as offloaded work is (single flight, issue 32)
                return job
            if self._offload is None:
                self._offload = Offload(self.directory, max_disk_bytes=self.max_disk_bytes)
            # sent under the lock (a message on a pipe; the child's start, at the first call, a few ms): from here
            # on a viewer asking for the same key follows this task instead of computing it again
            return self._offload.submit(fn, *args)

    def _follow(self, key: str, fn: Callable, args: tuple, kwargs: dict, task, persist: bool,
                keep: bool = False) -> Job:
        """A viewer's job for ``key`` that the offload child computes now (``task``): it waits for that task and
        mirrors its progress instead of computing the same thing again (call with the lock held). Should the
        child fail, the job is queued here, as if it had been asked for now."""
        job = Job(key, block_name(fn), FOREGROUND, persist, keep)
        job.waiters, job.started = 0 if keep else 1, time.monotonic()
        self._jobs[key] = job

        def progress(fraction: float) -> None:
            try:
                job.report(fraction, "Computing (the check the Claims page runs in the background)")
            except Cancelled:   # nobody waits here any more; the offloaded work goes on
                pass

        def finished(future) -> None:
            error = future.exception()
            if error is None:
                value = future.result()
                size = nbytes(value)
                with self._lock:
                    self._memory.put(key, value, size)
                    if self._jobs.get(key) is job:
                        del self._jobs[key]
                job.finished = time.monotonic()
                job.future.set_result(value)
                return
            with self._lock:
                if self._jobs.get(key) is job and not job.cancelled and (job.waiters > 0 or job.keep):
                    job.started, job.fraction, job._samples = None, 0.0, []   # computed here after all
                    self._calls[job] = (fn, args, kwargs)
                    self._queues[FOREGROUND].append(job)
                    self._lock.notify_all()
                    return
                if self._jobs.get(key) is job:
                    del self._jobs[key]
            job.finished = time.monotonic()
            job.future.set_exception(error)

        progress(task.fraction)
        task.watch(progress, finished)
        return job

    def submit_call(self, fn: Callable, args: tuple, kwargs: dict, *, priority: int = FOREGROUND,
                    persist: bool = True, keep: bool = False) -> Job:
        """:meth:`submit` with the arguments as a tuple and a dict (no name of ``fn``'s is taken)."""
        priority = BACKGROUND if priority > FOREGROUND else FOREGROUND
        key, disk_key = self._keys(fn, args, kwargs)
        while True:
            with self._lock:
                found, value = self._from_memory(key)
                if found:
                    return self._finished_job(key, fn, value)
                job = self._jobs.get(key)
                if job is not None:
                    if not keep:
                        job.waiters += 1
                        self._lock.notify_all()  # a kept job held back for want of a free worker is waited for now
                    if priority < job.priority:
                        self._promote(job)
                    return job
                task = self._offload.running(key) if self._offload is not None else None
                if task is not None:   # the offload child computes it now: wait for that, not a second run
                    return self._follow(key, fn, args, kwargs, task, persist, keep)
                reading = self._inflight.get(key)
                owner = reading is None
                if owner:
                    reading = self._inflight[key] = Future()
                    # queued for the offload child, not started: computed here and now for the viewer instead
                    queued = self._offload.withdraw(key) if self._offload is not None else None
            if not owner:  # another caller reads it from disk or computes it inline: wait for that
                try:
                    value = reading.result()
                except BaseException:
                    continue
                if value is _QUEUED:
                    continue
                return self._finished_job(key, fn, value)
            try:
                found, value, size = self._read_disk(disk_key) if persist else (False, None, 0)
                profile = None if found else self._profile(block_name(fn))
            except BaseException as exc:
                with self._lock:
                    self._inflight.pop(key, None)
                reading.set_exception(exc)
                if queued is not None:
                    queued.future.set_exception(exc)
                raise
            with self._lock:
                self._inflight.pop(key, None)
                if found:
                    self._memory.put(key, value, size)
                    self.hits += 1
                    job = self._finished_job(key, fn, value)
                else:
                    name = block_name(fn)
                    job = Job(key, name, priority, persist, keep, profile=profile)
                    job.waiters = 0 if keep else 1
                    self._jobs[key] = job
                    self._calls[job] = (fn, args, kwargs)
                    self._queues[priority].append(job)
                    self._lock.notify_all()
                if queued is not None:   # offloaded work runs to its end whoever waits: so does the job taking it
                    job.keep = True
                    queued.adopt(job)
            reading.set_result(value if found else _QUEUED)
            return job

    def _promote(self, job: Job) -> None:
        """A viewer asked for a background job: it becomes a requested one (call with the lock held)."""
        if job in self._queues[BACKGROUND]:
            self._queues[BACKGROUND].remove(job)
            self._queues[FOREGROUND].append(job)
            self._lock.notify_all()
        job.priority = FOREGROUND  # a running one goes on where it is

    def release(self, job: Job) -> None:
        """One caller stops waiting for ``job``; a job nobody waits for is dropped, or stopped if running.

        Background jobs of :meth:`prepare` go on while nobody waits for them.
        """
        with self._lock:
            job.waiters -= 1
            if job.waiters > 0 or job.done() or job.keep:
                return
            if job.started is None:
                for queue in self._queues.values():
                    if job in queue:
                        queue.remove(job)
                self._calls.pop(job, None)
                if self._jobs.get(job.key) is job:
                    del self._jobs[job.key]
                job.future.cancel()
            else:  # stops at its next progress report; a caller asking again meanwhile gets a new job
                job.cancelled = True
                if self._jobs.get(job.key) is job:
                    del self._jobs[job.key]

    def position(self, job: Job) -> int:
        """1 + the number of queued jobs ahead of ``job`` (requested jobs go first); 0 once it runs."""
        with self._lock:
            ahead = 0
            for priority in (FOREGROUND, BACKGROUND):
                queue = self._queues[priority]
                if job in queue:
                    before = queue[:queue.index(job)]
                    if priority == FOREGROUND and job.waiters > 0:  # kept work nobody waits for goes after it
                        before = [j for j in before if j.waiters > 0]
                    return ahead + len(before) + 1
                ahead += len(queue)
        return 0

    def queued(self) -> dict[str, int]:
        """How many jobs wait now: ``{"requested": n, "background": m}``."""
        with self._lock:
            return {"requested": len(self._queues[FOREGROUND]), "background": len(self._queues[BACKGROUND])}

    def _next(self, kind: int) -> Job:
        """The next job for a worker of ``kind`` (call with the lock held; waits)."""
        while True:
            if self._queues[FOREGROUND] and kind == FOREGROUND:
                queue = self._queues[FOREGROUND]
                # a job someone waits for before kept work nobody waits for any more (the full view of a page
                # left, the Claims page's checks): it was asked for, but nobody is looking at it now; such work
                # takes at most all but one requested worker, so that the next viewer's job starts at once
                i = next((i for i, j in enumerate(queue) if j.waiters > 0), None)
                if i is None and self._unwatched < max(1, self.workers - 1):
                    i = 0
                if i is None:
                    self._lock.wait()
                    continue
                job = queue.pop(i)
                job.unwatched = job.waiters == 0
                self._unwatched += job.unwatched
                if not self._queues[FOREGROUND]:
                    self._lock.notify_all()  # a background worker waiting for requested work to start may go
                return job
            if kind == BACKGROUND and self._queues[BACKGROUND] and not self._queues[FOREGROUND]:
                return self._queues[BACKGROUND].pop(0)
            self._lock.wait()

    def _work(self, kind: int) -> None:
        while True:
            with self._lock:
                job = self._next(kind)
                fn, args, kwargs = self._calls.pop(job)
                job.started = time.monotonic()
            try:
                value = self.call(fn, args, kwargs, progress=job.report, persist=job.persist)
            except BaseException as exc:  # delivered to every waiting caller
                job.finished = time.monotonic()
                job.future.set_exception(exc)
            else:
                job.finished = time.monotonic()
                profile = job.learned() if job._samples else None  # a run that reported progress
                if profile is not None:  # the next run of this block reads its shape
                    with self._lock:
                        self._profiles[job.label] = profile
                job.future.set_result(value)
                if profile is not None and self._disk is not None and job.persist:
                    self._disk.put(f"profile:{job.label}", profile)
            finally:
                with self._lock:
                    if self._jobs.get(job.key) is job:  # not a newer job for the same key (see release)
                        del self._jobs[job.key]
                    self._unwatched -= getattr(job, "unwatched", False)
                    self._lock.notify_all()
