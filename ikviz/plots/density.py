"""Figures of the density-adaptivity experiment (Ting et al. 2018, Fig. 2 and Fig. 4)."""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from ..experiments.density import Result
from ..experiments.surfaces import KERNELS
from .contours import similarity_contour
from .style import KERNEL_COLOURS, base_layout, panel_width, scatter_class, wrap


def contour_figure(result: Result, kernel: str, clickable: bool = False, height: int = 380) -> go.Figure:
    """Contours of ``kernel`` around the reference on the four-quadrant data, probe pairs marked."""
    p = result.params
    probes = {"S": np.array(p.sparse_pair, dtype=float), "D": np.array(p.dense_pair, dtype=float)}
    return similarity_contour(result.axis, result.surfaces[kernel], title=KERNELS[kernel][0],
                              ref=(p.ref_x, p.ref_y), data=result.data, probes=probes,
                              clickable=clickable, height=height)


def pairs_figure(pairs: dict[str, dict[str, float]], height: int = 320) -> go.Figure:
    """Grouped bars: each kernel's similarity for the sparse pair and for the dense pair."""
    labels = [KERNELS[k][0] for k in pairs]
    fig = go.Figure([
        go.Bar(name="sparse pair (S)", x=labels, y=[v["sparse"] for v in pairs.values()],
               marker_color="#1b9e77", text=[f"{v['sparse']:.3f}" for v in pairs.values()]),
        go.Bar(name="dense pair (D)", x=labels, y=[v["dense"] for v in pairs.values()],
               marker_color="#d95f02", text=[f"{v['dense']:.3f}" for v in pairs.values()]),
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
    """Heat-maps of RMSE(IK, L_psi) and RMSE(IK, best-fitting RBF) over d x psi, per IK method."""
    methods = list(grid["laplacian"])
    titles = []
    for m in methods:
        titles += [wrap(f"{KERNELS[m][0]} vs L_ψ", panel_width(2)), wrap(f"{KERNELS[m][0]} vs best RBF", panel_width(2))]
    fig = make_subplots(rows=len(methods), cols=2, subplot_titles=titles, horizontal_spacing=0.1,
                        vertical_spacing=0.36 / len(methods))
    height = height or 120 + 200 * len(methods)
    zmax = max(float(np.max(grid[key][m])) for key in ("laplacian", "rbf") for m in methods)
    x = [str(p) for p in grid["psi"]]
    y = [str(d) for d in grid["d"]]
    for r, m in enumerate(methods, start=1):
        for c, key in enumerate(("laplacian", "rbf"), start=1):
            z = np.asarray(grid[key][m])
            fig.add_trace(go.Heatmap(z=z, x=x, y=y, zmin=0, zmax=zmax, colorscale="Blues",
                                     text=np.round(z, 3), texttemplate="%{text}", showscale=(r == 1 and c == 2),
                                     colorbar=dict(title="RMSE", thickness=10),
                                     hovertemplate="ψ=%{x}, d=%{y}: RMSE %{z:.3f}<extra></extra>"),
                          row=r, col=c)
            fig.update_xaxes(title_text="ψ (sample size)", row=r, col=c)
            fig.update_yaxes(title_text="d (dimensions)", row=r, col=c)
    fig.update_annotations(font_size=12)
    return base_layout(fig, "IK against L_ψ and against the best-fitting RBF on uniform data", height=height)


def figures(result: Result) -> list[go.Figure]:
    """All figures of the density experiment, for export."""
    figs = [contour_figure(result, k) for k in result.surfaces]
    figs += [pairs_figure(result.pairs), margin_figure(result.margins), density_figure(result.density)]
    return figs
