"""One-pass online learning on a stream: OGD with the hinge loss on an explicit feature map.

The four learners of the online lab (Lu et al. 2016; Wang et al. 2017; Ting et al. 2018):

* **FOGD**: random Fourier features of the Gaussian kernel + OGD (Alg. 1, 3);
* **NOGD**: kernel OGD until ``budget`` support vectors, then the rank-k Nyström map of
  those support vectors + OGD, the linear weights initialised from the kernel
  model (Alg. 2, 4);
* **IK + OGD**: the Isolation Kernel feature map (scaled by 1/sqrt(t), so z . z' is the
  kernel value) + OGD;
* **RandLocal + OGD**: RandLocal features, each row scaled to unit length + OGD.

Every example is predicted before its label is used (progressive validation), so the
running mistake rate is an honest estimate of accuracy on unseen data. The data-dependent
maps (IK, RandLocal) draw their samples and anchors from the first ``prefix`` examples
of the stream, using their features only, never their labels.
"""

from __future__ import annotations

import math
import numbers
import time
from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp
from sklearn.preprocessing import normalize

from .._validation import check_matrix
from ..features import LowRankNystroem, RandLocal, RandomFourierFeatures
from ..kernels import IsolationKernel
from ._ogd import kernel_ogd_budget, ogd_dense, ogd_sparse

METHODS = ("FOGD", "NOGD", "IK+OGD", "RandLocal+OGD")
_CHUNK = 4096  # examples mapped at once: bounds the feature block in memory


@dataclass(frozen=True)
class StreamResult:
    """What one learner did on one pass over a stream."""

    method: str
    mistakes: np.ndarray  # bool (n,), in stream order
    seconds: float  # map fitting + mapping + learning
    n_features: int

    @property
    def mistake_rate(self) -> float:
        """Mistakes over the whole stream divided by its length."""
        return float(self.mistakes.mean())

    def curve(self, n_points: int = 200) -> tuple[np.ndarray, np.ndarray]:
        """Running mistake rate at ``n_points`` positions: (examples seen, mistakes / examples seen)."""
        n = self.mistakes.size
        at = np.unique(np.linspace(1, n, min(n_points, n)).astype(int))
        return at, np.cumsum(self.mistakes)[at - 1] / at


def encode_labels(y) -> tuple[np.ndarray, np.ndarray]:
    """Class indices 0..m-1 for ``y`` and the class values; raises unless there are >= 2 classes."""
    y = np.asarray(y)
    if y.ndim != 1:
        raise ValueError(f"y must be 1-D (one label per row); got shape {y.shape}.")
    classes, codes = np.unique(y, return_inverse=True)
    if classes.size < 2:
        raise ValueError("y needs at least two classes for classification.")
    return codes.astype(np.int64), classes


def _check_stream(X, y):
    X = check_matrix(X)
    codes, classes = encode_labels(y)
    if codes.size != X.shape[0]:
        raise ValueError(f"X has {X.shape[0]} rows but y has {codes.size} labels.")
    return X, codes, classes.size


def _positive(name, value):
    if isinstance(value, bool) or not (isinstance(value, numbers.Real) and math.isfinite(value) and value > 0):
        raise ValueError(f"{name} must be a positive number; got {value!r}.")
    return float(value)


def _count(name, value, minimum=1):
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value < minimum:
        raise ValueError(f"{name} must be an integer >= {minimum}; got {value!r}.")
    return int(value)


def ogd_pass(transform, X, codes, n_classes, eta, W=None, start=0, mistakes=None):
    """Run OGD over ``X[start:]`` chunk by chunk, mapping each chunk with ``transform``.

    ``transform`` returns a dense array or a CSR matrix; ``W`` (rows, D) is the starting
    model (zeros if None, then created after the first chunk is mapped). Returns
    (W, mistakes) with ``mistakes[start:]`` filled in.
    """
    eta = _positive("eta", eta)
    n = X.shape[0]
    mistakes = np.zeros(n, dtype=bool) if mistakes is None else mistakes
    rows = 1 if n_classes == 2 else n_classes
    for lo in range(start, n, _CHUNK):
        hi = min(n, lo + _CHUNK)
        Z = transform(X[lo:hi])
        if W is None:
            W = np.zeros((rows, Z.shape[1]))
        out = mistakes[lo:hi]
        if sp.issparse(Z):
            Z = sp.csr_matrix(Z)
            ogd_sparse(Z.data.astype(np.float64), Z.indices, Z.indptr, codes[lo:hi], W, eta, out)
        else:
            ogd_dense(np.ascontiguousarray(Z, dtype=np.float64), codes[lo:hi], W, eta, out)
    return W, mistakes


def fogd(X, y, n_components=400, gamma=1.0, eta=0.2, seed=0) -> StreamResult:
    """FOGD: OGD on ``n_components`` random Fourier features of exp(-gamma |x - y|^2)."""
    X, codes, m = _check_stream(X, y)
    t0 = time.perf_counter()
    rff = RandomFourierFeatures("gaussian", gamma, n_components, random_state=seed).fit(X[:1])
    _, mistakes = ogd_pass(rff.transform, X, codes, m, eta)
    return StreamResult("FOGD", mistakes, time.perf_counter() - t0, int(n_components))


def nogd(X, y, budget=100, rank=None, gamma=1.0, eta=0.2) -> StreamResult:
    """NOGD: kernel OGD (Gaussian) until ``budget`` support vectors, then rank-``rank`` Nyström + OGD.

    ``rank=None`` uses 0.2 * budget, the paper's setting (k = 0.2 B, §7.2.1). NOGD is
    deterministic given the stream order.
    """
    X, codes, m = _check_stream(X, y)
    budget = _count("budget", budget)
    rank = max(1, int(round(0.2 * budget))) if rank is None else _count("rank", rank)
    if rank > budget:
        raise ValueError(f"rank ({rank}) cannot exceed the budget ({budget}).")
    gamma, eta = _positive("gamma", gamma), _positive("eta", eta)
    t0 = time.perf_counter()
    rows = 1 if m == 2 else m
    support = np.zeros(budget, dtype=np.int64)
    alpha = np.zeros((budget, rows))
    mistakes = np.zeros(X.shape[0], dtype=bool)
    used, n_sv = kernel_ogd_budget(X, codes, gamma, eta, budget, rows, support, alpha, mistakes)
    n_features = n_sv
    if used < X.shape[0] and n_sv > 0:
        # budget = n_sv: the basis is exactly the support vectors (fit only reorders them)
        ny = LowRankNystroem("gaussian", gamma, budget=n_sv, rank=min(rank, n_sv), random_state=0)
        ny.fit(X[support[:n_sv]])
        order = ny.basis_indices_  # keep alpha aligned with the basis order
        W = np.ascontiguousarray(ny.weights_from_dual(alpha[:n_sv][order]).T)
        ogd_pass(ny.transform, X, codes, m, eta, W=W, start=used, mistakes=mistakes)
        n_features = ny.components_.shape[1]
    return StreamResult("NOGD", mistakes, time.perf_counter() - t0, int(n_features))


def _prefix(X, prefix):
    prefix = _count("prefix", prefix, 2)
    return X[:min(prefix, X.shape[0])]


def ik_ogd(X, y, psi=64, t=100, method="anne", eta=0.2, prefix=1000, seed=0) -> StreamResult:
    """IK + OGD: OGD on the Isolation Kernel feature map built from the first ``prefix`` examples."""
    X, codes, m = _check_stream(X, y)
    t0 = time.perf_counter()
    ik = IsolationKernel(psi=psi, t=t, method=method, random_state=seed).fit(_prefix(X, prefix))
    scale = 1.0 / math.sqrt(ik.t)  # Phi . Phi' / t is the kernel value: unit-norm rows

    def transform(chunk):
        return ik.transform(chunk) * scale

    _, mistakes = ogd_pass(transform, X, codes, m, eta)
    return StreamResult("IK+OGD", mistakes, time.perf_counter() - t0, int(ik.t * ik.psi_))


def randlocal_ogd(X, y, n_sets=100, max_anchors=1024, epsilon=1e-4, eta=0.2, prefix=1000, seed=0
                  ) -> StreamResult:
    """RandLocal + OGD: OGD on RandLocal features (supervised subspaces) built from the first ``prefix`` examples.

    Rows are scaled to unit length: raw RandLocal values are distances, so the step size
    would otherwise depend on the data's units.
    """
    X, codes, m = _check_stream(X, y)
    t0 = time.perf_counter()
    rl = RandLocal(n_sets=n_sets, epsilon=epsilon, max_anchors=max_anchors, min_anchors=min(32, max_anchors),
                   subspace="supervised", random_state=seed).fit(_prefix(X, prefix))

    def transform(chunk):
        return normalize(rl.transform(chunk))

    _, mistakes = ogd_pass(transform, X, codes, m, eta)
    return StreamResult("RandLocal+OGD", mistakes, time.perf_counter() - t0, int(rl.n_anchors_.sum()))
