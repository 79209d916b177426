"""The data-independent kernels IK is compared with."""

import numpy as np
import pytest

from ikviz.kernels import adaptive_gaussian, laplacian, laplacian_psi, linear, local_scale, rbf


@pytest.fixture
def X():
    return np.random.default_rng(0).uniform(-1, 1, size=(40, 4))


def test_laplacian_psi_matches_paper_formula(X):
    K = laplacian_psi(X, X[:5], psi=16)
    expected = 16.0 ** (-np.abs(X[:, None, :] - X[None, :5, :]).sum(axis=2) / 4)
    assert np.allclose(K, expected)


def test_laplacian_lambda_form_and_rbf_and_linear(X):
    l1 = np.abs(X[:, None, :] - X[None, :, :]).sum(axis=2)
    sq = ((X[:, None, :] - X[None, :, :]) ** 2).sum(axis=2)
    assert np.allclose(laplacian(X, gamma=0.7), np.exp(-0.7 * l1))
    assert np.allclose(rbf(X, gamma=2.0), np.exp(-2.0 * sq))
    assert np.allclose(linear(X), X @ X.T)


@pytest.mark.parametrize("kernel", [rbf, laplacian, laplacian_psi, adaptive_gaussian])
def test_similarity_kernels_are_valid(kernel, X):
    K = kernel(X)
    assert np.allclose(np.diag(K), 1.0)
    assert np.allclose(K, K.T)
    assert K.min() >= 0 and K.max() <= 1
    assert np.linalg.eigvalsh(K).min() >= -1e-8 or kernel is adaptive_gaussian


def test_adaptive_gaussian_is_wider_in_sparse_regions():
    rng = np.random.default_rng(1)
    dense = rng.normal(0, 0.1, size=(100, 2))
    sparse = rng.normal(5, 1.0, size=(100, 2))
    X = np.vstack([dense, sparse])
    scale = local_scale(X, k=5)
    assert scale[100:].mean() > 5 * scale[:100].mean()
    probe = np.array([[0.0, 0.0], [0.3, 0.0], [5.0, 5.0], [5.3, 5.0]])
    K = adaptive_gaussian(probe, X, k=5)
    assert K.shape == (4, 200)
    # a pair 0.3 apart: similar in the sparse cluster, dissimilar in the dense one
    pair = adaptive_gaussian(probe, k=5, reference=X)
    assert pair[2, 3] > pair[0, 1] + 0.3


def test_bad_input_messages(X):
    with pytest.raises(ValueError, match=r"The 'gamma' parameter of rbf must be a float in the range \(0.0, inf\)"):
        rbf(X, gamma=-1)
    with pytest.raises(ValueError, match=r"'psi' parameter of laplacian_psi must be a float in the range \(1.0"):
        laplacian_psi(X, psi=1)
    with pytest.raises(ValueError, match="X has 4 features but Y has 3"):
        rbf(X, X[:, :3])
    with pytest.raises(ValueError, match=r"k=40 neighbours asked for, but X has 40 row\(s\).*between 1 and 39"):
        adaptive_gaussian(X, k=40)
    with pytest.raises(ValueError, match=r"over dense_budget=100 \(bytes\)\. Subsample the data or use an explicit"):
        linear(X, dense_budget=100)
    with pytest.raises(ValueError, match="NaN or infinity"):
        rbf(np.array([[np.nan, 1.0]]))
    with pytest.raises(ValueError, match="datetime64"):
        rbf(np.array([["2024-01-01"]], dtype="datetime64[D]"))
    with pytest.raises(ValueError, match="exceeds the float range"):
        linear(X * 1e200)


def test_numpy_scalar_parameters_are_accepted(X):
    assert np.array_equal(rbf(X, gamma=np.float32(0.5)), rbf(X, gamma=0.5))
    assert np.array_equal(laplacian_psi(X, psi=np.int64(16)), laplacian_psi(X, psi=16))
    assert np.array_equal(adaptive_gaussian(X, k=np.int32(5)), adaptive_gaussian(X, k=5))


@pytest.mark.parametrize("kernel", [rbf, laplacian, laplacian_psi, adaptive_gaussian])
@pytest.mark.parametrize("offset", [1e6, 1.7e9, 1e15])
def test_kernels_are_exact_far_from_the_origin(kernel, offset, X):
    """|x|^2 - 2 x.y + |y|^2 cancels catastrophically at 1e9; the kernels centre the data first."""
    grid = 4 * np.spacing(offset)  # data on this grid stay exact when shifted
    Xq = np.round(X / grid) * grid
    assert np.allclose(kernel(Xq + offset, Xq[:9] + offset), kernel(Xq, Xq[:9]), atol=1e-12)


@pytest.mark.parametrize("scale", [1e300, 1e-300, 5e-324 * 2**40])
def test_kernels_are_scale_covariant_at_extreme_magnitudes(scale, X):
    """At 1e300 the squared distances overflow and at 1e-300 they underflow unless the data are rescaled."""
    for kernel in (rbf, laplacian, laplacian_psi, adaptive_gaussian):
        K = kernel(X * scale)
        assert np.isfinite(K).all() and np.allclose(np.diag(K), 1.0) and K.min() >= 0 and K.max() <= 1
    assert np.allclose(adaptive_gaussian(X * scale, k=5), adaptive_gaussian(X, k=5))
    assert np.allclose(local_scale(X * scale, k=5) / scale, local_scale(X, k=5), rtol=1e-9)
    big = rbf(X * scale, gamma=1.0)
    assert np.array_equal(big, np.eye(len(X))) if scale > 1 else np.allclose(big, 1.0)
