"""Datasets: seeded generators from the papers (loaders for real data come later)."""

from .synthetic import QUADRANTS, four_quadrants, uniform, w_gaussians

__all__ = ["uniform", "four_quadrants", "w_gaussians", "QUADRANTS"]
