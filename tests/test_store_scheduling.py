"""The results store's scheduler: requested views before background work, single flight, the ETA."""

import math
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
        assert time.monotonic() < deadline, f"timed out; started: {STARTED}"
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
    assert joined is queued and queued.priority == 0 and store.queued()["background"] == 0
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


def test_the_estimate_reads_the_shape_of_the_previous_run_of_the_same_block():
    """Settings changed: the run takes longer, its stages keep their shares; the earlier run's shape says so."""
    earlier = Job("k1", "block")
    earlier.started = time.monotonic() - 10.0
    earlier.finished = earlier.started + 10.0
    # a quick first half of the fractions (1 s), a slow second half (9 s)
    earlier._samples = [(0.5, 0.25), (1.0, 0.5)] + [(1.0 + 0.9 * i, 0.5 + 0.05 * i) for i in range(1, 11)]
    profile = earlier.learned()
    now = Job("k2", "block", profile=profile)
    now.started = time.monotonic() - 4.0  # this run takes 40 s: at 4 s it is half done
    now.fraction = 0.5
    now._samples = [(2.0, 0.25), (4.0, 0.5)]
    truth = 36.0
    rate_only = Job("k3", "block")
    rate_only.started, rate_only.fraction, rate_only._samples = now.started, 0.5, list(now._samples)
    assert rate_only.remaining() < truth / 4  # the rate of the quick stage: off by a factor of 9
    assert rate_only.remaining() < now.remaining() < truth  # the earlier run's shape: 3 times closer
    assert abs(math.log(now.remaining() / truth)) < abs(math.log(rate_only.remaining() / truth)) / 1.9
    waiting = Job("k4", "block", profile=profile)  # nothing reported yet: the earlier run's time
    waiting.started = time.monotonic() - 3.0
    assert waiting.remaining() == pytest.approx(7.0, abs=0.5) and "about 7 s left" in waiting.status(0)


def test_a_finished_run_teaches_the_next_one_and_the_disk_keeps_it(tmp_path):
    store = ResultsStore(workers=1, directory=tmp_path)
    job = store.submit(_two_stages, 1)
    assert job.wait(10)
    store.release(job)
    later = store.submit(_two_stages, 2)
    assert later.profile is not None and later.profile[1][-1] == (1.0, 1.0)
    store.release(later)
    restarted = ResultsStore(workers=1, directory=tmp_path)
    GATES["gate"] = threading.Event()
    third = restarted.submit(_two_stages, 3)
    assert third.profile is not None  # read from disk by a new server
    GATES["gate"].set()
    restarted.release(third)


def _two_stages(x, *, progress):
    for i in range(5):
        progress(i / 10, "quick")
    for i in range(5, 10):
        progress(i / 10, "slow")
        time.sleep(0.02)
    gate = GATES.get("gate")
    if gate is not None:
        gate.wait(5)
    return x
