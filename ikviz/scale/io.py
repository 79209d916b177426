"""Where ``ikviz scale`` writes: an output folder checked before, written beside, then published whole.

Reading the input files (Parquet and CSV files, folders and globs as Dask data
frames and arrays) is :mod:`ikviz.data.files`, below this package, so the data
layer can read a big file on the server too.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

__all__ = ["OUTPUT_MARK", "check_output", "discard", "publish", "temporary_path"]

# ------------------------------------------------------------------ output
#: the file that marks a folder as an ikviz output (written last, with the run's parameters)
OUTPUT_MARK = "_ikviz.json"
_OUTPUT_PART = re.compile(r"part\.\d{5,}\.parquet")


def _ikviz_wrote(name: str) -> bool:
    return name == OUTPUT_MARK or _OUTPUT_PART.fullmatch(name) is not None


def check_output(out, inputs=(), *, overwrite: bool = False) -> Path:
    """``out`` if ikviz may write its output folder there, else ``ValueError`` saying why not.

    ikviz never deletes what it did not write: ``out`` is refused when it is the
    input or a folder holding an input file, a file, a symbolic link, or a
    non-empty folder that is not an earlier ikviz output (marked by its
    ``_ikviz.json``, holding nothing but ``part.NNNNN.parquet`` files beside it).
    An earlier ikviz output is replaced only with ``overwrite=True`` (and then
    only once the new output is complete: see :func:`publish`). A missing or
    empty folder is fine.

    Examples
    --------
    >>> import tempfile
    >>> from pathlib import Path
    >>> from ikviz.scale.io import check_output
    >>> folder = Path(tempfile.mkdtemp())
    >>> (folder / "data.parquet").write_bytes(b"")
    0
    >>> check_output(folder / "cells", [folder / "data.parquet"]) == folder / "cells"
    True
    >>> check_output(folder, [folder / "data.parquet"])
    Traceback (most recent call last):
    ...
    ValueError: --out ... holds the input .../data.parquet: writing there would delete it. ...
    """
    out = Path(os.path.abspath(Path(out).expanduser()))
    target = out.resolve()
    for f in inputs:
        path = Path(f).resolve()
        if path == target or target in path.parents:
            raise ValueError(f"--out {out} holds the input {f}: writing there would delete it. Pick another folder "
                             "for the output.")
    if out.is_symlink():
        raise ValueError(f"--out {out} is a symbolic link; ikviz does not write through links. Pick a new folder.")
    if not out.exists():
        return out
    if not out.is_dir():
        raise ValueError(f"--out {out} is a file, and the output is a folder of Parquet files; ikviz does not "
                         "replace it. Pick a new folder name.")
    names = sorted(e.name for e in out.iterdir())
    if not names:
        return out
    if OUTPUT_MARK not in names:
        raise ValueError(f"--out {out} is a folder with files ikviz did not write ({names[0]!r}"
                         f"{f' and {len(names) - 1} more' if len(names) > 1 else ''}; no {OUTPUT_MARK}); ikviz "
                         "never deletes them. Pick a new folder.")
    foreign = [name for name in names if not _ikviz_wrote(name)]
    if foreign:
        raise ValueError(f"--out {out} holds an earlier ikviz output, and also {foreign[0]!r}, which ikviz did not "
                         "write; ikviz never deletes it. Move it out, or pick a new folder.")
    if not overwrite:
        raise ValueError(f"--out {out} holds an earlier ikviz output; pass --overwrite to replace it (the new "
                         "output replaces it only once complete), or pick a new folder.")
    return out


def temporary_path(out) -> Path:
    """A hidden sibling of ``out`` to write into before it replaces ``out`` (see :func:`publish`).

    Examples
    --------
    >>> from ikviz.scale.io import temporary_path
    >>> temporary_path("/data/cells").name.startswith(".cells.incomplete-")
    True
    """
    out = Path(out)
    return out.with_name(f".{out.name}.incomplete-{os.getpid()}")


def publish(tmp: Path, out, inputs=(), *, overwrite: bool = False) -> None:
    """Put the finished ``tmp`` folder in the place of ``out``, atomically; an earlier ikviz output goes.

    ``out`` is checked again (:func:`check_output`: it may have changed while the
    output was computed). A missing ``out`` is a single rename; an existing one (empty,
    or an earlier ikviz output with ``overwrite``) is renamed aside, ``tmp`` renamed
    to ``out``, and only then the old one removed: at every moment ``out`` is either
    the complete old output or the complete new one.

    Examples
    --------
    >>> import tempfile
    >>> from pathlib import Path
    >>> from ikviz.scale.io import OUTPUT_MARK, publish, temporary_path
    >>> out = Path(tempfile.mkdtemp()) / "cells"
    >>> tmp = temporary_path(out)
    >>> tmp.mkdir()
    >>> (tmp / OUTPUT_MARK).write_text("{}")
    2
    >>> publish(tmp, out)
    >>> sorted(p.name for p in out.iterdir())
    ['_ikviz.json']
    """
    import shutil

    out = check_output(out, inputs, overwrite=overwrite)
    if not out.exists():
        tmp.rename(out)
        return
    old = out.with_name(f".{out.name}.old-{os.getpid()}")
    out.rename(old)
    try:
        tmp.rename(out)
    except BaseException:
        old.rename(out)
        raise
    shutil.rmtree(old)  # an empty folder, or only the files ikviz wrote (checked above)


def discard(tmp: Path) -> None:
    """Remove a temporary output after a failure.

    Examples
    --------
    >>> import tempfile
    >>> from pathlib import Path
    >>> from ikviz.scale.io import discard
    >>> tmp = Path(tempfile.mkdtemp()) / ".cells.incomplete-1"
    >>> tmp.mkdir()
    >>> discard(tmp)
    >>> tmp.exists()
    False
    """
    import shutil

    tmp = Path(tmp)
    if tmp.is_dir() and not tmp.is_symlink():
        shutil.rmtree(tmp, ignore_errors=True)
    elif tmp.exists() or tmp.is_symlink():
        tmp.unlink()
