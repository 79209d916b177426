"""The app's results store: single flight, bounded bytes, a bounded number of running jobs, persistence."""

import sys
import threading
import time
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "app"))
from store import ResultsStore  # noqa: E402

CALLS = []


def slow_square(x, *, delay=0.2, progress=None):
    CALLS.append(x)
    if progress is not None:
        progress(0.5, "half way")
    time.sleep(delay)
    return np.full(1000, x, dtype=np.float64)  # 8,000 bytes


def uses_blocks(x, *, memo, progress):
    a = memo(slow_square)(x, delay=0.0)
    b = memo(slow_square)(x, delay=0.0)  # the same block again: computed once
    progress(1.0, "done")
    return float(a.sum() + b.sum())


def fails(x):
    raise ValueError(f"bad x={x}")


@pytest.fixture(autouse=True)
def _reset():
    CALLS.clear()


def test_many_requests_for_one_thing_compute_it_once():
    store = ResultsStore(workers=2)
    jobs = [store.submit(slow_square, 3) for _ in range(30)]
    assert len({id(j) for j in jobs}) == 1 and jobs[0].waiters == 30
    assert all(j.wait(5) for j in jobs)
    assert CALLS == [3]
    assert np.array_equal(jobs[0].result(), np.full(1000, 3.0))
    again = store.submit(slow_square, 3)
    assert again.done() and CALLS == [3]


def test_threads_asking_inline_share_one_computation():
    store = ResultsStore(workers=1)
    out = []
    threads = [threading.Thread(target=lambda: out.append(store.memo(slow_square)(5))) for _ in range(8)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert CALLS == [5] and len(out) == 8


def test_at_most_workers_jobs_run_at_once_and_the_queue_has_positions():
    store = ResultsStore(workers=1)
    jobs = [store.submit(slow_square, i, delay=0.3) for i in range(3)]
    time.sleep(0.1)
    assert [store.position(j) for j in jobs] == [0, 1, 2]
    assert "1 computation(s) ahead" in jobs[2].status(store.position(jobs[2]))
    assert all(j.wait(5) for j in jobs)
    assert CALLS == [0, 1, 2]


def test_a_queued_job_nobody_waits_for_is_dropped():
    store = ResultsStore(workers=1)
    first = store.submit(slow_square, 1, delay=0.3)
    second = store.submit(slow_square, 2)
    store.release(second)
    assert second.future.cancelled()
    first.wait(5)
    time.sleep(0.1)
    assert CALLS == [1]


def test_memory_is_bounded_least_recently_used_first():
    store = ResultsStore(max_bytes=30_000, workers=1)
    for i in range(10):
        store.memo(slow_square)(i, delay=0.0)
    assert store.held_bytes <= 30_000
    CALLS.clear()
    store.memo(slow_square)(9, delay=0.0)  # recent: still held
    store.memo(slow_square)(0, delay=0.0)  # oldest: dropped, computed again
    assert CALLS == [0]


def test_memo_and_progress_are_injected_and_not_part_of_the_key():
    store = ResultsStore(workers=1)
    job = store.submit(uses_blocks, 2)
    assert job.wait(5) and job.result() == 4000.0
    assert CALLS == [2] and job.fraction == 1.0 and job.text == "done"
    assert store.key(slow_square, (1,), {"progress": print}) == store.key(slow_square, (1,), {})
    assert store.key(slow_square, (1,), {}) != store.key(slow_square, (2,), {})


def test_errors_reach_every_waiter_and_are_not_kept():
    store = ResultsStore(workers=1)
    job = store.submit(fails, 1)
    assert job.wait(5)
    with pytest.raises(ValueError, match="bad x=1"):
        job.result()
    again = store.submit(fails, 1)  # a failure is not held: asking again computes again
    assert again is not job and again.wait(5) and isinstance(again.future.exception(), ValueError)


def test_results_persist_on_disk_for_a_restarted_server(tmp_path):
    ResultsStore(directory=tmp_path).memo(slow_square)(7, delay=0.0)
    assert CALLS == [7] and ResultsStore(directory=tmp_path).disk_entries == 1
    restarted = ResultsStore(directory=tmp_path)
    assert np.array_equal(restarted.memo(slow_square)(7, delay=0.0), np.full(1000, 7.0))
    assert CALLS == [7]


def test_what_is_held_in_memory_only_never_reaches_the_disk(tmp_path):
    store = ResultsStore(directory=tmp_path)
    first = store.call(slow_square, (7,), {"delay": 0.0}, persist=False)
    assert store.call(slow_square, (7,), {"delay": 0.0}, persist=False) is first  # held: the same object
    assert CALLS == [7] and store.held_bytes >= 8_000 and store.disk_entries == 0
    ResultsStore(directory=tmp_path).call(slow_square, (7,), {"delay": 0.0})  # a restart computes it again
    assert CALLS == [7, 7]


def test_lambdas_are_refused_because_their_name_is_not_an_identity():
    with pytest.raises(TypeError, match="module-level function"):
        ResultsStore(workers=1).memo(lambda x: x)(1)


STEPS = []


def many_steps(n, *, progress):
    """A computation that reports after each of ``n`` short steps (a cancel stops it at a report)."""
    for i in range(n):
        progress(i / n, f"step {i}")
        STEPS.append(i)
        time.sleep(0.002)
    return n


def test_a_running_job_nobody_waits_for_stops_at_its_next_report():
    STEPS.clear()
    store = ResultsStore(workers=1)
    job = store.submit(many_steps, 1000)
    while not STEPS:
        time.sleep(0.01)
    store.release(job)  # the only viewer pressed Cancel (or moved on)
    assert job.wait(5)
    assert type(job.future.exception()).__name__ == "Cancelled"
    assert len(STEPS) < 1000
    again = store.submit(many_steps, 3)  # nothing of the cancelled run is held: a new job computes
    assert again.wait(5) and again.result() == 3
    assert store.peek(many_steps, 1000) == (False, None)


def test_a_job_another_viewer_still_waits_for_is_not_cancelled():
    STEPS.clear()
    store = ResultsStore(workers=1)
    first = store.submit(many_steps, 30)
    second = store.submit(many_steps, 30)  # a second viewer of the same link joins the same job
    assert first is second
    store.release(first)
    assert second.wait(5) and second.result() == 30 and len(STEPS) == 30


def test_asking_again_while_a_cancelled_run_winds_down_computes_afresh():
    STEPS.clear()
    store = ResultsStore(workers=2)
    job = store.submit(many_steps, 1000)
    while not STEPS:
        time.sleep(0.01)
    store.release(job)
    again = store.submit(many_steps, 1000)  # a new job for the same key, not the cancelled one
    assert again is not job
    assert again.wait(30) and again.result() == 1000


def big_square(x):
    return np.full(100_000, x, dtype=np.float64)  # 800,000 bytes: a file of its own in the disk cache


def test_disk_holds_at_most_its_budget_dropping_the_least_recently_used(tmp_path):
    store = ResultsStore(directory=tmp_path, max_disk_bytes=4_000_000)  # about four results (and the index)
    for x in range(8):
        store.memo(big_square)(x)
    assert store.disk_bytes <= 4_000_000 and 2 <= store.disk_entries < 8
    assert store.peek(big_square, 7)[0]          # the newest is kept
    restarted = ResultsStore(directory=tmp_path)
    assert not restarted.peek(big_square, 0)[0]  # the oldest went first


def test_default_directory_is_the_users_cache_and_can_be_switched_off(monkeypatch, tmp_path):
    import store as store_module

    monkeypatch.delenv("IKVIZ_STORE_DIR", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    default = store_module.store_directory()
    assert default == tmp_path / "ikviz" / "store" / "results"  # one folder: results carry their code's digest
    monkeypatch.setenv("IKVIZ_STORE_DIR", "")
    assert store_module.store_directory() is None
    monkeypatch.setenv("IKVIZ_STORE_DIR", str(tmp_path / "lecture"))
    assert store_module.store_directory() == tmp_path / "lecture"


def test_a_cancelled_view_waits_for_run_it_instead_of_starting_again():
    from streamlit.testing.v1 import AppTest

    def page():
        import store
        import streamlit as st
        import ui
        from test_store import slow_square

        with ui.guarded("the squares"):
            st.metric("sum", float(store.compute(slow_square, 3, delay=0.0).sum()))

    at = AppTest.from_function(page)
    key = ResultsStore.key(slow_square, (3,), {"delay": 0.0})
    at.session_state["_ikviz_stopped"] = {key}  # as the Cancel button leaves it
    at.run()
    assert not at.exception and not at.error and not at.metric
    assert "Stopped on request" in at.info[0].value and CALLS == []
    at.button(key=f"_run_{key}").click().run()
    assert at.metric[0].value == "3000.0" and CALLS == [3]
