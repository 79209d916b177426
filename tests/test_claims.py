"""The claims table: verdict rules, each check on payloads shaped like the reproductions', the page."""

import json
import re
from pathlib import Path

import pytest

from apptest import open_page
from ikviz import claims, reproduce

APP = Path(__file__).resolve().parents[1] / "app"


def test_verdict_rules_follow_the_paper_gap():
    assert claims.direction(0.4, 0.6) == "holds"
    assert claims.direction(0.2, 0.6) == "holds, smaller"
    assert claims.direction(0.005, 0.6) == "does not reproduce"   # within the tolerance: no difference
    assert claims.direction(-0.3, 0.6) == "does not reproduce"
    assert claims.direction(float("nan")) == "does not reproduce"
    assert claims.across({"a": "holds", "b": "holds"}) == "holds"
    assert claims.across({"a": "holds", "b": "does not reproduce"}) == "setting-dependent"
    with pytest.raises(ValueError, match="verdict must be one of"):
        claims.Finding("x", "maybe")


def test_every_claim_names_a_reproduction_a_paper_and_a_page_of_the_app():
    pages = set(re.findall(r'url_path="([^"]+)"', (APP / "Home.py").read_text()))
    keys = [c.key for c in claims.CLAIMS]
    assert len(keys) == len(set(keys))
    for c in claims.CLAIMS:
        assert c.reproduction in reproduce.names(), c.key
        assert c.paper in ("ting2018", "ting2021", "lu2016", "wang2017")
        assert c.page.split("?")[0] in pages, c.page
        assert c.statement and c.paper_number and c.condition
    assert {c.paper for c in claims.CLAIMS} >= {"ting2018", "ting2021", "wang2017"}


@pytest.mark.parametrize("claim", claims.CLAIMS, ids=lambda c: c.key)
def test_every_claim_link_is_read_as_given_by_its_page(claim, monkeypatch):
    """A claim's link opens its page with each of its values (computations skipped: the controls only)."""
    from urllib.parse import parse_qsl, urlsplit

    import sys

    sys.path.insert(0, str(APP))
    import store

    from ikviz.runner import Cancelled

    def cancelled(fn, *args, **kwargs):
        raise Cancelled("skipped in this test")

    monkeypatch.setattr(store, "compute", cancelled)
    url = urlsplit(claim.page)
    query = dict(parse_qsl(url.query))
    at = open_page(url.path.replace("-", "_"), **query)
    assert not at.exception
    notices = " ".join(w.value for w in at.warning)
    assert "could not be used as given" not in notices, notices
    for key, value in query.items():
        assert at.query_params[key] == value, (key, at.query_params.get(key))


def _hubness(gk_hi, ik_hi):
    return {"experiment": "hubness", "quick": True, "params": {},
            "skewness": {"gk": {"3": 0.3, "100": gk_hi}, "ik": {"3": 0.2, "100": ik_hi}}}


def test_hubness_claim_reads_the_numbers():
    [row] = claims.rows_for(_hubness(2.5, 0.8))
    assert row.verdict == "holds" and "2.50" in row.ikviz and row.quick
    [row] = claims.rows_for(_hubness(0.4, 0.3))        # GK's skew does not grow with d
    assert row.verdict == "does not reproduce"
    [row] = claims.rows_for(_hubness(2.5, 2.4))        # both skew alike: IK no better
    assert row.verdict == "does not reproduce"


def test_a_grid_that_rescues_the_gaussian_kernel_makes_table4_setting_dependent():
    def rows(rbf_2018, rbf_2021):
        return {"experiment": "svm-wgaussians", "params": {"w": 5000},
                "ting2018": [{"kernel": "linear", "accuracy": 0.49}, {"kernel": "rbf", "accuracy": rbf_2018},
                             {"kernel": "ik-linear", "accuracy": 1.0}],
                "ting2021": [{"kernel": "linear", "accuracy": 0.49}, {"kernel": "rbf", "accuracy": rbf_2021},
                             {"kernel": "ik-linear", "accuracy": 1.0}]}
    assert claims.rows_for(rows(0.6, 0.5))[0].verdict == "holds"
    assert claims.rows_for(rows(1.0, 0.5))[0].verdict == "setting-dependent"


def test_fig2_judges_the_voronoi_ik_and_shows_the_iforest_one_beside_it():
    def fig2(rows):
        return next(r for r in claims.rows_for(rows) if r.key == "ting2021-fig2")
    ami = {"spectral": {"ik_anne": {"1": 0.31}, "ag": {"1": 0.30}, "ik_iforest": {"1": 0.92}},
           "density_peaks": {"ik_anne": {"1": 0.7}, "distance": {"1": 0.4}, "ag": {"1": 0.4}}}
    payload = {"experiment": "clustering-wgaussians", "ami": ami,
               "table3": {"dp": {"distance": {"1": 0.4}, "ag": {"1": 0.4}, "ik": {"1": 0.7}},
                          "sc": {"gk": {"1": 0.2}, "ag": {"1": 0.3}, "ik": {"1": 0.31}}}}
    row = fig2(payload)
    assert row.verdict == "does not reproduce" and "iForest IK 0.92" in row.ikviz
    ami["spectral"]["ik_anne"]["1"] = 0.9
    assert fig2(payload).verdict == "holds"


def test_density_ratio_fpr_by_generator():
    def payload(uniform_gap, gaussian_gap):
        stats = lambda gap: {"10": {"mean": -gap, "std": 0.0, "seeds_ik_lower": 3}}  # noqa: E731
        return {"experiment": "svm-density-ratio",
                "fpr_ik_minus_rbf": {"uniform": stats(uniform_gap), "gaussian": stats(gaussian_gap)}}
    assert claims.rows_for(payload(0.0, 0.02))[0].verdict == "setting-dependent"
    assert claims.rows_for(payload(0.02, 0.02))[0].verdict == "holds"


def test_a_check_that_cannot_read_its_number_says_so_instead_of_raising():
    [row] = claims.rows_for({"experiment": "hubness", "skewness": {}})
    assert row.verdict == "does not reproduce" and row.ikviz.startswith("not measured") and not row.measured
    assert "(1 not measured)" in claims.summary([row])


def test_claims_are_checked_on_a_real_reproduction_and_written_as_json(tmp_path):
    payload = reproduce.payload("hubness", quick=True, n=300, d_values=(3, 50))
    rows = claims.rows_for(payload)
    assert [r.key for r in rows] == ["ting2021-appE"]
    assert rows[0].params["n"] == 300
    paths = claims.write(rows, tmp_path, quick=True)
    data = json.loads(paths["json"].read_text())
    assert data["claims"][0]["verdict"] == rows[0].verdict and data["quick"] is True
    assert "ting2021-appE" not in paths["html"].read_text() and "App. E" in paths["html"].read_text()


def fake_check(name, quick=True, *, progress=None):
    """Stand-in rows: the page's layout, not the reproductions, is under test here."""
    return [claims.Row(c.key, c.paper, c.where, c.statement, c.paper_number, f"{name} measured", 0.5,
                       "holds" if i % 2 else "does not reproduce", c.condition, c.page, name, quick)
            for i, c in enumerate(claims.claims(name))]


def test_claims_page_lists_every_claim_with_verdicts_and_links(monkeypatch):
    monkeypatch.setattr(claims, "check_reproduction", fake_check)
    at = open_page("claims")
    [table] = at.dataframe
    assert len(table.value) == len(claims.CLAIMS)
    assert set(table.value["verdict"]) == {"holds", "does not reproduce"}
    counts = {m.label: int(m.value) for m in at.metric}
    assert counts["holds"] == sum(table.value["verdict"] == "holds") > 0
    assert sum(counts.values()) == len(claims.CLAIMS)


def test_claims_page_filters_by_paper(monkeypatch):
    monkeypatch.setattr(claims, "check_reproduction", fake_check)
    at = open_page("claims", paper="wang2017")
    [table] = at.dataframe
    assert set(table.value["paper"]) == {"wang2017"}


def test_a_full_size_run_replaces_the_reduced_rows_for_every_visitor(monkeypatch):
    import sys

    sys.path.insert(0, str(APP))
    import store

    monkeypatch.setattr(claims, "check_reproduction", fake_check)
    store.get_store().call(fake_check, ("hubness", False), {})   # someone ran hubness at full size
    at = open_page("claims")
    sizes = {(row["where"], row["size"]) for _, row in at.dataframe[0].value.iterrows()}
    assert ("App. E, Fig. 5 (ψ = 32, σ = 5)", "full") in sizes
    assert sum(size == "full" for _, size in sizes) == 1
