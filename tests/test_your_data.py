"""Your data: every bundled dataset runs through every check; bad files give messages on the page."""

import numpy as np
import pytest

import apptest

from ikviz.data import dataset_names, load_dataset
from ikviz.data.upload import subsample, UserData
from ikviz.experiments import your_data as exp



FAST_NAMES = ("iris", "wine", "a9a")  # the rest run in the slow set


@pytest.mark.parametrize("name", [n if n in FAST_NAMES else pytest.param(n, marks=pytest.mark.slow)
                                  for n in dataset_names()])
def test_every_bundled_dataset_runs_through_every_check(name):
    X, y = load_dataset(name)
    small = subsample(UserData(X, y, [], "label", [str(c) for c in np.unique(y)]), 150, seed=0)
    out = exp.run_all(exp.prepare(small.X), small.y, psi=16, t=30, seed=0)
    assert set(out) == {"neighbours", "tsne", "svm", "clustering"}
    assert all(0 <= r["accuracy"] <= 1 for r in out["svm"])
    assert out["tsne"]["coords"]["ik"].shape == (150, 2)
    assert all(np.all(v >= 1) for v in out["neighbours"]["n_eps"].values())


def test_checks_agree_with_known_structure():
    rng = np.random.default_rng(0)
    X = np.vstack([rng.normal(0, 0.05, (60, 3)), rng.normal(1, 0.05, (60, 3))])
    y = np.repeat([0, 1], 60)
    svm = {r["kernel"]: r["accuracy"] for r in exp.svm_check(X, y, psi=8, t=50)}
    assert min(svm.values()) == 1.0
    clusters = {r["measure"]: r["ami"] for r in exp.clustering_check(X, y, psi=8, t=50)}
    assert clusters["ik"] > 0.9 and clusters["gk"] > 0.9
    res = exp.neighbour_check(X, y, psi=8, t=50)
    assert res["precision"]["ik"] == 1.0 and "median / mean" in exp.neighbour_verdict(res)


def test_single_class_is_refused_with_a_message():
    X = np.random.default_rng(0).normal(size=(30, 2))
    with pytest.raises(ValueError, match="at least two classes"):
        exp.svm_check(X, np.zeros(30, dtype=int))
    with pytest.raises(ValueError, match="at least two classes"):
        exp.clustering_check(X, np.zeros(30, dtype=int))


# ----------------------------------------------------------------- the page
def open_page(upload: bytes | None = None, **query):
    session = None if upload is None else {"upload_bytes": upload, "upload_name": "mine.csv"}
    return apptest.open_page("your_data", session=session, **query)


def test_bundled_dataset_summary_and_checks_run_from_buttons():
    at = open_page(dataset="wine", max_rows="500")
    assert [m.value for m in at.metric][:3] == ["178", "13", "3"]
    for button in list(at.button):
        button.click().run()
        assert not at.exception and not at.error
    assert len(at.get("plotly_chart")) == 2  # neighbours and t-SNE
    assert len(at.dataframe) == 2            # SVM and clustering tables


BAD_FILES = {
    "empty": (b"", "The file is empty"),
    "not csv": (b"\x89PNG\r\n\x1a\n\x00\x00binary", "not a text file"),
    "non-numeric": (b"a,b,c\n1,x,0\n2,y,1\n3,z,0\n", "not numeric: 'b'"),
    "missing values": (b"a,b\n1,2\n,3\n4,5\n", "missing values"),
    "single row": (b"a,b\n1,2\n", "at least 2"),
    "ragged": (b"a,b,c\n1,2\n", "do not have the 3 columns"),
    "hundreds of classes": (("a,label\n" + "\n".join(f"{i},c{i}" for i in range(250))).encode(),
                            "250 distinct values"),
}


@pytest.mark.parametrize("kind", list(BAD_FILES))
def test_bad_uploads_show_the_loader_message(kind):
    raw, message = BAD_FILES[kind]
    at = open_page(upload=raw, source="upload a file")
    errors = " ".join(e.value for e in at.error)
    assert message in errors, errors
    assert not at.metric  # nothing pretends to have loaded


def test_oversized_upload_is_refused(monkeypatch):
    from ikviz.data import upload
    monkeypatch.setattr(upload, "MAX_BYTES", 20)
    at = open_page(upload=b"a,b\n" + b"1,2\n" * 20, source="upload a file")
    assert "over the" in " ".join(e.value for e in at.error)


def test_single_class_upload_explains_which_checks_need_classes():
    at = open_page(upload=b"a,b,label\n1,2,x\n2,3,x\n3,1,x\n4,4,x\n", source="upload a file")
    info = " ".join(i.value for i in at.info)
    assert "at least two classes" in info and not at.error


# ------------------------------------------------------------------ a file bigger than memory (Dask)
@pytest.fixture(scope="module")
def parquet_folder(tmp_path_factory):
    import pandas as pd

    rng = np.random.default_rng(0)
    X = rng.normal(size=(4000, 4))
    y = np.where(X[:, 0] * X[:, 1] > 0, "yes", "no")  # XOR: no linear model on the raw features learns it
    frame = pd.DataFrame(X, columns=["a", "b", "c", "d"]).assign(label=y)
    folder = tmp_path_factory.mktemp("big")
    frame.iloc[:2500].to_parquet(folder / "part0.parquet")
    frame.iloc[2500:].to_parquet(folder / "part1.parquet")
    return folder, X, y


def test_big_file_sample_is_the_same_rows_as_in_memory_and_ik_learns_over_all_rows(parquet_folder):
    folder, X, y = parquet_folder
    p = exp.BigFileParams(str(folder), label="label", psi=16, t=50, prefix=500, sample_rows=300, seed=3)
    reports = []
    res = exp.big_file_check(p, progress=lambda f, text: reports.append((f, text)))
    rows = np.sort(np.random.default_rng(3).choice(4000, 300, replace=False))
    np.testing.assert_array_equal(res.sample.X, X[rows])          # drawn by row index, across both files
    assert [res.sample.classes[c] for c in res.sample.y] == list(y[rows])
    assert res.n_rows == 4000 and res.features == ["a", "b", "c", "d"]
    assert res.learn.n_train + res.learn.n_test == 4000
    assert res.learn.accuracy["IK+OGD"] > 0.8 and 0.4 < res.learn.accuracy["FOGD"] <= 1
    fractions = [f for f, _ in reports]
    assert fractions == sorted(fractions) and fractions[-1] == 1.0
    assert any("over 4,000 rows: block" in text for _, text in reports)


def test_big_file_paths_are_checked_before_anything_is_read(tmp_path, monkeypatch):
    with pytest.raises(ValueError, match="No file or folder"):
        exp.check_data_path(str(tmp_path / "missing.parquet"))
    (tmp_path / "notes.docx").write_bytes(b"x")
    with pytest.raises(ValueError, match="not a Parquet or CSV file"):
        exp.check_data_path(str(tmp_path / "notes.docx"))
    monkeypatch.setenv(exp.DATA_ROOT_ENV, str(tmp_path / "allowed"))
    with pytest.raises(ValueError, match="outside the folder this server reads data from"):
        exp.check_data_path(str(tmp_path))


def test_big_file_page_reads_a_server_path_and_explains_a_bad_one(parquet_folder):
    import apptest

    folder, _, _ = parquet_folder
    at = apptest.open_page("your_data", source="a big file on this server", path=str(folder))
    assert at.selectbox(key="big_label").value == "label"
    at.button(key="btn_big").click().run()
    assert not at.exception and not at.error
    assert any("random sample of 2,000 of the 4,000 rows" in c.value for c in at.caption)
    assert "held-out" in " ".join(at.dataframe[0].value.columns)
    bad = apptest.open_page("your_data", source="a big file on this server", path=str(folder / "nothing"))
    assert any("No file or folder" in e.value for e in bad.error) and not bad.exception
