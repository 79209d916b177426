"""Curse of dimensionality (Ting et al. 2021, §4.1, Fig. 1, Table 1, Table 2, App. D, App. E)."""

import streamlit as st

import figures
import ui
from ikviz.experiments import dimensionality as exp
from ikviz.experiments import indexing as idx
from ikviz.plots import dimensionality as plots
from ikviz.plots import indexing as idx_plots

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
view = ui.section("curse-of-dimensionality", "Section")
shown = ui.controls(plots.Display) if view.key == "instability" else None
p = ui.controls(view.params)


def instability_section(result):
    views = exp.instability_views(result, (exp.PAPER_EPS, shown.eps))  # eps enters only the summaries
    titles = plots.eps_titles(views)
    paper = views[exp.PAPER_EPS]
    left, right = figures.grid([1, 2])
    with left:
        figures.figure(figures.built(plots.dataset_figure, result.preview, result.labels, p.offset), "chart_data")
    with right:
        figures.figure(figures.built(plots.variance_figure, paper), "chart_variance")
    figures.figure(figures.built(plots.neps_by_eps_figure, views, titles), "chart_neps")
    drawn = result.params  # a first look computes fewer d than the page's settings: the table says what is drawn
    ui.table(plots.instability_table(views, drawn.d_values))
    if not ui.presenting():
        st.markdown(plots.instability_findings(views, titles, drawn))
        st.caption(plots.instability_note(p))
    figures.figure(figures.built(plots.t_curve_figure, paper), "chart_tcurve")
    if not ui.presenting():
        st.caption(plots.t_curve_note(p))


def hubness_section(result):
    summary = exp.hubness_summary(result)
    figures.figure(figures.built(plots.hubness_figure, summary), "chart_hubness")
    ui.table(plots.hubness_table(summary))
    if not ui.presenting():
        st.caption(plots.hubness_note(p))


def indexing_section(result):
    summary = idx.summary(result)
    figures.figure(figures.built(idx_plots.indexing_figure, summary, p.k), "chart_indexing")
    rows = summary["methods"]
    ui.table(idx_plots.indexing_table(rows, p.k))
    st.markdown(idx_plots.indexing_findings(rows))
    if not ui.presenting():
        st.caption(idx_plots.INDEXING_NOTE)


with ui.guarded(f"the {view.title.lower()} view"):
    result = figures.view(view.run, p)
    {"instability": instability_section, "hubness": hubness_section, "indexing": indexing_section}[view.key](result)
