"""Curse of dimensionality (Ting et al. 2021, §4.1, Fig. 1, Table 1, Table 2, App. D, App. E)."""

from dataclasses import replace

import streamlit as st

import figures
import store
import ui
from ikviz.experiments import dimensionality as exp
from ikviz.experiments import indexing as idx
from ikviz.data import QUERIES
from ikviz.measures.similarities import LABELS
from ikviz.plots import dimensionality as plots
from ikviz.plots import indexing as idx_plots

SECTIONS = {"instability": "Instability", "hubness": "Hubness", "indexing": "Indexing"}
EPS_OPTIONS = [0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2]
PSI_OPTIONS = [2, 4, 8, 16, 32, 64, 128, 256]
T_OPTIONS = [50, 100, 200, 500, 1000]
SIGMA_OPTIONS = ["scaled", 0.5, 1, 2, 5, 10, 20, 50]
K_SNN_OPTIONS = [5, 10, 20, 50, 100, 200, 500, 1000, 1500]
K_AG_OPTIONS = [5, 10, 20, 50, 100, 200, 500]
HUB_D_OPTIONS = [2, 3, 5, 10, 20, 50, 100, 200, 500]
N_HUB_OPTIONS = [500, 1000, 2000, 5000]
N_IDX_OPTIONS = [200, 500, 1000, 2000, 5000]


ui.page_header(
    "Curse of dimensionality",
    "In high dimensions distances concentrate: every point looks about as far from a query as every "
    "other, so the *nearest* neighbour stops meaning much (Beyer et al. 1999). Ting et al. (2021) prove "
    "that Gaussian-type kernels inherit this, while Isolation Kernel keeps telling points apart. This "
    "page measures it live: **instability** of nearest-neighbour queries as d grows, **hubness** "
    "(a few points being everyone's neighbours) and what it means for **indexing** and retrieval.",
)

with st.sidebar:
    st.header("Curse of dimensionality")
    section = ui.control(st.radio, "Section", "section", "instability", options=list(SECTIONS),
                         format_func=SECTIONS.get, horizontal=True)
    seed = ui.control(st.number_input, "seed", "seed", 0, min_value=0, max_value=10_000, step=1)


# ------------------------------------------------------------------ instability
def instability_section():
    with st.sidebar:
        eps = ui.control(st.select_slider, "ε of the right-hand panel", "eps", exp.VISIBLE_EPS, options=EPS_OPTIONS,
                         help="N_eps counts points within a factor (1 + ε) of the nearest neighbour's "
                              f"dissimilarity. The left panel always uses the paper's ε = {exp.PAPER_EPS:g}; "
                              "this one sets the right panel (0.05: where the effect shows). Changing it "
                              "recomputes nothing.")
        d_max = ui.control(st.select_slider, "largest d", "d_max", 1000, options=list(exp.D_CHOICES),
                           help="d runs over 10, 30, 100, ... up to this. The full sweep to 10,000 takes "
                                "about a minute the first time (cached afterwards).")
        psi = ui.control(st.select_slider, "IK ψ", "psi", 16, options=PSI_OPTIONS)
        t = ui.control(st.select_slider, "IK t (partitionings)", "t", 200, options=T_OPTIONS)
        sigma = ui.control(st.select_slider, "GK width σ", "sigma", "scaled", options=SIGMA_OPTIONS,
                           help="'scaled': γ = 1/(d·var X), so γ‖x−y‖² stays of order one as d grows. "
                                "A fixed σ makes GK underflow to 0 for every pair in high d.")
        k_snn = ui.control(st.select_slider, "SNN k", "k_snn", 50, options=K_SNN_OPTIONS)
        k_ag = ui.control(st.select_slider, "AG k", "k_ag", 200, options=K_AG_OPTIONS)
        trials = ui.control(st.slider, "N_eps vs t: trials", "trials", 3, min_value=1, max_value=10,
                            help="Independent repetitions (fresh partitionings) for the N_eps-vs-t curves.")
    p = exp.InstabilityParams(d_values=tuple(d for d in exp.D_CHOICES if d <= d_max), eps=eps, psi=psi, t=t,
                              gk_sigma=None if sigma == "scaled" else float(sigma), k_snn=k_snn, k_ag=k_ag,
                              t_trials=trials, seed=int(seed))
    with ui.guarded("the instability curves"):
        # eps only enters the summaries: one stored result serves both panels and every eps
        source = (exp.run_instability, replace(p, eps=exp.InstabilityParams.eps))
        result = store.compute(*source)
        views = exp.instability_views(result, (exp.PAPER_EPS, eps))
        titles = {e: exp.EPS_VIEWS.get(e, f"your choice: ε = {e:g}") for e in views}
        paper = views[exp.PAPER_EPS]

        left, right = figures.grid([1, 2])
        with left:
            figures.figure(plots.dataset_figure(result.preview, result.labels, p.offset), "chart_data", source=source)
        with right:
            figures.figure(plots.variance_figure(paper), "chart_variance", source=source)
        figures.figure(plots.neps_by_eps_figure(views, titles), "chart_neps", source=source)
        show_findings(views, titles, p)
        figures.figure(plots.t_curve_figure(paper), "chart_tcurve", source=source)
        if not ui.presenting():
            st.caption(
                f"App. D: IK's N_eps (paper's ε = {exp.PAPER_EPS:g}) at d = {d_max:,} as t grows (mean ± standard "
                f"error over {p.t_trials} trials with fresh partitionings). Solid: partitionings built from the "
                "data; dashed: from as many points uniform in the data's bounding box. Lemma 3 predicts that both "
                "give the same distinguishability once t is large."
            )


def show_findings(views, titles, p):
    d_lo, d_top = min(p.d_values), max(p.d_values)
    paper_eps = exp.PAPER_EPS
    first = views[paper_eps]
    var = first["variance"]
    rows = {"measure": [LABELS[m] for m in first["N_eps"]]}
    for e, s in views.items():
        for q, short in (("between", "q_i"), ("sparse_centre", "q_c")):
            rows[f"N_eps {short}, ε={e:g} (d={d_top:,})"] = [s["N_eps"][m][q][d_top] for m in s["N_eps"]]
    rows[f"var q_c (d={d_lo})"] = [round(var[m][d_lo], 4) for m in var]
    rows[f"var q_c (d={d_top:,})"] = [round(var[m][d_top], 4) for m in var]
    st.dataframe(rows, hide_index=True)
    if ui.presenting():
        return
    step = 1.0 / p.t
    parts = []
    for e, s in views.items():
        gk, ik = s["N_eps"]["gk"]["between"], s["N_eps"]["ik"]["between"]
        parts.append(f"*{titles[e]}*: GK's N_eps for the between-clusters query goes from {gk[d_lo]} at "
                     f"d = {d_lo} to **{gk[d_top]:,}** at d = {d_top:,} (of {first['n_points']:,} points); IK's "
                     f"from {ik[d_lo]} to **{ik[d_top]:,}**.")
    gk_var = var["gk"]
    worst = max(first["N_eps"], key=lambda m: max(first["N_eps"][m][q][d_top] for q in QUERIES))
    top = max(first["N_eps"][worst][q][d_top] for q in QUERIES)
    st.markdown(
        "**Reading the numbers.** " + " ".join(parts) + " "
        f"At the paper's ε the largest N_eps of any measure at d = {d_top:,} is {top:,} ({LABELS[worst]}) of "
        f"{first['n_points']:,} points" + (": the window is too narrow to show the curse here, and a wider one "
                                           "shows it" if top < 0.02 * first["n_points"] else "") + ". "
        f"GK's spread var(F/E[F]) for q_c goes from {gk_var[d_lo]:.3g} (d = {d_lo}) to {gk_var[d_top]:.3g} "
        f"(d = {d_top:,}): with γ scaled to the data it levels off rather than going to 0 as in the paper's "
        f"Fig. 1(b). IK's similarity is a count of shared cells, so it only takes the values 0, 1/t, …, 1 "
        f"(steps of {step:.3g} at t = {p.t}); when ε × (1 − max similarity) is smaller than one step, IK's "
        f"N_eps is just the number of points tied at the top. SNN takes steps of 1/k in the same way."
    )
    st.caption(
        "GK and IK, the two measures the paper's argument is about, are drawn thick; the other six thin and "
        "faded (click a legend entry to hide or show it). Ties: N_eps counts every point tied with the nearest "
        "one (≤, so N_eps ≥ 1). Where nearest neighbours must be *ranked* (hubness, precision@k) ties are broken "
        "at random, seeded, separately for every query. The data: two Gaussian clusters of 1,000 points each, "
        f"N(0, 1) (dense) and N({p.offset:g}, {p.sigma_sparse:g}²) (sparse) in every coordinate; q_i halfway "
        "between their centres, q_c at the sparse centre. The paper does not give its generator's constants; "
        "these are ours. Fig. 1(b) of the paper uses q_c for the variance. The paper: “"
        + exp.PAPER_FIG1["N_eps"] + "”"
    )


# ------------------------------------------------------------------ hubness
def hubness_section():
    with st.sidebar:
        k = ui.control(st.slider, "k (neighbours)", "k", 5, min_value=1, max_value=50)
        n = ui.control(st.select_slider, "points", "n_hub", 2000, options=N_HUB_OPTIONS)
        hub_psi = ui.control(st.select_slider, "IK ψ", "hub_psi", 32, options=PSI_OPTIONS)
        hub_sigma = ui.control(st.select_slider, "GK σ", "hub_sigma", 5.0, options=[0.5, 1.0, 2.0, 5.0, 10.0],
                               help="App. E uses σ = 5; GK's neighbour ranking is the Euclidean one "
                                    "whatever σ, unless the kernel underflows.")
        d1 = ui.control(st.select_slider, "d (panel 1)", "hd1", 3, options=HUB_D_OPTIONS)
        d2 = ui.control(st.select_slider, "d (panel 2)", "hd2", 20, options=HUB_D_OPTIONS)
        d3 = ui.control(st.select_slider, "d (panel 3)", "hd3", 100, options=HUB_D_OPTIONS)
        extra = ui.control(st.toggle, "also ℓ2 distance and SNN", "hub_extra", False)
    measures = ("gk", "ik") + (("lp2", "snn") if extra else ())
    p = exp.HubnessParams(d_values=tuple(sorted({d1, d2, d3})), measures=measures, n=n, k=k, psi=hub_psi,
                          sigma=hub_sigma, seed=int(seed))
    with ui.guarded("the k-occurrence distributions"):
        summary = exp.hubness_summary(store.compute(exp.run_hubness, p))
        figures.figure(plots.hubness_figure(summary), "chart_hubness", source=(exp.run_hubness, p))
        st.dataframe({"measure": [LABELS[m] for m in measures],
                      **{f"skewness d={d}": [round(summary["skewness"][m][d], 2) for m in measures]
                         for d in p.d_values},
                      **{f"max O_k d={d}": [summary["max_O_k"][m][d] for m in measures] for d in p.d_values}},
                     hide_index=True)
        if not ui.presenting():
            st.caption(
                f"O_k(x) counts the points that have x among their {p.k} nearest neighbours; its mean is "
                f"always k. A long right tail (high skewness) means hubs: a few points are everyone's "
                f"neighbour while many are no one's. {p.n:,} points uniform in [0, 1]^d (Radovanović et al. "
                "2010; Ting et al. 2021, App. E). IK's similarities take few values, so ties for the k-th "
                "place are broken at random (seeded, per query): a fixed order would itself create hubs."
            )


# ------------------------------------------------------------------ indexing
def indexing_section():
    with st.sidebar:
        k = ui.control(st.slider, "k (neighbours searched)", "idx_k", 5, min_value=1, max_value=20,
                       help="The paper's Table 2 uses k = 5.")
        dataset = ui.control(st.selectbox, "dataset", "dataset", "ijcnn1-10k", options=idx.dataset_choices(),
                             format_func=lambda s: idx.SYNTHETIC.get(s, s))
        n_max = ui.control(st.select_slider, "points (subsampled)", "n_max", 1000, options=N_IDX_OPTIONS)
        idx_psi = ui.control(st.select_slider, "IK ψ", "idx_psi", 16, options=PSI_OPTIONS,
                             help="A real ball tree needs the dense t·ψ feature map, so its cost grows with ψ.")
        idx_t = ui.control(st.select_slider, "IK t", "idx_t", 200, options=T_OPTIONS)
    p = idx.Params(dataset=dataset, n_max=n_max, k=k, psi=idx_psi, t=idx_t, seed=int(seed))
    with ui.guarded("the indexing comparison"):
        summary = idx.summary(store.compute(idx.run, p))
        figures.figure(idx_plots.indexing_figure(summary, p.k), "chart_indexing", source=(idx.run, p))
        rows = summary["methods"]
        st.dataframe({
            "method": [idx.METHODS[m] for m in rows],
            "dims searched": [r["dims"] for r in rows.values()],
            "input": ["sparse" if r["sparse_input"] else "dense" for r in rows.values()],
            "scikit-learn ran": [("brute force (no tree)" if r["fallback"] else r["fit_method"])
                                 for r in rows.values()],
            "brute force (s)": [round(r["brute_s"], 3) for r in rows.values()],
            "ball_tree option (s)": [round(r["balltree_s"], 3) for r in rows.values()],
            "tree ÷ brute": [round(r["tree_over_brute"], 2) for r in rows.values()],
            # one type per column (Arrow): text, since a path without a tree has no count
            "tree distance evaluations / n²": ["no tree" if r["distance_share"] is None
                                               else f"{r['distance_share']:.2f}" for r in rows.values()],
            "mapping (s)": [round(r["map_s"], 3) for r in rows.values()],
            f"precision@{p.k}": [round(r[f"precision_at_{p.k}"], 3) for r in rows.values()],
            "queries decided by a tie": [f"{r['tie_share']:.0%}" for r in rows.values()],
        }, hide_index=True)
        show_indexing_findings(rows)


def show_indexing_findings(rows):
    paper = idx.paper_ratios()
    fell_back = [m for m, r in rows.items() if r["fallback"]]
    faster = [idx.METHODS[m] for m, r in rows.items() if r["index_faster"] and not r["fallback"]]
    slower = [idx.METHODS[m] for m, r in rows.items() if not r["index_faster"] and not r["fallback"]]
    ratios = ", ".join(f"{name} {r:.2f}" for name, r in paper["ik_tree_over_brute"].items())
    text = (f"**What the ball_tree option really runs.** The paper used scikit-learn's `sklearn.neighbors` and reports "
            f"IK's ball tree within 7.5% of brute force on {paper['n_within_7_5_percent']} of 10 datasets (Table 2, "
            f"ball tree ÷ brute: {ratios}). IK's feature map is sparse, and on sparse input "
            "`NearestNeighbors(algorithm=\"ball_tree\")` builds no tree: it warns ")
    if fell_back:
        r = rows[fell_back[0]]
        text += (f"“{r['warning'] or 'cannot use tree with sparse input'}” and runs brute force. Here that path took "
                 f"{r['balltree_s']:.3g} s against {r['brute_s']:.3g} s for brute force (×{r['tree_over_brute']:.2f}): "
                 "two brute-force runs, as the paper's near-equal IK columns suggest. ")
    else:
        text += "“cannot use tree with sparse input” and runs brute force (that path is not shown here). "
    if "ik_dense" in rows:
        r = rows["ik_dense"]
        text += (f"A real ball tree on the dense IK map took {r['balltree_s']:.3g} s against {r['brute_s']:.3g} s "
                 f"(×{r['tree_over_brute']:.2f}), evaluating {r['distance_share']:.2f} × n² distances. ")
    text += (f"Among the real trees the index beat brute force for: {', '.join(faster) or 'none'}; it was slower "
             f"for: {', '.join(slower) or 'none'}.")
    st.markdown(text)
    if not ui.presenting():
        st.caption(
            "Table 2 of the paper: the same scikit-learn searches (Euclidean, leaf size 15) on the points, on IK's "
            "feature map (Euclidean distance there is √(2(1 − K)), so it finds IK's nearest neighbours) and on "
            "unit-length points (normalised linear kernel). Every path goes through `NearestNeighbors` with "
            "algorithm=\"brute\" and algorithm=\"ball_tree\"; 'scikit-learn ran' is what it actually used "
            "(its `_fit_method`). All searches are exact and find neighbours at the same distances. Both run on one "
            "thread; the tree's time includes building it, and IK's mapping time (for the dense map including "
            "densifying) is shown apart because both searches need it. 'Tree distance evaluations / n²' below 1 "
            "means the tree pruned. precision@k is the share of each point's k nearest neighbours in its class, "
            "ties broken at random (seeded). Timings are measured when first computed and cached; short searches "
            "keep the fastest of a few runs."
        )


{"instability": instability_section, "hubness": hubness_section, "indexing": indexing_section}[section]()
