"""Your data: load a CSV / Excel / Parquet / LIBSVM file, a bundled dataset or a big file on the server; check IK."""

import time

import streamlit as st

import figures
import store
import ui
from ikviz.data import dataset_info, dataset_names
from ikviz.data import upload
from ikviz.experiments import your_data as exp
from ikviz.plots import your_data as plots
from ikviz.scale.cluster import scheduler_address

MAX_ROWS_OPTIONS = [500, 1000, 2000, 5000]
PSI_OPTIONS = [4, 8, 16, 32, 64, 128, 256]
SOURCES = ["bundled dataset", "upload a file", "a big file on this server"]


def keep_upload() -> None:
    """Keep the uploaded file in the session (its bytes and SHA-256, computed once per upload)."""
    file = st.session_state.get("uploader")
    if file is None:
        for key in ("upload_bytes", "upload_name", "upload_file"):
            st.session_state.pop(key, None)
    else:
        st.session_state["upload_bytes"] = file.getvalue()
        st.session_state["upload_name"] = file.name


def current_file() -> exp.FileBytes | None:
    """The uploaded file as :class:`FileBytes`, fingerprinted once per upload, not on every rerun."""
    raw = st.session_state.get("upload_bytes")
    if raw is None:
        return None
    held = st.session_state.get("upload_file")
    name = st.session_state.get("upload_name", "") or "upload"
    if held is None or held.raw is not raw and held.raw != raw or held.name != name:
        held = st.session_state["upload_file"] = exp.FileBytes(raw, name)
    return held


def show_big_result(res: exp.BigFileResult) -> None:
    """What the pass over every row found: learning curves, held-out accuracy, rows per cell."""
    texts = plots.big_file_texts(res, scheduler_address())
    st.caption(texts["read"])
    if res.learn is not None:
        figures.figure(plots.learn_figure(res.learn), "big_learn", source=(exp.big_file_check, res.params))
        st.dataframe(plots.learn_table(res.learn), hide_index=True)
        st.caption(texts["learn"])
    figures.figure(plots.cell_figure(res), "big_cells", source=(exp.big_file_check, res.params))
    if texts["purity"]:
        st.markdown(texts["purity"])


def _pick_label(role_key: str, label_key: str, column: str, default: str) -> None:
    """A column's role set to 'use as label': it becomes the label column; its own choice goes back to default."""
    if st.session_state.get(role_key) == "label":
        st.session_state[label_key] = column
        st.session_state[role_key] = default


def upload_source() -> tuple[exp.Source | None, list[str]]:
    """The upload flow: the file, how it was read, a preview, the label and a role for each text column.

    Returns the source and the notes on the file already shown (not repeated under the summary)."""
    st.file_uploader("CSV/TSV (header row), Excel (.xlsx), Parquet or LIBSVM/svmlight file", key="uploader",
                     on_change=keep_upload, type=["csv", "txt", "tsv", "data", "svm", "libsvm", "svmlight", "xlsx",
                                                  "parquet", "pq"])
    file = current_file()
    if file is None:
        st.info("Upload a file to start, or switch to a bundled dataset in the sidebar.")
        return None, []
    st.caption(plots.file_text(file))
    fp = file.fingerprint[:16]
    # before the file is read: a LIBSVM file with nan is refused by the reading itself, and the message points here
    drop = st.checkbox("drop rows with missing values", value=False, key=f"yd_drop_{fp}")
    info = store.compute(exp.inspect_upload, file, "drop" if drop else "error",
                         inline=True)  # once per file and choice, shared by every rerun
    st.caption(f"{info.n_rows:,} rows, {len(info.columns)} columns ({info.format}).")
    for note in info.notes:
        st.info(note)
    names = [c.name for c in info.columns]
    label_key = f"yd_label_{fp}"
    if label_key not in st.session_state or st.session_state[label_key] not in ["(none)"] + names:
        guess = info.label_guess   # LIBSVM: always its label column, even with a single class
        st.session_state[label_key] = guess if guess in names else "(none)"
    choice = st.selectbox("label column", ["(none)"] + names, key=label_key,
                          help="The column holding the class of each row, if there is one (guessed from its "
                               "name and values; pick '(none)' for no classes).")
    label = None if choice == "(none)" else choice
    roles, shown = {}, upload.role_columns(info.columns, label)
    if shown:
        st.markdown("**Columns that are not numeric features**: choose what each is for.")
        grid = st.columns(min(3, len(shown)))
        for i, col in enumerate(shown):
            role_key, default, options = f"yd_role_{fp}_{i}", upload.initial_role(col), upload.role_options(col.kind)
            if st.session_state.get(role_key) not in options:
                st.session_state[role_key] = default
            roles[col.name] = grid[i % len(grid)].selectbox(
                f"{col.name} ({col.kind}, {col.n_unique:,} values)", options, key=role_key,
                format_func=upload.ROLE_LABELS.get, on_change=_pick_label,
                args=(role_key, label_key, col.name, default),
                help="ignore: left out; encode: one column per category (one-hot); use as label: the class column.")
    with st.expander(f"Columns ({len(names)}) and a preview of the first rows", expanded=not ui.presenting()):
        st.dataframe(plots.column_table(info, label, roles), hide_index=True)
        st.dataframe(info.preview, hide_index=True)
    return exp.Source("upload", file.name, file, label, drop, tuple(sorted(roles.items()))), list(info.notes)


def _compute_check(name: str, params: exp.CheckParams, rows: int):
    """Run check ``name`` (through the store) and remember it, with its time, for this session."""
    start = time.perf_counter()
    res = store.compute(exp.check_run(name), params)
    st.session_state.setdefault("yd_runs", {})[name] = {"params": params, "rows": rows,
                                                       "seconds": time.perf_counter() - start}
    return res


def show_check(name: str, res, params: exp.CheckParams | None = None) -> None:
    """Check ``name``'s figures, tables and notes; ``params`` gives its figures a Python snippet (bundled data)."""
    parts = plots.check_parts(name, res)
    # an uploaded file lives only in this session: a snippet could not load it elsewhere
    source = ((exp.check_run(name), params)
              if params is not None and params.source.kind == "bundled" else None)
    for i, fig in enumerate(parts["figures"]):
        figures.figure(fig, f"fig_{name}_{i}", source=source)
    for table in parts["tables"]:
        st.dataframe(table, hide_index=True)
    for text in parts["text"]:
        if name == "neighbours":
            st.markdown(text)
        else:
            st.caption(text)


def check_section(number: int, name: str, params: exp.CheckParams, rows: int, has_classes: bool):
    """One check: its result for these settings if held; else run it (button), recompute it at once when
    cheap, or show the last result labelled stale with a re-run button. Returns ``(params, result)`` shown."""
    st.subheader(f"{number} · {exp.CHECKS[name][0]}")
    if not exp.applicable(name, has_classes):
        st.info(exp.NEEDS_CLASSES[name])
        return None
    run, held = exp.check_run(name), store.get_store()
    runs = st.session_state.setdefault("yd_runs", {})
    last = runs.get(name)
    with ui.guarded(exp.CHECK_WHAT[name]):
        found, res = held.peek(run, params)
        step, estimate = exp.check_step(name, found, last, params, rows)
        if step == "show":
            if last is None or last["params"] != params:
                runs[name] = {"params": params, "rows": rows, "seconds": None}
            show_check(name, res, params)
            return params, res
        if step == "button":
            asked = st.button(exp.RUN_LABELS[name], key=f"btn_{name}", help=exp.CHECK_HELP[name])
        else:
            asked = step == "auto" or st.button(f"Re-run with the new settings (about {estimate:,.0f} s)",
                                                key=f"rerun_{name}", type="primary", help=exp.CHECK_HELP[name])
        if asked:
            res = _compute_check(name, params, rows)
            show_check(name, res, params)
            return params, res
        if step == "ask":
            old_found, old = held.peek(run, last["params"])
            st.warning(plots.stale_text(last["params"], params, old_found))
            if old_found:
                show_check(name, old, last["params"])
                return last["params"], old
    return None


ui.page_header(
    "Your data",
    "Would Isolation Kernel beat a Gaussian kernel on *your* data, and why? Load a CSV, Excel, Parquet or "
    "LIBSVM/svmlight file, pick a bundled dataset, or point to a big Parquet/CSV file on this server, then run "
    "the checks below: nearest-neighbour instability and hubness, a quick SVM comparison, t-SNE, and clustering. "
    "Each runs on demand; once run, a check follows the settings (recomputed at once when quick, with a re-run "
    "button when not), and the report at the end keeps every result.",
)

with st.sidebar:
    st.header("Your data")
    source_kind = ui.control(st.radio, "data source", "source", "bundled dataset", options=SOURCES,
                             help="Browser uploads are capped at 50 MB. Files bigger than memory (Parquet or CSV, a "
                                  "folder or a glob of them) are read from the server's disk with Dask.")
    max_rows = ui.control(st.select_slider, "rows used by the checks (at most)", "max_rows", 2000,
                          options=MAX_ROWS_OPTIONS, help="Larger data are subsampled at random, with a notice.")
    scale = ui.control(st.toggle, "min-max scale features to [0, 1]", "scale", True,
                       help="The papers scale every feature to [0, 1] before comparing kernels.")
    psi = ui.control(st.select_slider, "IK ψ", "psi", 32, options=PSI_OPTIONS)
    t = ui.control(st.select_slider, "IK t", "t", 200, options=[50, 100, 200, 500])
    seed = int(ui.control(st.number_input, "seed", "seed", 0, min_value=0, max_value=10_000, step=1))

source = data = big_result = None
file_notes: list[str] = []
with ui.guarded("the data"):
    if source_kind == "bundled dataset":
        name = ui.control(st.selectbox, "dataset", "dataset", "wine", options=dataset_names(),
                          format_func=lambda n: f"{n} — {dataset_info(n).title} ({dataset_info(n).n}×"
                                                f"{dataset_info(n).d})")
        st.caption(f"Source and licence: {dataset_info(name).licence}; see datasets/SOURCES.md.")
        source = exp.Source("bundled", name)
    elif source_kind == "a big file on this server":
        path = ui.control(st.text_input, "path on the server (Parquet or CSV: a file, a folder or a glob)", "path",
                          "", help=exp.path_help()).strip()
        if not path:
            st.info("Type the path of a Parquet or CSV file, a folder or a glob of them on this server.")
        else:
            exp.check_data_path(path)  # every visit: results shared between sessions are never a way round it
            columns = store.compute(exp.file_columns, path, inline=True)
            guess = exp.guess_label(columns)
            choice = st.selectbox("label column", ["(none)"] + columns,
                                  index=(columns.index(guess) + 1) if guess else 0, key="big_label",
                                  help="The class of each row: IK + OGD and FOGD learn to predict it.")
            big = exp.BigFileParams(path=path, label=None if choice == "(none)" else choice, psi=psi,
                                    t=min(t, 200), sample_rows=max_rows, seed=seed)
            if st.button("Read the file and learn over every row", key="btn_big", type="primary"):
                st.session_state["big_run"] = big
            if st.session_state.get("big_run") == big:
                big_result = store.compute(exp.big_file_check, big)
                show_big_result(big_result)
                source = exp.Source("big", path, label=big.label)
    else:
        source, file_notes = upload_source()
    if source is not None:
        data = store.compute(exp.load_source, source, max_rows, seed, inline=source.kind != "big")

if data is not None:
    params = exp.CheckParams(source, max_rows, scale, psi, t, seed)
    summary = upload.summary(data)
    cols = st.columns(4)
    cols[0].metric("rows", f"{summary['rows']:,}")
    cols[1].metric("features", summary["features"])
    cols[2].metric("classes", summary["classes"] or "none")
    cols[3].metric("constant columns", len(summary["constant_columns"]))
    for note in summary["notes"]:
        if note not in file_notes:
            st.info(note)
    if big_result is not None:
        st.caption(f"Plots show {len(data.X):,} of {big_result.n_rows:,} rows.")
    texts = plots.summary_texts(summary)
    if texts["constant"]:
        st.warning(texts["constant"])
    if texts["classes"] and not ui.presenting():
        st.caption(texts["classes"])
    has_classes = exp.two_classes(data.y)

    shown = {}
    for number, check in enumerate(exp.CHECKS, start=1):
        out = check_section(number, check, params, len(data.X), has_classes)
        if out is not None:
            shown[check] = out

    st.subheader("5 · A report to keep")
    title = source.title()
    fingerprint = exp.data_fingerprint(source, data)
    lines = plots.data_lines(data)

    def build_report() -> bytes:
        return plots.report(title, shown, fingerprint=fingerprint, data_lines=lines).encode("utf-8")

    st.download_button("Download the report (HTML)", data=build_report, on_click="ignore",
                       file_name=plots.report_file_name(source.name), mime="text/html",
                       key="report", disabled=not shown,
                       help="One standalone HTML file with every check shown above: figures, numbers, settings, "
                            "the file's SHA-256 fingerprint and the ikviz version.")
    st.caption(f"{len(shown)} of the checks above will be in the report." if shown else
               "Run a check first: the report keeps every check run on this data.")
