"""Clustering lab: the view's checks and the labels, caption, table and notes the page shows (fast, no fitting)."""

import numpy as np

from ikviz.experiments import clustering as ex
from ikviz.plots import clustering as plots


def evaluation(algorithm, measure, param=None, ami=0.5, eps_fraction=None, rho=None):
    return ex.Evaluation(algorithm, measure, param, labels=np.zeros(4, dtype=int), ami=ami, nmi=0.25,
                         ami_trials=[ami], eps_fraction=eps_fraction, rho=rho)


def test_view_problem_refuses_one_class_and_more_clusters_than_points():
    X = np.zeros((4, 2))
    assert ex.n_clusters(0, [0, 1, 2, 2]) == 3 and ex.n_clusters(7, [0, 1]) == 7
    assert ex.view_problem(X, [0, 0, 1, 1], 0) is None and ex.view_problem(X, [0, 0, 1, 1], 4) is None
    assert ex.view_problem(X, [1, 1, 1, 1], 2) == ("These data have a single class, so AMI cannot score a "
                                                   "clustering. Pick other data.")
    assert ex.view_problem(X, [0, 0, 1, 1], 5) == ("k = 5 clusters is more than the 4 points; lower k or use "
                                                   "more points.")
    # k = 0: one cluster per class, as many as the points here
    assert ex.view_problem(np.zeros((3, 2)), [0, 1, 2], 0) is None


def test_dataset_labels_name_the_generators_and_size_real_data():
    assert plots.dataset_label("w-gaussians") == "w-Gaussians (ting2021 Fig. 2)"
    assert plots.dataset_label("density-ratio") == "Density ratio (two classes, ting2018)"
    assert plots.dataset_label("iris") == "iris — Iris (scikit-learn), 150×4"  # as every page shows bundled data


def test_data_caption_counts_points_classes_and_clusters_and_names_the_view():
    y = np.array([0, 0, 1, 1, 1, 1])
    caption = plots.data_caption(ex.Data("w-gaussians", w=2), np.zeros((6, 4)), y, 0)
    assert caption == ("6 points, 4 features (each scaled to [0, 1]), 2 classes; k = 2 clusters. Plots show "
                       "each point's length in cluster A's 2 dimensions against B's (unscaled), coloured by cluster.")
    caption = plots.data_caption(ex.Data("iris"), np.zeros((6, 5)), y, 3)
    assert "2 classes; k = 3 clusters. Plots show the first two principal components of the 5-D data," in caption


def test_summary_table_formats_parameters_and_adds_eps_for_density_peaks():
    evals = {"ik_anne": evaluation("density_peaks", "ik_anne", 32, 0.9, eps_fraction=0.4),
             "distance": evaluation("density_peaks", "distance", None, 0.1, eps_fraction=0.02)}
    table = plots.summary_table(ex.Result(ex.Params(algorithm="density_peaks"), None, None, evals))
    assert table == {"measure": ["1 − IK · Voronoi (aNNE)", "Euclidean distance"], "parameter": ["ψ = 32", "–"],
                     "ε (% of m)": ["40", "2"], "AMI": [0.9, 0.1], "NMI": [0.25, 0.25]}
    evals = {"gk": evaluation("spectral", "gk", 0.125)}
    table = plots.summary_table(ex.Result(ex.Params(algorithm="spectral"), None, None, evals))
    assert list(table) == ["measure", "parameter", "AMI", "NMI"] and table["parameter"] == ["μ (σ = d·μ) = 0.125"]


def test_decision_graph_note_only_when_every_density_is_zero():
    assert plots.decision_graph_note(evaluation("density_peaks", "distance", rho=np.zeros(4))).startswith(
        "No point has a neighbour within ε, so every density is 0")
    assert plots.decision_graph_note(evaluation("density_peaks", "distance", rho=np.array([0, 2, 0, 1]))) is None
    assert plots.decision_graph_note(evaluation("kmeans", "raw")) is None


def test_view_notes_follow_the_algorithm_and_mode():
    assert plots.view_notes("kmeans", "fixed") == ""
    assert plots.view_notes("spectral", "fixed") == plots.SPECTRAL_NOTE
    assert plots.view_notes("density_peaks", "best") == plots.DECISION_GRAPH_NOTE + "\n\n" + plots.BEST_MODE_NOTE
    assert plots.view_notes("spectral", "best").startswith("**Which IK?**")
    assert plots.DECISION_GRAPH_NOTE.startswith("**Decision graph**: each point's density ρ against δ")
