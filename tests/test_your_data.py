"""Your data: the checks and their runs, a big file through Dask against the in-memory path, and the page."""

import numpy as np
import pytest

import apptest

from ikviz.data import dataset_names, load_dataset
from ikviz.data.upload import UserData, read_table, subsample
from ikviz.experiments import your_data as exp
from ikviz.runner import RunMemo

FAST_NAMES = ("wine",)  # the rest run in the slow set


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


# ----------------------------------------------------------------- runs (the runner convention)
UPLOAD = ("a,b,label\n" + "".join(f"{i % 7},{(i * 3) % 11},{'xy'[i % 2]}\n" for i in range(80))).encode()


def test_runs_load_the_rows_once_and_equal_the_checks_on_those_rows():
    p = exp.CheckParams(exp.Source("upload", "mine.csv", UPLOAD, "label"), max_rows=50, psi=8, t=30, seed=1)
    memo, reports = RunMemo(), []
    svm = exp.svm_check_run(p, memo=memo, progress=lambda f, text: reports.append((f, text)))
    neighbours = exp.neighbour_check_run(p, memo=memo)
    data = subsample(read_table(UPLOAD, label="label"), 50, seed=1)
    X = exp.prepare(data.X)
    assert len(memo._results) == 3  # check_data, load_source, read_table: computed once, shared by both runs
    assert [r["accuracy"] for r in svm] == [r["accuracy"] for r in exp.svm_check(X, data.y, psi=8, t=30, seed=1)]
    np.testing.assert_array_equal(neighbours["n_eps"]["ik"], exp.neighbour_check(X, data.y, psi=8, t=30, seed=1)
                                  ["n_eps"]["ik"])
    fractions = [f for f, _ in reports]
    assert fractions == sorted(fractions) and fractions[-1] == 1.0 and "SVM 1 of 4" in reports[0][1]


def test_runs_that_need_classes_say_so_without_a_label():
    raw = ("a,b\n" + "".join(f"{i % 7},{i % 5}\n" for i in range(40))).encode()
    p = exp.CheckParams(exp.Source("upload", "plain.csv", raw), max_rows=50)
    with pytest.raises(ValueError, match="at least two classes"):
        exp.clustering_check_run(p)


# ------------------------------------------------------------------ a file bigger than memory (Dask)
@pytest.fixture(scope="module")
def parquet_folder(tmp_path_factory):
    import pandas as pd

    from ikviz.scale.run import close_shared_client

    rng = np.random.default_rng(0)
    X = rng.normal(size=(4000, 4))
    y = np.where(X[:, 0] * X[:, 1] > 0, "yes", "no")  # XOR: no linear model on the raw features learns it
    frame = pd.DataFrame(X, columns=["a", "b", "c", "d"]).assign(label=y)
    folder = tmp_path_factory.mktemp("big")
    frame.iloc[:2500].to_parquet(folder / "part0.parquet")
    frame.iloc[2500:].to_parquet(folder / "part1.parquet")
    yield folder, X, y
    close_shared_client()  # the embedded cluster of this process: not left to the next test module


BIG = exp.BigFileParams("", label="label", psi=16, t=50, prefix=500, sample_rows=300, seed=3)


@pytest.fixture(scope="module")
def big_result(parquet_folder):
    from dataclasses import replace

    reports = []
    res = exp.big_file_check(replace(BIG, path=str(parquet_folder[0])),
                             progress=lambda f, text: reports.append((f, text)))
    return res, reports


def test_big_file_path_gives_the_cells_and_accuracy_of_the_in_memory_path(parquet_folder, big_result):
    from ikviz.learn import FOGDClassifier, IKOGDClassifier
    from ikviz.registry import isolation_kernel
    from ikviz.scale.io import read_dataset
    from ikviz.scale.run import LEARN_CHUNK_ROWS, test_mask

    folder, X, y = parquet_folder
    res, reports = big_result
    # the sample: drawn by row index across both files
    rows = np.sort(np.random.default_rng(3).choice(4000, 300, replace=False))
    np.testing.assert_array_equal(res.sample.rows, rows)
    np.testing.assert_array_equal(res.sample.data.X, X[rows])
    assert [res.sample.data.classes[c] for c in res.sample.data.y] == list(y[rows])
    # the kernel: fitted on rows drawn by index, the same as in memory; every row's cells counted
    cells = isolation_kernel("ik", psi=16, t=50, seed=3, n=4000).fit(X).cells(X)
    np.testing.assert_array_equal(res.sample_cells, cells[rows])
    for c, label in enumerate(res.count_classes):
        expected = np.stack([np.bincount(cells[y == label, k], minlength=16) for k in range(50)])
        np.testing.assert_array_equal(res.cell_counts[c], expected)
    # the linear check: IK + OGD and FOGD over the same training rows, scored on the same held-out rows
    sizes = read_dataset(folder, None, "label", chunk_rows=LEARN_CHUNK_ROWS).X.chunks[0]
    held = np.concatenate([test_mask(3, i, n, 0.2) for i, n in enumerate(sizes)])
    first = ~held[:sizes[0]]
    gamma = 1.0 / (4 * X[:sizes[0]][first].var())
    models = {"IK+OGD": IKOGDClassifier(psi=16, t=50, prefix=500, random_state=3),
              "FOGD": FOGDClassifier(n_components=400, gamma=gamma, random_state=3)}
    for name, model in models.items():
        model.partial_fit(X[~held], y[~held], classes=np.array(["no", "yes"]))
        assert res.learn.accuracy[name] == pytest.approx(np.mean(model.predict(X[held]) == y[held]), abs=1e-12)
        assert res.learn.mistake_rate[name] == pytest.approx(model.mistake_rate_, abs=1e-12)
    assert res.learn.n_test == held.sum() and res.learn.accuracy["IK+OGD"] > 0.8
    fractions = [f for f, _ in reports]
    assert fractions == sorted(fractions) and fractions[-1] == 1.0
    assert any("over 4,000 rows: block 2 of 2" in text for _, text in reports)
    assert any("cells of all 4,000 rows" in text for _, text in reports)


def test_big_file_sample_is_what_the_checks_see(parquet_folder, big_result):
    res, _ = big_result
    data = exp.load_source(exp.Source("big", str(parquet_folder[0]), label="label"), 300, 3)
    np.testing.assert_array_equal(data.X, res.sample.data.X)
    assert "A sample of 300 of the 4,000 rows" in data.notes[0]


def test_big_file_errors_name_the_problem(parquet_folder, tmp_path):
    from dataclasses import replace

    import pandas as pd

    folder = str(parquet_folder[0])
    with pytest.raises(ValueError, match="no label column 'kind'"):
        exp.big_file_check(replace(BIG, path=folder, label="kind"))
    pd.DataFrame({"name": ["a", "b"]}).to_parquet(tmp_path / "words.parquet")
    with pytest.raises(ValueError, match="no numeric column"):
        exp.big_file_check(replace(BIG, path=str(tmp_path / "words.parquet"), label=None))
    bad = tmp_path / "bad.csv"
    bad.write_text("a,b,label\n" + "1,2,x\n3,4,y\n" * 600 + "5,oops,x\n")  # past the rows that type the columns
    with pytest.raises(ValueError, match=r"bad\.csv, line 1,202 .*'b' holds 'oops'"):
        exp.big_file_check(replace(BIG, path=str(bad), label=None))


def test_big_file_paths_are_checked_before_anything_is_read(tmp_path, monkeypatch):
    with pytest.raises(ValueError, match="No file or folder"):
        exp.check_data_path(str(tmp_path / "missing.parquet"))
    (tmp_path / "notes.docx").write_bytes(b"x")
    with pytest.raises(ValueError, match="not a Parquet or CSV file"):
        exp.check_data_path(str(tmp_path / "notes.docx"))
    allowed = tmp_path / "allowed"
    allowed.mkdir()
    (tmp_path / "secret.csv").write_text("a\n1\n")
    (allowed / "link.csv").symlink_to(tmp_path / "secret.csv")
    monkeypatch.setenv(exp.DATA_ROOT_ENV, str(allowed))
    with pytest.raises(ValueError, match="outside the folder this server reads data from"):
        exp.check_data_path(str(allowed / ".." / "secret.csv"))
    with pytest.raises(ValueError, match="leads outside the folder"):
        exp.check_data_path(str(allowed / "*.csv"))


# ----------------------------------------------------------------- the page
def open_page(upload: bytes | None = None, **query):
    session = None if upload is None else {"upload_bytes": upload, "upload_name": "mine.csv"}
    return apptest.open_page("your_data", session=session, **query)


ASKED = []  # CheckParams the fake runs were called with


def _rows(p):
    return exp.check_data(p.source, p.max_rows, p.scale, p.seed)


def fake_neighbours(p, *, memo=None, progress=None):
    ASKED.append(p)
    n = len(_rows(p)[0])
    return {"eps": 0.05, "k": 5, "n_eps": {"ik": np.ones(n), "gk": np.full(n, 3.0)},
            "occurrence": {"ik": np.full(n, 5), "gk": np.full(n, 5)}, "skewness": {"ik": 0.1, "gk": 0.9},
            "precision": {}}


def fake_svm(p, *, memo=None, progress=None):
    return [{"kernel": k, "accuracy": 0.5, "train_s": 0.0, "test_s": 0.0, "params": {}}
            for k in ("ik", "ik-linear", "rbf", "linear")]


def fake_tsne(p, *, memo=None, progress=None):
    _, y = _rows(p)
    coords = np.zeros((len(y), 2))
    return {"coords": {"gk": coords, "ik": coords}, "scores": {}, "settings": {}, "labels": y}


def fake_clustering(p, *, memo=None, progress=None):
    return [{"measure": m, "ami": 0.5, "nmi": 0.5} for m in ("ik", "gk")]


@pytest.fixture
def fake_checks(monkeypatch):
    for name, fake in [("neighbour_check_run", fake_neighbours), ("svm_check_run", fake_svm),
                       ("tsne_check_run", fake_tsne), ("clustering_check_run", fake_clustering)]:
        monkeypatch.setattr(exp, name, fake)
    ASKED.clear()


def test_bundled_dataset_summary_and_checks_run_from_buttons(fake_checks):
    at = open_page(dataset="wine", max_rows="500", psi="16", seed="4")
    assert [m.value for m in at.metric][:3] == ["178", "13", "3"]
    for button in list(at.button):
        button.click().run()
        assert not at.exception and not at.error
    assert len(at.get("plotly_chart")) == 2  # neighbours and t-SNE
    assert len(at.dataframe) == 2            # SVM and clustering tables
    assert ASKED == [exp.CheckParams(exp.Source("bundled", "wine"), 500, True, 16, 200, 4)]
    assert "IK has fewer hubs" in " ".join(m.value for m in at.markdown)


@pytest.mark.parametrize("raw, message", [(b"", "The file is empty"),
                                          (b"a,b,c\n1,x,0\n2,y,1\n3,z,0\n", "not numeric: 'b'")])
def test_bad_uploads_show_the_loader_message(raw, message):
    at = open_page(upload=raw, source="upload a file")
    errors = " ".join(e.value for e in at.error)
    assert message in errors, errors
    assert not at.metric  # nothing pretends to have loaded


def test_single_class_upload_explains_which_checks_need_classes():
    at = open_page(upload=b"a,b,label\n1,2,x\n2,3,x\n3,1,x\n4,4,x\n", source="upload a file")
    info = " ".join(i.value for i in at.info)
    assert "at least two classes" in info and not at.error


BIG_SEEN = []  # the precomputed result of the module's big file, for the fake below


def fake_big_file_check(p, *, memo=None, progress=None):
    return BIG_SEEN[0]


def test_big_file_page_reads_a_server_path_and_states_the_sample(parquet_folder, big_result, monkeypatch):
    folder, _, _ = parquet_folder
    BIG_SEEN[:] = [big_result[0]]
    monkeypatch.setattr(exp, "big_file_check", fake_big_file_check)
    at = apptest.open_page("your_data", source="a big file on this server", path=str(folder), max_rows="500")
    assert at.selectbox(key="big_label").value == "label"
    at.button(key="btn_big").click().run()
    assert not at.exception and not at.error
    captions = " ".join(c.value for c in at.caption)
    assert "Plots show 500 of 4,000 rows" in captions and "fitted on 800 rows drawn by row index" in captions
    assert "held-out" in " ".join(at.dataframe[0].value.columns)
    assert [m.value for m in at.metric][:3] == ["500", "4", "2"]
    assert "Cell purity over all 4,000 rows" in " ".join(m.value for m in at.markdown)


def test_big_file_page_explains_a_bad_path_and_one_outside_the_data_root(parquet_folder, monkeypatch):
    folder, _, _ = parquet_folder
    bad = apptest.open_page("your_data", source="a big file on this server", path=str(folder / "nothing"))
    assert any("No file or folder" in e.value for e in bad.error) and not bad.exception
    monkeypatch.setenv(exp.DATA_ROOT_ENV, str(folder / "inner"))
    outside = apptest.open_page("your_data", source="a big file on this server", path=str(folder))
    assert any("outside the folder this server reads data from" in e.value for e in outside.error)
    assert not outside.button and not outside.metric
