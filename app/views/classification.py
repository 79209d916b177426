"""Classification lab (ting2018 §3-4, ting2021 §4.2.3, lu2016, wang2017): SVMs and online learners."""

import streamlit as st

import figures
import store
import ui
from ikviz.data import dataset_label, dataset_names
from ikviz.data.density_ratio import SHAPES
from ikviz.experiments import classification as exp
from ikviz.experiments import online as onl
from ikviz.learn.svm import KERNELS
from ikviz.plots import classification as plots

# names as in the links; old links' underscores (w_gaussians) are read as hyphens by ui.control
DATASETS = ["density-ratio", "w-gaussians"] + dataset_names()
RATIOS = [1, 2, 5, 10, 20]
W_OPTIONS = [1, 10, 100, 1000, 5000]
N_TEST = [1000, 5000, 20000, 50000]
GAMMAS = [2.0 ** m for m in range(-10, 6)]
PSIS = [2 ** m for m in range(2, 13)]
SEEDS = [3, 5, 10, 20]
SECTIONS = ["SVM", "Online learning"]


def svm_section():
    c1, c2, c3, c4 = st.columns(4)
    with c1:
        dataset = ui.control(st.selectbox, "dataset", "data", "density-ratio", options=DATASETS,
                             format_func=dataset_label,
                             help="density-ratio: ting2018 Table 1 (500 points, two classes). w-Gaussians: "
                                  "ting2021 Table 4 (two w-dimensional subspace clusters). Others: bundled "
                                  "real datasets, split 80/20.")
        ratio = ui.control(st.select_slider, "density ratio (dense : sparse)", "ratio", 10, options=RATIOS,
                           disabled=dataset != "density-ratio")
        shape = ui.control(st.radio, "density-ratio generator", "shape", "uniform", options=list(SHAPES),
                           horizontal=True, disabled=dataset != "density-ratio",
                           help="The paper does not say what shape its classes have. uniform: two squares, "
                                "4 % of the sparse class inside the dense square. gaussian: two Gaussians "
                                "(the sparse one sqrt(ratio) times wider), 4 % of the sparse class where "
                                "the dense class is the more likely.")
        w = ui.control(st.select_slider, "w (w-Gaussians: 2w dimensions)", "w", 100, options=W_OPTIONS,
                       disabled=dataset != "w-gaussians")
    with c2:
        fresh = ui.control(st.toggle, "large fresh test sample", "fresh", True,
                           disabled=dataset not in exp.SYNTHETIC,
                           help="Synthetic data: test on a new sample from the same distribution instead of "
                                "an 80/20 split. Differences of a point or less need thousands of test points.")
        n_test = ui.control(st.select_slider, "test points", "n_test", 20000, options=N_TEST,
                            disabled=dataset not in exp.SYNTHETIC or not fresh)
        seed = ui.control(st.number_input, "seed", "seed", 0, min_value=0, max_value=10_000, step=1)
    with c3:
        tuning = ui.control(st.radio, "parameters", "tuning", "cv", options=["cv", "fixed"],
                            format_func=lambda v: {"cv": "5-fold CV", "fixed": "sliders"}[v], horizontal=True)
        grid = ui.control(st.radio, "CV grid", "grid", "ting2018", options=["ting2018", "ting2021"], horizontal=True,
                          disabled=tuning != "cv",
                          help="ting2018 Table 4: γ ∈ 2^-10…2^5. ting2021 App. B: σ = d·μ, μ ∈ 2^-5…2^5, "
                               "i.e. γ = 1/(2σ²). Both: ψ ∈ 2^2…2^12.")
        ik_method = ui.control(st.radio, "IK partitioning", "ik_method", "iforest", options=["iforest", "anne"],
                               horizontal=True, help="ting2018 uses iForest (t = 100, height log2 ψ); "
                                                     "ting2021 uses aNNE (Voronoi cells).")
    with c4:
        gamma = ui.control(st.select_slider, "γ (RBF)", "gamma", 1.0, options=GAMMAS, format_func=plots.power_label,
                           disabled=tuning != "fixed")
        psi = ui.control(st.select_slider, "ψ (L_ψ and IK)", "psi", 16, options=PSIS, disabled=tuning != "fixed")
        t = ui.control(st.select_slider, "t (IK partitionings)", "t", 100, options=[50, 100, 200, 400])

    spec, capped = exp.within_test_budget(exp.DataSpec(
        dataset=dataset, ratio=float(ratio), shape=shape, w=int(w), n=500 if dataset == "density-ratio" else 1000,
        n_test=int(n_test), fresh_test=bool(fresh), seed=int(seed)))
    if capped:
        st.info(capped)
    p = exp.Params(data=spec, kernels=KERNELS, tuning=tuning, grid=grid, gamma=float(gamma), psi=int(psi), t=int(t),
                   ik_method=ik_method, seed=int(seed))
    with ui.guarded("the SVM comparison"):
        result = store.compute(exp.run, p, ask=exp.cost_text(p))
        regions = result.regions
        ui.table(plots.svm_table(result))
        if not ui.presenting():
            st.caption(plots.svm_table_caption(result))
        if dataset == "density-ratio" and not ui.presenting():
            st.caption(exp.single_fpr_text(result, float(ratio)))
        if regions:
            box, disc = plots.region_marks(dataset, float(ratio), shape)
            if not ui.presenting():
                st.caption(plots.regions_caption(dataset, shape))
            keys = [k for k in p.kernels if k in regions]
            for row in (keys[:3], keys[3:]):
                cols = figures.grid(3)
                for col, k in zip(cols, row):
                    with col:
                        fig = figures.built(plots.regions_figure, result, k, box=box, disc=disc)
                        figures.figure(fig, f"regions_{k}", source=(exp.run, p))
        if tuning == "cv":
            figures.figure(figures.built(plots.cv_figure, result), "cv_curves", source=(exp.run, p))
        if not ui.presenting():
            st.markdown(plots.svm_note(dataset, grid, shape, tuning))

    st.subheader("Paired runs over seeds")
    c1, c2 = st.columns([1, 3])
    with c1:
        n_seeds = ui.control(st.select_slider, "seeds", "seeds", 5, options=SEEDS)
        go = ui.control(st.toggle, "run the paired comparison", "paired", False,
                        help="For each seed, a fresh draw of the data and every kernel fitted on it, with its "
                             "own CV: the comparison above, once per seed. Progress is shown while it runs.")
    if go:
        with ui.guarded("the paired runs"):
            seeds = tuple(range(int(seed), int(seed) + n_seeds))
            paired = exp.PairedParams(p, seeds)
            res = store.compute(exp.paired_runs, paired, ask=exp.cost_text(p, len(seeds)))
            with c2:
                ui.table(plots.paired_table(res))
            fpr_text = exp.paired_fpr_text(res)
            if fpr_text:
                st.markdown(fpr_text)
                if dataset == "density-ratio":
                    st.caption(exp.paired_effect_caption(res, shape, ratio))
                figures.figure(figures.built(plots.paired_figure, res, "FPR"), "paired_fpr",
                               source=(exp.paired_runs, paired))
            else:
                figures.figure(figures.built(plots.paired_figure, res, "accuracy"), "paired_acc",
                               source=(exp.paired_runs, paired))


def online_section():
    c1, c2, c3, c4 = st.columns(4)
    with c1:
        dataset = ui.control(st.selectbox, "stream", "o_data", "letter", options=DATASETS, format_func=dataset_label,
                             help="The rows in a seeded random order; real data min-max scaled to [0, 1].")
        n = ui.control(st.select_slider, "stream length", "o_n", 10000, options=[2000, 5000, 10000, 20000, 50000])
        seed = ui.control(st.number_input, "seed (stream order, maps)", "o_seed", 0, min_value=0, max_value=10_000)
    with c2:
        D = ui.control(st.select_slider, "D (Fourier components, FOGD)", "D", 400,
                       options=[50, 100, 200, 400, 800, 1600])
        B = ui.control(st.select_slider, "B (budget, NOGD; rank k = 0.2 B)", "B", 100,
                       options=[25, 50, 100, 200, 400])
        gamma = ui.control(st.select_slider, "γ (Gaussian kernel)", "o_gamma", "per data set",
                           options=["per data set", *GAMMAS], format_func=plots.gamma_label,
                           help="per data set: γ = 1 / (d · Var X) of the stream (scikit-learn's "
                                "gamma=\"scale\"); one fixed γ cannot suit every data set. lu2016 uses "
                                "σ = 8, i.e. γ = 2^-7, on its features as given.")
    with c3:
        psi = ui.control(st.select_slider, "ψ (IK)", "o_psi", 64, options=PSIS[:9])
        t = ui.control(st.select_slider, "t (IK)", "o_t", 100, options=[25, 50, 100, 200, 400])
        prefix = ui.control(st.select_slider, "prefix for IK / RandLocal", "prefix", 1000,
                            options=[200, 500, 1000, 2000, 5000],
                            help="IK samples and RandLocal anchors come from the first rows of the stream "
                                 "(their features only).")
    with c4:
        n_sets = ui.control(st.select_slider, "T (RandLocal anchor sets)", "n_sets", 100,
                            options=[25, 50, 100, 200, 400])
        anchors = ui.control(st.select_slider, "max anchors per set (RandLocal)", "anchors", 1024,
                             options=[64, 128, 256, 512, 1024])
        tune = ui.control(st.toggle, "tune η per learner", "tune_eta", True,
                          help=f"lu2016 tunes each learner's step size. Each η in "
                               f"{{{', '.join(f'{e:g}' for e in onl.ETAS)}}} is tried on a separate "
                               f"{onl.TUNING_EXAMPLES:,}-example stream (the same data in another order) "
                               "and the one with the fewest mistakes is used.")
        eta = ui.control(st.select_slider, "η (step size, all learners)", "eta", 0.2,
                         options=sorted(onl.ETAS), disabled=tune,
                         help="Used by every learner when η is not tuned.")
    p = onl.Params(dataset=dataset, n=int(n), D=int(D), B=int(B),
                   gamma=None if gamma == "per data set" else float(gamma), psi=int(psi), t=int(t),
                   n_sets=int(n_sets), max_anchors=int(anchors), eta=float(eta), prefix=int(prefix), seed=int(seed),
                   tune_eta=bool(tune))
    with ui.guarded("the online learners"):
        result = store.compute(onl.run, p)
        figures.figure(figures.built(plots.mistake_curve_figure, result), "mistakes", source=(onl.run, p))
        ui.table(plots.online_table(result))
        if not ui.presenting():
            st.caption(plots.ONLINE_CAPTION)


ui.page_header(
    "Classification lab",
    "Does the Isolation Kernel help a classifier? **SVM**: SVC with the Gaussian (RBF), Laplacian L_ψ and Isolation "
    "kernels (precomputed), and a fast linear SVM on IK's sparse feature map, on the density-ratio data of "
    "Ting et al. (2018), the w-Gaussians of Ting et al. (2021) or bundled real data. **Online**: one pass over a "
    "stream with online gradient descent on four feature maps: random Fourier features (FOGD), Nyström (NOGD), "
    "IK and RandLocal.",
)
# a control, not st.tabs: tabs run both halves on every visit, and a link or tour step cannot choose one
section = ui.control(st.radio, "Show", "section", SECTIONS[0], options=SECTIONS, horizontal=True,
                     always=True, label_visibility="collapsed")
if section == SECTIONS[0]:
    svm_section()
else:
    online_section()
