"""avax-data: fast, typed, resumable access to Avalanche's node Index RPC, with an offline emulator.

Quick start::

    import avax_data as ad

    with ad.Emulator(containers=10_000) as emu:            # or a real node's URL
        with ad.IndexClient(emu.url) as node:
            xtx = node.chain("X/tx")                        # C/block, P/block, X/tx, X/block, X/vtx
            print(xtx.last_accepted()["index"])             # dict: id, bytes, timestamp, index, encoding
            df = xtx.range(start=0).to_polars()             # whole index as a polars DataFrame
            xtx.range(0, 5_000).write_parquet("x_tx.parquet")  # streamed, constant memory

The Rust core lives in ``avax_data._native``; errors are the classes of ``avax_data.exceptions``,
all re-exported here.
"""

from __future__ import annotations

from typing import TypedDict

from . import _native
from ._native import (
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
    RateLimitError,
    RequestTimeoutError,
    RPCError,
    RPCInvalidArgumentError,
    ServerError,
    TransportError,
    UnauthorizedError,
    http_error_class,
)

if hasattr(_native, "Container"):
    Container = _native.Container
else:
    import datetime as _datetime

    class Container(TypedDict):  # type: ignore[no-redef]
        """A container (block, vertex or transaction) as the node's index returns it.

        Keys: ``id`` (CB58 str), ``bytes`` (checksum verified and stripped), ``timestamp``
        (timezone-aware ``datetime`` in UTC), ``index`` (int, from 0), ``encoding`` (``"hex"``).
        """

        id: str
        bytes: bytes
        timestamp: _datetime.datetime
        index: int
        encoding: str


def _version() -> str:
    """The package version: the extension's own, else the installed distribution's."""
    native = getattr(_native, "__version__", None)
    if native:
        return str(native)
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("avax-data")
    except PackageNotFoundError:  # pragma: no cover - source tree without metadata
        return "0.0.0"


__version__: str = _version()

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
    # Emulator
    "Emulator",
    # Exceptions
    "AvaxDataError",
    "InvalidParameterError",
    "TransportError",
    "ConnectError",
    "RequestTimeoutError",
    "HTTPStatusError",
    "BadRequestError",
    "UnauthorizedError",
    "ForbiddenError",
    "NotFoundError",
    "RateLimitError",
    "ServerError",
    "IndexNotEnabledError",
    "RPCError",
    "ContainerNotFoundError",
    "IndexOutOfRangeError",
    "EmptyIndexError",
    "RPCInvalidArgumentError",
    "MethodNotFoundError",
    "IntegrityError",
    "DecodeError",
    "http_error_class",
]
