"""Properties of the Isolation Kernel that must hold for any data, checked with hypothesis."""

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from ikviz import IsolationKernel

METHODS = ["anne", "inne", "iforest"]
FAST = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def data_sets(draw):
    """Small matrices with duplicates, a shift far from the origin and a wide range of scales."""
    n = draw(st.integers(2, 40))
    d = draw(st.integers(1, 6))
    X = draw(arrays(np.float64, (n, d), elements=st.floats(-1, 1, allow_nan=False, width=32)))
    if draw(st.booleans()):
        X = np.vstack([X, X[: n // 2]])                       # exact duplicates
    scale = draw(st.sampled_from([1e-150, 1e-3, 1.0, 1e6, 1e150]))
    offset = draw(st.sampled_from([0.0, 1e4, -1.7e9]))
    return X * scale + offset * (scale >= 1)


@FAST
@given(X=data_sets(), method=st.sampled_from(METHODS), psi=st.integers(2, 16), seed=st.integers(0, 2**16))
def test_kernel_is_symmetric_bounded_and_psd(X, method, psi, seed):
    ik = IsolationKernel(psi=min(psi, len(X)), t=20, method=method, random_state=seed).fit(X)
    K = ik.similarity(X)
    assert np.array_equal(K, K.T)
    assert K.min() >= 0 and K.max() <= 1
    assert np.linalg.eigvalsh(K).min() >= -1e-9
    assert np.all(K <= np.sqrt(np.outer(np.diag(K), np.diag(K))) + 1e-12)   # Cauchy-Schwarz
    if method != "inne":
        assert np.all(np.diag(K) == 1)


@FAST
@given(X=data_sets(), method=st.sampled_from(METHODS), block=st.integers(1, 17), seed=st.integers(0, 2**16))
def test_streamed_equals_whole_and_one_row_equals_its_batch_row(X, method, block, seed):
    ik = IsolationKernel(psi=min(8, len(X)), t=15, method=method, random_state=seed).fit(X)
    whole = ik.transform(X)
    streamed = sp.vstack([ik.transform(X[i:i + block]) for i in range(0, len(X), block)])
    assert (whole != streamed).nnz == 0
    row = int(seed % len(X))
    assert np.array_equal(ik.cells(X[row:row + 1])[0], ik.cells(X)[row])


@FAST
@given(X=data_sets(), method=st.sampled_from(METHODS), seed=st.integers(0, 2**16))
def test_features_reproduce_the_kernel(X, method, seed):
    ik = IsolationKernel(psi=min(8, len(X)), t=15, method=method, random_state=seed).fit(X)
    F = ik.transform(X)
    np.testing.assert_allclose((F @ F.T).toarray(), ik.similarity(X), atol=1e-12)


@pytest.mark.parametrize("method", METHODS)
def test_pickle_round_trip_gives_the_same_cells(method):
    import pickle

    X = np.random.default_rng(0).normal(size=(200, 4))
    ik = IsolationKernel(psi=16, t=30, method=method, random_state=0).fit(X)
    again = pickle.loads(pickle.dumps(ik))
    assert np.array_equal(again.cells(X), ik.cells(X))
