"""ResultsStore.offload: work nobody waits for runs in a low-priority child process, into the same disk store."""

import os

import pytest

from ikviz.store import ResultsStore


def where(x):
    """Which process computed it, at which priority (a module-level block the child imports by name)."""
    return os.getpid(), os.getpriority(os.PRIO_PROCESS, 0), x


def group(x):
    """The child's session and, on Linux, its scheduling group's line (``/autogroup-N nice K``)."""
    try:
        with open("/proc/self/autogroup") as f:
            line = f.read().strip()
    except OSError:
        line = None
    return os.getsid(0), line, x


def fails(x):
    raise ValueError(f"bad {x}")


def test_offload_computes_in_a_low_priority_child_and_the_store_reads_it_back(tmp_path):
    store = ResultsStore(workers=1, directory=tmp_path)
    task = store.offload(where, 3)
    assert store.offload(where, 3) is task   # single flight: the same call is one task
    assert task.wait(120), "the child did not finish"
    pid, nice, x = task.result()
    assert pid != os.getpid() and x == 3
    assert nice >= min(19, os.getpriority(os.PRIO_PROCESS, 0) + 10)   # the lowest priority (19 unless capped)
    assert task.fraction == 1.0
    assert store.peek(where, 3) == (True, (pid, nice, 3))   # written into the shared disk cache


def _autogroups_settable() -> bool:
    """Whether a process of a new session may lower its group's priority here (a container may forbid it)."""
    import subprocess
    import sys

    if not os.path.exists("/proc/self/autogroup"):
        return False
    code = "open('/proc/self/autogroup', 'w').write('19'); print(open('/proc/self/autogroup').read())"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, start_new_session=True)
    return done.returncode == 0 and "nice 19" in done.stdout


@pytest.mark.skipif(not _autogroups_settable(), reason="Linux autogroups that a process may set only")
def test_offload_child_is_a_scheduling_group_of_its_own_at_the_lowest_priority(tmp_path):
    """nice 19 inside the server's group ranked the child below the server's threads only: the group as a whole
    still got a full share against the browsers' groups on the same machine."""
    task = ResultsStore(workers=1, directory=tmp_path).offload(group, 1)
    assert task.wait(120), "the child did not finish"
    session, line, _ = task.result()
    assert session != os.getsid(0)
    with open("/proc/self/autogroup") as f:
        mine = f.read().split()   # empty in the root group (a process of init's session, as in CI's container)
    assert line and line.split()[0] not in mine[:1] and line.endswith("nice 19"), line


def test_offload_raises_the_childs_error_and_runs_a_failed_call_again(tmp_path):
    store = ResultsStore(workers=1, directory=tmp_path)
    task = store.offload(fails, 1)
    assert task.wait(120)
    with pytest.raises(ValueError, match="bad 1"):
        task.result()
    assert store.offload(fails, 1) is not task   # a failure is not kept


def test_offload_without_a_folder_is_a_kept_job_of_this_process():
    store = ResultsStore(workers=1)
    task = store.offload(where, 4)
    assert task.wait(30) and task.result()[0] == os.getpid()
