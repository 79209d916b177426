"""Numba kernel for fractional l_p distances (no BLAS shortcut exists for p != 2)."""

from numba import njit

from ._threads import run_tasks, workers_for


def lp_distances(X, Y, p, out, workers=None):
    """``out[i, j] = (sum_f |X[i, f] - Y[j, f]| ** p) ** (1 / p)`` (see :func:`lp_pairs`), pairs spread over
    ``workers`` threads (default: numba's thread count; one for little work)."""
    n_pairs = X.shape[0] * Y.shape[0]
    if workers is None:
        workers = workers_for(n_pairs * max(X.shape[1], 1))
    run_tasks(lp_pairs, n_pairs, X, Y, float(p), out, workers=workers)
    return out


@njit(cache=True, nogil=True)
def lp_pairs(X, Y, p, out, task0, task1):
    """``out[i, j] = (sum_f |X[i, f] - Y[j, f]| ** p) ** (1 / p)`` for the pairs ``task0 .. task1`` (row-major).

    Each pair's differences are divided by their largest one before the
    power, so no term overflows or underflows for any p > 0 (p = 100 on
    differences of 1e-5 still gives the right distance, as does p = 0.1 on
    differences of 1e300); the callers pass data scaled to [-1, 1] so that
    the differences themselves stay finite. Parallelising over the flattened
    pair index keeps all cores busy both for a few queries against many
    points and for square blocks. The caller checks shapes and dtypes
    (float64, C-contiguous) before calling.
    """
    n_x, d = X.shape
    n_y = Y.shape[0]
    for pair in range(task0, task1):
        i = pair // n_y
        j = pair - i * n_y
        x = X[i]
        y = Y[j]
        if p == 1.0:
            acc = 0.0
            for f in range(d):
                acc += abs(x[f] - y[f])
            out[i, j] = acc
            continue
        largest = 0.0
        for f in range(d):
            diff = abs(x[f] - y[f])
            if diff > largest:
                largest = diff
        if largest == 0.0:
            out[i, j] = 0.0
            continue
        acc = 0.0
        for f in range(d):
            diff = abs(x[f] - y[f])
            if diff > 0.0:
                acc += (diff / largest) ** p
        out[i, j] = largest * acc ** (1.0 / p)
    return out
