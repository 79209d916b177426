"""wang2017 Tables 3 and 7 at the paper's size: the faster path (searches side by side, a larger LIBSVM kernel
cache, the RBF search on one kernel per γ) gives the numbers of the old one (one process, LIBSVM's 200 MB cache,
GridSearchCV over SVC(kernel="rbf")), on small data."""

import numpy as np
import pytest

from ikviz.data import load
from ikviz.experiments import paper_wang2017_table3 as table3
from ikviz.learn import svm_search

SMALL = dict(inner_folds=3, tune_rows=120, n_sets=20, bandwidths=(0.01, 1.0, 10.0), rbf_cs=(1.0, 10.0),
             linear_cs=(0.1, 1.0))


def _fold(monkeypatch, *, parallel: bool, cache_mb: int, one_kernel: bool = True) -> dict:
    monkeypatch.setattr(table3, "PARALLEL_ROWS", 1 if parallel else 10**9)
    monkeypatch.setattr(table3, "SVC_CACHE_MB", cache_mb)
    monkeypatch.setattr(svm_search, "MAX_ROWS", 5_000 if one_kernel else 0)
    X, y = load("iris", scale="minmax")
    out = table3.evaluate_fold(X, y, np.arange(0, 150, 2), np.arange(1, 150, 2), table3.Params(**SMALL), "IJCNN", 0)
    return {m: {k: v[k] for k in ("micro", "macro", "chosen")} for m, v in out.items()}


def test_the_fast_path_gives_the_old_numbers(monkeypatch):
    old = _fold(monkeypatch, parallel=False, cache_mb=200, one_kernel=False)
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
    monkeypatch.setattr(svm_search, "MAX_ROWS", 0)
    old = noise.noise_fold(p, kind, "IJCNN", 0, 0)
    monkeypatch.setattr(svm_search, "MAX_ROWS", 5_000)
    monkeypatch.setattr(table3, "PARALLEL_ROWS", 1)
    monkeypatch.setattr(table3, "SVC_CACHE_MB", 2000)
    assert noise.noise_fold(p, kind, "IJCNN", 0, 0) == old


def _digits(n=300):
    from sklearn.datasets import load_digits

    X, y = load_digits(return_X_y=True)
    return X[:n] / 16.0, y[:n]


def test_one_kernel_per_gamma_gives_gridsearchcvs_scores_at_every_point():
    from sklearn.model_selection import GridSearchCV, StratifiedKFold
    from sklearn.svm import SVC

    X, y = _digits()
    # the paper's grid under both readings on [0, 1] data: from a kernel of ones to the identity
    gammas = sorted({table3.rbf_gamma(r, v) for r in table3.READINGS for v in table3.BANDWIDTHS})
    cs = [1.0, 10.0, 100.0]
    cv = StratifiedKFold(4, shuffle=True, random_state=3)
    search = GridSearchCV(SVC(kernel="rbf"), {"C": cs, "gamma": gammas}, cv=cv).fit(X, y)
    ours = svm_search.rbf_cv_scores(X, y, cs, gammas, cv, n_jobs=2)
    theirs = {(p["C"], p["gamma"]): s for p, s in zip(search.cv_results_["params"],
                                                      search.cv_results_["mean_test_score"])}
    assert set(ours) == set(theirs)
    assert max(abs(ours[k] - theirs[k]) for k in theirs) < 1e-12
    assert len({round(s, 6) for s in theirs.values()}) > 3   # the grid's points differ: the comparison can fail
    assert svm_search.rbf_cv_scores(X, y, cs, gammas, list(cv.split(X, y))) == ours   # splits as a list, 1 thread


def test_rbf_choices_are_the_same_on_either_search(monkeypatch):
    X, y = _digits()
    p = table3.Params(inner_folds=3, rbf_cs=(1.0, 100.0))
    rows = np.arange(0, 300, 2)
    new = table3.rbf_choices(X, y, rows, p, 0)
    monkeypatch.setattr(svm_search, "MAX_ROWS", 0)   # over the bound: GridSearchCV with LIBSVM's own kernel
    assert table3.rbf_choices(X, y, rows, p, 0) == new
    assert new["h"]["gamma"] != new["gamma"]["gamma"]


@pytest.mark.parametrize("kw, match", [
    (dict(cs=[]), "cs must be a non-empty list of positive numbers"),
    (dict(gammas=[0.1, -1.0]), r"gammas must be .* got \[0.1, -1.0\]"),
    (dict(gammas=[float("nan")]), "gammas must be"),
    (dict(y=np.zeros(5)), r"one label per row of X \(30\)"),
])
def test_the_search_refuses_bad_input(kw, match):
    X, y = _digits(30)
    args = {**dict(X=X, y=y, cs=[1.0], gammas=[0.1], cv=[(np.arange(15), np.arange(15, 30))]), **kw}
    with pytest.raises(ValueError, match=match):
        svm_search.rbf_cv_scores(**args)


def test_the_search_refuses_more_rows_than_its_kernel_matrix_may_hold(monkeypatch):
    monkeypatch.setattr(svm_search, "MAX_ROWS", 20)
    X, y = _digits(30)
    with pytest.raises(ValueError, match="X has 30 rows; .* takes at most 20"):
        svm_search.rbf_cv_scores(X, y, [1.0], [0.1], [(np.arange(15), np.arange(15, 30))])
