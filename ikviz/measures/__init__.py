"""Measures of the curse of dimensionality: query instability, hubness, retrieval precision.

All take similarities (larger = more similar) from any kernel, so Isolation
Kernel, the Gaussian kernel, fractional l_p distances, SNN... are compared on
equal terms.
"""

from .hubness import k_nearest, k_nearest_blocks, k_occurrence, occurrence_distribution, skewness
from .instability import dissimilarity, n_eps, relative_variance
from .retrieval import precision_at_k

__all__ = [
    "n_eps", "relative_variance", "dissimilarity",
    "k_nearest", "k_nearest_blocks", "k_occurrence", "occurrence_distribution", "skewness",
    "precision_at_k",
]
