"""ting2018 Tables 5-6 and ting2021 Tables 5-6 (FIt-SNE), App. C Fig. 3 (TLE), App. D Fig. 4(b), Table 9.

Each new claim's verdict on small hand-made payloads (one that holds, one that
must not), the FIt-SNE column against openTSNE's own FFT fit, TLE on data of
known intrinsic dimension.
"""

from __future__ import annotations

import numpy as np
import pytest

from ikviz.claims import CLAIMS, rows_for


def _claim(key):
    return next(c for c in CLAIMS if c.key == key)


# ------------------------------------------------------------------ ting2021 Tables 5-6, FIt-SNE
def test_fitsne_column_is_openTSNE_fft_fit():
    from openTSNE import TSNE

    from ikviz.experiments.tsne import embed, load_data

    e = embed("fitsne", w=2, n_per_cluster=30, perplexity=8.0, exaggeration_iter=20, n_iter=25, seed=3)
    data = load_data("w-gaussians", 2, 30, 3)
    ref = TSNE(perplexity=8.0, negative_gradient_method="fft", initialization=data.start, random_state=3, n_jobs=1,
               neighbors="exact", early_exaggeration_iter=20, n_iter=25).fit(data.X)
    np.testing.assert_allclose(e.coords, np.asarray(ref), atol=1e-9)
    # and it is not the GK column (Barnes-Hut below 10,000 points)
    g = embed("gk", w=2, n_per_cluster=30, perplexity=8.0, exaggeration_iter=20, n_iter=25, seed=3)
    assert np.abs(g.coords - e.coords).max() > 1e-3


def _tsne_payload(fitsne_best: float, fitsne_origin: list[int]) -> dict:
    values = ("5", "20", "30")       # 30 is not the paper's: never counted
    score = lambda acc: {"knn_accuracy": acc, "silhouette": 0.0, "trustworthiness": 0.9}
    scores = {"gk": {v: score(0.5) for v in values}, "ik": {v: score(1.0) for v in values},
              "fitsne": {"5": score(fitsne_best), "20": score(0.5), "30": score(1.0)}}
    unequal = {k: {"2": {"origin_neighbours": o}} for k, o in
               (("gk", [10, 0]), ("ik", [5, 5]), ("fitsne", fitsne_origin))}
    return {"experiment": "tsne-wgaussians", "quick": True, "params": {"n_per_cluster": 100},
            "search_range": {"w": 5000, "scores": scores}, "separation": {},
            "separation_unequal_variance": unequal}


def _verdicts(payload):
    return {r.key: r.verdict for r in rows_for(payload) if r.measured}


def test_fitsne_claims_follow_the_numbers():
    held = _verdicts(_tsne_payload(0.55, [10, 0]))
    assert held["ting2021-table5-fitsne"] == "holds" and held["ting2021-table6-fitsne"] == "holds"
    # FIt-SNE separates at perplexity 5 of the paper's list; the origin joins both clusters
    failed = _verdicts(_tsne_payload(1.0, [4, 6]))
    assert failed["ting2021-table5-fitsne"] == "does not reproduce"
    assert failed["ting2021-table6-fitsne"] == "does not reproduce"


# ------------------------------------------------------------------ ting2021 App. C, Fig. 3 (TLE)
def test_isometric_keeps_every_distance():
    from scipy.spatial.distance import pdist

    from ikviz.experiments.paper_ting2021_tle import isometric

    X = np.random.default_rng(1).normal(size=(40, 500))
    Y = isometric(X)
    assert Y.shape[1] < 40
    np.testing.assert_allclose(pdist(Y), pdist(X), rtol=1e-9)


@pytest.mark.parametrize("dim", [2, 6])
def test_tle_finds_a_known_intrinsic_dimension(dim):
    from ikviz.experiments.paper_ting2021_tle import tle

    rng = np.random.default_rng(0)
    X = np.zeros((800, 40))
    X[:, :dim] = rng.normal(size=(800, dim))
    X = X @ np.linalg.qr(rng.normal(size=(40, 40)))[0]   # a rotated dim-flat in 40 dimensions
    assert abs(np.median(tle(X, k=50)) - dim) < 0.35 * dim


def test_tle_rejects_too_few_rows():
    from ikviz.experiments.paper_ting2021_tle import tle

    with pytest.raises(ValueError, match="more than k"):
        tle(np.zeros((10, 3)), k=50)


def _tle_payload(gaussians: float, w_gaussians: float, mnist: float) -> dict:
    rows = {"Gaussians": {"median": gaussians}, "w-Gaussians": {"median": w_gaussians}, "Mnist": {"median": mnist}}
    return {"experiment": "ting2021-tle", "quick": True, "params": {}, "rows": rows}


def test_tle_claims_follow_the_numbers():
    held = _verdicts(_tle_payload(310.0, 90.0, 12.0))
    assert [held[k] for k in ("ting2021-fig3-underestimate", "ting2021-fig3-bounds", "ting2021-fig3-real")] == \
        ["holds"] * 3
    failed = _verdicts(_tle_payload(10_000.0, 60.0, 30.0))   # no underestimate; w-Gaussians below 75; Mnist high
    assert failed["ting2021-fig3-underestimate"] == "does not reproduce"
    assert failed["ting2021-fig3-bounds"] == "does not reproduce"
    assert failed["ting2021-fig3-real"] == "does not reproduce"


# ------------------------------------------------------------------ ting2018 Table 5 (runtimes)
def _table5_payload(rbf: float, lap: float, ik: float) -> dict:
    return {"experiment": "ting2018-table5", "quick": True, "params": {"max_rows": 1000}, "n_train": 800,
            "total": {"rbf": rbf, "laplacian": lap, "ik": ik, "rbf-native": 0.1, "ik-linear": 0.1}}


def test_table5_claim_is_a_direction_with_two_parts():
    assert _verdicts(_table5_payload(1.0, 1.0, 80.0))["ting2018-table5"] == "holds"
    # IK faster than Laplacian (one part fails), or no slower than either
    assert _verdicts(_table5_payload(1.0, 100.0, 80.0))["ting2018-table5"] == "does not reproduce"
    assert _verdicts(_table5_payload(1.0, 1.0, 1.0))["ting2018-table5"] == "does not reproduce"


def _tiny_split(max_rows, seed):
    X = np.random.default_rng(seed).normal(size=(max_rows, 4))
    y = np.where(X[:, 0] > 0, 1, -1)
    return X[:90], X[90:], y[:90], y[90:]


def test_table5_run_times_every_kernel(monkeypatch):
    from ikviz.experiments import paper_ting2018_table5 as exp

    monkeypatch.setattr(exp, "split", _tiny_split)
    res = exp.run(exp.Params(max_rows=120, psi=8, t=10))
    assert set(res.seconds) == {*exp.KERNELS, *exp.SHOWN} and res.n_train == 90
    assert all(s["train"] > 0 and s["test"] > 0 for s in res.seconds.values())
    assert min(res.accuracy.values()) > 0.7


# ------------------------------------------------------------------ ting2021 Table 9
def _table9_payload(ik_total: float, gk: float) -> dict:
    paper = {"ik": 31, "gk": 100}
    return {"experiment": "ting2021-table9", "quick": True, "params": {},
            "rows": {"A9a": {"map": ik_total / 2, "svm": ik_total / 2, "ik_total": ik_total, "gk": gk,
                             "paper": paper},
                     "Ijcnn1": {"map": 0.1, "svm": 0.1, "ik_total": 0.2, "gk": 1.0, "paper": {"ik": 66, "gk": 95}}}}


def test_table9_claim_needs_every_row_faster():
    assert _verdicts(_table9_payload(0.3, 1.0))["ting2021-table9"] == "holds"
    row = next(r for r in rows_for(_table9_payload(3.0, 1.0)) if r.key == "ting2021-table9")
    assert row.verdict == "does not reproduce" and "A9a" in row.note


# ------------------------------------------------------------------ ting2018 Table 6 (RF kernels)
def test_rf_kernel_readings():
    from ikviz.experiments.paper_ting2018_table6 import RandomForestKernel

    rng = np.random.default_rng(0)
    X = rng.normal(size=(80, 3))
    y = (X[:, 0] + 0.3 * X[:, 1] > 0).astype(int)
    Kb = RandomForestKernel("breiman", n_trees=15).fit(X, y).transform(X)
    Kd = RandomForestKernel("davies-ghahramani", n_trees=15).fit(X, y).transform(X)
    for K in (Kb, Kd):
        assert np.allclose(np.diag(K), 1.0) and np.allclose(K, K.T) and K.min() >= 0
        assert np.linalg.eigvalsh(K).min() > -1e-9          # a share of indicator products: PSD
    # a node at a random level holds at least the leaf's points: RF_DG is never below RF_B
    assert (Kd >= Kb - 1e-12).all() and Kd.mean() > Kb.mean()
    with pytest.raises(ValueError, match="reading"):
        RandomForestKernel("nope").fit(X, y)


def _table6_payload(ik: float, dg: float, b: float) -> dict:
    from ikviz.experiments.paper_ting2018_svm import win_draw_loss
    from ikviz.experiments.paper_ting2018_table6 import PAPER

    rows = ("Heart", "German", "Vowel")
    acc = {r: {"ik": ik, "rf_dg": dg, "rf_b": b} for r in rows}
    paper = {r: dict(zip(("rf_dg", "rf_b", "ik"), PAPER[r])) for r in rows}
    same = {k: win_draw_loss({r: p["ik"] for r, p in paper.items()}, {r: p[k] for r, p in paper.items()})
            for k in ("rf_dg", "rf_b")}
    wdl = {k: win_draw_loss({r: ik for r in rows}, {r: a[k] for r, a in acc.items()}) for k in ("rf_dg", "rf_b")}
    return {"experiment": "ting2018-table6", "quick": True, "params": {}, "accuracy": acc, "paper": paper,
            "wdl": wdl, "paper_wdl_same_rows": same}


def test_table6_claims_follow_the_numbers():
    held = _verdicts(_table6_payload(0.9, 0.8, 0.6))
    assert held["ting2018-table6"] == "holds" and held["ting2018-table6-dg"] == "holds"
    # IK beats RF_B only: the two-part claim fails; RF_B above RF_DG: the direction fails
    failed = _verdicts(_table6_payload(0.9, 0.95, 0.6))
    assert failed["ting2018-table6"] == "does not reproduce"
    assert _verdicts(_table6_payload(0.9, 0.6, 0.8))["ting2018-table6-dg"] == "does not reproduce"


# ------------------------------------------------------------------ ting2021 App. D Fig. 4(b), Table 1
def _curve(means, ses):
    return {q: {"t": [1, 200], "mean": list(means), "se": list(ses)} for q in ("between", "sparse_centre")}


def _instability_payload(uniform=(300.0, 1.0), uniform_se=(90.0, 0.0), snn=(1, 400), lp_3000=(50, 40)):
    neps = {m: {"between": {"10": 1, "1000": 5, "3000": 9}, "sparse_centre": {"10": 1, "1000": 5, "3000": 9}}
            for m in ("gk", "ik", "lp2")}
    neps["ik"] = {q: {"10": 1, "1000": 1, "3000": 1} for q in ("between", "sparse_centre")}
    neps["snn"] = {"sparse_centre": {"10": snn[0], "1000": 1, "3000": 1}, "between": {"10": snn[1], "1000": 1,
                                                                                      "3000": 1}}
    for m, hi in (("lp0.1", lp_3000[0]), ("lp0.5", lp_3000[1])):
        neps[m] = {q: {"10": 1, "1000": 2, "3000": hi} for q in ("between", "sparse_centre")}
    return {"experiment": "instability", "quick": True, "params": {"k_snn": 50}, "n_points": 2000,
            "N_eps_by_eps_and_query": {"0.005": neps, "0.05": neps},
            "N_eps_vs_t_by_eps": {"0.005": {"data": _curve((200.0, 1.0), (30.0, 0.0)),
                                            "uniform": _curve(uniform, uniform_se)}}}


def test_appd_uniform_claim_has_four_parts():
    assert _verdicts(_instability_payload())["ting2021-appD-uniform"] == "holds"
    # uniform IK no worse than IK from the data at small t; or apart at high t: does not hold
    assert _verdicts(_instability_payload(uniform=(150.0, 1.0)))["ting2021-appD-uniform"] == "does not reproduce"
    assert _verdicts(_instability_payload(uniform=(300.0, 30.0)))["ting2021-appD-uniform"] == "does not reproduce"


def test_table1_claims_follow_the_numbers():
    held = _verdicts(_instability_payload())
    assert held["ting2021-table1-snn"] == "holds" and held["ting2021-table1-lp"] == "holds"
    assert _verdicts(_instability_payload(snn=(1, 2)))["ting2021-table1-snn"] == "does not reproduce"
    assert _verdicts(_instability_payload(snn=(300, 400)))["ting2021-table1-snn"] == "does not reproduce"
    # the fractional distances do not rise past d = 1,000
    assert _verdicts(_instability_payload(lp_3000=(2, 1)))["ting2021-table1-lp"] == "does not reproduce"


def test_table3_leaves_out_the_rows_whose_kernel_matrix_is_over_the_budget_and_says_so(monkeypatch):
    """a8a failed the paper-size run after 37 minutes (its 20,839-row CV fold's kernel matrix, 3.2 GiB, over the
    2 GiB budget): the rows that cannot fit are known before anything runs, left out, and named in the claim."""
    from ikviz.experiments import classification
    from ikviz.experiments import paper_ting2018_svm as t3

    assert t3.kernel_too_large("Phishing") is None and t3.kernel_too_large("Vowel") is None
    assert "26,048 training rows" in t3.kernel_too_large("a8a") and "39,992" in t3.kernel_too_large("IJCNN")
    with pytest.raises(ValueError, match="None of the datasets fits here: a8a: .*; IJCNN: "):
        t3.run(t3.Params(datasets=("a8a", "IJCNN"), runs=1))
    ran = []

    def fake(p, *, memo=None, progress=None):
        from types import SimpleNamespace

        ran.append(p.dataset)
        accuracy = {"rbf": .8, "laplacian": .85, "ik": .9}
        evs = [SimpleNamespace(kernel=k, accuracy=accuracy[k], params={}) for k in t3.KERNELS]
        return SimpleNamespace(evaluations=evs)

    monkeypatch.setattr(classification, "run", fake)
    res = t3.run(t3.Params(datasets=("Heart", "a8a", "Vote"), runs=1))
    assert ran == ["heart", "vote"] and sorted(res.accuracy) == ["Heart", "Vote"] and list(res.not_run) == ["a8a"]
    n = t3.numbers(res)
    assert n["not_run"] == res.not_run and n["stats"]["n_datasets"] == 2
    finding = t3._ting2018_table3(n)
    assert "on 2 of the paper's datasets" in finding.ikviz and "not run: a8a: the kernel matrix" in finding.ikviz
