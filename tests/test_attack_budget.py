"""Issue 31: ``ikviz check`` within a stated budget (wide data in the rows' own span, reductions said), the
Isolation Kernel's centres bounded before a fit (the t-SNE page's link case), and .xlsx sheets read by calamine."""

from __future__ import annotations

import io
import resource
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from ikviz.experiments import your_data as exp
from ikviz.measures.similarities import gaussian_gamma


def _wide_csv(n=60, d=400, seed=0) -> bytes:
    rng = np.random.default_rng(seed)
    X = rng.random((n, d)).round(3)
    head = ",".join(f"c{j}" for j in range(d)) + ",label\n"
    return (head + "".join(",".join(map(str, row)) + f",{'ab'[i % 2]}\n" for i, row in enumerate(X))).encode()


def _params(raw, name="wide.csv", **kw) -> exp.CheckParams:
    return exp.CheckParams(exp.upload_data(exp.FileBytes(raw, name), label="label"),
                           **{"max_rows": 500, "psi": 8, "t": 30, **kw})


def test_span_keeps_every_distance_and_identical_rows():
    rng = np.random.default_rng(1)
    X = rng.random((30, 200))
    X[7] = X[3]                                             # a duplicate row
    Z, rotated = exp.span_coordinates(X)
    assert rotated and Z.shape == (30, 29)                  # rank 29: the duplicate adds no dimension
    np.testing.assert_allclose(Z @ Z.T, X @ X.T, atol=1e-10)
    assert np.array_equal(Z[7], Z[3])                       # exact ties stay exact
    low = rng.random((50, 3)) @ rng.random((3, 40))         # rank 3, fewer columns than rows
    assert exp.span_coordinates(low)[0].shape == (50, 3)
    full = rng.random((50, 10))
    same, rotated = exp.span_coordinates(full)
    assert not rotated and np.array_equal(same, full)      # full rank: the columns as they are


def test_checks_on_the_span_equal_the_checks_on_the_columns():
    X = np.random.default_rng(2).random((60, 500))
    Z, _ = exp.span_coordinates(X)
    a = exp.neighbour_check(X, psi=8, t=50, seed=0)
    b = exp.neighbour_check(Z, psi=8, t=50, seed=0, gamma=gaussian_gamma(X))
    np.testing.assert_array_equal(a["n_eps"]["ik"], b["n_eps"]["ik"])
    np.testing.assert_array_equal(a["n_eps"]["gk"], b["n_eps"]["gk"])
    assert a["skewness"] == pytest.approx(b["skewness"])


def test_wide_upload_is_checked_in_its_span_and_says_so():
    p = _params(_wide_csv())
    rows = exp.svm_check_run(p)
    b = rows[0]["budget"]
    assert (b["features"], b["of_features"], b["reduced"]) == (60, 400, [])
    from ikviz.plots.your_data import check_parts

    text = " ".join(check_parts("svm", rows)["text"])
    assert "own 60-dimensional span instead of their 400 features: exact" in text
    assert rows[0]["n_folds"] == 5


def test_over_budget_reduces_folds_grid_and_features_and_says_why(monkeypatch):
    monkeypatch.setattr(exp, "WORK_BUDGET", 2e6)
    p = _params(_wide_csv(n=80, d=50, seed=3), psi=32)
    rows = exp.svm_check_run(p)
    assert rows[0]["n_folds"] == 3
    ik = next(r for r in rows if r["kernel"] == "ik")
    assert [t["params"]["psi"] for t in ik["tried"]] == [32]         # the grid down to the chosen ψ
    b = rows[0]["budget"]
    assert b["features"] == exp.MIN_FEATURES and b["of_features"] == 50    # not below the floor, however small
    text = exp.budget_text(b)
    assert text.startswith("Reduced to stay within the check's time budget")
    assert "3-fold instead of 5-fold" in text and "ψ = 8 left out" in text and "principal directions" in text
    res = exp.tsne_check_run(_params(_wide_csv(n=80, d=50, seed=3), psi=32))
    assert res["budget"]["reduced"] and res["coords"]["ik"].shape == (80, 2)


def test_ik_centres_bounded_before_the_fit():
    from ikviz._limits import check_ik_centres
    from ikviz.experiments.tsne import affinities

    check_ik_centres(100, 200, 10_000, 1_000)
    X = np.zeros((700, 400))
    start = time.process_time()
    with pytest.raises(ValueError, match=r"ψ = 350 and t = 500 .* over the limit of 512.0 MB\. Choose ψ at most"):
        affinities("ik", X, psi=800, t=500)
    assert time.process_time() - start < 2.0                # refused before anything was fitted


def test_xlsx_read_by_calamine_as_openpyxl_reads_it():
    pytest.importorskip("python_calamine")
    import datetime as dt

    from openpyxl import Workbook

    from ikviz.data import _parse

    book = Workbook()
    sheet = book.active
    sheet.append(["when", "v", "label", "txt"])
    for i in range(30):
        sheet.append([dt.datetime(2024, 1, 1 + i % 28), i * 0.5 if i % 7 else None, "xy"[i % 2],
                      "NA" if i % 5 == 0 else f"{i},5"])
    out = io.BytesIO()
    book.save(out)
    raw = out.getvalue()
    assert _parse.xlsx_engine() == "calamine"
    fast = _parse.parse_xlsx(raw, "fp", [], None, "a.xlsx")
    original = _parse.xlsx_engine
    try:
        _parse.xlsx_engine = lambda: "openpyxl"
        slow = _parse.parse_xlsx(raw, "fp", [], None, "a.xlsx")
    finally:
        _parse.xlsx_engine = original
    assert fast.frame.equals(slow.frame) and fast.notes == slow.notes


@pytest.mark.slow
def test_widest_file_under_10_mb_checked_within_45_cpu_seconds(tmp_path):
    """The attack's wide.csv (8.9 MB, 10,000 columns x 440 rows): 205 s of CPU before, ~22 s after (under load)."""
    head = ",".join(f"c{j}" for j in range(9_999)) + ",label\n"
    path = tmp_path / "wide.csv"
    path.write_bytes((head + "".join(",".join(str((i * j) % 10) for j in range(9_999)) + f",{'ab'[i % 2]}\n"
                                     for i in range(440))).encode())
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run([sys.executable, "-m", "ikviz.cli", "check", str(path), "--out", str(tmp_path / "r.html")],
                          capture_output=True, text=True, cwd=Path(__file__).resolve().parents[1])
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    assert done.returncode == 0, done.stderr[-500:]
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    assert cpu < 45, cpu
    assert "span instead of their 9,999 features" in (tmp_path / "r.html").read_text()


def test_attack_campaign_can_bound_cpu_seconds():
    """``benchmarks/attack.py --cpu``: a case's time is its process's CPU seconds (others load the machine)."""
    import importlib.util
    import os

    path = Path(__file__).resolve().parents[1] / "benchmarks" / "attack.py"
    spec = importlib.util.spec_from_file_location("attack_under_test", path)
    attack = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(attack)
    before = attack._cpu_seconds(os.getpid())
    end = time.process_time() + 0.3
    while time.process_time() < end:
        pass
    assert attack._cpu_seconds(os.getpid()) - before >= 0.2
    assert attack._cpu_seconds(2**31 - 1) == 0.0          # no such process
