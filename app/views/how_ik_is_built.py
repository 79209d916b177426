"""How Isolation Kernel is built: ψ sampled points, their cells, and the average over t partitionings (animated)."""

import figures
import store
import streamlit as st
import ui

from ikviz.experiments import build_up as exp
from ikviz.plots import build_up as plots

PSI_OPTIONS = [2, 4, 8, 16, 32, 64, 128]
T_OPTIONS = [1, 2, 3, 5, 10, 20, 30, 50]

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
    dataset = ui.control(st.selectbox, "data", "data", "four-quadrants", options=list(exp.DATASETS),
                         format_func=lambda k: exp.DATASETS[k][0])
    method = ui.control(st.radio, "partitioning", "method", "anne", options=list(exp.METHODS),
                        format_func=exp.METHODS.get,
                        help="anne: ting2021's IK (Voronoi); iforest: ting2018's (isolation trees of height "
                             "log₂ ψ); inne: balls, so a point may fall in no cell.")
    psi = ui.control(st.select_slider, "ψ (points per partitioning)", "psi", 16, options=PSI_OPTIONS,
                     help="More points, smaller cells, a sharper kernel.")
    t = ui.control(st.select_slider, "t (partitionings, one frame each)", "t", 20, options=T_OPTIONS,
                   help="IK is the average over t partitionings: larger t, smoother contours.")
    ref_x = ui.control(st.slider, "reference x", "ref_x", 0.25, min_value=-1.0, max_value=1.0, step=0.05)
    ref_y = ui.control(st.slider, "reference y", "ref_y", 0.25, min_value=-1.0, max_value=1.0, step=0.05)
    seed = ui.control(st.number_input, "seed", "seed", 0, min_value=0, max_value=10_000, step=1)

p = exp.Params(dataset=dataset, psi=int(psi), t=int(t), method=method, ref_x=float(ref_x), ref_y=float(ref_y),
               seed=int(seed))

with ui.guarded("the build-up"):
    result = store.compute(exp.run, p)
    figures.figure(figures.built(plots.build_up_figure, result), "chart_build_up", source=(exp.run, p))
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
