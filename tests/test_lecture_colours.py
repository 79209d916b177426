"""Colour means kernel on every figure (issue 32 item 5).

For every figure builder: a trace named after a kernel or measure has that
kernel's colour from :mod:`ikviz.registry` (a lighter tint of it where a
figure shades several ψ), and a trace that names no kernel (a sparse pair, a
class, a cluster, a search method) has no kernel's colour.
"""

from __future__ import annotations

import re
from types import SimpleNamespace

import numpy as np
import plotly.graph_objects as go
import pytest

from ikviz import registry
from ikviz.experiments import clustering as clustering_exp
from ikviz.experiments import dimensionality as dimensionality_exp
from ikviz.experiments import tsne as tsne_exp
from ikviz.learn.svm import LABELS as SVM_LABELS
from ikviz.plots import classification, clustering, density, indexing, kernel_shapes, randlocal, style, tsne

IK = "IK"  # a trace that names the Isolation Kernel without its variant: any variant's colour
IK_KEYS = tuple(k for k, m in registry.MEASURES.items() if m.is_isolation_kernel)
KERNEL_COLOURS = {m.colour.lower() for m in registry.MEASURES.values()}

ALIASES: dict[str, str] = {m.label: k for k, m in registry.MEASURES.items()}
for _algorithm, _measures in clustering_exp.MEASURES.items():
    ALIASES.update({label: key for key, label in _measures.items()})
ALIASES.update({SVM_LABELS["rbf"]: "rbf", SVM_LABELS["laplacian"]: "laplacian_psi", SVM_LABELS["ik"]: IK,
                SVM_LABELS["linear"]: "linear", SVM_LABELS["ik-linear"]: IK,
                "FOGD": "gk", "NOGD": "gk", "IK+OGD": IK, "RandLocal+OGD": "randlocal",
                tsne_exp.KERNELS["gk"]: "gk", tsne_exp.KERNELS["ik"]: IK,
                tsne_exp.COLUMNS["fitsne"]: "gk", "FIt-SNE": "gk",   # GK's affinities, FIt-SNE's gradient
                **{label: IK for label in dimensionality_exp.IK_SOURCES.values()},
                "IK": IK, "Isolation Kernel": IK, "GK": "gk", "RBF": "rbf", "L_ψ": "laplacian_psi"})


def kernel_of(name: str | None) -> str | None:
    """The registry key (or ``IK``) a trace name names, else None."""
    if not name:
        return None
    name = re.sub(r"<[^>]*>", " ", str(name)).strip()
    candidates = [name, re.sub(r"\s*\([^()]*\)$", "", name), name.split(",")[0].strip(),
                  re.sub(r"\s*\([^()]*\)$", "", name).split(",")[0].strip()]
    return next((ALIASES[c] for c in candidates if c in ALIASES), None)


def _rgb(colour: str) -> np.ndarray | None:
    colour = colour.strip().lower()
    if re.fullmatch(r"#[0-9a-f]{6}", colour):
        return np.array([int(colour[i:i + 2], 16) for i in (1, 3, 5)], dtype=float)
    return None


def is_tint(colour: str, of: str) -> bool:
    """Whether ``colour`` is ``of`` mixed with up to 60% white (the same hue, lighter)."""
    c, k = _rgb(colour), _rgb(of)
    if c is None or k is None:
        return False
    room = 255 - k
    amounts = [(c[i] - k[i]) / room[i] for i in range(3) if room[i] > 0]
    return bool(amounts) and all(abs(a - amounts[0]) < 0.02 for a in amounts) and -0.01 <= amounts[0] <= 0.6 \
        and all(abs(c[i] - k[i]) < 1.5 for i in range(3) if room[i] == 0)


def trace_colours(trace) -> list[str]:
    """The single colours a trace is drawn in (line, marker, bar), as lower-case strings."""
    found = []
    for part in ("line", "marker"):
        value = getattr(getattr(trace, part, None), "color", None)
        if isinstance(value, str):
            found.append(value.lower())
    return found


def violations(fig: go.Figure) -> list[str]:
    """What breaks "colour means kernel" in ``fig``, one line per trace."""
    bad = []
    for trace in fig.data:
        key = kernel_of(getattr(trace, "name", None))
        for colour in trace_colours(trace):
            if colour in ("rgba(0,0,0,0)", "black", "white", "#000000", "#ffffff"):
                continue
            if key is None:
                if colour in KERNEL_COLOURS:
                    bad.append(f"{trace.name!r} names no kernel but has a kernel's colour {colour}")
                continue
            allowed = [registry.colour(k) for k in (IK_KEYS if key == IK else (key,))]
            if not any(colour == a.lower() or is_tint(colour, a) for a in allowed):
                bad.append(f"{trace.name!r} ({key}) has {colour}, not {allowed}")
    return bad


# ------------------------------------------------------------------ the rule itself
def test_the_checker_catches_what_it_should():
    assert kernel_of("SVC, Isolation Kernel (psi)") == IK and kernel_of("L_ψ, ψ=16") == "laplacian_psi"
    assert kernel_of("sparse pair (S)") is None and kernel_of("IK · iForest, fully grown") == "ik_iforest_full"
    wrong = go.Figure([go.Bar(name="sparse pair (S)", marker_color=registry.colour("ik_anne")),
                       go.Scatter(name="RBF (Gaussian)", line_color=registry.colour("laplacian_psi")),
                       go.Scatter(name="IK, ψ=4", line_color="#ff7f0e")])
    assert len(violations(wrong)) == 3
    right = go.Figure([go.Scatter(name="IK, ψ=4", line_color=kernel_shapes._shade(registry.colour("ik_anne"), 0.4)),
                       go.Bar(name="dense pair (D)", marker_color=style.DENSE_COLOUR)])
    assert violations(right) == []


def test_one_palette_no_kernel_shares_a_colour_with_another_measure():
    same = {("ik", "ik_anne"), ("gk", "rbf"), ("linear", "lk"), ("linear", "raw"), ("lk", "raw"),
            ("distance", "lp2")}   # one measure under two names
    keys = sorted(registry.MEASURES)
    for i, a in enumerate(keys):
        for b in keys[i + 1:]:
            if (a, b) not in same:
                assert registry.colour(a) != registry.colour(b), (a, b)
    assert len({registry.colour(k) for k in IK_KEYS}) == len(IK_KEYS) - 1   # ik is ik_anne


def test_other_meanings_use_colours_no_kernel_uses():
    others = [*style.CLASS_COLOURS, *style.CLUSTER_COLOURS, *style.OTHER_COLOURS, style.SPARSE_COLOUR,
              style.DENSE_COLOUR, style.ORIGIN_COLOUR]
    assert not {c.lower() for c in others} & KERNEL_COLOURS
    # the meaning colours the pages put beside kernels are also far from every kernel colour (not a near twin)
    for c in [style.SPARSE_COLOUR, style.DENSE_COLOUR, *style.OTHER_COLOURS]:
        assert min(np.linalg.norm(_rgb(c) - _rgb(k)) for k in KERNEL_COLOURS) > 45, c


# ------------------------------------------------------------------ every figure builder, on small made-up results
KS = ("ik_anne", "ik_inne", "ik_iforest", "ik_iforest_full", "laplacian_psi", "rbf")


def _density_figures():
    pairs = {k: {"sparse": 0.5, "dense": 0.3} for k in KS}
    margins = {"psi": [4, 16, 64], **{k: np.random.default_rng(0).random((3, 2)) for k in KS[:4]}}
    dens = np.geomspace(0.1, 10, 60)
    d = {"density": dens, "laplacian_psi": 0.4, "distance": 0.1,
         **{k: np.linspace(0.9, 0.1, 60) for k in ("ik_anne", "ik_inne", "ik_iforest")}}
    return [density.pairs_figure(pairs), density.margin_figure(margins), density.density_figure(d)]


def _classification_figures():
    cv = {k: ([2.0, 4.0, 8.0], [0.8, 0.85, 0.9]) for k in ("rbf", "laplacian", "ik", "ik-linear")}
    figs = [classification.cv_figure(SimpleNamespace(cv=cv, params=SimpleNamespace(ik_method=m)))
            for m in ("iforest", "anne", "inne")]
    kernels = ("rbf", "laplacian", "ik", "ik-linear", "linear")
    paired = SimpleNamespace(kernels=kernels, metrics={(k, "FPR"): np.array([0.1, 0.2, 0.15]) for k in kernels})
    figs.append(classification.paired_figure(paired, "FPR"))
    learners = [SimpleNamespace(method=m, curve=lambda: (np.arange(1, 11), np.linspace(0.5, 0.2, 10)))
                for m in ("FOGD", "NOGD", "IK+OGD", "RandLocal+OGD")]
    figs.append(classification.mistake_curve_figure(SimpleNamespace(results=learners)))
    return figs


def _kernel_shape_figures():
    profiles = [{"psi": psi, "kernel": kernel, "distance": np.linspace(0, 1, 5), "mean": np.linspace(1, 0, 5),
                 "laplacian": np.linspace(1, 0, 5), "hist": np.ones(4), "hist_edges": np.linspace(0, 1, 5)}
                for psi in (4, 16, 64) for kernel in ("ik_iforest",)]
    anne = [dict(p, kernel="ik_anne") for p in profiles]
    return [kernel_shapes.sharpness_figure(profiles), kernel_shapes.sharpness_figure(anne)]


def _clustering_figures():
    sweeps = {}
    for algorithm, key in (("spectral", "gk"), ("spectral", "ik_anne"), ("density_peaks", "distance"),
                           ("density_peaks", "ik_iforest"), ("kmeans", "randlocal"), ("kmeans", "raw")):
        sweeps[key] = clustering_exp.Sweep(algorithm, key, "ψ", (4, 8, 16), np.array([0.2, 0.5, 0.4]),
                                           np.array([0.2, 0.5, 0.4]), None)
    ami = {a: {m: {1: 0.5, 5000: 0.9} for m in measures} for a, measures in clustering_exp.MEASURES.items()}
    X2 = np.random.default_rng(1).normal(size=(40, 2))
    labels = np.repeat([0, 1, 2, 3], 10)
    return [clustering.sweep_figure(sweeps), clustering.ami_bars_figure(ami),
            clustering.scatter_figure(X2, labels, "clusters")]


def _tsne_figures():
    separation = {"w-gaussians": {k: {1: {"knn_accuracy": 0.9, "silhouette": 0.5},
                                      5000: {"knn_accuracy": 0.6, "silhouette": 0.1}} for k in tsne_exp.KERNELS}}
    search = {k: {5: {"knn_accuracy": 0.9, "silhouette": 0.4}, 20: {"knn_accuracy": 0.8, "silhouette": 0.3}}
              for k in tsne_exp.KERNELS}
    return [tsne.separation_figure(SimpleNamespace(separation=separation)), tsne.search_figure(search, w=5000)]


def _indexing_figures():
    row = {"brute_s": 0.5, "balltree_s": 0.4, "map_s": 0.1, "precision_at_5": 0.8, "tree_over_brute": 0.8,
           "fit_method": "ball_tree", "fallback": False}
    summary = {"methods": {"distance": dict(row), "ik_dense": dict(row)}, "dataset": "gaussians", "n": 100, "d": 2}
    return [indexing.indexing_figure(summary, k=5)]


BUILDERS = {"density": _density_figures, "classification": _classification_figures,
            "kernel_shapes": _kernel_shape_figures, "clustering": _clustering_figures, "tsne": _tsne_figures,
            "indexing": _indexing_figures}


@pytest.mark.parametrize("page", list(BUILDERS))
def test_every_trace_named_after_a_kernel_has_its_colour_and_no_other_trace_has_a_kernels(page):
    figs = BUILDERS[page]()
    assert figs and all(isinstance(f, go.Figure) for f in figs)
    named = [t for f in figs for t in f.data if kernel_of(getattr(t, "name", None))]
    if page != "indexing":
        assert named, "the figures draw kernels: the check must see some"
    assert [v for f in figs for v in violations(f)] == []


def test_ik_is_one_hue_in_the_svm_search_whatever_the_variant():
    """The SVM parameter search draws IK in the colour of the variant it used (green family), never orange."""
    cv = {k: ([2.0, 4.0], [0.8, 0.9]) for k in ("rbf", "ik")}
    for method, key in (("iforest", "ik_iforest"), ("anne", "ik_anne"), ("inne", "ik_inne")):
        fig = classification.cv_figure(SimpleNamespace(cv=cv, params=SimpleNamespace(ik_method=method)))
        ik = next(t for t in fig.data if kernel_of(t.name) == IK)
        assert ik.line.color == registry.colour(key)


_QUICK = ("kernel-shapes",)   # 2-3 s with --quick settings; the others take longer: slow
_REPRODUCTIONS = [pytest.param(n, marks=() if n in _QUICK else pytest.mark.slow) for n in (
    "kernel-shapes", "density-adaptivity", "ik-vs-laplacian", "clustering-wgaussians", "svm-density-ratio",
    "svm-wgaussians", "online", "tsne-wgaussians", "instability", "hubness", "indexing", "randlocal")]


@pytest.mark.parametrize("name", _REPRODUCTIONS)
def test_every_reproduction_figure_follows_the_rule(name):
    """The figures ``ikviz reproduce --quick`` draws from real results (the pages draw the same builders)."""
    from ikviz import reproduce

    entry, _params, result, _s = reproduce.execute(name, quick=True)
    figs = entry.figures(result)
    assert figs and [v for f in figs for v in violations(f)] == []


@pytest.mark.parametrize("module", [randlocal, indexing, density, clustering, classification])
def test_no_plot_module_writes_a_kernel_colour_by_hand(module):
    """Kernel colours come from the registry only: a hex literal in a plot module is for another meaning."""
    source = open(module.__file__, encoding="utf-8").read()
    assert not {c.lower() for c in re.findall(r"#[0-9a-fA-F]{6}", source)} & KERNEL_COLOURS
