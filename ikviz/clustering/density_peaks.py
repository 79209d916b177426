"""Density-peaks clustering (Rodriguez & Laio 2014) on a distance or on 1 - kernel similarity.

For a cutoff ``eps``:

* rho_i   = number of other points closer than ``eps`` (local density);
* delta_i = distance to the nearest point that is denser (ties in rho are
  broken by index, so "denser" is a strict order); the densest point gets its
  largest distance to any point;
* the ``n_clusters`` points with the largest rho * delta are the centres, and
  every other point joins the cluster of its nearest denser point.

Plotting delta against rho (the *decision graph*) is how a user sees the
centres: they stand out with both a high density and a large delta.

Distances are streamed in row blocks of a bounded size (:class:`Distances`),
so 10,000 points never need the 800 MB dense matrix. The rho pass handles
any number of cutoffs at once, so sweeping ``eps`` costs two passes, not two
per cutoff.
"""

from __future__ import annotations

import numbers
from dataclasses import dataclass

import numpy as np

from .._validation import check_matrix
from ..kernels import IsolationKernel, local_scale
from ._dp import adaptive_gaussian_block, count_within, euclidean_block, follow_chain, nearest_denser

#: default size of one streamed block of distances (rows x n float64)
DEFAULT_BLOCK_BYTES = 64 * 1024**2
MEASURES = ("euclidean", "ik", "ag")
#: up to this many features a direct loop beats a BLAS matrix product for Euclidean blocks
_DIRECT_MAX_FEATURES = 16


class Distances:
    """Pairwise dissimilarities of the rows of ``X``, served one row block at a time.

    ``measure``:

    * ``"euclidean"``: the Euclidean distance;
    * ``"ik"``: 1 - Isolation Kernel similarity; ``kernel`` is an
      :class:`~ikviz.IsolationKernel` already fitted (on ``X`` or other data);
    * ``"ag"``: 1 - adaptive Gaussian similarity exp(-||x - y||^2 / (s_x s_y)),
      s_x the distance from x to its ``k``-th nearest neighbour.

    At most ``block_bytes`` of distances are held at once; when the whole
    matrix fits in one block it is computed once and reused by every pass.
    """

    def __init__(self, X, measure: str = "euclidean", *, kernel: IsolationKernel | None = None,
                 k: int = 7, block_bytes: int | None = None):
        if measure not in MEASURES:
            raise ValueError(f"measure must be one of {MEASURES}; got {measure!r}.")
        self.X = check_matrix(X)
        self.measure = measure
        self.n = self.X.shape[0]
        budget = DEFAULT_BLOCK_BYTES if block_bytes is None else int(block_bytes)
        self.rows_per_block = max(1, min(self.n, budget // (8 * self.n)))
        self._sq_norms = np.einsum("ij,ij->i", self.X, self.X)
        if measure == "ik":
            if not isinstance(kernel, IsolationKernel):
                raise ValueError("measure='ik' needs kernel=<a fitted IsolationKernel>.")
            self._index = kernel.index(self.X)  # bucketed once; each block costs only its shared-cell counts
        elif measure == "ag":
            self._scale = local_scale(self.X, None, k)
        self._whole = self._buffer = None
        self._max = None

    def _compute(self, start: int, stop: int, out: np.ndarray) -> np.ndarray:
        """Write the distances of rows ``start:stop`` into ``out`` (rows, n), in place."""
        rows = self.X[start:stop]
        if self.measure == "ik":
            self._index.similarity(self._index.cells[start:stop], out=out)
            out *= -1.0
            out += 1.0
            return out
        if self.X.shape[1] <= _DIRECT_MAX_FEATURES:
            if self.measure == "euclidean":
                return euclidean_block(rows, self.X, out)
            return adaptive_gaussian_block(rows, self.X, self._scale[start:stop], self._scale, out)
        np.matmul(rows, self.X.T, out=out)
        out *= -2.0
        out += self._sq_norms[start:stop, None]
        out += self._sq_norms[None, :]
        np.maximum(out, 0.0, out=out)  # rounding can make tiny squared distances negative
        if self.measure == "euclidean":
            return np.sqrt(out, out=out)
        out /= self._scale[start:stop, None]
        out /= self._scale[None, :]
        np.negative(out, out=out)
        np.exp(out, out=out)
        out *= -1.0
        out += 1.0
        return out

    def blocks(self):
        """Yield ``(start, block)`` pairs covering all rows; ``block`` is (rows, n) float64.

        Every block is written into the same buffer, so at most one block of
        distances exists at a time: use a block before asking for the next.
        """
        if self.rows_per_block >= self.n:
            if self._whole is None:
                self._whole = self._compute(0, self.n, np.empty((self.n, self.n)))
            yield 0, self._whole
            return
        if self._buffer is None:
            self._buffer = np.empty((self.rows_per_block, self.n))
        for start in range(0, self.n, self.rows_per_block):
            stop = min(self.n, start + self.rows_per_block)
            yield start, self._compute(start, stop, self._buffer[: stop - start])

    def max_distance(self) -> float:
        """The largest pairwise dissimilarity (the paper's m; cutoffs are fractions of it)."""
        if self._max is None and self.measure == "ik" and self.n > 1:
            # 1 - IK is at most 1 (no shared cell). A random sample of pairs usually contains such a
            # pair, which proves m = 1 exactly and saves a full pass over the n^2 distances.
            rng = np.random.default_rng(0)
            a, b = rng.integers(0, self.n, size=(2, min(20_000, self.n * self.n)))
            cells = self._index.cells
            if np.any((cells[a] == cells[b]).sum(axis=1) == 0):
                self._max = 1.0
        if self._max is None:
            self._max = float(max(block.max() for _, block in self.blocks()))
        return self._max


@dataclass
class DecisionGraph:
    """rho, delta and the nearest-denser chain for each cutoff in ``eps`` (rows of every array)."""

    eps: np.ndarray       # (m,) absolute cutoffs
    rho: np.ndarray       # (m, n) local densities
    delta: np.ndarray     # (m, n) distance to the nearest denser point
    parent: np.ndarray    # (m, n) index of that point; -1 for the densest
    order: np.ndarray     # (m, n) point indices, densest first


def decision_graph(distances: Distances, eps) -> DecisionGraph:
    """Compute rho and delta for one cutoff or an array of cutoffs (absolute distances).

    Two streamed passes over the distances whatever the number of cutoffs.
    """
    eps_arr = np.atleast_1d(np.asarray(eps, dtype=float))
    if eps_arr.ndim != 1 or eps_arr.size == 0 or not np.all(np.isfinite(eps_arr)) or np.any(eps_arr <= 0):
        raise ValueError(f"eps must be one positive number or a list of them; got {eps!r}.")
    n = distances.n
    sort = np.argsort(eps_arr, kind="stable")
    eps_sorted = np.ascontiguousarray(eps_arr[sort])
    rho_sorted = np.zeros((eps_sorted.size, n), dtype=np.int64)
    for start, block in distances.blocks():
        count_within(block, start, eps_sorted, rho_sorted)
    rho = np.empty_like(rho_sorted)
    rho[sort] = rho_sorted
    # densest first; among equal densities the lower index counts as denser
    order = np.argsort(-rho, axis=1, kind="stable")
    rank = np.empty_like(order)
    np.put_along_axis(rank, order, np.arange(n)[None, :], axis=1)
    delta = np.empty(rho.shape)
    parent = np.empty(rho.shape, dtype=np.int64)
    for start, block in distances.blocks():
        nearest_denser(block, start, rank, delta, parent)
    return DecisionGraph(eps_arr, rho, delta, parent, order)


def check_n_clusters(n_clusters, n: int) -> int:
    """``n_clusters`` as an int, or a ``ValueError`` if it is not in 1..n."""
    if isinstance(n_clusters, bool) or not isinstance(n_clusters, numbers.Integral) or n_clusters < 1:
        raise ValueError(f"the number of clusters must be a positive integer; got {n_clusters!r}.")
    if n_clusters > n:
        raise ValueError(f"cannot make {n_clusters} clusters from {n} points; choose k <= {n}.")
    return int(n_clusters)


def assign(graph: DecisionGraph, n_clusters: int, which: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """Labels (n,) and centre indices (n_clusters,) for cutoff number ``which`` of ``graph``.

    Centres are the points with the largest rho * delta; ties go to the denser
    point, so the densest point is always a centre.
    """
    rho, delta = graph.rho[which], graph.delta[which]
    k = check_n_clusters(n_clusters, rho.size)
    rank = np.empty(rho.size, dtype=np.int64)
    rank[graph.order[which]] = np.arange(rho.size)
    gamma = rho * delta
    centres = np.lexsort((rank, -gamma))[:k]
    centre_label = np.full(rho.size, -1, dtype=np.int64)
    centre_label[centres] = np.arange(k)
    labels = follow_chain(graph.order[which], graph.parent[which], centre_label)
    return labels, centres


def density_peaks(distances: Distances, n_clusters: int, eps_fraction: float = 0.02):
    """Cluster with one cutoff ``eps = eps_fraction * (largest pairwise distance)`` (ting2021 Table 7).

    Returns ``(labels, centres, graph)``.
    """
    if not (isinstance(eps_fraction, (int, float)) and 0 < eps_fraction <= 1):
        raise ValueError(f"eps_fraction must be in (0, 1]; got {eps_fraction!r}.")
    check_n_clusters(n_clusters, distances.n)
    m = distances.max_distance()
    if m <= 0:
        raise ValueError("all points are at distance 0 from each other (identical rows or constant "
                         "features); there is nothing to cluster.")
    graph = decision_graph(distances, eps_fraction * m)
    labels, centres = assign(graph, n_clusters)
    return labels, centres, graph
