"""Figures and tables of the your-data checks, and the report that keeps them.

Every figure states the rows it shows (``500 of 6,497 rows``) and uses the
data's own class names; :func:`report` writes every check run on a dataset
into one standalone HTML page (:mod:`ikviz.html`).
"""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from ..experiments.your_data import KERNEL_LABELS
from .style import CLASS_COLOURS, KERNEL_COLOURS, base_layout, scatter_class, wrap

_COLOUR = {"ik": KERNEL_COLOURS["ik_anne"], "gk": KERNEL_COLOURS["rbf"]}
SVM_LABELS = {"ik": "SVM, Isolation Kernel", "ik-linear": "linear SVM on the IK feature map",
              "rbf": "SVM, Gaussian (RBF) kernel", "linear": "SVM, linear kernel"}
RIDGE_LABELS = {"ik": "kernel ridge, Isolation Kernel", "rbf": "kernel ridge, Gaussian (RBF) kernel",
                "linear": "ridge, linear kernel"}


def rows_text(res) -> str:
    """The sample a result was computed on, in words: ``500 of 6,497 rows`` or ``178 rows``.

    Examples
    --------
    >>> from ikviz.plots.your_data import rows_text
    >>> rows_text({"rows": 500, "of_rows": 6497}), rows_text([{"rows": 178, "of_rows": 178}]), rows_text({})
    ('500 of 6,497 rows', '178 rows', '')
    """
    first = res[0] if isinstance(res, list) and res else res
    if not isinstance(first, dict) or "rows" not in first:
        return ""
    n, total = int(first["rows"]), int(first.get("of_rows") or first["rows"])
    return f"{n:,} of {total:,} rows" if total > n else f"{n:,} rows"


def _titled(title: str, res) -> str:
    rows = rows_text(res)
    return f"{title} ({rows})" if rows else title


def class_name(res, code) -> str:
    """The name of class ``code`` in a result that lists its ``classes`` (else ``class <code>``)."""
    from ..html import escape

    classes = res.get("classes") if isinstance(res, dict) else None
    if classes and 0 <= int(code) < len(classes):
        return escape(classes[int(code)])      # Plotly renders a subset of HTML in names: data is shown as text
    return f"class {code}"


def file_text(file) -> str:
    """An uploaded file in a line: its name, size and the start of its SHA-256 fingerprint.

    Examples
    --------
    >>> from ikviz.experiments.your_data import FileBytes
    >>> from ikviz.plots.your_data import file_text
    >>> file_text(FileBytes(b"x,y\\n1,2\\n", "a.csv"))
    'File: a.csv (8 bytes, SHA-256 81bf9fa83c6f…)'
    """
    size = f"{len(file):,} bytes" if len(file) < 1024 else f"{len(file) / 1024:,.1f} KB"
    return f"File: {file.name} ({size}, SHA-256 {file.fingerprint[:12]}…)"


def column_table(info, label: str | None, roles: dict[str, str]) -> dict[str, list]:
    """Column-wise table of a file's columns (:class:`~ikviz.data.upload.FileInfo`) with their current roles.

    ``label`` is the label column picked (or None), ``roles`` the roles chosen
    for some columns (:func:`~ikviz.data.upload.shown_role` decides the rest).
    """
    from ..data.upload import shown_role

    cols = info.columns
    return {"column": [c.name for c in cols], "kind": [c.kind for c in cols],
            "role": [shown_role(c, label, roles) for c in cols],
            "missing": [c.n_missing for c in cols], "distinct": [c.n_unique for c in cols],
            "examples": [", ".join(map(str, list(c.examples)[:3])) for c in cols]}


def summary_texts(summary: dict) -> dict[str, str]:
    """The data's constant columns (``"constant"``) and class counts (``"classes"``) in words; "" when none.

    ``summary`` is :func:`ikviz.data.upload.summary`'s.

    Examples
    --------
    >>> from ikviz.plots.your_data import summary_texts
    >>> summary_texts({"constant_columns": ["y"], "class_counts": {"a": 2, "b": 1}})["classes"]
    'Class counts: a: 2, b: 1'
    """
    constant = ", ".join(summary["constant_columns"][:10])
    return {"constant": (f"Constant columns carry no information and are ignored by every kernel: {constant}."
                         if constant else ""),
            "classes": ("Class counts: " + ", ".join(f"{k}: {v}" for k, v in summary["class_counts"].items())
                        if summary["class_counts"] else "")}


def summary_texts_of(data) -> dict:
    r"""What the page shows above the checks: four metrics, the notes, constant columns and class counts in words.

    Examples
    --------
    >>> from ikviz.data.upload import read_table
    >>> from ikviz.plots.your_data import summary_texts_of
    >>> out = summary_texts_of(read_table("x,y,c\n1,0,a\n2,0,b\n3,0,a\n", label="c"))
    >>> out["metrics"], out["constant"][:16]
    ({'rows': '3', 'features': 2, 'classes': 2, 'constant columns': 1}, 'Constant columns')
    """
    from ..data.upload import summary

    s = summary(data)
    texts = summary_texts(s)
    target = "numeric target" if s.get("task") == "regression" else "classes"
    value = "yes" if s.get("task") == "regression" else (s["classes"] or "none")
    return {"metrics": {"rows": f"{s['rows']:,}", "features": s["features"], target: value,
                        "constant columns": len(s["constant_columns"])},
            "notes": s["notes"], **texts}


def data_lines(data) -> list[str]:
    """The data a report ran on, for its head: rows, features and classes, then the notes on the data.

    Examples
    --------
    >>> from ikviz.data.upload import read_table
    >>> from ikviz.plots.your_data import data_lines
    >>> data_lines(read_table("x,c\\n1,a\\n2,b\\n3,a\\n", label="c"))
    ['3 rows, 1 features, classes: a, b. Missing values: rows with missing values refused.']
    """
    task = getattr(data, "task", None)
    what = (f", classes: {', '.join(map(str, data.classes))}" if task == "classification" else
            f", a numeric target ({data.label_name})" if task == "regression" else ", no label")
    missing = f" Missing values: {data.missing}." if getattr(data, "missing", "") else ""
    return [f"{len(data.X):,} rows, {data.X.shape[1]} features{what}.{missing}"] + list(data.notes)


def stale_text(old, new, held: bool) -> str:
    """The warning on a result computed with the settings ``old`` (CheckParams) when ``new`` are asked for.

    It names every setting that changed; ``held``: whether the old result is still held.

    Examples
    --------
    >>> from ikviz.experiments.your_data import CheckParams
    >>> from ikviz.plots.your_data import stale_text
    >>> stale_text(CheckParams(psi=32), CheckParams(psi=64, seed=1), True)
    'Stale: this result was computed before the settings changed (ψ 32 → 64, seed 0 → 1).'
    """
    was, now = old.settings(), new.settings()
    changed = ", ".join(f"{k} {was[k]} → {now[k]}" for k in now if was[k] != now[k])
    return (f"Stale: this result was computed before the settings changed ({changed})."
            + ("" if held else " It is no longer held; re-run the check."))


def neighbour_figure(res: dict, height: int = 360) -> go.Figure:
    """Distributions of N_eps (left) and of the k-occurrence O_k (right) for IK and the Gaussian kernel."""
    fig = make_subplots(rows=1, cols=2, horizontal_spacing=0.12, subplot_titles=(
        wrap(f"N_eps per query (ε = {res['eps']:g}); lower is more stable", 32),
        wrap(f"{res['k']}-occurrence O_k; a long right tail means hubs", 32)))
    for name in ("ik", "gk"):
        label = KERNEL_LABELS[name]
        fig.add_trace(go.Histogram(x=np.log10(res["n_eps"][name]), name=label, marker_color=_COLOUR[name],
                                   opacity=0.6, nbinsx=30, legendgroup=name), row=1, col=1)
        values, counts = np.unique(res["occurrence"][name], return_counts=True)
        fig.add_trace(go.Bar(x=values, y=counts, name=label, marker_color=_COLOUR[name], opacity=0.6,
                             legendgroup=name, showlegend=False), row=1, col=2)
    fig.update_layout(barmode="overlay")
    fig.update_xaxes(title_text="log₁₀ N_eps", row=1, col=1)
    fig.update_xaxes(title_text=f"O_{res['k']} (k-occurrence)", row=1, col=2)
    fig.update_yaxes(title_text="queries", row=1, col=1)
    fig.update_yaxes(title_text="points", row=1, col=2)
    fig.update_annotations(font_size=12)
    return base_layout(fig, _titled("Nearest-neighbour instability and hubness", res), height=height)


def _setting(params: dict) -> str:
    names = {"psi": "ψ", "gamma": "γ", "alpha": "α"}
    return ", ".join(f"{names.get(k, k)}={v:.3g}" if isinstance(v, float) else f"{names.get(k, k)}={v}"
                     for k, v in params.items()) or "–"


def svm_table(rows: list[dict], score: str = "accuracy", labels: dict | None = None) -> dict[str, list]:
    """Column-wise table of the SVM (or regression) comparison: mean ± sd over the folds, the tuned setting."""
    labels = labels or SVM_LABELS
    mean = [r.get("mean", r.get(score)) for r in rows]
    return {"model": [labels[r["kernel"]] for r in rows],
            f"{score} (mean)": [round(float(m), 4) for m in mean],
            "± sd over folds": [round(float(r.get("sd", 0.0)), 4) for r in rows],
            "per fold": [", ".join(f"{v:.3f}" for v in r.get("folds", [])) for r in rows],
            "tuned setting": [_setting(r["params"]) for r in rows]}


def svm_split_text(rows: list[dict]) -> str:
    """How the SVM (or regression) comparison was scored: folds, rows, seed, what was tuned.

    Examples
    --------
    >>> from ikviz.plots.your_data import svm_split_text
    >>> svm_split_text([{"n_folds": 5, "stratified": True, "split_seed": 0, "rows": 178}])
    "5-fold stratified cross-validation of 178 rows (seed 0); C = 1; each kernel's parameter tuned on a small grid, every setting scored on the same folds."
    """
    r = rows[0] if rows else {}
    if "n_folds" not in r:
        return ""
    n = r.get("rows", 0)
    of = f" (of {r['of_rows']:,})" if r.get("of_rows", n) > n else ""
    how = "stratified " if r.get("stratified") else ""
    fixed = "C = 1" if "r2" not in r else "α = 1"
    return (f"{r['n_folds']}-fold {how}cross-validation of {n:,} rows{of} (seed {r['split_seed']}); {fixed}; each "
            "kernel's parameter tuned on a small grid, every setting scored on the same folds.")


def _colour_traces(fig, scatter, Y, values, name: str, col: int) -> None:
    """Points of one panel coloured by a column's ``values``: a colour scale for numbers, one trace per value
    (the 12 most frequent, the rest grey) for text. Names are HTML-escaped (Plotly renders tags in them)."""
    from ..html import escape

    values = np.asarray(values)
    name = escape(name)
    numeric = values.dtype.kind in "fiub"
    if numeric:
        v = values.astype(float)
        fig.add_trace(scatter(x=Y[:, 0], y=Y[:, 1], mode="markers", showlegend=False, name=name,
                              marker=dict(size=3, color=v, colorscale="Viridis", showscale=(col == 2),
                                          colorbar=dict(title=dict(text=name[:20])))), row=1, col=col)
        return
    text = np.array(["(missing)" if (isinstance(x, float) and np.isnan(x)) or x is None else str(x) for x in values])
    kinds, counts = np.unique(text, return_counts=True)
    top = list(kinds[np.argsort(-counts)][:12])
    for i, c in enumerate(top + ["(other)"]):
        pts = Y[np.isin(text, top, invert=True)] if c == "(other)" else Y[text == c]
        if not len(pts):
            continue
        colour = "#bbbbbb" if c == "(other)" else CLASS_COLOURS[i % len(CLASS_COLOURS)]
        fig.add_trace(scatter(x=pts[:, 0], y=pts[:, 1], mode="markers", name=escape(c[:30]), legendgroup=c,
                              showlegend=(col == 1), marker=dict(size=3, color=colour)), row=1, col=col)


def tsne_figure(res: dict, height: int = 460, colour=None, colour_name: str = "") -> go.Figure:
    """The Gaussian and IK t-SNE embeddings side by side, coloured by class (or by ``colour``, one value per
    point, named ``colour_name``), scores in the titles."""
    titles = []
    for name in ("gk", "ik"):
        s = res["scores"].get(name)
        # the scores on a second line: on one line the two titles ran into each other
        extra = f"<br>5-NN acc {s['knn_accuracy']:.3f} · silhouette {s['silhouette']:.2f}" if s else ""
        titles.append(f"{'Gaussian' if name == 'gk' else 'IK'} affinities{extra}")
    fig = make_subplots(rows=1, cols=2, subplot_titles=titles, horizontal_spacing=0.06)
    labels = res["labels"]
    scatter = scatter_class(sum(len(res["coords"][name]) for name in ("gk", "ik")))
    for col, name in enumerate(("gk", "ik"), start=1):
        Y = res["coords"][name]
        if colour is not None and len(colour) == len(Y):
            _colour_traces(fig, scatter, Y, colour, colour_name, col)
            continue
        if labels is None:
            fig.add_trace(scatter(x=Y[:, 0], y=Y[:, 1], mode="markers", showlegend=False,
                                  marker=dict(size=3, color="#444")), row=1, col=col)
            continue
        for c in np.unique(labels):
            pts = Y[labels == c]
            fig.add_trace(scatter(x=pts[:, 0], y=pts[:, 1], mode="markers", name=class_name(res, c),
                                  legendgroup=str(c), showlegend=(col == 1),
                                  marker=dict(size=3, color=CLASS_COLOURS[int(c) % len(CLASS_COLOURS)])),
                          row=1, col=col)
    fig.update_xaxes(showticklabels=False, title_text="t-SNE dimension 1")
    fig.update_yaxes(showticklabels=False, title_text="t-SNE dimension 2", row=1, col=1)
    # equal aspect in both panels: a round cluster stays round
    fig.update_yaxes(scaleanchor="x", scaleratio=1, row=1, col=1)
    fig.update_yaxes(scaleanchor="x2", scaleratio=1, row=1, col=2)
    fig.update_annotations(font_size=12)
    from ..html import escape

    what = f", coloured by {escape(colour_name)}" if colour is not None and colour_name else ""
    return base_layout(fig, _titled(f"t-SNE of your data{what}", res), height=height)


def clustering_table(rows: list[dict]) -> dict[str, list]:
    """Column-wise table of the clustering comparison: AMI and NMI against the classes, else silhouette."""
    out = {"affinity": [KERNEL_LABELS[r["measure"]] for r in rows]}
    if rows and "ami" in rows[0]:
        out.update({"AMI": [round(r["ami"], 3) for r in rows], "NMI": [round(r["nmi"], 3) for r in rows]})
    else:
        out.update({"silhouette": [round(r.get("silhouette", float("nan")), 3) for r in rows],
                    "AMI between the two": [round(r.get("agreement", float("nan")), 3) for r in rows]})
    return out


def clustering_text(rows: list[dict]) -> str:
    """What the clustering comparison was scored against, with the rows it used."""
    r = rows[0] if rows else {}
    classes = r.get("classes") or []
    rows_ = rows_text(r)
    on = f", on {rows_}." if rows_ else "."
    if "ami" not in r and r.get("k"):
        return (f"Spectral clustering into {r['k']} clusters ({r.get('k_from', 'chosen')}); without classes, the "
                f"silhouette (Euclidean) and the agreement of the two clusterings (AMI){on}")
    names = (": " + ", ".join(map(str, classes[:12])) + (", …" if len(classes) > 12 else "")) if classes else ""
    return (f"Spectral clustering into {len(classes) or 'as many'} clusters as classes{names}; AMI and NMI against "
            f"the classes{on}")


def check_parts(name: str, res, colour=None, colour_name: str = "") -> dict:
    """One check's figures, tables and lines of text, as the page and the report show them."""
    from ..experiments.your_data import budget_text, neighbour_verdict

    first = res[0] if isinstance(res, list) and res else res
    budget = [budget_text(first.get("budget"))] if isinstance(first, dict) and first.get("budget") else []
    if name == "neighbours":
        return {"figures": [neighbour_figure(res)], "tables": [], "text": [neighbour_verdict(res)] + budget}
    if name == "svm":
        return {"figures": [], "tables": [svm_table(res)], "text": [svm_split_text(res)] + budget}
    if name == "regression":
        return {"figures": [], "tables": [svm_table(res, "R²", RIDGE_LABELS)], "text": [svm_split_text(res)] + budget}
    if name == "tsne":
        return {"figures": [tsne_figure(res, colour=colour, colour_name=colour_name)], "tables": [], "text": budget}
    if name == "clustering":
        return {"figures": [], "tables": [clustering_table(res)], "text": [clustering_text(res)] + budget}
    raise ValueError(f"Unknown check {name!r}.")


def summary_markdown(results: dict) -> str:
    """The summary (:func:`ikviz.experiments.your_data.summary`) as Markdown: the verdict, then one item per check.

    Only numbers and fixed words: nothing from the data is in it.

    Examples
    --------
    >>> from ikviz.plots.your_data import summary_markdown
    >>> summary_markdown({})
    '**Overall: no check with a winner to call has been run yet.**'
    """
    from ..experiments.your_data import summary

    out = summary(results)
    lines = [f"**{out['verdict']}**"]
    lines += [f"- {text}" for text in out["sentences"].values()]
    return "\n".join(lines)


def report(source_title: str, runs: dict, *, fingerprint: str = "", data_lines=(), plotlyjs: bool | str = True) -> str:
    """A standalone HTML report of every check in ``runs`` (``{name: (CheckParams, result)}``).

    Each section states the check's settings and the rows it used; the head
    states the data, the file's SHA-256 fingerprint and the ikviz version.
    """
    import datetime

    from .. import __version__
    from ..experiments.your_data import CHECKS
    from ..html import Section, report_html

    sections = [Section("Summary", summary_markdown({name: res for name, (_, res) in runs.items()}))] if runs else []
    for name, (params, res) in runs.items():
        parts = check_parts(name, res)
        settings = ", ".join(f"{k} = {v}" for k, v in params.settings().items())
        rows = rows_text(res)
        sections.append(Section(CHECKS[name].title, "\n\n".join(t for t in parts["text"] if t),
                                figures=parts["figures"], tables=parts["tables"],
                                notes=[f"Settings: {settings}." + (f" Computed on {rows}." if rows else "")]))
    meta = {"data": source_title}
    if fingerprint:
        meta["SHA-256 fingerprint"] = fingerprint
    meta.update({"ikviz version": __version__, "written": datetime.datetime.now().isoformat(timespec="seconds")})
    intro = ("Would Isolation Kernel beat a Gaussian kernel on this data, and why? The checks of ikviz's Your data "
             "page: nearest-neighbour instability and hubness, an SVM (or regression) comparison, t-SNE and "
             "clustering. The summary comes first; each check's figures, tables and settings follow.")
    if data_lines:
        intro += "\n\n" + "\n".join(f"- {line}" for line in data_lines)
    if not sections:
        intro += "\n\nNo check has been run on this data yet."
    return report_html(f"ikviz · {source_title}", intro, sections, meta, plotlyjs=plotlyjs)


def report_file_name(source_name) -> str:
    """The report's file name, after the data's name (a bundled set, a file, a path) without its suffix.

    Examples
    --------
    >>> from ikviz.plots.your_data import report_file_name
    >>> report_file_name("/data/flights/*.parquet"), report_file_name("wine"), report_file_name("")
    ('ikviz-report-*.html', 'ikviz-report-wine.html', 'ikviz-report-data.html')
    """
    from pathlib import Path

    return f"ikviz-report-{Path(str(source_name)).stem or 'data'}.html"


def learn_figure(res, height: int = 320) -> go.Figure:
    """Progressive mistake rate of each learner as the rows of a big file stream past (``ikviz.scale.run.learn``)."""
    fig = go.Figure()
    rows = [n for n, _ in res.curve]
    for name in res.mistake_rate:
        fig.add_trace(go.Scatter(x=rows, y=[rates[name] for _, rates in res.curve], mode="lines+markers",
                                 name=name, line=dict(color=_COLOUR["ik"] if name.startswith("IK") else
                                                      _COLOUR["gk"], width=2)))
    fig.update_xaxes(title="training rows seen")
    fig.update_yaxes(title="progressive mistake rate", rangemode="tozero")
    return base_layout(fig, f"One pass over every row ({res.n_train:,} training rows)<br>"
                            "<sup>IK + OGD against FOGD (Gaussian random features)</sup>", height)


def learn_table(res) -> dict[str, list]:
    """Final progressive mistake rate and held-out accuracy per learner."""
    names = list(res.mistake_rate)
    return {"learner": names,
            f"mistake rate over {res.n_train:,} training rows": [round(res.mistake_rate[k], 4) for k in names],
            f"accuracy on {res.n_test:,} held-out rows": [round(res.accuracy[k], 4) for k in names]}


def big_file_texts(res, cluster: str | None = None) -> dict[str, str]:
    """What the pass over every row of a big file found, in words (``res``: a ``BigFileResult``).

    ``"read"``: the rows, features, time and cluster (``cluster``: its
    address, None for the local one) and the kernel's fit; ``"learn"``: how
    IK + OGD learnt ("" without a label); ``"purity"``: the cells' purity
    ("" without classes).
    """
    from ..experiments.your_data import cell_summary

    p = res.params
    cluster = cluster or "this server's local Dask cluster"
    cells = cell_summary(res)
    read = (f"{res.n_rows:,} rows, {len(res.features)} numeric features, read in {res.seconds:.1f} s on "
            f"{cluster}. The Isolation Kernel (ψ = {p.psi}, t = {p.t}) was fitted on {res.fit_rows:,} rows drawn "
            f"by row index; every row was then mapped to its cells.")
    learn = ("" if res.learn is None else
             f"IK + OGD fits its feature map on the first {p.prefix:,} training rows and then learns from "
             f"every training row, as `ikviz scale learn` does; {p.test_fraction:.0%} of each block is held "
             "out for the accuracy.")
    purity = ("" if cells["purity"] is None else
              f"Cell purity over all {res.n_rows:,} rows: **{cells['purity']:.1%}** of rows share the "
              f"majority class of their cell (averaged over the {p.t} partitionings); the largest class alone "
              f"is {cells['majority']:.1%}.")
    return {"read": read, "learn": learn, "purity": purity}


def cell_figure(res, height: int = 320) -> go.Figure:
    """Rows per Isolation Kernel cell over every row of a big file, relative to an even share n / psi.

    ``res`` is an :class:`~ikviz.experiments.your_data.BigFileResult`; one bar per
    range of relative size, counting the t * psi cells.
    """
    from ..experiments.your_data import cell_summary

    summary = cell_summary(res)
    t, psi = res.cell_counts.shape[1:]
    fig = go.Figure(go.Histogram(x=summary["relative"], nbinsx=40, marker_color=_COLOUR["ik"], opacity=0.8,
                                 name="cells"))
    fig.add_vline(x=1.0, line_dash="dot", line_color="#555", annotation_text="even share n/ψ",
                  annotation_position="top right")
    fig.update_xaxes(title="rows in the cell ÷ (n / ψ)", rangemode="tozero")
    fig.update_yaxes(title=f"cells (of {t * psi:,})")
    fig.update_layout(showlegend=False)
    return base_layout(fig, f"Rows per cell: all {res.n_rows:,} rows in each of the {t} partitionings", height)
