"""Density adaptivity (Ting et al. 2018, §2.2-2.3, Fig. 2-4): why IK is data-dependent."""

import streamlit as st

import figures
import store
import ui
from ikviz.data import dataset_label
from ikviz.experiments import density as exp
from ikviz.experiments import kernel_shapes, surfaces
from ikviz.plots import density as plots
from ikviz.plots import kernel_shapes as shape_plots
from ikviz.plots.contours import similarity_contour

PSI_OPTIONS = [4, 8, 16, 32, 64, 128, 256, 512]
T_OPTIONS = [100, 200, 500, 1000, 2000]
GAMMA_OPTIONS = [0.1, 0.3, 1.0, 3.0, 10.0, 30.0]
SECTIONS = ["Four quadrants", "Margin vs ψ", "Similarity vs density", "Real data", "IK ≈ Laplacian (Fig. 2)",
            "Sharpness (Fig. 3)"]
VIEW_DATASETS = ["digits", "segment", "wheat-seeds", "wine", "iris", "vowel", "phoneme"]


def contour_row(kernels, spec, p, ref, keys, data, probes=None, cells=False):
    """One row of clickable contour plots, one per kernel; ``cells`` draws one partitioning of each IK."""
    for col, kernel in zip(figures.grid(len(kernels)), kernels):
        with col:
            settings = exp.surface_settings(p, ref)
            z = store.compute(surfaces.surface, kernel, spec, **settings)
            part = (store.compute(surfaces.partition_cells, kernel, spec, psi=p.psi, t=p.t, seed=p.seed, index=0)
                    if cells and kernel in surfaces.IK_KERNELS else None)
            chart_key = f"density_{keys[0]}_{kernel}"
            fig = figures.built(similarity_contour, surfaces.grid_axis(p.grid), z, title=surfaces.KERNELS[kernel][0],
                                ref=ref, data=data, probes=probes, partition=part, clickable=True, height=380)
            figures.clickable(fig, chart_key, *keys, source=(surfaces.surface, (kernel, spec), settings))


ui.page_header(
    "Density adaptivity",
    "Isolation Kernel is **data-dependent**: its cells are large where the data are sparse and small "
    "where they are dense, so two points in a sparse region are *more* similar than two points the same "
    "distance apart in a dense region. Laplacian L_ψ and RBF look only at the distance.",
)

with st.sidebar:
    st.header("Density adaptivity")
    section = ui.control(st.radio, "Show", "section", SECTIONS[0], options=SECTIONS)
    psi = ui.control(st.select_slider, "ψ", "psi", 32, options=PSI_OPTIONS,
                     help="Cells per partitioning. The density effect is clearest for ψ = 16–64.")
    if section == "Margin vs ψ":  # the margin curve fits many kernels: it has a t of its own
        t = st.session_state.get(ui.state_key("t"), 1000)
        if not ui.presenting():
            st.caption(f"t: this section uses t = {exp.Params.margin_t} partitionings per kernel.")
    else:
        t = ui.control(st.select_slider, "t", "t", 1000, options=T_OPTIONS)
    gamma = ui.control(st.select_slider, "RBF γ", "gamma", 1.0, options=GAMMA_OPTIONS)
    seed = ui.control(st.number_input, "seed", "seed", 0, min_value=0, max_value=10_000, step=1)
    with st.expander("Quadrant densities"):
        n_dense = ui.control(st.select_slider, "dense (bottom-left) points", "n_dense", 1600,
                             options=[400, 800, 1600, 3200])
        n_medium = ui.control(st.select_slider, "medium quadrants, points each", "n_medium", 400,
                              options=[100, 200, 400, 800])
        n_sparse = ui.control(st.select_slider, "sparse (top-right) points", "n_sparse", 100,
                              options=[25, 50, 100, 200, 400])
    show_cells = ui.control(st.toggle, "show one partitioning's cells", "cells", False,
                            help="Voronoi cells, iNNE balls and iForest boxes of the first partitioning: "
                                 "small where the data are dense, large where they are sparse.")
    ref_x = ui.control(st.slider, "reference x", "ref_x", 0.0, min_value=-1.0, max_value=1.0, step=0.05)
    ref_y = ui.control(st.slider, "reference y", "ref_y", 0.0, min_value=-1.0, max_value=1.0, step=0.05)
    with st.expander("Probe pairs (S: sparse, D: dense)"):
        coords = {}
        defaults = exp.probe_coords(exp.Params())
        for row in (("s1x", "s1y"), ("s2x", "s2y"), ("d1x", "d1y"), ("d2x", "d2y")):
            cols = st.columns(2)
            for col, key in zip(cols, row):
                coords[key] = ui.control(col.number_input, f"{key[0].upper()}{key[1]} {key[2]}", key,
                                         defaults[key], min_value=-2.0, max_value=2.0, step=0.05)

p = exp.Params(n_dense=n_dense, n_medium=n_medium, n_sparse=n_sparse, psi=psi, t=t, gamma=gamma,
               ref_x=ref_x, ref_y=ref_y, seed=int(seed), **exp.probe_pairs(coords))
spec = exp.quadrant_spec(p.counts, p.seed)
ref = (p.ref_x, p.ref_y)

if section == "Four quadrants":
    if not ui.presenting():
        st.markdown(plots.QUADRANTS_INTRO)
    with ui.guarded("the four-quadrant view"):
        for problem in exp.check_probes(p.sparse_pair, p.dense_pair):
            st.warning(problem)
        data = store.compute(surfaces.make_data, spec, inline=True)
        probes = plots.probe_points(p)
        ik_row, distance_row = exp.QUADRANT_ROWS
        contour_row(ik_row, spec, p, ref, ("ref_x", "ref_y"), data, probes, cells=show_cells)
        contour_row(distance_row, spec, p, ref, ("ref_x", "ref_y"), data, probes)
        args, kwargs = (p.counts, p.sparse_pair, p.dense_pair), {"psi": p.psi, "t": p.t, "gamma": p.gamma,
                                                                  "seed": p.seed}
        pairs = store.compute(exp.probe_similarities, *args, **kwargs)
        left, right = figures.grid([3, 2])
        with left:
            figures.figure(figures.built(plots.pairs_figure, pairs), "pairs",
                           source=(exp.probe_similarities, args, kwargs))
        with right:
            st.markdown("**Which pair is more similar?**")
            st.markdown(exp.verdict(pairs))
            if not ui.presenting():
                st.caption(plots.pairs_caption(p.t, data))

elif section == "Margin vs ψ":
    with ui.guarded("the margin curve"):
        args = (p.counts, p.sparse_pair, p.dense_pair)
        kwargs = {"psis": p.margin_psis, "t": p.margin_t, "seeds": p.margin_seeds, "seed": p.seed}
        margins = store.compute(exp.margin_curve, *args, **kwargs)
        figures.figure(figures.built(plots.margin_figure, margins), "margins", source=(exp.margin_curve, args, kwargs))
        if not ui.presenting():
            st.caption(plots.margin_caption(p))

elif section == "Similarity vs density":
    with st.sidebar:
        distance = ui.control(st.select_slider, "pair distance (L1 / d)", "pair_dist", 0.1,
                              options=[0.02, 0.05, 0.1, 0.2, 0.3])
        k = ui.control(st.select_slider, "k for the density estimate", "k", 10, options=[5, 10, 20, 50])
    with ui.guarded("similarity against density"):
        kwargs = {"psi": p.psi, "t": p.t, "distance": distance, "n_pairs": p.n_pairs, "k": k, "seed": p.seed}
        dens = store.compute(exp.similarity_vs_density, p.counts, **kwargs)
        figures.figure(figures.built(plots.density_figure, dens), "density",
                       source=(exp.similarity_vs_density, (p.counts,), kwargs))
        st.markdown(plots.trend_text(exp.density_trend(dens)))
        if not ui.presenting():
            st.caption(plots.density_caption(p.n_pairs, distance))

elif section == "Real data":
    with st.sidebar:
        name = ui.control(st.selectbox, "dataset", "dataset", "digits", options=VIEW_DATASETS,
                          format_func=dataset_label)
        ref_rx = ui.control(st.slider, "reference x (real data)", "ref_rx", 0.0, min_value=-1.0, max_value=1.0,
                            step=0.05)
        ref_ry = ui.control(st.slider, "reference y (real data)", "ref_ry", 0.0, min_value=-1.0, max_value=1.0,
                            step=0.05)
    with ui.guarded("the real-data view"):
        view_spec = exp.real_data_spec(name, p.seed)
        data = store.compute(surfaces.make_data, view_spec)
        contour_row(exp.REAL_DATA_KERNELS, view_spec, p, (ref_rx, ref_ry), ("ref_rx", "ref_ry"), data)
        if not ui.presenting():
            st.caption(plots.real_data_caption(name, data))

elif section == "IK ≈ Laplacian (Fig. 2)":
    grid_p = exp.GridParams(t=p.t, seed=p.seed)
    if not ui.presenting():
        st.markdown(plots.grid_intro(grid_p))
    run_now = st.button("Compute the grid", type="primary",
                        help="Runs 50 cells; under a minute on 2 cores. Results are cached.")
    key = f"grid_{grid_p}"
    if run_now or key in st.session_state:
        with ui.guarded("the RMSE grid"):
            grid = store.compute(exp.run_grid, grid_p)
            st.session_state[key] = True
            figures.figure(figures.built(plots.rmse_figure, grid), "rmse", source=(exp.run_grid, grid_p))
            for text in plots.grid_summary_texts(grid):
                st.markdown(text)
            if not ui.presenting():
                st.caption(plots.GRID_CAPTION)

else:  # Sharpness
    with ui.guarded("the sharpness profiles"):
        t_sharp = exp.sharpness_t(p.t)
        profiles = [store.compute(kernel_shapes.sharpness, n=2000, psi=q, t=t_sharp, ref=(0.0, 0.0),
                                  seed=p.seed) for q in exp.sharpness_psis(p.psi)]
        figures.figure(figures.built(shape_plots.sharpness_figure, profiles), "sharpness",
                       source=(kernel_shapes.sharpness, (),
                               {"n": 2000, "psi": p.psi, "t": t_sharp, "ref": (0.0, 0.0), "seed": p.seed}))
        if not ui.presenting():
            st.caption(plots.sharpness_caption(p.t))
