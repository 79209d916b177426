"""Every bundled real dataset loads by name with the documented shape, classes and provenance."""

from pathlib import Path

import numpy as np
import pytest

from ikviz.data import dataset_info, dataset_names, load_dataset

SOURCES = (Path(__file__).resolve().parents[1] / "datasets" / "SOURCES.md").read_text()


@pytest.mark.parametrize("name", dataset_names())
def test_dataset_loads_with_documented_shape(name):
    info = dataset_info(name)
    X, y = load_dataset(name)
    assert X.shape == (info.n, info.d) and X.dtype == np.float64 and np.isfinite(X).all()
    assert y.shape == (info.n,) and set(np.unique(y)) == set(range(info.n_classes))
    assert info.licence
    if info.file:
        assert f"`{info.file}`" in SOURCES  # provenance recorded


def test_loaded_arrays_are_copies():
    X, y = load_dataset("iris")
    X[:] = 0
    assert load_dataset("iris")[0].max() > 0


def test_unknown_name_lists_choices():
    with pytest.raises(ValueError, match="unknown dataset 'nope'.*iris"):
        load_dataset("nope")


def test_paper_size_sets_are_listed_apart_with_their_sizes():
    from ikviz.data.fetch import FILES

    fetched = dataset_names(fetched=True)
    assert set(fetched) == {"ijcnn1", "ijcnn1-test", "mnist-test", "a9a-full"}
    assert not set(fetched) & set(dataset_names())       # the app's choice lists stay the bundled sets
    for name in fetched:
        info = dataset_info(name)
        assert all(f in FILES and FILES[f].rows == info.n for f in info.fetched)
        assert f"`{name}`" in SOURCES
    assert dataset_info("a9a-full").n == dataset_info("a9a").n + dataset_info("a9a-test").n == 48_842
