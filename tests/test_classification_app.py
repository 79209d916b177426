"""The Classification lab page, driven headless with AppTest (both tabs).

The page's computations run at reduced size (smaller test samples and
streams): these tests check what the page shows and keeps in its links; the
experiments' effects are tested in test_classification.py.
"""

from dataclasses import replace

import pytest

import apptest
from ikviz.experiments import classification as exp
from ikviz.experiments import online as onl

FULL_SVM, FULL_ONLINE = exp.run, onl.run


def small_svm(p, *, memo=None, progress=None):
    return FULL_SVM(replace(p, data=replace(p.data, n_test=min(p.data.n_test, 1000))), memo=memo, progress=progress)


def small_online(p, *, memo=None, progress=None):
    return FULL_ONLINE(replace(p, n=min(p.n, 1000), prefix=min(p.prefix, 200)), memo=memo, progress=progress)


@pytest.fixture(autouse=True)
def _small_computations(monkeypatch):
    monkeypatch.setattr(exp, "run", small_svm)
    monkeypatch.setattr(onl, "run", small_online)

PAGE = "classification"
FAST = {"tuning": "fixed", "o_data": "density-ratio", "o_n": "2000", "prefix": "200"}


def open_page(**query):
    at = apptest.open_page(PAGE, **query)
    assert not at.error, [e.value for e in at.error]
    return at


def tables(at):
    return [d.value for d in at.dataframe]


def test_both_tabs_render_with_cv_and_url_holds_the_settings():
    at = open_page(o_data="density-ratio", o_n="2000", prefix="200")
    svm, online = tables(at)[:2]
    assert len(svm) == 5 and svm["accuracy"].between(0.5, 1).all()
    assert list(online["method"]) == ["FOGD", "NOGD", "IK+OGD", "RandLocal+OGD"]
    assert len(at.get("plotly_chart")) == 5 + 1 + 1  # 5 decision-region maps, CV curves, mistake curves
    assert at.query_params["data"] == "density-ratio" and at.query_params["tuning"] == "cv"


def test_controls_change_the_output_and_the_url():
    at = open_page(**FAST)
    before = tables(at)[0]["FPR"].tolist()
    at.select_slider(key="_w_ratio").set_value(1).run()
    assert not at.exception and at.query_params["ratio"] == "1"
    assert tables(at)[0]["FPR"].tolist() != before
    online = tables(at)[1]
    assert set(online["η"]) <= {2.0, 0.2, 0.02, 0.002, 0.0002}   # tuned per learner by default
    assert at.select_slider(key="_w_eta").disabled
    at.toggle(key="_w_tune_eta").set_value(False).run()
    assert at.query_params["tune_eta"] in ("False", "false", "0") and not at.select_slider(key="_w_eta").disabled
    mistakes = tables(at)[1]["final mistake rate"].tolist()
    at.select_slider(key="_w_eta").set_value(2.0).run()
    assert at.query_params["eta"] == "2.0" and tables(at)[1]["final mistake rate"].tolist() != mistakes
    assert set(tables(at)[1]["η"]) == {2.0}


def test_shared_link_restores_the_view():
    at = open_page(**FAST, ratio="20", psi="64", D="100", o_psi="16", data="w-gaussians", w="10")
    assert at.selectbox(key="_w_data").value == "w-gaussians"
    assert at.select_slider(key="_w_w").value == 10
    assert at.select_slider(key="_w_psi").value == 64 and at.select_slider(key="_w_D").value == 100
    assert at.radio(key="_w_tuning").value == "fixed"
    svm = tables(at)[0]
    assert len(at.get("plotly_chart")) == 1  # 20-D data: no decision regions, only the mistake curves
    assert svm.loc[svm["kernel"].str.contains("linear kernel"), "accuracy"].iloc[0] < 0.8


def test_paired_runs_and_real_data():
    at = open_page(**FAST, paired="1", seeds="3", data="wine")
    text = " ".join(m.value for m in at.markdown)
    assert len(tables(at)) == 3  # SVM, paired summary, online
    assert "FPR(IK)" not in text  # wine has three classes: FPR is undefined, accuracy is shown instead
    at = open_page(**FAST, paired="1", seeds="3", ratio="20")
    assert "FPR(IK) − FPR(RBF)" in " ".join(m.value for m in at.markdown)
