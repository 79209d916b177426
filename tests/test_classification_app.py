"""The Classification lab page, driven headless with AppTest (both sections).

These tests check what the page shows and keeps in its links. The heavy
computations are replaced by the module-level stand-ins below, whose numbers
carry the settings the page passed (FPR = ratio / 100, a mistake rate that
grows with η), so a control that does not reach the computation fails a test.
The experiments' effects are tested in test_classification.py; one test runs
the real default view (slow).
"""

import numpy as np
import pytest

import apptest
from ikviz.experiments import classification as exp
from ikviz.experiments import online as onl
from ikviz.learn.svm import KERNELS, LABELS

PAGE = "classification"


def fake_svm(p, *, memo=None, progress=None):
    """``exp.run``'s stand-in: one row per kernel, FPR = ratio / 100 + i / 1000, regions for 2-D data.

    It fails on iris, as a computation that raises would.
    """
    if p.data.dataset == "iris":
        raise ValueError("no kernel fits these settings")
    binary = p.data.dataset in exp.SYNTHETIC
    two_d = p.data.dataset == "density-ratio"
    X = np.random.default_rng(p.data.seed).random((40, 2 if two_d else 3))
    y = np.arange(40) % (2 if binary else 3)
    evaluations, cv, regions = [], {}, {}
    for i, k in enumerate(p.kernels):
        values = exp.candidates(k, p, X)
        scores = [0.5 + 0.01 * j for j in range(len(values))]
        fpr = p.data.ratio / 100 + i / 1000 if binary else float("nan")
        evaluations.append(exp.Evaluation(k, exp.chosen(k, p, values, scores), 0.9 - i / 100, fpr,
                                          fpr / 2, 0.01, 0.001))
        cv[k] = (values, scores)
        if p.regions and two_d:
            regions[k] = (np.linspace(0, 1, 4), np.linspace(0, 1, 4), np.eye(4, dtype=int))
    return exp.Result(p, tuple(evaluations), cv, regions, X, y, p.data.n_test)


def fake_paired(p, *, memo=None, progress=None):
    """``exp.paired_runs``' stand-in: IK's FPR below RBF's on every other seed."""
    n, binary = len(p.seeds), p.base.data.dataset in exp.SYNTHETIC
    metrics = {}
    for i, k in enumerate(p.base.kernels):
        fpr = 0.05 + 0.01 * ((np.arange(n) + (k == "ik")) % 2) if binary else np.full(n, np.nan)
        metrics.update({(k, "accuracy"): np.full(n, 0.9 - i / 100), (k, "FPR"): fpr, (k, "FNR"): fpr / 2})
    return exp.PairedResult(tuple(p.base.kernels), tuple(p.seeds), metrics)


def fake_online(p, *, memo=None, progress=None):
    """``onl.run``'s stand-in: learner i makes mistakes at the rate η / 4 + i / 100 (tuned η: ETAS[i])."""
    etas = tuple(onl.ETAS[i] if p.tune_eta else p.eta for i in range(len(p.methods)))
    results = tuple(onl.StreamResult(m, np.arange(100) < 100 * min(0.9, eta / 4 + i / 100), 0.01, 10 * (i + 1))
                    for i, (m, eta) in enumerate(zip(p.methods, etas)))
    return onl.Result(p, results, etas)


@pytest.fixture
def fakes(monkeypatch):
    monkeypatch.setattr(exp, "run", fake_svm)
    monkeypatch.setattr(exp, "paired_runs", fake_paired)
    monkeypatch.setattr(onl, "run", fake_online)


def open_page(**query):
    at = apptest.open_page(PAGE, **query)
    assert not at.error, [e.value for e in at.error]
    return at


def test_default_view_layout_and_url(fakes):
    at = open_page()
    (svm,) = apptest.tables(at)  # the SVM section alone: the online learners are not computed
    assert not [m.value for m in at.markdown if m.value.strip("`") == "None"]  # no stray value from Streamlit magic
    assert list(svm["kernel"]) == [LABELS[k] for k in KERNELS]
    assert svm["FPR"].tolist() == pytest.approx([0.1 + i / 1000 for i in range(5)])  # density ratio 10
    assert svm["parameter"].iloc[0] == "gamma = 2^5" and svm["parameter"].iloc[3] == "–"  # the CV winner; linear
    assert len(apptest.charts(at)) == 5 + 1  # 5 decision-region maps, CV curves; the paired runs wait for a click
    assert any("40 training and 20000 test points" in c.value for c in at.caption)
    q = at.query_params
    assert (q["section"], q["data"], q["tuning"], q["ratio"]) == ("SVM", "density-ratio", "cv", "10")
    assert "o_data" not in q

    at = open_page(section="Online learning")
    (online,) = apptest.tables(at)
    assert list(online["method"]) == list(onl.METHODS) and list(online["η"]) == list(onl.ETAS[:4])
    assert "_w_eta" not in [s.key for s in at.select_slider]  # η tuned per learner by default: no common η
    assert len(apptest.charts(at)) == 1  # mistake curves
    assert (at.query_params["o_data"], at.query_params["tune_eta"]) == ("letter", "1")
    assert "data" not in at.query_params


def test_controls_reach_the_computation_and_the_url(fakes):
    at = open_page()
    at.select_slider(key="_w_ratio").set_value(1).run()
    assert not at.exception and at.query_params["ratio"] == "1"
    assert apptest.tables(at)[0]["FPR"].tolist() == pytest.approx([0.01 + i / 1000 for i in range(5)])
    at = open_page(tune_eta="0", section="Online learning")
    assert not at.toggle(key="_w_tune_eta").value and not at.select_slider(key="_w_eta").disabled
    assert set(apptest.tables(at)[0]["η"]) == {0.2}
    at.select_slider(key="_w_eta").set_value(2.0).run()
    online = apptest.tables(at)[0]
    assert at.query_params["eta"] == "2.0" and set(online["η"]) == {2.0}
    assert online["final mistake rate"].tolist() == pytest.approx([0.5, 0.51, 0.52, 0.53])


def test_shared_link_restores_the_view_and_old_names_map_to_new_ones(fakes):
    # an old link: data set names with underscores
    at = open_page(section="Online learning", o_data="density_ratio", D="100")
    assert at.selectbox(key="_w_o_data").value == "density-ratio" and at.query_params["o_data"] == "density-ratio"
    assert at.select_slider(key="_w_D").value == 100
    at = open_page(tuning="fixed", psi="64", gamma="0.25", data="w_gaussians", w="10")
    assert at.selectbox(key="_w_data").value == "w-gaussians" and at.query_params["data"] == "w-gaussians"
    assert at.select_slider(key="_w_w").value == 10
    assert at.radio(key="_w_tuning").value == "fixed" and not at.select_slider(key="_w_psi").disabled
    svm = apptest.tables(at)[0]
    assert list(svm["parameter"]) == ["gamma = 2^-2", "psi = 64", "psi = 64", "–", "psi = 64"]
    assert len(apptest.charts(at)) == 0  # 20-D data, fixed parameters: no regions, no CV curves


def run_it(at, i=-1):
    """Press a **Run it** of the store (a view that asks before it runs waits for it); the last one by default."""
    return [b for b in at.button if b.label == "Run it"][i].click().run()


def test_paired_runs_real_data_and_an_error_box(fakes):
    at = open_page(seeds="3", data="wine", seed="7")
    assert len(apptest.tables(at)) == 1 and any("each of the 3 seeds 7 to 9" in i.value for i in at.info)
    run_it(at)
    assert len(apptest.tables(at)) == 2  # SVM, paired summary
    assert "FPR(IK)" not in " ".join(m.value for m in at.markdown)  # wine: three classes, FPR undefined
    at.selectbox(key="_w_data").set_value("density-ratio").run()
    run_it(at)  # other data: asked again
    paired = apptest.tables(at)[1]
    assert list(paired["kernel"]) == list(KERNELS)
    text = " ".join(m.value for m in at.markdown)
    # seeds 7, 8, 9; IK's FPR is 0.06, 0.05, 0.06 against RBF's 0.05, 0.06, 0.05
    assert "paired over 3 seeds: +0.0033" in text and "(IK lower on 1 of 3 seeds)" in text
    at.selectbox(key="_w_data").set_value("iris").run()  # the stand-in fails on iris
    assert not at.exception
    assert [e.value for e in at.error] == ["Problem with the SVM comparison: no kernel fits these settings"]
    run_it(at)
    assert len(apptest.tables(at)) == 1  # the paired runs still show theirs


@pytest.mark.slow
@pytest.mark.full
def test_real_default_view():
    at = open_page()
    (svm,) = apptest.tables(at)
    assert svm["accuracy"].between(0.7, 1).all() and svm["FNR"].lt(0.1).all()
    assert len(apptest.charts(at)) == 6
    at = open_page(section="Online learning")
    (online,) = apptest.tables(at)
    assert list(online["method"]) == list(onl.METHODS) and set(online["η"]) <= set(onl.ETAS)
    assert online["final mistake rate"].between(0, 0.5).all()


SENT_GAMMAS = []


def recording_online(p, *, memo=None, progress=None):
    SENT_GAMMAS.append(p.gamma)
    return fake_online(p)


def test_online_gamma_is_set_per_data_set_unless_a_value_is_chosen(fakes, monkeypatch):
    sent = SENT_GAMMAS
    monkeypatch.setattr(onl, "run", recording_online)
    at = open_page(section="Online learning")
    assert sent[-1] == onl.PER_DATA_SET == at.select_slider(key="_w_o_gamma").value == "per data set"
    at = open_page(section="Online learning", o_gamma="0.125")   # a shared link with a fixed γ = 2^-3
    assert sent[-1] == 0.125 and at.query_params["o_gamma"] == "0.125"


def test_heavy_w_runs_on_request_and_light_w_at_once(fakes):
    at = open_page(data="w-gaussians", w="100")
    assert len(apptest.tables(at)) == 1  # w = 100: computed at once
    at = open_page(data="w-gaussians", w="5000")
    assert not apptest.tables(at) and "10,000 dimensions" in at.info[0].value
    run = [b for b in at.button if b.key.startswith("_run_")]  # store.compute(ask=...): "Run it"
    assert len(run) == 2  # the comparison, then its paired runs
    run[0].click().run()
    assert not at.exception and len(apptest.tables(at)) == 1
    at.run()  # asked once: the view stays computed for this session
    assert len(apptest.tables(at)) == 1


def test_heavy_w_paired_runs_say_their_cost_per_seed_before_running(fakes):
    at = open_page(data="w-gaussians", w="5000", seeds="3", seed="7")  # not computed before
    asks = [i.value for i in at.info if "the SVMs work in 10,000 dimensions" in i.value]
    assert len(asks) == 2 and "once for each of the 3 seeds" in asks[1]  # the single view's, then the paired
    assert not apptest.tables(at)
    at = open_page(data="w-gaussians", w="100", seeds="3")
    assert len(apptest.tables(at)) == 1  # light: the comparison at once; its paired runs say what they cost
    assert [i.value for i in at.info] == ["The comparison above, once for each of the 3 seeds 0 to 2 (each a fresh "
                                          "draw of the data, every kernel with its own CV), with progress and Cancel."]
    run_it(at)
    assert len(apptest.tables(at)) == 2 and not at.info
