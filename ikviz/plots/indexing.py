"""Figures of the indexing comparison (Ting et al. 2021, Table 2)."""

from __future__ import annotations

import plotly.graph_objects as go
from plotly.subplots import make_subplots

from ..experiments.indexing import METHODS, SPARSE_FALLBACK_WARNING, SYNTHETIC, paper_ratios
from ..params import dataset_format
from .style import base_layout

_SEARCH = {"brute_s": ("brute force", "#999999"), "balltree_s": ("ball_tree option (incl. build)", "#56b4e9")}


#: short axis names; the table and the text use ``METHODS``
SHORT = {"distance": "Distance", "ik_sparse": "IK map, sparse", "ik_dense": "IK map, dense", "lk": "LK, normalised"}


def method_label(method: str, row: dict | None = None) -> str:
    """The method's short name on an axis, with what scikit-learn's ball_tree option ran on it (if known)."""
    name = SHORT.get(method, METHODS.get(method, method))
    if row is not None and "fit_method" in row:
        name += "<br>(no tree: brute force)" if row.get("fallback") else "<br>(ball tree)"
    return name


def indexing_figure(summary: dict, k: int = 5, height: int = 400) -> go.Figure:
    """Search runtimes (log scale) and precision@k per method.

    The ball-tree bar of a path where scikit-learn built no tree (sparse
    input) is hatched and its axis label says "no tree"; every ball-tree bar
    carries its time relative to brute force (×), the one label of its group:
    the seconds of neighbouring bars of similar height wrote over each other
    (they are in the hover and in the page's table).
    """
    methods = list(summary["methods"])
    rows = summary["methods"]
    names = [method_label(m, rows[m]) for m in methods]
    fig = make_subplots(rows=1, cols=2, column_widths=[0.66, 0.34], horizontal_spacing=0.1,
                        subplot_titles=(f"exact {k}-NN of every point: seconds (1 thread)", f"precision@{k}"))
    for key, (label, colour) in _SEARCH.items():
        vals = [rows[m][key] for m in methods]
        if key == "balltree_s":
            text = [f"×{rows[m]['tree_over_brute']:.2g}" if rows[m].get("tree_over_brute") else f"{v:.2g} s"
                    for m, v in zip(methods, vals)]
            pattern = dict(shape=["/" if rows[m].get("fallback") else "" for m in methods])
        else:
            text, pattern = None, None
        fig.add_trace(go.Bar(x=names, y=vals, name=label, marker_color=colour, marker_pattern=pattern,
                             text=text, textposition="outside", cliponaxis=False,
                             customdata=[rows[m].get("fit_method", "") for m in methods],
                             hovertemplate=f"%{{x}}<br>{label}: %{{y:.3g}} s<br>scikit-learn ran: %{{customdata}}"
                                           "<extra></extra>"),
                      row=1, col=1)
    maps = [rows[m]["map_s"] for m in methods]
    if any(v > 0 for v in maps):
        fig.add_trace(go.Bar(x=names, y=maps, name="feature mapping (separate)", marker_color="#e15759",
                             hovertemplate="%{x}<br>feature mapping: %{y:.3g} s<extra></extra>"),
                      row=1, col=1)
    prec = [rows[m][f"precision_at_{k}"] for m in methods]
    # the narrow panel names the methods only (the search path is the left panel's): its labels stay apart
    fig.add_trace(go.Bar(x=[method_label(m) for m in methods], y=prec, name=f"precision@{k}",
                         marker_color="#000000", showlegend=False,
                         text=[f"{v:.2f}" for v in prec], textposition="outside"), row=1, col=2)
    fig.update_yaxes(type="log", title_text="seconds", row=1, col=1)
    fig.update_yaxes(range=[0, 1.12], title_text=f"precision@{k}", row=1, col=2)
    fig.update_xaxes(tickfont=dict(size=10), title_text="similarity and search path")
    fig.update_annotations(font_size=12)
    fig.update_layout(barmode="group", uniformtext=dict(minsize=10, mode="show"))
    return base_layout(fig, f"{summary['dataset']}: {summary['n']:,} points, {summary['d']:,} dimensions",
                       height=height)


#: how the dataset choice is shown (Fig. 1's Gaussians by what they are, real sets as every page shows them)
dataset_label = dataset_format(SYNTHETIC)


def indexing_table(rows: dict, k: int) -> dict[str, list]:
    """Column-wise table of the indexing comparison for st.dataframe, one row per method.

    Parameters
    ----------
    rows : dict
        ``summary["methods"]`` of :func:`~ikviz.experiments.indexing.summary`.
    k : int
        The number of neighbours searched (names the precision column).

    Returns
    -------
    dict
        What was searched and what scikit-learn ran, both search times, their
        ratio, the tree's distance evaluations, the mapping time, precision@k
        and the share of queries decided by a tie.
    """
    return {
        "method": [METHODS[m] for m in rows],
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
        f"precision@{k}": [round(r[f"precision_at_{k}"], 3) for r in rows.values()],
        "queries decided by a tie": [f"{r['tie_share']:.0%}" for r in rows.values()],
    }


def indexing_findings(rows: dict) -> str:
    """What the ball_tree option really ran, in words, against the paper's Table 2.

    Parameters
    ----------
    rows : dict
        ``summary["methods"]`` of :func:`~ikviz.experiments.indexing.summary`.

    Returns
    -------
    str
        Markdown: the paper's ratios, the sparse path's fallback to brute force
        (with its warning and times, if it ran), the dense IK map's real tree
        (if it ran), and for which methods a real tree beat brute force.
    """
    paper = paper_ratios()
    fell_back = [m for m, r in rows.items() if r["fallback"]]
    faster = [METHODS[m] for m, r in rows.items() if r["index_faster"] and not r["fallback"]]
    slower = [METHODS[m] for m, r in rows.items() if not r["index_faster"] and not r["fallback"]]
    ratios = ", ".join(f"{name} {r:.2f}" for name, r in paper["ik_tree_over_brute"].items())
    text = (f"**What the ball_tree option really runs.** The paper used scikit-learn's `sklearn.neighbors` and reports "
            f"IK's ball tree within 7.5% of brute force on {paper['n_within_7_5_percent']} of 10 datasets (Table 2, "
            f"ball tree ÷ brute: {ratios}). IK's feature map is sparse, and on sparse input "
            "`NearestNeighbors(algorithm=\"ball_tree\")` builds no tree: it warns ")
    if fell_back:
        r = rows[fell_back[0]]
        text += (f"“{r['warning'] or SPARSE_FALLBACK_WARNING}” and runs brute force. Here that path took "
                 f"{r['balltree_s']:.3g} s against {r['brute_s']:.3g} s for brute force (×{r['tree_over_brute']:.2f}): "
                 "two brute-force runs, as the paper's near-equal IK columns suggest. ")
    else:
        text += f"“{SPARSE_FALLBACK_WARNING}” and runs brute force (that path is not shown here). "
    if "ik_dense" in rows:
        r = rows["ik_dense"]
        text += (f"A real ball tree on the dense IK map took {r['balltree_s']:.3g} s against {r['brute_s']:.3g} s "
                 f"(×{r['tree_over_brute']:.2f}), evaluating {r['distance_share']:.2f} × n² distances. ")
    text += (f"Among the real trees the index beat brute force for: {', '.join(faster) or 'none'}; it was slower "
             f"for: {', '.join(slower) or 'none'}.")
    return text


#: how the indexing comparison is run, under its table (Table 2's setup, what "scikit-learn ran" means)
INDEXING_NOTE = (
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
