"""Density adaptivity: the page's settings and the texts that read its results (fast, no kernels fitted)."""

import inspect

import numpy as np

from ikviz.experiments import density as exp
from ikviz.experiments import surfaces
from ikviz.plots import density as plots


def test_backdrop_note_only_when_the_contours_draw_a_sample():
    assert plots.backdrop_note(np.zeros((1000, 2))) == ""
    note = plots.backdrop_note(np.zeros((12_345, 2)))
    assert note == " The dots are a seeded sample of 1,000 of the 12,345 points; the kernels use all of them."
    # the captions of both contour sections end with it
    assert plots.pairs_caption(100, np.zeros((12_345, 2))).endswith(note)
    assert plots.real_data_caption("iris", np.zeros((12_345, 2))).endswith(note)
    assert plots.pairs_caption(100, np.zeros((5, 2))).endswith("(see *Margin vs ψ*).")


def test_captions_read_the_settings_they_describe():
    assert "values are multiples of 1/t = 0.002." in plots.pairs_caption(500, np.zeros((5, 2)))
    margin = plots.margin_caption(exp.Params(margin_seeds=4, margin_t=50, t=2000))
    assert "min–max over 4 kernel seeds (t = 50, whatever the t slider" in margin and "2000" not in margin
    assert plots.density_caption(300, 0.05).startswith("300 random pairs, each exactly 0.05 apart (L1 / d)")
    assert "(77 uniform points in [−1, 1]^d, t = 9; the diagonal" in plots.grid_intro(exp.GridParams(n=77, t=9))
    assert "Iris (scikit-learn) (150 points, scaled" in plots.real_data_caption("iris", np.zeros((5, 2)))


def test_sharpness_caps_t_and_says_so():
    assert exp.sharpness_t(200) == 200 and exp.sharpness_t(2000) == exp.SHARPNESS_MAX_T == 500
    assert exp.sharpness_psis(64) == (8, 64, 1024) and exp.sharpness_psis(1024) == (8, 1024)
    assert plots.sharpness_caption(200).startswith("Ting et al. (2018, Fig. 3) on 2,000 uniform points, t = 200: ")
    assert plots.sharpness_caption(500).startswith("Ting et al. (2018, Fig. 3) on 2,000 uniform points, t = 500: ")
    assert "t = 500 (at most 500 here): the larger ψ" in plots.sharpness_caption(2000)


def test_trend_text_names_each_variant_with_a_signed_rho():
    text = plots.trend_text({"ik_anne": -0.456, "ik_inne": 0.1})
    assert text == ("Spearman ρ(similarity, density), IK · Voronoi (aNNE): **-0.46** · "
                    "Spearman ρ(similarity, density), IK · hyperspheres (iNNE): **+0.10**")


def test_grid_summary_texts_count_cells_and_list_where_rbf_fits_better():
    grid = {"d": [10, 20], "psi": [16, 32],
            "laplacian": {"ik_anne": [[0.1, 0.2], [0.3, 0.4]], "ik_iforest": [[0.01, 0.02], [0.03, 0.05]]},
            "rbf": {"ik_anne": [[0.05, 0.3], [0.2, 0.5]], "ik_iforest": [[0.5, 0.5], [0.5, 0.5]]}}
    anne, iforest = plots.grid_summary_texts(grid)
    assert anne == ("**IK · Voronoi (aNNE)**: RMSE vs L_ψ 0.100–0.400; closer to L_ψ than to the best RBF in "
                    "2 of 4 cells (not in (d=10, ψ=16), (d=20, ψ=16)).")
    assert iforest.endswith("RMSE vs L_ψ 0.010–0.050; closer to L_ψ than to the best RBF in 4 of 4 cells.")


def test_probe_coordinates_round_trip_to_the_pairs():
    p = exp.Params(sparse_pair=((0.1, 0.2), (0.3, 0.4)), dense_pair=((-0.1, -0.2), (-0.3, -0.4)))
    coords = exp.probe_coords(p)
    assert coords["s2x"] == 0.3 and coords["d1y"] == -0.2 and list(coords)[0] == "s1x"
    assert exp.probe_pairs(coords) == {"sparse_pair": p.sparse_pair, "dense_pair": p.dense_pair}
    probes = plots.probe_points(p)
    assert probes["D"].dtype == float and probes["D"].tolist() == [[-0.1, -0.2], [-0.3, -0.4]]


def test_contour_settings_fit_the_surface_function():
    p = exp.Params(psi=16, t=200, gamma=3.0, grid=41, seed=7)
    settings = exp.surface_settings(p, (0.5, -0.5))
    keyword = [k for k, v in inspect.signature(surfaces.surface).parameters.items()
               if v.kind is v.KEYWORD_ONLY and k != "memo"]
    assert list(settings) == keyword
    assert settings == {"psi": 16, "t": 200, "gamma": 3.0, "ref": (0.5, -0.5), "grid": 41, "seed": 7}
    assert exp.real_data_spec("wine", 3) == ("tsne", "wine", 2000, 3)
    rows = exp.QUADRANT_ROWS
    assert rows[0] == exp.IK_VARIANTS and all(k not in surfaces.IK_KERNELS for k in rows[1])
    assert all(k in surfaces.KERNELS for k in (*rows[0], *rows[1], *exp.REAL_DATA_KERNELS))
