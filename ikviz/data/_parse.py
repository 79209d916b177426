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
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

MISSING = ("", "?", "NA", "N/A", "n/a", "NaN", "nan", "null", "NULL", "None", "#N/A")
DELIMITERS = (",", ";", "\t", "|")
DELIMITER_NAMES = {",": "comma", ";": "semicolon", "\t": "tab", "|": "pipe"}
MAX_DENSE_BYTES = 512 * 1024**2   # a table larger than this as float64 is refused
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


def fingerprint(raw: bytes) -> str:
    """First 16 hex characters of the SHA-256 of ``raw``."""
    return hashlib.sha256(raw).hexdigest()[:16]


def as_bytes(raw: bytes | str) -> bytes:
    return raw.encode("utf-8") if isinstance(raw, str) else bytes(raw)


def _mb(n: float) -> str:
    return f"{n / 1024**2:.1f} MB" if n < 1024**3 else f"{n / 1024**3:.1f} GB"


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


def parse_libsvm(text: str, fp: str, notes: list[str], missing: str = "error") -> Parsed:
    from sklearn.datasets import load_svmlight_file

    lines = text.splitlines()
    if any(ln.lstrip().startswith("#") or "#" in ln for ln in lines[:1000]) or "#" in text:
        notes.append("Comments (after #) ignored.")
    if "qid:" in text:
        notes.append("Query ids (qid:) ignored: each line is one row.")
    try:
        X, y = load_svmlight_file(io.BytesIO(text.encode("utf-8")), dtype=np.float64)
    except ValueError as exc:
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
    """The (decimal, thousands) convention that makes the most text columns of ``frame`` numeric."""
    text_cols = [c for c in frame if not pd.api.types.is_numeric_dtype(frame[c])]
    cells = {c: pd.Series(frame[c].dropna().astype(str).str.strip().unique()) for c in text_cols}
    cells = {c: v[v != ""] for c, v in cells.items() if len(v)}
    plain = _NUMBER[CONVENTIONS[0]]
    cells = {c: v for c, v in cells.items() if not v.map(lambda s: plain.fullmatch(s) is not None).all()}
    score = {}
    for conv in CONVENTIONS[1:]:
        match = _NUMBER[conv].fullmatch
        score[conv] = sum(bool(v.map(lambda s, m=match: m(s) is not None).all()) for v in cells.values())
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


def numeric_columns(frame: pd.DataFrame, conv: tuple[str, str | None], notes: list[str]) -> pd.DataFrame:
    """Text columns of ``frame`` that hold numbers under ``conv`` (or, failing that, another convention), converted."""
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


def parse_csv(text: str, raw: bytes, encoding: str, fp: str, notes: list[str]) -> Parsed:
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
    src = (lambda: io.BytesIO(raw)) if encoding == "utf-8" else (lambda: io.StringIO(text))
    enc = "utf-8-sig" if encoding == "utf-8" else None
    common = {"sep": delim, "encoding": enc, "index_col": False, "keep_default_na": False,
              "na_values": list(MISSING), "skipinitialspace": True, "skip_blank_lines": True, "engine": "c"}
    try:
        head = pd.read_csv(src(), header=None, nrows=_SAMPLE_LINES, dtype=str, **common)
    except (pd.errors.ParserError, pd.errors.EmptyDataError, UnicodeDecodeError, ValueError):
        head = None
    if head is None or head.empty:
        bad = _bad_lines(text, delim, _count_fields(lines[0], delim))
        if bad:
            _raise_bad_lines(bad, _count_fields(lines[0], delim))
        raise ValueError("The file could not be read as a table. Is it a CSV file with a header row?")
    names = ["" if pd.isna(v) else str(v).strip() for v in head.iloc[0]]
    headerless = all(n and _is_number(n) for n in names)
    if headerless:
        names = [f"x{j + 1}" for j in range(len(names))]
        notes.append(f"The first line holds only numbers: read as data, with columns named x1..x{len(names)}.")
        body_sample = head
    dropped_trailing = False
    if not headerless:
        if names and not names[-1] and head.iloc[1:, -1].isna().all() and len(names) > 1 and any(names[:-1]):
            notes.append("Each line ends with a separator: the empty last column was left out.")
            names = names[:-1]
            head = head.iloc[:, :-1]
            dropped_trailing = True
        check_names(names)
        body_sample = head.iloc[1:]
    body_sample = body_sample.copy()
    body_sample.columns = names
    conv = choose_convention(body_sample, delim)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", pd.errors.ParserWarning)
            frame = pd.read_csv(src(), header=None if headerless else 0, decimal=conv[0],
                                usecols=range(len(names)) if dropped_trailing else None, **common)
    except (pd.errors.ParserError, pd.errors.ParserWarning, ValueError) as exc:
        bad = _bad_lines(text, delim, len(names) + dropped_trailing)
        if bad:
            _raise_bad_lines(bad, len(names))
        raise ValueError(f"The file could not be read as a table ({str(exc).strip()}). Is it a CSV file with a "
                         "header row?") from None
    if frame.shape[1] != len(names):
        _raise_bad_lines(_bad_lines(text, delim, len(names)) or [1], len(names))
    frame.columns = names
    if len(frame) and frame.iloc[:, -1].isna().any():   # short lines are read as missing cells: find them
        bad = _bad_lines(text, delim, len(names) + dropped_trailing)
        if bad:
            _raise_bad_lines(bad, len(names))
    if conv[0] == ",":
        cols = [c for c in names if pd.api.types.is_float_dtype(frame[c])
                and body_sample[c].dropna().astype(str).str.contains(",", regex=False).any()]
        if cols:
            notes.append(f"Decimal commas detected in {len(cols)} column(s): {', '.join(cols[:8])}"
                         f"{', ...' if len(cols) > 8 else ''}.")
    frame = numeric_columns(frame, conv, notes)
    dec_note = "decimal comma" if conv[0] == "," else "decimal point"
    summary = (f"{DELIMITER_NAMES[delim].capitalize()}-separated, {dec_note}"
                    f"{'' if conv[1] is None else f', thousands separator {conv[1]!r}'}, {encoding.upper()}.")
    return Parsed("csv", fp, frame, 1 if headerless else 2, delim, conv[0], conv[1], encoding, notes,
                  summary=summary)


# ------------------------------------------------------------------ Excel and Parquet
def parse_xlsx(raw: bytes, fp: str, notes: list[str]) -> Parsed:
    try:
        sheets = pd.ExcelFile(io.BytesIO(raw), engine="openpyxl")
        sheet = sheets.sheet_names[0]
        table = pd.read_excel(sheets, sheet_name=sheet, header=None, dtype=object)
    except ImportError:
        raise ValueError("Reading Excel files needs the openpyxl package (pip install openpyxl); or save the "
                         "sheet as CSV and upload that.") from None
    except Exception as exc:  # noqa: BLE001 - any failure of the reader becomes a message
        raise ValueError(f"This could not be read as an Excel .xlsx workbook ({exc}). Save it again from Excel, "
                         "or as CSV, and upload that.") from None
    table = table.dropna(how="all").dropna(axis=1, how="all")
    if table.empty:
        raise ValueError(f"The first sheet ({sheet!r}) of the workbook is empty. Put the table (a header row, "
                         "then one row per sample) on the first sheet and upload it again.")
    if len(sheets.sheet_names) > 1:
        notes.append(f"Read the first sheet, {sheet!r}, of {len(sheets.sheet_names)}.")
    first = int(table.index[0])
    names = ["" if pd.isna(v) else str(v).strip() for v in table.iloc[0]]
    check_names(names, where=f"header row (row {first + 1} of sheet {sheet!r})")
    frame = table.iloc[1:].reset_index(drop=True)
    frame.columns = names
    frame = frame.map(lambda v: np.nan if isinstance(v, str) and v.strip() in MISSING else v)
    frame = _datetime_columns(frame)
    conv = choose_convention(frame, None)
    frame = numeric_columns(frame, conv, notes)
    return Parsed("xlsx", fp, frame, first + 2, decimal=conv[0], thousands=conv[1], notes=notes)


def _datetime_columns(frame: pd.DataFrame) -> pd.DataFrame:
    import datetime as dt

    out = frame
    for col in frame:
        s = frame[col].dropna()
        if len(s) and s.map(lambda v: isinstance(v, (dt.date, dt.datetime, pd.Timestamp))).all():
            out = out.copy() if out is frame else out
            out[col] = pd.to_datetime(frame[col], errors="coerce")
    return out


def parse_parquet(raw: bytes, fp: str, notes: list[str]) -> Parsed:
    try:
        import pyarrow.parquet as pq

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
    frame = numeric_columns(frame, (".", None), notes)
    return Parsed("parquet", fp, frame, 1, notes=notes)


# ------------------------------------------------------------------ entry point
_CACHE: dict[tuple, Parsed] = {}


def parse(raw: bytes | str, filename: str | None, max_bytes: int | None, missing: str = "error") -> Parsed:
    """The file ``raw`` parsed (the last few parses are cached by content, name and limit)."""
    raw = as_bytes(raw)
    if max_bytes is not None and len(raw) > max_bytes:
        raise ValueError(f"The file is {len(raw) / 1024**2:.1f} MB, over the {max_bytes / 1024**2:.0f} MB limit. "
                         "Subsample it (or keep fewer columns) and upload it again.")
    fp = hashlib.sha256(raw).hexdigest()
    key = (fp, (filename or "").lower().rsplit(".", 1)[-1], missing)
    if key in _CACHE:
        return _CACHE[key]
    if not raw.strip(b" \t\r\n\x00\xef\xbb\xbf\xff\xfe"):
        raise ValueError("The file is empty. Upload a CSV file with a header row, a LIBSVM file, an Excel .xlsx "
                         "workbook or a Parquet file.")
    notes: list[str] = []
    kind = detect_format(raw, filename)
    if kind == "parquet":
        parsed = parse_parquet(raw, fp[:16], notes)
    elif kind == "xlsx":
        parsed = parse_xlsx(raw, fp[:16], notes)
    else:
        text, encoding, notes = decode(raw)
        if not text.strip():
            raise ValueError("The file is empty. Upload a CSV file with a header row, or a LIBSVM file.")
        if is_libsvm(text):
            parsed = parse_libsvm(text, fp[:16], notes, missing)
        else:
            parsed = parse_csv(text, raw, encoding, fp[:16], notes)
    if parsed.frame is not None and parsed.frame.empty:
        raise ValueError("The file has a header row but no data rows.")
    while len(_CACHE) >= 2:
        _CACHE.pop(next(iter(_CACHE)))
    _CACHE[key] = parsed
    return parsed
