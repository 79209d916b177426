"""The papers' data files that are too large to bundle, fetched as users fetch data.

:func:`fetch` returns the local path of a registered file (:data:`FILES`:
canonical URL and SHA-256 of each). It looks in this order:

1. the folder named by ``IKVIZ_DATA_MIRROR`` (tests and CI point it at
   ``../shared/datasets``, so nothing needs the network);
2. the cache folder (``IKVIZ_DATA_CACHE``, or the user's cache folder,
   ``pooch.os_cache("ikviz")``);
3. the file's URL, downloaded by `pooch <https://www.fatiando.org/pooch>`_
   into a temporary file that becomes the cached file only once its SHA-256
   matches, so a failed or truncated download leaves nothing in the cache.

Every file is checked against its SHA-256 wherever it comes from; a mismatch,
a failed download or no network and no mirror raise :class:`FetchError`
naming the file, the expected checksum and the mirror variable.

:data:`UNAVAILABLE` lists the datasets the papers use that cannot be obtained
here, with their sources: claims on them say "data not available here".

Readers: :func:`read_libsvm` (LIBSVM/svmlight text, plain, ``.gz`` or ``.bz2``)
and :func:`read_idx` (MNIST's IDX format, plain or ``.gz``).
"""

from __future__ import annotations

import gzip
import hashlib
import os
from dataclasses import dataclass
from pathlib import Path

import numpy as np

__all__ = ["FILES", "UNAVAILABLE", "MIRROR_ENV", "CACHE_ENV", "FetchError", "RemoteFile", "Unavailable",
           "cache_dir", "fetch", "file_sha256", "read_idx", "read_libsvm"]

#: a folder searched first for every file (no network needed when it holds them)
MIRROR_ENV = "IKVIZ_DATA_MIRROR"
#: the cache folder, if not the user's cache folder
CACHE_ENV = "IKVIZ_DATA_CACHE"

_TICK = "https://raw.githubusercontent.com/X-DataInitiative/tick-datasets/9d959b6e53e17145e93e9849ff1f9f6d2de8ae51"
_KELAS = "https://raw.githubusercontent.com/kelas/mnist/283b387221ab46655e600cfcc25d843bb14292b9"
_LIBSVM = "https://www.csie.ntu.edu.tw/~cjlin/libsvmtools/datasets"


@dataclass(frozen=True)
class RemoteFile:
    """One fetchable file: its name, canonical URL, SHA-256 and what it holds.

    Examples
    --------
    >>> from ikviz.data.fetch import FILES
    >>> FILES["ijcnn1.trn.bz2"].rows
    49990
    """

    name: str
    url: str
    sha256: str
    what: str
    rows: int


@dataclass(frozen=True)
class Unavailable:
    """A dataset a paper uses that cannot be obtained here, and where it comes from.

    Examples
    --------
    >>> from ikviz.data.fetch import UNAVAILABLE
    >>> UNAVAILABLE["covtype"].url.startswith("https://")
    True
    """

    name: str
    url: str
    used_in: str
    why: str = "not obtainable here (no copy within the size limits of the stored sources)"


FILES: dict[str, RemoteFile] = {f.name: f for f in (
    RemoteFile("ijcnn1.trn.bz2", f"{_TICK}/binary/ijcnn1/ijcnn1.trn.bz2",
               "b38a4198ce142d43e96fb86d17b87211feec1f909ac344fa057455c69de29de3",
               "IJCNN 2001 training set, LIBSVM format, 22 features (LIBSVM's ijcnn1.tr + ijcnn1.val)", 49_990),
    RemoteFile("ijcnn1.tst.bz2", f"{_TICK}/binary/ijcnn1/ijcnn1.tst.bz2",
               "acd1db430684fdd3f0c768ecc49aa8e749d0004fc117611220c2aa576a7b6a24",
               "IJCNN 2001 test set, LIBSVM format, 22 features (LIBSVM's ijcnn1.t)", 91_701),
    RemoteFile("mnist-t10k-images-idx3-ubyte.gz", f"{_KELAS}/t10k-images-idx3-ubyte.gz",
               "167310007f03058885c7e95e6c0b19c20de5c7fd3031f4cbdadc9014a523d80b",
               "MNIST test images, IDX, 28x28 uint8 (re-gzipped copy of LeCun's file)", 10_000),
    RemoteFile("mnist-t10k-labels-idx1-ubyte.gz", f"{_KELAS}/t10k-labels-idx1-ubyte.gz",
               "fc607395669ec21321ea83e4b82c0544b7e8e63ff5b34337c06bc0a17cc0da3c",
               "MNIST test labels, IDX, uint8", 10_000),
)}

UNAVAILABLE: dict[str, Unavailable] = {u.name: u for u in (
    Unavailable("mnist-train", "http://yann.lecun.com/exdb/mnist/", "wang2017, lu2016, ting2021",
                "MNIST's 60,000-row training set: the stored copies are over the snapshot size limit"),
    Unavailable("news20", f"{_LIBSVM}/binary.html#news20.binary", "ting2021 Tables 2-4, wang2017"),
    Unavailable("rcv1", f"{_LIBSVM}/binary.html#rcv1.binary", "ting2021 Tables 2-4"),
    Unavailable("real-sim", f"{_LIBSVM}/binary.html#real-sim", "ting2021 Tables 2-4"),
    Unavailable("url", f"{_LIBSVM}/binary.html#url", "ting2021 Tables 2-4"),
    Unavailable("covtype", f"{_LIBSVM}/binary.html#covtype.binary", "ting2018 Table 3, lu2016 Tables 2-5"),
    Unavailable("gisette", f"{_LIBSVM}/binary.html#gisette", "wang2017 Table 3"),
    Unavailable("cod-rna", f"{_LIBSVM}/binary.html#cod-rna", "lu2016 Tables 4-5"),
    Unavailable("w7a", f"{_LIBSVM}/binary.html#w7a", "lu2016 Tables 4-5"),
    Unavailable("w8a", f"{_LIBSVM}/binary.html#w8a", "lu2016 Tables 4-5"),
    Unavailable("kddcup08", "https://www.kdd.org/kdd-cup/view/kdd-cup-2008", "lu2016 Tables 4-5"),
    Unavailable("kddcup99", "https://kdd.ics.uci.edu/databases/kddcup99/kddcup99.html", "lu2016 Tables 2-3"),
    Unavailable("acoustic", f"{_LIBSVM}/multiclass.html#acoustic", "lu2016 Tables 6-7"),
    Unavailable("dna", f"{_LIBSVM}/multiclass.html#dna", "lu2016 Tables 6-7"),
    Unavailable("satimage", f"{_LIBSVM}/multiclass.html#satimage", "lu2016 Tables 6-7"),
    Unavailable("usps", f"{_LIBSVM}/multiclass.html#usps", "lu2016 Tables 6-7"),
    Unavailable("shuttle", f"{_LIBSVM}/multiclass.html#shuttle", "lu2016 Tables 6-7"),
    Unavailable("poker", f"{_LIBSVM}/multiclass.html#poker", "lu2016 Tables 6-7"),
    Unavailable("lu2016-regression", f"{_LIBSVM}/regression.html", "lu2016 Tables 8-9, Figs. 5-6",
                "lu2016's nine regression sets (its Table 8) are not among the stored sources"),
    Unavailable("cifar10", "https://www.cs.toronto.edu/~kriz/cifar.html", "ting2021 Tables 2-3"),
    Unavailable("aloi", f"{_LIBSVM}/multiclass.html#aloi", "wang2017 Tables 5-6"),
)}


class FetchError(ValueError):
    """A file could not be fetched or failed its checksum; the message says which file and how to fix it.

    Examples
    --------
    >>> from ikviz.data import FetchError
    >>> issubclass(FetchError, ValueError)
    True
    """


def cache_dir() -> Path:
    """The folder fetched files are cached in: ``IKVIZ_DATA_CACHE``, or the user's cache folder.

    Examples
    --------
    >>> from ikviz.data.fetch import cache_dir
    >>> cache_dir().name in ("ikviz", "Cache") or "IKVIZ_DATA_CACHE" in __import__("os").environ
    True
    """
    env = os.environ.get(CACHE_ENV)
    if env:
        return Path(env)
    try:
        import platformdirs
    except ImportError:  # pragma: no cover - platformdirs comes with pooch
        return Path.home() / ".cache" / "ikviz"
    return Path(platformdirs.user_cache_dir("ikviz"))


def file_sha256(path: str | Path) -> str:
    """The SHA-256 of the file at ``path``, as 64 hex digits.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "x"
    >>> _ = p.write_bytes(b"abc")
    >>> file_sha256(p)[:16]
    'ba7816bf8f01cfea'
    """
    digest = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def _downloader():
    """pooch's HTTP downloader (tests replace this function to simulate a failed or truncated download)."""
    import pooch

    return pooch.HTTPDownloader(progressbar=False, timeout=60)


def _hint(remote: RemoteFile) -> str:
    return (f"expected SHA-256 {remote.sha256}. Without network, put {remote.name} in a folder and set "
            f"{MIRROR_ENV} to that folder")


def fetch(name: str) -> Path:
    """The local path of registered file ``name``, checked against its SHA-256.

    Parameters
    ----------
    name : str
        One of :data:`FILES`.

    Returns
    -------
    path : pathlib.Path
        In the mirror folder (``IKVIZ_DATA_MIRROR``) if it holds the file,
        else in :func:`cache_dir` (downloaded there once).

    Raises
    ------
    FetchError
        For a file whose checksum does not match, a failed download, or no
        network and no mirror; the message names the file, the expected
        SHA-256 and ``IKVIZ_DATA_MIRROR``. Nothing partial is left in the cache.
    ValueError
        For an unknown name, listing the registered ones.

    Examples
    --------
    >>> from ikviz.data.fetch import fetch
    >>> fetch("ijcnn1.trn.bz2").name          # doctest: +SKIP
    'ijcnn1.trn.bz2'
    """
    if name not in FILES:
        raise ValueError(f"unknown file {name!r}; name must be one of: {', '.join(FILES)}.")
    remote = FILES[name]
    mirror = os.environ.get(MIRROR_ENV)
    if mirror:
        path = Path(mirror) / remote.name
        if path.is_file():
            got = file_sha256(path)
            if got != remote.sha256:
                raise FetchError(f"{path} (in {MIRROR_ENV}) has SHA-256 {got}, not the expected {remote.sha256}: "
                                 f"the file is truncated or another version; replace it with {remote.url}.")
            return path
    folder = cache_dir()
    target = folder / remote.name
    if target.is_file():
        if file_sha256(target) == remote.sha256:
            return target
        target.unlink()   # a damaged copy from an earlier run: fetch it again
    try:
        import pooch
    except ImportError as exc:
        raise FetchError(f"{remote.name} is not in the cache ({folder}) and downloading needs the pooch package "
                         f"(pip install pooch); {_hint(remote)}.") from exc
    before = set(folder.iterdir()) if folder.is_dir() else set()
    try:
        pooch.retrieve(remote.url, known_hash=f"sha256:{remote.sha256}", fname=remote.name, path=folder,
                       downloader=_downloader(), progressbar=False)
    except Exception as exc:  # network errors, HTTP errors, a checksum mismatch: one clear message
        for stray in (set(folder.iterdir()) if folder.is_dir() else set()) - before:
            stray.unlink(missing_ok=True)
        raise FetchError(f"could not fetch {remote.name} from {remote.url} ({type(exc).__name__}: {exc}); "
                         f"{_hint(remote)}.") from exc
    return target


def read_libsvm(path: str | Path, n_features: int):
    """Read a LIBSVM/svmlight file (plain, ``.gz`` or ``.bz2``) as ``(X, y)``: sparse CSR features, labels.

    scikit-learn's reader, the one the bundled LIBSVM files and uploads use;
    always pass ``n_features`` (a test file may never use the last feature).

    Examples
    --------
    >>> import bz2, tempfile, pathlib
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "tiny.svm.bz2"
    >>> _ = p.write_bytes(bz2.compress(b"+1 1:0.5 3:1\\n-1 2:2\\n"))
    >>> X, y = read_libsvm(p, n_features=3)
    >>> X.toarray().tolist(), y.tolist()
    ([[0.5, 0.0, 1.0], [0.0, 2.0, 0.0]], [1.0, -1.0])
    """
    from sklearn.datasets import load_svmlight_file

    try:
        X, y = load_svmlight_file(str(path), n_features=n_features)
    except (ValueError, OSError, EOFError) as exc:
        raise ValueError(f"{path} could not be read as a LIBSVM file with {n_features} features: {exc}") from exc
    return X, y


_IDX_TYPES = {0x08: ">u1", 0x09: ">i1", 0x0B: ">i2", 0x0C: ">i4", 0x0D: ">f4", 0x0E: ">f8"}


def read_idx(path: str | Path) -> np.ndarray:
    """Read an IDX file (MNIST's format; plain or ``.gz``) as an array of its stored shape and type.

    Raises ``ValueError`` naming the file when the header is not IDX or the
    data are shorter or longer than the header says (a truncated file).

    Examples
    --------
    >>> import gzip, struct, tempfile, pathlib
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "tiny-idx3-ubyte.gz"
    >>> _ = p.write_bytes(gzip.compress(struct.pack(">BBBBiii", 0, 0, 8, 3, 2, 2, 2) + bytes(range(8))))
    >>> read_idx(p).tolist()
    [[[0, 1], [2, 3]], [[4, 5], [6, 7]]]
    """
    opener = gzip.open if str(path).endswith(".gz") else open
    try:
        with opener(path, "rb") as fh:
            raw = fh.read()
    except (OSError, EOFError) as exc:
        raise ValueError(f"{path} could not be read: {exc} (a truncated or damaged file?)") from exc
    if len(raw) < 4 or raw[0] != 0 or raw[1] != 0 or raw[2] not in _IDX_TYPES or raw[3] == 0:
        raise ValueError(f"{path} is not an IDX file (its first four bytes must be 0, 0, a type code, a rank).")
    rank = raw[3]
    if len(raw) < 4 + 4 * rank:
        raise ValueError(f"{path} is truncated: its header is incomplete.")
    shape = tuple(int(v) for v in np.frombuffer(raw, dtype=">i4", count=rank, offset=4))
    dtype = np.dtype(_IDX_TYPES[raw[2]])
    expected = int(np.prod(shape)) * dtype.itemsize
    body = len(raw) - 4 - 4 * rank
    if body != expected:
        raise ValueError(f"{path} holds {body:,} data bytes where its header {shape} says {expected:,}: "
                         "the file is truncated or damaged.")
    return np.frombuffer(raw, dtype=dtype, offset=4 + 4 * rank).reshape(shape).astype(dtype.newbyteorder("="))
