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

    def __init__(self, child: subprocess.Popen):
        self.future: Future = Future()
        self.fraction = 0.0
        self.child = child   # the process computing it
        self._watchers: list[Callable[[float], None]] = []

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

    The child starts at the first :meth:`submit` and ends when it has nothing left to do, so an idle
    server holds no second process. ``store`` names (``module:name``) the store class the child computes
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
        self._running: dict[int, _Task] = {}   # by number, those the child has not answered yet
        self._count = 0

    def _start(self) -> subprocess.Popen:
        """A new child and the thread that reads its answers (call with the lock held)."""
        serve = f"from ikviz.store.offload import _serve; _serve({self.store!r})"
        child = subprocess.Popen([sys.executable, "-c", serve], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
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
                    if not self._running and self._child is child:   # nothing left: let the child end
                        self._child = None
                        child.stdin.close()
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
        for task in left:
            task.future.set_exception(RuntimeError(f"the offload process ended (exit code {child.returncode})"))

    def submit(self, fn: Callable, *args) -> _Task:
        """``fn(*args)`` in the child (``fn`` importable by name, ``args`` picklable), or the task already
        running or finished for the same call (a failed one runs again)."""
        from ..runner import block_key

        key = block_key(fn, args, {})
        with self._lock:
            task = self._tasks.get(key)
            if task is not None and not (task.done() and task.future.exception() is not None):
                return task
            if self._child is None:
                self._child = self._start()
            self._count += 1
            task = _Task(self._child)
            self._tasks[key] = self._running[self._count] = task
            _send(self._child.stdin, (self._count, fn, args))
            return task

    def running(self, key: str) -> _Task | None:
        """The task computing the call of store key ``key`` now (submitted, not done), or None."""
        with self._lock:
            task = self._tasks.get(key)
        return task if task is not None and not task.done() else None

    def close(self) -> None:
        """Stop the child now (what it was computing is lost; what it finished is on disk)."""
        with self._lock:
            child, self._child = self._child, None
        if child is not None:
            child.kill()
