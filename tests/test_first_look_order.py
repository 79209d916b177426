"""A requested view goes before work nobody waits for (issue 32 item 4: no empty wait on a new server).

The Claims page asks for every reproduction's check and leaves them to run on (kept jobs); a page left before
its full view was done leaves that view computing too. Both were queued ahead of the next page's view, which
then waited for all of them (7 minutes in ``benchmarks/app_rerun.py --tours`` after the Claims page).
"""

import threading
import time

from ikviz.store import ResultsStore

STARTED: list[str] = []
GATE = threading.Event()


def step(name: str) -> str:
    STARTED.append(name)
    if name == "busy":
        GATE.wait(10)
    return name


def test_a_requested_view_goes_before_kept_work_nobody_waits_for():
    STARTED.clear()
    GATE.clear()
    store = ResultsStore(workers=1)
    busy = store.submit(step, "busy")
    deadline = time.monotonic() + 10
    while "busy" not in STARTED:  # the worker is taken
        assert time.monotonic() < deadline
        time.sleep(0.01)
    try:
        kept = []
        for i in range(3):  # as the Claims page asks: prepared, asked for once, released
            job = store.prepare(step, f"check {i}")
            store.release(store.submit(step, f"check {i}"))
            kept.append(job)
        view = store.submit(step, "view")  # a viewer opens a page meanwhile
        assert store.position(view) == 1 and store.position(kept[0]) == 1
    finally:
        GATE.set()
    assert view.wait(10) and all(j.wait(10) for j in kept)
    assert STARTED[:2] == ["busy", "view"], STARTED
    assert STARTED[2:] == ["check 0", "check 1", "check 2"]  # the kept work in its order, after
    store.release(busy)
    store.release(view)


HELD = threading.Event()


def kept_step(name: str) -> str:
    STARTED.append(name)
    HELD.wait(10)
    return name


def test_kept_work_nobody_waits_for_leaves_a_worker_free_for_the_next_viewer():
    """The Claims page's checks run on, but on all but one worker: a view asked for meanwhile starts at once
    (it waited 64 s for a running check in app_rerun after the Claims page when they held both workers)."""
    STARTED.clear()
    HELD.clear()
    store = ResultsStore(workers=2)
    try:
        kept = []
        for i in range(3):
            job = store.prepare(kept_step, f"check {i}")
            store.release(store.submit(kept_step, f"check {i}"))
            kept.append(job)
        deadline = time.monotonic() + 10
        while not STARTED:
            assert time.monotonic() < deadline
            time.sleep(0.01)
        time.sleep(0.3)
        assert STARTED == ["check 0"]  # one worker runs kept work, the other stays free
        view = store.submit(step, "view")
        assert view.wait(5) and view.result() == "view"  # at once, while the check still runs
        joined = store.submit(kept_step, "check 2")  # a viewer waits for a queued check: it runs now
        deadline = time.monotonic() + 5
        while "check 2" not in STARTED:
            assert time.monotonic() < deadline, STARTED
            time.sleep(0.01)
    finally:
        HELD.set()
    assert all(j.wait(10) for j in kept) and joined.wait(10)
    assert sorted(STARTED) == ["check 0", "check 1", "check 2", "view"]
    store.release(view)
    store.release(joined)
