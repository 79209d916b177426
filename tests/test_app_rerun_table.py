"""The browser benchmark's bookkeeping (benchmarks/app_rerun.py): medians over tabs and the checks of the picture."""

import sys
from pathlib import Path

import pytest

pytest.importorskip("playwright")
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
import app_rerun  # noqa: E402


def test_medians_over_tabs_keep_a_failed_picture_check_and_the_first_tabs_new_value():
    tabs = [{"page": "p", "new_value_s": 1.5, "new_value_redrawn": True, "back_s": 0.4, "back_restored": True},
            {"page": "p", "new_value_s": 0.2, "new_value_redrawn": True, "back_s": 0.6, "back_restored": False},
            {"page": "p", "new_value_s": 0.3, "new_value_redrawn": True, "back_s": 0.5, "back_restored": True}]
    row = app_rerun.median_row(tabs)
    assert row["new_value_s"] == 1.5  # the first tab's: later tabs move to a value it computed
    assert row["back_s"] == 0.5
    assert row["back_restored"] is False  # one tab in three kept the old picture: not a median of booleans
    assert row["new_value_redrawn"] is True


def test_the_table_says_when_a_fast_move_left_the_picture_as_it_was(capsys):
    app_rerun.print_table([{"page": "p", "new_value_s": 0.3, "new_value_redrawn": False, "back_s": 0.2,
                            "back_restored": False},
                           {"page": "q", "new_value_s": 0.9, "new_value_redrawn": True, "back_s": 0.4,
                            "back_restored": True}])
    p_row, q_row = [line for line in capsys.readouterr().out.splitlines() if line.startswith(("| p |", "| q |"))]
    assert "0.3 (no figure changed)" in p_row and "0.2 (figures not as before!)" in p_row
    assert "(" not in q_row


def test_a_first_look_is_marked_and_counted_from_the_first_tab_alone(capsys):
    tabs = [{"page": "tsne", "first_first_figure_s": 4.0, "first_first_look": True},
            {"page": "tsne", "first_first_figure_s": 1.5, "first_first_look": False},
            {"page": "tsne", "first_first_figure_s": 1.4, "first_first_look": False}]
    row = app_rerun.median_row(tabs)
    assert row["first_first_look"] is True  # the later tabs found the full view computed
    app_rerun.print_table([row, {"page": "density", "first_first_figure_s": 2.0, "first_first_look": False}])
    out = capsys.readouterr().out
    assert "| tsne | 1.5 (first look) |" in out and "| density | 2.0 |" in out
