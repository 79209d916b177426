"""Every similarity the curse-of-dimensionality study compares, behind one interface.

``fit_similarity(name, X, ...)`` prepares what a measure needs from the
dataset ``X`` (an Isolation Kernel's partitionings, each point's k nearest
neighbours...) and returns a function giving the similarities in [0, 1] of
queries to every point of ``X``. The instability and hubness measures then
treat all of them alike.
"""

from __future__ import annotations

from typing import Callable

import numpy as np
from sklearn.metrics.pairwise import euclidean_distances

from .._validation import check_matrix
from ..kernels import local_scale, rbf
from ..kernels.neighbourhood import lp_similarity, neighbour_sets, normalised_linear
from ..registry import isolation_kernel, label

#: measure key -> label shown in figures
LABELS: dict[str, str] = {key: label(key) for key in ("gk", "lk", "ik", "lp0.1", "lp0.5", "lp2", "snn", "ag")}
#: the options each measure depends on (what a cache key needs)
OPTIONS: dict[str, tuple[str, ...]] = {
    "gk": ("gamma", "gamma_scale"), "lk": (), "ik": ("psi", "t"), "lp0.1": (), "lp0.5": (), "lp2": (),
    "snn": ("k_snn",), "ag": ("k_ag",),
}

Similarity = Callable[..., np.ndarray]


def check_measure(name: str) -> None:
    """Raise a ``ValueError`` listing the choices if ``name`` is not a known measure.

    Examples
    --------
    >>> from ikviz.measures.similarities import check_measure
    >>> check_measure("ik")
    >>> check_measure("cosine")
    Traceback (most recent call last):
    ...
    ValueError: unknown measure 'cosine'; choose one of ['gk', 'lk', 'ik', 'lp0.1', 'lp0.5', 'lp2', 'snn', 'ag'].
    """
    if name not in LABELS:
        raise ValueError(f"unknown measure {name!r}; choose one of {list(LABELS)}.")


def gaussian_gamma(X: np.ndarray, gamma_scale: float = 1.0) -> float:
    """Data-scaled GK width: gamma = gamma_scale / (d * var(X)), scikit-learn's ``gamma="scale"``.

    Scaling with d keeps ``gamma * ||x - y||^2`` of order one at every d, so GK
    neither saturates to 0 nor flattens to 1 just because d grew.

    Examples
    --------
    >>> import numpy as np
    >>> from ikviz.measures.similarities import gaussian_gamma
    >>> gaussian_gamma(np.array([[0.0, 0.0], [2.0, 2.0]]))  # 1 / (2 * var 1)
    0.5
    """
    var = float(X.var())
    return gamma_scale / (X.shape[1] * var) if var > 0 else gamma_scale / X.shape[1]


def fit_similarity(name: str, X, *, seed: int = 0, gamma: float | None = None, gamma_scale: float = 1.0,
                   psi: int = 16, t: int = 200, k_snn: int = 50, k_ag: int = 200,
                   ik_reference=None) -> Similarity:
    """Prepare measure ``name`` on dataset ``X``; return ``sim(Q=None, rows=None)``.

    ``sim(Q)`` gives the (len(Q), len(X)) similarities of new queries ``Q`` to
    the points of ``X``; ``sim(rows=r)`` those of the dataset's own points
    ``X[r]`` (their precomputed neighbourhoods are reused, and a point is not
    its own neighbour when its local scale is computed). Values lie in [0, 1].

    Options: ``gamma`` (GK; default ``gaussian_gamma(X, gamma_scale)``),
    ``psi``, ``t`` (IK, seeded by ``seed``; ``ik_reference`` fits the
    partitionings on other data, e.g. uniform samples), ``k_snn`` (SNN),
    ``k_ag`` (AG's k-th-neighbour scale).

    Examples
    --------
    >>> import numpy as np
    >>> from ikviz.measures.similarities import fit_similarity
    >>> X = np.random.default_rng(0).normal(size=(50, 3))
    >>> sim = fit_similarity("ik", X, psi=8, t=50, seed=0)
    >>> S = sim(X[:2] + 0.01)
    >>> S.shape, bool(S.min() >= 0 and S.max() <= 1)
    ((2, 50), True)
    >>> sim(rows=[0, 1]).shape
    (2, 50)
    """
    check_measure(name)
    X = check_matrix(X)
    n = X.shape[0]

    def rows_or(Q, rows):
        if (Q is None) == (rows is None):
            raise ValueError("pass either queries Q or dataset rows, not both or neither.")
        return X[rows] if Q is None else check_matrix(Q, "Q")

    if name == "gk":
        g = gaussian_gamma(X, gamma_scale) if gamma is None else gamma
        return lambda Q=None, rows=None: rbf(rows_or(Q, rows), X, gamma=g)
    if name == "lk":
        return lambda Q=None, rows=None: normalised_linear(rows_or(Q, rows), X)
    if name.startswith("lp"):
        p = float(name[2:])
        return lambda Q=None, rows=None: lp_similarity(rows_or(Q, rows), X, p=p)
    if name == "ik":
        ref = X if ik_reference is None else check_matrix(ik_reference, "ik_reference")
        ik = isolation_kernel("ik", psi=psi, t=t, seed=seed, n=ref.shape[0]).fit(ref)
        index = ik.index(X)

        def ik_sim(Q=None, rows=None):
            rows_or(Q, rows)
            return index.similarity(index.cells[rows] if Q is None else ik.cells(check_matrix(Q, "Q")))
        return ik_sim
    if name == "snn":
        k = min(k_snn, n)
        sets_x = neighbour_sets(X, X, k)

        def snn_sim(Q=None, rows=None):
            Qm = rows_or(Q, rows)
            sets_q = sets_x[rows] if Q is None else neighbour_sets(Qm, X, k)
            return (sets_q @ sets_x.T).toarray() / k
        return snn_sim
    # adaptive Gaussian: each point's scale is the distance to its k-th neighbour among the others
    k = min(k_ag, n - 1)
    scale_x = local_scale(X, None, k)

    def ag_sim(Q=None, rows=None):
        Qm = rows_or(Q, rows)
        scale_q = scale_x[rows] if Q is None else local_scale(Qm, X, k)
        sq = euclidean_distances(Qm, X, squared=True)
        return np.exp(-sq / np.outer(scale_q, scale_x))
    return ag_sim


def option_subset(name: str, options: dict) -> dict:
    """Only the options measure ``name`` depends on (so caches do not recompute on unrelated changes).

    Examples
    --------
    >>> from ikviz.measures.similarities import option_subset
    >>> option_subset("ik", {"psi": 16, "t": 200, "gamma": 1.0})
    {'psi': 16, 't': 200}
    """
    check_measure(name)
    return {k: v for k, v in options.items() if k in OPTIONS[name]}


def sub_seed(seed: int, *parts: int) -> int:
    """An independent, reproducible seed for one part of an experiment (e.g. one d).

    Examples
    --------
    >>> from ikviz.measures.similarities import sub_seed
    >>> sub_seed(0, 5) == sub_seed(0, 5) != sub_seed(0, 6)
    True
    """
    return int(np.random.SeedSequence([int(seed), *map(int, parts)]).generate_state(1)[0])


__all__ = ["LABELS", "OPTIONS", "fit_similarity", "gaussian_gamma", "option_subset", "check_measure",
           "sub_seed"]
