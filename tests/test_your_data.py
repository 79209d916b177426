"""Your data: the checks and their runs, a big file through Dask against the in-memory path, and the page."""

import json
import os
import re

import numpy as np
import pytest

import apptest
from messy_files import MESSY, messy_bytes

from ikviz.data import Data, dataset_names, load_dataset
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


def test_single_class_is_refused_by_the_svm_and_clustered_without_classes():
    X = np.random.default_rng(0).normal(size=(30, 2))
    with pytest.raises(ValueError, match="at least two classes"):
        exp.svm_check(X, np.zeros(30, dtype=int))
    rows = exp.clustering_check(X, np.zeros(30, dtype=int), psi=8, t=30, k=3)   # nothing to score: k chosen
    assert [r["k"] for r in rows] == [3, 3] and "ami" not in rows[0] and "silhouette" in rows[0]


# ----------------------------------------------------------------- runs (the runner convention)
UPLOAD = ("a,b,label\n" + "".join(f"{i % 7},{(i * 3) % 11},{'xy'[i % 2]}\n" for i in range(80))).encode()


def test_runs_load_the_rows_once_and_equal_the_checks_on_those_rows():
    p = exp.CheckParams(exp.upload_data(UPLOAD, name="mine.csv", label="label"), max_rows=50, psi=8, t=30, seed=1)
    memo, reports = RunMemo(), []
    svm = exp.svm_check_run(p, memo=memo, progress=lambda f, text: reports.append((f, text)))
    neighbours = exp.neighbour_check_run(p, memo=memo)
    data = subsample(read_table(UPLOAD, label="label"), 50, seed=1)
    X = exp.prepare(data.X)
    # check_data, load_source, read_source, parse_upload (the upload parsed), source_rows: each computed once,
    # shared by both runs
    assert len(memo._results) == 5
    assert sum(type(f.result()).__name__ == "Parsed" for f in memo._results.values()) == 1
    assert [r["accuracy"] for r in svm] == [r["accuracy"] for r in exp.svm_check(X, data.y, psi=8, t=30, seed=1)]
    np.testing.assert_array_equal(neighbours["n_eps"]["ik"], exp.neighbour_check(X, data.y, psi=8, t=30, seed=1)
                                  ["n_eps"]["ik"])
    fractions = [f for f, _ in reports]
    assert fractions == sorted(fractions) and fractions[-1] == 1.0 and reports[0][1].startswith("ik: psi=8")
    assert svm[0]["n_train"] + svm[0]["n_test"] == 50 and svm[0]["stratified"] and svm[0]["of_rows"] == 80
    assert [r["kernel"] for r in svm] == ["ik", "rbf", "linear"] and len(svm[0]["folds"]) == svm[0]["n_folds"] == 5
    assert svm[0]["accuracy"] == pytest.approx(np.mean(svm[0]["folds"]))
    assert neighbours["classes"] == ["x", "y"] and (neighbours["rows"], neighbours["of_rows"]) == (50, 80)


def test_figures_and_tables_keep_class_names_and_state_the_sample():
    from ikviz.plots import your_data as plots

    p = exp.CheckParams(exp.upload_data(UPLOAD, name="mine.csv", label="label"), max_rows=50, psi=8, t=30, seed=1)
    memo = RunMemo()
    _, y, about = exp._rows(p, memo)
    coords = np.zeros((len(y), 2))
    tsne = {"coords": {"gk": coords, "ik": coords}, "scores": {}, "settings": {}, "labels": y, **about}
    fig = plots.tsne_figure(tsne)
    assert sorted(tr.name for tr in fig.data if tr.showlegend) == ["x", "y"]
    assert "(50 of 80 rows)" in fig.layout.title.text
    svm = exp.svm_check_run(p, memo=memo)
    text = plots.svm_split_text(svm)
    assert text.startswith("5-fold stratified cross-validation of 50 rows (of 80) (seed 1)")
    neighbours = plots.neighbour_figure(exp.neighbour_check_run(p, memo=memo))
    assert "(50 of 80 rows)" in neighbours.layout.title.text


def test_report_holds_every_check_with_settings_fingerprint_and_version():
    import ikviz
    from ikviz.plots import your_data as plots

    p = exp.CheckParams(exp.upload_data(UPLOAD, name="mine.csv", label="label"), max_rows=50, psi=8, t=30, seed=1)
    runs = {"svm": (p, fake_svm(p)), "clustering": (p, fake_clustering(p)), "tsne": (p, fake_tsne(p))}
    fp = exp.data_fingerprint(p.source)
    page = plots.report(exp.data_title(p.source), runs, fingerprint=fp, data_lines=["80 rows."])
    assert page.count("<h2>") == 4 and page.count("<table") == 3  # summary + 3; meta + SVM + clustering
    assert page.index("<h2>Summary") < page.index("<h2>SVM")
    assert fp in page and ikviz.__version__ in page and "ψ = 8, t = 30, seed = 1" in page
    assert page.count('<script type="text/javascript">') == 1 and "mine.csv (your file)" in page
    assert "No check has been run" in plots.report("x", {})


def test_runs_that_need_classes_say_so_without_a_label():
    raw = ("a,b\n" + "".join(f"{i % 7},{i % 5}\n" for i in range(40))).encode()
    p = exp.CheckParams(exp.upload_data(raw, name="plain.csv"), max_rows=50)
    with pytest.raises(ValueError, match="at least two classes"):
        exp.svm_check_run(p)


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
    before = os.environ.get(exp.DATA_ROOT_ENV)
    os.environ[exp.DATA_ROOT_ENV] = str(tmp_path_factory.getbasetemp())   # reading server files is off without it
    yield folder, X, y
    close_shared_client()  # the embedded cluster of this process: not left to the next test module
    if before is None:
        os.environ.pop(exp.DATA_ROOT_ENV, None)
    else:
        os.environ[exp.DATA_ROOT_ENV] = before


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
    from ikviz.data.files import read_dataset
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
    data = exp.load_source(exp.server_file(str(parquet_folder[0]), "label"), 300, 3)
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
    monkeypatch.delenv(exp.DATA_ROOT_ENV, raising=False)
    with pytest.raises(ValueError, match="Reading files on this server is off: set IKVIZ_DATA_ROOT"):
        exp.check_data_path(str(tmp_path))                       # off by default (issue 31 item 2)
    allowed = tmp_path / "allowed"
    (allowed / "sub").mkdir(parents=True)
    (allowed / "data.csv").write_text("a\n1\n")
    (allowed / "notes.docx").write_bytes(b"x")
    (tmp_path / "secret.csv").write_text("a\n1\n")
    (allowed / "link.csv").symlink_to(tmp_path / "secret.csv")
    monkeypatch.setenv(exp.DATA_ROOT_ENV, str(allowed))
    assert exp.check_data_path("data.csv") == str(allowed / "data.csv")   # relative: from the root
    refusals = set()
    for typed in [tmp_path / "missing.parquet", allowed / "missing.csv", allowed / "notes.docx",
                  allowed / ".." / "secret.csv", tmp_path / "secret.csv", allowed / "link.csv",
                  f"{allowed}/*/../../../etc/shadow", f"{allowed}/*/../../../etc/nothing-here", "/etc/passwd",
                  allowed / "sub" / "*.csv"]:
        with pytest.raises(ValueError) as err:
            exp.check_data_path(str(typed))
        refusals.add(str(err.value).replace(repr(str(typed)), "PATH"))
    assert len(refusals) == 1, refusals                       # every refusal reads the same: no existence oracle
    with pytest.raises(ValueError, match="NUL"):
        exp.check_data_path("a\x00b.csv")
    with pytest.raises(ValueError, match="5,000 characters long"):
        exp.check_data_path("a" * 5000)


def test_a_glob_is_checked_as_text_before_it_is_expanded(tmp_path, monkeypatch):
    import ikviz.data.files as sio

    seen = []
    monkeypatch.setattr(sio, "find_files", lambda spec: seen.append(spec) or [])
    monkeypatch.setenv(exp.DATA_ROOT_ENV, str(tmp_path))
    with pytest.raises(ValueError, match="No Parquet or CSV data"):
        exp.check_data_path(f"{tmp_path}/*/../../../etc/shadow")
    assert seen == []                                          # refused before any glob


# ----------------------------------------------------------------- the page
def plain(text: str) -> str:
    """A shown text without the backslashes that keep data from being read as Markdown."""
    return re.sub(r"\\(.)", r"\1", text)


def texts(elements) -> str:
    return " ".join(plain(e.value) for e in elements)


def open_page(upload: bytes | None = None, name: str = "mine.csv", **query):
    session = None if upload is None else {"upload_bytes": upload, "upload_name": name}
    return apptest.open_page("your_data", session=session, **query)


ASKED = []  # CheckParams the fake runs were called with


def fake_neighbours(p, *, memo=None, progress=None):
    ASKED.append(p)
    n = len(exp.check_data(p.source, p.max_rows, p.scale, p.seed)[0])
    return {"eps": 0.05, "k": 5, "n_eps": {"ik": np.ones(n), "gk": np.full(n, 3.0)},
            "occurrence": {"ik": np.full(n, 5), "gk": np.full(n, 5)}, "skewness": {"ik": 0.1, "gk": 0.9},
            "precision": {}, "rows": n, "of_rows": n}


def fake_svm(p, *, memo=None, progress=None):
    return [{"kernel": k, "accuracy": 0.5, "mean": 0.5, "sd": 0.1, "folds": [0.4, 0.5, 0.6], "params": {},
             "n_folds": 3, "n_train": 7, "n_test": 3, "stratified": True, "split_seed": p.seed, "rows": 10,
             "of_rows": 10} for k in ("ik", "rbf", "linear")]


def fake_tsne(p, *, memo=None, progress=None):
    _, y, about = exp._rows(p, RunMemo())
    coords = np.zeros((len(y), 2))
    return {"coords": {"gk": coords, "ik": coords}, "scores": {}, "settings": {}, "labels": y, **about}


def fake_clustering(p, *, memo=None, progress=None):
    return [{"measure": m, "ami": 0.5, "nmi": 0.5, "k": 3, "k_from": "classes"} for m in ("ik", "gk")]


@pytest.fixture
def fake_checks(monkeypatch):
    for name, fake in [("neighbour_check_run", fake_neighbours), ("svm_check_run", fake_svm),
                       ("tsne_check_run", fake_tsne), ("clustering_check_run", fake_clustering)]:
        monkeypatch.setattr(exp, name, fake)
    ASKED.clear()


def test_bundled_dataset_summary_and_checks_run_from_buttons(fake_checks):
    at = open_page(dataset="wine", max_rows="500", psi="16", seed="4")
    assert [m.value for m in at.metric][:3] == ["178", "13", "3"]
    for key in ("btn_neighbours", "btn_svm", "btn_tsne", "btn_clustering"):
        at.button(key=key).click().run()
        assert not at.exception and not at.error
    assert len(apptest.charts(at)) == 2  # neighbours and t-SNE
    assert len(at.dataframe) == 2            # SVM and clustering tables
    assert ASKED == [exp.CheckParams(Data("wine"), 500, True, 16, 200, 4)]
    assert "IK has fewer hubs" in texts(at.markdown)
    assert "3-fold stratified cross-validation of 10 rows (seed 4)" in texts(at.caption)
    assert "Overall: IK ahead on 1 of 3 check(s) (neighbours)" in texts(at.markdown)
    assert "4 of the checks above will be in the report" in texts(at.caption)
    assert at.get("download_button")


def test_results_persist_per_setting_and_stale_ones_wait_for_a_rerun(fake_checks):
    at = open_page(dataset="wine", max_rows="500", psi="16", seed="5")
    at.button(key="btn_neighbours").click().run()
    assert len(ASKED) == 1 and len(apptest.charts(at)) == 1
    at.select_slider(key="_w_psi").set_value(32).run()   # cheap (the last run took ~0 s): recomputed at once
    assert [p.psi for p in ASKED] == [16, 32] and len(apptest.charts(at)) == 1 and not at.warning
    at.session_state["yd_runs"]["neighbours"]["seconds"] = 60.0   # as if the last run had taken a minute
    at.select_slider(key="_w_psi").set_value(64).run()
    assert [p.psi for p in ASKED] == [16, 32]                    # not recomputed without asking
    assert "Stale" in at.warning[0].value and "ψ 32 → 64" in at.warning[0].value
    assert len(apptest.charts(at)) == 1                      # the previous result stays visible
    assert at.button(key="rerun_neighbours").label.startswith("Re-run with the new settings (about 60 s)")
    at.button(key="rerun_neighbours").click().run()
    assert [p.psi for p in ASKED] == [16, 32, 64] and not at.warning
    at.select_slider(key="_w_psi").set_value(16).run()           # a setting seen before: held, shown at once
    assert [p.psi for p in ASKED] == [16, 32, 64] and len(apptest.charts(at)) == 1
    assert not at.button(key="btn_svm").value                    # the others still wait for their button


ONLY_IDS = ("id,code\n" + "".join(f"A{i},X{i * 7}\n" for i in range(30))).encode()


@pytest.mark.parametrize("raw, message", [(b"", "empty"), (ONLY_IDS, "no feature column"), (b",,,\n,,,\n", "")])
def test_bad_uploads_show_the_loader_message(raw, message):
    at = open_page(upload=raw, source="upload a file")
    errors = texts(at.error)
    assert errors and message in errors.lower(), errors
    assert not at.metric  # nothing pretends to have loaded


def test_single_class_upload_explains_which_checks_need_classes():
    at = open_page(upload=b"a,b,label\n1,2,x\n2,3,x\n3,1,x\n4,4,x\n", source="upload a file")
    _label_box(at).set_value("label").run()
    info = texts(at.info)
    assert "at least two classes" in info and not at.error and not at.exception


CULTIVARS = ("barbera", "barolo", "grignolino")
SEMICOLON = ("id;alcohol;colour;hue;cultivar\n" + "".join(
    f"W{i:03d};{12 + i % 5};{'red' if i % 3 else 'dark'};{(i * 7) % 11};{CULTIVARS[i % 3]}\n"
    for i in range(60))).encode()


def _label_box(at):
    return next(s for s in at.selectbox if s.label == "label column")


def _roles(at):
    return {s.label.split(" (")[0]: s for s in at.selectbox if s.key and s.key.startswith("yd_role_")}


def test_semicolon_file_with_text_id_and_text_label_works_and_keeps_class_names(fake_checks):
    at = open_page(upload=SEMICOLON, source="upload a file", max_rows="500")
    assert not at.error, [e.value for e in at.error]
    assert _label_box(at).value == "cultivar"
    assert [m.value for m in at.metric][:3] == ["60", "4", "3"]   # alcohol, hue, colour one-hot; the ID left out
    assert "barbera: 20" in texts(at.caption)
    at.button(key="btn_tsne").click().run()
    spec = json.loads(apptest.charts(at)[0].spec)
    assert sorted(tr["name"] for tr in spec["data"] if tr.get("showlegend")) == sorted(CULTIVARS)


def test_column_choices_change_the_features():
    at = open_page(upload=SEMICOLON, source="upload a file", max_rows="500")
    roles = _roles(at)
    assert set(roles) >= {"id", "colour"}
    assert roles["id"].value == "ignore" and roles["colour"].value == "encode"
    roles["colour"].set_value("ignore").run()
    assert not at.error, [e.value for e in at.error]
    assert at.metric[1].value == "2"
    _roles(at)["colour"].set_value("encode").run()
    assert at.metric[1].value == "4"                       # one column per colour
    roles = _roles(at)
    table = at.dataframe[0].value
    assert dict(zip(table["column"], table["role"]))["colour"] == "encode"
    _roles(at)["colour"].set_value("label").run()          # use as label: the label picker follows
    assert _label_box(at).value == "colour" and at.metric[2].value == "2"


def test_upload_is_read_once_not_on_every_rerun(monkeypatch, fake_checks):
    from ikviz.data import upload

    calls = []
    real = upload.read_table

    def counting(*args, **kwargs):
        calls.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(upload, "read_table", counting)
    raw = SEMICOLON + b"W999;13;red;4;barolo\n"  # a file no other test has read into the shared store
    at = open_page(upload=raw, source="upload a file", max_rows="500")
    for psi in (16, 64, 8):
        at.select_slider(key="_w_psi").set_value(psi).run()
    assert len(calls) == 1 and not at.exception


@pytest.mark.parametrize("case", list(MESSY))
def test_messy_files_work_or_say_what_to_do(case, fake_checks):
    name, raw, (outcome, *expected) = MESSY[case]
    at = open_page(upload=messy_bytes(raw), name=name, source="upload a file")
    assert not at.exception
    errors = texts(at.error).lower()
    shown = texts(list(at.info) + list(at.warning) + list(at.caption)).lower()
    if outcome == "loads":
        metrics, words = expected
        assert not errors, errors
        assert [m.value for m in at.metric][:len(metrics)] == metrics, shown
        assert words in shown, shown
        assert at.dataframe, "a preview of the parsed table"
    else:  # refused with a message that names the problem and where it is
        assert errors and all(w in errors for w in expected), errors
        assert not at.metric  # nothing pretends to have loaded


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
    captions = texts(at.caption)
    assert "Plots show 500 of 4,000 rows" in captions and "fitted on 800 rows drawn by row index" in captions
    assert "held-out" in " ".join(at.dataframe[0].value.columns)
    assert [m.value for m in at.metric][:3] == ["500", "4", "2"]
    assert "Cell purity over all 4,000 rows" in texts(at.markdown)


def test_big_file_page_explains_a_bad_path_and_one_outside_the_data_root(parquet_folder, monkeypatch):
    folder, _, _ = parquet_folder
    bad = apptest.open_page("your_data", source="a big file on this server", path=str(folder / "nothing"))
    assert "No Parquet or CSV data this server may read" in texts(bad.error) and not bad.exception
    monkeypatch.setenv(exp.DATA_ROOT_ENV, str(folder / "inner"))
    outside = apptest.open_page("your_data", source="a big file on this server", path=str(folder))
    assert "No Parquet or CSV data this server may read" in texts(outside.error)
    assert not outside.button and not outside.metric
    monkeypatch.delenv(exp.DATA_ROOT_ENV)
    off = apptest.open_page("your_data", source="a big file on this server", path=str(folder))
    assert "Reading files on this server is off" in texts(off.info) and not off.text_input


def test_libsvm_with_nan_drops_its_lines_by_default_and_refuses_them_on_request(fake_checks):
    name, raw, _ = MESSY["LIBSVM with nan"]
    at = open_page(upload=messy_bytes(raw), name=name, source="upload a file")
    assert not at.error and not at.exception
    assert [m.value for m in at.metric][:2] == ["39", "2"]             # line 8 left out, with a note
    assert "lines 8" in texts(at.info)
    next(s for s in at.selectbox if s.label == "missing values").set_value("error").run()
    assert "not a number" in texts(at.error) and "lines 8" in texts(at.error) and not at.metric


def test_presentation_mode_shows_one_check_figure_at_a_time(fake_checks):
    at = open_page(dataset="wine", max_rows="500", psi="16", seed="6", present="1")
    for key in ("btn_neighbours", "btn_tsne"):
        at.button(key=key).click().run()
        assert not at.exception and not at.error
    assert len(apptest.charts(at)) == 1 and len(at.radio(key="_w_fig").options) == 2
    at.radio(key="_w_fig").set_value(2).run()
    assert not at.exception and len(apptest.charts(at)) == 1
