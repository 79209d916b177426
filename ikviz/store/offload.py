"""Work nobody waits for, in a low-priority process of its own that writes into the same disk store.

The Claims page starts every reproduction's check (minutes of work) and draws its rows as they finish; the
viewers of other pages must not wait for it meanwhile. In the server's own process such work shares the
interpreter lock with every page's script (a page rerun that gives the lock up, at each message it sends,
waits for it to come back) and the cores at the same priority as the viewers. :class:`Offload` runs it in one
child process at the lowest CPU priority (``nice`` 19) instead, with a
:class:`~ikviz.store.ResultsStore` on the same folder: the results land in the disk cache (process-safe),
where the server's store then finds them (``peek``), and so do the blocks computed for them (a reproduction's
result is the very result a page's view at the same settings reads).

The child is a plain ``python -c`` process (not :mod:`multiprocessing`, which would run the parent's
``__main__`` again in it: in a Streamlit server, the page script being run) that reads calls from its stdin
and writes progress and results to its stdout, both pickled; it imports the functions by name. Only for a
store with a folder: without one, the results would not come back through the disk.
"""

from __future__ import annotations

import importlib
import os
import pickle
import subprocess
import sys
import threading
import time
from collections import deque
from collections.abc import Callable
from concurrent.futures import Future
from pathlib import Path

__all__ = ["Offload"]


def _send(stream, message) -> None:
    pickle.dump(message, stream, protocol=pickle.HIGHEST_PROTOCOL)
    stream.flush()


def _serve(factory: str) -> None:
    """The child: read ``(number, fn, args)`` calls from stdin until it closes, answer each on stdout, computed
    through the store ``factory`` names (``module:name``, called with the parent's store settings)."""
    channel_in = sys.stdin.buffer
    sys.stdout.flush()
    channel_out = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)   # what a computation prints (Python or a C library) goes to stderr, never into the channel
    parent, path, directory, max_bytes, max_disk_bytes, nice = pickle.load(channel_in)
    sys.path[:0] = [p for p in path if p not in sys.path]
    try:
        os.nice(nice)
    except (AttributeError, OSError):   # no nice here: same priority, still outside the server's lock
        pass
    try:   # Linux schedules a session's processes as one group: this child's own session at `nice` too, so that it
        # takes only the CPU no other process wants (in the server's group it was below the server's threads
        # but shared the group's share with them, against the viewers' browsers on the same machine)
        with open("/proc/self/autogroup", "w") as group:
            group.write(str(nice))
    except OSError:   # no autogroups here: nice alone
        pass

    def orphaned() -> None:   # the server ended (even killed): stop at once rather than finish a check for nobody
        while os.getppid() == parent:
            time.sleep(1.0)
        os._exit(0)

    threading.Thread(target=orphaned, daemon=True).start()
    module, _, name = factory.partition(":")
    make_store = getattr(importlib.import_module(module), name)   # named, not imported: the scheduler uses this module
    store = make_store(max_bytes=max_bytes, workers=1, directory=directory, max_disk_bytes=max_disk_bytes)
    while True:
        try:
            number, fn, args = pickle.load(channel_in)
        except EOFError:
            return
        shown = [-1.0]

        def progress(share: float, text: str = "", number=number, shown=shown) -> None:
            if share - shown[0] >= 0.01:
                shown[0] = share
                _send(channel_out, ("progress", number, float(share)))

        try:
            _send(channel_out, ("done", number, store.call(fn, tuple(args), {}, progress=progress)))
        except Exception as exc:   # handed to the caller; a failure that cannot be pickled is said in words
            try:
                pickle.dumps(exc)
            except Exception:
                exc = RuntimeError(f"{type(exc).__name__}: {exc}")
            _send(channel_out, ("error", number, exc))


class _Task:
    """One offloaded call: ``done()``, ``wait(timeout)``, ``result()`` (raises what the call raised), ``fraction``."""

    def __init__(self):
        self.future: Future = Future()
        self._fraction = 0.0
        self.child: subprocess.Popen | None = None   # the process computing it, once sent there
        self._job = None   # the server's job that took it over (:meth:`Offload.withdraw`), whose progress it shows
        self._watchers: list[Callable[[float], None]] = []

    @property
    def fraction(self) -> float:
        return self._job.fraction if self._job is not None and not self.done() else self._fraction

    @fraction.setter
    def fraction(self, value: float) -> None:
        self._fraction = value

    def adopt(self, job) -> None:
        """Take ``job``'s outcome as this task's (a job of the server's store that computes the same call, with
        ``fraction`` and ``future``): for a task withdrawn from the queue because a viewer asked for it."""
        self._job = job

        def settle(future: Future) -> None:
            self._fraction = 1.0
            if future.cancelled():
                self.future.set_exception(RuntimeError("the computation was cancelled"))
            elif future.exception() is not None:
                self.future.set_exception(future.exception())
            else:
                self.future.set_result(future.result())

        job.future.add_done_callback(settle)

    def watch(self, progress: Callable[[float], None], finished: Callable[[Future], None]) -> None:
        """Call ``progress(fraction)`` at each report of the child and ``finished(future)`` once it is done (at
        once if it is): how a viewer's job in the server follows this task instead of computing it again."""
        self._watchers.append(progress)
        self.future.add_done_callback(finished)

    def _report(self, fraction: float) -> None:
        self.fraction = fraction
        for progress in list(self._watchers):
            progress(fraction)

    def done(self) -> bool:
        return self.future.done()

    def wait(self, timeout: float) -> bool:
        try:
            self.future.exception(timeout)
        except TimeoutError:
            return False
        return True

    def result(self):
        return self.future.result()


class Offload:
    """Calls of importable functions, run one at a time in a child process at ``nice`` priority, into the disk
    store in ``directory``; each distinct call runs once (single flight by the store's key).

    The calls wait here, in the server, and the child is sent the next one when it has answered the last: a
    call nobody has started yet can be :meth:`withdraw`-n and computed for a viewer who asks for it now,
    instead of after every call queued before it. The child starts at the first :meth:`submit` and ends
    when it has nothing left to do, so an idle server holds no second process.
    ``store`` names (``module:name``) the store class the child computes
    through: named, not imported, since that store's scheduler is what uses this module.

    Examples
    --------
    >>> import tempfile
    >>> from ikviz.store import ResultsStore
    >>> folder = tempfile.mkdtemp()
    >>> task = Offload(folder).submit(pow, 2, 10)
    >>> task.wait(120) and task.result()
    1024
    >>> ResultsStore(directory=folder, workers=1).peek(pow, 2, 10)   # the server's store finds it on disk
    (True, 1024)
    """

    def __init__(self, directory: str | Path, *, nice: int = 19, max_bytes: int = 256 << 20,
                 max_disk_bytes: int = 2048 << 20, store: str = "ikviz.store.scheduler:ResultsStore"):
        self.directory, self.nice, self.store = str(directory), int(nice), str(store)
        self.max_bytes, self.max_disk_bytes = int(max_bytes), int(max_disk_bytes)
        self._lock = threading.Lock()
        self._child: subprocess.Popen | None = None
        self._tasks: dict[str, _Task] = {}   # by the store's key of the call
        self._running: dict[int, _Task] = {}   # by number, the one call the child computes now
        self._queue: deque = deque()   # (number, key, fn, args, task) of the calls not sent yet, in order
        self._count = 0

    def _start(self) -> subprocess.Popen:
        """A new child and the thread that reads its answers (call with the lock held)."""
        serve = f"from ikviz.store.offload import _serve; _serve({self.store!r})"
        child = subprocess.Popen([sys.executable, "-c", serve], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                 start_new_session=os.name == "posix")   # a scheduling group of its own
        _send(child.stdin,
              (os.getpid(), list(sys.path), self.directory, self.max_bytes, self.max_disk_bytes, self.nice))
        threading.Thread(target=self._read, args=(child,), name="ikviz-offload", daemon=True).start()
        return child

    def _read(self, child: subprocess.Popen) -> None:
        """Hand the child's answers to their tasks; when it ends, fail what it left unanswered."""
        while True:
            try:
                kind, number, value = pickle.load(child.stdout)
            except Exception:   # EOF: the child ended (its stdin closed, or it died)
                break
            with self._lock:
                task = self._running.get(number)
                if kind != "progress":
                    self._running.pop(number, None)
                    self._next()   # the next call, or nothing left: let the child end
            if kind == "progress":   # outside the lock: a viewer's job following the task takes the store's lock
                if task is not None:
                    task._report(value)
                continue
            if task is not None:
                task.fraction = 1.0
                (task.future.set_exception if kind == "error" else task.future.set_result)(value)
        child.wait()
        with self._lock:
            if self._child is child:
                self._child = None
            left = [self._running.pop(n) for n, t in list(self._running.items()) if t.child is child]
            self._next()   # the calls still queued go on in a new child
        for task in left:
            task.future.set_exception(RuntimeError(f"the offload process ended (exit code {child.returncode})"))

    def _next(self) -> None:
        """Send the child the next queued call if it computes none now; with none left, let the child end (call
        with the lock held)."""
        if self._running:
            return
        if self._queue:
            number, _key, fn, args, task = self._queue.popleft()
            if self._child is None:
                self._child = self._start()
            task.child = self._child
            self._running[number] = task
            try:
                _send(self._child.stdin, (number, fn, args))
            except OSError:   # the child died meanwhile: its reader fails this call and sends the rest anew
                pass
            return
        if self._child is not None:
            child, self._child = self._child, None
            try:
                child.stdin.close()
            except OSError:
                pass

    def submit(self, fn: Callable, *args) -> _Task:
        """``fn(*args)`` in the child (``fn`` importable by name, ``args`` picklable), or the task already
        running or finished for the same call (a failed one runs again)."""
        from ..runner import block_key

        key = block_key(fn, args, {})
        with self._lock:
            task = self._tasks.get(key)
            if task is not None and not (task.done() and task.future.exception() is not None):
                return task
            self._count += 1
            task = self._tasks[key] = _Task()
            self._queue.append((self._count, key, fn, args, task))
            self._next()
            return task

    def running(self, key: str) -> _Task | None:
        """The task of the call of store key ``key`` if the child computes it now, else None."""
        with self._lock:
            task = self._tasks.get(key)
            return task if task is not None and task in self._running.values() else None

    def withdraw(self, key: str) -> _Task | None:
        """Take the call of store key ``key`` out of the queue if the child has not started it: its task, which
        the caller then settles (:meth:`_Task.adopt`), or None.

        Examples
        --------
        >>> import tempfile
        >>> from ikviz.runner import block_key
        >>> offload = Offload(tempfile.mkdtemp())
        >>> first, second = offload.submit(pow, 2, 10), offload.submit(pow, 3, 2)
        >>> offload.withdraw(block_key(pow, (3, 2), {})) is second   # queued behind the first: taken out
        True
        >>> first.wait(120) and first.result()
        1024
        """
        with self._lock:
            for i, item in enumerate(self._queue):
                if item[1] == key:
                    del self._queue[i]
                    return item[4]
        return None

    def close(self) -> None:
        """Stop the child now (what it was computing is lost; what it finished is on disk)."""
        with self._lock:
            child, self._child = self._child, None
        if child is not None:
            child.kill()
