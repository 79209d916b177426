"""``ikviz reproduce claims --full`` resumes: a finished reproduction is read back while its params and code match.

A tiny reproduction defined in a module written to a temporary folder stands
in for the papers' (its run counts its calls), so the tests take a second and
can edit the code the fingerprint reads.
"""

import dataclasses
import importlib
import json
import sys

import pytest

from ikviz import claims, reproduce
from ikviz.store import fingerprint as code_fingerprint

MODULE = '''
from dataclasses import dataclass

CALLS = []


@dataclass(frozen=True)
class Params:
    n: int = 5


def run(params, *, memo=None, progress=None):
    CALLS.append(params)
    return {"total": params.n * {factor}}


def numbers(result):
    return {"total": result["total"]}
'''


@pytest.fixture
def fake(tmp_path, monkeypatch):
    """A registered reproduction "fake" whose code lives in tmp_path/fake_repro.py; returns a (re)loader."""
    code = tmp_path / "code"
    code.mkdir()
    monkeypatch.syspath_prepend(str(code))

    def load(factor=2, paper=None):
        (code / "fake_repro.py").write_text(MODULE.replace("{factor}", str(factor)))
        sys.modules.pop("fake_repro", None)
        importlib.invalidate_caches()
        code_fingerprint.clear()
        module = importlib.import_module("fake_repro")
        entry = reproduce.Entry("fake", "nowhere Fig. 0", "a test double", module.Params, module.run,
                                lambda result: [], module.numbers, quick={"n": 1}, paper=paper or {})
        real_get, real_names = reproduce.get, reproduce.names
        monkeypatch.setattr(reproduce, "get", lambda name: entry if name == "fake" else real_get(name))
        monkeypatch.setattr(reproduce, "names", lambda: [*real_names(), "fake"])
        return module

    yield load
    sys.modules.pop("fake_repro", None)
    code_fingerprint.clear()


def test_a_second_full_run_recomputes_nothing(tmp_path, fake):
    module = fake()
    out = tmp_path / "out"
    lines = []
    claims.reproduce_all(out, echo=lines.append, names=["fake"])
    claims.reproduce_all(out, echo=lines.append, names=["fake"])
    assert len(module.CALLS) == 1
    assert json.loads((out / "fake.json").read_text())["total"] == 10
    assert lines[0] == "[1/1] fake: running at full size" and "read back" in lines[3]
    assert not list(out.glob(".*.tmp"))   # written through a temporary file, renamed


def test_a_changed_param_or_code_recomputes(tmp_path, fake):
    module = fake()
    out = tmp_path / "out"
    claims.reproduce_all(out, echo=lambda line: None, names=["fake"])
    module = fake(paper={"n": 7})                         # the paper's size changed
    claims.reproduce_all(out, echo=lambda line: None, names=["fake"])
    assert len(module.CALLS) == 1 and json.loads((out / "fake.json").read_text())["total"] == 14
    module = fake(factor=3, paper={"n": 7})               # the code changed, the params did not
    claims.reproduce_all(out, echo=lambda line: None, names=["fake"])
    assert len(module.CALLS) == 1 and json.loads((out / "fake.json").read_text())["total"] == 21


def test_a_quick_or_cut_short_or_unfingerprinted_result_is_not_read_back(tmp_path, fake):
    module = fake()
    out = tmp_path / "out"
    reproduce.reproduce("fake", out, quick=True)
    assert reproduce.stored("fake", out) is None            # quick numbers never stand for full ones
    assert reproduce.stored("fake", out, quick=True)["total"] == 2
    text = (out / "fake.json").read_text()
    (out / "fake.json").write_text(text[: len(text) // 2])   # a file cut short
    assert reproduce.stored("fake", out, quick=True) is None
    numbers = json.loads(text)
    del numbers["fingerprint"]                               # written before fingerprints: rerun
    (out / "fake.json").write_text(json.dumps(numbers))
    assert reproduce.stored("fake", out, quick=True) is None
    assert len(module.CALLS) == 1


calls = []


def quick_check(name, quick, progress=None):
    calls.append(name)
    return []


def test_the_claims_run_takes_full_size_rows_where_they_exist(tmp_path, monkeypatch):
    out = tmp_path / "full"
    entry = reproduce.get("hubness")
    small = {"n": 200, "d_values": (3, 100)}
    monkeypatch.setattr(reproduce, "get", lambda name, real=reproduce.get: dataclasses.replace(
        real(name), paper=small) if name == "hubness" else real(name))
    reproduce.reproduce("hubness", out)
    calls.clear()
    monkeypatch.setattr(claims, "check_reproduction", quick_check)
    result = claims.run(claims.Params(papers=("ting2021",), full_dir=str(out)))
    assert "hubness" not in calls and calls                  # read back; the other reproductions ran (quick)
    [row] = [r for r in result.rows if r.reproduction == "hubness"]
    assert row.size == "full" and row.params["n"] == 200
    assert entry.paper != small


def test_the_claims_page_reads_the_checkouts_paper_size_results_unless_told_otherwise(tmp_path, monkeypatch):
    kept, named = tmp_path / "paper-size", tmp_path / "named"
    monkeypatch.setattr(reproduce, "get", lambda name, real=reproduce.get: dataclasses.replace(
        real(name), paper={"n": 200, "d_values": (3, 100)}) if name == "hubness" else real(name))
    reproduce.reproduce("hubness", kept)
    monkeypatch.setattr(claims, "KEPT_RESULTS", kept)
    monkeypatch.delenv(claims.FULL_RESULTS, raising=False)
    assert claims.full_results_dir() == str(kept)
    [row] = claims.stored_rows("hubness")
    assert row.size == "full" and row.params["n"] == 200
    monkeypatch.setenv(claims.FULL_RESULTS, str(named))       # a folder named: only it is read
    assert claims.full_results_dir() == str(named) and claims.stored_rows("hubness") is None
    monkeypatch.setenv(claims.FULL_RESULTS, "")               # empty: none is read
    assert claims.full_results_dir() is None and claims.stored_rows("hubness") is None
    monkeypatch.delenv(claims.FULL_RESULTS)
    monkeypatch.setattr(claims, "KEPT_RESULTS", tmp_path / "absent")   # an installed package: no such folder
    assert claims.full_results_dir() is None
    assert claims.full_results_dir(named) == str(named)


def test_unknown_names_and_bad_flags_are_refused(tmp_path, capsys):
    from ikviz.cli import main

    with pytest.raises(ValueError, match="unknown reproduction"):
        claims.reproduce_all(tmp_path, names=["nope"])
    assert main(["reproduce", "claims", "--quick", "--full", "--out", str(tmp_path)]) == 2
    assert "not both" in capsys.readouterr().err
    assert main(["reproduce", "claims", "--workers", "0", "--out", str(tmp_path)]) == 2


@pytest.mark.slow
def test_side_by_side_on_a_dask_cluster_writes_the_same_numbers(tmp_path):
    """``--workers 2``: each pending reproduction a task of a local Dask cluster; a second run reads them back."""
    lines = []
    claims.reproduce_all(tmp_path, quick=True, echo=lines.append, names=["hubness", "kernel-shapes"], workers=2)
    assert any("side by side on a Dask cluster" in line for line in lines)
    here = reproduce.payload("hubness", quick=True)
    there = json.loads((tmp_path / "hubness.json").read_text())
    assert there["skewness"] == reproduce.to_jsonable(here["skewness"]) and there["fingerprint"]
    lines.clear()
    claims.reproduce_all(tmp_path, echo=lines.append, names=["hubness"], workers=2)   # full size: not stored yet
    assert not any("read back" in line for line in lines)
