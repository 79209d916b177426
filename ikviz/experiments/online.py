"""Online lab: mistake rate along a stream for FOGD, NOGD, IK+OGD and RandLocal+OGD (lu2016 §7, wang2017).

Every experiment follows :mod:`ikviz.runner`, ``fn(params, *, memo=None, progress=None)``:
:func:`run` runs every learner of :class:`Params` over one stream (the page's view), and
:func:`run_repro` repeats it over data sets and stream orders (lu2016 §7).

Their building blocks, each a block of ``memo``: :func:`make_stream` (a seeded
permutation of a data set), :func:`step_size` (a learner's step size, tuned by
:func:`tune_eta` on a separate stream) and :func:`learn` (one learner's pass, see
:func:`run_method`). A learner's blocks are keyed by the settings it reads
(:func:`learner_params`), so moving FOGD's D does not rerun IK+OGD.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, fields, replace

import numpy as np

from ..data import Data, canonical_name, dataset_label, resolve as resolve_data, step
from ..learn import (BOGDClassifier, BPASClassifier, FOGDClassifier, ForgetronClassifier,
                     IKOGDClassifier, KernelOGDClassifier, KernelPerceptronClassifier, NOGDClassifier,
                     ProjectronClassifier, ProjectronPPClassifier, RandLocalOGDClassifier, RBPClassifier)
from ..params import setting
from ..runner import Memo, Progress, resolve, within
from .classification import DATASETS, GAMMAS, PSIS, power_label

#: the learners of the lab, in the order they are shown
METHODS = ("FOGD", "NOGD", "IK+OGD", "RandLocal+OGD")
#: lu2016 Tables 5 and 7's learners, in its order: no budget, then budgeted (:mod:`ikviz.learn.budget`), then its own
LU2016_METHODS = ("Perceptron", "OGD", "RBP", "Forgetron", "Projectron", "Projectron++", "BPA-S", "BOGD", "FOGD",
                  "NOGD")
#: learners without a budget: their support set, and each example's cost, grow with the stream
UNBUDGETED = ("Perceptron", "OGD")
#: learners with a step size (or BPA-S's C) that lu2016 tunes over :data:`ETAS`; the Perceptrons have none
STEPPED = ("OGD", "BPA-S", "BOGD", "FOGD", "NOGD", "IK+OGD", "RandLocal+OGD")
#: BOGD's regularisation (lu2016 does not give it) and the Projectrons' threshold eta (nor this)
BOGD_LAMBDA = 0.01
PROJECTRON_ETA = 0.1
#: how a stream's real data may be scaled: steps of :data:`ikviz.data.STEPS` ("libsvm": as LIBSVM's scaled files)
SCALES = ("minmax", "standard", "libsvm", None)
#: the generators a stream draws ``n`` fresh points of (other data are read, then ordered)
STREAMED = ("density-ratio", "w-gaussians")
#: lu2016's step sizes {2, 0.2, ..., 0.0002}
ETAS = (2.0, 0.2, 0.02, 0.002, 0.0002)
#: examples of the separate stream each step size is tried on
TUNING_EXAMPLES = 2000
#: the learners whose feature map does not depend on the step size: tuning fits and applies it once
SHARED_MAP = ("IK+OGD", "RandLocal+OGD")
#: a pass is timed after each of this many equal parts of the stream (lu2016 Figs. 1-2: time along the stream)
CHECKPOINTS = 20
#: ... each of at least this many examples (a shorter stream is timed in fewer parts)
MIN_PART = 1000
#: ``Params.gamma``'s value for a Gaussian kernel width set from the stream (:func:`scale_gamma`)
PER_DATA_SET = "per data set"


def gamma_label(value) -> str:
    """A γ choice: a word ("per data set") as it is, a number as a power of two (:func:`power_label`).

    Examples
    --------
    >>> from ikviz.experiments.online import gamma_label
    >>> gamma_label("per data set"), gamma_label(0.125)
    ('per data set', '2^-3')
    """
    return value if isinstance(value, str) else power_label(value)


@dataclass(frozen=True)
class StreamResult:
    """What one learner did on one pass over a stream (returned by :func:`run_method`).

    Examples
    --------
    >>> import numpy as np
    >>> from ikviz.experiments.online import StreamResult
    >>> r = StreamResult("FOGD", np.array([True, True, False, False]), 0.1, 400)
    >>> r.mistake_rate
    0.5
    >>> r.curve(4)
    (array([1, 2, 3, 4]), array([1.        , 1.        , 0.66666667, 0.5       ]))
    """

    method: str
    mistakes: np.ndarray  # bool (n,), in stream order
    seconds: float  # map fitting + mapping + learning
    n_features: int
    gamma: float | None = None  # the Gaussian kernel's gamma (FOGD, NOGD); None for the other learners
    times: tuple = ()  # seconds spent after each of CHECKPOINTS equal parts of the stream (lu2016 Figs. 1-2)

    @property
    def mistake_rate(self) -> float:
        """Mistakes over the whole stream divided by its length."""
        return float(self.mistakes.mean())

    def curve(self, n_points: int = 200) -> tuple[np.ndarray, np.ndarray]:
        """Running mistake rate at ``n_points`` positions: (examples seen, mistakes / examples seen)."""
        n = self.mistakes.size
        at = np.unique(np.linspace(1, n, min(n_points, n)).astype(int))
        return at, np.cumsum(self.mistakes)[at - 1] / at


@dataclass(frozen=True)
class Params:
    """Stream and learner settings; the defaults are the page's view.

    ``dataset`` is "density-ratio" (``n`` points at ``ratio``:1), "w-gaussians" (w = ``w``) or a
    bundled real dataset, its features scaled by ``scale`` ("minmax": to [0, 1], as usual for
    online learners; None: as given, lu2016's setting); underscores are read as hyphens
    (``w_gaussians`` is ``w-gaussians``). The stream is a seeded permutation of the rows,
    truncated to ``n`` rows.

    The Gaussian kernel of FOGD and NOGD is exp(-gamma |x - y|^2) = exp(-|x - y|^2 / (2 sigma^2)),
    so gamma = 1 / (2 sigma^2); lu2016 §7.2.1 sets the bandwidth sigma = 8, i.e.
    gamma = 1/128 (:data:`LU2016_GAMMA`), on the features as given. ``gamma="per data set"``
    (:data:`PER_DATA_SET`, the default; None says the same) sets it per data set from the stream's
    rows, gamma = 1 / (d Var X) (:func:`scale_gamma`, scikit-learn SVC's ``gamma="scale"``): one
    fixed gamma cannot suit every data set (on the min-max scaled data, gamma = 1 leaves FOGD on a9a
    at 46% mistakes against 24% for predicting the majority class, and gamma = 1/128 leaves it at
    the majority rate on spambase).
    ``eta`` is every learner's step size, unless ``tune_eta``: then each learner gets its own
    from :data:`ETAS` (see :func:`tune_eta`).

    Examples
    --------
    >>> from ikviz.experiments.online import Params
    >>> Params().gamma, Params(gamma=None) == Params(), Params().scale
    ('per data set', True, 'minmax')
    >>> sorted(Params.hidden({"tune_eta": True}))
    ['eta']
    """

    dataset: str = setting("letter", "stream", choices=DATASETS, url="o_data", format=dataset_label,
                           help="The rows in a seeded random order; real data min-max scaled to [0, 1].")
    n: int = setting(10000, "stream length", choices=(2000, 5000, 10000, 20000, 50000), url="o_n")
    seed: int = setting(0, "seed (stream order, maps)", low=0, high=10_000, url="o_seed")
    # lu2016: D = 4B, B = 100
    D: int = setting(400, "D (Fourier components, FOGD)", choices=(50, 100, 200, 400, 800, 1600))
    B: int = setting(100, "B (budget, NOGD; rank k = 0.2 B)", choices=(25, 50, 100, 200, 400))
    gamma: float | str = setting(PER_DATA_SET, "γ (Gaussian kernel)", choices=(PER_DATA_SET, *GAMMAS),
                                 url="o_gamma", format=gamma_label, widget="select_slider",
                                 help="per data set: γ = 1 / (d · Var X) of the stream (scikit-learn's "
                                      "gamma=\"scale\"); one fixed γ cannot suit every data set. lu2016 uses "
                                      "σ = 8, i.e. γ = 2^-7, on its features as given.")
    psi: int = setting(64, "ψ (IK)", choices=PSIS[:9], url="o_psi")
    t: int = setting(100, "t (IK)", choices=(25, 50, 100, 200, 400), url="o_t")
    prefix: int = setting(1000, "prefix for IK / RandLocal", choices=(200, 500, 1000, 2000, 5000),
                          help="IK samples and RandLocal anchors come from the first rows of the stream "
                               "(their features only).")
    n_sets: int = setting(100, "T (RandLocal anchor sets)", choices=(25, 50, 100, 200, 400))
    max_anchors: int = setting(1024, "max anchors per set (RandLocal)", choices=(64, 128, 256, 512, 1024),
                               url="anchors")
    tune_eta: bool = setting(True, "tune η per learner",
                             help=f"lu2016 tunes each learner's step size. Each η in "
                                  f"{{{', '.join(f'{e:g}' for e in ETAS)}}} is tried on a separate "
                                  f"{TUNING_EXAMPLES:,}-example stream (the same data in another order) "
                                  "and the one with the fewest mistakes is used.")
    eta: float = setting(0.2, "η (step size, all learners)", choices=tuple(sorted(ETAS)),
                         help="Used by every learner when η is not tuned.")
    ratio: float = 10.0
    w: int = 10
    methods: tuple = METHODS
    scale: str | None = "minmax"  # real data: "minmax" (to [0, 1]), "standard" or None (as given)

    def __post_init__(self):
        object.__setattr__(self, "dataset", canonical_name(self.dataset))
        if self.gamma is None:
            object.__setattr__(self, "gamma", PER_DATA_SET)

    @staticmethod
    def hidden(values: dict) -> set[str]:
        """The settings that do not apply given the values chosen so far (see :func:`ikviz.params.hidden`)."""
        return {"eta"} if values.get("tune_eta", True) else set()


#: lu2016 §7.2.1's Gaussian kernel bandwidth sigma = 8 as gamma = 1 / (2 sigma^2)
LU2016_GAMMA = 1.0 / (2 * 8.0**2)


def scale_gamma(X) -> float:
    """gamma = 1 / (d Var X), the Gaussian kernel's width set from the rows (scikit-learn's ``gamma="scale"``).

    ``Var X`` is the variance of all entries of ``X``; labels are not used.

    Examples
    --------
    >>> import numpy as np
    >>> from ikviz.experiments.online import scale_gamma
    >>> scale_gamma(np.array([[0.0, 0.0], [1.0, 1.0]]))
    2.0
    """
    X = np.asarray(X, dtype=np.float64)
    var = float(X.var())
    return 1.0 / (X.shape[1] * var) if var > 0 else 1.0


#: the settings each learner reads, besides the stream's and its step size
OWN_SETTINGS = {"FOGD": ("D", "gamma"), "NOGD": ("B", "gamma"), "IK+OGD": ("psi", "t", "prefix"),
                "RandLocal+OGD": ("n_sets", "max_anchors", "prefix"),
                **{m: ("gamma",) for m in UNBUDGETED},
                **{m: ("B", "gamma") for m in LU2016_METHODS if m not in UNBUDGETED and m not in ("FOGD", "NOGD")}}


def cost(method: str, p: Params, n: int, d: int) -> float:
    """Rough work of one pass of ``method`` over ``n`` examples of ``d`` features (multiply-adds).

    The weight of the pass in a run's progress, and the measure of its time guards: a
    budgeted kernel learner does B kernel values per example (B d), an unbudgeted one a
    support set that grows with the stream (at most n / 2 on average: n d / 2), FOGD D d,
    IK+OGD and RandLocal+OGD their non-zero features per example (times the map's cost).

    Examples
    --------
    >>> from ikviz.experiments.online import Params, cost
    >>> cost("NOGD", Params(B=100), 1000, 10) == 1000 * 100 * (10 + 1)
    True
    >>> cost("OGD", Params(), 1000, 10) > cost("RBP", Params(B=100), 1000, 10)
    True
    """
    if method == "FOGD":
        per = p.D * (d + 2)
    elif method in UNBUDGETED:
        per = max(p.B, n / 2) * (d + 1)
    elif method == "IK+OGD":
        per = p.t * (p.psi + 1) * max(d, 1) / 8
    elif method == "RandLocal+OGD":
        per = p.n_sets * (max(d, 1) + 8)
    elif method in ("Projectron", "Projectron++"):
        per = p.B * (d + p.B / 4)
    else:
        per = p.B * (d + 1)
    return float(n) * float(per)


def learner_params(method: str, p: Params) -> Params:
    """``p`` with every setting ``method`` does not read put back to its default: the key of its blocks.

    Examples
    --------
    >>> from ikviz.experiments.online import Params, learner_params
    >>> a, b = Params(D=100, psi=16), Params(D=800, psi=16)
    >>> learner_params("IK+OGD", a) == learner_params("IK+OGD", b)
    True
    >>> learner_params("FOGD", a) == learner_params("FOGD", b)
    False
    """
    if method not in OWN_SETTINGS:
        raise ValueError(f"method must be one of {(*METHODS, *LU2016_METHODS[:8])}; got {method!r}.")
    keep = {"dataset", "n", "seed", "scale", *OWN_SETTINGS[method]}
    keep |= {"density-ratio": {"ratio"}, "w-gaussians": {"w"}}.get(p.dataset, set())
    if method in STEPPED:
        keep.add("tune_eta")
        if not p.tune_eta:
            keep.add("eta")
    default = Params()
    return replace(p, methods=(method,), **{f.name: getattr(default, f.name) for f in fields(Params)
                                            if f.name not in keep and f.name != "methods"})


def describe_stream(dataset: str, n: int, seed: int, ratio: float = 10.0, w: int = 10,
                    scale: str | None = "minmax") -> Data:
    """The :class:`ikviz.data.Data` of :func:`make_stream`: ``dataset``, scaled by ``scale``, in a seeded order.

    density-ratio and w-gaussians draw ``n`` points (rounded up to even) with ``seed``
    (never scaled); any other data set is read whole, scaled by ``scale`` (a step of
    :data:`SCALES`), then put in the ``stream`` step's seeded random order and cut to
    ``n`` rows.

    Examples
    --------
    >>> from ikviz.experiments.online import describe_stream
    >>> describe_stream("letter", 500, 3, scale="libsvm").steps
    (Step(name='libsvm', options=()), Step(name='stream', options=(('n', 500),)))
    """
    if isinstance(n, bool) or not isinstance(n, int | np.integer) or n < 10:
        raise ValueError(f"the stream needs at least 10 examples; got n={n}.")
    if scale not in SCALES:
        raise ValueError(f"scale must be one of {SCALES}; got {scale!r}.")
    dataset = canonical_name(dataset)
    options = {"density-ratio": {"n": n + n % 2, "ratio": ratio},
               "w-gaussians": {"n_per_cluster": (n + 1) // 2, "w": w}}.get(dataset, {})
    scaling = () if scale is None or dataset in STREAMED else (scale,)
    return Data(dataset, seed=seed, options=options, steps=(*scaling, step("stream", n=int(n))))


def make_stream(dataset: str, n: int, seed: int, ratio: float = 10.0, w: int = 10, scale: str | None = "minmax"):
    """(X, y): a seeded random order of ``dataset``, at most ``n`` rows; real data scaled by ``scale``.

    :func:`ikviz.data.resolve` of :func:`describe_stream`; the data set is read once per
    process (:data:`ikviz.data.description.HELD_BYTES`), every order of it reuses the read.

    Examples
    --------
    >>> from ikviz.experiments.online import make_stream
    >>> X, y = make_stream("w_gaussians", 50, seed=0, w=3)
    >>> X.shape, y.shape
    ((50, 6), (50,))
    """
    got = resolve_data(describe_stream(dataset, n, seed, ratio, w, scale))
    return got.X, got.y


def real_rows(dataset: str, scale: str | None = None):
    """(X, y) of a real data set in file order, scaled by ``scale``, read-only (shared by every caller).

    A joined set (:data:`ikviz.data.description.JOINED`, e.g. ``ijcnn1-full``) too.
    ``scale`` is one of :data:`SCALES`: "minmax", "standard", None (as given) or "libsvm":
    as LIBSVM's scaled files that lu2016 streams: MNIST's pixels / 255 (``mnist.scale``),
    letter to [-1, 1] (``letter.scale``), other sets as given (a9a and ijcnn1 are LIBSVM's
    files). :func:`ikviz.data.resolve` of ``Data(dataset, steps=(scale, "read-only"))``: the
    set is read and scaled once per process and held (:data:`ikviz.data.description.HELD_BYTES`);
    these are the held arrays themselves.

    Examples
    --------
    >>> from ikviz.experiments.online import real_rows
    >>> X, y = real_rows("letter", "libsvm")
    >>> float(X.min()), float(X.max()), X.shape, X.flags.writeable
    (-1.0, 1.0, (20000, 16), False)
    """
    if scale not in SCALES:
        raise ValueError(f"scale must be one of {SCALES}; got {scale!r}.")
    got = resolve_data(Data(dataset, steps=(*(() if scale is None else (scale,)), "read-only")))
    return got.X, got.y


def _stream_of(p: Params, n: int, seed: int, memo: Memo):
    return memo(make_stream)(p.dataset, n, seed, p.ratio, p.w, p.scale)


def make_learner(method: str, p: Params, eta: float | None = None, X=None):
    """The unfitted classifier of ``method`` (:data:`METHODS`) with ``p``'s settings; ``eta`` defaults to ``p.eta``.

    With ``p.gamma`` "per data set", FOGD's and NOGD's gamma is :func:`scale_gamma` of the stream ``X``.

    Examples
    --------
    >>> import numpy as np
    >>> from ikviz.experiments.online import Params, make_learner
    >>> make_learner("FOGD", Params(gamma=0.5)).gamma
    0.5
    >>> make_learner("NOGD", Params(), X=np.array([[0.0, 0.0], [1.0, 1.0]])).gamma
    2.0
    """
    eta = p.eta if eta is None else eta
    if method in ("FOGD", "NOGD", *LU2016_METHODS):
        if p.gamma == PER_DATA_SET and X is None:
            raise ValueError(f"gamma={PER_DATA_SET!r} sets the kernel width from the stream: pass its rows X.")
        gamma = scale_gamma(X) if p.gamma == PER_DATA_SET else p.gamma
        if method == "FOGD":
            return FOGDClassifier(n_components=p.D, gamma=gamma, eta=eta, random_state=p.seed)
        if method == "NOGD":
            return NOGDClassifier(budget=p.B, gamma=gamma, eta=eta)
        return {"Perceptron": lambda: KernelPerceptronClassifier(gamma=gamma),
                "OGD": lambda: KernelOGDClassifier(gamma=gamma, eta=eta),
                "RBP": lambda: RBPClassifier(budget=p.B, gamma=gamma, random_state=p.seed),
                "Forgetron": lambda: ForgetronClassifier(budget=p.B, gamma=gamma),
                "Projectron": lambda: ProjectronClassifier(budget=p.B, gamma=gamma, eta=PROJECTRON_ETA),
                "Projectron++": lambda: ProjectronPPClassifier(budget=p.B, gamma=gamma, eta=PROJECTRON_ETA),
                "BPA-S": lambda: BPASClassifier(budget=p.B, gamma=gamma, C=eta),
                "BOGD": lambda: BOGDClassifier(budget=p.B, gamma=gamma, eta=eta, lam=min(BOGD_LAMBDA, 0.5 / eta),
                                               random_state=p.seed)}[method]()
    if method == "IK+OGD":
        return IKOGDClassifier(psi=p.psi, t=p.t, eta=eta, prefix=p.prefix, random_state=p.seed)
    if method == "RandLocal+OGD":
        return RandLocalOGDClassifier(n_sets=p.n_sets, max_anchors=p.max_anchors, eta=eta, prefix=p.prefix,
                                      random_state=p.seed)
    raise ValueError(f"method must be one of {(*METHODS, *LU2016_METHODS[:8])}; got {method!r}.")


class _Once:
    """Work done once per key in this process, whichever threads ask at once (the store's workers do).

    A second caller of a key waits for the first one's work and does not repeat
    it; different keys do not wait for each other. Work that raises is not done:
    the next caller tries again.
    """

    def __init__(self):
        self._lock = threading.Lock()  # guards _gates and _done
        self._gates: dict[str, threading.Lock] = {}
        self._done: set[str] = set()

    def __call__(self, key: str, work) -> bool:
        """Run ``work()`` unless ``key``'s work is done; True when this call ran it."""
        with self._lock:
            if key in self._done:
                return False
            gate = self._gates.setdefault(key, threading.Lock())
        with gate:
            with self._lock:
                if key in self._done:  # done by the caller this one waited for
                    return False
            work()
            with self._lock:
                self._done.add(key)
        return True


#: the learners' warm-ups: the first pass of a learner in a process loads its compiled (numba) code, which is not
#: part of the time it reports; each learner is warmed once (:func:`warm_up`)
_WARM = _Once()


def warm_up(method: str, work) -> bool:
    """Run ``work()``, a first pass of learner ``method`` that loads its compiled code, once per process.

    Safe from many threads at once: one of them runs it, the others wait for it
    and do not repeat it. Work that raises counts as not done.

    Parameters
    ----------
    method : str
        The learner (any key: a method of :data:`METHODS`, ``"NOGD"``...).
    work : callable
        Called with no arguments.

    Returns
    -------
    bool
        True when this call ran ``work``.

    Examples
    --------
    >>> from ikviz.experiments.online import warm_up
    >>> warm_up("a doctest's learner", lambda: None), warm_up("a doctest's learner", lambda: None)
    (True, False)
    """
    return _WARM(method, work)


def run_method(method: str, X, y, p: Params, eta: float | None = None, *,
               shared: dict | None = None) -> StreamResult:
    """One pass of ``method`` (see :data:`METHODS`) over (X, y) with step size ``eta`` or ``p.eta``.

    ``shared``: a cache of feature maps and mapped rows for passes that differ only in ``eta``
    (see ``share_features`` of :mod:`ikviz.learn.online`; used by the learners with a frozen map).
    """
    classes, times = np.unique(y), []
    def first_pass():  # loads the learner's numba code: not part of its time
        try:
            make_learner(method, p, eta, X).partial_fit(X[:200], y[:200], classes=classes)
        except ValueError:
            pass

    warm_up(method, first_pass)
    t0 = time.perf_counter()
    clf = make_learner(method, p, eta, X)
    if shared is not None and method in SHARED_MAP:
        clf.share_features(shared)
    parts = max(1, min(CHECKPOINTS, len(y) // MIN_PART))  # a part per partial_fit call: not too small to time
    bounds = np.unique(np.linspace(0, len(y), parts + 1).astype(int))
    if method in ("IK+OGD", "RandLocal+OGD"):  # the first part holds the prefix: its map is fitted once
        bounds = bounds[(bounds == 0) | (bounds >= min(p.prefix, len(y)))]
    for lo, hi in zip(bounds[:-1], bounds[1:]):  # partial_fit over the parts is fit on the stream (tested)
        clf.partial_fit(X[lo:hi], y[lo:hi], classes=classes)
        times.append(time.perf_counter() - t0)
    seconds = times[-1]
    width = clf.coef_.shape[1] if getattr(clf, "coef_", None) is not None else len(clf.support_vectors_)
    return StreamResult(method, np.array(clf.mistakes_), seconds, int(width), getattr(clf, "gamma", None),
                        tuple(times))


def learn(method: str, p: Params, eta: float, *, memo: Memo | None = None) -> StreamResult:
    """One pass of ``method`` over ``p``'s stream with step size ``eta`` (a block of :func:`run`)."""
    memo, _ = resolve(memo, None)
    X, y = _stream_of(p, p.n, p.seed, memo)
    return run_method(method, X, y, p, eta)


def tune_eta(method: str, p: Params, *, memo: Memo | None = None,
             progress: Progress | None = None) -> tuple[float, dict[float, float]]:
    """The step size of :data:`ETAS` with the fewest mistakes for ``method``, and each one's mistake rate.

    lu2016 tunes every learner's step size by cross-validation on its training
    data. A stream has no held-out part, so each step size is tried on a
    separate stream: the same data in another seeded order (fresh points for
    the generated data), at most :data:`TUNING_EXAMPLES` long. The stream the
    page reports is never used to choose. The learners of :data:`SHARED_MAP`
    fit their feature map and map the stream once for all the step sizes (the
    rates are bit-identical to five separate passes).
    """
    memo, progress = resolve(memo, progress)
    X, y = _stream_of(p, min(p.n, TUNING_EXAMPLES), p.seed + 1, memo)
    rates, shared = {}, {}
    for i, eta in enumerate(ETAS):
        progress(i / len(ETAS), f"step size {i + 1} of {len(ETAS)}")
        rates[eta] = run_method(method, X, y, p, eta, shared=shared).mistake_rate
    return min(rates, key=rates.get), rates


def step_size(method: str, p: Params, *, memo: Memo | None = None, progress: Progress | None = None) -> float:
    """``method``'s step size under ``p``: tuned (:func:`tune_eta`) or ``p.eta`` (a block of :func:`run`)."""
    if method not in STEPPED:
        return p.eta  # not read by the learner (the Perceptrons have no step size)
    return tune_eta(method, p, memo=memo, progress=progress)[0] if p.tune_eta else p.eta


@dataclass(frozen=True)
class Result:
    """What :func:`run` found: each learner's pass and the step size it used."""

    params: Params
    results: tuple  # StreamResult per method, in params.methods order
    etas: tuple  # the step size each method used

    def table(self) -> list[dict]:
        """Final mistake rate, step size, seconds, examples per second and feature count per method."""
        n = self.results[0].mistakes.size if self.results else 0
        return [{"method": r.method, "mistake rate": r.mistake_rate, "η": eta, "γ": r.gamma, "seconds": r.seconds,
                 "examples/s": n / r.seconds if r.seconds > 0 else float("inf"), "features": r.n_features}
                for r, eta in zip(self.results, self.etas)]


def run(params: Params, *, memo: Memo | None = None, progress: Progress | None = None) -> Result:
    """Run every learner of ``params`` over the same stream.

    Each learner's step size (:func:`step_size`) and pass (:func:`learn`) is a
    block of ``memo``, keyed by the settings that learner reads
    (:func:`learner_params`); ``progress(fraction, text)`` reports each stage
    ("IK+OGD: one pass over 10,000 examples").

    Examples
    --------
    >>> from ikviz.experiments.online import Params, run
    >>> res = run(Params(dataset="density-ratio", n=200, prefix=100, psi=16, methods=("FOGD", "IK+OGD"),
    ...               tune_eta=False),
    ...           progress=lambda f, text: print(f"{f:.2f} {text}"))
    0.00 FOGD: one pass over 200 examples
    0.79 IK+OGD: one pass over 200 examples
    1.00 done
    >>> [row["method"] for row in res.table()], res.etas
    (['FOGD', 'IK+OGD'], (0.2, 0.2))
    """
    memo, progress = resolve(memo, progress)
    p, out, etas = params, [], []
    X, _ = _stream_of(p, p.n, p.seed, memo)
    n, d = X.shape
    # each stage's share of the progress bar is its share of the work (:func:`cost`): the store's ETA reads it
    stages = []
    for m in p.methods:
        tuned = p.tune_eta and m in STEPPED
        stages.append((len(ETAS) * cost(m, p, min(n, TUNING_EXAMPLES), d) if tuned else 0.0, cost(m, p, n, d)))
    total = sum(a + b for a, b in stages) or 1.0
    at = 0.0
    for m, (tuning_work, pass_work) in zip(p.methods, stages):
        q = learner_params(m, p)
        passing = at + tuning_work / total
        if tuning_work:
            etas.append(memo(step_size)(m, q, progress=within(progress, at, passing, f"{m}: tuning η")))
        else:
            etas.append(p.eta)
        progress(passing, f"{m}: one pass over {n:,} examples")
        # keyed by the step size used, tuned or not: the same pass either way
        out.append(memo(learn)(m, replace(q, tune_eta=False, eta=etas[-1]), etas[-1]))
        at = passing + pass_work / total
    progress(1.0, "done")
    return Result(p, tuple(out), tuple(etas))


def _paper_rows(rows: int, text: str) -> dict:
    """A paper table's column, "mean% std seconds" per learner separated by ";", as {method: {"mistake rate": ...}}."""
    out = {"rows": rows}
    for method, line in zip(LU2016_METHODS, text.split(";"), strict=True):
        mean, std, seconds = (float(v) for v in line.split())
        out[method] = {"mistake rate": (round(mean / 100, 6), round(std / 100, 6)), "seconds": seconds}
    return out


#: lu2016 Table 5 (online binary classification, B = 100, D = 4B, sigma = 8, 20 random orders): every learner's
#: mistake rate (mean, std) and seconds, as printed ("29.9 % ± 0.7" is (0.299, 0.007)), in
#: :data:`LU2016_METHODS` order, for the data sets here; ``rows`` is the paper's size (Table 4): a9a is train +
#: test (``a9a-full``; ``a9a`` is read as it), ijcnn1 training + test (``ijcnn1-full``, 141,691 rows).
PAPER_TABLE5 = {
    "german": _paper_rows(1000, "35.2 0.9 0.112; 29.5 0.5 0.130; 37.5 1.1 0.086; 38.1 0.9 0.105; 35.6 1.5 0.101; "
                                "35.1 1.1 0.299; 33.9 0.9 0.092; 31.6 1.5 0.114; 29.9 0.7 0.045; 30.4 0.8 0.109"),
    "spambase": _paper_rows(4601, "24.5 0.1 1.606; 22.0 0.1 4.444; 33.3 0.4 0.613; 34.6 0.5 0.743; 30.8 1.2 0.644; "
                                  "30.4 1.0 1.865; 30.8 0.8 0.604; 32.2 0.6 0.720; 26.9 1.0 0.263; 29.1 0.4 0.633"),
    "a9a-full": _paper_rows(48842, "20.9 0.1 948.7; 16.3 0.1 1549.5; 27.1 0.2 15.4; 27.8 0.4 19.3; 21.6 1.9 15.3; "
                                   "18.6 0.5 23.4; 21.1 0.2 15.4; 27.9 0.2 15.9; 17.4 0.1 1.8; 17.4 0.2 15.6"),
    "ijcnn1-full": _paper_rows(141691, "12.27 0.01 812.6; 9.52 0.01 1269.0; 16.40 0.10 18.5; 16.99 0.32 21.2; "
                                       "12.38 0.09 19.2; 9.52 0.03 30.3; 11.33 0.04 18.3; 11.67 0.13 19.2; "
                                       "9.06 0.05 3.3; 9.55 0.01 19.1"),
}
PAPER_TABLE5["a9a"] = PAPER_TABLE5["a9a-full"]
#: lu2016 Table 7 (online multi-class, B = 100 for these two, D = 4B), the data sets here: the MNIST test set
#: (the paper's "mnist", 10,000 rows) and letter (the paper's 15,000 rows of it)
PAPER_TABLE7 = {
    "mnist-test": _paper_rows(10000, "15.4 0.1 456.76; 10.7 0.2 1004.65; 43.4 0.5 59.98; 43.9 0.6 64.32; "
                                     "17.7 0.1 434.53; 17.7 0.3 430.38; 32.4 1.2 91.25; 42.5 0.4 62.51; "
                                     "11.8 0.2 1.792; 15.6 0.6 46.90"),
    "letter": _paper_rows(15000, "71.5 0.5 80.901; 71.2 0.3 94.222; 91.7 0.2 18.783; 96.1 0.1 19.034; "
                                 "71.5 0.5 26.921; 71.4 0.3 27.584; 84.6 0.5 47.459; 92.7 0.2 18.510; "
                                 "71.5 0.6 2.322; 71.5 0.2 3.380"),
}
#: the most work (:func:`cost`, multiply-adds) one pass may take before a run refuses to start: about ten minutes
MAX_PASS_WORK = 5e11


@dataclass(frozen=True)
class ReproParams:
    """lu2016 §7.2 (Table 5): each learner on several data sets, ``n_seeds`` random orders each.

    The paper's settings are the defaults: features as given (``scale=None``), Gaussian
    bandwidth sigma = 8 (``gamma`` = 1 / (2 sigma^2) = 1/128), B = 100, D = 4B = 400,
    k = 0.2 B, η tuned over {2, 0.2, ..., 0.0002} per learner, every row of each data set
    (``n=None``). The paper averages 20 orders; ``n_seeds`` defaults to 5.

    Examples
    --------
    >>> from ikviz.experiments.online import LU2016_GAMMA, ReproParams
    >>> ReproParams().gamma == LU2016_GAMMA == 1 / 128
    True
    """

    datasets: tuple = ("german", "spambase", "a9a")
    n: int | None = None  # rows of each stream; None: every row
    n_seeds: int = 5
    seed: int = 0
    tune_eta: bool = True
    methods: tuple = METHODS
    gamma: float | None = LU2016_GAMMA
    scale: str | None = None
    B: int = 100  # budget (NOGD and the budgeted learners)
    D: int = 400  # FOGD's Fourier components (lu2016: 4B)
    table: int = 5  # the paper's table shown beside: 5 (binary, PAPER_TABLE5) or 7 (multi-class, PAPER_TABLE7)


@dataclass(frozen=True)
class ReproResult:
    """What :func:`run_repro` found: ``summary`` (JSON numbers) and the first order's :class:`Result` per data set."""

    params: ReproParams
    summary: dict
    first: dict  # dataset -> Result of the first order (its mistake curves)


def run_repro(params: ReproParams, *, memo: Memo | None = None, progress: Progress | None = None) -> ReproResult:
    """Every learner on every data set in ``n_seeds`` orders, beside lu2016 Table 5 and the majority class.

    ``summary[dataset]`` holds ``"rows"`` (the stream length), ``"majority"`` (the mistake
    rate of always predicting the stream's most frequent class, mean over orders),
    ``"methods"`` ({method: {"mistake rate": (mean, std), "seconds": (mean, std),
    "eta": [per order], "gamma": γ of the first order or None}}) and ``"paper"``
    (:data:`PAPER_TABLE5`'s entry, or None). Std is over orders (ddof = 1).

    Examples
    --------
    >>> from ikviz.experiments.online import ReproParams, run_repro
    >>> res = run_repro(ReproParams(datasets=("german",), n=300, n_seeds=2, methods=("FOGD",), tune_eta=False))
    >>> sorted(res.summary["german"]), sorted(res.summary["german"]["methods"]["FOGD"])
    (['majority', 'methods', 'paper', 'rows'], ['eta', 'gamma', 'mistake rate', 'seconds'])
    """
    memo, progress = resolve(memo, progress)
    p, out, first = params, {}, {}
    paper_table = {5: PAPER_TABLE5, 7: PAPER_TABLE7}.get(p.table)
    if paper_table is None:
        raise ValueError(f"table must be 5 (binary) or 7 (multi-class); got {p.table!r}.")

    def mean_std(a):
        return float(np.mean(a)), float(np.std(a, ddof=1)) if len(a) > 1 else 0.0

    # the work of each data set (:func:`cost`), checked against the guard before anything runs; it is also each
    # data set's share of the progress bar
    sizes, work = {}, {}
    for name in p.datasets:
        rows, d = _shape_of(name, p.scale, memo)
        n = rows if p.n is None else min(int(p.n), rows)
        q = Params(dataset=name, n=n, B=p.B, D=p.D)
        for m in p.methods:
            if cost(m, q, n, d) > MAX_PASS_WORK:
                raise ValueError(f"{m} on {n:,} rows of {name} ({d} features) would take about "
                                 f"{cost(m, q, n, d):.1e} multiply-adds per pass, more than the guard's "
                                 f"{MAX_PASS_WORK:.0e} (about ten minutes): lower n, or leave {m} out of methods.")
        sizes[name] = n
        tuned = [m for m in p.methods if p.tune_eta and m in STEPPED]
        work[name] = p.n_seeds * (sum(cost(m, q, n, d) for m in p.methods)
                                  + len(ETAS) * sum(cost(m, q, min(n, TUNING_EXAMPLES), d) for m in tuned))
    total, done = sum(work.values()) or 1.0, 0.0

    for name in p.datasets:
        n = sizes[name]
        per = {m: ([], [], []) for m in p.methods}
        majority = []
        gammas = {}
        for s in range(p.seed, p.seed + p.n_seeds):
            step = done / total
            done += work[name] / p.n_seeds
            q = Params(dataset=name, n=n, seed=s, tune_eta=p.tune_eta, methods=tuple(p.methods), gamma=p.gamma,
                       scale=p.scale, B=p.B, D=p.D)
            res = run(q, memo=memo, progress=within(progress, step, done / total, f"{name}, seed {s}"))
            first.setdefault(name, res)
            _, y = _stream_of(q, q.n, q.seed, memo)
            n = len(y)
            majority.append(1.0 - max(np.mean(y == c) for c in np.unique(y)))
            for r, eta in zip(res.results, res.etas):
                per[r.method][0].append(r.mistake_rate)
                per[r.method][1].append(r.seconds)
                per[r.method][2].append(float(eta))
                gammas.setdefault(r.method, r.gamma)
        out[canonical_name(name)] = {
            "rows": int(n), "majority": float(np.mean(majority)),
            "methods": {m: {"mistake rate": mean_std(a), "seconds": mean_std(b), "eta": c,
                            "gamma": gammas.get(m)} for m, (a, b, c) in per.items()},
            "paper": paper_table.get(canonical_name(name))}
    progress(1.0, "done")
    return ReproResult(p, out, first)


def _shape_of(name: str, scale, memo: Memo) -> tuple[int, int]:
    """(rows, features) of a real data set (its held arrays, scaled as its streams will be: read once)."""
    X, _ = real_rows(canonical_name(name), scale)
    return int(X.shape[0]), int(X.shape[1])
