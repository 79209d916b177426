"""Your data: load a CSV / LIBSVM file or a bundled dataset and check whether IK helps on it."""

import os

import numpy as np
import streamlit as st

import store
import ui
from ikviz.data import dataset_info, dataset_names
from ikviz.data import upload
from ikviz.experiments import your_data as exp
from ikviz.plots import your_data as plots

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
    state_key = f"ran_{key}_{st.session_state.get('_data_fingerprint')}"
    if st.button(label, key=f"btn_{key}", help=help_text):
        st.session_state[state_key] = True
    return bool(st.session_state.get(state_key))


ui.page_header(
    "Your data",
    "Would Isolation Kernel beat a Gaussian kernel on *your* data, and why? Load a CSV file (with a header row) "
    "or a LIBSVM/svmlight file, or pick a bundled dataset, then run the checks below: nearest-neighbour "
    "instability and hubness, a quick SVM comparison, t-SNE, and clustering. Each runs on demand.",
)

with st.sidebar:
    st.header("Your data")
    source = ui.control(st.radio, "data source", "source", "bundled dataset", options=SOURCES,
                        help="Browser uploads are capped at 50 MB. Files bigger than memory (Parquet or CSV, a "
                             "folder or a glob of them) are read from the server's disk with Dask.")
    max_rows = ui.control(st.select_slider, "rows used by the checks (at most)", "max_rows", 2000,
                          options=MAX_ROWS_OPTIONS, help="Larger data are subsampled at random, with a notice.")
    scale = ui.control(st.toggle, "min-max scale features to [0, 1]", "scale", True,
                       help="The papers scale every feature to [0, 1] before comparing kernels.")
    psi = ui.control(st.select_slider, "IK ψ", "psi", 32, options=PSI_OPTIONS)
    t = ui.control(st.select_slider, "IK t", "t", 200, options=[50, 100, 200, 500])
    seed = ui.control(st.number_input, "seed", "seed", 0, min_value=0, max_value=10_000, step=1)

data = None
with ui.guarded("the data"):
    if source == "bundled dataset":
        names = dataset_names()
        name = ui.control(st.selectbox, "dataset", "dataset", "wine", options=names,
                          format_func=lambda n: f"{n} — {dataset_info(n).title} ({dataset_info(n).n}×"
                                                f"{dataset_info(n).d})")
        data = store.compute(exp.bundled, name, inline=True)
        st.caption(f"Source and licence: {dataset_info(name).licence}; see datasets/SOURCES.md.")
        fingerprint = f"bundled:{name}"
    elif source == "a big file on this server":
        data = None
        path = ui.control(st.text_input, "path on the server (Parquet or CSV: a file, a folder or a glob)", "path",
                          "", help="Read with Dask, never loaded whole: the kernel is fitted on a sample, IK + OGD "
                                   "and FOGD learn from every row. "
                                   + (f"Only paths inside {os.environ[exp.DATA_ROOT_ENV]} can be read."
                                      if os.environ.get(exp.DATA_ROOT_ENV) else
                                      f"Set {exp.DATA_ROOT_ENV} to restrict the folders visitors can read."))
        if not path:
            st.info("Type the path of a Parquet or CSV file, a folder or a glob of them on this server.")
        else:
            columns = store.compute(exp.file_columns, path, inline=True)
            guess = exp.guess_label(columns)
            choice = st.selectbox("label column", ["(none)"] + columns,
                                  index=(columns.index(guess) + 1) if guess else 0, key="big_label")
            big = exp.BigFileParams(path=path, label=None if choice == "(none)" else choice, psi=psi,
                                    t=min(t, 200), sample_rows=max_rows, seed=int(seed))
            if st.button("Read the file and learn over every row", key="btn_big", type="primary"):
                st.session_state["big_run"] = big
            if st.session_state.get("big_run") == big:
                res = store.compute(exp.big_file_check, big)
                st.caption(f"{res.n_rows:,} rows, {len(res.features)} numeric features, read in {res.seconds:.1f} s. "
                           f"The checks below and every plot use a random sample of {len(res.sample.X):,} of the "
                           f"{res.n_rows:,} rows (drawn by row index).")
                if res.learn is not None:
                    st.plotly_chart(plots.learn_figure(res.learn), key="big_learn")
                    st.dataframe(plots.learn_table(res.learn), hide_index=True)
                data = res.sample
                fingerprint = f"big:{path}:{big.label}"
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
            data = store.compute(upload.read_table, raw, inline=True, label=label, missing="drop" if drop else "error")
            fingerprint = f"upload:{filename}:{len(raw)}:{label}:{drop}"

if data is not None:
    data = upload.subsample(data, max_rows, seed=int(seed))
    st.session_state["_data_fingerprint"] = f"{fingerprint}:{max_rows}:{scale}:{psi}:{t}:{seed}"
    summary = upload.summary(data)
    cols = st.columns(4)
    cols[0].metric("rows", f"{summary['rows']:,}")
    cols[1].metric("features", summary["features"])
    cols[2].metric("classes", summary["classes"] or "none")
    cols[3].metric("constant columns", len(summary["constant_columns"]))
    for note in summary["notes"]:
        st.info(note)
    if summary["constant_columns"]:
        shown = ", ".join(summary["constant_columns"][:10])
        st.warning(f"Constant columns carry no information and are ignored by every kernel: {shown}.")
    if summary["class_counts"] and not ui.presenting():
        st.caption("Class counts: " + ", ".join(f"{k}: {v}" for k, v in summary["class_counts"].items()))
    X = exp.prepare(data.X, scale=scale)
    y = data.y
    p = dict(psi=psi, t=t, seed=int(seed))
    has_classes = y is not None and len(np.unique(y)) >= 2

    st.subheader("1 · Nearest neighbours: instability and hubness")
    if run_button("Run the neighbour check", "neighbours", "IK vs Gaussian: N_eps and k-occurrence skewness"):
        with ui.guarded("the neighbour check"):
            res = store.compute(exp.neighbour_check, X, y, **p)
            st.plotly_chart(plots.neighbour_figure(res), key="neighbours")
            st.markdown(exp.neighbour_verdict(res))

    st.subheader("2 · SVM: IK vs RBF vs linear")
    if not has_classes:
        st.info("The SVM comparison needs a label column with at least two classes.")
    elif run_button("Run the SVM comparison", "svm", "Train/test split, accuracy and time per kernel"):
        with ui.guarded("the SVM comparison"):
            res = store.compute(exp.svm_check, X, y, **p)
            st.dataframe(plots.svm_table(res), hide_index=True)

    st.subheader("3 · t-SNE: Gaussian vs IK affinities")
    if run_button("Run t-SNE", "tsne", "Two t-SNE embeddings side by side, coloured by class"):
        with ui.guarded("t-SNE"):
            res = store.compute(exp.tsne_check, X, y, **p)
            st.plotly_chart(plots.tsne_figure(res), key="tsne")

    st.subheader("4 · Clustering: spectral clustering with IK vs Gaussian")
    if not has_classes:
        st.info("The clustering comparison scores clusters against the classes, so it needs a label column "
                "with at least two classes.")
    elif run_button("Run the clustering comparison", "clustering", "Spectral clustering, AMI against the classes"):
        with ui.guarded("the clustering comparison"):
            res = store.compute(exp.clustering_check, X, y, **p)
            st.dataframe(plots.clustering_table(res), hide_index=True)
