"""Reading a user's file: every kind of bad input gets a message saying what to do."""

import numpy as np
import pytest

from ikviz.data.upload import read_columns, read_table, subsample, summary

GOOD = b"a,b,colour\n1,2,red\n3,4,blue\n5,6,red\n7,8,blue\n"


def test_reads_csv_with_a_label_column():
    data = read_table(GOOD, label="colour")
    assert data.X.tolist() == [[1, 2], [3, 4], [5, 6], [7, 8]]
    assert data.y.tolist() == [1, 0, 1, 0] and data.classes == ["blue", "red"]
    assert data.feature_names == ["a", "b"]
    assert read_columns(GOOD) == ["a", "b", "colour"]


def test_semicolon_and_tab_separated_files():
    assert read_table(b"x;y\n1;2\n3;4\n").X.shape == (2, 2)
    assert read_table(b"x\ty\n1\t2\n3\t4\n").X.shape == (2, 2)


def test_reads_libsvm():
    data = read_table(b"+1 1:0.5 3:1\n-1 2:2\n+1 1:1 2:1 3:1\n")
    assert data.X.shape == (3, 3) and data.y.tolist() == [1, 0, 1] and data.classes == ["-1", "1"]


@pytest.mark.parametrize("raw,kwargs,match", [
    (b"", {}, "The file is empty"),
    (b"   \n\n", {}, "The file is empty"),
    (b"\x89PNG\r\n\x1a\n\x00\x00\x00", {}, "not a text file"),
    (b"just one line of text without commas\nmore text here", {}, "single column"),
    (b"a,b\n1,2\n3\n", {}, "do not have the 2 columns"),
    (GOOD, {}, "not numeric: 'colour'"),
    (b"a,b\n1,2\n,4\n5,?\n", {}, r"2 row\(s\) have missing values \(file lines 3, 4\)"),
    (b"a,b\n1,2\n", {}, "at least 2"),
    (b"a,b\n", {}, "no data rows"),
    (GOOD, {"label": "nope"}, "There is no column 'nope'"),
    (GOOD, {"max_bytes": 10}, "over the 0 MB limit"),
])
def test_bad_files_get_clear_messages(raw, kwargs, match):
    with pytest.raises(ValueError, match=match):
        read_table(raw, **kwargs)


def test_missing_values_can_be_dropped_with_a_note():
    data = read_table(b"a,b\n1,2\n,4\n5,6\n", missing="drop")
    assert data.X.tolist() == [[1, 2], [5, 6]] and "Dropped 1 row" in data.notes[0]


def test_hundreds_of_classes_are_refused():
    rows = "\n".join(f"{i},{i * 2},id{i}" for i in range(300))
    with pytest.raises(ValueError, match="300 distinct values, too many for a class label"):
        read_table(("a,b,id\n" + rows).encode(), label="id")


def test_summary_flags_constant_columns_and_single_class():
    data = read_table(b"a,b,c\n1,5,x\n2,5,x\n3,5,x\n", label="c")
    s = summary(data)
    assert s["rows"] == 3 and s["features"] == 2 and s["classes"] == 1 and s["constant_columns"] == ["b"]


def test_subsample_keeps_classes_and_says_so():
    X = np.arange(2000.0).reshape(1000, 2)
    text = "a,b,y\n" + "\n".join(f"{a},{b},{int(a) % 3}" for a, b in X)
    small = subsample(read_table(text, label="y"), 300)
    assert small.X.shape == (300, 2) and set(small.y) == {0, 1, 2} and "Subsampled 300 of 1,000" in small.notes[-1]
