"""2-D views of the bundled real datasets, for drawing kernel contours on real data."""

from __future__ import annotations

import numpy as np

from .loading import load


def tsne_view(name: str, n: int = 2000, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """A t-SNE embedding of dataset ``name`` (at most ``n`` rows), scaled to [-1, 1]^2, and its labels.

    As in Ting et al. (2018, Fig. 4c-d), a kernel computed *on this 2-D view*
    shows how IK's contours follow the clusters while Laplacian's do not.
    The rows are :func:`ikviz.data.load`'s subsample of ``n`` rows with
    ``seed``, each feature scaled to [0, 1] first, as the papers do. Takes a
    few seconds and keeps nothing: a caller that needs it again passes it
    through its ``memo`` (see :mod:`ikviz.runner`).

    Examples
    --------
    >>> from ikviz.data.views import tsne_view
    >>> Z, y = tsne_view("iris", n=60, seed=0)
    >>> Z.shape, float(Z.min()), float(Z.max())
    ((60, 2), -1.0, 1.0)
    """
    from openTSNE import TSNE
    from sklearn.preprocessing import minmax_scale

    if n < 10:
        raise ValueError(f"n must be at least 10 points for a t-SNE view; got {n}.")
    X, y = load(name, scale="minmax", max_rows=int(n), seed=int(seed))
    Z = np.asarray(TSNE(n_components=2, perplexity=30, random_state=int(seed), n_jobs=2).fit(X))
    return minmax_scale(Z, feature_range=(-1, 1)), y
