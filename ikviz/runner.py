"""The one convention every experiment follows: ``run(params, *, memo=None, progress=None) -> Result``.

``params`` is a frozen dataclass (hashable, picklable, the whole description
of one view), and ``Result`` a dataclass of arrays the figure builders read.

``memo``
    A function that wraps a building block: ``memo(fn)(*args, **kwargs)``
    returns what ``fn(*args, **kwargs)`` returns, possibly from a cache shared
    with other callers (the app's results store). Arguments must be values
    (numbers, strings, tuples, frozen dataclasses, NumPy arrays), never
    callables, except a keyword argument named ``progress``, which is passed
    through and left out of the cache key. Results are shared, so callers
    treat them as read-only.
``progress``
    ``progress(fraction, text)``: ``fraction`` in [0, 1] of the whole run,
    ``text`` a few words on the current stage ("GK: iteration 300 of 750").
    It may raise :class:`Cancelled` when nobody wants the result any more (the
    app's cancel button); a run lets it propagate, so it stops at its next report.

Without a ``memo``, a run keeps each distinct block for its own duration only
(:class:`RunMemo`), and ``progress`` does nothing, so a script calls
``run(params)`` and gets the same result as the app.

Examples
--------
>>> from ikviz.runner import resolve, within
>>> memo, progress = resolve(None, None)
>>> memo(abs)(-3)
3
>>> seen = []
>>> half = within(lambda f, text: seen.append((f, text)), 0.5, 1.0, "second half")
>>> half(0.5, "step 1")
>>> seen
[(0.75, 'second half: step 1')]
"""

from __future__ import annotations

import hashlib
import inspect
import pickle
import threading
from collections.abc import Callable
from concurrent.futures import Future

Progress = Callable[[float, str], None]
Memo = Callable[[Callable], Callable]

__all__ = [
    "Cancelled",
    "Memo",
    "Progress",
    "RunMemo",
    "block_key",
    "block_name",
    "call_block",
    "no_memo",
    "no_progress",
    "resolve",
    "within",
]


class Cancelled(Exception):
    """Raised by a ``progress`` callback to stop a run whose result nobody waits for any more.

    Examples
    --------
    >>> from ikviz.runner import Cancelled
    >>> issubclass(Cancelled, Exception)
    True
    """


def block_name(fn: Callable) -> str:
    """``module.qualname`` of a building block: its identity in a cache shared across sessions."""
    qualname = getattr(fn, "__qualname__", "")
    if not qualname or "<lambda>" in qualname or "<locals>" in qualname:
        raise TypeError(f"{fn!r} cannot be a memoised block: use a module-level function, "
                        "so that its name identifies it")
    return f"{fn.__module__}.{qualname}"


def block_key(fn: Callable, args: tuple, kwargs: dict) -> str:
    """A digest of a block's name and arguments (``memo`` and ``progress`` left out).

    A token of the values (:func:`dask.base.tokenize`: arrays are hashed in
    place, dataclasses field by field), not their pickle: asking again for a
    result of large arguments (a figure of a result) copies nothing. Values
    that have no deterministic token are pickled, as before.

    Examples
    --------
    >>> from ikviz.runner import block_key
    >>> block_key(divmod, (7, 2), {}) == block_key(divmod, (7, 2), {"progress": print})
    True
    >>> block_key(divmod, (7, 2), {}) == block_key(divmod, (7, 3), {})
    False
    """
    kwargs = {k: v for k, v in kwargs.items() if k not in ("progress", "memo")}
    described = (block_name(fn), args, sorted(kwargs.items()))
    try:
        from dask.base import tokenize

        return tokenize(*described, ensure_deterministic=True)
    except Exception:  # no deterministic token (an object without one): its pickle, as before
        blob = pickle.dumps(described, protocol=5)
        return hashlib.blake2b(blob, digest_size=20).hexdigest()


def _parameters(fn: Callable):
    try:
        return inspect.signature(fn).parameters
    except (TypeError, ValueError):
        return {}


def call_block(fn: Callable, args: tuple, kwargs: dict, memo: Memo, progress: Progress | None):
    """``fn(*args, **kwargs)``, handing on ``memo`` and ``progress`` if ``fn`` takes them.

    Examples
    --------
    >>> from ikviz.runner import call_block, no_memo
    >>> def block(x, *, memo=None):
    ...     return memo is no_memo, x
    >>> call_block(block, (1,), {}, no_memo, None)
    (True, 1)
    """
    names = _parameters(fn)
    extra = {}
    if "memo" in names and "memo" not in kwargs:
        extra["memo"] = memo
    if "progress" in names and "progress" not in kwargs and progress is not None:
        extra["progress"] = progress
    return fn(*args, **kwargs, **extra)


class RunMemo:
    """The memo of one run without a shared cache: each distinct block computed once, kept while the run lasts.

    Thread-safe: two threads asking for the same block share one computation.

    Examples
    --------
    >>> from ikviz.runner import RunMemo
    >>> calls = []
    >>> def square(x):
    ...     calls.append(x)
    ...     return x * x
    >>> memo = RunMemo()
    >>> memo(square)(3) + memo(square)(3), calls
    (18, [3])
    """

    def __init__(self):
        self._results: dict[str, Future] = {}
        self._lock = threading.Lock()

    def __call__(self, fn: Callable) -> Callable:
        def block(*args, **kwargs):
            progress = kwargs.pop("progress", None)
            key = block_key(fn, args, kwargs)
            with self._lock:
                future = self._results.get(key)
                owner = future is None
                if owner:
                    future = self._results[key] = Future()
            if owner:
                try:
                    future.set_result(call_block(fn, args, kwargs, self, progress))
                except BaseException as exc:
                    future.set_exception(exc)
            return future.result()

        block.__wrapped__ = fn
        return block


def no_memo(fn: Callable) -> Callable:
    """The memo that caches nothing: ``fn`` itself.

    Examples
    --------
    >>> from ikviz.runner import no_memo
    >>> no_memo(max)(2, 5)
    5
    """
    return fn


def no_progress(fraction: float, text: str = "") -> None:
    """The progress report that reports nothing.

    Examples
    --------
    >>> from ikviz.runner import no_progress
    >>> no_progress(0.5, "half way") is None
    True
    """


def resolve(memo: Memo | None, progress: Progress | None) -> tuple[Memo, Progress]:
    """``memo`` and ``progress`` with ``None`` replaced by defaults: a :class:`RunMemo`, no reports.

    Examples
    --------
    >>> from ikviz.runner import RunMemo, resolve
    >>> memo, progress = resolve(None, print)
    >>> isinstance(memo, RunMemo), progress is print
    (True, True)
    """
    return (memo if memo is not None else RunMemo()), (progress or no_progress)


def within(progress: Progress | None, start: float, stop: float, prefix: str = "") -> Progress:
    """A progress report for one stage that covers ``[start, stop]`` of the whole run.

    The stage reports its own fraction from 0 to 1; ``prefix`` (e.g. the
    kernel's name) is put before its text.

    Examples
    --------
    >>> from ikviz.runner import within
    >>> gk = within(lambda f, text: print(f"{f:.2f} {text}"), 0.0, 0.5, "GK")
    >>> gk(0.5, "iteration 375 of 750")
    0.25 GK: iteration 375 of 750
    """
    if progress is None:
        return no_progress
    span = float(stop) - float(start)

    def report(fraction: float, text: str = "") -> None:
        fraction = min(1.0, max(0.0, float(fraction)))
        label = f"{prefix}: {text}" if prefix and text else (prefix or text)
        progress(float(start) + span * fraction, label)

    return report
