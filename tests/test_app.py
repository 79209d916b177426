"""The Streamlit pages, driven headless with AppTest."""

import json
from dataclasses import replace

import pytest

from apptest import charts, open_page
from ikviz.experiments import kernel_shapes

FULL_RUN = kernel_shapes.run


def small_kernel_shapes(p, *, memo=None, progress=None):
    """The kernel-shapes run on a tenth of the data and a coarse grid: these tests check layout and links."""
    small = replace(p, n=min(p.n, 200), psi=min(p.psi, 200), t=min(p.t, 20), grid=11,
                    psi_large=min(p.psi_large, 200), partition=min(p.partition, 19))
    return FULL_RUN(small, memo=memo, progress=progress)


@pytest.fixture(autouse=True)
def _small_computations(request, monkeypatch):
    if "full" not in request.keywords:
        monkeypatch.setattr(kernel_shapes, "run", small_kernel_shapes)


def test_home_explains_ik_and_lists_pages():
    at = open_page()
    text = " ".join(m.value for m in at.markdown)
    assert "Isolation Kernel" in text and "ψ" in text and "Kernel shapes" in text
    assert at.toggle(key="_w_present").value is False


def test_no_pages_directory_beside_the_entry_script():
    # Streamlit serves a pages/ directory's scripts bare (no navigation, no shared controls) when a
    # shared link such as /classification names one, even with st.navigation: keep them in views/
    from pathlib import Path
    app = Path(__file__).resolve().parents[1] / "app"
    assert (app / "views").is_dir() and not (app / "pages").exists()


def test_kernel_shapes_renders_all_panels_and_keeps_state_in_url():
    at = open_page("kernel_shapes")
    assert len(charts(at)) == 7  # six kernels and the sharpness figure
    assert not at.error
    assert at.query_params["psi"] == "64"
    at.select_slider(key="_w_psi").set_value(16).run()
    at.slider(key="_w_ref_x").set_value(0.5).run()
    assert not at.exception
    assert at.query_params["psi"] == "16" and at.query_params["ref_x"] == "0.5"
    assert len(charts(at)) == 7


def test_kernel_shapes_draws_psi_side_by_side_on_request_from_what_is_held():
    at = open_page("kernel_shapes", psi="16", ref_x="0.35")     # settings no other test computes
    assert not charts(at, multiples=True)[7:], "drawn without being asked for"
    at.toggle(key="_w_over_psi").set_value(True).run()
    assert at.query_params["over_psi"] == "1" and not charts(at, multiples=True)[7:]
    assert any("Only ψ = 16 is computed" in c.value for c in at.caption)
    at.select_slider(key="_w_psi").set_value(32).run()
    over = charts(at, multiples=True)[7:]
    assert [c.id.rsplit("-", 1)[-1] for c in over] == ["chart_over_psi"]
    titles = [a["text"] for a in json.loads(over[0].spec)["layout"]["annotations"]]
    assert titles[:2] == ["ψ = 16", "ψ = 32"]
    assert not at.exception


def test_figures_reach_the_browser_as_plotly_json_and_only_the_contours_take_clicks():
    at = open_page("kernel_shapes", psi="16")
    shown = {c.id.rsplit("-", 1)[-1]: c for c in charts(at)}
    assert len(shown) == 7 and all(json.loads(c.spec)["data"] for c in shown.values())
    sharpness = shown.pop("chart_sharpness")
    assert not sharpness.clickable and all(c.clickable for c in shown.values())
    # a click moves the reference, so the contours' toolbar keeps the camera alone
    assert {json.dumps(c.config["modeBarButtons"]) for c in shown.values()} == {'[["toImage"]]'}
    assert "modeBarButtons" not in sharpness.config and sharpness.config["displaylogo"] is False
    assert sharpness.config["toImageButtonOptions"]["filename"] == "kernel-shapes-chart_sharpness"


def test_a_figure_already_shown_is_sent_again_without_being_built(monkeypatch):
    import functools

    from ikviz.plots import kernel_shapes as plots

    built = []
    for name in ("contour_figure", "sharpness_figure"):
        def counted(*args, _build=getattr(plots, name), **kwargs):
            built.append(_build.__name__)
            return _build(*args, **kwargs)
        monkeypatch.setattr(plots, name, functools.wraps(getattr(plots, name))(counted))

    at = open_page("kernel_shapes", psi="8", ref_x="0.35", t="50")
    first = [c.spec for c in charts(at)]
    assert len(built) == 7
    at.slider(key="_w_ref_x").set_value(0.4).run()
    assert [c.spec for c in charts(at)] != first and len(built) == 14  # every figure follows the reference
    at.slider(key="_w_ref_x").set_value(0.35).run()  # back: the figures of the first run, none built again
    assert [c.spec for c in charts(at)] == first and len(built) == 14
    other = open_page("kernel_shapes", psi="8", ref_x="0.35", t="50")  # another viewer of the same link
    assert [c.spec for c in charts(other)] == first and len(built) == 14
    other.toggle(key="_w_data").set_value(True).run()  # the data points change the contours, not the sharpness
    assert built[14:] == ["contour_figure"] * 6 and [c.spec for c in charts(other)][6] == first[6]


def test_shared_link_restores_the_view_and_ignores_bad_values():
    at = open_page("kernel_shapes", psi="16", t="500", ref_y="-0.25", gamma="banana", n="77")
    assert at.select_slider(key="_w_psi").value == 16
    assert at.select_slider(key="_w_t").value == 500
    assert at.slider(key="_w_ref_y").value == -0.25
    assert at.select_slider(key="_w_gamma").value == 1.0  # not a number: default
    assert at.select_slider(key="_w_n").value == 500       # not an offered option: the nearest one
    notice = " ".join(w.value for w in at.warning)
    assert "`gamma=banana` → `gamma=1.0`" in notice and "`n=77` → `n=500`" in notice


def test_presentation_mode_hides_controls_but_keeps_values():
    at = open_page("kernel_shapes", psi="32")
    at.toggle(key="_w_present").set_value(True).run()
    assert not at.exception
    assert len(at.select_slider) == 0 and len(at.slider) == 0
    assert len(charts(at)) == 1  # one figure at a time, the pager picks it
    assert at.query_params["present"] == "1" and at.query_params["psi"] == "32"
    at.toggle(key="_w_present").set_value(False).run()
    assert at.select_slider(key="_w_psi").value == 32


def test_psi_above_n_is_explained_not_an_error():
    at = open_page("kernel_shapes", psi="1024", n="500")
    assert any("using ψ = 500" in i.value for i in at.info)
    assert not at.error and len(charts(at)) == 7


@pytest.mark.full
@pytest.mark.parametrize("t", ["10", pytest.param("2000", marks=pytest.mark.slow)])
def test_extreme_settings_render(t):  # the real computation: extreme settings must not break it
    at = open_page("kernel_shapes", t=t, part="1999", seed="9999")
    assert not at.error and len(charts(at)) == 7


def test_pages_keep_separate_values_for_the_same_parameter():
    at = open_page("kernel_shapes", psi="1024")
    at.query_params.clear()  # a browser's page switch drops the previous page's link values
    at.switch_page("views/density.py").run()
    assert not at.exception
    assert at.select_slider(key="_w_psi").value == 32  # the density page's own default, not 1024
