"""Reading a user's file: every kind of bad input gets a message saying what to do."""

import numpy as np
import pytest

from ikviz.data import _parse
from ikviz.data.upload import (
    ROLE_LABELS,
    ROLES,
    guess_label,
    initial_role,
    inspect_file,
    read_columns,
    read_table,
    role_columns,
    role_options,
    shown_role,
    subsample,
    summary,
)

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
    (GOOD, {"roles": {"colour": "feature"}}, "Column 'colour' is not numeric"),
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


# ------------------------------------------------------------------ files as people write them (issue 17)
def test_text_columns_are_encoded_by_default_and_can_be_ignored():
    data = read_table(GOOD)
    assert data.feature_names == ["a", "b", "colour=blue", "colour=red"] and data.y is None
    assert read_table(GOOD, roles={"colour": "ignore"}).feature_names == ["a", "b"]


@pytest.mark.parametrize("raw,match", [
    (b"a,a,b\n1,2,3\n4,5,6\n", r"'a' appears more than once in the header row \(columns 1 and 2\)"),
    (b"a,,b\n1,2,3\n4,5,6\n", "Column 2 has no name in the header row"),
    (b"x,label,label\n1,a,b\n2,b,a\n", r"'label' appears more than once .*columns 2 and 3"),
    (b",,,\n,,,\n,,,\n", "The header row has no column names"),
    (b"id,name\n1,ann\n2,bob\n3,cid\n", r"no feature column left \('id' is an ID; 'name' is an ID, ignored\)"),
    (b"+1 1:0.5 2:nan\n-1 1:1\n-1 2:inf\n", r"2 line\(s\) of the LIBSVM file .*not a number.*lines 1, 3"),
    (b"a;b\n1,5;2\n2.5;3\n", "Column 'a' is not numeric .* write them all the same way"),
])
def test_messy_files_get_messages_naming_the_column_or_line(raw, match):
    with pytest.raises(ValueError, match=match):
        read_table(raw, roles={"a": "feature"} if raw.startswith(b"a;b") else None)


def test_cr_only_line_endings_just_work():
    data = read_table(b"a,b,c\r1,2,x\r3,4,y\r5,6,x\r", label="c")
    assert data.X.tolist() == [[1, 2], [3, 4], [5, 6]] and data.classes == ["x", "y"]


def test_a_cell_over_131072_characters_is_read():
    raw = b"a,b,note\n1,2,short\n3,4," + b"x" * 200_000 + b"\n5,6,short\n"
    info = inspect_file(raw)
    assert info.column("note").kind == "text" and len(info.preview["note"][1]) == 200_000
    assert read_table(raw, roles={"note": "ignore"}).X.shape == (3, 2)


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-le", "utf-16-be", "utf-8-sig", "cp1252"])
def test_utf16_and_other_encodings_are_read(encoding):
    raw = "taille,poids,espèce\n1,2,é\n3,4,è\n5,6,é\n".encode(encoding)
    info = inspect_file(raw)
    assert [c.name for c in info.columns] == ["taille", "poids", "espèce"]
    assert read_table(raw, label="espèce").classes == ["è", "é"]
    if encoding.startswith("utf-16"):
        assert info.encoding.startswith("utf-16") and any("UTF-16" in n for n in info.notes)


def test_libsvm_with_comments_and_qid():
    raw = b"# made by hand\n1 qid:1 1:0.5 3:1 # first\n0 qid:1 2:2\n1 qid:2 1:1 2:1 3:1\n"
    data = read_table(raw)
    assert data.X.shape == (3, 3) and data.y.tolist() == [1, 0, 1]
    assert any("qid" in n for n in data.notes) and any("Comments" in n for n in data.notes)
    assert inspect_file(raw).format == "libsvm" and read_columns(raw) == []


def test_libsvm_nan_rows_can_be_dropped():
    data = read_table(b"+1 1:0.5 2:nan\n-1 1:1\n+1 2:3\n", missing="drop")
    assert data.X.tolist() == [[1, 0], [0, 3]] and "lines 1" in data.notes[-1]


def test_sparse_libsvm_is_never_densified_whole():
    raw = b"0 1:1 50000:1\n" * 10_000
    assert len(raw) < 150_000
    data = read_table(raw)  # 10,000 x 50,000 dense would be 4 GB: only the 2 indices in use are kept
    assert data.X.shape == (10_000, 2) and data.feature_names == ["f1", "f50000"]
    assert "49,998 of 50,000 feature indices never occur" in data.notes[0]


def test_sparse_libsvm_too_wide_even_so_is_refused(monkeypatch):
    monkeypatch.setattr(_parse, "MAX_DENSE_BYTES", 1000)
    raw = "".join(f"0 {i + 1}:1\n" for i in range(200)).encode()
    with pytest.raises(ValueError, match="200 rows and 200 features in use.*Keep fewer features"):
        read_table(raw)


def test_empty_files_and_tiny_files():
    for raw in (b"", b"\xef\xbb\xbf", "".encode("utf-16")):
        with pytest.raises(ValueError, match="The file is empty"):
            inspect_file(raw)
    assert read_table(b"a,b\n1,2\n3,4\n").X.shape == (2, 2)
    with pytest.raises(ValueError, match="at least 2"):
        read_table(b"a;b\n1;2\n")


def test_a_label_with_one_class_reads_with_a_note():
    data = read_table(b"a,b,label\n1,2,x\n2,3,x\n3,1,x\n", label="label")
    assert data.classes == ["x"] and "single class ('x')" in data.notes[-1]
    assert inspect_file(b"a,b,label\n1,2,x\n2,3,x\n3,1,x\n").label_guess is None


def test_an_all_missing_column_is_ignored_and_refused_as_a_feature():
    raw = b"a,b,z\n1,2,\n3,4,NA\n5,6,?\n"
    info = inspect_file(raw)
    assert info.column("z").kind == "empty" and info.column("z").role == "ignore"
    assert read_table(raw).feature_names == ["a", "b"]
    with pytest.raises(ValueError, match="Column 'z' is empty"):
        read_table(raw, roles={"z": "feature"})


def test_semicolon_file_with_text_id_and_text_label():
    rows = "".join(f"S{i:03d};{i % 5};{(i * 7) % 11};{['barbera', 'barolo', 'grignolino'][i % 3]}\n"
                   for i in range(30))
    raw = ("sample;alcohol;ash;cultivar\n" + rows).encode()
    info = inspect_file(raw)
    assert info.delimiter == ";" and info.label_guess == "cultivar"
    assert [(c.kind, c.role) for c in info.columns] == [("id", "ignore"), ("integer", "feature"),
                                                        ("integer", "feature"), ("text", "label")]
    data = read_table(raw, label=info.label_guess, filename="wine.csv")
    assert data.feature_names == ["alcohol", "ash"] and data.classes == ["barbera", "barolo", "grignolino"]
    assert data.source == "wine.csv" and len(data.fingerprint) == 16 and "Ignored column(s): sample." in data.notes


def test_european_decimal_commas_and_thousands_separators():
    info = inspect_file(b"a;b\n1,5;2,25\n3,0;4,5\n")
    assert info.decimal == "," and "Decimal commas detected in 2 column(s): a, b." in info.notes
    assert read_table(b"a;b\n1,5;2,25\n3,0;4,5\n").X.tolist() == [[1.5, 2.25], [3.0, 4.5]]
    eu = read_table(b"a;b\n1.234,5;2\n12,5;3\n")
    assert eu.X.tolist() == [[1234.5, 2], [12.5, 3]]
    us = inspect_file(b'a,b\n"1,234.5",2\n"12,345",3\n')
    assert us.thousands == "," and us.column("a").kind == "numeric"
    assert read_table(b'a,b\n"1,234.5",2\n"12,345",3\n').X[:, 0].tolist() == [1234.5, 12345]


def test_digits_as_csv_with_and_without_header():
    from sklearn.datasets import load_digits

    X, y = load_digits(return_X_y=True)
    X, y = X[:300], y[:300]
    body = "".join(",".join(str(int(v)) for v in row) + f",{t}\n" for row, t in zip(X, y))
    header = ",".join(f"pixel_{j}" for j in range(64)) + ",target\n"
    info = inspect_file(header + body)
    assert info.label_guess == "target" and info.n_rows == 300
    data = read_table(header + body, label="target")
    assert data.X.shape == (300, 64) and np.array_equal(data.X, X) and data.classes == [str(d) for d in range(10)]
    bare = inspect_file(body)
    assert bare.label_guess == "x65" and any("only numbers" in n for n in bare.notes)


def test_dates_are_recognised_and_ignored_by_default():
    raw = b"when,a,b\n2024-01-03,1,2\n2024-02-03,3,4\n2024-03-09,5,6\n"
    info = inspect_file(raw)
    assert info.column("when").kind == "date" and info.column("when").role == "ignore"
    assert read_table(raw).feature_names == ["a", "b"]
    with pytest.raises(ValueError, match="Column 'when' holds dates"):
        read_table(raw, roles={"when": "feature"})


def test_roles_choose_the_label_and_encode_with_a_limit():
    raw = b"a,b,colour,shape\n1,2,red,o\n3,4,blue,x\n5,6,red,o\n7,8,green,x\n"
    data = read_table(raw, roles={"shape": "label"})
    assert data.label_name == "shape" and data.feature_names == ["a", "b", "colour=blue", "colour=green",
                                                                 "colour=red"]
    assert read_table(raw, label="colour", roles={"shape": "label"}).label_name == "colour"  # label= wins
    with pytest.raises(ValueError, match="Only one column can be the label"):
        read_table(raw, roles={"shape": "label", "colour": "label"})
    with pytest.raises(ValueError, match="Column 'colour' has 3 categories, more than the 2"):
        read_table(raw, label="shape", roles={"colour": "encode"}, max_categories=2)
    assert read_table(raw, label="shape", max_categories=2).feature_names == ["a", "b"]  # suggested: ignore
    with pytest.raises(ValueError, match="There is no column 'nope' to give a role"):
        read_table(raw, roles={"nope": "ignore"})


def test_guess_label_by_name_or_position():
    rows = "".join(f"{i * 0.5},{i % 4},{i % 3}\n" for i in range(40))
    assert guess_label(inspect_file("x,Species,z\n" + rows)) == "Species"
    assert guess_label(inspect_file("x,z,w\n" + rows)) == "w"
    assert guess_label(inspect_file("x,z\n" + "".join(f"{i * 0.5},{i * 1.5}\n" for i in range(40)))) is None


def test_excel_and_parquet(tmp_path):
    import pandas as pd

    frame = pd.DataFrame({"a": [1.5, 2.5, 3.5, 4.5], "b": [1, 2, 3, 4], "kind": ["x", "y", "x", "y"]})
    frame.to_excel(tmp_path / "t.xlsx", index=False)
    frame.to_parquet(tmp_path / "t.parquet")
    for name in ("t.xlsx", "t.parquet"):
        raw = (tmp_path / name).read_bytes()
        info = inspect_file(raw, name)
        assert info.format == name.split(".")[1] and info.label_guess == "kind"
        data = read_table(raw, label="kind", filename=name)
        assert data.X.tolist() == frame[["a", "b"]].to_numpy(float).tolist() and data.classes == ["x", "y"]
    pd.DataFrame().to_excel(tmp_path / "empty.xlsx")
    with pytest.raises(ValueError, match="The first sheet .* is empty"):
        inspect_file((tmp_path / "empty.xlsx").read_bytes(), "empty.xlsx")


def test_the_users_bytes_are_not_changed():
    raw = bytearray(b"a;b;c\n1,5;2;x\n3,5;4;y\n")
    before = bytes(raw)
    read_table(raw, label="c")
    inspect_file(raw)
    assert bytes(raw) == before


@pytest.mark.parametrize("value", ["9" * 400, "-" + "9" * 400, "1e400"])
def test_numbers_beyond_float_range_are_named_not_a_raw_overflow(value):
    with pytest.raises(ValueError, match=r"infinite values \(file lines 2\) in column\(s\) b \(a number too large"):
        read_table(f"a,b,label\n1,{value},x\n2,3,y\n3,4,x\n", filename="t.csv")


def test_a_label_named_column_with_too_many_classes_is_explained():
    info = inspect_file("a,b,label\n" + "".join(f"{i},{i % 3},c{i % 300}\n" for i in range(1200)))
    assert info.label_guess is None
    assert any("'label' has 300 distinct values" in n for n in info.notes), info.notes


def test_libsvm_columns_report_their_distinct_values_and_constants():
    info = inspect_file(b"0 1:1 3:2.5\n1 1:2 3:2.5\n0 1:1 3:2.5\n1 3:2.5\n", filename="f.libsvm")
    cols = {c.name: c for c in info.columns}
    assert (cols["f1"].kind, cols["f1"].n_unique, cols["f1"].examples) == ("integer", 3, ["0", "1", "2"])
    assert (cols["f3"].kind, cols["f3"].n_unique) == ("constant", 1)   # 2.5 on every row
    assert info.label_guess == "label"


def test_role_choices_follow_the_column_kind_and_the_suggested_role():
    raw = b"a,k,id,colour,kind\n" + b"".join(f"{i},5,R{i},{'xy'[i % 2]},{'pq'[i % 2]}\n".encode()
                                             for i in range(12))
    info = inspect_file(raw)
    cols = {c.name: c for c in info.columns}
    assert [(c.kind, c.role) for c in info.columns] == [("integer", "feature"), ("constant", "feature"),
                                                        ("id", "ignore"), ("text", "encode"), ("text", "label")]
    assert role_options("integer") == role_options("numeric") == ["feature", "ignore", "encode", "label"]
    assert all(role_options(kind) == ["ignore", "encode", "label"] for kind in ("text", "id", "date", "empty",
                                                                                 "constant"))
    assert set(ROLE_LABELS) == set(ROLES) and ROLE_LABELS["encode"] == "encode (one-hot)"
    # the suggested role when offered; a guessed label (or a numeric constant's "feature") starts at the first option
    assert [initial_role(cols[n]) for n in ("a", "k", "id", "colour", "kind")] == [
        "feature", "ignore", "ignore", "encode", "encode"]
    assert initial_role(cols["kind"], "colour") == "ignore"   # beside another label a guessed label would leak
    # every column but the label gets a choice (issue 33: numeric columns can be ignored in the app too)
    assert [c.name for c in role_columns(info.columns, "kind")] == ["a", "k", "id", "colour"]
    assert [c.name for c in role_columns(info.columns, None)] == ["a", "k", "id", "colour", "kind"]
    assert [c.name for c in role_columns(info.columns, "colour")] == ["a", "k", "id", "kind"]
    chosen = {"colour": "ignore", "id": ""}
    assert [shown_role(c, "kind", chosen) for c in info.columns] == ["feature", "feature", "ignore", "ignore",
                                                                     "label"]
    assert [shown_role(c, None, {}) for c in info.columns] == ["feature", "feature", "ignore", "encode", "encode"]
    assert shown_role(cols["a"], None, {"a": "label"}) == "feature"   # only the picked label is the label
