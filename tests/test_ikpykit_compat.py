"""ikpykit's own IsoKernel tests, run against ikviz's IsolationKernel through a names-only adapter.

The tests are imported from the installed ikpykit package (nothing of it is
copied here); only the constructor's parameter names are translated:
``n_estimators`` -> ``t``, ``max_samples`` -> ``psi`` ("auto": 8, as ikpykit),
and ikpykit's 0/1 feature map -> ``binary=True``.
"""

import pytest

from ikviz import IsolationKernel

ikpykit_tests = pytest.importorskip("ikpykit.kernel.tests.test_isokernel")


class IsoKernel(IsolationKernel):
    """ikpykit's ``IsoKernel`` signature on ikviz's ``IsolationKernel``."""

    _parameter_constraints = {"method": IsolationKernel._parameter_constraints["method"]}
    binary, max_depth, dense_budget = True, "auto", None

    def __init__(self, method="anne", n_estimators=200, max_samples="auto", random_state=None):
        self.method = method
        self.n_estimators = n_estimators
        self.max_samples = max_samples
        self.random_state = random_state

    @property
    def psi(self):
        return 8 if self.max_samples == "auto" else self.max_samples

    @property
    def t(self):
        return self.n_estimators

    def fit(self, X, y=None):
        super().fit(X, y)
        self.is_fitted_ = True
        return self


ikpykit_tests.IsoKernel = IsoKernel
data = ikpykit_tests.data
globals().update({name: getattr(ikpykit_tests, name) for name in dir(ikpykit_tests)
                  if name.startswith("test_") and name != "test_IsoKernel_rejects_unknown_method"})


@pytest.mark.xfail(strict=True, raises=AssertionError,
                   reason="same exception type (ValueError), scikit-learn's wording: \"The 'method' parameter "
                          "of IsolationKernel must be a str among {...}\" instead of ikpykit's \"is not supported\"")
def test_IsoKernel_rejects_unknown_method(data):
    ikpykit_tests.test_IsoKernel_rejects_unknown_method(data)


def test_the_adapter_runs_ikviz():
    ik = IsoKernel(method="inne", n_estimators=5, max_samples=4, random_state=0)
    assert ik.fit([[0.0], [1.0], [3.0], [7.0]]).psi_ == 4 and ik.t == 5 and type(ik).__mro__[1] is IsolationKernel
