"""The density page's "Real data" view reports its progress through its steps (issue 32: no silent wait).

Before, it reported 0 until the t-SNE view and the first IK variant's fit and cells were done (149 s of a 2.5-minute
view on the page: no bar, no ETA) and never reported the end. Now the t-SNE view (most of the time) reports its
iterations, each heavy block (the t-SNE view, each IK variant's fit and grid cells) comes after a report of its own,
with increasing fractions, ending at 1.
"""

from ikviz.experiments import density, surfaces
from ikviz.runner import RunMemo
from ikviz.store import ResultsStore

SMALL = density.Params(dataset="iris", t=20, grid=9)
HEAVY = {"make_data", "fitted_kernel", "grid_cells"}


def logged_run(p):
    events, memo = [], RunMemo()

    def logging_memo(fn):
        events.append(("block", fn.__name__))
        return memo(fn)

    result = density.run_real_data(p, memo=logging_memo,
                                   progress=lambda fraction, text: events.append(("progress", fraction, text)))
    return result, events


def test_real_data_reports_increasing_fractions_before_each_heavy_block_and_ends_at_one():
    result, events = logged_run(SMALL)
    fractions = [e[1] for e in events if e[0] == "progress"]
    assert fractions[0] == 0.0 and fractions[-1] == 1.0
    assert all(a <= b for a, b in zip(fractions, fractions[1:]))   # never backwards
    assert all(0.0 <= f <= 1.0 for f in fractions)
    # each heavy block is asked for right after a report, and the reports before successive heavy blocks increase
    before, data_read = [], False
    for i, event in enumerate(events):
        if event[0] != "block" or event[1] not in HEAVY:
            continue
        if event[1] == "make_data":   # read once, first; asked for again at the end (held by then)
            if data_read:
                continue
            data_read = True
        assert events[i - 1][0] == "progress", f"{event[1]} started without a report just before it"
        before.append(events[i - 1][1])
    assert len(before) == 5   # the t-SNE view, then fit and cells of ik_anne and of ik_iforest
    iterations = [e[1] for e in events if e[0] == "progress" and "iteration" in e[2]]
    assert len(iterations) == 30 and 0.0 < iterations[0] < iterations[-1] <= before[1]   # the t-SNE moves the bar
    assert all(a < b for a, b in zip(before, before[1:])), before
    assert 0.0 < before[1] < 1.0   # the t-SNE view has a share of its own: the IK steps start after it
    texts = " | ".join(e[2] for e in events if e[0] == "progress")
    assert "t-SNE" in texts and "grid points" in texts and "fitting" in texts
    assert sorted(result.surfaces) == sorted(density.REAL_DATA_KERNELS)


def test_the_fit_and_cells_asked_for_first_are_the_blocks_surface_reads(monkeypatch):
    # asked for with other arguments (keywords, other types), surface() would compute its own: twice the work
    import functools

    computed = []
    for name in ("fitted_kernel", "grid_cells"):
        real = getattr(surfaces, name)

        @functools.wraps(real)   # the same block name, so the same keys
        def counted(*args, real=real, **kwargs):
            computed.append((real.__name__, args[0]))
            return real(*args, **kwargs)

        monkeypatch.setattr(surfaces, name, counted)
    logged_run(SMALL)
    assert sorted(computed) == [("fitted_kernel", "ik_anne"), ("fitted_kernel", "ik_iforest"),
                                ("grid_cells", "ik_anne"), ("grid_cells", "ik_iforest")]


def test_the_stores_job_gets_a_bar_that_moves():
    store = ResultsStore(workers=1)
    job = store.submit(density.run_real_data, SMALL)
    try:
        assert job.wait(120)
        job.result()
        samples = [f for _, f in job._samples]
        assert len(samples) >= 20 and samples[-1] == 1.0   # what the page's bar and its ETA are computed from
    finally:
        store.release(job)


def test_reporting_the_tsne_iterations_leaves_the_view_bit_identical():
    spec = density.real_data_spec("iris", 0)
    seen = []
    reported = surfaces.make_data(spec, progress=lambda fraction, text: seen.append(fraction))
    assert (reported == surfaces.make_data(spec)).all()
    assert seen[0] == 0.0 and seen[-1] == 1.0 and len(seen) == 31
