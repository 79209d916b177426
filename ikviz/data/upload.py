"""Reading a user's own data: CSV (header row) or LIBSVM/svmlight text, with messages a user can act on.

Every problem raises ``ValueError`` with a message that says what was wrong
and what to do; the app shows the same messages.
"""

from __future__ import annotations

import csv
import io
import math
import re
from dataclasses import dataclass, field

import numpy as np

MAX_BYTES = 50 * 1024**2     # larger files are refused
MAX_CLASSES = 100            # more distinct labels than this is not a class column
_LIBSVM_LINE = re.compile(r"^\s*[+-]?[\w.]+(\s+\d+:[^\s:]+)+\s*$")


@dataclass
class UserData:
    r"""A user's dataset, ready for the comparisons.

    Attributes
    ----------
    X : ndarray of shape (n, d)
        The features, all finite.
    y : ndarray of shape (n,) of int, or None
        Class codes 0..k-1 (``classes[code]`` is the original label), or
        ``None`` without a label column.
    feature_names : list of str
    label_name : str or None
    classes : list of str
    notes : list of str
        What was done to the data (rows dropped, subsampled).

    Examples
    --------
    >>> from ikviz.data.upload import read_table
    >>> data = read_table("a,b,kind\n1,2,x\n3,4,y\n5,6,x\n", label="kind")
    >>> data.X.shape, data.y.tolist(), data.classes
    ((3, 2), [0, 1, 0], ['x', 'y'])
    """

    X: np.ndarray
    y: np.ndarray | None                  # integer codes 0..k-1, or None without a label column
    feature_names: list[str]
    label_name: str | None = None
    classes: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)   # what was done to the data (rows dropped, subsampled)


def _text(raw: bytes | str, max_bytes: int | None) -> str:
    max_bytes = MAX_BYTES if max_bytes is None else max_bytes
    if isinstance(raw, str):
        raw = raw.encode("utf-8")
    if len(raw) > max_bytes:
        raise ValueError(f"The file is {len(raw) / 1024**2:.1f} MB, over the {max_bytes / 1024**2:.0f} MB limit. "
                         "Subsample it (or keep fewer columns) and upload it again.")
    if not raw.strip():
        raise ValueError("The file is empty. Upload a CSV file with a header row, or a LIBSVM file.")
    if b"\x00" in raw[:4096]:
        raise ValueError("This is not a text file (it contains binary data). Upload a CSV file with a header row, "
                         "or a LIBSVM/svmlight text file.")
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        return raw.decode("latin-1")


def is_libsvm(text: str) -> bool:
    r"""Whether the first data lines look like LIBSVM/svmlight (``label index:value ...``).

    Examples
    --------
    >>> from ikviz.data.upload import is_libsvm
    >>> is_libsvm("+1 1:0.5 3:2\n-1 2:1\n"), is_libsvm("a,b\n1,2\n")
    (True, False)
    """
    lines = [ln for ln in text.splitlines()[:20] if ln.strip() and not ln.startswith("#")]
    return bool(lines) and all(_LIBSVM_LINE.match(ln) for ln in lines)


def _encode_labels(values: list[str], name: str) -> tuple[np.ndarray, list[str]]:
    keys = np.asarray(values, dtype=object)
    try:
        numeric = keys.astype(float)
        classes, codes = np.unique(numeric, return_inverse=True)
        names = [f"{c:g}" for c in classes]
    except ValueError:
        classes, codes = np.unique(keys.astype(str), return_inverse=True)
        names = [str(c) for c in classes]
    if len(names) > MAX_CLASSES:
        raise ValueError(f"The label column {name!r} has {len(names)} distinct values, too many for a class label "
                         f"(the limit is {MAX_CLASSES}). Pick another label column, or none.")
    return codes.astype(np.int64), names


def _read_libsvm(text: str) -> UserData:
    from sklearn.datasets import load_svmlight_file

    try:
        X, y = load_svmlight_file(io.BytesIO(text.encode()), dtype=np.float64)
    except ValueError as exc:
        raise ValueError(f"This looks like a LIBSVM file but could not be read: {exc}.") from None
    codes, names = _encode_labels([f"{v:g}" for v in y], "label")
    return UserData(X.toarray(), codes, [f"f{j + 1}" for j in range(X.shape[1])], "label", names)


def read_columns(raw: bytes | str, max_bytes: int | None = None) -> list[str]:
    r"""The column names of a CSV file (for choosing the label column); ``[]`` for LIBSVM files.

    Examples
    --------
    >>> from ikviz.data.upload import read_columns
    >>> read_columns(b"height;weight;species\n1;2;a\n")
    ['height', 'weight', 'species']
    """
    text = _text(raw, max_bytes)
    if is_libsvm(text):
        return []
    header, _ = _csv_rows(text)
    return header


def _csv_rows(text: str) -> tuple[list[str], list[list[str]]]:
    sample = text[:20000]
    try:
        dialect = csv.Sniffer().sniff(sample, delimiters=",;\t")
    except csv.Error:
        dialect = csv.excel
    rows = [r for r in csv.reader(io.StringIO(text), dialect) if any(cell.strip() for cell in r)]
    header = [h.strip() for h in rows[0]]
    if len(header) < 2 and len(rows) > 1:
        raise ValueError("The file has a single column. A CSV file needs a header row and comma-, semicolon- or "
                         "tab-separated columns.")
    body = rows[1:]
    bad = [i + 2 for i, r in enumerate(body) if len(r) != len(header)]
    if bad:
        shown = ", ".join(map(str, bad[:5])) + (", ..." if len(bad) > 5 else "")
        raise ValueError(f"{len(bad)} line(s) do not have the {len(header)} columns of the header (lines {shown}). "
                         "Is this really a CSV file with a header row?")
    return header, body


def _to_float(cell: str) -> float:
    cell = cell.strip()
    if cell in ("", "?", "NA", "NaN", "nan", "null", "None"):
        return math.nan
    return float(cell)


def read_table(raw: bytes | str, label: str | None = None, missing: str = "error",
               max_bytes: int | None = None) -> UserData:
    r"""Read a CSV (header row) or LIBSVM file into a :class:`UserData`.

    ``label`` names the CSV column holding the class (``None`` for none; LIBSVM
    files always have one). ``missing="drop"`` drops rows with missing values
    (empty, ``?``, ``NA``); ``"error"`` refuses them with a message.

    Examples
    --------
    >>> from ikviz.data.upload import read_table
    >>> data = read_table("x,y\n1,2\n3,?\n5,6\n", missing="drop")
    >>> data.X.tolist(), data.notes
    ([[1.0, 2.0], [5.0, 6.0]], ['Dropped 1 row(s) with missing values.'])
    >>> read_table("x,y\n1,2\n3,?\n")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: 1 row(s) have missing values (file lines 3). Remove or impute them, or choose to drop rows...
    """
    if missing not in ("error", "drop"):
        raise ValueError(f"missing must be 'error' or 'drop'; got {missing!r}.")
    text = _text(raw, max_bytes)
    if is_libsvm(text):
        data = _read_libsvm(text)
    else:
        header, body = _csv_rows(text)
        if not body:
            raise ValueError("The file has a header row but no data rows.")
        if label is not None and label not in header:
            raise ValueError(f"There is no column {label!r}; the columns are: {', '.join(header)}.")
        features = [h for h in header if h != label]
        columns = {h: [r[i] for r in body] for i, h in enumerate(header)}
        values, non_numeric = {}, []
        for name in features:
            try:
                values[name] = np.array([_to_float(c) for c in columns[name]])
            except ValueError:
                non_numeric.append(name)
        if non_numeric:
            shown = ", ".join(repr(n) for n in non_numeric[:5]) + (", ..." if len(non_numeric) > 5 else "")
            raise ValueError(f"{len(non_numeric)} column(s) are not numeric: {shown}. Remove or encode them as "
                             "numbers, or pick such a column as the label.")
        if not features:
            raise ValueError("There is no feature column left besides the label.")
        X = np.column_stack([values[n] for n in features])
        y, classes = (None, [])
        notes = []
        if label is not None:
            label_cells = [c.strip() for c in columns[label]]
            missing_label = np.array([c in ("", "?", "NA") for c in label_cells])
            X = np.column_stack([X, np.where(missing_label, np.nan, 0.0)])
            y_cells = label_cells
        rows_missing = ~np.isfinite(X).all(axis=1)
        if rows_missing.any():
            where = ", ".join(str(i + 2) for i in np.flatnonzero(rows_missing)[:5])
            if missing == "error":
                raise ValueError(f"{rows_missing.sum()} row(s) have missing values (file lines {where}"
                                 f"{', ...' if rows_missing.sum() > 5 else ''}). Remove or impute them, or choose "
                                 "to drop rows with missing values.")
            notes.append(f"Dropped {rows_missing.sum()} row(s) with missing values.")
        keep = ~rows_missing
        if label is not None:
            X = X[:, :-1]
            y, classes = _encode_labels([c for c, k in zip(y_cells, keep) if k], label)
        data = UserData(X[keep], y, features, label, classes, notes)
    if len(data.X) < 2:
        raise ValueError(f"The data have {len(data.X)} usable row(s); the comparisons need at least 2.")
    return data


def constant_columns(X: np.ndarray) -> list[int]:
    """Indices of columns with a single value (they carry no information for any kernel).

    Examples
    --------
    >>> import numpy as np
    >>> from ikviz.data.upload import constant_columns
    >>> constant_columns(np.array([[1.0, 5.0, 0.0], [2.0, 5.0, 0.0]]))
    [1, 2]
    """
    return [j for j in range(X.shape[1]) if np.ptp(X[:, j]) == 0]


def subsample(data: UserData, max_rows: int, seed: int = 0) -> UserData:
    r"""At most ``max_rows`` rows, drawn at random (stratified by class where possible), with a note.

    Examples
    --------
    >>> from ikviz.data.upload import read_table, subsample
    >>> data = read_table("x,c\n" + "".join(f"{i},{i % 2}\n" for i in range(10)), label="c")
    >>> small = subsample(data, 4)
    >>> len(small.X), sorted(small.y.tolist()), small.notes[-1][:15]
    (4, [0, 0, 1, 1], 'Subsampled 4 of')
    """
    n = len(data.X)
    if n <= max_rows:
        return data
    rng = np.random.default_rng(seed)
    if data.y is not None and len(data.classes) > 1:
        from sklearn.model_selection import train_test_split

        counts = np.bincount(data.y)
        strat = data.y if counts.min() >= 2 else None
        keep, _ = train_test_split(np.arange(n), train_size=max_rows, random_state=seed, stratify=strat)
        keep = np.sort(keep)
    else:
        keep = np.sort(rng.choice(n, max_rows, replace=False))
    note = f"Subsampled {max_rows:,} of {n:,} rows at random (seed {seed}) to keep the comparisons interactive."
    return UserData(data.X[keep], None if data.y is None else data.y[keep], data.feature_names, data.label_name,
                    data.classes, data.notes + [note])


def summary(data: UserData) -> dict:
    r"""n, d, classes, missing values and constant columns, for the page's summary table.

    Examples
    --------
    >>> from ikviz.data.upload import read_table, summary
    >>> info = summary(read_table("x,y,c\n1,0,a\n2,0,b\n3,0,a\n", label="c"))
    >>> info["rows"], info["class_counts"], info["constant_columns"]
    (3, {'a': 2, 'b': 1}, ['y'])
    """
    counts = {} if data.y is None else {data.classes[i]: int(c) for i, c in enumerate(np.bincount(data.y))}
    return {"rows": len(data.X), "features": data.X.shape[1],
            "classes": len(data.classes) if data.y is not None else 0, "class_counts": counts,
            "constant_columns": [data.feature_names[j] for j in constant_columns(data.X)],
            "notes": list(data.notes)}
