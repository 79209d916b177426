"""Control values read from a shared link: every value is checked, corrected to the nearest valid one, and said so."""

import sys
from dataclasses import replace
from pathlib import Path

import pytest

from apptest import open_page
from ikviz.experiments import kernel_shapes
from ikviz.params import Setting
from ikviz.params import parse as params_parse

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "app"))
import ui  # noqa: E402  (the app's modules import each other by bare name)

PSI = [2, 4, 8, 16, 32, 64, 128, 256, 512, 1024]
GAMMAS = ["per data set", *[2.0 ** m for m in range(-10, 6)]]  # the online tab's γ: a string and floats


def parse(raw, default, **kw):
    spec = Setting("x", default, "x", choices=kw.get("options"), low=kw.get("min_value"), high=kw.get("max_value"))
    return params_parse(spec, raw)


# --- values that fit are used unchanged, with no notice ---------------------------------------------------

@pytest.mark.parametrize("raw, default, kw, expected", [
    ("1", False, {}, True), ("off", True, {}, False), ("TRUE", False, {}, True),
    ("7", 0, dict(min_value=0, max_value=10_000), 7),
    ("1e3", 0, dict(min_value=0, max_value=10_000), 1000),   # a whole number, however written
    ("-0.25", 0.0, dict(min_value=-1.0, max_value=1.0), -0.25),
    ("1", 0.0, dict(min_value=-1.0, max_value=1.0), 1.0),    # the bound itself is in range
    ("128", 64, dict(options=PSI), 128),
    ("128.0", 64, dict(options=PSI), 128),
    ("0.125", "per data set", dict(options=GAMMAS), 0.125),
    ("0.0009765625", "per data set", dict(options=GAMMAS), 2.0 ** -10),
    ("per data set", "per data set", dict(options=GAMMAS), "per data set"),
    ("w_gaussians", "letter", dict(options=["letter", "w-gaussians"]), "w-gaussians"),  # old spelling
    ("2", "scaled", dict(options=["scaled", 0.5, 1, 2, 5]), 2),
    ("some/path.csv", "", {}, "some/path.csv"),
])
def test_values_that_fit_are_used_unchanged(raw, default, kw, expected):
    value, problem = parse(raw, default, **kw)
    assert value == expected and type(value) is type(expected) and problem is None


# --- values that do not fit: the nearest valid value, or the default, and a reason ------------------------

@pytest.mark.parametrize("raw, expected", [
    ("inf", 10_000), ("1e400", 10_000), ("Infinity", 10_000), ("-inf", 0), ("-1e400", 0),
    ("nan", 5), ("NaN", 5), ("banana", 5), ("", 5),
    ("20000", 10_000), ("-3", 0), ("2.6", 3),
])
def test_integer_with_bounds(raw, expected):
    value, problem = parse(raw, 5, min_value=0, max_value=10_000)
    assert value == expected and type(value) is int and problem


@pytest.mark.parametrize("raw, expected", [
    ("inf", 1.0), ("-inf", -1.0), ("nan", 0.0), ("1e400", 1.0), ("7", 1.0), ("-1.5", -1.0), ("x", 0.0),
])
def test_float_with_bounds(raw, expected):
    value, problem = parse(raw, 0.0, min_value=-1.0, max_value=1.0)
    assert value == expected and type(value) is float and problem


def test_unbounded_numbers_never_become_infinite_or_too_large_for_the_widget():
    assert parse("inf", 2.5) == (2.5, "not a finite number")
    assert parse("-inf", 2.5)[0] == 2.5
    value, problem = parse("1e400", 3)
    assert value == 2 ** 53 - 1 and problem  # Streamlit's number_input refuses larger integers


@pytest.mark.parametrize("raw, expected", [
    ("100", 128), ("90", 64), ("3", 2), ("1e9", 1024), ("inf", 1024), ("1e400", 1024), ("-inf", 2),
    ("0", 2), ("nan", 64), ("banana", 64), ("16.5", 16),
])
def test_numeric_option_becomes_the_nearest_option(raw, expected):
    value, problem = parse(raw, 64, options=PSI)
    assert value == expected and problem


def test_mixed_string_and_float_options():
    assert parse("0.12", "per data set", options=GAMMAS) == (0.125, "not one of the choices")
    assert parse("inf", "per data set", options=GAMMAS)[0] == 32.0
    assert parse("nan", "per data set", options=GAMMAS)[0] == "per data set"
    assert parse("per-dataset", "per data set", options=GAMMAS)[0] == "per data set"


def test_string_options_fall_back_to_the_default():
    assert parse("spectral2", "spectral", options=["spectral", "dbscan"]) == ("spectral", "not one of the choices")
    assert parse("1", "spectral", options=["spectral", "dbscan"])[0] == "spectral"


def test_booleans_other_than_on_or_off_keep_the_default():
    assert parse("maybe", True) == (True, "not on or off")
    assert parse("2", False)[0] is False


@pytest.mark.parametrize("raw", ["inf", "-inf", "nan", "1e400", "-1e400", "1e-400", "0x10", "１２", "💥", " ", "1_0"])
@pytest.mark.parametrize("default, kw", [
    (0, dict(min_value=0, max_value=10_000)), (0.0, dict(min_value=-1.0, max_value=1.0)), (0, {}), (0.0, {}),
    (64, dict(options=PSI)), ("per data set", dict(options=GAMMAS)), (False, {}), ("x", {}),
])
def test_never_raises(raw, default, kw):
    value, _ = parse(raw, default, **kw)
    if "options" in kw:
        assert value in kw["options"]
    elif isinstance(default, (int, float)) and not isinstance(default, bool):
        assert abs(value) <= 2 ** 53 and value == value  # finite, not nan
        assert kw.get("min_value", -2 ** 53) <= value <= kw.get("max_value", 2 ** 53)


# --- the page: no traceback, one notice naming the parameter, the given and the used value ----------------

FULL_RUN = kernel_shapes.run


def small_kernel_shapes(p, *, memo=None, progress=None):
    """The kernel-shapes run on little data (module level: the results store names functions by module and name)."""
    small = replace(p, n=min(p.n, 200), psi=min(p.psi, 200), t=min(p.t, 20), grid=11,
                    psi_large=min(p.psi_large, 200), partition=min(p.partition, 19))
    return FULL_RUN(small, memo=memo, progress=progress)


@pytest.fixture(autouse=True)
def _small_computations(monkeypatch):
    """These tests check the link handling, not the kernels."""
    monkeypatch.setattr(kernel_shapes, "run", small_kernel_shapes)


def notices(at):
    return [w.value for w in at.warning if "link" in w.value]


def test_bad_link_values_are_corrected_and_listed_once():
    at = open_page("kernel_shapes", psi="inf", seed="1e400", ref_x="nan", n="1900", t="500")
    assert not at.error, [e.value for e in at.error]
    assert at.select_slider(key="_w_psi").value == 1024
    assert at.number_input(key="_w_seed").value == 10_000
    assert at.slider(key="_w_ref_x").value == 0.0
    assert at.select_slider(key="_w_n").value == 2000
    assert at.select_slider(key="_w_t").value == 500
    [notice] = notices(at)  # one warning for all corrections
    for given, used in [("psi=inf", "psi=1024"), ("seed=1e400", "seed=10000"), ("ref_x=nan", "ref_x=0.0"),
                        ("n=1900", "n=2000")]:
        assert f"`{given}` → `{used}`" in notice
    assert "t=" not in notice  # a value that fits is not mentioned
    # the link now holds the values used, and the notice goes once the reader moves on
    assert at.query_params["psi"] == "1024" and at.query_params["seed"] == "10000"
    at.select_slider(key="_w_t").set_value(200).run()
    assert not at.exception and not notices(at)


def test_good_link_gives_no_notice():
    at = open_page("kernel_shapes", psi="16", seed="3", ref_x="0.5", cells="0")
    assert not notices(at) and at.select_slider(key="_w_psi").value == 16


def test_bad_presentation_flag_is_reported_on_the_first_page():
    at = open_page(present="maybe")
    assert at.toggle(key="_w_present").value is False
    assert any("`present=maybe` → `present=0`" in n for n in notices(at))


def test_a_run_writes_the_link_once_and_only_what_changed(monkeypatch):
    """Each change of st.query_params is a message on which the browser adds a history entry and re-renders
    the whole app: written control by control, opening the Classification lab from a bare link took 19
    presses of the browser's Back button to leave it."""
    from streamlit.runtime.state.query_params import QueryParams

    sent = []
    send = QueryParams._send_query_param_msg
    monkeypatch.setattr(QueryParams, "_send_query_param_msg", lambda self: (sent.append(dict(self)), send(self)))
    # the view computed once first: on an empty store the page shows a first look and reruns with the full view,
    # and AppTest starts that rerun from the link it was opened with (a server keeps the session's link)
    open_page("classification")
    at = open_page()
    sent.clear()
    at.switch_page("views/classification.py").run()
    assert not at.exception
    [link] = sent  # every control, one message
    assert {"section": "SVM", "data": "density-ratio", "tuning": "cv", "t": "100", "seeds": "5"}.items() <= link.items()
    assert "psi" not in link  # CV picks ψ: the fixed ψ does not apply, and neither its control nor its link value is
    sent.clear()
    at.run()  # nothing changed: nothing sent
    assert sent == []
    at.select_slider(key="_w_t").set_value(200).run()
    assert len(sent) == 1 and sent[0]["t"] == "200" and sent[0]["grid"] == "ting2018"
    assert at.query_params["t"] == "200"


def test_a_page_that_stops_early_still_writes_its_link():
    at = open_page("clustering", show_ik="0", show_gk="0", show_ag="0")
    assert any("Tick at least one measure" in i.value for i in at.info)  # the page stopped there (st.stop)
    assert at.query_params["alg"] == "spectral" and at.query_params["mode"] == "fixed"
    assert at.query_params["show_gk"] == "0"
