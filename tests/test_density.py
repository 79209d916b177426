"""Density adaptivity (ting2018 Fig. 2, Fig. 4): experiment, figures and page."""

import json
import numpy as np
import pytest

import apptest

from ikviz import reproduce
from ikviz.experiments import density as exp
from ikviz.plots import density as plots

COUNTS = (1600, 400, 400, 100)
PAIRS = (((0.0, 0.0), (0.25, 0.25)), ((0.0, 0.0), (-0.25, -0.25)))


def test_sparse_pair_beats_dense_pair_for_ik_but_not_for_distance_kernels():
    pairs = exp.probe_similarities(COUNTS, *PAIRS, psi=32, t=1000, gamma=1.0, seed=0)
    for kernel in ("ik_anne", "ik_inne", "ik_iforest", "ik_iforest_full"):
        assert pairs[kernel]["sparse"] > pairs[kernel]["dense"] + 0.05, kernel
    for kernel in ("laplacian_psi", "rbf"):
        assert pairs[kernel]["sparse"] == pytest.approx(pairs[kernel]["dense"])
    assert "sparse pair" in exp.verdict(pairs) and "only at distance" in exp.verdict(pairs)


def test_margin_fades_as_psi_grows():
    m = exp.margin_curve(COUNTS, *PAIRS, psis=(16, 512), t=300, seeds=2, seed=0)
    assert m["psi"] == [16, 512]
    for kernel in ("ik_anne", "ik_inne", "ik_iforest"):
        small, large = m[kernel].mean(axis=1)
        assert small > 0.05 and small > large + 0.05
    assert np.all(m["laplacian_psi"] == 0)


def test_similarity_falls_with_density_while_laplacian_is_flat():
    res = exp.similarity_vs_density(COUNTS, psi=32, t=300, distance=0.1, n_pairs=400, k=10, seed=0)
    trend = exp.density_trend(res)
    assert trend["ik_anne"] < -0.4 and trend["ik_inne"] < -0.4 and trend["ik_iforest"] < -0.4
    assert res["laplacian_psi"] == pytest.approx(32 ** -0.1)
    assert res["density"].shape == (400,) and np.all(res["density"] > 0)


def test_probe_problems_are_reported_in_words():
    assert exp.check_probes(*PAIRS) == []
    problems = exp.check_probes(((0, 0), (1.5, 0)), ((0, 0), (0, 0)))
    text = " ".join(problems)
    assert "outside the data square" in text and "same point" in text and "not the same distance" in text


def test_rmse_cell_iforest_close_to_laplacian_and_closer_than_rbf():
    cell = exp.rmse_cell(10, 16, method="ik_iforest", n=150, t=500, seed=0)
    assert cell["laplacian"] < 0.04 and cell["laplacian"] < cell["rbf"]
    with pytest.raises(ValueError, match="method must be one of"):
        exp.rmse_cell(10, 16, method="rbf", n=50, t=10, seed=0)


def test_rmse_grid_reports_progress_and_shapes():
    calls = []
    grid = exp.rmse_grid((5, 10), (8,), n=60, t=50, seed=0, progress=lambda f, s: calls.append(f))
    assert calls[0] == 0.0 and calls[-1] == 1.0 and len(calls) == 2 * len(exp.GRID_METHODS) + 1
    assert calls == sorted(calls)
    assert grid["laplacian"]["ik_iforest"].shape == (2, 1)
    summary = exp.grid_summary(grid)
    assert summary["ik_iforest"]["cells"] == 2
    assert plots.rmse_figure(grid).data


def test_reproduce_density_json_has_both_pairs_per_kernel(tmp_path):
    paths = reproduce.reproduce("density-adaptivity", tmp_path, quick=True)
    pairs = json.loads(paths["json"].read_text())["pairs"]
    assert set(pairs) == {"ik_anne", "ik_inne", "ik_iforest", "ik_iforest_full", "laplacian_psi", "rbf"}
    assert all(set(v) == {"sparse", "dense"} for v in pairs.values())
    paths = reproduce.reproduce("ik-vs-laplacian", tmp_path, quick=True)
    payload = json.loads(paths["json"].read_text())
    assert set(payload["rmse_laplacian"]) == {"ik_anne", "ik_inne", "ik_iforest"}
    assert np.array(payload["rmse_rbf"]["ik_iforest"]).shape == (2, 2)


# ----------------------------------------------------------------- the page
def open_density(**query):
    return apptest.open_page("density", **query)


def test_four_quadrant_section_states_the_effect():
    at = open_density(t="500")
    assert len(apptest.charts(at)) == 6  # three IK and two distance-kernel contours, the pair bars
    text = " ".join(m.value for m in at.markdown)
    assert "sparse pair" in text and "only at distance" in text
    assert not at.warning
    # 2,500 points: the contours draw a sample of them, and the page says so
    assert any("seeded sample of 1,000 of the 2,500 points" in c.value for c in at.caption)
    assert all(len(c.spec) < 200_000 for c in apptest.charts(at))


def test_bad_probe_placement_gives_messages_not_exceptions():
    at = open_density(t="200", s2x="1.8", d2x="0", d2y="0")
    warnings = " ".join(w.value for w in at.warning)
    assert "outside the data square" in warnings and "same point" in warnings
    assert not at.error


@pytest.mark.parametrize("section", ["Margin vs ψ", "Similarity vs density", "Sharpness (Fig. 3)"])
def test_other_sections_render(section):
    at = open_density(t="200", section=section)
    assert len(apptest.charts(at)) == 1 and not at.error


def test_fig2_grid_runs_behind_a_button():
    at = open_density(section="IK ≈ Laplacian (Fig. 2)", t="100")
    assert len(apptest.charts(at)) == 0
    at.button[0].click().run()
    assert not at.exception and not at.error
    assert len(apptest.charts(at)) == 1
    assert any("closer to L_ψ than to the best RBF" in m.value for m in at.markdown)


@pytest.mark.slow
def test_real_data_section_embeds_a_dataset():
    at = open_density(section="Real data", t="200", dataset="iris")
    assert len(apptest.charts(at)) == 3 and not at.error
