"""The app's results store: the process-wide :class:`ikviz.store.ResultsStore` and the page's waiting widget.

A page asks for a result with :func:`compute` (``compute(exp.run, params)``
or ``compute(block, *args)``). The store (:mod:`ikviz.store`, which knows
nothing of Streamlit) returns it at once if it is held in memory or on disk,
joins the computation if another session asked for the same thing first
(single flight), and otherwise queues it for one of a fixed number of worker
threads (``IKVIZ_WORKERS``, default 2). Requested views go before work
prepared in the background (``priority=BACKGROUND``, see ``app/prepare.py``).

While it waits, the page shows the place in the queue, then the run's own
``progress(fraction, text)`` with the elapsed and estimated remaining time,
and a cancel button; the figure the view showed before stays on the page,
marked as outdated, until the new one replaces it. A running computation that
no session waits for any more (cancelled, or every viewer moved on) stops at
its next progress report. Inside a run, ``memo`` (see :mod:`ikviz.runner`)
sends every building block through the same store. Held results are bounded
in bytes (``IKVIZ_STORE_MB``, default 512) and on disk
(``IKVIZ_STORE_DISK_MB``, default 2048, see :func:`store_directory`); the least
recently used go first. Files on disk are private (0600 in a 0700 folder) and
signed: the store reads only what it wrote. A result is computed again when
the code it depends on changes, not when a docstring does. ``persist=False``
keeps a result and everything computed for it in memory only (uploaded data).
Results are shared between sessions: callers must not modify them. The pages'
figures are held too, in memory only (``figures.built``).
"""

from __future__ import annotations

import os
import shutil
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from ikviz.runner import Cancelled, block_name
from ikviz.store import BACKGROUND, FOREGROUND, Job, ResultsStore

__all__ = ["Ask", "BACKGROUND", "FOREGROUND", "Job", "ResultsStore", "compute", "get_store", "store_directory"]


@dataclass(frozen=True)
class Ask:
    """How :func:`compute` asks before a heavy run: a sentence on what it costs (or None), the button's label,
    key and help, and whether it is the page's primary action. ``ask="..."`` is ``Ask("...")``."""

    text: str | None
    label: str = "Run it"
    key: str | None = None
    help: str | None = None
    primary: bool = False

_STORE: ResultsStore | None = None
_STORE_LOCK = threading.Lock()
_FOLDER = "results"  # under $XDG_CACHE_HOME/ikviz/store: one folder for every version of the code


def store_directory() -> Path | None:
    """Where results persist across restarts, or None to keep them in memory only.

    ``IKVIZ_STORE_DIR`` if set (empty: memory only; a lecture prepared in a
    folder of its own), else ``$XDG_CACHE_HOME/ikviz/store/results``
    (``~/.cache`` by default), so a restarted server starts warm. Each result
    on disk carries the digest of the code it depends on
    (:mod:`ikviz.store.fingerprint`): changed code does not serve old results.
    """
    configured = os.environ.get("IKVIZ_STORE_DIR")
    if configured is not None:
        return Path(configured) if configured.strip() else None
    cache = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return cache / "ikviz" / "store" / _FOLDER


def _forget_old_versions(directory: Path, days: float = 1.0) -> None:
    """Delete the stores of earlier ikviz versions beside ``directory`` (one folder per code digest, named
    by 16 hex digits) untouched for ``days``: no code reads them any more."""
    cutoff = time.time() - days * 86400
    for sibling in directory.parent.iterdir():
        name = sibling.name
        if (sibling != directory and len(name) == 16 and all(c in "0123456789abcdef" for c in name)
                and sibling.is_dir() and sibling.stat().st_mtime < cutoff):
            shutil.rmtree(sibling, ignore_errors=True)


def _warm_fingerprints() -> None:
    """Digest the code of the ikviz modules imported so far (the first disk read needs them; ~0.4 s)."""
    import sys

    from ikviz.store import module_fingerprint

    for name in [m for m in list(sys.modules) if m.startswith("ikviz.experiments.") or m == "ikviz.claims"]:
        module_fingerprint(name)


def get_store() -> ResultsStore:
    """The process-wide store (``IKVIZ_STORE_MB``, ``IKVIZ_STORE_DISK_MB``, ``IKVIZ_WORKERS``, :func:`store_directory`)."""
    global _STORE
    with _STORE_LOCK:
        if _STORE is None:
            directory = store_directory()
            try:
                if directory is not None and "IKVIZ_STORE_DIR" not in os.environ:
                    directory.mkdir(parents=True, exist_ok=True, mode=0o700)
                    _forget_old_versions(directory)
            except OSError:  # e.g. a read-only home: results are still shared, in memory
                directory = None
            settings = dict(max_bytes=int(float(os.environ.get("IKVIZ_STORE_MB", "512")) * (1 << 20)),
                            workers=int(os.environ.get("IKVIZ_WORKERS", "2")),
                            max_disk_bytes=int(float(os.environ.get("IKVIZ_STORE_DISK_MB", "2048")) * (1 << 20)))
            try:
                _STORE = ResultsStore(directory=directory, **settings)
            except Exception as exc:  # another user's folder (UnsafeStoreFolder), unwritable, a damaged database
                # (sqlite3.DatabaseError): results are still shared, in memory
                import warnings

                warnings.warn(f"results are kept in memory only: {exc}", stacklevel=2)
                _STORE = ResultsStore(directory=None, **settings)
            if directory is not None:
                threading.Thread(target=_warm_fingerprints, name="ikviz-store-digest", daemon=True).start()
        return _STORE


_STOPPED_KEY = "_ikviz_stopped"  # session state: the keys of computations this session cancelled
_ASKED_KEY = "_ikviz_asked"  # session state: the keys of heavy computations this session asked to run


_SHOWN_KEY = "_ikviz_shown"  # session state: the blocks this session has been shown a result of


def compute(fn: Callable, *args, inline: bool = False, ask: str | Ask | None = None, persist: bool = True,
            **kwargs):
    """``fn(*args, **kwargs)`` through the shared store, showing queue place and progress meanwhile.

    ``fn`` receives the store's ``memo`` and a ``progress`` callback if its
    signature has them. Exceptions of the computation are raised here (wrap
    the call in :func:`ui.guarded`), and :class:`~ikviz.runner.Cancelled`
    after the viewer pressed Cancel (``ui.guarded`` shows nothing more for
    it: the note and a button to run it after all are drawn here). ``inline=True`` is for quick steps (a
    figure of a finished result, a file's header): they run in the page's own
    thread, still computed once and shared, instead of queueing behind other
    sessions' heavy computations. ``ask`` (a sentence on what it costs, or an
    :class:`Ask`) makes a computation that is not held yet wait for a click on
    **Run it**: the one way a page asks before a heavy run.
    ``persist=False`` keeps the result, and every block computed for it, in
    memory only: for uploaded data, which must not reach the disk.

    While it waits, the page's previous figure stays where it was, below the
    progress bar, greyed and marked as outdated (``plotly_chart.js``): the
    bar's place is kept in every run, waiting or not, so that the figure's
    place does not move.
    """
    import streamlit as st

    store = get_store()
    if inline:
        return store.call(fn, args, kwargs, persist=persist)
    key = store.key_of(fn, args, kwargs)
    stopped = st.session_state.setdefault(_STOPPED_KEY, set())
    if key in stopped:  # cancelled here: wait for a changed setting or a click, do not start it again
        st.info("Stopped on request. Change a setting, or run it after all.")
        st.button("Run it", key=f"_run_{key}", on_click=stopped.discard, args=(key,))
        raise Cancelled(block_name(fn))
    asked = st.session_state.setdefault(_ASKED_KEY, set())
    if ask and key not in asked and not store.peek(fn, *args, **kwargs)[0]:  # heavy: on request only
        ask = Ask(ask) if isinstance(ask, str) else ask
        if ask.text:
            st.info(ask.text)
        st.button(ask.label, key=ask.key or f"_run_{key}", on_click=asked.add, args=(key,), help=ask.help,
                  type="primary" if ask.primary else "secondary", icon=":material/play_arrow:")
        raise Cancelled(block_name(fn))
    box = st.empty()  # the progress bar's place, in every run: what follows keeps its place (see above)
    job = store.submit_call(fn, args, kwargs, persist=persist)
    shown = st.session_state.setdefault(_SHOWN_KEY, set())
    try:
        if not job.wait(0.05):
            with box.container():
                bar = st.empty()
                if job.label in shown:
                    st.caption("Below: the previous result, greyed until this one is ready.")
                # the click reruns the page, which releases this job: if nobody else waits, it stops
                st.button("Cancel", key=f"_cancel_{key}", on_click=stopped.add, args=(key,))
            while not job.wait(min(0.5 * max(job.waiters, 1), 3.0)):  # N tabs on one job: ~2 updates/s in all
                bar.progress(job.fraction, text=job.status(store.position(job)))
            box.empty()
        value = job.result()
        shown.add(job.label)
        return value
    finally:
        store.release(job)
