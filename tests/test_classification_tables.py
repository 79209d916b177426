"""The classification lab's tables, labels and notes (ikviz.plots.classification), on small hand-made results."""

import numpy as np
import pytest

from ikviz.data import density_ratio_layout
from ikviz.experiments import classification as exp
from ikviz.experiments import online as onl
from ikviz.plots import classification as plots


def test_power_and_gamma_labels():
    assert [plots.power_label(v) for v in (2.0 ** -10, 1.0, 32.0, 0.3)] == ["2^-10", "2^0", "2^5", "2^-2"]
    assert plots.power_label(0) == "0" and plots.power_label(-1.0) == "-1.0"
    assert plots.gamma_label("per data set") == "per data set" and plots.gamma_label(2.0 ** -7) == "2^-7"


def test_svm_table_labels_parameters_and_rounds():
    evaluations = (exp.Evaluation("rbf", {"gamma": 0.25}, 0.912345, 0.054321, 0.0, 1.23456, 0.0123),
                   exp.Evaluation("ik", {"psi": 16}, 0.95, 0.04, 0.001, 2.0, 0.5),
                   exp.Evaluation("linear", {}, 0.5, float("nan"), float("nan"), 0.1, 0.2))
    result = exp.Result(exp.Params(), evaluations, {}, {}, np.zeros((30, 2)), np.zeros(30), 1000)
    rows = plots.svm_table(result)
    assert rows[0] == {"kernel": "SVC, Gaussian (RBF)", "parameter": "gamma = 2^-2", "accuracy": 0.9123,
                       "FPR": 0.0543, "FNR": 0.0, "train s": 1.235, "test s": 0.012}
    assert [r["parameter"] for r in rows] == ["gamma = 2^-2", "psi = 16", "–"]
    assert [r["kernel"] for r in rows] == ["SVC, Gaussian (RBF)", "SVC, Isolation Kernel", "SVC, linear kernel"]
    assert rows[2]["FPR"] is None and rows[2]["FNR"] is None  # undefined rates shown empty, not NaN
    assert plots.svm_table_caption(result).startswith("30 training and 1000 test points. FPR: negatives (sparse ")


def test_paired_and_online_tables():
    m = {("ik", "FPR"): np.array([0.061234, 0.070001]), ("ik", "accuracy"): np.array([0.9, 0.95]),
         ("ik", "FNR"): np.array([0.0, 0.0])}
    (row,) = plots.paired_table(exp.PairedResult(("ik",), (0, 1), m))
    assert row["kernel"] == "ik" and row["FPR"] == 0.0656 and row["FPR std"] == 0.0062 and row["accuracy"] == 0.925

    results = (onl.StreamResult("FOGD", np.arange(8) < 3, 0.0123456, 800, 0.5),
               onl.StreamResult("IK+OGD", np.arange(8) < 1, 0.004, 6400))
    rows = plots.online_table(onl.Result(onl.Params(), results, (0.2, 2.0)))
    assert rows == [{"method": "FOGD", "final mistake rate": 0.375, "η": 0.2, "seconds": 0.012, "examples/s": 648,
                     "features": 800},
                    {"method": "IK+OGD", "final mistake rate": 0.125, "η": 2.0, "seconds": 0.004, "examples/s": 2000,
                     "features": 6400}]
    # a pass the clock timed at 0 s has an infinite rate: shown as such, not an OverflowError from int()
    instant = onl.Result(onl.Params(), (onl.StreamResult("FOGD", np.arange(8) < 3, 0.0, 800, 0.5),), (0.2,))
    assert plots.online_table(instant)[0]["examples/s"] == float("inf")


@pytest.mark.parametrize("shape, key", [("uniform", "overlap_box"), ("gaussian", "winning_disc")])
def test_region_marks_and_caption_follow_the_generator(shape, key):
    box, disc = plots.region_marks("density-ratio", 10.0, shape)
    mark = box if key == "overlap_box" else disc
    assert (box is None) != (disc is None)
    np.testing.assert_array_equal(mark, density_ratio_layout(10.0, shape=shape)[key])
    assert plots.region_marks("w-gaussians", 10.0, shape) == (None, None)
    said = {"uniform": "the dotted box the overlap strip",
            "gaussian": "the dotted circle where the dense class is the more likely"}[shape]
    assert plots.regions_caption("density-ratio", shape).endswith(f"the dense positive class, {said}).")
    assert plots.regions_caption("wine", shape) == (
        "Shading: the class each SVM predicts; points: the training data (red: class 0, blue: class 1; for "
        "density-ratio data the sparse negative and the dense positive class).")


def test_svm_note_is_chosen_by_data_generator_and_tuning():
    uniform, gaussian = plots.svm_note("density-ratio", "ting2018"), plots.svm_note("density-ratio", "x", "gaussian")
    assert uniform.startswith("**What to look for (ting2018 Table 1).** The dense positive class sits in the unit")
    assert gaussian.startswith("**What to look for (ting2018 Table 1).** Both classes are Gaussian")
    assert "0.064 (IK), 0.070 (Laplacian), 0.082 (RBF) at 10:1" in gaussian
    cv = plots.svm_note("w-gaussians", "ting2021", tuning="cv")
    assert cv.startswith("**What to look for (ting2021 Table 4).**")
    assert cv.endswith("This run uses the **ting2021** grid; switch the CV grid to see the difference.")
    assert plots.svm_note("w-gaussians", "ting2021", tuning="fixed").endswith(
        "choose **5-fold CV** under *parameters* to compare the two grids.")
    assert plots.svm_note("wine", "ting2018") == ("Real data are min-max scaled on the training rows and split 80/20 "
                                                 "(stratified, by seed). FPR and FNR treat the second class as "
                                                 "positive.")
