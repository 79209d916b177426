"""The registry of paper reproductions behind ``ikviz reproduce``.

Each entry ties an experiment (``Params`` -> ``run`` -> result) to its plot
builder and to the paper figure it reproduces. ``reproduce`` writes the
numbers as JSON and the figures as one standalone HTML file. Checking the
papers' claims on those numbers is :mod:`ikviz.claims`, which sits above this
module (``claims.reproduce_all`` is ``ikviz reproduce all|claims``); this
module never imports it. A reproduction whose data is not here (a fetched
file with no mirror, cache or network) writes a payload saying so
(``"unavailable"``) instead of failing.
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

from .data.fetch import FetchError
from .html import Section


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
    # overrides for the paper's size, where the app's view (the Params defaults) is smaller
    paper: dict = dataclasses.field(default_factory=dict)


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
        # table3: the paper's columns under its own short keys, table3["dp"]["ik"][w] (IK = Voronoi, as in
        # ting2021); paper: what ting2021 Table 3 and Fig. 2 report, in the same shape
        return {"ami": result.ami, "nmi": result.nmi, "best_param": result.best_param,
                "table3": result.table3(), "psi_grid": result.psi_grid, "sweep_seconds": result.seconds,
                "paper": {"table3": exp.PAPER_TABLE3, "fig2": exp.PAPER_FIG2}}

    return Entry("clustering-wgaussians", "ting2021 Fig. 2, Table 3",
                 "best AMI of density peaks (distance, AG, IK) and spectral clustering (GK, AG, IK) on "
                 "w-Gaussians, the paper's protocol: w = 1 at 500 points per cluster (Fig. 2) and w = 5,000 at "
                 "1,000 per cluster (Table 3, d = 10,000), Table 7's grids, SC averaged over 10 trials, DP one "
                 "trial; ψ ≤ 128 at w = 5,000 (t·ψ·d sampled points over IsolationKernel's 2 GiB budget above "
                 "that; IK already reaches AMI 1.0 at ψ = 32). Density ties broken by a seeded hash of the rows, "
                 "not their order. ami[algorithm][measure][w], table3[dp|sc][measure][w], paper",
                 exp.WGaussiansParams, exp.run_wgaussians, plots.figures, numbers,
                 quick={"ws": (1, 5000), "n_per_cluster": (150, 100), "trials": 1, "t": 100, "max_psi": 64,
                        "measures": ("distance", "gk", "ag", "ik_anne", "ik_iforest")})


def _svm_density_ratio() -> Entry:
    from .experiments import classification as exp
    from .plots import classification as plots

    return Entry("svm-density-ratio", "ting2018 Table 1",
                 "SVM accuracy/FPR/FNR per kernel per density ratio on both density-ratio generators (uniform "
                 "squares, Gaussian classes), mean +- std over paired seeds; FPR(IK) - FPR(RBF) and "
                 "FPR(IK) - FPR(Laplacian) per seed pair; ting2018 Table 1 as printed under 'paper'",
                 exp.DensityRatioParams, exp.run_density_ratio,
                 lambda result: [plots.paired_figure(pr, "FPR", title=f"{shape}, ratio {r:g}")
                                 for shape, by_ratio in result.items() for r, pr in by_ratio.items()],
                 exp.density_ratio_numbers,
                 quick={"ratios": (10.0, 20.0), "n_seeds": 2, "n_test": 2000})


def _svm_wgaussians() -> Entry:
    from .experiments import classification as exp
    from .plots import classification as plots

    def numbers(result):
        return {g: res.table() for g, res in result.items()}

    return Entry("svm-wgaussians", "ting2021 Table 4",
                 "SVM accuracy per kernel on w-Gaussians (w = 5,000) with the ting2018 and ting2021 CV grids",
                 exp.WGaussiansParams, exp.run_wgaussians,
                 lambda result: [plots.cv_figure(res) for res in result.values()], numbers,
                 quick={"w": 5000, "n": 300, "n_test": 300, "t": 50, "grids": ("ting2021",)})


def _online() -> Entry:
    from .experiments import online as exp
    from .plots import classification as plots

    def figures(result):
        # the mistake curves of the first order: the same passes as the numbers
        return [plots.mistake_curve_figure(res) for res in result.first.values()]

    return Entry("online", "lu2016 §7.2, Table 5; wang2017",
                 "final mistake rate and seconds of FOGD, NOGD, IK+OGD, RandLocal+OGD (mean, std over orders; "
                 "η tuned per method) with lu2016's settings (features as given, σ = 8 i.e. γ = 1/128, B = 100, "
                 "D = 400), beside lu2016 Table 5 ('paper') and the majority-class mistake rate",
                 exp.ReproParams, exp.run_repro, figures,
                 lambda result: {"results": result.summary},
                 quick={"datasets": ("german", "spambase", "a9a-full"), "n": 2000, "n_seeds": 2},
                 paper={"datasets": ("german", "spambase", "a9a-full")})


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
                 "t-SNE with Gaussian (perplexity) vs Isolation Kernel affinities, and FIt-SNE (GK, openTSNE's FFT "
                 "gradient), on the w-Gaussians: "
                 "embeddings and separation scores (5-NN accuracy, silhouette, trustworthiness) per w",
                 exp.Params, exp.run_paper_tables, plots.figures, numbers,
                 quick={"n_per_cluster": 100, "exaggeration_iter": 100, "n_iter": 150})


def _instability() -> Entry:
    from .experiments import dimensionality as exp
    from .plots import dimensionality as plots

    def views(result):
        # both eps from the one result: N_eps at a second eps recomputes no similarity
        return exp.instability_views(result, (exp.PAPER_EPS, exp.VISIBLE_EPS))

    def numbers(result):
        main = exp.instability_summary(result)
        by_eps = views(result)
        curves = by_eps[exp.PAPER_EPS]["N_eps_vs_t"].get("data", {})
        ts = next(iter(curves.values()), {}).get("t", [])
        return {**{k: v for k, v in main.items() if k != "N_eps_vs_t"},
                "eps_views": {str(e): exp.EPS_VIEWS[e] for e in by_eps},
                # q_i, the query outside any cluster (the paper's summary): measure -> d -> N_eps
                "N_eps_by_eps": {str(e): {m: v["between"] for m, v in s["N_eps"].items()} for e, s in by_eps.items()},
                "N_eps_by_eps_and_query": {str(e): s["N_eps"] for e, s in by_eps.items()},
                # Fig. 4(a): IK from the data, the paper's eps: t -> [q_i, q_c] mean N_eps
                "N_eps_vs_t": {t: [curves[q]["mean"][i] for q in curves] for i, t in enumerate(ts)},
                "N_eps_vs_t_by_eps": {str(e): s["N_eps_vs_t"] for e, s in by_eps.items()},
                "paper": exp.PAPER_FIG1}

    def figures(result):
        by_eps = views(result)
        paper = by_eps[exp.PAPER_EPS]
        return ([plots.dataset_figure(result.preview, result.labels, result.params.offset),
                 plots.variance_figure(paper), plots.neps_by_eps_figure(by_eps, exp.EPS_VIEWS)]
                + ([plots.t_curve_figure(paper)] if paper.get("N_eps_vs_t") else []))

    return Entry("instability", "ting2021 Fig. 1, Table 1, App. D Fig. 4",
                 "N_eps (at the paper's ε = 0.005 and at ε = 0.05, where the effect shows) and var(F/E[F]) vs d "
                 "for GK, LK, IK, l_p, SNN, AG on two clusters; IK N_eps vs t; the paper's statements under 'paper'",
                 exp.InstabilityParams, exp.run_instability, figures, numbers,
                 quick={"d_values": (10, 100, 1000, 3000), "t_trials": 2}, paper={"d_max": 10000, "t_trials": 5})


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

    def numbers(result):
        summary = exp.summary(result)
        return {**summary, **summary["methods"], "paper": exp.paper_ratios()}

    return Entry("indexing", "ting2021 Table 2",
                 "exact 5-NN search, brute force vs scikit-learn's ball_tree option, on distance, the IK feature map "
                 "(sparse: scikit-learn falls back to brute force; dense: a real ball tree) and normalised LK",
                 exp.Params, exp.run,
                 lambda result: [plots.indexing_figure(exp.summary(result), result.params.k)],
                 numbers, quick={"dataset": "ijcnn1-10k", "n_max": 1000},
                 paper={"dataset": "gaussians", "n_max": 2000})


def _randlocal() -> Entry:
    from .experiments import randlocal as exp
    from .plots import randlocal as plots

    def numbers(result):
        return {"micro_f1": result.micro_f1, "macro_f1": result.macro_f1, "kmeans_acc": result.kmeans_acc,
                "kmeans_nmi": result.kmeans_nmi, "best_anchors": result.best_anchors,
                "n_classification": result.n_classification, "n_clustering": result.n_clustering}

    return Entry("randlocal", "wang2017 Tables 5-6",
                 "k-means (ACC, NMI) and a linear SVM (Micro/Macro-F1; Table 3 at its protocol is wang2017-table3) "
                 "on RAW vs RandLocal features (ε = 1e-4, "
                 "T = 400; k-means: best over max_anchors, the paper's grid-search rule) on the real data: the full "
                 "ijcnn1 training file (49,990 rows, fetched) for IJCNN, MNIST's test set (10,000 digits, fetched) "
                 "for MNIST (max_anchors up to 512 there: 400 sets of 1,024 anchors in 784 dimensions are over the "
                 "2 GiB budget of one dense block)",
                 exp.Params, exp.run, plots.figures, numbers,
                 quick={"max_rows": 2000, "folds": 2, "kmeans_repeats": 2, "anchors_grid": (8, 32, 128)},
                 paper={"classification": "ijcnn1", "clustering": "mnist-test", "anchors_grid": (8, 32, 128, 512)})


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
                                              "indexing": _indexing,
                                              "randlocal": _randlocal}


# name -> module: a reproduction that says everything about itself in ikviz/experiments/<module>.py
# (Params, run, numbers, SOURCE, DESCRIPTION, QUICK and optionally PAPER_SIZE) and ikviz/plots/<module>.py (figures)
_MODULES: dict[str, str] = {"gk-bandwidth": "paper_gk_bandwidth",
                            "ting2018-table6": "paper_ting2018_table6",
                            "ting2018-table5": "paper_ting2018_table5",
                            "ting2021-table9": "paper_ting2021_table9",
                            "ting2021-tle": "paper_ting2021_tle",
                            "lu2016-table5": "paper_lu2016_table5",
                            "lu2016-table7": "paper_lu2016_table7",
                            "lu2016-fig3": "paper_lu2016_fig3",
                            "lu2016-fig4": "paper_lu2016_fig4",
                            "lu2016-table3": "paper_lu2016_table3",
                            "ting2018-svm": "paper_ting2018_svm",
                            "ting2018-density": "paper_ting2018_density",
                            "ting2021-table2": "paper_ting2021_table2",
                            "wang2017-sensitivity": "paper_wang2017_sensitivity",
                            "wang2017-outliers": "paper_wang2017_outliers",
                            "wang2017-table3": "paper_wang2017_table3",
                            "wang2017-noise": "paper_wang2017_noise"}


def _declared(name: str) -> Entry:
    """The entry of a reproduction registered by its module (see ``_MODULES``)."""
    import importlib

    exp = importlib.import_module(f"{__package__}.experiments.{_MODULES[name]}")
    plots = importlib.import_module(f"{__package__}.plots.{_MODULES[name]}")
    return Entry(name, exp.SOURCE, exp.DESCRIPTION, exp.Params, exp.run, plots.figures, exp.numbers,
                 quick=getattr(exp, "QUICK", {}), paper=getattr(exp, "PAPER_SIZE", {}))


def names() -> list[str]:
    """Registered experiment names.

    Examples
    --------
    >>> from ikviz.reproduce import names
    >>> "gk-bandwidth" in names() and "kernel-shapes" in names()
    True
    """
    return list(_FACTORIES) + list(_MODULES)


def get(name: str) -> Entry:
    """The registry entry for ``name``; ``ValueError`` listing the choices if unknown."""
    if name in _MODULES:
        return _declared(name)
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


#: blocks (``module.function``) a resumable run keeps on disk as each finishes, in ``.blocks/`` beside the
#: reproductions' files: an interrupted run loses at most the block under way (one fold of wang2017's 110-fold
#: Table 7, or one method's search or precision on one of ting2021 Table 2's rows, not the hours before it), and
#: a block two reproductions share is computed once (Table 7's runs without noise are Table 3's folds). Only
#: values that JSON gives back exactly are kept.
CHECKPOINTED = ("ikviz.experiments.paper_wang2017_table3.table3_fold",
                "ikviz.experiments.paper_wang2017_noise.noise_fold",
                "ikviz.experiments.indexing.method_times",
                "ikviz.experiments.indexing.precision")


def checkpoint_memo(directory: str | Path, blocks=CHECKPOINTED):
    """A run's memo that also keeps each finished block of ``blocks`` in ``directory`` and reads it back.

    A kept block counts only under the same block name, arguments
    (:func:`ikviz.runner.block_key`) and code (the digest of its module and
    the ikviz modules it imports); anything else is computed again. Other
    blocks are memoised for the run only, as :class:`ikviz.runner.RunMemo`.

    Examples
    --------
    >>> import tempfile
    >>> from ikviz.reproduce import checkpoint_memo
    >>> folder, calls = tempfile.mkdtemp(), []
    >>> def doubled(x):
    ...     calls.append(x)
    ...     return 2 * x
    >>> memo = lambda: checkpoint_memo(folder, (f"{doubled.__module__}.doubled",))
    >>> memo()(doubled)(21), memo()(doubled)(21), calls   # the second run reads the first's block back
    (42, 42, [21])
    """
    from .runner import RunMemo, block_key, block_name
    from .store.fingerprint import module_fingerprint

    folder = Path(directory)

    class CheckpointMemo(RunMemo):
        def __call__(self, fn):
            inner = super().__call__(fn)
            try:
                name = block_name(fn)
            except TypeError:
                return inner
            if name not in blocks:
                return inner

            def block(*args, **kwargs):
                key = block_key(fn, args, kwargs)
                code = module_fingerprint(fn.__module__)
                path = folder / f"{name.rsplit('.', 1)[-1]}-{key}.json"
                try:
                    kept = json.loads(path.read_text(encoding="utf-8"))
                    if kept.get("block") == name and kept.get("code") == code:
                        return kept["value"]
                except (OSError, ValueError, AttributeError, KeyError):
                    pass
                value = inner(*args, **kwargs)
                text = json.dumps({"block": name, "code": code, "value": value})
                if json.loads(text)["value"] == value:   # kept only if it reads back exactly
                    folder.mkdir(parents=True, exist_ok=True)
                    _write_atomic(path, text)
                return value

            block.__wrapped__ = fn
            return block

    return CheckpointMemo()


def execute(name: str, quick: bool = False, *, progress=None, checkpoints: str | Path | None = None, **overrides):
    """Run experiment ``name``: ``(entry, params, result, seconds)``; ``progress(fraction, text)`` if it reports.

    ``checkpoints``: a folder where the blocks of :data:`CHECKPOINTED` are kept
    as they finish and read back (:func:`checkpoint_memo`).
    """
    from .runner import RunMemo, call_block

    entry = get(name)
    params = entry.params(**{**entry.paper, **(entry.quick if quick else {}), **overrides})
    memo = RunMemo() if checkpoints is None else checkpoint_memo(checkpoints)
    start = time.perf_counter()
    result = call_block(entry.run, (params,), {}, memo, progress)
    return entry, params, result, time.perf_counter() - start


def _payload(name, entry, params, result, seconds, quick) -> dict:
    return to_jsonable({"experiment": name, "source": entry.source, "quick": quick, "seconds": seconds,
                        "params": dataclasses.asdict(params), **entry.numbers(result)})


def entry_for(fn: Callable) -> Entry | None:
    """The registered reproduction whose ``run`` is ``fn`` (the first, if several share it), or None."""
    return next((entry for entry in map(get, names()) if entry.run is fn), None)


def numbers_of(fn: Callable, params, result, *, quick: bool = False) -> dict | None:
    """What ``ikviz reproduce`` writes to ``NAME.json`` for ``result = fn(params)``; None if ``fn`` is not registered.

    The app's Export menu offers it for a view computed by a registered run, so a
    student's download and a reviewer's ``ikviz reproduce`` output can be compared
    field by field (``seconds`` is None: the view may come from the results store).

    Examples
    --------
    >>> from ikviz import reproduce
    >>> entry = reproduce.get("hubness")
    >>> params = entry.params(n=200, d_values=(3, 20))
    >>> numbers = reproduce.numbers_of(entry.run, params, entry.run(params))
    >>> numbers["experiment"], sorted(numbers["skewness"]), numbers["params"]["n"]
    ('hubness', ['gk', 'ik'], 200)
    """
    entry = entry_for(fn)
    if entry is None or not isinstance(params, entry.params):
        return None
    return _payload(entry.name, entry, params, result, None, quick)


def payload(name: str, quick: bool = False, *, progress=None, **overrides) -> dict:
    """Run experiment ``name`` and return its JSON numbers (what ``NAME.json`` holds), without writing files.

    Examples
    --------
    >>> from ikviz.reproduce import payload
    >>> numbers = payload("hubness", quick=True, n=200, d_values=(3, 20))
    >>> numbers["experiment"], sorted(numbers["skewness"])
    ('hubness', ['gk', 'ik'])
    """
    try:
        entry, params, result, seconds = execute(name, quick, progress=progress, **overrides)
    except FetchError as exc:
        return _unavailable(name, quick, overrides, exc)
    return _payload(name, entry, params, result, seconds, quick)


def _unavailable(name: str, quick: bool, overrides: dict, exc: Exception) -> dict:
    """The payload of a reproduction whose data is not here: what it would have run and which file would serve."""
    entry = get(name)
    params = entry.params(**{**entry.paper, **(entry.quick if quick else {}), **overrides})
    return to_jsonable({"experiment": name, "source": entry.source, "quick": quick, "seconds": None,
                        "params": dataclasses.asdict(params), "unavailable": str(exc)})


def _params(name: str, quick: bool, overrides: dict):
    entry = get(name)
    return entry, entry.params(**{**entry.paper, **(entry.quick if quick else {}), **overrides})


def fingerprint(name: str, params) -> dict:
    """What a finished result of ``name`` depends on: a digest of its ``params`` and one of its code.

    The code digest covers the module of the reproduction's ``run`` and of its
    ``numbers`` with every ikviz module they import, directly or through others
    (:func:`ikviz.store.fingerprint.module_fingerprint`: docstrings, comments and
    layout left out); a ``numbers`` defined in this registry counts by its own
    code only, so registering another reproduction recomputes nothing. The
    figures are not part of it (the numbers do not depend on them).

    Examples
    --------
    >>> from ikviz.reproduce import fingerprint, get
    >>> a = fingerprint("hubness", get("hubness").params(n=200))
    >>> a == fingerprint("hubness", get("hubness").params(n=200)), a == fingerprint("hubness", get("hubness").params(n=300))
    (True, False)
    >>> sorted(a)
    ['code', 'params']
    """
    import hashlib

    from .store.fingerprint import digest_code, module_fingerprint

    entry = get(name)
    code = hashlib.blake2b(digest_size=16)
    for fn in (entry.run, entry.numbers):
        fn = getattr(fn, "__wrapped__", fn)
        module = getattr(fn, "__module__", None)
        if module and module != __name__:
            code.update(f"{module}:{module_fingerprint(module)};".encode())
        elif getattr(fn, "__code__", None) is not None:
            digest_code(fn.__code__, code)
    settings = json.dumps(to_jsonable(dataclasses.asdict(params)), sort_keys=True)
    return {"params": hashlib.blake2b(settings.encode(), digest_size=16).hexdigest(), "code": code.hexdigest()}


def stored(name: str, out_dir: str | Path, quick: bool = False, **overrides) -> dict | None:
    """The numbers of ``name`` finished earlier in ``out_dir`` under the same params and code, or None.

    A result counts only if its ``NAME.json`` holds the :func:`fingerprint` of
    the params it would run now (the paper's size unless ``quick``, with
    ``overrides``) and of the code as it is now; anything else (no file, a
    file cut short, other params, changed code, data that was not here) is
    None, and the reproduction is run again.

    Examples
    --------
    >>> import tempfile
    >>> from ikviz.reproduce import reproduce, stored
    >>> out = tempfile.mkdtemp()
    >>> stored("hubness", out, quick=True, n=200, d_values=(3, 20)) is None
    True
    >>> done = reproduce("hubness", out, quick=True, n=200, d_values=(3, 20))
    >>> stored("hubness", out, quick=True, n=200, d_values=(3, 20))["skewness"] == done["payload"]["skewness"]
    True
    >>> stored("hubness", out, quick=True, n=300, d_values=(3, 20)) is None
    True
    """
    path = Path(out_dir) / f"{name}.json"
    try:
        numbers = json.loads(path.read_text())
    except (OSError, ValueError):
        return None
    if not isinstance(numbers, dict) or numbers.get("quick") is not bool(quick) or numbers.get("unavailable"):
        return None
    _, params = _params(name, quick, overrides)
    return numbers if numbers.get("fingerprint") == fingerprint(name, params) else None


def _write_atomic(path: Path, text: str) -> Path:
    """Write ``text`` to ``path`` through a temporary file in the same folder: a reader sees all of it or none."""
    import os

    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        tmp.write_text(text, encoding="utf-8")
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)
    return path


def reproduce(name: str, out_dir: str | Path, quick: bool = False, *, resume: bool = False, progress=None,
              **overrides) -> dict[str, Path]:
    """Run experiment ``name`` and write ``NAME.json`` and ``NAME.html`` into ``out_dir``.

    The returned dict also holds the numbers under ``"payload"``. Both files
    are written whole or not at all (a temporary file, then renamed), and the
    JSON holds the :func:`fingerprint` of its params and code. With
    ``resume``, a result already in ``out_dir`` under the same fingerprint is
    read back instead of recomputed (``"resumed"`` is then True), and the
    blocks of :data:`CHECKPOINTED` are kept in ``out_dir/.blocks`` as they
    finish, so a run cut short resumes from its last finished block.
    ``progress(fraction, text)`` hears the run's progress.
    """
    from .html import report_html

    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    json_path, html_path = out / f"{name}.json", out / f"{name}.html"
    if resume:
        done = stored(name, out, quick, **overrides)
        if done is not None:
            return {"json": json_path, "html": html_path, "payload": done, "resumed": True}
    try:
        entry, params, result, seconds = execute(name, quick, progress=progress,
                                                 checkpoints=out / ".blocks" if resume else None, **overrides)
    except FetchError as exc:   # the data is not here: say so and which file would serve, draw nothing
        numbers = _unavailable(name, quick, overrides, exc)
        _write_atomic(json_path, json.dumps(numbers, indent=1))
        _write_atomic(html_path, report_html(name, f"Not run: {exc}", []))
        return {"json": json_path, "html": html_path, "payload": numbers, "resumed": False}
    numbers = {**_payload(name, entry, params, result, seconds, quick), "fingerprint": fingerprint(name, params)}
    html = report_html(name, f"{entry.description} — reproduces {entry.source}.",
                       [Section("Figures", figures=list(entry.figures(result)))],
                       {"size": "quick" if quick else "full", "seconds": round(seconds, 1)})
    _write_atomic(html_path, html)
    _write_atomic(json_path, json.dumps(numbers, indent=1))   # last: a JSON on disk means both are there
    return {"json": json_path, "html": html_path, "payload": numbers, "resumed": False}
