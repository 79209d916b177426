"""Input checks shared by every estimator and kernel function.

Inputs are validated once, at the boundary, with messages a user can act on.
The wording follows scikit-learn's (``"X has 3 features, but IsolationKernel is
expecting 2 features as input."``, ``"0 feature(s) (shape=(5, 0)) while a
minimum of 1 is required."``), so estimators built on these checks pass
scikit-learn's estimator checks.

* :func:`check_matrix`: any array-like to a finite 2-D float array, or a
  clear ``ValueError`` / ``TypeError``;
* :func:`check_n_features`: set ``n_features_in_`` at fit, compare with it later;
* :func:`validate_data`: both, plus ``feature_names_in_`` for data frames, the
  one call an estimator's ``fit`` / ``transform`` needs;
* :func:`check_dense_size`: refuse an allocation that grows with n^2 or with a
  user-given size before it is attempted;
* :data:`MAX_RESTARTS`, :data:`MAX_ANCHOR_SETS`, :data:`MAX_BASIS`: upper ends
  of the parameters whose running time they set, for ``_parameter_constraints``.
"""

from __future__ import annotations

import warnings

import numpy as np
from sklearn.utils.validation import check_array as sk_check_array
from sklearn.utils.validation import validate_data as sk_validate_data

#: Largest dense result (in bytes) a function may allocate before it refuses.
DEFAULT_DENSE_BUDGET = 2 * 1024**3

# Time guards: parameters whose cost is known before any data is seen, bounded in the estimators'
# ``_parameter_constraints`` so that scikit-learn's message names the limit (issue 31 item 3)
#: k-means restarts (SpectralClustering, make_kmeans): each is a full k-means run; scikit-learn's default is 10
MAX_RESTARTS = 1000
#: RandLocal anchor sets: each costs a pass over the data (the papers use 100 to 400; 10**5 sets on 40 rows: 21 s)
MAX_ANCHOR_SETS = 10_000
#: Nystroem basis points: the basis kernel's eigendecomposition grows with the cube (10,000: about a minute)
MAX_BASIS = 10_000

_TIME_KINDS = {"M": "dates or times (datetime64)", "m": "time spans (timedelta64)"}


def _is_sparse(X) -> bool:
    return hasattr(X, "tocsr") or type(X).__module__.startswith("scipy.sparse")


def _frame_to_array(X, name: str) -> np.ndarray:
    """A data frame's values as floats, refusing non-numeric columns by name."""
    bad = [str(c) for c, dt in zip(X.columns, X.dtypes) if getattr(dt, "kind", "O") not in "biuf"]
    if bad:
        shown = ", ".join(bad[:5]) + (", ..." if len(bad) > 5 else "")
        raise ValueError(
            f"{name} has {len(bad)} non-numeric column(s): {shown}. "
            "Drop them or encode them as numbers first."
        )
    # scikit-learn's conversion (nullable columns' pd.NA become NaN, so the NaN check names the rows)
    return sk_check_array(X, dtype=np.float64, ensure_all_finite=False, ensure_2d=False, ensure_min_samples=0,
                          ensure_min_features=0, input_name=name)


def _numbers(X, name: str, dtype) -> np.ndarray:
    """``X`` as an ndarray of real numbers (any shape), refusing everything else with a clear message."""
    if X is None:
        raise ValueError(f"{name} is None; pass an array of numbers.")
    if _is_sparse(X):
        raise ValueError(f"{name} is a sparse matrix; sparse input is not supported. Pass a dense array "
                         f"({name}.toarray()).")
    if isinstance(X, (str, bytes)):
        raise ValueError(f"{name} is a string ({X[:20]!r}); pass an array of numbers.")
    if getattr(X, "dtypes", None) is not None and hasattr(X, "columns"):
        X = _frame_to_array(X, name)
    try:
        arr = np.asarray(X)
    except (ValueError, TypeError) as exc:  # ragged nested lists
        raise ValueError(f"{name} could not be read as an array: {exc}") from None
    kind = arr.dtype.kind
    if kind in _TIME_KINDS:
        raise ValueError(f"{name} holds {_TIME_KINDS[kind]}, not numbers (dtype {arr.dtype}). Convert them to "
                         "numbers that mean something for a distance first, e.g. seconds since a reference "
                         "time: (t - t0) / np.timedelta64(1, 's').")
    if kind in "USV":
        raise ValueError(f"{name} is non-numeric: it holds strings or raw bytes (dtype {arr.dtype}). "
                         "Convert every column to numbers explicitly first.")
    if kind == "O":
        try:
            arr = arr.astype(dtype)
        except TypeError:
            raise TypeError(f"{name} holds objects that are not numbers (e.g. dicts or lists): the argument must be "
                            "a string or a number.") from None
        except ValueError:
            raise ValueError(
                f"{name} contains non-numeric values (dtype {arr.dtype}). "
                "Convert every column to numbers first."
            ) from None
    if kind == "c":
        raise ValueError(f"Complex data not supported: {name} is complex-valued; the kernels need real numbers.")
    return arr


def _check_finite(arr: np.ndarray, name: str) -> None:
    finite = np.isfinite(arr)
    if finite.all():
        return
    if arr.ndim == 2:
        bad_rows = np.flatnonzero(~finite.all(axis=1))
        shown = ", ".join(map(str, bad_rows[:5])) + (", ..." if bad_rows.size > 5 else "")
        raise ValueError(f"{name} has {bad_rows.size} row(s) with NaN or infinity (rows {shown}). "
                         "Remove or impute them first.")
    bad = np.flatnonzero(~finite.ravel())
    shown = ", ".join(map(str, bad[:5])) + (", ..." if bad.size > 5 else "")
    raise ValueError(f"{name} has {bad.size} NaN or infinite value(s) (at flat positions {shown}).")


def check_matrix(X, name: str = "X", dtype=np.float64) -> np.ndarray:
    """Return ``X`` as a C-contiguous 2-D float array, or raise a clear error.

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
        NumPy array, nested list or data frame of numbers (int, float, bool, or
        objects that are numbers).
    name : str, default="X"
        The argument's name, used in every message.
    dtype : numpy dtype, default=numpy.float64
        Type of the returned array.

    Returns
    -------
    X : ndarray of shape (n_samples, n_features)
        A C-contiguous copy (or view) of the input, every value finite.

    Raises
    ------
    ValueError
        For sparse matrices, ``None``, strings, dates or time spans, complex
        numbers, input that is not 2-D, empty input, and NaN or infinite values
        (the message says how many rows, and which).
    TypeError
        For objects that are not numbers (dicts, lists...).

    Examples
    --------
    >>> from ikviz._validation import check_matrix
    >>> check_matrix([[1, 2], [3, 4]])
    array([[1., 2.],
           [3., 4.]])
    >>> check_matrix([[1.0, float("nan")]], name="Q")
    Traceback (most recent call last):
    ...
    ValueError: Q has 1 row(s) with NaN or infinity (rows 0). Remove or impute them first.
    """
    if X is None:
        raise ValueError(f"{name} is None; pass a 2-D array of shape (n_samples, n_features).")
    arr = _numbers(X, name, dtype)
    if arr.ndim != 2:
        hint = f" Reshape your data: {name}.reshape(-1, 1) for a single feature." if arr.ndim == 1 else ""
        raise ValueError(
            f"{name} must be 2-D (n_samples, n_features); got an array of shape {arr.shape}.{hint}"
        )
    if arr.shape[0] == 0:
        raise ValueError(f"{name} is empty: 0 sample(s) (shape={arr.shape}) while a minimum of 1 is required.")
    if arr.shape[1] == 0:
        raise ValueError(f"{name} is empty: 0 feature(s) (shape={arr.shape}) while a minimum of 1 is required.")
    arr = sk_check_array(arr, dtype=dtype, order="C", ensure_all_finite=False, input_name=name)
    _check_finite(arr, name)
    return arr


def check_array(X, name: str, *, ndim=(1, 2), dtype=np.float64, allow_empty: bool = False,
                finite: bool = True) -> np.ndarray:
    """Return ``X`` as a C-contiguous array of real numbers of an allowed dimension, or raise a clear error.

    The general form of :func:`check_matrix`, for arguments that are not
    feature matrices: similarity rows, neighbour indices, counts.

    Parameters
    ----------
    X : array-like
        The argument.
    name : str
        Its name, used in every message.
    ndim : int or tuple of int, default=(1, 2)
        The allowed numbers of dimensions.
    dtype : numpy dtype, default=numpy.float64
        Type of the returned array. For an integer dtype the values must be
        whole numbers (``2.0`` is accepted, ``2.5`` is not).
    allow_empty : bool, default=False
        Whether an array with no values is acceptable.
    finite : bool, default=True
        Whether to refuse NaN and infinite values.

    Returns
    -------
    X : ndarray

    Examples
    --------
    >>> from ikviz._validation import check_array
    >>> check_array([[0, 2], [1, 1]], "neighbours", ndim=2, dtype=int)
    array([[0, 2],
           [1, 1]])
    >>> check_array([0.5, 1.5], "neighbours", dtype=int)
    Traceback (most recent call last):
    ...
    ValueError: neighbours must hold whole numbers (indices or counts); got 0.5.
    """
    allowed = (ndim,) if isinstance(ndim, int) else tuple(ndim)
    arr = _numbers(X, name, np.float64)
    if arr.ndim not in allowed:
        shapes = " or ".join(f"{d}-D" for d in allowed)
        raise ValueError(f"{name} must be {shapes}; got an array of shape {arr.shape}.")
    if arr.size == 0 and not allow_empty:
        raise ValueError(f"{name} is empty (shape={arr.shape}); at least one value is required.")
    integer = np.issubdtype(np.dtype(dtype), np.integer)
    if integer and arr.dtype.kind not in "biu":
        arr = arr.astype(np.float64)
        if finite:
            _check_finite(arr, name)
        fractional = arr[np.isfinite(arr) & (arr != np.round(arr))]
        if fractional.size:
            raise ValueError(f"{name} must hold whole numbers (indices or counts); got {float(fractional[0])!r}.")
        if arr.size and np.abs(arr).max() >= 2.0**63:
            raise ValueError(f"{name} holds values too large for 64-bit integers.")
    elif finite and arr.dtype.kind == "f":
        _check_finite(arr, name)
    return np.ascontiguousarray(arr, dtype=dtype)


def check_labels(y, name: str = "y", n: int | None = None, other: str = "X") -> np.ndarray:
    """Return class labels ``y`` as a 1-D array, or raise a clear error.

    Any hashable values are labels (ints, strings...), but not NaN, complex
    numbers, ``None`` or 2-D arrays; a column vector (n, 1) is flattened.

    Parameters
    ----------
    y : array-like of shape (n_samples,)
    name : str, default="y"
        The argument's name in messages.
    n : int, default=None
        The number of labels required (one per row of ``other``).
    other : str, default="X"
        What ``n`` counts, named in the message.

    Examples
    --------
    >>> from ikviz._validation import check_labels
    >>> check_labels(["a", "b", "a"], n=3)
    array(['a', 'b', 'a'], dtype='<U1')
    >>> check_labels([0, 1], n=3)
    Traceback (most recent call last):
    ...
    ValueError: y has 2 label(s) but X has 3 row(s); pass one label per row.
    """
    if y is None:
        raise ValueError(f"{name} is None; pass one label per row.")
    if _is_sparse(y):
        raise ValueError(f"{name} is a sparse matrix; pass a 1-D array of labels.")
    try:
        arr = np.asarray(y)
    except (ValueError, TypeError) as exc:
        raise ValueError(f"{name} could not be read as a 1-D array of labels: {exc}") from None
    if arr.ndim == 2 and arr.shape[1] == 1:
        arr = arr[:, 0]
    if arr.ndim != 1:
        raise ValueError(f"{name} must be a 1-D array of labels; got an array of shape {arr.shape}.")
    if arr.dtype.kind == "c":
        raise ValueError(f"{name} is complex-valued; labels must be integers, strings or other comparable values.")
    if arr.dtype.kind in _TIME_KINDS:
        raise ValueError(f"{name} holds {_TIME_KINDS[arr.dtype.kind]}; labels must be integers or strings.")
    if arr.dtype.kind == "f" and not np.isfinite(arr).all():
        raise ValueError(f"{name} has {int((~np.isfinite(arr)).sum())} NaN or infinite label(s); "
                         "drop those rows or give them a class.")
    if arr.dtype.kind == "O" and any(v is None or (isinstance(v, float) and v != v) for v in arr):
        raise ValueError(f"{name} has missing labels (None or NaN); drop those rows or give them a class.")
    if n is not None and arr.shape[0] != n:
        raise ValueError(f"{name} has {arr.shape[0]} label(s) but {other} has {n} row(s); pass one label per row.")
    if arr.size == 0:
        raise ValueError(f"{name} is empty; at least one label is required.")
    return arr


def check_n_features(estimator, X, reset: bool, name: str = "X") -> None:
    """Record (``reset=True``, in ``fit``) or check ``estimator.n_features_in_`` against ``X``.

    For objects that are not scikit-learn estimators (openTSNE's affinities);
    estimators get the same check, worded the same, from :func:`validate_data`.

    Parameters
    ----------
    estimator : object
        The estimator whose ``n_features_in_`` is set or compared.
    X : ndarray of shape (n_samples, n_features)
        Already checked data (see :func:`check_matrix`).
    reset : bool
        ``True`` in ``fit`` (and the first ``partial_fit``): set
        ``n_features_in_``. ``False`` elsewhere: compare, skipped when the
        estimator has not recorded a count yet.
    name : str, default="X"
        The argument's name in the message.

    Raises
    ------
    ValueError
        When ``X`` has another number of features than the estimator was fitted with.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.base import BaseEstimator
    >>> from ikviz._validation import check_n_features
    >>> est = BaseEstimator()
    >>> check_n_features(est, np.zeros((4, 2)), reset=True)
    >>> est.n_features_in_
    2
    >>> check_n_features(est, np.zeros((4, 3)), reset=False)
    Traceback (most recent call last):
    ...
    ValueError: X has 3 features, but BaseEstimator is expecting 2 features as input.
    """
    n_features = int(np.shape(X)[1])
    if reset:
        estimator.n_features_in_ = n_features
        return
    expected = getattr(estimator, "n_features_in_", None)
    if expected is not None and n_features != expected:
        raise ValueError(f"{name} has {n_features} features, but {type(estimator).__name__} is expecting "
                         f"{expected} features as input.")


def validate_data(estimator, X, *, reset: bool, name: str = "X", dtype=np.float64,
                  accept_sparse: bool = False):
    """Check ``X`` for ``estimator``: values (:func:`check_matrix`), feature count and names.

    Call it with ``reset=True`` in ``fit`` and ``reset=False`` in ``transform``,
    ``predict``... It sets or checks ``n_features_in_`` and, for data frames,
    ``feature_names_in_``, through scikit-learn's public
    ``sklearn.utils.validation.validate_data``: a frame whose columns are
    renamed or reordered since ``fit`` is refused, as scikit-learn's own
    transformers refuse it.

    Parameters
    ----------
    estimator : object
        The estimator being fitted or applied.
    X : array-like of shape (n_samples, n_features)
        The data.
    reset : bool
        Whether to record the feature count and names (``fit``) or compare with them.
    name : str, default="X"
        The argument's name in messages.
    dtype : numpy dtype, default=numpy.float64
        Type of the returned array.
    accept_sparse : bool, default=False
        Let scipy sparse matrices through (as CSR, checked by scikit-learn's
        ``check_array``) instead of refusing them.

    Returns
    -------
    X : ndarray or scipy.sparse.csr_matrix of shape (n_samples, n_features)

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.base import BaseEstimator
    >>> from ikviz._validation import validate_data
    >>> est = BaseEstimator()
    >>> validate_data(est, [[0, 1], [2, 3]], reset=True).shape
    (2, 2)
    >>> validate_data(est, [[0, 1, 2]], reset=False)
    Traceback (most recent call last):
    ...
    ValueError: X has 3 features, but BaseEstimator is expecting 2 features as input.
    """
    if accept_sparse and _is_sparse(X):
        arr = sk_check_array(X, accept_sparse="csr", dtype=dtype, input_name=name)
        if arr.shape[0] == 0 or arr.shape[1] == 0:
            check_matrix(np.empty(arr.shape), name)  # the same message as for a dense empty X
    else:
        arr = check_matrix(X, name, dtype=dtype)
    # the values were checked above; scikit-learn's validate_data records (fit) or compares the feature count
    # and, for data frames, the column names
    sk_validate_data(estimator, X if hasattr(X, "columns") else arr, reset=reset, skip_check_array=True)
    return arr


def _bytes(n: float) -> str:
    for unit in ("bytes", "KiB", "MiB", "GiB", "TiB", "PiB"):
        if n < 1024 or unit == "PiB":
            return f"{n:,.0f} {unit}" if unit == "bytes" else f"{n:,.1f} {unit}"
        n /= 1024
    return f"{n:,.1f} PiB"  # pragma: no cover


def check_dense_size(n_rows: int, n_cols: int, budget: int | None, what: str, hint: str) -> None:
    """Refuse to allocate an ``n_rows x n_cols`` float64 matrix larger than ``budget`` bytes.

    Parameters
    ----------
    n_rows, n_cols : int
        Shape of the planned array.
    budget : int or None
        Largest allowed size in bytes, as the caller's ``dense_budget``
        parameter gave it; ``None`` means :data:`DEFAULT_DENSE_BUDGET` (2 GiB).
    what : str
        What the array is, starting the message ("The kernel matrix").
    hint : str
        What to use instead, ending the message.

    Raises
    ------
    ValueError
        When the array would exceed the budget; raised before anything is allocated.

    Examples
    --------
    >>> from ikviz._validation import check_dense_size
    >>> check_dense_size(1000, 1000, None, "The Gram matrix", "Subsample.")
    >>> check_dense_size(10**6, 10**6, None, "The Gram matrix", "Subsample.")
    Traceback (most recent call last):
    ...
    ValueError: The Gram matrix would be a dense 1000000 x 1000000 matrix (7.3 TiB), over the 2.0 GiB budget. Subsample.
    >>> check_dense_size(100, 100, 1000, "The Gram matrix", "Subsample.")
    Traceback (most recent call last):
    ...
    ValueError: The Gram matrix would be a dense 100 x 100 matrix (78.1 KiB), over dense_budget=1000 (bytes). Subsample.
    """
    limit = DEFAULT_DENSE_BUDGET if budget is None else budget
    need = 8 * int(n_rows) * int(n_cols)
    if need > limit:
        over = f"the {_bytes(limit)} budget" if budget is None else f"dense_budget={budget!r} (bytes)"
        raise ValueError(f"{what} would be a dense {n_rows} x {n_cols} matrix ({_bytes(need)}), over {over}. {hint}")


def renamed(owner: str, old: str, new: str, old_value, new_value):
    """The value of parameter ``new``, or of its deprecated old name ``old`` when that was given (with a FutureWarning).

    ikviz spells "neighbour" one way in its public API; parameters spelt
    "neighbor" before are still accepted for a while. An old parameter not
    given holds ``"deprecated"`` (estimators) or ``None`` (functions).

    Examples
    --------
    >>> import warnings
    >>> from ikviz._validation import renamed
    >>> renamed("DensityPeaks", "n_neighbors", "n_neighbours", "deprecated", 7)
    7
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     renamed("DensityPeaks", "n_neighbors", "n_neighbours", 5, 7)
    5
    >>> print(caught[0].message)
    DensityPeaks: 'n_neighbors' is renamed 'n_neighbours' (one spelling); the old name will go in a future release.
    """
    if old_value is None or (isinstance(old_value, str) and old_value == "deprecated"):
        return new_value
    warnings.warn(f"{owner}: {old!r} is renamed {new!r} (one spelling); the old name will go in a future release.",
                  FutureWarning, stacklevel=3)
    return old_value


def as_generator(random_state) -> np.random.Generator:
    """A NumPy ``Generator`` from any ``random_state`` scikit-learn accepts (None, int, RandomState, Generator)."""
    if isinstance(random_state, np.random.Generator):
        return random_state
    if isinstance(random_state, np.random.RandomState):
        return np.random.default_rng(random_state.randint(2**31 - 1))
    return np.random.default_rng(random_state)
