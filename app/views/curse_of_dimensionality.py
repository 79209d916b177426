"""Curse of dimensionality (Ting et al. 2021, §4.1, Fig. 1, Table 1, Table 2, App. D, App. E)."""

from dataclasses import replace

import streamlit as st

import figures
import store
import ui
from ikviz.experiments import dimensionality as exp
from ikviz.experiments import indexing as idx
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
        titles = plots.eps_titles(views)
        paper = views[exp.PAPER_EPS]

        left, right = figures.grid([1, 2])
        with left:
            figures.figure(figures.built(plots.dataset_figure, result.preview, result.labels, p.offset), "chart_data",
                           source=source)
        with right:
            figures.figure(figures.built(plots.variance_figure, paper), "chart_variance", source=source)
        figures.figure(figures.built(plots.neps_by_eps_figure, views, titles), "chart_neps", source=source)
        ui.table(plots.instability_table(views, p.d_values))
        if not ui.presenting():
            st.markdown(plots.instability_findings(views, titles, p))
            st.caption(plots.instability_note(p))
        figures.figure(figures.built(plots.t_curve_figure, paper), "chart_tcurve", source=source)
        if not ui.presenting():
            st.caption(plots.t_curve_note(p))


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
        figures.figure(figures.built(plots.hubness_figure, summary), "chart_hubness", source=(exp.run_hubness, p))
        ui.table(plots.hubness_table(summary))
        if not ui.presenting():
            st.caption(plots.hubness_note(p))


# ------------------------------------------------------------------ indexing
def indexing_section():
    with st.sidebar:
        k = ui.control(st.slider, "k (neighbours searched)", "idx_k", 5, min_value=1, max_value=20,
                       help="The paper's Table 2 uses k = 5.")
        dataset = ui.control(st.selectbox, "dataset", "dataset", "ijcnn1-10k", options=idx.dataset_choices(),
                             format_func=idx_plots.dataset_label)
        n_max = ui.control(st.select_slider, "points (subsampled)", "n_max", 1000, options=N_IDX_OPTIONS)
        idx_psi = ui.control(st.select_slider, "IK ψ", "idx_psi", 16, options=PSI_OPTIONS,
                             help="A real ball tree needs the dense t·ψ feature map, so its cost grows with ψ.")
        idx_t = ui.control(st.select_slider, "IK t", "idx_t", 200, options=T_OPTIONS)
    p = idx.Params(dataset=dataset, n_max=n_max, k=k, psi=idx_psi, t=idx_t, seed=int(seed))
    with ui.guarded("the indexing comparison"):
        summary = idx.summary(store.compute(idx.run, p))
        figures.figure(figures.built(idx_plots.indexing_figure, summary, p.k), "chart_indexing", source=(idx.run, p))
        rows = summary["methods"]
        ui.table(idx_plots.indexing_table(rows, p.k))
        st.markdown(idx_plots.indexing_findings(rows))
        if not ui.presenting():
            st.caption(idx_plots.INDEXING_NOTE)


{"instability": instability_section, "hubness": hubness_section, "indexing": indexing_section}[section]()
