"""Exact k-nearest-neighbour search: brute force vs a ball tree (Ting et al. 2021, Table 2).

The same scikit-learn searches (Euclidean distance, leaf size 15) run on
three representations of a dataset: the points themselves ("distance"), the
Isolation Kernel feature map (Euclidean distance there is sqrt(2t(1 - K))),
and the points scaled to unit length (the normalised linear kernel). Every
point is a query. Besides the runtimes, precision@k says how many of each
point's k nearest neighbours share its class; for it, ties (common with IK)
are broken at random, seeded.

Building blocks: :func:`load` (dataset), :func:`representation` (feature map
and its time), :func:`search_times` (brute force and ball tree),
:func:`precision` (retrieval quality).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import numpy as np
from sklearn.neighbors import BallTree, NearestNeighbors
from sklearn.preprocessing import normalize
from threadpoolctl import threadpool_limits

from .._validation import check_dense_size
from ..data import dense_sparse_clusters, w_gaussians
from ..data.real import dataset_names, load_dataset
from ..measures import k_nearest, k_nearest_blocks, precision_at_k
from ..measures.similarities import fit_similarity, sub_seed
from ..registry import isolation_kernel
from ..runner import Memo, Progress, resolve

METHODS = {"distance": "Distance (Euclidean)", "ik": "IK feature map", "lk": "Linear kernel (normalised)"}
#: method -> the similarity whose nearest neighbours the search finds
_SIMILARITY = {"distance": "lp2", "ik": "ik", "lk": "lk"}
SYNTHETIC = {"gaussians": "Gaussians (Fig. 1 data, 2 x 1,000 points)",
             "w-gaussians": "w-Gaussians (w = 5,000: 2 x 1,000 points in 10,000 dims)"}
FEATURE_BUDGET = 1024**3  # bytes of the dense IK feature map the ball tree needs


def dataset_choices() -> list[str]:
    """Datasets offered: the two synthetic ones of Table 2, then the bundled real ones."""
    return list(SYNTHETIC) + dataset_names()


@dataclass(frozen=True)
class Params:
    """Parameters of the indexing comparison."""

    dataset: str = "gaussians"
    n_max: int = 2000             # larger datasets are subsampled (seeded)
    d: int = 10000                # dimensions of the "gaussians" dataset
    k: int = 5
    psi: int = 16
    t: int = 200
    leaf_size: int = 15           # as in the paper
    methods: tuple[str, ...] = tuple(METHODS)
    seed: int = 0


@dataclass
class Result:
    """One row per method: runtimes (s), precision@k and how the k-th neighbour was decided."""

    params: Params
    n: int
    d: int
    n_classes: int
    rows: dict[str, dict] = field(default_factory=dict)


def load(dataset: str, n_max: int = 2000, d: int = 10000, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """The dataset's points (min-max scaled to [0, 1] per feature for real data) and labels, at most ``n_max`` rows."""
    if dataset == "gaussians":
        X, y = dense_sparse_clusters(d, 1000, seed=seed)
    elif dataset == "w-gaussians":
        X, y = w_gaussians(1000, w=5000, seed=seed)
    elif dataset in dataset_names():
        X, y = load_dataset(dataset)
        X = np.asarray(X.toarray() if hasattr(X, "toarray") else X, dtype=np.float64)
        span = X.max(axis=0) - X.min(axis=0)
        X = (X - X.min(axis=0)) / np.where(span > 0, span, 1.0)
    else:
        raise ValueError(f"unknown dataset {dataset!r}; choose one of {dataset_choices()}.")
    if isinstance(n_max, bool) or not isinstance(n_max, (int, np.integer)) or n_max < 10:
        raise ValueError(f"n_max must be an integer >= 10; got {n_max!r}.")
    if X.shape[0] > n_max:
        keep = np.sort(np.random.default_rng(sub_seed(seed, 11)).choice(X.shape[0], n_max, replace=False))
        X, y = X[keep], y[keep]
    X = np.ascontiguousarray(X)
    X.flags.writeable = False
    return X, np.asarray(y)


def representation(method: str, dataset: str, *, n_max: int, d: int, seed: int, psi: int = 16,
                   t: int = 200, memo: Memo | None = None) -> tuple[np.ndarray, float]:
    """The points ``method`` searches among, and the seconds it took to map them (0 for the raw points).

    IK: the t * psi feature map (fit + transform + densify, as the
    ball tree needs dense input); LK: each point divided by its norm.
    """
    if method not in METHODS:
        raise ValueError(f"unknown method {method!r}; choose one of {list(METHODS)}.")
    memo, _ = resolve(memo, None)
    X, _ = memo(load)(dataset, n_max, d, seed)
    if method == "distance":
        return X, 0.0
    start = time.perf_counter()
    if method == "lk":
        F = normalize(X)
    else:
        ik = isolation_kernel("ik", psi=psi, t=t, seed=sub_seed(seed, 12), n=X.shape[0]).fit(X)
        check_dense_size(X.shape[0], t * ik.psi_, FEATURE_BUDGET, "The dense IK feature map",
                         "Lower ψ or the number of points.")
        F = ik.transform(X).toarray()
    return F, time.perf_counter() - start


def search_times(F: np.ndarray, k: int = 5, leaf_size: int = 15) -> dict:
    """Seconds for the exact k-NN of every row of ``F`` among the others: brute force and ball tree.

    Both run on one thread (BLAS included), so neither gains from parallelism
    the other lacks. ``balltree_s`` includes building the tree (``build_s``).
    ``distance_share`` is the ball tree's distance evaluations as a fraction of
    brute force's n^2: below 1 the tree pruned, independent of the machine.
    ``same_result`` checks that both found neighbours at the same distances.
    """
    n = F.shape[0]
    with threadpool_limits(1):
        start = time.perf_counter()
        dist_b, _ = NearestNeighbors(n_neighbors=k, algorithm="brute").fit(F).kneighbors()
        brute = time.perf_counter() - start
        start = time.perf_counter()
        tree = BallTree(F, leaf_size=leaf_size)
        build = time.perf_counter() - start
        tree.reset_n_calls()
        dist_t, _ = tree.query(F, k=k + 1)  # the query point itself (or a duplicate) comes first, at 0
        ball = time.perf_counter() - start
    return {"brute_s": brute, "balltree_s": ball, "build_s": build,
            "distance_share": tree.get_n_calls() / float(n * n),
            "same_result": bool(np.allclose(dist_b, dist_t[:, 1:], rtol=1e-6, atol=1e-6))}


def method_times(method: str, dataset: str, *, n_max: int, d: int, seed: int, psi: int = 16, t: int = 200,
                 k: int = 5, leaf_size: int = 15, memo: Memo | None = None) -> dict:
    """:func:`representation` then :func:`search_times`: mapping and search seconds of one method."""
    F, map_s = representation(method, dataset, n_max=n_max, d=d, seed=seed, psi=psi, t=t, memo=memo)
    return {"map_s": map_s, "dims": int(F.shape[1]), **search_times(F, k, leaf_size)}


def precision(method: str, dataset: str, *, n_max: int, d: int, seed: int, k: int = 5, psi: int = 16,
              t: int = 200, memo: Memo | None = None, progress: Progress | None = None) -> dict:
    """precision@k of ``method``'s k nearest neighbours (ties broken at random, seeded).

    Also returns ``tie_share``: the fraction of queries whose k-th and
    (k+1)-th nearest are equally similar, i.e. where the tie-break decided.
    """
    memo, _ = resolve(memo, None)
    X, y = memo(load)(dataset, n_max, d, seed)
    sim = fit_similarity(_SIMILARITY[method], X, seed=sub_seed(seed, 12), psi=min(psi, X.shape[0]), t=t)
    n = X.shape[0]
    ties = np.zeros(n, dtype=bool)

    def block(a, b):
        S = sim(rows=slice(a, b))
        if k + 1 <= n - 1:
            _, vals = k_nearest(S, k + 1, seed=0, row_offset=a, exclude_self=True, return_similarity=True)
            ties[a:b] = vals[:, k - 1] == vals[:, k]
        return S

    report = None if progress is None else (lambda f: progress(f, "nearest neighbours"))
    neighbours = k_nearest_blocks(block, n, k, seed=sub_seed(seed, 13), progress=report)
    return {"precision": precision_at_k(neighbours, y), "tie_share": float(ties.mean())}


def run(p: Params = Params(), *, memo: Memo | None = None, progress: Progress | None = None) -> Result:
    """Runtimes and precision@k of every method on the chosen dataset (each method's a block of ``memo``)."""
    memo, progress = resolve(memo, progress)
    for m in p.methods:
        if m not in METHODS:
            raise ValueError(f"unknown method {m!r}; choose one of {list(METHODS)}.")
    X, y = memo(load)(p.dataset, p.n_max, p.d, p.seed)
    result = Result(p, X.shape[0], X.shape[1], int(np.unique(y).size))
    common = dict(n_max=p.n_max, d=p.d, seed=p.seed)
    for i, m in enumerate(p.methods):
        progress(i / len(p.methods), f"{METHODS[m]}: brute force and ball tree (one thread each)")
        row = dict(memo(method_times)(m, p.dataset, psi=p.psi, t=p.t, k=p.k, leaf_size=p.leaf_size, **common))
        progress((i + 0.5) / len(p.methods), f"{METHODS[m]}: precision@{p.k}")
        prec = memo(precision)(m, p.dataset, k=p.k, psi=p.psi, t=p.t, **common)
        row[f"precision_at_{p.k}"] = prec["precision"]
        row["tie_share"] = prec["tie_share"]
        result.rows[m] = row
    progress(1.0, "done")
    return result


def summary(result: Result) -> dict:
    """Per method: ``brute_s``, ``balltree_s``, ``precision_at_<k>``, and whether the index was faster."""
    out = {}
    for m, row in result.rows.items():
        out[m] = {**row, "index_faster": row["balltree_s"] < row["brute_s"],
                  "speedup": row["brute_s"] / row["balltree_s"] if row["balltree_s"] > 0 else None}
    return {"dataset": result.params.dataset, "n": result.n, "d": result.d, "n_classes": result.n_classes,
            "methods": out}
