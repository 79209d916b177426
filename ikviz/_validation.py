"""Input checks shared by every estimator and kernel function.

Inputs are validated once, at the boundary, with messages a user can act on.
"""

from __future__ import annotations

import numpy as np

#: Largest dense result (in bytes) a function may allocate before it refuses.
DEFAULT_DENSE_BUDGET = 2 * 1024**3


def check_matrix(X, name: str = "X", dtype=np.float64) -> np.ndarray:
    """Return ``X`` as a C-contiguous 2-D float array, or raise a clear ``ValueError``.

    Accepts NumPy arrays, nested lists and data frames. Rejects non-numeric
    columns, empty or 1-D input, and NaN or infinite values (saying how many rows).
    """
    if hasattr(X, "tocsr") or type(X).__module__.startswith("scipy.sparse"):
        raise ValueError(f"{name} is a sparse matrix; sparse input is not supported. Pass a dense array "
                         f"({name}.toarray()).")
    if X is None:
        raise ValueError(f"{name} is None; pass a 2-D array of shape (n_samples, n_features).")
    dtypes = getattr(X, "dtypes", None)
    if dtypes is not None and hasattr(X, "columns"):
        bad = [str(c) for c, dt in zip(X.columns, dtypes) if getattr(dt, "kind", "O") not in "biuf"]
        if bad:
            shown = ", ".join(bad[:5]) + (", ..." if len(bad) > 5 else "")
            raise ValueError(
                f"{name} has {len(bad)} non-numeric column(s): {shown}. "
                "Drop them or encode them as numbers first."
            )
        X = X.to_numpy()
    try:
        arr = np.asarray(X)
    except ValueError as exc:  # ragged nested lists
        raise ValueError(f"{name} could not be read as a 2-D array: {exc}") from None
    if arr.dtype.kind in "OUSV":
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
    if arr.dtype.kind == "c":
        raise ValueError(f"Complex data not supported: {name} is complex-valued; the kernels need real numbers.")
    if arr.ndim != 2:
        hint = " Reshape your data: X.reshape(-1, 1) for a single feature." if arr.ndim == 1 else ""
        raise ValueError(
            f"{name} must be 2-D (n_samples, n_features); got an array of shape {arr.shape}.{hint}"
        )
    if arr.shape[0] == 0:
        raise ValueError(f"{name} is empty: 0 sample(s) (shape={arr.shape}) while a minimum of 1 is required.")
    if arr.shape[1] == 0:
        raise ValueError(f"{name} is empty: 0 feature(s) (shape={arr.shape}) while a minimum of 1 is required.")
    arr = np.ascontiguousarray(arr, dtype=dtype)
    finite = np.isfinite(arr)
    if not finite.all():
        bad_rows = np.flatnonzero(~finite.all(axis=1))
        shown = ", ".join(map(str, bad_rows[:5])) + (", ..." if bad_rows.size > 5 else "")
        raise ValueError(
            f"{name} has {bad_rows.size} row(s) with NaN or infinity (rows {shown}). "
            "Remove or impute them first."
        )
    return arr


def check_dense_size(n_rows: int, n_cols: int, budget: int | None, what: str, hint: str) -> None:
    """Refuse to allocate an ``n_rows x n_cols`` float64 matrix larger than ``budget`` bytes."""
    budget = DEFAULT_DENSE_BUDGET if budget is None else budget
    need = 8 * int(n_rows) * int(n_cols)
    if need > budget:
        raise ValueError(
            f"{what} would be a dense {n_rows} x {n_cols} matrix ({need / 1024**2:,.0f} MiB), "
            f"over the {budget / 1024**2:,.0f} MiB budget. {hint}"
        )
