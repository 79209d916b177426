"""Retrieval quality of nearest-neighbour search against class labels."""

from __future__ import annotations

import numpy as np

from .._sklearn import validate_params
from .._validation import check_array, check_labels


@validate_params({"neighbours": ["array-like"], "labels": ["array-like"], "query_labels": ["array-like", None]},
                 prefer_skip_nested_validation=True)
def precision_at_k(neighbours, labels, query_labels=None) -> float:
    """Mean fraction of each query's retrieved neighbours that share its class label.

    Parameters
    ----------
    neighbours : array-like of shape (n_queries, k) of int
        Indices into ``labels`` of each query's retrieved points.
    labels : array-like of shape (n_points,)
        Class of every point of the dataset.
    query_labels : array-like of shape (n_queries,), default=None
        Class of each query; ``None`` means ``labels`` (every point of the
        dataset is a query, as in Ting et al. 2021, Table 2).

    Returns
    -------
    precision : float in [0, 1]

    Examples
    --------
    >>> from ikviz.measures import precision_at_k
    >>> precision_at_k([[1, 2], [0, 2], [0, 1]], labels=[0, 0, 1])
    0.3333333333333333
    """
    nb = check_array(neighbours, "neighbours", ndim=2, dtype=np.int64)
    if nb.shape[1] == 0:
        raise ValueError(f"neighbours has no columns (shape {nb.shape}); pass at least one neighbour per query.")
    labels = check_labels(labels, "labels")
    if query_labels is None:
        q = check_labels(labels, "labels", n=nb.shape[0], other="neighbours")
    else:
        q = check_labels(query_labels, "query_labels", n=nb.shape[0], other="neighbours")
    if nb.min() < 0 or nb.max() >= labels.shape[0]:
        raise ValueError(f"neighbours holds indices from {nb.min()} to {nb.max()}, but labels has {labels.shape[0]} "
                         f"entries (indices 0..{labels.shape[0] - 1}).")
    return float((labels[nb] == q[:, None]).mean())
