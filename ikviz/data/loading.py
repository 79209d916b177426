"""One loader for every data set the experiments use, under one naming scheme: a :class:`Data` in short.

Names are lower case with hyphens, as they appear in the app's links:
the papers' generators (``uniform``, ``four-quadrants``, ``w-gaussians``,
``density-ratio``, ``dense-sparse-clusters``) and the bundled real data sets
(:func:`ikviz.data.dataset_names`) and the papers' larger ones, fetched
(``ijcnn1``, ``ijcnn1-test``, ``mnist-test``; see :mod:`ikviz.data.fetch`) or
joined (``a9a-full``, a9a's 48,842 rows; ``ijcnn1-full``, ijcnn1's training and test files, 141,691 rows).
``load(name, scale=..., max_rows=...)`` is
:func:`ikviz.data.description.resolve` of ``Data(name, steps=("subsample", scale))``,
so two pages that show "a9a, 2,000 rows, min-max scaled" show the same rows.
"""

from __future__ import annotations

from numbers import Integral

import numpy as np
from .._sklearn import Interval, StrOptions, validate_params

from .description import GENERATORS, LOADERS, Data, canonical_name, resolve, step

__all__ = ["GENERATORS", "SCALINGS", "canonical_name", "data_names", "load"]

#: the scalings :func:`load` offers, each a step of :data:`ikviz.data.description.STEPS`
SCALINGS: tuple[str, ...] = ("minmax", "standard")


def data_names() -> list[str]:
    """Every name :func:`load` accepts: the generators, the bundled real data sets, then the paper-size ones.

    Examples
    --------
    >>> from ikviz.data import data_names
    >>> data_names()[:3]
    ['uniform', 'four-quadrants', 'w-gaussians']
    """
    return list(LOADERS)


@validate_params({"name": [str], "scale": [StrOptions(set(SCALINGS)), None],
                  "max_rows": [Interval(Integral, 1, None, closed="left"), None],
                  "seed": [Interval(Integral, 0, None, closed="left")]},
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
    if canonical_name(name) not in LOADERS:
        raise ValueError(f"name must be one of {data_names()}; got {name!r}.")
    steps = (() if max_rows is None else (step("subsample", n=int(max_rows)),)) + (() if scale is None else (scale,))
    got = resolve(Data(name, seed=seed, options=options, steps=steps))
    return got.X, got.y
