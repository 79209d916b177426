"""The t-SNE page, driven headless with AppTest (small settings through the URL keep it fast)."""


import pytest
import apptest

PAGE = "tsne"
SMALL = dict(w="2", n="100")


def open_page(**query):
    at = apptest.open_page(PAGE, **query)
    return at


def test_page_shows_both_embeddings_and_controls_change_them():
    at = open_page(**SMALL, replay="1")
    assert not at.error
    charts = at.get("plotly_chart")
    assert len(charts) == 3                                       # GK, IK, the replay animation
    labels = [m.label for m in at.metric]
    assert labels.count("5-NN accuracy") == 2 and labels.count("silhouette") == 2
    text = " ".join(m.value for m in at.markdown)
    assert "5-NN accuracy GK" in text
    assert any("origin's 10 nearest points" in c.value for c in at.caption)
    assert '"frames"' in charts[2].proto.spec                     # the replay has animation frames
    assert at.query_params["w"] == "2" and at.query_params["psi"] == "100"
    before_gk, before_ik = charts[0].proto.spec, charts[1].proto.spec
    at.select_slider(key="_w_psi").set_value(20).run()
    assert not at.exception and not at.error
    assert at.query_params["psi"] == "20"
    assert at.get("plotly_chart")[1].proto.spec != before_ik      # IK recomputed
    assert at.get("plotly_chart")[0].proto.spec == before_gk      # GK untouched (cached)
    at.selectbox(key="_w_data").set_value("w-gaussians-unequal").run()
    assert not at.exception and at.query_params["data"] == "w-gaussians-unequal"


def test_shared_link_restores_the_view_and_ignores_bad_values():
    at = open_page(w="2", n="100", psi="20", perplexity="5", method="iforest", t="banana")
    assert at.select_slider(key="_w_psi").value == 20
    assert at.select_slider(key="_w_perplexity").value == 5
    assert at.radio(key="_w_method").value == "iforest"
    assert at.select_slider(key="_w_t").value == 200            # not a number: default
    assert not at.error and len(at.get("plotly_chart")) == 2    # no replay unless asked for


def test_real_dataset_and_capped_settings_are_explained():
    at = open_page(data="iris", psi="800", perplexity="800")
    assert not at.error and len(at.get("plotly_chart")) == 2
    assert len(at.select_slider) == 3                            # no w or n for real data
    infos = " ".join(i.value for i in at.info)
    assert "using ψ = 75" in infos and "perplexity 800" in infos


@pytest.mark.slow
def test_default_view_and_search_range():
    at = open_page()
    assert not at.error and len(at.get("plotly_chart")) == 2
    at2 = open_page(**SMALL)
    at2.button(key="run_search").click().run()
    assert not at2.exception and not at2.error
    assert len(at2.get("plotly_chart")) == 3 and len(at2.dataframe) == 1
