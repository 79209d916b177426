"""The shared input checks: every estimator and function of ikviz reports bad input through them."""

import numpy as np
import pytest
from sklearn.base import BaseEstimator

from ikviz._validation import (check_array, check_dense_size, check_labels, check_matrix, check_n_features,
                               validate_data)


@pytest.mark.parametrize("bad, error, match", [
    (np.array([["2024-01-01"]], dtype="datetime64[D]"), ValueError, r"X holds dates or times \(datetime64\)"),
    (np.array([[1, 2]], dtype="timedelta64[s]"), ValueError, r"X holds time spans \(timedelta64\)"),
    (np.array([["1.5", "2"]]), ValueError, "X is non-numeric: it holds strings"),
    (np.array([[1 + 2j]]), ValueError, "Complex data not supported"),
    (np.array([[{"a": 1}]], dtype=object), TypeError, "not numbers"),
    (np.array([[np.nan, 1.0], [2.0, np.inf]]), ValueError, r"2 row\(s\) with NaN or infinity \(rows 0, 1\)"),
    (np.zeros((0, 3)), ValueError, r"0 sample\(s\) \(shape=\(0, 3\)\) while a minimum of 1 is required"),
    (np.zeros((3, 0)), ValueError, r"0 feature\(s\) \(shape=\(3, 0\)\) while a minimum of 1 is required"),
    (np.zeros(3), ValueError, r"must be 2-D.*X.reshape\(-1, 1\)"),
    ("data.csv", ValueError, "X is a string"),
    (None, ValueError, "X is None"),
])
def test_check_matrix_explains_what_is_wrong(bad, error, match):
    with pytest.raises(error, match=match):
        check_matrix(bad)


def test_check_matrix_accepts_numbers_of_any_kind():
    for good in ([[1, 2]], np.array([[True, False]]), np.array([[1, 2]], dtype=np.uint8),
                 np.array([[1.5, 2]], dtype=object), np.array([[1, 2]], dtype=np.float32)):
        out = check_matrix(good)
        assert out.dtype == np.float64 and out.flags.c_contiguous and out.shape == (1, 2)


def test_data_frames_name_their_bad_columns_and_missing_rows():
    pd = pytest.importorskip("pandas")
    frame = pd.DataFrame({"x": [1.0, 2.0], "when": pd.to_datetime(["2024-01-01", "2024-01-02"])})
    with pytest.raises(ValueError, match="non-numeric column.*when"):
        check_matrix(frame)
    nullable = pd.DataFrame({"a": pd.array([1, None, 3], dtype="Int64")})
    with pytest.raises(ValueError, match=r"1 row\(s\) with NaN or infinity \(rows 1\)"):
        check_matrix(nullable)


def test_feature_count_is_recorded_and_checked_with_scikit_learn_wording():
    est = BaseEstimator()
    check_n_features(est, np.zeros((3, 4)), reset=True)
    assert est.n_features_in_ == 4
    check_n_features(est, np.zeros((2, 4)), reset=False)
    with pytest.raises(ValueError, match="X has 2 features, but BaseEstimator is expecting 4 features as input."):
        check_n_features(est, np.zeros((3, 2)), reset=False)
    check_n_features(BaseEstimator(), np.zeros((1, 9)), reset=False)  # nothing recorded: nothing to compare


def test_validate_data_records_feature_names_of_frames():
    pd = pytest.importorskip("pandas")
    est = BaseEstimator()
    X = validate_data(est, pd.DataFrame({"a": [1.0, 2.0], "b": [3.0, 4.0]}), reset=True)
    assert X.shape == (2, 2) and list(est.feature_names_in_) == ["a", "b"] and est.n_features_in_ == 2
    with pytest.raises(ValueError, match="feature names should match"):
        validate_data(est, pd.DataFrame({"b": [1.0], "a": [2.0]}), reset=False)
    sparse = pytest.importorskip("scipy.sparse").csr_matrix(np.eye(2))
    assert validate_data(BaseEstimator(), sparse, reset=True, accept_sparse=True).nnz == 2
    with pytest.raises(ValueError, match="sparse input is not supported"):
        validate_data(BaseEstimator(), sparse, reset=True)


def test_check_array_and_check_labels():
    assert check_array([[0, 1], [2.0, 3]], "neighbours", ndim=2, dtype=np.int64).dtype == np.int64
    with pytest.raises(ValueError, match="neighbours must hold whole numbers"):
        check_array([[0.5]], "neighbours", ndim=2, dtype=np.int64)
    with pytest.raises(ValueError, match="S must be 2-D; got an array of shape"):
        check_array(np.zeros((1, 1, 1)), "S", ndim=2)
    assert check_labels(np.array([[1], [2]]), n=2).tolist() == [1, 2]  # a column vector is flattened
    with pytest.raises(ValueError, match="labels has 1 NaN"):
        check_labels([0.0, np.nan], "labels")
    with pytest.raises(ValueError, match=r"y has 3 label\(s\) but X has 2 row\(s\)"):
        check_labels([0, 1, 1], n=2)


def test_dense_size_guard_says_what_was_asked_and_what_to_do():
    with pytest.raises(ValueError, match=r"would be a dense 100000 x 100000 matrix \(74.5 GiB\), over the 2.0 GiB "
                                         r"budget\. Use the feature map\."):
        check_dense_size(10**5, 10**5, None, "The kernel matrix", "Use the feature map.")
    check_dense_size(10, 10, 800, "The kernel matrix", "")
    with pytest.raises(ValueError, match=r"over dense_budget=799 \(bytes\)"):
        check_dense_size(10, 10, 799, "The kernel matrix", "")
