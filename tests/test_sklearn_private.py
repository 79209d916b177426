"""Issue 29: scikit-learn's private API is used in one module only, ikviz/_sklearn.py, and this file checks
each of its names still behaves as ikviz relies on, so that a scikit-learn release that changes one fails
here first (with ikviz/_sklearn.py the one file to adapt)."""

import ast
from numbers import Integral, Real
from pathlib import Path

import numpy as np
import pytest
from sklearn.base import BaseEstimator

from ikviz import _sklearn
from ikviz._sklearn import (HasMethods, Hidden, Interval, InvalidParameterError, StrOptions, fit_context,
                            validate_params)

ROOT = Path(__file__).resolve().parents[1]


def _private_imports(source: str) -> list[str]:
    """``import``s of a private scikit-learn module or name (a dotted part or imported name starting with _)."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "sklearn":
            parts = node.module.split(".")
            names = [a.name for a in node.names]
            if any(p.startswith("_") for p in parts) or any(n.startswith("_") for n in names):
                found.append(f"from {node.module} import {', '.join(names)}")
        elif isinstance(node, ast.Import):
            found += [f"import {a.name}" for a in node.names
                      if a.name.split(".")[0] == "sklearn" and any(p.startswith("_") for p in a.name.split("."))]
    return found


def test_no_other_module_imports_private_scikit_learn_names():
    offenders = []
    for path in sorted((ROOT / "ikviz").rglob("*.py")) + sorted((ROOT / "app").rglob("*.py")):
        if path.name == "_sklearn.py" and path.parent.name == "ikviz":
            continue
        offenders += [f"{path.relative_to(ROOT)}: {imp}" for imp in _private_imports(path.read_text(encoding="utf-8"))]
    assert offenders == [], "import these through ikviz/_sklearn.py:\n" + "\n".join(offenders)


def test_the_scan_finds_private_imports():
    assert _private_imports("from sklearn.base import BaseEstimator, _fit_context\n") != []
    assert _private_imports("from sklearn.utils._param_validation import Interval\n") != []
    assert _private_imports("import sklearn.utils._param_validation\n") != []
    assert _private_imports("from sklearn import cluster as _c\nfrom sklearn.utils import check_array\n") == []


def test_the_wrapper_exports_exactly_what_it_documents():
    assert set(_sklearn.__all__) == {"HasMethods", "Hidden", "Interval", "InvalidParameterError", "StrOptions",
                                     "fit_context", "validate_params"}
    assert issubclass(InvalidParameterError, ValueError) and issubclass(InvalidParameterError, TypeError)


class _Tiny(BaseEstimator):
    _parameter_constraints: dict = {
        "n": [Interval(Integral, 1, None, closed="left")],
        "rate": [Interval(Real, 0, 1, closed="neither")],
        "mode": [StrOptions({"a", "b"})],
        "model": [HasMethods(["fit"]), None],
        "random_state": ["random_state"],
        "old": [Interval(Integral, 1, None, closed="left"), Hidden(StrOptions({"deprecated"}))],
    }

    def __init__(self, n=1, rate=0.5, mode="a", model=None, random_state=None, old="deprecated"):
        self.n, self.rate, self.mode, self.model, self.random_state = n, rate, mode, model, random_state
        self.old = old

    @fit_context(prefer_skip_nested_validation=True)
    def fit(self, X=None, y=None):
        self.fitted_ = True
        return self


@pytest.mark.parametrize("params, message", [
    (dict(n=0), r"The 'n' parameter of _Tiny must be an int in the range \[1, inf\). Got 0 instead."),
    (dict(n=1.5), r"The 'n' parameter of _Tiny must be an int in the range \[1, inf\). Got 1.5 instead."),
    (dict(rate=1.0), r"The 'rate' parameter of _Tiny must be a float in the range \(0.0, 1.0\). Got 1.0 instead."),
    (dict(mode="c"), r"The 'mode' parameter of _Tiny must be a str among \{'a', 'b'\}|"
                     r"The 'mode' parameter of _Tiny must be a str among \{'b', 'a'\}"),
    (dict(model=3), r"The 'model' parameter of _Tiny must be an object implementing 'fit' or None. Got 3"),
    (dict(random_state="x"), r"The 'random_state' parameter of _Tiny must be"),
    # a Hidden option is accepted but not advertised: the message names only the int range
    (dict(old="other"), r"The 'old' parameter of _Tiny must be an int in the range \[1, inf\)\. Got 'other'"),
])
def test_fit_context_checks_parameter_constraints_with_scikit_learns_messages(params, message):
    with pytest.raises(InvalidParameterError, match=message):
        _Tiny(**params).fit()
    assert _Tiny(n=np.int64(3), rate=np.float32(0.25), mode="b", random_state=0).fit().fitted_
    assert _Tiny(old="deprecated").fit().fitted_ and _Tiny(old=4).fit().fitted_


def test_validate_params_checks_a_functions_arguments():
    @validate_params({"k": [Interval(Integral, 1, None, closed="left")], "X": ["array-like"]},
                     prefer_skip_nested_validation=True)
    def neighbours(X, k=7):
        return k

    assert neighbours([[0.0]], k=np.int32(2)) == 2
    with pytest.raises(InvalidParameterError,
                       match=r"The 'k' parameter of .*neighbours must be an int in the range \[1, inf\). Got 0"):
        neighbours([[0.0]], k=0)
    with pytest.raises(InvalidParameterError, match=r"The 'X' parameter of .*neighbours must be an array-like"):
        neighbours(object())


def test_a_nested_call_inside_fit_skips_its_validation():
    """``prefer_skip_nested_validation=True``: functions a fit calls trust the fit's own checks (speed)."""
    @validate_params({"k": [Interval(Integral, 1, None, closed="left")]}, prefer_skip_nested_validation=True)
    def inner(k):
        return k

    class Outer(_Tiny):
        @fit_context(prefer_skip_nested_validation=True)
        def fit(self, X=None, y=None):
            self.inner_ = inner(0)  # would raise if validated
            return self

    assert Outer().fit().inner_ == 0
