"""Issue 31 item 5: the classic kernels are as exact as IK's cells.

K(x, x) = 1 exactly for any data, a row alone gives bit for bit its values in
a batch, and extreme magnitudes give the kernel of the differences. Before the
pair-by-pair computation, ``rbf(X, X.copy())`` had a diagonal of 1e-7 for data
of magnitude 1e8 (0.999 at 1e6): ``|x|^2 - 2 x.y + |y|^2`` cancels.
"""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from ikviz.kernels import adaptive_gaussian, laplacian, laplacian_psi, rbf

KERNELS = {
    "rbf": lambda X, Y=None: rbf(X, Y, gamma=1.0),
    "laplacian": lambda X, Y=None: laplacian(X, Y, gamma=1.0),
    "laplacian_psi": lambda X, Y=None: laplacian_psi(X, Y, psi=16),
}


@pytest.mark.parametrize("name", [*KERNELS, "adaptive_gaussian"])
@pytest.mark.parametrize("magnitude", [1.0, 1e6, 1e8, 1e15, 1e300])
def test_k_of_x_and_its_copy_is_exactly_one(name, magnitude):
    X = np.random.default_rng(0).normal(size=(30, 4)) * magnitude
    if name == "adaptive_gaussian":
        K = adaptive_gaussian(X, X.copy(), k=3)
    else:
        K = KERNELS[name](X, X.copy())
    assert np.array_equal(np.diag(K), np.ones(len(X)))


@pytest.mark.parametrize("name", list(KERNELS))
@pytest.mark.parametrize("offset", [0.0, 1e8, 1.7e9, 1e15])
def test_a_row_alone_equals_its_row_in_a_batch(name, offset):
    rng = np.random.default_rng(1)
    X = rng.normal(size=(40, 3)) * 10 + offset
    Y = rng.normal(size=(25, 3)) * 10 + offset
    kernel = KERNELS[name]
    batch = kernel(X, Y)
    alone = np.vstack([kernel(X[i:i + 1], Y) for i in range(len(X))])
    assert np.array_equal(alone, batch)
    # ... and does not depend on which other rows, however large, share the batch
    mixed = kernel(np.vstack([X[:5], np.full((1, 3), 1e300)]), Y)
    assert np.array_equal(mixed[:5], batch[:5])


def test_values_near_the_float_maximum_are_the_kernel_of_the_differences():
    X = np.array([[0.0], [2.0**530]])  # squared difference 2**1060: over the float range
    assert rbf(X, gamma=2.0**-1060)[0, 1] == pytest.approx(np.exp(-1.0), rel=1e-12)
    big = np.finfo(float).max
    far = np.array([[big], [-big]])  # the difference itself overflows
    expected = np.exp(-np.ldexp(big, -1030))  # 2 big (over the float range) times 2**-1031
    assert laplacian(far, gamma=2.0**-1031)[0, 1] == pytest.approx(expected, rel=1e-12)
    assert rbf(far)[0, 1] == 0.0 and np.array_equal(np.diag(rbf(far)), np.ones(2))
    tiny = np.array([[0.0], [2.0**-1000]])  # squared difference 2**-2000 underflows unless rescaled
    assert rbf(tiny, gamma=2.0**1000)[0, 1] == pytest.approx(np.exp(-(2.0**-1000)), rel=1e-15)
    assert laplacian(tiny, gamma=2.0**1000)[0, 1] == pytest.approx(np.exp(-1.0), rel=1e-15)


@settings(max_examples=60, deadline=None)
@given(X=arrays(np.float64, st.tuples(st.integers(1, 6), st.integers(1, 4)),
                elements=st.floats(-1e300, 1e300, allow_nan=False, allow_infinity=False)),
       gamma=st.floats(1e-300, 1e300))
def test_any_finite_data_gives_a_valid_kernel(X, gamma):
    for K in (rbf(X, X.copy(), gamma=gamma), laplacian(X, X.copy(), gamma=gamma)):
        assert np.isfinite(K).all() and K.min() >= 0.0 and K.max() <= 1.0
        assert np.array_equal(np.diag(K), np.ones(len(X)))
        assert np.array_equal(K, K.T)
