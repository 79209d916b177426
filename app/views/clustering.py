"""Clustering lab (ting2021 §4.2.2, Fig. 2, Table 3, Table 7; wang2017 §4.4): spectral clustering,
density peaks and k-means with IK against Gaussian, adaptive Gaussian, distance and RandLocal."""

import streamlit as st

import figures
import store
import ui
from ikviz.clustering import match_labels
from ikviz.experiments import clustering as exp
from ikviz.plots import clustering as plots

W_OPTIONS = [1, 2, 5, 10, 50, 100, 500]
N_PER_CLUSTER_OPTIONS = [10, 50, 100, 250, 500, 1000]
RATIO_OPTIONS = [1.0, 5.0, 10.0, 20.0]
N_RATIO_OPTIONS = [100, 250, 500, 1000]
MAX_POINTS_OPTIONS = [30, 100, 300, 1000, 2000]
T_OPTIONS = [50, 100, 200, 500]
TRIAL_OPTIONS = [1, 3, 5, 10]
MODES = {"fixed": "one setting", "best": "best over the parameter grid"}

ui.page_header(
    "Clustering lab",
    "Cluster the same data with **spectral clustering**, **density peaks** or **k-means**, each on an "
    "Isolation Kernel measure and on its usual alternatives, and score the result against the true "
    "classes with **AMI** (adjusted mutual information: 1 = the classes recovered, 0 = no better than "
    "chance). The default data are ting2021's **w-Gaussians**: two Gaussian clusters, each living in "
    "its own w-dimensional subspace, which meet only at the origin. With w = 1 they are two lines "
    "crossing at the origin (Fig. 2): dense there, where a Gaussian kernel cannot tell them apart.",
)

with st.sidebar:
    st.header("Clustering lab")
    names = exp.data_names()
    dataset = ui.control(st.selectbox, "data", "data", "w-gaussians", options=names,
                         format_func=plots.dataset_label)
    if dataset == "w-gaussians":
        w = ui.control(st.select_slider, "w (dimensions of each cluster)", "w", 1, options=W_OPTIONS,
                       help="The data have 2w dimensions; cluster A uses the first w, cluster B the last w.")
        n_per_cluster = ui.control(st.select_slider, "points per cluster", "n_per", 500,
                                   options=N_PER_CLUSTER_OPTIONS)
        sigma_b = ui.control(st.select_slider, "spread of cluster B (A has 1)", "sigma_b", 1.0,
                             options=[1.0, 2.0, 3.0],
                             help="ting2021: with unequal spreads (e.g. 3) adaptive Gaussian also succeeds.")
    if dataset == "density-ratio":
        ratio = ui.control(st.select_slider, "density ratio", "ratio", 10.0, options=RATIO_OPTIONS)
        n_ratio = ui.control(st.select_slider, "points", "n_ratio", 500, options=N_RATIO_OPTIONS)
    if dataset not in exp.SYNTHETIC:
        max_points = ui.control(st.select_slider, "at most this many points (random subsample)", "max_points",
                                1000, options=MAX_POINTS_OPTIONS)
    algorithm = ui.control(st.radio, "algorithm", "alg", "spectral", options=list(exp.ALGORITHMS),
                           format_func=exp.ALGORITHMS.get)
    ik_variant = ui.control(
        st.selectbox, "IK variant", "ik", exp.DEFAULT_IK, options=list(exp.IK_VARIANTS),
        format_func=lambda k: exp.IK_VARIANTS[k][0],
        help="How IK partitions the space. The default, the height-limited iForest, is the only variant "
             "that reproduces ting2021 Fig. 2 with spectral clustering (see the note under spectral "
             "clustering's results).")
    if not ui.presenting():
        st.caption("Measures to compare")
    measures = []
    for m in exp.view_measures(algorithm, ik_variant):
        family = "ik" if m.startswith("ik_") else m
        if ui.control(st.checkbox, exp.MEASURES[algorithm][m], f"show_{family}", True):
            measures.append(m)
    mode = ui.control(st.radio, "parameters", "mode", "fixed", options=list(MODES), format_func=MODES.get,
                      help="'best' sweeps each measure's grid from ting2021 Table 7 and keeps the best AMI, "
                           "as the paper reports; the labels choose the parameter, so it is an upper bound.")
    if mode == "fixed":
        psi = ui.control(st.select_slider, "ψ (IK)", "psi", 32, options=list(exp.PSI_GRID))
        if algorithm == "spectral":
            mu = ui.control(st.select_slider, "GK: σ = d × μ, μ =", "mu", 1.0, options=list(exp.MU_GRID))
        if "ag" in exp.MEASURES[algorithm]:
            ag_fraction = ui.control(st.select_slider, "AG: k = fraction of n", "ag_k", 0.05,
                                     options=list(exp.AG_FRACTIONS),
                                     help="The adaptive Gaussian scales each point by its distance to its k-th "
                                          "nearest neighbour.")
        if algorithm == "density_peaks":
            eps_pct = ui.control(st.slider, "ε, % of the largest distance m", "eps", 2, min_value=1,
                                 max_value=99, help="Density peaks counts the neighbours closer than ε.")
    k = ui.control(st.number_input, "clusters k (0 = number of classes)", "k", 0, min_value=0, max_value=50)
    with st.expander("More settings"):
        t = ui.control(st.select_slider, "t (IK partitionings)", "t", 200, options=T_OPTIONS)
        trials = ui.control(st.select_slider, "trials (mean AMI over seeds)", "trials", 1, options=TRIAL_OPTIONS,
                            help="ting2021 averages spectral clustering over 10 trials.")
        seed = ui.control(st.number_input, "seed", "seed", 0, min_value=0, max_value=10_000, step=1)

with ui.guarded("the clustering"):
    p = exp.Params(
        dataset=dataset, algorithm=algorithm, ik_variant=ik_variant, measures=tuple(measures), mode=mode,
        k=int(k), t=t, trials=trials, seed=int(seed),
        **({"w": w, "n_per_cluster": n_per_cluster, "sigma_b": sigma_b} if dataset == "w-gaussians" else {}),
        **({"ratio": ratio, "n_ratio": n_ratio} if dataset == "density-ratio" else {}),
        **({"max_points": max_points} if dataset not in exp.SYNTHETIC else {}),
        **({"psi": psi, "mu": mu if algorithm == "spectral" else 1.0,
            "ag_fraction": ag_fraction if "ag" in exp.MEASURES[algorithm] else 0.05,
            "eps_fraction": eps_pct / 100 if algorithm == "density_peaks" else 0.02} if mode == "fixed" else {}),
    )
    data = p.data()
    X, y = store.compute(exp.load, data, inline=True)
    if not measures:
        st.info("Tick at least one measure in the sidebar to compare.")
        ui.stop()
    problem = exp.view_problem(X, y, p.k)
    if problem:
        st.warning(problem)
        ui.stop()
    if not ui.presenting():
        st.caption(plots.data_caption(data, X, y, p.k))

    result = store.compute(exp.run, p)
    X2, evaluations, sweeps = result.X2, result.evaluations, result.sweeps
    axis_titles = exp.projection_axes(data, X.shape[1])[:2]
    cols = figures.grid(1 + len(evaluations))
    with cols[0]:
        fig = figures.built(plots.scatter_figure, X2, y, "true classes<br><sub>the labels AMI compares with</sub>",
                            axis_titles=axis_titles)
        figures.figure(fig, "chart_classes", source=(exp.run, p))
    for col, (m, ev) in zip(cols[1:], evaluations.items()):
        with col:
            shown = match_labels(y, ev.labels)  # a recovered class keeps its colour
            fig = figures.built(plots.scatter_figure, X2, shown, plots.evaluation_title(ev), centres=ev.centres,
                                axis_titles=axis_titles)
            figures.figure(fig, f"chart_{m}", source=(exp.run, p))
            if algorithm == "density_peaks":
                figures.figure(figures.built(plots.decision_graph_figure, ev), f"chart_dg_{m}", source=(exp.run, p))
                note = plots.decision_graph_note(ev)
                if note:
                    st.info(note)

    ui.table(plots.summary_table(result), formats={"AMI": "{:.3f}", "NMI": "{:.3f}"})
    if sweeps:
        figures.figure(figures.built(plots.sweep_figure, sweeps), "chart_sweep", source=(exp.run, p))

    notes = plots.view_notes(algorithm, mode)
    if notes and not ui.presenting():
        st.caption(notes)
