"""One plain description of the data a computation wants, resolved through one registry of loaders and one of steps.

A :class:`Data` names its *source* (a generator, a bundled, fetched or joined
data set: the names of :func:`ikviz.data.load`; a user's ``upload``; a ``server-file``),
the source's options, a seed and an ordered tuple of named preparation :class:`Step`\\ s. :func:`resolve` turns it
into arrays: the source's loader in :data:`LOADERS` gives ``(X, y)``, then each
step of :data:`STEPS` runs in the order declared (scaling before subsampling
is not subsampling before scaling). An experiment states what it wants::

    Data("iris", seed=3, steps=("rescale", step("subsample", n=100)))

and never loads or scales by itself, so two views that state the same
description show the same rows, and the description is the cache key
(a frozen dataclass of plain values).

Two sources hold a caller's own data, never a process's:

``upload``
    an uploaded file read by :func:`ikviz.data.upload.read_table`: options
    ``file`` (a :class:`~ikviz.data.upload.FileBytes`, equal and hashed by its
    SHA-256, so the description stays a small key) and the column choices of
    :data:`~ikviz.data.upload.UPLOAD_DEFAULTS` (``label``, ``missing``,
    ``roles``, ``sheet``, ``indicator``, ``codes``, ``task``);
``server-file``
    a sample of ``rows`` rows (``label``: the label column) of the Parquet/CSV
    data at ``path`` on the server, drawn by row index with the description's
    seed, read only where the server allows it
    (:func:`ikviz.data.files.load_server_file`).

Neither is held in the process's cache: resolved with a ``memo`` (the
caller's store), the source is read once per file and options as a block of
that memo (session memory), and steps run on it; without one, at each resolve.

The steps:

``subsample``
    at most ``n`` rows, drawn without replacement with ``seed`` (the
    description's unless given), kept in their original order;
``stratified``
    at most ``n`` rows drawn with ``seed`` (the description's unless given),
    stratified by class when the source says it has two classes or more and
    is not a regression target (:func:`ikviz.data.upload.stratified_rows`:
    the Your data checks' draw); the other columns the source holds
    (``about["values"]``) follow the rows, and a note says what was kept;
``stream``
    the rows in a seeded random order, the first ``n`` of it (all without
    ``n``): ``default_rng(seed).permutation(rows)[:n]``, ``seed`` the
    description's unless given (an online learner's stream, lu2016 §7; not in
    the original order, so not ``subsample``);
``minmax``
    each feature to [0, 1] by :func:`sklearn.preprocessing.minmax_scale`
    (what ``load(scale="minmax")`` has always done);
``standard``
    each feature to zero mean and unit variance (:func:`sklearn.preprocessing.scale`);
``libsvm``
    as LIBSVM's scaled files that lu2016 streams: MNIST's test set
    (``mnist-test``) pixels / 255 (``mnist.scale``), ``letter`` to [-1, 1]
    (``letter.scale``: ``minmax``, then 2 x - 1), every other set as given
    (a9a and ijcnn1 are LIBSVM's files already);
``rescale``
    each feature to [``low``, ``high``] (default [0, 1]) by the overflow-safe
    formula of ting2021 App. B (halves first, clipped; constant features go to
    ``low``; all constant is an error). It differs from ``minmax`` in the last
    bit of some values, which is why both are kept: each view's numbers stay
    what they were;
``origin``
    append the origin as one more point, labelled ``label`` (default -1), and
    note its row in :attr:`Prepared.origin`;
``split``
    hold out ``test_size`` of the rows (default 0.2), stratified, with ``seed``
    (scikit-learn's ``train_test_split``);
``fresh-test``
    a test sample drawn from the same generator with ``seed`` and the
    generator options given (e.g. ``n=20000``);
``minmax-train``
    min-max scaling fitted on the training rows only, the test rows clipped to
    ``clip`` (default (-0.5, 1.5));
``tsne``
    the 2-D openTSNE embedding (perplexity 30, ``seed``) scaled to [-1, 1]²
    (ting2018 Fig. 4c-d's view of real data); it reports its iterations to
    :func:`resolve`'s ``progress``, the one step slow enough to;
``read-only``
    C-contiguous arrays that refuse writes (safe to share between threads).

A real data set, once read and put through its leading steps that depend on
its rows alone (``minmax``, ``standard``, ``libsvm``, ``rescale``), is held
read-only in one bounded cache of the process (:data:`HELD_BYTES`, least
recently used out first, under a lock; two threads asking for one set at once
read it once), so every stream, order or subsample of it reuses the one read
and scaling. A description without a ``read-only`` step gets writable copies;
with one, the arrays that no later step changed are the held ones themselves.
Generators are not held (a seed makes new data).

Examples
--------
>>> from ikviz.data.description import Data, resolve, step
>>> d = Data("iris", seed=3, steps=("rescale", step("subsample", n=100)))
>>> got = resolve(d)
>>> got.X.shape, float(got.X.min()), float(got.X.max())
((100, 4), 0.0, 1.0)
>>> resolve(Data("w-gaussians", options={"n_per_cluster": 5, "w": 2}, steps=("origin",))).y.tolist()
[0, 0, 0, 0, 0, 1, 1, 1, 1, 1, -1]
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from functools import partial
from numbers import Integral
from typing import Any

import numpy as np
from cachetools import LRUCache

from .clusters import dense_sparse_clusters
from .density_ratio import density_ratio
from .real import dataset_info, dataset_names, load_dataset
from .synthetic import four_quadrants, uniform, w_gaussians

__all__ = ["CALLER_SOURCES", "Data", "HELD_BYTES", "JOINED", "LOADERS", "Prepared", "STEPS", "Step", "loader",
           "read_source", "resolve", "step"]


# ------------------------------------------------------------------------------------------- loaders
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


def _about(title: str, X: np.ndarray, n_classes: int, *notes: str) -> dict[str, Any]:
    """What a data set says about itself (:attr:`Prepared.about`): its columns are named x1..xd, its classes by
    their codes (a bundled file keeps no other names)."""
    return {"title": title, "columns": tuple(f"x{j + 1}" for j in range(X.shape[1])),
            "classes": tuple(str(c) for c in range(n_classes)), "notes": notes}


def _real(name, seed, **options):
    if options:
        raise TypeError(f"the real data set {name!r} takes no options; got {sorted(options)}.")
    X, y = load_dataset(name)
    info = dataset_info(name)
    return X, y, _about(info.title, X, info.n_classes, f"licence: {info.licence}")


#: data sets stacked from others, in order (lu2016's ijcnn1: the fetched training and test files, 141,691 rows;
#: a9a's two bundled files are ``a9a-full`` of :data:`ikviz.data.DATASETS`)
JOINED: dict[str, tuple[str, ...]] = {"ijcnn1-full": ("ijcnn1", "ijcnn1-test")}


def _joined(name, seed, **options):
    if options:
        raise TypeError(f"the real data set {name!r} takes no options; got {sorted(options)}.")
    parts = [_real(part, seed) for part in JOINED[name]]
    X = np.concatenate([X for X, _, _ in parts])
    titles = [about["title"] for _, _, about in parts]
    return X, np.concatenate([y for _, y, _ in parts]), _about(
        " + ".join(titles), X, max(len(about["classes"]) for _, _, about in parts),
        f"the rows of {', then '.join(JOINED[name])}", *dict.fromkeys(n for *_, a in parts for n in a["notes"]))


def _upload(seed, *, memo=None, **options):
    from .upload import load_upload

    return load_upload(seed, memo=memo, **options)


def _server_file(seed, **options):
    from .files import load_server_file

    return load_server_file(seed, **options)


#: the sources that hold a caller's own data (a session's upload, a file on the server the user typed): never held
#: in the process's cache, read as a block of the caller's memo when :func:`resolve` is given one
CALLER_SOURCES: dict[str, Callable] = {"upload": _upload, "server-file": _server_file}

#: the generators: name -> function(seed, **options) -> (X, y)
GENERATORS: dict[str, Callable] = {
    "uniform": _uniform,
    "four-quadrants": _quadrants,
    "w-gaussians": _w_gaussians,
    "density-ratio": _density_ratio,
    "dense-sparse-clusters": _clusters,
}
#: every source a :class:`Data` may name -> function(seed, **options) -> (X, y) or (X, y, about), ``about`` a
#: mapping of what the source says about itself (:attr:`Prepared.about`): the generators, then the bundled data
#: sets, then the paper-size ones (fetched or joined; read only when resolved), then a caller's own data
#: (:data:`CALLER_SOURCES`: an upload, a file on the server)
LOADERS: dict[str, Callable] = {
    **GENERATORS,
    **{name: partial(_real, name) for name in dataset_names() + dataset_names(fetched=True) if name not in GENERATORS},
    **{name: partial(_joined, name) for name in JOINED},
    **CALLER_SOURCES,
}


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


def loader(name: str) -> Callable:
    """The loader of source ``name`` (any spelling :func:`canonical_name` accepts), from :data:`LOADERS`.

    Examples
    --------
    >>> from ikviz.data.description import loader
    >>> X, y = loader("W_Gaussians")(0, n_per_cluster=3, w=2)
    >>> X.shape
    (6, 4)
    """
    key = canonical_name(name)
    if key not in LOADERS:
        raise ValueError(f"name must be one of {list(LOADERS)}; got {name!r}.")
    return LOADERS[key]


# ----------------------------------------------------------------------------------- what is resolved
@dataclass
class Prepared:
    """The arrays a :class:`Data` resolves to.

    ``X_test`` and ``y_test`` are set by a ``split`` or ``fresh-test`` step
    (``X`` and ``y`` are then the training rows); ``origin`` is the row of the
    point an ``origin`` step appended.

    ``about`` is what the source said about itself, as its loader returned it
    (empty when it said nothing, as the generators): plain keys, each optional,
    ``title`` (str), ``columns`` (one name per column of ``X``), ``classes``
    (one name per class code of ``y``) and ``notes`` (tuple of str). The
    bundled and fetched data sets fill all four; a step that changes the
    columns renames them (``tsne``), one that draws rows adds its note
    (``stratified``). An upload also says what
    :class:`~ikviz.data.upload.UserData` carries (``label``, ``task``:
    "classification", "regression" or None, ``missing``, ``fingerprint``,
    ``file``, ``values``: every column as read, row by row), a file on the
    server its ``row_index`` and ``of_rows`` (see
    :func:`ikviz.data.upload.user_data`). Each :func:`resolve` gets its own dict.

    ``y`` is None for a source without a label (an upload without a label column).

    Examples
    --------
    >>> got = Data("iris", seed=0, steps=(step("split", test_size=0.2),)).resolve()
    >>> got.X.shape, got.X_test.shape, got.origin
    ((120, 4), (30, 4), None)
    >>> got.about["columns"], got.about["classes"]
    (('x1', 'x2', 'x3', 'x4'), ('0', '1', '2'))
    """

    X: np.ndarray
    y: np.ndarray
    X_test: np.ndarray | None = None
    y_test: np.ndarray | None = None
    origin: int | None = None
    about: dict[str, Any] = field(default_factory=dict)


# -------------------------------------------------------------------------------------------- steps
def _subsample(got: Prepared, data: Data, *, n: int, seed: int | None = None) -> Prepared:
    if isinstance(n, bool) or not isinstance(n, Integral) or n < 1:
        raise ValueError(f"subsample's n must be an integer >= 1; got {n!r}.")
    if len(got.X) <= n:
        return got
    keep = np.sort(np.random.default_rng(data.seed if seed is None else seed).choice(len(got.X), int(n),
                                                                                     replace=False))
    return replace(got, X=got.X[keep], y=None if got.y is None else got.y[keep])


def _stratified(got: Prepared, data: Data, *, n: int, seed: int | None = None) -> Prepared:
    from .upload import stratified_rows, subsample_note

    if isinstance(n, bool) or not isinstance(n, Integral) or n < 1:
        raise ValueError(f"stratified's n must be an integer >= 1; got {n!r}.")
    seed = data.seed if seed is None else seed
    rows = len(got.X)
    keep = stratified_rows(got.y, got.about.get("classes", ()), got.about.get("task"), rows, int(n), seed)
    if keep is None:
        return got
    about = {**got.about, "notes": (*got.about.get("notes", ()), subsample_note(int(n), rows, seed))}
    if "values" in about:
        about["values"] = {k: v[keep] for k, v in about["values"].items()}
    return replace(got, X=got.X[keep], y=None if got.y is None else got.y[keep], about=about)


def _stream(got: Prepared, data: Data, *, n: int | None = None, seed: int | None = None) -> Prepared:
    if n is not None and (isinstance(n, bool) or not isinstance(n, Integral) or n < 1):
        raise ValueError(f"stream's n must be an integer >= 1 or None (every row); got {n!r}.")
    order = np.random.default_rng(data.seed if seed is None else seed).permutation(len(got.X))[:n]
    return replace(got, X=got.X[order], y=None if got.y is None else got.y[order])


def _minmax(got: Prepared, data: Data) -> Prepared:
    from sklearn.preprocessing import minmax_scale

    return replace(got, X=minmax_scale(got.X))


def _standard(got: Prepared, data: Data) -> Prepared:
    from sklearn.preprocessing import scale

    return replace(got, X=scale(got.X))


def _libsvm(got: Prepared, data: Data) -> Prepared:
    if data.source == "mnist-test":
        return replace(got, X=got.X / 255.0)
    if data.source == "letter":
        return replace(got, X=2.0 * _minmax(got, data).X - 1.0)
    return got


def _rescale(got: Prepared, data: Data, *, low: float = 0.0, high: float = 1.0) -> Prepared:
    if not low < high:
        raise ValueError(f"rescale needs low < high; got low={low!r}, high={high!r}.")
    X = got.X
    lo, hi = X.min(axis=0), X.max(axis=0)
    half_span = hi / 2 - lo / 2  # halves first: hi - lo overflows for columns spanning more than the float range
    live = half_span > 0
    if not np.any(live):
        raise ValueError("every feature is constant, so all points are identical; there is nothing to scale.")
    unit = np.zeros_like(X)
    unit[:, live] = np.clip((X[:, live] / 2 - lo[live] / 2) / half_span[live], 0.0, 1.0)
    return replace(got, X=unit if (low, high) == (0.0, 1.0) else low + (high - low) * unit)


def _origin(got: Prepared, data: Data, *, label: int = -1) -> Prepared:
    X = np.vstack([got.X, np.zeros((1, got.X.shape[1]))])
    return replace(got, X=X, y=np.append(got.y, label), origin=len(X) - 1)


def _split(got: Prepared, data: Data, *, test_size: float = 0.2, seed: int | None = None) -> Prepared:
    from sklearn.model_selection import train_test_split

    X, X_test, y, y_test = train_test_split(got.X, got.y, test_size=test_size, stratify=got.y,
                                            random_state=data.seed if seed is None else seed)
    return replace(got, X=X, y=y, X_test=X_test, y_test=y_test)


def _fresh_test(got: Prepared, data: Data, *, seed: int, **options) -> Prepared:
    if data.source not in GENERATORS:
        raise ValueError(f"a fresh test sample needs a generator; {data.source!r} is a data set: use 'split'.")
    X_test, y_test = _arrays(*GENERATORS[data.source](seed, **{**dict(data.options), **options}))
    return replace(got, X_test=X_test, y_test=y_test)


def _minmax_train(got: Prepared, data: Data, *, clip: tuple[float, float] = (-0.5, 1.5)) -> Prepared:
    from sklearn.preprocessing import MinMaxScaler

    if got.X_test is None:
        raise ValueError("minmax-train scales on the training rows: put a 'split' or 'fresh-test' step before it.")
    scaler = MinMaxScaler().fit(got.X)
    return replace(got, X=scaler.transform(got.X), X_test=np.clip(scaler.transform(got.X_test), *clip))


class _Iterations:
    """openTSNE callback: ``progress(fraction, "iteration i of n")`` every time it is called (every ``every``
    iterations of both phases); never stops the optimisation, never changes it."""

    def __init__(self, progress, every: int, total: int):
        self.progress, self.every, self.total, self.done = progress, every, total, 0

    def __call__(self, iteration, error, embedding) -> bool:
        self.done = min(self.total, self.done + self.every)
        self.progress(self.done / self.total, f"iteration {self.done} of {self.total}")
        return False


def _tsne(got: Prepared, data: Data, *, seed: int | None = None, progress=None) -> Prepared:
    from openTSNE import TSNE
    from sklearn.preprocessing import minmax_scale

    if len(got.X) < 10:
        raise ValueError(f"n must be at least 10 points for a t-SNE view; got {len(got.X)}.")
    seed = data.seed if seed is None else seed
    reports = {}
    if progress is not None:   # openTSNE's default schedule: 250 iterations with exaggeration, then 500
        reports = {"callbacks": _Iterations(progress, 25, 250 + 500), "callbacks_every_iters": 25}
        progress(0.0, "nearest neighbours and affinities")
    Z = np.asarray(TSNE(n_components=2, perplexity=30, random_state=int(seed), n_jobs=2, **reports).fit(got.X))
    about = {**got.about, "columns": ("t-SNE 1", "t-SNE 2")} if "columns" in got.about else got.about
    return replace(got, X=minmax_scale(Z, feature_range=(-1, 1)), about=about)


def _read_only(got: Prepared, data: Data) -> Prepared:
    out = {}
    for name in ("X", "y", "X_test", "y_test"):
        a = getattr(got, name)
        if a is not None:
            a = np.ascontiguousarray(a)
            a.flags.writeable = False
            out[name] = a
    return replace(got, **out)


#: step name -> function(prepared, data, **options) -> prepared; see the module docstring
STEPS: dict[str, Callable] = {
    "subsample": _subsample,
    "stratified": _stratified,
    "stream": _stream,
    "minmax": _minmax,
    "standard": _standard,
    "libsvm": _libsvm,
    "rescale": _rescale,
    "origin": _origin,
    "split": _split,
    "fresh-test": _fresh_test,
    "minmax-train": _minmax_train,
    "tsne": _tsne,
    "read-only": _read_only,
}


def _pairs(options: Mapping | tuple, what: str) -> tuple[tuple[str, Any], ...]:
    """Options as a sorted tuple of (name, value) pairs: hashable, one spelling for one meaning."""
    items = options.items() if isinstance(options, Mapping) else options
    pairs = []
    for name, value in items:
        if isinstance(value, list):
            value = tuple(value)
        pairs.append((str(name), value))
    names = [n for n, _ in pairs]
    if len(set(names)) != len(names):
        raise ValueError(f"{what} names an option twice: {names}.")
    return tuple(sorted(pairs))


@dataclass(frozen=True)
class Step:
    """One named preparation step of :data:`STEPS` and its options (see :func:`step`).

    Examples
    --------
    >>> Step("subsample", (("n", 10),)) == step("subsample", n=10)
    True
    >>> Step("shuffle")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: unknown step 'shuffle'; choose one of [...].
    """

    name: str
    options: tuple[tuple[str, Any], ...] = ()

    def __post_init__(self):
        if self.name not in STEPS:
            raise ValueError(f"unknown step {self.name!r}; choose one of {list(STEPS)}.")
        object.__setattr__(self, "options", _pairs(self.options, f"step {self.name!r}"))


def step(name: str, **options) -> Step:
    """The preparation step ``name`` with ``options``.

    Examples
    --------
    >>> from ikviz.data.description import step
    >>> step("subsample", n=100, seed=3)
    Step(name='subsample', options=(('n', 100), ('seed', 3)))
    """
    return Step(name, options)


@dataclass(frozen=True)
class Data:
    """Which data, and prepared how: a source of :data:`LOADERS`, its options, a seed and ordered steps.

    Parameters
    ----------
    source : str
        A generator, bundled or fetched data set (any spelling :func:`canonical_name` accepts), ``upload`` or
        ``server-file``.
    seed : int, default=0
        The generator's seed, and the seed of the steps that draw without one of their own.
    options : mapping or tuple of pairs, default=()
        The generator's own parameters (``n``, ``d``, ``w``, ``n_per_cluster``...), an upload's file and column
        choices, a server file's path, label and rows; kept as sorted pairs.
    steps : tuple of str or Step, default=()
        Run in this order; a bare name is the step without options.

    Examples
    --------
    >>> from ikviz.data.description import Data
    >>> Data("W_Gaussians", options={"w": 2}, steps=("minmax",))
    Data(source='w-gaussians', seed=0, options=(('w', 2),), steps=(Step(name='minmax', options=()),))
    """

    source: str
    seed: int = 0
    options: tuple[tuple[str, Any], ...] = ()
    steps: tuple[Step, ...] = ()

    def __post_init__(self):
        object.__setattr__(self, "source", canonical_name(self.source))
        if isinstance(self.seed, bool) or not isinstance(self.seed, Integral) or self.seed < 0:
            raise ValueError(f"seed must be an integer >= 0; got {self.seed!r}.")
        object.__setattr__(self, "seed", int(self.seed))
        object.__setattr__(self, "options", _pairs(self.options, f"data {self.source!r}"))
        if isinstance(self.steps, (str, Step)):
            raise ValueError(f"steps must be a tuple of steps; got {self.steps!r} (write ({self.steps!r},)).")
        object.__setattr__(self, "steps", tuple(s if isinstance(s, Step) else Step(s) for s in self.steps))

    def resolve(self, *, memo=None, progress=None) -> Prepared:
        """The arrays this describes (:func:`resolve`; ``memo``: the caller's, for an upload or a server file;
        ``progress``: what a slow step reports).

        Examples
        --------
        >>> from ikviz.data import Data
        >>> Data("uniform", options={"n": 5, "d": 3}).resolve().X.shape
        (5, 3)
        """
        return resolve(self, memo=memo, progress=progress)


def _arrays(X, y) -> tuple[np.ndarray, np.ndarray | None]:
    return np.asarray(X, dtype=np.float64), None if y is None else np.asarray(y)


def _loaded(got) -> Prepared:
    """A loader's ``(X, y)`` or ``(X, y, about)`` as a :class:`Prepared`."""
    X, y, *about = got
    if len(about) > 1 or (about and not isinstance(about[0], Mapping)):
        raise TypeError("a loader returns (X, y) or (X, y, about) with about a mapping; got "
                        f"{len(about) + 2} items.")
    return Prepared(*_arrays(X, y), about=dict(about[0]) if about else {})


#: bytes of real data sets held read-only between resolves: one paper-size set (MNIST's test set, 63 MB) or
#: several smaller ones (a9a's two files, 48 MB); a set larger than this is read each time, never held
HELD_BYTES = 64 * 2**20


class _Held:
    """Real data sets as read (and scaled), read-only, in an LRU bounded by bytes; one read of a set at a time.

    The store's worker threads resolve descriptions at once: the cache and the
    table of reads in flight change only under ``_lock``; a read runs outside it,
    under its key's own gate, so a second thread asking for the same set waits
    for that read and another set's read is not held up.
    """

    def __init__(self, max_bytes: int):
        self._lock = threading.Lock()
        self._sets = LRUCache(maxsize=max_bytes, getsizeof=lambda got: got.X.nbytes + got.y.nbytes)
        self._reading: dict[Any, threading.Lock] = {}

    def get(self, key, read: Callable[[], Prepared]) -> Prepared:
        """The set held under ``key``, or ``read()`` (X and y made read-only), held; ``about`` a copy of its own."""
        with self._lock:
            if key in self._sets:
                return _own(self._sets[key])
            gate = self._reading.setdefault(key, threading.Lock())
        with gate:
            with self._lock:
                if key in self._sets:  # read by the thread this one waited for
                    return _own(self._sets[key])
            try:
                got = read()
                X, y = (np.ascontiguousarray(a) for a in _arrays(got.X, got.y))
                X.flags.writeable = y.flags.writeable = False
                got = Prepared(X, y, about=dict(got.about))
                with self._lock:
                    try:
                        self._sets[key] = got
                    except ValueError:  # larger than the whole bound: handed out, not held
                        pass
            finally:
                with self._lock:
                    self._reading.pop(key, None)
        return _own(got)

    def clear(self) -> None:
        with self._lock:
            self._sets.clear()

    def held(self) -> list:
        """The keys held, (source, leading steps), least recently used first."""
        with self._lock:
            return list(self._sets)


def _own(held: Prepared) -> Prepared:
    return replace(held, about=dict(held.about))  # the arrays shared (read-only), the dict a caller's own


_HELD = _Held(HELD_BYTES)
#: the sources :data:`_HELD` may hold: the bundled, fetched and joined data sets (a generator's rows change with
#: its seed; nothing else, an upload least of all, belongs in a cache of the process)
_REAL = frozenset(LOADERS) - frozenset(GENERATORS) - frozenset(CALLER_SOURCES)
#: the steps whose result depends on the rows alone (no seed, no other data): a real set is held after them
_OF_ROWS = frozenset({"minmax", "standard", "libsvm", "rescale"})


def read_source(source: str, seed: int = 0, options: tuple = (), *, memo=None) -> Prepared:
    """Source ``source``'s loader (:data:`LOADERS`) with ``seed`` and ``options``, its arrays read-only: the block
    :func:`resolve` asks a caller's memo for (an upload parsed once per file and choices, in that memo only).
    ``memo`` (handed on by the memo itself) goes to a loader that takes one: an upload's parse is a block of it,
    shared with the Your data page's inspection of the same file (:func:`ikviz.data.upload.parse_upload`).

    Examples
    --------
    >>> from ikviz.data.description import read_source
    >>> got = read_source("uniform", 0, (("n", 4),))
    >>> got.X.shape, got.X.flags.writeable
    ((4, 2), False)
    """
    from ..runner import call_block

    got = _loaded(call_block(loader(source), (seed,), dict(options), memo, None))
    for a in (got.X, got.y):
        if a is not None:
            a.flags.writeable = False
    return got


def _start(data: Data, memo=None) -> tuple[Prepared, tuple[Step, ...]]:
    """``data``'s source and the steps left to run: a real set from :data:`_HELD` as read, or after its leading
    row-only steps (read-only arrays; both held, LRU); a caller's source (:data:`CALLER_SOURCES`) as a block of
    ``memo`` when given (read-only arrays, the memo's); a generator's arrays fresh, every step left."""
    def read():
        return _loaded(loader(data.source)(data.seed, **dict(data.options)))

    if data.source in CALLER_SOURCES and memo is not None:
        return _own(memo(read_source)(data.source, data.seed, data.options)), data.steps

    if data.source not in _REAL or data.options:  # a real set with options: its loader says what is wrong
        return read(), data.steps
    k = 0
    while k < len(data.steps) and data.steps[k].name in _OF_ROWS:
        k += 1
    lead = data.steps[:k]

    def scaled():
        got = _HELD.get((data.source, ()), read)
        for s in lead:
            got = STEPS[s.name](got, data, **dict(s.options))
        return got

    return (_HELD.get((data.source, lead), scaled) if lead else _HELD.get((data.source, ()), read)), data.steps[k:]


#: the steps that report their progress to :func:`resolve`'s ``progress``
_REPORTING = frozenset({"tsne"})


def resolve(data: Data, *, memo=None, progress=None) -> Prepared:
    """The arrays ``data`` describes: its source's loader, then each step in the order declared.

    Parameters
    ----------
    data : Data
    memo : callable, optional
        The caller's memo (:mod:`ikviz.runner`: ``memo(fn)(*args)``, e.g. the app's store for one session): an
        upload or a file on the server (:data:`CALLER_SOURCES`) is read as its block :func:`read_source`, once per
        file and options, and held where the memo holds it, never in the process's cache. Other sources ignore it.
    progress : callable, optional
        ``progress(fraction, text)`` (:mod:`ikviz.runner`), handed to the steps that report theirs: the ``tsne``
        step, at every 25 of its 750 iterations (0 to 1 over that step).

    Returns
    -------
    Prepared
        ``X`` (float64) and ``y``, what the steps added (test rows, the origin's row) and what the source
        said about itself (``about``).

    Examples
    --------
    >>> from ikviz.data.description import Data, resolve, step
    >>> got = resolve(Data("density-ratio", seed=1, options={"n": 100},
    ...                    steps=(step("split", test_size=0.25),)))
    >>> got.X.shape, got.X_test.shape
    ((75, 2), (25, 2))
    """
    if not isinstance(data, Data):
        raise TypeError(f"resolve takes a Data description; got {type(data).__name__}.")
    loader(data.source)  # an unknown name is refused before anything is read
    got, steps = _start(data, memo)
    for s in steps:
        options = dict(s.options)
        if progress is not None and s.name in _REPORTING:
            options["progress"] = progress
        got = STEPS[s.name](got, data, **options)
    if all(s.name != "read-only" for s in data.steps):  # the held arrays (or views of them) as writable copies
        got = replace(got, **{name: np.array(a) for name in ("X", "y", "X_test", "y_test")
                              if (a := getattr(got, name)) is not None and not a.flags.writeable})
    return got
