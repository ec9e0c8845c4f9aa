//! `DataClient` and `AsyncDataClient`: the hosted Data API for Python. Lists come back as lazy
//! [`Pager`](super::pagers::PyPager)s.

use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyInt};

use super::args::{client_twins, limit_arg, list_arg, opt_str, page_token_arg, shown, str_arg, u64_arg};
use super::convert::{DictOut, DictsOut};
use super::errors::invalid;
use super::inputs::chain_id_arg;
use super::mode::Mode;
use super::pagers::{PyAsyncPager, PyPager};
use avax_data_core::arrow::data as schema;
use avax_data_core::arrow::Resource;
use avax_data_core::data::{params, DataClient, DataClientOptions, Paged, ResourcePager};

const NETWORK: &str = "one of mainnet, fuji, testnet";

/// `page_size=`: `None` (the largest the service allows) or an int in `[1, max]`.
fn page_size_arg(value: Option<&Bound<'_, PyAny>>, max: u32) -> PyResult<Option<i64>> {
    let Some(value) = value.filter(|v| !v.is_none()) else { return Ok(None) };
    let allowed = || invalid("page_size", shown(value), format!("an int in [1, {max}]"));
    if value.is_instance_of::<PyBool>() || !value.is_instance_of::<PyInt>() {
        return Err(allowed());
    }
    let n = value.extract::<i64>().map_err(|_| allowed())?;
    params::page_size(n, max).map_err(crate::errors::to_py)?;
    Ok(Some(n))
}

fn block_id_arg(value: &Bound<'_, PyAny>) -> PyResult<String> {
    if value.is_instance_of::<PyInt>() && !value.is_instance_of::<PyBool>() {
        return Ok(u64_arg(value, "block_id")?.to_string());
    }
    str_arg(value, "block_id", "a block number (int >= 0) or a block hash (str)")
}

fn build_client(
    api_key: Option<String>,
    base_url: Option<String>,
    cache: Option<std::sync::Arc<avax_data_core::cache::Store>>,
    transport: avax_data_core::transport::TransportConfig,
) -> PyResult<DataClient> {
    let api_key = avax_data_core::settings::data_api_key(api_key);
    let base_url = avax_data_core::settings::data_url(base_url);
    let client =
        DataClient::new(base_url.as_deref(), DataClientOptions { transport, api_key }).map_err(crate::errors::to_py)?;
    if let Some(store) = cache {
        client.set_cache(store);
    }
    Ok(client)
}

fn rate_limit_dict<'py>(py: Python<'py>, client: &DataClient) -> PyResult<Option<Bound<'py, PyDict>>> {
    let Some(info) = client.rate_limit() else { return Ok(None) };
    let d = PyDict::new(py);
    d.set_item("policy", info.policy)?;
    d.set_item("limit", info.limit)?;
    d.set_item("remaining", info.remaining)?;
    d.set_item("reset", info.reset)?;
    Ok(Some(d))
}

/// A resource pager over `paged`, from `page_token`, handing out at most `limit` items.
fn pager(
    client: &DataClient,
    paged: Paged,
    resource: Resource,
    page_token: Option<&Bound<'_, PyAny>>,
    limit: Option<&Bound<'_, PyAny>>,
) -> PyResult<ResourcePager> {
    ResourcePager::tokens(client, paged, resource, page_token_arg(page_token)?, limit_arg(limit)?)
        .map_err(crate::errors::to_py)
}

client_twins! {
    /// Synchronous client of the hosted Data API (``/v1/...``).
    ///
    /// It reads chains, blocks, NFTs, pending staking rewards, X-chain vertices, ICM messages
    /// and the health check. Single objects come back as dicts with the API's field names (decimal-string integers as
    /// ``int``, Unix times as timezone-aware UTC ``datetime``); lists as a lazy, resumable
    /// :class:`Pager`. Parameters are checked before any request. Connection errors, timeouts,
    /// 5xx and 429 are retried (waiting ``Retry-After``) within ``retry_budget`` seconds. Use it
    /// as a context manager, or call :meth:`close`.
    ///
    /// Every client takes the same shape: the base URL first (positional or ``base_url=``),
    /// everything else by keyword.
    ///
    /// Args:
    ///     base_url: the service root (str), positional or keyword. Default ``None``:
    ///         ``AVAX_DATA_API_URL``, then ``https://data-api.avax.network``; a URL ending in
    ///         ``/v1`` is taken as the root. A string that is not a URL is refused (without
    ///         being shown: it may be a key).
    ///     url: not a name of this client's URL: refused with a ``TypeError`` that names
    ///         ``base_url=`` (only :class:`IndexClient` takes ``url=``, its deprecated old name).
    ///     api_key: the API key (str), keyword-only, optional: a key gives higher rate limits.
    ///         Default ``None``: the ``AVAX_DATA_API_KEY`` environment variable, else no key. It
    ///         is sent under both ``x-glacier-api-key`` and ``x-data-api-key`` and never shown in
    ///         a ``repr``, an exception, a log line or a URL; a URL given as the key is refused.
    ///     cache: a directory (str or ``os.PathLike``) caching lookups of final objects (a block
    ///         by number or hash, a transaction by hash, a vertex) on disk; ``False`` or ``None``:
    ///         no cache. Left out: the ``AVAX_DATA_CACHE`` environment variable, else no cache.
    ///         See the cache guide.
    ///     cache_max_bytes: the cache's size bound in bytes, an int >= 1; default ``None``: 1 GiB.
    ///     timeout, connect_timeout, max_retries, backoff, max_backoff, retry_budget, headers,
    ///         max_response_bytes, ca_bundle, danger_accept_invalid_certs,
    ///         follow_cross_origin_redirects, retry, rate_limit, compute_units_per_minute: the
    ///         transport options of :class:`IndexClient`,
    ///         with the same defaults.
    ///
    /// Raises:
    ///     InvalidParameterError: a bad option, raised by the constructor before any request.
    ///
    /// Example:
    ///     The examples run against the offline emulator as ``emu``; in full:
    ///
    ///     >>> import avax_data as ad
    ///     >>> emu = ad.Emulator(containers=1_000, data_blocks_per_chain=500)
    ///     >>> data = ad.DataClient(base_url=emu.url)        # the real service: ad.DataClient()
    ///     >>> data.chain("43114")["chainName"]
    ///     'Avalanche (C-Chain)'
    ///     >>> data.blocks("43114", limit=3).to_polars()["blockNumber"].to_list()   # newest first
    ///     [499, 498, 497]
    ///     >>> data.close()
    ///     >>> with ad.DataClient(emu.url, api_key="my-key", max_retries=5) as keyed:
    ///     ...     print(keyed)                                  # the key is never shown
    ///     DataClient('http://127.0.0.1:...')
    ///     >>> emu.close()
    sync PyDataClient("DataClient") { PagerOf = PyPager }
    /// Asynchronous twin of :class:`DataClient`: the same options and methods.
    ///
    /// Single-object methods (``chains``, ``chain``, ``block``, ``health``) are awaited; list
    /// methods return at once an :class:`AsyncPager` to walk with ``async for`` (its exports
    /// are awaited). The shared method docstrings show the sync calls. Use it as an
    /// ``async with`` context manager, or ``await client.close()``.
    ///
    /// Example:
    ///     >>> import asyncio
    ///     >>> async def main():
    ///     ...     async with ad.AsyncDataClient(base_url=emu.url) as data:
    ///     ...         chain = await data.chain("43114")
    ///     ...         numbers = [b["blockNumber"] async for b in data.blocks("43114", limit=3)]
    ///     ...         frame = await data.vertices("mainnet").to_polars(limit=5)
    ///     ...         return chain["chainName"], numbers, frame.height
    ///     >>> asyncio.run(main())
    ///     ('Avalanche (C-Chain)', [499, 498, 497], 5)
    async PyAsyncDataClient("AsyncDataClient") { PagerOf = PyAsyncPager }
    state { client: DataClient }
    new (base_url = None, *, url = None, api_key = None, cache = avax_data_core::cache::CacheChoice::FromEnv,
        cache_max_bytes = None,) (
        base_url: Option<String> = super::args::base_url,
        url: Option<String> = super::args::url,
        api_key: Option<String> = super::args::api_key,
        cache: avax_data_core::cache::CacheChoice = super::cache::cache_arg,
        cache_max_bytes: Option<u64> = super::cache::max_bytes_arg,
    ) |transport| {
        super::args::refuse_url(CLASS_NAME, url)?;
        let cache = super::cache::open(&cache, cache_max_bytes)?;
        Ok(Self { client: build_client(api_key, base_url, cache, transport)? })
    }
    /// The service root, with any password in it redacted.
    ///
    /// Example:
    ///     >>> ad.DataClient(base_url="https://data-api.example/v1").base_url
    ///     'https://data-api.example'
    url base_url;
    operations DataClient;
    shared {
        /// The last ``ratelimit-*`` headers the service sent, or ``None`` before any.
        ///
        /// A dict ``{"policy": str, "limit": int, "remaining": int, "reset": int}`` (``None``
        /// for a header not sent); see :class:`avax_data.RateLimitInfo`. The service sends them
        /// to requests with an API key.
        ///
        /// Example:
        ///     >>> with ad.Emulator(rate_limit=(100, 60)) as limited:
        ///     ...     data = ad.DataClient(limited.url, api_key="my-key")
        ///     ...     print(data.rate_limit)
        ///     ...     _ = data.health()
        ///     ...     print(data.rate_limit)
        ///     None
        ///     {'policy': '100;w=60', 'limit': 100, 'remaining': 99, 'reset': None}
        #[getter]
        fn rate_limit<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyDict>>> {
            rate_limit_dict(py, &self.client)
        }
    }
    raw {
        /// The chains the service supports (``GET /v1/chains``; not paginated).
        ///
        /// Args:
        ///     network: ``"mainnet"``, ``"fuji"`` or ``"testnet"``; default ``None``: all.
        ///     feature: ``"nftIndexing"``, ``"webhooks"`` or ``"teleporter"``; default ``None``:
        ///         all.
        ///
        /// Returns:
        ///     list[dict]: one dict per chain (``chainId``, ``chainName``, ``platformChainId``,
        ///     ``enabledFeatures``, ...).
        ///
        /// Raises:
        ///     InvalidParameterError: an unknown ``network`` or ``feature``.
        ///     HTTPStatusError: the service said no (:class:`UnauthorizedError`,
        ///         :class:`RateLimitError`, :class:`ServerError`, ...).
        ///     AvaxDataError: any other failure (:class:`TransportError`, :class:`DecodeError`).
        ///
        /// Example:
        ///     >>> data = ad.DataClient(base_url=emu.url)
        ///     >>> [c["chainId"] for c in data.chains(network="mainnet", feature="nftIndexing")]
        ///     ['43114', '4337']
        ///     >>> data.chains(network="moon")
        ///     Traceback (most recent call last):
        ///     ...
        ///     avax_data.exceptions.InvalidParameterError: invalid network="moon": one of mainnet, fuji, testnet
        #[pyo3(signature = (network=None, feature=None))]
        fn chains<'py>(&self; network, feature) with py -> PyResult<Bound<'py, PyAny>> {
            let network = opt_str(network, "network", NETWORK)?;
            let feature = opt_str(feature, "feature", "one of nftIndexing, webhooks, teleporter")?;
            let request = self.client.chains(network.as_deref(), feature.as_deref()).map_err(crate::errors::to_py)?;
            M::run(py, super::mode::Call(CLASS_NAME, "chains"), async move { Ok(DictsOut(request.await.map_err(crate::errors::to_py)?, None)) })
        }

        /// One chain (``GET /v1/chains/{chainId}``).
        ///
        /// Args:
        ///     chain_id: an EVM chain id (``43114`` or ``"43114"``) or a CB58 blockchain id (str).
        ///
        /// Returns:
        ///     dict: the chain, as in :meth:`chains`.
        ///
        /// Raises:
        ///     InvalidParameterError: an id that is neither (checked before any request).
        ///     NotFoundError: no such chain.
        ///     AvaxDataError: any other failure, as in :meth:`chains`.
        ///
        /// Example:
        ///     >>> data = ad.DataClient(base_url=emu.url)
        ///     >>> c = data.chain("43114")
        ///     >>> c["chainName"], c["platformChainId"]
        ///     ('Avalanche (C-Chain)', '2q9e4r6Mu3U68nU1fYjgbR6JvwrRx36CohpAX5UQxse55x1Q5')
        ///     >>> data.chain("2q9e4r6Mu3U68nU1fYjgbR6JvwrRx36CohpAX5UQxse55x1Q5")["chainId"]
        ///     '43114'
        ///     >>> try:
        ///     ...     data.chain("999999")
        ///     ... except ad.NotFoundError as exc:
        ///     ...     print(exc.status, exc.api_message)
        ///     404 Chain 999999 not found
        fn chain<'py>(&self, chain_id) with py -> PyResult<Bound<'py, PyAny>> {
            let request = self.client.chain(&chain_id_arg(chain_id, "chain_id")?).map_err(crate::errors::to_py)?;
            M::run(py, super::mode::Call(CLASS_NAME, "chain"), async move { Ok(DictOut(request.await.map_err(crate::errors::to_py)?, None)) })
        }

        /// One block of an EVM chain, by number or by hash.
        ///
        /// ``GET /v1/chains/{chainId}/blocks/{blockId}``.
        ///
        /// Args:
        ///     chain_id: an EVM chain id (``43114`` or ``"43114"``) or a blockchain id (str).
        ///     block_id: a block number (int >= 0) or a block hash (``"0x..."``).
        ///
        /// Returns:
        ///     dict: ``chainId``, ``blockNumber`` (int), ``blockTimestamp`` (UTC ``datetime``),
        ///     ``blockHash``, ``txCount``, ``baseFee``, ``gasUsed`` (ints), ...
        ///
        /// Raises:
        ///     InvalidParameterError: a negative number, a malformed id or hash.
        ///     NotFoundError: no such block.
        ///     AvaxDataError: any other failure, as in :meth:`chains`.
        ///
        /// Example:
        ///     >>> data = ad.DataClient(base_url=emu.url)
        ///     >>> b = data.block("43114", 5)
        ///     >>> b["blockNumber"], b["txCount"], b["blockTimestamp"].year
        ///     (5, 32, 2025)
        ///     >>> data.block("43114", b["blockHash"])["blockNumber"]
        ///     5
        fn block<'py>(&self, chain_id, block_id) with py -> PyResult<Bound<'py, PyAny>> {
            let chain_id = chain_id_arg(chain_id, "chain_id")?;
            let request = self.client.block(&chain_id, &block_id_arg(block_id)?).map_err(crate::errors::to_py)?;
            M::run(py, super::mode::Call(CLASS_NAME, "block"), async move { Ok(DictOut(request.await.map_err(crate::errors::to_py)?, Some(schema::BLOCK))) })
        }

        /// The service's health report (``GET /v1/health-check``).
        ///
        /// Returns:
        ///     dict: ``{"status": "ok", "info": ..., "error": ..., "details": ...}``.
        ///
        /// Raises:
        ///     ServerError: the service is unhealthy (HTTP 503), after the retries.
        ///     AvaxDataError: any other failure, as in :meth:`chains`.
        ///
        /// Example:
        ///     >>> ad.DataClient(base_url=emu.url).health()["status"]
        ///     'ok'
        fn health<'py>(&self) with py -> PyResult<Bound<'py, PyAny>> {
            let client = self.client.clone();
            M::run(py, super::mode::Call(CLASS_NAME, "health"), async move { Ok(DictOut(client.health().await.map_err(crate::errors::to_py)?, None)) })
        }

        /// The blocks of an EVM chain, newest first (``GET /v1/chains/{chainId}/blocks``).
        ///
        /// Args:
        ///     chain_id: an EVM chain id (``43114`` or ``"43114"``) or a blockchain id (str).
        ///     page_size: items per request, an int in [1, 100]; default ``None``: 100, the
        ///         largest (fewest requests).
        ///     page_token: start from this saved token (a pager's ``next_page_token``).
        ///     limit: most items handed out in total, an int >= 0; default ``None``: all. No page
        ///         past it is fetched, and the last asks only for what is left.
        ///
        /// Returns:
        ///     Pager: dicts (``chainId``, ``blockNumber``, ``blockTimestamp``, ``blockHash``,
        ///     ``txCount``, ``baseFee``, ``gasUsed``, ...); frames of the ``block`` schema.
        ///
        /// Raises:
        ///     InvalidParameterError: a bad argument, before any request. Errors of the service
        ///         come from the pager's consumers (see :class:`Pager`).
        ///
        /// Example:
        ///     >>> data = ad.DataClient(base_url=emu.url)
        ///     >>> df = data.blocks("43114", page_size=10, limit=25).to_polars()
        ///     >>> df.height, df["blockNumber"][0], df["blockNumber"][-1]
        ///     (25, 499, 475)
        ///     >>> data.blocks("43114", page_size=1000)
        ///     Traceback (most recent call last):
        ///     ...
        ///     avax_data.exceptions.InvalidParameterError: invalid page_size=1000: an int in [1, 100]
        #[pyo3(signature = (chain_id, *, page_size=None, page_token=None, limit=None))]
        fn blocks(&self, chain_id; page_size, page_token, limit) -> PyResult<PagerOf> {
            let chain_id = chain_id_arg(chain_id, "chain_id")?;
            let paged = self.client.blocks(&chain_id, page_size_arg(page_size, params::MAX_PAGE_SIZE)?).map_err(crate::errors::to_py)?;
            Ok(PagerOf { pager: pager(&self.client, paged, Resource::Block, page_token, limit)? })
        }

        /// The latest blocks across all chains, newest first (``GET /v1/blocks``).
        ///
        /// Args:
        ///     network: ``"mainnet"``, ``"fuji"`` or ``"testnet"``; default ``None``: all.
        ///     page_size: items per request, an int in [1, 100]; default ``None``: 100.
        ///     page_token: start from this saved token.
        ///     limit: most items handed out in total; default ``None``: all.
        ///
        /// Returns:
        ///     Pager: block dicts as in :meth:`blocks`, of every chain.
        ///
        /// Raises:
        ///     InvalidParameterError: a bad argument, before any request.
        ///
        /// Example:
        ///     >>> data = ad.DataClient(base_url=emu.url)
        ///     >>> data.latest_blocks(network="fuji", limit=2).to_polars().select("chainId", "blockNumber").rows()
        ///     [('43113', 499), ('779672', 499)]
        #[pyo3(signature = (*, network=None, page_size=None, page_token=None, limit=None))]
        fn latest_blocks(&self; network, page_size, page_token, limit) -> PyResult<PagerOf> {
            let network = opt_str(network, "network", NETWORK)?;
            let paged = self.client.latest_blocks(network.as_deref(), page_size_arg(page_size, params::MAX_PAGE_SIZE)?).map_err(crate::errors::to_py)?;
            Ok(PagerOf { pager: pager(&self.client, paged, Resource::Block, page_token, limit)? })
        }

        /// The NFTs (ERC-721 and ERC-1155) a wallet holds on a chain.
        ///
        /// ``GET /v1/chains/{chainId}/addresses/{address}/balances:listCollectibles``.
        ///
        /// Args:
        ///     chain_id: an EVM chain id (``43114`` or ``"43114"``) or a blockchain id (str).
        ///     address: the wallet, ``0x`` and 40 hex digits.
        ///     contract_address: only this NFT contract; default ``None``: all.
        ///     page_size: items per request, an int in [1, 500]; default ``None``: 500.
        ///     page_token: start from this saved token.
        ///     limit: most items handed out in total; default ``None``: all.
        ///
        /// Returns:
        ///     Pager: dicts (``address``, ``name``, ``symbol``, ``ercType``, ``tokenId`` (str),
        ///     ``metadata``, ``balance`` (int; ERC-1155 only)); frames of the ``collectible``
        ///     schema, both kinds in one frame.
        ///
        /// Raises:
        ///     InvalidParameterError: a bad argument, before any request.
        ///
        /// Example:
        ///     >>> data = ad.DataClient(base_url=emu.url)
        ///     >>> owner = "0x6a2474f3e677ce65e495508043237ea93738a031"     # 160 NFTs, and its mints
        ///     >>> nfts = data.collectibles("43114", owner).to_polars()
        ///     >>> nfts.height, sorted(nfts["ercType"].unique())
        ///     (167, ['ERC-1155', 'ERC-721'])
        #[pyo3(signature = (chain_id, address, *, contract_address=None, page_size=None, page_token=None, limit=None))]
        fn collectibles(&self, chain_id, address; contract_address, page_size, page_token, limit) -> PyResult<PagerOf> {
            let chain_id = chain_id_arg(chain_id, "chain_id")?;
            let address = str_arg(address, "address", "a wallet address (str)")?;
            let contract = opt_str(contract_address, "contract_address", "a contract address (str)")?;
            let size = page_size_arg(page_size, params::MAX_COLLECTIBLES_PAGE_SIZE)?;
            let paged = self.client.collectibles(&chain_id, &address, contract.as_deref(), size).map_err(crate::errors::to_py)?;
            Ok(PagerOf { pager: pager(&self.client, paged, Resource::Collectible, page_token, limit)? })
        }

        /// Pending staking rewards of P-chain addresses or validators.
        ///
        /// ``GET /v1/networks/{network}/rewards:listPending``.
        ///
        /// Args:
        ///     network: ``"mainnet"``, ``"fuji"`` or ``"testnet"``.
        ///     addresses: P-chain addresses of ``network`` (``[P-]avax1...`` on mainnet,
        ///         ``fuji1...`` on fuji and testnet), a list or a comma-separated str; each must
        ///         carry a valid bech32 checksum (a typo raises ``InvalidParameterError``).
        ///     node_ids: validators (``NodeID-...``), a list or a comma-separated str; give at
        ///         least one of ``addresses`` and ``node_ids``.
        ///     sort_order: ``"asc"`` or ``"desc"``; default ``None``: the service's.
        ///     page_size: items per request, an int in [1, 100]; default ``None``: 100.
        ///     page_token: start from this saved token.
        ///     limit: most items handed out in total; default ``None``: all.
        ///
        /// Returns:
        ///     Pager: dicts (``addresses``, ``txHash``, ``amountStaked`` (int), ``nodeId``,
        ///     ``startTimestamp``, ``endTimestamp``, ``rewardType``, ``progress``,
        ///     ``estimatedReward``); frames of the ``pending_reward`` schema.
        ///
        /// Raises:
        ///     InvalidParameterError: neither ``addresses`` nor ``node_ids``, a malformed address
        ///         or node id, a bad ``sort_order``; before any request.
        ///
        /// Example:
        ///     >>> data = ad.DataClient(base_url=emu.url)
        ///     >>> node = "NodeID-JituKJdekYhyy2uuW5vFBtJ5LbzNsXbuE"
        ///     >>> rewards = data.pending_rewards("mainnet", node_ids=node).to_polars()
        ///     >>> rewards.height, rewards["rewardType"][0]
        ///     (5, 'VALIDATOR')
        ///     >>> data.pending_rewards("mainnet")
        ///     Traceback (most recent call last):
        ///     ...
        ///     avax_data.exceptions.InvalidParameterError: invalid addresses/node_ids=none: at least one of addresses or node_ids
        #[pyo3(signature = (network, *, addresses=None, node_ids=None, sort_order=None, page_size=None, page_token=None, limit=None))]
        fn pending_rewards(
            &self, network; addresses, node_ids, sort_order, page_size, page_token, limit
        ) -> PyResult<PagerOf> {
            let network = str_arg(network, "network", NETWORK)?;
            let (addresses, node_ids) = (list_arg(addresses, "addresses")?, list_arg(node_ids, "node_ids")?);
            let sort_order = opt_str(sort_order, "sort_order", "one of asc, desc")?;
            let size = page_size_arg(page_size, params::MAX_PAGE_SIZE)?;
            let paged = self.client.pending_rewards(&network, &addresses, &node_ids, sort_order.as_deref(), size).map_err(crate::errors::to_py)?;
            Ok(PagerOf { pager: pager(&self.client, paged, Resource::PendingReward, page_token, limit)? })
        }

        /// X-chain vertices (the DAG era), newest first.
        ///
        /// ``GET /v1/networks/{network}/blockchains/{blockchainId}/vertices``.
        ///
        /// Args:
        ///     network: ``"mainnet"``, ``"fuji"`` or ``"testnet"``.
        ///     blockchain_id: ``"x-chain"`` (default ``None`` means it) or the network's X-chain
        ///         id.
        ///     page_size: items per request, an int in [1, 100]; default ``None``: 100.
        ///     page_token: start from this saved token.
        ///     limit: most items handed out in total; default ``None``: all.
        ///
        /// Returns:
        ///     Pager: dicts (``vertexHash``, ``parentHashes``, ``vertexHeight``, ``vertexIndex``,
        ///     ``vertexTimestamp``, ``txCount``, ``transactions``, ``vertexSizeBytes``); frames
        ///     of the ``vertex`` schema.
        ///
        /// Raises:
        ///     InvalidParameterError: a bad argument (another chain's id), before any request.
        ///
        /// Example:
        ///     >>> data = ad.DataClient(base_url=emu.url)
        ///     >>> data.vertices("mainnet", limit=3).to_polars()["vertexHeight"].to_list()
        ///     [499, 498, 497]
        #[pyo3(signature = (network, blockchain_id=None, *, page_size=None, page_token=None, limit=None))]
        fn vertices(&self, network; blockchain_id, page_size, page_token, limit) -> PyResult<PagerOf> {
            let network = str_arg(network, "network", NETWORK)?;
            let blockchain_id = opt_str(blockchain_id, "blockchain_id", "an X-chain blockchain id or 'x-chain'")?;
            let size = page_size_arg(page_size, params::MAX_PAGE_SIZE)?;
            let paged = self.client.vertices(&network, blockchain_id.as_deref().unwrap_or("x-chain"), size).map_err(crate::errors::to_py)?;
            Ok(PagerOf { pager: pager(&self.client, paged, Resource::Vertex, page_token, limit)? })
        }

        /// Interchain (ICM, Teleporter) messages, newest first (``GET /v1/icm/messages``).
        ///
        /// Args:
        ///     source_blockchain_id: only messages sent from this blockchain id.
        ///     destination_blockchain_id: only messages sent to this blockchain id.
        ///     blockchain_id: only messages from or to this blockchain id.
        ///     to: only messages to this address.
        ///     from_: only messages from this address (sent as ``from``).
        ///     network: ``"mainnet"``, ``"fuji"`` or ``"testnet"``; default ``None``: all.
        ///     page_size: items per request, an int in [1, 100]; default ``None``: 100.
        ///     page_token: start from this saved token.
        ///     limit: most items handed out in total; default ``None``: all.
        ///
        /// Returns:
        ///     Pager: dicts (``messageId``, ``sourceBlockchainId``, ``destinationBlockchainId``,
        ///     ``status``: ``pending``, ``delivered`` or ``delivered_source_not_indexed``, ...);
        ///     frames of the ``icm_message`` schema, every status in one frame.
        ///
        /// Raises:
        ///     InvalidParameterError: a bad argument, before any request.
        ///
        /// Example:
        ///     >>> data = ad.DataClient(base_url=emu.url)
        ///     >>> c_chain = "2q9e4r6Mu3U68nU1fYjgbR6JvwrRx36CohpAX5UQxse55x1Q5"
        ///     >>> msgs = data.icm_messages(source_blockchain_id=c_chain, limit=3).to_polars()
        ///     >>> msgs["status"].to_list()
        ///     ['delivered', 'delivered', 'delivered']
        #[pyo3(signature = (*, source_blockchain_id=None, destination_blockchain_id=None, blockchain_id=None, to=None, from_=None, network=None, page_size=None, page_token=None, limit=None))]
        fn icm_messages(
            &self; source_blockchain_id, destination_blockchain_id, blockchain_id, to, from_, network, page_size, page_token, limit
        ) -> PyResult<PagerOf> {
            let id = "a blockchain id or EVM chain id (str)";
            let source = opt_str(source_blockchain_id, "source_blockchain_id", id)?;
            let destination = opt_str(destination_blockchain_id, "destination_blockchain_id", id)?;
            let blockchain = opt_str(blockchain_id, "blockchain_id", "a blockchain id (str)")?;
            let (to, from) = (opt_str(to, "to", "an address (str)")?, opt_str(from_, "from_", "an address (str)")?);
            let network = opt_str(network, "network", NETWORK)?;
            let paged = self.client.icm_messages(
                source.as_deref(),
                destination.as_deref(),
                blockchain.as_deref(),
                to.as_deref(),
                from.as_deref(),
                network.as_deref(),
                page_size_arg(page_size, params::MAX_PAGE_SIZE)?,
            ).map_err(crate::errors::to_py)?;
            Ok(PagerOf { pager: pager(&self.client, paged, Resource::IcmMessage, page_token, limit)? })
        }
    }
    sync_only {}
    async_only {}
}
