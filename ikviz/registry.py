"""One registry of the kernels and measures the figures compare: key -> label, colour, tuned parameter, builder.

Keys are the values that appear in the app's links (``?kernel=ik_iforest``).
The Isolation Kernel variants carry their :class:`~ikviz.IsolationKernel`
keyword arguments, and :func:`isolation_kernel` is the one place that builds
one for ``n`` rows (clipping ψ to ``n``, as every page must).

Examples
--------
>>> from ikviz.registry import MEASURES, isolation_kernel, label
>>> label("ik_iforest"), MEASURES["ik_iforest"].tuned
('IK · iForest, height ≤ ⌈log₂ψ⌉', 'psi')
>>> isolation_kernel("ik_anne", psi=64, t=10, seed=0, n=20).psi
20
"""

from __future__ import annotations

from dataclasses import dataclass

from .kernels import IsolationKernel

__all__ = ["Measure", "MEASURES", "IK_VARIANTS", "measure", "label", "colour", "colours", "isolation_kernel"]


@dataclass(frozen=True)
class Measure:
    """What the figures need to know about one kernel or measure.

    Examples
    --------
    >>> from ikviz.registry import MEASURES
    >>> MEASURES["ik_inne"].is_isolation_kernel, MEASURES["rbf"].is_isolation_kernel
    (True, False)
    """

    label: str
    colour: str
    tuned: str | None = None        # the parameter a sweep tunes ("psi", "gamma", "k"), None if nothing
    isolation: dict | None = None   # IsolationKernel keyword arguments; None if not an IK variant

    @property
    def is_isolation_kernel(self) -> bool:
        return self.isolation is not None


#: Colour means kernel on every page. The Isolation Kernel's variants are greens (IK is green everywhere), GK/RBF
#: grey, L_ψ magenta, linear kernels and raw features blue, ℓp distances purples (ℓ2 = Euclidean distance), AG
#: mustard, SNN brown, RandLocal orange. Two keys share a colour only when they are the same measure under two
#: names (ik/ik_anne, rbf/gk, lk/linear/raw, lp2/distance). Other meanings (sparse/dense pairs, classes,
#: clusters, search methods) take colours of :mod:`ikviz.plots.style` that no kernel uses.
MEASURES: dict[str, Measure] = {
    # the Isolation Kernel's partitionings (Ting et al. 2018, 2021; iNNE: Ting et al. 2020)
    "ik_anne": Measure("IK · Voronoi (aNNE)", "#1b9e77", "psi", {"method": "anne"}),
    "ik_inne": Measure("IK · hyperspheres (iNNE)", "#7fbc41", "psi", {"method": "inne"}),
    "ik_iforest": Measure("IK · iForest, height ≤ ⌈log₂ψ⌉", "#005a32", "psi",
                          {"method": "iforest", "max_depth": "auto"}),
    "ik_iforest_full": Measure("IK · iForest, fully grown", "#66c2a5", "psi",
                               {"method": "iforest", "max_depth": None}),
    "ik": Measure("Isolation Kernel (IK)", "#1b9e77", "psi", {"method": "anne"}),
    # data-independent kernels
    "rbf": Measure("RBF (Gaussian)", "#666666", "gamma"),
    "gk": Measure("Gaussian kernel (GK)", "#666666", "gamma"),
    "laplacian_psi": Measure("Laplacian L_ψ", "#e7298a", "psi"),
    "lk": Measure("linear kernel, normalised (LK)", "#1f78b4"),
    "linear": Measure("linear kernel", "#1f78b4"),
    # distances and data-dependent measures
    "ag": Measure("adaptive Gaussian (AG)", "#e6ab02", "k"),
    "snn": Measure("shared nearest neighbours (SNN)", "#a6761d", "k"),
    "lp0.1": Measure("ℓ0.1 distance", "#c2a5cf"),
    "lp0.5": Measure("ℓ0.5 distance", "#9970ab"),
    "lp2": Measure("ℓ2 (Euclidean) distance", "#542788"),
    "distance": Measure("Euclidean distance", "#542788"),
    # feature maps for k-means
    "raw": Measure("raw features", "#1f78b4"),
    "randlocal": Measure("RandLocal features", "#d95f02", "n_sets"),
}

#: the Isolation Kernel variants a page can choose between
IK_VARIANTS: tuple[str, ...] = ("ik_anne", "ik_inne", "ik_iforest", "ik_iforest_full")


def measure(key: str) -> Measure:
    """The entry of ``key``, or a ``ValueError`` listing the known keys.

    Examples
    --------
    >>> from ikviz.registry import measure
    >>> measure("gk").tuned
    'gamma'
    """
    try:
        return MEASURES[key]
    except (KeyError, TypeError):
        raise ValueError(f"unknown kernel or measure {key!r}; choose one of {sorted(MEASURES)}.") from None


def label(key: str) -> str:
    """The label figures show for ``key``.

    Examples
    --------
    >>> from ikviz.registry import label
    >>> label("snn")
    'shared nearest neighbours (SNN)'
    """
    return measure(key).label


def colour(key: str) -> str:
    """The colour ``key`` has on every page.

    Examples
    --------
    >>> from ikviz.registry import colour
    >>> colour("rbf") == colour("gk")
    True
    """
    return measure(key).colour


def colours(*keys: str) -> dict[str, str]:
    """``{key: colour}`` for ``keys`` (a legend's colour map).

    Examples
    --------
    >>> from ikviz.registry import colours
    >>> colours("ik_anne", "rbf")
    {'ik_anne': '#1b9e77', 'rbf': '#666666'}
    """
    return {k: colour(k) for k in keys}


def isolation_kernel(key: str, *, psi: int, t: int, seed, n: int | None = None) -> IsolationKernel:
    """An unfitted :class:`~ikviz.IsolationKernel` of variant ``key``, with ψ clipped to ``n`` rows.

    Parameters
    ----------
    key : str
        One of :data:`IK_VARIANTS` (or ``"ik"``).
    psi, t : int
        Sample size per partitioning and number of partitionings.
    seed : int, Generator or None
        ``random_state`` of the kernel.
    n : int, optional
        Rows it will be fitted on; ψ above ``n`` is clipped to ``n``.

    Examples
    --------
    >>> from ikviz.registry import isolation_kernel
    >>> ik = isolation_kernel("ik_iforest", psi=16, t=50, seed=0)
    >>> ik.method, ik.psi
    ('iforest', 16)
    """
    entry = measure(key)
    if entry.isolation is None:
        raise ValueError(f"{key!r} is not an Isolation Kernel variant; choose one of {list(IK_VARIANTS)}.")
    if n is not None:
        psi = min(int(psi), int(n))
    return IsolationKernel(psi=psi, t=t, random_state=seed, **entry.isolation)
