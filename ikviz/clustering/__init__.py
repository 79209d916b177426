"""Clustering with Isolation Kernel: density peaks, spectral clustering, k-means on feature maps.

* :mod:`.density_peaks`: Rodriguez & Laio (2014) on a streamed distance or 1 - kernel
  similarity, with a numba core and bounded memory;
* :mod:`.spectral`: scikit-learn spectral clustering on a precomputed IK, Gaussian
  or adaptive Gaussian affinity;
* :mod:`.kmeans`: k-means on the raw features, the IK feature map or RandLocal;
* :mod:`.scores`: AMI / NMI against class labels, min-max scaling.
"""

from .density_peaks import DecisionGraph, Distances, assign, check_n_clusters, decision_graph, density_peaks
from .kmeans import feature_map, kmeans
from .scores import match_labels, minmax, scores
from .spectral import affinity, spectral_clustering

__all__ = [
    "Distances", "DecisionGraph", "decision_graph", "assign", "density_peaks",
    "check_n_clusters", "affinity", "spectral_clustering", "feature_map", "kmeans", "scores", "match_labels", "minmax",
]
