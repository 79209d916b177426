"""The results store's scheduler: requested views before background work, single flight, the ETA."""

import threading
import time

import pytest

from ikviz.store import BACKGROUND, ResultsStore
from ikviz.store.scheduler import Job

STARTED = []
GATES: dict[str, threading.Event] = {}


def step(name, *, progress=None):
    """Records its start, then waits for its gate (if it has one)."""
    STARTED.append(name)
    gate = GATES.get(name)
    if gate is not None:
        assert gate.wait(10), f"{name} was never let go"
    return name


@pytest.fixture(autouse=True)
def _reset():
    STARTED.clear()
    GATES.clear()
    yield
    for gate in GATES.values():  # never leave a worker blocked
        gate.set()


def _until(condition, timeout=5.0):
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.01)


def test_a_requested_view_goes_before_background_work():
    store = ResultsStore(workers=1)
    GATES["busy"] = threading.Event()
    GATES["bg-busy"] = threading.Event()
    busy = store.submit(step, "busy")
    background_busy = store.prepare(step, "bg-busy")  # the background worker is taken
    _until(lambda: STARTED == ["busy", "bg-busy"] or STARTED == ["bg-busy", "busy"])
    prepared = [store.prepare(step, f"bg{i}") for i in range(3)]
    view = store.submit(step, "view")  # asked after the background work
    assert store.position(view) == 1 and [store.position(j) for j in prepared] == [2, 3, 4]
    assert store.queued() == {"requested": 1, "background": 3}
    GATES["bg-busy"].set()  # the background worker is free, but a requested job waits: it takes none
    assert background_busy.wait(5)
    time.sleep(0.2)
    assert "bg0" not in STARTED
    GATES["busy"].set()
    assert view.wait(5) and all(j.wait(5) for j in prepared)
    assert STARTED.index("view") < STARTED.index("bg0") < STARTED.index("bg1") < STARTED.index("bg2")
    store.release(busy)
    store.release(view)


def test_background_work_runs_with_nobody_waiting_and_a_viewer_joins_it():
    store = ResultsStore(workers=1)
    GATES["bg-busy"] = threading.Event()
    store.prepare(step, "bg-busy")
    _until(lambda: STARTED == ["bg-busy"])
    queued = store.prepare(step, "later")
    joined = store.submit(step, "later")  # a viewer asks for what is being prepared: the same job, moved up
    assert joined is queued and queued.priority == 0 and store.queued() == {"requested": 1, "background": 0}
    assert joined.wait(5) and joined.result() == "later"  # a requested worker ran it at once
    assert STARTED == ["bg-busy", "later"]
    store.release(joined)
    GATES["bg-busy"].set()


def test_prepared_work_is_never_computed_twice():
    store = ResultsStore(workers=2)
    jobs = [store.prepare(step, "same") for _ in range(3)] + [store.submit(step, "same") for _ in range(3)]
    assert all(j.wait(5) for j in jobs)
    assert STARTED == ["same"] and len({id(j) for j in jobs}) == 1
    done = store.prepare(step, "same")  # held now: no job at all
    assert done.done() and STARTED == ["same"]


def test_two_sessions_asking_at_once_share_one_computation():
    store = ResultsStore(workers=2)
    GATES["shared"] = threading.Event()
    jobs = []
    sessions = [threading.Thread(target=lambda: jobs.append(store.submit(step, "shared"))) for _ in range(2)]
    for s in sessions:
        s.start()
    for s in sessions:
        s.join()
    assert jobs[0] is jobs[1] and jobs[0].waiters == 2
    store.release(jobs[0])  # one session leaves: the other still waits, the job goes on
    GATES["shared"].set()
    assert jobs[1].wait(5) and jobs[1].result() == "shared" and STARTED == ["shared"]


def test_the_estimate_follows_the_latest_rate_not_the_first_stage():
    """A quick first stage and a slow second one: the rate from the start would say 5 s where 18 s are left."""
    job = Job("k", "two stages")
    job.started = time.monotonic() - 20.0
    # stage 1: 0 -> 0.5 in 2 s; stage 2: 0.5 -> 0.6 in 18 s (0.1 per 18 s)
    job._samples.extend([(1.0, 0.25), (2.0, 0.5)] + [(2.0 + 1.8 * i, 0.5 + 0.01 * i) for i in range(1, 11)])
    job.fraction = 0.6
    naive = 20.0 * (1 - 0.6) / 0.6  # what the store said before: about 13 s
    truth = 0.4 / (0.1 / 18.0)  # 72 s at the second stage's pace
    assert naive < truth / 2  # the old estimate was off by more than a factor of 2 here
    assert truth / 2 <= job.remaining() <= truth * 2


def test_the_estimate_uses_the_previous_run_of_the_same_block():
    job = Job("k", "block", expected=60.0)
    job.started = time.monotonic() - 10.0
    assert job.remaining() == pytest.approx(50.0, abs=1.0)  # no progress reported yet: the last run's time
    assert "about 50 s left" in job.status(0)
