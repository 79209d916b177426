"""Instability of nearest-neighbour queries (Beyer et al. 1999; Ting et al. 2021, §4.1).

Both measures take similarities ``S`` in [0, 1] between queries (rows) and the
points of a dataset (columns) under any kernel or similarity, and use the
dissimilarity m(q, y) = 1 - S(q, y):

- ``n_eps``: how many points lie within a factor (1 + eps) of the nearest
  neighbour's dissimilarity. Large N_eps for a small eps means the nearest
  neighbour is barely distinguishable from many others (an unstable query);
  N_eps near 1 means it stands out.
- ``relative_variance``: var(F / E[F]), the variance of the dissimilarities
  divided by their mean. It tends to 0 when all points look equally far away
  (the concentration effect).
"""

from __future__ import annotations

from numbers import Real

import numpy as np

from .._sklearn import Interval, validate_params
from .._validation import check_array

_TOLERANCE = 1e-9  # kernels computed in floating point may overshoot [0, 1] by rounding


def _check_similarities(S) -> tuple[np.ndarray, bool]:
    arr = check_array(S, "S", ndim=(1, 2))
    single = arr.ndim == 1
    if single:
        arr = arr[None, :]
    low, high = float(arr.min()), float(arr.max())
    if low < -_TOLERANCE or high > 1 + _TOLERANCE:
        raise ValueError(
            f"S: similarities must lie in [0, 1] (got values from {low:.4g} to {high:.4g}); "
            "normalise the measure first, e.g. 1 - distance / max distance."
        )
    return np.clip(arr, 0.0, 1.0), single


@validate_params({"S": ["array-like"]}, prefer_skip_nested_validation=True)
def dissimilarity(S) -> np.ndarray:
    """m = 1 - S for similarities ``S`` in [0, 1] (checked).

    Parameters
    ----------
    S : array-like of shape (n_queries, n_points) or (n_points,)
        Similarities in [0, 1].

    Returns
    -------
    m : ndarray of the same shape
        Dissimilarities in [0, 1].

    Examples
    --------
    >>> from ikviz.measures import dissimilarity
    >>> dissimilarity([[1.0, 0.25], [0.5, 1.0]])
    array([[0.  , 0.75],
           [0.5 , 0.  ]])
    """
    arr, single = _check_similarities(S)
    m = 1.0 - arr
    return m[0] if single else m


@validate_params({"S": ["array-like"], "eps": [Interval(Real, 0, None, closed="left")]},
                 prefer_skip_nested_validation=True)
def n_eps(S, eps: float = 0.005) -> np.ndarray | int:
    """N_eps per query: the number of points y with m(q, y) <= (1 + eps) * min_y m(q, y).

    The nearest neighbour always counts (``<=``), so N_eps >= 1, and every
    point tied with it counts too: with a measure that takes few distinct
    values (IK: multiples of 1/t; SNN: multiples of 1/k) N_eps is at least the
    size of the tie at the top.

    Parameters
    ----------
    S : array-like of shape (n_queries, n_points) or (n_points,)
        Similarities in [0, 1] of each query to every point.
    eps : float, default=0.005
        Relative width of the window above the nearest dissimilarity (>= 0).

    Returns
    -------
    counts : ndarray of shape (n_queries,) of int, or int for a single row

    Examples
    --------
    >>> from ikviz.measures import n_eps
    >>> n_eps([[0.9, 0.899, 0.5], [0.9, 0.2, 0.1]], eps=0.05)
    array([2, 1])
    """
    arr, single = _check_similarities(S)
    m = 1.0 - arr
    nearest = m.min(axis=1, keepdims=True)
    # a relative tolerance keeps exact ties (e.g. 1 - 0.3 computed two ways) inside the window
    window = (1.0 + eps) * nearest * (1 + 1e-12) + 1e-15
    counts = (m <= window).sum(axis=1)
    return int(counts[0]) if single else counts


@validate_params({"S": ["array-like"]}, prefer_skip_nested_validation=True)
def relative_variance(S) -> np.ndarray | float:
    """var(F / E[F]) per query, F being the dissimilarities m(q, y) over the dataset.

    Parameters
    ----------
    S : array-like of shape (n_queries, n_points) or (n_points,)
        Similarities in [0, 1].

    Returns
    -------
    variance : ndarray of shape (n_queries,), or float for a single row
        NaN for a query whose dissimilarities are all 0 (every point is
        identical to it under the measure, so the ratio is undefined).

    Examples
    --------
    >>> from ikviz.measures import relative_variance
    >>> relative_variance([[0.0, 0.5, 1.0], [1.0, 1.0, 1.0]])
    array([0.66666667,        nan])
    """
    arr, single = _check_similarities(S)
    m = 1.0 - arr
    mean = m.mean(axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        out = np.where(mean > 0, m.var(axis=1) / np.where(mean > 0, mean, 1.0) ** 2, np.nan)
    return float(out[0]) if single else out
