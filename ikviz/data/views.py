"""2-D views of the bundled real datasets, for drawing kernel contours on real data."""

from __future__ import annotations

import numpy as np

from .description import Data, step


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
    if n < 10:
        raise ValueError(f"n must be at least 10 points for a t-SNE view; got {n}.")
    got = Data(name, seed=int(seed), steps=(step("subsample", n=int(n)), "minmax", "tsne")).resolve()
    return got.X, got.y
