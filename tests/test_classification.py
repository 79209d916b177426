"""Feature maps, online learners, SVM helpers and the classification experiments."""

import math
from collections import defaultdict
from dataclasses import replace

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.metrics.pairwise import laplacian_kernel, rbf_kernel

from ikviz import IsolationKernel
from ikviz.data import density_ratio, density_ratio_layout, w_gaussians
from ikviz.experiments import classification as exp
from ikviz.experiments import online as onl
from ikviz.features import LowRankNystroem, RandLocal, RandomFourierFeatures
from ikviz.learn.svm import KernelGram, cv_accuracy, fit_evaluate, make_svm, param_grid, rates
from ikviz.runner import RunMemo, block_key


# ----------------------------------------------------------------- density-ratio data
@pytest.mark.parametrize("ratio", [1.0, 10.0, 20.0])
def test_density_ratio_has_the_asked_density_ratio_and_overlap(ratio):
    X, y = density_ratio(20000, ratio, seed=1, overlap=0.04)
    assert X.shape == (20000, 2) and (y == 1).sum() == (y == 0).sum() == 10000
    box = density_ratio_layout(ratio, 0.04)
    pos, neg = X[y == 1], X[y == 0]
    assert ((pos >= 0) & (pos <= 1)).all()
    (nx0, ny0), (nx1, ny1) = box["negative"]
    assert math.isclose((nx1 - nx0) * (ny1 - ny0), ratio)  # area ratio = density ratio
    in_unit = ((neg >= 0) & (neg <= 1)).all(axis=1)
    assert abs(in_unit.mean() - 0.04) < 0.01  # the sparse class's share in the overlap


def test_density_ratio_is_seeded_and_validates():
    a, b = density_ratio(seed=3), density_ratio(seed=3)
    assert np.array_equal(a[0], b[0]) and not np.array_equal(a[0], density_ratio(seed=4)[0])
    with pytest.raises(ValueError, match="even"):
        density_ratio(n=501)
    with pytest.raises(ValueError, match="ratio"):
        density_ratio(ratio=0.5)
    with pytest.raises(ValueError, match="overlap"):
        density_ratio(ratio=20, overlap=0.1)


# ----------------------------------------------------------------- density-ratio experiment (ting2018 Table 1)
def _paired(fprs: dict) -> "exp.PairedResult":
    metrics = {}
    for k, v in fprs.items():
        metrics.update({(k, "FPR"): np.array(v, float), (k, "accuracy"): 1 - np.array(v, float) / 2,
                        (k, "FNR"): np.zeros(len(v))})
    return exp.PairedResult(tuple(fprs), tuple(range(len(next(iter(fprs.values()))))), metrics)


def test_fpr_effect_needs_ik_below_rbf_and_laplacian_on_most_seeds():
    lower = _paired({"rbf": [0.08, 0.09, 0.07], "laplacian": [0.07, 0.07, 0.07], "ik": [0.06, 0.07, 0.06]})
    assert exp.fpr_effect(lower) and exp.fpr_effect_text(lower).startswith("The paper's effect appears")
    above_laplacian = _paired({"rbf": [0.08, 0.09, 0.07], "laplacian": [0.05, 0.05, 0.05],
                               "ik": [0.06, 0.07, 0.06]})
    assert not exp.fpr_effect(above_laplacian)
    one_big_seed = _paired({"rbf": [0.05, 0.05, 0.20], "ik": [0.06, 0.06, 0.06]})  # mean lower, 1 seed of 3
    assert not exp.fpr_effect(one_big_seed)
    text = exp.fpr_effect_text(one_big_seed)
    assert text.startswith("The paper's effect does not appear") and "IK lower on 1 of 3 seeds" in text


def test_single_fpr_text_reads_one_draws_fprs_against_the_claim():
    def result(**fpr):
        return exp.Result(exp.Params(), tuple(exp.Evaluation(k, {}, 0.9, v, 0.0, 0.1, 0.1) for k, v in fpr.items()),
                          {}, {}, np.zeros((4, 2)), np.zeros(4), 10)

    ask = "Select both the RBF and the Isolation Kernel SVMs to compare their FPR."
    assert exp.single_fpr_text(result(ik=0.05), 10) == ask
    assert exp.single_fpr_text(result(rbf=0.05, ik=float("nan")), 10) == ask
    below = exp.single_fpr_text(result(rbf=0.08, laplacian=0.07, ik=0.06), 10)
    assert below == ("On this draw IK's FPR (0.0600) is below SVC, Gaussian (RBF) 0.0800, SVC, Laplacian L_ψ 0.0700: "
                     "the paper’s direction. One seed decides nothing; the paired runs below say whether it holds "
                     "across seeds.")
    above_one = exp.single_fpr_text(result(rbf=0.08, laplacian=0.05, ik=0.06), 20)
    assert "is not below SVC, Gaussian (RBF) 0.0800, SVC, Laplacian L_ψ 0.0500: not the paper’s direction" in above_one
    at_one = exp.single_fpr_text(result(rbf=0.08, ik=0.06), 1)
    assert at_one == ("On this draw IK's FPR (0.0600) is below SVC, Gaussian (RBF) 0.0800. The paper claims lower FPR "
                      "for IK only at density ratios > 1.")


def test_paired_fpr_text_and_caption_from_the_paired_numbers():
    paired = _paired({"rbf": [0.08, 0.09, 0.07], "laplacian": [0.07, 0.07, 0.07], "ik": [0.06, 0.07, 0.08]})
    assert exp.paired_fpr_text(paired) == ("**FPR(IK) − FPR(RBF)**, paired over 3 seeds: -0.0100 ± 0.0173 "
                                           "(IK lower on 2 of 3 seeds).")
    assert exp.paired_fpr_text(_paired({"laplacian": [0.1], "ik": [0.1]})) is None  # no RBF to compare with
    assert exp.paired_fpr_text(_paired({"rbf": [float("nan")] * 2, "ik": [float("nan")] * 2})) is None  # 3 classes
    caption = exp.paired_effect_caption(paired, "gaussian", 10)
    assert caption == f"gaussian generator, ratio 10:1. {exp.fpr_effect_text(paired)}"
    assert caption.startswith("gaussian generator, ratio 10:1. The paper's effect appears here")
    assert exp.paired_effect_caption(paired, "uniform", 1) == (
        "uniform generator, ratio 1:1: the paper claims lower FPR for IK only at ratios > 1 (at 1:1 it reports IK "
        "0.032 vs RBF 0.008).")


def test_cost_text_warns_only_for_heavy_w_gaussians_and_counts_the_seeds():
    def cost(dataset="w-gaussians", w=5000, tuning="cv", seeds=1):
        return exp.cost_text(exp.Params(dataset=dataset, w=w, tuning=tuning), seeds)

    assert cost(w=exp.HEAVY_W - 1) is None and cost("density-ratio") is None and cost("wine") is None
    assert cost(w=exp.HEAVY_W).startswith("w = 1,000: the SVMs work in 2,000 dimensions")
    assert cost() == ("w = 5,000: the SVMs work in 10,000 dimensions, which takes minutes with 5-fold CV over the "
                      "grid (about six on 2 cores at w = 5,000). Run it, or pick w ≤ 100 for a view in seconds; the "
                      "Claims page holds ting2021 Table 4's numbers.")
    fixed = cost(tuning="fixed", seeds=5)
    assert "takes up to a minute with the sliders' parameters, once for each of the 5 seeds. Run it" in fixed


def test_within_test_budget_cuts_only_a_fresh_synthetic_sample_over_the_budget():
    big = exp.DataSpec("w-gaussians", w=5000, n_test=50000, seed=3)
    spec, text = exp.within_test_budget(big)
    assert spec == replace(big, n_test=exp.largest_test_size(big)) and spec.n_test == 6710
    assert text == ("50,000 test points in 10,000 dimensions would take 3.7 GiB; using 6,710 test points, the most "
                    "that fit one view's 512 MiB memory budget.")
    for fits in (replace(big, fresh_test=False), replace(big, w=100), exp.DataSpec("density-ratio", n_test=50000)):
        assert exp.within_test_budget(fits) == (fits, None)


def test_density_ratio_spec_reaches_the_generator():
    from ikviz.data import load

    X, y, Xt, _ = exp.make_data(exp.DataSpec("density-ratio", ratio=20.0, shape="gaussian", n=100, n_test=300))
    assert np.array_equal(X, load("density-ratio", n=100, ratio=20.0, shape="gaussian", seed=0)[0])
    assert not np.array_equal(X, exp.make_data(exp.DataSpec("density-ratio", ratio=20.0, n=100, n_test=300))[0])
    assert Xt.shape == (300, 2) and np.bincount(y).tolist() == [50, 50]


def test_density_ratio_numbers_per_generator_and_ratio():
    from ikviz import claims, reproduce

    result = {"uniform": {10.0: _paired({"rbf": [0.05, 0.05], "laplacian": [0.05, 0.05], "ik": [0.05, 0.06]})},
              "gaussian": {1.0: _paired({"rbf": [0.08, 0.09], "laplacian": [0.07, 0.08], "ik": [0.06, 0.07]}),
                           10.0: _paired({"rbf": [0.08, 0.09], "laplacian": [0.07, 0.08], "ik": [0.06, 0.07]})}}
    numbers = exp.density_ratio_numbers(result)
    assert set(numbers) == {"table", "fpr_ik_minus_rbf", "fpr_ik_minus_laplacian", "effect", "paper"}
    assert numbers["fpr_ik_minus_rbf"]["uniform"]["10"] == pytest.approx(
        {"mean": 0.005, "std": math.sqrt(2) * 0.005, "seeds_ik_lower": 0, "n_seeds": 2})
    assert numbers["fpr_ik_minus_laplacian"]["gaussian"]["10"]["mean"] == pytest.approx(-0.01)
    # the paper claims the effect at ratios > 1 only, so ratio 1 gets no verdict
    assert numbers["effect"] == {"uniform": {"10": False}, "gaussian": {"10": True}}
    assert list(numbers["fpr_ik_minus_rbf"]["gaussian"]) == ["1", "10"]
    assert [r["kernel"] for r in numbers["table"]["gaussian"]["10"]] == ["rbf", "laplacian", "ik"]
    assert numbers["paper"] is exp.PAPER_TABLE1
    # what the reproduction writes, and the claims page reads per generator
    assert reproduce.get("svm-density-ratio").numbers is exp.density_ratio_numbers
    payload = reproduce.to_jsonable({"experiment": "svm-density-ratio", **numbers})
    [row] = claims.rows_for(payload)
    assert row.verdict == "protocol unspecified" and "uniform, ratio 10" in row.ikviz and "gaussian, ratio 10" in row.ikviz


@pytest.mark.slow
def test_density_ratio_reproduction_runs_both_generators():
    from ikviz import reproduce

    entry = reproduce.get("svm-density-ratio")
    assert entry.quick["n_seeds"] >= 2 and set(entry.quick["ratios"]) == {10.0, 20.0}
    entry, params, out, _ = reproduce.execute("svm-density-ratio", quick=True, ratios=(20.0,), n_seeds=2,
                                              n_test=300, kernels=("rbf", "ik"), t=10)
    assert params.shapes == ("uniform", "gaussian") and list(out) == ["uniform", "gaussian"]
    numbers = entry.numbers(out)
    for shape in out:
        pr = out[shape][20.0]
        diff = pr.metrics[("ik", "FPR")] - pr.metrics[("rbf", "FPR")]
        d = numbers["fpr_ik_minus_rbf"][shape]["20"]
        assert d["mean"] == pytest.approx(diff.mean()) and d["seeds_ik_lower"] == int((diff < 0).sum())
        assert numbers["fpr_ik_minus_laplacian"][shape]["20"] is None  # Laplacian not run
        assert all(r["FNR"] < 0.05 for r in numbers["table"][shape]["20"])  # the errors are in the sparse class
    assert len(entry.figures(out)) == 2


def test_paper_table1_is_quoted_as_printed():
    """ting2018 Table 1, typed from the paper; checked against the paper's text when it is at hand."""
    paper = exp.PAPER_TABLE1
    assert paper["10"]["ik"]["FPR"] == (0.064, 0.010) and paper["10"]["rbf"]["FPR"] == (0.082, 0.017)
    assert paper["20"]["ik"]["FPR"] == (0.056, 0.010) and paper["20"]["laplacian"]["FPR"] == (0.067, 0.004)
    from pathlib import Path
    text = Path("/work/shared/papers/ting2018-isolation-kernel-svm.txt")
    if not text.exists():
        pytest.skip("the paper's text is not on this machine")
    lines = text.read_text().splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("data_1\tSVM_RBF"))
    names = {"SVM_RBF": "rbf", "SVM_Lap": "laplacian", "SVM_IK": "ik"}
    data = None
    for line in lines[start:start + 9]:
        cells = line.split("\t")
        data = cells[0].removeprefix("data_") or data
        printed = [tuple(float(x) for x in c.split("±")) for c in cells[2:5]]
        assert [paper[data][names[cells[1]]][m] for m in ("accuracy", "FPR", "FNR")] == printed


# ----------------------------------------------------------------- RandLocal
def test_randlocal_one_value_per_set_nearest_other_anchor():
    X = np.random.default_rng(0).normal(size=(200, 5))
    rl = RandLocal(n_sets=20, epsilon=1e-4, random_state=0)
    F = rl.fit_transform(X, np.zeros(200))  # the training representation of Alg. 1
    F_new = rl.transform(X)  # the same rows as new data
    assert sp.issparse(F) and F.shape == F_new.shape == (200, rl.n_anchors_.sum())
    assert np.all(np.diff(F.indptr) == 20) and (F.data > 0).all()
    assert rl.subspace_ == "supervised"
    assert ((rl.n_anchors_ >= 32) & (rl.n_anchors_ <= 100)).all()  # capped by n/2
    starts = np.concatenate([[0], np.cumsum(rl.n_anchors_)])
    for G, own in ((F, False), (F_new, True)):
        cols = G.indices.reshape(200, 20)
        vals = G.data.reshape(200, 20)
        for s in range(20):
            f, A = rl.features_[s], rl.anchors_[s]
            D = np.sqrt(((X[:, f][:, None, :] - A[None]) ** 2).sum(-1))
            assert math.isclose(rl.d_avg_[s], D.mean(), rel_tol=1e-9)
            if not own:  # fit_transform: a sampled row is assigned to its nearest *other* anchor
                D[rl.anchor_rows_[s], np.arange(len(A))] = np.inf
            assert np.array_equal(cols[:, s] - starts[s], D.argmin(1))
            expected = np.maximum(rl.d_avg_[s] - D.min(1), 1e-4 * rl.d_avg_[s])
            assert np.allclose(vals[:, s], expected)
    changed = np.flatnonzero(np.asarray((F != F_new).sum(axis=1)).ravel())
    assert set(changed) <= set(np.concatenate(rl.anchor_rows_)) and changed.size > 0


def test_randlocal_subspace_modes_and_seed():
    X = np.random.default_rng(1).normal(size=(300, 9))
    uns = RandLocal(n_sets=40, random_state=2).fit(X)
    assert uns.subspace_ == "unsupervised" and min(f.size for f in uns.features_) >= 5
    sup = RandLocal(n_sets=40, random_state=2).fit(X, y=np.zeros(300))
    assert min(f.size for f in sup.features_) < 5
    again = RandLocal(n_sets=40, random_state=2).fit(X)
    assert (uns.transform(X) != again.transform(X)).nnz == 0


def test_randlocal_rejects_bad_input():
    with pytest.raises(ValueError, match="n_sets"):
        RandLocal(n_sets=0).fit(np.ones((10, 2)))
    with pytest.raises(ValueError, match="epsilon"):
        RandLocal(epsilon=-1).fit(np.ones((10, 2)))
    with pytest.raises(ValueError, match="NaN"):
        RandLocal().fit(np.array([[0.0, np.nan]] * 10))
    rl = RandLocal(n_sets=3, random_state=0).fit(np.random.default_rng(0).random((20, 2)))
    with pytest.raises(ValueError, match="features"):
        rl.transform(np.ones((3, 4)))


# ----------------------------------------------------------------- Fourier and Nystroem
@pytest.mark.parametrize("kernel, exact", [("gaussian", rbf_kernel), ("laplacian", laplacian_kernel)])
def test_random_fourier_features_approximate_the_kernel(kernel, exact):
    X = np.random.default_rng(0).normal(size=(80, 3))
    Z = RandomFourierFeatures(kernel, gamma=0.5, n_components=8000, random_state=0).fit_transform(X)
    err = np.abs(Z @ Z.T - exact(X, gamma=0.5))
    assert err.mean() < 0.02
    other = "laplacian" if kernel == "gaussian" else "gaussian"
    Z2 = RandomFourierFeatures(other, gamma=0.5, n_components=8000, random_state=0).fit_transform(X)
    assert np.abs(Z2 @ Z2.T - exact(X, gamma=0.5)).mean() > 2 * err.mean()


def test_nystroem_full_rank_is_exact_on_basis_and_rank_k_is_worse():
    X = np.random.default_rng(0).normal(size=(150, 2))
    K = rbf_kernel(X, gamma=1.0)
    full = LowRankNystroem("gaussian", 1.0, budget=150, random_state=0).fit(X)
    Z = full.transform(X)
    assert np.abs(Z @ Z.T - K).max() < 1e-6
    errs = [np.abs((Zk := LowRankNystroem("gaussian", 1.0, budget=50, rank=k, random_state=0)
                    .fit(X).transform(X)) @ Zk.T - K).mean() for k in (2, 10, 50)]
    assert errs[0] > errs[1] > errs[2]
    alpha = np.random.default_rng(1).normal(size=150)
    w = full.weights_from_dual(alpha[full.basis_indices_])
    assert np.allclose(Z @ w, K @ alpha, atol=1e-6)
    with pytest.raises(ValueError, match="rank"):
        LowRankNystroem(budget=5, rank=6).fit(X)


# ----------------------------------------------------------------- SVM helpers
@pytest.mark.parametrize("C", [0.1, 1.0, 10.0])
def test_ik_gram_matches_isolation_kernel_and_linear_svm_matches_svc(C):
    X, y = density_ratio(300, 10.0, seed=0)
    Xt, yt = density_ratio(2000, 10.0, seed=1)
    gram = KernelGram("ik", psi=16, t=100, ik_method="anne", random_state=3).fit(X)
    ik = IsolationKernel(psi=16, t=100, method="anne", random_state=3).fit(X)
    assert np.allclose(gram.transform(Xt[:50]), ik.similarity(Xt[:50], X))
    svc = make_svm("ik", C=C, psi=16, t=100, ik_method="anne", seed=3).fit(X, y)
    lin = make_svm("ik-linear", C=C, psi=16, t=100, ik_method="anne", seed=3).fit(X, y)
    assert lin.named_steps["svm"].C == C  # features are kernel-consistent: the same C as SVC's
    assert np.mean(svc.predict(Xt) == lin.predict(Xt)) > 0.97  # the same kernel machine, two solvers


def test_rates_and_grids():
    acc, fpr, fnr = rates([0, 0, 1, 1], [1, 0, 1, 0])
    assert (acc, fpr, fnr) == (0.5, 0.5, 0.5)
    assert math.isnan(rates([0, 1, 2], [0, 1, 2])[1])
    assert param_grid("rbf", "ting2018")[0] == 2.0 ** -10 and len(param_grid("rbf", "ting2018")) == 16
    sigma_min = 10 * 2.0 ** -5  # ting2021: sigma = d * mu
    assert math.isclose(max(param_grid("rbf", "ting2021", d=10)), 1 / (2 * sigma_min ** 2))
    assert max(param_grid("ik", n_train=400)) == 256 and param_grid("linear") == []
    with pytest.raises(ValueError, match="kernel"):
        make_svm("poly")
    with pytest.raises(ValueError, match="C"):
        make_svm("rbf", C=-1)


def test_wgaussians_linear_fails_ik_succeeds():
    """ting2021 Table 4 in small: two subspace clusters, linear ~ chance, linear SVM on IK ~ 1."""
    X, y = w_gaussians(200, w=50, seed=0)
    Xt, yt = w_gaussians(500, w=50, seed=1)
    lin, _ = fit_evaluate("linear", {}, X, y, Xt, yt)
    ik, _ = fit_evaluate("ik-linear", {"psi": 8}, X, y, Xt, yt, t=100, ik_method="anne")
    assert lin.accuracy < 0.75 and ik.accuracy > 0.95


def test_cv_accuracy_prefers_a_sensible_gamma():
    X, y = density_ratio(300, 10.0, seed=0)
    tiny, good = cv_accuracy("rbf", 2.0 ** -10, X, y), cv_accuracy("rbf", 4.0, X, y)
    assert good > tiny


# ----------------------------------------------------------------- experiments
class KeyedMemo(RunMemo):
    """A run's memo that also lists the distinct blocks asked for: what a shared store would compute."""

    def __init__(self):
        super().__init__()
        self.keys = defaultdict(set)

    def __call__(self, fn):
        inner = super().__call__(fn)

        def block(*args, **kwargs):
            self.keys[fn.__name__].add(block_key(fn, args, kwargs))
            return inner(*args, **kwargs)

        return block


SMALL = exp.Params(dataset="density-ratio", ratio=20, n=200, n_test=500, tuning="fixed", gamma=8.0, psi=32,
                   kernels=("rbf", "ik"), t=20, regions=False)


def test_high_density_ratio_every_kernel_has_near_zero_fnr_and_regions_are_drawn():
    """ting2018 Table 1: at 20:1 every kernel has (near) zero FNR; the error is in the sparse class."""
    p = exp.Params(dataset="density-ratio", ratio=20, n=500, n_test=1000, tuning="fixed", gamma=8.0, psi=64,
                   kernels=("rbf", "ik", "ik-linear"))
    res = exp.run(p)
    for r in res.table():
        assert r["FNR"] < 0.02 and r["accuracy"] > 0.9 and r["FPR"] > 2 * r["FNR"]
    assert sorted(res.regions) == sorted(p.kernels) and res.n_test == 1000 and res.X_train.shape == (500, 2)
    xs, ys, Z = res.regions["ik"]
    assert Z.shape == (ys.size, xs.size) and set(np.unique(Z)) == {0, 1}


def test_paired_runs_are_the_single_runs_of_each_seed():
    memo = KeyedMemo()
    seeds = (3, 4, 5)
    paired = exp.paired_runs(exp.PairedParams(SMALL, seeds), memo=memo)
    alone = [{e.kernel: e.fpr for e in exp.run(replace(SMALL, seed=s), memo=memo).evaluations} for s in seeds]
    diff = np.array([r["ik"] - r["rbf"] for r in alone])
    mean, sd, wins = paired.paired_difference("ik", "rbf", "FPR")
    assert mean == pytest.approx(diff.mean()) and sd == pytest.approx(diff.std(ddof=1))
    assert wins == int((diff < 0).sum()) and paired.seeds == seeds
    assert len(memo.keys["make_data"]) == 3  # every kernel saw the same data per seed, each seed its own
    assert [r["kernel"] for r in paired.summary()] == ["rbf", "ik"]
    assert exp.PairedParams(replace(SMALL, seed=3), n_seeds=3).seeds == seeds  # the page's way: from its seed on
    with pytest.raises(ValueError, match="seed"):
        exp.paired_runs(exp.PairedParams(SMALL, n_seeds=0))


def test_a_setting_recomputes_only_the_blocks_it_touches_and_progress_covers_the_run():
    memo, seen = KeyedMemo(), []
    exp.run(SMALL, memo=memo)
    exp.run(replace(SMALL, gamma=2.0), memo=memo, progress=lambda f, text: seen.append((f, text)))
    assert len(memo.keys["make_data"]) == 1 and len(memo.keys["fit_and_test"]) == 3  # only RBF's fit is new
    fractions = [f for f, _ in seen]
    assert fractions == sorted(fractions) and fractions[0] == 0 and fractions[-1] == 1
    assert seen[0][1] == "SVC, Gaussian (RBF): fitting and testing"
    # CV: one block per candidate, shared by the runs of other settings of the same data
    cv = replace(SMALL, n=40, tuning="cv", kernels=("ik-linear",))
    res = exp.run(cv, memo=memo)
    values, scores = res.cv["ik-linear"]
    assert values == [4, 8, 16, 32] and len(memo.keys["cv_score"]) == len(values)
    assert res.evaluations[0].params == {"psi": values[int(np.argmax(scores))]}
    exp.run(replace(cv, gamma=0.5), memo=memo)
    assert len(memo.keys["cv_score"]) == len(values)


@pytest.mark.slow
def test_wgaussians_at_paper_size_the_gaussian_kernel_needs_the_narrow_ting2018_gammas():
    """ting2021 Table 4 at w = 5,000: linear at chance; RBF fails on the ting2021 grid (sigma >= 312), not ting2018's.

    IK's success on these data is asserted in small by test_wgaussians_linear_fails_ik_succeeds.
    """
    out = exp.run_wgaussians(exp.WGaussiansParams(kernels=("linear", "rbf")))
    acc = {g: {e.kernel: e.accuracy for e in res.evaluations} for g, res in out.items()}
    assert acc["ting2018"]["linear"] < 0.6 and acc["ting2021"]["linear"] < 0.6
    assert acc["ting2018"]["rbf"] > 0.95 and acc["ting2021"]["rbf"] < 0.7
    assert out["ting2018"].X_train.shape == (1000, 10000) and out["ting2018"].n_test == 1000


def test_run_rejects_bad_params_and_real_data_splits():
    with pytest.raises(ValueError, match="kernels"):
        exp.run(exp.Params(kernels=("nope",)))
    X, y, Xt, _ = exp.make_data(exp.DataSpec("wine", seed=0))
    assert len(X) + len(Xt) == 178 and X.min() >= 0 and X.max() <= 1
    assert set(np.unique(y)) == {0, 1, 2} and np.bincount(y)[0] == 47  # stratified: 59 of class 0, 80 %
    assert exp.DataSpec("w_gaussians") == exp.DataSpec("w-gaussians")  # old links' spelling


def test_online_run_shares_each_learners_blocks_across_settings():
    memo = KeyedMemo()
    p = onl.Params(dataset="density_ratio", n=500, prefix=100, psi=16, tune_eta=False)
    res = onl.run(p, memo=memo)
    assert p.dataset == "density-ratio" and list(onl.METHODS) == [r["method"] for r in res.table()]
    assert all(r.mistakes.shape == (500,) for r in res.results) and res.etas == (0.2,) * 4
    onl.run(replace(p, D=100), memo=memo)  # only FOGD reads D
    onl.run(replace(p, prefix=200), memo=memo)  # IK+OGD and RandLocal+OGD read the prefix
    assert len(memo.keys["learn"]) == 4 + 1 + 2 and len(memo.keys["make_stream"]) == 1
    with pytest.raises(ValueError, match="method"):
        onl.run_method("SGD", *onl.make_stream("density-ratio", 100, 0), onl.Params())


def test_step_sizes_are_tuned_per_learner_on_a_separate_stream():
    p = onl.Params(dataset="density-ratio", n=600, prefix=100, psi=16, tune_eta=True, methods=("FOGD", "IK+OGD"))
    best, rates = onl.tune_eta("FOGD", p)
    assert set(rates) == set(onl.ETAS) and rates[best] == min(rates.values())
    assert max(rates.values()) > rates[best]              # the step size matters on this stream
    X, _ = onl.make_stream("density-ratio", 600, p.seed + 1)  # the tuning stream is not the reported one
    assert not np.array_equal(X, onl.make_stream("density-ratio", 600, p.seed)[0])
    seen = []
    res = onl.run(p, progress=lambda f, text: seen.append((f, text)))
    assert res.etas[0] == best and [r["η"] for r in res.table()] == list(res.etas)
    assert seen[0] == (0.0, "FOGD: tuning η: step size 1 of 5") and seen[-1] == (1.0, "done")
    assert [f for f, _ in seen] == sorted(f for f, _ in seen)
    assert onl.run(replace(p, tune_eta=False, eta=0.02)).etas == (0.02,) * 2


def test_pipeline_benchmark_runs_and_is_wired_to_the_cli():
    from ikviz.bench_classification import bench_pipeline
    from ikviz.cli import build_parser

    r = bench_pipeline(dataset="wine", n=120, psi=8, t=20)
    assert r["n_train"] == 120 and r["n_test"] == 178 - 120
    for key in ("pipeline", "svc_rbf"):
        assert r[key]["accuracy"] > 0.85  # wine is easy for both
    assert r["fit_speedup"] == pytest.approx(r["svc_rbf"]["fit_s"] / r["pipeline"]["fit_s"])
    assert r["accuracy_gap"] == pytest.approx(r["svc_rbf"]["accuracy"] - r["pipeline"]["accuracy"])
    args = build_parser().parse_args(["bench", "pipeline", "--n", "500"])
    assert args.n == 500 and args.psi == 64 and args.t == 200 and args.func.__name__ == "_bench_pipeline"
    with pytest.raises(ValueError, match="no test rows"):
        bench_pipeline(dataset="wine", n=178)


def test_a_fresh_test_sample_over_the_memory_budget_is_refused_before_it_is_allocated():
    from ikviz.experiments.classification import TEST_BUDGET_BYTES, DataSpec, largest_test_size, make_data

    big = DataSpec("w-gaussians", w=5000, n_test=50000)  # inside the page's slider ranges: 4 GB of test data
    capped = largest_test_size(big)
    assert capped * 8 * 10_000 <= TEST_BUDGET_BYTES < (capped + 1) * 8 * 10_000
    with pytest.raises(ValueError, match=r"50,000 test points in 10,000 dimensions would take 3\.7 GiB"):
        make_data(big)
    assert largest_test_size(DataSpec("density-ratio", n_test=50000)) == 50000
