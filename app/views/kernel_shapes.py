"""Kernel shapes (Ting et al. 2018, Fig. 1 and Fig. 3): IK vs Laplacian vs RBF on uniform 2-D data."""

import streamlit as st

import figures
import store
import ui
from ikviz.experiments import kernel_shapes as exp
from ikviz.plots import kernel_shapes as plots

PSI_OPTIONS = [2, 4, 8, 16, 32, 64, 128, 256, 512, 1024]
T_OPTIONS = [10, 50, 100, 200, 500, 1000, 2000]
GAMMA_OPTIONS = [0.1, 0.3, 1.0, 3.0, 10.0, 30.0]
N_OPTIONS = [500, 1000, 2000, 5000]

ui.page_header(
    "Kernel shapes",
    "Contours of each kernel's similarity to a **reference point** (red ×) on uniformly "
    "distributed 2-D data. On uniform data the Isolation Kernel looks like the Laplacian kernel "
    "L_ψ(x, y) = ψ^(−‖x−y‖₁/d): diamond-shaped and sharp, while RBF is round. White lines show the "
    "cells of one partitioning: Voronoi cells around the sampled points, the balls of iNNE "
    "(each reaching its sampled point's nearest neighbour), or the boxes of an isolation tree. "
    "**Click any contour plot** (or use the sliders) to move the reference point.",
)

with st.sidebar:
    st.header("Kernel shapes")
    psi = ui.control(st.select_slider, "ψ (points per partitioning)", "psi", 64, options=PSI_OPTIONS,
                     help="Cells per partitioning: larger ψ, smaller cells, sharper kernel.")
    t = ui.control(st.select_slider, "t (partitionings)", "t", 200, options=T_OPTIONS,
                   help="IK averages over t partitionings: larger t, smoother contours.")
    gamma = ui.control(st.select_slider, "RBF γ", "gamma", 1.0, options=GAMMA_OPTIONS,
                       help="RBF(x, y) = exp(−γ‖x−y‖²); the paper's Fig. 1 uses γ = 1.")
    ref_x = ui.control(st.slider, "reference x", "ref_x", 0.0, min_value=-1.0, max_value=1.0, step=0.05)
    ref_y = ui.control(st.slider, "reference y", "ref_y", 0.0, min_value=-1.0, max_value=1.0, step=0.05)
    n = ui.control(st.select_slider, "data points", "n", 2000, options=N_OPTIONS)
    seed = ui.control(st.number_input, "seed", "seed", 0, min_value=0, max_value=10_000, step=1)
    show_cells = ui.control(st.toggle, "show one partitioning's cells", "cells", True)
    part_index = ui.control(st.slider, "which partitioning", "part", 0, min_value=0,
                            max_value=max(T_OPTIONS) - 1, step=1,
                            help="Index of the partitioning whose cells are drawn.")
    show_data = ui.control(st.toggle, "show data points", "data", False)
    psi_small = ui.control(st.select_slider, "sharpness: small ψ", "psi_small", 8, options=PSI_OPTIONS)
    psi_large = ui.control(st.select_slider, "sharpness: large ψ", "psi_large", 1024, options=PSI_OPTIONS)

p = exp.Params(n=n, psi=min(psi, n), t=t, gamma=gamma, ref_x=ref_x, ref_y=ref_y,
               partition=min(part_index, t - 1), psi_small=psi_small, psi_large=psi_large, seed=int(seed))
if psi > n:
    st.info(f"ψ = {psi} is more than the {n} data points; using ψ = {n}.")

with ui.guarded("the kernel contours"):
    result = store.compute(exp.run, p)

    keys = list(exp.KERNELS)
    for start in range(0, len(keys), 3):
        for col, kernel in zip(figures.grid(3), keys[start:start + 3]):
            with col:
                fig = figures.built(plots.contour_figure, result, kernel, show_cells=show_cells,
                                    show_data=show_data, clickable=True)
                figures.clickable(fig, f"chart_{kernel}", "ref_x", "ref_y", source=(exp.run, p))
    summary = exp.summary(result)
    table, note = st.columns([1, 2])
    with table:
        rmse = summary["rmse_vs_laplacian_psi"]
        st.markdown("**RMSE against L_ψ on this grid**")
        ui.table({"kernel": [exp.KERNELS[k][0] for k in rmse], "RMSE vs L_ψ": [round(v, 3) for v in rmse.values()]})
    if not ui.presenting():
        with note:
            st.caption("Breiman's analysis behind IK ≈ L_ψ assumes d ≥ 5; in 2-D the match is rough, "
                       "and closest for the height-limited iForest. iNNE's balls need not cover the "
                       "plane: a point outside every ball of a partitioning shares no cell in it.")

    figures.figure(figures.built(plots.sharpness_figure, result.sharpness), "chart_sharpness", source=(exp.run, p))
    if not ui.presenting():
        widths = summary["sharpness_half_width"]
        text = ", ".join(f"ψ = {k}: {v:.2f}" for k, v in widths.items() if v is not None)
        st.caption(
            "Ting et al. (2018, Fig. 3): the larger ψ, the sharper IK (here the height-limited iForest). "
            f"Distance at which the mean similarity first drops below 0.5 — {text}. Dashed lines are "
            "L_ψ = ψ^(−distance), the Laplacian that IK approximates on uniform data."
        )
