"""The t-SNE page, driven headless with AppTest.

Layout, URL and control tests run the page's own parameters through a short
optimisation (``fake_run``: the real run with 100 iterations), so they check
what the page does with a result, not the paper's effect (tests/test_tsne.py).
"""

import sys
from dataclasses import replace

import pytest

import apptest
from ikviz.experiments import tsne as exp

PAGE = "tsne"
SMALL = dict(w="2", n="100")
REAL_RUN, REAL_SEARCH = exp.run, exp.run_search
SHORT = dict(exaggeration_iter=50, n_iter=50)


def fake_run(p, *, memo=None, progress=None):
    """The page's view with a short optimisation (module level: the store names it)."""
    return REAL_RUN(replace(p, **SHORT), memo=memo, progress=progress)


def fake_search(p, *, memo=None, progress=None):
    """The search range cut to two settings, with a short optimisation."""
    return REAL_SEARCH(replace(p, **SHORT), (5, 20), memo=memo, progress=progress)


@pytest.fixture
def fakes(monkeypatch):
    monkeypatch.setattr(exp, "run", fake_run)
    monkeypatch.setattr(exp, "run_search", fake_search)


def computed() -> int:
    """How many results the app's store has computed so far (its module is loaded by the page)."""
    return sys.modules["store"].get_store().computed


def test_page_shows_both_embeddings_and_a_new_psi_recomputes_only_ik(fakes, monkeypatch):
    # a store of its own: the suite's earlier pages may have filled the shared one's memory (GK must stay held),
    # and its workers may still be computing kept work nobody waits for (the Claims page's checks), which the
    # count of computations below would include
    if "store" in sys.modules:
        monkeypatch.setattr(sys.modules["store"], "_STORE", None)
    at = apptest.open_page(PAGE, **SMALL, replay="1")
    assert not at.error
    charts = apptest.charts(at)
    assert len(charts) == 3                                       # GK, IK, the replay animation
    labels = [m.label for m in at.metric]
    assert labels.count("5-NN accuracy") == 2 and labels.count("silhouette") == 2
    text = " ".join(m.value for m in at.markdown)
    assert "5-NN accuracy GK" in text
    assert any("origin's 10 nearest points" in c.value for c in at.caption)
    assert '"frames"' in charts[2].spec                     # the replay has animation frames
    assert '"label":"100"' in charts[2].spec.replace(" ", "")  # its last saved iteration
    assert at.query_params["w"] == "2" and at.query_params["psi"] == "100"
    before_gk, before_ik, before = charts[0].spec, charts[1].spec, computed()
    at.select_slider(key="_w_psi").set_value(10).run()            # a psi no other test here computes
    assert not at.exception and not at.error
    assert at.query_params["psi"] == "10"
    assert apptest.charts(at)[1].spec != before_ik      # IK recomputed
    assert apptest.charts(at)[0].spec == before_gk
    # new: the run, IK's affinities, IK's embedding and the new result's three figures (GK's drawn as before),
    # and the small multiple over ψ, two ψ being held now; GK's embedding and the data reused
    assert computed() - before == 7
    assert any(c.id.endswith("chart_over_psi") for c in apptest.charts(at, multiples=True))
    at.selectbox(key="_w_data").set_value("w-gaussians-unequal").run()
    assert not at.exception and at.query_params["data"] == "w-gaussians-unequal"


def test_shared_link_restores_the_view_and_ignores_bad_values(fakes):
    at = apptest.open_page(PAGE, data="w_gaussians_unequal", w="2", n="100", psi="20", perplexity="5",
                           method="iforest", t="banana")
    assert at.selectbox(key="_w_data").value == "w-gaussians-unequal"   # old spelling from an old link
    assert at.select_slider(key="_w_psi").value == 20
    assert at.select_slider(key="_w_perplexity").value == 5
    assert at.radio(key="_w_method").value == "iforest"
    assert at.select_slider(key="_w_t").value == 200            # not a number: default
    assert not at.error and len(views_charts(at)) == 2    # no replay unless asked for


def test_real_dataset_and_capped_settings_are_explained(fakes):
    at = apptest.open_page(PAGE, data="iris", psi="800", perplexity="800")
    assert not at.error and len(views_charts(at)) == 2
    assert len(at.select_slider) == 3                            # no w or n for real data
    infos = " ".join(i.value for i in at.info)
    assert "using ψ = 75" in infos and "perplexity 800" in infos


def views_charts(at):
    """The page's figures of this view (small multiples over values other tests computed left out)."""
    return [c for c in apptest.charts(at) if "chart_over_" not in c.id]


def run_it(at):
    """Press the store's **Run it** (a heavy view waits for it)."""
    return [b for b in at.button if b.label == "Run it"][0].click().run()


def test_search_range_runs_on_request(fakes):
    at = apptest.open_page(PAGE, **SMALL)
    assert len(views_charts(at)) == 2 and len(apptest.tables(at)) == 0
    assert any("18 embeddings" in i.value for i in at.info)  # what it costs, said before it runs
    run_it(at)
    assert not at.exception and not at.error
    assert len(views_charts(at)) == 3 and len(apptest.tables(at)) == 1
    assert list(apptest.tables(at)[0]["setting"]) == [5, 20]


@pytest.mark.slow
def test_default_view():
    at = apptest.open_page(PAGE)
    assert not at.error and len(views_charts(at)) == 2
    assert [m.label for m in at.metric].count("5-NN accuracy") == 2


SEARCHED = []


def recording_search(p, *, memo=None, progress=None):
    SEARCHED.append(p.n_per_cluster)
    return fake_search(p, memo=memo, progress=progress)


def test_search_range_offers_a_smaller_sample_first_and_the_full_size_one_click_away(fakes, monkeypatch):
    monkeypatch.setattr(exp, "run_search", recording_search)
    at = apptest.open_page(PAGE, w="2", n="500")
    run_it(at)
    assert not at.exception and SEARCHED[-1] == 250 and len(apptest.tables(at)) == 1
    at.radio(key="_w_search").set_value("page").run()
    run_it(at)
    assert not at.exception and SEARCHED[-1] == 500


def test_presentation_mode_shows_the_scores_of_the_figure_shown_only(fakes):
    at = apptest.open_page(PAGE, **SMALL, present="1")
    assert len(views_charts(at)) == 1 and [m.label for m in at.metric].count("5-NN accuracy") == 1
    at.radio(key="_w_fig").set_value(2).run()
    assert not at.exception and apptest.charts(at)[0].id.endswith("chart_ik")
    assert [m.label for m in at.metric].count("5-NN accuracy") == 1


def bounded_search(p, *, memo=None, progress=None):
    """The search range on two settings under a tiny bound on IK's centres (201 points in 4 dimensions, t = 200: ψ = 5
    takes 32,000 bytes, ψ = 20 128,000)."""
    return REAL_SEARCH(replace(p, **SHORT), (5, 20), memo=memo, progress=progress, max_centres_bytes=64_000)


def test_the_page_says_which_psi_its_search_left_out(fakes, monkeypatch):
    monkeypatch.setattr(exp, "run_search", bounded_search)
    at = apptest.open_page(PAGE, **SMALL)
    run_it(at)
    assert not at.exception and not at.error
    assert any(i.value.startswith("ψ = 20: not run here.") for i in at.info)
    table = apptest.tables(at)[0]
    ik = table["IK knn_accuracy"].tolist()
    assert list(table["setting"]) == [5, 20] and isinstance(ik[0], float) and ik[1] in ("–", None)
