"""wang2017 Tables 3 and 7 at the paper's size: the faster path (searches side by side, a larger LIBSVM kernel
cache) gives the numbers of the old one (one process, LIBSVM's 200 MB cache), on small data."""

import numpy as np
import pytest

from ikviz.data import load
from ikviz.experiments import paper_wang2017_table3 as table3

SMALL = dict(inner_folds=3, tune_rows=120, n_sets=20, bandwidths=(0.01, 1.0, 10.0), rbf_cs=(1.0, 10.0),
             linear_cs=(0.1, 1.0))


def _fold(monkeypatch, *, parallel: bool, cache_mb: int) -> dict:
    monkeypatch.setattr(table3, "PARALLEL_ROWS", 1 if parallel else 10**9)
    monkeypatch.setattr(table3, "SVC_CACHE_MB", cache_mb)
    X, y = load("iris", scale="minmax")
    out = table3.evaluate_fold(X, y, np.arange(0, 150, 2), np.arange(1, 150, 2), table3.Params(**SMALL), "IJCNN", 0)
    return {m: {k: v[k] for k in ("micro", "macro", "chosen")} for m, v in out.items()}


def test_the_fast_path_gives_the_old_numbers(monkeypatch):
    old = _fold(monkeypatch, parallel=False, cache_mb=200)
    new = _fold(monkeypatch, parallel=True, cache_mb=table3.SVC_CACHE_MB)
    assert old == new
    assert set(old) == {"RAW", "RBF Kernel (h)", "RBF Kernel (γ)", "RandLocal"}


def test_searches_run_side_by_side_only_at_the_papers_size(monkeypatch):
    from sklearn import model_selection
    from sklearn.svm import SVC

    seen = []

    class Spy(model_selection.GridSearchCV):
        def fit(self, X, y=None, **kw):
            seen.append(self.n_jobs)
            return super().fit(X, y, **kw)

    monkeypatch.setattr(model_selection, "GridSearchCV", Spy)
    X, y = load("iris", scale="minmax")
    table3._search(SVC(kernel="rbf"), {"C": [1.0, 10.0]}, X, y, np.arange(150), 3, 0)
    assert seen == [None]   # 150 rows: in this process
    monkeypatch.setattr(table3, "PARALLEL_ROWS", 100)
    table3._search(SVC(kernel="rbf"), {"C": [1.0, 10.0]}, X, y, np.arange(150), 3, 0)
    assert seen == [None, table3.SEARCH_JOBS]


def test_the_papers_size_uses_a_kernel_cache_that_holds_an_ijcnn_fold():
    # 40,000 training rows of 4-byte kernel values per column: the default 200 MB holds ~1,250 columns
    assert table3.SVC_CACHE_MB * 2**20 / (40_000 * 4) > 10_000
    assert table3.SEARCH_JOBS >= 2 and table3.PARALLEL_ROWS <= table3.Params().tune_rows


@pytest.mark.slow   # reads ijcnn1's bz2 file (49,990 rows)
@pytest.mark.parametrize("kind", ["none", "add"])
def test_a_noise_fold_is_the_same_with_the_fast_path(monkeypatch, kind):
    from ikviz.experiments import paper_wang2017_noise as noise

    p = noise.Params(columns=("IJCNN",), max_rows=300, folds=2, noise_repeats=1, **SMALL)
    monkeypatch.setattr(table3, "PARALLEL_ROWS", 10**9)
    monkeypatch.setattr(table3, "SVC_CACHE_MB", 200)
    old = noise.noise_fold(p, kind, "IJCNN", 0, 0)
    monkeypatch.setattr(table3, "PARALLEL_ROWS", 1)
    monkeypatch.setattr(table3, "SVC_CACHE_MB", 2000)
    assert noise.noise_fold(p, kind, "IJCNN", 0, 0) == old
