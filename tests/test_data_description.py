"""The online lab's streams as one data description, and the one bounded cache of real data sets.

The digests pin ``online.make_stream`` and ``online.real_rows`` to the arrays their own loader gave
before they became descriptions (commit 3716cc2's code, the same cases run through the old
functions): another order (``subsample``'s sorted draw instead of the permutation), another scaling,
a joined set scaled per part, or a lost read-only flag breaks them.
"""

import threading
import time

import numpy as np
import pytest

from ikviz.data import Data, resolve, step
from ikviz.data import description
from ikviz.data.fetch import FetchError
from ikviz.experiments import online as onl
from digests import digest


# (dataset, n, seed, scale) -> digest(X, y, X writable) of the old make_stream
STREAMS = {("german", 400, 0, None): "f451033b81fe48f7", ("german", 400, 1, "minmax"): "4dace1b1f3afb8aa",
           ("german", 5000, 3, "libsvm"): "f4321458fbea38cb", ("german", 300, 2, "standard"): "8862ae913947fa80",
           ("letter", 500, 0, "libsvm"): "8aa98d708360b6dc", ("letter", 15000, 4, "libsvm"): "30ddba879ed9625b",
           ("letter", 2000, 1, "minmax"): "86c4b66eebaeaa5a", ("spambase", 1000, 0, None): "7bdd462ae46f8261",
           ("a9a", 3000, 0, "minmax"): "4aa5d8a3c77ea1ba", ("density-ratio", 300, 0, "minmax"): "20d951004c26005d",
           ("density-ratio", 301, 5, None): "81c8c2d774808892", ("w-gaussians", 51, 2, "minmax"): "98da7330c5c0d88d",
           ("a9a-full", 2000, 1, None): "c6a5e7a059d6edde"}
# (dataset, scale) -> digest(X, y, X writable, y writable) of the old real_rows
ROWS = {("letter", "libsvm"): "979484a7edd425bb", ("german", None): "26232961d1952bfb",
        ("a9a", None): "694b5e6ae72a0d90", ("a9a-test", None): "128107e6aea6bee9",
        ("letter", "minmax"): "f0d3613590d6c8e2"}
# fetched from the mirror (IKVIZ_DATA_MIRROR): MNIST's test set and the 141,691 rows of ijcnn1's two files
FETCHED_STREAMS = {("mnist-test", 500, 0, "libsvm"): "d005c2c2e621115e",
                   ("ijcnn1-full", 1000, 0, None): "838a57be19d2ff42"}
FETCHED_ROWS = {("mnist-test", "libsvm"): "f3be5c76dc37d69f", ("ijcnn1-full", None): "011df68970645817",
                ("ijcnn1-full", "libsvm"): "011df68970645817"}


@pytest.mark.parametrize("case", list(STREAMS))
def test_streams_as_before(case):
    X, y = onl.make_stream(case[0], case[1], case[2], scale=case[3])
    assert digest(X, y, X.flags.writeable) == STREAMS[case]


@pytest.mark.parametrize("case", list(ROWS))
def test_real_rows_as_before(case):
    X, y = onl.real_rows(*case)
    assert digest(X, y, X.flags.writeable, y.flags.writeable) == ROWS[case]


@pytest.mark.slow
@pytest.mark.parametrize("case", list(FETCHED_STREAMS) + list(FETCHED_ROWS))
def test_fetched_streams_and_rows_as_before(case):
    try:
        if len(case) == 4:
            X, y = onl.make_stream(case[0], case[1], case[2], scale=case[3])
            assert digest(X, y, X.flags.writeable) == FETCHED_STREAMS[case]
        else:
            X, y = onl.real_rows(*case)
            assert digest(X, y, X.flags.writeable, y.flags.writeable) == FETCHED_ROWS[case]
    except FetchError as e:
        pytest.skip(f"not fetched here: {e}")


def test_a_stream_is_a_description_in_a_random_order_not_a_subsample():
    d = onl.describe_stream("german", 300, 7, scale="minmax")
    assert d == Data("german", seed=7, steps=("minmax", step("stream", n=300)))
    X, y = onl.make_stream("german", 300, 7)
    np.testing.assert_array_equal(X, resolve(d).X)
    full = resolve(Data("german", steps=("minmax",)))
    order = np.random.default_rng(7).permutation(1000)[:300]
    np.testing.assert_array_equal(X, full.X[order])
    np.testing.assert_array_equal(y, full.y[order])
    subsample = resolve(Data("german", seed=7, steps=("minmax", step("subsample", n=300)))).X
    assert not np.array_equal(X, subsample)  # rows kept in file order: another stream


def test_libsvm_scaling_per_set():
    letter = resolve(Data("letter", steps=("libsvm",))).X
    assert letter.min() == -1.0 and letter.max() == 1.0
    np.testing.assert_array_equal(letter, 2.0 * resolve(Data("letter", steps=("minmax",))).X - 1.0)
    german = resolve(Data("german", steps=("libsvm",))).X
    np.testing.assert_array_equal(german, resolve(Data("german")).X)  # as given
    assert german.max() > 1


@pytest.mark.parametrize("bad,match", [
    (lambda: onl.make_stream("german", 5, 0), "at least 10 examples"),
    (lambda: onl.make_stream("german", 50, 0, scale="unit"), "scale must be one of"),
    (lambda: onl.real_rows("german", "max"), "scale must be one of"),
    (lambda: resolve(Data("german", steps=(step("stream", n=0),))), "stream's n must be an integer >= 1"),
])
def test_clear_errors(bad, match):
    with pytest.raises(ValueError, match=match):
        bad()


# ------------------------------------------------------------------------ the one cache of real data sets
@pytest.fixture
def counted(monkeypatch):
    """``wine``'s loader counting its reads (a slow read: 0.2 s), with a fresh cache of the real bound."""
    calls = []
    original = description.LOADERS["wine"]

    def slow(seed, **options):
        calls.append(threading.get_ident())
        time.sleep(0.2)
        return original(seed, **options)

    monkeypatch.setitem(description.LOADERS, "wine", slow)
    monkeypatch.setattr(description, "_HELD", description._Held(description.HELD_BYTES))
    return calls


def test_a_set_is_read_once_for_every_order_and_scaling(counted):
    streams = [resolve(Data("wine", seed=s, steps=("minmax", step("stream", n=50)))).X for s in range(4)]
    resolve(Data("wine", steps=("standard",)))
    assert len(counted) == 1
    assert not np.array_equal(streams[0], streams[1])


def test_threads_asking_for_one_set_at_once_read_it_once_and_get_the_same_rows(counted):
    got, errors = {}, []

    def worker(s):
        try:
            got[s] = resolve(Data("wine", seed=s, steps=(step("stream", n=100),)))
        except Exception as e:  # pragma: no cover - reported below
            errors.append(e)

    threads = [threading.Thread(target=worker, args=(s,)) for s in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors and len(counted) == 1
    for s, g in got.items():
        np.testing.assert_array_equal(g.X, resolve(Data("wine", seed=s, steps=(step("stream", n=100),))).X)


def test_held_arrays_are_read_only_and_callers_get_copies(counted):
    X = resolve(Data("wine")).X
    assert X.flags.writeable
    X[:] = -1.0  # a caller's own copy: the held set is untouched
    again = resolve(Data("wine"))
    assert again.X.min() >= 0 and again.X is not X
    shared = resolve(Data("wine", steps=("read-only",)))
    assert shared.X is resolve(Data("wine", steps=("read-only",))).X  # the held arrays themselves
    with pytest.raises(ValueError, match="read-only"):
        shared.X[0, 0] = 1.0
    assert len(counted) == 1


def test_the_cache_is_bounded_by_bytes_least_recently_used_out(monkeypatch):
    iris, wine = (resolve(Data(n)) for n in ("iris", "wine"))
    size = {n: g.X.nbytes + g.y.nbytes for n, g in (("iris", iris), ("wine", wine))}
    held = description._Held(size["iris"] + size["wine"] + 10)
    monkeypatch.setattr(description, "_HELD", held)
    resolve(Data("iris"))
    resolve(Data("wine"))
    assert held.held() == [("iris", ()), ("wine", ())]
    resolve(Data("iris"))  # used again: wine is now the least recent
    big = resolve(Data("breast-cancer"))  # 569 x 30 floats: over the whole bound alone
    assert big.X.shape == (569, 30) and ("breast-cancer", ()) not in held.held()  # handed out, never held
    resolve(Data("wheat-seeds"))  # 210 x 7 floats: pushes out the least recently used
    assert held.held() == [("iris", ()), ("wheat-seeds", ())]


def test_a_scaled_set_is_held_after_its_row_only_steps_and_shared_by_its_streams(monkeypatch):
    held = description._Held(description.HELD_BYTES)
    monkeypatch.setattr(description, "_HELD", held)
    scalings = []
    original = description.STEPS["libsvm"]
    monkeypatch.setitem(description.STEPS, "libsvm", lambda *a, **k: scalings.append(1) or original(*a, **k))
    X, _ = onl.real_rows("letter", "libsvm")
    for s in range(3):
        onl.make_stream("letter", 100, s, scale="libsvm")
    assert len(scalings) == 1  # scaled once, every order reuses it
    assert held.held() == [("letter", ()), ("letter", (step("libsvm"),))]
    assert X is onl.real_rows("letter", "libsvm")[0] and not X.flags.writeable
    # a seeded step ends what is held: the subsample is drawn anew, then scaled
    resolve(Data("letter", steps=(step("subsample", n=50), "libsvm")))
    assert len(scalings) == 2 and len(held.held()) == 2


def test_generators_are_never_held(monkeypatch):
    held = description._Held(description.HELD_BYTES)
    monkeypatch.setattr(description, "_HELD", held)
    a = resolve(Data("density-ratio", seed=1, options={"n": 100}))
    b = resolve(Data("density-ratio", seed=2, options={"n": 100}))
    assert not np.array_equal(a.X, b.X) and held.held() == [] and a.X.flags.writeable


def test_only_the_registered_real_sets_are_held(monkeypatch):
    """A source that is neither a generator nor a bundled/fetched set (an upload, say) is read each time, never held."""
    held = description._Held(description.HELD_BYTES)
    monkeypatch.setattr(description, "_HELD", held)
    reads = []
    monkeypatch.setitem(description.LOADERS, "someones-file",
                        lambda seed: reads.append(seed) or (np.ones((4, 2)), np.zeros(4, dtype=int)))
    a, b = resolve(Data("someones-file")), resolve(Data("someones-file", steps=("minmax",)))
    assert len(reads) == 2 and held.held() == [] and a.X.flags.writeable and b.X.shape == (4, 2)


def test_an_uploads_bytes_live_only_as_long_as_its_session_holds_them():
    """FileBytes is copied by its fingerprint; the process keeps no upload alive (issue 31: session memory only)."""
    import copy
    import gc
    import pickle

    from ikviz.experiments.your_data import FileBytes

    held = FileBytes(b"a,b\n1,2\n" * 3, "mine.csv")
    assert len(pickle.dumps(held)) < 200  # the fingerprint travels, not the bytes
    assert copy.deepcopy(held).raw == held.raw and pickle.loads(pickle.dumps(held)) == held
    blob = pickle.dumps(held)
    del held
    gc.collect()
    with pytest.raises(ValueError, match="no longer held: upload it again"):
        pickle.loads(blob)


# ------------------------------------------------------------------------ what a source says about itself
def test_a_data_set_says_its_columns_classes_and_title_and_steps_keep_or_rename_them():
    got = resolve(Data("wine", seed=1, steps=("minmax", step("split", test_size=0.25))))
    assert got.about["title"] == "Wine (scikit-learn)"
    assert got.about["columns"] == tuple(f"x{j}" for j in range(1, 14)) and len(got.about["columns"]) == got.X.shape[1]
    assert got.about["classes"] == ("0", "1", "2") and "licence" in got.about["notes"][0]
    assert resolve(Data("uniform", options={"n": 5})).about == {}  # a generator says nothing


def test_a_loaders_about_reaches_the_caller_through_the_cache_and_each_gets_its_own(monkeypatch):
    monkeypatch.setattr(description, "_HELD", description._Held(description.HELD_BYTES))
    first = resolve(Data("iris", steps=("minmax",)))
    first.about["notes"] = ("changed by a caller",)
    again = resolve(Data("iris", steps=("minmax",)))  # from the cache
    assert again.about["classes"] == ("0", "1", "2") and again.about["notes"] != ("changed by a caller",)
    monkeypatch.setitem(description.LOADERS, "someones-file",
                        lambda seed: (np.ones((4, 2)), np.zeros(4, dtype=int), {"columns": ("a", "b")}))
    assert resolve(Data("someones-file", steps=(step("subsample", n=2),))).about == {"columns": ("a", "b")}
    monkeypatch.setitem(description.LOADERS, "someones-file", lambda seed: (np.ones((4, 2)), np.zeros(4), "a, b"))
    with pytest.raises(TypeError, match="about a mapping"):
        resolve(Data("someones-file"))


def test_a_joined_set_says_where_its_rows_come_from(monkeypatch):
    parts = {"ijcnn1": (np.zeros((3, 2)), np.array([0, 1, 0])), "ijcnn1-test": (np.ones((2, 2)), np.array([1, 1]))}
    monkeypatch.setattr(description, "load_dataset", lambda name: parts[name])
    monkeypatch.setattr(description, "_HELD", description._Held(description.HELD_BYTES))
    got = resolve(Data("ijcnn1-full"))
    assert got.X.shape == (5, 2) and got.about["columns"] == ("x1", "x2") and got.about["classes"] == ("0", "1")
    assert got.about["notes"][0] == "the rows of ijcnn1, then ijcnn1-test" and len(got.about["notes"]) == 2
