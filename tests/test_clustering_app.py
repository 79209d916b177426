"""The clustering-lab page, driven headless with AppTest."""


import apptest

PAGE = "clustering"
TIMEOUT = 240  # the first run loads numba's compiled kernels


def open_page(**query):
    at = apptest.open_page(PAGE, **query)
    return at


def table(at):
    """The AMI table as {measure: AMI}."""
    df = apptest.tables(at)[0]
    return dict(zip(df["measure"], df["AMI"]))


def test_default_view_reproduces_fig2_and_switching_the_ik_variant_changes_it():
    at = open_page(n_per="100")
    assert not at.error
    assert len(apptest.charts(at)) == 4  # true classes + IK, GK, AG
    ami = table(at)
    ik_label = next(m for m in ami if m.startswith("IK"))
    assert "iForest, height" in ik_label and ami[ik_label] > 0.8
    assert ami["Gaussian kernel (GK)"] < 0.45 and ami["adaptive Gaussian (AG)"] < 0.45
    at.selectbox(key="_w_ik").set_value("ik_anne").run()
    assert not at.exception
    ami = table(at)
    assert ami["IK · Voronoi (aNNE)"] < 0.45  # the honest result: Voronoi IK does not separate them
    assert at.query_params["ik"] == "ik_anne"


def test_density_peaks_shows_decision_graphs_and_eps_changes_the_result():
    at = open_page(n_per="100", alg="density_peaks")
    assert not at.error
    assert len(apptest.charts(at)) == 1 + 2 * 3  # classes, then a scatter and a decision graph per measure
    first = apptest.tables(at)[0]
    assert list(first["ε (% of m)"]) == [2, 2, 2]
    at.slider(key="_w_eps").set_value(40).run()
    assert not at.exception and at.query_params["eps"] == "40"
    second = apptest.tables(at)[0]
    assert list(second["ε (% of m)"]) == [40, 40, 40]
    assert list(first["AMI"]) != list(second["AMI"])


def test_shared_link_restores_the_view():
    at = open_page(alg="kmeans", ik="ik_iforest_full", psi="16", n_per="50", show_raw="0", trials="3",
                   mode="banana")
    assert at.radio(key="_w_alg").value == "kmeans"
    assert at.selectbox(key="_w_ik").value == "ik_iforest_full"
    assert at.select_slider(key="_w_psi").value == 16
    assert at.checkbox(key="_w_show_raw").value is False
    assert at.radio(key="_w_mode").value == "fixed"  # not an offered option: default
    assert set(table(at)) == {"IK · iForest, fully grown feature map", "RandLocal features"}
    assert len(apptest.charts(at)) == 3


def test_best_mode_sweeps_the_grid_and_plots_ami_against_the_parameter():
    at = open_page(n_per="50", mode="best", alg="kmeans", show_randlocal="0")
    assert not at.error
    params = dict(zip(apptest.tables(at)[0]["measure"], apptest.tables(at)[0]["parameter"]))
    assert params["raw features"] == "–"
    assert params["IK · iForest, height ≤ ⌈log₂ψ⌉ feature map"].startswith("ψ = ")  # the best ψ of the sweep
    assert len(apptest.charts(at)) == 1 + 2 + 1  # classes, two measures, the sweep figure
    # density peaks: each ψ at its best cutoff; the distance has no kernel parameter, so its cutoff is swept
    at = open_page(n_per="50", mode="best", alg="density_peaks", show_ag="0")
    assert not at.error
    df = apptest.tables(at)[0]
    assert len(apptest.charts(at)) == 1 + 2 * 2 + 1
    assert all(1 <= int(e) <= 99 for e in df["ε (% of m)"])


def test_degenerate_choices_give_a_message_not_an_exception():
    at = open_page(n_per="10", k="50")
    assert any("more than the 20 points" in w.value for w in at.warning) and not at.error
    assert len(apptest.charts(at)) == 0
    at = open_page(show_ik="0", show_gk="0", show_ag="0")
    assert any("at least one measure" in i.value for i in at.info)


def test_real_and_density_ratio_data_render():
    at = open_page(data="iris", max_points="100", alg="density_peaks")
    assert not at.error and len(apptest.charts(at)) == 7
    assert any("first two principal components" in c.value for c in at.caption)
    at = open_page(data="density-ratio", n_ratio="100")
    assert not at.error and len(apptest.charts(at)) == 4


def test_old_links_with_underscored_data_names_still_open_that_data():
    at = open_page(data="density_ratio", n_ratio="100")
    assert at.selectbox(key="_w_data").value == "density-ratio" and at.query_params["data"] == "density-ratio"
