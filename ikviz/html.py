"""Standalone HTML reports: a title, paragraphs, Plotly figures (plotly.js included once) and tables.

One self-contained file a user can keep, mail or open offline: plotly.js is
written inline once, before the first figure, and every later figure reuses
it. Text is escaped; tables come from a dict of columns, a list of row dicts
or a pandas DataFrame.

Examples
--------
>>> import plotly.graph_objects as go
>>> from ikviz.html import Section, report_html
>>> page = report_html("My check", "What was run.", [
...     Section("Numbers", "Accuracy per model.", tables=[{"model": ["IK", "RBF"], "accuracy": [0.9, 0.8]}]),
...     Section("Figures", figures=[go.Figure(go.Scatter(y=[1, 2])), go.Figure(go.Bar(y=[3]))])],
...     meta={"seed": 0})
>>> page.startswith("<!DOCTYPE html>"), page.count("<table"), page.count("var Plotly=") + page.count("* plotly.js v")
(True, 2, 1)
"""

from __future__ import annotations

import html
from dataclasses import dataclass, field
from pathlib import Path
from typing import NamedTuple

__all__ = ["Link", "Section", "escape", "literal_markdown", "report_html", "table_html", "write_report"]

#: Plotly's partial bundle with the trace types ikviz draws (built by app/plotly-bundle), used when present
PLOTLY_BUNDLE = Path(__file__).resolve().parent.parent / "app" / "static" / "plotly-ikviz.min.js"
#: the trace types that bundle registers (app/plotly-bundle/entry.js); a report with another type gets all of Plotly
BUNDLE_TRACES = frozenset({"scatter", "scattergl", "bar", "box", "contour", "heatmap", "histogram"})

_STYLE = """
body{font-family:system-ui,-apple-system,'Segoe UI',sans-serif;max-width:1100px;margin:2em auto;padding:0 1em;
color:#222;line-height:1.45}
h1{font-size:1.7em;margin-bottom:.2em}h2{font-size:1.3em;margin-top:1.8em;border-bottom:1px solid #ddd}
table{border-collapse:collapse;margin:.6em 0;font-size:.92em}
th,td{border:1px solid #ccc;padding:.25em .6em;text-align:left}th{background:#f3f3f3}
td.num{text-align:right;font-variant-numeric:tabular-nums}
.meta td:first-child{font-weight:600}.note{color:#555;font-size:.92em}
"""


def escape(text) -> str:
    """``text`` as HTML text (``&``, ``<``, ``>`` and quotes escaped).

    Examples
    --------
    >>> from ikviz.html import escape
    >>> escape("a < b & 'c'")
    'a &lt; b &amp; &#x27;c&#x27;'
    """
    return html.escape(str(text), quote=True)


_MARKDOWN_SPECIAL = set("\\`*_{}[]()<>#+-.!|~$:&")


def literal_markdown(text) -> str:
    r"""``text`` (a column name, a cell, a message quoting them) shown literally where Markdown is rendered.

    Every Markdown and HTML character is backslash-escaped, so a column named
    ``![r](http://HOST/x.png)`` is shown as written and fetches nothing.

    Examples
    --------
    >>> from ikviz.html import literal_markdown
    >>> print(literal_markdown("![r](http://h/x.png) **b**"))
    \!\[r\]\(http\://h/x\.png\) \*\*b\*\*
    """
    return "".join("\\" + ch if ch in _MARKDOWN_SPECIAL else ch for ch in str(text))


class Link(NamedTuple):
    """A table cell that links to ``href`` (e.g. a reproduction's figure page beside the report)."""

    text: str
    href: str


def _columns(table) -> dict[str, list]:
    """A table (dict of columns, list of row dicts, or DataFrame) as a dict of equal-length columns."""
    if hasattr(table, "to_dict") and hasattr(table, "columns"):   # pandas DataFrame
        return {str(c): list(table[c]) for c in table.columns}
    if isinstance(table, dict):
        return {str(k): list(v) for k, v in table.items()}
    rows = list(table)
    names = list(dict.fromkeys(k for r in rows for k in r))
    return {str(k): [r.get(k, "") for r in rows] for k in names}


def _cell(value) -> tuple[str, bool]:
    if isinstance(value, bool) or value is None:
        return ("–" if value is None else str(value)), False
    if isinstance(value, int):
        return f"{value:,}", True
    if isinstance(value, float):
        return f"{value:.4g}", True
    try:                                  # NumPy scalars
        import numpy as np

        if isinstance(value, np.integer):
            return f"{int(value):,}", True
        if isinstance(value, np.floating):
            return f"{float(value):.4g}", True
    except ImportError:                   # pragma: no cover
        pass
    return str(value), False


def table_html(table, caption: str | None = None, css_class: str = "") -> str:
    """An HTML ``<table>`` of ``table`` (dict of columns, list of row dicts, or DataFrame), numbers right-aligned.

    Examples
    --------
    >>> from ikviz.html import Link, table_html
    >>> print(table_html({"model": ["IK"], "accuracy": [0.91234]}))
    <table><thead><tr><th>model</th><th>accuracy</th></tr></thead><tbody><tr><td>IK</td><td class="num">0.9123</td></tr></tbody></table>
    >>> print(table_html([{"figure": Link("IK", "ik.html")}]))
    <table><thead><tr><th>figure</th></tr></thead><tbody><tr><td><a href="ik.html">IK</a></td></tr></tbody></table>
    """
    cols = _columns(table)
    n = max((len(v) for v in cols.values()), default=0)
    head = "".join(f"<th>{escape(k)}</th>" for k in cols)
    body = []
    for i in range(n):
        cells = []
        for values in cols.values():
            value = values[i] if i < len(values) else ""
            if isinstance(value, Link):
                cells.append(f"<td><a href=\"{escape(value.href)}\">{escape(value.text)}</a></td>")
                continue
            text, num = _cell(value)
            cells.append(f"<td class=\"num\">{escape(text)}</td>" if num else f"<td>{escape(text)}</td>")
        body.append("<tr>" + "".join(cells) + "</tr>")
    cls = f' class="{escape(css_class)}"' if css_class else ""
    cap = f"<caption>{escape(caption)}</caption>" if caption else ""
    return f"<table{cls}>{cap}<thead><tr>{head}</tr></thead><tbody>{''.join(body)}</tbody></table>"


@dataclass
class Section:
    """One part of a report: a heading, a paragraph (or several, split on blank lines), figures, tables.

    ``notes`` are short lines shown in a smaller font after the tables (the
    settings, the sample size).
    """

    heading: str
    text: str = ""
    figures: list = field(default_factory=list)    # Plotly figures
    tables: list = field(default_factory=list)     # dicts of columns, lists of row dicts, DataFrames
    notes: list = field(default_factory=list)      # str


def _inline(text: str) -> str:
    """Escaped text with ``**bold**`` as <strong> (the only inline Markdown the reports write)."""
    import re

    return re.sub(r"\*\*(.+?)\*\*", r"<strong>\1</strong>", escape(text))


def _paragraphs(text: str, css_class: str = "") -> str:
    r"""Paragraphs split on blank lines; lines starting with "- " become a list, "### " a heading.

    Examples
    --------
    >>> from ikviz.html import _paragraphs
    >>> _paragraphs("Two checks:\n- **IK** 0.9\n- GK 0.8")
    '<p>Two checks:</p><ul><li><strong>IK</strong> 0.9</li><li>GK 0.8</li></ul>'
    """
    cls = f' class="{css_class}"' if css_class else ""
    out = []
    for block in str(text).split("\n\n"):
        items, lines = [], []
        for line in block.strip().splitlines():
            line = line.strip()
            if line.startswith("- "):
                if lines:
                    out.append(f"<p{cls}>{_inline(' '.join(lines))}</p>")
                    lines = []
                items.append(f"<li>{_inline(line[2:])}</li>")
                continue
            if items:
                out.append(f"<ul>{''.join(items)}</ul>")
                items = []
            if line.startswith("### "):
                out.append(f"<h3>{_inline(line[4:])}</h3>")
            elif line:
                lines.append(line)
        if lines:
            out.append(f"<p{cls}>{_inline(' '.join(lines))}</p>")
        if items:
            out.append(f"<ul>{''.join(items)}</ul>")
    return "".join(out)


def _meta_html(meta: dict) -> str:
    """The report's facts (data, fingerprint, version) as a two-column table without a header row."""
    rows = "".join(f"<tr><th scope=\"row\">{escape(k)}</th><td>{escape(v)}</td></tr>" for k, v in meta.items())
    return f"<table class=\"meta\"><tbody>{rows}</tbody></table>"


def _plotly_script(plotlyjs, traces=frozenset()) -> str:
    """The one <script> that loads Plotly: the partial bundle when present and it draws every trace type in
    ``traces`` (1.7 MB), else plotly.py's (4.6 MB); ``"cdn"``: a link to plotly.js of plotly.py's version."""
    if plotlyjs == "cdn":
        from plotly.offline import get_plotlyjs_version

        return f'<script src="https://cdn.plot.ly/plotly-{get_plotlyjs_version()}.min.js" charset="utf-8"></script>'
    if PLOTLY_BUNDLE.is_file() and set(traces) <= BUNDLE_TRACES:
        code = PLOTLY_BUNDLE.read_text(encoding="utf-8")
    else:
        from plotly.offline import get_plotlyjs

        code = get_plotlyjs()
    code = code.replace("</script", "<\\/script")
    return '<script type="text/javascript">' + code + "</script>"


def report_html(title: str, intro: str = "", sections=(), meta: dict | None = None,
                plotlyjs: bool | str = True) -> str:
    """A standalone HTML page: ``title``, ``intro``, a table of ``meta``, then each :class:`Section`.

    plotly.js is included once, with the first figure (``plotlyjs=True``
    inline, so the file works offline; ``"cdn"`` for a small file that loads
    it from the web).
    """
    parts = [f"<h1>{escape(title)}</h1>", _paragraphs(intro)]
    if meta:
        parts.append(_meta_html(meta))
    include = bool(plotlyjs)
    traces = {trace.type for section in sections for fig in section.figures for trace in fig.data}
    for section in sections:
        parts.append(f"<h2>{escape(section.heading)}</h2>")
        parts.append(_paragraphs(section.text))
        for fig in section.figures:
            if include:
                parts.append(_plotly_script(plotlyjs, traces))
                include = False
            parts.append(fig.to_html(full_html=False, include_plotlyjs=False))
        parts.extend(table_html(t) for t in section.tables)
        parts.extend(f"<p class=\"note\">{escape(n)}</p>" for n in section.notes)
    return ("<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\">"
            f"<title>{escape(title)}</title><style>{_STYLE}</style></head><body>{''.join(parts)}</body></html>")


def write_report(path: str | Path, title: str, intro: str = "", sections=(), meta: dict | None = None,
                 plotlyjs: bool | str = True) -> Path:
    """Write :func:`report_html` to ``path`` (UTF-8, parent folders created); return the path.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> from ikviz.html import Section, write_report
    >>> out = write_report(pathlib.Path(tempfile.mkdtemp()) / "r.html", "T", sections=[Section("S", "x")])
    >>> "<h2>S</h2>" in out.read_text()
    True
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(report_html(title, intro, sections, meta, plotlyjs), encoding="utf-8")
    return path
