"""The data-independent kernels Isolation Kernel is compared with, as ``(X, Y) -> matrix`` functions.

Each adds to scikit-learn's pairwise kernels the papers' parameterisations,
input checks (declared with scikit-learn's ``validate_params``), a guard on
the dense result size, and sound numerics. The Gaussian and Laplacian kernels
are computed pair by pair from the coordinate differences (:func:`_kernel_pairs`),
never from ``|x|^2 - 2 x.y + |y|^2``, which cancels for data far from the
origin or of large magnitude (at 1e8 it turned K(x, x) into 0). So

* K(x, x) = 1 exactly, whatever the data;
* a value depends only on its pair of rows and the parameter: a row alone
  gives bit for bit the same values as the same row in a batch;
* columns far from the origin (timestamps, offsets of 1e15) or at extreme
  magnitudes (1e300, 1e-300) give the kernel of the differences, never NaN:
  a pair's differences are scaled by a power of two when their squares would
  overflow or underflow.
"""

from __future__ import annotations

import math
from numbers import Integral, Real

import numpy as np
from numba import njit, prange
from sklearn.neighbors import NearestNeighbors

from .._sklearn import Interval, validate_params
from .._validation import check_dense_size, check_matrix

#: parameter constraints shared by the kernel functions
BUDGET = [Interval(Integral, 1, None, closed="left"), None]
POSITIVE = [Interval(Real, 0, None, closed="neither")]
NEIGHBOURS = [Interval(Integral, 1, None, closed="left")]


def _pair(X, Y, dense_budget):
    X = check_matrix(X, "X")
    Y = X if Y is None else check_matrix(Y, "Y")
    if X.shape[1] != Y.shape[1]:
        raise ValueError(f"X has {X.shape[1]} features but Y has {Y.shape[1]}.")
    check_dense_size(X.shape[0], Y.shape[0], dense_budget, "The kernel matrix",
                     "Subsample the data or use an explicit feature map.")
    return X, Y


def normalise(*arrays):
    """Centre the arrays on their joint mid-range and scale them by one power of two to at most 1 in size.

    Returns the transformed arrays (``None`` stays ``None``; an array passed
    twice comes back as one object, so ``X is Y`` still holds) and the exponent
    ``e`` such that original = normalised * 2**e + shift. Distances among the
    normalised rows are the original ones times 2**-e, free of the cancellation
    that ``|x|^2 - 2 x.y + |y|^2`` suffers far from the origin and of overflow.
    """
    present = [a for a in arrays if a is not None]
    lo = np.min([a.min(axis=0) for a in present], axis=0)
    hi = np.max([a.max(axis=0) for a in present], axis=0)
    shift = lo * 0.5 + hi * 0.5  # never overflows, unlike (lo + hi) / 2
    half_range = float(np.max(hi * 0.5 - lo * 0.5))
    e = math.frexp(half_range)[1] + 1 if half_range > 0 else 0
    out, seen = [], {}
    for a in arrays:
        if a is None:
            out.append(None)
        elif id(a) in seen:
            out.append(seen[id(a)])
        else:
            if half_range > 2.0**1000:  # X - shift could round past the largest float: halve first
                z = np.ldexp(np.ldexp(a, -1) - np.ldexp(shift, -1), 1 - e)
            else:
                z = np.ldexp(a - shift, -e)
            seen[id(a)] = z
            out.append(z)
    return (*out, e)


#: a pair whose sum of squared (q = 2) or absolute (q = 1) differences lies in [2**-_SAFE, 2**_SAFE] is
#: exact as summed: no term overflowed, and those that underflowed are below its last digit
_SAFE = 800.0
#: rows of Y per tile: a tile of Y (about 128 KiB) stays in cache while a few rows of X pass over it
_TILE_VALUES = 16384


@njit(cache=True, nogil=True)
def _rescaled(x, y, gamma, q):
    """``gamma * ||x - y||_q ** q`` for a pair whose plain sum overflowed or underflowed.

    The differences are scaled by the power of two of the largest one (taken
    on halved values when a difference overflows), which is exact; ``gamma``
    times the sum is then assembled from mantissas and exponents, so the
    result is inf or 0 only where the true value is beyond the float range.
    """
    d = x.shape[0]
    largest = 0.0
    for f in range(d):
        diff = abs(x[f] - y[f])
        if diff > largest:
            largest = diff
    if largest == 0.0:
        return 0.0
    half = not math.isfinite(largest)
    if half:
        largest = 0.0
        for f in range(d):
            diff = abs(0.5 * x[f] - 0.5 * y[f])
            if diff > largest:
                largest = diff
    p = math.frexp(largest)[1]
    acc = 0.0
    for f in range(d):
        diff = abs(0.5 * x[f] - 0.5 * y[f]) if half else abs(x[f] - y[f])
        diff = math.ldexp(diff, -p)
        acc += diff * diff if q == 2 else diff
    if half:
        p += 1
    g_m, g_e = math.frexp(gamma)
    a_m, a_e = math.frexp(acc)
    return math.ldexp(g_m * a_m, g_e + a_e + q * p)


@njit(parallel=True, cache=True, nogil=True, fastmath={"reassoc", "contract"})
def _kernel_args(X, Y, gamma, q, out):
    """``out[i, j] = gamma * ||X[i] - Y[j]||_q ** q`` for q = 2 (squared Euclidean) or q = 1 (l1).

    Each pair is summed from its coordinate differences in an order fixed by
    the number of features alone, so a value depends on its pair only (not on
    the other rows, the tiles or the threads), and identical rows give exactly
    0. A pair whose plain sum left the safe range goes through :func:`_rescaled`.
    """
    n_x, d = X.shape
    n_y = Y.shape[0]
    rows_y = max(1, min(n_y, _TILE_VALUES // max(d, 1)))
    lo = 2.0 ** -_SAFE
    hi = 2.0 ** _SAFE
    # prange, not threads over a serial kernel (see ._threads): compiled serial, this loop took 1.7x the CPU
    # time (rbf 2000 x 2000, d = 20: 0.05 -> 0.09 CPU-s); its first compile is 2 CPU-s instead of 1
    for block in prange((n_x + 7) // 8):
        i0 = block * 8
        i1 = min(n_x, i0 + 8)
        for j0 in range(0, n_y, rows_y):
            j1 = min(n_y, j0 + rows_y)
            for i in range(i0, i1):
                x = X[i]
                for j in range(j0, j1):
                    y = Y[j]
                    acc = 0.0
                    if q == 2:
                        for f in range(d):
                            t = x[f] - y[f]
                            acc += t * t
                    else:
                        for f in range(d):
                            acc += abs(x[f] - y[f])
                    if lo <= acc <= hi:
                        out[i, j] = gamma * acc
                    else:  # 0 (identical rows, or every term underflowed), tiny, huge or overflowed
                        out[i, j] = _rescaled(x, y, gamma, q)


def _writable(A):
    """``A`` as a C-contiguous, writable float64 array: numba compiles a function anew for a read-only array
    (a cached data set's), 2.3 CPU-s for :func:`_kernel_args` on a fresh clone; a copy of the rows costs
    n * d, the kernel n * m * d."""
    A = np.ascontiguousarray(A, dtype=np.float64)
    return A if A.flags.writeable else A.copy()


def _pairs(X, Y, gamma, q, take_exp=True):
    """``exp(-gamma * ||x - y||_q ** q)`` (or, without ``take_exp``, its argument) for checked float64 matrices.

    See :func:`_kernel_args`: exact 1 for identical rows, each value a function of its pair alone.
    """
    out = np.empty((X.shape[0], Y.shape[0]))
    _kernel_args(_writable(X), _writable(Y), float(gamma), int(q), out)
    if take_exp:
        np.negative(out, out=out)
        with np.errstate(under="ignore"):
            np.exp(out, out=out)
    return out


@validate_params({"X": ["array-like"], "Y": ["array-like", None], "gamma": POSITIVE, "dense_budget": BUDGET},
                 prefer_skip_nested_validation=True)
def rbf(X, Y=None, gamma: float = 1.0, dense_budget=None) -> np.ndarray:
    """Gaussian (RBF) kernel ``exp(-gamma * ||x - y||^2)``.

    Parameters
    ----------
    X : array-like of shape (n_samples_X, n_features)
    Y : array-like of shape (n_samples_Y, n_features), default=None
        ``None`` means ``X``: the result is then symmetric with ones on the diagonal.
    gamma : float, default=1.0
        Positive width parameter; larger is narrower.
    dense_budget : int, default=None
        Largest result in bytes (default 2 GiB); over it a ``ValueError`` says what to do.

    Returns
    -------
    K : ndarray of shape (n_samples_X, n_samples_Y)
        Values in [0, 1].

    Examples
    --------
    >>> from ikviz.kernels import rbf
    >>> rbf([[0.0, 0.0], [1.0, 0.0]], gamma=0.5).round(4)
    array([[1.    , 0.6065],
           [0.6065, 1.    ]])
    """
    X, Y = _pair(X, Y, dense_budget)
    return _pairs(X, Y, gamma, 2)


@validate_params({"X": ["array-like"], "Y": ["array-like", None], "gamma": POSITIVE, "dense_budget": BUDGET},
                 prefer_skip_nested_validation=True)
def laplacian(X, Y=None, gamma: float = 1.0, dense_budget=None) -> np.ndarray:
    """Laplacian kernel in its usual lambda form ``exp(-gamma * ||x - y||_1)``.

    Parameters
    ----------
    X : array-like of shape (n_samples_X, n_features)
    Y : array-like of shape (n_samples_Y, n_features), default=None
        ``None`` means ``X``.
    gamma : float, default=1.0
        Positive rate (the paper's lambda).
    dense_budget : int, default=None
        Largest result in bytes (default 2 GiB).

    Returns
    -------
    K : ndarray of shape (n_samples_X, n_samples_Y)
        Values in [0, 1].

    Examples
    --------
    >>> from ikviz.kernels import laplacian
    >>> laplacian([[0.0, 0.0]], [[1.0, 1.0]], gamma=0.5).round(4)
    array([[0.3679]])
    """
    X, Y = _pair(X, Y, dense_budget)
    return _laplacian(X, Y, float(gamma))


def _laplacian(X, Y, gamma):
    return _pairs(X, Y, gamma, 1)


@validate_params({"X": ["array-like"], "Y": ["array-like", None],
                  "psi": [Interval(Real, 1, None, closed="neither")], "dense_budget": BUDGET},
                 prefer_skip_nested_validation=True)
def laplacian_psi(X, Y=None, psi: float = 16, dense_budget=None) -> np.ndarray:
    """Laplacian kernel in Ting et al. (2018) Eq. 5: ``L_psi(x, y) = psi ** (-(1/d) * ||x - y||_1)``.

    This is the lambda form with lambda = log(psi) / d, the kernel that
    Isolation Kernel approximates on uniformly distributed data.

    Parameters
    ----------
    X : array-like of shape (n_samples_X, n_features)
    Y : array-like of shape (n_samples_Y, n_features), default=None
        ``None`` means ``X``.
    psi : float, default=16
        Sharpness, greater than 1 (Isolation Kernel's sample size).
    dense_budget : int, default=None
        Largest result in bytes (default 2 GiB).

    Returns
    -------
    K : ndarray of shape (n_samples_X, n_samples_Y)
        Values in [0, 1].

    Examples
    --------
    >>> from ikviz.kernels import laplacian_psi
    >>> laplacian_psi([[0.0, 0.0]], [[1.0, 1.0]], psi=16).round(4)  # 16 ** -(2 / 2)
    array([[0.0625]])
    """
    X, Y = _pair(X, Y, dense_budget)
    return _laplacian(X, Y, math.log(psi) / X.shape[1])


@validate_params({"X": ["array-like"], "Y": ["array-like", None], "dense_budget": BUDGET},
                 prefer_skip_nested_validation=True)
def linear(X, Y=None, dense_budget=None) -> np.ndarray:
    """Linear kernel x . y.

    Parameters
    ----------
    X : array-like of shape (n_samples_X, n_features)
    Y : array-like of shape (n_samples_Y, n_features), default=None
        ``None`` means ``X``.
    dense_budget : int, default=None
        Largest result in bytes (default 2 GiB).

    Returns
    -------
    K : ndarray of shape (n_samples_X, n_samples_Y)

    Raises
    ------
    ValueError
        When a product exceeds the float range (values near 1e154 or more); rescale the data.

    Examples
    --------
    >>> from ikviz.kernels import linear
    >>> linear([[1.0, 2.0]], [[3.0, 4.0], [0.0, 1.0]])
    array([[11.,  2.]])
    """
    X, Y = _pair(X, Y, dense_budget)
    with np.errstate(over="ignore", invalid="ignore", under="ignore"):
        K = X @ Y.T
    if not np.isfinite(K).all():
        raise ValueError("The linear kernel of X and Y exceeds the float range (values too large); "
                         "rescale X and Y first, e.g. with sklearn.preprocessing.StandardScaler.")
    return K


def _local_scale(X, ref, k, exclude_self):
    """k-th neighbour distances of normalised rows (already centred and scaled together)."""
    nn = NearestNeighbors(n_neighbors=k).fit(ref)
    dist, _ = nn.kneighbors(None if exclude_self else X, n_neighbors=k)
    scale = dist[:, -1]
    positive = scale[scale > 0]
    floor = positive.min() if positive.size else 1.0
    return np.where(scale > 0, scale, floor)


def _check_k(k, n_available, data, exclude_self):
    """``k`` as an int, or a ValueError naming both ``k`` and the data too small for it."""
    if k > n_available:
        rows = n_available + 1 if exclude_self else n_available
        other = " other" if exclude_self else ""
        raise ValueError(f"k={k!r} neighbours asked for, but {data} has {rows} row(s), so each point has "
                         f"{n_available}{other} point(s) to choose from; pass a k between 1 and "
                         f"{max(n_available, 1)} or more rows.")
    return int(k)


@validate_params({"X": ["array-like"], "reference": ["array-like", None], "k": NEIGHBOURS},
                 prefer_skip_nested_validation=True)
def local_scale(X, reference=None, k: int = 7) -> np.ndarray:
    """Distance from each row of ``X`` to its k-th nearest neighbour in ``reference``.

    Zero scales (duplicates) are replaced by the smallest positive scale so the
    adaptive kernel stays finite (by 1 when every scale is zero).

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
    reference : array-like of shape (n_reference, n_features), default=None
        Where the neighbours come from; ``None`` means ``X`` itself with each
        point excluded from its own neighbours.
    k : int, default=7
        Which neighbour; at most the number of reference points (minus one
        when ``reference`` is ``None``).

    Returns
    -------
    scale : ndarray of shape (n_samples,)
        Positive distances.

    Examples
    --------
    >>> from ikviz.kernels import local_scale
    >>> local_scale([[0.0], [1.0], [3.0]], k=1)
    array([1., 1., 2.])
    """
    X = check_matrix(X, "X")
    ref = None if reference is None else check_matrix(reference, "reference")
    if ref is not None and ref.shape[1] != X.shape[1]:
        raise ValueError(f"reference has {ref.shape[1]} features but X has {X.shape[1]}.")
    k = _check_k(k, X.shape[0] - 1 if ref is None else ref.shape[0], "X" if ref is None else "reference",
                 exclude_self=ref is None)
    Xs, Rs, e = normalise(X, ref)
    scale = _local_scale(Xs, Xs if Rs is None else Rs, k, exclude_self=Rs is None)
    with np.errstate(over="ignore", under="ignore"):
        out = np.ldexp(scale, e)
    if not (np.isfinite(out).all() and (out > 0).all()):
        raise ValueError("X is spread so widely (or so narrowly) that its neighbour distances leave the float "
                         "range; rescale X first.")
    return out


@validate_params({"X": ["array-like"], "Y": ["array-like", None], "k": NEIGHBOURS,
                  "reference": ["array-like", None], "dense_budget": BUDGET},
                 prefer_skip_nested_validation=True)
def adaptive_gaussian(X, Y=None, k: int = 7, reference=None, dense_budget=None) -> np.ndarray:
    """Self-tuning Gaussian kernel (Zelnik-Manor & Perona 2004): ``exp(-||x - y||^2 / (s_x * s_y))``.

    ``s_x`` is the distance from x to its k-th nearest neighbour in
    ``reference`` (default: ``Y`` if given, else ``X``, the point itself
    excluded), so the kernel is wide in sparse regions and narrow in dense ones.

    Parameters
    ----------
    X : array-like of shape (n_samples_X, n_features)
    Y : array-like of shape (n_samples_Y, n_features), default=None
        ``None`` means ``X``.
    k : int, default=7
        Which neighbour sets the local scale.
    reference : array-like of shape (n_reference, n_features), default=None
        Where the local scales' neighbours come from.
    dense_budget : int, default=None
        Largest result in bytes (default 2 GiB).

    Returns
    -------
    K : ndarray of shape (n_samples_X, n_samples_Y)
        Values in [0, 1]; ones on the diagonal when ``Y`` is ``None``.

    Examples
    --------
    >>> from ikviz.kernels import adaptive_gaussian
    >>> K = adaptive_gaussian([[0.0], [1.0], [3.0]], k=1)
    >>> K.round(3)
    array([[1.   , 0.368, 0.011],
           [0.368, 1.   , 0.135],
           [0.011, 0.135, 1.   ]])
    """
    X, Y_ = _pair(X, Y, dense_budget)
    ref = None if reference is None else check_matrix(reference, "reference")
    if ref is not None and ref.shape[1] != X.shape[1]:
        raise ValueError(f"reference has {ref.shape[1]} features but X has {X.shape[1]}.")
    Xs, Ys, Rs, _ = normalise(X, Y_, ref)  # every distance below is taken in one frame: the scale cancels
    if Rs is None:
        # queries X against data Y: X's scales come from Y, Y's from Y without the point itself
        k = _check_k(k, Ys.shape[0] - 1, "X" if Y is None else "Y", exclude_self=True)
        sx = _local_scale(Xs, Ys, k, exclude_self=Y is None)
        sy = sx if Y is None else _local_scale(Ys, Ys, k, exclude_self=True)
    else:
        k = _check_k(k, Rs.shape[0], "reference", exclude_self=False)
        sx = _local_scale(Xs, Rs, k, exclude_self=False)
        sy = sx if Y is None else _local_scale(Ys, Rs, k, exclude_self=False)
    sq = _pairs(Xs, Ys, 1.0, 2, take_exp=False)  # exactly 0 for identical rows: K(x, x) = 1
    with np.errstate(over="ignore", under="ignore"):
        return np.exp(-sq / np.outer(sx, sy))
