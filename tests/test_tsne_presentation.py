"""Labels, notes, texts and tables the t-SNE page shows, built from small hand-made results."""

from types import SimpleNamespace

import numpy as np

from ikviz.experiments import tsne as exp
from ikviz.plots import tsne as plots


def fake_result(p=exp.Params(), n=150, ik_info=None, gk_info=None, origin_neighbours=None):
    """A result with GK's and IK's scores, times and settings, without running t-SNE."""
    def emb(knn, sil, info, secs):
        scores = {"knn_accuracy": knn, "silhouette": sil, "trustworthiness": 0.8765}
        if origin_neighbours is not None:
            scores["origin_neighbours"] = origin_neighbours
        return SimpleNamespace(scores=scores, info=info, seconds=secs)

    return SimpleNamespace(params=p, labels=np.zeros(n, dtype=int),
                           classes=("red N(0, 1)", "blue N(0, 3²)"),
                           embeddings={"gk": emb(0.51234, 0.049, gk_info or {"perplexity": p.perplexity},
                                                 {"affinities": 0.04, "optimisation": 12.35}),
                                       "ik": emb(0.99, 0.61, ik_info or {"psi": p.psi},
                                                 {"affinities": 1.26, "optimisation": 3.0})})


def test_w_and_dataset_options_mark_the_papers_values():
    assert [plots.w_label(w) for w in (1, 5, 100, 2000, 5000)] == ["1 ★", "5", "100 ★", "2,000", "5,000 ★"]
    assert plots.dataset_label("w-gaussians-unequal") == "w-Gaussians, red N(0, 1) and blue N(0, 3²) (Table 6)"
    assert plots.dataset_label("iris") == "iris — Iris (scikit-learn), 150×4"


def test_score_metrics_round_each_score_as_shown():
    metrics = plots.score_metrics(fake_result().embeddings["gk"].scores)
    assert [m[:2] for m in metrics] == [("5-NN accuracy", "0.512"), ("silhouette", "0.05"),
                                        ("trustworthiness", "0.88")]
    assert metrics[2][2].endswith("5 neighbours; 1 = no intruders.")


def test_embedding_caption_counts_the_origins_neighbours_by_cluster_colour():
    result = fake_result(origin_neighbours=[9, 1])
    assert plots.embedding_caption(result, "gk") == ("The origin's 10 nearest points in 2-D: 9 red, 1 blue. "
                                                     "affinities 0.0 s · optimisation 12.3 s")
    assert plots.embedding_caption(fake_result(), "ik") == "affinities 1.3 s · optimisation 3.0 s"


def test_setting_notes_say_when_psi_or_perplexity_was_capped():
    assert plots.setting_notes(fake_result()) == []
    capped = fake_result(exp.Params(dataset="iris", psi=800, perplexity=800.0), ik_info={"psi": 75},
                         gk_info={"perplexity": 49.6667})
    assert plots.setting_notes(capped) == [
        "ψ = 800 is more than half of the 150 points; using ψ = 75.",
        "perplexity 800 needs 3 × perplexity neighbours; using 50."]


def test_summary_text_compares_gk_and_ik_and_names_w_or_the_dataset():
    assert plots.summary_text(fake_result(exp.Params(w=5000))) == (
        "**What happened here (w = 5,000).** 5-NN accuracy GK 0.512 vs IK 0.990; silhouette GK 0.05 vs IK 0.61.")
    assert plots.summary_text(fake_result(exp.Params(dataset="wine"))).startswith("**What happened here (wine).**")


def test_search_range_texts_and_table():
    assert "in 5, 20, 40, 60, 80, 100, 250, 500, 800. This runs all 18 embeddings" in plots.SEARCH_INTRO
    scan = {"gk": {20: {"knn_accuracy": 0.5, "silhouette": 0.12345}, 5: {"knn_accuracy": 0.4, "silhouette": 0.1}},
            "ik": {20: {"knn_accuracy": 0.99876, "silhouette": 0.7}, 5: {"knn_accuracy": 1.0, "silhouette": 0.8}}}
    assert plots.search_table(scan) == [
        {"setting": 5, "GK knn_accuracy": 0.4, "GK silhouette": 0.1, "IK knn_accuracy": 1.0, "IK silhouette": 0.8},
        {"setting": 20, "GK knn_accuracy": 0.5, "GK silhouette": 0.123, "IK knn_accuracy": 0.999,
         "IK silhouette": 0.7}]


def test_quick_search_only_where_a_smaller_sample_exists_and_slow_note_only_for_large_real_data():
    quick = exp.quick_search_params(exp.Params(w=2, n_per_cluster=1000, psi=20))
    assert quick == exp.Params(w=2, n_per_cluster=exp.SEARCH_QUICK_N, psi=20)
    assert exp.quick_search_params(exp.Params(n_per_cluster=exp.SEARCH_QUICK_N)) is None
    assert exp.quick_search_params(exp.Params(dataset="wine", n_per_cluster=500)) is None
    assert exp.slow_note("letter") == "letter has 20,000 points: the first run takes a minute or more."
    assert exp.slow_note("ijcnn1-10k") is None and exp.slow_note("w-gaussians") is None
