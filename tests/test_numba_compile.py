"""What numba compiles on a fresh clone (issue 32: no empty wait before a page's first figure).

* every engine kernel compiles exactly one type signature whatever the input's dtype (float64, float32,
  int), memory order (C, Fortran) or writability: the callers convert validated input before compiled
  code, so a second signature (1-4 CPU-s each) never compiles;
* the kernels compile serial (no ``parallel=True``: its parfor passes doubled a kernel's first compile;
  ``classic._kernel_args`` excepted, which ran 1.7x slower serial) and run in threads (:mod:`ikviz.kernels._threads`), with results that do not depend on the threads;
* no kernel pulls in numba's linear algebra (``np.dot``) or its shape-error messages (slow).
"""

import json
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

#: every input form a caller may pass, for each entry point of the engine
_EXERCISE = textwrap.dedent("""
    import json
    import numpy as np
    from numba.core.registry import CPUDispatcher
    from ikviz import IsolationKernel
    from ikviz.kernels import isolation, laplacian, lp_distance, rbf
    from ikviz.kernels import _gemm, _inne, _itree, _lp, _threads, _voronoi, classic

    rng = np.random.default_rng(0)
    base = rng.normal(size=(120, 3))
    frozen = base.copy()
    frozen.flags.writeable = False
    forms = [base, base.astype(np.float32), np.asfortranarray(base), frozen, (base * 10).astype(np.int64),
             base[:, ::-1]]
    wide = rng.normal(size=(60, isolation._FLOAT32_MAX_D + 4))   # the float64 kernels
    for method in ("anne", "inne", "iforest"):
        for X in forms:
            ik = IsolationKernel(psi=8, t=6, method=method, random_state=0).fit(X)
            ik.cells(X)
            ik.transform(X[:5])
        for X in (wide, wide.astype(np.float32)):
            IsolationKernel(psi=8, t=6, method=method, random_state=0).fit(X).cells(X)
    for X in forms:
        rbf(X, gamma=0.5)
        laplacian(X, X[:7], gamma=0.5)
        lp_distance(X, X[:9], p=0.5)
    found = {}
    for module in (_gemm, _inne, _itree, _lp, _threads, _voronoi, classic):
        for name, fn in vars(module).items():
            if isinstance(fn, CPUDispatcher) and fn.__module__ == module.__name__:
                found[module.__name__ + "." + name] = {"signatures": [str(s) for s in fn.signatures],
                                                       "parallel": bool(fn.targetoptions.get("parallel"))}
    print(json.dumps(found))
""")


def _exercise(env=None):
    out = subprocess.run([sys.executable, "-c", _EXERCISE], capture_output=True, text=True, cwd=ROOT,
                         env={**os.environ, **(env or {})}, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_each_engine_kernel_compiles_one_signature_whatever_the_input():
    found = _exercise()
    entry = ["_gemm._tiles", "_voronoi.nearest_centre_tiles", "_inne.covering_ball_tiles",
             "_inne.sample_radius_tasks", "_itree.build_trees", "_itree.route_heap_blocks",
             "classic._kernel_args", "_lp.lp_pairs"]
    for name in entry:
        assert len(found["ikviz.kernels." + name]["signatures"]) >= 1, f"{name} was not reached"
    # _gemm._tiles: one for Voronoi cells, one for iNNE's (see its docstring); every other kernel one
    many = {name: f["signatures"] for name, f in found.items()
            if len(f["signatures"]) > (2 if name.endswith("_gemm._tiles") else 1)}
    assert not many, f"kernels compiled for several signatures: {many}"
    # classic._kernel_args keeps prange: compiled serial it took 1.7x the CPU time (see its comment)
    parallel = [name for name, f in found.items() if f["parallel"] and not name.endswith("classic._kernel_args")]
    assert not parallel, f"compiled with parallel=True (twice the first compile): {parallel}"


def test_threads_give_the_same_cells_and_values_as_one_thread():
    from ikviz import IsolationKernel
    from ikviz.kernels import _itree, _lp, _voronoi

    rng = np.random.default_rng(2)
    X = rng.normal(size=(3000, 12))
    ik = IsolationKernel(psi=16, t=30, method="anne", random_state=0).fit(X)
    Z = (X - ik._shift) * ik._scale
    cells = []
    for workers in (1, 3):
        out = np.empty((len(X), ik.t_), dtype=np.int32)
        _voronoi.nearest_centres(Z, ik._centres, ik._sq_norms, Z, ik._samples, ik._index, ik._shift, ik._scale,
                                 ik._rel, ik._cmax, ik.psi_, ik.t_, 0, 64, out, workers=workers)
        cells.append(out)
    assert np.array_equal(cells[0], cells[1]) and np.array_equal(cells[0], ik.cells(X))
    D = [_lp.lp_distances(X[:300], X[:200], 0.5, np.empty((300, 200)), workers=w) for w in (1, 3)]
    assert np.array_equal(D[0], D[1]) and np.allclose(D[0][0, 1], (np.abs(X[0] - X[1]) ** 0.5).sum() ** 2)
    samples, uniforms = X[:480].reshape(30, 16, 12), rng.random((30, 16, 2))
    forests = []
    for workers in (1, 3):
        arrays = (np.full((30, 31), -1), np.zeros((30, 31)), np.zeros((30, 31), dtype=np.int64),
                  np.full((30, 31), -1), np.zeros(30, dtype=np.int64))
        _itree.build_forest(samples, uniforms, 4, *arrays, workers=workers)
        forests.append(arrays)
    assert all(np.array_equal(a, b) for a, b in zip(*forests)) and forests[0][4].min() >= 2


@pytest.mark.slow
def test_a_fresh_clone_compiles_no_linear_algebra_and_no_shape_errors(tmp_path):
    # an empty numba cache: everything the exercise reaches compiles, and is listed
    script = textwrap.dedent("""
        import json, sys
        from numba.core import event
        names = []
        class Listener(event.Listener):
            def on_start(self, ev):
                pass
            def on_end(self, ev):
                d = ev.data["dispatcher"]
                names.append(d.py_func.__module__ + "." + d.py_func.__qualname__)
        event.register("numba:compile", Listener())
        exec(compile(sys.argv[1], "exercise", "exec"))
        print(json.dumps(names))
    """)
    out = subprocess.run([sys.executable, "-c", script, _EXERCISE], capture_output=True, text=True, cwd=ROOT,
                         env={**os.environ, "NUMBA_CACHE_DIR": str(tmp_path)}, check=True)
    names = json.loads(out.stdout.strip().splitlines()[-1])
    assert any(n.startswith("ikviz.kernels._voronoi") for n in names)
    slow = [n for n in names if n.startswith("numba.np.linalg") or "unicode" in n or "repr" in n]
    assert not slow, f"compiled numba's linear algebra or string formatting: {sorted(set(slow))}"
