"""A ``dask.distributed`` client: an in-process ``LocalCluster`` by default, or an existing cluster by address.

>>> from ikviz.scale.cluster import connect
>>> with connect() as client:           # doctest: +SKIP
...     ...                              # every dask computation now runs on the cluster

``connect(None)`` starts a ``LocalCluster`` with one single-threaded worker
process per core (numba inside each worker limited to its worker's threads,
so the cores are not oversubscribed); ``connect("tcp://host:8786")`` (or the
``DASK_SCHEDULER_ADDRESS`` environment variable) connects to a running
scheduler and fails with a clear ``ConnectionError`` after ``timeout`` seconds
when none answers.
"""

from __future__ import annotations

import logging
import os
import sys
from contextlib import contextmanager

#: seconds to wait for a scheduler given by address
CONNECT_TIMEOUT = 5
ENV_ADDRESS = "DASK_SCHEDULER_ADDRESS"


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
            quiet: bool = False, stream=None, processes: bool = True):
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
    timeout : float, default=8
        Seconds to wait for a remote scheduler before raising ``ConnectionError``.
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
    """
    from dask.distributed import Client, LocalCluster

    stream = sys.stderr if stream is None else stream
    address = scheduler_address(scheduler)
    if address:
        try:
            client = Client(address, timeout=timeout)
        except (OSError, TimeoutError) as exc:
            raise ConnectionError(
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
        # oversubscription of the cores), set in the worker before numba is imported there.
        with dask.config.set({"distributed.nanny.pre-spawn-environ.MALLOC_TRIM_THRESHOLD_": None}):
            cluster = LocalCluster(n_workers=workers, threads_per_worker=threads_per_worker, processes=processes,
                                   memory_limit=memory_limit, silence_logs=logging.CRITICAL,
                                   dashboard_address=":0" if dashboard_address is None else dashboard_address,
                                   **({"env": {"NUMBA_NUM_THREADS": str(threads_per_worker)}} if processes else {}))
        client = Client(cluster)
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
        client.close()
        if cluster is not None:
            cluster.close()


def _takes_n_workers(client) -> bool:
    import inspect

    return "n_workers" in inspect.signature(client.scheduler_info).parameters


def compute_with_progress(client, collection, *, progress: bool = True):
    """Compute ``collection`` on ``client``, drawing Dask's console progress bar; return its result.

    An exception raised by a task (a malformed row, say) is raised here, in the caller.
    """
    from dask.distributed import progress as _progress

    future = client.compute(collection)
    if progress:
        _progress(future)
        print(file=sys.stdout, flush=True)
    return future.result()
