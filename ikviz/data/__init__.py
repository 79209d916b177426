"""Datasets: seeded generators from the papers, the bundled real datasets and the papers' larger ones, fetched.

A :class:`Data` describes the data a computation wants (source, seed, ordered preparation steps);
:func:`resolve` loads and prepares it through one registry of loaders and one of steps.
"""

from .clusters import QUERIES, cluster_queries, dense_sparse_clusters
from .fetch import FetchError, fetch
from .density_ratio import density_ratio, density_ratio_layout
from .description import LOADERS, STEPS, Data, Prepared, Step, resolve, step
from .loading import canonical_name, data_names, load
from .real import DATASETS, dataset_info, dataset_label, dataset_names, load_dataset
from .synthetic import QUADRANTS, four_quadrants, uniform, w_gaussians

__all__ = ["Data", "Step", "step", "resolve", "Prepared", "LOADERS", "STEPS", "load", "fetch", "FetchError", "data_names", "canonical_name", "density_ratio", "density_ratio_layout", "uniform", "four_quadrants", "w_gaussians", "QUADRANTS",
           "load_dataset", "dataset_names", "dataset_info", "dataset_label", "DATASETS",
           "dense_sparse_clusters", "cluster_queries", "QUERIES"]
