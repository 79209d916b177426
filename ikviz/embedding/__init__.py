"""Embeddings with Isolation Kernel affinities, and scores for how well an embedding separates groups."""

from .affinities import IsolationKernelAffinities, auto_neighbors, auto_neighbours
from .scores import knn_accuracy, separation_scores, silhouette, trustworthiness

__all__ = ["IsolationKernelAffinities", "auto_neighbours", "knn_accuracy",
           "separation_scores", "silhouette", "trustworthiness"]
