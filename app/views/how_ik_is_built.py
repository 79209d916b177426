"""How Isolation Kernel is built: ψ sampled points, their cells, and the average over t partitionings (animated)."""

import figures
import streamlit as st
import ui

from ikviz.experiments import build_up as exp
from ikviz.plots import build_up as plots

ui.page_header(
    "How Isolation Kernel is built",
    "Press **▶ play**. First **ψ points** (orange) are drawn at random from the data; then they cut the plane "
    "into ψ **cells** (white lines): Voronoi cells around each point, the leaves of an isolation tree, or "
    "balls reaching each point's nearest sampled neighbour. In one partitioning, a point is similar to the "
    "reference (red ×) if it falls in the same cell: similarity 1 or 0. Repeating this **t** times with "
    "fresh samples and averaging gives the Isolation Kernel: the contour that emerges frame by frame. Cells "
    "are small where the data are dense, so the contour is tight there and wide where the data are sparse.",
)

with st.sidebar:
    st.header("How IK is built")
p = ui.controls(exp.Params)

with ui.guarded("the build-up"):
    result = figures.view(exp.run, p)
    figures.figure(figures.built(plots.build_up_figure, result), "chart_build_up")
    numbers = exp.summary(result)
    left, middle, right = st.columns(3)
    left.metric("partitionings", f"{numbers['partitionings']}")
    middle.metric("share of the square with K > 0.5", f"{numbers['reach']:.0%}",
                  help="How far the reference's similarity reaches: small where the data are dense.")
    right.metric("partitionings covering the reference", f"{numbers['covering']} of {numbers['partitionings']}",
                 help="Always all for Voronoi cells and trees; iNNE's balls may miss a point far from the data.")
    if not ui.presenting():
        st.caption(
            "The last frame is exactly `IsolationKernel(psi, t, method, random_state=seed).similarity(grid, "
            "reference)` on a 50 × 50 grid: each frame before it averages the first partitionings of that same "
            "kernel. Similarities take only the values 0, 1/t, …, 1. The sliders set up the animation; the Kernel "
            "shapes and Density adaptivity pages show the finished kernels side by side with Laplacian and RBF.")
