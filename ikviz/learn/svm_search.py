"""The inner-CV search of an RBF SVM's (C, γ) grid with one kernel matrix per γ.

``GridSearchCV(SVC(kernel="rbf"), {"C": ..., "gamma": ...})`` has LIBSVM
compute every kernel column it needs again in every fit: |C| × |γ| × folds
fits, each ``d`` multiplications an entry. :func:`rbf_cv_scores` computes the
squared distances of the rows once (BLAS), each γ's kernel from them once,
and fits ``SVC(kernel="precomputed")`` on each fold's block of it: the same
models (LIBSVM's problem is the same; its kernel values agree to rounding)
and the same mean test accuracies, with the kernel's cost paid once per γ.
On MNIST's 784 columns that is most of the search's time.
"""

from __future__ import annotations

import math
from numbers import Real

import numpy as np

__all__ = ["MAX_ROWS", "rbf_cv_scores"]

#: rows a search may hold: the squared distances and, per worker, one γ's kernel and a fold's block of it
#: (≈ (1 + 3 × 2 workers) × 8 n² bytes; 5,000 rows ≈ 1.4 GB)
MAX_ROWS = 5_000


def rbf_cv_scores(X, y, cs, gammas, cv, n_jobs: int | None = None) -> dict:
    """Mean test accuracy over the splits of ``cv`` of ``SVC(kernel="rbf", C=C, gamma=γ)`` at every (C, γ).

    What ``GridSearchCV(SVC(kernel="rbf"), {"C": cs, "gamma": gammas}, cv=cv)``
    reports as ``mean_test_score``, computed from one kernel matrix per γ
    (see the module's docstring). A fit that fails scores NaN, as
    ``GridSearchCV``'s default ``error_score`` does.

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
        At most :data:`MAX_ROWS` rows (the kernel matrix is n × n).
    y : array-like of shape (n_samples,)
    cs, gammas : sequences of positive floats
        The grid.
    cv : a scikit-learn splitter (its ``split(X, y)`` is used) or a list of (train, test) index arrays
    n_jobs : int or None, default=None
        Threads over the γ values (LIBSVM releases the GIL); None: one.

    Returns
    -------
    scores : dict
        ``(C, γ)`` -> mean accuracy over the splits.

    Examples
    --------
    >>> from sklearn.datasets import load_iris
    >>> from sklearn.model_selection import GridSearchCV, StratifiedKFold
    >>> from sklearn.svm import SVC
    >>> X, y = load_iris(return_X_y=True)
    >>> cv = StratifiedKFold(3, shuffle=True, random_state=0)
    >>> scores = rbf_cv_scores(X, y, [1.0, 10.0], [0.1, 1.0], cv)
    >>> search = GridSearchCV(SVC(kernel="rbf"), {"C": [1.0, 10.0], "gamma": [0.1, 1.0]}, cv=cv).fit(X, y)
    >>> all(abs(scores[(p["C"], p["gamma"])] - s) < 1e-12
    ...     for p, s in zip(search.cv_results_["params"], search.cv_results_["mean_test_score"]))
    True
    """
    from joblib import Parallel, delayed
    from sklearn.metrics.pairwise import euclidean_distances
    from sklearn.svm import SVC

    from .._validation import check_matrix

    X = check_matrix(X)
    y = np.asarray(y)
    if y.shape != (X.shape[0],):
        raise ValueError(f"y must hold one label per row of X ({X.shape[0]}); got shape {y.shape}.")
    if X.shape[0] > MAX_ROWS:
        raise ValueError(f"X has {X.shape[0]:,} rows; the search holds an n × n kernel matrix and takes at most "
                         f"{MAX_ROWS:,} (search fewer rows, or GridSearchCV with SVC(kernel='rbf')).")
    for name, values in (("cs", cs), ("gammas", gammas)):
        if len(values) == 0 or any(isinstance(v, bool) or not isinstance(v, Real) or not math.isfinite(v) or v <= 0
                                   for v in values):
            raise ValueError(f"{name} must be a non-empty list of positive numbers; got {list(values)}.")
    splits = [(np.asarray(tr), np.asarray(te)) for tr, te in (cv.split(X, y) if hasattr(cv, "split") else cv)]
    sq = euclidean_distances(X, squared=True)

    def one(gamma: float) -> dict:
        K = np.exp(-float(gamma) * sq)
        acc = {C: [] for C in cs}
        for train, test in splits:
            K_train, K_test = K[np.ix_(train, train)], K[np.ix_(test, train)]
            for C in cs:
                try:
                    model = SVC(kernel="precomputed", C=float(C)).fit(K_train, y[train])
                    acc[C].append(model.score(K_test, y[test]))
                except ValueError:   # GridSearchCV's error_score=np.nan
                    acc[C].append(np.nan)
        return {(C, gamma): float(np.mean(a)) for C, a in acc.items()}

    scores: dict = {}
    for part in Parallel(n_jobs=n_jobs, prefer="threads")(delayed(one)(g) for g in gammas):
        scores.update(part)
    return scores
