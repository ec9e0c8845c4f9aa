"""Type stubs for the Rust extension module ``avax_data._native``.

The sync classes are written here; their async twins (``AsyncIndexClient``, ``AsyncChain``, ...)
are generated from them by ``tools/async_stubs.py`` below the marker at the end of this file
(``python tools/async_stubs.py`` rewrites that part; ``--check`` fails when it is stale).
"""

import os
from typing import IO, Any, AsyncIterator, Iterator, Literal, Mapping, Sequence, final, overload

import polars as pl

from avax_data.types import Compression, Container, Decode, DecodedRow, Progress, RateLimitInfo, TimeArg

__version__: str
__all__ = [
    "__version__", "IndexClient", "Chain", "AsyncIndexClient", "AsyncChain", "Range", "RangeIterator", "BatchIterator",
    "Follow", "AsyncRange", "AsyncRangeIterator", "AsyncBatchIterator", "AsyncFollow", "Ready", "DataClient",
    "AsyncDataClient", "Pager", "PagerIterator", "PageIterator", "AsyncPager", "AsyncPagerIterator", "AsyncPageIterator",
    "MetricsClient", "AsyncMetricsClient", "PagerBatchIterator", "AsyncPagerBatchIterator", "Emulator", "decode_bytes", "reset_logging",
]

def reset_logging() -> None:
    """Make the Rust core follow the current ``logging`` configuration (levels of the ``avax_data``
    loggers are cached; creating a client does this too)."""

def decode_bytes(path: str, items: Sequence[bytes], *, strict: bool = False) -> pl.DataFrame:
    """Decode container bytes (checksum stripped) of index ``path`` into a DataFrame, one row per item."""

# ---- Index RPC client ----

@final
class IndexClient:
    """Synchronous client of a node's Index RPC (``/ext/index/...``).

    ``url`` defaults to the ``AVAX_NODE_URL`` environment variable, then
    ``https://api.avax.network``. Every wait releases the GIL and answers Ctrl-C within 250 ms.
    """

    def __new__(
        cls,
        url: str | None = None,
        *,
        concurrency: int = 4,
        verify_ids: bool = True,
        timeout: float = 30.0,
        connect_timeout: float = 10.0,
        max_retries: int = 3,
        backoff: float = 0.2,
        max_backoff: float = 10.0,
        retry_budget: float = 60.0,
        headers: Mapping[str, str] | None = None,
        max_response_bytes: int = 268435456,
        ca_bundle: str | os.PathLike[str] | None = None,
        danger_accept_invalid_certs: bool = False,
        follow_cross_origin_redirects: bool = False,
    ) -> IndexClient: ...
    @property
    def url(self) -> str:
        """The node's base URL (secrets redacted)."""
    def chain(self, path: str) -> Chain:
        """A handle on one index path: ``C/block``, ``P/block``, ``X/tx``, ``X/block`` or ``X/vtx``."""
    def close(self) -> None:
        """Close the client: later calls raise ``AvaxDataError("the client is closed")``."""
    def __enter__(self) -> IndexClient: ...
    def __exit__(self, *_exc: object) -> None: ...

@final
class Chain:
    """One index path of a node, with the six index methods and lazy range walks."""

    @property
    def path(self) -> str:
        """The short path, e.g. ``C/block``."""
    @overload
    def last_accepted(self, *, decode: Literal[False, None] = None) -> Container: ...
    @overload
    def last_accepted(self, *, decode: Literal[True, "strict"]) -> DecodedRow: ...
    @overload
    def container(
        self, index: int | None = None, *, id: str | None = None, decode: Literal[False, None] = None
    ) -> Container: ...
    @overload
    def container(self, index: int | None = None, *, id: str | None = None, decode: Literal[True, "strict"]) -> DecodedRow: ...
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
        decode: Decode = None,
    ) -> Range:
        """A lazy walk over ``[start, start+count)``, or to the tip seen when the walk starts."""
    def follow(
        self,
        start: int | None = None,
        *,
        poll_interval: float = 1.0,
        max_poll_interval: float = 30.0,
        decode: Decode = None,
        progress: Progress = None,
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
        """End of the range (exclusive): as given, or for a walk to the tip the index after the tip
        once a walk has read it (``None`` before)."""
    @property
    def next_index(self) -> int:
        """The first index not yet handed out: where the next iteration resumes."""
    def __iter__(self) -> RangeIterator: ...
    def items(self, *, decode: Decode = None, progress: Progress = None) -> RangeIterator:
        """Iterate the items (what ``for`` does); ``progress`` shows the rows handed out."""
    def batches(self, *, decode: Decode = None, progress: Progress = None) -> BatchIterator:
        """Iterate polars DataFrames of up to ``batch_size`` rows (``decode`` overrides the range's)."""
    def to_polars(self, *, decode: Decode = None, progress: Progress = None) -> pl.DataFrame:
        """The whole (remaining) range as one DataFrame, all or nothing."""
    def to_arrow(self, *, decode: Decode = None, progress: Progress = None) -> Any:
        """The whole (remaining) range as a ``pyarrow.Table`` (needs pyarrow), all or nothing."""
    def to_pandas(self, *, decode: Decode = None, progress: Progress = None) -> Any:
        """The whole (remaining) range as a ``pandas.DataFrame`` (needs pandas and pyarrow)."""
    def __arrow_c_stream__(self, requested_schema: object | None = None) -> object:
        """The rest of the range as an Arrow C stream; each batch read moves ``next_index``."""
    def _repr_html_(self) -> str:
        """An HTML table of the walk and its position, for Jupyter."""
    def write_parquet(
        self,
        path: str | os.PathLike[str] | IO[bytes],
        *,
        compression: Compression = "snappy",
        row_group_size: int = 65536,
        decode: Decode = None,
        progress: Progress = None,
    ) -> int:
        """Stream the (remaining) range into a Parquet file or binary file object; returns rows written."""

@final
class RangeIterator(Iterator[Container]):
    """Iterator of a range's items (container dicts, or decoded rows)."""

    @property
    def next_index(self) -> int:
        """The first index not yet handed out."""
    def __iter__(self) -> RangeIterator: ...
    def __next__(self) -> Container: ...
    def close(self) -> None:
        """Stop fetching (from any thread or task); the iteration then ends."""

@final
class BatchIterator(Iterator[pl.DataFrame]):
    """Iterator of a range's polars DataFrames (one per call to the node)."""

    @property
    def next_index(self) -> int:
        """The first index not yet handed out."""
    def __iter__(self) -> BatchIterator: ...
    def __next__(self) -> pl.DataFrame: ...
    def close(self) -> None:
        """Stop fetching (from any thread or task); the iteration then ends."""
    def __arrow_c_stream__(self, requested_schema: object | None = None) -> object:
        """The rest of the batches as an Arrow C stream; each batch read moves the position."""

@final
class Follow(Iterator[Container]):
    """Endless iterator of newly accepted containers; polls the tip with backoff while idle."""

    @property
    def next_index(self) -> int | None:
        """The first index not yet handed out (``None`` until the starting tip is known)."""
    def __iter__(self) -> Follow: ...
    def __next__(self) -> Container: ...
    def close(self) -> None:
        """Stop following (from any thread or task); the iteration then ends."""

# ---- Data API client ----

@final
class DataClient:
    """Synchronous client of the hosted Data API (``/v1/...``).

    ``api_key`` defaults to ``AVAX_DATA_API_KEY`` (optional: a key gives higher rate limits); it
    is sent under both ``x-glacier-api-key`` and ``x-data-api-key`` and never shown in a
    ``repr``, an exception or a URL. ``base_url`` defaults to ``AVAX_DATA_API_URL``, then
    ``https://data-api.avax.network``. Bad parameters raise
    :class:`~avax_data.exceptions.InvalidParameterError` (a ``ValueError``) before any request.
    """

    def __new__(
        cls,
        api_key: str | None = None,
        *,
        base_url: str | None = None,
        timeout: float = 30.0,
        connect_timeout: float = 10.0,
        max_retries: int = 3,
        backoff: float = 0.2,
        max_backoff: float = 10.0,
        retry_budget: float = 60.0,
        headers: Mapping[str, str] | None = None,
        max_response_bytes: int = 268435456,
        ca_bundle: str | os.PathLike[str] | None = None,
        danger_accept_invalid_certs: bool = False,
        follow_cross_origin_redirects: bool = False,
    ) -> DataClient: ...
    @property
    def base_url(self) -> str:
        """The base URL (secrets redacted)."""
    @property
    def rate_limit(self) -> RateLimitInfo | None:
        """The last ``ratelimit-policy/limit/remaining/reset`` headers seen, or ``None``."""
    def chains(self, network: str | None = None, feature: str | None = None) -> list[dict[str, Any]]:
        """``GET /v1/chains`` (not paginated); ``network`` mainnet|fuji|testnet, ``feature``
        nftIndexing|webhooks|teleporter."""
    def chain(self, chain_id: str) -> dict[str, Any]:
        """``GET /v1/chains/{chainId}``: an EVM chain id or a blockchain id."""
    def block(self, chain_id: str, block_id: int | str) -> dict[str, Any]:
        """``GET /v1/chains/{chainId}/blocks/{blockId}``: by number (int) or hash (str)."""
    def health(self) -> dict[str, Any]:
        """``GET /v1/health-check``."""
    def blocks(
        self, chain_id: str, *, page_size: int | None = None, page_token: str | None = None, limit: int | None = None
    ) -> Pager:
        """Blocks of a chain, newest first; ``page_size`` 1-100 (default: 100)."""
    def latest_blocks(
        self,
        *,
        network: str | None = None,
        page_size: int | None = None,
        page_token: str | None = None,
        limit: int | None = None,
    ) -> Pager:
        """Latest blocks across all chains (``GET /v1/blocks``), optionally of one network."""
    def collectibles(
        self,
        chain_id: str,
        address: str,
        *,
        contract_address: str | None = None,
        page_size: int | None = None,
        page_token: str | None = None,
        limit: int | None = None,
    ) -> Pager:
        """ERC-721 and ERC-1155 balances of a wallet; ``page_size`` 1-500 (default: 500)."""
    def pending_rewards(
        self,
        network: str,
        *,
        addresses: Sequence[str] | str | None = None,
        node_ids: Sequence[str] | str | None = None,
        sort_order: str | None = None,
        page_size: int | None = None,
        page_token: str | None = None,
        limit: int | None = None,
    ) -> Pager:
        """Pending staking rewards; at least one of ``addresses`` (``[P-|X-]avax1...``) and
        ``node_ids`` (``NodeID-...``), as lists or comma-separated str; ``sort_order`` asc|desc."""
    def vertices(
        self,
        network: str,
        blockchain_id: str | None = None,
        *,
        page_size: int | None = None,
        page_token: str | None = None,
        limit: int | None = None,
    ) -> Pager:
        """X-chain vertices; ``blockchain_id`` is ``x-chain`` (default) or the network's X-chain id."""
    def icm_messages(
        self,
        *,
        source_blockchain_id: str | None = None,
        destination_blockchain_id: str | None = None,
        blockchain_id: str | None = None,
        to: str | None = None,
        from_: str | None = None,
        network: str | None = None,
        page_size: int | None = None,
        page_token: str | None = None,
        limit: int | None = None,
    ) -> Pager:
        """Interchain (ICM) messages, newest first; ``from_`` is sent as ``from``."""
    def close(self) -> None:
        """Close the client: later calls raise ``AvaxDataError("the client is closed")``."""
    def __enter__(self) -> DataClient: ...
    def __exit__(self, *_exc: object) -> None: ...

# ---- Metrics API client ----

@final
class MetricsClient:
    """Synchronous client of the hosted Metrics API (``/v2/...``; no API key, no auth header).

    ``base_url`` defaults to ``AVAX_METRICS_API_URL``, then ``https://metrics.avax.network``.
    Every parameter is checked before any request.
    """

    def __new__(
        cls,
        *,
        base_url: str | None = None,
        timeout: float = 30.0,
        connect_timeout: float = 10.0,
        max_retries: int = 3,
        backoff: float = 0.2,
        max_backoff: float = 10.0,
        retry_budget: float = 60.0,
        headers: Mapping[str, str] | None = None,
        max_response_bytes: int = 268435456,
        ca_bundle: str | os.PathLike[str] | None = None,
        danger_accept_invalid_certs: bool = False,
        follow_cross_origin_redirects: bool = False,
    ) -> MetricsClient: ...
    @property
    def base_url(self) -> str:
        """The base URL."""
    def metric(
        self,
        chain_id: str | int,
        metric: str,
        *,
        interval: str | None = None,
        start: TimeArg | None = None,
        end: TimeArg | None = None,
        page_size: int | None = None,
        page_token: str | None = None,
        limit: int | None = None,
        concurrency: int | None = None,
    ) -> Pager:
        """``GET /v2/chains/{chainId}/metrics/{metric}``: a metric's time series.

        Items are ``{"timestamp": datetime (UTC), "value": float}`` in the service's order
        (newest first on the hosted service). With both ``start`` and ``end`` (no ``limit`` or
        ``page_token``) and ``concurrency`` > 1 (default 4), the window is fetched as sub-windows
        side by side and handed out in order as they complete; the result equals the sequential
        walk exactly.
        """
    def chains(self, network: str | None = None, *, page_token: str | None = None, limit: int | None = None) -> Pager:
        """``GET /v2/chains``: supported chains, token-paged; ``network``: mainnet, fuji or testnet."""
    def icm_summary(
        self,
        src_blockchain_id: str | None = None,
        dest_blockchain_id: str | None = None,
        *,
        group_by: str | Sequence[str] | None = None,
        network: str | None = None,
    ) -> dict[str, Any] | pl.DataFrame:
        """``GET /v2/icm/summary``: rolling ICM message counts; a DataFrame when grouped."""
    def live_check(self) -> dict[str, Any]:
        """``GET /v2/live-check``: the health report."""
    def close(self) -> None:
        """Close the client: later calls raise ``AvaxDataError("the client is closed")``."""
    def __enter__(self) -> MetricsClient: ...
    def __exit__(self, *_exc: object) -> None: ...

# ---- Pagers (Data API and Metrics API lists) ----

@final
class Pager:
    """A lazy, resumable walk over a paginated Data API or Metrics API list.

    ``for item in pager`` gives dicts, ``pager.pages()`` one list of dicts per page,
    ``to_polars()`` / ``write_parquet()`` typed frames. The position (``next_page_token`` +
    ``page_offset``, ``items_read``) is exactly what was handed out; every exception out of the
    walk carries it. ``limit=`` caps the items handed out in total.
    """

    @property
    def next_page_token(self) -> str | None:
        """Token of the page holding the next unread item (``None`` at the first page or the end)."""
    @property
    def page_offset(self) -> int:
        """Items of that page already handed out (0 at a page boundary)."""
    @property
    def items_read(self) -> int:
        """Items handed out so far."""
    @property
    def exhausted(self) -> bool:
        """Whether the walk handed out its last item."""
    @property
    def limit(self) -> int | None:
        """The ``limit=`` given, or ``None``."""
    @property
    def resource(self) -> str:
        """Polars schema name of the resource (``block``, ``collectible``, ...)."""
    def __iter__(self) -> PagerIterator: ...
    def items(self, *, progress: Progress = None) -> PagerIterator:
        """Iterate the items (what ``for`` does); ``progress`` shows the items handed out."""
    def pages(self, *, progress: Progress = None) -> PageIterator:
        """Iterate pages: one list of dicts per page."""
    def batches(self, *, progress: Progress = None) -> PagerBatchIterator:
        """Iterate pages as polars DataFrames of the resource."""
    def to_polars(self, limit: int | None = None, *, progress: Progress = None) -> pl.DataFrame:
        """The rest of the walk (at most ``limit`` more items) as a typed DataFrame, all or nothing."""
    def to_arrow(self, limit: int | None = None, *, progress: Progress = None) -> Any:
        """Like :meth:`to_polars`, as a ``pyarrow.Table`` (needs pyarrow)."""
    def to_pandas(self, limit: int | None = None, *, progress: Progress = None) -> Any:
        """Like :meth:`to_polars`, as a ``pandas.DataFrame`` (needs pandas and pyarrow)."""
    def __arrow_c_stream__(self, requested_schema: object | None = None) -> object:
        """The rest of the walk as an Arrow C stream, one batch per page; each batch read moves the position."""
    def _repr_html_(self) -> str:
        """An HTML table of the position, for Jupyter."""
    def write_parquet(
        self,
        path: str | os.PathLike[str] | IO[bytes],
        *,
        compression: Compression = "snappy",
        row_group_size: int = 65536,
        progress: Progress = None,
    ) -> int:
        """Stream the rest of the walk into a Parquet file or binary file object; returns the rows written."""

@final
class PagerIterator(Iterator[dict[str, Any]]):
    """Iterator of a pager's items (dicts with the API's field names)."""

    def __iter__(self) -> PagerIterator: ...
    def __next__(self) -> dict[str, Any]: ...
    def close(self) -> None:
        """Stop fetching (from any thread or task); the iteration then ends."""

@final
class PageIterator(Iterator[list[dict[str, Any]]]):
    """Iterator of a pager's pages (one list of dicts per page)."""

    def __iter__(self) -> PageIterator: ...
    def __next__(self) -> list[dict[str, Any]]: ...
    def close(self) -> None:
        """Stop fetching (from any thread or task); the iteration then ends."""

@final
class PagerBatchIterator(Iterator[pl.DataFrame]):
    """Iterator of a pager's pages as polars DataFrames of its resource."""

    def __iter__(self) -> PagerBatchIterator: ...
    def __next__(self) -> pl.DataFrame: ...
    def close(self) -> None:
        """Stop fetching (from any thread or task); the iteration then ends."""
    def __arrow_c_stream__(self, requested_schema: object | None = None) -> object:
        """The rest of the pages as an Arrow C stream; each batch read moves the position."""

@final
class Ready:
    """An already-completed awaitable: ``await`` gives its value at once. Async iterators hand out
    items that are already fetched through it, so ``async for`` costs about what ``for`` does."""

    def __await__(self) -> Ready: ...
    def __iter__(self) -> Ready: ...
    def __next__(self) -> None: ...

# ---- The emulator ----

@final
class Emulator:
    """The offline emulator of the services, served in-process on a loopback port.

    Containers are a pure function of ``seed`` and their index, so large indexes cost no memory.
    ``containers`` is the initial count per index path (one int for all, or a dict by path);
    ``tip_rate`` adds that many containers per second to every path; ``latency`` (seconds) is
    added to every request.

    Data API: ``data_blocks_per_chain`` blocks per EVM chain (default 5,000; also the number of
    X-chain vertices per network); ``data_api_require_key`` answers 401 without a key;
    ``data_api_refused_keys`` are answered 403; ``rate_limit=(limit, window_seconds)`` limits
    each key and sends the ``ratelimit-*`` headers (429 + ``retry-after`` past the limit).

    Fault injection: ``faults`` maps kinds to a rate per request in ``[0, 1]`` (``"500"``,
    ``"502"``, ``"503"``, ``"429"``, ``"reset"``, ``"cut"``, ``"truncated_json"``,
    ``"malformed_json"``, ``"slow_body"``, ``"rpc_error"``, ``"bad_checksum"``, ``"short_batch"``,
    ``"lagging_tip"``, ``"repeated_token"``, ``"redirect_same_origin"``,
    ``"redirect_cross_origin"``, ``"oversized"``, ``"gzip_bomb"``); ``fault_seed`` makes the same
    requests fault on every run; ``fault_options`` sets ``retry_after`` (s), ``lag``
    (containers), ``oversized_bytes``, ``gzip_bomb_bytes``, ``slow_body_pause`` (s). A bad kind,
    rate or option raises :class:`~avax_data.exceptions.InvalidParameterError` (a ``ValueError``).
    """

    def __new__(
        cls,
        *,
        seed: int = 0,
        containers: int | Mapping[str, int] | None = None,
        tip_rate: float = 0.0,
        index_enabled: bool = True,
        latency: float = 0.0,
        host: str = "127.0.0.1",
        port: int = 0,
        utc_offset_minutes: int = 0,
        data_blocks_per_chain: int | None = None,
        data_api_require_key: bool = False,
        data_api_refused_keys: Sequence[str] | None = None,
        rate_limit: tuple[int, float] | None = None,
        faults: Mapping[str, float] | None = None,
        fault_seed: int = 0,
        fault_options: Mapping[str, float] | None = None,
    ) -> Emulator: ...
    def set_faults(
        self,
        faults: Mapping[str, float] | None = None,
        fault_seed: int = 0,
        fault_options: Mapping[str, float] | None = None,
    ) -> None:
        """Replace the fault plan (``None`` turns faults off); decisions restart from the seed."""
    def faults(self) -> dict[str, float]:
        """The fault rates in force: kind -> rate (kinds at 0 left out)."""
    @property
    def fault_seed(self) -> int:
        """The seed of the fault decisions in force."""
    def fault_counts(self) -> dict[str, int]:
        """Faults injected so far: kind -> count."""
    def fault_counts_by_path(self) -> dict[tuple[str, str], int]:
        """Faults injected so far: ``(kind, path)`` -> count."""
    def request_log(self) -> list[tuple[float, str]]:
        """Every request received, oldest first: ``(seconds since start, path)``."""
    @property
    def second_url(self) -> str:
        """The second listener (another origin, same services) that cross-origin redirects use."""
    def advance_clock(self, seconds: float) -> None:
        """Data API: move the emulator clock forward (page tokens expire after 24 h of it)."""
    def set_rate_limit(self, rate_limit: tuple[int, float] | None = None) -> None:
        """Data API: set ``(limit, window_seconds)`` per key, or remove the limit (``None``)."""
    def set_data_api_require_key(self, require: bool) -> None:
        """Data API: answer 401 to requests without an API key (or stop doing so)."""
    def set_data_api_refused_keys(self, keys: Sequence[str]) -> None:
        """Data API: the API keys answered with 403."""
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

# ---- Async twins: generated by tools/async_stubs.py from the classes above; do not edit ----

@final
class AsyncIndexClient:
    """Asynchronous twin of :class:`IndexClient`: the same methods, awaitable where it blocks."""

    def __new__(
        cls,
        url: str | None = None,
        *,
        concurrency: int = 4,
        verify_ids: bool = True,
        timeout: float = 30.0,
        connect_timeout: float = 10.0,
        max_retries: int = 3,
        backoff: float = 0.2,
        max_backoff: float = 10.0,
        retry_budget: float = 60.0,
        headers: Mapping[str, str] | None = None,
        max_response_bytes: int = 268435456,
        ca_bundle: str | os.PathLike[str] | None = None,
        danger_accept_invalid_certs: bool = False,
        follow_cross_origin_redirects: bool = False,
    ) -> AsyncIndexClient: ...
    @property
    def url(self) -> str:
        """The node's base URL (secrets redacted)."""
    def chain(self, path: str) -> AsyncChain:
        """A handle on one index path: ``C/block``, ``P/block``, ``X/tx``, ``X/block`` or ``X/vtx``."""
    async def close(self) -> None:
        """Close the client: later calls raise ``AvaxDataError("the client is closed")``."""
    async def __aenter__(self) -> AsyncIndexClient: ...
    async def __aexit__(self, *_exc: object) -> None: ...

@final
class AsyncChain:
    """Asynchronous twin of :class:`Chain`: the same methods, awaitable where it blocks."""

    @property
    def path(self) -> str:
        """The short path, e.g. ``C/block``."""
    @overload
    async def last_accepted(self, *, decode: Literal[False, None] = None) -> Container: ...
    @overload
    async def last_accepted(self, *, decode: Literal[True, "strict"]) -> DecodedRow: ...
    @overload
    async def container(
        self, index: int | None = None, *, id: str | None = None, decode: Literal[False, None] = None
    ) -> Container: ...
    @overload
    async def container(self, index: int | None = None, *, id: str | None = None, decode: Literal[True, "strict"]) -> DecodedRow: ...
    async def container_range(self, start: int, count: int) -> list[Container]:
        """``index.getContainerRange``: one call, ``count`` in [0, 1024]; 0 answers ``[]`` locally."""
    async def index_of(self, id: str) -> int:
        """``index.getIndex``: the index of the container with this id."""
    async def is_accepted(self, id: str) -> bool:
        """``index.isAccepted``: whether this id is in the index (unknown ids are ``False``)."""
    def range(
        self,
        start: int = 0,
        count: int | None = None,
        *,
        concurrency: int | None = None,
        batch_size: int = 1024,
        decode: Decode = None,
    ) -> AsyncRange:
        """A lazy walk over ``[start, start+count)``, or to the tip seen when the walk starts."""
    def follow(
        self,
        start: int | None = None,
        *,
        poll_interval: float = 1.0,
        max_poll_interval: float = 30.0,
        decode: Decode = None,
        progress: Progress = None,
    ) -> AsyncFollow:
        """An endless iterator of newly accepted containers from ``start`` (default: after the tip)."""

@final
class AsyncRange:
    """Asynchronous twin of :class:`Range`: the same methods, awaitable where it blocks."""

    @property
    def start(self) -> int:
        """First index of the range as created."""
    @property
    def end(self) -> int | None:
        """End of the range (exclusive): as given, or for a walk to the tip the index after the tip
        once a walk has read it (``None`` before)."""
    @property
    def next_index(self) -> int:
        """The first index not yet handed out: where the next iteration resumes."""
    def __aiter__(self) -> AsyncRangeIterator: ...
    def items(self, *, decode: Decode = None, progress: Progress = None) -> AsyncRangeIterator:
        """Iterate the items (what ``for`` does); ``progress`` shows the rows handed out."""
    def batches(self, *, decode: Decode = None, progress: Progress = None) -> AsyncBatchIterator:
        """Iterate polars DataFrames of up to ``batch_size`` rows (``decode`` overrides the range's)."""
    async def to_polars(self, *, decode: Decode = None, progress: Progress = None) -> pl.DataFrame:
        """The whole (remaining) range as one DataFrame, all or nothing."""
    async def to_arrow(self, *, decode: Decode = None, progress: Progress = None) -> Any:
        """The whole (remaining) range as a ``pyarrow.Table`` (needs pyarrow), all or nothing."""
    async def to_pandas(self, *, decode: Decode = None, progress: Progress = None) -> Any:
        """The whole (remaining) range as a ``pandas.DataFrame`` (needs pandas and pyarrow)."""
    def __arrow_c_stream__(self, requested_schema: object | None = None) -> object:
        """The rest of the range as an Arrow C stream; each batch read moves ``next_index``."""
    async def _repr_html_(self) -> str:
        """An HTML table of the walk and its position, for Jupyter."""
    async def write_parquet(
        self,
        path: str | os.PathLike[str] | IO[bytes],
        *,
        compression: Compression = "snappy",
        row_group_size: int = 65536,
        decode: Decode = None,
        progress: Progress = None,
    ) -> int:
        """Stream the (remaining) range into a Parquet file or binary file object; returns rows written."""

@final
class AsyncRangeIterator(AsyncIterator[Container]):
    """Asynchronous twin of :class:`RangeIterator`: the same methods, awaitable where it blocks."""

    @property
    def next_index(self) -> int:
        """The first index not yet handed out."""
    def __aiter__(self) -> AsyncRangeIterator: ...
    async def __anext__(self) -> Container: ...
    def close(self) -> None:
        """Stop fetching (from any thread or task); the iteration then ends."""

@final
class AsyncBatchIterator(AsyncIterator[pl.DataFrame]):
    """Asynchronous twin of :class:`BatchIterator`: the same methods, awaitable where it blocks."""

    @property
    def next_index(self) -> int:
        """The first index not yet handed out."""
    def __aiter__(self) -> AsyncBatchIterator: ...
    async def __anext__(self) -> pl.DataFrame: ...
    def close(self) -> None:
        """Stop fetching (from any thread or task); the iteration then ends."""
    def __arrow_c_stream__(self, requested_schema: object | None = None) -> object:
        """The rest of the batches as an Arrow C stream; each batch read moves the position."""

@final
class AsyncFollow(AsyncIterator[Container]):
    """Asynchronous twin of :class:`Follow`: the same methods, awaitable where it blocks."""

    @property
    def next_index(self) -> int | None:
        """The first index not yet handed out (``None`` until the starting tip is known)."""
    def __aiter__(self) -> AsyncFollow: ...
    async def __anext__(self) -> Container: ...
    def close(self) -> None:
        """Stop following (from any thread or task); the iteration then ends."""

@final
class AsyncDataClient:
    """Asynchronous twin of :class:`DataClient`: the same methods, awaitable where it blocks."""

    def __new__(
        cls,
        api_key: str | None = None,
        *,
        base_url: str | None = None,
        timeout: float = 30.0,
        connect_timeout: float = 10.0,
        max_retries: int = 3,
        backoff: float = 0.2,
        max_backoff: float = 10.0,
        retry_budget: float = 60.0,
        headers: Mapping[str, str] | None = None,
        max_response_bytes: int = 268435456,
        ca_bundle: str | os.PathLike[str] | None = None,
        danger_accept_invalid_certs: bool = False,
        follow_cross_origin_redirects: bool = False,
    ) -> AsyncDataClient: ...
    @property
    def base_url(self) -> str:
        """The base URL (secrets redacted)."""
    @property
    def rate_limit(self) -> RateLimitInfo | None:
        """The last ``ratelimit-policy/limit/remaining/reset`` headers seen, or ``None``."""
    async def chains(self, network: str | None = None, feature: str | None = None) -> list[dict[str, Any]]:
        """``GET /v1/chains`` (not paginated); ``network`` mainnet|fuji|testnet, ``feature``
        nftIndexing|webhooks|teleporter."""
    async def chain(self, chain_id: str) -> dict[str, Any]:
        """``GET /v1/chains/{chainId}``: an EVM chain id or a blockchain id."""
    async def block(self, chain_id: str, block_id: int | str) -> dict[str, Any]:
        """``GET /v1/chains/{chainId}/blocks/{blockId}``: by number (int) or hash (str)."""
    async def health(self) -> dict[str, Any]:
        """``GET /v1/health-check``."""
    def blocks(
        self, chain_id: str, *, page_size: int | None = None, page_token: str | None = None, limit: int | None = None
    ) -> AsyncPager:
        """Blocks of a chain, newest first; ``page_size`` 1-100 (default: 100)."""
    def latest_blocks(
        self,
        *,
        network: str | None = None,
        page_size: int | None = None,
        page_token: str | None = None,
        limit: int | None = None,
    ) -> AsyncPager:
        """Latest blocks across all chains (``GET /v1/blocks``), optionally of one network."""
    def collectibles(
        self,
        chain_id: str,
        address: str,
        *,
        contract_address: str | None = None,
        page_size: int | None = None,
        page_token: str | None = None,
        limit: int | None = None,
    ) -> AsyncPager:
        """ERC-721 and ERC-1155 balances of a wallet; ``page_size`` 1-500 (default: 500)."""
    def pending_rewards(
        self,
        network: str,
        *,
        addresses: Sequence[str] | str | None = None,
        node_ids: Sequence[str] | str | None = None,
        sort_order: str | None = None,
        page_size: int | None = None,
        page_token: str | None = None,
        limit: int | None = None,
    ) -> AsyncPager:
        """Pending staking rewards; at least one of ``addresses`` (``[P-|X-]avax1...``) and
        ``node_ids`` (``NodeID-...``), as lists or comma-separated str; ``sort_order`` asc|desc."""
    def vertices(
        self,
        network: str,
        blockchain_id: str | None = None,
        *,
        page_size: int | None = None,
        page_token: str | None = None,
        limit: int | None = None,
    ) -> AsyncPager:
        """X-chain vertices; ``blockchain_id`` is ``x-chain`` (default) or the network's X-chain id."""
    def icm_messages(
        self,
        *,
        source_blockchain_id: str | None = None,
        destination_blockchain_id: str | None = None,
        blockchain_id: str | None = None,
        to: str | None = None,
        from_: str | None = None,
        network: str | None = None,
        page_size: int | None = None,
        page_token: str | None = None,
        limit: int | None = None,
    ) -> AsyncPager:
        """Interchain (ICM) messages, newest first; ``from_`` is sent as ``from``."""
    async def close(self) -> None:
        """Close the client: later calls raise ``AvaxDataError("the client is closed")``."""
    async def __aenter__(self) -> AsyncDataClient: ...
    async def __aexit__(self, *_exc: object) -> None: ...

@final
class AsyncMetricsClient:
    """Asynchronous twin of :class:`MetricsClient`: the same methods, awaitable where it blocks."""

    def __new__(
        cls,
        *,
        base_url: str | None = None,
        timeout: float = 30.0,
        connect_timeout: float = 10.0,
        max_retries: int = 3,
        backoff: float = 0.2,
        max_backoff: float = 10.0,
        retry_budget: float = 60.0,
        headers: Mapping[str, str] | None = None,
        max_response_bytes: int = 268435456,
        ca_bundle: str | os.PathLike[str] | None = None,
        danger_accept_invalid_certs: bool = False,
        follow_cross_origin_redirects: bool = False,
    ) -> AsyncMetricsClient: ...
    @property
    def base_url(self) -> str:
        """The base URL."""
    def metric(
        self,
        chain_id: str | int,
        metric: str,
        *,
        interval: str | None = None,
        start: TimeArg | None = None,
        end: TimeArg | None = None,
        page_size: int | None = None,
        page_token: str | None = None,
        limit: int | None = None,
        concurrency: int | None = None,
    ) -> AsyncPager:
        """``GET /v2/chains/{chainId}/metrics/{metric}``: a metric's time series.

        Items are ``{"timestamp": datetime (UTC), "value": float}`` in the service's order
        (newest first on the hosted service). With both ``start`` and ``end`` (no ``limit`` or
        ``page_token``) and ``concurrency`` > 1 (default 4), the window is fetched as sub-windows
        side by side and handed out in order as they complete; the result equals the sequential
        walk exactly.
        """
    def chains(self, network: str | None = None, *, page_token: str | None = None, limit: int | None = None) -> AsyncPager:
        """``GET /v2/chains``: supported chains, token-paged; ``network``: mainnet, fuji or testnet."""
    async def icm_summary(
        self,
        src_blockchain_id: str | None = None,
        dest_blockchain_id: str | None = None,
        *,
        group_by: str | Sequence[str] | None = None,
        network: str | None = None,
    ) -> dict[str, Any] | pl.DataFrame:
        """``GET /v2/icm/summary``: rolling ICM message counts; a DataFrame when grouped."""
    async def live_check(self) -> dict[str, Any]:
        """``GET /v2/live-check``: the health report."""
    async def close(self) -> None:
        """Close the client: later calls raise ``AvaxDataError("the client is closed")``."""
    async def __aenter__(self) -> AsyncMetricsClient: ...
    async def __aexit__(self, *_exc: object) -> None: ...

@final
class AsyncPager:
    """Asynchronous twin of :class:`Pager`: the same methods, awaitable where it blocks."""

    @property
    def next_page_token(self) -> str | None:
        """Token of the page holding the next unread item (``None`` at the first page or the end)."""
    @property
    def page_offset(self) -> int:
        """Items of that page already handed out (0 at a page boundary)."""
    @property
    def items_read(self) -> int:
        """Items handed out so far."""
    @property
    def exhausted(self) -> bool:
        """Whether the walk handed out its last item."""
    @property
    def limit(self) -> int | None:
        """The ``limit=`` given, or ``None``."""
    @property
    def resource(self) -> str:
        """Polars schema name of the resource (``block``, ``collectible``, ...)."""
    def __aiter__(self) -> AsyncPagerIterator: ...
    def items(self, *, progress: Progress = None) -> AsyncPagerIterator:
        """Iterate the items (what ``for`` does); ``progress`` shows the items handed out."""
    def pages(self, *, progress: Progress = None) -> AsyncPageIterator:
        """Iterate pages: one list of dicts per page."""
    def batches(self, *, progress: Progress = None) -> AsyncPagerBatchIterator:
        """Iterate pages as polars DataFrames of the resource."""
    async def to_polars(self, limit: int | None = None, *, progress: Progress = None) -> pl.DataFrame:
        """The rest of the walk (at most ``limit`` more items) as a typed DataFrame, all or nothing."""
    async def to_arrow(self, limit: int | None = None, *, progress: Progress = None) -> Any:
        """Like :meth:`to_polars`, as a ``pyarrow.Table`` (needs pyarrow)."""
    async def to_pandas(self, limit: int | None = None, *, progress: Progress = None) -> Any:
        """Like :meth:`to_polars`, as a ``pandas.DataFrame`` (needs pandas and pyarrow)."""
    def __arrow_c_stream__(self, requested_schema: object | None = None) -> object:
        """The rest of the walk as an Arrow C stream, one batch per page; each batch read moves the position."""
    async def _repr_html_(self) -> str:
        """An HTML table of the position, for Jupyter."""
    async def write_parquet(
        self,
        path: str | os.PathLike[str] | IO[bytes],
        *,
        compression: Compression = "snappy",
        row_group_size: int = 65536,
        progress: Progress = None,
    ) -> int:
        """Stream the rest of the walk into a Parquet file or binary file object; returns the rows written."""

@final
class AsyncPagerIterator(AsyncIterator[dict[str, Any]]):
    """Asynchronous twin of :class:`PagerIterator`: the same methods, awaitable where it blocks."""

    def __aiter__(self) -> AsyncPagerIterator: ...
    async def __anext__(self) -> dict[str, Any]: ...
    def close(self) -> None:
        """Stop fetching (from any thread or task); the iteration then ends."""

@final
class AsyncPageIterator(AsyncIterator[list[dict[str, Any]]]):
    """Asynchronous twin of :class:`PageIterator`: the same methods, awaitable where it blocks."""

    def __aiter__(self) -> AsyncPageIterator: ...
    async def __anext__(self) -> list[dict[str, Any]]: ...
    def close(self) -> None:
        """Stop fetching (from any thread or task); the iteration then ends."""

@final
class AsyncPagerBatchIterator(AsyncIterator[pl.DataFrame]):
    """Asynchronous twin of :class:`PagerBatchIterator`: the same methods, awaitable where it blocks."""

    def __aiter__(self) -> AsyncPagerBatchIterator: ...
    async def __anext__(self) -> pl.DataFrame: ...
    def close(self) -> None:
        """Stop fetching (from any thread or task); the iteration then ends."""
    def __arrow_c_stream__(self, requested_schema: object | None = None) -> object:
        """The rest of the pages as an Arrow C stream; each batch read moves the position."""
