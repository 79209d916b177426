"""Parquet and CSV files, folders and globs on the server as Dask data frames and arrays.

``open_source(spec)`` looks at the files (names, columns, column types, row
counts from the Parquet metadata) without reading the data, and checks what
can be checked up front: every file has the same columns (otherwise the error
names both files), the requested columns exist and are numeric (otherwise the
error names the column). ``read_dataset`` then builds a lazy Dask data frame
with one partition per piece (a group of Parquet row groups, or a byte range
of a CSV file) through :func:`dask.dataframe.from_map`, and the feature matrix
as a Dask array of float64 rows.

Pieces are read on the workers. A piece that cannot be parsed (a row with too
many fields, a value that is not a number, a missing value) raises
``ValueError`` naming the file and the row (and, for CSV, the line), however
deep in the file it is.

Files are read in sorted name order, rows in file order, so row ``i`` of the
result is row ``i`` of the concatenated files. Paths must be readable by every
worker (on a remote cluster: a shared file system). CSV files need a header
row, use ``,`` as separator and no line breaks inside quoted fields (each
byte range is parsed independently).
"""

from __future__ import annotations

import glob as _glob
import io
import os
import re
import warnings
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from .. import _limits

__all__ = ["CHUNK_ROWS", "CSV_BLOCKSIZE", "CSV_SUFFIXES", "DATA_ROOT_ENV", "DATA_SUFFIXES", "PARQUET_SUFFIXES",
           "SERVER_FILE_DEFAULTS", "Dataset", "Piece", "Source", "check_data_path", "data_root", "find_files",
           "load_server_file", "open_source", "path_help", "read_dataset", "server_file_options"]

PARQUET_SUFFIXES = (".parquet", ".pq")
CSV_SUFFIXES = (".csv",)
#: rows per Parquet piece (row groups are grouped up to this; a bigger row group is one piece)
CHUNK_ROWS = 262_144
#: bytes per CSV piece
CSV_BLOCKSIZE = 64 * 1024**2
_SAMPLE_ROWS = 1000  # CSV rows read per file to decide which columns are numeric


@dataclass(frozen=True)
class Piece:
    """One partition: row groups ``row_groups`` of a Parquet file, or bytes [start, stop) of a CSV file."""

    path: str
    kind: str                       # "parquet" or "csv"
    row_groups: tuple = ()          # parquet
    first_row: int = 0              # parquet: index in the file of the piece's first row
    n_rows: int | None = None       # parquet: known from the metadata
    start: int = 0                  # csv byte range
    stop: int = 0
    names: tuple = ()               # csv: the header's column names


@dataclass
class Source:
    """Files found for a spec, their shared columns and the pieces they are read in."""

    spec: str
    kind: str
    files: list[str]
    columns: list[str]                          # every column, in the first file's order
    numeric: list[str]                          # the numeric ones
    pieces: list[Piece] = field(default_factory=list)
    kinds: dict = field(default_factory=dict)   # column -> dtype kind in the first file ("i", "f", "b", "O"...)

    @property
    def lengths(self) -> tuple[int, ...] | None:
        """Rows per piece, when known without reading the data (Parquet)."""
        if any(p.n_rows is None for p in self.pieces):
            return None
        return tuple(int(p.n_rows) for p in self.pieces)


@dataclass
class Dataset:
    """A lazily read data set: the data frame, its feature matrix and (optionally) its label column."""

    source: Source
    frame: object                   # dask.dataframe.DataFrame (features float64, label as read)
    X: object                       # dask.array.Array (n, d) float64, one column chunk
    y: object | None                # dask.array.Array (n,) or None
    features: list[str]
    label: str | None


# ----------------------------------------------------------------- files
def find_files(spec) -> list[str]:
    """The data files named by ``spec``: one file, a folder (its Parquet or CSV files) or a glob."""
    text = _limits.check_path_text(os.fspath(spec))
    path = Path(text).expanduser()
    if any(ch in text for ch in "*?["):
        files = sorted(f for f in _glob.glob(os.path.expanduser(text), recursive=True) if Path(f).is_file())
        if not files:
            raise ValueError(f"No file matches {text!r}.")
    elif path.is_dir():
        files = sorted(str(f) for f in path.iterdir()
                       if f.is_file() and f.suffix.lower() in PARQUET_SUFFIXES + CSV_SUFFIXES
                       and not f.name.startswith(("_", ".")))
        if not files:
            raise ValueError(f"The folder {text!r} holds no Parquet (.parquet, .pq) or CSV (.csv) file.")
    elif path.is_file():
        files = [str(path)]
    else:
        raise ValueError(f"{text!r} does not exist: pass a Parquet or CSV file, a folder of them, or a glob.")
    kinds = {_kind(f) for f in files}
    if None in kinds:
        bad = next(f for f in files if _kind(f) is None)
        raise ValueError(f"{bad} is neither a Parquet (.parquet, .pq) nor a CSV (.csv) file.")
    if len(kinds) > 1:
        pq = next(f for f in files if _kind(f) == "parquet")
        csv = next(f for f in files if _kind(f) == "csv")
        raise ValueError(f"{text!r} mixes Parquet and CSV files ({pq} and {csv}); keep one format per input.")
    return files


def _kind(path: str) -> str | None:
    suffix = Path(path).suffix.lower()
    if suffix in PARQUET_SUFFIXES:
        return "parquet"
    if suffix in CSV_SUFFIXES:
        return "csv"
    return None


def _arrow_kind(typ) -> str:
    import pyarrow.types as pat

    if pat.is_boolean(typ):
        return "b"
    if pat.is_integer(typ):
        return "i"
    if pat.is_floating(typ) or pat.is_decimal(typ):
        return "f"
    return "O"


def _parquet_schema(path: str) -> tuple[list[str], dict, object]:
    """Columns, their kinds and the metadata of a Parquet file, bounded before they are read: the footer's size
    (from the file's last 8 bytes), the column count and each row group's size as a float64 table (a row group is
    read whole by one worker), against the in-memory reader's limits (:mod:`ikviz._limits`)."""
    import pyarrow.parquet as pq

    try:
        with open(path, "rb") as f:
            f.seek(max(os.path.getsize(path) - 8, 0))
            footer = _limits.parquet_footer_size(f.read(8))
    except OSError as exc:
        raise ValueError(f"{path} could not be read: {exc.strerror or exc}") from None
    if footer is not None and footer > _limits.MAX_PARQUET_FOOTER:
        raise ValueError(_limits.parquet_footer_too_large(path, footer, _limits.MAX_PARQUET_FOOTER))
    try:
        meta = pq.ParquetFile(path).metadata
    except Exception as exc:  # pyarrow raises ArrowInvalid, OSError...
        raise ValueError(f"{path} could not be read as a Parquet file: {exc}") from None
    if meta.num_columns > _limits.MAX_COLUMNS:
        raise ValueError(_limits.too_many_columns(path, meta.num_columns, _limits.MAX_COLUMNS, where="its schema"))
    for g in range(meta.num_row_groups):
        group = meta.row_group(g)
        dense = group.num_rows * max(meta.num_columns, 1) * 8
        if max(dense, group.total_byte_size) > _limits.MAX_PIECE_BYTES:
            raise ValueError(_limits.parquet_too_large(
                path, group.num_rows, meta.num_columns, 1, max(dense, group.total_byte_size), _limits.MAX_PIECE_BYTES,
                what=f"one piece may take in a worker's memory (row group {g} is read whole)")
                + " Write it again with smaller row groups (e.g. DataFrame.to_parquet(..., row_group_size=1_000_000)).")
    schema = meta.schema.to_arrow_schema()
    kinds = {f.name: _arrow_kind(f.type) for f in schema if not f.name.startswith("__index_level_")}
    return list(kinds), kinds, meta


def _head_lines(path: str, n: int) -> bytes:
    """The first ``n`` lines of ``path``, each checked against the line limit before it is kept."""
    out = []
    with open(path, "rb") as f:
        for i in range(1, n + 1):
            line = f.readline(_limits.MAX_LINE_CHARS + 3)
            if not line:
                break
            length = len(line.rstrip(b"\r\n"))
            if length > _limits.MAX_LINE_CHARS:
                more = f.readline()   # the rest of that line, only to say how long it is
                while more and not more.endswith(b"\n"):
                    length += len(more)
                    more = f.readline(1 << 24)
                length += len(more.rstrip(b"\r\n"))
                raise ValueError(_limits.line_too_long(path, i, length, _limits.MAX_LINE_CHARS))
            if i == 1 and line.count(b",") + 1 > _limits.MAX_COLUMNS:
                raise ValueError(_limits.too_many_columns(path, line.count(b",") + 1, _limits.MAX_COLUMNS))
            out.append(line)
    return b"".join(out)


def _csv_header(path: str) -> tuple[list[str], dict]:
    """The header's column names and the kinds of the first rows' values; the header's column count and the
    sampled lines' lengths are checked before pandas reads them."""
    import pandas as pd

    try:
        head = _head_lines(path, _SAMPLE_ROWS + 1)
    except OSError as exc:
        raise ValueError(f"{path} could not be read: {exc.strerror or exc}") from None
    try:
        sample = pd.read_csv(io.BytesIO(head), index_col=False)
    except Exception as exc:
        raise ValueError(f"{path} could not be read as a CSV file with a header row: {exc}") from None
    kinds = {str(c): (dt.kind if dt.kind in "biuf" else "O") for c, dt in zip(sample.columns, sample.dtypes)}
    return [str(c) for c in sample.columns], kinds


def _same_columns(first: str, first_cols: list[str], other: str, cols: list[str]) -> None:
    if cols == first_cols:
        return
    missing = [c for c in first_cols if c not in cols]
    extra = [c for c in cols if c not in first_cols]
    if not missing and not extra:
        return  # same columns in another order: they are read by name
    parts = []
    if missing:
        parts.append(f"{other} lacks {', '.join(map(repr, missing[:5]))}")
    if extra:
        parts.append(f"{other} has {', '.join(map(repr, extra[:5]))} that {first} does not")
    raise ValueError(f"The files have different columns: {first} and {other} ({'; '.join(parts)}). "
                     "Every file of one input must have the same columns.")


def open_source(spec, *, chunk_rows: int = CHUNK_ROWS, blocksize: int = CSV_BLOCKSIZE) -> Source:
    """Find the files of ``spec``, check that they share their columns, and cut them into pieces.

    Only metadata are read: Parquet footers, and the first rows of each CSV
    file (to find its numeric columns). A column is numeric when it is in
    every file (integers, floats or booleans).
    """
    files = find_files(spec)
    kind = _kind(files[0])
    pieces: list[Piece] = []
    columns = numeric = kinds = None
    first = files[0]
    for path in files:
        if kind == "parquet":
            names, file_kinds, meta = _parquet_schema(path)
        else:
            names, file_kinds = _csv_header(path)
        num = [c for c in names if file_kinds[c] in "biuf"]
        if columns is None:
            columns, numeric, kinds = names, num, file_kinds
        else:
            _same_columns(first, columns, path, names)
            numeric = [c for c in numeric if c in num]
        if kind == "parquet":
            pieces += _parquet_pieces(path, meta, chunk_rows)
        else:
            size = os.path.getsize(path)
            starts = list(range(0, max(size, 1), blocksize))
            pieces += [Piece(path, "csv", start=s, stop=min(s + blocksize, size), names=tuple(names))
                       for s in starts]
    return Source(str(spec), kind, files, columns, numeric, pieces, kinds)


def _parquet_pieces(path: str, meta, chunk_rows: int) -> list[Piece]:
    pieces, group, first, rows, offset = [], [], 0, 0, 0
    for g in range(meta.num_row_groups):
        n = meta.row_group(g).num_rows
        if group and rows + n > chunk_rows:
            pieces.append(Piece(path, "parquet", tuple(group), first, rows))
            group, first, rows = [], offset, 0
        group.append(g)
        rows += n
        offset += n
    if group or not pieces:
        pieces.append(Piece(path, "parquet", tuple(group), first, rows))
    return pieces


# --------------------------------------------------------------- reading
def _select(source: Source, columns, label) -> list[str]:
    """The feature columns: ``columns``, or every numeric column but the label; checked by name."""
    where = source.files[0] if len(source.files) == 1 else f"the files of {source.spec!r}"
    if label is not None and label not in source.columns:
        raise ValueError(f"There is no label column {label!r} in {where}; its columns are "
                         f"{', '.join(source.columns[:20])}.")
    if columns:
        columns = list(columns)
        for c in columns:
            if c not in source.columns:
                raise ValueError(f"There is no column {c!r} in {where}; its columns are "
                                 f"{', '.join(source.columns[:20])}.")
            if c not in source.numeric:
                raise ValueError(f"Column {c!r} is non-numeric (in {where}); pick numeric columns with --columns, "
                                 "or encode it as numbers first.")
        if label in columns:
            raise ValueError(f"The label column {label!r} cannot also be a feature column.")
    else:
        columns = [c for c in source.numeric if c != label]
        if not columns:
            raise ValueError(f"{where} has no numeric column to use as a feature"
                             + (f" besides the label {label!r}." if label else "."))
    return columns


def read_dataset(spec, columns=None, label=None, *, chunk_rows: int = CHUNK_ROWS,
                 blocksize: int = CSV_BLOCKSIZE) -> Dataset:
    """Lazily read ``spec``: the feature columns as a Dask array (float64) and the label column.

    Parameters
    ----------
    spec : str or Path
        A Parquet or CSV file, a folder of them, or a glob.
    columns : list of str, optional
        Feature columns; default every numeric column (but the label).
    label : str, optional
        A label column, returned as ``y`` (values as read).
    chunk_rows, blocksize : int
        Rows per Parquet piece (row groups are grouped up to it), bytes per CSV piece.

    Row-chunk sizes of ``X`` are known for Parquet (from the metadata); for
    CSV they are unknown until the data are parsed once (see
    :func:`ikviz._dask.n_rows`).
    """
    import dask.dataframe as dd
    import pandas as pd

    source = open_source(spec, chunk_rows=chunk_rows, blocksize=blocksize)
    features = _select(source, columns, label)
    wanted = features + ([label] if label is not None else [])
    meta = pd.DataFrame({c: pd.Series([], dtype="float64") for c in features})
    label_dtype = None
    if label is not None:
        label_dtype = {"b": np.dtype(bool), "i": np.dtype(np.int64), "u": np.dtype(np.int64),
                       "f": np.dtype(np.float64)}.get(source.kinds[label], np.dtype(object))
        meta[label] = pd.Series([], dtype=label_dtype)
    reader = _PieceReader(tuple(features), label, label_dtype)
    frame = dd.from_map(reader, source.pieces, meta=meta[wanted], label="ikviz-read", enforce_metadata=False)
    lengths = source.lengths
    X = frame[features].to_dask_array(lengths=lengths) if lengths else frame[features].to_dask_array()
    y = None
    if label is not None:
        with warnings.catch_warnings():  # string labels: Dask says it gives object arrays, which is what we want
            warnings.filterwarnings("ignore", "Dask currently has limited support", UserWarning)
            y = frame[label].to_dask_array(lengths=lengths) if lengths else frame[label].to_dask_array()
    return Dataset(source, frame, X, y, features, label)


class _PieceReader:
    """Reads one piece into a pandas DataFrame (features float64 + the label); picklable."""

    def __init__(self, features: tuple, label, label_dtype=None):
        self.features, self.label, self.label_dtype = features, label, label_dtype

    def __call__(self, piece: Piece):
        if piece.kind == "parquet":
            df = _read_parquet_piece(piece, self.features, self.label)
        else:
            df = _read_csv_piece(piece, self.features, self.label)
        if self.label is not None:
            df[self.label] = _as_label(df[self.label], self.label_dtype, piece)
        return df


def _as_label(col, dtype, piece: Piece):
    """The label column in the type of the first file's (labels of one type in every piece)."""
    if dtype is None or dtype == object:
        return col.astype(object)  # strings as Python objects: Dask arrays hold no string dtype
    try:
        out = col.astype(dtype)
    except (TypeError, ValueError):
        out = None
    if out is None or (dtype.kind in "iub" and not (out == col).all()):
        raise ValueError(f"{piece.path}: the label column {col.name!r} holds values of another type "
                         f"({col.dtype}) than in the first file ({dtype}); labels must have one type.")
    return out


# ---------------------------------------------------------------- parquet
def _read_parquet_piece(piece: Piece, features, label):
    import pyarrow.parquet as pq

    wanted = list(features) + ([label] if label is not None else [])
    try:
        table = pq.ParquetFile(piece.path).read_row_groups(list(piece.row_groups), columns=wanted)
    except Exception as exc:
        raise ValueError(f"{piece.path}: row groups {list(piece.row_groups)} (rows {piece.first_row:,} to "
                         f"{piece.first_row + (piece.n_rows or 0):,}) could not be read: {exc}") from None
    df = table.to_pandas()
    _check_values(df, features, label, piece.path,
                  lambda i: f"row {piece.first_row + i + 1:,}", kind="parquet")
    return df


def _check_values(df, features, label, path, where, kind):
    """Turn the feature columns to float64; a non-number or missing value raises naming the row."""
    import pandas as pd

    for c in features:
        col = df[c]
        if col.dtype.kind not in "biuf":
            num = pd.to_numeric(col, errors="coerce")
            bad = np.flatnonzero(num.isna().to_numpy() & col.notna().to_numpy())
            if bad.size:
                i = int(bad[0])
                raise ValueError(f"{path}, {where(i)}: column {c!r} holds {str(col.iloc[i])[:40]!r}, "
                                 "which is not a number. Fix or drop that row.")
            col = num
        values = col.to_numpy(dtype=np.float64, na_value=np.nan)
        finite = np.isfinite(values)
        if not finite.all():
            i = int(np.flatnonzero(~finite)[0])
            what = "is missing" if np.isnan(values[i]) else f"is {values[i]}"
            raise ValueError(f"{path}, {where(i)}: the value of column {c!r} {what}. "
                             "Remove or impute such rows first.")
        df[c] = values
    if label is not None and df[label].isna().any():
        i = int(np.flatnonzero(df[label].isna().to_numpy())[0])
        raise ValueError(f"{path}, {where(i)}: the label {label!r} is missing.")


# -------------------------------------------------------------------- csv
_FIELDS = re.compile(r"Expected (\d+) fields in line (\d+), saw (\d+)")


def _csv_bytes(path: str, start: int, stop: int) -> tuple[int, bytes]:
    """The lines that start in [start, stop) (the header excluded), and the offset of the first one."""
    with open(path, "rb") as f:
        if start != 0:
            f.seek(start - 1)
        while True:                          # past the header, or to the first line starting at or after ``start``
            skipped = f.readline(1 << 20)    # in bounded steps: no line is ever held whole here
            if not skipped or skipped.endswith(b"\n"):
                break
        pos = f.tell()
        if pos >= stop:
            return pos, b""
        data = f.read(stop - pos)
        if not data.endswith(b"\n"):
            data += f.readline(_limits.MAX_LINE_CHARS + 3)   # the line crossing ``stop`` belongs to this piece
    return pos, data


def _lines_before(path: str, pos: int) -> int:
    """Number of line breaks before byte ``pos`` (only computed when reporting an error)."""
    count, done = 0, 0
    with open(path, "rb") as f:
        while done < pos:
            buf = f.read(min(1 << 24, pos - done))
            if not buf:
                break
            count += buf.count(b"\n")
            done += len(buf)
    return count


def _line_length(path: str, start: int) -> int:
    """Bytes of the line that starts at byte ``start`` of ``path`` (read in blocks; only for an error)."""
    length = 0
    with open(path, "rb") as f:
        f.seek(start)
        while True:
            block = f.read(1 << 24)
            end = min((i for i in (block.find(b"\n"), block.find(b"\r")) if i >= 0), default=-1)
            if end >= 0 or not block:
                return length + (end if end >= 0 else 0)
            length += len(block)


def _line_of_row(data: bytes, row: int) -> int:
    """1-based line, within ``data``, of data row ``row`` (pandas skips blank lines)."""
    seen = -1
    for i, line in enumerate(data.split(b"\n"), start=1):
        if line.strip(b"\r") == b"":
            continue
        seen += 1
        if seen == row:
            return i
    return i


def _read_csv_piece(piece: Piece, features, label):
    import pandas as pd

    pos, data = _csv_bytes(piece.path, piece.start, piece.stop)
    header = list(piece.names)
    longest, at = _limits.longest_line(data) if data else (0, 1)
    if longest > _limits.MAX_LINE_CHARS:   # before pandas allocates for it (the last line may be cut at the limit)
        raise ValueError(_limits.line_too_long(piece.path, _lines_before(piece.path, pos) + at,
                                               _line_length(piece.path, pos + data.rfind(b"\n", 0, len(data)) + 1)
                                               if at == data.count(b"\n") + 1 else longest,
                                               _limits.MAX_LINE_CHARS))
    if not data.strip():
        return pd.DataFrame({c: pd.Series([], dtype="float64") for c in features}
                            | ({label: pd.Series([], dtype=object)} if label is not None else {}))

    def line(i_line: int) -> str:
        number = _lines_before(piece.path, pos) + i_line
        return f"line {number:,} (row {number - 1:,})"

    try:
        df = pd.read_csv(io.BytesIO(data), header=None, names=header, index_col=False,
                         dtype={c: "float64" for c in features}, low_memory=False)
    except pd.errors.ParserError as exc:
        m = _FIELDS.search(str(exc))
        if m:
            raise ValueError(f"{piece.path}, {line(int(m.group(2)))}: expected {m.group(1)} fields, "
                             f"saw {m.group(3)}. Fix that line.") from None
        raise ValueError(f"{piece.path}, bytes {pos:,} to {pos + len(data):,}: {exc}") from None
    except (ValueError, TypeError):
        # a value that is not a number: parse again without types to find it
        df = pd.read_csv(io.BytesIO(data), header=None, names=header, index_col=False, dtype=str,
                         low_memory=False)
    _check_values(df, features, label, piece.path, lambda i: line(_line_of_row(data, i)), kind="csv")
    keep = list(features) + ([label] if label is not None else [])
    return df[keep]


# ------------------------------------------------------------------ a file on the server as a source of ikviz.data.Data
DATA_ROOT_ENV = "IKVIZ_DATA_ROOT"
#: what the server reads from a typed path (the formats above); nothing else is opened
DATA_SUFFIXES = PARQUET_SUFFIXES + CSV_SUFFIXES


def data_root() -> Path | None:
    """The folder typed paths must lie in (``$IKVIZ_DATA_ROOT``), or None: reading files on the server is off."""
    root = os.environ.get(DATA_ROOT_ENV, "").strip()
    return Path(root).expanduser().resolve() if root else None


def path_help() -> str:
    """How a typed path is read, and which paths may be typed (from ``$IKVIZ_DATA_ROOT``).

    Examples
    --------
    >>> from ikviz.data.files import path_help
    >>> "Only Parquet (.parquet, .pq) and CSV (.csv) files are opened." in path_help()
    True
    """
    root = data_root()
    where = (f"Only paths inside {root} can be read ({DATA_ROOT_ENV}); a relative path is taken from there." if root
             else f"Reading files on this server is off: set {DATA_ROOT_ENV} to the folder it may read.")
    return ("Read with Dask, never loaded whole: the kernel is fitted on rows drawn by row index, every row is "
            "mapped to its cells, IK + OGD and FOGD learn from every row. Only Parquet (.parquet, .pq) and CSV "
            f"(.csv) files are opened. {where}")


def _refusal(text: str) -> ValueError:
    """The one refusal of a typed path, whatever the reason (missing, outside the root, not data): no oracle."""
    shown = text if len(text) <= 200 else text[:200] + "…"
    return ValueError(f"No Parquet or CSV data this server may read at {shown!r}. Type the path of a .parquet, .pq "
                      f"or .csv file, a folder or a glob of them, inside the folder {DATA_ROOT_ENV} names.")


def check_data_path(path: str) -> str:
    """``path`` as an absolute path if it names Parquet/CSV data the server may read, else a ``ValueError``.

    Off unless ``$IKVIZ_DATA_ROOT`` is set. The path (relative ones are taken
    from the root) is normalised as text and checked to lie inside the root
    before anything on disk is looked at; only then are the files it names
    found, each followed through links and checked again, and each must be a
    Parquet or CSV file. Every refusal reads the same, so a typed path tells
    nothing about what exists outside the data (``root/*/../../../etc/shadow``
    is refused like a missing file). Never opens a file.

    Examples
    --------
    >>> import os
    >>> from ikviz.data.files import check_data_path
    >>> os.environ.pop("IKVIZ_DATA_ROOT", None) and None
    >>> check_data_path("/etc/passwd")
    Traceback (most recent call last):
    ...
    ValueError: Reading files on this server is off: set IKVIZ_DATA_ROOT to the folder it may read.
    """
    text = _limits.check_path_text(str(path)).strip()
    root = data_root()
    if root is None:
        raise ValueError(f"Reading files on this server is off: set {DATA_ROOT_ENV} to the folder it may read.")
    if not text:
        raise ValueError("Type the path of a Parquet or CSV file, a folder of them, or a glob.")
    full = os.path.normpath(os.path.join(str(root), os.path.expanduser(text)))   # text only: no stat, no glob
    if not Path(full).is_relative_to(root):
        raise _refusal(text)
    glob = any(ch in full for ch in "*?[")
    if not glob:
        real = Path(full).resolve()
        if not real.is_relative_to(root) or not real.exists():
            raise _refusal(text)
        if real.is_file() and real.suffix.lower() not in DATA_SUFFIXES:
            raise _refusal(text)
    try:
        files = find_files(full)
    except (ValueError, OSError):
        raise _refusal(text) from None
    if not files:
        raise _refusal(text)
    for file in files:
        real = Path(file).resolve()
        if real.suffix.lower() not in DATA_SUFFIXES or not real.is_relative_to(root):
            raise _refusal(text)
    return full


#: the options of the ``server-file`` source and their defaults: the label column (None: no classes) and the rows
#: drawn by row index (the checks' sample; the file is never read whole); ``path`` has none
SERVER_FILE_DEFAULTS: dict = {"label": None, "rows": 2000}


def server_file_options(path, **choices) -> dict:
    """The options of a ``server-file`` source, defaults filled in and checked (a ``ValueError`` says what to fix).
    The path is checked when the source is read (:func:`check_data_path`), not here.

    Examples
    --------
    >>> from ikviz.data.files import server_file_options
    >>> server_file_options("big/part0.parquet", label="label")
    {'label': 'label', 'rows': 2000, 'path': 'big/part0.parquet'}
    >>> server_file_options("big", sample=5)
    Traceback (most recent call last):
    ...
    ValueError: A file on the server takes the options path, label, rows; got unknown 'sample'.
    """
    unknown = sorted(set(choices) - set(SERVER_FILE_DEFAULTS))
    if unknown:
        raise ValueError(f"A file on the server takes the options path, {', '.join(SERVER_FILE_DEFAULTS)}; got unknown "
                         f"{', '.join(map(repr, unknown))}.")
    if not isinstance(path, str) or not path.strip():
        raise ValueError(f"A file on the server needs path='...': a Parquet or CSV file, a folder or a glob; got "
                         f"{path!r}.")
    out = {**SERVER_FILE_DEFAULTS, **choices, "path": path}
    rows = out["rows"]
    if isinstance(rows, bool) or not isinstance(rows, (int, np.integer)) or rows < 1:
        raise ValueError(f"A file on the server's option rows must be an integer >= 1; got {rows!r}.")
    if out["label"] is not None and not isinstance(out["label"], str):
        raise ValueError(f"A file on the server's option label must be a column name (str) or None; got "
                         f"{out['label']!r}.")
    return {**out, "rows": int(rows)}


def load_server_file(seed: int = 0, **options) -> tuple:
    """The loader of the ``server-file`` source (:data:`ikviz.data.description.LOADERS`): ``options["rows"]`` rows
    of the Parquet/CSV data at ``options["path"]``, drawn at random with ``seed`` by row index (only the blocks that
    hold them are read; the file never whole), as ``(X, y, about)``.

    Read only when the server allows it (:func:`check_data_path`: ``$IKVIZ_DATA_ROOT``) and within the bounds of
    :mod:`ikviz._limits`. Labels are coded 0..k-1 in the order of their sorted values (``about["classes"]``);
    ``about["row_index"]`` holds the sorted rows drawn, ``about["of_rows"]`` how many the data has. Dask computes
    on the default scheduler, or the cluster a caller started (:func:`ikviz.scale.run.shared_client`).

    Examples
    --------
    >>> import os
    >>> from ikviz.data.files import load_server_file
    >>> os.environ.pop("IKVIZ_DATA_ROOT", None) and None
    >>> load_server_file(0, path="big.parquet")
    Traceback (most recent call last):
    ...
    ValueError: Reading files on this server is off: set IKVIZ_DATA_ROOT to the folder it may read.
    """
    from .._dask import n_rows, take_rows

    options = server_file_options(options.pop("path", None), **options)
    label = options["label"]
    path = check_data_path(options["path"])
    ds = read_dataset(path, None, label)
    n = n_rows(ds.X)
    if n < 2:
        raise ValueError(f"{path} holds {n} row(s); the checks need at least 2.")
    index = np.sort(np.random.default_rng(seed).choice(n, min(options["rows"], n), replace=False))
    X = take_rows(ds.X, index)
    y, classes = None, []
    if label is not None:
        raw = np.asarray(ds.y[index].compute())  # only the chunks that hold sampled rows
        values, y = np.unique(raw, return_inverse=True)
        classes = [str(v) for v in values]
    note = (f"A sample of {len(index):,} of the {n:,} rows, drawn at random by row index (seed {seed}): "
            "the checks and plots below use these rows.")
    return X, y, {"title": options["path"], "columns": tuple(ds.features), "classes": tuple(classes),
                  "notes": (note,), "label": label or "label", "task": "classification" if label is not None else None,
                  "row_index": index, "of_rows": int(n)}
