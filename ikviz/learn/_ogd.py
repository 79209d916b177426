"""Numba passes of online gradient descent with the hinge loss (Lu et al. 2016, Alg. 1-4), and the dense maps.

Every pass predicts each example before it learns from it (progressive validation)
and writes whether the prediction was wrong into ``mistakes``. Labels are class
indices 0..m-1. With one weight row (binary) the model is sgn(w . z) with y = +-1
(Alg. 1), class 1 when w . z > 0; with m rows it is argmax_r w_r . z with the
multi-class hinge loss 1 - (w_y - w_s) . z, s the best wrong class (Alg. 3). The
weights are updated in place, so a stream can be processed chunk by chunk with the
same result as in one piece.

The dense feature maps (Gaussian Nyström here; random Fourier features in
:func:`ikviz.features.fourier.fourier_map`) are computed row by row, with loops
whose order does not depend on how many rows are mapped at once: a row gets
bit-for-bit the same features alone, in a batch or in another chunking of the
stream (a BLAS product does not promise that).
"""

import numpy as np
from numba import njit, prange


@njit(cache=True, inline="always")
def _step(scores, label, eta, m):
    """(predicted class, index to push up or -1, index to push down or -1, step sign)."""
    if m == 1:
        pred = 1 if scores[0] > 0.0 else 0
        sign = 1.0 if label == 1 else -1.0
        if sign * scores[0] < 1.0:
            return pred, 0, -1, sign
        return pred, -1, -1, 0.0
    pred = 0
    for r in range(1, m):
        if scores[r] > scores[pred]:
            pred = r
    rival = -1
    for r in range(m):
        if r != label and (rival < 0 or scores[r] > scores[rival]):
            rival = r
    if 1.0 - (scores[label] - scores[rival]) > 0.0:
        return pred, label, rival, 1.0
    return pred, -1, -1, 0.0


@njit(cache=True, nogil=True)
def ogd_dense(Z, y, W, eta, mistakes):
    """One OGD pass over dense features ``Z`` (n, D); ``W`` (m, D) is updated in place."""
    m = W.shape[0]
    D = Z.shape[1]
    scores = np.empty(m)
    for i in range(Z.shape[0]):
        for r in range(m):
            acc = 0.0
            for j in range(D):
                acc += W[r, j] * Z[i, j]
            scores[r] = acc
        pred, up, down, sign = _step(scores, y[i], eta, m)
        mistakes[i] = pred != y[i]
        if up >= 0:
            g = eta * sign
            for j in range(D):
                W[up, j] += g * Z[i, j]
            if down >= 0:
                for j in range(D):
                    W[down, j] -= g * Z[i, j]


@njit(cache=True, nogil=True)
def ogd_sparse(data, indices, indptr, y, W, eta, mistakes):
    """One OGD pass over CSR features; ``W`` (m, D) is updated in place."""
    m = W.shape[0]
    scores = np.empty(m)
    for i in range(indptr.shape[0] - 1):
        lo, hi = indptr[i], indptr[i + 1]
        for r in range(m):
            acc = 0.0
            for p in range(lo, hi):
                acc += W[r, indices[p]] * data[p]
            scores[r] = acc
        pred, up, down, sign = _step(scores, y[i], eta, m)
        mistakes[i] = pred != y[i]
        if up >= 0:
            g = eta * sign
            for p in range(lo, hi):
                W[up, indices[p]] += g * data[p]
            if down >= 0:
                for p in range(lo, hi):
                    W[down, indices[p]] -= g * data[p]


@njit(cache=True, nogil=True)
def kernel_ogd_budget(X, y, gamma, eta, budget, support, alpha, n_sv, mistakes):
    """Kernel OGD with the Gaussian kernel exp(-gamma |x - x'|^2) until ``budget`` support vectors.

    The first phase of NOGD (Alg. 2 / Alg. 4): an example with non-zero loss joins the
    support set with coefficient eta * y (binary) or +eta / -eta for its own and the rival
    class (multi-class). ``support`` (capacity, d) holds the support rows, ``alpha``
    (capacity, m) their coefficients, the first ``n_sv`` of them already filled (so a
    stream can be fed chunk by chunk). Stops after the example that fills the budget, or
    before an example when the capacity is full (the caller grows the arrays and calls
    again). Returns the number of examples consumed and the number of support vectors.
    """
    n, d = X.shape
    m = alpha.shape[1]
    capacity = support.shape[0]
    scores = np.empty(m)
    i = 0
    while i < n and n_sv < budget and n_sv < capacity:
        for r in range(m):
            scores[r] = 0.0
        for s in range(n_sv):
            acc = 0.0
            for q in range(d):
                diff = X[i, q] - support[s, q]
                acc += diff * diff
            k = np.exp(-gamma * acc)
            for r in range(m):
                scores[r] += alpha[s, r] * k
        pred, up, down, sign = _step(scores, y[i], eta, m)
        mistakes[i] = pred != y[i]
        if up >= 0:
            for q in range(d):
                support[n_sv, q] = X[i, q]
            alpha[n_sv, up] = eta * sign
            if down >= 0:
                alpha[n_sv, down] = -eta * sign
            n_sv += 1
        i += 1
    return i, n_sv


#: below this many rows the row kernels run on one thread: starting the pool would cost more
SERIAL_ROWS = 256


# Each row kernel below fills row i of ``out``; a serial and a parallel driver run it over the
# rows. The arithmetic of a row does not depend on the driver or on the other rows.
@njit(cache=True, nogil=True, inline="always")
def _kernel_scores_row(X, i, support, alpha, gamma, out):
    d = X.shape[1]
    m = alpha.shape[1]
    for r in range(m):
        out[i, r] = 0.0
    for s in range(support.shape[0]):
        acc = 0.0
        for q in range(d):
            diff = X[i, q] - support[s, q]
            acc += diff * diff
        k = np.exp(-gamma * acc)
        for r in range(m):
            out[i, r] += alpha[s, r] * k


@njit(cache=True, nogil=True, inline="always")
def _nystroem_row(X, i, basis_t, gamma, components, out, kv):
    # basis_t is (d, B): the inner loops run over basis points, with no reduction to reorder
    d, B = basis_t.shape
    k = components.shape[1]
    for s in range(B):
        kv[s] = 0.0
    for q in range(d):
        xq = X[i, q]
        for s in range(B):
            diff = xq - basis_t[q, s]
            kv[s] += diff * diff
    for s in range(B):
        kv[s] = np.exp(-gamma * kv[s])
    for j in range(k):
        out[i, j] = 0.0
    for s in range(B):
        ks = kv[s]
        for j in range(k):
            out[i, j] += ks * components[s, j]


@njit(cache=True, nogil=True, inline="always")
def _dense_scores_row(Z, i, W, out):
    m, D = W.shape
    for r in range(m):
        acc = 0.0
        for j in range(D):
            acc += W[r, j] * Z[i, j]
        out[i, r] = acc


@njit(cache=True, nogil=True, inline="always")
def _sparse_scores_row(data, indices, indptr, i, W, out):
    for r in range(W.shape[0]):
        acc = 0.0
        for p in range(indptr[i], indptr[i + 1]):
            acc += W[r, indices[p]] * data[p]
        out[i, r] = acc


@njit(parallel=True, cache=True, nogil=True)
def _kernel_scores_par(X, support, alpha, gamma, out):
    for i in prange(X.shape[0]):
        _kernel_scores_row(X, i, support, alpha, gamma, out)


@njit(cache=True, nogil=True)
def _kernel_scores_ser(X, support, alpha, gamma, out):
    for i in range(X.shape[0]):
        _kernel_scores_row(X, i, support, alpha, gamma, out)


def kernel_scores(X, support, alpha, gamma, out):
    """``out[i, r] = sum_s alpha[s, r] exp(-gamma |x_i - support_s|^2)``: the budgeted kernel model's scores."""
    (_kernel_scores_ser if X.shape[0] < SERIAL_ROWS else _kernel_scores_par)(X, support, alpha, gamma, out)


@njit(parallel=True, cache=True, nogil=True)
def _nystroem_par(X, basis_t, gamma, components, out):
    for i in prange(X.shape[0]):
        kv = np.empty(basis_t.shape[1])
        _nystroem_row(X, i, basis_t, gamma, components, out, kv)


@njit(cache=True, nogil=True)
def _nystroem_ser(X, basis_t, gamma, components, out):
    kv = np.empty(basis_t.shape[1])
    for i in range(X.shape[0]):
        _nystroem_row(X, i, basis_t, gamma, components, out, kv)


def gaussian_nystroem_map(X, basis_t, gamma, components, out):
    """Nyström features ``out = k(X, basis) @ components``, k = exp(-gamma |x - b|^2); ``basis_t`` is basis.T."""
    (_nystroem_ser if X.shape[0] < SERIAL_ROWS else _nystroem_par)(X, basis_t, gamma, components, out)


@njit(parallel=True, cache=True, nogil=True)
def _dense_scores_par(Z, W, out):
    for i in prange(Z.shape[0]):
        _dense_scores_row(Z, i, W, out)


@njit(cache=True, nogil=True)
def _dense_scores_ser(Z, W, out):
    for i in range(Z.shape[0]):
        _dense_scores_row(Z, i, W, out)


def dense_scores(Z, W, out):
    """``out[i, r] = W[r] . Z[i]``, summed in the order of :func:`ogd_dense` (the same bits in any batch)."""
    (_dense_scores_ser if Z.shape[0] < SERIAL_ROWS else _dense_scores_par)(Z, W, out)


@njit(parallel=True, cache=True, nogil=True)
def _sparse_scores_par(data, indices, indptr, W, out):
    for i in prange(indptr.shape[0] - 1):
        _sparse_scores_row(data, indices, indptr, i, W, out)


@njit(cache=True, nogil=True)
def _sparse_scores_ser(data, indices, indptr, W, out):
    for i in range(indptr.shape[0] - 1):
        _sparse_scores_row(data, indices, indptr, i, W, out)


def sparse_scores(data, indices, indptr, W, out):
    """``out[i, r] = W[r] . z_i`` for CSR rows, summed in the order of :func:`ogd_sparse`."""
    n = indptr.shape[0] - 1
    (_sparse_scores_ser if n < SERIAL_ROWS else _sparse_scores_par)(data, indices, indptr, W, out)
