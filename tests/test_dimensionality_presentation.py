"""Tables and texts the curse-of-dimensionality page shows, built from small hand-made summaries."""

from ikviz.experiments import dimensionality as dim
from ikviz.experiments.indexing import METHODS
from ikviz.plots import dimensionality as plots
from ikviz.plots import indexing as idx_plots


def neps_view(gk_top: int, ik_top: int, lk_top: int = 1, eps: float = 0.005) -> dict:
    """An instability summary of GK, IK and LK at d = 10 and 1,000 (2,000 points)."""
    def curve(top, centre=1):
        return {"between": {10: 1, 1000: top}, "sparse_centre": {10: 1, 1000: centre}}

    return {"eps": eps, "n_points": 2000,
            "N_eps": {"gk": curve(gk_top), "ik": curve(ik_top, 2), "lk": curve(lk_top)},
            "variance": {"gk": {10: 0.123456, 1000: 0.01}, "ik": {10: 0.05, 1000: 0.06},
                         "lk": {10: 0.9, 1000: 0.8}}}


def test_eps_views_are_named_by_their_role_or_as_the_viewers_choice():
    assert plots.eps_titles([dim.PAPER_EPS, dim.VISIBLE_EPS, 0.2]) == {
        0.005: "paper's setting: ε = 0.005", 0.05: "where the effect shows: ε = 0.05", 0.2: "your choice: ε = 0.2"}


def test_instability_table_has_both_queries_per_eps_at_the_largest_d_and_the_variance_at_both_ends():
    views = {0.005: neps_view(3, 1), 0.05: neps_view(1500, 2)}
    table = plots.instability_table(views, (10, 1000))
    assert list(table) == ["measure", "N_eps q_i, ε=0.005 (d=1,000)", "N_eps q_c, ε=0.005 (d=1,000)",
                           "N_eps q_i, ε=0.05 (d=1,000)", "N_eps q_c, ε=0.05 (d=1,000)",
                           "var q_c (d=10)", "var q_c (d=1,000)"]
    assert table["measure"] == ["Gaussian kernel (GK)", "Isolation Kernel (IK)", "linear kernel, normalised (LK)"]
    assert table["N_eps q_i, ε=0.05 (d=1,000)"] == [1500, 2, 1]
    assert table["N_eps q_c, ε=0.005 (d=1,000)"] == [1, 2, 1]
    assert table["var q_c (d=10)"] == [0.1235, 0.05, 0.9]


def test_instability_findings_read_the_numbers_of_every_view():
    views = {0.005: neps_view(3, 1), 0.05: neps_view(1500, 2)}
    p = dim.InstabilityParams(d_values=(10, 1000), t=200)
    text = plots.instability_findings(views, plots.eps_titles(views), p)
    assert text.startswith("**Reading the numbers.** *paper's setting: ε = 0.005*: GK's N_eps for the "
                           "between-clusters query goes from 1 at d = 10 to **3** at d = 1,000 (of 2,000 points); "
                           "IK's from 1 to **1**. *where the effect shows: ε = 0.05*: GK's N_eps")
    assert "to **1,500** at d = 1,000" in text
    # the largest N_eps at the paper's eps is GK's 3 of 2,000: below 2%, so too narrow a window
    assert ("the largest N_eps of any measure at d = 1,000 is 3 (Gaussian kernel (GK)) of 2,000 points: the window "
            "is too narrow to show the curse here, and a wider one shows it.") in text
    assert "from 0.123 (d = 10) to 0.01 (d = 1,000)" in text
    assert "(steps of 0.005 at t = 200)" in text
    wide = {0.005: neps_view(3, 1, lk_top=60)}
    text = plots.instability_findings(wide, plots.eps_titles(wide), p)
    assert "is 60 (linear kernel, normalised (LK)) of 2,000 points. GK's spread" in text


def test_instability_notes_name_the_data_and_the_t_curve_setting():
    p = dim.InstabilityParams(d_values=(10, 30, 100), offset=3.0, sigma_sparse=1.5, t_trials=4)
    note = plots.instability_note(p)
    assert "N(0, 1) (dense) and N(3, 1.5²) (sparse)" in note
    assert note.endswith("The paper: “" + dim.PAPER_FIG1["N_eps"] + "”")
    assert plots.t_curve_note(p).startswith("App. D: IK's N_eps (paper's ε = 0.005) at d = 100 as t grows (mean ± "
                                            "standard error over 4 trials with fresh partitionings).")


def test_hubness_table_has_skewness_then_largest_o_k_per_d_one_row_per_measure():
    summary = {"skewness": {"gk": {3: 0.456, 20: 3.219}, "ik": {3: 0.1, 20: 0.349}},
               "max_O_k": {"gk": {3: 12, 20: 80}, "ik": {3: 10, 20: 14}}}
    assert plots.hubness_table(summary) == {
        "measure": ["Gaussian kernel (GK)", "Isolation Kernel (IK)"],
        "skewness d=3": [0.46, 0.1], "skewness d=20": [3.22, 0.35],
        "max O_k d=3": [12, 10], "max O_k d=20": [80, 14]}
    note = plots.hubness_note(dim.HubnessParams(k=7, n=1500))
    assert note.startswith("O_k(x) counts the points that have x among their 7 nearest neighbours")
    assert "1,500 points uniform in [0, 1]^d" in note


def index_row(brute, tree, *, fallback=False, share=1.2, warning=None):
    return {"dims": 800 if share is None else 13, "sparse_input": fallback, "fallback": fallback,
            "fit_method": "brute" if fallback else "ball_tree", "brute_s": brute, "balltree_s": tree,
            "tree_over_brute": tree / brute, "distance_share": None if fallback else share, "map_s": 0.01234,
            "precision_at_3": 0.91234, "tie_share": 0.333, "index_faster": tree < brute, "warning": warning}


def test_indexing_table_reports_what_scikit_learn_ran_per_method():
    rows = {"distance": index_row(0.002, 0.001, share=0.5), "ik_sparse": index_row(0.004, 0.0042, fallback=True)}
    table = idx_plots.indexing_table(rows, 3)
    assert table["method"] == [METHODS["distance"], METHODS["ik_sparse"]]
    assert table["scikit-learn ran"] == ["ball_tree", "brute force (no tree)"]
    assert table["input"] == ["dense", "sparse"]
    assert table["tree distance evaluations / n²"] == ["0.50", "no tree"]
    assert table["tree ÷ brute"] == [0.5, 1.05]
    assert table["precision@3"] == [0.912, 0.912] and table["mapping (s)"] == [0.012, 0.012]
    assert table["queries decided by a tie"] == ["33%", "33%"]


def test_indexing_findings_say_which_path_fell_back_and_which_trees_helped():
    rows = {"distance": index_row(0.002, 0.001, share=0.5), "ik_sparse": index_row(0.004, 0.0042, fallback=True),
            "ik_dense": index_row(0.002, 0.03, share=1.08), "lk": index_row(0.002, 0.003)}
    text = idx_plots.indexing_findings(rows)
    assert text.startswith("**What the ball_tree option really runs.** The paper used scikit-learn's")
    assert "within 7.5% of brute force on 8 of 10 datasets (Table 2, ball tree ÷ brute: Url 0.97," in text
    assert ("it warns “cannot use tree with sparse input” and runs brute force. Here that path took 0.0042 s "
            "against 0.004 s for brute force (×1.05)") in text
    assert "dense IK map took 0.03 s against 0.002 s (×15.00), evaluating 1.08 × n² distances." in text
    assert text.endswith(f"beat brute force for: {METHODS['distance']}; it was slower for: {METHODS['ik_dense']}, "
                         f"{METHODS['lk']}.")
    rows["ik_sparse"]["warning"] = "a warning of its own"
    assert "it warns “a warning of its own” and runs" in idx_plots.indexing_findings(rows)
    text = idx_plots.indexing_findings({"distance": index_row(0.002, 0.003)})
    assert "and runs brute force (that path is not shown here). Among" in text
    assert text.endswith("beat brute force for: none; it was slower for: Distance (Euclidean).")
    assert "dense IK map" not in text


def test_indexing_datasets_are_offered_by_what_they_are():
    assert idx_plots.dataset_label("w-gaussians").startswith("w-Gaussians (w = 5,000")
    assert idx_plots.dataset_label("wine") == "wine — Wine (scikit-learn), 178×13"
