"""ting2021 Table 2 on every row whose data ikviz has: ball tree vs brute force, and precision@5.

Rows: Gaussians (Fig. 1's data, d = 10,000), w-Gaussians (w = 5,000),
Mnist (MNIST's test set, 10,000 digits, fetched), A9a (10,000 of a9a's
rows) and Ijcnn1 (10,000 of the full training file, fetched); the paper's
Url, News20, Rcv1, Real-sim and Cifar-10 are not obtainable here. Each row is
:func:`ikviz.experiments.indexing.run` on that dataset: exact 5-NN search by
brute force and by scikit-learn's ball tree (leaf size 15) on distance, IK's
map (sparse: scikit-learn falls back to brute force; dense: a real tree) and
the linear kernel, and precision@5 of distance and IK.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from ..params import setting
from ..runner import Memo, Progress, resolve, within
from . import indexing

#: the paper's row -> ikviz's dataset
ROWS = {"Gaussians": "gaussians", "w-Gaussians": "w-gaussians", "Mnist": "mnist-test", "A9a": "a9a",
        "Ijcnn1": "ijcnn1"}
#: ting2021 Table 2's precision@5 (distance, IK) on those rows
PAPER_PRECISION = {"Gaussians": (1.00, 1.00), "w-Gaussians": (.90, 1.00), "Mnist": (.93, .93), "A9a": (.79, .79),
                   "Ijcnn1": (.97, .96)}
MISSING = ("Url", "News20", "Rcv1", "Real-sim", "Cifar-10")


#: what ``ikviz reproduce ting2021-table2`` says it reproduces (see :mod:`ikviz.reproduce`), and its quick size
SOURCE = "ting2021 Table 2 (all rows here)"
DESCRIPTION = ("exact 5-NN search, brute force vs ball tree (distance, IK sparse and dense, LK) and precision@5 "
               "on Table 2's rows ikviz has: Gaussians, w-Gaussians, Mnist (test set, fetched), A9a, Ijcnn1 "
               "(fetched), 10,000 points each (Url, News20, Rcv1, Real-sim, Cifar-10: not obtainable here)")
QUICK = {"rows": ("Mnist", "A9a", "Ijcnn1"), "n_max": 500}


@dataclass(frozen=True)
class Params:
    """The rows and the size of each (the paper: 10,000 points; 2,000 for the two synthetic sets)."""

    rows: tuple[str, ...] = setting(tuple(ROWS), "Table 2 rows")
    n_max: int = setting(10_000, "points per row (subsampled)", low=100, high=10_000)
    psi: int = setting(16, "IK ψ")
    t: int = setting(200, "IK t")
    seed: int = setting(0, "seed")


@dataclass(frozen=True)
class Result:
    params: Params
    summaries: dict    # row -> ikviz.experiments.indexing.summary(...)


def run(params: Params = Params(), *, memo: Memo | None = None, progress: Progress | None = None) -> Result:
    """:func:`ikviz.experiments.indexing.run` on each row of ``params``.

    Examples
    --------
    >>> res = run(Params(rows=("Gaussians",), n_max=100, t=20))   # doctest: +SKIP
    >>> sorted(res.summaries["Gaussians"]["tree_over_brute"])     # doctest: +SKIP
    ['distance', 'ik_dense', 'ik_sparse', 'lk']
    """
    memo, progress = resolve(memo, progress)
    unknown = [r for r in params.rows if r not in ROWS]
    if unknown:
        raise ValueError(f"rows must be among {list(ROWS)}; got {unknown} (not here: {', '.join(MISSING)}).")
    out = {}
    for i, row in enumerate(params.rows):
        step = within(progress, i / len(params.rows), (i + 1) / len(params.rows), row)
        p = replace(indexing.Params(), dataset=ROWS[row], n_max=params.n_max, psi=params.psi, t=params.t,
                    seed=params.seed)
        out[row] = indexing.summary(indexing.run(p, memo=memo, progress=step))
    progress(1.0, "done")
    return Result(params, out)


def numbers(result: Result) -> dict:
    """Per row: ball tree ÷ brute force per method, whether it fell back, precision@5; the paper's beside them."""
    k = indexing.Params().k
    paper = indexing.paper_ratios()["ik_tree_over_brute"]
    rows = {}
    for row, s in result.summaries.items():
        m = s["methods"]
        rows[row] = {"n": s["n"], "d": s["d"], "tree_over_brute": s["tree_over_brute"], "fallback": s["fallback"],
                     "precision": {"distance": m["distance"][f"precision_at_{k}"], "ik": m["ik_sparse"][f"precision_at_{k}"]},
                     "paper": {"ik_tree_over_brute": paper[row], "precision": PAPER_PRECISION[row]}}
    return {"rows": rows, "missing": list(MISSING)}
