"""Your data: the page's texts, tables and decisions, as pure functions of small inputs (no page, no checks run)."""

from types import SimpleNamespace

import numpy as np
import pytest

from ikviz.data import Data
from ikviz.data.upload import inspect_file, read_table, summary
from ikviz.experiments import your_data as exp
from ikviz.plots import your_data as plots


def test_every_check_names_its_button_help_and_run_and_only_those_needing_classes_say_why():
    assert list(exp.CHECKS) == ["neighbours", "svm", "regression", "tsne", "clustering"]   # the page's order
    for check in exp.CHECKS.values():
        assert check.button and check.what and check.help and check.base_seconds > 0
        assert callable(getattr(exp, check.run))
        # a check that needs classes says why it is not offered, and only such a check
        assert ("at least two classes" in check.without_classes) == check.needs_classes
        assert ("numeric target" in check.without_classes) == check.needs_numbers


def test_two_classes_needs_a_label_with_two_distinct_values():
    assert exp.two_classes(np.array([0, 1, 1])) and exp.two_classes([3, 0])
    assert not exp.two_classes(None) and not exp.two_classes(np.array([2, 2, 2])) and not exp.two_classes([])


def _last(seconds, rows=1000, **changes):
    return {"params": exp.CheckParams(**changes), "rows": rows, "seconds": seconds}


def test_check_step_shows_held_results_waits_for_a_first_run_and_reruns_only_cheap_ones():
    p = exp.CheckParams(psi=64)
    assert exp.check_step("tsne", True, _last(600.0), p, 1000) == ("show", None)   # held wins, however slow
    assert exp.check_step("svm", False, None, p, 1000) == ("button", None)
    other = _last(0.1, source=Data("iris"))
    assert exp.check_step("svm", False, other, p, 1000) == ("button", None)        # another data set: ask anew
    assert exp.check_step("svm", False, _last(0.5), p, 2000) == ("ask", 2.0)       # 2 s is not under 2 s
    assert exp.check_step("svm", False, _last(0.4), p, 2000) == ("auto", 1.6)      # 4 x 0.4 s < 2 s
    assert exp.check_step("svm", False, _last(60.0), p, 1000) == ("ask", 60.0)
    step, estimate = exp.check_step("svm", False, _last(0.5, t=100), exp.CheckParams(t=500), 1000)
    assert step == "ask" and estimate == pytest.approx(2.5)                          # time grows with t
    # not timed (held from another session): the first guess of each check
    assert exp.check_step("neighbours", False, _last(None), p, 1000) == ("auto", 0.6)
    assert exp.check_step("tsne", False, _last(None), p, 1000) == ("ask", 6.0)


def test_stale_text_names_only_the_changed_settings_and_whether_the_old_result_is_kept():
    old, new = exp.CheckParams(psi=32, max_rows=500), exp.CheckParams(psi=64, max_rows=500, scale=False)
    assert plots.stale_text(old, new, True) == ("Stale: this result was computed before the settings changed "
                                                "(ψ 32 → 64, features scaled to [0, 1] yes → no).")
    assert plots.stale_text(old, new, False).endswith("(ψ 32 → 64, features scaled to [0, 1] yes → no). "
                                                      "It is no longer held; re-run the check.")


def test_path_help_names_the_data_root_when_set(monkeypatch, tmp_path):
    monkeypatch.delenv(exp.DATA_ROOT_ENV, raising=False)
    free = exp.path_help()
    assert free.startswith("Read with Dask, never loaded whole") and free.endswith(
        "Only Parquet (.parquet, .pq) and CSV (.csv) files are opened. Reading files on this server is off: set "
        "IKVIZ_DATA_ROOT to the folder it may read.")
    monkeypatch.setenv(exp.DATA_ROOT_ENV, str(tmp_path))
    assert exp.path_help().endswith(f"are opened. Only paths inside {tmp_path.resolve()} can be read "
                                    "(IKVIZ_DATA_ROOT); a relative path is taken from there.")


def test_file_text_gives_bytes_or_kilobytes_and_the_fingerprint():
    small = exp.FileBytes(b"a,b\n1,2\n", "mine.csv")
    assert plots.file_text(small) == f"File: mine.csv (8 bytes, SHA-256 {small.fingerprint[:12]}…)"
    big = exp.FileBytes(b"x" * 3000, "big.csv")
    assert plots.file_text(big) == f"File: big.csv (2.9 KB, SHA-256 {big.fingerprint[:12]}…)"


def test_column_table_lists_every_column_with_its_current_role():
    info = inspect_file(b"a,when,colour,kind\n1.5,2024-01-02,red,p\n2.5,2024-01-03,blue,q\n3.5,2024-01-04,red,p\n")
    table = plots.column_table(info, "kind", {"colour": "ignore"})
    assert table == {"column": ["a", "when", "colour", "kind"], "kind": ["numeric", "date", "text", "text"],
                     "role": ["feature", "ignore", "ignore", "label"], "missing": [0, 0, 0, 0],
                     "distinct": [3, 3, 2, 2], "examples": ["1.5, 2.5, 3.5", "2024-01-02, 2024-01-03, 2024-01-04",
                                                            "red, blue", "p, q"]}
    assert plots.column_table(info, None, {})["role"] == ["feature", "ignore", "encode", "encode"]   # text: one-hot


def test_summary_texts_name_at_most_ten_constant_columns_and_count_the_classes():
    constant = [f"c{j}" for j in range(12)]
    texts = plots.summary_texts({"constant_columns": constant, "class_counts": {"x": 3, "y": 1}})
    assert texts == {"constant": "Constant columns carry no information and are ignored by every kernel: "
                                 + ", ".join(constant[:10]) + ".",
                     "classes": "Class counts: x: 3, y: 1"}
    assert plots.summary_texts({"constant_columns": [], "class_counts": {}}) == {"constant": "", "classes": ""}
    data = read_table(b"a,b,c\n1,0,x\n2,0,y\n3,0,x\n", label="c")
    assert plots.summary_texts(summary(data))["constant"].endswith("every kernel: b.")


def test_data_lines_state_rows_features_classes_and_the_notes():
    data = read_table(b"a,b,c\n1,4,x\n2,5,y\n3,6,x\n", label="c", missing="median")
    data.notes = ["Rows were dropped."]
    assert plots.data_lines(data) == ["3 rows, 2 features, classes: x, y. Missing values: imputed with each "
                                      "column's median (scikit-learn SimpleImputer).", "Rows were dropped."]
    assert plots.data_lines(read_table(b"a,b\n1,4\n2,5\n3,6\n", missing="drop")) == [
        "3 rows, 2 features, no label. Missing values: rows with missing values dropped."]


def _big_result(learn, counts, classes):
    p = exp.BigFileParams(path="/data/big", label="y" if learn else None, psi=2, t=2, prefix=1500,
                          test_fraction=0.25)
    return SimpleNamespace(params=p, n_rows=8, features=["a", "b", "c"], seconds=3.26, fit_rows=4, learn=learn,
                           cell_counts=np.asarray(counts), count_classes=classes)


def test_big_file_texts_state_the_read_the_learning_and_the_cell_purity():
    # two classes over 2 partitionings of 2 cells: cells hold 3 and 5 rows; majorities 3+4 and 2+3 of 8 rows
    res = _big_result(object(), [[[3, 1], [2, 2]], [[0, 4], [1, 3]]], ["0", "1"])
    texts = plots.big_file_texts(res, "tcp://sched:8786")
    assert texts["read"] == ("8 rows, 3 numeric features, read in 3.3 s on tcp://sched:8786. The Isolation Kernel "
                             "(ψ = 2, t = 2) was fitted on 4 rows drawn by row index; every row was then mapped to "
                             "its cells.")
    assert texts["learn"] == ("IK + OGD fits its feature map on the first 1,500 training rows and then learns from "
                              "every training row, as `ikviz scale learn` does; 25% of each block is held out for "
                              "the accuracy.")
    assert texts["purity"] == ("Cell purity over all 8 rows: **75.0%** of rows share the majority class of their "
                               "cell (averaged over the 2 partitionings); the largest class alone is 50.0%.")
    plain = plots.big_file_texts(_big_result(None, [[[3, 5], [3, 5]]], None))
    assert "on this server's local Dask cluster." in plain["read"]
    assert plain["learn"] == "" and plain["purity"] == ""


def test_report_file_name_takes_the_data_name_without_folder_or_suffix():
    assert plots.report_file_name("mine.csv") == "ikviz-report-mine.html"
    assert plots.report_file_name("/srv/data/trips.parquet") == "ikviz-report-trips.html"
    assert plots.report_file_name("wine") == "ikviz-report-wine.html"
    assert plots.report_file_name("") == "ikviz-report-data.html"
