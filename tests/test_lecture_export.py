"""Take the lecture home: each view as a ``.py`` script and a Jupyter notebook that recompute and draw it."""

import json
import subprocess
import sys
from pathlib import Path

import plotly.graph_objects as go
import pytest

from ikviz.experiments import kernel_shapes
from ikviz.export import notebook, python_script, python_snippet
from ikviz.plots import kernel_shapes as shape_plots

ROOT = Path(__file__).resolve().parents[1]
TINY = kernel_shapes.Params(n=120, psi=8, t=10, grid=7, partition=2, psi_small=4, psi_large=16, seed=3)


@pytest.fixture(scope="module")
def tiny():
    return kernel_shapes.run(TINY)


def _data(figs) -> list:
    """What the figures draw (their traces as JSON), to compare two computations value for value."""
    return [json.loads(f.to_json())["data"] for f in figs]


def _run_cells(doc: dict, monkeypatch) -> dict:
    """Execute the notebook's code cells in order in one namespace, as a kernel would (fig.show() recorded)."""
    shown = []
    monkeypatch.setattr(go.Figure, "show", lambda self, *a, **k: shown.append(self))
    scope = {"__name__": "__main__"}
    for cell in doc["cells"]:
        if cell["cell_type"] == "code":
            exec(compile("".join(cell["source"]), "<cell>", "exec"), scope)
    scope["_shown"] = shown
    return scope


def test_the_notebook_is_valid_nbformat_4_and_its_cells_recompute_and_show_the_view(tiny, monkeypatch):
    text = notebook(kernel_shapes.run, TINY, draw=(shape_plots.contour_figure, (tiny, "ik_anne"), {}),
                    result=tiny, title="Kernel shapes · IK (aNNE)")
    doc = json.loads(text)
    assert doc["nbformat"] == 4 and doc["nbformat_minor"] >= 4 and doc["metadata"]["kernelspec"]["name"] == "python3"
    for cell in doc["cells"]:
        assert {"cell_type", "id", "metadata", "source"} <= set(cell) and isinstance(cell["source"], list)
        if cell["cell_type"] == "code":
            assert cell["outputs"] == [] and cell["execution_count"] is None
    assert len({c["id"] for c in doc["cells"]}) == len(doc["cells"])
    try:   # the official validator, where it is installed
        import nbformat
    except ImportError:
        pass
    else:
        nbformat.validate(nbformat.reads(text, as_version=4))
    scope = _run_cells(doc, monkeypatch)
    assert scope["params"] == TINY
    expected = shape_plots.contour_figure(tiny, "ik_anne")
    assert _data(scope["figures"]) == _data([expected])          # the same figure, value for value
    assert scope["_shown"] == scope["figures"]                    # the last cell shows them


def test_the_script_runs_on_its_own_and_writes_the_figures_to_html(tiny, tmp_path):
    code = python_script(kernel_shapes.run, TINY, draw=shape_plots.figures, title="Kernel shapes")
    compile(code, "view.py", "exec")
    script = tmp_path / "kernel-shapes.py"
    script.write_text(code, encoding="utf-8")
    done = subprocess.run([sys.executable, str(script)], cwd=tmp_path, capture_output=True, text=True, timeout=300,
                          env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin", "HOME": str(tmp_path)})
    assert done.returncode == 0, done.stderr[-2000:]
    n = len(shape_plots.figures(tiny))
    assert f"{n} figure(s) written" in done.stdout
    page = (tmp_path / "kernel-shapes.html").read_text(encoding="utf-8")
    assert page.count('class="plotly-graph-div"') == n and "plotly.js" in page.lower()


def test_the_script_holds_the_snippet_and_draws_the_figure_of_a_field_of_the_result(tiny):
    snippet = python_snippet(kernel_shapes.run, TINY)
    code = python_script(kernel_shapes.run, TINY, draw=(shape_plots.sharpness_figure, (tiny.sharpness,), {}),
                         result=tiny)
    assert all(line in code for line in snippet.splitlines() if line)
    assert "drawn = sharpness_figure(result.sharpness)" in code
    scope = {"__name__": "imported"}
    exec(code, scope)
    assert _data(scope["figures"]) == _data([shape_plots.sharpness_figure(tiny.sharpness)])


def test_without_a_builder_the_registered_reproduction_draws_and_computed_numbers_are_never_inlined(tiny):
    code = python_script(kernel_shapes.run, TINY)
    assert "figures = get('kernel-shapes').figures(result)" in code
    # a builder argument that is not the result (nor a field of it) and is big would copy numbers: not written
    copied = python_script(kernel_shapes.run, TINY, draw=(shape_plots.sharpness_figure, (tiny.sharpness,), {}))
    assert "get('kernel-shapes')" in copied and "sharpness_figure(" not in copied
    # a function with no reproduction and no builder still computes, with an empty list of figures
    assert "figures = []" in python_script(abs, -3)
