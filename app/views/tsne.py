"""t-SNE with Gaussian vs Isolation Kernel affinities (Ting et al. 2021, §4.2.4, Tables 5-6)."""

from dataclasses import replace

import streamlit as st

import figures
import store
import ui
from ikviz.data import dataset_info
from ikviz.experiments import tsne as exp
from ikviz.plots import tsne as plots

W_OPTIONS = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000]
N_OPTIONS = [100, 250, 500, 1000, 2000]
SEARCH_QUICK_N = 250  # points per cluster of the search range's quick run
PERPLEXITY_OPTIONS = sorted({*exp.PAPER_SEARCH, 10, 30})
PSI_OPTIONS = sorted({*exp.PAPER_SEARCH, 10, 30})
T_OPTIONS = [50, 100, 200, 500]
LABELS = {k: v[0] for k, v in exp.SYNTHETIC.items()}


def w_label(w: int) -> str:
    return f"{w:,} ★" if w in exp.PAPER_W else f"{w:,}"


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
                         format_func=lambda d: LABELS.get(d, f"real: {d}"),
                         help="The synthetic w-Gaussians of Tables 5 and 6, or a bundled real dataset "
                              "(features scaled to [0, 1]).")
    synthetic = dataset in exp.SYNTHETIC
    if synthetic:
        w = ui.control(st.select_slider, "w (dimensions per cluster)", "w", 5000, options=W_OPTIONS,
                       format_func=w_label, help="★ marks the paper's values: 1, 2, 100 and 5,000. "
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
    if not synthetic and dataset_info(dataset).n > 10_000:
        st.info(f"{dataset} has {dataset_info(dataset).n:,} points: the first run takes a minute or more.")
    result = store.compute(exp.run, p)
    embeddings, n = result.embeddings, len(result.labels)
    for col, kernel in zip(figures.grid(2), exp.KERNELS):
        emb = embeddings[kernel]
        with col:
            figures.figure(plots.result_figure(result, kernel), f"chart_{kernel}", source=(exp.run, p))
            if not figures.shown():  # presentation mode: the other kernel's figure, and so its scores
                continue
            a, b, c = st.columns(3)
            a.metric("5-NN accuracy", f"{emb.scores['knn_accuracy']:.3f}",
                     help="Leave-one-out 5-nearest-neighbour vote of the true cluster in 2-D (origin left out).")
            b.metric("silhouette", f"{emb.scores['silhouette']:.2f}",
                     help="Near 1: tight, well-apart clusters; near 0: touching or overlapping.")
            c.metric("trustworthiness", f"{emb.scores['trustworthiness']:.2f}",
                     help="Whether 2-D neighbours were neighbours in the original space (Euclidean), "
                          "5 neighbours; 1 = no intruders.")
            secs = emb.seconds
            caption = f"affinities {secs['affinities']:.1f} s · optimisation {secs['optimisation']:.1f} s"
            if "origin_neighbours" in emb.scores:
                counts = ", ".join(f"{c} {name.split()[0]}" for c, name in
                                   zip(emb.scores["origin_neighbours"], result.classes))
                caption = (f"The origin's {exp.ORIGIN_NEIGHBOURS} nearest points in 2-D: {counts}. "
                           + caption)
            st.caption(caption)

    gk, ik = (embeddings[k].scores for k in exp.KERNELS)
    info_ik, info_gk = embeddings["ik"].info, embeddings["gk"].info
    notes = []
    if info_ik["psi"] != psi:
        notes.append(f"ψ = {psi} is more than half of the {n} points; using ψ = {info_ik['psi']}.")
    if info_gk["perplexity"] != perplexity:
        notes.append(f"perplexity {perplexity} needs 3 × perplexity neighbours; using {info_gk['perplexity']:.0f}.")
    for note in notes:
        st.info(note)
    if not ui.presenting():
        where = f"w = {w:,}" if synthetic else dataset
        st.markdown(
            f"**What happened here ({where}).** 5-NN accuracy GK {gk['knn_accuracy']:.3f} vs IK "
            f"{ik['knn_accuracy']:.3f}; silhouette GK {gk['silhouette']:.2f} vs IK {ik['silhouette']:.2f}."
        )
        if synthetic:
            st.caption(
                "The paper reports that GK t-SNE fails to separate the clusters at w = 5,000 (Table 5) and, "
                "with unequal variances, attaches the origin to one cluster (Table 6). Check it against the "
                "numbers above: a 5-NN accuracy near 1 means the clusters are kept apart, a lower silhouette "
                "that they are drawn more loosely. With openTSNE, whether GK keeps them apart depends on the "
                "perplexity: try the paper's whole range (5–800) with the slider or the search below. "
                "Trustworthiness is measured against Euclidean neighbours, which in thousands of dimensions "
                "are themselves unreliable, so it is low for both kernels at large w."
            )

    if replay:
        figures.figure(store.compute(plots.animation_figure, result, inline=True), "chart_animation",
                       source=(exp.run, p))

    with st.expander("Test the claim: the paper's search range for perplexity and ψ"):
        st.markdown("Ting et al. report the best picture over perplexity (GK) and ψ (IK) in "
                    f"{', '.join(map(str, exp.PAPER_SEARCH))}. This runs all "
                    f"{2 * len(exp.PAPER_SEARCH)} embeddings with the other settings above.")
        # the whole range takes minutes at the default 500 points per cluster: a smaller sample first
        small = replace(p, n_per_cluster=SEARCH_QUICK_N) if synthetic and n_per > SEARCH_QUICK_N else None
        quick_col, full_col = st.columns(2)
        quick = small is not None and quick_col.button(
            f"Run it on {SEARCH_QUICK_N} points per cluster", key="run_search_quick", type="primary",
            help="The same search on a smaller sample of the same data: about a third of the time.")
        full = full_col.button("Run it at this page's size" if small is not None else "Run the search range",
                               key="run_search",
                               help=f"{n_per} points per cluster: about a minute on two cores at w = 5,000, "
                                    "with progress and Cancel."
                               if small is not None else None)
        if quick or full:
            scan_p = small if quick else p
            if quick:
                st.caption(f"On {SEARCH_QUICK_N} points per cluster (this page shows {n_per}).")
            scan = store.compute(exp.run_search, scan_p)
            figures.figure(plots.search_figure(scan, w if synthetic else None), "chart_search",
                           source=(exp.run_search, scan_p))
            rows = [{"setting": v, **{f"{k.upper()} {m}": round(scan[k][v][m], 3) for k in exp.KERNELS
                                      for m in ("knn_accuracy", "silhouette")}} for v in sorted(scan["gk"])]
            st.dataframe(rows, hide_index=True)
