"""Your data: load a CSV / Excel / Parquet / LIBSVM file, a bundled dataset or a big file on the server; check IK."""

import streamlit as st

import data_checks
import figures
import store
import ui
import uploads
from ikviz.data import dataset_info, dataset_label, dataset_names, upload
from ikviz.experiments import your_data as exp
from ikviz.plots import your_data as plots
from ikviz.scale.cluster import scheduler_address

MAX_ROWS_OPTIONS = [500, 1000, 2000, 5000]
PSI_OPTIONS = [4, 8, 16, 32, 64, 128, 256]
SOURCES = ["bundled dataset", "upload a file", "a big file on this server"]


def show_big_result(res: exp.BigFileResult) -> None:
    """What the pass over every row found: learning curves, held-out accuracy, rows per cell."""
    texts = plots.big_file_texts(res, scheduler_address())
    st.caption(texts["read"])
    if res.learn is not None:
        figures.figure(figures.built(plots.learn_figure, res.learn), "big_learn",
                       source=(exp.big_file_check, res.params))
        st.dataframe(plots.learn_table(res.learn), hide_index=True)
        st.caption(texts["learn"])
    figures.figure(figures.built(plots.cell_figure, res), "big_cells", source=(exp.big_file_check, res.params))
    if texts["purity"]:
        st.markdown(texts["purity"])


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
                          format_func=dataset_label)
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
        source, file_notes = uploads.source()
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
        out = data_checks.section(number, check, params, len(data.X), has_classes)
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
