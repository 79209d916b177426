"""t-SNE with Gaussian vs Isolation Kernel affinities (Ting et al. 2021, §4.2.4, Tables 5-6)."""

import streamlit as st

import figures
import store
import ui
from ikviz.experiments import tsne as exp
from ikviz.plots import tsne as plots

W_OPTIONS = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000]
N_OPTIONS = [100, 250, 500, 1000, 2000]
PERPLEXITY_OPTIONS = sorted({*exp.PAPER_SEARCH, 10, 30})
PSI_OPTIONS = sorted({*exp.PAPER_SEARCH, 10, 30})
T_OPTIONS = [50, 100, 200, 500]


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
    names = list(exp.dataset_names())
    dataset = ui.control(st.selectbox, "dataset", "data", "w-gaussians", options=names,
                         format_func=plots.dataset_label,
                         help="The synthetic w-Gaussians of Tables 5 and 6, or a bundled real dataset "
                              "(features scaled to [0, 1]).")
    synthetic = dataset in exp.SYNTHETIC
    if synthetic:
        w = ui.control(st.select_slider, "w (dimensions per cluster)", "w", 5000, options=W_OPTIONS,
                       format_func=plots.w_label, help="★ marks the paper's values: 1, 2, 100 and 5,000. "
                                                 "The data have 2w dimensions.")
        n_per = ui.control(st.select_slider, "points per cluster", "n", 500, options=N_OPTIONS)
    else:
        w, n_per = 2, 500  # ignored by real data; fixed so they share one cache entry
    perplexity = ui.control(st.select_slider, "GK perplexity", "perplexity", 30, options=PERPLEXITY_OPTIONS,
                            help="Effective number of neighbours of each point. The paper searched "
                                 "5, 20, 40, 60, 80, 100, 250, 500, 800 (30 is openTSNE's default).")
    psi = ui.control(st.select_slider, "IK ψ", "psi", 100, options=PSI_OPTIONS,
                     help="Points per partitioning: larger ψ, sharper kernel, fewer neighbours. "
                          "The paper searched the same range as for perplexity.")
    t = ui.control(st.select_slider, "IK t (partitionings)", "t", 200, options=T_OPTIONS,
                   help="The paper uses t = 200.")
    method = ui.control(st.radio, "IK partitioning", "method", "anne", options=["anne", "iforest"],
                        format_func={"anne": "Voronoi (aNNE)", "iforest": "isolation trees"}.get,
                        horizontal=True)
    seed = ui.control(st.number_input, "seed", "seed", 0, min_value=0, max_value=10_000, step=1)
    replay = ui.control(st.toggle, "replay the optimisation", "replay", False,
                        help="Both embeddings every 25 iterations, side by side, as an animation. "
                             "Off by default: the replay is a few MB for each browser to draw.")

p = exp.Params(dataset=dataset, w=w, n_per_cluster=n_per, perplexity=float(perplexity), psi=psi, t=t,
               method=method, seed=int(seed))

with ui.guarded("the t-SNE embeddings"):
    slow = exp.slow_note(dataset)
    if slow:
        st.info(slow)
    result = store.compute(exp.run, p)
    for col, kernel in zip(figures.grid(2), exp.KERNELS):
        with col:
            figures.figure(figures.built(plots.result_figure, result, kernel), f"chart_{kernel}", source=(exp.run, p))
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
        if synthetic:
            st.caption(plots.PAPER_NOTE)

    if replay:
        figures.figure(figures.built(plots.animation_figure, result), "chart_animation",
                       source=(exp.run, p))

    with st.expander("Test the claim: the paper's search range for perplexity and ψ"):
        st.markdown(plots.SEARCH_INTRO)
        # the whole range takes minutes at the default 500 points per cluster: a smaller sample first
        small = exp.quick_search_params(p)
        quick_col, full_col = st.columns(2)
        quick = small is not None and quick_col.button(
            f"Run it on {exp.SEARCH_QUICK_N} points per cluster", key="run_search_quick", type="primary",
            help="The same search on a smaller sample of the same data: about a third of the time.")
        full = full_col.button("Run it at this page's size" if small is not None else "Run the search range",
                               key="run_search",
                               help=f"{n_per} points per cluster: about a minute on two cores at w = 5,000, "
                                    "with progress and Cancel."
                               if small is not None else None)
        if quick or full:
            scan_p = small if quick else p
            if quick:
                st.caption(f"On {exp.SEARCH_QUICK_N} points per cluster (this page shows {n_per}).")
            scan = store.compute(exp.run_search, scan_p)
            figures.figure(figures.built(plots.search_figure, scan, w if synthetic else None), "chart_search",
                           source=(exp.run_search, scan_p))
            ui.table(plots.search_table(scan))
