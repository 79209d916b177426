"""Isolation Kernel beyond one machine's memory: files, a local cluster, any cluster by address.

A top-level pipeline beside the command line: nothing in the engine imports it. Row access and
row-block maps on Dask arrays (what :class:`ikviz.IsolationKernel` uses when given a Dask array)
live on the ground floor, in ``ikviz._dask``.

* :mod:`ikviz.scale.io`: the output folder, checked, written beside and published whole
  (the input files, Parquet / CSV files, folders and globs to a Dask array with errors
  naming the file and row, are read by :mod:`ikviz.data.files`, below this package);
* :mod:`ikviz.scale.cluster`: a ``dask.distributed`` client (a ``LocalCluster`` by
  default, or a scheduler address);
* :mod:`ikviz.scale.run`: ``ikviz scale features`` and ``ikviz scale learn``;
* :mod:`ikviz.scale.bench`: ``ikviz bench scale``.

Nothing here imports Dask until it is used.
"""
