"""The sections of the *Your data* page. Each check runs on demand; once run, it follows the settings (recomputed at
once when quick, with a re-run button when not) and the session remembers what it showed, for the summary and the
report. Each section is one store call of one run of :mod:`ikviz.experiments.your_data`; an upload's results are
kept in memory only. Names and values from the data are shown as literal text."""

import time

import streamlit as st

import figures
import store
import ui
from ikviz.experiments import your_data as exp
from ikviz.html import literal_markdown as literal
from ikviz.plots import your_data as plots
from ikviz.runner import Cancelled
from ikviz.scale.cluster import scheduler_address


def _persist(params) -> bool:
    return exp.source_kind(params.source) != "upload"   # an upload and what is derived from it never reach the disk


def overview(data, file_notes: list[str]) -> None:
    """The rows, features, classes (or target) and constant columns, and the notes not shown yet."""
    summary = plots.summary_texts_of(data)
    cols = st.columns(4)
    for col, (name, value) in zip(cols, summary["metrics"].items()):
        col.metric(name, value)
    for note in summary["notes"]:
        if note not in file_notes:
            st.info(literal(note))
    if summary["constant"]:
        st.warning(literal(summary["constant"]))
    if summary["classes"] and not ui.presenting():
        st.caption(literal(summary["classes"]))


def _compute_check(name: str, params: exp.CheckParams, rows: int, ask=None):
    """Run check ``name`` (through the store, asking first with ``ask``) and remember it, with its time."""
    start = time.perf_counter()
    res = store.compute(exp.check_run(name), params, persist=_persist(params), ask=ask)
    st.session_state.setdefault("yd_runs", {})[name] = {"params": params, "rows": rows,
                                                       "seconds": time.perf_counter() - start}
    return res


def show(name: str, res, params: exp.CheckParams | None = None, data=None) -> None:
    """Check ``name``'s figures, tables and notes; t-SNE can be coloured by any column of the data."""
    colour, colour_name = None, ""
    if name == "tsne" and data is not None and data.values:
        pick = st.selectbox("colour the points by", ["(the label)"] + list(data.values), key="yd_colour",
                            format_func=str)
        if pick != "(the label)":
            colour, colour_name = data.values[pick], pick
    parts = plots.check_parts(name, res, colour=colour, colour_name=colour_name)
    # an uploaded file lives only in this session: a snippet could not load it elsewhere
    source = (exp.check_run(name), params) if params is not None and exp.source_kind(params.source) == "bundled" \
        else False
    for i, fig in enumerate(parts["figures"]):
        figures.figure(fig, f"fig_{name}_{i}", source=source)
    for table in parts["tables"]:
        st.dataframe(table, hide_index=True)
    for text in parts["text"]:
        st.markdown(text) if name == "neighbours" else st.caption(literal(text))


def section(number: int, name: str, params: exp.CheckParams, rows: int, task, data=None):
    """One check: its result for these settings if held; else run it (button), recompute it at once when
    cheap, or show the last result labelled stale with a re-run button. Returns ``(params, result)`` shown."""
    check = exp.CHECKS[name]
    if not exp.applicable(name, task):
        if not check.needs_numbers:
            st.subheader(f"{number} · {check.title}")
            st.info(check.without_classes)
        return None
    st.subheader(f"{number} · {check.title}")
    run, held = exp.check_run(name), store.get_store()
    runs = st.session_state.setdefault("yd_runs", {})
    last = runs.get(name)
    with ui.guarded(check.what):
        found, res = held.peek(run, params)
        step, estimate = exp.check_step(name, found, last, params, rows)
        if step == "show":
            if last is None or last["params"] != params:
                runs[name] = {"params": params, "rows": rows, "seconds": None}
            show(name, res, params, data)
            return params, res
        # asked through the store (the one way to ask before a heavy run): a first run waits for its button, a
        # run with new settings that would take a while for a re-run button under the last result, labelled stale
        if step == "auto":
            ask = None
        elif step == "button":
            ask = store.Ask(None, check.button, key=f"btn_{name}", help=check.help)
        else:
            ask = store.Ask(None, f"Re-run with the new settings (about {estimate:,.0f} s)", key=f"rerun_{name}",
                            help=check.help, primary=True)
        try:
            res = _compute_check(name, params, rows, ask)
        except Cancelled:
            if step != "ask":
                raise
            old_found, old = held.peek(run, last["params"])
            st.warning(plots.stale_text(last["params"], params, old_found))
            if old_found:
                show(name, old, last["params"], data)
                return last["params"], old
            raise
        show(name, res, params, data)
        return params, res
    return None


def summary(shown: dict) -> None:
    """The answer first: the verdict and one sentence per check shown below (numbers and fixed words only)."""
    st.subheader("Summary")
    if not shown:
        st.caption("Run the checks below: each adds a sentence here saying what its numbers mean.")
        return
    st.markdown(plots.summary_markdown({name: res for name, (_, res) in shown.items()}))


def report(source, data, shown: dict, number: int) -> None:
    """The download of every check shown, as one standalone HTML file (built only when clicked)."""
    st.subheader(f"{number} · A report to keep")
    title, fingerprint, lines = exp.data_title(source), exp.data_fingerprint(source, data), plots.data_lines(data)

    def build() -> bytes:
        return plots.report(title, shown, fingerprint=fingerprint, data_lines=lines).encode("utf-8")

    st.download_button("Download the report (HTML)", data=build, on_click="ignore",
                       file_name=plots.report_file_name(exp.source_name(source)), mime="text/html", key="report",
                       disabled=not shown, help="One standalone HTML file: the summary first, then every check shown "
                                                "above with its figures, numbers and settings, the file's SHA-256 and "
                                                "the ikviz version.")
    st.caption(f"{len(shown)} of the checks above will be in the report." if shown else
               "Run a check first: the report keeps every check run on this data.")


def big_source(params: exp.CheckParams):
    """A big file on the server (only with ``IKVIZ_DATA_ROOT`` set): its label, one pass over every row on
    request, and the sample the checks use."""
    if exp.data_root() is None:
        st.info(exp.path_help())
        return None
    path = ui.control(st.text_input, "path on the server (Parquet or CSV: a file, a folder or a glob)", "path", "",
                      help=exp.path_help()).strip()
    if not path:
        st.info("Type the path of a Parquet or CSV file, a folder or a glob of them, inside the data folder.")
        return None
    exp.check_data_path(path)  # every visit: results shared between sessions are never a way round it
    columns = store.compute(exp.file_columns, path, inline=True)
    guess = exp.guess_label(columns)
    choice = st.selectbox("label column", ["(none)"] + columns, index=(columns.index(guess) + 1) if guess else 0,
                          key="big_label", help="The class of each row: IK + OGD and FOGD learn to predict it.")
    big = exp.BigFileParams(path=path, label=None if choice == "(none)" else choice, psi=params.psi,
                            t=min(params.t, 200), sample_rows=params.max_rows, seed=params.seed)
    res = figures.view(exp.big_file_check, big, ask=store.Ask(None, "Read the file and learn over every row",
                                                               key="btn_big", primary=True))
    texts = plots.big_file_texts(res, scheduler_address())
    st.caption(literal(texts["read"]))
    if res.learn is not None:
        figures.figure(figures.built(plots.learn_figure, res.learn), "big_learn")
        st.dataframe(plots.learn_table(res.learn), hide_index=True)
        st.caption(texts["learn"])
    figures.figure(figures.built(plots.cell_figure, res), "big_cells")
    if texts["purity"]:
        st.markdown(texts["purity"])
    st.caption(f"Plots show {min(params.max_rows, res.n_rows):,} of {res.n_rows:,} rows.")
    return exp.server_file(path, big.label)
