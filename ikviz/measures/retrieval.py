"""Retrieval quality of nearest-neighbour search against class labels."""

from __future__ import annotations

import numpy as np


def precision_at_k(neighbours, labels, query_labels=None) -> float:
    """Mean fraction of each query's retrieved neighbours that share its class label.

    ``neighbours`` (n_queries, k) index into ``labels``; ``query_labels``
    defaults to ``labels`` (every point of the dataset is a query, as in Ting
    et al. 2021, Table 2).
    """
    nb = np.asarray(neighbours)
    labels = np.asarray(labels)
    if nb.ndim != 2 or nb.shape[1] == 0 or nb.dtype.kind not in "iu":
        raise ValueError(f"neighbours must be a 2-D integer array (queries x k); got shape {nb.shape}.")
    if labels.ndim != 1:
        raise ValueError(f"labels must be 1-D; got shape {labels.shape}.")
    q = labels if query_labels is None else np.asarray(query_labels)
    if q.shape != (nb.shape[0],):
        raise ValueError(f"need one query label per row of neighbours ({nb.shape[0]}); got {q.shape[0]}.")
    if nb.min() < 0 or nb.max() >= labels.shape[0]:
        raise ValueError(f"neighbour indices must lie in [0, {labels.shape[0] - 1}].")
    return float((labels[nb] == q[:, None]).mean())
