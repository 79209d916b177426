"""The registry of paper reproductions behind ``ikviz reproduce``.

Each entry ties an experiment (``Params`` -> ``run`` -> result) to its plot
builder and to the paper figure it reproduces. ``reproduce`` writes the
numbers as JSON and the figures as one standalone HTML file.
"""

from __future__ import annotations

import dataclasses
import json
import math
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

import numpy as np


@dataclass(frozen=True)
class Entry:
    """One registered reproduction."""

    name: str
    source: str                      # the paper figure or table it reproduces
    description: str
    params: type                     # frozen dataclass of parameters
    run: Callable[[Any], Any]
    figures: Callable[[Any], list]   # result -> Plotly figures
    numbers: Callable[[Any], dict]   # result -> the JSON payload
    quick: dict = dataclasses.field(default_factory=dict)  # overrides for --quick


def _kernel_shapes() -> Entry:
    from .experiments import kernel_shapes as exp
    from .plots import kernel_shapes as plots

    def numbers(result):
        return {"summary": exp.summary(result), "axis": result.axis, "surfaces": result.surfaces,
                "sharpness": result.sharpness}

    return Entry("kernel-shapes", "ting2018 Fig. 1, Fig. 3",
                 "IK (Voronoi, iForest), L_psi and RBF contours on uniform 2-D data; sharpness vs psi",
                 exp.Params, exp.run, plots.figures, numbers,
                 quick={"n": 1100, "t": 100, "grid": 41})


def _density_adaptivity() -> Entry:
    from .experiments import density as exp
    from .plots import density as plots

    def numbers(result):
        margins = {k: v for k, v in result.margins.items()}
        return {"pairs": result.pairs, "warnings": result.warnings, "margin_vs_psi": margins,
                "similarity_vs_density_spearman": exp.density_trend(result.density)}

    return Entry("density-adaptivity", "ting2018 Fig. 4, §2.3",
                 "IK vs L_psi on four quadrants of different density: equal-distance probe pairs, margin vs psi",
                 exp.Params, exp.run, plots.figures, numbers,
                 quick={"t": 300, "grid": 41, "margin_psis": (8, 32, 128), "margin_seeds": 2, "n_pairs": 500})


def _ik_vs_laplacian() -> Entry:
    from .experiments import density as exp
    from .plots import density as plots

    def numbers(grid):
        return {"d": grid["d"], "psi": grid["psi"], "rmse_laplacian": grid["laplacian"],
                "rmse_rbf": grid["rbf"], "rbf_gamma": grid["rbf_gamma"], "summary": exp.grid_summary(grid)}

    return Entry("ik-vs-laplacian", "ting2018 Fig. 2",
                 "RMSE of IK against L_psi and against the best-fitting RBF on uniform data, d x psi",
                 exp.GridParams, exp.run_grid, lambda grid: [plots.rmse_figure(grid)], numbers,
                 quick={"ds": (10, 30), "psis": (16, 64), "n": 150, "t": 300})


def _clustering_wgaussians() -> Entry:
    from .experiments import clustering as exp
    from .plots import clustering as plots

    def numbers(result):
        return {"ami": result.ami, "nmi": result.nmi, "best_param": result.best_param}

    return Entry("clustering-wgaussians", "ting2021 Fig. 2, Table 3",
                 "best AMI of spectral clustering, density peaks and k-means with IK, GK, AG, distance, "
                 "RandLocal on w-Gaussians: ami[algorithm][measure][w]",
                 exp.WGaussiansParams, exp.run_wgaussians, plots.figures, numbers,
                 quick={"ws": (1,), "n_per_cluster": 250, "trials": 1})

def _svm_density_ratio() -> Entry:
    from .experiments import classification as exp
    from .plots import classification as plots

    def numbers(result):
        return {"table": {str(r): pr.summary() for r, pr in result.items()},
                "fpr_ik_minus_rbf": {str(r): dict(zip(("mean", "std", "seeds_ik_lower"),
                                                      pr.paired_difference("ik", "rbf", "FPR")))
                                     for r, pr in result.items()}}

    return Entry("svm-density-ratio", "ting2018 Table 1",
                 "SVM accuracy/FPR/FNR per kernel per density ratio, mean +- std over paired seeds",
                 exp.DensityRatioParams, exp.run_density_ratio,
                 lambda result: [plots.paired_figure(pr, "FPR") for pr in result.values()], numbers,
                 quick={"ratios": (10.0,), "n_seeds": 2, "n_test": 2000})


def _svm_wgaussians() -> Entry:
    from .experiments import classification as exp
    from .plots import classification as plots

    def numbers(result):
        return {g: res.table() for g, res in result.items()}

    return Entry("svm-wgaussians", "ting2021 Table 4",
                 "SVM accuracy per kernel on w-Gaussians (w = 5,000) with the ting2018 and ting2021 CV grids",
                 exp.WGaussiansParams, exp.run_wgaussians,
                 lambda result: [plots.cv_figure(res) for res in result.values()], numbers,
                 quick={"w": 50, "n": 300, "n_test": 300, "t": 50})


def _online() -> Entry:
    from .experiments import online as exp
    from .plots import classification as plots

    def figures(result):
        return [plots.mistake_curve_figure(exp.run(exp.Params(dataset=d, n=result["_n"])))
                for d in result if not d.startswith("_")]

    def run(p):
        return {**exp.run_repro(p), "_n": p.n}

    return Entry("online", "lu2016 §7, Table 5; wang2017",
                 "final mistake rate and seconds of FOGD, NOGD, IK+OGD, RandLocal+OGD "
                 "(mean, std over orders; η tuned per method)",
                 exp.ReproParams, run, figures,
                 lambda result: {"results": {k: v for k, v in result.items() if not k.startswith("_")}},
                 quick={"datasets": ("spambase",), "n": 2000, "n_seeds": 2})


def _tsne_wgaussians() -> Entry:
    from .experiments import tsne as exp
    from .plots import tsne as plots

    def numbers(table):
        embeddings = {d: {w: {k: {"coords": e.coords, "info": e.info, "seconds": e.seconds}
                              for k, e in r.embeddings.items()} for w, r in by_w.items()}
                      for d, by_w in table.results.items()}
        labels = {d: next(iter(by_w.values())).labels for d, by_w in table.results.items()}
        return {"separation": table.separation["w-gaussians"],
                "separation_unequal_variance": table.separation.get("w-gaussians-unequal", {}),
                "search_range": {"w": table.search_w, "scores": table.search},
                "labels": labels, "embeddings": embeddings}

    return Entry("tsne-wgaussians", "ting2021 §4.2.4, Tables 5-6",
                 "t-SNE with Gaussian (perplexity) vs Isolation Kernel affinities on the w-Gaussians: "
                 "embeddings and separation scores (5-NN accuracy, silhouette, trustworthiness) per w",
                 exp.Params, exp.run_tables, plots.figures, numbers,
                 quick={"n_per_cluster": 100, "exaggeration_iter": 100, "n_iter": 150})


def _instability() -> Entry:
    from .experiments import dimensionality as exp
    from .plots import dimensionality as plots

    def numbers(result):
        main = exp.instability_summary(result)
        wide = exp.instability_summary(result, eps=0.05)
        return {**main, "N_eps_at_eps_0.05": wide["N_eps"], "N_eps_vs_t_at_eps_0.05": wide["N_eps_vs_t"]}

    def figures(result):
        return ([plots.dataset_figure(result.preview, result.labels, result.params.offset)]
                + plots.instability_figures(exp.instability_summary(result))
                + [plots.neps_figure(exp.instability_summary(result, eps=0.05))])

    return Entry("instability", "ting2021 Fig. 1, Table 1, App. D",
                 "N_eps and var(F/E[F]) vs d for GK, LK, IK, l_p, SNN, AG on two clusters; IK N_eps vs t",
                 exp.InstabilityParams, exp.run_instability, figures, numbers,
                 quick={"d_values": (10, 100, 1000), "t_trials": 2})


def _hubness() -> Entry:
    from .experiments import dimensionality as exp
    from .plots import dimensionality as plots

    return Entry("hubness", "ting2021 App. E, Fig. 5",
                 "k-occurrence distribution and skewness of GK and IK on uniform [0,1]^d, d = 3, 20, 100",
                 exp.HubnessParams, exp.run_hubness,
                 lambda result: [plots.hubness_figure(exp.hubness_summary(result))],
                 exp.hubness_summary, quick={"n": 1000})


def _indexing() -> Entry:
    from .experiments import indexing as exp
    from .plots import indexing as plots

    return Entry("indexing", "ting2021 Table 2",
                 "exact 5-NN search, brute force vs ball tree, on distance, IK feature map and normalised LK",
                 exp.Params, exp.run,
                 lambda result: [plots.indexing_figure(exp.summary(result), result.params.k)],
                 lambda result: {**exp.summary(result), **exp.summary(result)["methods"]},
                 quick={"dataset": "ijcnn1-10k", "n_max": 1000})


# name -> factory; factories import lazily so `ikviz --help` stays fast
_FACTORIES: dict[str, Callable[[], Entry]] = {"kernel-shapes": _kernel_shapes,
                                              "density-adaptivity": _density_adaptivity,
                                              "ik-vs-laplacian": _ik_vs_laplacian,
                                              "clustering-wgaussians": _clustering_wgaussians,
                                              "svm-density-ratio": _svm_density_ratio,
                                              "svm-wgaussians": _svm_wgaussians,
                                              "online": _online,
                                              "tsne-wgaussians": _tsne_wgaussians,
                                              "instability": _instability,
                                              "hubness": _hubness,
                                              "indexing": _indexing}


def names() -> list[str]:
    """Registered experiment names."""
    return list(_FACTORIES)


def get(name: str) -> Entry:
    """The registry entry for ``name``; ``ValueError`` listing the choices if unknown."""
    if name not in _FACTORIES:
        raise ValueError(f"unknown experiment {name!r}; choose one of: {', '.join(names())}.")
    return _FACTORIES[name]()


def to_jsonable(obj):
    """Convert results (dataclasses, arrays, dicts with non-string keys, NaN) to JSON-ready values."""
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        return {f.name: to_jsonable(getattr(obj, f.name)) for f in dataclasses.fields(obj)}
    if isinstance(obj, dict):
        return {str(k): to_jsonable(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [to_jsonable(v) for v in obj]
    if isinstance(obj, np.ndarray):
        return to_jsonable(obj.tolist())
    if isinstance(obj, np.generic):
        return to_jsonable(obj.item())
    if isinstance(obj, float) and not math.isfinite(obj):
        return None
    return obj


def reproduce(name: str, out_dir: str | Path, quick: bool = False, **overrides) -> dict[str, Path]:
    """Run experiment ``name`` and write ``NAME.json`` and ``NAME.html`` into ``out_dir``."""
    entry = get(name)
    params = entry.params(**{**(entry.quick if quick else {}), **overrides})
    start = time.perf_counter()
    result = entry.run(params)
    seconds = time.perf_counter() - start
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    payload = {"experiment": name, "source": entry.source, "quick": quick, "seconds": seconds,
               "params": dataclasses.asdict(params), **entry.numbers(result)}
    json_path = out / f"{name}.json"
    json_path.write_text(json.dumps(to_jsonable(payload), indent=1))
    html_path = out / f"{name}.html"
    parts = [f"<h1>{name}</h1><p>{entry.description} — reproduces {entry.source}.</p>"]
    for i, fig in enumerate(entry.figures(result)):
        parts.append(fig.to_html(full_html=False, include_plotlyjs=(i == 0)))
    html_path.write_text("<!DOCTYPE html><html><head><meta charset='utf-8'>"
                         f"<title>ikviz · {name}</title></head><body>{''.join(parts)}</body></html>")
    return {"json": json_path, "html": html_path}


def reproduce_all(out_dir: str | Path, quick: bool = False, echo=print) -> Path:
    """Run every registered experiment into ``out_dir`` and write an ``index.html`` linking them."""
    out = Path(out_dir)
    rows = []
    for name in names():
        start = time.perf_counter()
        paths = reproduce(name, out, quick=quick)
        seconds = time.perf_counter() - start
        echo(f"{name}: {seconds:.1f} s -> {paths['json'].name}, {paths['html'].name}")
        rows.append(f"<tr><td>{name}</td><td>{get(name).source}</td><td>{get(name).description}</td>"
                    f"<td><a href='{paths['html'].name}'>figure</a></td><td><a href='{paths['json'].name}'>numbers</a>"
                    f"</td><td>{seconds:.1f} s</td></tr>")
    index = out / "index.html"
    index.write_text(
        "<!DOCTYPE html><html><head><meta charset='utf-8'><title>ikviz reproductions</title></head><body>"
        f"<h1>ikviz reproductions{' (quick)' if quick else ''}</h1><table border='1' cellpadding='4'>"
        "<tr><th>experiment</th><th>reproduces</th><th>what</th><th>figure</th><th>numbers</th><th>time</th></tr>"
        + "".join(rows) + "</table></body></html>")
    return index
