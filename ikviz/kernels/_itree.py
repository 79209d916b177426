"""Numba kernels for isolation trees: build from a small sample, then route rows to leaves.

A forest of ``t`` trees is stored as flat (t, max_nodes) arrays: ``feature``
(-1 at a leaf), ``threshold``, ``left`` (the right child is always
``left + 1``) and ``leaf`` (the leaf's column within its tree, -1 at an
internal node). Every random number a tree
needs is drawn in NumPy beforehand, so trees can be built in parallel and the
result depends only on the seed, not on thread scheduling.
"""

import numpy as np
from numba import njit

from ._threads import run_tasks, workers_for
from ._tiles import tile


@njit(cache=True, nogil=True)
def _build_one(S, U, max_depth, feature, threshold, left, leaf):
    """Grow one isolation tree on sample ``S`` (psi, d); return its number of leaves.

    A node splits on an attribute drawn uniformly among those not constant in
    the node, at a value drawn uniformly in [min, max); rows with value <= split
    go left, so both children are non-empty and the tree has at most psi
    leaves. ``max_depth < 0`` grows until every distinct point is isolated.
    """
    psi, d = S.shape
    idx = np.arange(psi)
    cand = np.empty(d, dtype=np.int64)
    lo_v = np.empty(d, dtype=np.float64)
    hi_v = np.empty(d, dtype=np.float64)
    st_node = np.empty(2 * psi, dtype=np.int64)
    st_lo = np.empty(2 * psi, dtype=np.int64)
    st_hi = np.empty(2 * psi, dtype=np.int64)
    st_depth = np.empty(2 * psi, dtype=np.int64)
    sp = 0
    st_node[0] = 0
    st_lo[0] = 0
    st_hi[0] = psi
    st_depth[0] = 0
    sp = 1
    n_nodes = 1
    n_leaves = 0
    n_splits = 0
    while sp > 0:
        sp -= 1
        node = st_node[sp]
        lo = st_lo[sp]
        hi = st_hi[sp]
        depth = st_depth[sp]
        n_cand = 0
        if hi - lo > 1 and (max_depth < 0 or depth < max_depth):
            for a in range(d):
                mn = S[idx[lo], a]
                mx = mn
                for p in range(lo + 1, hi):
                    v = S[idx[p], a]
                    if v < mn:
                        mn = v
                    elif v > mx:
                        mx = v
                if mx > mn:
                    cand[n_cand] = a
                    lo_v[n_cand] = mn
                    hi_v[n_cand] = mx
                    n_cand += 1
        if n_cand == 0:
            feature[node] = -1
            leaf[node] = n_leaves
            n_leaves += 1
            continue
        c = int(U[n_splits, 0] * n_cand)
        if c >= n_cand:
            c = n_cand - 1
        a = cand[c]
        mn = lo_v[c]
        mx = hi_v[c]
        split = mn + U[n_splits, 1] * (mx - mn)
        if split >= mx:  # rounding can reach max; keep the right child non-empty
            split = mn
        n_splits += 1
        # partition idx[lo:hi] in place: values <= split first
        i = lo
        j = hi - 1
        while i <= j:
            if S[idx[i], a] <= split:
                i += 1
            else:
                tmp = idx[i]
                idx[i] = idx[j]
                idx[j] = tmp
                j -= 1
        mid = i
        feature[node] = a
        threshold[node] = split
        leaf[node] = -1
        left[node] = n_nodes
        # push right first so the left subtree is numbered first
        st_node[sp] = n_nodes + 1
        st_lo[sp] = mid
        st_hi[sp] = hi
        st_depth[sp] = depth + 1
        sp += 1
        st_node[sp] = n_nodes
        st_lo[sp] = lo
        st_hi[sp] = mid
        st_depth[sp] = depth + 1
        sp += 1
        n_nodes += 2
    return n_leaves


@njit(cache=True, nogil=True)
def build_trees(samples, uniforms, max_depth, feature, threshold, left, leaf, n_leaves, task0, task1):
    """Grow trees ``task0 .. task1`` of :func:`build_forest`."""
    for k in range(task0, task1):
        n_leaves[k] = _build_one(samples[k], uniforms[k], max_depth, feature[k], threshold[k],
                                 left[k], leaf[k])


def build_forest(samples, uniforms, max_depth, feature, threshold, left, leaf, n_leaves, workers=None):
    """Grow ``t`` trees: ``samples`` (t, psi, d), ``uniforms`` (t, psi, 2); in threads (see :mod:`._threads`).

    A tree's random numbers are its own (``uniforms[k]``), so the forest does
    not depend on the threads.
    """
    t, psi, d = samples.shape
    if workers is None:
        workers = workers_for(t * psi * d * 8)
    run_tasks(build_trees, t, samples, uniforms, int(max_depth), feature, threshold, left, leaf, n_leaves,
              workers=workers)


def route(X, feature, threshold, left, leaf, stride, block, out, workers=None):
    """Write ``k * stride + (leaf of tree k that X[i] falls in)`` into ``out[i, k]``.

    Work is split into (row block, tree) tiles so one tree's nodes stay in L1
    cache while a block of rows walks it; the walk is branch-free because the
    right child of a node is always ``left + 1``. Tiles run in ``workers``
    threads (see :mod:`._threads`).
    """
    n, t = X.shape[0], feature.shape[0]
    if workers is None:
        workers = workers_for(n * t * 16)
    run_tasks(route_tiles, -(-n // block) * t, X, feature, threshold, left, leaf, stride, block, out,
              workers=workers)
    return out


@njit(cache=True, nogil=True)
def route_tiles(X, feature, threshold, left, leaf, stride, block, out, task0, task1):
    """Tiles ``task0 .. task1`` of :func:`route`."""
    n = X.shape[0]
    t = feature.shape[0]
    for task in range(task0, task1):
        k, start, stop = tile(task, n, t, block)
        f = feature[k]
        th = threshold[k]
        lf = left[k]
        lv = leaf[k]
        offset = k * stride
        for i in range(start, stop):
            x = X[i]
            node = 0
            while f[node] >= 0:
                node = lf[node] + (x[f[node]] > th[node])
            out[i, k] = offset + lv[node]
    return out


@njit(cache=True, nogil=True)
def heap_height(feature, left):
    """Height of the tallest tree of the forest (0 for a single leaf)."""
    t = feature.shape[0]
    height = 0
    stack = np.empty((2 * feature.shape[1] + 2, 2), dtype=np.int64)
    for k in range(t):
        sp = 1
        stack[0, 0] = 0
        stack[0, 1] = 0
        while sp > 0:
            sp -= 1
            node = stack[sp, 0]
            depth = stack[sp, 1]
            if feature[k, node] < 0:
                height = max(height, depth)
                continue
            for child in range(2):
                stack[sp, 0] = left[k, node] + child
                stack[sp, 1] = depth + 1
                sp += 1
    return height


@njit(cache=True, nogil=True)
def to_heaps(feature, threshold, left, leaf, height, h_feature, h_threshold, h_leaf):
    """Lay every tree out as a complete binary heap of ``height`` levels.

    Node ``p``'s children are ``2p + 1`` (value <= threshold) and ``2p + 2``;
    a leaf above the last level becomes a chain of pass-through nodes
    (threshold +inf: every finite value goes left) ending at the heap leaf
    that holds its column, so every row takes exactly ``height`` branch-free
    steps. ``h_feature`` / ``h_threshold`` are (t, 2**height - 1) and
    ``h_leaf`` (t, 2**height).
    """
    t = feature.shape[0]
    first_leaf = (1 << height) - 1
    stack = np.empty((2 * feature.shape[1] + 2, 3), dtype=np.int64)
    for k in range(t):
        h_feature[k, :] = 0
        h_threshold[k, :] = np.inf
        h_leaf[k, :] = -1
        sp = 1
        stack[0, 0] = 0
        stack[0, 1] = 0
        stack[0, 2] = 0
        while sp > 0:
            sp -= 1
            node = stack[sp, 0]
            pos = stack[sp, 1]
            depth = stack[sp, 2]
            if feature[k, node] < 0:
                while depth < height:  # pass-through: always left
                    pos = 2 * pos + 1
                    depth += 1
                h_leaf[k, pos - first_leaf] = leaf[k, node]
                continue
            h_feature[k, pos] = feature[k, node]
            h_threshold[k, pos] = threshold[k, node]
            for child in range(2):
                stack[sp, 0] = left[k, node] + child
                stack[sp, 1] = 2 * pos + 1 + child
                stack[sp, 2] = depth + 1
                sp += 1


def route_heaps(X, h_feature, h_threshold, h_leaf, height, stride, block, out, workers=None):
    """Write ``k * stride + (leaf of tree k that X[i] falls in)`` into ``out[i, k]``, trees as heaps.

    Each task takes a block of rows through every tree (the block stays in
    L1 cache, the trees stream from L2); eight rows walk a tree in lockstep,
    so their independent loads overlap instead of waiting on one another.
    Blocks run in ``workers`` threads (see :mod:`._threads`).
    """
    n, t = X.shape[0], h_feature.shape[0]
    if workers is None:
        workers = workers_for(n * t * max(int(height), 1) * 2)
    run_tasks(route_heap_blocks, -(-n // block), X, h_feature, h_threshold, h_leaf, int(height), stride, block,
              out, workers=workers)
    return out


@njit(cache=True, nogil=True)
def route_heap_blocks(X, h_feature, h_threshold, h_leaf, height, stride, block, out, task0, task1):
    """Row blocks ``task0 .. task1`` of :func:`route_heaps`."""
    n = X.shape[0]
    t = h_feature.shape[0]
    first_leaf = (1 << height) - 1
    for b in range(task0, task1):
        start = b * block
        stop = min(n, start + block)
        nodes = np.zeros(8, dtype=np.int64)
        for k in range(t):
            f = h_feature[k]
            th = h_threshold[k]
            lv = h_leaf[k]
            offset = k * stride
            for i0 in range(start, stop, 8):
                m = min(8, stop - i0)
                for r in range(8):
                    nodes[r] = 0
                for _ in range(height):
                    for r in range(m):
                        node = nodes[r]
                        nodes[r] = 2 * node + 1 + (X[i0 + r, f[node]] > th[node])
                for r in range(m):
                    out[i0 + r, k] = offset + lv[nodes[r] - first_leaf]
    return out
