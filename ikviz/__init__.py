"""ikviz: see what the Isolation Kernel does.

The compute layer of the ikviz app: the Isolation Kernel and the kernels it is
compared with, data generators, and the experiments behind every figure. It
never imports Streamlit.
"""

from .kernels import IsolationKernel

__version__ = "0.1.0"
__all__ = ["IsolationKernel", "__version__"]
