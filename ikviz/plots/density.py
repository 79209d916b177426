"""Figures of the density-adaptivity experiment (Ting et al. 2018, Fig. 2 and Fig. 4).

Also the texts that explain the page's sections and read their results: :data:`QUADRANTS_INTRO`,
:func:`pairs_caption`, :func:`margin_caption`, :func:`trend_text`, :func:`density_caption`,
:func:`real_data_caption`, :func:`grid_intro`, :func:`grid_summary_texts` and :func:`sharpness_caption`.
"""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from ..data import dataset_info
from ..experiments.density import (REAL_DATA_POINTS, ContoursResult, GridParams, Params, Result, grid_summary,
                                   sharpness_t)
from ..experiments.surfaces import KERNELS
from .contours import MAX_BACKDROP_POINTS, similarity_contour
from .style import DENSE_COLOUR, KERNEL_COLOURS, SPARSE_COLOUR, base_layout, panel_width, scatter_class, wrap

#: above the four-quadrant contours: what the square and the probe pairs are
QUADRANTS_INTRO = ("The square below has four quadrants of different density (densest bottom-left, sparsest "
                   "top-right); **S** and **D** are two probe pairs at equal distance, one in the sparse and one "
                   "in the dense quadrant. Click a contour plot to move the reference point.")
#: under the Fig. 2 grid's summary: the claim is about iForest
GRID_CAPTION = ("The paper's claim is about the iForest implementation. Voronoi (aNNE) cells are "
                "round rather than box-shaped, so that IK is closer to a Gaussian; the grid shows it.")


def probe_points(p: Params) -> dict[str, np.ndarray]:
    """The probe pairs of ``p`` as contour markers: "S" the sparse pair, "D" the dense one.

    Examples
    --------
    >>> from ikviz.experiments.density import Params
    >>> from ikviz.plots.density import probe_points
    >>> probe_points(Params(sparse_pair=((0, 0), (1, 1))))["S"].tolist()
    [[0.0, 0.0], [1.0, 1.0]]
    """
    return {"S": np.array(p.sparse_pair, dtype=float), "D": np.array(p.dense_pair, dtype=float)}


def backdrop_note(data: np.ndarray) -> str:
    """A sentence saying the contour plots draw a sample of ``data`` (the kernels use all of it); "" if they do not.

    Examples
    --------
    >>> import numpy as np
    >>> from ikviz.plots.density import backdrop_note
    >>> backdrop_note(np.zeros((10, 2)))
    ''
    >>> backdrop_note(np.zeros((2500, 2)))
    ' The dots are a seeded sample of 1,000 of the 2,500 points; the kernels use all of them.'
    """
    if len(data) <= MAX_BACKDROP_POINTS:
        return ""
    return (f" The dots are a seeded sample of {MAX_BACKDROP_POINTS:,} of the {len(data):,} points; the kernels "
            "use all of them.")


def pairs_caption(t: int, data: np.ndarray) -> str:
    """Under the probe pairs' verdict: IK's values are multiples of 1/``t``; and :func:`backdrop_note`.

    Examples
    --------
    >>> import numpy as np
    >>> from ikviz.plots.density import pairs_caption
    >>> pairs_caption(200, np.zeros((10, 2)))[:57]
    'IK with t = 200 partitionings: values are multiples of 1/'
    """
    return (f"IK with t = {t} partitionings: values are multiples of 1/t = {1 / t:g}. "
            "The effect shrinks as ψ grows (see *Margin vs ψ*)." + backdrop_note(data))


def margin_caption(p: Params) -> str:
    """What the margin curve of ``p`` shows: its seeds and its t, whatever the page's t.

    Examples
    --------
    >>> from ikviz.experiments.density import Params
    >>> from ikviz.plots.density import margin_caption
    >>> margin_caption(Params(margin_seeds=2, margin_t=100))[:110]
    'K(S) − K(D) for the probe pairs S and D of *Four quadrants*, mean with min–max over 2 kernel seeds (t = 100, w'
    """
    return (f"K(S) − K(D) for the probe pairs S and D of *Four quadrants*, mean with min–max over "
            f"{p.margin_seeds} kernel seeds (t = {p.margin_t}, whatever the t slider of the other "
            "sections says). Above 0: the sparse pair is more similar. L_ψ is 0 for any ψ because both "
            "pairs are the same distance apart.")


def trend_text(trend: dict[str, float]) -> str:
    """One line of each IK variant's Spearman ρ (:func:`~ikviz.experiments.density.density_trend`).

    Examples
    --------
    >>> from ikviz.plots.density import trend_text
    >>> trend_text({"ik_anne": -0.5, "ik_iforest": 0.25})
    'Spearman ρ(similarity, density), IK · Voronoi (aNNE): **-0.50** · Spearman ρ(similarity, density), \
IK · iForest, height ≤ ⌈log₂ψ⌉: **+0.25**'
    """
    return " · ".join(f"Spearman ρ(similarity, density), {KERNELS[k][0]}: **{v:+.2f}**" for k, v in trend.items())


def density_caption(n_pairs: int, distance: float) -> str:
    """What the similarity-against-density scatter shows: ``n_pairs`` random pairs ``distance`` apart.

    Examples
    --------
    >>> from ikviz.plots.density import density_caption
    >>> density_caption(1500, 0.1)[:55]
    '1500 random pairs, each exactly 0.1 apart (L1 / d), any'
    """
    return (f"{n_pairs} random pairs, each exactly {distance:g} apart (L1 / d), anywhere in the "
            "square. A data-independent kernel gives every pair the same value (dashed line); "
            "IK gives pairs in sparse places higher similarity.")


def real_data_caption(name: str, data: np.ndarray) -> str:
    """What the contours on dataset ``name``'s t-SNE view show; and :func:`backdrop_note` of its points ``data``.

    Examples
    --------
    >>> import numpy as np
    >>> from ikviz.plots.density import real_data_caption
    >>> real_data_caption("iris", np.zeros((150, 2)))[:62]
    'A t-SNE view of Iris (scikit-learn) (150 points, scaled to [−1'
    """
    info = dataset_info(name)
    return (f"A t-SNE view of {info.title} ({min(info.n, REAL_DATA_POINTS)} points, scaled to [−1, 1]²), as the "
            "paper did with the Forest data (Fig. 4c–d). IK is computed on this 2-D view: its contours "
            "stretch along the clusters and stop at the gaps between them; Laplacian's are the same "
            "diamond everywhere. Click a plot to move the reference." + backdrop_note(data))


def grid_intro(p: GridParams) -> str:
    """What the Fig. 2 grid of ``p`` compares, on how many points and with which t.

    Examples
    --------
    >>> from ikviz.experiments.density import GridParams
    >>> from ikviz.plots.density import grid_intro
    >>> grid_intro(GridParams(n=50, t=100))[-68:]
    '(50 uniform points in [−1, 1]^d, t = 100; the diagonal is left out).'
    """
    return ("On **uniform** data, IK built with iForest approximates the Laplacian L_ψ (Breiman's analysis of "
            "completely random trees). The grid gives the RMSE between IK and L_ψ, and, for contrast, between IK "
            "and the RBF kernel whose γ best fits IK, for d ∈ {10, …, 50} and ψ ∈ {16, …, 256} "
            f"({p.n} uniform points in [−1, 1]^d, t = {p.t}; the diagonal is left out).")


def grid_summary_texts(grid: dict) -> list[str]:
    """One sentence per IK method of the Fig. 2 ``grid`` (:func:`~ikviz.experiments.density.grid_summary`).

    Its RMSE range against L_ψ, and in how many cells it is closer to L_ψ than to the best RBF.

    Examples
    --------
    >>> from ikviz.plots.density import grid_summary_texts
    >>> grid = {"d": [10], "psi": [16, 32], "laplacian": {"ik_iforest": [[0.1, 0.3]]},
    ...         "rbf": {"ik_iforest": [[0.2, 0.25]]}}
    >>> grid_summary_texts(grid)
    ['**IK · iForest, height ≤ ⌈log₂ψ⌉**: RMSE vs L_ψ 0.100–0.300; closer to L_ψ than to the best RBF in 1 of \
2 cells (not in (d=10, ψ=32)).']
    """
    texts = []
    for m, s in grid_summary(grid).items():
        worse = ", ".join(f"(d={c['d']}, ψ={c['psi']})" for c in s["cells_where_rbf_fits_better"])
        texts.append(
            f"**{KERNELS[m][0]}**: RMSE vs L_ψ {s['rmse_laplacian_min']:.3f}–"
            f"{s['rmse_laplacian_max']:.3f}; closer to L_ψ than to the best RBF in "
            f"{s['cells_closer_to_laplacian']} of {s['cells']} cells"
            + (f" (not in {worse})." if worse else "."))
    return texts


def sharpness_caption(t: int) -> str:
    """What the sharpness profiles (Fig. 3) show when the page's t is ``t`` (they use :func:`sharpness_t`).

    Examples
    --------
    >>> from ikviz.plots.density import sharpness_caption
    >>> sharpness_caption(1000)[:73]
    'Ting et al. (2018, Fig. 3) on 2,000 uniform points, t = 500 (at most 500 '
    """
    t_sharp = sharpness_t(t)
    return (f"Ting et al. (2018, Fig. 3) on 2,000 uniform points, t = {t_sharp}"
            + (" (at most 500 here)" if t > t_sharp else "")
            + ": the larger ψ, the faster IK falls with distance. Dashed: L_ψ = ψ^(−distance).")


def contour_figure(result: Result, kernel: str, clickable: bool = False, height: int = 380) -> go.Figure:
    """Contours of ``kernel`` around the reference on the four-quadrant data, probe pairs marked."""
    p = result.params
    return similarity_contour(result.axis, result.surfaces[kernel], title=KERNELS[kernel][0],
                              ref=(p.ref_x, p.ref_y), data=result.data, probes=probe_points(p),
                              clickable=clickable, height=height)


def result_contour(result: ContoursResult, kernel: str, probes: dict | None = None,
                   height: int = 380) -> go.Figure:
    """One kernel's clickable contours of a density view (its cells too, when they were computed)."""
    return similarity_contour(result.axis, result.surfaces[kernel], title=KERNELS[kernel][0], ref=result.ref,
                              data=result.data, probes=probes, partition=result.partitions.get(kernel),
                              clickable=True, height=height)


def pairs_figure(pairs: dict[str, dict[str, float]], height: int = 320) -> go.Figure:
    """Grouped bars: each kernel's similarity for the sparse pair and for the dense pair."""
    labels = [KERNELS[k][0] for k in pairs]
    fig = go.Figure([
        go.Bar(name="sparse pair (S)", x=labels, y=[v["sparse"] for v in pairs.values()],
               marker_color=SPARSE_COLOUR, text=[f"{v['sparse']:.3f}" for v in pairs.values()]),
        go.Bar(name="dense pair (D)", x=labels, y=[v["dense"] for v in pairs.values()],
               marker_color=DENSE_COLOUR, text=[f"{v['dense']:.3f}" for v in pairs.values()]),
    ])
    fig.update_layout(barmode="group")
    fig.update_xaxes(title_text="kernel")
    fig.update_yaxes(title_text="similarity of the pair", range=[0, 1.05])
    return base_layout(fig, "Same distance, different density", height=height)


def margin_figure(margins: dict, height: int = 340) -> go.Figure:
    """Sparse-minus-dense similarity over psi (mean and spread over seeds) for each IK variant."""
    psis = margins["psi"]
    fig = go.Figure()
    for kernel, values in margins.items():
        if kernel == "psi":
            continue
        values = np.asarray(values)
        mean, lo, hi = values.mean(axis=1), values.min(axis=1), values.max(axis=1)
        fig.add_trace(go.Scatter(
            x=psis, y=mean, mode="lines+markers", name=KERNELS[kernel][0],
            line=dict(color=KERNEL_COLOURS.get(kernel), dash="dash" if kernel == "laplacian_psi" else None),
            error_y=dict(type="data", symmetric=False, array=hi - mean, arrayminus=mean - lo, thickness=1),
        ))
    fig.add_hline(y=0, line=dict(color="black", width=1))
    fig.update_xaxes(type="log", title_text="ψ", tickvals=psis, ticktext=[str(p) for p in psis])
    fig.update_yaxes(title_text="K(sparse pair) − K(dense pair)")
    return base_layout(fig, "Density adaptivity over ψ (bars: min–max over seeds)", height=height)


def density_figure(density: dict, height: int = 360, bins: int = 12) -> go.Figure:
    """IK similarity of equal-distance pairs against local density, with L_psi's flat line."""
    dens = density["density"]
    edges = np.geomspace(dens.min(), dens.max() * (1 + 1e-9), bins + 1)
    which = np.clip(np.digitize(dens, edges) - 1, 0, bins - 1)
    centres = np.sqrt(edges[:-1] * edges[1:])
    fig = go.Figure()
    kernels = ("ik_anne", "ik_inne", "ik_iforest")
    scatter = scatter_class(len(kernels) * len(dens))
    for kernel in kernels:
        colour = KERNEL_COLOURS.get(kernel)
        sims = density[kernel]
        fig.add_trace(scatter(x=dens, y=sims, mode="markers", name=KERNELS[kernel][0],
                              marker=dict(size=3, color=colour, opacity=0.25), legendgroup=kernel,
                              hoverinfo="skip"))
        counts = np.bincount(which, minlength=bins)
        means = np.bincount(which, weights=sims, minlength=bins) / np.maximum(counts, 1)
        keep = counts > 0
        fig.add_trace(go.Scatter(x=centres[keep], y=means[keep], mode="lines+markers",
                                 name=f"{KERNELS[kernel][0]} (binned mean)", line=dict(color=colour, width=3),
                                 legendgroup=kernel, showlegend=False))
    fig.add_hline(y=density["laplacian_psi"], line=dict(color=KERNEL_COLOURS["laplacian_psi"], dash="dash"),
                  annotation_text="L_ψ (any density)", annotation_position="top right")
    fig.update_xaxes(type="log", title_text="local density at the pair's midpoint (k-NN estimate)")
    fig.update_yaxes(title_text=f"similarity of a pair {density['distance']:g} apart (L1/d)", range=[0, 1])
    return base_layout(fig, "Equal-distance pairs: similarity falls as density rises", height=height)


def rmse_figure(grid: dict, height: int | None = None) -> go.Figure:
    """Heat-maps of RMSE(IK, L_psi) (top row) and RMSE(IK, best-fitting RBF) (bottom row) over d x psi, a column
    per IK method: two rows, so that the grid fits under a tour's bar on a 720p projector."""
    methods = list(grid["laplacian"])
    titles = [wrap(KERNELS[m][0], panel_width(len(methods))) for m in methods] + [""] * len(methods)
    fig = make_subplots(rows=2, cols=len(methods), subplot_titles=titles, horizontal_spacing=0.06,
                        vertical_spacing=0.06, shared_xaxes=True, shared_yaxes=True)
    height = height or 140 + 190 * 2
    zmax = max(float(np.max(grid[key][m])) for key in ("laplacian", "rbf") for m in methods)
    x = [str(p) for p in grid["psi"]]
    y = [str(d) for d in grid["d"]]
    for r, (key, versus) in enumerate((("laplacian", "vs L_ψ"), ("rbf", "vs best RBF")), start=1):
        for c, m in enumerate(methods, start=1):
            z = np.asarray(grid[key][m])
            fig.add_trace(go.Heatmap(z=z, x=x, y=y, zmin=0, zmax=zmax, colorscale="Blues",
                                     text=np.round(z, 3), texttemplate="%{text}", showscale=(r == 1 and c == 1),
                                     colorbar=dict(title="RMSE", thickness=10),
                                     hovertemplate=f"{versus}: ψ=%{{x}}, d=%{{y}}: RMSE %{{z:.3f}}<extra></extra>"),
                          row=r, col=c)
        fig.update_yaxes(title_text=versus, tickvals=y, ticktext=[f"d={d}" for d in y], row=r, col=1)
    fig.update_xaxes(title_text="ψ (sample size)", row=2)
    fig.update_annotations(font_size=12)
    return base_layout(fig, "IK against L_ψ and against the best-fitting RBF on uniform data", height=height)


def figures(result: Result) -> list[go.Figure]:
    """All figures of the density experiment, for export."""
    figs = [contour_figure(result, k) for k in result.surfaces]
    figs += [pairs_figure(result.pairs), margin_figure(result.margins), density_figure(result.density)]
    return figs
