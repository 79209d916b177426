"""A ``dask.distributed`` client: an in-process ``LocalCluster`` by default, or an existing cluster by address.

>>> from ikviz.scale.cluster import connect
>>> with connect() as client:           # doctest: +SKIP
...     ...                              # every dask computation now runs on the cluster

``connect(None)`` starts a ``LocalCluster`` with one single-threaded worker
process per core (numba inside each worker limited to its worker's threads,
so the cores are not oversubscribed); ``connect("tcp://host:8786")`` (or the
``DASK_SCHEDULER_ADDRESS`` environment variable) connects to a running
scheduler.

Every fault ends in a one-line ``ConnectionError`` (or ``ValueError`` for an
address that cannot be used), never a hang or a traceback:

* an address is checked first (:func:`check_address`): ``tcp://HOST:PORT`` or
  ``HOST:PORT``; ``tls://``, ``ucx://``, ``inproc://`` and other schemes are refused
  by name;
* before a ``Client`` is made, :func:`probe` asks the address for its identity
  over Dask's own comm (``distributed.comm.connect`` and the ``identity``
  handler), the whole exchange bounded by ``timeout`` (5 s): a port nobody
  listens on, a port that accepts and stays silent (an HTTP server, say), one
  that answers something else than Dask's protocol, or a Dask worker instead of
  a scheduler each get their own message;
* while a computation runs, :class:`Watch` asks the scheduler for its workers
  every half second (``client.nthreads``, bounded in time): no live worker for
  ``worker_timeout`` seconds, or a lost scheduler, cancels the computation
  and raises :class:`ClusterError` saying which.
"""

from __future__ import annotations

import logging
import os
import sys
import threading
import time
from contextlib import contextmanager

#: seconds to wait for a scheduler given by address
CONNECT_TIMEOUT = 5
#: seconds without a live worker after which a computation is given up
WORKER_TIMEOUT = 30
ENV_ADDRESS = "DASK_SCHEDULER_ADDRESS"
_POLL = 0.5                     # seconds between two looks at the cluster while a computation runs


class ClusterError(ConnectionError):
    """The Dask cluster failed (no live worker, lost scheduler, not a scheduler): a one-line message.

    Examples
    --------
    >>> from ikviz.scale.cluster import ClusterError
    >>> str(ClusterError("no live Dask worker for 30 s"))
    'no live Dask worker for 30 s'
    """


_SCHEMES = {
    "tls": "needs TLS certificates (a distributed.Security), which ikviz scale does not take",
    "ucx": "needs UCX-Py and a UCX network, which ikviz scale does not support",
    "inproc": "only reaches a scheduler inside the same Python process",
    "ws": "is Dask's websocket transport, which ikviz scale does not support",
    "wss": "is Dask's websocket transport, which ikviz scale does not support",
}


def check_address(address: str) -> str:
    """``address`` as ``tcp://HOST:PORT``, or ``ValueError`` saying why it cannot be used.

    Examples
    --------
    >>> from ikviz.scale.cluster import check_address
    >>> check_address("127.0.0.1:8786")
    'tcp://127.0.0.1:8786'
    >>> check_address("tls://10.0.0.1:8786")
    Traceback (most recent call last):
    ...
    ValueError: --scheduler tls://10.0.0.1:8786: tls:// needs TLS certificates ...
    """
    text = str(address).strip()
    scheme, sep, loc = text.partition("://")
    if not sep:
        scheme, loc = "tcp", text
    scheme = scheme.lower()
    if scheme != "tcp":
        why = _SCHEMES.get(scheme, "is not a scheme ikviz scale knows")
        raise ValueError(f"--scheduler {text}: {scheme}:// {why}; give the scheduler's tcp://HOST:PORT address.")
    host, colon, port = loc.rpartition(":")
    if not colon or not host or "/" in loc or not port.isdigit() or not 0 < int(port) < 65536:
        raise ValueError(f"--scheduler {text}: expected tcp://HOST:PORT (the port a `dask scheduler` listens on, "
                         "8786 by default).")
    return f"tcp://{host}:{int(port)}"


def probe(address: str, timeout: float = CONNECT_TIMEOUT) -> dict:
    """Ask ``address`` for its identity over Dask's comm; the whole exchange bounded by ``timeout`` seconds.

    Returns the scheduler's identity (a dict); raises :class:`ClusterError` naming what was
    found instead: nothing listening, a silent port, another protocol, or a Dask
    process that is not a scheduler.

    Examples
    --------
    >>> import socket
    >>> from ikviz.scale.cluster import probe
    >>> with socket.socket() as s:          # a port nobody listens on
    ...     s.bind(("127.0.0.1", 0))
    ...     port = s.getsockname()[1]
    >>> probe(f"tcp://127.0.0.1:{port}", timeout=1)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ikviz.scale.cluster.ClusterError: Could not reach a Dask scheduler at tcp://127.0.0.1:... within 1 s ...
    """
    import asyncio

    from distributed.comm import connect as comm_connect  # imported before the clock starts

    state: dict = {}

    async def exchange():
        state["stage"] = "connect"  # does anything listen? (a plain TCP connection, closed at once)
        host, _, port = address.removeprefix("tcp://").rpartition(":")
        _, writer = await asyncio.open_connection(host.strip("[]"), int(port))
        writer.close()
        state["stage"] = "answer"  # Dask's handshake, then the identity handler
        comm = await comm_connect(address, timeout=timeout)
        try:
            await comm.write({"op": "identity", "reply": True})
            return await comm.read()
        finally:
            comm.abort()

    def run():
        try:
            state["identity"] = asyncio.run(asyncio.wait_for(exchange(), timeout))
        except BaseException as exc:  # noqa: BLE001 - reported below, in the caller's thread
            state["error"] = exc

    thread = threading.Thread(target=run, name="ikviz-probe", daemon=True)
    thread.start()
    thread.join(timeout + 1.0)
    where = f"at {address} within {timeout:g} s"
    hint = (f"Check the address (tcp://HOST:PORT of `dask scheduler`, 8786 by default), or leave out --scheduler "
            f"(and unset {ENV_ADDRESS}) to start a local cluster.")
    error, stage = state.get("error"), state.get("stage")
    if "identity" in state:
        identity = state["identity"]
        kind = identity.get("type") if isinstance(identity, dict) else None
        if kind == "Scheduler":
            return identity
        what = f"a Dask {kind}" if kind else "something that is not a Dask scheduler"
        raise ClusterError(f"{address} is {what}, not a Dask scheduler. {hint}")
    if stage in (None, "connect") and (error is None or isinstance(error, (OSError, asyncio.TimeoutError))):
        raise ClusterError(f"Could not reach a Dask scheduler {where} (nothing answers there). {hint}")
    if error is None or isinstance(error, asyncio.TimeoutError):
        raise ClusterError(f"{address} accepted the connection but did not answer as a Dask scheduler within "
                           f"{timeout:g} s "
                           f"(an HTTP server, such as the dashboard's port 8787, or another service?). {hint}")
    raise ClusterError(f"{address} answered, but not in Dask's protocol ({type(error).__name__}). {hint}")


def scheduler_address(scheduler: str | None = None) -> str | None:
    """The address to connect to: ``scheduler``, else ``$DASK_SCHEDULER_ADDRESS``, else None (local cluster)."""
    return scheduler or os.environ.get(ENV_ADDRESS) or None


def _has_bokeh() -> bool:
    try:
        import bokeh  # noqa: F401
    except ImportError:
        return False
    return True


@contextmanager
def connect(scheduler: str | None = None, *, n_workers: int | None = None, threads_per_worker: int = 1,
            timeout: float = CONNECT_TIMEOUT, memory_limit="auto", dashboard_address: str | None = ":0",
            quiet: bool = False, stream=None, processes: bool = True, warm: bool = True):
    """A ``distributed.Client`` for the duration of the ``with`` block, closed (with its cluster) at the end.

    Parameters
    ----------
    scheduler : str, optional
        ``tcp://HOST:PORT`` of a running scheduler; default ``$DASK_SCHEDULER_ADDRESS``, and when
        neither is set a ``LocalCluster`` started in this process.
    n_workers : int, optional
        Local cluster only: worker processes (default: one per core, at least 1).
    threads_per_worker : int, default=1
        Local cluster only: threads per worker (numba's threads inside a worker are set to the same).
    timeout : float, default=5
        Seconds to wait for a remote scheduler to answer before raising :class:`ClusterError`.
    memory_limit : str or int, default="auto"
        Local cluster only: memory limit per worker (``"auto"``: the machine's memory / n_workers).
    dashboard_address : str or None, default=":0"
        Local cluster only: where the dashboard (and the scheduler's HTTP endpoints) listen; ``":0"``
        or ``None``: a free port (never the default 8787, which another cluster may hold).
    quiet : bool, default=False
        Do not print where the cluster and its dashboard are.
    stream : file, optional
        Where to print (default ``sys.stderr``).
    processes : bool, default=True
        Local cluster only: worker processes (the command line), or worker threads in this process
        (a server such as the app, where spawning processes would re-import the server).
    warm : bool, default=True
        Local worker processes only: import ``ikviz.kernels`` in each and load numba's compiled code
        (about a second, once per worker, counted as start-up rather than as the first blocks' time).
    """
    address = scheduler_address(scheduler)
    if address:
        address = check_address(address)  # before importing distributed: a wrong address is told at once
    from dask.distributed import Client, LocalCluster

    stream = sys.stderr if stream is None else stream
    if address:
        probe(address, timeout)
        try:
            client = Client(address, timeout=timeout)
        except (OSError, TimeoutError) as exc:
            raise ClusterError(
                f"Could not reach a Dask scheduler at {address} within {timeout:g} s ({exc}). Check the address "
                "(tcp://HOST:8786) and that `dask scheduler` runs there, or leave out --scheduler "
                f"(and unset {ENV_ADDRESS}) to start a local cluster."
            ) from None
        cluster = None
    else:
        import dask

        workers = max(1, n_workers or (os.cpu_count() or 1) // max(1, threads_per_worker))
        # glibc's default malloc thresholds in the workers: distributed sets MALLOC_TRIM_THRESHOLD_=65536,
        # which also pins the mmap threshold, so every large temporary is mmap'ed and unmapped again
        # and the kernel's cells run 2-3x slower. Numba's threads = the worker's threads (no
        # oversubscription of the cores), in the worker's environment from its spawn on: a spawned
        # worker re-imports the caller's __main__ (ikviz, hence numba) before distributed applies its
        # `env`, and numba refuses a thread count that changes after its threads started (a
        # RuntimeError at the workers' first compile). The spawn sets it in this process's
        # environment too: put back once the workers are up.
        before = os.environ.get("NUMBA_NUM_THREADS")
        spawn_env = {"distributed.nanny.pre-spawn-environ.MALLOC_TRIM_THRESHOLD_": None}
        if processes:
            spawn_env["distributed.nanny.pre-spawn-environ.NUMBA_NUM_THREADS"] = str(threads_per_worker)
        try:
            with dask.config.set(spawn_env):
                cluster = LocalCluster(n_workers=workers, threads_per_worker=threads_per_worker,
                                       processes=processes, memory_limit=memory_limit,
                                       silence_logs=logging.CRITICAL,
                                       dashboard_address=":0" if dashboard_address is None else dashboard_address)
        finally:
            if before is None:
                os.environ.pop("NUMBA_NUM_THREADS", None)
            else:
                os.environ["NUMBA_NUM_THREADS"] = before
        client = Client(cluster)
        if processes and warm:
            client.run(_warm_worker)  # part of the start-up: each worker imports the kernel and loads its code
    try:
        if not quiet:
            info = client.scheduler_info(n_workers=-1) if _takes_n_workers(client) else client.scheduler_info()
            workers = info.get("workers", {})
            threads = sum(w.get("nthreads", 0) for w in workers.values())
            where = address or "a local cluster"
            print(f"dask: {where}, {len(workers)} worker(s), {threads} thread(s)", file=stream)
            if cluster is None or _has_bokeh():
                print(f"dask dashboard: {client.dashboard_link}", file=stream)
            else:
                print("dask dashboard: not started (pip install 'bokeh>=3.1' to get one)", file=stream)
        yield client
    finally:
        _close_quietly(client, cluster, timeout)


def _close_quietly(client, cluster, timeout: float) -> None:
    """Close the client (and the local cluster) without waiting long for a scheduler that is gone."""
    lost = client.status not in ("running", "newly-created")
    # its reconnection attempt, cut short here, would log a traceback: the caller says what happened
    logs = [logging.getLogger(name) for name in ["distributed", *logging.root.manager.loggerDict]
            if name.startswith("distributed")] if lost else []
    levels = [log.level for log in logs]
    for log in logs:
        log.setLevel(logging.CRITICAL + 1)
    try:
        client.close(timeout=1 if lost else 2 * timeout)
    except Exception:  # noqa: BLE001 - a scheduler that is gone cannot say goodbye
        pass
    finally:
        for log, level in zip(logs, levels):
            log.setLevel(level)
    if cluster is not None:
        try:
            cluster.close()
        except Exception:  # noqa: BLE001
            pass


def _warm_worker() -> None:
    """In a fresh worker process: import the kernel and run its compiled code once on a few rows."""
    import numpy as np

    from ..kernels import IsolationKernel

    X = np.random.default_rng(0).normal(size=(64, 2))
    for method in ("anne", "iforest"):
        IsolationKernel(psi=4, t=2, method=method, random_state=0).fit(X).cells(X)


def _takes_n_workers(client) -> bool:
    import inspect

    return "n_workers" in inspect.signature(client.scheduler_info).parameters


class Watch:
    """Watches a cluster while a computation runs; a fault cancels the computation and is raised as one line.

    In a background thread, every half second: the scheduler's workers (``client.nthreads``, the
    call bounded in time). When no worker has been alive for ``worker_timeout`` seconds, or the
    scheduler is lost, the client's futures are cancelled, so whatever waits on them (a
    ``dask.compute``, ``future.result()``) stops at once; :meth:`check` (or leaving the ``with``
    block with an exception) then raises :class:`ClusterError` saying which fault it was.

    Examples
    --------
    >>> from ikviz.scale.cluster import Watch, connect
    >>> with connect(n_workers=1, processes=False, quiet=True) as client:   # doctest: +SKIP
    ...     with Watch(client, worker_timeout=10):
    ...         client.submit(sum, [1, 2]).result()
    3
    """

    def __init__(self, client, *, worker_timeout: float = WORKER_TIMEOUT, address: str | None = None):
        self.client, self.worker_timeout = client, float(worker_timeout)
        self.address = address or getattr(getattr(client, "scheduler", None), "address", None) or "the scheduler"
        self.fault: str | None = None
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="ikviz-watch", daemon=True)

    def __enter__(self):
        self._thread.start()
        return self

    def __exit__(self, kind, exc, tb):
        self._stop.set()
        self._thread.join(2 * _POLL + 1)
        if exc is not None and not isinstance(exc, (ClusterError, KeyboardInterrupt)):
            translated = self.translate(exc)
            if translated is not None:
                raise translated from None
        return False

    def translate(self, exc) -> Exception | None:
        """The one-line error for an exception raised by a computation under watch (None: keep ``exc``)."""
        from concurrent.futures import CancelledError

        from distributed.scheduler import KilledWorker

        if isinstance(exc, KilledWorker):
            return ClusterError("Dask workers died again and again running the same block (out of memory? see "
                                "the workers' logs); the run was stopped.")
        if self.fault is None and isinstance(exc, (CancelledError, OSError)):
            if isinstance(exc, OSError) and self.client.status == "running":
                return None  # a file error of a task, not the cluster's
            self._look()
            if self.fault is None:
                self.fault = (f"Lost the connection to the Dask scheduler at {self.address} during the run; the "
                              "run was stopped.")
        return None if self.fault is None else ClusterError(self.fault)

    def check(self) -> None:
        """Raise :class:`ClusterError` if a fault was seen."""
        if self.fault is not None:
            raise ClusterError(self.fault)

    def _look(self) -> None:
        """One look at the cluster: sets ``fault`` (and cancels the client's futures) on a fault."""
        client = self.client
        if client.status not in ("running", "newly-created"):
            self._give_up(f"Lost the connection to the Dask scheduler at {self.address} during the run "
                          "(the scheduler stopped, or the network failed); the run was stopped.", cancel=False)
            return
        try:
            n = len(client.nthreads(callback_timeout=max(_POLL, 2.0)))
        except Exception:  # noqa: BLE001 - the scheduler does not answer: the next look decides
            return
        now = time.monotonic()
        if n:
            self._since = None
            return
        self._since = getattr(self, "_since", None) or now
        if now - self._since >= self.worker_timeout:
            self._give_up(f"No live Dask worker at {self.address} for {self.worker_timeout:g} s (the workers "
                          "stopped or died, and none came back); the run was stopped.", cancel=True)

    def _give_up(self, message: str, *, cancel: bool) -> None:
        if self.fault is None:
            self.fault = message
        if cancel:
            from distributed import Future

            keys = list(getattr(self.client, "futures", {}))
            try:
                self.client.cancel([Future(k, self.client) for k in keys], reason="ikviz-watch",
                                   msg=message)
            except Exception:  # noqa: BLE001
                pass

    def _run(self) -> None:
        self._since = None
        while not self._stop.wait(_POLL):
            self._look()
            if self.fault is not None:
                return


def compute(client, collection, *, progress=None, worker_timeout: float = WORKER_TIMEOUT,
            text: str = "block {done} of {total}"):
    """Compute a list of ``collection``'s parts on ``client`` under :class:`Watch`; return their results in order.

    ``progress(fraction, text)``, if given, is called as parts finish (``text`` formatted with
    ``done`` and ``total``). An exception raised by a
    task (a malformed row, say) is raised here, in the caller; a cluster fault as
    :class:`ClusterError`.

    Examples
    --------
    >>> import dask
    >>> from ikviz.scale.cluster import compute, connect
    >>> with connect(n_workers=1, processes=False, quiet=True) as client:   # doctest: +SKIP
    ...     compute(client, [dask.delayed(abs)(-2), dask.delayed(abs)(-3)])
    [2, 3]
    """
    from distributed import wait

    with Watch(client, worker_timeout=worker_timeout) as watch:
        futures = client.compute(list(collection))
        index = {f.key: i for i, f in enumerate(futures)}
        results, pending, done = [None] * len(futures), set(futures), 0
        while pending:
            try:
                finished = wait(list(pending), timeout=_POLL, return_when="FIRST_COMPLETED").done
            except TimeoutError:
                finished = ()
            for future in finished:
                pending.discard(future)
                results[index[future.key]] = future.result()  # raises the task's error, or CancelledError
                done += 1
                if progress is not None:
                    progress(done / len(futures), text.format(done=done, total=len(futures)))
            watch.check()
    return results
