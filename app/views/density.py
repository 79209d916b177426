"""Density adaptivity (Ting et al. 2018, §2.2-2.3, Fig. 2-4): why IK is data-dependent."""

import numpy as np
import streamlit as st

import figures
import store
import ui
from ikviz.data import dataset_info
from ikviz.experiments import density as exp
from ikviz.experiments import kernel_shapes, surfaces
from ikviz.plots import density as plots
from ikviz.plots import kernel_shapes as shape_plots
from ikviz.plots.contours import MAX_BACKDROP_POINTS, similarity_contour

PSI_OPTIONS = [4, 8, 16, 32, 64, 128, 256, 512]
T_OPTIONS = [100, 200, 500, 1000, 2000]
GAMMA_OPTIONS = [0.1, 0.3, 1.0, 3.0, 10.0, 30.0]
SECTIONS = ["Four quadrants", "Margin vs ψ", "Similarity vs density", "Real data", "IK ≈ Laplacian (Fig. 2)",
            "Sharpness (Fig. 3)"]
VIEW_DATASETS = ["digits", "segment", "wheat-seeds", "wine", "iris", "vowel", "phoneme"]

def move_reference(chart_key: str, x_key: str, y_key: str) -> None:
    """Chart-click callback: put the reference point where the user clicked."""
    points = st.session_state[chart_key].selection.points
    if points:
        ui.set_value(x_key, round(float(points[0]["x"]), 2))
        ui.set_value(y_key, round(float(points[0]["y"]), 2))


def _backdrop_note(data) -> str:
    """Say so when the contour plots draw a sample of the points (the kernels always use all of them)."""
    if len(data) <= MAX_BACKDROP_POINTS:
        return ""
    return (f" The dots are a seeded sample of {MAX_BACKDROP_POINTS:,} of the {len(data):,} points; the kernels "
            "use all of them.")


def contour_row(kernels, spec, p, ref, keys, data, probes=None, cells=False):
    """One row of clickable contour plots, one per kernel; ``cells`` draws one partitioning of each IK."""
    for col, kernel in zip(figures.grid(len(kernels)), kernels):
        with col:
            settings = {"psi": p.psi, "t": p.t, "gamma": p.gamma, "ref": ref, "grid": p.grid, "seed": p.seed}
            z = store.compute(surfaces.surface, kernel, spec, **settings)
            part = (store.compute(surfaces.partition_cells, kernel, spec, psi=p.psi, t=p.t, seed=p.seed, index=0)
                    if cells and kernel in surfaces.IK_KERNELS else None)
            chart_key = f"density_{keys[0]}_{kernel}"
            fig = similarity_contour(surfaces.grid_axis(p.grid), z, title=surfaces.KERNELS[kernel][0], ref=ref,
                                     data=data, probes=probes, partition=part, clickable=True, height=380)
            # the camera alone in the toolbar: clicks move the reference, so no zoom or pan
            figures.figure(fig, chart_key, source=(surfaces.surface, (kernel, spec), settings),
                           selection_mode="points", config={"modeBarButtons": [["toImage"]]},
                           on_select=lambda c=chart_key: move_reference(c, *keys))


ui.page_header(
    "Density adaptivity",
    "Isolation Kernel is **data-dependent**: its cells are large where the data are sparse and small "
    "where they are dense, so two points in a sparse region are *more* similar than two points the same "
    "distance apart in a dense region. Laplacian L_ψ and RBF look only at the distance.",
)
QUADRANTS_INTRO = ("The square below has four quadrants of different density (densest bottom-left, sparsest "
                   "top-right); **S** and **D** are two probe pairs at equal distance, one in the sparse and one "
                   "in the dense quadrant. Click a contour plot to move the reference point.")

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
        defaults = {"s1x": 0.0, "s1y": 0.0, "s2x": 0.25, "s2y": 0.25, "d1x": 0.0, "d1y": 0.0,
                    "d2x": -0.25, "d2y": -0.25}
        for row in (("s1x", "s1y"), ("s2x", "s2y"), ("d1x", "d1y"), ("d2x", "d2y")):
            cols = st.columns(2)
            for col, key in zip(cols, row):
                coords[key] = ui.control(col.number_input, f"{key[0].upper()}{key[1]} {key[2]}", key,
                                         defaults[key], min_value=-2.0, max_value=2.0, step=0.05)

p = exp.Params(n_dense=n_dense, n_medium=n_medium, n_sparse=n_sparse, psi=psi, t=t, gamma=gamma,
               ref_x=ref_x, ref_y=ref_y, seed=int(seed),
               sparse_pair=((coords["s1x"], coords["s1y"]), (coords["s2x"], coords["s2y"])),
               dense_pair=((coords["d1x"], coords["d1y"]), (coords["d2x"], coords["d2y"])))
spec = exp.quadrant_spec(p.counts, p.seed)
ref = (p.ref_x, p.ref_y)

if section == "Four quadrants":
    if not ui.presenting():
        st.markdown(QUADRANTS_INTRO)
    with ui.guarded("the four-quadrant view"):
        for problem in exp.check_probes(p.sparse_pair, p.dense_pair):
            st.warning(problem)
        data = store.compute(surfaces.make_data, spec, inline=True)
        probes = {"S": np.array(p.sparse_pair), "D": np.array(p.dense_pair)}
        contour_row(("ik_anne", "ik_inne", "ik_iforest"), spec, p, ref, ("ref_x", "ref_y"), data, probes,
                    cells=show_cells)
        contour_row(("laplacian_psi", "rbf"), spec, p, ref, ("ref_x", "ref_y"), data, probes)
        pairs = store.compute(exp.probe_similarities, p.counts, p.sparse_pair, p.dense_pair, psi=p.psi, t=p.t,
                              gamma=p.gamma, seed=p.seed)
        left, right = figures.grid([3, 2])
        with left:
            figures.figure(plots.pairs_figure(pairs), "pairs",
                           source=(exp.probe_similarities, (p.counts, p.sparse_pair, p.dense_pair),
                                   {"psi": p.psi, "t": p.t, "gamma": p.gamma, "seed": p.seed}))
        with right:
            st.markdown("**Which pair is more similar?**")
            st.markdown(exp.verdict(pairs))
            if not ui.presenting():
                st.caption(f"IK with t = {p.t} partitionings: values are multiples of 1/t = {1 / p.t:g}. "
                           "The effect shrinks as ψ grows (see *Margin vs ψ*)." + _backdrop_note(data))

elif section == "Margin vs ψ":
    with ui.guarded("the margin curve"):
        margins = store.compute(exp.margin_curve, p.counts, p.sparse_pair, p.dense_pair, psis=p.margin_psis,
                                t=p.margin_t, seeds=p.margin_seeds, seed=p.seed)
        figures.figure(plots.margin_figure(margins), "margins",
                       source=(exp.margin_curve, (p.counts, p.sparse_pair, p.dense_pair),
                               {"psis": p.margin_psis, "t": p.margin_t, "seeds": p.margin_seeds, "seed": p.seed}))
        if not ui.presenting():
            st.caption(f"K(S) − K(D) for the probe pairs S and D of *Four quadrants*, mean with min–max over "
                       f"{p.margin_seeds} kernel seeds (t = {p.margin_t}, whatever the t slider of the other "
                       "sections says). Above 0: the sparse pair is more similar. L_ψ is 0 for any ψ because both "
                       "pairs are the same distance apart.")

elif section == "Similarity vs density":
    with st.sidebar:
        distance = ui.control(st.select_slider, "pair distance (L1 / d)", "pair_dist", 0.1,
                              options=[0.02, 0.05, 0.1, 0.2, 0.3])
        k = ui.control(st.select_slider, "k for the density estimate", "k", 10, options=[5, 10, 20, 50])
    with ui.guarded("similarity against density"):
        dens = store.compute(exp.similarity_vs_density, p.counts, psi=p.psi, t=p.t, distance=distance,
                             n_pairs=p.n_pairs, k=k, seed=p.seed)
        figures.figure(plots.density_figure(dens), "density",
                       source=(exp.similarity_vs_density, (p.counts,),
                               {"psi": p.psi, "t": p.t, "distance": distance, "n_pairs": p.n_pairs, "k": k,
                                "seed": p.seed}))
        trend = exp.density_trend(dens)
        st.markdown(" · ".join(f"Spearman ρ(similarity, density), {surfaces.KERNELS[k_][0]}: **{v:+.2f}**"
                               for k_, v in trend.items()))
        if not ui.presenting():
            st.caption(f"{p.n_pairs} random pairs, each exactly {distance:g} apart (L1 / d), anywhere in the "
                       "square. A data-independent kernel gives every pair the same value (dashed line); "
                       "IK gives pairs in sparse places higher similarity.")

elif section == "Real data":
    with st.sidebar:
        name = ui.control(st.selectbox, "dataset", "dataset", "digits", options=VIEW_DATASETS)
        ref_rx = ui.control(st.slider, "reference x (real data)", "ref_rx", 0.0, min_value=-1.0, max_value=1.0,
                            step=0.05)
        ref_ry = ui.control(st.slider, "reference y (real data)", "ref_ry", 0.0, min_value=-1.0, max_value=1.0,
                            step=0.05)
    with ui.guarded("the real-data view"):
        info = dataset_info(name)
        view_spec = ("tsne", name, 2000, p.seed)
        data = store.compute(surfaces.make_data, view_spec)
        contour_row(("ik_anne", "ik_iforest", "laplacian_psi"), view_spec, p, (ref_rx, ref_ry),
                    ("ref_rx", "ref_ry"), data)
        if not ui.presenting():
            st.caption(f"A t-SNE view of {info.title} ({min(info.n, 2000)} points, scaled to [−1, 1]²), as the "
                       "paper did with the Forest data (Fig. 4c–d). IK is computed on this 2-D view: its contours "
                       "stretch along the clusters and stop at the gaps between them; Laplacian's are the same "
                       "diamond everywhere. Click a plot to move the reference." + _backdrop_note(data))

elif section == "IK ≈ Laplacian (Fig. 2)":
    grid_p = exp.GridParams(t=p.t, seed=p.seed)
    if not ui.presenting():
        st.markdown(
            "On **uniform** data, IK built with iForest approximates the Laplacian L_ψ (Breiman's analysis of "
            "completely random trees). The grid gives the RMSE between IK and L_ψ, and, for contrast, between IK "
            "and the RBF kernel whose γ best fits IK, for d ∈ {10, …, 50} and ψ ∈ {16, …, 256} "
            f"({grid_p.n} uniform points in [−1, 1]^d, t = {grid_p.t}; the diagonal is left out).")
    run_now = st.button("Compute the grid", type="primary",
                        help="Runs 50 cells; under a minute on 2 cores. Results are cached.")
    key = f"grid_{grid_p}"
    if run_now or key in st.session_state:
        with ui.guarded("the RMSE grid"):
            grid = store.compute(exp.run_grid, grid_p)
            st.session_state[key] = True
            figures.figure(plots.rmse_figure(grid), "rmse", source=(exp.run_grid, grid_p))
            for m, s in exp.grid_summary(grid).items():
                worse = ", ".join(f"(d={c['d']}, ψ={c['psi']})" for c in s["cells_where_rbf_fits_better"])
                st.markdown(
                    f"**{surfaces.KERNELS[m][0]}**: RMSE vs L_ψ {s['rmse_laplacian_min']:.3f}–"
                    f"{s['rmse_laplacian_max']:.3f}; closer to L_ψ than to the best RBF in "
                    f"{s['cells_closer_to_laplacian']} of {s['cells']} cells"
                    + (f" (not in {worse})." if worse else "."))
            if not ui.presenting():
                st.caption("The paper's claim is about the iForest implementation. Voronoi (aNNE) cells are "
                           "round rather than box-shaped, so that IK is closer to a Gaussian; the grid shows it.")

else:  # Sharpness
    with ui.guarded("the sharpness profiles"):
        t_sharp = min(p.t, 500)
        profiles = [store.compute(kernel_shapes.sharpness, n=2000, psi=q, t=t_sharp, ref=(0.0, 0.0),
                                  seed=p.seed) for q in dict.fromkeys((8, p.psi, 1024))]
        figures.figure(shape_plots.sharpness_figure(profiles), "sharpness",
                       source=(kernel_shapes.sharpness, (),
                               {"n": 2000, "psi": p.psi, "t": t_sharp, "ref": (0.0, 0.0), "seed": p.seed}))
        if not ui.presenting():
            st.caption(f"Ting et al. (2018, Fig. 3) on 2,000 uniform points, t = {t_sharp}"
                       + (" (at most 500 here)" if p.t > t_sharp else "")
                       + ": the larger ψ, the faster IK falls with distance. Dashed: L_ψ = ψ^(−distance). "
                       "The snippet under Export computes the profile of the ψ you chose.")
