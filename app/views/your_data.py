"""Your data: load a CSV / Excel / Parquet / LIBSVM file, a bundled dataset or a big file on the server; check IK.

Layout only: every section is one run of :mod:`ikviz.experiments.your_data` through the store (the sections are
drawn by ``data_checks`` and ``uploads``); ``ikviz check`` runs the same runs with the same defaults."""

import dataclasses

import streamlit as st

import data_checks
import store
import ui
import uploads
from ikviz.data import Data, dataset_info, dataset_label, dataset_names
from ikviz.experiments import your_data as exp

SOURCES = ["bundled dataset", "upload a file", "a big file on this server"]

ui.page_header(
    "Your data",
    "Would Isolation Kernel beat a Gaussian kernel on *your* data, and why? Load a CSV, Excel, Parquet or "
    "LIBSVM/svmlight file, pick a bundled dataset, or point to a big Parquet/CSV file on this server, then run "
    "the checks below: nearest-neighbour instability and hubness, an SVM (or, for a numeric target, regression) "
    "comparison over cross-validation folds, t-SNE, and clustering. The summary at the top says what the numbers "
    "mean; the report at the end keeps every result.",
)

with st.sidebar:
    st.header("Your data")
    source_kind = ui.control(st.radio, "data source", "source", "bundled dataset", options=SOURCES,
                             help="Browser uploads are capped at 50 MB and kept in memory only. Files bigger than "
                                  "memory (Parquet or CSV) are read from the server's disk with Dask, only when "
                                  "the server sets IKVIZ_DATA_ROOT.")
params = ui.controls(exp.CheckParams, source=Data("wine"))

source = data = None
file_notes: list[str] = []
with ui.guarded("the data"):
    if source_kind == "bundled dataset":
        name = ui.control(st.selectbox, "dataset", "dataset", "wine", options=dataset_names(),
                          format_func=dataset_label)
        st.caption(f"Source and licence: {dataset_info(name).licence}; see datasets/SOURCES.md.")
        source, file_notes = Data(name), [f"licence: {dataset_info(name).licence}"]   # shown in the caption above
    elif source_kind == "a big file on this server":
        source = data_checks.big_source(params)
    else:
        source, file_notes = uploads.source()
    if source is not None:
        params = dataclasses.replace(params, source=source)
        kind = exp.source_kind(source)
        data = store.compute(exp.load_source, source, params.max_rows, params.seed, inline=kind != "big",
                             persist=kind != "upload")

if data is not None:
    data_checks.overview(data, file_notes)
    top = st.container()
    task, shown = exp.data_task(data), {}
    for number, check in enumerate(exp.page_checks(task), start=1):
        out = data_checks.section(number, check, params, len(data.X), task, data)
        if out is not None:
            shown[check] = out
    with top:
        data_checks.summary(shown)
    data_checks.report(source, data, shown, len(exp.page_checks(task)) + 1)
