"""Take a figure's numbers and the code behind it out of the app: tables, CSV, JSON, a Python snippet.

Every figure of the app is a Plotly figure built from a result that a run
function computed from a params object (see :mod:`ikviz.runner`). This module
turns the figure into the table of numbers it draws (:func:`figure_table`,
:func:`figure_csv`, :func:`figure_json`) and the run into a short script
that recomputes the result with the ikviz package alone
(:func:`python_snippet`). Nothing here imports Streamlit.
"""

from __future__ import annotations

import dataclasses
import enum
import importlib
import json
import re
from collections.abc import Callable

import numpy as np
import pandas as pd

__all__ = ["csv_cell", "figure_csv", "figure_json", "figure_table", "figure_title", "notebook", "python_script",
           "python_snippet"]

#: per-point attributes copied into the table when a trace has one value per point
_POINT_FIELDS = ("z", "text", "hovertext", "customdata")
#: traces whose z is a grid over x and y
_GRID_TYPES = {"heatmap", "contour", "heatmapgl", "histogram2d", "histogram2dcontour", "surface"}


_SCALARS = (str, bytes, int, float, complex, bool, np.generic)


def _values(value) -> np.ndarray | None:
    """``value`` as a NumPy array (strings as objects), or None when absent or a scalar."""
    if value is None or isinstance(value, _SCALARS):
        return None
    try:
        array = np.asarray(value)
    except ValueError:  # ragged, e.g. customdata with a different length per point
        array = np.empty(len(value), dtype=object)
        array[:] = list(value)
    if array.dtype.kind in "US":  # strings, or numbers mixed with strings: keep each value's own type
        try:
            array = np.array(value, dtype=object)
        except ValueError:
            array = array.astype(object)
    return None if array.ndim == 0 else array


def _trace_name(trace, index: int) -> str:
    name = getattr(trace, "name", None)
    return str(name) if name not in (None, "") else f"trace {index}"


def _grid_rows(trace, name: str) -> pd.DataFrame:
    """A heatmap or contour trace flattened to one row per cell: x, y, z."""
    z = np.asarray(trace.z, dtype=float)
    if z.ndim != 2:
        z = np.atleast_2d(z)
    ny, nx = z.shape
    x, y = _values(trace.x), _values(trace.y)
    if x is not None and x.shape == z.shape and y is not None and y.shape == z.shape:
        xs, ys = x.ravel(), y.ravel()
    else:
        x = np.arange(nx) if x is None or x.size != nx else x.ravel()
        y = np.arange(ny) if y is None or y.size != ny else y.ravel()
        xs, ys = np.tile(x, ny), np.repeat(y, nx)  # z[j, i] lies at (x[i], y[j])
    return pd.DataFrame({"trace": name, "x": xs, "y": ys, "z": z.ravel()})


def _point_rows(trace, name: str) -> pd.DataFrame | None:
    """A point trace (scatter, bar, line...) as one row per point; None if it holds no points."""
    x, y = _values(getattr(trace, "x", None)), _values(getattr(trace, "y", None))
    n = max((a.shape[0] for a in (x, y) if a is not None), default=0)
    if n == 0:
        return None
    columns = {"trace": [name] * n}
    for axis, values in (("x", x), ("y", y)):
        if values is None:  # Plotly draws a missing axis as 0, 1, 2, ...
            columns[axis] = np.arange(n)
        elif values.shape[0] == n:
            columns[axis] = values.ravel() if values.ndim == 1 else list(values)
    for field in _POINT_FIELDS:
        values = _values(getattr(trace, field, None))
        if values is None or values.shape[0] != n:
            continue
        if values.ndim == 2:  # customdata with several values per point: one column each
            for j in range(values.shape[1]):
                columns[f"{field}_{j}"] = values[:, j]
        elif values.ndim == 1:
            columns[field] = values
    return pd.DataFrame(columns)


def _trace_rows(trace, index: int) -> pd.DataFrame | None:
    name = _trace_name(trace, index)
    z = getattr(trace, "z", None)
    if trace.type in _GRID_TYPES and z is not None and np.ndim(z) == 2:
        return _grid_rows(trace, name)
    return _point_rows(trace, name)


def figure_table(fig) -> pd.DataFrame:
    """The numbers a Plotly figure draws, in long form: one row per point.

    Point traces (scatter, bar, lines...) give their ``x`` and ``y`` and, where
    the trace has one per point, ``z``, ``text``, ``hovertext`` and
    ``customdata`` (one column ``customdata_j`` per value when each point has
    several). Heatmaps and contours are flattened to one row per cell, ``x``,
    ``y``, ``z``. The column ``trace`` names the trace (its legend name, else
    ``trace i``); an animation's frames add a column ``frame``. Annotations and
    shapes are not data and are left out.

    Parameters
    ----------
    fig : plotly.graph_objects.Figure
        Any figure (or a ``dict`` Plotly accepts).

    Returns
    -------
    pandas.DataFrame
        Columns ``trace``, ``x``, ``y`` and whichever of the others occur.

    Examples
    --------
    >>> import plotly.graph_objects as go
    >>> fig = go.Figure([go.Scatter(x=[0, 1], y=[2.5, 3.5], name="IK"),
    ...                  go.Bar(x=["a", "b"], y=[1, 2], name="counts")])
    >>> figure_table(fig)
        trace  x    y
    0      IK  0  2.5
    1      IK  1  3.5
    2  counts  a  1.0
    3  counts  b  2.0
    >>> heat = go.Figure(go.Heatmap(x=[0, 1, 2], y=[10, 20], z=[[1, 2, 3], [4, 5, 6]]))
    >>> figure_table(heat).tail(2)
         trace  x   y    z
    4  trace 0  1  20  5.0
    5  trace 0  2  20  6.0
    """
    import plotly.graph_objects as go

    if not isinstance(fig, go.Figure):
        fig = go.Figure(fig)
    parts = [rows for i, trace in enumerate(fig.data) if (rows := _trace_rows(trace, i)) is not None]
    if fig.frames:
        for f, frame in enumerate(fig.frames):
            label = frame.name if frame.name not in (None, "") else str(f)
            for i, trace in enumerate(frame.data or ()):
                rows = _trace_rows(trace, i)
                if rows is not None:
                    parts.append(rows.assign(frame=label))
    if not parts:
        return pd.DataFrame(columns=["trace", "x", "y"])
    table = pd.concat(parts, ignore_index=True, sort=False)
    first = ["trace", "frame", "x", "y", "z"]
    order = [c for c in first if c in table.columns] + [c for c in table.columns if c not in first]
    return table[order]


def figure_title(fig) -> str:
    """The figure's title as plain text (HTML tags such as ``<br>`` and ``<sub>`` turned into spaces).

    Examples
    --------
    >>> import plotly.graph_objects as go
    >>> figure_title(go.Figure(layout={"title": {"text": "true classes<br><sub>AMI</sub>"}}))
    'true classes AMI'
    >>> figure_title(go.Figure())
    ''
    """
    import plotly.graph_objects as go

    if not isinstance(fig, go.Figure):
        fig = go.Figure(fig)
    text = fig.layout.title.text or ""
    return re.sub(r"\s+", " ", re.sub(r"<[^>]*>", " ", text)).strip()


#: a spreadsheet reads a cell starting with one of these as a formula (OWASP, "CSV injection")
_FORMULA_LEAD = ("=", "+", "-", "@", "\t", "\r")
_NUMBER = re.compile(r"[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?|[+-]?(inf|nan)", re.IGNORECASE)


def csv_cell(value):
    """``value`` safe for a spreadsheet: text that starts like a formula gets a leading ``'``; numbers stay.

    OWASP's rule for CSV injection: a cell beginning with ``=``, ``+``, ``-``,
    ``@``, a tab or a carriage return is prefixed with a single quote, so that
    a spreadsheet shows it as text instead of evaluating it. Numbers, and text
    that is exactly a number (``"-0.5"``), are left as they are.

    Examples
    --------
    >>> csv_cell("=SUM(A1:A9)"), csv_cell("@SUM(A1)"), csv_cell("+cmd")
    ("'=SUM(A1:A9)", "'@SUM(A1)", "'+cmd")
    >>> csv_cell(-0.5), csv_cell("-0.5"), csv_cell("-1+2"), csv_cell("IK")
    (-0.5, '-0.5', "'-1+2", 'IK')
    """
    if isinstance(value, str) and value.startswith(_FORMULA_LEAD) and not _NUMBER.fullmatch(value):
        return "'" + value
    return value


def figure_csv(fig) -> str:
    """:func:`figure_table` as CSV text (comma-separated, a header row, no index), safe to open in a spreadsheet.

    Text cells that a spreadsheet would run as a formula are neutralised
    (:func:`csv_cell`); numbers, negative ones included, are written as they are.

    Examples
    --------
    >>> import plotly.graph_objects as go
    >>> print(figure_csv(go.Figure(go.Scatter(x=[1, 2], y=[0.5, -0.25], name="IK"))), end="")
    trace,x,y
    IK,1,0.5
    IK,2,-0.25
    >>> print(figure_csv(go.Figure(go.Bar(x=["=1+1", "-2"], y=[1, 2], name="@evil"))), end="")
    trace,x,y
    '@evil,'=1+1,1
    '@evil,-2,2
    """
    table = figure_table(fig)
    carriage_return = False
    for column in table.columns:
        if not pd.api.types.is_numeric_dtype(table[column]):
            table[column] = table[column].map(csv_cell)
            carriage_return |= any(isinstance(v, str) and "\r" in v for v in table[column])
    table.columns = [csv_cell(str(c)) for c in table.columns]
    # Python's CSV writer quotes a field holding a character of the line terminator only: with "\n" alone, a
    # bare "\r" in a cell would end the row in a reader. RFC 4180's CRLF then, where a cell holds one
    return table.to_csv(index=False, lineterminator="\r\n" if carriage_return else "\n")


def figure_json(fig) -> str:
    """The figure's title and :func:`figure_table` as JSON: ``{"title": ..., "columns": [...], "rows": [...]}``.

    Each row is an object keyed by column; missing values are ``null``.

    Examples
    --------
    >>> import json, plotly.graph_objects as go
    >>> fig = go.Figure(go.Scatter(x=[1, 2], y=[0.5, None], name="IK"), layout={"title": {"text": "margin"}})
    >>> doc = json.loads(figure_json(fig))
    >>> doc["title"], doc["columns"], doc["rows"][1]
    ('margin', ['trace', 'x', 'y'], {'trace': 'IK', 'x': 2, 'y': None})
    """
    table = figure_table(fig)
    rows = json.loads(table.to_json(orient="records", double_precision=15))
    return json.dumps({"title": figure_title(fig), "columns": list(table.columns), "rows": rows},
                      ensure_ascii=False, indent=1)


# ------------------------------------------------------------------ the code behind a figure
class _Imports:
    """``from module import name`` lines a snippet needs, in first-use order."""

    def __init__(self):
        self.lines: dict[str, None] = {}

    def need(self, obj) -> str:
        module, name = obj.__module__, obj.__qualname__
        if "<" in name or "." in name:
            raise TypeError(f"{obj!r} is not importable by name from a module")
        self.lines[f"from {module} import {name}"] = None
        return name


def _source(value, imports: _Imports, indent: int = 0) -> str:
    """Python source that rebuilds ``value`` (dataclasses field by field; NumPy scalars as Python numbers)."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        name = imports.need(type(value))
        fields = [f for f in dataclasses.fields(value) if f.init]
        pad = " " * (indent + 4)
        inner = [f"{pad}{f.name}={_source(getattr(value, f.name), imports, indent + 4)}," for f in fields]
        return f"{name}(\n" + "\n".join(inner) + f"\n{' ' * indent})" if inner else f"{name}()"
    if isinstance(value, enum.Enum):
        return f"{imports.need(type(value))}.{value.name}"
    if isinstance(value, np.generic):
        return repr(value.item())
    if isinstance(value, np.ndarray):
        imports.lines["import numpy as np"] = None
        return f"np.array({value.tolist()!r}, dtype={str(value.dtype)!r})"
    if isinstance(value, tuple):
        items = [_source(v, imports, indent) for v in value]
        if hasattr(value, "_fields"):  # a namedtuple
            return f"{imports.need(type(value))}({', '.join(items)})"
        return f"({items[0]},)" if len(items) == 1 else f"({', '.join(items)})"
    if isinstance(value, list):
        return f"[{', '.join(_source(v, imports, indent) for v in value)}]"
    if isinstance(value, (set, frozenset)):
        items = ", ".join(_source(v, imports, indent) for v in sorted(value, key=repr))
        if isinstance(value, frozenset):
            return f"frozenset({{{items}}})" if value else "frozenset()"
        return f"{{{items}}}" if value else "set()"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{_source(k, imports)}: {_source(v, imports, indent)}" for k, v in value.items()) + "}"
    if isinstance(value, float) and not np.isfinite(value):
        return f"float({str(value)!r})"
    text = repr(value)
    if isinstance(value, (str, bytes, int, float, complex, bool, type(None))):
        return text
    raise TypeError(f"cannot write {type(value).__name__} {text[:60]} as Python source")


def _importable(fn: Callable) -> None:
    module = importlib.import_module(fn.__module__)
    if getattr(module, fn.__qualname__, None) is not fn:
        raise TypeError(f"{fn.__module__}.{fn.__qualname__} is not {fn!r}: the snippet could not import it")


def python_snippet(fn: Callable, *args, **kwargs) -> str:
    """A runnable script that recomputes ``fn(*args, **kwargs)`` with the ikviz package, outside the app.

    The script imports ``fn`` from its module, rebuilds every argument from
    its values (a params dataclass field by field, so each setting can be
    changed by hand) and calls ``fn``; the result is left in ``result``. One
    dataclass argument is named ``params``, as in every experiment's
    ``run(params)`` (see :mod:`ikviz.runner`).

    Parameters
    ----------
    fn : callable
        A module-level function (an experiment's ``run`` or a building block).
    *args, **kwargs
        Its arguments: numbers, strings, ``None``, tuples, lists, dicts, NumPy
        arrays and dataclasses of these.

    Returns
    -------
    str
        Python source ending in a newline.

    Raises
    ------
    TypeError
        If ``fn`` cannot be imported by its name or an argument cannot be written as source.

    Examples
    --------
    >>> from ikviz.experiments import density
    >>> code = python_snippet(density.run, density.Params(psi=16))
    >>> print(code.splitlines()[0])
    from ikviz.experiments.density import run, Params
    >>> "    psi=16," in code and code.rstrip().endswith("result = run(params)")
    True
    >>> print(python_snippet(abs, -3), end="")
    from builtins import abs
    <BLANKLINE>
    result = abs(-3)
    """
    imports = _Imports()
    body = _call_lines(fn, args, kwargs, imports)
    merged = _merge_imports(imports.lines)
    return "\n".join([*merged, "", *body]) + "\n"


def _call_lines(fn: Callable, args: tuple, kwargs: dict, imports: _Imports) -> list[str]:
    """The lines that rebuild the arguments and call ``fn``, leaving ``result`` (see :func:`python_snippet`)."""
    _importable(fn)
    name = imports.need(fn)
    body = []
    if len(args) == 1 and not kwargs and dataclasses.is_dataclass(args[0]) and not isinstance(args[0], type):
        body.append(f"params = {_source(args[0], imports)}")
        call = f"result = {name}(params)"
    else:
        parts = [_source(a, imports, 4) for a in args] + [f"{k}={_source(v, imports, 4)}" for k, v in kwargs.items()]
        one_line = f"result = {name}({', '.join(parts)})"
        call = one_line if len(one_line) <= 100 else (f"result = {name}(\n" + "".join(f"    {p},\n" for p in parts)
                                                      + ")")
    return [*body, call]


def _merge_imports(lines) -> list[str]:
    """``from m import a`` and ``from m import b`` as ``from m import a, b``, plain imports first."""
    plain = [line for line in lines if line.startswith("import ")]
    names: dict[str, list[str]] = {}
    for line in lines:
        if line.startswith("from "):
            module, name = line[5:].split(" import ")
            names.setdefault(module, []).append(name)
    return plain + [f"from {m} import {', '.join(ns)}" for m, ns in names.items()]


# ------------------------------------------------------------------ the view to take home: a script and a notebook
#: an argument of a figure builder is written out only up to this many characters of source (else it would be a
#: copy of computed numbers, not a recomputation)
_MAX_ARGUMENT_SOURCE = 2_000


def _result_expression(value, result) -> str | None:
    """``result`` or ``result.field`` if ``value`` is the run's result or one of its fields, else None."""
    if value is result:
        return "result"
    if dataclasses.is_dataclass(result) and not isinstance(result, type):
        for f in dataclasses.fields(result):
            if getattr(result, f.name) is value:
                return f"result.{f.name}"
    return None


def _draw_lines(draw, result, imports: _Imports) -> list[str] | None:
    """Lines leaving ``figures`` (a list of Plotly figures) from ``draw``; None if they cannot be written.

    ``draw`` is a builder called on the result, or ``(builder, args, kwargs)``
    whose arguments are the result, a field of it, or small values written as
    source.
    """
    if callable(draw):
        builder, args, kwargs = draw, (), {}
        parts = ["result"]
    else:
        builder, args, kwargs = draw
        parts = None
    try:
        _importable(builder)
        if parts is None:
            parts = []
            for value in [*args, *kwargs.values()]:
                text = _result_expression(value, result) if result is not None else None
                if text is None:
                    text = _source(value, imports, 4)
                    if len(text) > _MAX_ARGUMENT_SOURCE:
                        return None
                parts.append(text)
            parts = [*parts[:len(args)], *[f"{k}={p}" for k, p in zip(kwargs, parts[len(args):])]]
    except TypeError:
        return None
    name = imports.need(builder)
    return [f"drawn = {name}({', '.join(parts)})", "figures = drawn if isinstance(drawn, list) else [drawn]"]


def _view_parts(fn: Callable, args: tuple, kwargs: dict, draw, result) -> tuple[list[str], list[str], list[str]]:
    """Imports, the lines that compute ``result`` and the lines that leave ``figures`` (maybe none)."""
    imports = _Imports()
    compute = _call_lines(fn, args, kwargs, imports)
    drawing = _draw_lines(draw, result, imports) if draw is not None else None
    if drawing is None:
        from .reproduce import entry_for   # a registered reproduction draws its own figures

        entry = entry_for(fn)
        if entry is not None:
            imports.lines["from ikviz.reproduce import get"] = None
            drawing = [f"figures = get({entry.name!r}).figures(result)"]
    return _merge_imports(imports.lines), compute, drawing or ["figures = []  # no figure builder is known for it"]


def _heading(title: str | None, fn: Callable) -> str:
    return " ".join((title or f"{fn.__module__}.{fn.__qualname__}").replace('"', "'").split())


def python_script(fn: Callable, *args, draw=None, title: str | None = None, result=None, **kwargs) -> str:
    """A standalone ``.py`` script that recomputes a view with the ikviz package and draws its figures.

    The script holds :func:`python_snippet`'s lines (the settings, field by
    field, and the call), then builds the figures and, run as a program,
    writes them into one HTML file beside it (``python view.py`` writes
    ``view.html``, Plotly's code inlined so that it opens offline).

    Parameters
    ----------
    fn, *args, **kwargs
        As for :func:`python_snippet`: the run and its arguments.
    draw : callable or tuple, optional
        The figure builder: ``builder`` (called on the result) or
        ``(builder, args, kwargs)``, whose arguments may be the result itself
        or one of its fields (pass ``result`` to recognise them) and small
        values. Without it, or when it cannot be written, the figures of
        ``fn``'s registered reproduction (:mod:`ikviz.reproduce`), if any.
    title : str, optional
        What the view is, for the script's docstring.
    result : object, optional
        The view's computed result, to recognise it among ``draw``'s arguments.

    Returns
    -------
    str
        Python source.

    Examples
    --------
    >>> from ikviz.experiments import kernel_shapes
    >>> from ikviz.plots.kernel_shapes import figures
    >>> code = python_script(kernel_shapes.run, kernel_shapes.Params(n=100, grid=9, t=10), draw=figures,
    ...                      title="Kernel shapes")
    >>> "result = run(params)" in code and "drawn = figures(result)" in code
    True
    >>> scope = {"__name__": "not_main"}
    >>> exec(code, scope)
    >>> len(scope["figures"]) > 1
    True
    """
    imports, compute, drawing = _view_parts(fn, args, kwargs, draw, result)
    return "\n".join([
        f'"""{_heading(title, fn)}: recomputed with the ikviz package, outside the app.',
        "",
        "Run it with ``python THIS_FILE.py``: it computes the view and writes its figures to THIS_FILE.html.",
        "Change any setting below and run it again.",
        '"""',
        "",
        *imports,
        "",
        *compute,
        "",
        *drawing,
        "",
        'if __name__ == "__main__":',
        "    from pathlib import Path",
        "",
        "    import plotly.io as pio",
        "",
        '    page = Path(__file__).with_suffix(".html")',
        "    parts = [pio.to_html(fig, full_html=False, include_plotlyjs=i == 0) for i, fig in enumerate(figures)]",
        '    page.write_text("<html><body>" + "".join(parts) + "</body></html>", encoding="utf-8")',
        '    print(f"{len(figures)} figure(s) written to {page}")',
    ]) + "\n"


def _notebook_cell(kind: str, text: str, index: int) -> dict:
    cell = {"cell_type": kind, "id": f"ikviz-{index}", "metadata": {}, "source": text.splitlines(keepends=True)}
    if kind == "code":
        cell.update(execution_count=None, outputs=[])
    return cell


def notebook(fn: Callable, *args, draw=None, title: str | None = None, result=None, **kwargs) -> str:
    """A Jupyter notebook (nbformat 4 JSON) that recomputes a view and shows its figures, one step per cell.

    Cells: what the view is; the imports and settings; the computation; the
    figures; showing them inline. Arguments as for :func:`python_script`.
    Written by hand (the format is JSON): no dependency on ``nbformat``.

    Returns
    -------
    str
        The ``.ipynb`` file's text.

    Examples
    --------
    >>> import json
    >>> from ikviz.experiments import density
    >>> doc = json.loads(notebook(density.run, density.Params(psi=16), title="Density adaptivity"))
    >>> doc["nbformat"], [c["cell_type"] for c in doc["cells"]]
    (4, ['markdown', 'code', 'code', 'code', 'code'])
    >>> "".join(doc["cells"][2]["source"])
    'result = run(params)'
    """
    imports, compute, drawing = _view_parts(fn, args, kwargs, draw, result)
    settings, call = compute[:-1], compute[-1]
    cells = [
        ("markdown", f"# {_heading(title, fn)}\n\nRecomputed with the ikviz package, outside the app (after "
                     "`pip install -e .` in the ikviz folder). Change a setting in the next cell and run the "
                     "cells again."),
        ("code", "\n".join([*imports, "", *settings]).strip()),
        ("code", call),
        ("code", "\n".join(drawing)),
        ("code", "for fig in figures:\n    fig.show()"),
    ]
    doc = {"cells": [_notebook_cell(kind, text, i) for i, (kind, text) in enumerate(cells)],
           "metadata": {"kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"},
                        "language_info": {"name": "python"}},
           "nbformat": 4, "nbformat_minor": 5}
    return json.dumps(doc, indent=1, ensure_ascii=False) + "\n"
