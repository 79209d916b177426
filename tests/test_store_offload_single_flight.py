"""One computation for one key across the server and its offload child (issue 32: no duplicate work).

The Claims page offloads every check nobody watches (``ResultsStore.offload``: a low-priority child process);
``claims?reproduction=X&size=quick`` asks the server's store for the same check. Whichever comes first computes it;
the other waits for that computation (the viewer's job follows the child's task, with its progress), counted here
by the lines a block writes each time it runs.
"""

import os
import time
from pathlib import Path

from ikviz.store import ResultsStore


def counted(path, seconds, x, *, progress=None):
    """Write one line (this process's id) per run, take ``seconds`` reporting progress, return ``2 x``."""
    with open(path, "a") as fh:
        fh.write(f"{os.getpid()}\n")
    for i in range(10):
        if progress is not None:
            progress(i / 10, f"step {i + 1} of 10")
        time.sleep(seconds / 10)
    if progress is not None:
        progress(1.0, "done")
    return 2 * x


def fails_in_a_child(path, parent):
    """Like :func:`counted`, but fails in any process other than ``parent`` (an offload child that breaks)."""
    with open(path, "a") as fh:
        fh.write(f"{os.getpid()}\n")
    time.sleep(1.0)
    if os.getpid() != parent:
        raise RuntimeError("the child broke")
    return "computed here"


def runs(path: Path) -> list[int]:
    return [int(line) for line in path.read_text().split()] if path.exists() else []


def started(path: Path, timeout: float = 120.0) -> None:
    end = time.monotonic() + timeout
    while not runs(path):
        assert time.monotonic() < end, "the computation never started"
        time.sleep(0.05)


def test_a_viewer_asking_for_an_offloaded_key_waits_for_the_child_instead_of_computing_it(tmp_path):
    store = ResultsStore(workers=1, directory=tmp_path / "store")
    path = tmp_path / "runs"
    task = store.offload(counted, str(path), 1.0, 7)
    started(path)   # the child computes it now
    job = store.submit(counted, str(path), 1.0, 7)   # claims?reproduction=X: the same key
    try:
        assert job.wait(120) and job.result() == 14
        assert task.wait(120) and task.result() == 14
        assert len(runs(path)) == 1 and runs(path)[0] != os.getpid()   # computed once, in the child
        assert job.fraction == 1.0 and len(job._samples) >= 2   # its bar followed the child's progress (ETA)
        assert store.peek(counted, str(path), 1.0, 7) == (True, 14)
    finally:
        store.release(job)
    assert store.submit(counted, str(path), 1.0, 7).result() == 14 and len(runs(path)) == 1   # held: no rerun


def test_offloading_a_key_a_viewer_computes_joins_the_viewers_job_which_then_runs_to_its_end(tmp_path):
    store = ResultsStore(workers=1, directory=tmp_path / "store")
    path = tmp_path / "runs"
    job = store.submit(counted, str(path), 1.0, 8)   # the viewer first
    started(path)
    task = store.offload(counted, str(path), 1.0, 8)   # then the Claims page offloads the same check
    assert task is job
    store.release(job)   # the viewer leaves: offloaded work runs to its end whoever waits
    assert task.wait(120) and task.result() == 16
    assert runs(path) == [os.getpid()]   # once, in the server


def test_a_viewer_following_a_child_that_fails_gets_it_computed_here(tmp_path):
    store = ResultsStore(workers=1, directory=tmp_path / "store")
    path = tmp_path / "runs"
    task = store.offload(fails_in_a_child, str(path), os.getpid())
    started(path)
    job = store.submit(fails_in_a_child, str(path), os.getpid())
    try:
        assert job.wait(120) and job.result() == "computed here"
    finally:
        store.release(job)
    assert task.wait(1) and isinstance(task.future.exception(), RuntimeError)
    assert len(runs(path)) == 2 and runs(path)[1] == os.getpid()


def test_a_viewer_asking_for_a_queued_offloaded_key_gets_it_now_not_after_the_queue(tmp_path):
    # the child is sent one call at a time: a viewer's request for one still queued behind a long call is
    # computed in the server now (once), and the offloaded task takes that result
    store = ResultsStore(workers=1, directory=tmp_path / "store")
    long_runs, path = tmp_path / "long", tmp_path / "runs"
    long_task = store.offload(counted, str(long_runs), 20.0, 1)
    queued = store.offload(counted, str(path), 0.5, 7)
    started(long_runs)
    t0 = time.monotonic()
    job = store.submit(counted, str(path), 0.5, 7)
    try:
        assert job.wait(60) and job.result() == 14
        assert time.monotonic() - t0 < 15   # not after the 20 s call queued before it
        assert runs(path) == [os.getpid()]   # computed once, here
        assert queued.wait(10) and queued.result() == 14 and queued.fraction == 1.0
        assert not long_task.done()   # the child goes on with its own call
    finally:
        store.release(job)
        store._offload.close()


def test_a_queued_offloaded_key_taken_by_a_viewer_runs_to_its_end_when_the_viewer_leaves(tmp_path):
    store = ResultsStore(workers=1, directory=tmp_path / "store")
    long_runs, path = tmp_path / "long", tmp_path / "runs"
    store.offload(counted, str(long_runs), 20.0, 1)
    queued = store.offload(counted, str(path), 1.0, 7)
    started(long_runs)
    job = store.submit(counted, str(path), 1.0, 7)
    store.release(job)   # the viewer moved on at once: the offloaded work it took over is still done
    try:
        assert queued.wait(60) and queued.result() == 14
        assert runs(path) == [os.getpid()]
    finally:
        store._offload.close()
