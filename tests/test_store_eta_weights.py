"""The heavy views report progress in proportion to their steps' cost (issue 32 item 4: an ETA within 2x).

The store's ETA reads the rate of progress; a step that takes most of the time but gets a small share of the
bar makes it wrong by that share (benchmarks/store_eta.py measures the ETA itself, with real times).
"""

import numpy as np

from ikviz.experiments import density, dimensionality, indexing, tsne


def _reports(fn, *args, **kwargs):
    seen = []
    fn(*args, progress=lambda f, text="": seen.append((float(f), text)), **kwargs)
    return seen


def test_margin_curve_gives_inne_at_large_psi_its_share():
    p = density.Params(n_dense=100, n_medium=50, n_sparse=25)
    psis = (4, 64, 512)
    seen = _reports(density.margin_curve, p.counts, p.sparse_pair, p.dense_pair, psis=psis, t=20, seeds=2,
                    seed=0)
    fractions = [f for f, _ in seen]
    assert fractions == sorted(fractions) and fractions[0] == 0.0 and fractions[-1] == 1.0
    # iNNE's radii cost psi**2 per partitioning: its two fits at psi 512 are most of the curve's cost
    at = [i for i, (_, text) in enumerate(seen) if text.startswith(density.KERNELS["ik_inne"][0]) and "512" in text]
    assert len(at) == 2
    share = seen[at[-1] + 1][0] - seen[at[0]][0]
    assert share > 0.4, share  # equal weights (what was there) gave 2 of 15 steps: 0.13


def test_quadrant_progress_skips_the_free_kernels():
    seen = _reports(density.run_quadrants, density.Params(n_dense=100, n_medium=50, n_sparse=25, t=50, grid=11))
    by_text = dict((text, f) for f, text in seen)
    lap = by_text[f"{density.KERNELS['laplacian_psi'][0]}: contours"]
    rbf = by_text[f"{density.KERNELS['rbf'][0]}: contours"]
    assert rbf - lap < 0.01  # L_psi's contours cost nothing next to an IK variant's
    assert [f for f, _ in seen] == sorted(f for f, _ in seen)


def test_grid_progress_grows_with_psi():
    seen = _reports(density.rmse_grid, ds=(2,), psis=(2, 64), n=20, t=10, methods=("ik_anne",))
    (f0, _), (f1, _), (f_end, _) = seen
    assert f0 == 0.0 and f_end == 1.0 and f1 < 0.5  # the cell at psi 64 costs more than the one at psi 2


def test_indexing_steps_weighted_by_the_dimensions_searched():
    costs = indexing.step_costs(("distance", "ik_sparse", "ik_dense", "lk"), 1000, 22, 16, 200)
    total = sum(map(sum, costs))
    # measured (2026-11-26, ijcnn1-10k, n 1000): the dense IK map's ball tree took 13 of 17 s
    assert 0.6 < sum(costs[2]) / total < 0.9
    assert costs[2][1] == 0.0  # both IK paths share one precision computation
    seen = _reports(indexing.run, indexing.Params(dataset="ijcnn1-10k", n_max=200, psi=4, t=20))
    fractions = [f for f, _ in seen]
    assert fractions == sorted(fractions) and fractions[-1] == 1.0
    steps = np.diff(fractions)
    assert steps.min() == 0.0 and steps.max() > 1.5 * np.median(steps)  # the shared precision costs nothing


def test_the_estimate_counts_down_through_a_long_step_that_reports_nothing():
    """indexing's ball tree on IK's dense map: 80% of the bar in one step, one report at each end. The rate as of
    the latest report goes on counting down; the rate as of now (no progress since) grew with every second."""
    import time

    from ikviz.store.scheduler import Job

    job = Job("k", "one long step")
    job.started = time.monotonic() - 20.0
    job._samples.extend([(1.0, 0.03), (2.0, 0.06), (5.0, 0.15)])  # 0.03 a second, then a step 0.15 -> 0.95
    job.fraction = 0.15
    truth = 1.0 / 0.03 - 20.0  # at the same pace: 13.3 s left
    assert truth / 2 <= job.remaining() <= truth * 2
    job.started -= 30.0  # long overdue (50 s): still a finite, growing guess, never negative
    assert 0 < job.remaining() < 50


def test_instability_skips_the_partitionings_its_ik_table_already_built():
    p = dimensionality.InstabilityParams(d_values=(10, 30), n_per_cluster=60, t=50, t_values=(1, 50), t_trials=2)
    seen = _reports(dimensionality.run_instability, p)
    fractions = [f for f, _ in seen]
    assert fractions == sorted(fractions) and fractions[-1] == 1.0
    data = [f for f, text in seen if "built from the data" in text]
    uniform = [f for f, text in seen if "built from uniform" in text]
    # the data's first t = 50 of 100 partitionings are the IK table's blocks: no share of the bar (they had
    # half of it, passed in an instant, and the rate-based estimate read the view as faster than it was); the
    # other 50 get as much as 50 of the uniform curve's
    assert len(data) == len(uniform) == 2 and data[0] == data[1]
    assert np.isclose(uniform[0] - data[0], uniform[1] - uniform[0])
    ik = [f for f, text in seen if text.startswith(dimensionality.LABELS["ik"])]
    gk = [f for f, text in seen if text.startswith(dimensionality.LABELS["gk"])]
    after_ik = fractions[fractions.index(ik[-1]) + 1] - ik[-1]
    after_gk = fractions[fractions.index(gk[-1]) + 1] - gk[-1]
    assert np.isclose(after_ik, dimensionality.IK_WEIGHT * after_gk)


def test_tsne_keeps_a_share_for_its_scores():
    seen = _reports(tsne.embed, "gk", w=2, n_per_cluster=30, exaggeration_iter=20, n_iter=30, frame_every=25)
    dim = tsne.load_data(*tsne.data_spec("w-gaussians", 2, 30, 0)).X.shape[1]
    assert seen[-1] == (1 - tsne.stage_shares("gk", dim)[1], "scores…")   # the bar ends with the work
    assert [f for f, _ in seen] == sorted(f for f, _ in seen)
    # IK's affinities in high dimensions are most of its time (0.92 of the optimisation's at d = 10,000), GK's not
    ik_high, ik_low, gk_high = tsne.stage_shares("ik", 10000), tsne.stage_shares("ik", 4), tsne.stage_shares("gk", 10000)
    assert ik_high[0] > 0.4 and ik_low[0] < 0.1 and gk_high[0] < 0.05 and ik_high[1] > 4 * ik_low[1]
    # beside GK, IK's affinities get half the cores: 0.6 of its bar at d = 10,000 (measured: 4.5 s of a 7.4 s view)
    assert 0.55 < tsne.stage_shares("ik", 10000, sharing=2)[0] < 0.7
