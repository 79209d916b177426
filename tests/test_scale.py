"""The Dask path (issue 13): kernel on Dask arrays, ``ikviz scale features / learn``, bad input.

Everything runs on one LocalCluster of 2 worker processes (module fixture), on small data.
The CLI is driven with ``--scheduler`` pointing at that cluster, so no second cluster starts.
"""

import pickle
import socket
import subprocess
import sys
import time

import numpy as np
import pandas as pd
import pytest

da = pytest.importorskip("dask.array")
dd = pytest.importorskip("dask.dataframe")
pytest.importorskip("dask.distributed")

from ikviz import IsolationKernel  # noqa: E402
from ikviz.cli import main  # noqa: E402
from ikviz._dask import is_dask_array, map_row_blocks, n_rows, take_rows  # noqa: E402
from ikviz.scale.cluster import connect  # noqa: E402
from ikviz.data.files import read_dataset  # noqa: E402
from ikviz.scale.run import cell_dtype, features, learn  # noqa: E402


@pytest.fixture(scope="module")
def client():
    # worker processes are spawned and re-run __main__'s file; after an AppTest in this process that is
    # app/Home.py, which cannot be imported there, so workers must not see it
    with pytest.MonkeyPatch.context() as mp:
        mp.delattr(sys.modules["__main__"], "__file__", raising=False)
        with connect(n_workers=2, threads_per_worker=1, memory_limit="2GiB", dashboard_address=None,
                     quiet=True) as c:
            yield c


@pytest.fixture(scope="module")
def data():
    rng = np.random.default_rng(0)
    X = np.vstack([rng.normal(0, 0.3, (900, 3)), rng.normal(3, 1.0, (900, 3))])[rng.permutation(1800)]
    return X


def frame(X):
    df = pd.DataFrame(X, columns=["a", "b", "c"])
    df["name"] = "row"  # a non-numeric column, skipped by default
    return df


# ------------------------------------------------------------------- arrays
def test_importing_ikviz_does_not_import_dask():
    code = ("import sys, numpy as np, ikviz, ikviz.cli; from ikviz._dask import is_dask_array; "
            "assert not is_dask_array(np.zeros((2, 2))); assert 'dask' not in sys.modules, 'dask imported'")
    subprocess.run([sys.executable, "-c", code], check=True)


def test_take_rows_and_n_rows(data, client):
    D = da.from_array(data, chunks=((500, 300, 1000), (2, 1)))
    rows = np.array([0, 1, 499, 500, 799, 800, 1799])
    assert is_dask_array(D) and not is_dask_array(data)
    assert n_rows(D) == 1800
    got = take_rows(D, rows)
    assert got.dtype == np.float64 and got.flags.c_contiguous and np.array_equal(got, data[rows])
    U = dd.from_pandas(frame(data)[["a", "b", "c"]], npartitions=4).to_dask_array()  # unknown chunk sizes
    assert np.isnan(U.chunks[0][0])
    assert np.array_equal(take_rows(U, rows), data[rows]) and n_rows(U) == 1800


def test_map_row_blocks_dense_sparse_and_empty_blocks():
    import scipy.sparse as sp

    X = np.arange(12.0).reshape(6, 2)
    D = da.from_array(X, chunks=((0, 4, 0, 2), (2,)))
    dense = map_row_blocks(lambda b: b.sum(axis=1, keepdims=True) * [1, 2, 3], D, n_cols=3, dtype=np.float64)
    assert dense.chunks == ((0, 4, 0, 2), (3,))
    assert np.array_equal(dense.compute(), X.sum(axis=1, keepdims=True) * [1, 2, 3])
    sparse = map_row_blocks(lambda b: sp.csr_matrix(b), D, n_cols=2, dtype=np.float64, sparse=True)
    out = sparse.compute()
    assert sp.issparse(out) and np.array_equal(out.toarray(), X)


# ------------------------------------------------------------------- kernel
@pytest.mark.parametrize("method", ["anne", "iforest", "inne"])
def test_kernel_on_dask_equals_numpy(method, data, client):
    D = da.from_array(data, chunks=(400, 3))
    ik_np = IsolationKernel(psi=16, t=50, method=method, random_state=3).fit(data)
    ik_dk = IsolationKernel(psi=16, t=50, method=method, random_state=3).fit(D)
    assert np.array_equal(ik_np.samples_, ik_dk.samples_)
    cells = ik_dk.cells(D)
    assert is_dask_array(cells) and cells.chunks[0] == D.chunks[0]
    assert np.array_equal(cells.compute(), ik_np.cells(data))
    Phi = ik_dk.transform(D)
    assert Phi.chunks[0] == D.chunks[0]
    assert (Phi.compute() != ik_np.transform(data)).nnz == 0
    # a Dask array from a data frame (unknown chunk sizes), mapped by a NumPy-fitted kernel
    U = dd.from_pandas(frame(data)[["a", "b", "c"]], npartitions=3).to_dask_array()
    assert np.array_equal(ik_np.cells(U).compute(), ik_np.cells(data))


def test_fitted_kernel_pickles(data):
    ik = IsolationKernel(psi=16, t=20, random_state=0).fit(data)
    assert np.array_equal(pickle.loads(pickle.dumps(ik)).cells(data), ik.cells(data))


def test_cell_dtype():
    assert cell_dtype(64) == np.int8 and cell_dtype(128) == np.int8 and cell_dtype(129) == np.int16
    assert cell_dtype(40_000) == np.int32


# ------------------------------------------------------------ command line
def expected_cells(X, psi=16, t=20, seed=0, method="anne"):
    return IsolationKernel(psi=psi, t=t, method=method, random_state=seed).fit(X).cells(X)


def test_cli_features_parquet_folder(tmp_path, data, client, capsys):
    folder = tmp_path / "in"
    folder.mkdir()
    df = frame(data)
    for i, lo in enumerate(range(0, 1800, 700)):  # three files, row groups of 200 rows
        df.iloc[lo:lo + 700].to_parquet(folder / f"part{i}.parquet", row_group_size=200)
    out = tmp_path / "cells"
    rc = main(["scale", "features", str(folder), "--psi", "16", "--t", "20", "--seed", "0", "--out", str(out),
               "--scheduler", client.scheduler.address])
    assert rc == 0
    assert "wrote" in capsys.readouterr().out
    got = pd.read_parquet(out)
    assert list(got.columns) == [f"p{k}" for k in range(20)] and got.dtypes.iloc[0] == np.int8
    assert np.array_equal(got.to_numpy(), expected_cells(data))
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")]  # no temporary left


def test_cli_features_csv_glob_columns_and_env_address(tmp_path, data, client, monkeypatch):
    df = frame(data)
    df.iloc[:1000].to_csv(tmp_path / "a.csv", index=False)
    df.iloc[1000:].to_csv(tmp_path / "b.csv", index=False)
    monkeypatch.setenv("DASK_SCHEDULER_ADDRESS", client.scheduler.address)
    out = tmp_path / "cells"
    rc = main(["scale", "features", str(tmp_path / "*.csv"), "--psi", "16", "--t", "20", "--method", "iforest",
               "--columns", "a,c", "--out", str(out), "--no-progress"])
    assert rc == 0
    got = pd.read_parquet(out).to_numpy()
    assert np.array_equal(got, expected_cells(np.ascontiguousarray(data[:, [0, 2]]), method="iforest"))


def test_csv_pieces_keep_row_order(tmp_path, data, client):
    frame(data).to_csv(tmp_path / "x.csv", index=False)
    ds = read_dataset(tmp_path / "x.csv", blocksize=4096)  # many byte ranges
    assert ds.X.numblocks[0] > 10
    assert np.allclose(ds.X.compute(), data, rtol=1e-15, atol=0)
    res = features(tmp_path / "x.csv", tmp_path / "out", psi=16, t=20, client=client,
                   blocksize=4096)
    assert res.n_rows == 1800
    text_data = pd.read_csv(tmp_path / "x.csv")[["a", "b", "c"]].to_numpy()
    assert np.array_equal(pd.read_parquet(tmp_path / "out").to_numpy(), expected_cells(text_data))


# ---------------------------------------------------------------- bad input
def run_cli(args, client, capsys):
    rc = main(["scale", *args, "--scheduler", client.scheduler.address, "--no-progress"])
    return rc, capsys.readouterr().err


def lines_with(path, lineno, edit):
    lines = path.read_text().split("\n")
    lines[lineno - 1] = edit(lines[lineno - 1])
    path.write_text("\n".join(lines))


@pytest.mark.parametrize("case", ["fields", "text", "missing"])
def test_malformed_row_deep_in_a_file_is_named(case, tmp_path, data, client, capsys):
    path = tmp_path / "data.csv"
    frame(data).to_csv(path, index=False)
    edits = {"fields": lambda s: s + ",7",
             "text": lambda s: ",".join([s.split(",")[0], "oops", *s.split(",")[2:]]),
             "missing": lambda s: ",".join([s.split(",")[0], "", *s.split(",")[2:]])}
    lines_with(path, 1700, edits[case])       # line 1700 = data row 1699, in the last byte range
    out = tmp_path / "out"
    out.mkdir()
    (out / "_ikviz.json").write_text("{}")  # an earlier ikviz output, to be replaced: it stays as it was
    (out / "part.00000.parquet").write_text("an older output stays as it was")
    res = pytest.raises(ValueError, features, path, out, psi=16, t=20, client=client, overwrite=True,
                        blocksize=8192)
    msg = str(res.value)
    assert "data.csv" in msg and "line 1,700" in msg and "row 1,699" in msg
    assert {"fields": "expected 4 fields, saw 5", "text": "'b' holds 'oops'", "missing": "'b' is missing"}[case] in msg
    assert sorted(p.name for p in out.iterdir()) == ["_ikviz.json", "part.00000.parquet"]
    assert (out / "part.00000.parquet").read_text() == "an older output stays as it was"
    assert {p.name for p in tmp_path.iterdir()} == {"data.csv", "out"}  # no temporary output left


def test_missing_value_in_parquet_names_file_and_row(tmp_path, data, client, capsys):
    df = frame(data)
    df.loc[1234, "c"] = np.nan
    df.to_parquet(tmp_path / "x.parquet", row_group_size=300)
    rc, err = run_cli(["features", str(tmp_path / "x.parquet"), "--t", "20", "--psi", "16",
                       "--out", str(tmp_path / "out")], client, capsys)
    assert rc == 2 and "x.parquet, row 1,235" in err and "'c'" in err
    assert not (tmp_path / "out").exists() and len(list(tmp_path.iterdir())) == 1


def test_files_with_different_columns_are_both_named(tmp_path, data, client, capsys):
    df = frame(data)
    df.iloc[:900].to_parquet(tmp_path / "one.parquet")
    df.iloc[900:].rename(columns={"b": "B"}).to_parquet(tmp_path / "two.parquet")
    rc, err = run_cli(["features", str(tmp_path), "--out", str(tmp_path / "out")], client, capsys)
    assert rc == 2 and "one.parquet" in err and "two.parquet" in err and "'b'" in err


def test_non_numeric_column_is_named(tmp_path, data, client, capsys):
    frame(data).to_csv(tmp_path / "x.csv", index=False)
    rc, err = run_cli(["features", str(tmp_path / "x.csv"), "--columns", "a", "name",
                       "--out", str(tmp_path / "out")], client, capsys)
    assert rc == 2 and "'name'" in err and "non-numeric" in err


def test_unreachable_scheduler_fails_fast(tmp_path, data, capsys):
    frame(data).to_parquet(tmp_path / "x.parquet")
    with socket.socket() as s:   # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    start = time.perf_counter()
    rc = main(["scale", "features", str(tmp_path / "x.parquet"), "--out", str(tmp_path / "out"),
               "--scheduler", f"tcp://127.0.0.1:{port}"])
    assert time.perf_counter() - start < 10
    err = capsys.readouterr().err
    assert rc == 2 and f"tcp://127.0.0.1:{port}" in err and "Could not reach a Dask scheduler" in err
    assert not (tmp_path / "out").exists()


def test_missing_input(tmp_path, client, capsys):
    rc, err = run_cli(["features", str(tmp_path / "nope.parquet"), "--out", str(tmp_path / "o")], client, capsys)
    assert rc == 2 and "does not exist" in err


# -------------------------------------------------------------------- learn
def test_learn_ik_ogd_and_fogd_over_blocks(tmp_path, client, capsys):
    rng = np.random.default_rng(1)
    X = rng.uniform(-1, 1, size=(6000, 2))
    df = pd.DataFrame(X, columns=["u", "v"])
    df["label"] = np.where(X[:, 0] * X[:, 1] > 0, "same", "diff")
    df.to_parquet(tmp_path / "xor.parquet", row_group_size=1000)
    res = learn(tmp_path / "xor.parquet", "label", psi=16, t=50, prefix=500, client=client,
                chunk_rows=1000, gamma=4.0)
    out = capsys.readouterr().out
    assert "held-out accuracy" in out and "IK+OGD" in out
    assert res.classes == ["diff", "same"]
    assert 800 < res.n_test < 1600 and res.n_train + res.n_test == 6000
    assert res.accuracy["IK+OGD"] > 0.85 and res.accuracy["FOGD"] > 0.8
    assert res.mistake_rate["IK+OGD"] < 0.2
    rc, err = run_cli(["learn", str(tmp_path / "xor.parquet"), "--label", "nope"], client, capsys)
    assert rc == 2 and "'nope'" in err


def test_cli_learn_on_csv_with_integer_labels(tmp_path, client, capsys):
    rng = np.random.default_rng(2)
    X = rng.normal(size=(3000, 2))
    df = pd.DataFrame(X, columns=["u", "v"])
    df["y"] = (np.hypot(X[:, 0], X[:, 1]) < 1.1).astype(int)
    df.iloc[:1500].to_csv(tmp_path / "a.csv", index=False)
    df.iloc[1500:].to_csv(tmp_path / "b.csv", index=False)
    rc = main(["scale", "learn", str(tmp_path), "--label", "y", "--psi", "16", "--t", "50", "--prefix", "300",
               "--scheduler", client.scheduler.address, "--no-progress"])
    out = capsys.readouterr().out
    assert rc == 0 and "progressive mistake rate" in out and "held-out accuracy" in out
    acc = float(out.split("held-out accuracy")[1].split("IK+OGD")[1].split(",")[0])
    assert acc > 0.85


# ------------------------------------------------------------------ the app's shared cluster and cell counts
def test_cell_counts_on_worker_processes_equal_numpy(data, client):
    from ikviz.scale.run import cell_counts

    labels = np.where(data[:, 0] > 1.5, "b", "a").astype(object)
    X, y = da.from_array(data, chunks=(500, 3)), da.from_array(labels, chunks=500)
    kernel = IsolationKernel(psi=16, t=20, random_state=0).fit(X)
    reports = []
    counts = cell_counts(kernel, X, y, np.array(["a", "b"], dtype=object), client=client,
                         progress=lambda f, text: reports.append(f))
    cells = kernel.cells(data)
    for c, label in enumerate(["a", "b"]):
        expected = np.stack([np.bincount(cells[labels == label, k], minlength=16) for k in range(20)])
        np.testing.assert_array_equal(counts[c], expected)
    assert counts.shape == (2, 20, 16) and reports == [0.25, 0.5, 0.75, 1.0]
    unsplit = cell_counts(kernel, X, client=client)
    np.testing.assert_array_equal(unsplit[0], counts.sum(axis=0))


def test_shared_client_is_one_per_process_and_follows_the_address(client, monkeypatch):
    from ikviz.scale.run import close_shared_client, shared_client

    monkeypatch.setenv("DASK_SCHEDULER_ADDRESS", client.scheduler.address)
    try:
        first = shared_client()
        assert shared_client() is first and first.scheduler.address == client.scheduler.address
        monkeypatch.delenv("DASK_SCHEDULER_ADDRESS")
        local = shared_client()  # no address any more: the embedded cluster, in this process
        assert local is not first and local.scheduler.address.startswith("inproc://")
        assert first.status != "running"
    finally:
        close_shared_client()
