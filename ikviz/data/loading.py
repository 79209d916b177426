"""One loader for every data set the experiments use, under one naming scheme.

Names are lower case with hyphens, as they appear in the app's links:
the papers' generators (``uniform``, ``four-quadrants``, ``w-gaussians``,
``density-ratio``, ``dense-sparse-clusters``) and the bundled real data sets
(:func:`ikviz.data.dataset_names`) and the papers' larger ones, fetched
(``ijcnn1``, ``ijcnn1-test``, ``mnist-test``; see :mod:`ikviz.data.fetch`) or
joined (``a9a-full``, a9a's 48,842 rows). Scaling and subsampling are done here, in
one way, so two pages that show "a9a, 2,000 rows, min-max scaled" show the
same rows.
"""

from __future__ import annotations

from collections.abc import Callable
from numbers import Integral

import numpy as np
from sklearn.preprocessing import minmax_scale, scale as standardise
from .._sklearn import Interval, StrOptions, validate_params

from .clusters import dense_sparse_clusters
from .density_ratio import density_ratio
from .real import dataset_names, load_dataset
from .synthetic import SEED, four_quadrants, uniform, w_gaussians

__all__ = ["GENERATORS", "SCALINGS", "canonical_name", "data_names", "load"]


def _uniform(seed, n=2000, d=2, **options):
    X = uniform(n, d, seed=seed, **options)
    return X, np.zeros(len(X), dtype=np.int64)


def _quadrants(seed, counts=(1600, 400, 400, 100)):
    return four_quadrants(tuple(counts), seed=seed)


def _w_gaussians(seed, n_per_cluster=500, w=1, **options):
    return w_gaussians(n_per_cluster, w=w, seed=seed, **options)


def _density_ratio(seed, n=500, ratio=10.0, shape="uniform", **options):
    # shape: "uniform" squares (the default, as before) or "gaussian" classes (ikviz.data.density_ratio)
    return density_ratio(n, ratio, seed=seed, shape=shape, **options)


def _clusters(seed, d=10, n_per_cluster=1000, **options):
    return dense_sparse_clusters(d, n_per_cluster, seed=seed, **options)


#: generator name -> function(seed, **options) -> (X, y)
GENERATORS: dict[str, Callable] = {
    "uniform": _uniform,
    "four-quadrants": _quadrants,
    "w-gaussians": _w_gaussians,
    "density-ratio": _density_ratio,
    "dense-sparse-clusters": _clusters,
}

#: scaling name -> function of X
SCALINGS: dict[str, Callable] = {"minmax": minmax_scale, "standard": standardise}


def canonical_name(name: str) -> str:
    """``name`` in the one naming scheme: lower case, hyphens (``w_gaussians`` -> ``w-gaussians``).

    Old links with underscores keep working through this.

    Examples
    --------
    >>> from ikviz.data import canonical_name
    >>> canonical_name("W_Gaussians")
    'w-gaussians'
    """
    if not isinstance(name, str) or not name.strip():
        raise ValueError(f"name must be a non-empty string; got {name!r}.")
    return name.strip().lower().replace("_", "-")


def data_names() -> list[str]:
    """Every name :func:`load` accepts: the generators, the bundled real data sets, then the paper-size ones.

    Examples
    --------
    >>> from ikviz.data import data_names
    >>> data_names()[:3]
    ['uniform', 'four-quadrants', 'w-gaussians']
    """
    return list(GENERATORS) + [n for n in dataset_names() + dataset_names(fetched=True) if n not in GENERATORS]


@validate_params({"name": [str], "scale": [StrOptions(set(SCALINGS)), None],
                  "max_rows": [Interval(Integral, 1, None, closed="left"), None], "seed": SEED},
                 prefer_skip_nested_validation=True)
def load(name: str, *, scale: str | None = None, max_rows: int | None = None, seed: int = 0,
         **options) -> tuple[np.ndarray, np.ndarray]:
    """Data set ``name`` as ``(X, y)``: generated with ``seed``, or read from the bundled or fetched files.

    A fetched set (``ijcnn1``, ``ijcnn1-test``, ``mnist-test``) is read through
    :func:`ikviz.data.fetch.fetch`: from ``IKVIZ_DATA_MIRROR``, the cache, or
    its URL; without any of them a :class:`ikviz.data.fetch.FetchError` names
    the file that would serve.

    Parameters
    ----------
    name : str
        One of :func:`data_names` (underscores are accepted for hyphens).
    scale : {None, "minmax", "standard"}, default=None
        ``"minmax"`` maps every feature to [0, 1], as the papers do;
        ``"standard"`` to zero mean and unit variance. Applied after subsampling.
    max_rows : int, optional
        Keep at most this many rows, drawn without replacement with ``seed``
        (in their original order).
    seed : int, default=0
        Seed of the generator and of the subsample.
    **options
        The generator's own parameters (``n``, ``d``, ``w``, ``ratio``,
        ``n_per_cluster``, ``counts``, ``sigma_b``...); real data sets take none.
        ``density-ratio`` takes ``shape="uniform"`` (default) or ``"gaussian"``
        (see :func:`ikviz.data.density_ratio`).

    Returns
    -------
    X : ndarray of shape (n, d)
    y : ndarray of shape (n,) of int
        Class codes (all zero for ``uniform``).

    Examples
    --------
    >>> from ikviz.data import load
    >>> X, y = load("w_gaussians", n_per_cluster=50, w=10, seed=1)
    >>> X.shape, sorted(set(y.tolist()))
    ((100, 20), [0, 1])
    >>> X, y = load("density-ratio", ratio=20.0, shape="gaussian", seed=0)
    >>> X.shape, y.sum().item()
    ((500, 2), 250)
    >>> X, y = load("iris", scale="minmax", max_rows=30, seed=0)
    >>> X.shape, float(X.min()), float(X.max())
    ((30, 4), 0.0, 1.0)
    """
    key = canonical_name(name)
    if key in GENERATORS:
        X, y = GENERATORS[key](seed, **options)
    elif key in dataset_names() or key in dataset_names(fetched=True):
        if options:
            raise TypeError(f"the real data set {key!r} takes no options; got {sorted(options)}.")
        X, y = load_dataset(key)
    else:
        raise ValueError(f"name must be one of {data_names()}; got {name!r}.")
    X, y = np.asarray(X, dtype=np.float64), np.asarray(y)
    if max_rows is not None and len(X) > max_rows:
        keep = np.sort(np.random.default_rng(seed).choice(len(X), int(max_rows), replace=False))
        X, y = X[keep], y[keep]
    if scale is not None:
        X = SCALINGS[scale](X)
    return X, y
