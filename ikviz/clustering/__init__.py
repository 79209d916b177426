"""Clustering with Isolation Kernel, as scikit-learn estimators.

* :class:`DensityPeaks`: Rodriguez & Laio (2014) on the Euclidean distance,
  1 - IK or 1 - adaptive Gaussian, streamed in bounded memory with a numba
  core; :meth:`DensityPeaks.path` sweeps many cutoffs at the cost of one fit
  and returns a :class:`DecisionGraph`;
* :class:`SpectralClustering`: scikit-learn's spectral clustering on an IK,
  Gaussian (RBF) or adaptive Gaussian affinity;
* :func:`make_kmeans`: k-means on the raw features, the IK feature map or
  RandLocal, as a ``Pipeline``;
* :func:`scores` (AMI / NMI against class labels), :func:`match_labels`,
  :func:`minmax` (the papers' scaling).

Examples
--------
>>> import numpy as np
>>> from ikviz.clustering import DensityPeaks, SpectralClustering, make_kmeans, scores
>>> rng = np.random.default_rng(0)
>>> X = np.vstack([rng.normal(0, 0.3, (30, 2)), rng.normal(3, 0.3, (30, 2))])
>>> y = np.repeat([0, 1], 30)
>>> for model in (DensityPeaks(2, eps_fraction=0.1), SpectralClustering(2, psi=8, random_state=0),
...               make_kmeans("ik", n_clusters=2, psi=8, random_state=0)):
...     print(scores(y, model.fit_predict(X))["ami"])
1.0
1.0
1.0
"""

from .density_peaks import DecisionGraph, DensityPeaks
from .kmeans import make_kmeans
from .scores import match_labels, minmax, scores
from .spectral import SpectralClustering

__all__ = ["DensityPeaks", "DecisionGraph", "SpectralClustering", "make_kmeans", "scores", "match_labels", "minmax"]
