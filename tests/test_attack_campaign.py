"""Issue 31's standing attack (benchmarks/attack.py): its crafted files, garbage links and the campaign's own
bookkeeping, small enough for the default suite. The full campaign (``python benchmarks/attack.py``) adds
the fuzz recipes of every public name, the largest files under 10 MB and the Dask faults."""

import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

import attack  # noqa: E402

HEAVY = {"bomb.xlsx", "rows300m.parquet", "longline.csv"}   # covered, with patched limits, in test_your_data_files
CRAFTED = [c for c in attack._crafted(np, pd) if c[0] not in HEAVY]


@pytest.mark.parametrize("name, raw, expect, extra", CRAFTED, ids=[c[0] for c in CRAFTED])
def test_a_crafted_file_is_read_or_refused_in_one_clear_line(name, raw, expect, extra, tmp_path):
    path = tmp_path / name
    path.write_bytes(raw)
    kind, text = attack._check_case(path, expect, extra, name)
    assert kind == "clear", f"ikviz check {name}: {kind}: {text}"
    kind, text = attack._upload_case(raw, name, expect)
    assert kind == "clear", f"upload {name}: {kind}: {text}"


@pytest.mark.parametrize("raw", ["x" * 4996 + ".csv", "a\0b.csv"])
def test_a_path_that_cannot_be_is_refused_in_one_line(raw):
    assert attack._check_case(Path(raw), "refuse", ())[0] == "clear"


def _views():
    from ikviz.views import PAGES, page

    seen = []
    for path in PAGES:
        for view in page(path).views:
            if view.params not in seen:
                seen.append(view.params)
    return seen


@pytest.mark.parametrize("cls", _views(), ids=lambda c: f"{c.__module__.rsplit('.', 1)[-1]}.{c.__name__}")
def test_garbage_links_give_values_the_controls_can_hold(cls):
    from ikviz.params import settings

    problems = []
    for spec in settings(cls):
        for raw in attack.GARBAGE:
            kind, text = attack._link_case(cls, spec.name, raw)
            if kind != "clear":
                problems.append(f"{spec.url}={raw[:20]!r}: {kind}: {text}")
    assert not problems, "\n".join(problems[:20])


# ------------------------------------------------------------------ the campaign's bookkeeping
def _fake_cases(opts):
    import os

    def hang():
        time.sleep(60)

    def die():
        os._exit(3)

    return [("fine", lambda: ("clear", "")), ("accepts", lambda: ("wrong", "accepted")),
            ("raises", lambda: 1 / 0), ("hangs", hang), ("dies", die),
            ("big", lambda: (np.ones(200 * 1024**2 // 8), ("clear", ""))[1]), ("after", lambda: ("clear", ""))]


def test_the_campaign_counts_each_outcome_and_survives_hangs_and_crashes(monkeypatch):
    monkeypatch.setitem(attack.SURFACES, "fake", _fake_cases)
    opts = type("Opts", (), {"timeout": 8.0, "verbose": False})()
    start = time.time()
    rows = attack.run_surface("fake", opts)
    assert time.time() - start < 60
    kinds = {name: kind for name, kind, *_ in rows}
    assert kinds == {"fine": "clear", "accepts": "wrong", "raises": "crash", "hangs": "hang", "dies": "crash",
                     "big": "clear", "after": "clear"}
    peaks = {name: peak for name, _, _, _, peak in rows}
    assert peaks["big"] > peaks["fine"] + 150 * 1024            # the case's own peak, reset before each case
    # bounds relative to the cases' own peaks: a child forked from a big process starts with its parent's pages
    table = attack.table({"fake": rows}, bound_kb=max(peaks.values()) + 1024)
    assert "| fake | 7 | 3 | 1 | 2 | 1 | 0 |" in table
    table = attack.table({"fake": rows}, bound_kb=peaks["fine"] + 100 * 1024)
    assert "| fake | 7 | 2 | 1 | 2 | 1 | 1 |" in table           # "big" is over that bound
