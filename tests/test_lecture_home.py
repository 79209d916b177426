"""Home shows the Isolation Kernel's definition as a formula and a picture, and links to the four papers."""

import io
import re
from pathlib import Path

from apptest import open_page
from PIL import Image

PAPERS = Path(__file__).resolve().parents[2] / "shared" / "papers"


def test_home_has_the_formula_the_picture_and_the_four_papers():
    at = open_page()
    latex = [e.value for e in at.get("latex")] if hasattr(at, "get") else []
    assert any(r"\mathbb{1}(x, y \in \theta" in v and r"\frac{1}{t}" in v for v in latex)
    images = at.get("image")
    assert images, "the picture of the definition"
    text = " ".join(m.value for m in at.markdown)
    links = re.findall(r"\]\((https?://[^)]+)\)", text)
    assert {"https://doi.org/10.1145/3219819.3219990", "https://doi.org/10.1145/3097983.3098001",
            "https://arxiv.org/abs/2109.14198", "https://jmlr.org/papers/v17/14-148.html"} <= set(links)
    captions = " ".join(str(getattr(i.proto, "imgs", "")) for i in images)
    assert "K(x, y)" in captions


def test_the_dois_are_the_ones_the_papers_print():
    if not PAPERS.is_dir():
        return   # the paper texts are beside the project in the lab only
    printed = " ".join(p.read_text(encoding="utf-8", errors="replace")[:20_000] for p in PAPERS.glob("*.txt"))
    for doi in ("10.1145/3219819.3219990", "10.1145/3097983.3098001"):
        assert doi in printed


def test_the_picture_counts_the_partitionings_where_x_and_y_share_a_cell():
    import sys

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "app"))
    import streamlit as st

    st.cache_resource.clear()
    from views import home   # noqa: F401  (runs the page bare: Streamlit warns, nothing breaks)

    png, same = home.definition_picture(psi=8, t=3, seed=4, size=60)
    image = Image.open(io.BytesIO(png))
    assert image.size == (3 * 60 + 2 * 12, 60) and 0 <= same <= 3
