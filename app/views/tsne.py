"""t-SNE with Gaussian vs Isolation Kernel affinities (Ting et al. 2021, §4.2.4, Tables 5-6)."""

import streamlit as st

import figures
import ui
from ikviz.experiments import tsne as exp
from ikviz.params import field_of_name
from ikviz.plots import multiples
from ikviz.plots import tsne as plots

ui.page_header(
    "t-SNE with Isolation Kernel",
    "t-SNE draws high-dimensional points in 2-D so that points with high **affinity** stay close. "
    "Standard t-SNE computes affinities with a **Gaussian kernel (GK)** whose width is tuned per point "
    "to a *perplexity*; Ting et al. (2021, §4.2.4) replace it with the **Isolation Kernel (IK)**. "
    "The **w-Gaussians** are two w-dimensional Gaussian clusters in 2w dimensions that share only the "
    "**origin** (black ×). The paper reports that GK t-SNE separates them for small w but merges them "
    "at w = 5,000, while IK t-SNE separates them at every w. Both panels below run the same openTSNE "
    "optimisation from the same start; only the affinities differ. The scores under each panel say "
    "how well the true clusters are kept apart, so you can check the claim yourself.",
)

with st.sidebar:
    st.header("t-SNE")
p = ui.controls(exp.Params)
show = ui.controls(plots.Display, show={"replay"})

with ui.guarded("the t-SNE embeddings"):
    slow = exp.slow_note(p.dataset)
    if slow:
        st.info(slow)
    result = figures.view(exp.run, p)
    for col, kernel in zip(figures.grid(2), exp.KERNELS):
        with col:
            figures.figure(figures.built(plots.result_figure, result, kernel), f"chart_{kernel}")
            if not figures.shown():  # presentation mode: the other kernel's figure, and so its scores
                continue
            scores = result.embeddings[kernel].scores
            for box, (label, value, note) in zip(st.columns(3), plots.score_metrics(scores)):
                box.metric(label, value, help=note)
            st.caption(plots.embedding_caption(result, kernel))

    for note in plots.setting_notes(result):
        st.info(note)
    if not ui.presenting():
        st.markdown(plots.summary_text(result))
        if p.dataset in exp.SYNTHETIC:
            st.caption(plots.PAPER_NOTE)

    if show.replay:
        figures.figure(figures.built(plots.animation_figure, result), "chart_animation")
    for kernel, name in (("ik", "psi"), ("gk", "perplexity")):  # every value computed so far, by anyone
        over = figures.held_over(exp.run, p, name, field_of_name(exp.Params, name).choices)
        if len(over) >= 2 and not ui.presenting():
            figures.figure(figures.built(multiples.tsne_over, over, kernel), f"chart_over_{name}")

if not ui.presenting():  # projected: the step's figures only; the search range (a button) on the page itself
    with st.expander("Test the claim: the paper's search range for perplexity and ψ"):
        st.markdown(plots.SEARCH_INTRO)
        size = ui.controls(plots.Display, show={"search"}, where=st.container()).search
        scan_p = exp.search_params(p, size)
        with ui.guarded("the search range"):
            scan = figures.view(exp.run_search, scan_p, ask=exp.search_cost(scan_p))
            figures.figure(figures.built(plots.search_figure, scan, p.w if p.dataset in exp.SYNTHETIC else None),
                           "chart_search")
            if plots.search_note(scan):
                st.info(plots.search_note(scan))
            ui.table(plots.search_table(scan))
