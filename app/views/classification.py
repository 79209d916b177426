"""Classification lab (ting2018 §3-4, ting2021 §4.2.3, lu2016, wang2017): SVMs and online learners."""

import math
from dataclasses import replace

import streamlit as st

import figures
import store
import ui
from ikviz.data import dataset_names, density_ratio_layout
from ikviz.data.density_ratio import SHAPES
from ikviz.experiments import classification as exp
from ikviz.experiments import online as onl
from ikviz.learn.svm import KERNELS, LABELS, TUNED
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


def _label(value: float) -> str:
    return f"2^{int(round(math.log2(value)))}" if value > 0 else str(value)


def _gamma_label(value) -> str:
    return value if isinstance(value, str) else _label(value)


#: above this w the SVMs take minutes on a small server: they run on request (or from a prepared store)
HEAVY_W = 1000


def _cost(p, seeds: int = 1) -> str | None:
    """What a heavy setting costs, said before it runs (see ``store.compute(ask=...)``); None when it is light.

    ``seeds``: the number of paired runs, each as costly as the single view."""
    spec = p.data
    if spec.dataset != "w-gaussians" or spec.w < HEAVY_W:
        return None
    cost = ("minutes with 5-fold CV over the grid (about six on 2 cores at w = 5,000)" if p.tuning == "cv" else
            "up to a minute with the sliders' parameters")
    times = f", once for each of the {seeds} seeds" if seeds > 1 else ""
    return (f"w = {spec.w:,}: the SVMs work in {2 * spec.w:,} dimensions, which takes {cost}{times}. Run it, or "
            f"pick w ≤ {HEAVY_W // 10} for a view in seconds; the Claims page holds ting2021 Table 4's numbers.")


def svm_section():
    c1, c2, c3, c4 = st.columns(4)
    with c1:
        dataset = ui.control(st.selectbox, "dataset", "data", "density-ratio", options=DATASETS,
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
        gamma = ui.control(st.select_slider, "γ (RBF)", "gamma", 1.0, options=GAMMAS, format_func=_label,
                           disabled=tuning != "fixed")
        psi = ui.control(st.select_slider, "ψ (L_ψ and IK)", "psi", 16, options=PSIS, disabled=tuning != "fixed")
        t = ui.control(st.select_slider, "t (IK partitionings)", "t", 100, options=[50, 100, 200, 400])

    spec = exp.DataSpec(dataset=dataset, ratio=float(ratio), shape=shape, w=int(w), n=500 if dataset == "density-ratio" else 1000,
                        n_test=int(n_test), fresh_test=bool(fresh), seed=int(seed))
    if fresh and dataset in exp.SYNTHETIC and exp.largest_test_size(spec) < spec.n_test:
        capped = exp.largest_test_size(spec)
        st.info(f"{spec.n_test:,} test points in {2 * spec.w:,} dimensions would take "
                f"{spec.n_test * 16 * spec.w / 2**30:.1f} GiB; using {capped:,} test points, the most "
                f"that fit one view's {exp.TEST_BUDGET_BYTES >> 20} MiB memory budget.")
        spec = replace(spec, n_test=capped)
    p = exp.Params(data=spec, kernels=KERNELS, tuning=tuning, grid=grid, gamma=float(gamma), psi=int(psi), t=int(t),
                   ik_method=ik_method, seed=int(seed))
    with ui.guarded("the SVM comparison"):
        result = store.compute(exp.run, p, ask=_cost(p))
        regions = result.regions
        st.dataframe(_svm_table(result), hide_index=True)
        if not ui.presenting():
            st.caption(f"{len(result.X_train)} training and {result.n_test} test points. FPR: negatives (sparse "
                       "class) called positive; FNR: positives called negative (binary data only). Times are "
                       "wall-clock seconds on this machine, kernel computation included.")
        if dataset == "density-ratio" and not ui.presenting():
            st.caption(_single_fpr_text(result, float(ratio)))
        if regions:
            box = disc = None
            if dataset == "density-ratio":
                layout = density_ratio_layout(float(ratio), shape=shape)
                box, disc = layout.get("overlap_box"), layout.get("winning_disc")
            if not ui.presenting():
                mark = {"uniform": ", the dotted box the overlap strip",
                        "gaussian": ", the dotted circle where the dense class is the more likely"}
                st.caption("Shading: the class each SVM predicts; points: the training data (red: class 0, "
                           "blue: class 1; for density-ratio data the sparse negative and the dense positive "
                           f"class{mark[shape] if dataset == 'density-ratio' else ''}).")
            keys = [k for k in p.kernels if k in regions]
            for row in (keys[:3], keys[3:]):
                cols = figures.grid(3)
                for col, k in zip(cols, row):
                    with col:
                        figures.figure(plots.regions_figure(result, k, box=box, disc=disc), f"regions_{k}",
                                       source=(exp.run, p))
        if tuning == "cv":
            figures.figure(plots.cv_figure(result), "cv_curves", source=(exp.run, p))
        if not ui.presenting():
            st.markdown(_svm_note(dataset, grid, shape, tuning))

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
            res = store.compute(exp.paired_runs, paired, ask=_cost(p, len(seeds)))
            with c2:
                st.dataframe([{k: (round(v, 4) if isinstance(v, float) else v) for k, v in r.items()}
                              for r in res.summary()], hide_index=True)
            if "ik" in p.kernels and "rbf" in p.kernels and not math.isnan(res.metrics[("ik", "FPR")][0]):
                mean, sd, wins = res.paired_difference("ik", "rbf", "FPR")
                st.markdown(f"**FPR(IK) − FPR(RBF)**, paired over {len(seeds)} seeds: {mean:+.4f} ± {sd:.4f} "
                            f"(IK lower on {wins} of {len(seeds)} seeds).")
                if dataset == "density-ratio":
                    if ratio > 1:
                        st.caption(f"{shape} generator, ratio {ratio}:1. {exp.fpr_effect_text(res)}")
                    else:
                        st.caption(f"{shape} generator, ratio 1:1: the paper claims lower FPR for IK only at "
                                   "ratios > 1 (at 1:1 it reports IK 0.032 vs RBF 0.008).")
                figures.figure(plots.paired_figure(res, "FPR"), "paired_fpr", source=(exp.paired_runs, paired))
            else:
                figures.figure(plots.paired_figure(res, "accuracy"), "paired_acc", source=(exp.paired_runs, paired))


def _svm_table(result):
    rows = []
    for r in result.table():
        row = {"kernel": LABELS[r["kernel"]]}
        name = TUNED[r["kernel"]]
        row["parameter"] = f"{name} = {_label(r[name]) if name == 'gamma' else r[name]}" if name else "–"
        for key in ("accuracy", "FPR", "FNR"):
            row[key] = None if math.isnan(r[key]) else round(r[key], 4)
        row["train s"], row["test s"] = round(r["train s"], 3), round(r["test s"], 3)
        rows.append(row)
    return rows


def _single_fpr_text(result, ratio):
    """What this one draw says about the paper's FPR claim, from its numbers (one seed decides nothing)."""
    fpr = {e.kernel: e.fpr for e in result.evaluations}
    if "ik" not in fpr or "rbf" not in fpr or math.isnan(fpr["ik"]):
        return "Select both the RBF and the Isolation Kernel SVMs to compare their FPR."
    others = [k for k in ("rbf", "laplacian") if k in fpr]
    lower = all(fpr["ik"] < fpr[k] for k in others)
    said = ", ".join(f"{LABELS[k]} {fpr[k]:.4f}" for k in others)
    head = f"On this draw IK's FPR ({fpr['ik']:.4f}) is {'below' if lower else 'not below'} {said}"
    if ratio <= 1:
        return head + ". The paper claims lower FPR for IK only at density ratios > 1."
    return (f"{head}: {'the paper’s direction' if lower else 'not the paper’s direction'}. One seed decides "
            "nothing; the paired runs below say whether it holds across seeds.")


def _svm_note(dataset, grid, shape="uniform", tuning="cv"):
    if dataset == "density-ratio":
        where = ("The dense positive class sits in the unit square; the sparse negative class covers a larger "
                 "square that overlaps it in the dotted strip." if shape == "uniform" else
                 "Both classes are Gaussian; the sparse negative one is wider and to the right, and overlaps the "
                 "dense one around the dotted circle, inside which the dense class is the more likely.")
        return ("**What to look for (ting2018 Table 1).** " + where + " IK's cells are small where data are "
                "dense, so the dense class should spill less into the sparse region and the false-positive rate "
                "(FPR) should be lower than RBF's and Laplacian's for ratios > 1. The paper reports FPR 0.064 (IK), "
                "0.070 (Laplacian), 0.082 (RBF) at 10:1 and 0.056, 0.067, 0.094 at 20:1. The paper does not "
                "publish its generator; switch between the two here, and judge from the paired runs below, whose "
                "caption says from their numbers whether the effect appears (`ikviz reproduce svm-density-ratio` "
                "runs both generators).")
    if dataset == "w-gaussians":
        return ("**What to look for (ting2021 Table 4).** Two w-dimensional Gaussian clusters meet only at the "
                "origin. The linear kernel cannot separate them (≈ 0.5), IK can (≈ 1.0). The paper's Gaussian "
                "kernel scored 0.62 at w = 5,000 because its grid fixes σ = d·μ with μ ≥ 2^-5, i.e. σ ≥ 312 "
                "for d = 10,000: far too wide. The ting2018 γ grid reaches the narrow kernels it needs. "
                + (f"This run uses the **{grid}** grid; switch the CV grid to see the difference."
                   if tuning == "cv" else
                   "This run takes γ and ψ from the sliders, so no grid is used; choose **5-fold CV** under "
                   "*parameters* to compare the two grids."))
    return ("Real data are min-max scaled on the training rows and split 80/20 (stratified, by seed). "
            "FPR and FNR treat the second class as positive.")


def online_section():
    c1, c2, c3, c4 = st.columns(4)
    with c1:
        dataset = ui.control(st.selectbox, "stream", "o_data", "letter", options=DATASETS,
                             help="The rows in a seeded random order; real data min-max scaled to [0, 1].")
        n = ui.control(st.select_slider, "stream length", "o_n", 10000, options=[2000, 5000, 10000, 20000, 50000])
        seed = ui.control(st.number_input, "seed (stream order, maps)", "o_seed", 0, min_value=0, max_value=10_000)
    with c2:
        D = ui.control(st.select_slider, "D (Fourier components, FOGD)", "D", 400,
                       options=[50, 100, 200, 400, 800, 1600])
        B = ui.control(st.select_slider, "B (budget, NOGD; rank k = 0.2 B)", "B", 100,
                       options=[25, 50, 100, 200, 400])
        gamma = ui.control(st.select_slider, "γ (Gaussian kernel)", "o_gamma", "per data set",
                           options=["per data set", *GAMMAS], format_func=_gamma_label,
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
        figures.figure(plots.mistake_curve_figure(result), "mistakes", source=(onl.run, p))
        st.dataframe([{"method": r["method"], "final mistake rate": round(r["mistake rate"], 4),
                       "η": r["η"], "seconds": round(r["seconds"], 3), "examples/s": int(r["examples/s"]),
                       "features": r["features"]} for r in result.table()], hide_index=True)
        if not ui.presenting():
            st.caption("One pass, each example predicted before its label is used (lu2016 §7). Seconds include "
                       "building the feature map; the first run of a session also loads compiled code. FOGD and "
                       "NOGD use exp(−γ‖x−y‖²); NOGD runs kernel OGD until B support vectors, then a rank-0.2B "
                       "Nyström map. IK rows are scaled by 1/√t and RandLocal rows to unit length.")


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
