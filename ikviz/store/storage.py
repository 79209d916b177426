"""Where the results store keeps results: memory bounded in bytes, and a private, signed disk cache.

:class:`MemoryCache` is a :class:`cachetools.LRUCache` whose size is the
bytes of each value (its pickle's length, or an estimate). :class:`DiskCache`
is a :class:`diskcache.Cache` (SQLite, process-safe, least recently used
first beyond its byte budget) that only ever holds bytes: each value is
pickled here, prefixed with an HMAC-SHA256 under a secret kept in the folder
(``secret``, mode 0600), and verified before it is unpickled. The folder is
made mode 0700 and its files 0600; a folder that another user owns or can
write to is refused. A file or row planted in the folder is therefore never
unpickled: it fails the signature (diskcache's own pickled values are
refused too, see :class:`_BytesOnly`).
"""

from __future__ import annotations

import hashlib
import hmac
import os
import pickle
import secrets
import stat
from pathlib import Path

import numpy as np
from cachetools import LRUCache

__all__ = ["DiskCache", "MemoryCache", "UnsafeStoreFolder", "nbytes"]


def nbytes(value, _depth: int = 0) -> int:
    """Rough size of ``value`` when it cannot be pickled (arrays dominate every result here).

    Examples
    --------
    >>> import numpy as np
    >>> nbytes({"a": np.zeros(100)})
    850
    >>> nbytes(("x" * 1000, np.zeros(10)))
    1129
    """
    if isinstance(value, np.ndarray):
        return int(value.nbytes)
    if isinstance(value, (str, bytes, bytearray)):  # e.g. a figure's JSON (figures.built)
        return len(value) + 49
    if _depth > 4:
        return 64
    if isinstance(value, dict):
        return sum(nbytes(k, _depth + 1) + nbytes(v, _depth + 1) for k, v in value.items())
    if isinstance(value, (list, tuple, set, frozenset)):
        return sum(nbytes(v, _depth + 1) for v in value)
    if hasattr(value, "memory_usage") and hasattr(value, "columns"):  # a pandas table (an upload's parse)
        return int(value.memory_usage(index=True, deep=True).sum())
    if hasattr(value, "__dict__"):
        return nbytes(vars(value), _depth + 1)
    for attr in ("data", "indices", "indptr"):  # scipy sparse matrices
        if hasattr(value, attr) and isinstance(getattr(value, attr), np.ndarray):
            return sum(int(getattr(value, a).nbytes) for a in ("data", "indices", "indptr") if hasattr(value, a))
    return 64


class _LRU(LRUCache):
    """cachetools' LRU cache that tells its owner which values it drops."""

    def __init__(self, maxsize, getsizeof, dropped):
        super().__init__(maxsize=maxsize, getsizeof=getsizeof)
        self._dropped = dropped

    def popitem(self):
        key, entry = super().popitem()
        self._dropped(key, entry[0])
        return key, entry


def _referable(value) -> bool:
    """Whether a held value can stand for its key when passed on (not a number, string or other value
    Python may share between unrelated callers)."""
    return not isinstance(value, (int, float, complex, str, bytes, bool, type(None), tuple, frozenset))


class MemoryCache:
    """Values held in memory, at most ``max_bytes`` of them, the least recently used dropped first.

    Not locked: the store calls it under its own lock (every method is quick).
    :meth:`key_of` gives the key of a held value from the value itself, so a
    result passed on to another computation (a figure of it) is keyed by its
    key instead of being hashed again.

    Examples
    --------
    >>> cache = MemoryCache(max_bytes=100)
    >>> cache.put("a", "A", 60); cache.put("b", "B", 60)   # a goes: 120 > 100
    >>> cache.get("a"), cache.get("b"), cache.bytes
    ((False, None), (True, 'B'), 60)
    >>> value = [1, 2]
    >>> cache.put("c", value, 10); cache.key_of(value), cache.key_of([1, 2])
    ('c', None)
    """

    def __init__(self, max_bytes: int):
        self.max_bytes = int(max_bytes)
        self._ids: dict[int, str] = {}  # id of a held value -> its key (the value is alive while held)
        self._lru = _LRU(max(1, self.max_bytes), lambda entry: entry[1], self._forget)

    def _forget(self, key: str, value) -> None:
        if self._ids.get(id(value)) == key:
            del self._ids[id(value)]

    def get(self, key: str) -> tuple[bool, object]:
        """``(True, value)`` if held (now the most recently used), else ``(False, None)``."""
        entry = self._lru.get(key)
        return (False, None) if entry is None else (True, entry[0])

    def put(self, key: str, value, size: int) -> None:
        """Hold ``value`` as ``size`` bytes; a value larger than the whole bound is not held."""
        if size > self.max_bytes:
            return
        old = self._lru.get(key)
        if old is not None:
            self._forget(key, old[0])
        self._lru[key] = (value, max(1, int(size)))
        if key in self._lru and _referable(value):
            self._ids[id(value)] = key

    def key_of(self, value) -> str | None:
        """The key of ``value`` if this very object is held, else None."""
        return self._ids.get(id(value))

    def __contains__(self, key: str) -> bool:
        return key in self._lru

    def clear(self) -> None:
        self._lru.clear()
        self._ids.clear()

    @property
    def bytes(self) -> int:
        """Bytes held now (the sizes given to :meth:`put`)."""
        return int(self._lru.currsize)


class UnsafeStoreFolder(OSError):
    """The store folder is not this user's alone: results are not read from it nor written to it."""


def _private_folder(directory: Path) -> None:
    """Make ``directory`` (mode 0700) or check that it is this user's alone; raise :class:`UnsafeStoreFolder`."""
    directory.mkdir(parents=True, exist_ok=True, mode=0o700)
    info = directory.stat()
    if hasattr(os, "getuid") and info.st_uid != os.getuid():
        raise UnsafeStoreFolder(f"the results store folder {directory} belongs to another user")
    if stat.S_IMODE(info.st_mode) & 0o077:
        os.chmod(directory, 0o700)  # ours: closed to others (stores of earlier versions were 0755)


def _secret(directory: Path) -> bytes:
    """The store's signing key: ``directory/secret``, 32 random bytes made once, mode 0600."""
    path = directory / "secret"
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        info = path.lstat()
        if not stat.S_ISREG(info.st_mode) or (hasattr(os, "getuid") and info.st_uid != os.getuid()) \
                or stat.S_IMODE(info.st_mode) & 0o077:
            raise UnsafeStoreFolder(f"{path} is not a file that only this user can read") from None
        key = path.read_bytes()
        if len(key) < 32:
            raise UnsafeStoreFolder(f"{path} is too short to be a key this store made") from None
        return key
    key = secrets.token_bytes(32)
    with os.fdopen(fd, "wb") as out:
        out.write(key)
    return key


def _make_disk_class():
    """diskcache's :class:`~diskcache.Disk` that holds bytes only, in files of mode 0600."""
    import diskcache

    class _BytesOnly(diskcache.Disk):
        """Keys and values as stored bytes and text only: a pickled key or value (diskcache's mode for
        other objects, or a row planted in the database) is refused, never unpickled."""

        def get(self, key, raw):
            if not raw:
                raise UnsafeStoreFolder("a pickled key in the results store: refused")
            return super().get(key, raw)

        def store(self, value, read, key=diskcache.core.UNKNOWN):
            if not isinstance(value, bytes):
                raise TypeError("the results store keeps signed bytes only")
            size, mode, filename, db_value = super().store(value, read, key=key)
            if filename:  # e.g. "87/aa/….val": the file 0600, its two folders 0700
                os.chmod(os.path.join(self._directory, filename), 0o600)
                head = os.path.dirname(filename)
                while head:
                    os.chmod(os.path.join(self._directory, head), 0o700)
                    head = os.path.dirname(head)
            return size, mode, filename, db_value

        def fetch(self, mode, filename, value, read):
            if mode == diskcache.core.MODE_PICKLE:
                raise UnsafeStoreFolder("a pickled value in the results store: refused")
            return super().fetch(mode, filename, value, read)

    return _BytesOnly


class DiskCache:
    """Results kept in ``directory`` across restarts, at most ``max_bytes``, signed with the folder's secret.

    Parameters
    ----------
    directory : str or Path
        The folder (made mode 0700; refused with :class:`UnsafeStoreFolder`
        if it belongs to another user).
    max_bytes : int
        Bytes kept; beyond it the least recently read or written go first.

    Examples
    --------
    >>> import tempfile
    >>> disk = DiskCache(tempfile.mkdtemp(), max_bytes=1 << 20)
    >>> disk.put("k", [1, 2, 3])
    True
    >>> disk.get("k")
    (True, [1, 2, 3])
    >>> disk.get("other")
    (False, None)
    """

    def __init__(self, directory: str | Path, max_bytes: int = 2048 << 20):
        import diskcache

        self.directory = Path(directory)
        _private_folder(self.directory)
        self._key = _secret(self.directory)
        folder = self.directory / "cache"
        folder.mkdir(mode=0o700, exist_ok=True)
        os.chmod(folder, 0o700)
        # SQLite keeps the mode of a database file it finds (its journal files take the same)
        os.close(os.open(folder / "cache.db", os.O_WRONLY | os.O_CREAT, 0o600))
        os.chmod(folder / "cache.db", 0o600)
        self._cache = diskcache.Cache(str(folder), size_limit=int(max_bytes), eviction_policy="least-recently-used",
                                      disk=_make_disk_class(), statistics=False)

    def _mac(self, blob) -> bytes:
        return hmac.new(self._key, blob, hashlib.sha256).digest()

    def get(self, key: str) -> tuple[bool, object]:
        """``(True, value)`` if ``key`` is kept and its signature holds, else ``(False, None)``."""
        try:
            blob = self._cache.get(key, default=None, retry=True)
        except Exception:  # a refused row, a locked or damaged database, a full disk: computed again
            return False, None
        if not isinstance(blob, bytes) or len(blob) < 32:
            return False, None
        mac, body = blob[:32], memoryview(blob)[32:]
        if not hmac.compare_digest(mac, self._mac(body)):
            try:
                self._cache.delete(key, retry=True)  # not written by this store: never unpickled
            except Exception:
                pass
            return False, None
        try:
            return True, pickle.loads(body)
        except Exception:  # e.g. a class renamed since: computed again
            return False, None

    def put(self, key: str, value) -> bool:
        """Keep ``value`` (pickled and signed); False if it cannot be pickled or written."""
        try:
            body = pickle.dumps(value, protocol=5)
        except Exception:  # e.g. a compiled numba object: held in memory only
            return False
        return self.put_pickled(key, body)

    def put_pickled(self, key: str, body: bytes) -> bool:
        """Keep ``body``, a pickle this process made, signed; False if it cannot be written (disk full)."""
        try:
            self._cache.set(key, self._mac(body) + body, retry=True)
        except Exception:  # a full disk, a locked or damaged database: held in memory only
            return False
        return True

    def __contains__(self, key: str) -> bool:
        return key in self._cache

    def __len__(self) -> int:
        return len(self._cache)

    @property
    def bytes(self) -> int:
        """Bytes kept in the folder (diskcache's count, shared by every process that uses it)."""
        return int(self._cache.volume())

    def close(self) -> None:
        self._cache.close()
