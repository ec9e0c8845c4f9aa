"""Type stubs for the Rust extension module ``avax_data._native``."""

import datetime
import os
from typing import Any, AsyncIterator, Iterator, Literal, Mapping, Sequence, TypeAlias, TypedDict, final, overload

import polars as pl

from avax_data.retry import RetryPolicy

__version__: str

Decode: TypeAlias = bool | Literal["strict"] | None
"""``decode=``: ``False``/``None`` raw containers, ``True`` decoded rows with ``decode_error``, ``"strict"`` raise."""

DecodedRow: TypeAlias = dict[str, Any]
"""A decoded container: ``id``, ``timestamp``, ``index``, the typed columns, ``decode_error``, ``bytes``."""

def decode_bytes(path: str, items: Sequence[bytes], *, strict: bool = False) -> pl.DataFrame:
    """Decode container bytes (checksum stripped) of index ``path`` into a DataFrame, one row per item."""

class Container(TypedDict):
    """A container (block, vertex or transaction) as the node's index returns it."""

    id: str
    """CB58 id; verified by the rule of its index (sha256 of the bytes, of a signed block without its
    signature, or the Ethereum hash of a pre-fork C-chain block) unless ``verify_ids=False``."""
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
        max_retries: int | None = None,
        backoff: float | None = None,
        max_backoff: float | None = None,
        retry_budget: float | None = None,
        concurrency: int = 4,
        verify_ids: bool = True,
        headers: Mapping[str, str] | None = None,
        max_response_bytes: int = 268_435_456,
        ca_bundle: str | os.PathLike[str] | None = None,
        danger_accept_invalid_certs: bool = False,
        follow_cross_origin_redirects: bool = False,
        rate_limit: float | None = None,
        compute_units_per_minute: int | None = None,
        retry: RetryPolicy | None = None,
    ) -> None: ...
    @property
    def url(self) -> str:
        """The node's base URL (secrets redacted)."""
    @property
    def retry(self) -> RetryPolicy:
        """The retry policy in force."""
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
    @overload
    def last_accepted(self, *, decode: Literal[False, None] = None) -> Container: ...
    @overload
    def last_accepted(self, *, decode: Literal[True, "strict"]) -> DecodedRow: ...
    def last_accepted(self, *, decode: Decode = None) -> Container | DecodedRow:
        """``index.getLastAccepted``: the most recently accepted container (decoded with ``decode=True``)."""
    @overload
    def container(
        self, index: int | None = None, *, id: str | None = None, decode: Literal[False, None] = None
    ) -> Container: ...
    @overload
    def container(
        self, index: int | None = None, *, id: str | None = None, decode: Literal[True, "strict"]
    ) -> DecodedRow: ...
    def container(
        self, index: int | None = None, *, id: str | None = None, decode: Decode = None
    ) -> Container | DecodedRow:
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
    def batches(self, *, decode: Decode = None) -> BatchIterator:
        """Iterate polars DataFrames of up to ``batch_size`` rows (``decode`` overrides the range's)."""
    def to_polars(self, *, decode: Decode = None) -> pl.DataFrame:
        """The whole (remaining) range as one DataFrame."""
    def write_parquet(self, path: str | os.PathLike[str], *, decode: Decode = None) -> int:
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
        max_retries: int | None = None,
        backoff: float | None = None,
        max_backoff: float | None = None,
        retry_budget: float | None = None,
        concurrency: int = 4,
        verify_ids: bool = True,
        headers: Mapping[str, str] | None = None,
        max_response_bytes: int = 268_435_456,
        ca_bundle: str | os.PathLike[str] | None = None,
        danger_accept_invalid_certs: bool = False,
        follow_cross_origin_redirects: bool = False,
        rate_limit: float | None = None,
        compute_units_per_minute: int | None = None,
        retry: RetryPolicy | None = None,
    ) -> None: ...
    @property
    def url(self) -> str:
        """The node's base URL (secrets redacted)."""
    @property
    def retry(self) -> RetryPolicy:
        """The retry policy in force."""
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
    async def last_accepted(self, *, decode: Decode = None) -> Container | DecodedRow: ...
    async def container(
        self, index: int | None = None, *, id: str | None = None, decode: Decode = None
    ) -> Container | DecodedRow: ...
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
        decode: Decode = None,
    ) -> AsyncRange: ...
    def follow(
        self,
        start: int | None = None,
        *,
        poll_interval: float = 1.0,
        max_poll_interval: float = 30.0,
        decode: Decode = None,
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
    def batches(self, *, decode: Decode = None) -> AsyncBatchIterator: ...
    async def to_polars(self, *, decode: Decode = None) -> pl.DataFrame: ...
    async def write_parquet(self, path: str | os.PathLike[str], *, decode: Decode = None) -> int: ...

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
        data_blocks_per_chain: int | None = None,
        data_api_require_key: bool = False,
        data_api_refused_keys: Sequence[str] | None = (),
        rate_limit: tuple[int, float] | None = None,
        faults: Mapping[str, float] | None = None,
        fault_seed: int = 0,
        fault_options: Mapping[str, float] | None = None,
    ) -> None: ...
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
    @overload
    def request_log(self, *, with_status: Literal[False] = False) -> list[tuple[float, str]]:
        """Every request received, oldest first: ``(seconds since start, path)``; with
        ``with_status=True``, ``(seconds since start, path, status)`` (``None`` while being served)."""
    @overload
    def request_log(self, *, with_status: Literal[True]) -> list[tuple[float, str, int | None]]: ...
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

# ---- Data API client ----

class RateLimitInfo(TypedDict):
    """The last ``ratelimit-*`` headers a service sent (``None`` for a missing header)."""

    policy: str | None
    limit: int | None
    remaining: int | None
    reset: int | None

@final
class DataClient:
    """Synchronous client of the hosted Data API (``/v1/...``).

    ``api_key`` defaults to ``AVAX_DATA_API_KEY`` (optional: a key gives higher rate limits); it
    is sent under both ``x-glacier-api-key`` and ``x-data-api-key`` and never shown in a
    ``repr``, an exception or a URL. ``base_url`` defaults to ``AVAX_DATA_API_URL``, then
    ``https://data-api.avax.network``. Retries connection errors, timeouts, 5xx and 429 (waiting
    ``Retry-After``) within ``retry_budget`` seconds; then raises the typed exception (a
    :class:`~avax_data.exceptions.RateLimitError` carries ``retry_after``).

    Bad parameters raise :class:`~avax_data.exceptions.InvalidParameterError` (a ``ValueError``)
    before any request. Dicts use the API's field names; decimal-string integers (``blockNumber``,
    ``gasUsed``, wei amounts, ...) become ``int``, Unix timestamps become timezone-aware UTC
    ``datetime``; other fields keep their JSON types (unknown fields and enum values included).
    """

    def __init__(
        self,
        api_key: str | None = None,
        *,
        base_url: str | None = None,
        timeout: float = 30.0,
        connect_timeout: float = 10.0,
        max_retries: int | None = None,
        backoff: float | None = None,
        max_backoff: float | None = None,
        retry_budget: float | None = None,
        headers: Mapping[str, str] | None = None,
        max_response_bytes: int = 268_435_456,
        ca_bundle: str | os.PathLike[str] | None = None,
        danger_accept_invalid_certs: bool = False,
        follow_cross_origin_redirects: bool = False,
        rate_limit: float | None = None,
        compute_units_per_minute: int | None = None,
        retry: RetryPolicy | None = None,
    ) -> None: ...
    @property
    def base_url(self) -> str:
        """The base URL (secrets redacted)."""
    @property
    def retry(self) -> RetryPolicy:
        """The retry policy in force."""
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
    def blocks(
        self, chain_id: str, *, page_size: int = 10, page_token: str | None = None, limit: int | None = None
    ) -> Pager:
        """Blocks of a chain, newest first; ``page_size`` 1-100."""
    def latest_blocks(
        self, *, network: str | None = None, page_size: int = 10, page_token: str | None = None, limit: int | None = None
    ) -> Pager:
        """Latest blocks across all chains (``GET /v1/blocks``), optionally of one network."""
    def collectibles(
        self,
        chain_id: str,
        address: str,
        *,
        contract_address: str | None = None,
        page_size: int = 10,
        page_token: str | None = None,
        limit: int | None = None,
    ) -> Pager:
        """ERC-721 and ERC-1155 balances of a wallet; ``page_size`` 1-500."""
    def pending_rewards(
        self,
        network: str,
        *,
        addresses: Sequence[str] | str | None = None,
        node_ids: Sequence[str] | str | None = None,
        sort_order: str | None = None,
        page_size: int = 10,
        page_token: str | None = None,
        limit: int | None = None,
    ) -> Pager:
        """Pending staking rewards; at least one of ``addresses`` (``[P-|X-]avax1...``) and
        ``node_ids`` (``NodeID-...``), as lists or comma-separated str; ``sort_order`` asc|desc."""
    def vertices(
        self,
        network: str,
        blockchain_id: str = "x-chain",
        *,
        page_size: int = 10,
        page_token: str | None = None,
        limit: int | None = None,
    ) -> Pager:
        """X-chain vertices; ``blockchain_id`` is ``x-chain`` or the network's X-chain id."""
    def icm_messages(
        self,
        *,
        source_blockchain_id: str | None = None,
        destination_blockchain_id: str | None = None,
        blockchain_id: str | None = None,
        to: str | None = None,
        from_: str | None = None,
        network: str | None = None,
        page_size: int = 10,
        page_token: str | None = None,
        limit: int | None = None,
    ) -> Pager:
        """Interchain (ICM) messages, newest first; ``from_`` is sent as ``from``."""
    def health(self) -> dict[str, Any]:
        """``GET /v1/health-check``."""
    def close(self) -> None:
        """Close the client; later calls raise ``AvaxDataError``."""
    def __enter__(self) -> DataClient: ...
    def __exit__(self, *exc: object) -> None: ...

@final
class AsyncDataClient:
    """Asynchronous twin of :class:`DataClient` (same options). Single-object methods are
    awaitables; list methods return an :class:`AsyncPager`."""

    def __init__(
        self,
        api_key: str | None = None,
        *,
        base_url: str | None = None,
        timeout: float = 30.0,
        connect_timeout: float = 10.0,
        max_retries: int | None = None,
        backoff: float | None = None,
        max_backoff: float | None = None,
        retry_budget: float | None = None,
        headers: Mapping[str, str] | None = None,
        max_response_bytes: int = 268_435_456,
        ca_bundle: str | os.PathLike[str] | None = None,
        danger_accept_invalid_certs: bool = False,
        follow_cross_origin_redirects: bool = False,
        rate_limit: float | None = None,
        compute_units_per_minute: int | None = None,
        retry: RetryPolicy | None = None,
    ) -> None: ...
    @property
    def base_url(self) -> str: ...
    @property
    def retry(self) -> RetryPolicy:
        """The retry policy in force."""
    @property
    def rate_limit(self) -> RateLimitInfo | None: ...
    async def chains(self, network: str | None = None, feature: str | None = None) -> list[dict[str, Any]]: ...
    async def chain(self, chain_id: str) -> dict[str, Any]: ...
    async def block(self, chain_id: str, block_id: int | str) -> dict[str, Any]: ...
    def blocks(
        self, chain_id: str, *, page_size: int = 10, page_token: str | None = None, limit: int | None = None
    ) -> AsyncPager: ...
    def latest_blocks(
        self, *, network: str | None = None, page_size: int = 10, page_token: str | None = None, limit: int | None = None
    ) -> AsyncPager: ...
    def collectibles(
        self,
        chain_id: str,
        address: str,
        *,
        contract_address: str | None = None,
        page_size: int = 10,
        page_token: str | None = None,
        limit: int | None = None,
    ) -> AsyncPager: ...
    def pending_rewards(
        self,
        network: str,
        *,
        addresses: Sequence[str] | str | None = None,
        node_ids: Sequence[str] | str | None = None,
        sort_order: str | None = None,
        page_size: int = 10,
        page_token: str | None = None,
        limit: int | None = None,
    ) -> AsyncPager: ...
    def vertices(
        self,
        network: str,
        blockchain_id: str = "x-chain",
        *,
        page_size: int = 10,
        page_token: str | None = None,
        limit: int | None = None,
    ) -> AsyncPager: ...
    def icm_messages(
        self,
        *,
        source_blockchain_id: str | None = None,
        destination_blockchain_id: str | None = None,
        blockchain_id: str | None = None,
        to: str | None = None,
        from_: str | None = None,
        network: str | None = None,
        page_size: int = 10,
        page_token: str | None = None,
        limit: int | None = None,
    ) -> AsyncPager: ...
    async def health(self) -> dict[str, Any]: ...
    def close(self) -> None: ...
    async def __aenter__(self) -> AsyncDataClient: ...
    async def __aexit__(self, *exc: object) -> bool: ...
    def __enter__(self) -> AsyncDataClient: ...
    def __exit__(self, *exc: object) -> None: ...

TimeArg = int | datetime.datetime | datetime.date

@final
class MetricsClient:
    """Synchronous client of the hosted Metrics API (``/v2/...``; no API key, no auth header).

    ``base_url`` defaults to ``AVAX_METRICS_API_URL``, then ``https://metrics.avax.network``.
    Retries connection errors, timeouts, 5xx and 429 (waiting ``Retry-After``) within
    ``retry_budget`` seconds. Every parameter is checked before any request
    (:class:`~avax_data.exceptions.InvalidParameterError` naming the parameter, the value and
    what is allowed).
    """

    def __init__(
        self,
        *,
        base_url: str | None = None,
        timeout: float = 30.0,
        connect_timeout: float = 10.0,
        max_retries: int | None = None,
        backoff: float | None = None,
        max_backoff: float | None = None,
        retry_budget: float | None = None,
        headers: Mapping[str, str] | None = None,
        max_response_bytes: int = 268_435_456,
        ca_bundle: str | os.PathLike[str] | None = None,
        danger_accept_invalid_certs: bool = False,
        follow_cross_origin_redirects: bool = False,
        rate_limit: float | None = None,
        compute_units_per_minute: int | None = None,
        retry: RetryPolicy | None = None,
    ) -> None: ...
    @property
    def base_url(self) -> str: ...
    @property
    def retry(self) -> RetryPolicy:
        """The retry policy in force."""
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

        ``chain_id``: an EVM chain id or ``total`` / ``mainnet`` / ``testnet``. ``metric``: one of
        the 17 chain metrics. ``interval``: ``hour``, ``day``, ``week`` or ``month`` (``None``:
        the service's default); cumulative*, avg*, max*, ``contracts``, ``deployers`` and
        ``feesPaid`` accept only ``day``. ``start`` / ``end``: int Unix seconds, a ``datetime``
        (naive = UTC) or a ``date`` (00:00 UTC), >= 0, start before end. ``page_size`` 1-2160
        (service default 100).

        Items are ``{"timestamp": datetime (UTC), "value": float}`` in the service's order
        (newest first on the hosted service). With both ``start`` and ``end`` and
        ``concurrency`` > 1 (default 4), the window is split into sub-windows cut on bucket
        starts and fetched concurrently; the result equals the sequential walk exactly. Such a
        sharded pager has no ``next_page_token``: a new iteration of the same pager resumes
        where it stopped (refetching), and a later run resumes by time (narrow ``start``/``end``).
        ``concurrency=1`` or ``page_token=`` walks page by page with resumable tokens.
        """
    def chains(self, network: str | None = None, *, page_token: str | None = None, limit: int | None = None) -> Pager:
        """``GET /v2/chains``: supported chains (``evmChainId``, ``chainName``, ``blockchainId``,
        ``subnetId``, ``network``), token-paged; ``network``: mainnet, fuji or testnet."""
    def icm_summary(
        self,
        src_blockchain_id: str | None = None,
        dest_blockchain_id: str | None = None,
        *,
        group_by: str | Sequence[str] | None = None,
        network: str | None = None,
    ) -> dict[str, Any] | pl.DataFrame:
        """``GET /v2/icm/summary``: rolling ICM message counts (``lastHour`` .. ``allTime``).

        A dict for a single result; a polars DataFrame (``srcBlockchainId``, ``destBlockchainId``,
        counts as Int64; a column is null when not grouped by it) when ``group_by`` is given
        (``srcBlockchainId``, ``destBlockchainId`` or ``srcBlockchainId,destBlockchainId``) or
        the service answers a list."""
    def live_check(self) -> dict[str, Any]:
        """``GET /v2/live-check``: ``{"status", "info", "error", "details"}``."""
    def close(self) -> None:
        """Close the client; later calls raise ``AvaxDataError``."""
    def __enter__(self) -> MetricsClient: ...
    def __exit__(self, *exc: object) -> None: ...

@final
class AsyncMetricsClient:
    """Asynchronous twin of :class:`MetricsClient` (same options): ``metric`` / ``chains``
    return an :class:`AsyncPager`; ``icm_summary`` / ``live_check`` are awaitables."""

    def __init__(
        self,
        *,
        base_url: str | None = None,
        timeout: float = 30.0,
        connect_timeout: float = 10.0,
        max_retries: int | None = None,
        backoff: float | None = None,
        max_backoff: float | None = None,
        retry_budget: float | None = None,
        headers: Mapping[str, str] | None = None,
        max_response_bytes: int = 268_435_456,
        ca_bundle: str | os.PathLike[str] | None = None,
        danger_accept_invalid_certs: bool = False,
        follow_cross_origin_redirects: bool = False,
        rate_limit: float | None = None,
        compute_units_per_minute: int | None = None,
        retry: RetryPolicy | None = None,
    ) -> None: ...
    @property
    def base_url(self) -> str: ...
    @property
    def retry(self) -> RetryPolicy:
        """The retry policy in force."""
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
        """:meth:`MetricsClient.metric` as an :class:`AsyncPager`."""
    def chains(self, network: str | None = None, *, page_token: str | None = None, limit: int | None = None) -> AsyncPager: ...
    async def icm_summary(
        self,
        src_blockchain_id: str | None = None,
        dest_blockchain_id: str | None = None,
        *,
        group_by: str | Sequence[str] | None = None,
        network: str | None = None,
    ) -> dict[str, Any] | pl.DataFrame: ...
    async def live_check(self) -> dict[str, Any]: ...
    def close(self) -> None: ...
    async def __aenter__(self) -> AsyncMetricsClient: ...
    async def __aexit__(self, *exc: object) -> bool: ...
    def __enter__(self) -> AsyncMetricsClient: ...
    def __exit__(self, *exc: object) -> None: ...

@final
class Pager:
    """A lazy, resumable walk over a paginated Data API or Metrics API list.

    ``for item in pager`` gives dicts, ``pager.pages()`` one list of dicts per page,
    ``to_polars()`` / ``write_parquet()`` typed frames. The next page is fetched while you work on
    the current one (two pages ahead at most). Each new iteration resumes where the last stopped;
    ``next_page_token`` (+ ``page_offset``) saves the position for a later ``page_token=``.
    An expired or unknown token raises :class:`~avax_data.exceptions.PageTokenError` (never a
    silent restart from page one). ``limit=`` caps the items handed out in total.
    """

    @property
    def next_page_token(self) -> str | None:
        """Token of the page holding the next unread item (``None`` on the first page or at the end)."""
    @property
    def page_offset(self) -> int:
        """Items of that page already handed out (0 at a page boundary)."""
    @property
    def items_read(self) -> int: ...
    @property
    def exhausted(self) -> bool:
        """Whether the last page was handed out."""
    @property
    def limit(self) -> int | None: ...
    @property
    def resource(self) -> str:
        """``block``, ``collectible``, ``pending_reward``, ``vertex``, ``icm_message`` (Data API),
        ``metric_value`` or ``metrics_chain`` (Metrics API)."""
    def __iter__(self) -> PagerIterator: ...
    def pages(self) -> PageIterator: ...
    def to_polars(self, limit: int | None = None) -> pl.DataFrame:
        """The rest of the walk (at most ``limit`` more items) as a typed DataFrame."""
    def write_parquet(self, path: str | os.PathLike[str]) -> int:
        """Stream the rest of the walk into a Parquet file; returns the rows written."""

@final
class PagerIterator(Iterator[dict[str, Any]]):
    def __iter__(self) -> PagerIterator: ...
    def __next__(self) -> dict[str, Any]: ...
    def close(self) -> None: ...

@final
class PageIterator(Iterator[list[dict[str, Any]]]):
    def __iter__(self) -> PageIterator: ...
    def __next__(self) -> list[dict[str, Any]]: ...
    def close(self) -> None: ...

@final
class AsyncPager:
    """Asynchronous twin of :class:`Pager`: ``async for``, ``pages()``, awaitable exports."""

    @property
    def next_page_token(self) -> str | None: ...
    @property
    def page_offset(self) -> int: ...
    @property
    def items_read(self) -> int: ...
    @property
    def exhausted(self) -> bool: ...
    @property
    def limit(self) -> int | None: ...
    @property
    def resource(self) -> str: ...
    def __aiter__(self) -> AsyncPagerIterator: ...
    def pages(self) -> AsyncPageIterator: ...
    async def to_polars(self, limit: int | None = None) -> pl.DataFrame: ...
    async def write_parquet(self, path: str | os.PathLike[str]) -> int: ...

@final
class AsyncPagerIterator(AsyncIterator[dict[str, Any]]):
    def __aiter__(self) -> AsyncPagerIterator: ...
    async def __anext__(self) -> dict[str, Any]: ...
    def close(self) -> None: ...

@final
class AsyncPageIterator(AsyncIterator[list[dict[str, Any]]]):
    def __aiter__(self) -> AsyncPageIterator: ...
    async def __anext__(self) -> list[dict[str, Any]]: ...
    def close(self) -> None: ...

@final
class Ready:
    """An already-completed awaitable: ``await`` gives its value at once. Async iterators hand out
    items that are already fetched through it, so ``async for`` costs about what ``for`` does."""

    def __await__(self) -> Ready: ...
    def __iter__(self) -> Ready: ...
    def __next__(self) -> None: ...
