"""2-D views of the bundled real datasets, for drawing kernel contours on real data."""

from __future__ import annotations

import numpy as np

from .real import load_dataset


def _tsne_view(name: str, n: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    from openTSNE import TSNE
    from sklearn.preprocessing import minmax_scale

    X, y = load_dataset(name)
    if len(X) > n:
        keep = np.sort(np.random.default_rng(seed).choice(len(X), n, replace=False))
        X, y = X[keep], y[keep]
    X = minmax_scale(X)  # the papers scale every feature to [0, 1] first
    Z = np.asarray(TSNE(n_components=2, perplexity=30, random_state=seed, n_jobs=2).fit(X))
    return minmax_scale(Z, feature_range=(-1, 1)), y


def tsne_view(name: str, n: int = 2000, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """A t-SNE embedding of dataset ``name`` (at most ``n`` rows), scaled to [-1, 1]^2, and its labels.

    As in Ting et al. (2018, Fig. 4c-d), a kernel computed *on this 2-D view*
    shows how IK's contours follow the clusters while Laplacian's do not.
    Takes a few seconds (the app keeps it in its results store).

    Examples
    --------
    >>> from ikviz.data.views import tsne_view
    >>> Z, y = tsne_view("iris", n=60, seed=0)
    >>> Z.shape, float(Z.min()), float(Z.max())
    ((60, 2), -1.0, 1.0)
    """
    if n < 10:
        raise ValueError(f"n must be at least 10 points for a t-SNE view; got {n}.")
    return _tsne_view(name, int(n), int(seed))
