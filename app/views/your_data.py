"""Your data: load a CSV / LIBSVM file, a bundled dataset or a big file on the server, and check whether IK helps."""

import numpy as np
import streamlit as st

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
    """Keep the uploaded file's bytes in the session, so reruns and the checks reuse them."""
    file = st.session_state.get("uploader")
    if file is None:
        st.session_state.pop("upload_bytes", None)
    else:
        st.session_state["upload_bytes"] = file.getvalue()
        st.session_state["upload_name"] = file.name


def run_button(label: str, key: str, help_text: str) -> bool:
    """A button whose 'pressed' state survives reruns until the data or settings change."""
    state_key = f"ran_{key}_{st.session_state.get('_checks_key')}"
    if st.button(label, key=f"btn_{key}", help=help_text):
        st.session_state[state_key] = True
    return bool(st.session_state.get(state_key))


def path_help() -> str:
    root = exp.data_root()
    where = (f"Only paths inside {root} can be read ({exp.DATA_ROOT_ENV})." if root else
             f"Any folder this server can read is allowed: set {exp.DATA_ROOT_ENV} to restrict typed paths to "
             "one folder.")
    return ("Read with Dask, never loaded whole: the kernel is fitted on rows drawn by row index, every row is "
            "mapped to its cells, IK + OGD and FOGD learn from every row. Only Parquet (.parquet, .pq) and CSV "
            f"(.csv) files are opened. {where}")


def show_big_result(res: exp.BigFileResult) -> None:
    """What the pass over every row found: learning curves, held-out accuracy, rows per cell."""
    p = res.params
    cluster = scheduler_address() or "this server's local Dask cluster"
    st.caption(f"{res.n_rows:,} rows, {len(res.features)} numeric features, read in {res.seconds:.1f} s on "
               f"{cluster}. The Isolation Kernel (ψ = {p.psi}, t = {p.t}) was fitted on {res.fit_rows:,} rows drawn "
               f"by row index; every row was then mapped to its cells.")
    if res.learn is not None:
        st.plotly_chart(plots.learn_figure(res.learn), key="big_learn")
        st.dataframe(plots.learn_table(res.learn), hide_index=True)
        st.caption(f"IK + OGD fits its feature map on the first {p.prefix:,} training rows and then learns from "
                   f"every training row, as `ikviz scale learn` does; {p.test_fraction:.0%} of each block is held "
                   "out for the accuracy.")
    st.plotly_chart(plots.cell_figure(res), key="big_cells")
    cells = exp.cell_summary(res)
    if cells["purity"] is not None:
        st.markdown(f"Cell purity over all {res.n_rows:,} rows: **{cells['purity']:.1%}** of rows share the "
                    f"majority class of their cell (averaged over the {p.t} partitionings); the largest class alone "
                    f"is {cells['majority']:.1%}.")


ui.page_header(
    "Your data",
    "Would Isolation Kernel beat a Gaussian kernel on *your* data, and why? Load a CSV file (with a header row) "
    "or a LIBSVM/svmlight file, pick a bundled dataset, or point to a big Parquet/CSV file on this server, then "
    "run the checks below: nearest-neighbour instability and hubness, a quick SVM comparison, t-SNE, and "
    "clustering. Each runs on demand.",
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
with ui.guarded("the data"):
    if source_kind == "bundled dataset":
        name = ui.control(st.selectbox, "dataset", "dataset", "wine", options=dataset_names(),
                          format_func=lambda n: f"{n} — {dataset_info(n).title} ({dataset_info(n).n}×"
                                                f"{dataset_info(n).d})")
        st.caption(f"Source and licence: {dataset_info(name).licence}; see datasets/SOURCES.md.")
        source = exp.Source("bundled", name)
    elif source_kind == "a big file on this server":
        path = ui.control(st.text_input, "path on the server (Parquet or CSV: a file, a folder or a glob)", "path",
                          "", help=path_help()).strip()
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
        st.file_uploader("CSV (header row) or LIBSVM/svmlight file", key="uploader", on_change=keep_upload,
                         type=["csv", "txt", "tsv", "data", "svm", "libsvm", "svmlight"])
        raw, filename = st.session_state.get("upload_bytes"), st.session_state.get("upload_name", "")
        if raw is None:
            st.info("Upload a file to start, or switch to a bundled dataset in the sidebar.")
        else:
            st.caption(f"File: {filename} ({len(raw) / 1024:,.1f} KB)")
            columns = upload.read_columns(raw)
            label = None
            if columns:
                guess = exp.guess_label(columns)
                choice = st.selectbox("label column", ["(none)"] + columns,
                                      index=(columns.index(guess) + 1) if guess else 0,
                                      help="The column holding the class of each row, if there is one.")
                label = None if choice == "(none)" else choice
            drop = st.checkbox("drop rows with missing values", value=False)
            source = exp.Source("upload", filename, raw, label, drop)
    if source is not None:
        data = store.compute(exp.load_source, source, max_rows, seed, inline=source.kind != "big")

if data is not None:
    params = exp.CheckParams(source, max_rows, scale, psi, t, seed)
    st.session_state["_checks_key"] = hash(params)
    summary = upload.summary(data)
    cols = st.columns(4)
    cols[0].metric("rows", f"{summary['rows']:,}")
    cols[1].metric("features", summary["features"])
    cols[2].metric("classes", summary["classes"] or "none")
    cols[3].metric("constant columns", len(summary["constant_columns"]))
    for note in summary["notes"]:
        st.info(note)
    if big_result is not None:
        st.caption(f"Plots show {len(data.X):,} of {big_result.n_rows:,} rows.")
    if summary["constant_columns"]:
        shown = ", ".join(summary["constant_columns"][:10])
        st.warning(f"Constant columns carry no information and are ignored by every kernel: {shown}.")
    if summary["class_counts"] and not ui.presenting():
        st.caption("Class counts: " + ", ".join(f"{k}: {v}" for k, v in summary["class_counts"].items()))
    has_classes = data.y is not None and len(np.unique(data.y)) >= 2

    st.subheader("1 · Nearest neighbours: instability and hubness")
    if run_button("Run the neighbour check", "neighbours", "IK vs Gaussian: N_eps and k-occurrence skewness"):
        with ui.guarded("the neighbour check"):
            res = store.compute(exp.neighbour_check_run, params)
            st.plotly_chart(plots.neighbour_figure(res), key="neighbours")
            st.markdown(exp.neighbour_verdict(res))

    st.subheader("2 · SVM: IK vs RBF vs linear")
    if not has_classes:
        st.info("The SVM comparison needs a label column with at least two classes.")
    elif run_button("Run the SVM comparison", "svm", "Train/test split, accuracy and time per kernel"):
        with ui.guarded("the SVM comparison"):
            st.dataframe(plots.svm_table(store.compute(exp.svm_check_run, params)), hide_index=True)

    st.subheader("3 · t-SNE: Gaussian vs IK affinities")
    if run_button("Run t-SNE", "tsne", "Two t-SNE embeddings side by side, coloured by class"):
        with ui.guarded("t-SNE"):
            st.plotly_chart(plots.tsne_figure(store.compute(exp.tsne_check_run, params)), key="tsne")

    st.subheader("4 · Clustering: spectral clustering with IK vs Gaussian")
    if not has_classes:
        st.info("The clustering comparison scores clusters against the classes, so it needs a label column "
                "with at least two classes.")
    elif run_button("Run the clustering comparison", "clustering", "Spectral clustering, AMI against the classes"):
        with ui.guarded("the clustering comparison"):
            st.dataframe(plots.clustering_table(store.compute(exp.clustering_check_run, params)), hide_index=True)
