"""``ikviz bench kernel``: fit + transform time and peak memory of IsolationKernel, against ikpykit.

Each measurement runs in a fresh child process, so peak memory is that of
the call alone and one library's imports or caches cannot help the other.
Inside the child a small warm-up call comes first (for ikviz it loads the
numba cache; its time is reported as ``warmup_s``), then the timed call on
X ~ N(0, 1).
"""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
import time


def _rss_mb(field: str) -> float:
    with open("/proc/self/status") as fh:
        for line in fh:
            if line.startswith(field):
                return int(line.split()[1]) / 1024
    return float("nan")


def _reset_peak() -> bool:
    try:
        with open("/proc/self/clear_refs", "w") as fh:
            fh.write("5")  # resets VmHWM to the current RSS
        return True
    except OSError:
        return False


def _make(impl: str, method: str, t: int, psi: int, seed: int):
    if impl == "ikviz":
        from ikviz import IsolationKernel
        return IsolationKernel(psi=psi, t=t, method=method, random_state=seed)
    from ikpykit.kernel import IsoKernel
    return IsoKernel(method=method, n_estimators=t, max_samples=psi, random_state=seed)


def measure_one(impl: str, method: str, n: int, d: int, t: int, psi: int, seed: int = 0) -> dict:
    """Time one fit + transform in this process (call it in a fresh child)."""
    import numpy as np

    X = np.random.default_rng(seed).normal(size=(n, d))
    start = time.perf_counter()
    _make(impl, method, t, psi, seed).fit(X[:2000]).transform(X[:2000])
    warmup = time.perf_counter() - start
    before = _rss_mb("VmRSS")
    has_peak = _reset_peak()
    start = time.perf_counter()
    features = _make(impl, method, t, psi, seed).fit(X).transform(X)
    seconds = time.perf_counter() - start
    peak = _rss_mb("VmHWM") - before if has_peak else float("nan")
    return {"impl": impl, "method": method, "n": n, "seconds": seconds, "warmup_s": warmup,
            "peak_extra_mb": peak, "shape": list(features.shape), "nnz": int(features.nnz)}


def _child(impl, method, n, d, t, psi, seed, timeout) -> dict:
    cmd = [sys.executable, "-m", "ikviz.bench", impl, method, str(n), str(d), str(t), str(psi), str(seed)]
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return {"impl": impl, "method": method, "n": n, "error": f"timed out after {timeout} s"}
    if proc.returncode != 0:
        tail = (proc.stderr or proc.stdout).strip().splitlines()[-1:] or ["no output"]
        return {"impl": impl, "method": method, "n": n, "error": tail[0]}
    return json.loads(proc.stdout.strip().splitlines()[-1])


def bench_kernel(sizes=(20_000, 100_000), methods=("anne", "inne", "iforest"), d=20, t=200, psi=64, seed=0,
                 repeats=3, peer=True, peer_max_dense_gb=4.0, timeout=900, echo=print) -> list[dict]:
    """Benchmark ikviz against ikpykit (when installed); return one row per (method, n).

    ikviz takes the best of ``repeats`` child runs, ikpykit one run. ikpykit's
    ``"anne"`` builds a dense n x (t * psi) distance matrix, so it is skipped
    when that matrix would exceed ``peer_max_dense_gb``.
    """
    have_peer = peer and importlib.util.find_spec("ikpykit") is not None
    if peer and not have_peer:
        echo("ikpykit is not installed (pip install ikpykit): timing ikviz alone.")
    rows = []
    for method in methods:
        for n in sizes:
            runs = [_child("ikviz", method, n, d, t, psi, seed, timeout) for _ in range(repeats)]
            ok = [r for r in runs if "error" not in r]
            row = {"method": method, "n": n, "d": d, "t": t, "psi": psi}
            if not ok:
                row["ikviz_error"] = runs[0]["error"]
            else:
                best = min(ok, key=lambda r: r["seconds"])
                row.update(ikviz_s=best["seconds"], ikviz_warmup_s=best["warmup_s"],
                           ikviz_peak_mb=max(r["peak_extra_mb"] for r in ok))
            if have_peer:
                dense_gb = 8 * n * min(n, t * psi) / 1e9
                if method in ("anne", "inne") and dense_gb > peer_max_dense_gb:
                    row["ikpykit_skipped"] = f"needs a ~{dense_gb:.0f} GB dense matrix"
                else:
                    other = _child("ikpykit", method, n, d, t, psi, seed, timeout)
                    if "error" in other:
                        row["ikpykit_error"] = other["error"]
                    else:
                        row.update(ikpykit_s=other["seconds"], ikpykit_peak_mb=other["peak_extra_mb"])
                        if "ikviz_s" in row:
                            row["speedup"] = other["seconds"] / row["ikviz_s"]
            echo(format_row(row))
            rows.append(row)
    return rows


def format_row(row: dict) -> str:
    """One human-readable line per benchmark row."""
    text = f"{row['method']:>8} n={row['n']:>7,}  "
    if "ikviz_s" in row:
        text += (f"ikviz {row['ikviz_s']:.3f} s (peak +{row['ikviz_peak_mb']:.0f} MB, "
                 f"warm-up {row['ikviz_warmup_s']:.2f} s)")
    else:
        text += f"ikviz failed: {row.get('ikviz_error')}"
    if "ikpykit_s" in row:
        text += f"  |  ikpykit {row['ikpykit_s']:.3f} s (peak +{row['ikpykit_peak_mb']:.0f} MB)"
        if "speedup" in row:
            text += f"  |  ratio {row['speedup']:.1f}x"
    elif "ikpykit_skipped" in row:
        text += f"  |  ikpykit skipped: {row['ikpykit_skipped']}"
    elif "ikpykit_error" in row:
        text += f"  |  ikpykit failed: {row['ikpykit_error']}"
    return text


if __name__ == "__main__":  # child process entry: impl method n d t psi seed
    impl, method, *nums = sys.argv[1:]
    n, d, t, psi, seed = map(int, nums)
    print(json.dumps(measure_one(impl, method, n, d, t, psi, seed)))


# ------------------------------------------------------------------ the floor
def sgemm_peak(size: int = 2048, repeats: int = 5) -> float:
    """The machine's float32 matrix-product rate in GFLOP/s: best of ``repeats`` products of two size x size matrices.

    NumPy's BLAS uses every core it is allowed, as the cells do.

    Examples
    --------
    >>> from ikviz.bench import sgemm_peak
    >>> sgemm_peak(size=256, repeats=2) > 0
    True
    """
    import numpy as np

    a = np.random.default_rng(0).random((size, size), dtype=np.float32)
    a @ a
    best = min(_wall(lambda: a @ a) for _ in range(repeats))
    return 2.0 * size**3 / best / 1e9


def _wall(func) -> float:
    start = time.perf_counter()
    func()
    return time.perf_counter() - start


def _median_time(func, repeats: int) -> float:
    import numpy as np

    func()  # warm-up: loads compiled code and caches
    return float(np.median([_wall(func) for _ in range(repeats)]))


def _thread_seconds(func, repeats: int) -> float:
    """Least CPU time of this thread over ``repeats`` calls of ``func`` after a warm-up (robust to a busy machine)."""
    func()
    best = float("inf")
    for _ in range(repeats):
        start = time.thread_time()
        func()
        best = min(best, time.thread_time() - start)
    return best


def one_core_ratio(kernel, X, repeats: int = 3) -> tuple[float, float]:
    """``(seconds, ratio)``: anne cells of ``X`` on one core against one core's float32 floor, both in CPU time.

    The cells run with one numba thread and one BLAS thread, so all their
    work is this thread's; the floor is ``n * t * psi * d`` multiply-adds at
    the rate of one thread's 1024 x 1024 float32 product. CPU time excludes
    the time other processes hold the core, so the ratio stays put on a
    shared machine where wall-clock ratios do not.

    Examples
    --------
    >>> import numpy as np
    >>> from ikviz import IsolationKernel
    >>> from ikviz.bench import one_core_ratio
    >>> X = np.random.default_rng(0).normal(size=(2000, 5))
    >>> seconds, ratio = one_core_ratio(IsolationKernel(psi=16, t=20, method="anne").fit(X), X, repeats=1)
    >>> ratio > 0
    True
    """
    import numba
    import numpy as np
    from threadpoolctl import threadpool_limits

    n, d = X.shape
    old = numba.get_num_threads()
    numba.set_num_threads(1)
    try:
        with threadpool_limits(1, user_api="blas"):
            a = np.random.default_rng(0).random((1024, 1024), dtype=np.float32)
            peak = 2.0 * 1024**3 / _thread_seconds(lambda: a @ a, 5)
            seconds = _thread_seconds(lambda: kernel.cells(X), repeats)
    finally:
        numba.set_num_threads(old)
    return seconds, seconds / (2.0 * n * kernel.t_ * kernel.psi_ * d / peak)


def _peers_cells(X, t: int, psi: int, seed: int, repeats: int, isotree_ok: bool, sklearn_ok: bool) -> dict:
    """Seconds of the peers doing the cells' work on X: faiss flat search (anne), isotree and scikit-learn (iforest)."""
    import math

    import numpy as np

    rows = {}
    rng = np.random.default_rng(seed)
    n, d = X.shape
    if importlib.util.find_spec("faiss") is not None:
        import faiss

        X32 = np.ascontiguousarray(X, dtype=np.float32)
        indexes = []
        for _ in range(t):
            index = faiss.IndexFlatL2(d)
            index.add(X32[rng.choice(n, size=psi, replace=False)])
            indexes.append(index)
        rows["faiss IndexFlatL2, t searches of psi points (anne's work)"] = _median_time(
            lambda: [index.search(X32, 1) for index in indexes], repeats)
    else:
        rows["faiss IndexFlatL2"] = "not installed (pip install faiss-cpu)"
    depth = math.ceil(math.log2(psi))
    if isotree_ok and importlib.util.find_spec("isotree") is not None:
        from isotree import IsolationForest as IsoTree

        model = IsoTree(ntrees=t, sample_size=psi, max_depth=depth, ndim=1, missing_action="fail",
                        penalize_range=False, prob_pick_pooled_gain=0, random_seed=seed, nthreads=-1).fit(X)
        rows["isotree tree_num, same-size trees (iforest's work)"] = _median_time(
            lambda: model.predict(X, output="tree_num"), repeats)
    elif isotree_ok:
        rows["isotree"] = "not installed (pip install isotree)"
    if sklearn_ok:
        from sklearn.ensemble import IsolationForest

        model = IsolationForest(n_estimators=t, max_samples=psi, random_state=seed, n_jobs=-1).fit(X)
        pairs = list(zip(model.estimators_, model.estimators_features_))
        rows["scikit-learn IsolationForest trees' apply, same-size trees (iforest's work)"] = _median_time(
            lambda: [tree.apply(X[:, feats]) for tree, feats in pairs], repeats)
    return rows


def bench_floor(n: int = 100_000, d: int = 20, t: int = 200, psi: int = 64, seed: int = 0, repeats: int = 3,
                peers: bool = True, peer_max_n: int = 200_000, echo=print) -> dict:
    """``ikviz bench kernel --floor``: ikviz's cells against the machine's sgemm floor and the peers, in one run.

    The floor of Voronoi cells is the time of their ``n * t * psi * d``
    multiply-adds at the machine's float32 matrix-product peak
    (:func:`sgemm_peak`). Every time is the median of ``repeats`` runs after
    a warm-up, on X ~ N(0, 1) of shape (n, d), fit excluded except where
    named. Peers, each where it does the same work: faiss's exact flat
    search (t searches of psi points: anne's cells), isotree's ``tree_num``
    and scikit-learn's ``IsolationForest.apply`` on trees of the same size
    (iforest's cells), ikpykit's ``IsoKernel`` fit + transform (skipped
    past ``peer_max_n`` rows, as are isotree and scikit-learn). Returns the
    numbers; prints a table through ``echo``.
    """
    import numpy as np

    from .kernels import IsolationKernel

    X = np.random.default_rng(seed).normal(size=(n, d))
    peak = sgemm_peak()
    floor = 2.0 * n * t * psi * d / (peak * 1e9)
    out = {"n": n, "d": d, "t": t, "psi": psi, "sgemm_gflops": peak, "floor_s": floor, "repeats": repeats}
    times = {}
    anne = IsolationKernel(psi=psi, t=t, method="anne", random_state=seed).fit(X)
    times["ikviz anne cells"] = _median_time(lambda: anne.cells(X), repeats)
    out["one_core_s"], out["one_core_ratio"] = one_core_ratio(anne, X, repeats)
    forest = IsolationKernel(psi=psi, t=t, method="iforest", random_state=seed).fit(X)
    times["ikviz iforest cells"] = _median_time(lambda: forest.cells(X), repeats)
    times["ikviz anne fit + transform"] = _median_time(
        lambda: IsolationKernel(psi=psi, t=t, method="anne", random_state=seed).fit(X).transform(X), repeats)
    small = n <= peer_max_n
    if peers:
        times.update(_peers_cells(X, t, psi, seed, repeats, isotree_ok=small, sklearn_ok=small))
        if small and importlib.util.find_spec("ikpykit") is not None:
            from ikpykit.kernel import IsoKernel

            times["ikpykit IsoKernel anne fit + transform"] = _median_time(
                lambda: IsoKernel(method="anne", n_estimators=t, max_samples=psi, random_state=seed)
                .fit(X).transform(X), max(1, repeats // 3))
    out["times"] = times
    echo(f"n={n:,}, d={d}, t={t}, psi={psi}; median of {repeats} runs, fit excluded unless named")
    echo(f"sgemm peak {peak:.0f} GFLOP/s -> floor (n*t*psi*d multiply-adds) {floor:.3f} s")
    echo(f"  {'ikviz anne cells on one core, CPU seconds (least of the runs)':<70} {out['one_core_s']:8.3f} s  "
         f"{out['one_core_ratio']:5.2f}x one core's floor")
    ref = {"anne cells": times["ikviz anne cells"], "iforest": times["ikviz iforest cells"],
           "fit + transform": times["ikviz anne fit + transform"]}
    for name, value in times.items():
        if isinstance(value, str):
            echo(f"  {name:<70} {value}")
            continue
        note = ""
        if name == "ikviz anne cells":
            note = f"{value / floor:5.2f}x the floor"
        elif name.startswith("faiss") or name.startswith("ikpykit"):
            key = "anne cells" if name.startswith("faiss") else "fit + transform"
            note = f"ikviz {value / ref[key]:5.2f}x faster"
        elif "iforest's work" in name:
            note = f"ikviz {value / ref['iforest']:5.2f}x faster"
        echo(f"  {name:<70} {value:8.3f} s  {note}")
    return out
