"""Two classes of different density with an overlap region (Ting et al. 2018, §3, Table 1, Fig. 5).

The paper describes its data only in words: 500 2-D points, half positive and
half negative, "we vary the areas of different classes to control the density
ratio" and "control the overlapping region between the two classes in order to
make sure that negative class has a certain number of points" there. It does
not say what shape the classes have, so two generators follow that description
(``shape`` of :func:`density_ratio`); in both ``overlap`` is the share of the
sparse (negative) class that falls where the dense class is the more likely
one, i.e. the false-positive rate of the best possible classifier.

``shape="uniform"`` (the default):

* the positive (dense) class is uniform in the unit square [0, 1]^2;
* the negative (sparse) class is uniform in a square of area ``ratio`` (side
  sqrt(ratio)), so its density is ``ratio`` times lower;
* the negative square is placed to the right of the positive square and slid
  left until a fixed share ``overlap`` of the *negative* class falls inside the
  positive square. Keeping the negatives' share fixed (rather than the area)
  keeps "a certain number" of negatives in the overlap at every ratio, as the
  paper asks; the overlap strip therefore widens as the ratio grows.

In the overlap the dense class outnumbers the sparse one ``ratio`` to 1, so
the best possible classifier calls it positive and its false-positive rate is
about ``overlap``; what grows with the ratio is how far a kernel with one
global bandwidth lets the dense class spill past the strip into the sparse
region.

``shape="gaussian"``:

* the positive (dense) class is an isotropic Gaussian with mean (0.5, 0.5)
  and standard deviation :data:`GAUSSIAN_STD` = 0.25 per axis;
* the negative (sparse) class is an isotropic Gaussian with standard deviation
  ``0.25 * sqrt(ratio)``: its spread covers ``ratio`` times the area, so its
  peak density is ``ratio`` times lower;
* its mean lies to the right, at (0.5 + ``separation``, 0.5), the separation
  solved so that a share ``overlap`` of the negatives falls in the disc where
  the positive density is the higher one (a non-central chi-squared
  probability; see :func:`density_ratio_layout`).

Here the density ratio between the classes changes smoothly across the
overlap instead of jumping at a square's edge, and the sparse class has no
edge at all.
"""

from __future__ import annotations

import math
from numbers import Integral, Real

import numpy as np
from scipy import optimize, stats
from .._sklearn import Interval, StrOptions, validate_params

from .synthetic import SEED, check_size

__all__ = ["GAUSSIAN_STD", "SHAPES", "density_ratio", "density_ratio_layout", "max_overlap"]

#: the generators' class shapes, the first the default
SHAPES = ("uniform", "gaussian")
#: standard deviation per axis of the dense class of ``shape="gaussian"``
GAUSSIAN_STD = 0.25
_CENTRE = np.array([0.5, 0.5])

_RATIO = [Interval(Real, 1, None, closed="left")]
_OVERLAP = [Interval(Real, 0, 1, closed="both")]
_SHAPE = [StrOptions(set(SHAPES))]


def max_overlap(ratio: float, shape: str = "uniform") -> float:
    """The largest ``overlap`` the generator of ``shape`` can give at density ratio ``ratio``.

    Uniform squares: ``1 / ratio`` (the whole dense square inside the sparse one).
    Gaussians: the share of the negatives in the dense class's winning disc when
    both means coincide, ``1 - ratio ** (-1 / (ratio - 1))`` (0.5 at ratio 1, the limit).

    Examples
    --------
    >>> from ikviz.data.density_ratio import max_overlap
    >>> max_overlap(10.0), round(max_overlap(10.0, "gaussian"), 4)
    (0.1, 0.2257)
    """
    if shape == "uniform":
        return 1.0 / ratio
    if ratio == 1:
        return 0.5
    return float(1.0 - ratio ** (-1.0 / (ratio - 1.0)))


def _check_overlap(ratio, overlap, shape="uniform"):
    if shape == "gaussian" and overlap <= 0:
        raise ValueError(f"overlap must be > 0 for Gaussian classes (their tails always overlap); got {overlap!r}.")
    top = max_overlap(ratio, shape)
    if overlap > top:
        what = ("the share of the sparse class that can fit inside the dense square" if shape == "uniform" else
                "the share of the sparse class inside the dense class's disc when their means coincide")
        raise ValueError(f"overlap must be between 0 and {top:.3g} ({what}, at ratio {ratio:g}); got {overlap!r}.")


def _gaussian_share(delta: float, ratio: float) -> float:
    """Share of the negatives where the positive density is higher, at mean distance ``delta`` positive stds."""
    if ratio == 1:
        return float(stats.norm.sf(delta / 2.0))  # the half-plane past the midpoint
    r = float(ratio)
    threshold = (2.0 * (r - 1.0) * math.log(r) + delta ** 2) / (r - 1.0) ** 2
    nc = delta ** 2 * r / (r - 1.0) ** 2
    if nc == 0:
        return float(stats.chi2.cdf(threshold, 2))
    return float(stats.ncx2.cdf(threshold, 2, nc))


def _gaussian_separation(ratio: float, overlap: float) -> float:
    """Distance between the class means, in positive stds, giving the negatives' share ``overlap``."""
    if overlap >= max_overlap(ratio, "gaussian"):
        return 0.0
    hi = 1.0
    while _gaussian_share(hi, ratio) > overlap:
        hi *= 2.0
    return float(optimize.brentq(lambda d: _gaussian_share(d, ratio) - overlap, 0.0, hi, xtol=1e-12))


def _gaussian_layout(ratio: float, overlap: float) -> dict:
    sd = GAUSSIAN_STD
    delta = _gaussian_separation(ratio, overlap)
    out = {"positive_mean": _CENTRE.copy(), "negative_mean": _CENTRE + [delta * sd, 0.0], "positive_std": sd,
           "negative_std": sd * math.sqrt(ratio), "separation": delta * sd}
    if ratio == 1:
        out["winning_halfplane_x"] = float(_CENTRE[0] + delta * sd / 2.0)
    else:
        r = ratio
        centre = _CENTRE - [delta * sd / (r - 1.0), 0.0]
        radius = sd * math.sqrt(2.0 * r * (r - 1.0) * math.log(r) + r * delta ** 2) / (r - 1.0)
        out["winning_disc"] = np.array([centre[0], centre[1], radius])
    return out


@validate_params({"ratio": _RATIO, "overlap": _OVERLAP, "shape": _SHAPE}, prefer_skip_nested_validation=True)
def density_ratio_layout(ratio: float = 10.0, overlap: float = 0.04, shape: str = "uniform") -> dict:
    """Where the classes of :func:`density_ratio` lie.

    Parameters
    ----------
    ratio : float, default=10.0
        Density of the positive class over that of the negative class (>= 1).
    overlap : float, default=0.04
        Share of the negative class where the positive class is the more likely,
        at most :func:`max_overlap` ``(ratio, shape)``.
    shape : {"uniform", "gaussian"}, default="uniform"
        Which generator.

    Returns
    -------
    layout : dict
        ``shape="uniform"``: ``positive``, ``negative`` and ``overlap_box`` (the strip both
        classes share), each an ndarray [[x0, y0], [x1, y1]].
        ``shape="gaussian"``: ``positive_mean``, ``negative_mean`` (ndarray of shape (2,)),
        ``positive_std``, ``negative_std``, ``separation`` (floats) and either
        ``winning_disc`` = [cx, cy, radius], the disc where the positive density is higher
        (ratio > 1), or ``winning_halfplane_x``, the line left of which it is (ratio 1).

    Examples
    --------
    >>> from ikviz.data import density_ratio_layout
    >>> box = density_ratio_layout(ratio=4.0, overlap=0.1)
    >>> box["negative"].tolist()
    [[0.6, -0.5], [2.6, 1.5]]
    >>> g = density_ratio_layout(ratio=4.0, overlap=0.1, shape="gaussian")
    >>> g["negative_std"], round(g["separation"], 3), g["winning_disc"].round(3).tolist()
    (0.5, 1.008, [0.164, 0.5, 0.826])
    """
    _check_overlap(ratio, overlap, shape)
    if shape == "gaussian":
        return _gaussian_layout(float(ratio), float(overlap))
    side = math.sqrt(ratio)
    # the strip x in [1 - w, 1] of the unit square holds w * 1 / side^2 of the negatives' area
    # when the negative square covers the full unit height there (side >= 1)
    width = overlap * ratio
    x0 = 1.0 - width
    y0 = 0.5 - side / 2.0
    return {
        "positive": np.array([[0.0, 0.0], [1.0, 1.0]]),
        "negative": np.array([[x0, y0], [x0 + side, y0 + side]]),
        "overlap_box": np.array([[x0, 0.0], [1.0, 1.0]]),
    }


@validate_params({"n": [Interval(Integral, 4, None, closed="left")], "ratio": _RATIO, "seed": SEED,
                  "overlap": _OVERLAP, "shape": _SHAPE}, prefer_skip_nested_validation=True)
def density_ratio(n: int = 500, ratio: float = 10.0, seed=0, overlap: float = 0.04, shape: str = "uniform"
                  ) -> tuple[np.ndarray, np.ndarray]:
    """Dense positive class vs sparse negative class at density ratio ``ratio`` : 1 (ting2018 Table 1).

    Parameters
    ----------
    n : int, default=500
        Total number of points, even and at least 4; ``n / 2`` per class. The paper uses 500.
    ratio : float, default=10.0
        Density of the positive class divided by that of the negative class
        (the paper's data_1, data_10, data_20 have 1, 10, 20).
    seed : int, numpy Generator, SeedSequence or None, default=0
        Seed; the same seed gives the same points.
    overlap : float, default=0.04
        Share of the negative class drawn where the positive class is the more
        likely (default 4 %, 10 of 250 points): inside the positive square for
        ``shape="uniform"`` (at most ``1 / ratio``), inside the disc where the
        positive density is higher for ``shape="gaussian"`` (in expectation; at
        most :func:`max_overlap`).
    shape : {"uniform", "gaussian"}, default="uniform"
        Uniform squares or isotropic Gaussians (see the module's description).

    Returns
    -------
    X : ndarray of shape (n, 2)
    y : ndarray of shape (n,) of int
        1 for the dense positive class and 0 for the sparse negative class
        (the first ``n / 2`` rows are positive).

    Examples
    --------
    >>> from ikviz.data import density_ratio
    >>> X, y = density_ratio(n=8, ratio=4.0, seed=0)
    >>> X.shape, y.tolist()
    ((8, 2), [1, 1, 1, 1, 0, 0, 0, 0])
    >>> X, y = density_ratio(n=20000, ratio=16.0, seed=0, shape="gaussian")
    >>> round(float(X[y == 0, 1].std() / X[y == 1, 1].std()), 1)  # sqrt(16): 16 times the area
    4.0
    """
    if n % 2:
        raise ValueError(f"n must be an even integer >= 4 (two equal classes); got {n!r}.")
    _check_overlap(ratio, overlap, shape)
    check_size(n, 2, f"density_ratio(n={n})")
    box = density_ratio_layout(ratio, overlap, shape)
    rng = np.random.default_rng(seed)
    half = int(n) // 2
    if shape == "gaussian":
        pos = rng.normal(box["positive_mean"], box["positive_std"], size=(half, 2))
        neg = rng.normal(box["negative_mean"], box["negative_std"], size=(half, 2))
        return np.vstack([pos, neg]), np.repeat(np.array([1, 0]), half)
    pos = rng.uniform(box["positive"][0], box["positive"][1], size=(half, 2))
    neg = rng.uniform(box["negative"][0], box["negative"][1], size=(half, 2))
    X = np.vstack([pos, neg])
    y = np.repeat(np.array([1, 0]), half)
    return X, y
