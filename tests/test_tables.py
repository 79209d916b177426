"""A page's result tables: Markdown (app/ui.py's ``table``), not a data grid whose code every new tab must load."""

import math
import sys
from pathlib import Path

import pytest

import apptest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "app"))
import ui  # noqa: E402  (the app's modules import each other by bare name)

ROWS = [{"kernel": "SVC, Gaussian (RBF)", "parameter": "gamma = 2^-2", "accuracy": 0.9123, "FNR": None},
        {"kernel": "IK | L_ψ *fast* $x$", "parameter": "–", "accuracy": 0.8, "FNR": math.nan}]


def test_rows_and_columns_give_the_same_table():
    columns = {name: [row[name] for row in ROWS] for name in ROWS[0]}
    assert ui.markdown_table(ROWS) == ui.markdown_table(columns)


def test_numbers_are_aligned_right_and_missing_values_show_as_a_dash():
    lines = ui.markdown_table(ROWS).splitlines()
    assert lines[0] == "| kernel | parameter | accuracy | FNR |"
    assert lines[1] == "|---|---|---:|---:|"  # FNR: None and NaN only, still a column of numbers
    assert lines[2] == "| SVC, Gaussian (RBF) | gamma = 2^-2 | 0.9123 | – |"
    assert lines[3].endswith("| 0.8 | – |")


def test_markup_in_a_cell_is_shown_as_written():
    table = ui.markdown_table(ROWS)
    assert table.splitlines()[3].startswith(r"| IK \| L\_ψ \*fast\* \$x\$ | – |")  # no column break, italics, LaTeX
    read = apptest.read_table(table)
    assert list(read["kernel"]) == [row["kernel"] for row in ROWS] and list(read["accuracy"]) == [0.9123, 0.8]


def test_formats_apply_to_numbers_only():
    formats = {"AMI": "{:.3f}", "measure": "{:.1f}"}  # "measure" holds text: left as it is
    table = ui.markdown_table({"measure": ["IK", "raw"], "AMI": [0.51234, None]}, formats)
    assert table.splitlines()[2:] == ["| IK | 0.512 |", "| raw | – |"]


def test_an_empty_table_is_no_markdown():
    assert ui.markdown_table([]) == "" and ui.markdown_table({}) == ""


@pytest.mark.parametrize("page, columns", [
    ("kernel_shapes", ["kernel", "RMSE vs L_ψ"]),
    ("classification", ["kernel", "parameter", "accuracy", "FPR", "FNR", "train s", "test s"]),
])
def test_pages_show_their_tables_without_a_data_grid(page, columns):
    at = apptest.open_page(page)
    assert not at.dataframe
    [table] = apptest.tables(at)
    assert list(table.columns) == columns and len(table) >= 4
    assert all(isinstance(v, float) for v in table[columns[-1]])
