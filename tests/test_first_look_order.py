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
