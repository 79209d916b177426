"""Explicit feature maps: random Fourier features, rank-k Nyström and RandLocal.

A linear learner on one of these maps approximates (or, for RandLocal and the
Isolation Kernel, defines) a kernel machine at linear cost.
"""

from .fourier import RandomFourierFeatures
from .nystroem import LowRankNystroem
from .randlocal import RandLocal

__all__ = ["RandomFourierFeatures", "LowRankNystroem", "RandLocal"]
