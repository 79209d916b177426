"""Your data's data as one :class:`ikviz.data.Data` description (issue 29): the ``upload`` and ``server-file``
sources, the ``stratified`` step, what an upload says about itself in ``Prepared.about``, an upload parsed once
per file and choices in the caller's memo (never in the process's cache), and the checks' numbers bit-identical
to those computed through the old ``Source`` before the change (digests recorded from commit d3a5aea)."""

import hashlib
import os

import numpy as np
import pytest

from digests import digest
from messy_files import MESSY, messy_bytes

from ikviz.data import Data, description, resolve, step
from ikviz.data import upload
from ikviz.experiments import your_data as exp
from ikviz.runner import RunMemo

UPLOAD = ("a,b,label\n" + "".join(f"{i % 7},{(i * 3) % 11},{'xy'[i % 2]}\n" for i in range(80))).encode()
WINE_NAME, WINE_RAW, _ = MESSY["semicolon, text ID and text label"]
NOLABEL = ("a,b,c\n" + "".join(f"{i % 7},{(i * 5) % 13},{i}\n" for i in range(70))).encode()
REGRESSION = ("a,b,target\n" + "".join(f"{i % 9},{(i * 7) % 13},{(i % 9) * 1.5 + i % 4}\n" for i in range(90))).encode()
GAPS = ("a,b,label\n" + "".join(f"{'' if i % 9 == 0 else i % 7},{(i * 3) % 11},{'xyz'[i % 3]}\n"
                                for i in range(75))).encode()


def result_digest(obj) -> str:
    """A check's result: arrays by their bytes (tests/digests.py), every other value by its repr; timings left out."""
    h = hashlib.sha256()

    def walk(o):
        if isinstance(o, dict):
            for k in sorted(o, key=str):
                if k != "seconds":
                    h.update(repr(k).encode())
                    walk(o[k])
        elif isinstance(o, (list, tuple)):
            h.update(b"[")
            for v in o:
                walk(v)
            h.update(b"]")
        elif isinstance(o, np.ndarray):
            h.update(digest(o).encode())
        elif isinstance(o, np.generic):
            h.update(repr(o.item()).encode())
        else:
            h.update(repr(o).encode())
    walk(obj)
    return h.hexdigest()[:16]


def sources():
    """The cases recorded before the change: (description, rows used, seed)."""
    wine = exp.as_file(messy_bytes(WINE_RAW), WINE_NAME)
    return {
        "bundled-wine-150": (Data("wine"), 150, 3),
        "upload-80-50": (exp.upload_data(UPLOAD, name="mine.csv", label="label"), 50, 1),
        "upload-messy-wine": (exp.upload_data(wine, label="cultivar"), 40, 2),
        "upload-nolabel": (exp.upload_data(NOLABEL, name="plain.csv"), 60, 0),
        "upload-regression": (exp.upload_data(REGRESSION, name="reg.csv", label="target", task="regression"), 60, 0),
        "upload-missing-median-indicator": (exp.upload_data(GAPS, name="gaps.csv", label="label", indicator=True),
                                            50, 4),
        "upload-roles": (exp.upload_data(wine, label="cultivar", roles={"colour": "encode", "hue": "ignore"}),
                         45, 0),
    }


# recorded at d3a5aea, before the change (exp.Source, exp.load_source, upload.subsample), with what the tests
# below compute (twice, identical): the rows the checks see (load_source: X and y; check_data: scaled), the names,
# notes, task and missing, every column's values (as text), and the digests of the neighbour, SVM / regression and
# clustering results (psi=8, t=30; timings left out)
BEFORE = {
    'bundled-wine-150': {
        'rows': 'aed4aa1564400145',
        'check_rows': '0ea94c0c288a429c',
        'classes': ['0', '1', '2'],
        'features': ['x1', 'x2', 'x3', 'x4', 'x5', 'x6', 'x7', 'x8', 'x9', 'x10', 'x11', 'x12', 'x13'],
        'notes': ['Subsampled 150 of 178 rows at random (seed 3) to keep the comparisons interactive.'],
        'task': 'classification',
        'missing': '',
        'values': '',
        'label_name': 'label',
        'fingerprint': '',
        'source': None,
        'checks': {'neighbours': 'a611f7c97e549b37', 'svm': 'f294b8804c7d570e', 'clustering': 'd08b3d3325de610b'},
    },
    'upload-80-50': {
        'rows': '148ac5e87b16637c',
        'check_rows': '001b7f095819f8d0',
        'classes': ['x', 'y'],
        'features': ['a', 'b'],
        'notes': ['Subsampled 50 of 80 rows at random (seed 1) to keep the comparisons interactive.'],
        'task': 'classification',
        'missing': "imputed with each column's median (scikit-learn SimpleImputer)",
        'values': '341c7ad580a7e296',
        'label_name': 'label',
        'fingerprint': 'a8a9ca43440574d6',
        'source': 'mine.csv',
        'checks': {'neighbours': '377b23e55405b283', 'svm': 'da136cd983b5223e', 'clustering': '3544ee99f6ea033f'},
    },
    'upload-messy-wine': {
        'rows': 'd648a20be24a1c93',
        'check_rows': 'c8969ed695a13541',
        'classes': ['barbera', 'barolo', 'grignolino'],
        'features': ['alcohol', 'colour=dark', 'colour=red', 'hue'],
        'notes': ['Ignored column(s): id.', 'Subsampled 40 of 60 rows at random (seed 2) to keep the comparisons interactive.'],
        'task': 'classification',
        'missing': "imputed with each column's median (scikit-learn SimpleImputer)",
        'values': 'a86ee7eebedd870c',
        'label_name': 'cultivar',
        'fingerprint': 'b1143872dc6cba6c',
        'source': 'wine.csv',
        'checks': {'neighbours': '19c30a7972c78b12', 'svm': 'ff0e684759b34072', 'clustering': '25bbcdfa16932f29'},
    },
    'upload-nolabel': {
        'rows': '0314c30ecb1eb487',
        'check_rows': '9cea1342adb870ca',
        'classes': [],
        'features': ['a', 'b'],
        'notes': ['Ignored column(s): c.', 'Subsampled 60 of 70 rows at random (seed 0) to keep the comparisons interactive.'],
        'task': None,
        'missing': "imputed with each column's median (scikit-learn SimpleImputer)",
        'values': '467e7049f6dbe843',
        'label_name': None,
        'fingerprint': '4d8bc921b6c9bb15',
        'source': 'plain.csv',
        'checks': {'neighbours': '2d4c33474dea2313', 'clustering': '33676b48a831d969'},
    },
    'upload-regression': {
        'rows': 'ac2094915923db77',
        'check_rows': '5084ce28d1491231',
        'classes': [],
        'features': ['a', 'b'],
        'notes': ["The label 'target' holds numbers (29 distinct): predicted by regression (R² over folds), not classes.", 'Subsampled 60 of 90 rows at random (seed 0) to keep the comparisons interactive.'],
        'task': 'regression',
        'missing': "imputed with each column's median (scikit-learn SimpleImputer)",
        'values': '6375d549d1dc0af0',
        'label_name': 'target',
        'fingerprint': '85914fe9dfa8adf3',
        'source': 'reg.csv',
        'checks': {'neighbours': '73c349489f9c0659', 'regression': 'c3f153497af34f4a', 'clustering': '5a0016ffe8608077'},
    },
    'upload-missing-median-indicator': {
        'rows': 'c14c9faca1274396',
        'check_rows': '8d0cb16d543e94d6',
        'classes': ['x', 'y', 'z'],
        'features': ['a', 'b', 'a (missing)'],
        'notes': ["Imputed 9 missing value(s) in 1 column(s) (a) with each column's median (scikit-learn SimpleImputer, fitted on the 75 rows read); a 0/1 column 'NAME (missing)' marks each imputed cell.", 'Subsampled 50 of 75 rows at random (seed 4) to keep the comparisons interactive.'],
        'task': 'classification',
        'missing': "imputed with each column's median (scikit-learn SimpleImputer), with indicator columns",
        'values': '382c3f0645d4129b',
        'label_name': 'label',
        'fingerprint': 'c95c8dfb4ff70138',
        'source': 'gaps.csv',
        'checks': {'neighbours': 'c94acdbcb5410aa8', 'svm': '76dec5855820735c', 'clustering': 'c5de7f493bd7f894'},
    },
    'upload-roles': {
        'rows': '2030e424d787fdea',
        'check_rows': '8eb490c8f8a3dfde',
        'classes': ['barbera', 'barolo', 'grignolino'],
        'features': ['alcohol', 'colour=dark', 'colour=red'],
        'notes': ['Ignored column(s): id, hue.', 'Subsampled 45 of 60 rows at random (seed 0) to keep the comparisons interactive.'],
        'task': 'classification',
        'missing': "imputed with each column's median (scikit-learn SimpleImputer)",
        'values': '551dc975d83e4214',
        'label_name': 'cultivar',
        'fingerprint': 'b1143872dc6cba6c',
        'source': 'wine.csv',
        'checks': {'neighbours': 'ce6fcb71b49bdac0', 'svm': 'd926136f1a176e4b', 'clustering': '51231a2659ad1146'},
    },
    'big-300': {
        'rows': '29620245c30b63df',
        'check_rows': 'dce6db5a575e7979',
        'classes': ['no', 'yes'],
        'features': ['a', 'b', 'c', 'd'],
        'notes': ['A sample of 300 of the 4,000 rows, drawn at random by row index (seed 3): the checks and plots below use these rows.'],
        'task': 'classification',
        'missing': '',
        'values': '',
        'label_name': 'label',
        'fingerprint': '',
        'source': None,
        'checks': {'neighbours': '7db8242c0fd06e31', 'svm': 'abc60c63020e9a34', 'clustering': 'ce83375146814b2b'},
    },
}


# ------------------------------------------------------------------------------------ one description
def test_an_upload_is_a_data_description_with_every_choice_spelled_out():
    d = exp.upload_data(UPLOAD, name="mine.csv", label="label")
    assert d == exp.upload_data(exp.as_file(UPLOAD, "mine.csv"), label="label", missing="median")
    assert d.source == "upload" and dict(d.options)["file"].fingerprint == hashlib.sha256(UPLOAD).hexdigest()
    assert hash(d) == hash(exp.upload_data(UPLOAD, name="mine.csv", label="label"))
    assert len(repr(d)) < 400   # a small key: the file by its fingerprint, not its bytes
    assert exp.CheckParams().source == Data("wine") and not hasattr(exp, "Source")   # one description, not two
    assert exp.source_kind(d) == "upload" and exp.data_title(d) == "mine.csv (your file)"
    assert exp.data_title(exp.server_file("big/x.parquet")) == "big/x.parquet (file on the server)"


def test_an_uploads_about_keeps_everything_user_data_carried():
    file = exp.as_file(messy_bytes(WINE_RAW), WINE_NAME)
    direct = upload.read_table(file.raw, label="cultivar", missing="median", filename=WINE_NAME)
    got = resolve(exp.upload_data(file, label="cultivar"))
    back = upload.user_data(got)
    for name in ("feature_names", "label_name", "classes", "notes", "fingerprint", "source", "task", "missing"):
        assert getattr(back, name) == getattr(direct, name), name
    np.testing.assert_array_equal(back.X, direct.X)
    np.testing.assert_array_equal(back.y, direct.y)
    assert back.values.keys() == direct.values.keys()
    assert got.about["title"] == WINE_NAME and got.about["columns"] == tuple(direct.feature_names)
    small = resolve(exp.check_description(exp.upload_data(file, label="cultivar"), 30, 5))
    same = upload.subsample(direct, 30, seed=5)
    np.testing.assert_array_equal(small.X, same.X)
    assert upload.user_data(small).notes == same.notes and all(len(v) == 30 for v in small.about["values"].values())


def test_an_upload_is_parsed_once_for_two_checks_and_never_held_by_the_process(monkeypatch):
    calls = []
    read_table = upload.read_table
    monkeypatch.setattr(upload, "read_table", lambda *a, **k: calls.append(1) or read_table(*a, **k))
    held = description._Held(description.HELD_BYTES)
    monkeypatch.setattr(description, "_HELD", held)
    p = exp.CheckParams(exp.upload_data(UPLOAD, name="mine.csv", label="label"), max_rows=50, psi=8, t=30, seed=1)
    memo = RunMemo()
    exp.neighbour_check_run(p, memo=memo)
    exp.clustering_check_run(p, memo=memo)
    from dataclasses import replace

    exp.neighbour_check_run(replace(p, max_rows=60, seed=2), memo=memo)   # other rows of the same parse
    assert len(calls) == 1
    exp.neighbour_check_run(replace(p, source=exp.upload_data(UPLOAD, name="mine.csv", label="label",
                                                              missing="drop")), memo=memo)
    assert len(calls) == 2   # another choice: parsed again
    resolve(p.source)   # without a memo: read at each resolve, still not held
    assert len(calls) == 3 and held.held() == []
    blocks = [r.result() for r in memo._results.values()]
    assert sum(isinstance(b, description.Prepared) for b in blocks) == 2   # the memo holds the two parses
    got = resolve(p.source, memo=memo)
    assert got.X.flags.writeable and len(calls) == 3   # the caller's own copy of the memo's read-only block


def test_bad_options_say_what_to_fix():
    file = exp.as_file(UPLOAD, "mine.csv")
    with pytest.raises(ValueError, match="unknown 'colour'"):
        resolve(Data("upload", options={"file": file, "colour": "red"}))
    with pytest.raises(ValueError, match=r"needs file=FileBytes"):
        resolve(Data("upload", options={"label": "label"}))
    with pytest.raises(ValueError, match="missing must be one of median, most_frequent, drop, error; got 'mean'"):
        exp.upload_data(file, missing="mean")
    with pytest.raises(ValueError, match="role of column 'a' must be one of"):
        exp.upload_data(file, roles={"a": "colour"})
    with pytest.raises(ValueError, match="task must be one of"):
        resolve(Data("upload", options={"file": file, "task": "ranking"}))
    with pytest.raises(ValueError, match="True or False"):
        exp.upload_data(file, indicator="yes")
    with pytest.raises(ValueError, match="needs path="):
        resolve(Data("server-file", options={"label": "y"}))
    with pytest.raises(ValueError, match="rows must be an integer >= 1"):
        resolve(Data("server-file", options={"path": "x.csv", "rows": 0}))
    with pytest.raises(ValueError, match="stratified's n must be an integer >= 1"):
        resolve(Data("iris", steps=(step("stratified", n=0),)))


def test_a_server_file_is_read_only_where_the_server_allows_it(tmp_path, monkeypatch):
    import pandas as pd

    pd.DataFrame({"a": np.arange(10.0), "label": ["p", "q"] * 5}).to_parquet(tmp_path / "x.parquet")
    monkeypatch.delenv(exp.DATA_ROOT_ENV, raising=False)
    with pytest.raises(ValueError, match="Reading files on this server is off"):
        resolve(exp.check_description(exp.server_file(str(tmp_path / "x.parquet"), "label"), 5, 0))
    monkeypatch.setenv(exp.DATA_ROOT_ENV, str(tmp_path / "elsewhere"))
    (tmp_path / "elsewhere").mkdir()
    with pytest.raises(ValueError, match="No Parquet or CSV data this server may read"):
        resolve(exp.check_description(exp.server_file("../x.parquet", "label"), 5, 0))
    monkeypatch.setenv(exp.DATA_ROOT_ENV, str(tmp_path))
    held = description._Held(description.HELD_BYTES)
    monkeypatch.setattr(description, "_HELD", held)
    got = resolve(exp.check_description(exp.server_file("x.parquet", "label"), 4, 1))
    rows = np.sort(np.random.default_rng(1).choice(10, 4, replace=False))
    np.testing.assert_array_equal(got.about["row_index"], rows)
    np.testing.assert_array_equal(got.X[:, 0], rows.astype(float))
    assert got.about["of_rows"] == 10 and got.about["classes"] == ("p", "q") and held.held() == []


# ------------------------------------------------------------------------------ the same numbers as before
@pytest.fixture(scope="module")
def big_folder(tmp_path_factory):
    import pandas as pd

    from ikviz.scale.run import close_shared_client

    rng = np.random.default_rng(0)
    X = rng.normal(size=(4000, 4))
    frame = pd.DataFrame(X, columns=["a", "b", "c", "d"]).assign(label=np.where(X[:, 0] * X[:, 1] > 0, "yes", "no"))
    root = tmp_path_factory.mktemp("root")
    (root / "big").mkdir()
    frame.iloc[:2500].to_parquet(root / "big" / "part0.parquet")
    frame.iloc[2500:].to_parquet(root / "big" / "part1.parquet")
    before = os.environ.get(exp.DATA_ROOT_ENV)
    os.environ[exp.DATA_ROOT_ENV] = str(root)
    yield root / "big"
    close_shared_client()
    if before is None:
        os.environ.pop(exp.DATA_ROOT_ENV, None)
    else:
        os.environ[exp.DATA_ROOT_ENV] = before


def _case(name, big_folder):
    if name == "big-300":
        return exp.server_file(str(big_folder), "label"), 300, 3
    return sources()[name]


FAST = ("bundled-wine-150", "upload-80-50", "big-300")


@pytest.mark.parametrize("name", list(BEFORE))
def test_the_rows_the_checks_see_are_those_of_before(name, big_folder):
    source, rows, seed = _case(name, big_folder)
    memo = RunMemo()
    data = memo(exp.load_source)(source, rows, seed)
    want = BEFORE[name]
    assert digest(data.X, *([data.y] if data.y is not None else [])) == want["rows"]
    X, y = exp.check_data(source, rows, True, seed, memo=memo)
    assert digest(X, *([y] if y is not None else [])) == want["check_rows"]
    assert (list(data.classes), list(data.feature_names), data.task, data.missing, data.label_name,
            data.fingerprint, data.source) == (want["classes"], want["features"], want["task"], want["missing"],
                                                want["label_name"], want["fingerprint"], want["source"])
    if name.startswith("bundled"):   # one note more than before: the set's licence, said by its loader, first
        from ikviz.data import dataset_info

        assert data.notes == [f"licence: {dataset_info('wine').licence}"] + want["notes"]
    else:
        assert data.notes == want["notes"]
    values = digest(*[np.asarray(v).astype(str) for v in data.values.values()]) if data.values else ""
    assert values == want["values"]


@pytest.mark.parametrize("name", [n if n in FAST else pytest.param(n, marks=pytest.mark.slow) for n in BEFORE])
def test_the_checks_compute_what_they_computed_before(name, big_folder):
    source, rows, seed = _case(name, big_folder)
    p = exp.CheckParams(source, max_rows=rows, psi=8, t=30, seed=seed)
    want = BEFORE[name]["checks"]
    runs = exp.run_checks(p, list(want), memo=RunMemo())
    assert {k: result_digest(v) for k, v in runs.items()} == want


def test_a_bundled_checks_snippet_states_its_data_description_and_recomputes_it():
    from ikviz.export import python_snippet

    p = exp.CheckParams(Data("iris"), max_rows=60, psi=8, t=30)
    code = python_snippet(exp.neighbour_check_run, p)
    assert "from ikviz.data.description import Data" in code and "source='iris'" in code
    ns = {}
    exec(code, ns)
    np.testing.assert_array_equal(ns["result"]["n_eps"]["ik"], exp.neighbour_check_run(p)["n_eps"]["ik"])
