"""Two classes of different density with an overlap region (Ting et al. 2018, §3, Table 1, Fig. 5).

The paper describes its data only in words: 500 2-D points, half positive and
half negative, "we vary the areas of different classes to control the density
ratio" and "control the overlapping region between the two classes in order to
make sure that negative class has a certain number of points" there. This
generator follows that description:

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
"""

from __future__ import annotations

import math
from numbers import Integral, Real

import numpy as np
from sklearn.utils._param_validation import Interval, validate_params

from .synthetic import SEED, check_size

_RATIO = [Interval(Real, 1, None, closed="left")]
_OVERLAP = [Interval(Real, 0, 1, closed="both")]


def _check_overlap(ratio, overlap):
    if overlap > 1.0 / ratio:
        raise ValueError(
            f"overlap must be between 0 and 1/ratio = {1.0 / ratio:.3g} (the share of the sparse class "
            f"that can fit inside the dense square); got {overlap!r}."
        )


@validate_params({"ratio": _RATIO, "overlap": _OVERLAP}, prefer_skip_nested_validation=True)
def density_ratio_layout(ratio: float = 10.0, overlap: float = 0.04) -> dict:
    """The rectangles of :func:`density_ratio`: ``positive`` and ``negative`` boxes [[x0, y0], [x1, y1]].

    Parameters
    ----------
    ratio : float, default=10.0
        Density of the positive class over that of the negative class (>= 1).
    overlap : float, default=0.04
        Share of the negative class inside the positive square, at most 1 / ratio.

    Returns
    -------
    boxes : dict of str to ndarray of shape (2, 2)
        ``positive``, ``negative`` and ``overlap_box`` (the strip both classes share).

    Examples
    --------
    >>> from ikviz.data import density_ratio_layout
    >>> box = density_ratio_layout(ratio=4.0, overlap=0.1)
    >>> box["negative"].tolist()
    [[0.6, -0.5], [2.6, 1.5]]
    """
    _check_overlap(ratio, overlap)
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
                  "overlap": _OVERLAP}, prefer_skip_nested_validation=True)
def density_ratio(n: int = 500, ratio: float = 10.0, seed=0, overlap: float = 0.04
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
        Share of the negative class drawn inside the positive square (default
        4 %, 10 of 250 points), at most ``1 / ratio``.

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
    """
    if n % 2:
        raise ValueError(f"n must be an even integer >= 4 (two equal classes); got {n!r}.")
    _check_overlap(ratio, overlap)
    check_size(n, 2, f"density_ratio(n={n})")
    box = density_ratio_layout(ratio, overlap)
    rng = np.random.default_rng(seed)
    half = int(n) // 2
    pos = rng.uniform(box["positive"][0], box["positive"][1], size=(half, 2))
    neg = rng.uniform(box["negative"][0], box["negative"][1], size=(half, 2))
    X = np.vstack([pos, neg])
    y = np.repeat(np.array([1, 0]), half)
    return X, y
