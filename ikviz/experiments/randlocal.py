"""RandLocal features against raw features (wang2017 §4.3-4.4): linear SVM and k-means on the shipped data.

wang2017 evaluates on IJCNN, COVTYPE, MNIST and GISETTE. ikviz ships a
10,000-row sample of IJCNN (``ijcnn1-10k``) and no MNIST; scikit-learn's
8×8 handwritten ``digits`` (1,797 rows, 10 classes) stands in for MNIST in
the clustering table, and every number says which data it comes from.

The protocol follows the paper where it is stated: RandLocal with ε = 0.0001
and T = 400; a linear SVM on the features, scored by Micro- and Macro-F1
over stratified k-fold cross-validation (the paper: 5 folds; its parameters
by an inner CV on the training part, here C of the linear SVM and γ of the
RBF SVM); k-means on the features with the number of classes as k,
repeated with different seeds (the paper: 20) and scored by accuracy
(clusters matched to classes) and NMI. For clustering the paper "use[s] grid
search to select parameters for each method and report[s] the best
results"; ikviz searches RandLocal's largest number of anchors per set
(``anchors_grid``) and reports the best mean, naming the value chosen.

:func:`run` follows :mod:`ikviz.runner`: each fold and each k-means
repeat is a block of ``memo``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..data import load
from ..runner import Memo, Progress, resolve, within

#: the feature sets of the classification table, in wang2017 Table 3's order
CLASSIFIERS = ("RAW", "RBF Kernel", "RandLocal")
#: the feature sets of the clustering tables (wang2017 Tables 5-6 have no RBF column for the big sets)
CLUSTERINGS = ("RAW", "RandLocal")


@dataclass(frozen=True)
class Params:
    """wang2017's classification and clustering protocol on shipped data.

    Examples
    --------
    >>> from ikviz.experiments.randlocal import Params
    >>> Params(max_rows=500).classification
    'ijcnn1-10k'
    """

    classification: str = "ijcnn1-10k"
    clustering: str = "digits"
    n_sets: int = 400           # the paper's T
    epsilon: float = 1e-4       # the paper's ε
    folds: int = 5
    kmeans_repeats: int = 20
    anchors_grid: tuple[int, ...] = (8, 32, 128, 1024)   # RandLocal's max_anchors, searched for k-means
    max_rows: int = 10_000
    seed: int = 0

    def __post_init__(self):
        if self.folds < 2:
            raise ValueError(f"folds must be at least 2; got {self.folds}.")
        if self.kmeans_repeats < 1 or self.n_sets < 1:
            raise ValueError("kmeans_repeats and n_sets must be at least 1.")
        if not self.anchors_grid or min(self.anchors_grid) < 2:
            raise ValueError(f"anchors_grid needs values of at least 2; got {self.anchors_grid}.")


@dataclass(frozen=True)
class Result:
    """Per feature set: mean and std of Micro-F1 / Macro-F1 (in %) and of k-means accuracy / NMI."""

    params: Params
    micro_f1: dict            # feature set -> (mean, std), %
    macro_f1: dict
    kmeans_acc: dict          # feature set -> (mean, std); RandLocal: at the best max_anchors (by ACC, by NMI)
    kmeans_nmi: dict
    n_classification: int
    n_clustering: int
    best_anchors: dict = None  # "acc" / "nmi" -> the max_anchors of the grid that scored best


def _randlocal(p: Params, seed: int, max_anchors: int = 1024):
    from ..features import RandLocal

    return RandLocal(n_sets=p.n_sets, epsilon=p.epsilon, min_anchors=min(32, max_anchors), max_anchors=max_anchors,
                     random_state=seed)


def classify_fold(p: Params, fold: int) -> dict[str, tuple[float, float]]:
    """Micro- and Macro-F1 (%) of each of :data:`CLASSIFIERS` on one fold of ``p.classification``.

    C of the linear SVM (and γ of the RBF SVM) is chosen by a 3-fold CV on
    the training part only, as the paper tunes on training data.
    """
    from sklearn.metrics import f1_score
    from sklearn.model_selection import GridSearchCV, StratifiedKFold
    from sklearn.svm import SVC, LinearSVC

    X, y = load(p.classification, scale="minmax", max_rows=p.max_rows, seed=p.seed)
    train, test = list(StratifiedKFold(p.folds, shuffle=True, random_state=p.seed).split(X, y))[fold]
    inner = StratifiedKFold(3, shuffle=True, random_state=p.seed)
    linear = GridSearchCV(LinearSVC(), {"C": [0.01, 0.1, 1.0, 10.0]}, cv=inner)
    out = {}
    for name in CLASSIFIERS:
        if name == "RBF Kernel":
            model = GridSearchCV(SVC(kernel="rbf"), {"gamma": [0.1, 1.0, 10.0], "C": [1.0, 10.0]}, cv=inner)
            model.fit(X[train], y[train])
            pred = model.predict(X[test])
        elif name == "RandLocal":
            features = _randlocal(p, p.seed + fold)
            Z_train = features.fit_transform(X[train], y[train])
            pred = linear.fit(Z_train, y[train]).predict(features.transform(X[test]))
        else:
            pred = linear.fit(X[train], y[train]).predict(X[test])
        out[name] = (100 * f1_score(y[test], pred, average="micro"), 100 * f1_score(y[test], pred, average="macro"))
    return out


def cluster_once(p: Params, repeat: int) -> dict[str, tuple[float, float]]:
    """k-means accuracy and NMI on ``p.clustering`` with seed ``p.seed + repeat``: RAW and RandLocal per grid value.

    Keys: ``"RAW"`` and ``"RandLocal/<max_anchors>"`` for each value of ``p.anchors_grid``.
    """
    from sklearn.cluster import KMeans
    from sklearn.metrics import normalized_mutual_info_score

    from ..clustering.scores import match_labels

    X, y = load(p.clustering, scale="minmax", max_rows=p.max_rows, seed=p.seed)
    k = len(np.unique(y))
    seed = p.seed + repeat
    inputs = {"RAW": X, **{f"RandLocal/{a}": _randlocal(p, seed, a).fit_transform(X)  # labels never seen
                           for a in p.anchors_grid}}
    out = {}
    for name, Z in inputs.items():
        labels = KMeans(k, n_init=1, random_state=seed).fit_predict(Z)
        out[name] = (float(np.mean(match_labels(y, labels) == y)), float(normalized_mutual_info_score(y, labels)))
    return out


def _mean_std(rows: list[dict], names, i: int) -> dict[str, tuple[float, float]]:
    return {n: (float(np.mean([r[n][i] for r in rows])), float(np.std([r[n][i] for r in rows]))) for n in names}


def run(params: Params, *, memo: Memo | None = None, progress: Progress | None = None) -> Result:
    """wang2017 Table 3 (classification) and Tables 5-6 (clustering) on the shipped stand-ins.

    Examples
    --------
    >>> from ikviz.experiments.randlocal import Params, run
    >>> res = run(Params(max_rows=300, folds=2, kmeans_repeats=1, n_sets=20, anchors_grid=(8, 32)))
    >>> sorted(res.micro_f1), res.n_classification, sorted(res.best_anchors)
    (['RAW', 'RBF Kernel', 'RandLocal'], 300, ['acc', 'nmi'])
    """
    memo, progress = resolve(memo, progress)
    steps = params.folds + params.kmeans_repeats
    folds = []
    for fold in range(params.folds):
        progress(fold / steps, f"linear SVM, fold {fold + 1} of {params.folds}")
        folds.append(memo(classify_fold)(params, fold))
    repeats = []
    step = within(progress, params.folds / steps, 1.0)
    for r in range(params.kmeans_repeats):
        step(r / params.kmeans_repeats, f"k-means, repeat {r + 1} of {params.kmeans_repeats}")
        repeats.append(memo(cluster_once)(params, r))
    progress(1.0, "done")
    n_cls = len(load(params.classification, max_rows=params.max_rows, seed=params.seed)[1])
    n_clu = len(load(params.clustering, max_rows=params.max_rows, seed=params.seed)[1])
    grid = [f"RandLocal/{a}" for a in params.anchors_grid]
    acc, nmi = _mean_std(repeats, ["RAW", *grid], 0), _mean_std(repeats, ["RAW", *grid], 1)
    best = {"acc": max(grid, key=lambda g: acc[g][0]), "nmi": max(grid, key=lambda g: nmi[g][0])}
    return Result(params, _mean_std(folds, CLASSIFIERS, 0), _mean_std(folds, CLASSIFIERS, 1),
                  {"RAW": acc["RAW"], "RandLocal": acc[best["acc"]]}, {"RAW": nmi["RAW"], "RandLocal": nmi[best["nmi"]]},
                  n_cls, n_clu, {k: int(v.split("/")[1]) for k, v in best.items()})
