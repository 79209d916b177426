"""Fuzz every public function and estimator of ikviz with bad and extreme input.

Every name in ``__all__`` of ikviz.kernels, .features, .measures, .embedding,
.learn, .clustering and .data has a recipe below (``SPECS``): valid arguments,
which arguments are data, which are parameters, and what a valid result looks
like. The tests then call it

* with each data argument replaced by every case of a catalogue (NaN, inf,
  dates, complex, strings, objects, sparse, empty, 1-row, 1-D, 3-D, float32,
  bool, 1e300, 1e-300, huge offsets...), drawn at shapes and values chosen by
  ``hypothesis``;
* with each parameter replaced by bad values (negative, zero, huge, NaN, wrong
  type...), both from a fixed list and drawn by ``hypothesis``;
* with each numeric parameter given as a NumPy scalar, which must be accepted;
* on data shifted far from the origin, for functions that are translation
  invariant (same result within rounding).

Each call must give a valid result (checked by the recipe: shapes, finite
values, kernels in [0, 1]...) or raise ``ValueError`` / ``TypeError`` with a
non-empty message that names the argument. A raw ``MemoryError``,
``OverflowError``, ``IndexError``, ``ZeroDivisionError``, a numba error, a
NumPy ``RuntimeWarning``, a call that takes more than ``HANG_SECONDS``, or a
silently wrong result fails the test, which lists every failing case.
``CellIndex``, whose compiled code could crash the process, is fuzzed in a
subprocess.

Profiles: ``IKVIZ_FUZZ=quick`` (default; a few examples, derandomised, so CI
is fast and repeatable) or ``IKVIZ_FUZZ=thorough`` (many random examples).
"""

from __future__ import annotations

import contextlib
import importlib
import inspect
import os
import re
import signal
import subprocess
import sys
import textwrap
import warnings
from dataclasses import dataclass, field
from typing import Any, Callable

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import HealthCheck, Phase, example, given, settings
from hypothesis import strategies as st
from sklearn.base import BaseEstimator, ClassifierMixin, ClusterMixin, RegressorMixin

# no shrinking: every failure message already lists each failing case, and shrinking would rerun them all
_COMMON = dict(deadline=None, database=None, suppress_health_check=list(HealthCheck),
               phases=[Phase.explicit, Phase.generate], report_multiple_bugs=False)
# quick: two derandomised draws per test; each draw runs the whole catalogue of bad inputs
settings.register_profile("ikviz-fuzz-quick", max_examples=2, derandomize=True, print_blob=False, **_COMMON)
settings.register_profile("ikviz-fuzz-thorough", max_examples=30, print_blob=True, **_COMMON)
PROFILE = os.environ.get("IKVIZ_FUZZ", "quick")
FUZZ = settings.get_profile(f"ikviz-fuzz-{PROFILE}")

PACKAGES = ("kernels", "features", "measures", "embedding", "learn", "clustering", "data")
#: seconds one call may take before it counts as a hang (huge sizes must be refused, not attempted)
HANG_SECONDS = 20.0

LEAD, H1, H2, H3, ME = "lead", "helper-1", "helper-2", "helper-3", "fuzz owner"


# ------------------------------------------------------------------------------------------------ draws
@dataclass
class Draw:
    """One hypothesis draw: the sizes and values every recipe builds its valid arguments from."""

    n: int
    d: int
    seed: int

    def __post_init__(self):
        rng = np.random.default_rng(self.seed)
        half = self.n // 2
        self.y = np.repeat([0, 1], [half, self.n - half])
        centre = np.where(self.y[:, None] == 0, 0.0, 3.0)
        self.X = centre + rng.normal(size=(self.n, self.d))
        self.rng = rng

    def similarities(self, n_rows=None):
        rows = self.n if n_rows is None else n_rows
        return np.round(self.rng.random((rows, self.n)), 2)


# the simplest draw (what the quick profile's single derandomised example is) has 3 features
draws = st.builds(Draw, n=st.integers(12, 24), d=st.one_of(st.integers(3, 4), st.integers(1, 2)),
                  seed=st.integers(0, 2**32 - 1))


# ------------------------------------------------------------------------------------------------ data cases
REFUSE, EITHER = "refuse", "either"


def _object(a):
    out = np.empty(a.shape, dtype=object)
    out[...] = a.tolist() if a.ndim else a.item()
    return out


def matrix_cases(X: np.ndarray) -> list[tuple[str, Any, str]]:
    """(label, value, expectation) for a feature matrix argument valid as ``X``."""
    n, d = X.shape
    nan, inf = X.copy(), X.copy()
    nan[n // 2, 0] = np.nan
    inf[0, d - 1] = np.inf
    neg_inf = X.copy()
    neg_inf[-1, 0] = -np.inf
    dicts = np.empty((n, d), dtype=object)
    dicts[...] = [[{"a": 1}] * d] * n
    pd = pytest.importorskip("pandas")
    cases = [
        ("NaN", nan, REFUSE), ("inf", inf, REFUSE), ("-inf", neg_inf, REFUSE),
        ("datetime64", (X * 1e6).astype("int64").astype("datetime64[s]"), REFUSE),
        ("timedelta64", (X * 1e6).astype("int64").astype("timedelta64[ms]"), REFUSE),
        ("complex", X + 1j, REFUSE), ("numeric strings", X.astype(str), REFUSE),
        ("words", np.full((n, d), "red"), REFUSE), ("dicts", dicts, REFUSE), ("None", None, REFUSE),
        ("1-D", X[:, 0], REFUSE), ("3-D", X[None], REFUSE), ("0 rows", X[:0], REFUSE),
        ("0 features", X[:, :0], REFUSE), ("ragged list", [[1.0] * d, [1.0] * (d + 1)] * (n // 2), REFUSE),
        ("scalar", 3.0, REFUSE), ("string", "X.csv", REFUSE),
        ("float32", X.astype(np.float32), EITHER), ("int64", np.round(X * 10).astype(np.int64), EITHER),
        ("uint8", np.clip(X * 10 + 50, 0, 255).astype(np.uint8), EITHER), ("bool", X > 1, EITHER),
        ("float16", X.astype(np.float16), EITHER), ("object numbers", _object(X), EITHER),
        ("nested list", X.tolist(), EITHER), ("data frame", pd.DataFrame(X), EITHER),
        ("sparse CSR", sp.csr_matrix(X), EITHER), ("1 row", X[:1], EITHER), ("2 rows", X[:2], EITHER),
        ("constant", np.ones_like(X), EITHER), ("duplicated rows", np.repeat(X[: n // 3 + 1], 3, axis=0)[:n], EITHER),
        ("1e300 scale", X * 1e300, EITHER), ("1e-300 scale", X * 1e-300, EITHER),
        ("subnormal", X * 5e-324, EITHER), ("offset 1e9", X + 1.7e9, EITHER), ("offset 1e15", X + 1e15, EITHER),
        ("column at 1e200", np.column_stack([X[:, :1] * 1e200, X[:, 1:]]), EITHER),
        ("int64 extremes", np.where(X > 1, 2**62, -(2**62)).astype(np.int64), EITHER),
        ("Fortran order", np.asfortranarray(X), EITHER), ("read-only", _readonly(X), EITHER),
    ]
    return cases


def _readonly(X):
    X = X.copy()
    X.flags.writeable = False
    return X


def similarity_cases(S: np.ndarray, bounded: bool = True) -> list[tuple[str, Any, str]]:
    """Cases for a similarity matrix argument (queries x points)."""
    nan, above, below = S.copy(), S.copy(), S.copy()
    nan[0, 0] = np.nan
    above[0, 1] = 1.5
    below[0, 1] = -0.5
    inf = S.copy()
    inf[0, 0] = np.inf
    return [
        ("NaN", nan, REFUSE), ("inf", inf, REFUSE if bounded else EITHER),
        ("above 1", above, REFUSE if bounded else EITHER), ("below 0", below, REFUSE if bounded else EITHER),
        ("datetime64", (S * 100).astype("int64").astype("datetime64[s]"), REFUSE),
        ("complex", S + 0j, REFUSE), ("words", np.full(S.shape, "a"), REFUSE), ("None", None, REFUSE),
        ("3-D", S[None], REFUSE), ("0 rows", S[:0], REFUSE), ("0 columns", S[:, :0], REFUSE),
        ("scalar", 0.5, EITHER), ("1-D", S[0], EITHER), ("float32", S.astype(np.float32), EITHER),
        ("bool", S > 0.5, EITHER), ("1 row", S[:1], EITHER), ("all ones", np.ones_like(S), EITHER),
        ("all zeros", np.zeros_like(S), EITHER), ("tiny", S * 1e-300, EITHER), ("list", S.tolist(), EITHER),
        ("object numbers", _object(S), EITHER), ("sparse", sp.csr_matrix(S), EITHER),
    ]


def label_cases(y: np.ndarray) -> list[tuple[str, Any, str]]:
    """Cases for a 1-D label argument."""
    nan = y.astype(float)
    nan[0] = np.nan
    return [
        ("NaN", nan, REFUSE), ("None", None, REFUSE), ("too short", y[:-1], REFUSE), ("empty", y[:0], REFUSE),
        ("2-D (n, 2)", np.column_stack([y, y]), REFUSE), ("complex", y + 1j, REFUSE),
        ("dicts", np.array([{"a": 1}] * len(y), dtype=object), EITHER),
        ("strings", np.where(y == 0, "cat", "dog"), EITHER), ("floats", y.astype(float), EITHER),
        ("bool", y.astype(bool), EITHER), ("column (n, 1)", y[:, None], EITHER), ("list", y.tolist(), EITHER),
        ("one class", np.zeros_like(y), EITHER), ("every row its own class", np.arange(len(y)), EITHER),
        ("negative labels", y - 5, EITHER), ("huge labels", y * 2**62, EITHER), ("fractional", y + 0.5, EITHER),
    ]


def index_cases(idx: np.ndarray, n: int) -> list[tuple[str, Any, str]]:
    """Cases for a (queries, k) array of indices into ``n`` points."""
    neg, big = idx.copy(), idx.copy()
    neg[0, 0] = -1
    big[0, 0] = n
    return [
        ("negative index", neg, REFUSE), ("index n", big, REFUSE), ("floats", idx + 0.5, REFUSE),
        ("NaN", np.full(idx.shape, np.nan), REFUSE), ("None", None, REFUSE), ("words", np.full(idx.shape, "a"), REFUSE),
        ("3-D", idx[None], REFUSE), ("1-D", idx[:, 0], EITHER), ("0 columns", idx[:, :0], EITHER),
        ("0 rows", idx[:0], EITHER), ("int32", idx.astype(np.int32), EITHER), ("uint16", idx.astype(np.uint16), EITHER),
        ("integral floats", idx.astype(float), EITHER), ("list", idx.tolist(), EITHER), ("bool", idx > 0, EITHER),
    ]


def vector_cases(v: np.ndarray) -> list[tuple[str, Any, str]]:
    """Cases for a 1-D vector of numbers."""
    nan, inf = v.astype(float), v.astype(float)
    nan[0] = np.nan
    inf[0] = np.inf
    return [
        ("NaN", nan, REFUSE), ("inf", inf, REFUSE), ("None", None, REFUSE), ("words", np.full(v.shape, "a"), REFUSE),
        ("complex", v + 1j, REFUSE), ("datetime64", v.astype("datetime64[s]"), REFUSE),
        ("empty", v[:0], EITHER), ("1 value", v[:1], EITHER), ("2-D", v[None], EITHER), ("floats", v + 0.5, EITHER),
        ("constant", np.ones_like(v), EITHER), ("huge", v * 1e300, EITHER), ("bool", v > 1, EITHER),
        ("list", v.tolist(), EITHER), ("scalar", 3, EITHER),
    ]


KIND_CASES = {"matrix": matrix_cases, "similarity": similarity_cases,
              "scores": lambda S: similarity_cases(S, bounded=False), "labels": label_cases}


# ------------------------------------------------------------------------------------------------ bad parameters
#: every parameter fuzzed gets each of these, plus values drawn by hypothesis
BAD_PARAMS: list[tuple[str, Any]] = [
    ("-1", -1), ("0", 0), ("-0.5", -0.5), ("0.5", 0.5), ("1.5", 1.5), ("1", 1), ("2", 2),
    ("10**12", 10**12), ("2**64", 2**64), ("1e308", 1e308), ("-1e308", -1e308),
    ("nan", float("nan")), ("inf", float("inf")), ("-inf", float("-inf")), ("np.nan", np.float64("nan")),
    ("'bad'", "bad"), ("''", ""), ("None", None), ("[1]", [1]), ("(1, 2)", (1, 2)), ("{}", {}),
    ("True", True), ("False", False), ("np.int64(-3)", np.int64(-3)), ("object()", object()),
    ("1j", 1j), ("np.array([2])", np.array([2])),
]
#: parameters whose huge values are legitimately slow (iteration counts), not a size to guard
HUGE_LABELS = {"10**12", "2**64", "1e308"}

drawn_params = st.one_of(
    st.integers(-10, 60), st.floats(allow_nan=True, allow_infinity=True, width=64),
    st.text(max_size=4), st.none(), st.booleans(), st.lists(st.integers(0, 3), max_size=2),
)


# ------------------------------------------------------------------------------------------------ result checks
class Wrong(AssertionError):
    """A result that is silently wrong."""


def _dense(a):
    return a.toarray() if sp.issparse(a) else np.asarray(a)


def finite(a, what="result"):
    arr = _dense(a)
    if arr.dtype.kind not in "biuf":
        raise Wrong(f"{what} has dtype {arr.dtype}, not numbers")
    if not np.isfinite(arr).all():
        raise Wrong(f"{what} has {np.size(arr) - np.isfinite(arr).sum()} NaN/inf value(s)")
    return arr


def n_rows(a) -> int:
    return len(a) if not hasattr(a, "shape") else a.shape[0]


def kernel_matrix(lo=0.0, hi=1.0, unit_diag=False, first="X", second="Y"):
    """Check: (rows of ``first``, rows of ``second`` or ``first``), finite, in [lo, hi]; symmetric for Y=None."""
    def check(out, kw):
        K = finite(out, "kernel matrix")
        rows = n_rows(kw[first])
        cols = rows if kw.get(second) is None else n_rows(kw[second])
        if K.shape != (rows, cols):
            raise Wrong(f"shape {K.shape}, expected {(rows, cols)}")
        if lo is not None and K.min() < lo - 1e-12 or hi is not None and K.max() > hi + 1e-12:
            raise Wrong(f"values from {K.min():.4g} to {K.max():.4g}, outside [{lo}, {hi}]")
        if kw.get(second) is None:
            if not np.allclose(K, K.T, rtol=1e-9, atol=1e-12):
                raise Wrong("K(X, X) is not symmetric")
            if unit_diag and not np.allclose(np.diag(K), 1.0):
                raise Wrong(f"K(x, x) != 1 (diagonal from {np.diag(K).min():.4g} to {np.diag(K).max():.4g})")
    return check


def array_of(shape_fn=None, lo=None, hi=None, integer=False, allow_nan=False):
    def check(out, kw):
        arr = _dense(out)
        if not allow_nan:
            finite(arr)
        if shape_fn is not None and arr.shape != shape_fn(kw):
            raise Wrong(f"shape {arr.shape}, expected {shape_fn(kw)}")
        if integer and arr.dtype.kind not in "iu":
            raise Wrong(f"dtype {arr.dtype}, expected integers")
        if arr.size and (lo is not None and np.nanmin(arr) < lo or hi is not None and np.nanmax(arr) > hi):
            raise Wrong(f"values from {np.nanmin(arr):.4g} to {np.nanmax(arr):.4g}, outside [{lo}, {hi}]")
    return check


def scalar_in(lo, hi):
    def check(out, kw):
        if not isinstance(out, (float, int, np.floating, np.integer)) or not lo <= out <= hi:
            raise Wrong(f"{out!r} is not a number in [{lo}, {hi}]")
    return check


def no_check(out, kw):
    return None


# ------------------------------------------------------------------------------------------------ recipes
@dataclass
class Spec:
    """How to call one public name validly, and what to fuzz."""

    func: Callable[..., Any]
    base: Callable[[Draw], dict]
    check: Callable[[Any, dict], None] = no_check
    data: dict[str, Callable[[Draw, dict], list]] = field(default_factory=dict)
    params: tuple[str, ...] = ()
    owner: str = ME
    no_huge: tuple[str, ...] = ()   # parameters whose huge values are iteration counts (slow, not refused)
    invariant: tuple[str, ...] = ()  # matrix arguments under which the result is translation invariant
    aliases: dict[str, tuple[str, ...]] = field(default_factory=dict)
    #: run the tests of this recipe in a subprocess: its compiled code has crashed the interpreter
    isolate: str | None = None


def cases_for(kind: str, key: str):
    """A data-case factory: the catalogue of ``kind`` built around the valid value ``base[key]``."""
    def make(draw: Draw, base: dict):
        return KIND_CASES[kind](np.asarray(base[key]))
    return make


def matrix(key):
    return cases_for("matrix", key)


def optional(make):
    """The same cases for an argument whose ``None`` is a valid choice (``Y=None``: use ``X``)."""
    def cases(draw: Draw, base: dict):
        return [(label, value, EITHER if value is None else expect) for label, value, expect in make(draw, base)]
    return cases


def _kw(**fixed):
    return lambda draw: dict(fixed)


def _imp(module, name):
    return getattr(importlib.import_module(f"ikviz.{module}"), name)


SPECS: dict[str, Spec] = {}


def spec(name: str, **kwargs):
    module, attr = name.split(".")

    def func(**kw):
        return _imp(module, attr)(**kw)
    SPECS[name] = Spec(func=kwargs.pop("func", func), **kwargs)


def pair_kernel(name, params, lo=0.0, hi=1.0, unit_diag=True, extra=None, invariant=("X", "Y")):
    extra = extra or {}
    spec(name, base=lambda dr: dict(X=dr.X, Y=None, **extra),
         data={"X": matrix("X"), "Y": optional(lambda dr, b: matrix_cases(dr.X[:7]))},
         check=kernel_matrix(lo, hi, unit_diag), params=params, invariant=invariant)


# kernels (classic.py, neighbourhood.py: fuzz owner)
pair_kernel("kernels.rbf", ("gamma", "dense_budget"))
pair_kernel("kernels.laplacian", ("gamma", "dense_budget"))
pair_kernel("kernels.laplacian_psi", ("psi", "dense_budget"))
pair_kernel("kernels.linear", ("dense_budget",), lo=None, hi=None, unit_diag=False, invariant=())
pair_kernel("kernels.normalised_linear", ("dense_budget",), unit_diag=False, invariant=())
pair_kernel("kernels.adaptive_gaussian", ("k", "dense_budget"), extra={"k": 3})
pair_kernel("kernels.lp_similarity", ("p", "scale", "dense_budget"), unit_diag=True, extra={"p": 0.5})
pair_kernel("kernels.shared_neighbours", ("k", "dense_budget"), extra={"k": 3})
pair_kernel("kernels.lp_distance", ("p", "dense_budget"), lo=0.0, hi=None, unit_diag=False, extra={"p": 0.5})
spec("kernels.local_scale", base=lambda dr: dict(X=dr.X, reference=None, k=3),
     data={"X": matrix("X"), "reference": optional(lambda dr, b: matrix_cases(dr.X[:7]))},
     check=lambda out, kw: _positive_scales(out, n_rows(kw["X"])), params=("k",), invariant=("X", "reference"))


def _positive_scales(out, n):
    arr = finite(out)
    if arr.shape != (n,) or not (arr > 0).all():
        raise Wrong(f"scales of shape {arr.shape} from {arr.min():.3g}: expected {n} positive numbers")
spec("kernels.neighbour_sets", base=lambda dr: dict(X=dr.X, reference=dr.X[:9], k=3),
     data={"X": matrix("X"), "reference": matrix("reference")},
     check=lambda out, kw: (array_of(lambda kw: (n_rows(kw["X"]), n_rows(kw["reference"])), lo=0, hi=1)(out, kw),
                            _row_sums(out, kw["k"])),
     params=("k",), invariant=("X", "reference"))


def _row_sums(out, k):
    if not np.all(np.asarray(out.sum(axis=1)).ravel() == k):
        raise Wrong("a row does not mark exactly k neighbours")


# kernels (isolation.py, cell_index.py: the lead)
def _ik(X, X_new=None, method="anne", **params):
    ik = _imp("kernels", "IsolationKernel")(**params, method=method).fit(X)
    Q = X_new
    K = ik.similarity(Q, X)
    Phi = ik.transform(Q)
    if not np.allclose((Phi @ ik.transform(X).T).toarray() * (1 if not ik.binary else 1 / ik.t), K):
        raise Wrong("transform(X) @ transform(Y).T != similarity(X, Y)")
    return K


def _ik_check(out, kw):
    Q = kw["X_new"]
    K = finite(out, "similarity")
    if K.shape != (n_rows(Q), n_rows(kw["X"])) or K.min() < 0 or K.max() > 1:
        raise Wrong(f"similarity of shape {K.shape} with values {K.min()}..{K.max()}")


for _method in ("anne", "inne", "iforest"):
    spec(f"kernels.IsolationKernel[{_method}]", func=lambda _m=_method, **kw: _ik(method=_m, **kw),
         base=lambda dr: dict(X=dr.X, X_new=dr.X[:6], psi=4, t=12, random_state=0),
         data={"X": matrix("X"), "X_new": lambda dr, b: matrix_cases(dr.X[:6])}, check=_ik_check,
         params=("psi", "t", "max_depth", "binary", "random_state", "dense_budget"), owner=LEAD,
         invariant=("X", "X_new") if _method != "iforest" else (), aliases={"X_new": ("X",)})


# measures (fuzz owner)
def _sim_spec(name, check, params=(), base_extra=None, kind="similarity"):
    base_extra = base_extra or {}
    spec(name, base=lambda dr: dict(S=dr.similarities(5), **base_extra), data={"S": cases_for(kind, "S")},
         check=check, params=params, aliases={"S": ("similarities",)})


_sim_spec("measures.n_eps", array_of(lo=1, integer=True), params=("eps",), base_extra={"eps": 0.01})
_sim_spec("measures.dissimilarity", array_of(lo=0, hi=1))
_sim_spec("measures.relative_variance", lambda out, kw: _relvar_check(out, kw))
_sim_spec("measures.k_nearest", lambda out, kw: _k_nearest_check(out, kw),
          params=("k", "seed", "row_offset", "exclude_self", "return_similarity"), base_extra={"k": 3},
          kind="scores")


def _k_nearest_check(out, kw):
    idx = out[0] if kw.get("return_similarity") else out
    shape = (np.atleast_2d(kw["S"]).shape[0], kw["k"])
    array_of(lambda kw: shape, lo=0, integer=True)(idx, kw)
    if kw.get("return_similarity"):
        array_of(lambda kw: shape)(out[1], kw)


def _relvar_check(out, kw):
    arr = np.atleast_1d(np.asarray(out, dtype=float))
    S = np.atleast_2d(np.asarray(kw["S"], dtype=float))
    degenerate = np.all(S >= 1.0, axis=1)  # documented: NaN when every point is identical to the query
    if arr.shape != (S.shape[0],) or not np.isfinite(arr[~degenerate]).all() or np.any(arr[~degenerate] < 0):
        raise Wrong(f"relative variance {arr} for similarities of shape {S.shape}")


def _blocks_base(dr):
    S = dr.similarities()
    return dict(similarity_block=lambda a, b: S[a:b], n=dr.n, k=3, block=5)


spec("measures.k_nearest_blocks", base=_blocks_base,
     data={"similarity_block": lambda dr, b: _block_fn_cases(dr)},
     check=array_of(lambda kw: (kw["n"], kw["k"]), lo=0, integer=True), params=("n", "k", "seed", "block"))


def _block_fn_cases(dr):
    S = dr.similarities()
    nan = S.copy()
    nan[0, 0] = np.nan
    return [("not callable", 3, REFUSE), ("returns None", lambda a, b: None, REFUSE),
            ("wrong shape", lambda a, b: S[a:b, :-1], REFUSE), ("NaN", lambda a, b: nan[a:b], REFUSE),
            ("strings", lambda a, b: S[a:b].astype(str), REFUSE),
            ("list", lambda a, b: S[a:b].tolist(), EITHER), ("float32", lambda a, b: S[a:b].astype(np.float32), EITHER)]


def _neigh_base(dr):
    return dict(neighbours=dr.rng.integers(0, dr.n, size=(dr.n, 3)), n=dr.n)


spec("measures.k_occurrence", base=_neigh_base,
     data={"neighbours": lambda dr, b: index_cases(b["neighbours"], dr.n)},
     check=array_of(lambda kw: (n_rows(kw["neighbours"]) if kw["n"] is None else kw["n"],), lo=0, integer=True),
     params=("n",))
spec("measures.occurrence_distribution", base=lambda dr: dict(occurrences=dr.rng.integers(0, 6, dr.n)),
     data={"occurrences": lambda dr, b: vector_cases(b["occurrences"])},
     check=lambda out, kw: _distribution_check(out))
spec("measures.skewness", base=lambda dr: dict(occurrences=dr.rng.integers(0, 6, dr.n)),
     data={"occurrences": lambda dr, b: vector_cases(b["occurrences"])}, check=scalar_in(-1e6, 1e6))


def _distribution_check(out):
    values, p = out
    finite(values)
    finite(p)
    if values.shape != p.shape or (p.size and not np.isclose(p.sum(), 1.0)) or np.any(p < 0):
        raise Wrong(f"not a distribution: values {values}, p {p}")


def _precision_base(dr):
    return dict(neighbours=dr.rng.integers(0, dr.n, size=(dr.n, 3)), labels=dr.y, query_labels=None)


spec("measures.precision_at_k", base=_precision_base,
     data={"neighbours": lambda dr, b: index_cases(b["neighbours"], dr.n), "labels": cases_for("labels", "labels"),
           "query_labels": optional(cases_for("labels", "labels"))},
     check=scalar_in(0, 1))


# embedding (fuzz owner)
def _affinities(data, data_new=None, **params):
    aff = _imp("embedding", "IsolationKernelAffinities")(data, **params)
    return aff, aff.to_new(data_new, return_distances=True)


def _affinities_check(out, kw):
    aff, new = out
    P = aff.P
    n = n_rows(kw["data"])
    if P.shape != (n, n) or not np.isfinite(P.data).all() or P.min() < 0 or not np.isclose(P.sum(), 1.0):
        raise Wrong(f"P of shape {P.shape}, sum {P.sum()}")
    if kw.get("symmetrize", True) and abs(P - P.T).max() > 1e-12:
        raise Wrong("P is not symmetric")
    if P.diagonal().any():
        raise Wrong("P has a non-zero diagonal")
    Pn, idx, dist = new
    m = n_rows(kw["data_new"])
    if Pn.shape != (m, n) or idx.shape[0] != m or idx.min() < 0 or idx.max() >= n or not np.isfinite(dist).all():
        raise Wrong("to_new returned inconsistent shapes or indices")


spec("embedding.IsolationKernelAffinities", func=_affinities,
     base=lambda dr: dict(data=dr.X, data_new=dr.X[:5], psi=4, t=20, k_neighbours="auto", random_state=0),
     data={"data": matrix("data"), "data_new": lambda dr, b: matrix_cases(dr.X[:5])}, check=_affinities_check,
     params=("psi", "t", "k_neighbours", "method", "symmetrize", "random_state"), aliases={"data_new": ("data",)})
spec("embedding.auto_neighbours", base=lambda dr: dict(n=dr.n, psi=4), check=scalar_in(1, 10**9), params=("n", "psi"))


def _scores_base(dr):
    return dict(Y=dr.X[:, :2] if dr.d > 1 else np.column_stack([dr.X, dr.X]), labels=dr.y)


_EMBED = ("embedding",)
spec("embedding.knn_accuracy", base=lambda dr: dict(_scores_base(dr), k=3),
     data={"Y": matrix("Y"), "labels": cases_for("labels", "labels")}, check=scalar_in(0, 1), params=("k",),
     aliases={"Y": _EMBED})
spec("embedding.silhouette", base=lambda dr: dict(_scores_base(dr), max_n=3000, seed=0),
     data={"Y": matrix("Y"), "labels": cases_for("labels", "labels")}, check=scalar_in(-1, 1),
     params=("max_n", "seed"), aliases={"Y": _EMBED})
spec("embedding.trustworthiness", base=lambda dr: dict(X=dr.X, Y=_scores_base(dr)["Y"], k=3, max_n=3000, seed=0),
     data={"X": matrix("X"), "Y": matrix("Y")}, check=scalar_in(0, 1), params=("k", "max_n", "seed"),
     aliases={"Y": _EMBED})
spec("embedding.separation_scores", base=lambda dr: dict(_scores_base(dr), X=dr.X, k=3, seed=0),
     data={"Y": matrix("Y"), "labels": cases_for("labels", "labels"), "X": optional(matrix("X"))},
     check=lambda out, kw: [scalar_in(-1, 1)(v, kw) for v in out.values()], params=("k", "seed"),
     aliases={"Y": _EMBED})


# data (fuzz owner)
def _dataset_check(out, kw):
    X, y = out if isinstance(out, tuple) else (out, None)
    finite(X)
    if X.ndim != 2 or (y is not None and y.shape != (X.shape[0],)):
        raise Wrong(f"X of shape {X.shape}, y of shape {None if y is None else y.shape}")


spec("data.uniform", base=_kw(n=20, d=2, low=-1.0, high=1.0, seed=0), check=_dataset_check,
     params=("n", "d", "low", "high", "seed"))
spec("data.density_ratio", base=_kw(n=40, ratio=10.0, seed=0, overlap=0.04), check=_dataset_check,
     params=("n", "ratio", "seed", "overlap"))
spec("data.density_ratio_layout", base=_kw(ratio=10.0, overlap=0.04),
     check=lambda out, kw: [finite(v) for v in out.values()], params=("ratio", "overlap"))
spec("data.four_quadrants", base=_kw(counts=(16, 4, 4, 1), seed=0), check=_dataset_check,
     params=("counts", "seed"))
spec("data.w_gaussians", base=_kw(n_per_cluster=10, w=2, sigma_a=1.0, sigma_b=1.0, seed=0),
     check=_dataset_check, params=("n_per_cluster", "w", "sigma_a", "sigma_b", "seed"))
spec("data.dense_sparse_clusters",
     base=_kw(d=3, n_per_cluster=10, sigma_dense=1.0, sigma_sparse=2.0, offset=4.0, seed=0),
     check=_dataset_check, params=("d", "n_per_cluster", "sigma_dense", "sigma_sparse", "offset", "seed"))
spec("data.cluster_queries", base=_kw(d=3, offset=4.0), check=_dataset_check, params=("d", "offset"))
spec("data.load_dataset", base=_kw(name="iris"), check=_dataset_check, params=("name",))
spec("data.dataset_info", base=_kw(name="iris"), params=("name",))
spec("data.dataset_label", base=_kw(name="iris"), params=("name",),  # a name it does not know is shown as is
     check=lambda out, kw: None if out == kw["name"] or out.startswith(f"{kw['name']} — ")
     else (_ for _ in ()).throw(Wrong(out)))
spec("data.dataset_names", base=_kw(), check=lambda out, kw: None if out and all(isinstance(s, str) for s in out)
     else (_ for _ in ()).throw(Wrong("no names")))
spec("data.load", base=_kw(name="wine", scale="minmax", max_rows=50, seed=0), check=_dataset_check,
     params=("name", "scale", "max_rows", "seed"))
spec("data.data_names", base=_kw(), check=lambda out, kw: None if "w-gaussians" in out
     else (_ for _ in ()).throw(Wrong("no w-gaussians")))
spec("data.canonical_name", base=_kw(name="W_Gaussians"), params=("name",),
     check=lambda out, kw: None if out == kw["name"].strip().lower().replace("_", "-") and out
     else (_ for _ in ()).throw(Wrong(out)))


# clustering (helper-2): functions; the estimators are fuzzed generically below
def _make_kmeans(X, **params):
    return _imp("clustering", "make_kmeans")(**params).fit_predict(X)


spec("clustering.make_kmeans", func=_make_kmeans,
     base=lambda dr: dict(X=dr.X, feature_map="ik", n_clusters=2, psi=4, t=10, n_sets=5, n_init=1,
                          random_state=0),
     data={"X": matrix("X")}, check=array_of(lambda kw: (n_rows(kw["X"]),), lo=0, integer=True),
     params=("feature_map", "n_clusters", "psi", "t", "kernel_params", "n_sets", "epsilon", "n_init",
             "random_state"), owner=H2, no_huge=("n_init",))
spec("clustering.scores", base=lambda dr: dict(y_true=dr.y, labels=dr.y[::-1].copy()),
     data={"y_true": cases_for("labels", "y_true"), "labels": cases_for("labels", "labels")},
     check=lambda out, kw: [scalar_in(-1, 1)(v, kw) for v in out.values()], owner=H2)
spec("clustering.match_labels", base=lambda dr: dict(y_true=dr.y, labels=dr.y[::-1].copy()),
     data={"y_true": cases_for("labels", "y_true"), "labels": cases_for("labels", "labels")},
     check=array_of(lambda kw: (n_rows(kw["labels"]),), lo=0, integer=True), owner=H2)
spec("clustering.minmax", base=lambda dr: dict(X=dr.X), data={"X": matrix("X")},
     check=array_of(lambda kw: np.shape(kw["X"]), lo=0, hi=1), owner=H2, invariant=("X",))


# generic estimators (features, and whatever learn / clustering export)
ESTIMATOR_PARAMS = {  # small settings, so that each of the many calls takes milliseconds
    "RandomFourierFeatures": dict(n_components=20, random_state=0),
    "LowRankNystroem": dict(budget=8, random_state=0),
    "RandLocal": dict(n_sets=5, min_anchors=8, max_anchors=16, random_state=0),
    "FOGDClassifier": dict(n_components=20, random_state=0),
    "NOGDClassifier": dict(budget=8),
    "IKOGDClassifier": dict(psi=4, t=10, prefix=10, random_state=0),
    "RandLocalOGDClassifier": dict(n_sets=5, max_anchors=16, prefix=10, random_state=0),
    "KernelGram": dict(t=10, random_state=0),
    "DensityPeaks": dict(n_clusters=2, t=20, random_state=0),
    "SpectralClustering": dict(n_clusters=2, t=20, n_init=1, random_state=0),
}
OWNERS = {"features": H2, "learn": H1, "clustering": H2, "kernels": LEAD, "embedding": ME, "measures": ME,
          "data": ME}


def _apply(est, X, y, X_new):
    """Fit ``est`` and apply it the way its kind is used; the outputs to check."""
    if isinstance(est, ClassifierMixin) or isinstance(est, RegressorMixin):
        est.fit(X, y)
        out = {"predict": est.predict(X_new)}
        if hasattr(est, "decision_function"):
            out["decision_function"] = est.decision_function(X_new)
        return est, out
    if isinstance(est, ClusterMixin):
        out = {"labels_": est.fit(X).labels_}
        if hasattr(est, "predict"):
            out["cluster predict"] = est.predict(X_new)
        return est, out
    est.fit(X)
    return est, {"transform": est.transform(X_new)}


def _estimator_check(out, kw):
    est, outputs = out
    rows = n_rows(kw["X_new"])
    for what, value in outputs.items():
        arr = finite(value, what) if what != "predict" else _dense(value)
        expected = n_rows(kw["X"]) if what == "labels_" else rows
        if arr.shape[0] != expected:
            raise Wrong(f"{what} has {arr.shape[0]} rows for {expected} input rows")
        if what == "predict" and not set(np.unique(arr)) <= set(np.unique(np.asarray(kw["y"]))):
            raise Wrong("predict returned labels that are not classes of y")


def estimator_spec(qualname: str, cls: type) -> Spec:
    ctor = ESTIMATOR_PARAMS.get(cls.__name__, {})
    needs_y = issubclass(cls, (ClassifierMixin, RegressorMixin))
    params = tuple(p for p in cls().get_params(deep=False) if p not in ("verbose", "n_jobs"))

    def func(X, X_new, y=None, **kw):
        est = cls(**{**ctor, **kw})
        return _apply(est, X, y, X_new)

    def base(dr):
        kw = dict(X=dr.X, X_new=dr.X[:6])
        if needs_y:
            kw["y"] = dr.y
        return kw

    data = {"X": matrix("X")}
    if hasattr(cls, "transform") or hasattr(cls, "predict"):
        data["X_new"] = lambda dr, b: matrix_cases(dr.X[:6])
    if needs_y:
        data["y"] = cases_for("labels", "y")
    return Spec(func=func, base=base, data=data, check=_estimator_check, params=params,
                owner=OWNERS[qualname.split(".")[0]], aliases={"X": ("array", "input"), "X_new": ("X", "array")},
                no_huge=tuple(p for p in params if p in ("max_iter", "n_init", "n_epochs", "n_passes")),
                isolate=ISOLATE.get(qualname))


#: recipes whose calls have aborted the interpreter: each of their tests runs in a subprocess
ISOLATE: dict[str, str] = {}  # e.g. {"features.RandLocal": "RandLocal.transform aborted the process on 1e300 data"}


#: public names that are plain records or constants, not calls to fuzz
NOT_CALLS = {
    "kernels.Partition": "frozen record returned by IsolationKernel.partition",
    "kernels.CellIndex": "fuzzed in a subprocess (test_cell_index_never_crashes)",
    "kernels.shared_cells": "elementwise comparison of two cell arrays (numpy broadcasting rules)",
    "learn.StreamResult": "record returned by the online learners",
    "learn.METHODS": "constant", "data.QUADRANTS": "constant", "data.QUERIES": "constant",
    "data.DATASETS": "constant", "clustering.DecisionGraph": "record returned by decision_graph",
    "data.fetch": "reads a registered file from the mirror, the cache or the network: its bad names, checksums "
                  "and truncated downloads are tested in tests/test_fetch.py without the network",
    "data.FetchError": "the exception fetch raises",
    "data.LOADERS": "registry (constant)", "data.STEPS": "registry (constant)",
    "data.Prepared": "record returned by resolve", "data.Step": "record made by step",
    **{f"data.{name}": "a data description and its resolution: bad sources, steps, options and seeds are tested "
                       "in tests/test_data_registry.py; the arrays it yields come from data.load's fuzzed loaders"
       for name in ("Data", "step", "resolve")},
}


def public_names() -> dict[str, Any]:
    out = {}
    for package in PACKAGES:
        module = importlib.import_module(f"ikviz.{package}")
        for name in module.__all__:
            out[f"{package}.{name}"] = getattr(module, name)
    return out


def all_specs() -> dict[str, Spec]:
    specs = {}
    for qualname, obj in public_names().items():
        if qualname in NOT_CALLS:
            continue
        if qualname in SPECS:
            specs[qualname] = SPECS[qualname]
        elif qualname == "kernels.IsolationKernel":
            specs.update({k: v for k, v in SPECS.items() if k.startswith("kernels.IsolationKernel[")})
        elif inspect.isclass(obj) and issubclass(obj, BaseEstimator):
            specs[qualname] = estimator_spec(qualname, obj)
    return specs


SPECS_NOW = all_specs()


# known failures in modules owned by others (kept precise; each is a strict xfail, so a fix makes it XPASS and
# the entry must go). Key: (recipe, "data:<argument>" | "params" | "scalars" | "invariance:<argument>").
KNOWN: dict[tuple[str, str], str] = {
}


def _param(qualname: str, kind: str, arg: str | None = None):
    ident = qualname if arg is None else f"{qualname}:{arg}"
    reason = KNOWN.get((qualname, kind if arg is None else f"{kind}:{arg}"))
    marks = [pytest.mark.xfail(strict=True, reason=reason)] if reason else []
    return pytest.param(qualname, arg, id=ident, marks=marks)


# ------------------------------------------------------------------------------------------------ running a call
class Hang(BaseException):
    """A call ran past HANG_SECONDS (BaseException, so no ``except Exception`` swallows it)."""


@contextlib.contextmanager
def time_limit(seconds: float):
    def alarm(signum, frame):
        raise Hang()
    old = signal.signal(signal.SIGALRM, alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


RAW = (MemoryError, OverflowError, IndexError, ZeroDivisionError, KeyError, AttributeError, RuntimeError,
       FloatingPointError, AssertionError, SystemError, RecursionError)


def _names(message: str, names) -> bool:
    return any(re.search(rf"(?<![A-Za-z0-9_]){re.escape(n)}(?![A-Za-z0-9_])", message) for n in names)


def outcome(spec_: Spec, kw: dict, expect: str, arg: str) -> str | None:
    """Run one call; ``None`` if it behaved, else what went wrong."""
    names = (arg, *spec_.aliases.get(arg, ()))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            with time_limit(HANG_SECONDS):
                result = spec_.func(**kw)
        except Hang:
            return f"took more than {HANG_SECONDS:.0f} s (no guard on a huge size?)"
        except (ValueError, TypeError) as exc:
            module = type(exc).__module__ or ""
            message = str(exc).strip()
            if module.startswith("numba"):
                return f"numba error {type(exc).__name__}: {message[:200]}"
            if not message:
                return f"{type(exc).__name__} with an empty message"
            if not _names(message, names):
                return f"{type(exc).__name__} not naming {arg!r}: {message[:200]}"
            return None
        except Wrong as exc:
            return f"silently wrong inside the call: {exc}"
        except Exception as exc:  # noqa: BLE001 - every other exception is a finding
            return f"raw {type(exc).__module__}.{type(exc).__name__}: {str(exc)[:200]}"
    runtime = [w for w in caught if issubclass(w.category, RuntimeWarning)]
    if expect == REFUSE:
        return "accepted silently (should raise ValueError/TypeError)"
    try:
        spec_.check(result, kw)
    except Wrong as exc:
        return f"silently wrong result: {exc}"
    except Exception as exc:  # noqa: BLE001
        return f"result could not be checked ({type(exc).__name__}: {exc})"
    if runtime:
        return f"RuntimeWarning: {runtime[0].message}"
    return None


def _short(value) -> str:
    text = repr(value) if not isinstance(value, np.ndarray) else f"array{value.shape} {value.dtype}"
    return text if len(text) < 60 else text[:57] + "..."


def _report(qualname: str, failures: list[str]) -> None:
    if failures:
        pytest.fail(f"{qualname} ({SPECS_NOW[qualname].owner}): {len(failures)} finding(s)\n  " +
                    "\n  ".join(failures), pytrace=False)


# ------------------------------------------------------------------------------------------------ tests
_INNER = "IKVIZ_FUZZ_INNER"


@pytest.fixture(scope="module", autouse=True)
def _one_thread():
    """Run the many tiny calls on one thread (numba, BLAS, OpenMP): starting thread pools thousands of times
    costs more than the calls themselves, and the fuzz checks results, not parallel speed."""
    import numba
    from threadpoolctl import threadpool_limits

    before = numba.get_num_threads()
    numba.set_num_threads(1)
    try:
        with threadpool_limits(1):
            yield
    finally:
        numba.set_num_threads(before)


def _ran_isolated(request, qualname: str) -> bool:
    """Run this test in a fresh interpreter when its recipe is marked ``isolate`` (a crash fails it, only it)."""
    if not SPECS_NOW[qualname].isolate or os.environ.get(_INNER):
        return False
    env = {**os.environ, _INNER: "1"}
    proc = subprocess.run([sys.executable, "-m", "pytest", "-q", "-s", "-p", "no:cacheprovider", "--runxfail",
                           request.node.nodeid], capture_output=True, text=True, env=env, timeout=600,
                          cwd=request.config.rootpath)
    if proc.returncode != 0:
        text = proc.stdout + proc.stderr
        if proc.returncode < 0 or "Fatal Python error" in text:
            cases = re.findall(r"^CASE (.*)$", proc.stderr, flags=re.M)
            fatal = re.findall(r"^Fatal Python error.*$", text, flags=re.M)
            pytest.fail(f"the interpreter crashed (exit {proc.returncode}, {fatal[:1]}) during "
                        f"{cases[-1] if cases else 'an unknown case'}", pytrace=False)
        pytest.fail(f"failed in a subprocess:\n{text[-3000:]}", pytrace=False)
    return True


def _announce(qualname: str, what: str) -> None:
    """In a subprocess, name each case before running it, so a crash can be traced to it."""
    if os.environ.get(_INNER):
        os.write(2, f"CASE {qualname} {what}\n".encode())  # past pytest's capture: a crash loses that


def test_every_public_name_has_a_recipe():
    missing = [q for q, obj in public_names().items()
               if q not in NOT_CALLS and q not in SPECS and q != "kernels.IsolationKernel"
               and not (inspect.isclass(obj) and issubclass(obj, BaseEstimator))]
    assert not missing, f"add fuzz recipes for {missing} in tests/test_fuzz.py"


def test_recipes_are_valid_calls():
    """Every recipe's valid arguments give a valid result (otherwise the fuzz proves nothing)."""
    failures = []
    dr = Draw(16, 3, 0)
    for qualname, spec_ in SPECS_NOW.items():
        problem = outcome(spec_, spec_.base(dr), EITHER, "-")
        if problem:
            failures.append(f"{qualname}: {problem}")
    assert not failures, "\n".join(failures)


DATA_PARAMS = [_param(q, "data", a) for q, s in SPECS_NOW.items() for a in s.data]


@pytest.mark.parametrize("qualname, arg", DATA_PARAMS)
def test_bad_data(qualname, arg, request):
    if not _ran_isolated(request, qualname):
        _bad_data(qualname, arg)


@FUZZ
@given(dr=draws)
def _bad_data(qualname, arg, dr):
    spec_ = SPECS_NOW[qualname]
    base = spec_.base(dr)
    failures = []
    for label, value, expect in spec_.data[arg](dr, base):
        _announce(qualname, f"{arg}={label}")
        problem = outcome(spec_, {**base, arg: value}, expect, arg)
        if problem:
            failures.append(f"{arg}={label}: {problem}")
    _report(qualname, failures)


PARAM_PARAMS = [_param(q, "params") for q, s in SPECS_NOW.items() if s.params]


@pytest.mark.parametrize("qualname, arg", PARAM_PARAMS)
def test_bad_parameters(qualname, arg, request):
    if not _ran_isolated(request, qualname):
        _bad_parameters(qualname)


@FUZZ
@given(dr=draws, extra=st.lists(drawn_params, min_size=1, max_size=1))
def _bad_parameters(qualname, dr, extra):
    spec_ = SPECS_NOW[qualname]
    base = spec_.base(dr)
    failures = []
    for name in spec_.params:
        values = [(label, v) for label, v in BAD_PARAMS
                  if not (name in spec_.no_huge and label in HUGE_LABELS)] + [(_short(v), v) for v in extra]
        for label, value in values:
            _announce(qualname, f"{name}={label}")
            problem = outcome(spec_, {**base, name: value}, EITHER, name)
            if problem:
                failures.append(f"{name}={label}: {problem}")
    _report(qualname, failures)


def _numpy_versions(value):
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return []
    if isinstance(value, int):
        out = [np.int64(value), np.int32(value)]
        return out + [np.uint16(value)] if 0 <= value < 2**16 else out
    out = [np.float64(value), np.float32(value)]
    return out + [np.int64(value)] if float(value).is_integer() else out


SCALAR_PARAMS = [_param(q, "scalars") for q, s in SPECS_NOW.items() if s.params]


@pytest.mark.parametrize("qualname, arg", SCALAR_PARAMS)
def test_numpy_scalars_are_accepted(qualname, arg, request):
    """``gamma=np.float32(1)``, ``k=np.int64(3)``... behave like the Python numbers."""
    if _ran_isolated(request, qualname):
        return
    spec_ = SPECS_NOW[qualname]
    base = spec_.base(Draw(16, 2, 0))
    failures = []
    defaults = _signature_defaults(qualname)
    for name in spec_.params:
        value = base.get(name, defaults.get(name))
        for np_value in _numpy_versions(value):
            problem = outcome(spec_, {**base, name: np_value}, EITHER, name)
            if problem:
                failures.append(f"{name}={type(np_value).__name__}({value}): {problem}")
    _report(qualname, failures)


def _signature_defaults(qualname: str) -> dict:
    module, attr = qualname.split(".")
    attr = attr.split("[")[0]
    obj = getattr(importlib.import_module(f"ikviz.{module}"), attr, None)
    try:
        sig = inspect.signature(obj)
    except (TypeError, ValueError):
        return {}
    return {k: p.default for k, p in sig.parameters.items() if p.default is not inspect.Parameter.empty}


INVARIANT_PARAMS = [_param(q, "invariance", a) for q, s in SPECS_NOW.items() for a in s.invariant]


@pytest.mark.parametrize("qualname, arg", INVARIANT_PARAMS)
def test_translation_invariance(qualname, arg, request):
    """Distances do not change when the data move far from the origin (no cancellation in |x|^2 - 2 x.y)."""
    if not _ran_isolated(request, qualname):
        _translation_invariance(qualname, arg)


@FUZZ
@given(dr=draws, offset=st.sampled_from([1e6, 1.7e9, -3e12, 1e15]))
@example(dr=Draw(21, 4, 1967), offset=1e15)  # ties on a coarse grid: found by the thorough profile
@example(dr=Draw(14, 2, 25259669), offset=1e15)  # the same for "inne"
def _translation_invariance(qualname, arg, dr, offset):
    spec_ = SPECS_NOW[qualname]
    base = spec_.base(dr)
    if base.get(arg) is None:
        base[arg] = dr.X[:7]
    # data on a grid of 4 ulps of the offset: the shifted data are then exact, so any change is the function's
    grid = 4 * np.spacing(abs(offset))
    shifted = dict(base)
    for name in spec_.invariant:
        if base.get(name) is not None:
            base[name] = np.round(np.asarray(base[name]) / grid) * grid
            shifted[name] = base[name] + offset
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        ref = spec_.func(**base)
        got = spec_.func(**shifted)
    ref, got = _comparable(ref), _comparable(got)
    for a, b in zip(ref, got, strict=True):
        worst = float(np.max(np.abs(a - b))) if a.size and a.shape == b.shape else np.inf
        if worst > 1e-9 * max(1.0, float(np.max(np.abs(a))) if a.size else 1.0):
            pytest.fail(f"{qualname} ({spec_.owner}): the result moved by {worst:.3g} when {spec_.invariant} were "
                        f"shifted by {offset:g} (n={dr.n}, d={dr.d}, seed={dr.seed}, data on a grid of {grid:g})",
                        pytrace=False)


def _comparable(out) -> list[np.ndarray]:
    if isinstance(out, tuple):
        out = out[0]
    if hasattr(out, "P"):
        return [out.P.toarray()]
    if isinstance(out, dict):
        return [np.atleast_1d(np.asarray(v, dtype=float)) for v in out.values()]
    return [np.atleast_1d(_dense(out).astype(float))]


# ------------------------------------------------------------------------------------------------ CellIndex
_CELL_SCRIPT = textwrap.dedent(r"""
    import sys, numpy as np
    from ikviz import IsolationKernel
    from ikviz.kernels import CellIndex
    X = np.random.default_rng(0).random((30, 2))
    a = IsolationKernel(psi=4, t=10, random_state=0).fit(X)
    b = IsolationKernel(psi=8, t=6, random_state=0).fit(X)
    good = a.cells(X)
    neg = good.copy(); neg[0, 0] = -3
    big = good.copy(); big[0, 0] = 4
    huge = good.copy().astype(np.int64); huge[0, 0] = 2**40
    cases = {
        "query from another kernel": lambda: a.index(X).similarity(b.cells(X)),
        "neighbours of another kernel's query": lambda: a.index(X).neighbours(b.cells(X), k=3),
        "cells out of range": lambda: CellIndex(big, 4).similarity(),
        "cells below -1": lambda: CellIndex(neg, 4).similarity(),
        "cells 2**40": lambda: CellIndex(huge, 4).neighbours(k=2),
        "psi 0": lambda: CellIndex(good, 0).similarity(),
        "psi huge": lambda: CellIndex(good, 10**12).similarity(),
        "query out of range": lambda: CellIndex(good, 4).similarity(big),
        "query below -1": lambda: CellIndex(good, 4).neighbours(neg, k=3),
        "float cells": lambda: CellIndex(good + 0.5, 4).similarity(),
        "1-D cells": lambda: CellIndex(good[0], 4).similarity(),
        "no rows": lambda: CellIndex(good[:0], 4).similarity(),
        "k = 0": lambda: CellIndex(good, 4).neighbours(k=0),
        "k = n": lambda: CellIndex(good, 4).neighbours(k=30),
        "k huge": lambda: CellIndex(good, 4).neighbours(good, k=10**12),
        "out of wrong shape": lambda: CellIndex(good, 4).similarity(out=np.zeros((3, 3))),
        "None": lambda: CellIndex(None, 4).similarity(),
    }
    for name, call in cases.items():
        print("START", name, flush=True)
        try:
            out = call()
            print("RESULT", name, type(out).__name__, flush=True)
        except (ValueError, TypeError) as exc:
            print("CLEAR", name, type(exc).__name__, str(exc).replace("\n", " ")[:150], flush=True)
        except BaseException as exc:
            print("RAW", name, type(exc).__name__, str(exc).replace("\n", " ")[:150], flush=True)
    print("DONE", flush=True)
""")


def test_cell_index_never_crashes():
    """Mismatched or out-of-range cells give a ValueError, never a segfault, in compiled code (lead's module)."""
    proc = subprocess.run([sys.executable, "-c", _CELL_SCRIPT], capture_output=True, text=True, timeout=300)
    lines = proc.stdout.splitlines()
    started = [ln[6:] for ln in lines if ln.startswith("START ")]
    problems = [ln for ln in lines if ln.startswith("RAW ")]
    if "DONE" not in lines:
        problems.append(f"process died (exit {proc.returncode}) during {started[-1] if started else '?'!r}: "
                        f"{proc.stderr[-500:]}")
    accepted = {"no rows", "k = n"}  # valid calls with defined results (an empty result; all rows)
    problems += [ln for ln in lines if ln.startswith("RESULT ") and ln.split(" ", 1)[1].rsplit(" ", 1)[0]
                 not in accepted]
    assert not problems, "\n".join(problems)
