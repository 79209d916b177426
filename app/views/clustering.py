"""Clustering lab (ting2021 §4.2.2, Fig. 2, Table 3, Table 7; wang2017 §4.4): spectral clustering,
density peaks and k-means with IK against Gaussian, adaptive Gaussian, distance and RandLocal."""

import streamlit as st

import figures
import ui
from ikviz.clustering import match_labels
from ikviz.experiments import clustering as exp
from ikviz.plots import clustering as plots

# the sidebar's parts (labels, choices and defaults: exp.Params); the rest goes under "More settings"
DATA_AND_METHOD = {"dataset", "w", "n_per_cluster", "sigma_b", "ratio", "n_ratio", "max_points", "algorithm",
                   "ik_variant"}
MEASURES_AND_PARAMETERS = {"show_distance", "show_raw", "show_ik", "show_gk", "show_ag", "show_randlocal", "mode",
                           "psi", "mu", "ag_fraction", "eps", "k"}
MORE = {"t", "trials", "seed"}

ui.page_header(
    "Clustering lab",
    "Cluster the same data with **spectral clustering**, **density peaks** or **k-means**, each on an "
    "Isolation Kernel measure and on its usual alternatives, and score the result against the true "
    "classes with **AMI** (adjusted mutual information: 1 = the classes recovered, 0 = no better than "
    "chance). The default data are ting2021's **w-Gaussians**: two Gaussian clusters, each living in "
    "its own w-dimensional subspace, which meet only at the origin. With w = 1 they are two lines "
    "crossing at the origin (Fig. 2): dense there, where a Gaussian kernel cannot tell them apart.",
)

with st.sidebar:
    st.header("Clustering lab")
ui.controls(exp.Params, show=DATA_AND_METHOD)
if not ui.presenting():
    st.sidebar.caption("Measures to compare")
ui.controls(exp.Params, show=MEASURES_AND_PARAMETERS)
p = ui.controls(exp.Params, show=MORE, where=st.sidebar.expander("More settings"))

if not p.chosen_measures():
    st.info("Tick at least one measure in the sidebar to compare.")
    ui.stop()

with ui.guarded("the clustering"):
    result = figures.view(exp.run, p)
    if result.problem:
        st.warning(result.problem)
        ui.stop()
    data = p.data()
    if not ui.presenting():
        st.caption(plots.data_caption(data, result.shape, result.y, p.k))

    X2, y, evaluations = result.X2, result.y, result.evaluations
    axis_titles = exp.projection_axes(data, result.shape[1])[:2]
    cols = figures.grid(1 + len(evaluations))
    with cols[0]:
        fig = figures.built(plots.scatter_figure, X2, y, "true classes<br><sub>the labels AMI compares with</sub>",
                            axis_titles=axis_titles)
        figures.figure(fig, "chart_classes")
    for col, (m, ev) in zip(cols[1:], evaluations.items()):
        with col:
            shown = match_labels(y, ev.labels)  # a recovered class keeps its colour
            fig = figures.built(plots.scatter_figure, X2, shown, plots.evaluation_title(ev), centres=ev.centres,
                                axis_titles=axis_titles)
            figures.figure(fig, f"chart_{m}")
            if p.algorithm == "density_peaks":
                figures.figure(figures.built(plots.decision_graph_figure, ev), f"chart_dg_{m}")
                note = plots.decision_graph_note(ev)
                if note:
                    st.info(note)

    ui.table(plots.summary_table(result), formats={"AMI": "{:.3f}", "NMI": "{:.3f}"})
    if result.sweeps:
        figures.figure(figures.built(plots.sweep_figure, result.sweeps), "chart_sweep")

    notes = plots.view_notes(p.algorithm, p.mode)
    if notes and not ui.presenting():
        st.caption(notes)
