"""``ikviz scale`` is safe by default (issue 31 items 1 and 7) and layered (issue 29).

* ``--out`` never deletes what ikviz did not write: the input, a folder holding it, a folder with
  someone's files; ``--overwrite`` replaces only an earlier ikviz output, and only once the new
  one is complete.
* Every cluster fault is a one-line error within the stated time, the output left as it was: an
  unsupported scheme, a port nobody listens on, a silent port, an HTTP server, a port answering
  garbage, no live worker, a lost scheduler, a full disk.
* The engine does not import ``ikviz.scale``; progress is ``progress(fraction, text)``.

Cluster tests use an in-process ``LocalCluster`` (threads, started in about a second) or, for a
lost scheduler, one ``dask scheduler`` process on 127.0.0.1; every wait is bounded.
"""

import errno
import http.server
import json
import socket
import subprocess
import sys
import threading
import time

import numpy as np
import pandas as pd
import pytest

pytest.importorskip("dask.distributed")

from ikviz import IsolationKernel  # noqa: E402
from ikviz.cli import main  # noqa: E402
from ikviz.scale import run as scale_run  # noqa: E402
from ikviz.scale.cluster import ClusterError, check_address, connect, probe  # noqa: E402
from ikviz.scale.io import check_output  # noqa: E402
from ikviz.scale.run import features  # noqa: E402

LOOPBACK = "127.0.0.1"


@pytest.fixture(scope="module")
def client():
    with connect(n_workers=1, processes=False, dashboard_address=None, quiet=True) as c:
        yield c


@pytest.fixture()
def data(tmp_path):
    """An input folder: two Parquet files, and a thesis.txt that nobody may delete."""
    folder = tmp_path / "data"
    folder.mkdir()
    X = np.random.default_rng(0).normal(size=(1200, 3))
    for i in range(2):
        pd.DataFrame(X[i * 600:(i + 1) * 600], columns=["a", "b", "c"]).to_parquet(folder / f"part{i}.parquet",
                                                                             row_group_size=300)
    (folder / "thesis.txt").write_text("three years of work")
    return folder, X


def listing(folder):
    return sorted(p.name for p in folder.iterdir())


def earlier_output(out, extra=None):
    out.mkdir()
    (out / "_ikviz.json").write_text("{}")
    (out / "part.00000.parquet").write_text("the earlier output")
    if extra:
        (out / extra).write_text("not ikviz's")
    return out


def timed(fn, *args, **kwargs):
    start = time.perf_counter()
    try:
        fn(*args, **kwargs)
    except Exception as exc:  # noqa: BLE001 - the test inspects it
        return exc, time.perf_counter() - start
    return None, time.perf_counter() - start


def one_line(text):
    lines = [line for line in text.strip().splitlines() if line.startswith("ikviz scale:")]
    assert len(lines) == 1 and "Traceback" not in text, text
    return lines[0]


# ------------------------------------------------------------------ never delete what ikviz did not write
@pytest.mark.parametrize("where", ["input folder", "folder holding it"])
def test_out_that_holds_the_input_is_refused_and_nothing_is_deleted(where, data, client):
    folder, _ = data
    out = folder if where == "input folder" else folder.parent
    before = listing(folder)
    for overwrite in (False, True):
        exc, _ = timed(features, folder, out, psi=8, t=5, client=client, overwrite=overwrite)
        assert isinstance(exc, ValueError) and "holds the input" in str(exc)
        assert str(folder / "part0.parquet") in str(exc)
    assert listing(folder) == before and (folder / "thesis.txt").read_text() == "three years of work"


def test_out_with_files_ikviz_did_not_write_is_refused(data, client, tmp_path):
    folder, _ = data
    out = tmp_path / "mine"
    out.mkdir()
    (out / "thesis.txt").write_text("mine")
    exc, _ = timed(features, folder, out, psi=8, t=5, client=client, overwrite=True)
    assert isinstance(exc, ValueError) and "'thesis.txt'" in str(exc) and "did not write" in str(exc)
    assert listing(out) == ["thesis.txt"]
    # an earlier ikviz output with someone's file put in it: refused too, even with --overwrite
    mixed = earlier_output(tmp_path / "mixed", extra="notes.txt")
    exc, _ = timed(features, folder, mixed, psi=8, t=5, client=client, overwrite=True)
    assert isinstance(exc, ValueError) and "'notes.txt'" in str(exc)
    assert listing(mixed) == ["_ikviz.json", "notes.txt", "part.00000.parquet"]
    # a file where the folder would go
    (tmp_path / "afile").write_text("x")
    with pytest.raises(ValueError, match="is a file"):
        check_output(tmp_path / "afile")


def test_overwrite_replaces_only_an_earlier_ikviz_output_atomically(data, client, tmp_path):
    folder, X = data
    out = earlier_output(tmp_path / "cells")
    exc, _ = timed(features, folder, out, psi=8, t=5, client=client)
    assert isinstance(exc, ValueError) and "--overwrite" in str(exc)
    assert (out / "part.00000.parquet").read_text() == "the earlier output"
    res = features(folder, out, psi=8, t=5, client=client, overwrite=True)
    expected = IsolationKernel(psi=8, t=5, method="anne", random_state=0).fit(X).cells(X)
    assert res.n_rows == 1200 and np.array_equal(pd.read_parquet(out).to_numpy(), expected)
    assert json.loads((out / "_ikviz.json").read_text())["n_rows"] == 1200
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")]  # no temporary or old copy left
    # an empty folder is fine (nothing to lose), and the CLI says the same refusal in one line
    (tmp_path / "empty").mkdir()
    assert check_output(tmp_path / "empty") == tmp_path / "empty"


def test_cli_refuses_the_input_folder_in_one_line(data, capsys):
    folder, _ = data
    before = listing(folder)
    rc = main(["scale", "features", str(folder), "--out", str(folder), "--overwrite",
               "--scheduler", f"tcp://{LOOPBACK}:1"])
    assert rc == 2 and "holds the input" in one_line(capsys.readouterr().err)
    assert listing(folder) == before


# ------------------------------------------------------------------ the Dask path fails clearly
@pytest.mark.parametrize("address, says", [
    ("tls://127.0.0.1:8786", "tls:// needs TLS certificates"),
    ("ucx://127.0.0.1:8786", "ucx:// needs UCX-Py"),
    ("inproc://127.0.0.1/1/2", "inproc:// only reaches a scheduler inside the same Python process"),
    ("127.0.0.1", "expected tcp://HOST:PORT"),
])
def test_unsupported_scheme_is_one_line_at_once(address, says, data, capsys):
    folder, _ = data
    start = time.perf_counter()
    rc = main(["scale", "features", str(folder), "--out", str(folder.parent / "cells"), "--scheduler", address])
    assert time.perf_counter() - start < 3
    assert rc == 2 and says in one_line(capsys.readouterr().err)
    assert check_address("127.0.0.1:8786") == "tcp://127.0.0.1:8786"


def silent_port():
    """A plain socket server that accepts and says nothing."""
    server = socket.socket()
    server.bind((LOOPBACK, 0))
    server.listen(8)
    held = []
    threading.Thread(target=lambda: [held.append(server.accept()) for _ in iter(int, 1)], daemon=True).start()
    return server, server.getsockname()[1]


def garbage_port():
    """A server that answers every connection with a line that is not Dask's protocol."""
    server = socket.socket()
    server.bind((LOOPBACK, 0))
    server.listen(8)

    def serve():
        while True:
            conn, _ = server.accept()
            conn.sendall(b"SSH-2.0-OpenSSH_9.6\r\n" * 8)

    threading.Thread(target=serve, daemon=True).start()
    return server, server.getsockname()[1]


def http_port():
    server = http.server.ThreadingHTTPServer((LOOPBACK, 0), http.server.SimpleHTTPRequestHandler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, server.server_address[1]


def test_non_dask_endpoints_are_named_within_the_timeout():
    server, port = silent_port()
    exc, seconds = timed(probe, f"tcp://{LOOPBACK}:{port}", timeout=1)
    assert isinstance(exc, ClusterError) and "did not answer as a Dask scheduler within 1 s" in str(exc)
    assert seconds < 3
    server.close()
    server, port = http_port()
    exc, seconds = timed(probe, f"tcp://{LOOPBACK}:{port}", timeout=1)
    assert isinstance(exc, ClusterError) and "did not answer as a Dask scheduler" in str(exc) and seconds < 3
    server.shutdown()
    server, port = garbage_port()
    exc, seconds = timed(probe, f"tcp://{LOOPBACK}:{port}", timeout=1)
    assert isinstance(exc, ClusterError) and "not in Dask's protocol" in str(exc) and seconds < 3
    assert "EiB" not in str(exc)
    server.close()


def test_cli_silent_port_fails_within_five_seconds(data, capsys):
    folder, _ = data
    server, port = silent_port()
    out = folder.parent / "cells"
    start = time.perf_counter()
    rc = main(["scale", "features", str(folder), "--out", str(out), "--scheduler", f"tcp://{LOOPBACK}:{port}"])
    seconds = time.perf_counter() - start
    server.close()
    line = one_line(capsys.readouterr().err)
    assert rc == 2 and f"tcp://{LOOPBACK}:{port}" in line and "within 5 s" in line
    assert seconds < 9 and not out.exists()


def run_in_thread(fn, limit, **kwargs):
    """``fn(**kwargs)`` in a thread; (exception or None, seconds), or a failed test if it runs past ``limit``."""
    box = {}

    def target():
        box["result"] = timed(fn, **kwargs)

    thread = threading.Thread(target=target, daemon=True)
    thread.start()
    thread.join(limit)
    assert "result" in box, f"still running after {limit} s (a hang)"
    return box["result"]


def test_no_live_worker_stops_the_run(data, tmp_path):
    folder, _ = data
    out = earlier_output(tmp_path / "cells")
    from dask.distributed import Client, LocalCluster

    with LocalCluster(n_workers=0, processes=False, dashboard_address=":0") as cluster, Client(cluster) as empty:
        exc, seconds = run_in_thread(features, 30, spec=folder, out=out, psi=8, t=5, client=empty, overwrite=True,
                                     worker_timeout=1)
    assert isinstance(exc, ClusterError) and "No live Dask worker" in str(exc) and "for 1 s" in str(exc), exc
    assert seconds < 10
    assert listing(out) == ["_ikviz.json", "part.00000.parquet"]
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")]


def free_port():
    with socket.socket() as s:
        s.bind((LOOPBACK, 0))
        return s.getsockname()[1]


def test_lost_scheduler_stops_the_run(data, tmp_path):
    folder, _ = data
    port = free_port()
    scheduler = subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_scheduler", "--host", LOOPBACK,
                                  "--port", str(port), "--no-dashboard"],
                                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:  # wait until it listens
            with socket.socket() as s:
                if s.connect_ex((LOOPBACK, port)) == 0:
                    break
            time.sleep(0.2)
        out = earlier_output(tmp_path / "cells")
        # no worker, so the run waits on the scheduler; the scheduler then goes away
        killer = threading.Timer(2.0, scheduler.kill)
        killer.start()
        exc, seconds = run_in_thread(features, 60, spec=folder, out=out, psi=8, t=5,
                                     scheduler=f"tcp://{LOOPBACK}:{port}", overwrite=True, worker_timeout=600,
                                     stream=open(tmp_path / "log.txt", "w"))
    finally:
        scheduler.kill()
        scheduler.wait()
    assert isinstance(exc, ClusterError) and "Lost the connection to the Dask scheduler" in str(exc), exc
    assert seconds < 30
    assert listing(out) == ["_ikviz.json", "part.00000.parquet"]
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")]


def test_disk_full_is_one_line_and_the_output_stays(data, client, tmp_path, monkeypatch):
    folder, _ = data
    out = earlier_output(tmp_path / "cells")

    def full(table, path):
        raise OSError(errno.ENOSPC, "No space left on device", path)

    monkeypatch.setattr(scale_run, "write_part", full)  # the workers are threads of this process
    exc, _ = timed(features, folder, out, psi=8, t=5, client=client, overwrite=True)
    assert type(exc) is OSError and "no space left on the device" in str(exc) and str(out) in str(exc)
    assert "\n" not in str(exc) and "Errno" not in str(exc)
    assert listing(out) == ["_ikviz.json", "part.00000.parquet"]
    assert (out / "part.00000.parquet").read_text() == "the earlier output"
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")]


# ------------------------------------------------------------------ layering and progress
def test_engine_does_not_import_scale():
    code = ("import sys, ikviz, ikviz.kernels, ikviz.learn, ikviz.cli; "
            "bad = sorted(m for m in sys.modules if m.startswith('ikviz.scale.') or m in ('ikviz.scale', 'dask')); "
            "assert not bad, bad")
    subprocess.run([sys.executable, "-c", code], check=True)


def test_progress_is_fraction_and_text(data, client, tmp_path):
    folder, _ = data
    seen = []
    features(folder, tmp_path / "cells", psi=8, t=5, client=client, progress=lambda f, text: seen.append((f, text)),
             chunk_rows=300)
    fractions = [f for f, _ in seen]
    assert fractions == sorted(fractions) and fractions[0] == 0.0 and fractions[-1] == 1.0
    assert all(isinstance(text, str) and text for _, text in seen)
    assert any("block 4 of 4 written" in text for _, text in seen)  # 1,200 rows in pieces of 300 rows


# ------------------------------------------------------------------ the Dask path reads once (issue 34 item 4)
def test_data_that_fit_in_the_workers_memory_are_read_once(data, client, tmp_path, monkeypatch):
    import ikviz.data.files as scale_io

    folder, X = data
    reads = []
    original = scale_io._read_parquet_piece

    def counted(piece, features, label):
        reads.append((piece.path, piece.row_groups))
        return original(piece, features, label)

    monkeypatch.setattr(scale_io, "_read_parquet_piece", counted)  # the workers are threads of this process
    expected = IsolationKernel(psi=8, t=5, method="anne", random_state=0).fit(X).cells(X)
    features(folder, tmp_path / "once", psi=8, t=5, client=client, chunk_rows=300)
    assert len(reads) == 4 and len(set(reads)) == 4  # 4 pieces of 300 rows, each read once
    assert np.array_equal(pd.read_parquet(tmp_path / "once").to_numpy(), expected)
    reads.clear()
    monkeypatch.setattr(scale_run, "MEMORY_SHARE", 0.0)  # larger than memory: the sample, then the cells
    features(folder, tmp_path / "twice", psi=8, t=5, client=client, chunk_rows=300)
    assert len(reads) == 8 and len(set(reads)) == 4
    assert np.array_equal(pd.read_parquet(tmp_path / "twice").to_numpy(), expected)


@pytest.mark.slow
def test_worker_processes_compile_numba_code_from_a_cold_cache(tmp_path):
    """A spawned worker re-imports the caller's __main__ (here ikviz.scale.bench, hence numba) before
    distributed applies its env; NUMBA_NUM_THREADS must be there from the spawn on, or the workers'
    first compile fails ("Cannot set NUMBA_NUM_THREADS to a different value")."""
    from ikviz.scale.bench import generate

    data = generate(tmp_path / "data", 3000, 4)
    env = {**__import__("os").environ, "NUMBA_CACHE_DIR": str(tmp_path / "numba-cache")}  # nothing compiled yet
    proc = subprocess.run([sys.executable, "-m", "ikviz.scale.bench", "_dask", str(data), str(tmp_path / "out"),
                           "8", "5", "anne", "1"], env=env, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert json.loads(proc.stdout.strip().splitlines()[-1])["rows"] == 3000


# ------------------------------------------------------------------ the Dask inputs' own size bounds (issue 31 item 3)
from ikviz import _limits  # noqa: E402
from ikviz.data import _parse  # noqa: E402
from ikviz.data.files import open_source, read_dataset  # noqa: E402


def _refusal(fn, *args, **kwargs) -> str:
    with pytest.raises(ValueError) as info:
        fn(*args, **kwargs)
    return str(info.value)


def _in_memory_refusal(path) -> str:
    """What the in-memory reader (Your data, ikviz check) says of the same file."""
    return _refusal(_parse.parse, path.read_bytes(), str(path), None)


def test_a_csv_header_over_the_column_limit_is_refused_as_the_upload_refuses_it(tmp_path):
    path = tmp_path / "wide.csv"
    path.write_text(",".join(f"c{j}" for j in range(10_001)) + "\n" + ",".join("1" * 10_001) + "\n")
    said = f"{path}: the header row has 10,001 columns, over the limit of 10,000."
    start = time.perf_counter()
    assert said in _refusal(open_source, path)
    assert time.perf_counter() - start < 2
    assert said[:-1] in _in_memory_refusal(path)


def test_long_lines_are_refused_before_pandas_holds_them(tmp_path, monkeypatch):
    monkeypatch.setattr(_limits, "MAX_LINE_CHARS", 1000)
    monkeypatch.setattr(_parse, "MAX_LINE_CHARS", 1000)
    head = tmp_path / "head.csv"
    head.write_bytes(b"a,b\n1,2\n3," + b"4" * 5000 + b"\n5,6\n")
    said = f"{head}: line 3 is 5,002 bytes long, over the limit of 1,000 bytes"
    assert said in _refusal(open_source, head)            # within the rows sampled for the column types
    assert said in _in_memory_refusal(head)
    deep = tmp_path / "deep.csv"                          # far past the sample, in the third of four pieces
    deep.write_bytes(b"a,b\n" + b"1,2\n" * 3000 + b"3," + b"4" * 5000 + b"\n" + b"5,6\n" * 3000)
    ds = read_dataset(deep, blocksize=5000)
    message = _refusal(ds.X.compute, scheduler="sync")
    assert f"{deep}: line 3,002 is 5,002 bytes long, over the limit of 1,000 bytes" in message
    last = tmp_path / "last.csv"                          # the long line is the last, crossing a piece's end
    last.write_bytes(b"a,b\n" + b"1,2\n" * 3000 + b"3," + b"4" * 5000)
    message = _refusal(read_dataset(last, blocksize=5000).X.compute, scheduler="sync")
    assert f"{last}: line 3,002 is 5,002 bytes long" in message


def test_parquet_columns_row_groups_and_metadata_are_bounded_before_reading(tmp_path, monkeypatch):
    path = tmp_path / "t.parquet"
    pd.DataFrame({f"c{j}": np.zeros(5000) for j in range(3)}).to_parquet(path, row_group_size=5000)
    monkeypatch.setattr(_limits, "MAX_COLUMNS", 2)
    assert f"{path}: its schema has 3 columns, over the limit of 2." in _refusal(open_source, path)
    monkeypatch.setattr(_limits, "MAX_COLUMNS", 10_000)
    monkeypatch.setattr(_limits, "MAX_PIECE_BYTES", 100_000)   # one row group: 5,000 x 3 x 8 = 120,000 bytes
    message = _refusal(open_source, path)
    assert f"{path}: 5,000 rows x 3 columns in 1 row group(s)" in message and "row group 0 is read whole" in message
    small = tmp_path / "small_groups.parquet"                  # the same rows in small row groups: read
    pd.DataFrame({f"c{j}": np.zeros(5000) for j in range(3)}).to_parquet(small, row_group_size=1000)
    assert read_dataset(small).X.compute(scheduler="sync").shape == (5000, 3)
    monkeypatch.setattr(_limits, "MAX_PARQUET_FOOTER", 100)
    message = _refusal(open_source, path)
    assert f"{path}: its metadata (footer) take" in message and "over the limit of 0.0 MB" in message
    monkeypatch.setattr(_parse, "MAX_PARQUET_FOOTER", 100)
    assert "its metadata (footer) take" in _in_memory_refusal(path)
    forged = tmp_path / "forged.parquet"                       # a footer length of 4 GB, declared by 8 bytes
    forged.write_bytes(b"PAR1" + b"\0" * 100 + (2**32 - 1).to_bytes(4, "little") + b"PAR1")
    assert "its metadata (footer) take 4.0 GB" in _refusal(open_source, forged)


@pytest.mark.parametrize("spec, says", [("x" * 4996 + ".csv", "5,000 characters long, over the 4,096"),
                                        ("a\0b.csv", "NUL character")])
def test_paths_that_cannot_be_are_refused_in_words(spec, says):
    assert says in _refusal(open_source, spec)


def test_the_limits_are_said_once():
    """Both readers read the same numbers (ikviz/_limits.py); a LIBSVM file is not a Dask input at all."""
    for name in ("MAX_COLUMNS", "MAX_LINE_CHARS", "MAX_DENSE_BYTES", "MAX_PARQUET_FOOTER", "MAX_LIBSVM_INDEX"):
        assert getattr(_parse, name) == getattr(_limits, name)
    with pytest.raises(ValueError, match="neither a Parquet"):
        from ikviz.data.files import find_files
        find_files(__file__)
