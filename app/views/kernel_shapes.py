"""Kernel shapes (Ting et al. 2018, Fig. 1 and Fig. 3): IK vs Laplacian vs RBF on uniform 2-D data."""

import streamlit as st

import figures
import ui
from ikviz.experiments import kernel_shapes as exp
from ikviz.plots import kernel_shapes as plots
from ikviz.plots import multiples

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
p = ui.controls(exp.Params)
show = ui.controls(plots.Display)
for note in exp.notes(p):
    st.info(note)

with ui.guarded("the kernel contours"):
    result = figures.view(exp.run, p)

    keys = list(exp.KERNELS)
    for start in range(0, len(keys), 3):
        for col, kernel in zip(figures.grid(3), keys[start:start + 3]):
            with col:
                fig = figures.built(plots.contour_figure, result, kernel, show_cells=show.cells,
                                    show_data=show.data, clickable=True)
                figures.clickable(fig, f"chart_{kernel}", "ref_x", "ref_y")
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

    figures.figure(figures.built(plots.sharpness_figure, result.sharpness), "chart_sharpness")
    if not ui.presenting():
        widths = summary["sharpness_half_width"]
        text = ", ".join(f"ψ = {k}: {v:.2f}" for k, v in widths.items() if v is not None)
        st.caption(
            "Ting et al. (2018, Fig. 3): the larger ψ, the sharper IK (here the height-limited iForest). "
            f"Distance at which the mean similarity first drops below 0.5 — {text}. Dashed lines are "
            "L_ψ = ψ^(−distance), the Laplacian that IK approximates on uniform data."
        )

    if show.over_psi and not ui.presenting():
        over = figures.held_over(exp.run, p, "psi", exp.PSI_CHOICES)  # every ψ computed so far, by anyone
        if len(over) >= 2:
            figures.figure(figures.built(multiples.kernel_shapes_over_psi, over, "ik_anne"), "chart_over_psi")
            st.caption(f"The ψ computed so far ({', '.join(map(str, sorted(over)))}), side by side: "
                       "move ψ to add one.")
        else:
            st.caption(f"Only ψ = {p.psi} is computed at these settings: move ψ to add a panel beside it.")
