"""Type stubs for the Rust extension module ``avax_data._native``."""

import datetime
import os
from typing import AsyncIterator, Iterator, Mapping, TypedDict, final

import polars as pl

__version__: str

class Container(TypedDict):
    """A container (block, vertex or transaction) as the node's index returns it."""

    id: str
    """CB58 id; verified to be cb58(sha256(bytes)) unless ``verify_ids=False``."""
    bytes: bytes
    """Container bytes, checksum verified and stripped."""
    timestamp: datetime.datetime
    """Acceptance time on the node, timezone-aware, in UTC (microseconds; DataFrames keep ns)."""
    index: int
    """Position in the index, from 0."""
    encoding: str
    """Always ``"hex"``."""

@final
class IndexClient:
    """Synchronous client of a node's Index RPC (``/ext/index/...``).

    ``url`` defaults to the ``AVAX_NODE_URL`` environment variable, then
    ``https://api.avax.network``. Every wait releases the GIL and answers Ctrl-C within 250 ms.
    """

    def __init__(
        self,
        url: str | None = None,
        *,
        timeout: float = 30.0,
        connect_timeout: float = 10.0,
        max_retries: int = 3,
        backoff: float = 0.2,
        max_backoff: float = 10.0,
        retry_budget: float = 60.0,
        concurrency: int = 4,
        verify_ids: bool = True,
        headers: Mapping[str, str] | None = None,
    ) -> None: ...
    @property
    def url(self) -> str:
        """The node's base URL (secrets redacted)."""
    def chain(self, path: str) -> Chain:
        """A handle on one index path: ``C/block``, ``P/block``, ``X/tx``, ``X/block`` or ``X/vtx``."""
    def close(self) -> None:
        """Close pooled connections. The client cannot be used afterwards."""
    def __enter__(self) -> IndexClient: ...
    def __exit__(self, *exc: object) -> None: ...

@final
class Chain:
    """One index path of a node, with the six index methods and lazy range walks."""

    @property
    def path(self) -> str:
        """The short path, e.g. ``C/block``."""
    def last_accepted(self) -> Container:
        """``index.getLastAccepted``: the most recently accepted container."""
    def container(self, index: int | None = None, *, id: str | None = None) -> Container:
        """``index.getContainerByIndex`` (``index=``) or ``index.getContainerByID`` (``id=``)."""
    def container_range(self, start: int, count: int) -> list[Container]:
        """``index.getContainerRange``: one call, ``count`` in [0, 1024]; 0 answers ``[]`` locally."""
    def index_of(self, id: str) -> int:
        """``index.getIndex``: the index of the container with this id."""
    def is_accepted(self, id: str) -> bool:
        """``index.isAccepted``: whether this id is in the index (unknown ids are ``False``)."""
    def range(
        self,
        start: int = 0,
        count: int | None = None,
        *,
        concurrency: int | None = None,
        batch_size: int = 1024,
    ) -> Range:
        """A lazy walk over ``[start, start+count)``, or to the tip seen when the walk starts."""
    def follow(
        self,
        start: int | None = None,
        *,
        poll_interval: float = 1.0,
        max_poll_interval: float = 30.0,
    ) -> Follow:
        """An endless iterator of newly accepted containers from ``start`` (default: after the tip)."""

@final
class Range:
    """A lazy, resumable, ordered walk over an index range.

    Iterating gives dicts; ``batches()`` gives polars DataFrames. Each new iteration starts at
    ``next_index``, which advances as items are handed to you, so a walk can be resumed.
    """

    @property
    def start(self) -> int:
        """First index of the range as created."""
    @property
    def end(self) -> int | None:
        """End of the range (exclusive), or ``None`` for "to the tip when the walk starts"."""
    @property
    def next_index(self) -> int:
        """The first index not yet handed out: where the next iteration resumes."""
    def __iter__(self) -> RangeIterator: ...
    def batches(self) -> BatchIterator:
        """Iterate polars DataFrames of up to ``batch_size`` rows."""
    def to_polars(self) -> pl.DataFrame:
        """The whole (remaining) range as one DataFrame."""
    def write_parquet(self, path: str | os.PathLike[str]) -> int:
        """Stream the (remaining) range into a Parquet file in constant memory; returns rows written."""

@final
class RangeIterator(Iterator[Container]):
    """Iterator of container dicts from a :class:`Range`."""

    @property
    def next_index(self) -> int:
        """The first index not yet handed out."""
    def __iter__(self) -> RangeIterator: ...
    def __next__(self) -> Container: ...
    def close(self) -> None:
        """Stop fetching; later ``next()`` raises ``StopIteration``."""

@final
class BatchIterator(Iterator[pl.DataFrame]):
    """Iterator of polars DataFrames (columns ``id``, ``bytes``, ``timestamp``, ``index``, ``encoding``)."""

    @property
    def next_index(self) -> int:
        """The first index not yet handed out."""
    def __iter__(self) -> BatchIterator: ...
    def __next__(self) -> pl.DataFrame: ...
    def close(self) -> None:
        """Stop fetching; later ``next()`` raises ``StopIteration``."""

@final
class Follow(Iterator[Container]):
    """Endless iterator of newly accepted containers; polls the tip with backoff.

    Closing the client while ``next()`` waits makes it raise ``AvaxDataError``.
    """

    @property
    def next_index(self) -> int | None:
        """The first index not yet handed out; ``None`` until the starting tip is known."""
    def __iter__(self) -> Follow: ...
    def __next__(self) -> Container: ...
    def close(self) -> None:
        """Stop following; later ``next()`` raises ``StopIteration``."""

@final
class AsyncIndexClient:
    """Asynchronous twin of :class:`IndexClient` (same options); methods return awaitables."""

    def __init__(
        self,
        url: str | None = None,
        *,
        timeout: float = 30.0,
        connect_timeout: float = 10.0,
        max_retries: int = 3,
        backoff: float = 0.2,
        max_backoff: float = 10.0,
        retry_budget: float = 60.0,
        concurrency: int = 4,
        verify_ids: bool = True,
        headers: Mapping[str, str] | None = None,
    ) -> None: ...
    @property
    def url(self) -> str:
        """The node's base URL (secrets redacted)."""
    def chain(self, path: str) -> AsyncChain:
        """A handle on one index path."""
    async def close(self) -> None:
        """Close pooled connections."""
    async def __aenter__(self) -> AsyncIndexClient: ...
    async def __aexit__(self, *exc: object) -> None: ...

@final
class AsyncChain:
    """Asynchronous twin of :class:`Chain`."""

    @property
    def path(self) -> str: ...
    async def last_accepted(self) -> Container: ...
    async def container(self, index: int | None = None, *, id: str | None = None) -> Container: ...
    async def container_range(self, start: int, count: int) -> list[Container]: ...
    async def index_of(self, id: str) -> int: ...
    async def is_accepted(self, id: str) -> bool: ...
    def range(
        self,
        start: int = 0,
        count: int | None = None,
        *,
        concurrency: int | None = None,
        batch_size: int = 1024,
    ) -> AsyncRange: ...
    def follow(
        self,
        start: int | None = None,
        *,
        poll_interval: float = 1.0,
        max_poll_interval: float = 30.0,
    ) -> AsyncFollow: ...

@final
class AsyncRange:
    """Asynchronous twin of :class:`Range`: ``async for``, ``batches()``, awaitable exports."""

    @property
    def start(self) -> int: ...
    @property
    def end(self) -> int | None: ...
    @property
    def next_index(self) -> int: ...
    def __aiter__(self) -> AsyncRangeIterator: ...
    def batches(self) -> AsyncBatchIterator: ...
    async def to_polars(self) -> pl.DataFrame: ...
    async def write_parquet(self, path: str | os.PathLike[str]) -> int: ...

@final
class AsyncRangeIterator(AsyncIterator[Container]):
    """Async iterator of container dicts."""

    @property
    def next_index(self) -> int: ...
    def __aiter__(self) -> AsyncRangeIterator: ...
    async def __anext__(self) -> Container: ...
    def close(self) -> None: ...

@final
class AsyncBatchIterator(AsyncIterator[pl.DataFrame]):
    """Async iterator of polars DataFrames."""

    @property
    def next_index(self) -> int: ...
    def __aiter__(self) -> AsyncBatchIterator: ...
    async def __anext__(self) -> pl.DataFrame: ...
    def close(self) -> None: ...

@final
class AsyncFollow(AsyncIterator[Container]):
    """Async twin of :class:`Follow`."""

    @property
    def next_index(self) -> int | None: ...
    def __aiter__(self) -> AsyncFollow: ...
    async def __anext__(self) -> Container: ...
    def close(self) -> None: ...

@final
class Emulator:
    """The offline emulator of the services, served in-process on a loopback port.

    Containers are a pure function of ``seed`` and their index, so large indexes cost no memory.
    ``containers`` is the initial count per index path (one int for all, or a dict by path);
    ``tip_rate`` adds that many containers per second to every path; ``latency`` (seconds) is
    added to every request.
    """

    def __init__(
        self,
        *,
        seed: int = 0,
        containers: int | Mapping[str, int] | None = None,
        tip_rate: float = 0.0,
        index_enabled: bool = True,
        latency: float = 0.0,
        host: str = "127.0.0.1",
        port: int = 0,
        utc_offset_minutes: int = 0,
    ) -> None: ...
    @property
    def url(self) -> str:
        """``http://host:port`` of the running emulator."""
    @property
    def port(self) -> int: ...
    def container_count(self, path: str) -> int:
        """How many containers the index path holds now."""
    def advance(self, path: str, n: int = 1) -> int:
        """Accept ``n`` more containers on ``path``; returns the new count."""
    def set_index_enabled(self, enabled: bool) -> None:
        """Serve (or stop serving, with HTTP 404) the index paths."""
    def set_latency(self, seconds: float) -> None:
        """Delay every later response by ``seconds``."""
    def expected_container(self, path: str, index: int) -> Container:
        """The container the emulator serves at ``index`` (no network), for comparisons in tests."""
    def request_count(self) -> int:
        """Requests served so far (all paths)."""
    def close(self) -> None:
        """Stop serving."""
    def __enter__(self) -> Emulator: ...
    def __exit__(self, *exc: object) -> None: ...
