"""A new server's first visit (issue 32 item 4): a slow prepared view shows a first look at once, the full view after.

``figures.PREVIEWS`` names, per run, the settings of a first look: the same computation at a smaller size.
"""

import dataclasses
import importlib
import sys
import threading
import time
from pathlib import Path

import pytest

APP = Path(__file__).resolve().parents[1] / "app"
sys.path.insert(0, str(APP))
sys.path.insert(0, str(Path(__file__).resolve().parent))
import figures  # noqa: E402
import prepare  # noqa: E402


def _run(name: str):
    module, run = name.split(":")
    return getattr(importlib.import_module(module), run)


@pytest.mark.parametrize("name", sorted(figures.PREVIEWS))
def test_every_first_look_names_a_run_and_fields_it_has(name):
    run = _run(name)
    items = [item for item in prepare.views() if item.run is run]
    assert items, f"{name}: no prepared view has a first look of this run"
    fields = {f.name for f in dataclasses.fields(items[0].params)}
    assert set(figures.PREVIEWS[name]) <= fields, f"{name}: a first-look setting is not a field of its Params"


def test_each_slow_prepared_view_gets_a_smaller_first_look_of_the_same_run():
    looked = 0
    for item in prepare.views():
        quick = figures.preview_of(item.run, item.params)
        if quick is None:
            continue
        looked += 1
        assert type(quick) is type(item.params) and quick != item.params
        for f in dataclasses.fields(quick):  # only the sizes change, and only downwards
            small, full = getattr(quick, f.name), getattr(item.params, f.name)
            if small != full:
                assert f"{item.run.__module__}:{item.run.__name__}" in figures.PREVIEWS
                if isinstance(full, tuple):
                    assert set(small) < set(full)
                elif isinstance(full, (int, float)):
                    assert small < full
                else:  # a quicker choice: the one PREVIEWS names
                    assert small == figures.PREVIEWS[f"{item.run.__module__}:{item.run.__name__}"][f.name]
        assert figures.preview_of(item.run, quick) is None  # a first look has no first look of its own
    assert looked >= 6  # t-SNE, instability, hubness, indexing, the grid, clustering, the SVMs


def test_the_first_look_says_what_it_changed():
    from ikviz.experiments import classification, dimensionality, tsne

    full = tsne.Params()
    text = figures._describe(full, figures.preview_of(tsne.run, full))
    assert "100" in text and str(full.n_per_cluster) in text and "points per cluster" in text
    text = figures._describe(classification.Params(), figures.preview_of(classification.run, classification.Params()))
    assert "sliders (the view: 5-fold CV)" in text
    full = dimensionality.InstabilityParams()
    quick = figures.preview_of(dimensionality.run_instability, full)
    assert max(quick.d_values) == quick.d_max == 300 and max(full.d_values) == 1000  # derived d_values follow


def test_a_view_without_a_first_look_or_already_small_is_left_alone():
    from ikviz.experiments import kernel_shapes, tsne

    assert figures.preview_of(kernel_shapes.run, kernel_shapes.Params()) is None
    assert figures.preview_of(tsne.run, tsne.Params(n_per_cluster=100)) is None


class _Everything:
    """Stands for the set of prepared views: every view is one."""

    def __contains__(self, key):
        return True


def test_a_page_shows_the_first_look_then_the_full_view_from_the_store(monkeypatch):
    """Kernel shapes (fast) made a view with a first look: the page computes both, and ends on the full view."""
    import store
    from apptest import charts, open_page

    from ikviz.experiments import kernel_shapes

    monkeypatch.setitem(figures.PREVIEWS, "ikviz.experiments.kernel_shapes:run", {"n": 500, "t": 50})
    monkeypatch.setattr(figures, "_prepared_views", lambda: _Everything())
    seed = 7919  # a view no other test computed in this process (the store is shared)
    at = open_page("kernel_shapes", seed=str(seed), n="1000", t="100")
    full = kernel_shapes.Params(seed=seed, n=1000, t=100)
    s = store.get_store()
    assert s.peek(kernel_shapes.run, full)[0]  # the full view was computed (and the page waited for it)
    assert s.peek(kernel_shapes.run, kernel_shapes.Params(seed=seed, n=500, t=50))[0]  # so was the first look
    texts = " ".join(str(e.value) for e in at.info)
    assert "First look" not in texts  # the page ended on the full view, drawn after the rerun
    assert charts(at)


def test_a_first_look_of_the_online_learners_says_it_did_not_tune_their_step_sizes():
    """The lu2016 / wang2017 tour steps: η at its slider's value, fewer rows, said in the note (a9a's step
    took 9.9 CPU-s before its figure with tuning at n = 2,000, 2.1 s without, benchmarks/first_look.py)."""
    from ikviz.experiments import online

    full = online.Params(dataset="a9a", n=10000)
    quick = figures.preview_of(online.run, full)
    assert quick.tune_eta is False and quick.n < full.n and quick.prefix <= quick.n
    assert quick.eta == full.eta  # the slider's step size, which the note does not need to name
    text = figures._describe(full, quick)
    assert "tune η per learner off (the view: on)" in text and "(the view: 10000)" in text
    assert "True" not in text and "False" not in text


_GATE = threading.Event()


def _hold(name: str) -> str:
    """A computation that holds a store worker until the test lets it go."""
    _GATE.wait(120)
    return name


def test_a_first_look_does_not_queue_behind_full_views_that_hold_every_worker(monkeypatch):
    """A lecture moves on before the full views of the steps it left are done: they hold the store's workers
    (computed to their end). The next step's first look is drawn all the same, computed in the page's thread."""
    import store
    from apptest import charts, open_page

    from ikviz.experiments import kernel_shapes

    monkeypatch.setitem(figures.PREVIEWS, "ikviz.experiments.kernel_shapes:run", {"n": 500, "t": 50})
    monkeypatch.setattr(figures, "_prepared_views", lambda: _Everything())
    s = store.get_store()
    seed = 7907  # a view no other test computed in this process (the store is shared)
    quick = kernel_shapes.Params(seed=seed, n=500, t=50)
    _GATE.clear()
    held = [s.submit(_hold, f"full view of an earlier step {i}-{seed}") for i in range(s.workers)]
    seen = {}

    def let_go():  # once the first look is held (or after 60 s), the workers are freed
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and not s.peek(kernel_shapes.run, quick)[0]:
            time.sleep(0.05)
        seen["first look while the workers were held"] = s.peek(kernel_shapes.run, quick)[0]
        _GATE.set()

    releaser = threading.Thread(target=let_go, daemon=True)
    releaser.start()
    try:
        at = open_page("kernel_shapes", seed=str(seed), n="1000", t="100")
    finally:
        _GATE.set()
        releaser.join(5)
        for job in held:
            s.release(job)
    assert seen["first look while the workers were held"]
    assert s.peek(kernel_shapes.run, kernel_shapes.Params(seed=seed, n=1000, t=100))[0]  # and the full view after
    assert charts(at)
