"""Numba passes of online gradient descent with the hinge loss (Lu et al. 2016, Alg. 1-4).

Every pass predicts each example before it learns from it (progressive validation)
and writes whether the prediction was wrong into ``mistakes``. Labels are class
indices 0..m-1. With one weight row (binary) the model is sgn(w . z) with y = +-1
(Alg. 1); with m rows it is argmax_r w_r . z with the multi-class hinge loss
1 - (w_y - w_s) . z, s the best wrong class (Alg. 3). The weights are updated in place
so a stream can be processed chunk by chunk.
"""

import numpy as np
from numba import njit


@njit(cache=True, inline="always")
def _step(scores, label, eta, m):
    """(predicted class, index to push up or -1, index to push down or -1, step sign)."""
    if m == 1:
        pred = 1 if scores[0] >= 0.0 else 0
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
def kernel_ogd_budget(X, y, gamma, eta, budget, m, support, alpha, mistakes):
    """Kernel OGD with the Gaussian kernel exp(-gamma |x - x'|^2) until ``budget`` support vectors.

    The first phase of NOGD (Alg. 2 / Alg. 4): an example with non-zero loss joins the
    support set with coefficient eta * y (binary) or +eta / -eta for its own and the rival
    class (multi-class). Stops after the example that fills the budget. Writes the support
    rows into ``support`` and their coefficients into ``alpha`` (budget, m); returns the
    number of examples consumed and the number of support vectors.
    """
    n, d = X.shape
    n_sv = 0
    scores = np.empty(m)
    i = 0
    while i < n and n_sv < budget:
        for r in range(m):
            scores[r] = 0.0
        for s in range(n_sv):
            acc = 0.0
            for q in range(d):
                diff = X[i, q] - X[support[s], q]
                acc += diff * diff
            k = np.exp(-gamma * acc)
            for r in range(m):
                scores[r] += alpha[s, r] * k
        pred, up, down, sign = _step(scores, y[i], eta, m)
        mistakes[i] = pred != y[i]
        if up >= 0:
            support[n_sv] = i
            alpha[n_sv, up] = eta * sign
            if down >= 0:
                alpha[n_sv, down] = -eta * sign
            n_sv += 1
        i += 1
    return i, n_sv
