"""Reading a user's own data as people write it: CSV (any of , ; tab | as separator, decimal commas,
thousands separators, UTF-8/UTF-16/Windows-1252), LIBSVM/svmlight text, Excel ``.xlsx`` and Parquet.

:func:`inspect_file` says what a file holds (format, separators, each column's kind and suggested
role, a preview); :func:`read_table` turns it into a :class:`UserData` for the comparisons, with a
role per column (feature, label, encode as one-hot, or ignore). Every problem raises ``ValueError``
with a message that names the column or line and says what to do; the app shows the same messages.
The user's bytes are only read, never changed.
"""

from __future__ import annotations

import dataclasses
import re
import threading
import weakref
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

import ikviz.data._parse as _parse  # the module (tests patch its bounds), not the package: no import back to it

MAX_BYTES = 50 * 1024**2     # larger files are refused
MAX_CLASSES = 100            # more distinct labels than this is not a class column
MIN_ROWS = 20                # fewer rows than this get a note: the comparisons say little
MAX_CATEGORIES = 20          # a text column with more categories is not one-hot encoded
PREVIEW_ROWS = 20
KINDS = ("numeric", "integer", "text", "date", "id", "empty", "constant")
ROLES = ("feature", "label", "ignore", "encode")
LABEL_NAMES = ("label", "labels", "class", "classes", "target", "y", "species", "cultivar", "category", "outcome",
               "survived", "diagnosis", "num", "response", "churn", "default", "quality", "grade", "income",
               "status", "result", "type", "variety", "disease", "attack", "fraud", "spam")
MISSING_CHOICES = ("median", "most_frequent", "drop", "error")  # how missing feature values are handled
MISSING_WORDS = {"median": "imputed with each column's median (scikit-learn SimpleImputer)",
                 "most_frequent": "imputed with each column's most frequent value (scikit-learn SimpleImputer)",
                 "drop": "rows with missing values dropped", "error": "rows with missing values refused"}
TASKS = ("auto", "classification", "regression")
_ID_NAME = re.compile(r"^(id|ids|uuid|guid|key|index|idx|row|rowid|row_id|record|name|unnamed.*)$"
                      r"|[_\s.-]id$|^id[_\s.-]", re.IGNORECASE)
_DATE = re.compile(r"\d{4}[-/.]\d{1,2}[-/.]\d{1,2}([ T]\d{1,2}:\d{2}(:\d{2}(\.\d+)?)?)?(Z|[+-]\d{2}:?\d{2})?"
                   r"|\d{1,2}[-/.]\d{1,2}[-/.]\d{2,4}( \d{1,2}:\d{2}(:\d{2})?)?"
                   r"|\d{1,2}[ -][A-Za-z]{3,9}[ -]\d{2,4}|[A-Za-z]{3,9} \d{1,2},? \d{4}"
                   r"|\d{1,2}:\d{2}(:\d{2})?")


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
        One per column of ``X`` (an encoded column ``c`` gives ``c=value`` columns).
    label_name : str or None
    classes : list of str
        The original label names, in code order.
    notes : list of str
        What was done to the data (rows dropped, columns ignored, subsampled).
    fingerprint : str
        SHA-256 of the file's bytes, first 16 hex characters ("" when not read from a file).
    source : str or None
        The file's name, when known.
    task : str or None
        "classification", "regression" (``y`` then holds the numbers) or None without a label.
    missing : str
        How missing values were handled, in words (one of :data:`MISSING_WORDS`' values).
    values : dict of str to ndarray
        Every column of the file for the rows kept, as read (for colouring a plot by any column).

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
    fingerprint: str = ""
    source: str | None = None
    task: str | None = None
    missing: str = ""
    values: dict = field(default_factory=dict)

    def __post_init__(self):
        if self.task is None and self.y is not None:
            self.task = "classification"


@dataclass
class ColumnInfo:
    """One column of a file as :func:`inspect_file` sees it.

    Attributes
    ----------
    name : str
    kind : str
        One of ``KINDS``: "numeric", "integer", "text", "date", "id", "empty" (all missing) or "constant".
    n_missing, n_unique : int
    examples : list of str
        Up to 3 distinct values, as written.
    role : str
        The suggested role, one of ``ROLES``: "feature" (numbers), "label" (the label guess),
        "encode" (text with few categories, one-hot) or "ignore" (dates, IDs, empty columns,
        text with many categories).
    code : float or None
        A numeric missing-value code detected in the column (e.g. -200, -999, 9999), see
        :func:`missing_code`; ``n_code`` cells hold it.
    """

    name: str
    kind: str
    n_missing: int
    n_unique: int
    examples: list[str]
    role: str
    code: float | None = None
    n_code: int = 0


@dataclass
class FileInfo:
    """What a file holds, for choosing the columns' roles before reading it.

    Attributes
    ----------
    format : str
        "csv", "libsvm", "xlsx" or "parquet".
    delimiter : str or None
        The CSV separator.
    decimal : str
        "." or ",".
    thousands : str or None
        The thousands separator, if one was detected ("," "." " ").
    encoding : str or None
        The text encoding (text formats).
    n_rows : int
        Data rows.
    columns : list of ColumnInfo
    label_guess : str or None
        See :func:`guess_label`.
    notes : list of str
        What was detected, e.g. "Decimal commas detected in 13 column(s): ...".
    preview : pandas.DataFrame
        The first 20 parsed rows.
    fingerprint : str
    source : str or None
    label_reason : str
        Why :attr:`label_guess` was guessed (or why none was), in a sentence.
    sheets : list of str
        An Excel workbook's sheets (the one read is ``sheet``).
    sheet : str or None
    """

    format: str
    delimiter: str | None
    decimal: str
    thousands: str | None
    encoding: str | None
    n_rows: int
    columns: list[ColumnInfo]
    label_guess: str | None
    notes: list[str]
    preview: pd.DataFrame
    fingerprint: str = ""
    source: str | None = None
    label_reason: str = ""
    label_task: str | None = None
    sheets: list = field(default_factory=list)
    sheet: str | None = None

    def column(self, name: str) -> ColumnInfo:
        """The :class:`ColumnInfo` called ``name``."""
        for col in self.columns:
            if col.name == name:
                return col
        raise ValueError(f"There is no column {name!r}; the columns are: {', '.join(c.name for c in self.columns)}.")


# ------------------------------------------------------------------ columns
def _examples(values: pd.Series) -> list[str]:
    out = []
    for v in values.dropna().unique()[:3]:
        out.append(f"{v:g}" if isinstance(v, (float, np.floating)) else str(v))
    return out


def _is_dates(strings: pd.Series) -> bool:
    sample = strings.drop_duplicates().head(500)
    return len(sample) > 0 and sample.map(lambda s: _DATE.fullmatch(s.strip()) is not None).mean() >= 0.95


def missing_code(values) -> tuple[float, int] | None:
    """A numeric missing-value code in ``values``, and how many cells hold it, or None.

    A code is a round number of at least 99 (one digit then zeros, or all nines: -200, -999, 9999) that
    repeats at an end of the column and lies far outside the other values: further from them
    than their own range, or negative where every other value is not.

    Examples
    --------
    >>> import numpy as np
    >>> from ikviz.data.upload import missing_code
    >>> missing_code(np.r_[np.linspace(0.1, 11.9, 50), [-200.0] * 7])
    (-200.0, 7)
    >>> missing_code(np.r_[np.linspace(7, 1189, 50), [-200.0] * 400])   # negative where nothing else is
    (-200.0, 400)
    >>> missing_code(np.r_[np.arange(95.0), 100.0, 100.0]) is None        # 100 is near the rest
    True
    >>> missing_code(np.r_[np.arange(16.0), 10.0, 10.0, 0.0]) is None     # small values are not codes
    True
    """
    v = np.asarray(values, dtype=float)
    v = v[np.isfinite(v)]
    if len(v) < 5:
        return None
    lo, hi = v.min(), v.max()
    for cand in (lo, hi):
        if cand != np.round(cand) or abs(cand) < 99:
            continue
        digits = str(int(abs(cand)))
        if not (set(digits) == {"9"} or set(digits[1:]) == {"0"}):
            continue
        hits = int(np.sum(v == cand))
        rest = v[v != cand]
        if hits < 2 or len(rest) < 2:
            continue
        r_lo, r_hi = rest.min(), rest.max()
        span = max(r_hi - r_lo, 1e-12)
        gap = r_lo - cand if cand < r_lo else cand - r_hi
        if gap > span or (cand < 0 <= r_lo):
            return float(cand), hits
    return None


def _describe(name: str, s: pd.Series) -> tuple[str, int, int, list[str]]:
    """kind, n_missing, n_unique, examples of one parsed column."""
    n = len(s)
    n_missing = int(s.isna().sum())
    present = s.dropna()
    if present.empty:
        return "empty", n_missing, 0, []
    if pd.api.types.is_datetime64_any_dtype(s):
        return "date", n_missing, int(present.nunique()), [str(v) for v in present.unique()[:3]]
    if pd.api.types.is_numeric_dtype(s):
        v = present.to_numpy(dtype=float)
        n_unique = int(pd.Series(v).nunique())
        if n_unique == 1:
            return "constant", n_missing, 1, _examples(present)
        integral = bool(np.all(np.isfinite(v)) and np.all(v == np.round(v)))
        if integral and n_unique == n and n >= 3:
            consecutive = n >= 20 and bool(np.all(np.diff(v) == 1))   # k, k+1, ..., k+n-1 in file order: a row number
            if _ID_NAME.search(name) or consecutive:
                return "id", n_missing, n_unique, _examples(present)
        return ("integer" if integral else "numeric"), n_missing, n_unique, _examples(present)
    strings = present.astype(str).str.strip()
    n_unique = int(strings.nunique())
    if _is_dates(strings):
        return "date", n_missing, n_unique, _examples(strings)
    if n_unique == 1:
        return "constant", n_missing, 1, _examples(strings)
    if n_unique == len(strings) and (_ID_NAME.search(name) or len(strings) >= 10):
        return "id", n_missing, n_unique, _examples(strings)
    return "text", n_missing, n_unique, _examples(strings)


def _default_role(kind: str, n_unique: int, max_categories: int, numeric: bool = False) -> str:
    """The suggested role of a column that is not the label (a numeric constant stays a feature, flagged)."""
    if kind in ("numeric", "integer") or (kind == "constant" and numeric):
        return "feature"
    if kind == "text":
        return "encode" if n_unique <= max_categories else "ignore"
    return "ignore"   # date, id, empty, text constant


def _named_like_target(name: str) -> int:
    """2: the name is a target's (``Survived``, ``class``); 1: a word of it is (``class_label``); 0: neither."""
    low = name.strip().lower()
    if low in LABEL_NAMES:
        return 2
    words = [w for w in re.split(r"[^a-z0-9]+", low) if w]
    return 1 if len(words) > 1 and any(w in LABEL_NAMES and w != "y" for w in words) else 0


def label_guess(info: FileInfo) -> tuple[str | None, str, str | None]:
    r"""The label a person would pick in ``info``, why, and the task: ``(column, reason, task)``.

    In order: a column named like a target (label, class, target, y, survived,
    outcome, diagnosis, num, ...) with 2 to 100 distinct values, the fewest
    values first (a text column never wins over it); a numeric column named
    like a target with more values (a regression target); else a text or
    integer column of few values at either end (the last one first). IDs,
    dates and columns missing in most rows are never guessed.

    Examples
    --------
    >>> from ikviz.data.upload import inspect_file, label_guess
    >>> rows = "".join(f"{i + 1},{i % 2},{'SCQ'[i % 3]},{20 + i}\n" for i in range(30))
    >>> label_guess(inspect_file("PassengerId,Survived,Embarked,Age\n" + rows))
    ('Survived', "'Survived' is named like a target and has 2 values: a class label.", 'classification')
    """
    cols = [c for c in info.columns if c.kind not in ("id", "date", "empty", "constant")
            and c.n_missing <= info.n_rows // 2]
    n = max(info.n_rows, 1)
    has_x = any(c.name.strip().lower() == "x" for c in info.columns)
    named = sorted(((-_named_like_target(c.name), c.n_unique, i, c) for i, c in enumerate(cols)
                    if _named_like_target(c.name) and not (c.name.strip().lower() == "y" and has_x)),
                   key=lambda t: t[:3])
    for _, _, _, c in named:
        if c.kind in ("text", "integer", "numeric") and 2 <= c.n_unique <= min(MAX_CLASSES, max(2, n // 2)) \
                and (c.kind != "numeric" or c.n_unique <= 20):
            return c.name, (f"{c.name!r} is named like a target and has {c.n_unique:,} values: a class "
                            "label."), "classification"
    for _, _, _, c in named:
        if c.kind in ("integer", "numeric") and c.n_unique > 20:
            return c.name, (f"{c.name!r} is named like a target and holds numbers ({c.n_unique:,} distinct): "
                            "a regression target."), "regression"
    ends = [info.columns[-1], info.columns[0]] if len(info.columns) > 1 else list(info.columns)
    for col in (c for c in ends if c in cols):
        if col.kind == "text" and 2 <= col.n_unique <= min(MAX_CLASSES, max(2, n // 2)):
            return col.name, (f"No column is named like a target; {col.name!r} is text with {col.n_unique:,} "
                              "values at an end of the table: a likely class label."), "classification"
        if col.kind == "integer" and 2 <= col.n_unique <= min(20, max(2, n // 2)):
            return col.name, (f"No column is named like a target; {col.name!r} holds {col.n_unique:,} whole "
                              "numbers at an end of the table: a likely class label."), "classification"
    return None, "No column looks like a label (named like a target, or few values at an end): no label.", None


def guess_label(info: FileInfo) -> str | None:
    r"""The likely label column of ``info``, or None (see :func:`label_guess`).

    Examples
    --------
    >>> from ikviz.data.upload import guess_label, inspect_file
    >>> rows = "".join(f"{i},{i % 3},{'ab'[i % 2]}\n" for i in range(12))
    >>> guess_label(inspect_file("x,cultivar,z\n" + rows))
    'cultivar'
    >>> guess_label(inspect_file("x,z,kind\n" + rows))
    'kind'
    >>> guess_label(inspect_file("x,z\n1.5,2.5\n3.5,4.5\n")) is None
    True
    """
    return label_guess(info)[0]


def _file_info(parsed: _parse.Parsed, filename: str | None, max_categories: int = MAX_CATEGORIES) -> FileInfo:
    notes = ([parsed.summary] if parsed.summary else []) + list(parsed.notes)
    if parsed.format == "libsvm":
        X, y = parsed.X, parsed.y
        label_col = pd.Series(y)
        kind, n_miss, n_uni, ex = _describe("label", label_col)
        columns = [ColumnInfo("label", kind, n_miss, n_uni, ex, "label")]
        csc = X.tocsc()
        for j, name in enumerate(parsed.feature_names):
            values = csc.data[csc.indptr[j]:csc.indptr[j + 1]]
            if len(values) < X.shape[0]:     # rows without this index hold 0
                values = np.append(values, 0.0)
            distinct = np.unique(values)
            kind = "constant" if len(distinct) == 1 else "integer" if np.all(distinct == np.round(distinct)) \
                else "numeric"
            columns.append(ColumnInfo(name, kind, 0, len(distinct), [f"{v:g}" for v in distinct[:3]], "feature"))
        head = X[:PREVIEW_ROWS]
        shown = parsed.feature_names[:100]
        preview = pd.DataFrame(head[:, :len(shown)].toarray(), columns=shown)
        preview.insert(0, "label", y[:PREVIEW_ROWS])
        if len(parsed.feature_names) > len(shown):
            notes.append(f"The preview shows the first {len(shown)} of {len(parsed.feature_names):,} features.")
        notes.insert(0, f"LIBSVM/svmlight: {X.shape[0]:,} rows, {X.shape[1]:,} features, {X.nnz:,} non-zero values.")
        info = FileInfo("libsvm", None, ".", None, parsed.encoding, X.shape[0], columns, "label", notes, preview,
                        parsed.fingerprint, filename)
        return info
    key = ("info", max_categories)
    if key in parsed.cache:
        info = parsed.cache[key]
        return dataclasses.replace(info, columns=[dataclasses.replace(c) for c in info.columns],
                                   notes=list(info.notes), preview=info.preview.copy(), source=filename)
    frame = parsed.frame
    columns = []
    for name in frame.columns:
        kind, n_miss, n_uni, ex = _describe(str(name), frame[name])
        numeric = pd.api.types.is_numeric_dtype(frame[name])
        if str(name) in parsed.retyped:     # numbers but for a few cells: text, ignored (the note says where)
            kind = "text"
        role = "ignore" if str(name) in parsed.retyped else _default_role(kind, n_uni, max_categories, numeric)
        col = ColumnInfo(str(name), kind, n_miss, n_uni, ex, role)
        if numeric and kind in ("numeric", "integer"):
            found = missing_code(frame[name].to_numpy(dtype=float))
            if found is not None:
                col.code, col.n_code = found
                present = frame[name].to_numpy(dtype=float)
                rest = present[np.isfinite(present) & (present != col.code)]
                notes.append(f"Column {col.name!r}: the value {col.code:g} appears in {col.n_code:,} of "
                             f"{len(frame):,} rows, far outside the other values ({rest.min():g} to "
                             f"{rest.max():g}): a missing-value code? It is treated as missing unless you keep "
                             "codes as numbers.")
        columns.append(col)
    info = FileInfo(parsed.format, parsed.delimiter, parsed.decimal, parsed.thousands, parsed.encoding, len(frame),
                    columns, None, notes, frame.head(PREVIEW_ROWS).copy(), parsed.fingerprint, filename,
                    sheets=list(parsed.sheets), sheet=parsed.sheet)
    info.label_guess, info.label_reason, info.label_task = label_guess(info)
    if info.label_guess is not None:
        info.column(info.label_guess).role = "label"
    mostly = [c.name for c in columns if c.kind in ("numeric", "integer", "text")
              and c.n_missing + c.n_code > len(frame) // 2 and c.role != "label"]
    for c in columns:
        if c.name in mostly:
            c.role = "ignore"
    if mostly:
        notes.append(f"Missing in more than half of the rows (ignored by default): {', '.join(mostly[:8])}"
                     f"{', ...' if len(mostly) > 8 else ''}.")
    for kind, what in (("date", "Date columns (ignored by default)"), ("id", "ID columns (ignored by default)"),
                       ("empty", "Empty columns, all values missing (ignored)")):
        names = [c.name for c in columns if c.kind == kind]
        if names:
            notes.append(f"{what}: {', '.join(names[:8])}{', ...' if len(names) > 8 else ''}.")
    if info.label_guess is None:
        for c in columns:
            if c.name.strip().lower() not in LABEL_NAMES:
                continue
            if c.n_unique > MAX_CLASSES:
                notes.append(f"'{c.name}' has {c.n_unique:,} distinct values, more than the {MAX_CLASSES} classes a "
                             "label may have, so no label is picked. Pick another label column, or none.")
            elif c.n_unique < 2:
                notes.append(f"'{c.name}' holds a single value, so it is not picked as the label: the checks that "
                             "compare classes need at least two. Pick another label column, or none.")
    if len(frame) < MIN_ROWS:
        notes.append(f"Only {len(frame)} rows: too few for the comparisons to say much (the SVM split and the "
                     f"neighbour counts want {MIN_ROWS} or more).")
    many = [c.name for c in columns if c.kind == "text" and c.role == "ignore"]
    if many:
        notes.append(f"Text columns with more than {max_categories} categories (ignored by default): "
                     f"{', '.join(many[:8])}{', ...' if len(many) > 8 else ''}.")
    parsed.cache[key] = info
    return _file_info(parsed, filename, max_categories)


def inspect_file(raw: bytes | str, filename: str | None = None, *, max_bytes: int | None = MAX_BYTES,
                 missing: str = "error", sheet: str | None = None, memo=None) -> FileInfo:
    r"""What the file ``raw`` holds: format, separators, each column's kind and suggested role, a preview.

    Parameters
    ----------
    raw : bytes, str or FileBytes
        The file's content (never changed).
    filename : str, optional
        Its name; the extension helps tell Excel and Parquet files apart.
    max_bytes : int or None
        Larger files are refused (None: no limit).
    missing : str
        LIBSVM lines holding nan or inf: refused with their line numbers ("error"), or
        left out (anything else); CSV-like files keep their missing cells until :func:`read_table`.
    sheet : str, optional
        The sheet of an Excel workbook to read (default: the first).
    memo : callable, optional
        The caller's memo (:mod:`ikviz.runner`): the file is parsed as its block :func:`parse_upload`, so that
        :func:`read_table` of the same file and choices with the same memo parses it no more. Without one, the
        file is parsed at each call (nothing is held in the process).

    Returns
    -------
    FileInfo

    Raises
    ------
    ValueError
        With a message naming the column or line and saying what to do.

    Examples
    --------
    >>> from ikviz.data.upload import inspect_file
    >>> info = inspect_file(b"id;length;width;cultivar\na1;1,5;2,25;barolo\na2;1,7;2,5;grignolino\n"
    ...                     b"a3;1,2;2,0;barolo\n")
    >>> info.format, info.delimiter, info.decimal, info.label_guess
    ('csv', ';', ',', 'cultivar')
    >>> [(c.name, c.kind, c.role) for c in info.columns]  # doctest: +NORMALIZE_WHITESPACE
    [('id', 'id', 'ignore'), ('length', 'numeric', 'feature'), ('width', 'numeric', 'feature'),
     ('cultivar', 'text', 'label')]
    >>> info.notes[1]
    'Decimal commas detected in 2 column(s): length, width.'
    """
    parsed = _parsed(raw, filename, max_bytes, "error" if missing == "error" else "drop", sheet, memo)
    return _file_info(parsed, filename)


def parse_upload(file: FileBytes, missing: str = "error", sheet: str | None = None,
                 max_bytes: int | None = MAX_BYTES) -> _parse.Parsed:
    r"""The parse of an uploaded file (``missing``: "error" or "drop", for LIBSVM's lines that are not numbers):
    the block a caller's memo holds, shared by :func:`inspect_file` and :func:`read_table` of that memo.

    Keyed by the file's fingerprint and name (:class:`FileBytes`) and the choices; held where the caller's memo
    holds it (the app's store: in memory only for an upload), never in the process. Callers treat it as read-only.

    Examples
    --------
    >>> from ikviz.runner import RunMemo
    >>> from ikviz.data.upload import MAX_BYTES, FileBytes, inspect_file, parse_upload, read_table
    >>> memo, file = RunMemo(), FileBytes(b"x,y,c\n1,2,a\n3,4,b\n", "t.csv")
    >>> inspect_file(file, memo=memo).format, read_table(file, label="c", memo=memo).X.shape
    ('csv', (2, 2))
    >>> memo(parse_upload)(file, "error", None, MAX_BYTES).frame.shape   # the one parse both shared
    (2, 3)
    """
    return _parse.parse(file.raw, file.name or None, max_bytes, missing, sheet)


def _parsed(raw, filename: str | None, max_bytes: int | None, missing: str, sheet: str | None, memo):
    """``raw`` parsed: through ``memo``'s block :func:`parse_upload` when given (always with the same positional
    arguments, so that inspecting and reading one file is one key), else anew."""
    if memo is None:
        if isinstance(raw, FileBytes):
            raw, filename = raw.raw, filename or raw.name or None
        return _parse.parse(raw, filename, max_bytes, missing, sheet)
    return memo(parse_upload)(as_file(raw, filename or ""), missing, sheet, max_bytes)


# ------------------------------------------------------------------ choosing the columns' roles
#: kinds that are not numbers to use as they are: such a column is encoded, ignored or the label
TEXT_KINDS = ("text", "id", "date", "empty", "constant")
#: the roles in words, as a column's choice lists them
ROLE_LABELS = {"feature": "feature", "ignore": "ignore", "encode": "encode (one-hot)", "label": "use as label"}


def role_options(kind: str) -> list[str]:
    """The roles a column of ``kind`` can be given, its usual one first.

    Examples
    --------
    >>> from ikviz.data.upload import role_options
    >>> role_options("text"), role_options("integer")
    (['ignore', 'encode', 'label'], ['feature', 'ignore', 'encode', 'label'])
    """
    return ["ignore", "encode", "label"] if kind in TEXT_KINDS else ["feature", "ignore", "encode", "label"]


def _unpicked_label_role(col: ColumnInfo, label: str | None) -> str:
    """The role of a guessed label that is not the label: ignored beside another label (it would leak into the
    features), else its ordinary role."""
    if label is not None:
        return "ignore"
    return _default_role(col.kind, col.n_unique, MAX_CATEGORIES, col.kind in ("numeric", "integer"))


def initial_role(col: ColumnInfo, label: str | None = None) -> str:
    """The role a column's choice starts at: its suggested role if offered, else the first option; a guessed label
    that is not picked is ignored beside another ``label`` (as :func:`read_table` does), else a feature.

    Examples
    --------
    >>> from ikviz.data.upload import ColumnInfo, initial_role
    >>> initial_role(ColumnInfo("colour", "text", 0, 2, ["red"], "encode"))
    'encode'
    >>> guessed = ColumnInfo("kind", "text", 0, 2, ["a"], "label")
    >>> initial_role(guessed), initial_role(guessed, label="other")   # a guessed label not picked
    ('encode', 'ignore')
    """
    options = role_options(col.kind)
    role = getattr(col, "role", None)
    if role == "label":
        role = _unpicked_label_role(col, label)
    return role if role in options else options[0]


def role_columns(columns: list[ColumnInfo], label: str | None) -> list[ColumnInfo]:
    """The columns whose role can be chosen: every one but the label.

    Examples
    --------
    >>> from ikviz.data.upload import ColumnInfo, role_columns
    >>> cols = [ColumnInfo("x", "numeric", 0, 9, [], "feature"), ColumnInfo("id", "id", 0, 9, [], "ignore"),
    ...         ColumnInfo("kind", "text", 0, 2, [], "label")]
    >>> [c.name for c in role_columns(cols, "kind")], [c.name for c in role_columns(cols, None)]
    (['x', 'id'], ['x', 'id', 'kind'])
    """
    return [c for c in columns if c.name != label]


def shown_role(col: ColumnInfo, label: str | None, roles: dict[str, str]) -> str:
    """The role a column has with the current choices (a guessed label not picked: see :func:`initial_role`).

    Examples
    --------
    >>> from ikviz.data.upload import ColumnInfo, shown_role
    >>> kind = ColumnInfo("kind", "integer", 0, 3, [], "label")
    >>> shown_role(kind, "kind", {}), shown_role(kind, None, {}), shown_role(kind, "x", {})
    ('label', 'feature', 'ignore')
    """
    if col.name == label:
        return "label"
    own = getattr(col, "role", "feature")
    role = roles.get(col.name) or own
    if role == "label":
        return _unpicked_label_role(col, label) if own == "label" else own
    return role


# ------------------------------------------------------------------ reading
def is_libsvm(text: str) -> bool:
    r"""Whether the first data lines look like LIBSVM/svmlight (``label [qid:q] index:value ... [# comment]``).

    Examples
    --------
    >>> from ikviz.data.upload import is_libsvm
    >>> is_libsvm("+1 1:0.5 3:2\n-1 2:1\n"), is_libsvm("a,b\n1,2\n"), is_libsvm("# c\n1 qid:3 1:2 # x\n")
    (True, False, True)
    """
    return _parse.is_libsvm(text)


def _encode_labels(values, name: str) -> tuple[np.ndarray, list[str]]:
    """Codes 0..k-1 and class names (numbers written as ``%g``; text kept as written)."""
    values = np.asarray(values)
    if values.dtype.kind in "fiub":
        classes, codes = np.unique(values.astype(float), return_inverse=True)
        names = [f"{c:g}" for c in classes]
    else:
        cat = pd.Categorical(values.astype(str))
        names = [str(c) for c in cat.categories]
        codes = cat.codes
    if len(names) > MAX_CLASSES:
        raise ValueError(f"The label column {name!r} has {len(names)} distinct values, too many for a class label "
                         f"(the limit is {MAX_CLASSES}). Pick another label column, or none.")
    return codes.astype(np.int64), names


def read_columns(raw: bytes | str, max_bytes: int | None = MAX_BYTES, filename: str | None = None,
                 sheet: str | None = None) -> list[str]:
    r"""The column names of a table file (for choosing the label column); ``[]`` for LIBSVM files.

    Examples
    --------
    >>> from ikviz.data.upload import read_columns
    >>> read_columns(b"height;weight;species\n1;2;a\n")
    ['height', 'weight', 'species']
    """
    parsed = _parsed(raw, filename, max_bytes, "error", sheet, None)
    return [] if parsed.frame is None else [str(c) for c in parsed.frame.columns]


def _resolve_roles(info: FileInfo, label: str | None, roles: dict[str, str] | None,
                   max_categories: int) -> tuple[dict[str, str], str | None, list[str]]:
    names = [c.name for c in info.columns]
    notes = []
    roles = dict(roles or {})
    for name, role in roles.items():
        if name not in names:
            raise ValueError(f"There is no column {name!r} to give a role; the columns are: {', '.join(names)}.")
        if role not in ROLES:
            raise ValueError(f"The role of column {name!r} must be one of {', '.join(ROLES)}; got {role!r}.")
    if label is not None and label not in names:
        raise ValueError(f"There is no column {label!r}; the columns are: {', '.join(names)}.")
    if label is None:
        chosen = [n for n, r in roles.items() if r == "label"]
        if len(chosen) > 1:
            raise ValueError(f"Only one column can be the label; {', '.join(map(repr, chosen))} are all marked as "
                             "label. Keep one, and mark the others feature, encode or ignore.")
        label = chosen[0] if chosen else None
    out = {}
    for col in info.columns:
        role = roles.get(col.name)
        if col.name == label:
            role = "label"
        elif role is None or role == "label":
            fallback = col.role if col.role != "label" else _unpicked_label_role(col, label)
            if role is None and col.role == "label" and label is not None:
                notes.append(f"Column {col.name!r} looks like a label but is not the label: ignored, so that it "
                             "does not leak into the features (give it the role feature or one-hot to use it).")
            if role == "label":
                notes.append(f"Column {col.name!r} was marked as label, but {label!r} is the label: "
                             f"{col.name!r} is treated as {fallback}.")
            role = fallback
        out[col.name] = role
    return out, label, notes


def _encode(name: str, s: pd.Series, max_categories: int) -> tuple[list[np.ndarray], list[str]]:
    present = s.dropna()
    strings = present.map(lambda v: f"{v:g}" if isinstance(v, (float, np.floating)) else str(v).strip())
    cats = sorted(strings.unique())
    if len(cats) > max_categories:
        raise ValueError(f"Column {name!r} has {len(cats)} categories, more than the {max_categories} that are "
                         "one-hot encoded. Ignore it, or group its values into fewer categories.")
    full = pd.Series(np.nan, index=s.index, dtype=object)
    full[present.index] = strings
    miss = full.isna().to_numpy()
    cols = []
    for cat in cats:
        col = (full == cat).to_numpy(dtype=float)
        col[miss] = np.nan
        cols.append(col)
    return cols, [f"{name}={cat}" for cat in cats]


def _feature_error(col: ColumnInfo, info: FileInfo) -> ValueError:
    ex = ", ".join(repr(e) for e in col.examples)
    if col.kind == "text":
        hint = ""
        if any(re.fullmatch(r"[+-]?[\d.,\s]+", e) for e in col.examples):
            hint = (f" The numbers look written with separators this file does not use elsewhere (decimal "
                    f"{info.decimal!r}); write them all the same way, e.g. 1.5 or 1,5 throughout.")
        return ValueError(f"Column {col.name!r} is not numeric (e.g. {ex}).{hint} Encode it (one-hot), use it as "
                          "the label, ignore it, or fix the values that are not numbers.")
    if col.kind == "date":
        return ValueError(f"Column {col.name!r} holds dates (e.g. {ex}), not features. Ignore it, or convert the "
                          "dates to numbers (e.g. days since a start) in the file.")
    if col.kind == "empty":
        return ValueError(f"Column {col.name!r} is empty (all values missing). Ignore it.")
    return ValueError(f"Column {col.name!r} ({col.kind}, e.g. {ex}) cannot be a feature. Ignore it or encode it.")


def read_table(raw: bytes | str, label: str | None = None, missing: str = "error", *, filename: str | None = None,
               roles: dict[str, str] | None = None, max_bytes: int | None = MAX_BYTES,
               max_categories: int = MAX_CATEGORIES, sheet: str | None = None, indicator: bool = False,
               codes: bool = True, task: str = "auto", memo=None) -> UserData:
    r"""Read a CSV, LIBSVM, Excel .xlsx or Parquet file into a :class:`UserData`.

    Parameters
    ----------
    raw : bytes, str or FileBytes
        The file's content (never changed).
    label : str or None
        The column holding the class (or the numbers to predict). It wins over
        ``roles``; without it, the column ``roles`` marks "label" (at most one)
        is the label, else there is none. LIBSVM files always have one.
    missing : {"error", "drop", "median", "most_frequent"}
        Missing feature values (empty, ``?``, ``NA``, a detected code): refused
        with a message naming the lines, rows dropped, or imputed with
        scikit-learn's ``SimpleImputer`` (numeric features: that strategy;
        one-hot columns: the most frequent category). Rows without a label
        are always dropped. The choice is stated in ``notes`` and ``missing``.
    filename : str, optional
        The file's name (kept as ``source``; its extension helps tell formats apart).
    roles : dict of str to str, optional
        Column -> "feature", "ignore", "encode" (one-hot) or "label". Columns
        left out get :func:`inspect_file`'s suggestions, except that a suggested
        "label" only becomes the label when asked for (by ``label`` or ``roles``).
    max_bytes : int or None
        Larger files are refused (None: no limit).
    max_categories : int
        An encoded column with more categories is refused with a message.
    sheet : str, optional
        The sheet of an Excel workbook (default: the first).
    indicator : bool
        With imputation, one 0/1 column per imputed feature saying where a value
        was missing (a one-hot column gets a "missing" category instead).
    codes : bool
        Treat the missing-value codes :func:`missing_code` finds (-200, -999, ...) as missing.
    task : {"auto", "classification", "regression"}
        "auto": a numeric label with more than 100 values, or more than 20
        values that are not whole numbers, is a regression target.
    memo : callable, optional
        The caller's memo: the file is parsed as its block :func:`parse_upload` (shared with
        :func:`inspect_file` of the same memo); without one, parsed at each call.

    Returns
    -------
    UserData

    Raises
    ------
    ValueError
        With a message naming the column or line and saying what to do.

    Examples
    --------
    >>> from ikviz.data.upload import read_table
    >>> data = read_table("x,y\n1,2\n3,?\n5,6\n", missing="drop")
    >>> data.X.tolist(), data.notes
    ([[1.0, 2.0], [5.0, 6.0]], ['Dropped 1 row(s) with missing values.'])
    >>> read_table("x,y\n1,2\n3,?\n5,6\n", missing="median", indicator=True).X.tolist()
    [[1.0, 2.0, 0.0], [3.0, 4.0, 1.0], [5.0, 6.0, 0.0]]
    >>> read_table("x,y\n1,2\n3,?\n")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: 1 row(s) have missing values (file lines 3) in column(s) y. Remove or impute them, or choose...

    A semicolon file with decimal commas, an ID column and a text label:

    >>> raw = b"id;alcohol;colour;cultivar\nw1;13,2;red;barolo\nw2;12,4;white;grignolino\nw3;13,8;red;barbera\n"
    >>> data = read_table(raw, label="cultivar", filename="wine.csv")
    >>> data.feature_names, data.X.tolist()[0], data.classes
    (['alcohol', 'colour=red', 'colour=white'], [13.2, 1.0, 0.0], ['barbera', 'barolo', 'grignolino'])
    >>> read_table(raw, label="cultivar", roles={"colour": "ignore"}).feature_names
    ['alcohol']
    """
    if missing not in MISSING_CHOICES:
        raise ValueError(f"missing must be one of {', '.join(MISSING_CHOICES)}; got {missing!r}.")
    if task not in TASKS:
        raise ValueError(f"task must be one of {', '.join(TASKS)}; got {task!r}.")
    parsed = _parsed(raw, filename, max_bytes, "error" if missing == "error" else "drop", sheet, memo)
    if parsed.format == "libsvm":
        data = _read_libsvm(parsed, label, filename)
        data.missing = MISSING_WORDS["error" if missing == "error" else "drop"]
    else:
        data = _read_frame(parsed, _file_info(parsed, filename, max_categories), label, missing, roles,
                           max_categories, filename, indicator=indicator, codes=codes, task=task)
    if len(data.X) < 2:
        raise ValueError(f"The data have {len(data.X)} usable row(s); the comparisons need at least 2.")
    if data.task == "classification" and len(data.classes) == 1:
        data.notes.append(f"The label column {data.label_name!r} has a single class ({data.classes[0]!r}): the "
                          "checks that compare classes need at least two. Pick another label column, or none.")
    return data


def _read_libsvm(parsed: _parse.Parsed, label: str | None, filename: str | None) -> UserData:
    if label not in (None, "label"):
        raise ValueError(f"A LIBSVM file has no named columns: its label is the first value of each line "
                         f"(asked for {label!r}). Leave the label column as 'label'.")
    X = parsed.X
    codes, names = _encode_labels(parsed.y, "label")
    return UserData(X.toarray(), codes, list(parsed.feature_names), "label", names, list(parsed.notes),
                    parsed.fingerprint, filename)


def _is_regression(s: pd.Series, task: str) -> bool:
    if task != "auto":
        return task == "regression"
    if not pd.api.types.is_numeric_dtype(s):
        return False
    v = s.dropna().to_numpy(dtype=float)
    n_unique = len(np.unique(v))
    return n_unique > MAX_CLASSES or (n_unique > 20 and not np.all(v == np.round(v)))


def _shown(names: list[str], limit: int = 8) -> str:
    return ", ".join(names[:limit]) + (", ..." if len(names) > limit else "")


def _read_frame(parsed: _parse.Parsed, info: FileInfo, label: str | None, missing: str,
                roles: dict[str, str] | None, max_categories: int, filename: str | None, *,
                indicator: bool = False, codes: bool = True, task: str = "auto") -> UserData:
    from sklearn.impute import SimpleImputer

    frame = parsed.frame
    role_of, label, notes = _resolve_roles(info, label, roles, max_categories)
    coded = [c for c in info.columns if c.code is not None and role_of[c.name] != "ignore"]
    if coded and codes:
        frame = frame.copy()
        for c in coded:
            frame[c.name] = frame[c.name].mask(frame[c.name] == c.code)
        notes.append("Missing-value codes treated as missing: " + _shown(
            [f"{c.code:g} in {c.name} ({c.n_code:,} cells)" for c in coded], 6) + ".")
    elif coded:
        notes.append("Missing-value codes kept as numbers (as asked): " + _shown(
            [f"{c.code:g} in {c.name}" for c in coded], 6) + ".")
    numeric, encoded, order = {}, {}, []
    for col in info.columns:
        role, s = role_of[col.name], frame[col.name]
        if role == "feature":
            if not pd.api.types.is_numeric_dtype(s) or col.kind == "empty":
                raise _feature_error(col, info)
            numeric[col.name] = s.to_numpy(dtype=float)
            order.append(col.name)
        elif role == "encode":
            if col.kind == "empty":
                raise _feature_error(col, info)
            encoded[col.name] = s
            order.append(col.name)
    ignored = [c.name for c in info.columns if role_of[c.name] == "ignore"]
    if not order:
        why = "; ".join(f"{c.name!r} is {'an ID' if c.kind == 'id' else c.kind}" for c in info.columns
                        if role_of[c.name] == "ignore")
        sheets = (f" This is the sheet {info.sheet!r}; the workbook's sheets are "
                  f"{', '.join(map(repr, info.sheets))}: pick another sheet." if len(info.sheets) > 1 else "")
        raise ValueError("There is no feature column left" + (" besides the label" if label else "")
                         + (f" ({why}, ignored)" if why else "") + ". Mark a numeric column as feature, or "
                         "encode a text column; the comparisons need at least one feature." + sheets)
    n = len(frame)
    width = len(numeric) * (2 if indicator else 1) + sum(min(c.n_unique + 1, max_categories + 1)
                                                         for c in info.columns if c.name in encoded)
    if n * width * 8 > _parse.MAX_DENSE_BYTES:
        raise ValueError(f"The features ({n:,} rows x {width:,} columns) would take "
                         f"{_parse._mb(n * width * 8)}, over the {_parse._mb(_parse.MAX_DENSE_BYTES)} the "
                         "checks work with. Encode fewer columns or upload fewer rows.")
    if ignored:
        notes.append(f"Ignored column(s): {', '.join(ignored[:10])}{', ...' if len(ignored) > 10 else ''}.")
    num = np.column_stack(list(numeric.values())) if numeric else np.empty((n, 0))
    infinite = ~np.isfinite(num) & ~np.isnan(num)
    cat_missing = np.column_stack([s.isna().to_numpy() for s in encoded.values()]) if encoded else \
        np.zeros((n, 0), dtype=bool)
    cell_missing = np.isnan(num) | infinite
    rows_missing = cell_missing.any(axis=1) | cat_missing.any(axis=1)
    no_label = frame[label].isna().to_numpy() if label is not None else np.zeros(n, dtype=bool)
    lines = parsed.first_line + np.asarray(frame.index, dtype=np.int64)
    kind = "file lines" if parsed.format == "csv" else "rows"
    if missing == "error" and (rows_missing | no_label).any():
        bad = rows_missing | no_label
        where = ", ".join(str(v) for v in lines[bad][:5])
        by_col = [nm for j, nm in enumerate(numeric) if cell_missing[:, j].any()] + \
                 [nm for j, nm in enumerate(encoded) if cat_missing[:, j].any()]
        cols = f" in column(s) {', '.join(by_col[:5])}" if by_col and len(by_col) <= 5 else ""
        what = "missing or infinite values" if infinite.any() else "missing values"
        huge = " (a number too large for 64-bit floats counts as infinite)" if infinite.any() else ""
        raise ValueError(f"{bad.sum()} row(s) have {what} ({kind} {where}"
                         f"{', ...' if bad.sum() > 5 else ''}){cols}{huge}. Remove or impute them, "
                         "or choose how missing values are handled: impute (median or most frequent value) or "
                         "drop those rows.")
    if infinite.any():
        num = np.where(infinite, np.nan, num)
        notes.append(f"{int(infinite.sum()):,} infinite value(s) (numbers too large for 64-bit floats) treated as "
                     "missing.")
    if missing == "drop":
        keep = ~(rows_missing | no_label)
        if rows_missing.any() or no_label.any():
            notes.append(f"Dropped {int((~keep).sum())} row(s) with missing values.")
    else:
        keep = ~no_label
        if no_label.any():
            notes.append(f"Dropped {int(no_label.sum())} row(s) without a label ({label!r} missing).")
    used = np.flatnonzero(keep)
    blocks: dict[str, tuple[list[np.ndarray], list[str]]] = {}
    extra: list[tuple[np.ndarray, str]] = []
    if numeric:
        part = num[used]
        holes = np.isnan(part)
        if missing in ("median", "most_frequent") and holes.any():
            filled = SimpleImputer(strategy=missing, keep_empty_features=True).fit_transform(part)
            gaps = [nm for j, nm in enumerate(numeric) if holes[:, j].any()]
            notes.append(f"Imputed {int(holes.sum()):,} missing value(s) in {len(gaps)} column(s) ({_shown(gaps)}) "
                         f"with each column's {'median' if missing == 'median' else 'most frequent value'} "
                         f"(scikit-learn SimpleImputer, fitted on the {len(used):,} rows read)"
                         + ("; a 0/1 column 'NAME (missing)' marks each imputed cell." if indicator else "."))
            if indicator:
                extra = [(holes[:, j].astype(float), f"{nm} (missing)") for j, nm in enumerate(numeric)
                         if holes[:, j].any()]
            part = filled
        for j, nm in enumerate(numeric):
            blocks[nm] = ([part[:, j]], [nm])
    imputed_cats = []
    for nm, s in encoded.items():
        s = s.iloc[used]
        if missing in ("median", "most_frequent") and s.isna().any():
            imputed_cats.append(nm)
            strings = s.map(lambda v: f"{v:g}" if isinstance(v, (float, np.floating)) else str(v).strip(),
                            na_action="ignore")
            fill = "(missing)" if indicator else strings.mode().iloc[0]
            s = strings.fillna(fill)
        blocks[nm] = _encode(nm, s, max_categories)
    if imputed_cats:
        notes.append(f"One-hot column(s) with missing values ({_shown(imputed_cats)}): "
                     + ("a 'missing' category added." if indicator else "filled with the most frequent category."))
    columns, names = [], []
    for nm in order:
        cols, cat_names = blocks[nm]
        columns += cols
        names += cat_names
    for col, nm in extra:
        columns.append(col)
        names.append(nm)
    X = np.column_stack(columns)
    if missing != "error" and not np.isfinite(X).all():   # drop: only rows without missing cells are left
        raise ValueError("Some values are still missing after imputation; ignore the empty columns.")
    y, classes, task_of = None, [], None
    if label is not None:
        cells = frame[label].iloc[used]
        if _is_regression(cells, task):
            if not pd.api.types.is_numeric_dtype(cells):
                raise ValueError(f"The label column {label!r} is not numeric, so it cannot be a regression target. "
                                 "Use it as a class label (task: classification), or pick another label.")
            y, task_of = cells.to_numpy(dtype=float), "regression"
            notes.append(f"The label {label!r} holds numbers ({len(np.unique(y)):,} distinct): predicted by "
                         "regression (R² over folds), not classes.")
        else:
            y, classes = _encode_labels(cells.to_numpy(dtype=float) if pd.api.types.is_numeric_dtype(cells)
                                        else cells.astype(str).str.strip().to_numpy(dtype=object), label)
            task_of = "classification"
    how = MISSING_WORDS[missing] + (", with indicator columns" if indicator and missing in ("median",
                                                                                           "most_frequent") else "")
    values = {str(c): frame[c].to_numpy()[used] for c in frame.columns}
    return UserData(X, y, names, label, classes, list(parsed.notes) + notes, parsed.fingerprint, filename,
                    task=task_of, missing=how, values=values)


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


def stratified_rows(y, classes, task: str | None, n_rows: int, max_rows: int, seed: int = 0) -> np.ndarray | None:
    """The sorted rows :func:`subsample` keeps of ``n_rows`` (None when all ``n_rows`` <= ``max_rows`` are kept).

    Stratified by class (scikit-learn's ``train_test_split`` with ``seed``) when ``y`` holds two classes or more
    (``classes``) and each has two rows or more; else drawn without replacement with ``default_rng(seed)``. The
    one draw of the Your data checks, here and in the ``stratified`` step of :mod:`ikviz.data.description`.

    Examples
    --------
    >>> import numpy as np
    >>> from ikviz.data.upload import stratified_rows
    >>> stratified_rows(np.array([0, 1] * 5), ["a", "b"], "classification", 10, 4, seed=0).tolist()
    [0, 1, 4, 5]
    >>> stratified_rows(None, [], None, 3, 5) is None
    True
    """
    if n_rows <= max_rows:
        return None
    rng = np.random.default_rng(seed)
    if y is not None and task != "regression" and len(classes) > 1:
        from sklearn.model_selection import train_test_split

        counts = np.bincount(y)
        strat = y if counts.min() >= 2 else None
        keep, _ = train_test_split(np.arange(n_rows), train_size=max_rows, random_state=seed, stratify=strat)
        return np.sort(keep)
    return np.sort(rng.choice(n_rows, max_rows, replace=False))


def subsample_note(kept: int, n_rows: int, seed: int) -> str:
    """The note a subsample adds to the data's notes."""
    return f"Subsampled {kept:,} of {n_rows:,} rows at random (seed {seed}) to keep the comparisons interactive."


def subsample(data: UserData, max_rows: int, seed: int = 0) -> UserData:
    r"""At most ``max_rows`` rows, drawn at random (stratified by class where possible), with a note.

    The draw is :func:`stratified_rows` (the ``stratified`` step of a :class:`ikviz.data.Data` description).

    Examples
    --------
    >>> from ikviz.data.upload import read_table, subsample
    >>> data = read_table("x,c\n" + "".join(f"{i},{i % 2}\n" for i in range(10)), label="c")
    >>> small = subsample(data, 4)
    >>> len(small.X), sorted(small.y.tolist()), small.notes[-1][:15]
    (4, [0, 0, 1, 1], 'Subsampled 4 of')
    """
    n = len(data.X)
    keep = stratified_rows(data.y, data.classes, data.task, n, max_rows, seed)
    if keep is None:
        return data
    return UserData(data.X[keep], None if data.y is None else data.y[keep], data.feature_names, data.label_name,
                    data.classes, data.notes + [subsample_note(max_rows, n, seed)], data.fingerprint, data.source,
                    data.task, data.missing, {k: v[keep] for k, v in data.values.items()})


def summary(data: UserData) -> dict:
    r"""n, d, classes, missing values and constant columns, for the page's summary table.

    Examples
    --------
    >>> from ikviz.data.upload import read_table, summary
    >>> info = summary(read_table("x,y,c\n1,0,a\n2,0,b\n3,0,a\n", label="c"))
    >>> info["rows"], info["class_counts"], info["constant_columns"]
    (3, {'a': 2, 'b': 1}, ['y'])
    """
    classy = data.y is not None and data.task != "regression"
    counts = {data.classes[i]: int(c) for i, c in enumerate(np.bincount(data.y))} if classy else {}
    return {"rows": len(data.X), "features": data.X.shape[1], "task": data.task, "missing": data.missing,
            "classes": len(data.classes) if classy else 0, "class_counts": counts,
            "constant_columns": [data.feature_names[j] for j in constant_columns(data.X)],
            "notes": list(data.notes)}


# ------------------------------------------------------------------ an upload as a source of ikviz.data.Data
class FileBytes:
    """An uploaded file's bytes, known by their SHA-256 fingerprint.

    Equal, hashed, tokenised and pickled by the fingerprint (and name) only, so
    a :class:`ikviz.data.Data` naming an upload stays a small cache key: a memo
    key of a 50 MB upload digests 64 characters instead of the whole file on
    every rerun. The bytes of a file unpickled in this process are found again
    while any :class:`FileBytes` of it is alive; elsewhere they are not sent.

    Examples
    --------
    >>> from ikviz.data.upload import FileBytes
    >>> a, b = FileBytes(b"x,y\\n1,2\\n", "a.csv"), FileBytes(b"x,y\\n1,2\\n", "a.csv")
    >>> a == b, hash(a) == hash(b), a.fingerprint[:12], len(a)
    (True, True, '81bf9fa83c6f', 8)
    """

    __slots__ = ("__weakref__", "fingerprint", "name", "raw")
    # fingerprint -> a live FileBytes of it: weak (the bytes live as long as their session holds them), and read
    # and written under the lock (sessions upload, and the store's workers copy, from their own threads)
    _alive: weakref.WeakValueDictionary = weakref.WeakValueDictionary()
    _alive_lock = threading.Lock()

    def __init__(self, raw: bytes, name: str = ""):
        import hashlib

        self.raw = bytes(raw)
        self.name = str(name or "")
        self.fingerprint = hashlib.sha256(self.raw).hexdigest()
        with FileBytes._alive_lock:
            FileBytes._alive[self.fingerprint] = self

    def __len__(self) -> int:
        return len(self.raw)

    def __eq__(self, other) -> bool:
        return isinstance(other, FileBytes) and (self.fingerprint, self.name) == (other.fingerprint, other.name)

    def __hash__(self) -> int:
        return hash((self.fingerprint, self.name))

    def __repr__(self) -> str:
        return f"FileBytes({self.name!r}, {len(self.raw):,} bytes, sha256 {self.fingerprint[:12]})"

    def __reduce__(self):
        return _file_bytes, (self.fingerprint, self.name)

    def __dask_tokenize__(self):
        return ("ikviz.data.upload.FileBytes", self.fingerprint, self.name)


def _file_bytes(fingerprint: str, name: str) -> FileBytes:
    with FileBytes._alive_lock:
        found = FileBytes._alive.get(fingerprint)
    if found is None:
        raise ValueError(f"The bytes of {name or 'the uploaded file'} are no longer held: upload it again.")
    return found if found.name == name else FileBytes(found.raw, name)


def as_file(raw, name: str = "") -> FileBytes:
    """``raw`` (bytes, str or :class:`FileBytes`) as :class:`FileBytes`.

    Examples
    --------
    >>> from ikviz.data.upload import as_file
    >>> as_file("a,b\\n1,2\\n", "mine.csv")  # doctest: +ELLIPSIS
    FileBytes('mine.csv', 8 bytes, sha256 ...)
    """
    if isinstance(raw, FileBytes):
        return raw
    return FileBytes(raw.encode("utf-8") if isinstance(raw, str) else raw, name)


#: the column choices of an upload (the options of the ``upload`` source beside ``file``) and their defaults, the
#: Your data page's and ``ikviz check``'s: the label column (None: none), missing values (one of
#: :data:`MISSING_CHOICES`), (column, role) pairs (:data:`ROLES`), an Excel sheet (None: the first), a 0/1 column
#: per imputed feature, detected missing-value codes counted as missing, the task (:data:`TASKS`)
UPLOAD_DEFAULTS: dict = {"label": None, "missing": "median", "roles": (), "sheet": None, "indicator": False,
                         "codes": True, "task": "auto"}


def upload_options(file, **choices) -> dict:
    """The options of an ``upload`` source: ``file`` (:class:`FileBytes`) and every column choice, defaults filled
    in (so one choice has one spelling, and one cache key), checked; a ``ValueError`` says what to fix.

    Examples
    --------
    >>> from ikviz.data.upload import FileBytes, upload_options
    >>> sorted(upload_options(FileBytes(b"a,b\\n1,2\\n", "x.csv"), label="b"))
    ['codes', 'file', 'indicator', 'label', 'missing', 'roles', 'sheet', 'task']
    >>> upload_options(FileBytes(b"a\\n1\\n", "x.csv"), missing="mean")
    Traceback (most recent call last):
    ...
    ValueError: The upload's option missing must be one of median, most_frequent, drop, error; got 'mean'.
    """
    unknown = sorted(set(choices) - set(UPLOAD_DEFAULTS))
    if unknown:
        raise ValueError(f"An upload takes the options file, {', '.join(UPLOAD_DEFAULTS)}; got unknown "
                         f"{', '.join(map(repr, unknown))}.")
    if not isinstance(file, FileBytes):
        raise ValueError("An upload needs file=FileBytes(raw, name): the uploaded file's bytes; got "
                         f"{type(file).__name__}.")
    out = {**UPLOAD_DEFAULTS, **choices}
    roles = out["roles"]
    roles = roles.items() if isinstance(roles, dict) else roles
    try:
        roles = tuple(sorted((str(name), str(role)) for name, role in roles))
    except (TypeError, ValueError):
        raise ValueError(f"The upload's option roles must be (column, role) pairs; got {out['roles']!r}.") from None
    for name, role in roles:
        if role not in ROLES:   # read_table's words
            raise ValueError(f"The role of column {name!r} must be one of {', '.join(ROLES)}; got {role!r}.")
    for name, allowed in (("missing", MISSING_CHOICES), ("task", TASKS)):
        if out[name] not in allowed:
            raise ValueError(f"The upload's option {name} must be one of {', '.join(allowed)}; got {out[name]!r}.")
    for name in ("indicator", "codes"):
        if not isinstance(out[name], (bool, np.bool_)):
            raise ValueError(f"The upload's option {name} must be True or False; got {out[name]!r}.")
    for name in ("label", "sheet"):
        if out[name] is not None and not isinstance(out[name], str):
            raise ValueError(f"The upload's option {name} must be a column name (str) or None; got {out[name]!r}.")
    return {**out, "file": file, "roles": roles, "indicator": bool(out["indicator"]), "codes": bool(out["codes"])}


def about_of(data: UserData) -> dict:
    """What a :class:`UserData` carries beyond ``X`` and ``y``, as :attr:`ikviz.data.Prepared.about`: ``title``,
    ``columns``, ``classes``, ``notes``, and ``label``, ``task``, ``missing``, ``fingerprint``, ``file`` and
    ``values`` (see :func:`user_data`, which turns it back)."""
    return {"title": data.source or "your file", "columns": tuple(data.feature_names), "classes": tuple(data.classes),
            "notes": tuple(data.notes), "label": data.label_name, "task": data.task, "missing": data.missing,
            "fingerprint": data.fingerprint, "file": data.source, "values": dict(data.values)}


def user_data(got) -> UserData:
    """A resolved :class:`ikviz.data.Prepared` as the :class:`UserData` the Your data checks and page read.

    ``about`` gives the names, classes, notes, task and the rest (:func:`about_of`); a source that says less (a
    bundled set) gets its columns as named there, its label called "label" and the classes of its codes.

    Examples
    --------
    >>> from ikviz.data import Data, step
    >>> from ikviz.data.upload import user_data
    >>> data = user_data(Data("iris", steps=(step("stratified", n=30, seed=0),)).resolve())
    >>> data.X.shape, data.classes, data.task, data.notes[-1][:13]
    ((30, 4), ['0', '1', '2'], 'classification', 'Subsampled 30')
    """
    about = got.about
    columns = about.get("columns") or tuple(f"x{j + 1}" for j in range(got.X.shape[1]))
    return UserData(got.X, got.y, list(columns), about.get("label", "label" if got.y is not None else None),
                    list(about.get("classes", ())), list(about.get("notes", ())), about.get("fingerprint", ""),
                    about.get("file"), about.get("task"), about.get("missing", ""), dict(about.get("values", {})))


def load_upload(seed: int = 0, *, memo=None, **options) -> tuple:
    """The loader of the ``upload`` source (:data:`ikviz.data.description.LOADERS`): ``(X, y, about)`` of
    :func:`read_table` of ``options["file"]`` with the column choices of :func:`upload_options` (``seed`` unused:
    a file is what it is). ``y`` is None without a label. ``memo``: the caller's, which holds the parse
    (:func:`parse_upload`, shared with :func:`inspect_file` of that memo).

    Examples
    --------
    >>> from ikviz.data.upload import FileBytes, load_upload
    >>> X, y, about = load_upload(file=FileBytes(b"a,b,c\\n1,2,x\\n3,4,y\\n", "t.csv"), label="c")
    >>> X.shape, y.tolist(), about["classes"], about["title"]
    ((2, 2), [0, 1], ('x', 'y'), 't.csv')
    """
    options = upload_options(options.pop("file", None), **options)
    file = options["file"]
    data = read_table(file, label=options["label"], missing=options["missing"], filename=file.name or None,
                      roles=dict(options["roles"]) or None, sheet=options["sheet"], indicator=options["indicator"],
                      codes=options["codes"], task=options["task"], memo=memo)
    return data.X, data.y, about_of(data)
