"""ting2021 Fig. 1(b) under each reading of the Gaussian kernel's bandwidth, which the paper does not give.

var(F/E[F]) of GK as d grows depends on how GK's width follows d: scaled with
d (γ = 1/(d·var X), the usual default, and how ting2021's Table 7 grids scale
σ with d) or fixed at one value (γ = 1/65, the scaled value at d = 10, kept
for every d). IK's variance is computed once (it has no bandwidth).
``run(params) -> Result`` as every experiment; the claim reads both readings.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

from ..params import setting
from ..runner import Memo, Progress, resolve, within
from .dimensionality import D_CHOICES, InstabilityParams, instability_summary, run_instability

#: what ``ikviz reproduce gk-bandwidth`` says it reproduces (see :mod:`ikviz.reproduce`), and its quick size
SOURCE = "ting2021 Fig. 1(b)"
DESCRIPTION = ("var(F/E[F]) of GK and IK vs d under each reading of GK's bandwidth, which the paper does not "
               "give: scaled with d (γ = 1/(d·var X)) or fixed (γ = 1/65, the scaled value at d = 10)")
QUICK = {"d_values": (10, 100, 1000), "n_per_cluster": 500}

#: γ = 1/65: 1/(d·var X) at d = 10 for the two clusters of Fig. 1 (per-coordinate variance 6.5)
FIXED_GAMMA = 1.0 / 65.0


@dataclass(frozen=True)
class Params:
    """The instability data of Fig. 1 (1,000 points per cluster, d = 10 ... 10,000) and the two readings."""

    d_values: tuple[int, ...] = setting(D_CHOICES, "dimensions d", help="The d of Fig. 1(b).")
    n_per_cluster: int = setting(1000, "points per cluster", low=50, high=5000)
    fixed_gamma: float = setting(FIXED_GAMMA, "fixed reading: γ", help="GK's γ when it does not follow d.")
    t: int = setting(200, "IK t")
    psi: int = setting(16, "IK ψ")
    seed: int = setting(0, "seed")


@dataclass(frozen=True)
class Result:
    params: Params
    variance: dict   # reading -> {"gk": {d: var}, "ik": {d: var}}


def readings(p: Params) -> dict[str, float | None]:
    """Reading label -> GK's σ (None: scaled with d).

    Examples
    --------
    >>> sorted(readings(Params()))
    ['fixed (γ = 1/65)', 'scaled with d (γ = 1/(d·var X))']
    """
    return {"scaled with d (γ = 1/(d·var X))": None,
            f"fixed (γ = 1/{1 / p.fixed_gamma:.0f})": math.sqrt(1.0 / (2.0 * p.fixed_gamma))}


def run(params: Params = Params(), *, memo: Memo | None = None, progress: Progress | None = None) -> Result:
    """GK's and IK's var(F/E[F]) by d under each bandwidth reading.

    Examples
    --------
    >>> res = run(Params(d_values=(10, 100), n_per_cluster=100, t=50))
    >>> sorted(res.variance), sorted(next(iter(res.variance.values())))
    (['fixed (γ = 1/65)', 'scaled with d (γ = 1/(d·var X))'], ['gk', 'ik'])
    """
    memo, progress = resolve(memo, progress)
    base = InstabilityParams(d_values=params.d_values, n_per_cluster=params.n_per_cluster, psi=params.psi,
                             t=params.t, seed=params.seed, t_values=(1,), t_trials=1)
    out, ik = {}, None
    for i, (label, sigma) in enumerate(readings(params).items()):
        measures = ("gk",) if ik is not None else ("gk", "ik")
        step = within(progress, i / 2, (i + 1) / 2, f"GK {label}")
        res = run_instability(replace(base, measures=measures, gk_sigma=sigma, t_curve_d=min(params.d_values)),
                              memo=memo, progress=step)
        var = instability_summary(res)["variance"]
        ik = var["ik"] if ik is None else ik
        out[label] = {"gk": var["gk"], "ik": ik}
    progress(1.0, "done")
    return Result(params, out)


def numbers(result: Result) -> dict:
    """What ``ikviz reproduce gk-bandwidth`` writes: the variance per reading, measure and d."""
    return {"variance_by_bandwidth": result.variance}
