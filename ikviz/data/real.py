"""Real datasets, loadable by name: bundled ones and the papers' larger ones, fetched.

The bundled files live in the repository's ``datasets/`` folder
(gzip-compressed copies of the files described in ``datasets/SOURCES.md``);
set the ``IKVIZ_DATASETS`` environment variable to use another folder.
scikit-learn's own bundled sets (iris, wine, breast cancer, digits) need no
files. The paper-size sets (full ijcnn1, the MNIST test set) come through
:func:`ikviz.data.fetch.fetch` (``IKVIZ_DATA_MIRROR``, the cache, or their
URL); a9a's 48,842 rows (``a9a-full``) join its two bundled files. They are
listed by ``dataset_names(fetched=True)`` and load like bundled ones.
"""

from __future__ import annotations

import gzip
import os
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from .._sklearn import validate_params


@dataclass(frozen=True)
class DatasetInfo:
    """What a bundled dataset is and where it comes from.

    Examples
    --------
    >>> from ikviz.data import DATASETS
    >>> DATASETS["wine"].title, DATASETS["wine"].n_classes
    ('Wine (scikit-learn)', 3)
    """

    name: str
    file: str | None          # file in datasets/, or None for scikit-learn's bundled sets
    title: str
    n: int
    d: int
    n_classes: int
    licence: str
    used_in: str = "–"
    n_features: int | None = None  # LIBSVM files: the feature count to pass to the loader
    fetched: tuple[str, ...] = ()  # files of ikviz.data.fetch.FILES (LIBSVM: one file; IDX: images, labels)
    joins: tuple[str, ...] = ()    # datasets whose rows this one stacks, in order (a9a-full)


_UCI = "CC BY 4.0 (UCI)"
_INFOS = [
    DatasetInfo("australian", "australian.csv.gz", "Statlog Australian credit", 690, 14, 2, _UCI, "ting2018"),
    DatasetInfo("breast-cancer-ljubljana", "breast_cancer_ljubljana.csv.gz", "Breast cancer (Ljubljana)",
                277, 9, 2, _UCI, "ting2018"),
    DatasetInfo("breast-cancer-wisconsin", "breast_cancer_wisconsin.csv.gz", "Breast cancer Wisconsin (original)",
                683, 9, 2, _UCI, "ting2018"),
    DatasetInfo("german", "german.csv.gz", "Statlog German credit (numeric)", 1000, 24, 2, _UCI, "ting2018, lu2016"),
    DatasetInfo("heart", "heart.csv.gz", "Statlog heart", 270, 13, 2, _UCI, "ting2018"),
    DatasetInfo("ilpd", "ilpd.csv.gz", "Indian liver patients", 579, 10, 2, _UCI, "ting2018"),
    DatasetInfo("ionosphere", "ionosphere.csv.gz", "Ionosphere radar returns", 351, 34, 2, _UCI, "ting2018"),
    DatasetInfo("letter", "letter.csv.gz", "Letter recognition", 20000, 16, 26, _UCI, "lu2016"),
    DatasetInfo("mammography", "mammography.csv.gz", "Mammography microcalcifications", 11183, 6, 2,
                "no licence stated in the source"),
    DatasetInfo("messidor", "messidor.csv.gz", "Diabetic retinopathy (Messidor features)", 1151, 19, 2, _UCI,
                "ting2018"),
    DatasetInfo("phishing", "phishing.csv.gz", "Phishing websites", 11055, 30, 2, _UCI, "ting2018"),
    DatasetInfo("phoneme", "phoneme.csv.gz", "Phoneme (ELENA)", 5404, 5, 2, "no licence stated in the source"),
    DatasetInfo("qsar-biodeg", "qsar_biodeg.csv.gz", "QSAR biodegradation", 1055, 41, 2, _UCI, "ting2018"),
    DatasetInfo("segment", "segment.csv.gz", "Image segmentation", 2310, 19, 7, _UCI),
    DatasetInfo("sonar", "sonar.csv.gz", "Sonar, mines vs rocks", 208, 60, 2, _UCI),
    DatasetInfo("spambase", "spambase.csv.gz", "Spambase", 4601, 57, 2, _UCI, "ting2018, lu2016, wang2017"),
    DatasetInfo("vote", "vote.csv.gz", "Congressional voting records", 435, 16, 2, _UCI, "ting2018"),
    DatasetInfo("vowel", "vowel.csv.gz", "Vowel recognition (Deterding)", 990, 10, 11, _UCI, "ting2018"),
    DatasetInfo("wheat-seeds", "wheat_seeds.csv.gz", "Wheat seeds", 210, 7, 3, _UCI),
    DatasetInfo("wilt", "wilt.csv.gz", "Wilt (diseased trees)", 4839, 5, 2, _UCI, "ting2018"),
    DatasetInfo("a9a", "a9a.svm.gz", "Adult a9a (LIBSVM), training part", 32561, 123, 2,
                "UCI Adult CC BY 4.0; LIBSVM states no licence", "ting2018, ting2021, lu2016", 123),
    DatasetInfo("a9a-test", "a9a.t.svm.gz", "Adult a9a (LIBSVM), test part", 16281, 123, 2,
                "UCI Adult CC BY 4.0; LIBSVM states no licence", "ting2021, lu2016", 123),
    DatasetInfo("ijcnn1-10k", "ijcnn1_10k.svm.gz", "IJCNN 2001 (10,000-row subset)", 10000, 22, 2,
                "no licence stated by LIBSVM", "ting2018, ting2021, lu2016, wang2017", 22),
    DatasetInfo("ijcnn1", None, "IJCNN 2001, full training set (fetched)", 49990, 22, 2,
                "no licence stated by LIBSVM", "ting2018, ting2021, lu2016, wang2017", 22, ("ijcnn1.trn.bz2",)),
    DatasetInfo("ijcnn1-test", None, "IJCNN 2001, test set (fetched)", 91701, 22, 2,
                "no licence stated by LIBSVM", "ting2021, lu2016, wang2017", 22, ("ijcnn1.tst.bz2",)),
    DatasetInfo("mnist-test", None, "MNIST test set, 28x28 digits (fetched)", 10000, 784, 10,
                "CC BY-SA 3.0 (as commonly distributed)", "wang2017, lu2016, ting2021", None,
                ("mnist-t10k-images-idx3-ubyte.gz", "mnist-t10k-labels-idx1-ubyte.gz")),
    DatasetInfo("a9a-full", None, "Adult a9a (LIBSVM), training and test parts", 48842, 123, 2,
                "UCI Adult CC BY 4.0; LIBSVM states no licence", "lu2016", 123, joins=("a9a", "a9a-test")),
    DatasetInfo("iris", None, "Iris (scikit-learn)", 150, 4, 3, "public domain (UCI, via scikit-learn)"),
    DatasetInfo("wine", None, "Wine (scikit-learn)", 178, 13, 3, _UCI + ", via scikit-learn"),
    DatasetInfo("breast-cancer", None, "Breast cancer Wisconsin diagnostic (scikit-learn)", 569, 30, 2,
                _UCI + ", via scikit-learn"),
    DatasetInfo("digits", None, "Handwritten digits 8x8 (scikit-learn)", 1797, 64, 10,
                _UCI + ", via scikit-learn"),
]
DATASETS: dict[str, DatasetInfo] = {info.name: info for info in _INFOS}


def _paper_size(info: DatasetInfo) -> bool:
    return bool(info.fetched or info.joins)


def dataset_names(fetched: bool = False) -> list[str]:
    """Names accepted by :func:`load_dataset`, smallest first: the bundled ones, or the paper-size ones.

    Parameters
    ----------
    fetched : bool, default=False
        False: the bundled datasets (the app's choice lists). True: the
        paper-size ones, fetched (``ijcnn1``, ``ijcnn1-test``, ``mnist-test``)
        or joined from bundled files (``a9a-full``).

    Returns
    -------
    names : list of str

    Examples
    --------
    >>> from ikviz.data import dataset_names
    >>> dataset_names()[:3]
    ['iris', 'wheat-seeds', 'wine']
    >>> dataset_names(fetched=True)
    ['ijcnn1', 'ijcnn1-test', 'a9a-full', 'mnist-test']
    """
    return sorted((n for n, info in DATASETS.items() if _paper_size(info) == bool(fetched)),
                  key=lambda name: (DATASETS[name].n * DATASETS[name].d, name))


@validate_params({"name": [str]}, prefer_skip_nested_validation=True)
def dataset_label(name: str) -> str:
    """How a choice list offers dataset ``name``: a bundled one by name, title and size, any other name as it is.

    Every page that lets you pick a bundled dataset shows it this way; a page's own
    generators (``w-gaussians``, ``density-ratio``...) keep the page's wording.

    Examples
    --------
    >>> from ikviz.data import dataset_label
    >>> dataset_label("wine"), dataset_label("w-gaussians")
    ('wine — Wine (scikit-learn), 178×13', 'w-gaussians')
    """
    info = DATASETS.get(name)
    return name if info is None else f"{name} — {info.title}, {info.n:,}×{info.d}"


@validate_params({"name": [str]}, prefer_skip_nested_validation=True)
def dataset_info(name: str) -> DatasetInfo:
    """Metadata of a bundled dataset.

    Parameters
    ----------
    name : str
        One of :func:`dataset_names`.

    Returns
    -------
    info : DatasetInfo
        Title, size, classes, licence and the papers that use it.

    Raises
    ------
    ValueError
        For an unknown name, listing the known ones.

    Examples
    --------
    >>> from ikviz.data import dataset_info
    >>> info = dataset_info("iris")
    >>> info.n, info.d, info.n_classes
    (150, 4, 3)
    """
    if name not in DATASETS:
        raise ValueError(f"unknown dataset {name!r}: name must be one of: "
                         f"{', '.join(dataset_names() + dataset_names(fetched=True))}.")
    return DATASETS[name]


def datasets_dir() -> Path:
    """The folder holding the bundled files (``IKVIZ_DATASETS`` if set).

    Examples
    --------
    >>> from ikviz.data.real import datasets_dir
    >>> (datasets_dir() / "iris.csv.gz").name
    'iris.csv.gz'
    """
    env = os.environ.get("IKVIZ_DATASETS")
    return Path(env) if env else Path(__file__).resolve().parents[2] / "datasets"


def _encode(labels: np.ndarray) -> np.ndarray:
    """Class labels as integers 0..k-1 (numeric labels in numeric order, others alphabetically)."""
    try:
        keys = labels.astype(float)
    except ValueError:
        keys = labels
    _, codes = np.unique(keys, return_inverse=True)
    return codes.astype(np.int64)


def _load_paper_size(name: str) -> tuple[np.ndarray, np.ndarray]:
    """A paper-size set, read each time: the one cache of real sets is ``ikviz.data.description``'s, which holds
    what :func:`ikviz.data.description.resolve` reads (so a set is never held twice)."""
    from .fetch import fetch, read_idx, read_libsvm

    info = DATASETS[name]
    if info.joins:
        # the parts hold the same classes (a9a: -1, +1), so their codes 0..k-1 agree
        parts = [_load(part) for part in info.joins]
        return np.vstack([X for X, _ in parts]), np.concatenate([y for _, y in parts])
    if info.n_features is not None:
        X, y = read_libsvm(fetch(info.fetched[0]), info.n_features)
        return X.toarray(), _encode(np.asarray(y))
    images, labels = (read_idx(fetch(f)) for f in info.fetched)
    if len(images) != len(labels):
        raise ValueError(f"{info.fetched[0]} holds {len(images)} images but {info.fetched[1]} {len(labels)} labels.")
    return images.reshape(len(images), -1).astype(np.float64), _encode(labels)


def _load(name: str) -> tuple[np.ndarray, np.ndarray]:
    info = dataset_info(name)
    if _paper_size(info):
        return _load_paper_size(name)
    if info.file is None:
        from sklearn import datasets as skd

        loader = {"iris": skd.load_iris, "wine": skd.load_wine, "breast-cancer": skd.load_breast_cancer,
                  "digits": skd.load_digits}[name]
        X, y = loader(return_X_y=True)
        return np.asarray(X, dtype=float), _encode(np.asarray(y))
    path = datasets_dir() / info.file
    if not path.exists():
        raise ValueError(f"dataset file {path} is missing; set IKVIZ_DATASETS to the folder holding it.")
    if info.n_features is not None:
        from .fetch import read_libsvm

        X, y = read_libsvm(path, info.n_features)
        return X.toarray(), _encode(np.asarray(y))
    with gzip.open(path, "rt", encoding="utf-8") as fh:
        table = np.loadtxt(fh, delimiter=",", dtype=str, skiprows=1, comments=None)
    return table[:, :-1].astype(float), _encode(table[:, -1])


@validate_params({"name": [str]}, prefer_skip_nested_validation=True)
def load_dataset(name: str) -> tuple[np.ndarray, np.ndarray]:
    """Load bundled dataset ``name`` as ``(X, y)``: float features (unscaled) and integer labels.

    The papers min-max scale features; do that explicitly (e.g. with
    ``sklearn.preprocessing.minmax_scale``) where an experiment needs it.

    Parameters
    ----------
    name : str
        One of :func:`dataset_names`.

    Returns
    -------
    X : ndarray of shape (n, d)
    y : ndarray of shape (n,) of int
        Class codes 0..k-1.

    Examples
    --------
    >>> from ikviz.data import load_dataset
    >>> X, y = load_dataset("iris")
    >>> X.shape, sorted(set(y.tolist()))
    ((150, 4), [0, 1, 2])
    """
    return _load(name)
