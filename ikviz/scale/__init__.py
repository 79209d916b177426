"""Isolation Kernel beyond one machine's memory: Dask arrays, a local cluster, any cluster by address.

* :mod:`ikviz.scale.arrays`: row access and row-block maps on Dask arrays (used by
  :class:`ikviz.IsolationKernel` when given a Dask array);
* :mod:`ikviz.scale.io`: Parquet / CSV files, folders and globs to a Dask array, with
  errors naming the file and row;
* :mod:`ikviz.scale.cluster`: a ``dask.distributed`` client (a ``LocalCluster`` by
  default, or a scheduler address);
* :mod:`ikviz.scale.run`: ``ikviz scale features`` and ``ikviz scale learn``;
* :mod:`ikviz.scale.bench`: ``ikviz bench scale``.

Nothing here imports Dask until it is used.
"""
