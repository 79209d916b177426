"""Issue 31's attack, as one re-runnable campaign: tried / clear / wrong / crash / hang / peak memory.

    python benchmarks/attack.py                 # every surface (a few minutes on a quiet 2-core machine)
    python benchmarks/attack.py --surface files links --timeout 60 --bound-gb 1.5
    python benchmarks/attack.py --no-big        # without the largest files under 10 MB (they take the longest)

Four surfaces, each run in a fresh child process (so a crash or a hang costs one case, not the campaign):

* **api**: every public function and estimator of ikviz (the recipes of tests/test_fuzz.py: hostile data -- NaN,
  inf, strings, sparse, empty, 1e300... -- and hostile parameters, fixed and drawn by hypothesis), plus the
  issue's hand-made cases (psi = t = 10**6, n_init = 10**12, reordered columns, values near the float maximum,
  K(x, x) at 1e8, a row alone vs in a batch, exact ties).
* **files**: crafted files through ``ikviz check`` and through ``ikviz.data.upload`` (a far xlsx cell, a zip
  bomb, 300 M Parquet rows, 100,001 columns, a LIBSVM index of 2**31, long and NUL paths, constant features,
  formula-led cells, Markdown names, and variants), and the largest valid files under 10 MB (wide CSV, xlsx,
  Parquet), each against the time bound and the memory bound.
* **links**: garbage query strings into every view's settings through ``ikviz.params.from_query`` (the one
  link parser), and a sample of pages opened with garbage links in Streamlit's AppTest.
* **dask**: the Dask faults and input bounds of tests/test_scale_safety.py (a live scheduler and workers on
  127.0.0.1: workers or scheduler killed, silent and garbage ports, other schemes, a full disk, ``--out``), one
  pytest run, each test one case.

A case is *clear* when it gives a valid result or a one-line ``ValueError``/``TypeError`` that says what to
fix; *wrong* when it accepts what it should refuse or gives a silently wrong result (or an unclear message);
*crash* for any other exception or a dead process; *hang* past ``--timeout`` seconds; *over memory* when the
case's own peak (the process's VmHWM, reset before each case) exceeds ``--bound-gb``. Exit status 1 when any
case lands in the last four columns.
"""

from __future__ import annotations

import argparse
import io
import json
import multiprocessing as mp
import os
import re
import subprocess
import sys
import tempfile
import time
import traceback
import warnings
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CACHE = Path(tempfile.gettempdir()) / "ikviz-attack-files"
KINDS = ("clear", "wrong", "crash", "hang", "memory")


# ---------------------------------------------------------------------------------------------- measuring
def _reset_peak() -> None:
    try:
        with open("/proc/self/clear_refs", "w") as f:
            f.write("5")          # Linux: resets the peak resident set size (VmHWM) of this process
    except OSError:
        pass


def _peak_kb() -> int:
    try:
        with open("/proc/self/status") as f:
            return next(int(line.split()[1]) for line in f if line.startswith("VmHWM"))
    except (OSError, StopIteration):
        import resource
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


def _ok(text: str | None = None):
    return ("clear", text or "")


def _wrong(text: str):
    return ("wrong", text)


def _crash(text: str):
    return ("crash", text)


# ---------------------------------------------------------------------------------------------- api
def _hypothesis_draws(n: int):
    """``n`` data shapes and seeds drawn by hypothesis (derandomised: the same on every run)."""
    from hypothesis import HealthCheck, given, settings

    import test_fuzz as tf

    got = []

    @settings(max_examples=n, derandomize=True, database=None, deadline=None,
              suppress_health_check=list(HealthCheck))
    @given(dr=tf.draws, extra=tf.drawn_params)
    def collect(dr, extra):
        if len(got) < n:
            got.append((dr, extra))

    collect()
    return got


def _fuzz_kind(problem: str | None):
    if problem is None:
        return _ok()
    if problem.startswith("took more than"):
        return ("hang", problem)
    if problem.startswith(("raw ", "numba error", "result could not be checked")):
        return _crash(problem)
    return _wrong(problem)


def api_cases(opts):
    sys.path.insert(0, str(ROOT / "tests"))
    import numpy as np

    import test_fuzz as tf

    tf.HANG_SECONDS = min(tf.HANG_SECONDS, opts.timeout)   # the call's own alarm, below the campaign's
    cases = []
    draws = _hypothesis_draws(1 if opts.quick else 2)
    for qualname, spec in tf.SPECS_NOW.items():
        for k, (dr, extra) in enumerate(draws):
            base = spec.base(dr)
            for arg, make in spec.data.items():
                for label, value, expect in make(dr, base):
                    cases.append((f"{qualname} {arg}={label} (draw {k})",
                                  lambda s=spec, b=base, a=arg, v=value, e=expect: _fuzz_kind(
                                      tf.outcome(s, {**b, a: v}, e, a))))
            for name in spec.params:
                values = [(label, v) for label, v in tf.BAD_PARAMS
                          if not (name in spec.no_huge and label in tf.HUGE_LABELS)]
                values = values if k == 0 else []           # the fixed list once; a drawn value per draw
                values.append((f"drawn {tf._short(extra)}", extra))
                for label, value in values:
                    cases.append((f"{qualname} {name}={label} (draw {k})",
                                  lambda s=spec, b=base, nm=name, v=value: _fuzz_kind(
                                      tf.outcome(s, {**b, nm: v}, tf.EITHER, nm))))
    return cases + _issue_api_cases(np)


def _refused(fn, *words):
    """Clear when ``fn`` raises ValueError/TypeError naming each of ``words``; wrong when it runs."""
    try:
        fn()
    except (ValueError, TypeError) as exc:
        missing = [w for w in words if w not in str(exc)]
        return _wrong(f"message lacks {missing}: {exc}") if missing else _ok(str(exc)[:100])
    return _wrong("accepted (should be refused)")


def _issue_api_cases(np):
    from ikviz.clustering import SpectralClustering
    from ikviz.features import RandLocal, RandomFourierFeatures
    from ikviz.kernels import IsolationKernel, laplacian, rbf

    rng = np.random.default_rng(0)
    X40 = rng.random((40, 3))

    def reordered():
        import pandas as pd
        frame = pd.DataFrame(X40, columns=["a", "b", "c"])
        ik = IsolationKernel(psi=8, t=20, random_state=0).fit(frame)
        return _refused(lambda: ik.transform(frame[["c", "a", "b"]]), "feature names")

    def near_max():
        X = np.finfo(float).max / 4 * (rng.random((30, 2)) - 0.5)
        F = RandLocal(n_sets=5, min_anchors=4, max_anchors=8, random_state=0).fit_transform(X)
        data = F.data if hasattr(F, "data") else np.asarray(F)
        return _ok() if np.isfinite(data).all() else _wrong("non-finite features near the float maximum")

    def unit_diagonal(kernel):
        def case():
            X = 1e8 * (1 + rng.random((20, 3)))
            d = np.diag(kernel(X, X.copy()))
            return _ok() if np.all(d == 1.0) else _wrong(f"K(x, x) = {d.min():.3g} at magnitude 1e8")
        return case

    def alone_vs_batch():
        X = 1e15 + 1e3 * rng.random((50, 3))
        f = RandomFourierFeatures(n_components=64, random_state=0).fit(X)
        gap = float(np.max(np.abs(f.transform(X[:1]) - f.transform(X)[:1])))
        return _ok() if gap < 1e-12 else _wrong(f"a row alone differs from the row in a batch by {gap:.3g}")

    return [
        ("issue: IsolationKernel(psi=10**6, t=10**6) on 40 rows",
         lambda: _refused(lambda: IsolationKernel(psi=10**6, t=10**6).fit(X40), "t")),
        ("issue: iforest with t=100,001", lambda: _refused(
            lambda: IsolationKernel(psi=8, t=100_001, method="iforest").fit(X40), "t")),
        ("issue: SpectralClustering(n_init=10**12)", lambda: _refused(
            lambda: SpectralClustering(n_clusters=2, n_init=10**12).fit(X40), "n_init")),
        ("issue: RandLocal(n_sets=10**9)", lambda: _refused(
            lambda: RandLocal(n_sets=10**9).fit(X40), "n_sets")),
        ("issue: IK fitted on a frame, columns reordered", reordered),
        ("issue: RandLocal near the float maximum", near_max),
        ("issue: rbf(X, X.copy()) at 1e8", unit_diagonal(rbf)),
        ("issue: laplacian(X, X.copy()) at 1e8", unit_diagonal(laplacian)),
        ("issue: RFF row alone vs batch at 1e15", alone_vs_batch),
    ]


# ---------------------------------------------------------------------------------------------- files
def _xlsx(rows, far: str | None = None) -> bytes:
    from openpyxl import Workbook

    book = Workbook()
    sheet = book.active
    for r in rows:
        sheet.append(r)
    if far:
        sheet[far] = 1
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def _zip_bomb(unzipped: int) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as zf:
        zf.writestr("[Content_Types].xml", "<Types/>")
        with zf.open("xl/worksheets/sheet1.xml", "w", force_zip64=True) as fh:
            block = b"<c>0</c>" * (1 << 17)
            for _ in range(unzipped // len(block)):
                fh.write(block)
    return out.getvalue()


def _parquet(frame, **kwargs) -> bytes:
    out = io.BytesIO()
    frame.to_parquet(out, **kwargs)
    return out.getvalue()


def _cached(name: str, make) -> Path:
    """A big file made once and kept under the temp folder (the campaign reruns fast)."""
    CACHE.mkdir(exist_ok=True)
    path = CACHE / name
    if not path.exists():
        tmp = path.with_suffix(path.suffix + ".part")
        tmp.write_bytes(make())
        tmp.rename(path)
    return path


def _crafted(np, pd) -> list[tuple[str, bytes, str, tuple]]:
    """(file name, bytes, what is expected: refuse | read | either, extra ikviz check arguments)."""
    rng = np.random.default_rng(0)
    small = "a,b,label\n" + "".join(f"{rng.random():.3f},{rng.random():.3f},{'xy'[i % 2]}\n" for i in range(60))
    fast = ("--rows", "60", "--psi", "8", "--t", "30", "--checks", "neighbours")
    out = [
        ("far.xlsx", _xlsx([[f"x{i}", i] for i in range(50)], far="XFD1048576"), "refuse", ()),
        ("bomb.xlsx", _zip_bomb(300 * 1024**2), "refuse", ()),
        ("rows300m.parquet", b"", "refuse", ()),   # made below, once (2.1 MB, 300 M int8 rows)
        ("wide100001.csv", (",".join(f"c{j}" for j in range(100_001)) + "\n" + ",".join("1" * 100_001)
                            + "\n").encode(), "refuse", ()),
        ("wide10001.parquet", _parquet(pd.DataFrame(np.zeros((2, 10_001)),
                                                    columns=[f"c{j}" for j in range(10_001)])), "refuse", ()),
        ("index31.svm", b"1 1:0.5 3:1\n0 2147483648:1\n", "refuse", ()),
        ("index_neg.svm", b"1 1:0.5 3:1\n0 -4:1\n1 2:1\n", "either", ()),
        ("index63.svm", b"1 1:0.5\n0 99999999999999999999:1\n", "refuse", ()),
        ("nan.svm", b"1 1:nan 2:1\n0 1:1 2:0\n" * 20, "refuse", ()),
        ("longline.csv", b"a,b\n1,2\n3," + b"4" * (5 * 1024**2) + b"\n", "refuse", ()),
        ("constant.csv", ("a,b,label\n" + "".join(f"1,2,{'xy'[i % 2]}\n" for i in range(40))).encode(),
         "refuse", ("--rows", "40", "--psi", "8", "--t", "30")),
        ("formula.csv", ("=1+2,+cmd|' /C calc'!A0,@SUM(A1),label\n" + "".join(
            f"=HYPERLINK(\"http://x\"),{-i},@x{i},{'xy'[i % 2]}\n" for i in range(60))).encode(), "read", fast),
        ("markdown.csv", ("![r](http://HOST/x.png),[click me](http://HOST/),label\n" + "".join(
            f"{rng.random():.3f},{rng.random():.3f},{'xy'[i % 2]}\n" for i in range(60))).encode(), "read", fast),
        ("one_feature.csv", ("a,label\n" + "".join(f"{rng.random():.3f},{'xy'[i % 2]}\n" for i in range(60)))
         .encode(), "read", ("--rows", "60", "--psi", "8", "--t", "30", "--checks", "tsne")),
        ("empty.csv", b"", "refuse", ()),
        ("header_only.csv", b"a,b,c\n", "refuse", ()),
        ("binary.csv", bytes(range(256)) * 40, "refuse", ()),
        ("gzip.csv", b"\x1f\x8b\x08\x00" + b"\0" * 100, "refuse", ()),
        ("old.xls", b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\0" * 600, "refuse", ()),
        ("truncated.xlsx", _xlsx([["a", "b"], [1, 2]])[:300], "refuse", ()),
        ("truncated.parquet", _parquet(pd.DataFrame({"a": np.arange(100.0)}))[:-20], "refuse", ()),
        ("forged_footer.parquet", b"PAR1" + b"\0" * 64 + (2**32 - 1).to_bytes(4, "little") + b"PAR1",
         "refuse", ()),
        ("utf16.csv", small.encode("utf-16"), "read", fast),
        ("cp1252.csv", ("nämé,b,label\n" + "".join(f"{i},{i % 3},{'xy'[i % 2]}\n" for i in range(60)))
         .encode("cp1252"), "read", fast),
        ("huge_numbers.csv", ("a,b,label\n" + "".join(f"1e400,{'9' * 400},{'xy'[i % 2]}\n" for i in range(40)))
         .encode(), "refuse", fast),
        ("duplicate_names.csv", b"a,a,label\n1,2,x\n3,4,y\n", "refuse", ()),
        ("ragged.csv", ("a,b,label\n" + "1,2,x\n" * 30 + "1,2,3,4,5\n" + "1,2,y\n" * 30).encode(), "refuse", ()),
        ("quote.csv", ('a,b,label\n"1,2,x\n' + "1,2,y\n" * 40).encode(), "either", fast),
        ("stray_value.csv", ("a,b,label\n" + "".join(
            f"{'oops' if i == 500 else i},{i % 7},{'xy'[i % 2]}\n" for i in range(600))).encode(), "read", fast),
        ("all_missing.csv", ("a,b,label\n" + "".join(f",{i},{'xy'[i % 2]}\n" for i in range(40))).encode(),
         "either", fast),
        ("nul_cells.csv", ("a,b,label\n" + "".join(f"1\0,2,{'xy'[i % 2]}\n" for i in range(40))).encode(),
         "either", fast),
        ("dates.xlsx", _xlsx([["when", "v", "label"]] + [[f"2024-01-{1 + i % 28:02d}", i, "xy"[i % 2]]
                                                         for i in range(40)]), "either", fast),
        ("two_sheets_empty.xlsx", _xlsx([]), "refuse", ()),
        ("nan_inf.parquet", _parquet(pd.DataFrame({"a": [np.nan, np.inf, -np.inf, 1.0] * 10,
                                                   "label": list("xy") * 20})), "either", fast),
        ("strings.parquet", _parquet(pd.DataFrame({"a": ["=cmd"] * 40, "b": list(range(40)),
                                                   "label": list("xy") * 20})), "either", fast),
    ]
    return out


def _largest(np, pd) -> list[tuple[str, Path, str, tuple]]:
    """Valid files just under 10 MB at the bounds the reader allows (made once, cached)."""
    def wide_csv():
        head = ",".join(f"c{j}" for j in range(9_999)) + ",label\n"
        return (head + "".join(",".join(str((i * j) % 10) for j in range(9_999)) + f",{'ab'[i % 2]}\n"
                               for i in range(440))).encode()      # 8.9 MB, 10,000 columns

    from ikviz._limits import MAX_DENSE_BYTES

    def long_parquet():
        n = MAX_DENSE_BYTES // 16 - 16                             # 2 columns: the limit as float64 (96 MB: 12 M cells)
        return _parquet(pd.DataFrame({"a": (np.arange(n) % 3).astype(np.int8),
                                      "label": (np.arange(n) % 2).astype(np.int8)}), row_group_size=4_000_000)

    def cells_xlsx():
        from openpyxl import Workbook
        book = Workbook(write_only=True)
        sheet = book.create_sheet()
        sheet.append([f"c{j}" for j in range(99)] + ["label"])
        for i in range(19_000):                                    # 1.9 M cells, under the 2 M limit
            sheet.append([(i * j) % 10 for j in range(99)] + ["ab"[i % 2]])
        out = io.BytesIO()
        book.save(out)
        return out.getvalue()

    return [("largest: wide.csv (10,000 columns)", _cached("wide.csv", wide_csv), "either", ()),
            (f"largest: long.parquet ({MAX_DENSE_BYTES // 8 / 2**20:.0f} Mi cells)",
             _cached(f"long{MAX_DENSE_BYTES // 8 // 2**20}m.parquet", long_parquet), "either", ()),
            ("largest: cells.xlsx (1.9 M cells)", _cached("cells.xlsx", cells_xlsx), "either", ())]


def _check_case(path: Path, expect: str, extra: tuple, name: str | None = None):
    """``ikviz check`` on ``path``: one line, exit 2, no traceback, for a refusal; exit 0 for a valid file."""
    import contextlib

    from ikviz.cli import main

    err = io.StringIO()
    out_html = path.parent / (path.name + ".html")
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        rc = main(["check", str(path), "--out", str(out_html), *extra])
    text = err.getvalue()
    if "Traceback" in text:
        return _crash(f"traceback: {text[-300:]}")
    lines = [ln for ln in text.splitlines() if ln.startswith("ikviz check:")]
    if rc == 0:
        if expect == "refuse":
            return _wrong("accepted (should be refused)")
        html = out_html.read_text(encoding="utf-8", errors="replace")
        if re.search(r"<img[^>]+HOST|<a[^>]+href=\"http://HOST", html):
            return _wrong("a name from the data became an image or a link in the report")
        return _ok()
    if expect == "read":
        return _wrong(f"a valid file refused (exit {rc}): {text.strip()[-200:]}")
    if rc == 2 and len(lines) == 1 and len(lines[0]) > 20:
        if name and expect == "refuse" and name not in lines[0] and "path" not in lines[0]:
            return _ok(lines[0][:100])     # a clear message (not every refusal needs the file name)
        return _ok(lines[0][:100])
    return _wrong(f"exit {rc}, message {text[-200:]!r}")


#: refused by ``ikviz check`` (nothing to compare) but tables the upload reads, saying so in its notes (constant
#: columns; numbers beyond float64 "treated as missing" and imputed as the user chose)
READ_BY_UPLOAD = {"constant.csv", "huge_numbers.csv"}


def _upload_case(raw: bytes, name: str, expect: str):
    """``ikviz.data.upload``: inspect the file, then read it as the page does."""
    from ikviz.data import upload

    try:
        info = upload.inspect_file(raw, name)
        data = upload.read_table(raw, info.label_guess, "median", filename=name)
    except (ValueError, TypeError) as exc:
        return _ok(str(exc)[:100]) if str(exc).strip() else _wrong("empty message")
    if expect == "refuse" and name not in READ_BY_UPLOAD:
        return _wrong("accepted (should be refused)")
    import numpy as np
    X = np.asarray(data.X)
    if X.size and not np.isfinite(X).all():
        return _wrong("non-finite values reached the feature matrix")
    return _ok()


def files_cases(opts):
    import numpy as np
    import pandas as pd

    folder = Path(tempfile.mkdtemp(prefix="ikviz-attack-"))
    cases = []
    for name, raw, expect, extra in _crafted(np, pd):
        if name == "rows300m.parquet":
            path = _cached(name, lambda: _parquet(pd.DataFrame({"a": np.zeros(300_000_000, dtype=np.int8)}),
                                                  row_group_size=50_000_000))
            raw = None
        else:
            path = folder / name
            path.write_bytes(raw)
        cases.append((f"check {name}", lambda p=path, e=expect, x=extra, n=name: _check_case(p, e, x, n)))
        cases.append((f"upload {name}", lambda p=path, e=expect, n=name: _upload_case(p.read_bytes(), n, e)))
    for label, raw_path in (("long path", "x" * 4996 + ".csv"), ("NUL in the path", "a\0b.csv"),
                            ("a folder", str(folder)), ("missing file", str(folder / "nothing.csv"))):
        cases.append((f"check {label}", lambda p=raw_path: _check_case(Path(p), "refuse", ())))
    if opts.big:
        for label, path, expect, extra in _largest(np, pd):
            cases.append((f"check {label}", lambda p=path, e=expect, x=extra: _check_case(p, e, x)))
    return cases


# ---------------------------------------------------------------------------------------------- links
GARBAGE = ["", " ", "nan", "NaN", "inf", "-inf", "1e999", "-1e999", "1e-999", "0", "-0", "-1", "2**64",
           "9" * 400, "0x10", "1_000", "١٢", "½", "banana", "True", "[1, 2]", "{}", "None", "\x00", "a\x00b",
           "%00", "%ZZ", "../../etc/passwd", "<script>alert(1)</script>", "![r](http://HOST/x.png)",
           "[click](http://HOST)", "=cmd|' /C calc'!A0", "x" * 10_000, "16.0000000001", "1.6e1", "ψ", "\u202e"]


def _garbage_values(opts):
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    drawn = []

    @settings(max_examples=10 if opts.quick else 30, derandomize=True, database=None, deadline=None,
              suppress_health_check=list(HealthCheck))
    @given(st.one_of(st.text(max_size=12), st.floats().map(repr), st.integers().map(str)))
    def collect(v):
        drawn.append(v)

    collect()
    return GARBAGE + drawn


def _link_case(cls, setting_name: str, raw: str):
    import math

    from ikviz.params import from_query, settings

    spec = next(s for s in settings(cls) if s.name == setting_name)
    try:
        params, notes = from_query(cls, {spec.url: raw})
    except Exception as exc:  # noqa: BLE001 - the parser must never raise
        return _crash(f"{type(exc).__name__}: {exc}")
    value = getattr(params, spec.name)
    if spec.choices is not None and value not in spec.choices:
        return _wrong(f"{spec.url}={raw[:30]!r} gave {value!r}, not one of the choices")
    if isinstance(value, float) and not math.isfinite(value):
        return _wrong(f"{spec.url}={raw[:30]!r} gave {value!r}")
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        if (spec.low is not None and value < spec.low) or (spec.high is not None and value > spec.high):
            return _wrong(f"{spec.url}={raw[:30]!r} gave {value!r}, outside [{spec.low}, {spec.high}]")
    if any("http://HOST" in n and "`" not in n for n in notes):
        return _wrong("a link's value reached a notice as Markdown")
    return _ok()


def _app_case(page: str, query: dict):
    sys.path.insert(0, str(ROOT / "tests"))
    from apptest import open_page

    try:
        at = open_page(page, timeout=240, **query)
    except AssertionError as exc:
        return _crash(f"the page raised: {str(exc)[:200]}")
    shown = " ".join(str(getattr(e, "value", "")) for e in list(at.markdown) + list(at.warning) + list(at.info))
    if "![r](http://HOST" in shown and "`![r](http://HOST" not in shown:
        return _wrong("a link's value was shown as Markdown")
    return _ok()


def links_cases(opts):
    from ikviz.params import settings
    from ikviz.views import PAGES, page

    values = _garbage_values(opts)
    cases, seen = [], set()
    for path in PAGES:
        for view in page(path).views:
            if view.params in seen:
                continue
            seen.add(view.params)
            for spec in settings(view.params):
                for raw in values:
                    cases.append((f"from_query {path}:{view.params.__name__}.{spec.url}={raw[:20]!r}",
                                  lambda c=view.params, n=spec.name, r=raw: _link_case(c, n, r)))
    if opts.app:
        bad = {"psi": "1e999", "t": "nan", "dataset": "../../etc/passwd", "seed": "-1", "section": "%00",
               "kernel": "![r](http://HOST/x.png)"}
        for name in ("kernel_shapes", "tsne", "clustering"):     # app/views/<name>.py
            cases.append((f"AppTest {name} with a garbage link", lambda n=name: _app_case(n, bad),
                          max(opts.timeout, 300.0)))   # a page's first run loads numba's compiled code
    return cases


# ---------------------------------------------------------------------------------------------- dask
def dask_run(opts) -> list[tuple[str, str, str, float, int]]:
    """tests/test_scale_safety.py in one pytest process: each test a case (its peak is the process's)."""
    import xml.etree.ElementTree as ET

    report = Path(tempfile.mkdtemp(prefix="ikviz-attack-dask-")) / "junit.xml"
    args = ["-q", "-p", "no:cacheprovider", "-m", "not slow", f"--junitxml={report}",
            str(ROOT / "tests" / "test_scale_safety.py")]
    code = ("import sys, pytest; rc = pytest.main(sys.argv[1:]); "
            "print('PEAK', [int(l.split()[1]) for l in open('/proc/self/status') if l.startswith('VmHWM')][0]); "
            "sys.exit(rc)")
    try:
        proc = subprocess.run([sys.executable, "-c", code, *args], cwd=ROOT, capture_output=True, text=True,
                              timeout=max(600, 20 * opts.timeout))
    except subprocess.TimeoutExpired:
        return [("dask: pytest run", "hang", "the fault suite did not finish", 0.0, 0)]
    found = re.findall(r"^PEAK (\d+)$", proc.stdout, flags=re.M)
    peak = int(found[-1]) if found else 0
    if not report.exists():
        return [("dask: pytest run", "crash", proc.stdout[-300:], 0.0, peak)]
    rows = []
    for case in ET.parse(report).getroot().iter("testcase"):
        name = f"dask: {case.get('name')}"
        seconds = float(case.get("time", 0))
        failure = case.find("failure")
        error = case.find("error")
        skipped = case.find("skipped")
        if skipped is not None:
            continue
        if failure is not None:
            text = failure.get("message", "")
            kind = "hang" if "Timeout" in text or "timed out" in text else "wrong"
            rows.append((name, kind, text[:200], seconds, peak))
        elif error is not None:
            rows.append((name, "crash", error.get("message", "")[:200], seconds, peak))
        else:
            rows.append((name, "clear", "", seconds, peak))
    return rows


# ---------------------------------------------------------------------------------------------- running
SURFACES = {"api": api_cases, "files": files_cases, "links": links_cases}


def _worker(surface: str, start: int, conn, opts) -> None:
    warnings.simplefilter("ignore")
    os.environ.setdefault("IKVIZ_DATA_ROOT", "")
    try:
        cases = SURFACES[surface](opts)
    except BaseException:  # noqa: BLE001
        conn.send(("setup-failed", traceback.format_exc()[-2000:]))
        return
    conn.send(("n", len(cases)))
    for i in range(start, len(cases)):
        name, fn, *limit = cases[i]
        conn.send(("start", i, name, limit[0] if limit else opts.timeout))
        _reset_peak()
        clock = time.process_time if getattr(opts, "cpu", False) else time.perf_counter
        t0 = clock()
        try:
            kind, text = fn()
        except BaseException as exc:  # noqa: BLE001 - every escape is a finding
            kind, text = "crash", f"raw {type(exc).__name__}: {str(exc)[:200]}"
        spent = clock() - t0
        conn.send(("done", i, name, kind, text, spent, _peak_kb()))
    conn.send(("end",))


#: with ``--cpu``, a case is also stopped after this many times ``--timeout`` of wall-clock time
WALL_FACTOR = 10


def _cpu_seconds(pid: int) -> float:
    """CPU seconds (user + system, every thread) process ``pid`` has used (Linux; 0 elsewhere)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return 0.0


def run_surface(surface: str, opts) -> list[tuple[str, str, str, float, int]]:
    """Every case of ``surface`` in a child process; a dead or stuck child is replaced after its case."""
    ctx = mp.get_context("fork")
    by_cpu = getattr(opts, "cpu", False)
    rows: list = []
    start, n = 0, None
    while n is None or start < n:
        here, there = ctx.Pipe()
        proc = ctx.Process(target=_worker, args=(surface, start, there, opts), daemon=True)
        proc.start()
        current, began, deadline = None, time.time(), time.time() + 900   # set-up (imports, files): 15 min
        while True:
            if here.poll(0.2):
                msg = here.recv()
                if msg[0] == "setup-failed":
                    print(msg[1], file=sys.stderr)
                    rows.append((f"{surface}: set-up", "crash", msg[1][-200:], 0.0, 0))
                    proc.kill()
                    return rows
                if msg[0] == "n":
                    n = msg[1]
                elif msg[0] == "start":
                    current, began = msg[1:3], time.time()
                    deadline = began + msg[3] * (WALL_FACTOR if by_cpu else 1)
                    cpu_began, cpu_limit = _cpu_seconds(proc.pid), msg[3]
                elif msg[0] == "done":
                    rows.append(tuple(msg[2:]))
                    current = None
                    start = msg[1] + 1
                    if opts.verbose and msg[3] != "clear":
                        print(f"  {msg[3]:6} {msg[2]}: {msg[4]}", flush=True)
                elif msg[0] == "end":
                    proc.join(5)
                    return rows
            elif (not proc.is_alive() or time.time() > deadline
                  or (by_cpu and current is not None and _cpu_seconds(proc.pid) - cpu_began > cpu_limit)):
                hung = proc.is_alive()
                proc.kill()
                proc.join(5)
                if current is None:
                    rows.append((f"{surface}: set-up", "hang" if hung else "crash", "", time.time() - began, 0))
                    return rows
                kind = "hang" if hung else "crash"
                text = (f"past {time.time() - began:.0f} s" + (" (CPU bound)" if by_cpu else "") if hung
                        else f"the process died (exit {proc.exitcode})")
                rows.append((current[1], kind, text, time.time() - began, 0))
                if opts.verbose:
                    print(f"  {kind:6} {current[1]}: {text}", flush=True)
                start = current[0] + 1
                break
    return rows


def table(results: dict, bound_kb: float) -> str:
    head = "| surface | tried | clear | wrong | crash | hang | over memory | peak memory | slowest case |"
    lines = [head, "|---|---:|---:|---:|---:|---:|---:|---:|---|"]
    for surface, rows in results.items():
        counts = {k: 0 for k in KINDS}
        for _, kind, _, _, peak in rows:
            counts[kind] += 1
        over = sum(1 for _, kind, _, _, peak in rows if peak > bound_kb and kind != "hang")
        peak = max((r[4] for r in rows), default=0)
        slow = max(rows, key=lambda r: r[3], default=("-", "", "", 0.0, 0))
        lines.append(f"| {surface} | {len(rows):,} | {counts['clear'] - over:,} | {counts['wrong']:,} | "
                     f"{counts['crash']:,} | {counts['hang']:,} | {over:,} | {peak / 1024**2:.2f} GB | "
                     f"{slow[3]:.1f} s ({slow[0][:50]}) |")
    return "\n".join(lines)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--surface", nargs="+", default=["api", "files", "links", "dask"],
                    choices=["api", "files", "links", "dask"])
    ap.add_argument("--timeout", type=float, default=60.0, help="seconds a case may take (the issue's bound)")
    ap.add_argument("--cpu", action="store_true",
                    help="--timeout bounds a case's CPU seconds, not wall-clock ones (on a machine others load; "
                         f"wall-clock time is still bounded at {WALL_FACTOR} times --timeout)")
    ap.add_argument("--bound-gb", type=float, default=1.5, help="peak memory a case may reach")
    ap.add_argument("--no-big", dest="big", action="store_false", help="leave out the largest files under 10 MB")
    ap.add_argument("--no-app", dest="app", action="store_false", help="leave out the AppTest sample of links")
    ap.add_argument("--quick", action="store_true", help="fewer hypothesis draws")
    ap.add_argument("--json", help="write every case's outcome here")
    ap.add_argument("-v", "--verbose", action="store_true", help="print each finding as it comes")
    opts = ap.parse_args(argv)
    bound_kb = opts.bound_gb * 1024**2
    results, started = {}, time.time()
    for surface in opts.surface:
        t0 = time.time()
        results[surface] = dask_run(opts) if surface == "dask" else run_surface(surface, opts)
        print(f"{surface}: {len(results[surface]):,} cases in {time.time() - t0:.0f} s", file=sys.stderr, flush=True)
    print(f"Issue 31's attack campaign ({time.time() - started:.0f} s; case time bound {opts.timeout:.0f} "
          f"{'CPU ' if opts.cpu else ''}s, "
          f"memory bound {opts.bound_gb} GB; `python benchmarks/attack.py {' '.join(argv or sys.argv[1:])}`)\n")
    print(table(results, bound_kb))
    findings = [(s, r) for s, rows in results.items() for r in rows
                if r[1] != "clear" or (r[4] > bound_kb and r[1] != "hang")]
    if findings:
        print("\nFindings:")
        for surface, (name, kind, text, seconds, peak) in findings:
            kind = kind if kind != "clear" else "memory"
            print(f"- [{surface}] {kind}: {name} ({seconds:.1f} s, {peak / 1024**2:.2f} GB) {text[:160]}")
    if opts.json:
        Path(opts.json).write_text(json.dumps({s: [list(r) for r in rows] for s, rows in results.items()},
                                              indent=1))
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
