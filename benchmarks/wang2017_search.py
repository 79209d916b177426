"""wang2017's RBF search, one kernel per γ against LIBSVM's own kernel: wall time and the scores, same run.

Run from the repository root: ``python benchmarks/wang2017_search.py [--columns MNIST IJCNN] [--repeats 1]``
(``IKVIZ_DATA_MIRROR`` set where the data are not fetched). For each column it takes the tune rows of Table 3's
first fold at the paper's settings (2,000 of the training part, min-max scaled), the union of the grid's two
readings (11 γ, C in 1, 10, 100) and the 10 inner folds, and runs, alternating, ``GridSearchCV(SVC(kernel="rbf"))``
on ``SEARCH_JOBS`` worker processes (the path before ``ikviz.learn.svm_search``) and
:func:`ikviz.learn.svm_search.rbf_cv_scores` on as many threads. It prints each one's wall time, the ratio,
the largest difference of a grid point's mean accuracy, and whether both readings choose the same (C, γ).
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from sklearn.model_selection import StratifiedKFold
from sklearn.svm import SVC

from ikviz.data import load
from ikviz.experiments import paper_wang2017_table3 as t3
from ikviz.learn.svm_search import rbf_cv_scores


def tune_rows(column: str, p: t3.Params):
    """Table 3's first fold of ``column``: (X of its training part, y, the tune rows' positions)."""
    X, y = load(t3.COLUMNS[column], scale="minmax", max_rows=p.max_rows, seed=p.seed)
    train, _ = next(StratifiedKFold(p.folds, shuffle=True, random_state=p.seed).split(X, y))
    tune = np.sort(np.random.default_rng(p.seed).permutation(len(train))[:p.tune_rows])
    return X[train], y[train], tune


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--columns", nargs="+", default=list(t3.COLUMNS), choices=list(t3.COLUMNS))
    ap.add_argument("--repeats", type=int, default=1)
    args = ap.parse_args()
    p = t3.Params()
    gammas = list(dict.fromkeys(t3.rbf_gamma(r, v) for r in p.rbf_grid for v in p.bandwidths))
    cs = list(p.rbf_cs)
    for column in args.columns:
        X, y, tune = tune_rows(column, p)
        seed = p.seed   # the first fold's seed
        cv = StratifiedKFold(p.inner_folds, shuffle=True, random_state=seed)
        times = {"libsvm kernel (GridSearchCV, processes)": [], "one kernel per γ (threads)": []}
        for _ in range(args.repeats):
            start = time.perf_counter()
            old = t3._search(SVC(kernel="rbf", cache_size=t3.SVC_CACHE_MB), {"C": cs, "gamma": gammas}, X, y, tune,
                             p.inner_folds, seed)
            times["libsvm kernel (GridSearchCV, processes)"].append(time.perf_counter() - start)
            start = time.perf_counter()
            new = rbf_cv_scores(X[tune], y[tune], cs, gammas, cv, n_jobs=t3.SEARCH_JOBS)
            times["one kernel per γ (threads)"].append(time.perf_counter() - start)
        print(f"{column}: {len(tune):,} rows × {X.shape[1]} columns, {len(gammas)} γ × {len(cs)} C × "
              f"{p.inner_folds} folds, {args.repeats} repeat(s)")
        for name, seconds in times.items():
            print(f"  {name:42s} wall {min(seconds):8.1f} s (runs: {', '.join(f'{s:.1f}' for s in seconds)})")
        old_s, new_s = times.values()
        print(f"  ratio (min / min): {min(old_s) / min(new_s):.2f}×")
        diff = max(abs(old[k] - new[k]) for k in old)
        print(f"  largest |difference| of a mean accuracy: {diff:.3g}")
        for reading in p.rbf_grid:
            cands = [(c, t3.rbf_gamma(reading, v)) for c in cs for v in p.bandwidths]
            print(f"  reading {reading}: chosen {max(cands, key=old.get)} (libsvm kernel), "
                  f"{max(cands, key=new.get)} (one kernel per γ)")


if __name__ == "__main__":
    main()
