"""avax-data: fast, typed, resumable access to Avalanche's node Index RPC, with an offline emulator.

Quick start::

    import avax_data as ad

    with ad.Emulator(containers=10_000) as emu:            # or a real node's URL
        with ad.IndexClient(emu.url) as node:
            xtx = node.chain("X/tx")                        # C/block, P/block, X/tx, X/block, X/vtx
            print(xtx.last_accepted()["index"])             # dict: id, bytes, timestamp, index, encoding
            df = xtx.range(start=0).to_polars()             # whole index as a polars DataFrame
            xtx.range(0, 5_000).write_parquet("x_tx.parquet")  # streamed, constant memory
        with ad.DataClient(base_url=emu.url) as data:       # hosted Data API; AVAX_DATA_API_KEY
            data.chains(network="mainnet")                  # list of dicts
            df = data.blocks("43114", page_size=100).to_polars(limit=1_000)   # lazy, resumable Pager
        with ad.MetricsClient(base_url=emu.url) as metrics:  # hosted Metrics API; AVAX_METRICS_API_URL
            metrics.metric("43114", "txCount", interval="day", start=..., end=...).to_polars()

The Rust core lives in ``avax_data._native``; errors are the classes of ``avax_data.exceptions``,
all re-exported here.
"""

from __future__ import annotations

import datetime
from typing import TypedDict

from . import _native, decode, exceptions
from ._native import (
    AsyncDataClient,
    AsyncMetricsClient,
    MetricsClient,
    AsyncPager,
    AsyncPagerIterator,
    AsyncPageIterator,
    DataClient,
    Pager,
    PagerIterator,
    PageIterator,
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
)
from .exceptions import (
    AvaxDataError,
    BadRequestError,
    ConnectError,
    ContainerNotFoundError,
    DecodeError,
    EmptyIndexError,
    ForbiddenError,
    HTTPStatusError,
    IndexNotEnabledError,
    IndexOutOfRangeError,
    IntegrityError,
    InvalidParameterError,
    MethodNotFoundError,
    NotFoundError,
    PageTokenError,
    RateLimitError,
    RedirectError,
    RequestTimeoutError,
    ResponseTooLargeError,
    RPCError,
    RPCInvalidArgumentError,
    ServerError,
    TransportError,
    UnauthorizedError,
    http_error_class,
)

from .decode import decode_container, decode_frame, transactions
from .retry import RetryPolicy


class Container(TypedDict):
    """A container (block, vertex or transaction) as the node's index returns it.

    Keys: ``id`` (CB58 str), ``bytes`` (checksum verified and stripped), ``timestamp``
    (timezone-aware ``datetime`` in UTC), ``index`` (int, from 0), ``encoding`` (``"hex"``).
    """

    id: str
    bytes: bytes
    timestamp: datetime.datetime
    index: int
    encoding: str


__version__: str = _native.__version__

__all__ = [
    "__version__",
    # Index RPC client
    "IndexClient",
    "Chain",
    "Range",
    "RangeIterator",
    "BatchIterator",
    "Follow",
    "AsyncIndexClient",
    "AsyncChain",
    "AsyncRange",
    "AsyncRangeIterator",
    "AsyncBatchIterator",
    "AsyncFollow",
    "Container",
    # Data API client
    "DataClient",
    "AsyncDataClient",
    "Pager",
    "PagerIterator",
    "PageIterator",
    "AsyncPager",
    "AsyncPagerIterator",
    "AsyncPageIterator",
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
    # Emulator
    "Emulator",
    # Exceptions
    *exceptions.__all__,
]
