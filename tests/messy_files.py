"""The messy files a data scientist brings, for the Your data page: one place for the AppTest cases
(tests/test_your_data.py) and the browser run (benchmarks/your_data_browser.py).

``MESSY[case] = (file name, bytes or a builder key, expected)``; ``expected`` is
``("loads", first metrics shown, words in the notes)`` or ``("says", words in the error)``.
"""

import gzip
import io

import pandas as pd


def _table_bytes(kind: str, frame) -> bytes:
    buffer = io.BytesIO()
    frame.to_excel(buffer, index=False) if kind == "xlsx" else frame.to_parquet(buffer, index=False)
    return buffer.getvalue()


def _rows(n, row):
    return "".join(row(i) for i in range(n))


def _plain(n=40):
    return pd.DataFrame({"a": [i / 10 for i in range(n)], "b": [i % 7 for i in range(n)],
                         "label": ["xy"[i % 2] for i in range(n)]})


# case -> (file name, bytes, expected): ("loads", first metrics, words in the notes) or ("says", words in the error)
CULTIVARS = ("barbera", "barolo", "grignolino")

MESSY = {
    "semicolon, text ID and text label": ("wine.csv", ("id;alcohol;colour;hue;cultivar\n" + _rows(
        60, lambda i: f"W{i:03d};{12 + i % 5};{'red' if i % 3 else 'dark'};{(i * 7) % 11};{CULTIVARS[i % 3]}\n")).encode(),
        ("loads", ["60", "4", "3"], "id columns")),
    "decimal comma": ("dc.csv", ("a;b;label\n" + _rows(30, lambda i: f"{i},5;{i % 4},25;{'xy'[i % 2]}\n")).encode(),
                      ("loads", ["30", "2"], "decimal commas")),
    "thousands separator": ("th.csv", ("a;b;label\n" + _rows(
        40, lambda i: f"{i + 1}.{(i * 37) % 1000:03d},5;{i % 4};{'xy'[i % 2]}\n")).encode(),
        ("loads", ["40", "2", "2"], "thousands separator")),
    "LIBSVM with comments": ("c.txt", ("# made by hand\n" + _rows(
        30, lambda i: f"{i % 2} 1:{i / 10} 3:{i % 5}  # row {i}\n")).encode(), ("loads", ["30", "3", "2"], "libsvm")),
    "LIBSVM with qid": ("q.libsvm", _rows(40, lambda i: f"{i % 2} qid:{i // 10} 1:{i / 10} 2:{i % 5}\n").encode(),
                        ("loads", ["40", "2", "2"], "qid")),
    "LIBSVM with nan": ("n.libsvm", _rows(40, lambda i: f"{i % 2} 1:{'nan' if i == 7 else i} 2:{i % 5}\n").encode(),
                        ("loads", ["39", "2", "2"], "lines 8")),
    "sparse LIBSVM, 50,000 feature indices": ("wide.libsvm", b"0 1:1 50000:1\n1 1:2 50000:1\n" * 5_000,
                                              ("loads", ["2,000", "2", "2"], "never occur")),
    "sparse LIBSVM, one class": ("one.libsvm", b"0 1:1 50000:1\n" * 10_000, ("loads", ["2,000", "2", "1"], "single class")),
    "tiny file": ("tiny.csv", b"y,a,label\n1,0.5,a\n2,0.7,b\n3,0.1,a\n", ("loads", ["3", "2", "2"], "only 3 rows")),
    "label of one class": ("one.csv", ("a,b,label\n" + _rows(40, lambda i: f"{i * 7 % 40},{i % 3},x\n")).encode(),
                           ("loads", ["40", "2", "none"], "holds a single value")),
    "duplicate column names": ("dup.csv", ("a,a,b,label\n" + _rows(
        30, lambda i: f"{i * 7 % 40},{i % 3},{i % 5},{i % 2}\n")).encode(), ("says", "more than once", "'a'")),
    "empty header name": ("e.csv", ("a,,label\n" + _rows(40, lambda i: f"{i * 7 % 40},{i % 3},{'xy'[i % 2]}\n")).encode(),
                          ("says", "column 2 has no name", "header")),
    "label twice": ("r.csv", ("label,a,label\n" + _rows(40, lambda i: f"x,{i},{'uv'[i % 2]}\n")).encode(),
                    ("says", "more than once", "'label'")),
    "CR-only line endings": ("cr.csv", ("a,b,label\r" + _rows(40, lambda i: f"{i * 7 % 40},{i % 3},{'xy'[i % 2]}\r")).encode(),
                             ("loads", ["40", "2", "2"], "comma-separated")),
    "a cell of 140,000 digits": ("h.csv", ("a,b,label\n1," + "9" * 140_000 + ",x\n" + _rows(
        40, lambda i: f"{i * 7 % 40},{i % 3},{'xy'[i % 2]}\n")).encode(), ("loads", ["41", "2", "2"], "too large for 64-bit floats")),
    "UTF-16": ("u.csv", ("a,b,label\n" + _rows(40, lambda i: f"{i * 7 % 40},{i % 3},{'xy'[i % 2]}\n")).encode("utf-16"),
               ("loads", ["40", "2", "2"], "utf-16")),
    "date column": ("d.csv", ("when,a,label\n" + _rows(
        40, lambda i: f"2024-01-{i % 28 + 1:02d},{i % 9},{'xy'[i % 2]}\n")).encode(),
        ("loads", ["40", "1", "2"], "date columns")),
    "all-missing column": ("m.csv", ("a,b,gone,label\n" + _rows(
        40, lambda i: f"{i * 7 % 40},{i % 3},,{'xy'[i % 2]}\n")).encode(), ("loads", ["40", "2", "2"], "gone")),
    "hundreds of classes": ("many.csv", ("a,b,label\n" + _rows(1200, lambda i: f"{i * 7 % 40},{i % 3},c{i % 300}\n")).encode(),
                            ("loads", ["1,200", "2", "none"], "300 distinct values")),
    "Excel": ("x.xlsx", "xlsx", ("loads", ["40", "2", "2"], "")),
    "empty Excel sheet": ("empty.xlsx", "xlsx-empty", ("says", "empty", "first sheet")),
    "Parquet": ("p.parquet", "parquet", ("loads", ["40", "2", "2"], "")),
    "gzip file": ("z.csv.gz", "gzip", ("says", "compressed", "unpack")),
}


def messy_bytes(raw) -> bytes:
    """The bytes of a case's file (Excel, Parquet and gzip files are built here)."""
    if raw == "xlsx":
        return _table_bytes("xlsx", _plain())
    if raw == "xlsx-empty":
        return _table_bytes("xlsx", pd.DataFrame())
    if raw == "parquet":
        return _table_bytes("parquet", _plain())
    return gzip.compress(b"a,b\n1,2\n") if raw == "gzip" else raw
