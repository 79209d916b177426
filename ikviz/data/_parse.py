"""Private helpers of :mod:`ikviz.data.upload`: a user's file parsed into a table.

Format, encoding, delimiter, decimal and thousands separators are detected
here; every problem raises ``ValueError`` with a message naming the column or
line and saying what to do. The user's bytes are only read, never changed.
"""

from __future__ import annotations

import csv
import hashlib
import io
import re
import sys
import warnings
import zipfile
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

MISSING = ("", "?", "NA", "N/A", "n/a", "NaN", "nan", "null", "NULL", "None", "#N/A")
DELIMITERS = (",", ";", "\t", "|")
DELIMITER_NAMES = {",": "comma", ";": "semicolon", "\t": "tab", "|": "pipe"}
# bounds checked before a file is read (issue 31 item 3), said once in ikviz/_limits.py (the Dask reader of
# ikviz scale checks the same): each refusal names the file, what and the limit. Read here as module globals.
from .._limits import (MAX_COLUMNS, MAX_DENSE_BYTES, MAX_LIBSVM_INDEX, MAX_LINE_CHARS, MAX_PATH_CHARS,  # noqa: F401
                       MAX_SHEET_CELLS, MAX_UNZIPPED_BYTES, check_path_text, libsvm_index_too_large, line_too_long,
                       MAX_PARQUET_FOOTER, longest_line, parquet_footer_size, parquet_footer_too_large,
                       parquet_too_large, too_many_columns)
from .._limits import mb as _mb, who as _who
_SAMPLE_CHARS = 1 << 16
_SAMPLE_LINES = 2000

# (decimal, thousands): the number conventions tried on text columns, in order of preference
CONVENTIONS = ((".", None), (",", None), (",", "."), (".", ","), (",", " "), (".", " "))
_EXP = r"(?:[eE][+-]?\d+)?"
_NUMBER = {
    (".", None): re.compile(rf"[+-]?(?:\d+(?:\.\d*)?|\.\d+){_EXP}"),
    (",", None): re.compile(rf"[+-]?(?:\d+(?:,\d*)?|,\d+){_EXP}"),
    (",", "."): re.compile(r"[+-]?(?:\d{1,3}(?:\.\d{3})+|\d+)(?:,\d+)?"),
    (".", ","): re.compile(r"[+-]?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?"),
    (",", " "): re.compile(r"[+-]?(?:\d{1,3}(?: \d{3})+|\d+)(?:,\d+)?"),
    (".", " "): re.compile(r"[+-]?(?:\d{1,3}(?: \d{3})+|\d+)(?:\.\d+)?"),
}
_LIBSVM_LINE = re.compile(r"^\s*[+-]?[\w.]+(\s+qid:\S+)?(\s+\d+:[^\s:]+)*\s*(#.*)?$")
_LIBSVM_FEATURE = re.compile(r"\s\d+:[^\s:]+")


@dataclass
class Parsed:
    """A parsed file: a table (``frame``) or, for LIBSVM, a sparse matrix with labels."""

    format: str
    fingerprint: str
    frame: pd.DataFrame | None = None          # csv, xlsx, parquet: numeric columns float, text as str
    first_line: int = 2                        # the file line (or sheet row) of the first data row
    delimiter: str | None = None
    decimal: str = "."
    thousands: str | None = None
    encoding: str | None = None
    notes: list[str] = field(default_factory=list)
    X: object = None                           # libsvm: scipy CSR matrix
    y: np.ndarray | None = None                # libsvm: the labels as floats
    feature_names: list[str] = field(default_factory=list)
    line_of_row: np.ndarray | None = None      # libsvm: the file line of each row
    summary: str = ""                          # what was detected, in a line (for FileInfo, not UserData)
    cache: dict = field(default_factory=dict)  # what upload derives from it (FileInfo per max_categories)
    sheets: list[str] = field(default_factory=list)  # xlsx: every sheet's name
    sheet: str | None = None                   # xlsx: the sheet read
    retyped: dict = field(default_factory=dict)  # column -> (cells that are not numbers, first one, its line)


def fingerprint(raw: bytes) -> str:
    """First 16 hex characters of the SHA-256 of ``raw``."""
    return hashlib.sha256(raw).hexdigest()[:16]


def as_bytes(raw: bytes | str) -> bytes:
    return raw.encode("utf-8") if isinstance(raw, str) else bytes(raw)




def check_line_length(raw: bytes, filename: str | None) -> None:
    """Refuse a text file with a line over :data:`MAX_LINE_CHARS` before any parser sees it."""
    if len(raw) <= MAX_LINE_CHARS:
        return
    longest, where = longest_line(raw)
    if longest > MAX_LINE_CHARS:
        raise ValueError(line_too_long(filename, where, longest, MAX_LINE_CHARS))


# ------------------------------------------------------------------ format and encoding
def detect_format(raw: bytes, filename: str | None) -> str:
    ext = (filename or "").lower().rsplit(".", 1)[-1] if filename and "." in filename else ""
    if raw[:4] == b"PAR1" or ext == "parquet":
        return "parquet"
    if raw[:4] == b"PK\x03\x04" or ext in ("xlsx", "xlsm"):
        return "xlsx"
    if raw[:8] == b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" or ext == "xls":
        raise ValueError("This is an old Excel .xls workbook. Save it as .xlsx (or CSV) and upload it again.")
    if raw[:2] == b"\x1f\x8b" or raw[:3] == b"BZh" or raw[:6] == b"7z\xbc\xaf\x27\x1c":
        raise ValueError("This is a compressed file. Unpack it and upload the CSV, LIBSVM, Excel or Parquet "
                         "file inside.")
    return "text"


def decode(raw: bytes) -> tuple[str, str, list[str]]:
    """The text of ``raw``, its encoding and notes (BOMs and UTF-16 without BOM are recognised)."""
    notes = []
    for bom, enc in ((b"\xff\xfe\x00\x00", "utf-32-le"), (b"\x00\x00\xfe\xff", "utf-32-be"),
                     (b"\xff\xfe", "utf-16-le"), (b"\xfe\xff", "utf-16-be"), (b"\xef\xbb\xbf", "utf-8")):
        if raw.startswith(bom):
            try:
                text = raw[len(bom):].decode(enc)
            except UnicodeDecodeError as exc:
                raise ValueError(f"The file starts with a {enc.upper()} byte-order mark but is not valid "
                                 f"{enc.upper()} (byte {exc.start + len(bom)}). Save it again as UTF-8.") from None
            if enc != "utf-8":
                notes.append(f"Read as {enc.upper()} (byte-order mark).")
            return text, enc, notes
    head = raw[:4096]
    if b"\x00" in head:
        even, odd = head[0::2].count(0), head[1::2].count(0)
        if max(even, odd) > 0.3 * len(head) / 2 and min(even, odd) < 0.05 * len(head) / 2:
            enc = "utf-16-le" if odd > even else "utf-16-be"
            try:
                text = raw.decode(enc)
            except UnicodeDecodeError:
                text = None
            if text is not None:
                notes.append(f"Read as {enc.upper()} (no byte-order mark).")
                return text, enc, notes
        raise ValueError("This is not a text file (it contains binary data). Upload a CSV file with a header row, "
                         "a LIBSVM/svmlight text file, an Excel .xlsx workbook or a Parquet file.")
    try:
        return raw.decode("utf-8"), "utf-8", notes
    except UnicodeDecodeError:
        pass
    try:
        text, enc = raw.decode("cp1252"), "cp1252"
    except UnicodeDecodeError:
        text, enc = raw.decode("latin-1"), "latin-1"
    notes.append(f"Not UTF-8: read as {'Windows-1252' if enc == 'cp1252' else 'Latin-1'}. If accented letters look "
                 "wrong, save the file as UTF-8.")
    return text, enc, notes


# ------------------------------------------------------------------ LIBSVM
def is_libsvm(text: str) -> bool:
    lines = [ln for ln in text[:_SAMPLE_CHARS].splitlines()[:50] if ln.strip() and not ln.lstrip().startswith("#")]
    if len(text) > _SAMPLE_CHARS and len(lines) > 1:
        lines = lines[:-1]  # the last sampled line may be cut
    return (bool(lines) and all(_LIBSVM_LINE.match(ln) for ln in lines)
            and any(_LIBSVM_FEATURE.search(ln.split("#", 1)[0]) for ln in lines))


def parse_libsvm(text: str, fp: str, notes: list[str], missing: str = "error", filename: str | None = None) -> Parsed:
    from sklearn.datasets import load_svmlight_file

    lines = text.splitlines()
    if any(ln.lstrip().startswith("#") or "#" in ln for ln in lines[:1000]) or "#" in text:
        notes.append("Comments (after #) ignored.")
    if "qid:" in text:
        notes.append("Query ids (qid:) ignored: each line is one row.")
    huge = re.search(r"(?:^|\s)(\d{10,}):", text)
    if huge and int(huge.group(1)) > MAX_LIBSVM_INDEX:
        line = text.count("\n", 0, huge.start(1)) + 1
        raise ValueError(libsvm_index_too_large(filename, int(huge.group(1)), line))
    try:
        X, y = load_svmlight_file(io.BytesIO(text.encode("utf-8")), dtype=np.float64)
    except (ValueError, OverflowError) as exc:
        raise ValueError(f"This looks like a LIBSVM file but could not be read: {exc}. Each line must be "
                         "'label index:value index:value ...' with increasing indices.") from None
    data_lines = np.array([i + 1 for i, ln in enumerate(lines) if ln.split("#", 1)[0].strip()])
    if len(data_lines) != X.shape[0]:
        data_lines = np.arange(1, X.shape[0] + 1)
    X = X.tocsr()
    bad_y = ~np.isfinite(y)
    bad_x = np.zeros(X.shape[0], dtype=bool)
    if X.nnz and not np.isfinite(X.data).all():
        rows = np.repeat(np.arange(X.shape[0]), np.diff(X.indptr))
        bad_x[rows[~np.isfinite(X.data)]] = True
    bad = bad_x | bad_y
    if bad.any():
        where = ", ".join(str(v) for v in data_lines[bad][:5]) + (", ..." if bad.sum() > 5 else "")
        if missing == "error":
            raise ValueError(f"{bad.sum()} line(s) of the LIBSVM file hold a value that is not a number (nan or "
                             f"inf) (lines {where}). LIBSVM has no missing values: leave a feature out for 0, fix "
                             "those values, or choose to drop rows with missing values.")
        keep = ~bad
        X, y, data_lines = X[keep], y[keep], data_lines[keep]
        notes.append(f"Dropped {bad.sum()} line(s) with values that are not numbers (lines {where}).")
    names = [f"f{j + 1}" for j in range(X.shape[1])]
    if X.shape[0] * X.shape[1] * 8 > MAX_DENSE_BYTES:
        used = np.unique(X.indices)
        dense = X.shape[0] * X.shape[1] * 8
        notes.append(f"{X.shape[1] - len(used):,} of {X.shape[1]:,} feature indices never occur in the file "
                     f"(all zero): kept the {len(used):,} that do (the full table would take {_mb(dense)}).")
        X, names = X[:, used], [names[j] for j in used]
        if X.shape[0] * X.shape[1] * 8 > MAX_DENSE_BYTES:
            raise ValueError(f"The LIBSVM file has {X.shape[0]:,} rows and {X.shape[1]:,} features in use; as a "
                             f"table of numbers that is {_mb(X.shape[0] * X.shape[1] * 8)}, over the "
                             f"{_mb(MAX_DENSE_BYTES)} the checks work with. Keep fewer features (e.g. the most "
                             "frequent ones) or fewer rows, and upload it again.")
    return Parsed("libsvm", fp, encoding="utf-8", notes=notes, X=X, y=y, feature_names=names,
                  line_of_row=data_lines)


# ------------------------------------------------------------------ CSV
def _count_fields(line: str, delim: str) -> int:
    n, quoted = 1, False
    for ch in line:
        if ch == '"':
            quoted = not quoted
        elif ch == delim and not quoted:
            n += 1
    return n


def sniff_delimiter(lines: list[str]) -> str | None:
    best, best_key = None, None
    for delim in DELIMITERS:
        counts = [_count_fields(ln, delim) for ln in lines]
        if counts[0] < 2:
            continue
        agree = sum(c == counts[0] for c in counts) / len(counts)
        key = (agree >= 0.9, agree, counts[0])
        if best_key is None or key > best_key:
            best, best_key = delim, key
    return best


def _is_number(cell: str) -> bool:
    return any(rx.fullmatch(cell) for rx in _NUMBER.values())


def _bad_lines(text: str, delim: str, n_fields: int) -> list[int]:
    """File lines (1-based, the header is line 1) whose number of fields differs from ``n_fields``."""
    old = csv.field_size_limit()
    csv.field_size_limit(sys.maxsize)
    try:
        reader = csv.reader(io.StringIO(text, newline=""), delimiter=delim)
        bad = []
        for row in reader:
            if row and any(c.strip() for c in row) and len(row) != n_fields:
                bad.append(reader.line_num)
        return bad
    except csv.Error:
        return []
    finally:
        csv.field_size_limit(old)


def _raise_bad_lines(bad: list[int], n_fields: int) -> None:
    shown = ", ".join(map(str, bad[:5])) + (", ..." if len(bad) > 5 else "")
    raise ValueError(f"{len(bad)} line(s) do not have the {n_fields} columns of the header (lines {shown}). "
                     "Is this really a CSV file with a header row? Fix those lines (a missing value is an empty "
                     "cell between two separators) and upload the file again.")


def check_names(names: list[str], where: str = "header row") -> None:
    if not any(names):
        raise ValueError(f"The {where} has no column names (it is empty or only separators). The first line must "
                         "name each column, e.g. 'height,weight,species'.")
    for i, name in enumerate(names):
        if not name:
            hint = " (a first column without a name is often a saved row index: delete it)" if i == 0 else ""
            raise ValueError(f"Column {i + 1} has no name in the {where}{hint}. Give it a name (or delete the "
                             "column) and upload the file again.")
    seen: dict[str, int] = {}
    for i, name in enumerate(names):
        if name in seen:
            raise ValueError(f"The column name {name!r} appears more than once in the {where} (columns "
                             f"{seen[name] + 1} and {i + 1}). Rename one of them so each column has its own name.")
        seen[name] = i


def choose_convention(frame: pd.DataFrame, delimiter: str | None) -> tuple[str, str | None]:
    """The (decimal, thousands) convention that makes the most text columns of ``frame`` numeric.

    Each distinct cell of the whole frame is matched once per convention (not once per column): a sample of
    2,000 rows of 10,000 text columns takes seconds, not minutes."""
    text_cols = [c for c in frame if not pd.api.types.is_numeric_dtype(frame[c])]
    if not text_cols:
        return CONVENTIONS[0]
    values = frame[text_cols].to_numpy(dtype=object)
    column = np.broadcast_to(np.arange(len(text_cols)), values.shape).ravel()
    flat = pd.Series(values.ravel())
    present = flat.notna().to_numpy()
    cells = flat[present].astype(str).str.strip()
    column = column[present]
    filled = (cells != "").to_numpy()
    pairs = pd.DataFrame({"c": column[filled], "v": cells.to_numpy()[filled]}).drop_duplicates()
    if pairs.empty:
        return CONVENTIONS[0]
    codes, uniques = pd.factorize(pairs["v"])
    col = pairs["c"].to_numpy()
    n = len(text_cols)
    has = np.bincount(col, minlength=n) > 0

    def all_match(rx) -> np.ndarray:
        """Per column: every distinct cell matches ``rx``."""
        ok = np.fromiter((rx.fullmatch(u) is not None for u in uniques), dtype=bool, count=len(uniques))
        return has & (np.bincount(col, weights=~ok[codes], minlength=n) == 0)

    candidates = ~all_match(_NUMBER[CONVENTIONS[0]]) & has
    score = {conv: int(np.sum(all_match(_NUMBER[conv]) & candidates)) for conv in CONVENTIONS[1:]}
    best = max(score.values(), default=0)
    if best == 0:
        return CONVENTIONS[0]
    tied = [c for c in CONVENTIONS[1:] if score[c] == best]
    if (",", None) in tied and (".", ",") in tied:   # '1,234' alone: decimal comma in ;-files, thousands in ,-files
        return (".", ",") if delimiter == "," else (",", None)
    return tied[0]


def to_numbers(cells: pd.Series, conv: tuple[str, str | None]) -> np.ndarray | None:
    """``cells`` (strings, NaN for missing) as floats under ``conv``, or None if some cell is not such a number."""
    present = cells.dropna().astype(str).str.strip()
    present = present[present != ""]
    if not len(present):
        return None
    uniques = pd.Series(present.unique())          # each distinct cell is checked once
    rx = _NUMBER[conv]
    if not uniques.map(lambda s: rx.fullmatch(s) is not None).all():
        return None
    dec, th = conv
    if th:
        present = present.str.replace(th, "", regex=False)
    if dec != ".":
        present = present.str.replace(dec, ".", regex=False)
    out = np.full(len(cells), np.nan)
    out[cells.index.get_indexer(present.index)] = present.astype(float).to_numpy()
    return out


def _as_float(value) -> float:
    """``float(value)``, with integers beyond float's range as ±inf (reported later as not finite) instead of
    OverflowError: pandas reads a 400-digit number as a Python int."""
    try:
        return float(value)
    except OverflowError:
        return float("inf") if value > 0 else float("-inf")


def _first_not_number(strings: pd.Series, conv: tuple[str, str | None]) -> tuple[int, object, object] | None:
    """For a column of numbers but for a few cells: (how many cells are not numbers, the first one, its row index).

    None when more than 1 % of the present cells (or more than 100) are not numbers: such a column is text."""
    present = strings.dropna().astype(str).str.strip()
    present = present[present != ""]
    if len(present) < 20:
        return None
    rx = _NUMBER[conv]
    uniques = pd.Series(present.unique())
    ok = uniques.map(lambda v: rx.fullmatch(v) is not None)
    bad_values = set(uniques[~ok])
    if not bad_values or len(bad_values) > 100:
        return None
    bad = present[present.isin(bad_values)]
    if len(bad) > max(1, len(present) // 100):
        return None
    return len(bad), bad.iloc[0], bad.index[0]


def numeric_columns(frame: pd.DataFrame, conv: tuple[str, str | None], notes: list[str],
                    retyped: dict | None = None, first_line: int | None = None) -> pd.DataFrame:
    """Text columns of ``frame`` that hold numbers under ``conv`` (or, failing that, another convention), converted.

    A column of numbers but for a few cells stays text, and ``retyped`` (when given) records it as
    ``{column: (cells that are not numbers, the first of them, its file line or row)}`` with a note
    naming the value and its line (``first_line``: the file line of row index 0)."""
    converted, by_conv = {}, {}
    for col in frame:
        s = frame[col]
        if pd.api.types.is_bool_dtype(s):
            converted[col] = s.astype(float)
            continue
        if pd.api.types.is_numeric_dtype(s) or pd.api.types.is_datetime64_any_dtype(s):
            continue
        if s.dtype == object and s.notna().any() and s.dropna().map(
                lambda v: isinstance(v, (int, float, np.integer, np.floating)) and not isinstance(v, bool)).all():
            converted[col] = s.map(_as_float, na_action="ignore").astype(float)
            continue
        strings = s.where(s.isna(), s.astype(str))
        for c in (conv,) + tuple(x for x in CONVENTIONS if x != conv):
            values = to_numbers(strings, c)
            if values is not None:
                converted[col] = pd.Series(values, index=frame.index)
                if c != (".", None):
                    by_conv.setdefault(c, []).append(str(col))
                break
        else:
            if retyped is not None:
                odd = _first_not_number(strings, conv)
                if odd is not None:
                    count, value, row = odd
                    line = int(row) + first_line if first_line is not None else int(row) + 1
                    where = "line" if first_line is not None else "row"
                    retyped[str(col)] = (count, str(value), line)
                    notes.append(f"Column {str(col)!r} holds numbers, but {count:,} cell(s) are not numbers, e.g. "
                                 f"{str(value)[:40]!r} on {where} {line:,}: the column is read as text and ignored. "
                                 "Fix or blank those cells to use it as numbers.")
    for (dec, th), cols in by_conv.items():
        what = []
        if dec == ",":
            what.append("decimal commas")
        if th:
            what.append(f"thousands separator {th!r}")
        shown = ", ".join(cols[:8]) + (", ..." if len(cols) > 8 else "")
        notes.append(f"{' and '.join(what).capitalize()} detected in {len(cols)} column(s): {shown}.")
    if not converted:
        return frame
    out = frame.copy()
    for col, values in converted.items():
        out[col] = values
    return out


def parse_csv(text: str, raw: bytes, encoding: str, fp: str, notes: list[str], filename: str | None = None) -> Parsed:
    sample = text[:_SAMPLE_CHARS]
    lines = [ln for ln in sample.splitlines() if ln.strip()]
    if len(text) > _SAMPLE_CHARS and len(lines) > 1:
        lines = lines[:-1]
    lines = lines[:50]
    delim = sniff_delimiter(lines)
    if delim is None:
        if len(lines) > 1:
            raise ValueError("The file has a single column. A CSV file needs a header row and comma-, semicolon-, "
                             "tab- or |-separated columns.")
        raise ValueError("The file has a single line and no separators: a CSV file needs a header row and at "
                         "least one data row.")
    first_line = next((ln for ln in text[:MAX_LINE_CHARS + 2].splitlines() if ln.strip()), lines[0])
    n_header = _count_fields(first_line, delim)
    if n_header > MAX_COLUMNS:
        raise ValueError(too_many_columns(filename, n_header, MAX_COLUMNS)[:-1] + " and upload it again.")
    src = (lambda: io.BytesIO(raw)) if encoding == "utf-8" else (lambda: io.StringIO(text))
    enc = "utf-8-sig" if encoding == "utf-8" else None
    common = {"sep": delim, "encoding": enc, "index_col": False, "keep_default_na": False,
              "na_values": list(MISSING), "skipinitialspace": True, "skip_blank_lines": True, "engine": "c"}
    try:
        head = pd.read_csv(src(), header=None, nrows=_SAMPLE_LINES, dtype=str, **common)
    except (pd.errors.ParserError, pd.errors.EmptyDataError, UnicodeDecodeError, ValueError):
        head = None
    if head is None or head.empty:
        bad = _bad_lines(text, delim, n_header)
        if bad:
            _raise_bad_lines(bad, n_header)
        raise ValueError("The file could not be read as a table. Is it a CSV file with a header row?")
    names = ["" if pd.isna(v) else str(v).strip() for v in head.iloc[0]]
    n_fields = len(names)
    headerless = all(n and _is_number(n) for n in names)
    if headerless:
        names = [f"x{j + 1}" for j in range(len(names))]
        notes.append(f"The first line holds only numbers: read as data, with columns named x1..x{len(names)}.")
        body_sample = head
    trailing = 0
    if not headerless:
        # lines ending in one or more separators ('...;0,7578;;'): empty names over empty columns are left out
        while (len(names) - trailing > 1 and not names[-1 - trailing]
               and head.iloc[1:, -1 - trailing].isna().all() and any(names[:-1 - trailing])):
            trailing += 1
        if trailing:
            notes.append(f"Each line ends with {trailing} extra separator(s): the {trailing} empty column(s) at "
                         "the end were left out.")
            names = names[:len(names) - trailing]
            head = head.iloc[:, :len(names)]
        if len(names) > 1 and not names[0] and all(names[1:]):   # R's write.csv: a row-name column without a name
            names[0] = "Unnamed: 0"
            notes.append("The first column has no name (often a saved row index): read as 'Unnamed: 0', as "
                         "pandas does.")
        check_names(names)
        body_sample = head.iloc[1:]
    body_sample = body_sample.copy()
    body_sample.columns = names
    conv = choose_convention(body_sample, delim)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", pd.errors.ParserWarning)
            frame = pd.read_csv(src(), header=None if headerless else 0, decimal=conv[0],
                                usecols=range(len(names)) if trailing else None, **common)
    except (pd.errors.ParserError, pd.errors.ParserWarning, ValueError) as exc:
        bad = _bad_lines(text, delim, n_fields)
        if bad:
            _raise_bad_lines(bad, len(names))
        raise ValueError(f"The file could not be read as a table ({str(exc).strip()}). Is it a CSV file with a "
                         "header row?") from None
    if frame.shape[1] != len(names):
        _raise_bad_lines(_bad_lines(text, delim, n_fields) or [1], len(names))
    frame.columns = names
    blank = frame.isna().all(axis=1).to_numpy()
    if len(frame) and frame.iloc[:, -1].isna().any():   # short lines are read as missing cells: find them
        bad = _bad_lines(text, delim, n_fields)
        if bad:
            _raise_bad_lines(bad, len(names))
    if blank.any():   # lines of separators only (';;;;'), often a file's tail: not rows of missing values
        notes.append(f"Left out {int(blank.sum()):,} line(s) holding only separators (no values)"
                     + (" at the end of the file." if blank[-int(blank.sum()):].all() else "."))
        frame = frame[~blank]
    if conv[0] == ",":
        cols = [c for c in names if pd.api.types.is_float_dtype(frame[c])
                and body_sample[c].dropna().astype(str).str.contains(",", regex=False).any()]
        if cols:
            notes.append(f"Decimal commas detected in {len(cols)} column(s): {', '.join(cols[:8])}"
                         f"{', ...' if len(cols) > 8 else ''}.")
    first = 1 if headerless else 2
    retyped: dict = {}
    frame = numeric_columns(frame, conv, notes, retyped, first)
    dec_note = "decimal comma" if conv[0] == "," else "decimal point"
    summary = (f"{DELIMITER_NAMES[delim].capitalize()}-separated, {dec_note}"
                    f"{'' if conv[1] is None else f', thousands separator {conv[1]!r}'}, {encoding.upper()}.")
    return Parsed("csv", fp, frame, first, delim, conv[0], conv[1], encoding, notes,
                  summary=summary, retyped=retyped)


# ------------------------------------------------------------------ Excel and Parquet
_XML_NS = {"m": "http://schemas.openxmlformats.org/spreadsheetml/2006/main",
           "r": "http://schemas.openxmlformats.org/officeDocument/2006/relationships",
           "p": "http://schemas.openxmlformats.org/package/2006/relationships"}


def _cell_ref(ref: str) -> tuple[int, int]:
    """(row, column), 1-based, of an Excel reference such as ``XFD1048576``."""
    m = re.fullmatch(r"\$?([A-Za-z]{1,3})\$?(\d{1,7})", ref.strip())
    if not m:
        return 1, 1
    col = 0
    for ch in m.group(1).upper():
        col = col * 26 + ord(ch) - 64
    return int(m.group(2)), col


def xlsx_sheets(raw: bytes, filename: str | None = None) -> list[tuple[str, int | None]]:
    """Each sheet of an .xlsx workbook with the cell count of its used range (None when not stated),
    read from the zip's directory and XML heads only: the zip's decompressed size and every sheet's
    used range are checked against :data:`MAX_UNZIPPED_BYTES` and :data:`MAX_SHEET_CELLS` before any
    cell is read."""
    from xml.etree import ElementTree

    who = _who(filename) or "The workbook: "
    try:
        zf = zipfile.ZipFile(io.BytesIO(raw))
        infos = zf.infolist()
    except (zipfile.BadZipFile, ValueError, OSError) as exc:
        raise ValueError(f"{who}this could not be read as an Excel .xlsx workbook (not a valid zip file: {exc}). "
                         "Save it again from Excel, or as CSV, and upload that.") from None
    unzipped = sum(i.file_size for i in infos)
    if unzipped > MAX_UNZIPPED_BYTES:
        raise ValueError(f"{who}the workbook unpacks to {_mb(unzipped)}, over the limit of "
                         f"{_mb(MAX_UNZIPPED_BYTES)}. Save the sheet you need as CSV, or keep fewer rows.")
    try:
        book = ElementTree.fromstring(zf.read("xl/workbook.xml"))
        rels = ElementTree.fromstring(zf.read("xl/_rels/workbook.xml.rels"))
    except (KeyError, ElementTree.ParseError, zipfile.BadZipFile, OSError):
        raise ValueError(f"{who}this could not be read as an Excel .xlsx workbook (no workbook inside). Save it "
                         "again from Excel, or as CSV, and upload that.") from None
    targets = {r.get("Id"): r.get("Target", "") for r in rels.findall("p:Relationship", _XML_NS)}
    out = []
    for sheet in book.findall("m:sheets/m:sheet", _XML_NS):
        name = sheet.get("name", "")
        target = targets.get(sheet.get(f"{{{_XML_NS['r']}}}id"), "")
        target = target.lstrip("/") if target.startswith("/") else "xl/" + target
        cells = None
        try:
            with zf.open(target) as fh:
                head = fh.read(4096).decode("utf-8", "replace")
            m = re.search(r"<(?:\w+:)?dimension\s+ref=\"([^\"]+)\"", head)
            if m:
                first, _, last = m.group(1).partition(":")
                (r0, c0), (r1, c1) = _cell_ref(first), _cell_ref(last or first)
                cells = (abs(r1 - r0) + 1) * (abs(c1 - c0) + 1)
        except (KeyError, OSError, zipfile.BadZipFile):
            pass
        out.append((name, cells))
    return out


def xlsx_engine() -> str:
    """pandas' engine for .xlsx sheets: ``"calamine"`` (python-calamine, in Rust: 1.9 M cells in 2.2 s of CPU
    against openpyxl's 21.6 s, issue 31) when installed, else ``"openpyxl"``."""
    try:
        import python_calamine  # noqa: F401
    except ImportError:
        return "openpyxl"
    return "calamine"


def parse_xlsx(raw: bytes, fp: str, notes: list[str], sheet: str | None = None,
               filename: str | None = None) -> Parsed:
    sheets = xlsx_sheets(raw, filename)
    names_of = [n for n, _ in sheets]
    if sheet is not None and sheet not in names_of:
        raise ValueError(f"The workbook has no sheet {sheet!r}; its sheets are: {', '.join(map(repr, names_of))}.")
    which = "sheet" if sheet is not None else "first sheet"
    sheet = sheet if sheet is not None else (names_of[0] if names_of else None)
    cells = dict(sheets).get(sheet)
    if cells is not None and cells > MAX_SHEET_CELLS:
        raise ValueError(f"{_who(filename) or 'The workbook: '}sheet {sheet!r} has a used range of {cells:,} cells, "
                         f"over the limit of {MAX_SHEET_CELLS:,}. Delete the cells beyond the table (a stray cell "
                         "far away makes the range huge) or save the sheet as CSV.")
    try:
        table = pd.read_excel(io.BytesIO(raw), sheet_name=sheet if sheet is not None else 0, header=None,
                              dtype=object, engine=xlsx_engine())
    except ImportError:
        raise ValueError("Reading Excel files needs the openpyxl package (pip install openpyxl); or save the "
                         "sheet as CSV and upload that.") from None
    except Exception as exc:  # noqa: BLE001 - any failure of the reader becomes a message
        raise ValueError(f"This could not be read as an Excel .xlsx workbook ({type(exc).__name__}: {exc}). Save "
                         "it again from Excel, or as CSV, and upload that.") from None
    if sheet is None:
        sheet = "1"
    table = table.dropna(how="all").dropna(axis=1, how="all")
    if table.empty:
        raise ValueError(f"The {which} ({sheet!r}) of the workbook is empty. Put the table (a header row, then one "
                         "row per sample) on it, or pick another sheet, and upload it again.")
    if table.shape[1] > MAX_COLUMNS:
        raise ValueError(too_many_columns(filename or "The workbook", table.shape[1], MAX_COLUMNS,
                                          where=f"sheet {sheet!r}"))
    if len(names_of) > 1:
        notes.append(f"Read the sheet {sheet!r}, one of {len(names_of)}: {', '.join(map(repr, names_of[:10]))}. "
                     "Pick another sheet to read that one.")
    first = int(table.index[0])
    names = ["" if pd.isna(v) else str(v).strip() for v in table.iloc[0]]
    check_names(names, where=f"header row (row {first + 1} of sheet {sheet!r})")
    frame = table.iloc[1:].reset_index(drop=True)
    frame.columns = names
    frame = frame.map(lambda v: np.nan if isinstance(v, str) and v.strip() in MISSING else v)
    frame = _datetime_columns(frame)
    conv = choose_convention(frame, None)
    retyped: dict = {}
    frame = numeric_columns(frame, conv, notes, retyped, first + 2)
    return Parsed("xlsx", fp, frame, first + 2, decimal=conv[0], thousands=conv[1], notes=notes,
                  sheets=names_of, sheet=sheet, retyped=retyped)


def _datetime_columns(frame: pd.DataFrame) -> pd.DataFrame:
    import datetime as dt

    out = frame
    for col in frame:
        s = frame[col].dropna()
        if len(s) and s.map(lambda v: isinstance(v, (dt.date, dt.datetime, pd.Timestamp))).all():
            out = out.copy() if out is frame else out
            out[col] = pd.to_datetime(frame[col], errors="coerce")
    return out


def parse_parquet(raw: bytes, fp: str, notes: list[str], filename: str | None = None) -> Parsed:
    footer = parquet_footer_size(raw)
    if footer is not None and footer > MAX_PARQUET_FOOTER:
        raise ValueError(parquet_footer_too_large(filename, footer, MAX_PARQUET_FOOTER))
    try:
        import pyarrow.parquet as pq

        meta = pq.ParquetFile(io.BytesIO(raw)).metadata
    except Exception as exc:  # noqa: BLE001
        raise ValueError(f"This could not be read as a Parquet file ({exc}). Write it again (e.g. "
                         "DataFrame.to_parquet) or save it as CSV.") from None
    n_rows, n_cols = int(meta.num_rows), int(meta.num_columns)
    unpacked = sum(meta.row_group(g).total_byte_size for g in range(meta.num_row_groups))
    if n_cols > MAX_COLUMNS:
        raise ValueError(too_many_columns(filename or "The Parquet file", n_cols, MAX_COLUMNS, where="its schema"))
    if n_rows * max(n_cols, 1) * 8 > MAX_DENSE_BYTES or unpacked > MAX_DENSE_BYTES:
        raise ValueError(parquet_too_large(filename, n_rows, n_cols, meta.num_row_groups,
                                           max(unpacked, n_rows * max(n_cols, 1) * 8), MAX_DENSE_BYTES)
                         + " Keep fewer rows or columns, or read it as a big file on the server (Dask).")
    try:
        table = pq.read_table(io.BytesIO(raw))
    except Exception as exc:  # noqa: BLE001
        raise ValueError(f"This could not be read as a Parquet file ({exc}). Write it again (e.g. "
                         "DataFrame.to_parquet) or save it as CSV.") from None
    names = [str(n).strip() for n in table.column_names]
    check_names(names, where="Parquet schema")
    if table.num_rows == 0:
        raise ValueError("The Parquet file has columns but no rows.")
    frame = table.to_pandas()
    frame.columns = names
    frame = frame.reset_index(drop=True)
    retyped: dict = {}
    frame = numeric_columns(frame, (".", None), notes, retyped)
    return Parsed("parquet", fp, frame, 1, notes=notes, retyped=retyped)


# ------------------------------------------------------------------ entry point
def parse(raw: bytes | str, filename: str | None, max_bytes: int | None, missing: str = "error",
          sheet: str | None = None) -> Parsed:
    """The file ``raw`` parsed, each call anew: nothing is held here (issue 29: no shared dict in the process).

    A caller that inspects and then reads one file shares one parse through its own memo
    (:func:`ikviz.data.upload.parse_upload`, a block of the caller's memo)."""
    raw = as_bytes(raw)
    if max_bytes is not None and len(raw) > max_bytes:
        raise ValueError(f"{_who(filename)}the file is {len(raw) / 1024**2:.1f} MB, over the "
                         f"{max_bytes / 1024**2:.0f} MB limit. Subsample it (or keep fewer columns) and upload it "
                         "again.")
    fp = hashlib.sha256(raw).hexdigest()
    if not raw.strip(b" \t\r\n\x00\xef\xbb\xbf\xff\xfe"):
        raise ValueError("The file is empty. Upload a CSV file with a header row, a LIBSVM file, an Excel .xlsx "
                         "workbook or a Parquet file.")
    notes: list[str] = []
    kind = detect_format(raw, filename)
    if sheet is not None and kind != "xlsx":
        raise ValueError(f"A sheet ({sheet!r}) was asked for, but this is not an Excel workbook.")
    if kind == "parquet":
        parsed = parse_parquet(raw, fp[:16], notes, filename)
    elif kind == "xlsx":
        parsed = parse_xlsx(raw, fp[:16], notes, sheet, filename)
    else:
        check_line_length(raw, filename)
        text, encoding, notes = decode(raw)
        if not text.strip():
            raise ValueError("The file is empty. Upload a CSV file with a header row, or a LIBSVM file.")
        if is_libsvm(text):
            parsed = parse_libsvm(text, fp[:16], notes, missing, filename)
        else:
            parsed = parse_csv(text, raw, encoding, fp[:16], notes, filename)
    if parsed.frame is not None and parsed.frame.empty:
        raise ValueError("The file has a header row but no data rows.")
    return parsed
