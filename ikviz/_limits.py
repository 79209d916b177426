"""The size bounds every reader of a user's file checks before it allocates, said once (issue 31 item 3).

The in-memory reader (:mod:`ikviz.data._parse`, behind Your data and ``ikviz check``) and the Dask reader
(:mod:`ikviz.scale.io`, behind ``ikviz scale``) both take their limits and the wording of each refusal from
here: a refusal names the file, what was too large and the limit.
"""

from __future__ import annotations

import numpy as np

# a table read into memory (Your data, ikviz check) larger than this as float64 is refused: reading, describing
# and checking it takes 10 to 12 times that at its peak (at 128 MB, 16 M int8 cells of Parquet: 1.35 GB through
# ikviz check alone, 1.55 GB in the attack campaign's process; at the earlier 512 MB, 64 M cells: 4.16 GB), and
# issue 31 bounds any file under 10 MB to 1.5 GB. A CSV file reaches it only past ~24 MB (two bytes a cell);
# Parquet, compressed, much sooner.
MAX_DENSE_BYTES = 96 * 1024**2
MAX_PIECE_BYTES = 2 * 1024**3       # one Dask piece (a Parquet row group is read whole) as float64
MAX_COLUMNS = 10_000                # columns of a CSV header, an Excel sheet or a Parquet schema
MAX_LINE_CHARS = 4 * 1024**2        # characters (bytes) in one line of a text file
MAX_SHEET_CELLS = 2_000_000         # cells in an Excel sheet's used range (its <dimension>)
MAX_UNZIPPED_BYTES = 256 * 1024**2  # an .xlsx (a zip) decompressed
MAX_PATH_CHARS = 4096               # a typed path (the longest most file systems allow)
MAX_PARQUET_FOOTER = 64 * 1024**2   # a Parquet file's metadata (its footer), read before any data
MAX_LIBSVM_INDEX = 2**31 - 2        # LIBSVM feature indices are 32-bit


def who(filename) -> str:
    """How a refusal names the file: ``"mine.csv: "`` (nothing without a name)."""
    return f"{filename}: " if filename else ""


def mb(n: float) -> str:
    """``n`` bytes in MB (GB from 1 GB on), as the refusals write sizes.

    Examples
    --------
    >>> from ikviz._limits import mb
    >>> mb(512 * 1024**2), mb(3 * 1024**3)
    ('512.0 MB', '3.0 GB')
    """
    return f"{n / 1024**2:.1f} MB" if n < 1024**3 else f"{n / 1024**3:.1f} GB"


def check_path_text(path) -> str:
    r"""``path`` as typed, refused with a clear ``ValueError`` when it cannot be a path (NUL, too long).

    Examples
    --------
    >>> from ikviz._limits import check_path_text
    >>> check_path_text("a\x00b")
    Traceback (most recent call last):
    ...
    ValueError: The path holds a NUL character (\x00); no file name can. Type the path again.
    """
    text = str(path)
    if "\x00" in text:
        raise ValueError("The path holds a NUL character (\\x00); no file name can. Type the path again.")
    if len(text) > MAX_PATH_CHARS:
        raise ValueError(f"The path is {len(text):,} characters long, over the {MAX_PATH_CHARS:,} a path may "
                         "have. Type a shorter path.")
    return text


def too_many_columns(filename, n: int, limit: int = MAX_COLUMNS, where: str = "the header row") -> str:
    """The refusal of a table with more than ``limit`` columns.

    Examples
    --------
    >>> from ikviz._limits import too_many_columns
    >>> too_many_columns("wide.csv", 100_001)
    'wide.csv: the header row has 100,001 columns, over the limit of 10,000. Keep fewer columns.'
    """
    return f"{who(filename)}{where} has {n:,} columns, over the limit of {limit:,}. Keep fewer columns."


def longest_line(raw: bytes) -> tuple[int, int]:
    """(length in bytes, 1-based line number) of the longest line of ``raw`` (line ends not counted).

    Examples
    --------
    >>> from ikviz._limits import longest_line
    >>> longest_line(b"a,b\\n1,2\\n333,4444\\n")
    (8, 3)
    """
    b = np.frombuffer(raw, dtype=np.uint8)
    ends = np.flatnonzero((b == 10) | (b == 13))
    gaps = np.diff(np.concatenate(([-1], ends, [len(b)])))
    i = int(np.argmax(gaps))
    line = int(np.sum(b[:ends[i - 1] + 1] == 10)) + 1 if i > 0 else 1
    return int(gaps[i]) - 1, line


def line_too_long(filename, line: int, length: int, limit: int = MAX_LINE_CHARS) -> str:
    """The refusal of a text file with a line over ``limit`` bytes.

    Examples
    --------
    >>> from ikviz._limits import line_too_long
    >>> line_too_long("long.csv", 3, 5002, 1000)
    'long.csv: line 3 is 5,002 bytes long, over the limit of 1,000 bytes a line may have. Is this a table with one row per line?'
    """
    return (f"{who(filename)}line {line:,} is {length:,} bytes long, over the limit of {limit:,} bytes a line may "
            "have. Is this a table with one row per line?")


def libsvm_index_too_large(filename, index: int, line: int, limit: int = MAX_LIBSVM_INDEX) -> str:
    """The refusal of a LIBSVM feature index beyond 32 bits.

    Examples
    --------
    >>> from ikviz._limits import libsvm_index_too_large
    >>> libsvm_index_too_large("big.svm", 2**31, 2)
    'big.svm: feature index 2,147,483,648 on line 2 is over the limit of 2,147,483,646 (LIBSVM indices are 32-bit). Renumber the features from 1.'
    """
    return (f"{who(filename)}feature index {index:,} on line {line:,} is over the limit of {limit:,} (LIBSVM "
            "indices are 32-bit). Renumber the features from 1.")


def parquet_too_large(filename, n_rows: int, n_cols: int, n_groups: int, nbytes: int,
                      limit: int = MAX_DENSE_BYTES, what: str = "an upload may take in memory") -> str:
    """The refusal of Parquet data over ``limit`` bytes as a float64 table (``what``: where the limit applies).

    Examples
    --------
    >>> from ikviz._limits import parquet_too_large
    >>> parquet_too_large("long.parquet", 300_000_000, 1, 1, 2_400_000_000)
    'long.parquet: 300,000,000 rows x 1 columns in 1 row group(s) (2.2 GB as a table), over the 96.0 MB an upload may take in memory.'
    """
    return (f"{who(filename) or 'The Parquet file: '}{n_rows:,} rows x {n_cols:,} columns in {n_groups:,} row "
            f"group(s) ({mb(nbytes)} as a table), over the {mb(limit)} {what}.")


def parquet_footer_too_large(filename, nbytes: int, limit: int = MAX_PARQUET_FOOTER) -> str:
    """The refusal of a Parquet file whose metadata alone exceed ``limit`` bytes.

    Examples
    --------
    >>> from ikviz._limits import parquet_footer_too_large
    >>> parquet_footer_too_large("meta.parquet", 2**30)
    'meta.parquet: its metadata (footer) take 1.0 GB, over the limit of 64.0 MB. Write it again with fewer row groups or columns.'
    """
    return (f"{who(filename) or 'The Parquet file: '}its metadata (footer) take {mb(nbytes)}, over the limit of "
            f"{mb(limit)}. Write it again with fewer row groups or columns.")


def parquet_footer_size(head_and_tail: bytes) -> int | None:
    """The footer length a Parquet file's last 8 bytes declare (None when they are not ``<len>PAR1``).

    Examples
    --------
    >>> from ikviz._limits import parquet_footer_size
    >>> parquet_footer_size((1000).to_bytes(4, "little") + b"PAR1")
    1000
    """
    tail = head_and_tail[-8:]
    if len(tail) < 8 or tail[4:] != b"PAR1":
        return None
    return int.from_bytes(tail[:4], "little")


# the Isolation Kernel keeps its t * psi sample points as float64 centres (in at most min(d, n) coordinates, the
# span of its samples; more copies below 256 of them): at psi = 500, t = 200 on 1,000 points of 10,000 features
# (the t-SNE page at the largest psi a link can give) that is 0.8 GB, and the page peaked at 2.32 GB. Refused
# beyond this, before anything is fitted (issue 31: every input bounded, 1.5 GB).
MAX_IK_CENTRES_BYTES = 512 * 1024**2


def ik_centres_bytes(psi: int, t: int, n_features: int, n_rows: int) -> int:
    """Bytes of an Isolation Kernel's centres: ``8 * psi * t * min(n_features, n_rows)`` (float64).

    Examples
    --------
    >>> from ikviz._limits import ik_centres_bytes
    >>> ik_centres_bytes(500, 200, 10_000, 1_000) / 1024**2
    762.939453125
    """
    return 8 * int(psi) * int(t) * max(1, min(int(n_features), int(n_rows)))


def check_ik_centres(psi: int, t: int, n_features: int, n_rows: int, limit: int = MAX_IK_CENTRES_BYTES) -> None:
    """Refuse, with a ``ValueError`` that says what to lower, an Isolation Kernel whose centres exceed ``limit``.

    Examples
    --------
    >>> from ikviz._limits import check_ik_centres
    >>> check_ik_centres(100, 200, 10_000, 1_000)
    >>> check_ik_centres(500, 200, 10_000, 1_000)
    Traceback (most recent call last):
    ...
    ValueError: ψ = 500 and t = 200 on 1,000 points of 10,000 features: the Isolation Kernel's 100,000 centres would take 762.9 MB, over the limit of 512.0 MB. Choose ψ at most 335 (or a smaller t, or fewer features).
    """
    need = ik_centres_bytes(psi, t, n_features, n_rows)
    if need > limit:
        top = limit // (8 * int(t) * max(1, min(int(n_features), int(n_rows))))
        raise ValueError(f"ψ = {psi} and t = {t} on {n_rows:,} points of {n_features:,} features: the Isolation "
                         f"Kernel's {int(psi) * int(t):,} centres would take {mb(need)}, over the limit of "
                         f"{mb(limit)}. Choose ψ at most {top} (or a smaller t, or fewer features).")
