"""t-SNE with Gaussian vs Isolation Kernel affinities on the w-Gaussians (Ting et al. 2021, Tables 5-6).

The w-Gaussians are two w-dimensional Gaussian clusters in 2w dimensions that
share only the origin. Ting et al. report that t-SNE with the Gaussian kernel
(GK) keeps them apart for w = 2 but merges them for w = 5,000, while t-SNE with
the Isolation Kernel (IK) separates them at every w; and that with unequal
variances (Table 6) GK attaches the origin to one cluster only.

Both embeddings here run the same openTSNE optimisation from the same (PCA)
start; only the affinities differ: openTSNE's perplexity-calibrated Gaussian
affinities or :class:`ikviz.embedding.IsolationKernelAffinities`. The origin is
embedded as one extra point, so where it lands can be seen. Separation scores
(5-NN accuracy and silhouette of the true cluster in 2-D, trustworthiness)
turn the pictures into numbers.

:func:`run` (both kernels on one dataset) and :func:`run_search` (the paper's
search range of perplexity and psi) follow :mod:`ikviz.runner`'s convention.
Their building blocks go through ``memo``: :func:`load_data` (the points and
the shared start), :func:`affinity_matrix` (one kernel's joint probabilities)
and :func:`embed` (one kernel's embedding with its saved frames and scores),
so a change of psi recomputes the IK side only.
"""

from __future__ import annotations

import os
import threading
import time
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass, field, replace

import numpy as np
from threadpoolctl import threadpool_limits

from .._limits import MAX_IK_CENTRES_BYTES, check_ik_centres, ik_centres_bytes
from ..data import Data as Description
from ..data import canonical_name, dataset_info, step
from ..data import dataset_names as bundled_names
from ..embedding import IsolationKernelAffinities, separation_scores
from ..data import dataset_label as bundled_label
from ..params import setting
from ..registry import label
from ..runner import Memo, Progress, no_progress, resolve, within

#: synthetic dataset key -> (label, sigma of the second cluster)
SYNTHETIC: dict[str, tuple[str, float]] = {
    "w-gaussians": ("w-Gaussians, equal variance (Table 5)", 1.0),
    "w-gaussians-unequal": ("w-Gaussians, red N(0, 1) and blue N(0, 3²) (Table 6)", 3.0),
}
KERNELS: dict[str, str] = {"gk": label("gk"), "ik": label("ik")}
#: the columns of Tables 5-6: t-SNE(GK), t-SNE(IK) and FIt-SNE, which is GK's affinities optimised with the
#: FFT-interpolated gradient of Linderman et al. 2019 (openTSNE's ``negative_gradient_method="fft"``).
#: q-SNE (Häkkinen et al. 2020) is a separate C++ program not packaged for Python: not a column here.
COLUMNS: dict[str, str] = {**KERNELS, "fitsne": "FIt-SNE (GK, FFT gradient)"}
#: each column's affinities and gradient: (kernel of :func:`affinities`, openTSNE's negative_gradient_method)
_COLUMN_SPEC: dict[str, tuple[str, str | None]] = {"gk": ("gk", None), "ik": ("ik", None), "fitsne": ("gk", "fft")}
#: the w values of the paper's Tables 5 and 6
PAPER_W = (1, 2, 100, 5000)
#: Appendix B: the range searched for both perplexity (GK) and psi (IK)
PAPER_SEARCH = (5, 20, 40, 60, 80, 100, 250, 500, 800)
ORIGIN_LABEL = -1
PARALLEL_FROM = 5000


def stage_shares(kernel: str, dim: int, sharing: int = 1) -> tuple[float, float]:
    """Shares of one embedding's progress bar for its affinities and for its scores (the optimisation, between
    them, reports the rest), for ``kernel``'s affinities of data in ``dim`` dimensions, ``sharing`` embeddings
    at once.

    Rough costs relative to the optimisation's, measured on 1,001 points and 750 iterations (2 cores,
    2026-11-27): IK's affinities 0.02 of it at d = 4, 0.23 at 200, 0.62 at 2,000 and 0.92 at 10,000; GK's
    about 0.05 at any d; the scores (trustworthiness reads the data's distances) 0.02-0.05 up to d = 2,000
    and 0.21 at 10,000. IK's affinities run on every core (the optimisation on one below
    :data:`PARALLEL_FROM` points): beside ``sharing - 1`` other embeddings they get a share of the cores
    and take ``sharing`` times as long (at w = 5,000 beside GK: 4.5 s of a 7.4 s view). The store's
    estimate of the time left reads the rate of the bar: a fixed share (0.3 for the affinities) left 3-5 s
    of IK's affinities with 0.15 of the view's bar, and the scores ran after the bar's end.

    Examples
    --------
    >>> from ikviz.experiments.tsne import stage_shares
    >>> [round(x, 2) for x in stage_shares("ik", 10000)], [round(x, 2) for x in stage_shares("gk", 4)]
    ([0.43, 0.1], [0.05, 0.02])
    """
    affinities = 0.23 * (max(dim, 1) / 200) ** 0.35 * max(1, sharing) if kernel == "ik" else 0.05
    scores = 0.02 + 0.2 * dim / 10000
    total = 1.0 + affinities + scores
    return affinities / total, scores / total


def data_share(dataset: str, w: int) -> float:
    """Share of a view's progress bar for making or reading its data, before the two embeddings.

    Measured (2 cores, 2026-11-27, ``run`` with a progress callback): the w-Gaussians at w = 5,000 (the default,
    1,000 points in 10,000 dimensions) took 0.7-1.2 s of a 5.9-7.6 s view (0.12-0.16), at w = 100 0.01 s of 1.6 s,
    bundled digits 0.04 s of 5.8 s. A fixed 0.1 read the default's first second as a tenth of the view and
    estimated 2.1-2.2 times the time actually left (``benchmarks/store_eta.py``).

    Examples
    --------
    >>> from ikviz.experiments.tsne import data_share
    >>> data_share("w-gaussians", 5000), data_share("w-gaussians", 100), data_share("digits", 5000)
    (0.15, 0.01, 0.01)
    """
    if canonical_name(dataset) not in SYNTHETIC:
        return 0.01
    return round(max(0.01, 0.15 * min(1.0, w / 5000)), 3)


def w_label(w: int) -> str:
    """How a w is offered: with thousands separators, and a ★ for the paper's values.

    Examples
    --------
    >>> from ikviz.experiments.tsne import w_label
    >>> w_label(5000), w_label(20)
    ('5,000 ★', '20')
    """
    return f"{w:,} ★" if w in PAPER_W else f"{w:,}"


def dataset_label(dataset: str) -> str:
    """How a dataset is offered: a synthetic one by its table's name, a real one as every page shows them
    (:func:`ikviz.data.dataset_label`).

    Examples
    --------
    >>> from ikviz.experiments.tsne import dataset_label
    >>> dataset_label("w-gaussians"), dataset_label("iris")
    ('w-Gaussians, equal variance (Table 5)', 'iris — Iris (scikit-learn), 150×4')
    """
    return SYNTHETIC[dataset][0] if dataset in SYNTHETIC else bundled_label(dataset)


#: the choices of perplexity and psi: the paper's search range, and openTSNE's default 30
_SEARCH_CHOICES = tuple(sorted({*PAPER_SEARCH, 10, 30}))


@dataclass(frozen=True)
class Params:
    """Parameters of the t-SNE comparison; every field has a sensible default.

    On real data ``w`` and ``n_per_cluster`` do not apply: they are set to
    their defaults, so that every link to the same real data shares one result.
    """

    dataset: str = setting("w-gaussians", "dataset", choices=tuple(SYNTHETIC) + tuple(bundled_names()), url="data",
                           format=dataset_label, help="The synthetic w-Gaussians of Tables 5 and 6, or a "
                                                      "bundled real dataset (features scaled to [0, 1]).")
    w: int = setting(5000, "w (dimensions per cluster)", choices=(1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000),
                     format=w_label, help="★ marks the paper's values: 1, 2, 100 and 5,000. The data have 2w "
                                          "dimensions.")
    n_per_cluster: int = setting(500, "points per cluster", choices=(100, 250, 500, 1000, 2000), url="n")
    perplexity: float = setting(30.0, "GK perplexity", choices=tuple(float(v) for v in _SEARCH_CHOICES),
                                format=lambda v: f"{v:g}",
                                help="Effective number of neighbours of each point. The paper searched "
                                     "5, 20, 40, 60, 80, 100, 250, 500, 800 (30 is openTSNE's default).")
    psi: int = setting(100, "IK ψ", choices=_SEARCH_CHOICES,
                       help="Points per partitioning: larger ψ, sharper kernel, fewer neighbours. "
                            "The paper searched the same range as for perplexity.")
    t: int = setting(200, "IK t (partitionings)", choices=(50, 100, 200, 500), help="The paper uses t = 200.")
    method: str = setting("anne", "IK partitioning", choices=("anne", "iforest"), widget="radio",
                          format=lambda method: label(f"ik_{method}"))
    seed: int = setting(0, "seed", low=0, high=10_000)
    exaggeration_iter: int = 250   # openTSNE's defaults: early exaggeration 12, then plain t-SNE
    n_iter: int = 500
    frame_every: int = 25          # keep the embedding every this many iterations (for replay)

    def __post_init__(self):
        if self.dataset not in SYNTHETIC:
            object.__setattr__(self, "w", 2)
            object.__setattr__(self, "n_per_cluster", 500)

    @staticmethod
    def hidden(values: dict) -> set[str]:
        """The settings that do not apply given the values chosen so far (see :func:`ikviz.params.hidden`)."""
        return set() if values.get("dataset", "w-gaussians") in SYNTHETIC else {"w", "n_per_cluster"}


@dataclass(frozen=True)
class Data:
    """Points to embed: ``labels`` are the true clusters, ``ORIGIN_LABEL`` marks the origin."""

    name: str
    X: np.ndarray
    labels: np.ndarray
    classes: tuple[str, ...]       # display name of label 0, 1, ...
    origin: int | None             # row of the origin point, if the data have one
    start: np.ndarray | None = None  # openTSNE's PCA start, shared by both kernels' embeddings


@dataclass
class Embedding:
    """One kernel's t-SNE: final coordinates, the frames saved on the way (for the replay), and its scores."""

    kernel: str
    coords: np.ndarray             # (n, 2)
    frames: np.ndarray             # (n_frames, n, 2) float32, the first is the start
    iterations: np.ndarray         # (n_frames,) iteration of each frame (0 = start)
    scores: dict                   # see :func:`scores`
    seconds: dict                  # "affinities" and "optimisation"
    info: dict = field(default_factory=dict)


@dataclass
class Result:
    """Both embeddings of one dataset."""

    params: Params
    labels: np.ndarray
    classes: tuple[str, ...]
    origin: int | None
    embeddings: dict[str, Embedding]


def real_datasets() -> tuple[str, ...]:
    """Names of the bundled real datasets that can be embedded."""
    return tuple(bundled_names())


def dataset_names() -> tuple[str, ...]:
    """Every dataset the experiment accepts: the synthetic ones, then the real ones."""
    return tuple(SYNTHETIC) + real_datasets()


def load_data(dataset: str, w: int = 2, n_per_cluster: int = 500, seed: int = 0) -> Data:
    """The points to embed, with the PCA start both embeddings share.

    The rows :func:`describe` names. Synthetic: the w-Gaussians plus the origin as one
    extra point (label ``ORIGIN_LABEL``). Real: the dataset with each feature scaled to [0, 1]
    (as Ting et al. do before clustering), so no feature dominates the distances.
    The start is openTSNE's own ``initialization="pca"``, computed once here
    rather than once per kernel (it costs as much as a kernel's affinities at
    d = 10,000).

    Examples
    --------
    >>> from ikviz.experiments.tsne import load_data
    >>> d = load_data("w-gaussians", w=3, n_per_cluster=20, seed=0)
    >>> d.X.shape, int(d.labels[d.origin]), d.start.shape
    ((41, 6), -1, (41, 2))
    """
    from openTSNE.initialization import pca

    dataset = canonical_name(dataset)
    got = describe(dataset, w, n_per_cluster, seed).resolve()
    if got.origin is not None:
        classes = ("red cluster", "blue cluster")
    else:
        classes = tuple(str(v) for v in np.unique(got.y))
    return Data(dataset, got.X, got.y, classes, got.origin, start=pca(got.X, 2, random_state=seed))


def describe(dataset: str, w: int = 2, n_per_cluster: int = 500, seed: int = 0) -> Description:
    """The :class:`ikviz.data.Data` :func:`load_data` embeds: w-Gaussians and the origin, or real data in [0, 1].

    Examples
    --------
    >>> from ikviz.experiments.tsne import describe
    >>> [s.name for s in describe("w-gaussians-unequal").steps], dict(describe("w-gaussians-unequal").options)
    (['origin'], {'n_per_cluster': 500, 'sigma_b': 3.0, 'w': 2})
    """
    dataset = canonical_name(dataset)
    if dataset in SYNTHETIC:
        return Description("w-gaussians", seed=seed, options={"n_per_cluster": n_per_cluster, "w": w,
                                                              "sigma_b": SYNTHETIC[dataset][1]},
                           steps=(step("origin", label=ORIGIN_LABEL),))
    if dataset in real_datasets():
        return Description(dataset, seed=seed, steps=("minmax",))
    raise ValueError(f"unknown dataset {dataset!r}; choose one of: {', '.join(dataset_names())}.")


def n_jobs(n: int, sharing: int = 1) -> int:
    """openTSNE threads for ``n`` points when ``sharing`` embeddings run at once.

    One thread below ``PARALLEL_FROM`` points; above, the cores split between
    the embeddings. openTSNE's threads wait for each other every iteration, so
    they slow down badly (2-3x measured) when another job holds one of the
    cores: never ask for more threads than there are cores to spare.
    """
    if n < PARALLEL_FROM:
        return 1
    return max(1, (os.cpu_count() or 1) // sharing)


def data_spec(dataset: str, w: int, n_per_cluster: int, seed: int) -> tuple:
    """The arguments of :func:`load_data` that matter, in one spelling per dataset.

    Real data ignore ``w`` and ``n_per_cluster``; old names with underscores
    (``w_gaussians``) mean the hyphenated ones.

    Examples
    --------
    >>> from ikviz.experiments.tsne import data_spec
    >>> data_spec("w_gaussians", 3, 40, 1), data_spec("iris", 3, 40, 1)
    (('w-gaussians', 3, 40, 1), ('iris', 2, 500, 1))
    """
    dataset = canonical_name(dataset)
    if dataset not in SYNTHETIC:
        w, n_per_cluster = 2, 500
    return dataset, int(w), int(n_per_cluster), int(seed)


def affinities(kernel: str, X: np.ndarray, *, perplexity: float = 30.0, psi: int = 100, t: int = 200,
               method: str = "anne", seed: int = 0, threads: int | None = None, progress: Progress | None = None,
               max_centres_bytes: int = MAX_IK_CENTRES_BYTES):
    """openTSNE affinities of ``kernel`` ("gk" or "ik") for ``X``, and a dict describing them.

    Settings too large for ``n`` points are capped, and the dict reports the
    values used: perplexity at (n - 1) / 3 (openTSNE keeps 3 x perplexity
    neighbours), psi at n / 2. ``progress(fraction, text)`` hears IK's
    stages (seconds each in high dimensions; GK's take a fraction of a second).
    IK's centres over ``max_centres_bytes`` are refused before the fit
    (:func:`ikviz._limits.check_ik_centres`; the default is a server's bound).

    Examples
    --------
    >>> import numpy as np
    >>> from ikviz.experiments.tsne import affinities
    >>> X = np.random.default_rng(0).normal(size=(40, 3))
    >>> aff, info = affinities("gk", X, perplexity=30)
    >>> aff.P.shape, info["perplexity"]
    ((40, 40), 13.0)
    """
    from openTSNE.affinity import PerplexityBasedNN

    n = X.shape[0]
    if kernel == "gk":
        if not perplexity > 0:
            raise ValueError(f"perplexity must be positive; got {perplexity}.")
        # exact neighbours while affordable, so approximate search cannot blur the comparison
        aff = PerplexityBasedNN(X, perplexity=min(perplexity, (n - 1) / 3), method="exact" if n <= 20_000 else "auto",
                                n_jobs=threads or n_jobs(n), random_state=seed)
        return aff, {"perplexity": float(aff.effective_perplexity_), "neighbours": int(aff.knn_index.k)}
    if kernel == "ik":
        # with psi near n most cells hold one point and most similarities are 0: cap at n / 2
        check_ik_centres(min(psi, n // 2), t, X.shape[1], n, limit=max_centres_bytes)  # issue 31: before the fit
        aff = IsolationKernelAffinities(X, psi=min(psi, n // 2), t=t, method=method, random_state=seed,
                                        progress=progress)
        return aff, {"psi": int(aff.kernel_.psi_), "t": t, "neighbours": aff.k_neighbours_,
                     "isolated": aff.n_isolated_}
    raise ValueError(f"unknown kernel {kernel!r}; choose one of {list(KERNELS)}.")


def kernel_setting(kernel: str, *, perplexity: float = 30.0, psi: int = 100, t: int = 200,
                   method: str = "anne") -> dict:
    """The settings ``kernel``'s affinities depend on, with one type each (one cache key per setting).

    Examples
    --------
    >>> from ikviz.experiments.tsne import kernel_setting
    >>> kernel_setting("gk", perplexity=30, psi=5), kernel_setting("ik", psi=5.0)
    ({'perplexity': 30.0}, {'psi': 5, 't': 200, 'method': 'anne'})
    """
    if kernel in ("gk", "fitsne"):
        return {"perplexity": float(perplexity)}
    if kernel == "ik":
        return {"psi": int(psi), "t": int(t), "method": str(method)}
    raise ValueError(f"unknown kernel {kernel!r}; choose one of {list(COLUMNS)}.")


def affinity_matrix(kernel: str, spec: tuple, *, perplexity: float = 30.0, psi: int = 100, t: int = 200,
                    method: str = "anne", threads: int = 1, memo: Memo | None = None, progress: Progress | None = None,
                    max_centres_bytes: int = MAX_IK_CENTRES_BYTES):
    """``kernel``'s joint probabilities P for the data ``spec`` names (see :func:`data_spec`): a building block.

    Returns ``(P, info, seconds)``: the sparse symmetric matrix the
    optimisation reads, the settings used (see :func:`affinities`) and the
    seconds it took. Only P is kept, not openTSNE's neighbour index (which
    holds the data), so that a memoised result stays small.

    Examples
    --------
    >>> from ikviz.experiments.tsne import affinity_matrix
    >>> P, info, seconds = affinity_matrix("ik", ("w-gaussians", 2, 30, 0), psi=10, t=50)
    >>> P.shape, round(float(P.sum()), 6), info["psi"]
    ((61, 61), 1.0, 10)
    """
    memo, _ = resolve(memo, None)
    data = memo(load_data)(*spec)
    start = time.perf_counter()
    aff, info = affinities(kernel, data.X, perplexity=perplexity, psi=psi, t=t, method=method, seed=spec[-1],
                           threads=threads, progress=progress, max_centres_bytes=max_centres_bytes)
    return aff.P.tocsr(), info, time.perf_counter() - start


class _Recorder:
    """openTSNE callback that keeps a frame every time it is called and reports it as progress."""

    def __init__(self, offset, total, frames, progress):
        self.offset, self.total, self.frames, self.progress = offset, total, frames, progress

    def __call__(self, iteration, error, embedding):
        it = self.offset + iteration
        self.frames.append((it, np.array(embedding, dtype=np.float32)))
        self.progress(it / self.total, f"iteration {it} of {self.total}")
        return False  # never stop early


def optimise(P, start: np.ndarray, *, exaggeration_iter: int = 250, n_iter: int = 500, frame_every: int = 25,
             seed: int = 0, threads: int = 1, progress: Progress | None = None, gradient: str | None = None):
    """Run openTSNE's standard two-phase optimisation of joint probabilities ``P`` from ``start``.

    Same schedule as ``openTSNE.TSNE().fit``: ``exaggeration_iter``
    iterations with early exaggeration 12, then ``n_iter`` plain ones. Every
    ``frame_every`` iterations a frame (iteration, coords) is kept and
    ``progress(fraction, "iteration i of n")`` called. ``gradient`` is openTSNE's
    ``negative_gradient_method`` (None: its default, Barnes-Hut below 10,000
    points; ``"fft"``: FIt-SNE's interpolation). Returns ``(coords, frames)``;
    the first frame is the start, the last the result.
    """
    from openTSNE import TSNE
    from openTSNE.affinity import Affinities

    progress = progress or no_progress
    if frame_every < 1:
        raise ValueError(f"frame_every must be at least 1; got {frame_every}.")
    if exaggeration_iter < 0 or n_iter < 1:
        raise ValueError("exaggeration_iter must be >= 0 and n_iter >= 1.")
    aff = Affinities()
    # openTSNE's early exaggeration multiplies P in place (``P *= 12``, then ``P /= 12``): on a shared P the
    # next run starts from rounded values, and a run side by side (GK and FIt-SNE share GK's memoised P)
    # reads P x 12 mid-run, so the same seed gave other embeddings. Each run gets its own copy.
    aff.P = P.copy()
    tsne = TSNE(n_jobs=threads, random_state=seed,
                **({} if gradient is None else {"negative_gradient_method": gradient}))
    emb = tsne.prepare_initial(affinities=aff, initialization=start)  # a copy: ``start`` stays as it is
    total = exaggeration_iter + n_iter
    frames = [(0, np.array(emb, dtype=np.float32))]
    phases = ((exaggeration_iter, tsne.early_exaggeration, tsne.initial_momentum),
              (n_iter, None, tsne.final_momentum))
    offset = 0
    for iters, exaggeration, momentum in phases:
        if iters == 0:
            continue
        emb.optimize(n_iter=iters, exaggeration=exaggeration, momentum=momentum, inplace=True,
                     callbacks=_Recorder(offset, total, frames, progress), callbacks_every_iters=frame_every)
        offset += iters
    # openTSNE calls back before an iteration's update, so the last frame can be one step early
    final = (total, np.array(emb, dtype=np.float32))
    if frames[-1][0] == total:
        frames[-1] = final
    else:
        frames.append(final)
    return np.asarray(emb, dtype=float), frames


#: how many 2-D neighbours of the origin are counted per cluster
ORIGIN_NEIGHBOURS = 10


def scores(data: Data, coords: np.ndarray, k: int = 5) -> dict:
    """Separation scores of an embedding of ``data`` against the true clusters (the origin left out).

    ``knn_accuracy``, ``silhouette`` and ``trustworthiness`` as in
    :func:`ikviz.embedding.separation_scores`. With an origin point,
    ``origin_neighbours`` counts its ``ORIGIN_NEIGHBOURS`` nearest 2-D
    neighbours per cluster: Table 6's question of whether the origin, shared by
    both clusters, is drawn next to both or to one only.
    """
    keep = data.labels != ORIGIN_LABEL
    out = separation_scores(coords[keep], data.labels[keep], data.X[keep], k=k)
    if data.origin is not None:
        dist = np.linalg.norm(coords[keep] - coords[data.origin], axis=1)
        nearest = data.labels[keep][np.argsort(dist, kind="stable")[:ORIGIN_NEIGHBOURS]]
        out["origin_neighbours"] = np.bincount(nearest, minlength=len(data.classes)).tolist()
    return out


def embed(kernel: str, *, dataset: str = "w-gaussians", w: int = 2, n_per_cluster: int = 500,
          seed: int = 0, perplexity: float = 30.0, psi: int = 100, t: int = 200, method: str = "anne",
          exaggeration_iter: int = 250, n_iter: int = 500, frame_every: int = 25, sharing: int = 1,
          max_centres_bytes: int | None = None, memo: Memo | None = None,
          progress: Progress | None = None) -> Embedding:
    """t-SNE of one dataset with one kernel's affinities (``perplexity`` for GK; ``psi, t, method`` for IK).

    ``kernel`` is a column of :data:`COLUMNS`: ``"fitsne"`` is GK's affinities
    (the same memoised matrix) optimised with FIt-SNE's FFT gradient.

    A building block of :func:`run`: ``memo`` shares the data with the other
    kernel's embedding and keeps the affinities (:func:`affinity_matrix`);
    ``progress(fraction, text)`` reports "affinities…", then the
    optimisation's iterations, then "scores…"; ``sharing`` embeddings run at once (see :func:`n_jobs`).
    ``max_centres_bytes`` raises the bound of IK's centres (None: a server's, see :func:`affinities`).

    Examples
    --------
    >>> from ikviz.experiments.tsne import embed
    >>> e = embed("ik", w=2, n_per_cluster=30, psi=10, t=50, exaggeration_iter=20, n_iter=30)
    >>> e.coords.shape, e.iterations[[0, -1]].tolist()
    ((61, 2), [0, 50])
    """
    memo, progress = resolve(memo, progress)
    setting = kernel_setting(kernel, perplexity=perplexity, psi=psi, t=t, method=method)
    spec = data_spec(dataset, w, n_per_cluster, seed)
    data = memo(load_data)(*spec)
    threads = n_jobs(len(data.labels), sharing)
    progress(0.0, "affinities…")
    affinity_kernel, gradient = _COLUMN_SPEC[kernel]
    affinity_share, scores_share = stage_shares(affinity_kernel, data.X.shape[1], sharing)
    bound = {} if max_centres_bytes is None else {"max_centres_bytes": int(max_centres_bytes)}
    P, info, affinity_seconds = memo(affinity_matrix)(affinity_kernel, spec, threads=threads, **setting, **bound,
                                                      progress=within(progress, 0.0, affinity_share, "affinities"))
    start = time.perf_counter()
    coords, frames = optimise(P, data.start, exaggeration_iter=exaggeration_iter, n_iter=n_iter,
                              frame_every=frame_every, seed=seed, threads=threads,
                              progress=within(progress, affinity_share, 1.0 - scores_share), gradient=gradient)
    progress(1.0 - scores_share, "scores…")
    return Embedding(
        kernel, coords,
        frames=np.stack([f[1] for f in frames]),
        iterations=np.array([f[0] for f in frames]),
        scores=scores(data, coords),
        seconds={"affinities": affinity_seconds, "optimisation": time.perf_counter() - start},
        info=info,
    )


def kernel_params(p: Params, kernel: str) -> dict:
    """The keyword arguments of :func:`embed` for ``kernel`` under ``p``: only those it depends on, one spelling each.

    Examples
    --------
    >>> from ikviz.experiments.tsne import Params, kernel_params
    >>> kernel_params(Params(dataset="iris", w=7), "gk")
    {'dataset': 'iris', 'seed': 0, 'exaggeration_iter': 250, 'n_iter': 500, 'frame_every': 25, 'perplexity': 30.0}
    """
    dataset, w, n_per_cluster, seed = data_spec(p.dataset, p.w, p.n_per_cluster, p.seed)
    common = dict(dataset=dataset, seed=seed, exaggeration_iter=int(p.exaggeration_iter), n_iter=int(p.n_iter),
                  frame_every=int(p.frame_every))
    if dataset in SYNTHETIC:
        common.update(w=w, n_per_cluster=n_per_cluster)
    return {**common, **kernel_setting(kernel, perplexity=p.perplexity, psi=p.psi, t=p.t, method=p.method)}


def embed_pair(jobs: dict[str, dict], memo: Memo, progress: Progress) -> dict[str, Embedding]:
    """``embed(kernel, **settings)`` for each ``kernel: settings`` of ``jobs``, all at once, each in a thread.

    openTSNE's Barnes-Hut step and the IK kernels release the GIL, so the two
    kernels of a view take the time of the slower one instead of the sum on
    two cores. ``progress`` gets the fraction of the kernel furthest behind
    (the view is done when it is; the mean jumped when the faster one ended,
    and the store's estimate of the time left, which reads the bar's rate,
    fell to a third) and every kernel's stage ("GK: iteration 300 of 750 ·
    IK: affinities: cells"); a kernel found in ``memo`` counts as done.
    """
    stages = {k: [0.0, "waiting…"] for k in jobs}
    lock = threading.Lock()

    def reporter(kernel):
        def report(fraction, text=""):
            with lock:
                stages[kernel] = [float(fraction), text]
                progress(min(f for f, _ in stages.values()),
                         " · ".join(f"{k.upper()}: {t}" for k, (_, t) in stages.items()))
        return report

    # One BLAS thread while the kernels run side by side: OpenBLAS splits a product differently when
    # another thread holds a core, and t-SNE amplifies the last-bit differences (the same seed gave a
    # 5-NN accuracy of 0.575 or 0.75 for GK at w = 5,000). Each kernel already has one core.
    with threadpool_limits(limits=1, user_api="blas"), \
            ThreadPoolExecutor(max_workers=len(jobs), thread_name_prefix="tsne") as pool:
        futures = {k: pool.submit(memo(embed), k, sharing=len(jobs), progress=reporter(k), **settings)
                   for k, settings in jobs.items()}
        kernel_of = {future: k for k, future in futures.items()}
        for future in as_completed(kernel_of):
            reporter(kernel_of[future])(1.0, "done")
        return {k: f.result() for k, f in futures.items()}


def run(p: Params = Params(), *, memo: Memo | None = None, progress: Progress | None = None) -> Result:
    """Embed ``p.dataset`` with Gaussian and with Isolation Kernel affinities (both at once).

    ``memo`` keeps the data, each kernel's affinities and each kernel's
    embedding; ``progress`` reports both kernels' stages ("GK: iteration 300
    of 750 · IK: affinities…"). Each embedding keeps a frame every
    ``p.frame_every`` iterations, for the replay.

    Examples
    --------
    >>> from ikviz.experiments.tsne import Params, run
    >>> r = run(Params(w=2, n_per_cluster=30, psi=10, t=50, exaggeration_iter=20, n_iter=30))
    >>> sorted(r.embeddings), r.labels.shape
    (['gk', 'ik'], (61,))
    """
    memo, progress = resolve(memo, progress)
    progress(0.0, "data…")
    data = memo(load_data)(*data_spec(p.dataset, p.w, p.n_per_cluster, p.seed))
    embeddings = embed_pair({k: kernel_params(p, k) for k in KERNELS}, memo,
                            within(progress, data_share(p.dataset, p.w), 1.0))
    progress(1.0, "done")
    return Result(p, data.labels, data.classes, data.origin, {k: embeddings[k] for k in KERNELS})


def run_search(p: Params, values=PAPER_SEARCH, *, memo: Memo | None = None,
               progress: Progress | None = None, columns=tuple(KERNELS),
               max_centres_bytes: int = MAX_IK_CENTRES_BYTES) -> dict[str, dict[int, dict]]:
    """Scores over the paper's search range: perplexity (GK, FIt-SNE) and psi (IK) each set to every value.

    Returns ``scores[kernel][value]`` (see :func:`scores`); the other settings
    are those of ``p``. Both kernels of one value are embedded at once, and
    each embedding goes through ``memo`` (the view of ``p`` itself is reused).
    A ψ whose IK centres on the data would take more than
    ``max_centres_bytes`` (a server's bound by default: ψ = 500 and 800 at
    w = 5,000 and 500 points per cluster) has no IK score, and the page says
    so; :func:`run_paper_tables` raises the bound for the paper's whole list.

    Examples
    --------
    >>> from ikviz.experiments.tsne import Params, run_search
    >>> out = run_search(Params(w=2, n_per_cluster=30, t=50, exaggeration_iter=20, n_iter=30), values=(5, 10))
    >>> sorted(out), sorted(out["ik"]), sorted(out["gk"][10])
    (['gk', 'ik'], [5, 10], ['knn_accuracy', 'origin_neighbours', 'silhouette', 'trustworthiness'])
    """
    memo, progress = resolve(memo, progress)
    values = tuple(values)
    unknown = [c for c in columns if c not in COLUMNS]
    if unknown:
        raise ValueError(f"columns must be among {list(COLUMNS)}; got {unknown}.")
    out: dict[str, dict[int, dict]] = {k: {} for k in columns}
    n, d = memo(load_data)(*data_spec(p.dataset, p.w, p.n_per_cluster, p.seed)).X.shape
    for i, value in enumerate(values):
        centres = ik_centres_bytes(min(int(value), n // 2), p.t, d, n)   # ψ capped at n / 2, as affinities does
        jobs = {k: ({**kernel_params(p, "ik"), "psi": int(value)} if k == "ik" else
                    {**kernel_params(p, "gk"), "perplexity": float(value)}) for k in columns
                if k != "ik" or centres <= max_centres_bytes}
        if "ik" in jobs and centres > MAX_IK_CENTRES_BYTES:   # a raised bound, in the embedding's key
            jobs["ik"]["max_centres_bytes"] = int(max_centres_bytes)
        step = within(progress, i / len(values), (i + 1) / len(values), f"perplexity and ψ = {value}")
        for kernel, emb in (embed_pair(jobs, memo, step) if jobs else {}).items():
            out[kernel][value] = emb.scores
    progress(1.0, "done")
    return out


#: points per cluster of the search range's quick run (the whole range takes minutes at 500)
SEARCH_QUICK_N = 250
#: real datasets above this many points take a minute or more the first time
SLOW_FROM = 10_000


def quick_search_params(p: Params) -> Params | None:
    """The settings of the search range's quick run: ``p`` on ``SEARCH_QUICK_N`` points per cluster.

    None where there is nothing smaller to offer (real data, or synthetic data
    with at most that many points per cluster).

    Examples
    --------
    >>> from ikviz.experiments.tsne import Params, quick_search_params
    >>> quick_search_params(Params(n_per_cluster=500)).n_per_cluster
    250
    >>> quick_search_params(Params(n_per_cluster=100)), quick_search_params(Params(dataset="iris"))
    (None, None)
    """
    if p.dataset in SYNTHETIC and p.n_per_cluster > SEARCH_QUICK_N:
        return replace(p, n_per_cluster=SEARCH_QUICK_N)
    return None


def search_params(p: Params, size: str = "quick") -> Params:
    """The settings of the search range's run: ``p`` itself (``size="page"``), or on ``SEARCH_QUICK_N``
    points per cluster where that is smaller (``"quick"``, see :func:`quick_search_params`).

    Examples
    --------
    >>> from ikviz.experiments.tsne import Params, search_params
    >>> search_params(Params(n_per_cluster=500)).n_per_cluster, search_params(Params(), "page").n_per_cluster
    (250, 500)
    """
    return (quick_search_params(p) if size == "quick" else None) or p


def search_cost(p: Params) -> str:
    """What the search range costs, said before it runs (the page asks before starting it).

    Examples
    --------
    >>> from ikviz.experiments.tsne import Params, search_cost
    >>> search_cost(Params(n_per_cluster=250)).startswith("18 embeddings")
    True
    """
    what = f"{p.n_per_cluster:,} points per cluster" if p.dataset in SYNTHETIC else p.dataset
    return (f"{2 * len(PAPER_SEARCH)} embeddings of {what}: about a third of a minute at 250 points per "
            "cluster, a minute or more at 500 and w = 5,000, with progress and Cancel.")


def slow_note(dataset: str) -> str | None:
    """A warning that a large real dataset's first run takes a while; None for the others.

    Examples
    --------
    >>> from ikviz.experiments.tsne import slow_note
    >>> slow_note("w-gaussians"), slow_note("iris")
    (None, None)
    """
    if dataset in SYNTHETIC or dataset_info(dataset).n <= SLOW_FROM:
        return None
    return f"{dataset} has {dataset_info(dataset).n:,} points: the first run takes a minute or more."


@dataclass
class Table:
    """The paper's tables: one :class:`Result` per (dataset, w), the separation scores, the search range."""

    params: Params
    results: dict[str, dict[int, Result]]          # dataset -> w -> result
    separation: dict[str, dict[str, dict[int, dict]]]  # dataset -> kernel -> w -> scores
    search: dict[str, dict[int, dict]] = field(default_factory=dict)  # kernel -> setting -> scores at search_w
    search_w: int | None = None


#: the (dataset, w values) of Tables 5 and 6
TABLES = {"w-gaussians": PAPER_W, "w-gaussians-unequal": (1, 2, 100)}


def run_tables(p: Params = Params(), tables: dict | None = None, search_w: int | None = 5000,
               search_values=PAPER_SEARCH, *, memo: Memo | None = None, progress: Progress | None = None,
               columns=tuple(COLUMNS), max_centres_bytes: int = MAX_IK_CENTRES_BYTES) -> Table:
    """Tables 5 and 6: the embeddings of every column (:data:`COLUMNS`) for every w the paper shows, and their
    separation scores.

    With ``search_w``, also the scores over the paper's search range of
    perplexity (GK, FIt-SNE) and psi (IK) on the equal-variance w-Gaussians
    with that w (IK's centres bounded by ``max_centres_bytes``, see :func:`run_search`).
    """
    memo, progress = resolve(memo, progress)
    tables = TABLES if tables is None else tables
    extra = [c for c in columns if c not in KERNELS]
    views = [(dataset, w) for dataset, ws in tables.items() for w in ws]
    steps = len(views) + (search_w is not None)
    results = {dataset: {} for dataset in tables}
    for i, (dataset, w) in enumerate(views):
        step = within(progress, i / steps, (i + 1) / steps, f"{dataset}, w = {w}")
        view = replace(p, dataset=dataset, w=w)
        results[dataset][w] = run(view, memo=memo, progress=within(step, 0.0, 0.7 if extra else 1.0))
        for c in extra:   # FIt-SNE: GK's settings (its affinities come from the memo), the FFT gradient
            results[dataset][w].embeddings[c] = memo(embed)(c, **kernel_params(view, "gk"),
                                                            progress=within(step, 0.7, 1.0, COLUMNS[c]))
    separation = {dataset: {k: {w: r.embeddings[k].scores for w, r in by_w.items()}
                            for k in (*KERNELS, *extra)} for dataset, by_w in results.items()}
    scan = {} if search_w is None else run_search(
        replace(p, dataset="w-gaussians", w=search_w), search_values, memo=memo,
        progress=within(progress, len(views) / steps, 1.0, f"search range, w = {search_w}"),
        columns=(*KERNELS, *extra), max_centres_bytes=max_centres_bytes)
    progress(1.0, "done")
    return Table(p, results, separation, scan, search_w)


#: IK's centres a paper-size reproduction may hold: the paper's ψ = 500 (its list's 500 and 800, capped at n / 2)
#: with t = 200 on the 1,001 points of w = 5,000 take 764 MB, over a server's 512 MB bound (issue 31, for the
#: settings of a link); ``ikviz reproduce`` is run by the machine's owner, at the sizes the paper states
PAPER_CENTRES_BYTES = 1024**3


def run_paper_tables(p: Params = Params(), *, memo: Memo | None = None, progress: Progress | None = None) -> Table:
    """:func:`run_tables` over the paper's whole search list, IK's centres bounded by :data:`PAPER_CENTRES_BYTES`
    (``ikviz reproduce tsne-wgaussians``).

    Examples
    --------
    >>> from ikviz._limits import ik_centres_bytes
    >>> from ikviz.experiments.tsne import PAPER_CENTRES_BYTES
    >>> ik_centres_bytes(500, 200, 5000, 1001) <= PAPER_CENTRES_BYTES
    True
    """
    return run_tables(p, memo=memo, progress=progress, max_centres_bytes=PAPER_CENTRES_BYTES)
