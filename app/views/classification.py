"""Classification lab (ting2018 §3-4, ting2021 §4.2.3, lu2016, wang2017): SVMs and online learners."""

import streamlit as st

import figures
import ui
from ikviz.experiments import classification as exp
from ikviz.experiments import online as onl
from ikviz.plots import classification as plots

# the controls of each section, column by column (their labels, choices and defaults: the experiments' Params)
SVM_COLUMNS = ({"dataset", "ratio", "shape", "w"}, {"fresh_test", "n_test", "seed"}, {"tuning", "grid", "ik_method"},
               {"gamma", "psi", "t"})
ONLINE_COLUMNS = ({"dataset", "n", "seed"}, {"D", "B", "gamma"}, {"psi", "t", "prefix"},
                  {"n_sets", "max_anchors", "tune_eta", "eta"})


def controls(params, columns):
    """The section's settings in four columns above its results."""
    for column, names in zip(st.columns(4), columns):
        p = ui.controls(params, show=names, where=column)
    return p


def svm_section(p):
    note = exp.budget_note(p)
    if note:
        st.info(note)
    with ui.guarded("the SVM comparison"):
        result = figures.view(exp.run, p, ask=exp.cost_text(p))
        if not ui.presenting():  # projected, the figure comes first (above the fold at 720p), the table after it
            ui.table(plots.svm_table(result))
            st.caption(plots.svm_table_caption(result))
            if p.dataset == "density-ratio":
                st.caption(exp.single_fpr_text(result, float(p.ratio)))
        if result.regions:
            box, disc = plots.region_marks(p.dataset, float(p.ratio), p.shape)
            if not ui.presenting():
                st.caption(plots.regions_caption(p.dataset, p.shape))
            keys = [k for k in p.kernels if k in result.regions]
            for row in (keys[:3], keys[3:]):
                for col, k in zip(figures.grid(3), row):
                    with col:
                        figures.figure(figures.built(plots.regions_figure, result, k, box=box, disc=disc),
                                       f"regions_{k}")
        if p.tuning == "cv":
            figures.figure(figures.built(plots.cv_figure, result), "cv_curves")
        if ui.presenting():
            ui.table(plots.svm_table(result))
        else:
            st.markdown(plots.svm_note(p.dataset, p.grid, p.shape, p.tuning))

    if ui.presenting():
        return  # projected: the step's figures only; the paired runs (a secondary study, a button) on the page itself
    st.subheader("Paired runs over seeds")
    left, right = st.columns([1, 3])
    paired = ui.controls(exp.PairedParams, where=left, base=p)
    with ui.guarded("the paired runs"):
        res = figures.view(exp.paired_runs, paired, ask=exp.paired_cost_text(paired))
        with right:
            ui.table(plots.paired_table(res))
        fpr_text = exp.paired_fpr_text(res)
        if fpr_text:
            st.markdown(fpr_text)
            if p.dataset == "density-ratio":
                st.caption(exp.paired_effect_caption(res, p.shape, p.ratio))
        metric = "FPR" if fpr_text else "accuracy"
        figures.figure(figures.built(plots.paired_figure, res, metric, ik_method=p.ik_method),
                       f"paired_{metric.lower()[:3]}")


def online_section(p):
    with ui.guarded("the online learners"):
        result = figures.view(onl.run, p)
        figures.figure(figures.built(plots.mistake_curve_figure, result), "mistakes")
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
if ui.section("classification").key == "SVM":
    svm_section(controls(exp.Params, SVM_COLUMNS))
else:
    online_section(controls(onl.Params, ONLINE_COLUMNS))
