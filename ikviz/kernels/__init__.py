"""Kernels: the Isolation Kernel and the data-independent kernels it is compared with."""

from .classic import adaptive_gaussian, laplacian, laplacian_psi, linear, local_scale, rbf
from .cell_index import CellIndex, shared_cells
from .isolation import IsolationKernel, Partition
from .neighbourhood import (lp_distance, lp_similarity, neighbour_sets, normalised_linear,
                            shared_neighbours)

__all__ = [
    "IsolationKernel", "Partition", "CellIndex", "shared_cells",
    "rbf", "laplacian", "laplacian_psi", "linear", "adaptive_gaussian", "local_scale",
    "lp_distance", "lp_similarity", "normalised_linear", "shared_neighbours", "neighbour_sets",
]
