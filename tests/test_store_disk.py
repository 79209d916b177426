"""The results store's keys and disk: tokens not pickles, code digests, private signed files, memory only."""

import importlib
import os
import pickle
import stat
import subprocess
import sys
import textwrap
import threading
import time
from dataclasses import dataclass

import numpy as np
import pytest

from ikviz.runner import block_key
from ikviz.store import ResultsStore, UnsafeStoreFolder, fingerprint
from ikviz.store.storage import DiskCache, MemoryCache


def twice(x):
    return np.asarray(x) * 2


@dataclass(frozen=True)
class Settings:
    psi: int = 16
    names: tuple = ("a", "b")


# ----------------------------------------------------------------- keys: a token, not a pickle
def test_keys_token_the_values_without_pickling_them(monkeypatch):
    import ikviz.runner as runner

    big = np.arange(2_000_000, dtype=np.float64)
    expected = block_key(twice, (big, Settings()), {"scale": 2.0})

    def refuse(*args, **kwargs):
        raise AssertionError("pickled")

    monkeypatch.setattr(runner.pickle, "dumps", refuse)
    assert block_key(twice, (big, Settings()), {"scale": 2.0}) == expected
    assert block_key(twice, (big.copy(), Settings()), {"scale": 2.0}) == expected       # equal values
    changed = big.copy()
    changed[-1] += 1
    assert block_key(twice, (changed, Settings()), {"scale": 2.0}) != expected          # one value differs
    assert block_key(twice, (big, Settings(psi=32)), {"scale": 2.0}) != expected
    assert block_key(twice, (big, Settings()), {"scale": 2.0, "progress": print}) == expected


def test_keys_are_the_same_in_another_process():
    """The disk is shared by restarts and processes: a key must not depend on the process."""
    here = block_key(twice, (np.arange(10.0), Settings()), {"k": (1, "x")})
    code = ("import numpy as np; from ikviz.runner import block_key; import test_store_disk as t; "
            "print(block_key(t.twice, (np.arange(10.0), t.Settings()), {'k': (1, 'x')}))")
    env = {**os.environ, "PYTHONPATH": os.path.dirname(__file__), "PYTHONHASHSEED": "123"}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True)
    assert out.stdout.strip() == here


# ----------------------------------------------------------------- code digests
BLOCK = '''
"""A block for the store's tests."""

from {package} import helper


def compute(x):
    """Twice x."""
    return helper.scale(x) * 2
'''
HELPER = '''
def scale(x):
    return x + 0
'''


@pytest.fixture
def blocks(tmp_path, monkeypatch):
    """A package ``blockpkg_<n>`` with a block module and a helper it imports; followed like ikviz."""
    name = f"blockpkg_{abs(hash(str(tmp_path))) % 10**8}"
    package = tmp_path / name
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "block.py").write_text(BLOCK.format(package=name))
    (package / "helper.py").write_text(HELPER)
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(fingerprint, "FOLLOWED", ("ikviz", name))
    fingerprint.clear()
    module = importlib.import_module(f"{name}.block")
    yield package, module
    fingerprint.clear()


def _restart(directory, package):
    """A new server process: fresh digests of the files as they are now, the block module reloaded."""
    fingerprint.clear()
    module = importlib.reload(sys.modules[f"{package.name}.block"])
    return ResultsStore(directory=directory, workers=1), module


def test_a_docstring_or_comment_edit_keeps_the_disk_store(blocks, tmp_path):
    package, module = blocks
    store = ResultsStore(directory=tmp_path / "store", workers=1)
    assert store.memo(module.compute)(21) == 42 and store.computed == 1
    source = (package / "block.py").read_text()
    (package / "block.py").write_text(source.replace('"""Twice x."""', '"""Two times x, documented anew."""')
                                      .replace("def compute", "# a comment\n\ndef compute"))
    restarted, module = _restart(tmp_path / "store", package)
    assert restarted.memo(module.compute)(21) == 42
    assert restarted.computed == 0  # read from disk: the edit changed no code


def test_a_code_edit_in_the_block_or_what_it_imports_computes_again(blocks, tmp_path):
    package, module = blocks
    store = ResultsStore(directory=tmp_path / "store", workers=1)
    store.memo(module.compute)(21)
    source = (package / "block.py").read_text()
    (package / "block.py").write_text(source.replace("* 2", "* 3"))
    restarted, module = _restart(tmp_path / "store", package)
    assert restarted.memo(module.compute)(21) == 63 and restarted.computed == 1  # not the old 42
    # the module it imports changes: computed again too
    (package / "helper.py").write_text(HELPER.replace("x + 0", "x + 1"))
    importlib.reload(sys.modules[f"{package.name}.helper"])
    restarted, module = _restart(tmp_path / "store", package)
    assert restarted.memo(module.compute)(21) == 66 and restarted.computed == 1


def test_an_unrelated_module_edit_keeps_the_block(blocks, tmp_path):
    package, module = blocks
    (package / "other.py").write_text("def f():\n    return 1\n")
    importlib.import_module(f"{package.name}.other")
    store = ResultsStore(directory=tmp_path / "store", workers=1)
    store.memo(module.compute)(1)
    (package / "other.py").write_text("def f():\n    return 2\n")
    restarted, module = _restart(tmp_path / "store", package)
    restarted.memo(module.compute)(1)
    assert restarted.computed == 0


def test_the_digest_follows_ikviz_imports_transitively():
    from ikviz.store import module_fingerprint

    assert "ikviz.runner" in fingerprint.module_imports("ikviz.experiments.density")
    fingerprint.clear()
    before = module_fingerprint("ikviz.experiments.density")
    fingerprint._OWN["ikviz.runner"] = "changed"  # as if runner.py's code had changed
    fingerprint._CLOSURE.clear()
    assert module_fingerprint("ikviz.experiments.density") != before
    fingerprint.clear()


# ----------------------------------------------------------------- private and signed
class _RunsCode:
    """A pickle that would create ``path`` when unpickled."""

    def __init__(self, path):
        self.path = path

    def __reduce__(self):
        return (open, (self.path, "w"))


def test_files_are_private(tmp_path):
    directory = tmp_path / "store"
    directory.mkdir(mode=0o755)
    os.chmod(directory, 0o755)  # a store folder of an earlier version was world-readable
    store = ResultsStore(directory=directory)
    store.memo(np.ones)(200_000)  # 1.6 MB: a file of its own
    store.memo(np.ones)(10)  # small: in the database
    modes = {}
    for root, dirs, files in os.walk(directory):
        for name in dirs + files:
            path = os.path.join(root, name)
            modes[os.path.relpath(path, directory)] = stat.S_IMODE(os.stat(path).st_mode)
    assert stat.S_IMODE(os.stat(directory).st_mode) == 0o700
    assert any(p.endswith(".val") for p in modes) and "secret" in modes
    for path, mode in modes.items():
        assert mode == (0o700 if os.path.isdir(directory / path) else 0o600), (path, oct(mode))


def test_a_planted_pickle_is_never_unpickled(tmp_path):
    import diskcache

    directory = tmp_path / "store"
    store = ResultsStore(directory=directory)
    key = store._keys(twice, (3,), {})[1]()
    marker = tmp_path / "code-ran"
    payload = pickle.dumps(_RunsCode(str(marker)))
    # 1. unsigned bytes where the store looks
    store._disk._cache.set(key, payload)
    assert np.array_equal(ResultsStore(directory=directory).memo(twice)(3), 6) and not marker.exists()
    # 2. a value diskcache itself would unpickle (a row written by a plain diskcache.Cache)
    with diskcache.Cache(str(directory / "cache")) as plain:
        plain.set(key, _RunsCode(str(marker)))
    restarted = ResultsStore(directory=directory)
    assert np.array_equal(restarted.memo(twice)(3), 6) and restarted.computed == 1 and not marker.exists()
    # 3. signed with another store's secret
    other = DiskCache(tmp_path / "other")
    other.put_pickled(key, payload)
    blob = other._cache.get(key)
    with diskcache.Cache(str(directory / "cache")) as plain:
        plain.set(key, blob)
    restarted = ResultsStore(directory=directory)
    assert np.array_equal(restarted.memo(twice)(3), 6) and restarted.computed == 1 and not marker.exists()
    # what the store wrote itself is read back
    again = ResultsStore(directory=directory)
    assert np.array_equal(again.memo(twice)(3), 6) and again.computed == 0


def test_a_folder_or_secret_of_another_user_is_refused(tmp_path, monkeypatch):
    directory = tmp_path / "store"
    DiskCache(directory)
    os.chmod(directory / "secret", 0o644)  # readable by others: not a secret any more
    with pytest.raises(UnsafeStoreFolder, match="secret"):
        DiskCache(directory)
    os.chmod(directory / "secret", 0o600)
    monkeypatch.setattr(os, "getuid", lambda: os.stat(directory).st_uid + 1)
    with pytest.raises(UnsafeStoreFolder, match="another user"):
        DiskCache(directory)


def test_persist_false_keeps_the_result_and_its_blocks_off_the_disk(tmp_path):
    store = ResultsStore(directory=tmp_path / "store", workers=1)
    assert store.call(_uses_a_block, (5,), {}, persist=False) == 10
    assert store.disk_entries == 0
    job = store.submit(_uses_a_block, 6, persist=False)
    assert job.wait(10) and job.result() == 12 and store.disk_entries == 0
    store.release(job)
    store.call(_uses_a_block, (7,), {})  # persisted: the run and its block
    assert store.disk_entries == 2


def _uses_a_block(x, *, memo):
    return int(memo(twice)(x))


# ----------------------------------------------------------------- memory bound in bytes
def test_memory_is_bound_by_bytes_not_by_count():
    cache = MemoryCache(max_bytes=1000)
    cache.put("big", "B", 900)
    cache.put("small1", "s", 50)
    cache.put("small2", "s", 50)
    assert cache.bytes == 1000 and "big" in cache
    cache.put("small3", "s", 50)  # 1050 > 1000: the least recently used (big) goes
    assert "big" not in cache and cache.bytes == 150
    cache.put("huge", "H", 5000)  # larger than the whole bound: not held, nothing dropped
    assert "huge" not in cache and cache.bytes == 150
    store = ResultsStore(max_bytes=100_000, workers=1)
    for n in (5_000, 5_001, 5_002):  # three arrays of 40 kB: two fit
        store.memo(np.zeros)(n)
    assert 80_000 <= store.held_bytes <= 100_000
    assert not store.peek(np.zeros, 5_000)[0] and store.peek(np.zeros, 5_002)[0]


def test_two_sessions_asking_for_a_result_on_disk_read_it_once(tmp_path, monkeypatch):
    directory = tmp_path / "store"
    ResultsStore(directory=directory).memo(twice)(4)
    store = ResultsStore(directory=directory, workers=1)
    reads = []
    real = store._disk.get

    def slow_get(key):
        reads.append(key)
        time.sleep(0.2)
        return real(key)

    monkeypatch.setattr(store._disk, "get", slow_get)
    jobs = []
    threads = [threading.Thread(target=lambda: jobs.append(store.submit(twice, 4))) for _ in range(2)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert len(reads) == 1 and all(j.done() and np.array_equal(j.result(), 8) for j in jobs)
    assert store.computed == 0


def big_result(n):
    return {"values": np.arange(n, dtype=np.float64), "n": n}


def figure_of(result, scale):
    return float(result["values"].sum()) * scale


def test_a_figure_of_a_held_result_is_keyed_by_the_results_key_not_its_values(tmp_path, monkeypatch):
    import dask.base

    store = ResultsStore(directory=tmp_path / "store", workers=1)
    result = store.memo(big_result)(1_000_000)
    seen = []
    real = dask.base.tokenize

    def spy(*args, **kwargs):
        seen.append(args)
        return real(*args, **kwargs)

    monkeypatch.setattr(dask.base, "tokenize", spy)
    key = store.key_of(figure_of, (result, 2.0), {})
    assert key != store.key(figure_of, (result, 2.0), {})  # the values were not hashed for it
    assert not any(isinstance(a, np.ndarray) for a in _flatten(seen[0]))
    assert store.key_of(figure_of, (result, 2.0), {}) == key  # stable across reruns
    copy = {"values": result["values"].copy(), "n": 1_000_000}
    assert store.key_of(figure_of, (copy, 2.0), {}) == store.key(figure_of, (copy, 2.0), {})  # not held: values
    monkeypatch.setattr(dask.base, "tokenize", real)
    assert store.memo(figure_of)(result, 2.0) == figure_of(result, 2.0)
    # on disk the values count: a restarted server with the result read back finds the figure's entry
    restarted = ResultsStore(directory=tmp_path / "store", workers=1)
    again = restarted.memo(big_result)(1_000_000)
    assert restarted.memo(figure_of)(again, 2.0) == figure_of(result, 2.0) and restarted.computed == 0


def _flatten(value):
    if isinstance(value, (tuple, list)):
        for v in value:
            yield from _flatten(v)
    elif isinstance(value, dict):
        for v in value.values():
            yield from _flatten(v)
    else:
        yield value


def test_a_damaged_store_folder_leaves_the_app_on_memory(tmp_path, monkeypatch):
    import sys as _sys

    _sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parents[1] / "app"))
    import store as app_store

    directory = tmp_path / "store"
    (directory / "cache").mkdir(parents=True, mode=0o700)
    (directory / "cache" / "cache.db").write_bytes(b"not a database" * 100)
    os.chmod(directory / "cache" / "cache.db", 0o600)
    monkeypatch.setenv("IKVIZ_STORE_DIR", str(directory))
    monkeypatch.setattr(app_store, "_STORE", None)
    with pytest.warns(UserWarning, match="memory only"):
        s = app_store.get_store()
    assert s.directory is None and s.memo(twice)(2) == 4
    monkeypatch.setattr(app_store, "_STORE", None)


def test_a_code_digest_is_the_same_in_every_process():
    """A new server (another process, another string-hash seed) must find what the last one kept: a module
    with a set literal (`x in {"a", "b"}`, a frozenset constant in hash order) gave each process its own digest,
    so a prepared store and a `--full` run were never read back."""
    code = ("from ikviz.store.fingerprint import block_fingerprint; from ikviz.experiments import tsne; "
            "from ikviz.reproduce import fingerprint, get; "
            "print(block_fingerprint(tsne.run), fingerprint('hubness', get('hubness').params())['code'])")
    seen = {subprocess.run([sys.executable, "-c", code], env={**os.environ, "PYTHONHASHSEED": seed},
                           capture_output=True, text=True, check=True).stdout for seed in ("1", "2", "3")}
    assert len(seen) == 1, seen
