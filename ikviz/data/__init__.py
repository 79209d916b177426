"""Datasets: seeded generators from the papers and the bundled real datasets."""

from .real import DATASETS, dataset_info, dataset_names, load_dataset
from .synthetic import QUADRANTS, four_quadrants, uniform, w_gaussians

__all__ = ["uniform", "four_quadrants", "w_gaussians", "QUADRANTS",
           "load_dataset", "dataset_names", "dataset_info", "DATASETS"]
