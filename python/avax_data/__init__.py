"""avax-data: fast, typed, resumable access to Avalanche's Index RPC, Data API and Metrics API.

- :class:`IndexClient` reads a node's index (``/ext/index/...``): every accepted block, vertex and
  transaction of the C-, P- and X-chains, one at a time or walked as a lazy, resumable
  :class:`Range` into dicts, polars DataFrames or Parquet files.
- :class:`DataClient` reads the Data API (``/v1/...``) and :class:`MetricsClient` the Metrics API
  (``/v2/...``); their lists are lazy, resumable :class:`Pager` objects.
- Each client has an async twin (:class:`AsyncIndexClient`, :class:`AsyncDataClient`,
  :class:`AsyncMetricsClient`) with the same methods, awaited.
- :class:`Emulator` serves all three services offline, from a seed; errors are the classes of
  :mod:`avax_data.exceptions`, all re-exported here.

The examples in the docstrings run as doctests (``python -m pytest tests/test_docstrings.py``)
against the emulator, with three names defined once for all of them:

>>> import avax_data as ad
>>> import polars as pl
>>> emu = ad.Emulator(containers=1_000, data_blocks_per_chain=500)

``emu`` is shared by the examples, so those that change an emulator (advance it, inject faults)
start their own. Against the real services, pass a node's URL instead of ``emu.url``, and leave
``base_url`` out for the hosted APIs.

Example:
    >>> with ad.IndexClient(emu.url) as node:              # a node: ad.IndexClient("http://127.0.0.1:9650")
    ...     xtx = node.chain("X/tx")                        # C/block, P/block, X/tx, X/block, X/vtx
    ...     print(xtx.last_accepted()["index"])             # a dict: id, bytes, timestamp, index, encoding
    ...     print(xtx.range(start=0).to_polars().height)    # the whole index as a DataFrame
    999
    1000
    >>> with ad.DataClient(base_url=emu.url) as data:      # the hosted Data API: ad.DataClient()
    ...     print(data.blocks("43114").to_polars(limit=100).height)   # a lazy, resumable Pager
    100
    >>> with ad.MetricsClient(base_url=emu.url) as metrics:
    ...     print(metrics.live_check()["status"])
    ok
    >>> ad.__version__ == ad._native.__version__
    True
    >>> emu.close()
"""

from __future__ import annotations

from . import _native, decode, exceptions, types
from ._native import (
    reset_logging,
    AsyncDataClient,
    AsyncMetricsClient,
    MetricsClient,
    AsyncPager,
    AsyncPagerIterator,
    AsyncPageIterator,
    DataClient,
    Pager,
    Plan,
    PagerIterator,
    PageIterator,
    PagerBatchIterator,
    AsyncPagerBatchIterator,
    AsyncBatchIterator,
    AsyncChain,
    AsyncFollow,
    AsyncIndexClient,
    AsyncRange,
    AsyncRangeIterator,
    BatchIterator,
    Chain,
    Emulator,
    Follow,
    IndexClient,
    Range,
    RangeIterator,
    verify_dataset,
    cache_info,
    cache_clear,
)
from .exceptions import *  # noqa: F403 (the exception classes, as listed in exceptions.__all__)
from . import _endpoints

# Every GET operation of the two OpenAPI documents without a hand-written method gets a
# generated one (tools/gen_endpoints.py), shared by the sync and async twins.
_endpoints.install(_endpoints.DATA_METHODS, DataClient, AsyncDataClient)
_endpoints.install(_endpoints.METRICS_METHODS, MetricsClient, AsyncMetricsClient)

from .decode import decode_container, decode_frame, transactions
from .types import Compression, Container, Decode, DecodedRow, RateLimitInfo, TimeArg
from .retry import RetryPolicy
from .reconciliation import Reconciliation, reconcile, reconcile_async


__version__: str = _native.__version__

__all__ = [
    "__version__",
    "reset_logging",
    # Index RPC client (each class beside its async twin)
    "IndexClient",
    "AsyncIndexClient",
    "Chain",
    "AsyncChain",
    "Range",
    "AsyncRange",
    "RangeIterator",
    "AsyncRangeIterator",
    "BatchIterator",
    "AsyncBatchIterator",
    "Follow",
    "AsyncFollow",
    "Compression",
    "Container",
    "DecodedRow",
    "Decode",
    "RateLimitInfo",
    "TimeArg",
    # Data API client
    "DataClient",
    "AsyncDataClient",
    "Plan",
    "Pager",
    "AsyncPager",
    "PagerIterator",
    "AsyncPagerIterator",
    "PageIterator",
    "AsyncPageIterator",
    "PagerBatchIterator",
    "AsyncPagerBatchIterator",
    # Metrics API client
    "MetricsClient",
    "AsyncMetricsClient",
    # Retries
    "RetryPolicy",
    # Decoding
    "decode",
    "decode_container",
    "decode_frame",
    "transactions",
    # Reconcile: the index against the Data API
    "reconcile",
    "reconcile_async",
    "Reconciliation",
    # Datasets
    "verify_dataset",
    # The on-disk cache (avax-data cache info / clear)
    "cache_info",
    "cache_clear",
    # Emulator
    "Emulator",
    "exceptions",
    "types",
]
__all__ += exceptions.__all__
