"""wang2017 Table 3 (Micro-F1 per method beside the paper's, DAE and SDAE as printed) and Table 4 / Fig. 3 (seconds).

The RBF kernel SVM has one bar per reading of its grid (h as divisor, γ); the
paper's single RBF number stands beside each, since it does not say which.
"""

from __future__ import annotations

import plotly.graph_objects as go
from plotly.subplots import make_subplots

from .style import base_layout

_ORDER = ("RAW", "RBF Kernel", "DAE", "SDAE", "RandLocal")


def paper_bars(methods: list[str], paper: dict) -> tuple[list[str], list[float]]:
    """The paper's bars on ikviz's categories: its one RBF number at each RBF reading, DAE and SDAE as printed.

    Examples
    --------
    >>> paper_bars(["RAW", "RBF Kernel (h)", "RBF Kernel (γ)", "RandLocal"],
    ...            {"RAW": 90, "RBF Kernel": 97, "DAE": 93, "SDAE": 94, "RandLocal": 98})
    (['RAW', 'RBF Kernel (h)', 'RBF Kernel (γ)', 'DAE', 'SDAE', 'RandLocal'], [90, 97, 97, 93, 94, 98])
    """
    rbf = [m for m in methods if m.startswith("RBF Kernel")] or ["RBF Kernel"]
    x = [c for m in _ORDER for c in (rbf if m == "RBF Kernel" else [m])]
    return x, [paper["RBF Kernel" if c.startswith("RBF Kernel") else c] for c in x]


def figures(result, height: int = 380) -> list[go.Figure]:
    """Micro-F1 per column (ikviz's mean ± std beside the paper's), then training seconds per column.

    Examples
    --------
    >>> from ikviz.experiments.paper_wang2017_table3 import Params, Result
    >>> fold = {m: {"micro": 90.0, "macro": 80.0, "train_seconds": 1.0, "feature_seconds": 0.5, "chosen": {}}
    ...         for m in ("RAW", "RBF Kernel (h)", "RBF Kernel (γ)", "RandLocal")}
    >>> figs = figures(Result(Params(columns=("MNIST",)), {"MNIST": [fold, fold]}, {"MNIST": 100}))
    >>> len(figs), [t.name for t in figs[0].data], list(figs[1].data[0].x)[-2:]
    (2, ['ikviz', 'wang2017 (DAE, SDAE: not re-run)'], ['RBF (h): kernel SVM', 'RBF (γ): kernel SVM'])
    """
    from ..experiments.paper_wang2017_table3 import PAPER_TABLE3, summarize

    columns = list(result.folds)
    f1 = make_subplots(rows=1, cols=len(columns), subplot_titles=columns)
    secs = make_subplots(rows=1, cols=len(columns), subplot_titles=columns)
    for col, column in enumerate(columns, start=1):
        s = summarize(result.folds[column])
        ours = list(s)
        rbf = [m for m in ours if m.startswith("RBF Kernel")]
        f1.add_bar(x=ours, y=[s[m]["micro_f1"][0] for m in ours], error_y=dict(array=[s[m]["micro_f1"][1] for m in ours]),
                   name="ikviz", marker_color="#56b4e9", showlegend=col == 1, row=1, col=col)
        x, y = paper_bars(ours, {m: PAPER_TABLE3[column][m][0][0] for m in _ORDER})
        f1.add_bar(x=x, y=y, name="wang2017 (DAE, SDAE: not re-run)", marker_color="#bbbbbb", showlegend=col == 1,
                   hovertext=["the paper's one RBF number (its grid's reading not stated)"
                              if c.startswith("RBF Kernel") else "" for c in x], row=1, col=col)
        f1.update_xaxes(categoryorder="array", categoryarray=x, row=1, col=col)
        f1.update_yaxes(title_text="Micro-F1 (%)", row=1, col=col)
        secs.add_bar(x=["RAW: linear SVM", "RandLocal: features", "RandLocal: linear SVM"]
                     + [f"RBF{m[len('RBF Kernel'):]}: kernel SVM" for m in rbf],
                     y=[s["RAW"]["train_seconds"], s["RandLocal"]["feature_seconds"], s["RandLocal"]["train_seconds"]]
                     + [s[m]["train_seconds"] for m in rbf], marker_color="#56b4e9", showlegend=False, row=1, col=col)
        secs.update_yaxes(title_text="seconds (mean over folds)", type="log", row=1, col=col)
    p = result.params
    return [base_layout(f1, f"wang2017 Table 3: linear SVM on each feature set<br><sup>{p.folds}-fold CV, parameters by "
                            f"{p.inner_folds}-fold CV on {p.tune_rows:,} training rows</sup>", height),
            base_layout(secs, "wang2017 Table 4 and Fig. 3: training and feature seconds (same run)", height)]
