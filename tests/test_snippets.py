"""Every view's "recompute it" snippet recomputes exactly the result its figures are drawn from.

A page draws each figure of a view from ``figures.view(run, params)`` and its
Export menu offers ``ikviz.export.python_snippet(run, params)``: executing
that snippet in a fresh namespace must give the very numbers of the view's
result, for every view of :mod:`ikviz.views` (at small settings, so that the
whole registry runs in seconds).
"""

import dataclasses
import re
from dataclasses import replace

import numpy as np
import pytest
import scipy.sparse as sp

from ikviz import export, views
from ikviz.experiments import classification, tsne

#: small settings per (page, section), so that every view computes in seconds; the rest are the defaults
SMALL = {
    ("how-ik-is-built", None): dict(psi=8, t=3),
    ("kernel-shapes", None): dict(n=500, psi=16, t=10, grid=11, psi_large=64),
    ("density", "Four quadrants"): dict(n_dense=400, n_medium=100, n_sparse=25, t=100, grid=11, cells=True),
    ("density", "Margin vs ψ"): dict(n_dense=400, n_medium=100, n_sparse=25, margin_psis=(8, 32), margin_seeds=1,
                                     margin_t=20),
    ("density", "Similarity vs density"): dict(n_dense=400, n_medium=100, n_sparse=25, t=100, n_pairs=50),
    ("density", "Real data"): dict(dataset="iris", t=100, grid=11),
    ("density", "IK ≈ Laplacian (Fig. 2)"): dict(t=100, ds=(10,), psis=(16,), n=50),
    ("density", "Sharpness (Fig. 3)"): dict(psi=16, t=100),
    ("curse-of-dimensionality", "instability"): dict(d_values=(10, 30), n_per_cluster=60, t=20, t_values=(1, 5),
                                                     t_trials=1, measures=("gk", "ik")),
    ("curse-of-dimensionality", "hubness"): dict(d1=3, d2=5, d3=10, n=200, t=20),
    ("curse-of-dimensionality", "indexing"): dict(dataset="iris", n_max=200, t=20),
    ("tsne", None): dict(w=2, n_per_cluster=30, t=20, exaggeration_iter=20, n_iter=30),
    ("classification", "SVM"): dict(tuning="fixed", n_test=1000, t=50),
    ("classification", "Online learning"): dict(dataset="german", n=2000, t=25, prefix=200, n_sets=25,
                                                 max_anchors=64),
    ("clustering", None): dict(n_per_cluster=50, t=50),
}

#: names of numbers that are runtimes, or follow from them: measured again by a snippet, never equal
RUNTIME = re.compile(r"(seconds|_s|tree_over_brute|speedup|index_faster|ratios)$")

#: views a page computes on request beside its registered ones: (run, small params)
ON_REQUEST = [
    (tsne.run_search, tsne.Params(w=2, n_per_cluster=30, t=20, exaggeration_iter=20, n_iter=30)),
    (classification.paired_runs, classification.PairedParams(classification.Params(tuning="fixed", n_test=1000, t=50),
                                                             n_seeds=2)),
]


#: views whose small settings still take minutes (a t-SNE view of real data, computed twice): run with -m slow
SLOW = {("density", "Real data")}


def _registered():
    return [(path, view.key) for path in views.PAGES for view in views.page(path).views]


def _cases():
    return [pytest.param(*case, marks=pytest.mark.slow) if case in SLOW else case for case in _registered()]


def assert_same(a, b, where="result"):
    """``a`` and ``b`` hold the same numbers, exactly (arrays, sparse matrices, dicts, lists, dataclasses)."""
    if dataclasses.is_dataclass(a) and not isinstance(a, type):
        assert type(a) is type(b), where
        for f in dataclasses.fields(a):
            if f.name.endswith("seconds") or f.name in ("timings", "times"):
                continue  # how long it took is no number of the figure's
            assert_same(getattr(a, f.name), getattr(b, f.name), f"{where}.{f.name}")
    elif isinstance(a, dict):
        assert a.keys() == b.keys(), where
        for k in a:
            if isinstance(k, str) and RUNTIME.search(k):
                continue  # a runtime or a ratio of runtimes (indexing's brute_s): measured anew, not recomputed
            assert_same(a[k], b[k], f"{where}[{k!r}]")
    elif isinstance(a, (list, tuple)):
        assert len(a) == len(b), where
        for i, (x, y) in enumerate(zip(a, b)):
            assert_same(x, y, f"{where}[{i}]")
    elif sp.issparse(a):
        assert (a != b).nnz == 0, where
    elif isinstance(a, (np.ndarray, np.generic, float, int)):
        np.testing.assert_array_equal(a, b, err_msg=where)
    else:
        assert type(a) is type(b), where


def _recomputed(run, params):
    code = export.python_snippet(run, params)
    namespace = {}
    exec(compile(code, "<snippet>", "exec"), namespace)  # a fresh namespace, as a user's script
    return namespace["result"]


def test_every_registered_view_has_small_settings_here():
    assert set(_registered()) == set(SMALL), "add the new view's small settings to SMALL"


@pytest.mark.parametrize("path,key", _cases())
def test_the_snippet_of_every_registered_view_recomputes_its_result_exactly(path, key):
    view = views.view_of(path, key)
    params = view.params(**SMALL[path, key])
    assert_same(_recomputed(view.run, params), view.run(params))


@pytest.mark.parametrize("run,params", ON_REQUEST)
def test_the_snippet_of_a_view_computed_on_request_recomputes_it_exactly(run, params):
    assert_same(_recomputed(run, params), run(params))


def test_a_snippet_of_other_settings_gives_other_numbers():
    """The comparison can fail: the snippet of another seed does not recompute this result."""
    view = views.view_of("kernel-shapes")
    params = view.params(**SMALL["kernel-shapes", None])
    with pytest.raises(AssertionError):
        assert_same(_recomputed(view.run, replace(params, seed=1)), view.run(params))
