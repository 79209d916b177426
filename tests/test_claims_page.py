"""The Claims page on a store with a folder: every row at once, its checks in a low-priority process of their own."""

import os
import sys
import time
from pathlib import Path

from apptest import open_page
from ikviz import claims
from ikviz.store import ResultsStore

APP = Path(__file__).resolve().parents[1] / "app"


def child_check(name, quick=True, *, progress=None):
    """Stand-in rows saying which process computed them (a module-level block the child imports by name)."""
    return [claims.Row(c.key, c.paper, c.where, c.statement, c.paper_number, f"pid {os.getpid()}", 0.5, "holds",
                       c.condition, c.page, name, quick) for c in claims.claims(name)]


def test_claims_page_draws_at_once_and_checks_in_another_process(monkeypatch, tmp_path):
    sys.path.insert(0, str(APP))
    import store

    shared = ResultsStore(workers=1, directory=tmp_path)   # a server's store with its folder (tests: memory only)
    monkeypatch.setattr(store, "_STORE", shared)
    monkeypatch.setattr(claims, "check_reproduction", child_check)
    at = open_page("claims")
    [table] = at.dataframe
    assert len(table.value) == len(claims.CLAIMS)   # every row at once ...
    assert "computing…" in set(table.value["verdict"])   # ... the checks not waited for
    assert shared.computed == 0, "a check ran in the server's process"
    deadline = time.monotonic() + 300   # a spawned child imports ikviz: seconds, more under load
    while not all(shared.peek(child_check, n, True)[0] for n in claims.reproductions()):
        assert time.monotonic() < deadline, "the checks did not land in the store's folder"
        time.sleep(0.2)
    at.run()
    [table] = at.dataframe
    assert "computing…" not in set(table.value["verdict"])
    computed_by = {v for v in table.value["ikviz"] if v.startswith("pid ")}
    assert computed_by and f"pid {os.getpid()}" not in computed_by
