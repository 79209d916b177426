"""Density adaptivity (Ting et al. 2018, §2.2-2.3, Fig. 2-4): why IK is data-dependent."""

import streamlit as st

import figures
import ui
from ikviz.experiments import density as exp
from ikviz.plots import density as plots
from ikviz.plots import kernel_shapes as shape_plots

ui.page_header(
    "Density adaptivity",
    "Isolation Kernel is **data-dependent**: its cells are large where the data are sparse and small "
    "where they are dense, so two points in a sparse region are *more* similar than two points the same "
    "distance apart in a dense region. Laplacian L_ψ and RBF look only at the distance.",
)

with st.sidebar:
    st.header("Density adaptivity")
view = ui.section("density")
p = ui.controls(view.params, show=view.shows)


def contour_row(result, kernels, keys, probes=None):
    """One row of clickable contour plots, one per kernel: a click moves the reference ``keys``."""
    for col, kernel in zip(figures.grid(len(kernels)), kernels):
        with col:
            fig = figures.built(plots.result_contour, result, kernel, probes)
            figures.clickable(fig, f"density_{keys[0]}_{kernel}", *keys)


def quadrants(result):
    for problem in result.warnings:
        st.warning(problem)
    probes = plots.probe_points(p)
    for row in exp.QUADRANT_ROWS:
        contour_row(result, row, ("ref_x", "ref_y"), probes)
    left, right = figures.grid([3, 2])
    with left:
        figures.figure(figures.built(plots.pairs_figure, result.pairs), "pairs")
    with right:
        st.markdown("**Which pair is more similar?**")
        st.markdown(exp.verdict(result.pairs))
        if not ui.presenting():
            st.caption(plots.pairs_caption(p.t, result.data))


def margins(result):
    figures.figure(figures.built(plots.margin_figure, result), "margins")
    if not ui.presenting():
        st.caption(plots.margin_caption(p))


def similarity_vs_density(result):
    figures.figure(figures.built(plots.density_figure, result), "density")
    st.markdown(plots.trend_text(exp.density_trend(result)))
    if not ui.presenting():
        st.caption(plots.density_caption(p.n_pairs, p.pair_distance))


def real_data(result):
    contour_row(result, exp.REAL_DATA_KERNELS, ("ref_rx", "ref_ry"))
    if not ui.presenting():
        st.caption(plots.real_data_caption(p.dataset, result.data))


def grid(result):
    figures.figure(figures.built(plots.rmse_figure, result), "rmse")
    for text in plots.grid_summary_texts(result):
        st.markdown(text)
    if not ui.presenting():
        st.caption(plots.GRID_CAPTION)


def sharpness(result):
    figures.figure(figures.built(shape_plots.sharpness_figure, result), "sharpness")
    if not ui.presenting():
        st.caption(plots.sharpness_caption(p.t))


if not ui.presenting():
    if view.key == "Four quadrants":
        st.markdown(plots.QUADRANTS_INTRO)
    if view.key == "IK ≈ Laplacian (Fig. 2)":
        st.markdown(plots.grid_intro(p))
    if view.key == "Margin vs ψ":
        st.caption(f"t: this section uses t = {p.margin_t} partitionings per kernel.")
with ui.guarded(f"the {view.title} view"):
    ask = exp.grid_cost(p) if view.run is exp.run_grid else None
    result = figures.view(view.run, p, ask=ask)
    {"Four quadrants": quadrants, "Margin vs ψ": margins, "Similarity vs density": similarity_vs_density,
     "Real data": real_data, "IK ≈ Laplacian (Fig. 2)": grid, "Sharpness (Fig. 3)": sharpness}[view.key](result)
