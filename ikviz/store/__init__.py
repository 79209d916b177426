"""The results store, without Streamlit: a scheduler over memory and a private disk cache.

:class:`ResultsStore` (see :mod:`ikviz.store.scheduler`) runs each distinct
computation once for all callers, a few at a time, requested work before
background work; :mod:`ikviz.store.storage` keeps results in memory (bounded
in bytes) and on disk (signed, private, least recently used first);
:mod:`ikviz.store.fingerprint` says which code a result depends on. The app's
waiting widget is ``app/store.py``.

Examples
--------
>>> from ikviz.store import ResultsStore
>>> store = ResultsStore(workers=1)
>>> store.memo(divmod)(7, 2)
(3, 1)
"""

from .fingerprint import block_fingerprint, module_fingerprint
from .scheduler import BACKGROUND, FOREGROUND, Job, ResultsStore
from .storage import DiskCache, MemoryCache, UnsafeStoreFolder

__all__ = ["BACKGROUND", "FOREGROUND", "DiskCache", "Job", "MemoryCache", "ResultsStore", "UnsafeStoreFolder",
           "block_fingerprint", "module_fingerprint"]
