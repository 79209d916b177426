"""ikviz.data.fetch: the mirror first, then the cache, then the URL; checksums; clear errors; no partial files."""

import bz2
import gzip
import shutil
import struct
import sys
from pathlib import Path

import numpy as np
import pytest

import ikviz.data  # noqa: F401  (ikviz.data.fetch, the function, shadows the module's name)
from ikviz.data import FetchError, fetch, load

fetch_module = sys.modules["ikviz.data.fetch"]
MIRROR = Path(__file__).resolve().parents[1] / ".." / "shared" / "datasets"
needs_mirror = pytest.mark.skipif(not (MIRROR / "ijcnn1.trn.bz2").is_file(),
                                  reason="../shared/datasets (the CI mirror) is not beside this checkout")


@pytest.fixture
def cache(tmp_path, monkeypatch):
    folder = tmp_path / "cache"
    monkeypatch.setenv(fetch_module.CACHE_ENV, str(folder))
    monkeypatch.delenv(fetch_module.MIRROR_ENV, raising=False)
    return folder


def fake_download(payload: bytes | None):
    """A downloader that writes ``payload`` (None: fails as with no network)."""
    def download(url, output_file, pooch_instance, check_only=False):
        if payload is None:
            import requests

            raise requests.exceptions.ConnectionError(f"no network to reach {url}")
        Path(output_file if isinstance(output_file, (str, Path)) else output_file.name).write_bytes(payload)
    return lambda: download


def test_every_registered_file_has_a_url_a_sha256_and_a_size():
    for remote in fetch_module.FILES.values():
        assert remote.url.startswith("https://") and remote.name.removeprefix("mnist-") in remote.url
        assert len(remote.sha256) == 64 and int(remote.sha256, 16) >= 0 and remote.rows > 0
    for missing in fetch_module.UNAVAILABLE.values():
        assert missing.url.startswith("http") and missing.used_in


@needs_mirror
def test_the_mirror_is_searched_first_and_checked(cache, monkeypatch):
    monkeypatch.setenv(fetch_module.MIRROR_ENV, str(MIRROR))
    path = fetch("ijcnn1.trn.bz2")
    assert path == MIRROR / "ijcnn1.trn.bz2"
    assert fetch_module.file_sha256(path) == fetch_module.FILES["ijcnn1.trn.bz2"].sha256
    assert not cache.exists()   # nothing copied, nothing downloaded


def test_a_mirror_file_with_a_wrong_checksum_is_refused_by_name(cache, tmp_path, monkeypatch):
    mirror = tmp_path / "mirror"
    mirror.mkdir()
    (mirror / "ijcnn1.tst.bz2").write_bytes(b"not the file")
    monkeypatch.setenv(fetch_module.MIRROR_ENV, str(mirror))
    expected = fetch_module.FILES["ijcnn1.tst.bz2"].sha256
    with pytest.raises(FetchError, match=f"ijcnn1.tst.bz2.*IKVIZ_DATA_MIRROR.*{expected}"):
        fetch("ijcnn1.tst.bz2")


def test_no_network_and_no_mirror_names_the_file_the_checksum_and_the_variable(cache, monkeypatch):
    pytest.importorskip("pooch")
    monkeypatch.setattr(fetch_module, "_downloader", fake_download(None))
    remote = fetch_module.FILES["mnist-t10k-labels-idx1-ubyte.gz"]
    with pytest.raises(FetchError) as info:
        fetch(remote.name)
    message = str(info.value)
    assert remote.name in message and remote.sha256 in message and "IKVIZ_DATA_MIRROR" in message
    assert not cache.exists() or not any(cache.iterdir())   # no partial file left


def test_a_truncated_download_leaves_nothing_in_the_cache(cache, monkeypatch):
    pytest.importorskip("pooch")
    monkeypatch.setattr(fetch_module, "_downloader", fake_download(b"BZh9 truncated"))
    with pytest.raises(FetchError, match="ijcnn1.trn.bz2.*b38a4198ce142d43"):
        fetch("ijcnn1.trn.bz2")
    assert not cache.exists() or not any(cache.iterdir())


@needs_mirror
def test_a_good_download_is_cached_and_a_damaged_cached_copy_is_fetched_again(cache, monkeypatch):
    pytest.importorskip("pooch")
    good = (MIRROR / "mnist-t10k-labels-idx1-ubyte.gz").read_bytes()
    monkeypatch.setattr(fetch_module, "_downloader", fake_download(good))
    path = fetch("mnist-t10k-labels-idx1-ubyte.gz")
    assert path.parent == cache and path.read_bytes() == good
    path.write_bytes(good[:100])                       # truncated in the cache since
    assert fetch("mnist-t10k-labels-idx1-ubyte.gz").read_bytes() == good
    monkeypatch.setattr(fetch_module, "_downloader", fake_download(None))
    path.write_bytes(good[:100])
    with pytest.raises(FetchError):
        fetch("mnist-t10k-labels-idx1-ubyte.gz")
    assert not path.exists()                           # the damaged copy is not left behind


def test_unknown_file_lists_the_registered_ones():
    with pytest.raises(ValueError, match="unknown file 'nope'.*ijcnn1.trn.bz2"):
        fetch("nope")


def test_read_idx_reads_shape_and_values_and_refuses_a_truncated_file(tmp_path):
    images = np.arange(2 * 3 * 4, dtype=np.uint8).reshape(2, 3, 4)
    raw = struct.pack(">BBBBiii", 0, 0, 8, 3, 2, 3, 4) + images.tobytes()
    path = tmp_path / "x-idx3-ubyte.gz"
    path.write_bytes(gzip.compress(raw))
    assert np.array_equal(fetch_module.read_idx(path), images)
    path.write_bytes(gzip.compress(raw[:-5]))
    with pytest.raises(ValueError, match="x-idx3-ubyte.gz holds 19 data bytes.*24.*truncated"):
        fetch_module.read_idx(path)
    path.write_bytes(gzip.compress(b"\x01\x02\x03\x04"))
    with pytest.raises(ValueError, match="not an IDX file"):
        fetch_module.read_idx(path)
    floats = tmp_path / "f-idx1"
    floats.write_bytes(struct.pack(">BBBBi", 0, 0, 0x0D, 1, 2) + np.array([1.5, -2], dtype=">f4").tobytes())
    assert fetch_module.read_idx(floats).tolist() == [1.5, -2.0]


def test_read_libsvm_reads_bz2_and_names_a_bad_file(tmp_path):
    path = tmp_path / "t.svm.bz2"
    path.write_bytes(bz2.compress(b"-1 1:0.25 4:1\n+1 2:3\n"))
    X, y = fetch_module.read_libsvm(path, n_features=4)
    assert X.shape == (2, 4) and X[0, 3] == 1 and y.tolist() == [-1, 1]
    path.write_bytes(bz2.compress(b"-1 1:0.25 9:1\n"))
    with pytest.raises(ValueError, match="t.svm.bz2 could not be read as a LIBSVM file with 4 features"):
        fetch_module.read_libsvm(path, n_features=4)


@needs_mirror
def test_load_serves_fetched_sets_like_bundled_ones(monkeypatch, cache):
    monkeypatch.setenv(fetch_module.MIRROR_ENV, str(MIRROR))
    X, y = load("mnist-test")
    assert X.shape == (10_000, 784) and X.max() == 255
    assert np.bincount(y).tolist() == [980, 1135, 1032, 1010, 982, 892, 958, 1028, 974, 1009]
    X, y = load("ijcnn1", scale="minmax", max_rows=500, seed=1)
    assert X.shape == (500, 22) and X.min() == 0 and X.max() == 1
    X, y = load("a9a-full")
    assert X.shape == (48_842, 123) and np.bincount(y).tolist() == [24_720 + 12_435, 7_841 + 3_846]


def test_a_fetched_set_without_mirror_or_network_says_which_file_would_serve(cache, monkeypatch):
    pytest.importorskip("pooch")
    monkeypatch.setattr(fetch_module, "_downloader", fake_download(None))
    description = sys.modules["ikviz.data.description"]
    # an empty cache of real sets for this test (one held from an earlier test would be served without a fetch)
    monkeypatch.setattr(description, "_HELD", description._Held(description.HELD_BYTES))
    with pytest.raises(FetchError, match="ijcnn1.tst.bz2.*IKVIZ_DATA_MIRROR"):
        load("ijcnn1-test")
    assert description._HELD.held() == []  # a failed read holds nothing


def test_copying_the_mirror_file_into_a_new_mirror_works(tmp_path, cache, monkeypatch):
    if not (MIRROR / "mnist-t10k-labels-idx1-ubyte.gz").is_file():
        pytest.skip("no CI mirror beside this checkout")
    mirror = tmp_path / "m"
    mirror.mkdir()
    shutil.copy(MIRROR / "mnist-t10k-labels-idx1-ubyte.gz", mirror)
    monkeypatch.setenv(fetch_module.MIRROR_ENV, str(mirror))
    assert fetch("mnist-t10k-labels-idx1-ubyte.gz").parent == mirror
