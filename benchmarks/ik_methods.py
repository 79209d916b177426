"""Which partitioning suits ``make_pipeline(IsolationKernel(...), LinearSVC())``? All three, on ten datasets.

Run from the repository root: ``python benchmarks/ik_methods.py [--psi 64] [--t 200] [--seeds 3]``.
For each bundled dataset (at most 10,000 rows, a stratified seeded 70/30 split,
features min-max scaled on the training rows) it fits ``IsolationKernel`` with
each ``method`` and a default ``LinearSVC()`` on its features, and prints the
test accuracy (mean over ``--seeds`` kernels) and the seconds of the kernel's
fit + transform, beside ``SVC(kernel="rbf", gamma="scale")``. This is the
evidence behind ``IsolationKernel``'s default ``method="iforest"``.
"""

from __future__ import annotations

import argparse
import time
import warnings

import numpy as np
from sklearn.exceptions import ConvergenceWarning
from sklearn.model_selection import train_test_split
from sklearn.preprocessing import MinMaxScaler
from sklearn.svm import SVC, LinearSVC

from ikviz import IsolationKernel
from ikviz.data import load_dataset
from ikviz.kernels.isolation import METHODS

DATASETS = ("ijcnn1-10k", "spambase", "letter", "phishing", "mammography", "segment", "digits", "german",
            "ionosphere", "phoneme")


def split(name: str, seed: int = 0, max_rows: int = 10_000):
    X, y = load_dataset(name)
    X = np.asarray(X.todense()) if hasattr(X, "todense") else np.asarray(X, dtype=float)
    X, y = X[:max_rows], y[:max_rows]
    X_tr, X_te, y_tr, y_te = train_test_split(X, y, test_size=0.3, random_state=seed, stratify=y)
    scaler = MinMaxScaler().fit(X_tr)
    return scaler.transform(X_tr), np.clip(scaler.transform(X_te), 0.0, 1.0), y_tr, y_te


def linear_on_ik(method: str, X_tr, X_te, y_tr, y_te, psi: int, t: int, seed: int) -> tuple[float, float]:
    """(test accuracy, seconds of the kernel's fit + transform of both sets)."""
    start = time.perf_counter()
    ik = IsolationKernel(psi=psi, t=t, method=method, random_state=seed).fit(X_tr)
    F_tr, F_te = ik.transform(X_tr), ik.transform(X_te)
    seconds = time.perf_counter() - start
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        model = LinearSVC().fit(F_tr, y_tr)
    return float(np.mean(model.predict(F_te) == y_te)), seconds


def main(argv=None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--psi", type=int, default=64)
    parser.add_argument("--t", type=int, default=200)
    parser.add_argument("--seeds", type=int, default=3)
    parser.add_argument("--datasets", nargs="*", default=list(DATASETS))
    args = parser.parse_args(argv)
    IsolationKernel(psi=4, t=2).fit(np.random.default_rng(0).random((20, 2)))  # load compiled code
    print(f"{'dataset':<12}" + "".join(f"{m:>18}" for m in METHODS) + f"{'SVC-RBF':>10}   (accuracy, kernel s)")
    wins = {m: 0 for m in METHODS}
    out = {}
    for name in args.datasets:
        X_tr, X_te, y_tr, y_te = split(name)
        row = {m: np.mean([linear_on_ik(m, X_tr, X_te, y_tr, y_te, args.psi, args.t, s) for s in range(args.seeds)],
                          axis=0) for m in METHODS}
        rbf = float(np.mean(SVC(kernel="rbf", gamma="scale").fit(X_tr, y_tr).predict(X_te) == y_te))
        wins[max(row, key=lambda m: row[m][0])] += 1
        out[name] = {**{m: {"accuracy": float(a), "kernel_s": float(s)} for m, (a, s) in row.items()}, "rbf": rbf}
        print(f"{name:<12}" + "".join(f"{a:>10.4f} {s:6.2f}s" for a, s in row.values()) + f"{rbf:>10.4f}")
    print("most accurate under LinearSVC(): " + ", ".join(f"{m} on {n}" for m, n in wins.items()))
    return out


if __name__ == "__main__":
    main()
