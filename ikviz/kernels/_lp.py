"""Numba kernel for fractional l_p distances (no BLAS shortcut exists for p != 2)."""

from numba import njit, prange


@njit(parallel=True, cache=True, nogil=True)
def lp_power_sums(X, Y, p, out):
    """``out[i, j] = sum_f |X[i, f] - Y[j, f]| ** p``; pairs are spread over the threads.

    Parallelising over the flattened pair index keeps all cores busy both for a
    few queries against many points and for square blocks.
    """
    n_x, d = X.shape
    n_y = Y.shape[0]
    for pair in prange(n_x * n_y):
        i = pair // n_y
        j = pair - i * n_y
        x = X[i]
        y = Y[j]
        acc = 0.0
        for f in range(d):
            diff = abs(x[f] - y[f])
            if diff > 0.0:
                acc += diff ** p
        out[i, j] = acc
    return out
