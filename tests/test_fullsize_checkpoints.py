"""A resumable (--full) run keeps wang2017's folds on disk as they finish: a run cut short resumes from its last
finished fold, and Table 7's runs without noise are Table 3's folds, computed once for both reproductions."""

import json

import numpy as np
import pytest

from ikviz import reproduce
from ikviz.experiments import paper_wang2017_noise as noise
from ikviz.experiments import paper_wang2017_table3 as table3

TINY = dict(columns=("IJCNN",), max_rows=60, folds=2)


@pytest.fixture
def counted(monkeypatch):
    """Table 3's fold evaluation replaced by a fast fake that counts its calls (seeded by its data and seed)."""
    calls = []
    rng = np.random.default_rng(0)
    X, y = rng.normal(size=(60, 3)), np.repeat([0, 1], 30)
    monkeypatch.setattr(table3, "load", lambda *a, **k: (X, y))
    monkeypatch.setattr(noise, "load", lambda *a, **k: (X, y))

    def fake(X, y, train, test, p, column, seed, methods=table3.METHODS, timing=True):
        calls.append((round(float(X.sum()), 6), seed))
        value = float(X[test].sum() + seed)
        return {m: {"micro": value + i, "macro": value, "train_seconds": 1.0, "feature_seconds": 0.0,
                    "chosen": {"C": 1.0, "gamma": 1.0, "grid": 1.0}} for i, m in enumerate(p.methods())}

    monkeypatch.setattr(table3, "evaluate_fold", fake)
    monkeypatch.setattr(noise, "evaluate_fold", fake)
    return calls


def test_a_second_run_reads_every_fold_back(tmp_path, counted):
    first = reproduce.reproduce("wang2017-table3", tmp_path, resume=True, **TINY)["payload"]
    assert len(counted) == 2 and len(list((tmp_path / ".blocks").glob("table3_fold-*.json"))) == 2
    (tmp_path / "wang2017-table3.json").unlink()   # the run was cut short before its last write
    again = reproduce.reproduce("wang2017-table3", tmp_path, resume=True, **TINY)["payload"]
    assert len(counted) == 2   # nothing computed again
    assert again["columns"] == first["columns"]


def test_table7_without_noise_is_table3s_folds(tmp_path, counted):
    reproduce.reproduce("wang2017-table3", tmp_path, resume=True, **TINY)
    assert len(counted) == 2
    out = reproduce.reproduce("wang2017-noise", tmp_path, resume=True, kinds=("add",), noise_repeats=1, **TINY)
    assert len(counted) == 4   # the two noisy folds only
    clean = {m: float(np.mean(v)) for m, v in out["payload"]["clean"]["IJCNN"].items()}
    # the clean scores are what noise_fold(kind="none") gives: the same protocol, split and seed
    direct = [noise.noise_fold(noise.Params(kinds=("add",), noise_repeats=1, **TINY), "none", "IJCNN", 0, f)
              for f in range(2)]
    assert clean == {m: float(np.mean([d[m] for d in direct])) for m in direct[0]}


def test_a_changed_code_or_argument_is_computed_again(tmp_path, counted, monkeypatch):
    reproduce.reproduce("wang2017-table3", tmp_path, resume=True, **TINY)
    (tmp_path / "wang2017-table3.json").unlink()
    reproduce.reproduce("wang2017-table3", tmp_path, resume=True, **{**TINY, "seed": 1})
    assert len(counted) == 4   # other params: other blocks
    path = max((tmp_path / ".blocks").glob("table3_fold-*.json"), key=lambda f: f.stat().st_mtime_ns)
    kept = json.loads(path.read_text())
    path.write_text(json.dumps({**kept, "code": "another"}))
    (tmp_path / "wang2017-table3.json").unlink()
    reproduce.reproduce("wang2017-table3", tmp_path, resume=True, **{**TINY, "seed": 1})
    assert len(counted) == 5   # the fold whose code digest differs, only


def test_quick_runs_keep_nothing(tmp_path, counted):
    reproduce.reproduce("wang2017-table3", tmp_path, quick=True, **TINY)
    assert not (tmp_path / ".blocks").exists()


def test_table2_resumes_from_each_methods_kept_search_and_precision(tmp_path, monkeypatch):
    """ting2021 Table 2 at paper size is one of the longest reproductions (1,984 s here): a run cut short keeps every
    method's search timings and precision on each finished row, and the next run computes none of them again."""
    from ikviz.experiments import indexing

    searched, scored = [], []
    search, similarity = indexing.search_times, indexing.fit_similarity
    monkeypatch.setattr(indexing, "search_times", lambda *a, **k: searched.append(1) or search(*a, **k))
    monkeypatch.setattr(indexing, "fit_similarity", lambda *a, **k: scored.append(1) or similarity(*a, **k))
    tiny = dict(rows=("Gaussians",), n_max=100, t=20)
    first = reproduce.reproduce("ting2021-table2", tmp_path, resume=True, **tiny)["payload"]
    kept = sorted(f.name.split("-")[0] for f in (tmp_path / ".blocks").glob("*.json"))
    assert kept == ["method_times"] * 4 + ["precision"] * 3   # both IK paths share one precision
    assert (len(searched), len(scored)) == (4, 3)
    (tmp_path / "ting2021-table2.json").unlink()   # cut short before its last write
    again = reproduce.reproduce("ting2021-table2", tmp_path, resume=True, **tiny)["payload"]
    assert (len(searched), len(scored)) == (4, 3)   # nothing computed again
    same = lambda payload: {k: v for k, v in payload.items() if k not in ("seconds", "fingerprint")}
    assert same(again) == same(first)
