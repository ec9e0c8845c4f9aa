"""Type stubs for the Rust extension module ``avax_data._native``.

The sync classes are written here; their async twins (``AsyncIndexClient``, ``AsyncChain``, ...)
are generated from them by ``tools/async_stubs.py`` below the marker at the end of this file
(``python tools/async_stubs.py`` rewrites that part; ``--check`` fails when it is stale).
"""

import datetime
import os
from typing import IO, Any, AsyncIterator, Awaitable, Generator, Iterator, Literal, Mapping, Sequence, final, overload

import polars as pl

from avax_data.retry import RetryPolicy
from avax_data.types import (
    Compression, Container, Decode, DecodedRow, Feature, GroupBy, IndexPathName, Interval, MetricName, Network,
    Progress, RateLimitInfo, SortOrder, TimeArg,
)

__version__: str
__all__ = [
    "__version__", "IndexClient", "Chain", "AsyncIndexClient", "AsyncChain", "Range", "RangeIterator", "BatchIterator",
    "Follow", "AsyncRange", "AsyncRangeIterator", "AsyncBatchIterator", "AsyncFollow", "Ready", "DataClient",
    "AsyncDataClient", "Pager", "Plan", "PagerIterator", "PageIterator", "AsyncPager", "AsyncPagerIterator", "AsyncPageIterator",
    "MetricsClient", "AsyncMetricsClient", "PagerBatchIterator", "AsyncPagerBatchIterator", "Emulator", "decode_bytes", "c_block_senders", "reset_logging",
    "month_windows", "complete_partitions", "merge_dataset", "verify_dataset", "Pending", "literal_tables",
    "openapi_operations", "cache_info", "cache_clear", "cache_default_dir",
    "_client_settings", "_default_settings", "_ExportCheckpoint", "_verify_checkpoint",
]

def _client_settings(client: object) -> list[tuple[str, str]]:
    """The settings of a client (sync or async) as ``(name, value)`` pairs of text."""

def _default_settings(name: str) -> list[tuple[str, str]]:
    """The settings of the client class ``name`` built from Rust with no arguments."""

def literal_tables() -> list[tuple[str, tuple[list[str], str]]]:
    """The closed sets of values the core accepts, by the name of their ``Literal`` alias."""

def reset_logging() -> None:
    """Make the Rust core follow the current Python ``logging`` configuration."""

def decode_bytes(path: IndexPathName, items: Sequence[bytes], *, strict: bool = False) -> pl.DataFrame:
    """Decode container bytes of one index into a polars DataFrame, one row per item, in order."""

def c_block_senders(items: Sequence[bytes], *, threads: int = 0) -> list[list[str]]:
    """The sender of every transaction of each C/block container, from the signatures."""

def openapi_operations() -> list[dict[str, Any]]:
    """Every GET operation of both documents as dicts: what the generator of the endpoint methods"""

def month_windows(start: int, end: int) -> list[tuple[int, int, int, int]]:
    """The UTC month windows of ``[start, end)``: ``(month, first, next, ask_from)`` each."""

def complete_partitions(path: str | os.PathLike[str]) -> list[tuple[int, int, int, int]]:
    """The complete partitions of a dataset directory whose files are as its manifest records."""

def merge_dataset(path: str | os.PathLike[str], staged: Sequence[str | os.PathLike[str]]) -> dict[str, int]:
    """Move the partitions of staged datasets into one dataset directory and its manifest."""

def cache_info(dir: str | os.PathLike[str]) -> dict[str, Any]:
    """What a cache directory holds: entries and bytes, in all and per kind."""
def cache_clear(dir: str | os.PathLike[str]) -> dict[str, Any]:
    """Deletes every entry of a cache directory; returns what was deleted."""
def cache_default_dir() -> str | None:
    """The cache directory clients use when not told (``$AVAX_DATA_CACHE``), or ``None``."""
def verify_dataset(dir: str | os.PathLike[str]) -> dict[str, Any]:
    """Check a dataset directory fully: every file against its recorded sha256, files the manifest
    does not name, and the positions the partitions hold."""
def _verify_checkpoint(path: str | os.PathLike[str]) -> dict[str, Any]:
    """What an export's checkpoint says and whether its output is as recorded."""

@final
class _ExportCheckpoint:
    """The checkpoint of one export at work, its lock held (for the command line)."""

    def __new__(cls, command: str, format: str, output: str, args: str) -> _ExportCheckpoint: ...
    @property
    def path(self) -> str: ...
    @property
    def saved(self) -> bool: ...
    @property
    def rows_written(self) -> int: ...
    def resume(self) -> tuple[str, int, str]: ...
    def save(self, position: str) -> None: ...
    def next_part(self) -> str: ...
    def add_part(self, rows: int, position: str) -> None: ...
    def add_bytes(self, size: int, rows: int, position: str) -> None: ...
    def finish(self) -> None: ...
    def release(self) -> None: ...

# ---- Index RPC client ----

@final
class IndexClient:
    """Synchronous client of a node's Index RPC (``/ext/index/...``)."""

    def __new__(
        cls,
        url: str | None = None,
        *,
        concurrency: int = 4,
        verify_ids: bool = True,
        cache: str | os.PathLike[str] | Literal[False] | None = ...,
        cache_max_bytes: int | None = None,
        timeout: float = 30.0,
        connect_timeout: float = 10.0,
        max_retries: int | None = None,
        backoff: float | None = None,
        max_backoff: float | None = None,
        retry_budget: float | None = None,
        headers: Mapping[str, str] | None = None,
        max_response_bytes: int = 268435456,
        ca_bundle: str | os.PathLike[str] | None = None,
        danger_accept_invalid_certs: bool = False,
        follow_cross_origin_redirects: bool = False,
        rate_limit: float | None = None,
        compute_units_per_minute: int | None = None,
        retry: RetryPolicy | None = None,
        tier: str | None = None,
    ) -> IndexClient: ...
    @property
    def url(self) -> str:
        """The node's base URL, with any password in it redacted."""
    def _repr_html_(self) -> str:
        """An HTML table of the client (URL, closed or not, retry policy), which Jupyter shows."""
    def chain(self, path: IndexPathName) -> Chain:
        """A handle on one index of the node (no request is sent)."""
    @property
    def retry(self) -> RetryPolicy:
        """The retry policy in force, an :class:`avax_data.RetryPolicy`."""
    def close(self) -> None:
        """Close the client, from any thread."""
    def __enter__(self) -> IndexClient: ...
    def __exit__(self, *_exc: object) -> None: ...

@final
class Chain:
    """One index of a node: the six Index RPC methods and lazy, resumable walks."""

    @property
    def path(self) -> str:
        """The index path, e.g. ``"C/block"``."""
    @overload
    def last_accepted(self, *, decode: Literal[False, None] = None) -> Container:
        """The most recently accepted container (``index.getLastAccepted``)."""
    @overload
    def last_accepted(self, *, decode: Literal[True, "strict"]) -> DecodedRow:
        """The most recently accepted container (``index.getLastAccepted``)."""
    @overload
    def container(
        self, index: int | None = None, *, id: str | None = None, decode: Literal[False, None] = None
    ) -> Container:
        """One container, by its index or by its id."""
    @overload
    def container(self, index: int | None = None, *, id: str | None = None, decode: Literal[True, "strict"]) -> DecodedRow:
        """One container, by its index or by its id."""
    def container_range(self, start: int, count: int) -> list[Container]:
        """Up to ``count`` containers from ``start``, in one call (``index.getContainerRange``)."""
    def index_of(self, id: str) -> int:
        """The position of the container with this id (``index.getIndex``)."""
    def is_accepted(self, id: str) -> bool:
        """Whether the container with this id is accepted in the index (``index.isAccepted``)."""
    def range(
        self,
        start: int = 0,
        count: int | None = None,
        *,
        concurrency: int | None = None,
        batch_size: int = 1024,
        decode: Decode = None,
    ) -> Range:
        """A lazy walk over ``[start, start + count)``, or to the tip seen when the walk starts."""
    def follow(
        self,
        start: int | None = None,
        *,
        poll_interval: float = 1.0,
        max_poll_interval: float = 30.0,
        decode: Decode = None,
        progress: Progress = None,
    ) -> Follow:
        """An endless iterator of the containers accepted from ``start`` on, as they come."""

@final
class Range:
    """A lazy, resumable, ordered walk over an index range, made by :meth:`Chain.range`."""

    def plan(self) -> Plan:
        """The cost plan of the rest of this range, sending nothing: a :class:`Plan`."""

    @property
    def start(self) -> int:
        """The first index of the range as created (it does not move; see :attr:`next_index`)."""
    @property
    def end(self) -> int | None:
        """The end of the range (exclusive), once known."""
    @property
    def next_index(self) -> int:
        """The first index not yet handed to you: where the next consumer starts."""
    def __iter__(self) -> RangeIterator: ...
    def items(self, *, decode: Decode = None, progress: Progress = None) -> RangeIterator:
        """Iterate the rest of the range one item at a time (what ``for`` does)."""
    def batches(self, *, decode: Decode = None, progress: Progress = None) -> BatchIterator:
        """Iterate the rest of the range as polars DataFrames, one per call to the node."""
    def to_polars(self, *, decode: Decode = None, progress: Progress = None) -> pl.DataFrame:
        """The rest of the range as one polars DataFrame, all or nothing."""
    def to_arrow(self, *, decode: Decode = None, progress: Progress = None) -> Any:
        """The rest of the range as one ``pyarrow.Table``, all or nothing (needs pyarrow; no copy)."""
    def to_pandas(self, *, decode: Decode = None, progress: Progress = None) -> Any:
        """The rest of the range as one ``pandas.DataFrame``, all or nothing (needs pandas, pyarrow)."""
    def __arrow_c_stream__(self, requested_schema: object | None = None) -> object:
        """The rest of the range as an Arrow C stream (the Arrow PyCapsule interface)."""
    def _repr_html_(self) -> str:
        """An HTML table of the walk and its position, which Jupyter shows for a range."""
    def restart(self) -> Range:
        """The same range from its original :attr:`start`, as a new range with a position of its own."""
    def write_parquet(
        self,
        path: str | os.PathLike[str] | IO[bytes],
        *,
        compression: Compression = "snappy",
        row_group_size: int = 65536,
        decode: Decode = None,
        progress: Progress = None,
    ) -> int:
        """Stream the rest of the range into a Parquet file, in constant memory."""
    def write_dataset(
        self,
        path: str | os.PathLike[str],
        *,
        chunk: int = 100000,
        compression: Compression = "snappy",
        row_group_size: int = 65536,
        decode: Decode = None,
        progress: Progress = None,
    ) -> dict[str, int]:
        """Write the rest of the range as a dataset: a directory of Parquet files, one per chunk of ``chunk`` indices."""

@final
class RangeIterator(Iterator[Container]):
    """Iterator of a range's items: container dicts, or decoded rows."""

    @property
    def next_index(self) -> int:
        """The first index not yet handed out by this iterator's walk: where it resumes."""
    def __iter__(self) -> RangeIterator: ...
    def __next__(self) -> Container: ...
    def close(self) -> None:
        """Stop fetching, from any thread or task; the iteration then ends."""

@final
class BatchIterator(Iterator[pl.DataFrame]):
    """Iterator of a range's polars DataFrames, one per call to the node."""

    @property
    def next_index(self) -> int:
        """The first index not yet handed out by this iterator's walk: where it resumes."""
    def __iter__(self) -> BatchIterator: ...
    def __next__(self) -> pl.DataFrame: ...
    def close(self) -> None:
        """Stop fetching, from any thread or task; the iteration then ends."""
    def __arrow_c_stream__(self, requested_schema: object | None = None) -> object:
        """The rest of the batches as an Arrow C stream (the Arrow PyCapsule interface)."""

@final
class Follow(Iterator[Container]):
    """An endless iterator of accepted containers, made by :meth:`Chain.follow`."""

    @property
    def next_index(self) -> int | None:
        """The first index not yet handed out (``None`` until the starting tip is known)."""
    def __iter__(self) -> Follow: ...
    def __next__(self) -> Container: ...
    def close(self) -> None:
        """Stop following, from any thread or task; the iteration then ends."""

# ---- Data API client ----

@final
class DataClient:
    """Synchronous client of the hosted Data API (``/v1/...``)."""

    def __new__(
        cls,
        base_url: str | None = None,
        *,
        api_key: str | None = None,
        timeout: float = 30.0,
        connect_timeout: float = 10.0,
        max_retries: int | None = None,
        backoff: float | None = None,
        max_backoff: float | None = None,
        retry_budget: float | None = None,
        headers: Mapping[str, str] | None = None,
        max_response_bytes: int = 268435456,
        ca_bundle: str | os.PathLike[str] | None = None,
        danger_accept_invalid_certs: bool = False,
        follow_cross_origin_redirects: bool = False,
        rate_limit: float | None = None,
        compute_units_per_minute: int | None = None,
        retry: RetryPolicy | None = None,
        tier: str | None = None,
    ) -> DataClient: ...
    @property
    def base_url(self) -> str:
        """The service root, with any password in it redacted."""
    def _repr_html_(self) -> str:
        """An HTML table of the client (URL, closed or not, retry policy), which Jupyter shows."""
    @property
    def rate_limit(self) -> RateLimitInfo | None:
        """The last ``ratelimit-*`` headers the service sent, or ``None`` before any."""
    def chains(self, network: Network | None = None, feature: Feature | None = None) -> list[dict[str, Any]]:
        """The chains the service supports (``GET /v1/chains``; not paginated)."""
    def chain(self, chain_id: str) -> dict[str, Any]:
        """One chain (``GET /v1/chains/{chainId}``)."""
    def block(self, chain_id: str, block_id: int | str) -> dict[str, Any]:
        """One block of an EVM chain, by number or by hash."""
    def health(self) -> dict[str, Any]:
        """The service's health report (``GET /v1/health-check``)."""
    def blocks(
        self, chain_id: str, *, page_size: int | None = None, page_token: str | None = None, limit: int | None = None
    ) -> Pager:
        """The blocks of an EVM chain, newest first (``GET /v1/chains/{chainId}/blocks``)."""
    def latest_blocks(
        self,
        *,
        network: Network | None = None,
        page_size: int | None = None,
        page_token: str | None = None,
        limit: int | None = None,
    ) -> Pager:
        """The latest blocks across all chains, newest first (``GET /v1/blocks``)."""
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
        """The NFTs (ERC-721 and ERC-1155) a wallet holds on a chain."""
    def pending_rewards(
        self,
        network: Network,
        *,
        addresses: Sequence[str] | str | None = None,
        node_ids: Sequence[str] | str | None = None,
        sort_order: SortOrder | None = None,
        page_size: int | None = None,
        page_token: str | None = None,
        limit: int | None = None,
    ) -> Pager:
        """Pending staking rewards of P-chain addresses or validators."""
    def vertices(
        self,
        network: Network,
        blockchain_id: str | None = None,
        *,
        page_size: int | None = None,
        page_token: str | None = None,
        limit: int | None = None,
    ) -> Pager:
        """X-chain vertices (the DAG era), newest first."""
    def icm_messages(
        self,
        *,
        source_blockchain_id: str | None = None,
        destination_blockchain_id: str | None = None,
        blockchain_id: str | None = None,
        to: str | None = None,
        from_: str | None = None,
        network: Network | None = None,
        page_size: int | None = None,
        page_token: str | None = None,
        limit: int | None = None,
    ) -> Pager:
        """Interchain (ICM, Teleporter) messages, newest first (``GET /v1/icm/messages``)."""
    # ---- endpoint methods: generated by tools/gen_endpoints.py from the OpenAPI documents; do not edit ----
    def _call_list(self, operation_id: str, arguments: Mapping[str, Any], page_token: str | None = None,
                   limit: int | None = None) -> Pager:
        """Calls the list operation ``operation_id`` of the service with ``arguments`` (Python"""
    def _call_object(self, operation_id: str, arguments: Mapping[str, Any]) -> dict[str, Any]:
        """Calls the object operation ``operation_id`` of the service with ``arguments``"""
    def address_chains(self, address: str) -> dict[str, Any]:
        """List all chains associated with a given address (``GET /v1/address/{address}/chains``)."""
    def api_logs(self, *, org_id: str | None = None, start_timestamp: TimeArg | None = None, end_timestamp: TimeArg | None = None, chain_id: str | int | None = None, response_code: str | None = None, request_type: str | None = None, api_key_id: str | None = None, request_path: str | None = None, page_size: int | None = None, page_token: str | None = None, limit: int | None = None) -> Pager:
        """Get logs for requests made by client (``GET /v1/apiLogs``)."""
    def api_usage_metrics(self, *, org_id: str | None = None, start_timestamp: TimeArg | None = None, end_timestamp: TimeArg | None = None, time_interval: str | None = None, group_by: str | None = None, chain_id: str | int | None = None, response_code: str | None = None, request_type: str | None = None, api_key_id: str | None = None, request_path: str | None = None) -> dict[str, Any]:
        """Get usage metrics for the Data API (``GET /v1/apiUsageMetrics``)."""
    def avax_supply(self) -> dict[str, Any]:
        """Get AVAX supply information (``GET /v1/avax/supply``)."""
    def contract_metadata(self, chain_id: str | int, address: str) -> dict[str, Any]:
        """Get contract metadata (``GET /v1/chains/{chainId}/addresses/{address}``)."""
    def native_balance(self, chain_id: str | int, address: str, *, block_number: str | None = None, currency: str | None = None) -> dict[str, Any]:
        """Get native token balance (``GET /v1/chains/{chainId}/addresses/{address}/balances:getNative``)."""
    def erc1155_balances(self, chain_id: str | int, address: str, *, block_number: str | None = None, page_size: int | None = None, contract_address: str | None = None, page_token: str | None = None, limit: int | None = None) -> Pager:
        """List ERC-1155 balances (``GET /v1/chains/{chainId}/addresses/{address}/balances:listErc1155``)."""
    def erc20_balances(self, chain_id: str | int, address: str, *, block_number: str | None = None, page_size: int | None = None, filter_spam_tokens: bool | None = None, contract_addresses: Sequence[str] | str | None = None, currency: str | None = None, page_token: str | None = None, limit: int | None = None) -> Pager:
        """List ERC-20 balances (``GET /v1/chains/{chainId}/addresses/{address}/balances:listErc20``)."""
    def erc721_balances(self, chain_id: str | int, address: str, *, page_size: int | None = None, contract_address: str | None = None, page_token: str | None = None, limit: int | None = None) -> Pager:
        """List ERC-721 balances (``GET /v1/chains/{chainId}/addresses/{address}/balances:listErc721``)."""
    def transactions(self, chain_id: str | int, address: str, *, page_size: int | None = None, start_block: float | None = None, end_block: float | None = None, sort_order: str | None = None, page_token: str | None = None, limit: int | None = None) -> Pager:
        """List transactions (``GET /v1/chains/{chainId}/addresses/{address}/transactions``)."""
    def erc1155_transfers(self, chain_id: str | int, address: str, *, start_block: float | None = None, end_block: float | None = None, page_size: int | None = None, page_token: str | None = None, limit: int | None = None) -> Pager:
        """List ERC-1155 transfers (``GET /v1/chains/{chainId}/addresses/{address}/transactions:listErc1155``)."""
    def erc20_transfers(self, chain_id: str | int, address: str, *, start_block: float | None = None, end_block: float | None = None, page_size: int | None = None, page_token: str | None = None, limit: int | None = None) -> Pager:
        """List ERC-20 transfers (``GET /v1/chains/{chainId}/addresses/{address}/transactions:listErc20``)."""
    def erc721_transfers(self, chain_id: str | int, address: str, *, start_block: float | None = None, end_block: float | None = None, page_size: int | None = None, page_token: str | None = None, limit: int | None = None) -> Pager:
        """List ERC-721 transfers (``GET /v1/chains/{chainId}/addresses/{address}/transactions:listErc721``)."""
    def internal_transactions(self, chain_id: str | int, address: str, *, start_block: float | None = None, end_block: float | None = None, page_size: int | None = None, page_token: str | None = None, limit: int | None = None) -> Pager:
        """List internal transactions (``GET /v1/chains/{chainId}/addresses/{address}/transactions:listInternals``)."""
    def native_transactions(self, chain_id: str | int, address: str, *, start_block: float | None = None, end_block: float | None = None, page_size: int | None = None, page_token: str | None = None, limit: int | None = None) -> Pager:
        """List native transactions (``GET /v1/chains/{chainId}/addresses/{address}/transactions:listNative``)."""
    def block_transactions(self, chain_id: str | int, block_id: str, *, page_size: int | None = None, page_token: str | None = None, limit: int | None = None) -> Pager:
        """List transactions for a block (``GET /v1/chains/{chainId}/blocks/{blockId}/transactions``)."""
    def contract_deployments(self, chain_id: str | int, address: str, *, page_size: int | None = None, page_token: str | None = None, limit: int | None = None) -> Pager:
        """List deployed contracts (``GET /v1/chains/{chainId}/contracts/{address}/deployments``)."""
    def deployment_transaction(self, chain_id: str | int, address: str, *, currency: str | None = None) -> dict[str, Any]:
        """Get deployment transaction (``GET /v1/chains/{chainId}/contracts/{address}/transactions:getDeployment``)."""
    def nft_tokens(self, chain_id: str | int, address: str, *, page_size: int | None = None, page_token: str | None = None, limit: int | None = None) -> Pager:
        """List tokens (``GET /v1/chains/{chainId}/nfts/collections/{address}/tokens``)."""
    def nft_token(self, chain_id: str | int, address: str, token_id: str) -> dict[str, Any]:
        """Get token details (``GET /v1/chains/{chainId}/nfts/collections/{address}/tokens/{tokenId}``)."""
    def token_transfers(self, chain_id: str | int, address: str, *, start_block: float | None = None, end_block: float | None = None, page_size: int | None = None, page_token: str | None = None, limit: int | None = None) -> Pager:
        """List ERC transfers (``GET /v1/chains/{chainId}/tokens/{address}/transfers``)."""
    def chain_transactions(self, chain_id: str | int, *, page_size: int | None = None, status: str | None = None, page_token: str | None = None, limit: int | None = None) -> Pager:
        """List latest transactions (``GET /v1/chains/{chainId}/transactions``)."""
    def transaction(self, chain_id: str | int, tx_hash: str) -> dict[str, Any]:
        """Get transaction (``GET /v1/chains/{chainId}/transactions/{txHash}``)."""
    def icm_messages_of_address(self, address: str, *, page_size: int | None = None, network: str | None = None, page_token: str | None = None, limit: int | None = None) -> Pager:
        """List ICM messages by address (``GET /v1/icm/addresses/{address}/messages``)."""
    def icm_message(self, message_id: str) -> dict[str, Any]:
        """Get an ICM message (``GET /v1/icm/messages/{messageId}``)."""
    def live_check(self) -> dict[str, Any]:
        """Get the liveliness of the service (reads only) (``GET /v1/live-check``)."""
    def network_details(self, network: str) -> dict[str, Any]:
        """Get network details (``GET /v1/networks/{network}``)."""
    def chain_ids_of_addresses(self, network: str, *, addresses: Sequence[str] | str) -> dict[str, Any]:
        """Get chain interactions for addresses (``GET /v1/networks/{network}/addresses:listChainIds``)."""
    def blockchains(self, network: str, *, page_size: int | None = None, sort_order: str | None = None, page_token: str | None = None, limit: int | None = None) -> Pager:
        """List blockchains (``GET /v1/networks/{network}/blockchains``)."""
    def blockchain(self, network: str, blockchain_id: str) -> dict[str, Any]:
        """Get blockchain details by ID (``GET /v1/networks/{network}/blockchains/{blockchainId}``)."""
    def asset(self, network: str, blockchain_id: str, asset_id: str) -> dict[str, Any]:
        """Get asset details (``GET /v1/networks/{network}/blockchains/{blockchainId}/assets/{assetId}``)."""
    def asset_transactions(self, network: str, blockchain_id: str, asset_id: str, *, tx_types: Sequence[str] | str | None = None, start_timestamp: TimeArg | None = None, end_timestamp: TimeArg | None = None, page_size: int | None = None, page_token: str | None = None, limit: int | None = None) -> Pager:
        """List asset transactions (``GET /v1/networks/{network}/blockchains/{blockchainId}/assets/{assetId}/transactions``)."""
    def primary_network_balances(self, network: str, blockchain_id: str, *, block_timestamp: TimeArg | None = None, addresses: Sequence[str] | str | None = None) -> dict[str, Any]:
        """Get balances (``GET /v1/networks/{network}/blockchains/{blockchainId}/balances``)."""
    def primary_network_blocks(self, network: str, blockchain_id: str, *, start_timestamp: TimeArg | None = None, end_timestamp: TimeArg | None = None, page_size: int | None = None, page_token: str | None = None, limit: int | None = None) -> Pager:
        """List latest blocks (``GET /v1/networks/{network}/blockchains/{blockchainId}/blocks``)."""
    def primary_network_block(self, network: str, blockchain_id: str, block_id: str) -> dict[str, Any]:
        """Get block (``GET /v1/networks/{network}/blockchains/{blockchainId}/blocks/{blockId}``)."""
    def last_activity_timestamp(self, network: str, blockchain_id: str, *, addresses: Sequence[str] | str | None = None) -> dict[str, Any]:
        """Get last activity timestamp by addresses (``GET /v1/networks/{network}/blockchains/{blockchainId}/lastActivityTimestampByAddresses``)."""
    def primary_network_blocks_by_node(self, network: str, blockchain_id: str, node_id: str, *, start_timestamp: TimeArg | None = None, end_timestamp: TimeArg | None = None, page_size: int | None = None, page_token: str | None = None, limit: int | None = None) -> Pager:
        """List blocks proposed by node (``GET /v1/networks/{network}/blockchains/{blockchainId}/nodes/{nodeId}/blocks``)."""
    def primary_network_transactions(self, network: str, blockchain_id: str, *, addresses: Sequence[str] | str | None = None, l1_validation_id: str | None = None, tx_types: Sequence[str] | str | None = None, start_timestamp: TimeArg | None = None, end_timestamp: TimeArg | None = None, page_size: int | None = None, sort_order: str | None = None, page_token: str | None = None, limit: int | None = None) -> Pager:
        """List latest transactions (``GET /v1/networks/{network}/blockchains/{blockchainId}/transactions``)."""
    def primary_network_transaction(self, network: str, blockchain_id: str, tx_hash: str) -> dict[str, Any]:
        """Get transaction (``GET /v1/networks/{network}/blockchains/{blockchainId}/transactions/{txHash}``)."""
    def staking_transactions(self, network: str, blockchain_id: str, *, addresses: Sequence[str] | str | None = None, tx_types: Sequence[str] | str | None = None, start_timestamp: TimeArg | None = None, end_timestamp: TimeArg | None = None, page_size: int | None = None, sort_order: str | None = None, page_token: str | None = None, limit: int | None = None) -> Pager:
        """List staking transactions (``GET /v1/networks/{network}/blockchains/{blockchainId}/transactions:listStaking``)."""
    def utxos(self, network: str, blockchain_id: str, *, addresses: Sequence[str] | str | None = None, page_size: int | None = None, asset_id: str | None = None, min_utxo_amount: float | None = None, include_spent: bool | None = None, sort_by: str | None = None, sort_order: str | None = None, page_token: str | None = None, limit: int | None = None) -> Pager:
        """List UTXOs (``GET /v1/networks/{network}/blockchains/{blockchainId}/utxos``)."""
    def vertex(self, network: str, blockchain_id: str, vertex_hash: str) -> dict[str, Any]:
        """Get vertex (``GET /v1/networks/{network}/blockchains/{blockchainId}/vertices/{vertexHash}``)."""
    def vertices_by_height(self, network: str, blockchain_id: str, *, vertex_height: int, page_size: int | None = None, sort_order: str | None = None, page_token: str | None = None, limit: int | None = None) -> Pager:
        """List vertices by height (``GET /v1/networks/{network}/blockchains/{blockchainId}/vertices:listByHeight``)."""
    def delegators(self, network: str, *, page_size: int | None = None, reward_addresses: Sequence[str] | str | None = None, sort_order: str | None = None, delegation_status: str | None = None, node_ids: Sequence[str] | str | None = None, page_token: str | None = None, limit: int | None = None) -> Pager:
        """List delegators (``GET /v1/networks/{network}/delegators``)."""
    def l1_validators(self, network: str, *, page_size: int | None = None, l1_validation_id: str | None = None, include_inactive_l1_validators: bool | None = None, node_id: str | None = None, subnet_id: str | None = None, page_token: str | None = None, limit: int | None = None) -> Pager:
        """List L1 validators (``GET /v1/networks/{network}/l1Validators``)."""
    def historical_rewards(self, network: str, *, addresses: Sequence[str] | str | None = None, page_size: int | None = None, node_ids: Sequence[str] | str | None = None, sort_order: str | None = None, currency: str | None = None, page_token: str | None = None, limit: int | None = None) -> Pager:
        """List historical rewards (``GET /v1/networks/{network}/rewards``)."""
    def subnets(self, network: str, *, page_size: int | None = None, sort_order: str | None = None, page_token: str | None = None, limit: int | None = None) -> Pager:
        """List subnets (``GET /v1/networks/{network}/subnets``)."""
    def subnet(self, network: str, subnet_id: str) -> dict[str, Any]:
        """Get Subnet details by ID (``GET /v1/networks/{network}/subnets/{subnetId}``)."""
    def validators(self, network: str, *, page_size: int | None = None, node_ids: Sequence[str] | str | None = None, sort_by: str | None = None, sort_order: str | None = None, validation_status: str | None = None, min_delegation_capacity: str | None = None, max_delegation_capacity: str | None = None, min_time_remaining: float | None = None, max_time_remaining: float | None = None, min_fee_percentage: float | None = None, max_fee_percentage: float | None = None, min_uptime_performance: float | None = None, max_uptime_performance: float | None = None, subnet_id: str | None = None, page_token: str | None = None, limit: int | None = None) -> Pager:
        """List validators (``GET /v1/networks/{network}/validators``)."""
    def validator(self, network: str, node_id: str, *, page_size: int | None = None, validation_status: str | None = None, sort_order: str | None = None, page_token: str | None = None, limit: int | None = None) -> Pager:
        """Get single validator details (``GET /v1/networks/{network}/validators/{nodeId}``)."""
    def operation_result(self, operation_id: str) -> dict[str, Any]:
        """Get operation (``GET /v1/operations/{operationId}``)."""
    def primary_network_rpc_usage_metrics(self, *, time_interval: str | None = None, start_timestamp: TimeArg | None = None, end_timestamp: TimeArg | None = None, group_by: str | None = None, response_code: str | None = None, request_path: str | None = None, country: str | None = None, continent: str | None = None, user_agent: str | None = None, rpc_method: str | None = None, network: str) -> dict[str, Any]:
        """Get usage metrics for the Primary Network RPC (``GET /v1/primaryNetworkRpcUsageMetrics``)."""
    def aggregated_signatures(self, network: str, tx_hash: str) -> dict[str, Any]:
        """Get Aggregated Signatures (``GET /v1/signatureAggregator/{network}/aggregateSignatures/{txHash}``)."""
    def subnet_rpc_usage_metrics(self, *, time_interval: str | None = None, start_timestamp: TimeArg | None = None, end_timestamp: TimeArg | None = None, group_by: str | None = None, chain_id: str | int | None = None, response_code: str | None = None, rpc_method: str | None = None, rl_bypass_api_token: str | None = None) -> dict[str, Any]:
        """Get usage metrics for the Subnet RPC (``GET /v1/subnetRpcUsageMetrics``)."""
    def latest_transactions(self, *, page_size: int | None = None, network: str | None = None, status: str | None = None, page_token: str | None = None, limit: int | None = None) -> Pager:
        """List the latest transactions across all supported EVM chains (``GET /v1/transactions``)."""
    def webhooks(self, *, page_size: int | None = None, status: str | None = None, page_token: str | None = None, limit: int | None = None) -> Pager:
        """List webhooks (``GET /v1/webhooks``)."""
    def webhook(self, id: str) -> dict[str, Any]:
        """Get a webhook by ID (``GET /v1/webhooks/{id}``)."""
    def webhook_addresses(self, id: str, *, page_token: str | None = None, page_size: int | None = None) -> dict[str, Any]:
        """List adresses by EVM activity webhooks (``GET /v1/webhooks/{id}/addresses``)."""
    def shared_secret(self) -> dict[str, Any]:
        """Get a shared secret (``GET /v1/webhooks:getSharedSecret``)."""
    def transactions_v2(self, chain_id: str | int, address: str, *, page_size: int | None = None, start_block: float | None = None, end_block: float | None = None, filter_spam_tokens: bool | None = None, sort_order: str | None = None, page_token: str | None = None, limit: int | None = None) -> Pager:
        """List transactions v2 (``GET /v2/chains/{chainId}/addresses/{address}/transactions``)."""
    # ---- end of the generated endpoint methods ----
    @property
    def retry(self) -> RetryPolicy:
        """The retry policy in force, an :class:`avax_data.RetryPolicy`."""
    def close(self) -> None:
        """Close the client, from any thread."""
    def __enter__(self) -> DataClient: ...
    def __exit__(self, *_exc: object) -> None: ...

# ---- Metrics API client ----

@final
class MetricsClient:
    """Synchronous client of the hosted Metrics API (``/v2/...``)."""

    def __new__(
        cls,
        base_url: str | None = None,
        *,
        timeout: float = 30.0,
        connect_timeout: float = 10.0,
        max_retries: int | None = None,
        backoff: float | None = None,
        max_backoff: float | None = None,
        retry_budget: float | None = None,
        headers: Mapping[str, str] | None = None,
        max_response_bytes: int = 268435456,
        ca_bundle: str | os.PathLike[str] | None = None,
        danger_accept_invalid_certs: bool = False,
        follow_cross_origin_redirects: bool = False,
        rate_limit: float | None = None,
        compute_units_per_minute: int | None = None,
        retry: RetryPolicy | None = None,
        tier: str | None = None,
    ) -> MetricsClient: ...
    def _repr_html_(self) -> str:
        """An HTML table of the client (URL, closed or not, retry policy), which Jupyter shows."""
    @property
    def base_url(self) -> str:
        """The service root, with any password in it redacted."""
    def metric(
        self,
        chain_id: str | int,
        metric: MetricName,
        *,
        interval: Interval | None = None,
        start: TimeArg | None = None,
        end: TimeArg | None = None,
        page_size: int | None = None,
        page_token: str | None = None,
        limit: int | None = None,
        concurrency: int | None = None,
    ) -> Pager:
        """A chain metric's time series (``GET /v2/chains/{chainId}/metrics/{metric}``)."""
    def chains(self, network: Network | None = None, *, page_token: str | None = None, limit: int | None = None) -> Pager:
        """The chains the Metrics API covers (``GET /v2/chains``), token-paged."""
    def icm_summary(
        self,
        src_blockchain_id: str | None = None,
        dest_blockchain_id: str | None = None,
        *,
        group_by: GroupBy | Sequence[GroupBy] | None = None,
        network: Network | None = None,
    ) -> dict[str, Any] | pl.DataFrame:
        """Rolling counts of interchain (ICM) messages (``GET /v2/icm/summary``)."""
    def live_check(self) -> dict[str, Any]:
        """The service's health report (``GET /v2/live-check``)."""
    def write_dataset(
        self,
        path: str | os.PathLike[str],
        chain_id: str | int,
        metric: MetricName,
        *,
        interval: Interval,
        start: TimeArg,
        end: TimeArg | None = None,
        compression: Compression = "snappy",
        row_group_size: int = 65536,
        progress: Progress = None,
    ) -> dict[str, int]:
        """Write a metric series as a dataset: a directory of Parquet files, one per UTC month, readable as one table."""
    # ---- endpoint methods: generated by tools/gen_endpoints.py from the OpenAPI documents; do not edit ----
    def _call_list(self, operation_id: str, arguments: Mapping[str, Any], page_token: str | None = None,
                   limit: int | None = None) -> Pager:
        """Calls the list operation ``operation_id`` of the service with ``arguments`` (Python"""
    def _call_object(self, operation_id: str, arguments: Mapping[str, Any]) -> dict[str, Any]:
        """Calls the object operation ``operation_id`` of the service with ``arguments``"""
    def btcb_bridged_addresses(self, *, threshold: str, page_size: int | None = None, page_token: str | None = None, limit: int | None = None) -> Pager:
        """Get addresses by BTCb bridged balance (``GET /v2/chains/43114/btcb/bridged:getAddresses``)."""
    def chain(self, chain_id: str | int) -> dict[str, Any]:
        """Get chain information for supported blockchain (``GET /v2/chains/{chainId}``)."""
    def rolling_window_metric(self, chain_id: str | int, metric: str) -> dict[str, Any]:
        """Get rolling window metrics for EVM chains (``GET /v2/chains/{chainId}/rollingWindowMetrics/{metric}``)."""
    def health(self) -> dict[str, Any]:
        """Get the health of the service (``GET /v2/health-check``)."""
    def icm_timeseries(self, *, start_timestamp: TimeArg | None = None, end_timestamp: TimeArg | None = None, src_blockchain_id: str | None = None, dest_blockchain_id: str | None = None, time_interval: str | None = None, page_size: int | None = None, group_by: Sequence[str] | str | None = None, network: str | None = None, page_token: str | None = None, limit: int | None = None) -> Pager:
        """Get ICM timeseries metrics (``GET /v2/icm/timeseries``)."""
    def staking(self, network: str, metric: str, *, start_timestamp: TimeArg | None = None, end_timestamp: TimeArg | None = None, page_size: int | None = None, subnet_id: str | None = None, page_token: str | None = None, limit: int | None = None) -> Pager:
        """Get staking metrics for a given subnet (``GET /v2/networks/{network}/metrics/{metric}``)."""
    def subnet_metrics(self, subnet_id: str, metric: str, *, start_timestamp: TimeArg | None = None, end_timestamp: TimeArg | None = None, page_token: str | None = None, limit: int | None = None) -> Pager:
        """Get metric values with given subnetId and timestamp range (``GET /v2/subnet/{subnetId}/metrics/{metric}``)."""
    def validator_addresses(self, subnet_id: str, *, start_timestamp: TimeArg | None = None, end_timestamp: TimeArg | None = None, page_size: int | None = None, network: str | None = None, page_token: str | None = None, limit: int | None = None) -> Pager:
        """Get addresses running validators during a given time frame (``GET /v2/subnets/{subnetId}/validators:getAddresses``)."""
    def validation_metrics(self, l1_validation_id: str, metric: str, *, start_timestamp: TimeArg | None = None, end_timestamp: TimeArg | None = None, page_token: str | None = None, limit: int | None = None) -> Pager:
        """Get metric values with given validationId and timestamp range (``GET /v2/validation/{l1ValidationId}/metrics/{metric}``)."""
    def node_metrics(self, node_id: str, metric: str, *, start_timestamp: TimeArg | None = None, end_timestamp: TimeArg | None = None, page_token: str | None = None, limit: int | None = None) -> Pager:
        """Get metric values with given nodeId and timestamp range (``GET /v2/validator/{nodeId}/metrics/{metric}``)."""
    def l1_validator_metrics(self, metric: str, *, start_timestamp: TimeArg | None = None, end_timestamp: TimeArg | None = None, page_token: str | None = None, limit: int | None = None) -> Pager:
        """Get given metric for all validators (``GET /v2/validators/metrics/{metric}``)."""
    # ---- end of the generated endpoint methods ----
    @property
    def retry(self) -> RetryPolicy:
        """The retry policy in force, an :class:`avax_data.RetryPolicy`."""
    def close(self) -> None:
        """Close the client, from any thread."""
    def __enter__(self) -> MetricsClient: ...
    def __exit__(self, *_exc: object) -> None: ...

# ---- Pagers (Data API and Metrics API lists) ----

@final
class Plan:
    """What a walk will cost before it starts: requests, compute units, time and budget share."""

    @property
    def operation(self) -> str:
        """The operation walked, e.g. ``'GET /v1/chains/43114/blocks'``."""
    @property
    def requests(self) -> int | None:
        """Requests the walk sends (exact or a bound, see :attr:`requests_kind`); ``None`` when unknown."""
    @property
    def requests_kind(self) -> Literal["exact", "at most", "unknown"]:
        """``'exact'``, ``'at most'`` or ``'unknown'``."""
    @property
    def compute_units(self) -> int | None:
        """Compute units of the whole walk (as exact as :attr:`requests`); ``None`` when unknown."""
    @property
    def units_per_request(self) -> int:
        """Compute units of one request (the operation's weight)."""
    @property
    def page_size(self) -> int:
        """Items asked per request."""
    @property
    def items(self) -> int | None:
        """Items the walk hands out when known, else ``None``."""
    @property
    def held(self) -> int:
        """Items already held (e.g. by an existing dataset) and not requested again."""
    @property
    def pages_per_1000_items(self) -> int:
        """Requests per 1,000 items handed out."""
    @property
    def units_per_1000_items(self) -> int:
        """Compute units per 1,000 items handed out."""
    @property
    def tier(self) -> Literal["unauthenticated", "free", "base", "growth", "pro"]:
        """The tier the budgets are of."""
    @property
    def units_per_minute(self) -> int:
        """Compute units per minute in force (the tier's, or the ``ratelimit-*`` headers')."""
    @property
    def per_minute_source(self) -> Literal["tier", "ratelimit headers"]:
        """Where :attr:`units_per_minute` comes from."""
    @property
    def units_per_day(self) -> int:
        """Compute units per day of the tier."""
    @property
    def seconds_at_client_limits(self) -> float | None:
        """Seconds at the client's ``rate_limit`` / ``compute_units_per_minute``."""
    @property
    def seconds_at_tier_budget(self) -> float | None:
        """Seconds spending the per-minute budget in full; ``None`` when unknown."""
    @property
    def daily_share(self) -> float | None:
        """The walk's compute units over the tier's daily budget (1.0: all of it)."""
    @property
    def unknown(self) -> list[str]:
        """What the plan cannot know."""
    @property
    def over_daily_budget(self) -> str | None:
        """The warning shown before the first request when the walk exceeds the daily budget."""
    def less_held(self, items: int) -> Plan:
        """The same plan once ``items`` of the walk are already held (an existing dataset)."""
    def to_dict(self) -> dict[str, Any]:
        """Every attribute as a plain dict (what ``--dry-run --json`` prints)."""
    def _repr_html_(self) -> str: ...

@final
class Pager:
    """A lazy, resumable walk over a paginated list of the Data API or the Metrics API."""

    def plan(self) -> Plan:
        """The cost plan of the rest of this walk, sending nothing: a :class:`Plan`."""

    @property
    def next_page_token(self) -> str | None:
        """The token of the page holding the next item not handed out."""
    @property
    def page_offset(self) -> int:
        """How many items of the :attr:`next_page_token` page were handed out."""
    @property
    def items_read(self) -> int:
        """The items handed out so far, by every consumer of the pager."""
    @property
    def exhausted(self) -> bool:
        """Whether the walk handed out the last item of the list."""
    @property
    def limit(self) -> int | None:
        """The ``limit=`` given to the list method, or ``None``."""
    @property
    def resource(self) -> str:
        """The name of the resource, which picks the frame schema."""
    def __iter__(self) -> PagerIterator: ...
    def items(self, *, progress: Progress = None) -> PagerIterator:
        """Iterate the rest of the walk one item at a time (what ``for`` does)."""
    def pages(self, *, progress: Progress = None) -> PageIterator:
        """Iterate the rest of the walk page by page."""
    def batches(self, *, progress: Progress = None) -> PagerBatchIterator:
        """Iterate the rest of the walk as polars DataFrames of the resource, one per page."""
    def to_polars(self, limit: int | None = None, *, progress: Progress = None) -> pl.DataFrame:
        """The rest of the walk (or ``limit`` more items) as one polars DataFrame, all or nothing."""
    def to_arrow(self, limit: int | None = None, *, progress: Progress = None) -> Any:
        """The rest of the walk as one ``pyarrow.Table``, all or nothing (needs pyarrow; no copy)."""
    def to_pandas(self, limit: int | None = None, *, progress: Progress = None) -> Any:
        """The rest of the walk as one ``pandas.DataFrame``, all or nothing (needs pandas, pyarrow)."""
    def __arrow_c_stream__(self, requested_schema: object | None = None) -> object:
        """The rest of the walk as an Arrow C stream, one batch per page."""
    def _repr_html_(self) -> str:
        """An HTML table of the position, which Jupyter shows for a pager."""
    def restart(self) -> Pager:
        """The same list from its original start, as a new pager with a position of its own."""
    def write_parquet(
        self,
        path: str | os.PathLike[str] | IO[bytes],
        *,
        compression: Compression = "snappy",
        row_group_size: int = 65536,
        progress: Progress = None,
    ) -> int:
        """Stream the rest of the walk into a Parquet file, page by page, in constant memory."""
    def write_dataset(
        self,
        path: str | os.PathLike[str],
        *,
        chunk: int | None = None,
        compression: Compression = "snappy",
        row_group_size: int = 65536,
        progress: Progress = None,
    ) -> dict[str, int]:
        """Write the rest of the walk as a dataset: a directory of Parquet files partitioned by a natural key of the rows, readable as one table."""

@final
class PagerIterator(Iterator[dict[str, Any]]):
    """Iterator of a pager's items: dicts with the API's field names."""

    def __iter__(self) -> PagerIterator: ...
    def __next__(self) -> dict[str, Any]: ...
    def close(self) -> None:
        """Stop fetching, from any thread or task; the iteration then ends."""

@final
class PageIterator(Iterator[list[dict[str, Any]]]):
    """Iterator of a pager's pages: one list of dicts per page."""

    def __iter__(self) -> PageIterator: ...
    def __next__(self) -> list[dict[str, Any]]: ...
    def close(self) -> None:
        """Stop fetching, from any thread or task; the iteration then ends."""

@final
class PagerBatchIterator(Iterator[pl.DataFrame]):
    """Iterator of a pager's pages as polars DataFrames of its resource."""

    def __iter__(self) -> PagerBatchIterator: ...
    def __next__(self) -> pl.DataFrame: ...
    def close(self) -> None:
        """Stop fetching, from any thread or task; the iteration then ends."""
    def __arrow_c_stream__(self, requested_schema: object | None = None) -> object:
        """The rest of the pages as an Arrow C stream (the Arrow PyCapsule interface)."""

@final
class Ready:
    """An awaitable that is already complete: ``await`` gives its value at once."""

    def __await__(self) -> Ready: ...
    def __iter__(self) -> Ready: ...
    def __next__(self) -> None: ...

@final
class Pending:
    """The awaitable an async client's call returns: ``await`` it for the result."""

    def __await__(self) -> Generator[Any, None, Any]: ...

# ---- The emulator ----

@final
class Emulator:
    """The offline emulator of the Index RPC, the Data API and the Metrics API."""

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
        """Replace the fault plan."""
    def faults(self) -> dict[str, float]:
        """The fault rates in force: kind to rate (kinds at 0 left out)."""
    @property
    def fault_seed(self) -> int:
        """The seed of the fault decisions in force."""
    def fault_counts(self) -> dict[str, int]:
        """The faults injected so far: kind to count (kinds never injected left out)."""
    def fault_counts_by_path(self) -> dict[tuple[str, str], int]:
        """The faults injected so far by kind and URL path: ``(kind, path)`` to count."""
    @overload
    def request_log(self, *, with_status: Literal[False] = False) -> list[tuple[float, str]]:
        """Every request received, oldest first, as ``(seconds since start, URL path)``."""
    @overload
    def request_log(self, *, with_status: Literal[True]) -> list[tuple[float, str, int | None]]:
        """Every request received, oldest first, as ``(seconds since start, URL path)``."""
    @property
    def second_url(self) -> str:
        """The URL of the emulator's second listener: another origin, serving the same services."""
    def advance_clock(self, seconds: float) -> None:
        """Data API: move the emulator's clock forward (page tokens expire after 24 h of it)."""
    def set_rate_limit(self, rate_limit: tuple[int, float] | None = None) -> None:
        """Data API: set or remove the rate limit of each API key."""
    def set_data_api_require_key(self, require: bool) -> None:
        """Data API: answer 401 to requests without an API key (``True``), or serve them (``False``)."""
    def set_data_api_refused_keys(self, keys: Sequence[str]) -> None:
        """Data API: the API keys answered with 403 from now on (replacing the previous list)."""
    @property
    def url(self) -> str:
        """The base URL of the running emulator, ``http://host:port``: the URL of every service."""
    @property
    def port(self) -> int:
        """The port it listens on (a free one unless ``port=`` was given)."""
    @property
    def world_span(self) -> tuple[datetime.datetime, datetime.datetime]:
        """What the Data and Metrics API world spans: ``(first, last)``, timezone-aware UTC datetimes."""
    def _repr_html_(self) -> str:
        """An HTML table of the emulator (its URL and the span of its world), which Jupyter shows."""
    def container_count(self, path: IndexPathName) -> int:
        """How many containers an index path holds now."""
    def advance(self, path: IndexPathName, n: int = 1) -> int:
        """Accept more containers on an index path, as a node does when blocks arrive."""
    def set_index_enabled(self, enabled: bool) -> None:
        """Serve the index paths, or answer them with HTTP 404."""
    def set_latency(self, seconds: float) -> None:
        """Delay every later response."""
    def expected_container(self, path: IndexPathName, index: int) -> Container:
        """The container the emulator serves at an index, computed without a request."""
    def request_count(self) -> int:
        """The requests received so far, on every path."""
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
        cache: str | os.PathLike[str] | Literal[False] | None = ...,
        cache_max_bytes: int | None = None,
        timeout: float = 30.0,
        connect_timeout: float = 10.0,
        max_retries: int | None = None,
        backoff: float | None = None,
        max_backoff: float | None = None,
        retry_budget: float | None = None,
        headers: Mapping[str, str] | None = None,
        max_response_bytes: int = 268435456,
        ca_bundle: str | os.PathLike[str] | None = None,
        danger_accept_invalid_certs: bool = False,
        follow_cross_origin_redirects: bool = False,
        rate_limit: float | None = None,
        compute_units_per_minute: int | None = None,
        retry: RetryPolicy | None = None,
        tier: str | None = None,
    ) -> AsyncIndexClient: ...
    @property
    def url(self) -> str:
        """The node's base URL, with any password in it redacted."""
    def _repr_html_(self) -> str:
        """An HTML table of the client (URL, closed or not, retry policy), which Jupyter shows."""
    def chain(self, path: IndexPathName) -> AsyncChain:
        """A handle on one index of the node (no request is sent)."""
    @property
    def retry(self) -> RetryPolicy:
        """The retry policy in force, an :class:`avax_data.RetryPolicy`."""
    def close(self) -> Awaitable[None]:
        """Close the client, from any thread."""
    def __aenter__(self) -> Awaitable[AsyncIndexClient]: ...
    def __aexit__(self, *_exc: object) -> Awaitable[None]: ...

@final
class AsyncChain:
    """Asynchronous twin of :class:`Chain`: the same methods, awaitable where it blocks."""

    @property
    def path(self) -> str:
        """The index path, e.g. ``"C/block"``."""
    @overload
    def last_accepted(self, *, decode: Literal[False, None] = None) -> Awaitable[Container]:
        """The most recently accepted container (``index.getLastAccepted``)."""
    @overload
    def last_accepted(self, *, decode: Literal[True, "strict"]) -> Awaitable[DecodedRow]:
        """The most recently accepted container (``index.getLastAccepted``)."""
    @overload
    def container(
        self, index: int | None = None, *, id: str | None = None, decode: Literal[False, None] = None
    ) -> Awaitable[Container]:
        """One container, by its index or by its id."""
    @overload
    def container(self, index: int | None = None, *, id: str | None = None, decode: Literal[True, "strict"]) -> Awaitable[DecodedRow]:
        """One container, by its index or by its id."""
    def container_range(self, start: int, count: int) -> Awaitable[list[Container]]:
        """Up to ``count`` containers from ``start``, in one call (``index.getContainerRange``)."""
    def index_of(self, id: str) -> Awaitable[int]:
        """The position of the container with this id (``index.getIndex``)."""
    def is_accepted(self, id: str) -> Awaitable[bool]:
        """Whether the container with this id is accepted in the index (``index.isAccepted``)."""
    def range(
        self,
        start: int = 0,
        count: int | None = None,
        *,
        concurrency: int | None = None,
        batch_size: int = 1024,
        decode: Decode = None,
    ) -> AsyncRange:
        """A lazy walk over ``[start, start + count)``, or to the tip seen when the walk starts."""
    def follow(
        self,
        start: int | None = None,
        *,
        poll_interval: float = 1.0,
        max_poll_interval: float = 30.0,
        decode: Decode = None,
        progress: Progress = None,
    ) -> AsyncFollow:
        """An endless iterator of the containers accepted from ``start`` on, as they come."""

@final
class AsyncRange:
    """Asynchronous twin of :class:`Range`: the same methods, awaitable where it blocks."""

    def plan(self) -> Plan:
        """The cost plan of the rest of this range, sending nothing: a :class:`Plan`."""

    @property
    def start(self) -> int:
        """The first index of the range as created (it does not move; see :attr:`next_index`)."""
    @property
    def end(self) -> int | None:
        """The end of the range (exclusive), once known."""
    @property
    def next_index(self) -> int:
        """The first index not yet handed to you: where the next consumer starts."""
    def __aiter__(self) -> AsyncRangeIterator: ...
    def items(self, *, decode: Decode = None, progress: Progress = None) -> AsyncRangeIterator:
        """Iterate the rest of the range one item at a time (what ``for`` does)."""
    def batches(self, *, decode: Decode = None, progress: Progress = None) -> AsyncBatchIterator:
        """Iterate the rest of the range as polars DataFrames, one per call to the node."""
    def to_polars(self, *, decode: Decode = None, progress: Progress = None) -> Awaitable[pl.DataFrame]:
        """The rest of the range as one polars DataFrame, all or nothing."""
    def to_arrow(self, *, decode: Decode = None, progress: Progress = None) -> Awaitable[Any]:
        """The rest of the range as one ``pyarrow.Table``, all or nothing (needs pyarrow; no copy)."""
    def to_pandas(self, *, decode: Decode = None, progress: Progress = None) -> Awaitable[Any]:
        """The rest of the range as one ``pandas.DataFrame``, all or nothing (needs pandas, pyarrow)."""
    def __arrow_c_stream__(self, requested_schema: object | None = None) -> object:
        """The rest of the range as an Arrow C stream (the Arrow PyCapsule interface)."""
    def _repr_html_(self) -> str:
        """An HTML table of the walk and its position, which Jupyter shows for a range."""
    def restart(self) -> AsyncRange:
        """The same range from its original :attr:`start`, as a new range with a position of its own."""
    def write_parquet(
        self,
        path: str | os.PathLike[str] | IO[bytes],
        *,
        compression: Compression = "snappy",
        row_group_size: int = 65536,
        decode: Decode = None,
        progress: Progress = None,
    ) -> Awaitable[int]:
        """Stream the rest of the range into a Parquet file, in constant memory."""
    def write_dataset(
        self,
        path: str | os.PathLike[str],
        *,
        chunk: int = 100000,
        compression: Compression = "snappy",
        row_group_size: int = 65536,
        decode: Decode = None,
        progress: Progress = None,
    ) -> Awaitable[dict[str, int]]:
        """Write the rest of the range as a dataset: a directory of Parquet files, one per chunk of ``chunk`` indices."""

@final
class AsyncRangeIterator(AsyncIterator[Container]):
    """Asynchronous twin of :class:`RangeIterator`: the same methods, awaitable where it blocks."""

    @property
    def next_index(self) -> int:
        """The first index not yet handed out by this iterator's walk: where it resumes."""
    def __aiter__(self) -> AsyncRangeIterator: ...
    def __anext__(self) -> Awaitable[Container]: ...
    def close(self) -> None:
        """Stop fetching, from any thread or task; the iteration then ends."""

@final
class AsyncBatchIterator(AsyncIterator[pl.DataFrame]):
    """Asynchronous twin of :class:`BatchIterator`: the same methods, awaitable where it blocks."""

    @property
    def next_index(self) -> int:
        """The first index not yet handed out by this iterator's walk: where it resumes."""
    def __aiter__(self) -> AsyncBatchIterator: ...
    def __anext__(self) -> Awaitable[pl.DataFrame]: ...
    def close(self) -> None:
        """Stop fetching, from any thread or task; the iteration then ends."""
    def __arrow_c_stream__(self, requested_schema: object | None = None) -> object:
        """The rest of the batches as an Arrow C stream (the Arrow PyCapsule interface)."""

@final
class AsyncFollow(AsyncIterator[Container]):
    """Asynchronous twin of :class:`Follow`: the same methods, awaitable where it blocks."""

    @property
    def next_index(self) -> int | None:
        """The first index not yet handed out (``None`` until the starting tip is known)."""
    def __aiter__(self) -> AsyncFollow: ...
    def __anext__(self) -> Awaitable[Container]: ...
    def close(self) -> None:
        """Stop following, from any thread or task; the iteration then ends."""

@final
class AsyncDataClient:
    """Asynchronous twin of :class:`DataClient`: the same methods, awaitable where it blocks."""

    def __new__(
        cls,
        base_url: str | None = None,
        *,
        api_key: str | None = None,
        timeout: float = 30.0,
        connect_timeout: float = 10.0,
        max_retries: int | None = None,
        backoff: float | None = None,
        max_backoff: float | None = None,
        retry_budget: float | None = None,
        headers: Mapping[str, str] | None = None,
        max_response_bytes: int = 268435456,
        ca_bundle: str | os.PathLike[str] | None = None,
        danger_accept_invalid_certs: bool = False,
        follow_cross_origin_redirects: bool = False,
        rate_limit: float | None = None,
        compute_units_per_minute: int | None = None,
        retry: RetryPolicy | None = None,
        tier: str | None = None,
    ) -> AsyncDataClient: ...
    @property
    def base_url(self) -> str:
        """The service root, with any password in it redacted."""
    def _repr_html_(self) -> str:
        """An HTML table of the client (URL, closed or not, retry policy), which Jupyter shows."""
    @property
    def rate_limit(self) -> RateLimitInfo | None:
        """The last ``ratelimit-*`` headers the service sent, or ``None`` before any."""
    def chains(self, network: Network | None = None, feature: Feature | None = None) -> Awaitable[list[dict[str, Any]]]:
        """The chains the service supports (``GET /v1/chains``; not paginated)."""
    def chain(self, chain_id: str) -> Awaitable[dict[str, Any]]:
        """One chain (``GET /v1/chains/{chainId}``)."""
    def block(self, chain_id: str, block_id: int | str) -> Awaitable[dict[str, Any]]:
        """One block of an EVM chain, by number or by hash."""
    def health(self) -> Awaitable[dict[str, Any]]:
        """The service's health report (``GET /v1/health-check``)."""
    def blocks(
        self, chain_id: str, *, page_size: int | None = None, page_token: str | None = None, limit: int | None = None
    ) -> AsyncPager:
        """The blocks of an EVM chain, newest first (``GET /v1/chains/{chainId}/blocks``)."""
    def latest_blocks(
        self,
        *,
        network: Network | None = None,
        page_size: int | None = None,
        page_token: str | None = None,
        limit: int | None = None,
    ) -> AsyncPager:
        """The latest blocks across all chains, newest first (``GET /v1/blocks``)."""
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
        """The NFTs (ERC-721 and ERC-1155) a wallet holds on a chain."""
    def pending_rewards(
        self,
        network: Network,
        *,
        addresses: Sequence[str] | str | None = None,
        node_ids: Sequence[str] | str | None = None,
        sort_order: SortOrder | None = None,
        page_size: int | None = None,
        page_token: str | None = None,
        limit: int | None = None,
    ) -> AsyncPager:
        """Pending staking rewards of P-chain addresses or validators."""
    def vertices(
        self,
        network: Network,
        blockchain_id: str | None = None,
        *,
        page_size: int | None = None,
        page_token: str | None = None,
        limit: int | None = None,
    ) -> AsyncPager:
        """X-chain vertices (the DAG era), newest first."""
    def icm_messages(
        self,
        *,
        source_blockchain_id: str | None = None,
        destination_blockchain_id: str | None = None,
        blockchain_id: str | None = None,
        to: str | None = None,
        from_: str | None = None,
        network: Network | None = None,
        page_size: int | None = None,
        page_token: str | None = None,
        limit: int | None = None,
    ) -> AsyncPager:
        """Interchain (ICM, Teleporter) messages, newest first (``GET /v1/icm/messages``)."""
    # ---- endpoint methods: generated by tools/gen_endpoints.py from the OpenAPI documents; do not edit ----
    def _call_list(self, operation_id: str, arguments: Mapping[str, Any], page_token: str | None = None,
                   limit: int | None = None) -> AsyncPager:
        """Calls the list operation ``operation_id`` of the service with ``arguments`` (Python"""
    def _call_object(self, operation_id: str, arguments: Mapping[str, Any]) -> Awaitable[dict[str, Any]]:
        """Calls the object operation ``operation_id`` of the service with ``arguments``"""
    def address_chains(self, address: str) -> Awaitable[dict[str, Any]]:
        """List all chains associated with a given address (``GET /v1/address/{address}/chains``)."""
    def api_logs(self, *, org_id: str | None = None, start_timestamp: TimeArg | None = None, end_timestamp: TimeArg | None = None, chain_id: str | int | None = None, response_code: str | None = None, request_type: str | None = None, api_key_id: str | None = None, request_path: str | None = None, page_size: int | None = None, page_token: str | None = None, limit: int | None = None) -> AsyncPager:
        """Get logs for requests made by client (``GET /v1/apiLogs``)."""
    def api_usage_metrics(self, *, org_id: str | None = None, start_timestamp: TimeArg | None = None, end_timestamp: TimeArg | None = None, time_interval: str | None = None, group_by: str | None = None, chain_id: str | int | None = None, response_code: str | None = None, request_type: str | None = None, api_key_id: str | None = None, request_path: str | None = None) -> Awaitable[dict[str, Any]]:
        """Get usage metrics for the Data API (``GET /v1/apiUsageMetrics``)."""
    def avax_supply(self) -> Awaitable[dict[str, Any]]:
        """Get AVAX supply information (``GET /v1/avax/supply``)."""
    def contract_metadata(self, chain_id: str | int, address: str) -> Awaitable[dict[str, Any]]:
        """Get contract metadata (``GET /v1/chains/{chainId}/addresses/{address}``)."""
    def native_balance(self, chain_id: str | int, address: str, *, block_number: str | None = None, currency: str | None = None) -> Awaitable[dict[str, Any]]:
        """Get native token balance (``GET /v1/chains/{chainId}/addresses/{address}/balances:getNative``)."""
    def erc1155_balances(self, chain_id: str | int, address: str, *, block_number: str | None = None, page_size: int | None = None, contract_address: str | None = None, page_token: str | None = None, limit: int | None = None) -> AsyncPager:
        """List ERC-1155 balances (``GET /v1/chains/{chainId}/addresses/{address}/balances:listErc1155``)."""
    def erc20_balances(self, chain_id: str | int, address: str, *, block_number: str | None = None, page_size: int | None = None, filter_spam_tokens: bool | None = None, contract_addresses: Sequence[str] | str | None = None, currency: str | None = None, page_token: str | None = None, limit: int | None = None) -> AsyncPager:
        """List ERC-20 balances (``GET /v1/chains/{chainId}/addresses/{address}/balances:listErc20``)."""
    def erc721_balances(self, chain_id: str | int, address: str, *, page_size: int | None = None, contract_address: str | None = None, page_token: str | None = None, limit: int | None = None) -> AsyncPager:
        """List ERC-721 balances (``GET /v1/chains/{chainId}/addresses/{address}/balances:listErc721``)."""
    def transactions(self, chain_id: str | int, address: str, *, page_size: int | None = None, start_block: float | None = None, end_block: float | None = None, sort_order: str | None = None, page_token: str | None = None, limit: int | None = None) -> AsyncPager:
        """List transactions (``GET /v1/chains/{chainId}/addresses/{address}/transactions``)."""
    def erc1155_transfers(self, chain_id: str | int, address: str, *, start_block: float | None = None, end_block: float | None = None, page_size: int | None = None, page_token: str | None = None, limit: int | None = None) -> AsyncPager:
        """List ERC-1155 transfers (``GET /v1/chains/{chainId}/addresses/{address}/transactions:listErc1155``)."""
    def erc20_transfers(self, chain_id: str | int, address: str, *, start_block: float | None = None, end_block: float | None = None, page_size: int | None = None, page_token: str | None = None, limit: int | None = None) -> AsyncPager:
        """List ERC-20 transfers (``GET /v1/chains/{chainId}/addresses/{address}/transactions:listErc20``)."""
    def erc721_transfers(self, chain_id: str | int, address: str, *, start_block: float | None = None, end_block: float | None = None, page_size: int | None = None, page_token: str | None = None, limit: int | None = None) -> AsyncPager:
        """List ERC-721 transfers (``GET /v1/chains/{chainId}/addresses/{address}/transactions:listErc721``)."""
    def internal_transactions(self, chain_id: str | int, address: str, *, start_block: float | None = None, end_block: float | None = None, page_size: int | None = None, page_token: str | None = None, limit: int | None = None) -> AsyncPager:
        """List internal transactions (``GET /v1/chains/{chainId}/addresses/{address}/transactions:listInternals``)."""
    def native_transactions(self, chain_id: str | int, address: str, *, start_block: float | None = None, end_block: float | None = None, page_size: int | None = None, page_token: str | None = None, limit: int | None = None) -> AsyncPager:
        """List native transactions (``GET /v1/chains/{chainId}/addresses/{address}/transactions:listNative``)."""
    def block_transactions(self, chain_id: str | int, block_id: str, *, page_size: int | None = None, page_token: str | None = None, limit: int | None = None) -> AsyncPager:
        """List transactions for a block (``GET /v1/chains/{chainId}/blocks/{blockId}/transactions``)."""
    def contract_deployments(self, chain_id: str | int, address: str, *, page_size: int | None = None, page_token: str | None = None, limit: int | None = None) -> AsyncPager:
        """List deployed contracts (``GET /v1/chains/{chainId}/contracts/{address}/deployments``)."""
    def deployment_transaction(self, chain_id: str | int, address: str, *, currency: str | None = None) -> Awaitable[dict[str, Any]]:
        """Get deployment transaction (``GET /v1/chains/{chainId}/contracts/{address}/transactions:getDeployment``)."""
    def nft_tokens(self, chain_id: str | int, address: str, *, page_size: int | None = None, page_token: str | None = None, limit: int | None = None) -> AsyncPager:
        """List tokens (``GET /v1/chains/{chainId}/nfts/collections/{address}/tokens``)."""
    def nft_token(self, chain_id: str | int, address: str, token_id: str) -> Awaitable[dict[str, Any]]:
        """Get token details (``GET /v1/chains/{chainId}/nfts/collections/{address}/tokens/{tokenId}``)."""
    def token_transfers(self, chain_id: str | int, address: str, *, start_block: float | None = None, end_block: float | None = None, page_size: int | None = None, page_token: str | None = None, limit: int | None = None) -> AsyncPager:
        """List ERC transfers (``GET /v1/chains/{chainId}/tokens/{address}/transfers``)."""
    def chain_transactions(self, chain_id: str | int, *, page_size: int | None = None, status: str | None = None, page_token: str | None = None, limit: int | None = None) -> AsyncPager:
        """List latest transactions (``GET /v1/chains/{chainId}/transactions``)."""
    def transaction(self, chain_id: str | int, tx_hash: str) -> Awaitable[dict[str, Any]]:
        """Get transaction (``GET /v1/chains/{chainId}/transactions/{txHash}``)."""
    def icm_messages_of_address(self, address: str, *, page_size: int | None = None, network: str | None = None, page_token: str | None = None, limit: int | None = None) -> AsyncPager:
        """List ICM messages by address (``GET /v1/icm/addresses/{address}/messages``)."""
    def icm_message(self, message_id: str) -> Awaitable[dict[str, Any]]:
        """Get an ICM message (``GET /v1/icm/messages/{messageId}``)."""
    def live_check(self) -> Awaitable[dict[str, Any]]:
        """Get the liveliness of the service (reads only) (``GET /v1/live-check``)."""
    def network_details(self, network: str) -> Awaitable[dict[str, Any]]:
        """Get network details (``GET /v1/networks/{network}``)."""
    def chain_ids_of_addresses(self, network: str, *, addresses: Sequence[str] | str) -> Awaitable[dict[str, Any]]:
        """Get chain interactions for addresses (``GET /v1/networks/{network}/addresses:listChainIds``)."""
    def blockchains(self, network: str, *, page_size: int | None = None, sort_order: str | None = None, page_token: str | None = None, limit: int | None = None) -> AsyncPager:
        """List blockchains (``GET /v1/networks/{network}/blockchains``)."""
    def blockchain(self, network: str, blockchain_id: str) -> Awaitable[dict[str, Any]]:
        """Get blockchain details by ID (``GET /v1/networks/{network}/blockchains/{blockchainId}``)."""
    def asset(self, network: str, blockchain_id: str, asset_id: str) -> Awaitable[dict[str, Any]]:
        """Get asset details (``GET /v1/networks/{network}/blockchains/{blockchainId}/assets/{assetId}``)."""
    def asset_transactions(self, network: str, blockchain_id: str, asset_id: str, *, tx_types: Sequence[str] | str | None = None, start_timestamp: TimeArg | None = None, end_timestamp: TimeArg | None = None, page_size: int | None = None, page_token: str | None = None, limit: int | None = None) -> AsyncPager:
        """List asset transactions (``GET /v1/networks/{network}/blockchains/{blockchainId}/assets/{assetId}/transactions``)."""
    def primary_network_balances(self, network: str, blockchain_id: str, *, block_timestamp: TimeArg | None = None, addresses: Sequence[str] | str | None = None) -> Awaitable[dict[str, Any]]:
        """Get balances (``GET /v1/networks/{network}/blockchains/{blockchainId}/balances``)."""
    def primary_network_blocks(self, network: str, blockchain_id: str, *, start_timestamp: TimeArg | None = None, end_timestamp: TimeArg | None = None, page_size: int | None = None, page_token: str | None = None, limit: int | None = None) -> AsyncPager:
        """List latest blocks (``GET /v1/networks/{network}/blockchains/{blockchainId}/blocks``)."""
    def primary_network_block(self, network: str, blockchain_id: str, block_id: str) -> Awaitable[dict[str, Any]]:
        """Get block (``GET /v1/networks/{network}/blockchains/{blockchainId}/blocks/{blockId}``)."""
    def last_activity_timestamp(self, network: str, blockchain_id: str, *, addresses: Sequence[str] | str | None = None) -> Awaitable[dict[str, Any]]:
        """Get last activity timestamp by addresses (``GET /v1/networks/{network}/blockchains/{blockchainId}/lastActivityTimestampByAddresses``)."""
    def primary_network_blocks_by_node(self, network: str, blockchain_id: str, node_id: str, *, start_timestamp: TimeArg | None = None, end_timestamp: TimeArg | None = None, page_size: int | None = None, page_token: str | None = None, limit: int | None = None) -> AsyncPager:
        """List blocks proposed by node (``GET /v1/networks/{network}/blockchains/{blockchainId}/nodes/{nodeId}/blocks``)."""
    def primary_network_transactions(self, network: str, blockchain_id: str, *, addresses: Sequence[str] | str | None = None, l1_validation_id: str | None = None, tx_types: Sequence[str] | str | None = None, start_timestamp: TimeArg | None = None, end_timestamp: TimeArg | None = None, page_size: int | None = None, sort_order: str | None = None, page_token: str | None = None, limit: int | None = None) -> AsyncPager:
        """List latest transactions (``GET /v1/networks/{network}/blockchains/{blockchainId}/transactions``)."""
    def primary_network_transaction(self, network: str, blockchain_id: str, tx_hash: str) -> Awaitable[dict[str, Any]]:
        """Get transaction (``GET /v1/networks/{network}/blockchains/{blockchainId}/transactions/{txHash}``)."""
    def staking_transactions(self, network: str, blockchain_id: str, *, addresses: Sequence[str] | str | None = None, tx_types: Sequence[str] | str | None = None, start_timestamp: TimeArg | None = None, end_timestamp: TimeArg | None = None, page_size: int | None = None, sort_order: str | None = None, page_token: str | None = None, limit: int | None = None) -> AsyncPager:
        """List staking transactions (``GET /v1/networks/{network}/blockchains/{blockchainId}/transactions:listStaking``)."""
    def utxos(self, network: str, blockchain_id: str, *, addresses: Sequence[str] | str | None = None, page_size: int | None = None, asset_id: str | None = None, min_utxo_amount: float | None = None, include_spent: bool | None = None, sort_by: str | None = None, sort_order: str | None = None, page_token: str | None = None, limit: int | None = None) -> AsyncPager:
        """List UTXOs (``GET /v1/networks/{network}/blockchains/{blockchainId}/utxos``)."""
    def vertex(self, network: str, blockchain_id: str, vertex_hash: str) -> Awaitable[dict[str, Any]]:
        """Get vertex (``GET /v1/networks/{network}/blockchains/{blockchainId}/vertices/{vertexHash}``)."""
    def vertices_by_height(self, network: str, blockchain_id: str, *, vertex_height: int, page_size: int | None = None, sort_order: str | None = None, page_token: str | None = None, limit: int | None = None) -> AsyncPager:
        """List vertices by height (``GET /v1/networks/{network}/blockchains/{blockchainId}/vertices:listByHeight``)."""
    def delegators(self, network: str, *, page_size: int | None = None, reward_addresses: Sequence[str] | str | None = None, sort_order: str | None = None, delegation_status: str | None = None, node_ids: Sequence[str] | str | None = None, page_token: str | None = None, limit: int | None = None) -> AsyncPager:
        """List delegators (``GET /v1/networks/{network}/delegators``)."""
    def l1_validators(self, network: str, *, page_size: int | None = None, l1_validation_id: str | None = None, include_inactive_l1_validators: bool | None = None, node_id: str | None = None, subnet_id: str | None = None, page_token: str | None = None, limit: int | None = None) -> AsyncPager:
        """List L1 validators (``GET /v1/networks/{network}/l1Validators``)."""
    def historical_rewards(self, network: str, *, addresses: Sequence[str] | str | None = None, page_size: int | None = None, node_ids: Sequence[str] | str | None = None, sort_order: str | None = None, currency: str | None = None, page_token: str | None = None, limit: int | None = None) -> AsyncPager:
        """List historical rewards (``GET /v1/networks/{network}/rewards``)."""
    def subnets(self, network: str, *, page_size: int | None = None, sort_order: str | None = None, page_token: str | None = None, limit: int | None = None) -> AsyncPager:
        """List subnets (``GET /v1/networks/{network}/subnets``)."""
    def subnet(self, network: str, subnet_id: str) -> Awaitable[dict[str, Any]]:
        """Get Subnet details by ID (``GET /v1/networks/{network}/subnets/{subnetId}``)."""
    def validators(self, network: str, *, page_size: int | None = None, node_ids: Sequence[str] | str | None = None, sort_by: str | None = None, sort_order: str | None = None, validation_status: str | None = None, min_delegation_capacity: str | None = None, max_delegation_capacity: str | None = None, min_time_remaining: float | None = None, max_time_remaining: float | None = None, min_fee_percentage: float | None = None, max_fee_percentage: float | None = None, min_uptime_performance: float | None = None, max_uptime_performance: float | None = None, subnet_id: str | None = None, page_token: str | None = None, limit: int | None = None) -> AsyncPager:
        """List validators (``GET /v1/networks/{network}/validators``)."""
    def validator(self, network: str, node_id: str, *, page_size: int | None = None, validation_status: str | None = None, sort_order: str | None = None, page_token: str | None = None, limit: int | None = None) -> AsyncPager:
        """Get single validator details (``GET /v1/networks/{network}/validators/{nodeId}``)."""
    def operation_result(self, operation_id: str) -> Awaitable[dict[str, Any]]:
        """Get operation (``GET /v1/operations/{operationId}``)."""
    def primary_network_rpc_usage_metrics(self, *, time_interval: str | None = None, start_timestamp: TimeArg | None = None, end_timestamp: TimeArg | None = None, group_by: str | None = None, response_code: str | None = None, request_path: str | None = None, country: str | None = None, continent: str | None = None, user_agent: str | None = None, rpc_method: str | None = None, network: str) -> Awaitable[dict[str, Any]]:
        """Get usage metrics for the Primary Network RPC (``GET /v1/primaryNetworkRpcUsageMetrics``)."""
    def aggregated_signatures(self, network: str, tx_hash: str) -> Awaitable[dict[str, Any]]:
        """Get Aggregated Signatures (``GET /v1/signatureAggregator/{network}/aggregateSignatures/{txHash}``)."""
    def subnet_rpc_usage_metrics(self, *, time_interval: str | None = None, start_timestamp: TimeArg | None = None, end_timestamp: TimeArg | None = None, group_by: str | None = None, chain_id: str | int | None = None, response_code: str | None = None, rpc_method: str | None = None, rl_bypass_api_token: str | None = None) -> Awaitable[dict[str, Any]]:
        """Get usage metrics for the Subnet RPC (``GET /v1/subnetRpcUsageMetrics``)."""
    def latest_transactions(self, *, page_size: int | None = None, network: str | None = None, status: str | None = None, page_token: str | None = None, limit: int | None = None) -> AsyncPager:
        """List the latest transactions across all supported EVM chains (``GET /v1/transactions``)."""
    def webhooks(self, *, page_size: int | None = None, status: str | None = None, page_token: str | None = None, limit: int | None = None) -> AsyncPager:
        """List webhooks (``GET /v1/webhooks``)."""
    def webhook(self, id: str) -> Awaitable[dict[str, Any]]:
        """Get a webhook by ID (``GET /v1/webhooks/{id}``)."""
    def webhook_addresses(self, id: str, *, page_token: str | None = None, page_size: int | None = None) -> Awaitable[dict[str, Any]]:
        """List adresses by EVM activity webhooks (``GET /v1/webhooks/{id}/addresses``)."""
    def shared_secret(self) -> Awaitable[dict[str, Any]]:
        """Get a shared secret (``GET /v1/webhooks:getSharedSecret``)."""
    def transactions_v2(self, chain_id: str | int, address: str, *, page_size: int | None = None, start_block: float | None = None, end_block: float | None = None, filter_spam_tokens: bool | None = None, sort_order: str | None = None, page_token: str | None = None, limit: int | None = None) -> AsyncPager:
        """List transactions v2 (``GET /v2/chains/{chainId}/addresses/{address}/transactions``)."""
    # ---- end of the generated endpoint methods ----
    @property
    def retry(self) -> RetryPolicy:
        """The retry policy in force, an :class:`avax_data.RetryPolicy`."""
    def close(self) -> Awaitable[None]:
        """Close the client, from any thread."""
    def __aenter__(self) -> Awaitable[AsyncDataClient]: ...
    def __aexit__(self, *_exc: object) -> Awaitable[None]: ...

@final
class AsyncMetricsClient:
    """Asynchronous twin of :class:`MetricsClient`: the same methods, awaitable where it blocks."""

    def __new__(
        cls,
        base_url: str | None = None,
        *,
        timeout: float = 30.0,
        connect_timeout: float = 10.0,
        max_retries: int | None = None,
        backoff: float | None = None,
        max_backoff: float | None = None,
        retry_budget: float | None = None,
        headers: Mapping[str, str] | None = None,
        max_response_bytes: int = 268435456,
        ca_bundle: str | os.PathLike[str] | None = None,
        danger_accept_invalid_certs: bool = False,
        follow_cross_origin_redirects: bool = False,
        rate_limit: float | None = None,
        compute_units_per_minute: int | None = None,
        retry: RetryPolicy | None = None,
        tier: str | None = None,
    ) -> AsyncMetricsClient: ...
    def _repr_html_(self) -> str:
        """An HTML table of the client (URL, closed or not, retry policy), which Jupyter shows."""
    @property
    def base_url(self) -> str:
        """The service root, with any password in it redacted."""
    def metric(
        self,
        chain_id: str | int,
        metric: MetricName,
        *,
        interval: Interval | None = None,
        start: TimeArg | None = None,
        end: TimeArg | None = None,
        page_size: int | None = None,
        page_token: str | None = None,
        limit: int | None = None,
        concurrency: int | None = None,
    ) -> AsyncPager:
        """A chain metric's time series (``GET /v2/chains/{chainId}/metrics/{metric}``)."""
    def chains(self, network: Network | None = None, *, page_token: str | None = None, limit: int | None = None) -> AsyncPager:
        """The chains the Metrics API covers (``GET /v2/chains``), token-paged."""
    def icm_summary(
        self,
        src_blockchain_id: str | None = None,
        dest_blockchain_id: str | None = None,
        *,
        group_by: GroupBy | Sequence[GroupBy] | None = None,
        network: Network | None = None,
    ) -> Awaitable[dict[str, Any] | pl.DataFrame]:
        """Rolling counts of interchain (ICM) messages (``GET /v2/icm/summary``)."""
    def live_check(self) -> Awaitable[dict[str, Any]]:
        """The service's health report (``GET /v2/live-check``)."""
    def write_dataset(
        self,
        path: str | os.PathLike[str],
        chain_id: str | int,
        metric: MetricName,
        *,
        interval: Interval,
        start: TimeArg,
        end: TimeArg | None = None,
        compression: Compression = "snappy",
        row_group_size: int = 65536,
        progress: Progress = None,
    ) -> Awaitable[dict[str, int]]:
        """Write a metric series as a dataset: a directory of Parquet files, one per UTC month, readable as one table."""
    # ---- endpoint methods: generated by tools/gen_endpoints.py from the OpenAPI documents; do not edit ----
    def _call_list(self, operation_id: str, arguments: Mapping[str, Any], page_token: str | None = None,
                   limit: int | None = None) -> AsyncPager:
        """Calls the list operation ``operation_id`` of the service with ``arguments`` (Python"""
    def _call_object(self, operation_id: str, arguments: Mapping[str, Any]) -> Awaitable[dict[str, Any]]:
        """Calls the object operation ``operation_id`` of the service with ``arguments``"""
    def btcb_bridged_addresses(self, *, threshold: str, page_size: int | None = None, page_token: str | None = None, limit: int | None = None) -> AsyncPager:
        """Get addresses by BTCb bridged balance (``GET /v2/chains/43114/btcb/bridged:getAddresses``)."""
    def chain(self, chain_id: str | int) -> Awaitable[dict[str, Any]]:
        """Get chain information for supported blockchain (``GET /v2/chains/{chainId}``)."""
    def rolling_window_metric(self, chain_id: str | int, metric: str) -> Awaitable[dict[str, Any]]:
        """Get rolling window metrics for EVM chains (``GET /v2/chains/{chainId}/rollingWindowMetrics/{metric}``)."""
    def health(self) -> Awaitable[dict[str, Any]]:
        """Get the health of the service (``GET /v2/health-check``)."""
    def icm_timeseries(self, *, start_timestamp: TimeArg | None = None, end_timestamp: TimeArg | None = None, src_blockchain_id: str | None = None, dest_blockchain_id: str | None = None, time_interval: str | None = None, page_size: int | None = None, group_by: Sequence[str] | str | None = None, network: str | None = None, page_token: str | None = None, limit: int | None = None) -> AsyncPager:
        """Get ICM timeseries metrics (``GET /v2/icm/timeseries``)."""
    def staking(self, network: str, metric: str, *, start_timestamp: TimeArg | None = None, end_timestamp: TimeArg | None = None, page_size: int | None = None, subnet_id: str | None = None, page_token: str | None = None, limit: int | None = None) -> AsyncPager:
        """Get staking metrics for a given subnet (``GET /v2/networks/{network}/metrics/{metric}``)."""
    def subnet_metrics(self, subnet_id: str, metric: str, *, start_timestamp: TimeArg | None = None, end_timestamp: TimeArg | None = None, page_token: str | None = None, limit: int | None = None) -> AsyncPager:
        """Get metric values with given subnetId and timestamp range (``GET /v2/subnet/{subnetId}/metrics/{metric}``)."""
    def validator_addresses(self, subnet_id: str, *, start_timestamp: TimeArg | None = None, end_timestamp: TimeArg | None = None, page_size: int | None = None, network: str | None = None, page_token: str | None = None, limit: int | None = None) -> AsyncPager:
        """Get addresses running validators during a given time frame (``GET /v2/subnets/{subnetId}/validators:getAddresses``)."""
    def validation_metrics(self, l1_validation_id: str, metric: str, *, start_timestamp: TimeArg | None = None, end_timestamp: TimeArg | None = None, page_token: str | None = None, limit: int | None = None) -> AsyncPager:
        """Get metric values with given validationId and timestamp range (``GET /v2/validation/{l1ValidationId}/metrics/{metric}``)."""
    def node_metrics(self, node_id: str, metric: str, *, start_timestamp: TimeArg | None = None, end_timestamp: TimeArg | None = None, page_token: str | None = None, limit: int | None = None) -> AsyncPager:
        """Get metric values with given nodeId and timestamp range (``GET /v2/validator/{nodeId}/metrics/{metric}``)."""
    def l1_validator_metrics(self, metric: str, *, start_timestamp: TimeArg | None = None, end_timestamp: TimeArg | None = None, page_token: str | None = None, limit: int | None = None) -> AsyncPager:
        """Get given metric for all validators (``GET /v2/validators/metrics/{metric}``)."""
    # ---- end of the generated endpoint methods ----
    @property
    def retry(self) -> RetryPolicy:
        """The retry policy in force, an :class:`avax_data.RetryPolicy`."""
    def close(self) -> Awaitable[None]:
        """Close the client, from any thread."""
    def __aenter__(self) -> Awaitable[AsyncMetricsClient]: ...
    def __aexit__(self, *_exc: object) -> Awaitable[None]: ...

@final
class AsyncPager:
    """Asynchronous twin of :class:`Pager`: the same methods, awaitable where it blocks."""

    def plan(self) -> Plan:
        """The cost plan of the rest of this walk, sending nothing: a :class:`Plan`."""

    @property
    def next_page_token(self) -> str | None:
        """The token of the page holding the next item not handed out."""
    @property
    def page_offset(self) -> int:
        """How many items of the :attr:`next_page_token` page were handed out."""
    @property
    def items_read(self) -> int:
        """The items handed out so far, by every consumer of the pager."""
    @property
    def exhausted(self) -> bool:
        """Whether the walk handed out the last item of the list."""
    @property
    def limit(self) -> int | None:
        """The ``limit=`` given to the list method, or ``None``."""
    @property
    def resource(self) -> str:
        """The name of the resource, which picks the frame schema."""
    def __aiter__(self) -> AsyncPagerIterator: ...
    def items(self, *, progress: Progress = None) -> AsyncPagerIterator:
        """Iterate the rest of the walk one item at a time (what ``for`` does)."""
    def pages(self, *, progress: Progress = None) -> AsyncPageIterator:
        """Iterate the rest of the walk page by page."""
    def batches(self, *, progress: Progress = None) -> AsyncPagerBatchIterator:
        """Iterate the rest of the walk as polars DataFrames of the resource, one per page."""
    def to_polars(self, limit: int | None = None, *, progress: Progress = None) -> Awaitable[pl.DataFrame]:
        """The rest of the walk (or ``limit`` more items) as one polars DataFrame, all or nothing."""
    def to_arrow(self, limit: int | None = None, *, progress: Progress = None) -> Awaitable[Any]:
        """The rest of the walk as one ``pyarrow.Table``, all or nothing (needs pyarrow; no copy)."""
    def to_pandas(self, limit: int | None = None, *, progress: Progress = None) -> Awaitable[Any]:
        """The rest of the walk as one ``pandas.DataFrame``, all or nothing (needs pandas, pyarrow)."""
    def __arrow_c_stream__(self, requested_schema: object | None = None) -> object:
        """The rest of the walk as an Arrow C stream, one batch per page."""
    def _repr_html_(self) -> str:
        """An HTML table of the position, which Jupyter shows for a pager."""
    def restart(self) -> AsyncPager:
        """The same list from its original start, as a new pager with a position of its own."""
    def write_parquet(
        self,
        path: str | os.PathLike[str] | IO[bytes],
        *,
        compression: Compression = "snappy",
        row_group_size: int = 65536,
        progress: Progress = None,
    ) -> Awaitable[int]:
        """Stream the rest of the walk into a Parquet file, page by page, in constant memory."""
    def write_dataset(
        self,
        path: str | os.PathLike[str],
        *,
        chunk: int | None = None,
        compression: Compression = "snappy",
        row_group_size: int = 65536,
        progress: Progress = None,
    ) -> Awaitable[dict[str, int]]:
        """Write the rest of the walk as a dataset: a directory of Parquet files partitioned by a natural key of the rows, readable as one table."""

@final
class AsyncPagerIterator(AsyncIterator[dict[str, Any]]):
    """Asynchronous twin of :class:`PagerIterator`: the same methods, awaitable where it blocks."""

    def __aiter__(self) -> AsyncPagerIterator: ...
    def __anext__(self) -> Awaitable[dict[str, Any]]: ...
    def close(self) -> None:
        """Stop fetching, from any thread or task; the iteration then ends."""

@final
class AsyncPageIterator(AsyncIterator[list[dict[str, Any]]]):
    """Asynchronous twin of :class:`PageIterator`: the same methods, awaitable where it blocks."""

    def __aiter__(self) -> AsyncPageIterator: ...
    def __anext__(self) -> Awaitable[list[dict[str, Any]]]: ...
    def close(self) -> None:
        """Stop fetching, from any thread or task; the iteration then ends."""

@final
class AsyncPagerBatchIterator(AsyncIterator[pl.DataFrame]):
    """Asynchronous twin of :class:`PagerBatchIterator`: the same methods, awaitable where it blocks."""

    def __aiter__(self) -> AsyncPagerBatchIterator: ...
    def __anext__(self) -> Awaitable[pl.DataFrame]: ...
    def close(self) -> None:
        """Stop fetching, from any thread or task; the iteration then ends."""
    def __arrow_c_stream__(self, requested_schema: object | None = None) -> object:
        """The rest of the pages as an Arrow C stream (the Arrow PyCapsule interface)."""
