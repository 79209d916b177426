"""The kernel-shapes experiment, its figures, the reproduce registry and the CLI."""

import json

import numpy as np
import pytest

from ikviz import cli, reproduce
from ikviz.experiments import kernel_shapes as exp
from ikviz.plots import kernel_shapes as plots

QUICK = exp.Params(n=1100, t=100, grid=41)


@pytest.fixture(scope="module")
def result():
    return exp.run(QUICK)


def test_surfaces_peak_at_the_reference(result):
    centre = len(result.axis) // 2  # the grid point (0, 0), the default reference
    assert result.axis[centre] == 0.0
    for name, z in result.surfaces.items():
        assert z.shape == (41, 41)
        assert z.min() >= 0 and z.max() <= 1
        if name == "ik_inne":  # K(x, x) is the share of partitionings whose balls cover x
            assert z[centre, centre] == z.max() and 0.5 < z[centre, centre] < 1, name
        else:
            assert z[centre, centre] == pytest.approx(1.0), name


def test_ik_resembles_laplacian_more_than_rbf(result):
    rmse = exp.summary(result)["rmse_vs_laplacian_psi"]
    assert rmse["laplacian_psi"] == 0
    assert rmse["ik_iforest"] < rmse["rbf"] / 2


def test_larger_psi_gives_sharper_kernel(result):
    widths = exp.summary(result)["sharpness_half_width"]
    psis = sorted(widths)
    assert psis == [8, 64, 1024]
    assert widths[8] > widths[64] > widths[1024]


def test_moving_the_reference_moves_the_peak():
    z = exp.kernel_surface("ik_anne", n=500, psi=16, t=100, gamma=1, ref=(0.5, -0.5), grid=21, seed=0)
    iy, ix = np.unravel_index(np.argmax(z), z.shape)
    axis = exp.grid_axis(21)
    assert (axis[ix], axis[iy]) == (0.5, -0.5)


def test_figures_have_contours_cells_and_reference(result):
    figs = plots.figures(result)
    assert len(figs) == len(exp.KERNELS) + 1
    voronoi = plots.contour_figure(result, "ik_anne", show_cells=True, clickable=True)
    names = [tr.name for tr in voronoi.data]
    assert {"cells", "sampled points", "click target", "reference"} <= set(names)
    # every 0.1 of the plane answers a click (a selected marker), but the browser draws one of them
    target = next(tr for tr in voronoi.data if tr.name == "click target")
    assert target.mode == "markers" and target.marker.maxdisplayed == 1
    assert result.axis[0] == -1 and result.axis[-1] == 1 and len(target.x) == 21 ** 2
    boxes = plots.contour_figure(result, "ik_iforest")
    cells = next(tr for tr in boxes.data if tr.name == "cells")
    assert sum(v is None for v in cells.x) == len(result.partitions["ik_iforest"].boxes)


def test_reproduce_writes_json_and_standalone_html(tmp_path):
    paths = reproduce.reproduce("kernel-shapes", tmp_path, quick=True)
    payload = json.loads(paths["json"].read_text())
    assert payload["experiment"] == "kernel-shapes" and payload["quick"] is True
    assert set(payload["surfaces"]) == set(exp.KERNELS)
    assert payload["summary"]["rmse_vs_laplacian_psi"]["ik_iforest"] < 0.2
    html = paths["html"].read_text()
    assert html.count("plotly.js") >= 1 and "kernel-shapes" in html


def test_cli_list_and_errors(capsys, tmp_path):
    assert cli.main(["reproduce", "--list"]) == 0
    assert "kernel-shapes" in capsys.readouterr().out
    assert cli.main(["reproduce", "no-such-thing", "--out", str(tmp_path)]) == 2
    assert "unknown experiment" in capsys.readouterr().err
    assert cli.main([]) == 0
    assert "reproduce" in capsys.readouterr().out


@pytest.mark.slow
def test_console_script_reproduces_on_an_install(tmp_path):
    import subprocess
    import sys
    from pathlib import Path

    exe = Path(sys.executable).parent / "ikviz"  # the script installed beside this interpreter
    if not exe.exists():
        pytest.skip("the ikviz console script is not installed beside this Python")
    out = subprocess.run([str(exe), "reproduce", "kernel-shapes", "--quick", "--out", str(tmp_path)],
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    import json
    payload = json.loads((tmp_path / "kernel-shapes.json").read_text())
    assert payload["experiment"] == "kernel-shapes" and payload["quick"] is True
    assert "<h1>kernel-shapes</h1>" in (tmp_path / "kernel-shapes.html").read_text()


def test_moving_the_reference_point_refits_nothing():
    import sys
    from dataclasses import replace
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "app"))
    from store import ResultsStore

    store = ResultsStore(workers=1)
    p = exp.Params(n=300, psi=16, t=20, grid=15, psi_large=64)
    first = exp.run(p, memo=store.memo)
    fitted = store.computed
    moved = exp.run(replace(p, ref_x=0.5), memo=store.memo)
    # only the 6 surfaces and the 3 sharpness profiles depend on the point: no kernel or grid cells again
    assert store.computed - fitted == len(exp.KERNELS) + 3
    assert not np.array_equal(first.surfaces["ik_anne"], moved.surfaces["ik_anne"])
    np.testing.assert_array_equal(exp.run(replace(p, ref_x=0.5)).surfaces["ik_anne"], moved.surfaces["ik_anne"])
