"""Projector mode (issue 32 item 3): a tour step laid out for a lecture hall, figures with no text under 18 px.

The screenshots of every tour step at 1920x1080 and 1280x720 are taken in Chromium (see the closing note);
these tests check what the server sends for them.
"""

import json

from apptest import open_page

from ikviz import tours
from ikviz.plots import density, style



def _html(at) -> str:
    return " ".join(h.proto.body for h in at.get("html"))


def test_a_projected_tour_step_gets_the_projector_layout_and_the_window_fit():
    _page, query = tours.parse_step(tours.step_url("ting2018", 0))      # present=1
    at = open_page("how_ik_is_built", **query)
    html = _html(at)
    assert 'id="ikviz-projector-css"' in html and "font-size: 24px" in html
    assert "__ikvizFit" in html and "Plotly.relayout" in html
    text = " ".join(m.value for m in at.markdown)
    assert "Ting et al. 2018 · step 1 of 5" in text
    assert not any("appears here once the Claims page" in c.value for c in at.caption)   # lecturer's notes off


def test_the_same_step_on_a_laptop_keeps_the_ordinary_bar():
    _page, query = tours.parse_step(tours.step_url("ting2018", 0, present=False))
    at = open_page("how_ik_is_built", **query)
    assert "ikviz-projector-css" not in _html(at) and "__ikvizFit" not in _html(at)
    assert "step 1 of 5" in " ".join(m.value for m in at.markdown)


def _font_sizes(node, inside_font=False):
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "size" and inside_font and isinstance(value, (int, float)):
                yield value
            else:
                yield from _font_sizes(value, inside_font or key.endswith("font"))
    elif isinstance(node, list):
        for value in node:
            yield from _font_sizes(value, inside_font)


def test_projected_figures_have_no_text_under_18_px_and_no_slanted_category_labels():
    pairs = {k: {"sparse": 0.5, "dense": 0.3} for k in ("ik_anne", "ik_inne", "ik_iforest", "ik_iforest_full",
                                                          "laplacian_psi", "rbf")}
    small = density.pairs_figure(pairs)
    assert min(_font_sizes(json.loads(small.to_json())["layout"])) < 18      # the page's own figure is smaller
    big = style.projector(small)
    sizes = list(_font_sizes(json.loads(big.to_json())))
    assert sizes and min(sizes) >= 18
    axis = big.layout.xaxis
    assert axis.tickangle == 0 and any("<br>" in t for t in axis.ticktext)
    assert list(axis.tickvals) == list(big.data[0].x)                        # the data keep their labels
    assert big.layout.margin.b > small.layout.margin.b                        # room for the wrapped labels



def test_log_axes_label_decades_only_so_no_tick_is_drawn_at_three_quarters_size():
    import plotly.graph_objects as go

    fig = go.Figure(go.Scatter(x=[10, 100, 1000, 10000], y=[1, 2, 3, 4], name="IK"))
    fig.update_xaxes(type="log")
    big = style.projector(fig)
    assert big.layout.xaxis.minorloglabels == "none" and big.layout.yaxis.minorloglabels is None


def test_a_projected_subtitle_is_18px_wrapped_and_clear_of_the_plot():
    """A t-SNE panel's line of settings and scores: Plotly drew a <sup> line at 17 px and ran it past a 720p
    panel's edge; wrapped in two 18 px lines, the title's first baseline stays one line down (it was pushed
    down by every line, 24 px into the plot)."""
    import numpy as np

    from ikviz.plots.style import PROJECTOR_FONTS, PROJECTOR_SUBTITLE_CHARS, projector
    from ikviz.plots.tsne import embedding_figure

    rng = np.random.default_rng(0)
    sub = "ψ = 100, t = 200, 16 neighbours · 5-NN acc. 1.000 · silhouette 0.75 · trustw. 0.73"
    fig = projector(embedding_figure(rng.normal(size=(40, 2)), np.arange(40) % 2, ["a", "b"], None, "t-SNE", sub))
    title = fig.layout.title.text
    lines = title.split("<br>")
    assert len(lines) == 3 and "<sup>" not in title
    assert all(f"font-size:{PROJECTOR_FONTS['tick']}px" in line for line in lines[1:])
    assert all(len(line.split(">", 1)[1].split("<", 1)[0]) <= PROJECTOR_SUBTITLE_CHARS for line in lines[1:])
    size = PROJECTOR_FONTS["title"]
    assert fig.layout.title.pad.t <= 10 + 1.3 * size + 1
    # the first baseline, then two more lines and their descent, above the plot
    assert fig.layout.margin.t >= fig.layout.title.pad.t + 2 * 1.3 * size + 0.3 * size
