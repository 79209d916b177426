"""``ikviz check FILE --label COLUMN --out report.html``: the Your data checks from the command line."""

import hashlib

import numpy as np
import pandas as pd
import pytest

import ikviz
from ikviz.cli import main
from ikviz.data import load_dataset

CULTIVARS = np.array(["barbera", "barolo", "grignolino"])


@pytest.fixture(scope="module")
def wine_csv(tmp_path_factory):
    """The bundled wine data as a user would have it: semicolons, a text ID, the class named in words."""
    X, y = load_dataset("wine")
    frame = pd.DataFrame(X[:, :5], columns=["alcohol", "malic_acid", "ash", "alcalinity", "magnesium"])
    frame.insert(0, "sample", [f"W{i:03d}" for i in range(len(frame))])
    frame["cultivar"] = CULTIVARS[y]
    path = tmp_path_factory.mktemp("wine") / "wine.csv"
    frame.to_csv(path, sep=";", index=False)
    return path


def test_check_writes_one_report_with_every_check(wine_csv, tmp_path, capsys):
    out = tmp_path / "reports" / "wine.html"
    rc = main(["check", str(wine_csv), "--label", "cultivar", "--out", str(out), "--rows", "60", "--psi", "8",
               "--t", "30", "--seed", "2"])
    err = capsys.readouterr()
    assert rc == 0, err.err
    assert f"wrote {out} (neighbours, svm, tsne, clustering)" in err.out and "Overall: IK" in err.out
    assert "60 rows used, 5 features, 3 classes" in err.err and "[100%] done" in err.err  # progress on the console
    page = out.read_text()
    headings = [page.index(f"<h2>{h}") for h in ("Summary", "Nearest neighbours", "SVM: IK vs Gaussian vs linear",
                                                  "t-SNE", "Clustering")]
    assert headings == sorted(headings)                      # the summary first
    assert hashlib.sha256(wine_csv.read_bytes()).hexdigest() in page and ikviz.__version__ in page
    assert "ψ = 8, t = 30, seed = 2" in page and "60 of 178 rows" in page
    assert all(name in page for name in CULTIVARS)           # class names, not "class 0/1/2"
    assert "-fold stratified cross-validation of 60 rows" in page and "(seed 2)" in page
    assert page.count("<script type=\"text/javascript\">") == 1   # Plotly's script once, for both figures
    assert "<ul><li>" in page and "- " not in page.split("<body>")[1].split("<script")[0].replace("e.g. -", "")
    assert "<thead><tr><th></th>" not in page                # the facts table has no empty header row
    assert len(page.encode()) < 2 * 1024**2, len(page.encode())


def test_check_without_a_label_runs_the_checks_that_apply(wine_csv, tmp_path, capsys):
    out = tmp_path / "plain.html"
    rc = main(["check", str(wine_csv), "--label", "none", "--out", str(out), "--rows", "40", "--psi", "8",
               "--t", "30", "--checks", "neighbours", "svm"])
    assert rc == 0
    assert "(neighbours)" in capsys.readouterr().out
    assert "<h2>SVM" not in out.read_text()


def test_check_says_what_is_wrong(wine_csv, tmp_path, capsys):
    assert main(["check", str(wine_csv), "--label", "kind", "--out", str(tmp_path / "x.html")]) == 2
    assert "kind" in capsys.readouterr().err and not (tmp_path / "x.html").exists()
    assert main(["check", str(tmp_path / "missing.csv")]) == 2
    assert "cannot read" in capsys.readouterr().err
