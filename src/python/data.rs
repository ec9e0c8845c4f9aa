//! `DataClient` and `AsyncDataClient`: the hosted Data API for Python. Lists come back as lazy
//! [`Pager`](super::pagers::PyPager)s.

use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyInt};

use super::args::{client_twins, limit_arg, list_arg, opt_str, page_token_arg, shown, str_arg, u64_arg};
use super::convert::{DictOut, DictsOut};
use super::errors::invalid;
use super::mode::Mode;
use super::pagers::{PyAsyncPager, PyPager};
use crate::arrow::data::{self as schema, Resource};
use crate::data::{params, DataClient, DataClientOptions, Paged, ResourcePager};

const NETWORK: &str = "one of mainnet, fuji, testnet";
const CHAIN_ID: &str = "an EVM chain id or blockchain id (str)";

/// `page_size=`: `None` (the largest the service allows) or an int in `[1, max]`.
fn page_size_arg(value: Option<&Bound<'_, PyAny>>, max: u32) -> PyResult<Option<i64>> {
    let Some(value) = value.filter(|v| !v.is_none()) else { return Ok(None) };
    let allowed = || invalid("page_size", shown(value), format!("an int in [1, {max}]"));
    if value.is_instance_of::<PyBool>() || !value.is_instance_of::<PyInt>() {
        return Err(allowed());
    }
    let n = value.extract::<i64>().map_err(|_| allowed())?;
    params::page_size(n, max)?;
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
    transport: crate::transport::TransportConfig,
) -> PyResult<DataClient> {
    let api_key = api_key.or_else(|| std::env::var("AVAX_DATA_API_KEY").ok()).filter(|k| !k.trim().is_empty());
    let base_url = base_url.or_else(|| std::env::var("AVAX_DATA_API_URL").ok().filter(|u| !u.trim().is_empty()));
    Ok(DataClient::new(base_url.as_deref(), DataClientOptions { transport, api_key })?)
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
    Ok(ResourcePager::tokens(client, paged, resource, page_token_arg(page_token)?, limit_arg(limit)?)?)
}

client_twins! {
    /// Synchronous client of the hosted Data API (``/v1/...``).
    ///
    /// ``api_key`` defaults to the ``AVAX_DATA_API_KEY`` environment variable (optional: a key gives
    /// higher rate limits); it is sent under both ``x-glacier-api-key`` and ``x-data-api-key`` and
    /// never shown in a ``repr``, an exception or a URL. ``base_url`` defaults to
    /// ``AVAX_DATA_API_URL``, then ``https://data-api.avax.network``. Retries connection errors,
    /// timeouts, 5xx and 429 (waiting ``Retry-After``) within ``retry_budget`` seconds. Parameters
    /// are checked before any request (:class:`InvalidParameterError`, a ``ValueError``).
    sync PyDataClient("DataClient") { PagerOf = PyPager }
    /// Asynchronous twin of :class:`DataClient` (same options): single-object methods return
    /// awaitables, list methods return an :class:`AsyncPager` (``async for``).
    async PyAsyncDataClient("AsyncDataClient") { PagerOf = PyAsyncPager }
    state { client: DataClient }
    new (api_key = None, *, base_url = None,) (
        api_key: Option<String> = super::args::api_key,
        base_url: Option<String> = super::args::base_url,
    ) |transport| {
        Ok(Self { client: build_client(api_key, base_url, transport)? })
    }
    shared {
        /// The base URL (secrets redacted).
        #[getter]
        fn base_url(&self) -> String {
            self.client.base_url().to_string()
        }

        /// The last rate-limit headers seen: ``{"policy", "limit", "remaining", "reset"}`` or ``None``.
        #[getter]
        fn rate_limit<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyDict>>> {
            rate_limit_dict(py, &self.client)
        }

        /// ``GET /v1/chains``: the supported chains, filtered by ``network`` (mainnet, fuji, testnet)
        /// and ``feature`` (nftIndexing, webhooks, teleporter). A list of dicts (not paginated).
        #[pyo3(signature = (network=None, feature=None))]
        fn chains<'py>(
            &self,
            py: Python<'py>,
            network: Option<&Bound<'py, PyAny>>,
            feature: Option<&Bound<'py, PyAny>>,
        ) -> PyResult<Bound<'py, PyAny>> {
            let network = opt_str(network, "network", NETWORK)?;
            let feature = opt_str(feature, "feature", "one of nftIndexing, webhooks, teleporter")?;
            let request = self.client.chains(network.as_deref(), feature.as_deref())?;
            M::run(py, async move { Ok(DictsOut(request.await?, None)) })
        }

        /// ``GET /v1/chains/{chainId}``: one chain (EVM chain id or blockchain id) as a dict.
        fn chain<'py>(&self, py: Python<'py>, chain_id: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
            let request = self.client.chain(&str_arg(chain_id, "chain_id", CHAIN_ID)?)?;
            M::run(py, async move { Ok(DictOut(request.await?, None)) })
        }

        /// ``GET /v1/chains/{chainId}/blocks/{blockId}``: one block by number (int) or hash (str).
        fn block<'py>(
            &self,
            py: Python<'py>,
            chain_id: &Bound<'py, PyAny>,
            block_id: &Bound<'py, PyAny>,
        ) -> PyResult<Bound<'py, PyAny>> {
            let chain_id = str_arg(chain_id, "chain_id", CHAIN_ID)?;
            let request = self.client.block(&chain_id, &block_id_arg(block_id)?)?;
            M::run(py, async move { Ok(DictOut(request.await?, Some(schema::BLOCK))) })
        }

        /// ``GET /v1/health-check``: the service's health report as a dict.
        fn health<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
            let client = self.client.clone();
            M::run(py, async move { Ok(DictOut(client.health().await?, None)) })
        }

        /// ``GET /v1/chains/{chainId}/blocks``: the chain's blocks, newest first (``page_size`` 1-100).
        #[pyo3(signature = (chain_id, *, page_size=None, page_token=None, limit=None))]
        fn blocks(
            &self,
            chain_id: &Bound<'_, PyAny>,
            page_size: Option<&Bound<'_, PyAny>>,
            page_token: Option<&Bound<'_, PyAny>>,
            limit: Option<&Bound<'_, PyAny>>,
        ) -> PyResult<PagerOf> {
            let chain_id = str_arg(chain_id, "chain_id", CHAIN_ID)?;
            let paged = self.client.blocks(&chain_id, page_size_arg(page_size, params::MAX_PAGE_SIZE)?)?;
            Ok(PagerOf { pager: pager(&self.client, paged, Resource::Block, page_token, limit)? })
        }

        /// ``GET /v1/blocks``: the latest blocks across all chains, optionally of one ``network``.
        #[pyo3(signature = (*, network=None, page_size=None, page_token=None, limit=None))]
        fn latest_blocks(
            &self,
            network: Option<&Bound<'_, PyAny>>,
            page_size: Option<&Bound<'_, PyAny>>,
            page_token: Option<&Bound<'_, PyAny>>,
            limit: Option<&Bound<'_, PyAny>>,
        ) -> PyResult<PagerOf> {
            let network = opt_str(network, "network", NETWORK)?;
            let paged = self.client.latest_blocks(network.as_deref(), page_size_arg(page_size, params::MAX_PAGE_SIZE)?)?;
            Ok(PagerOf { pager: pager(&self.client, paged, Resource::Block, page_token, limit)? })
        }

        /// ``balances:listCollectibles``: ERC-721 and ERC-1155 balances of ``address`` (``page_size`` 1-500).
        #[pyo3(signature = (chain_id, address, *, contract_address=None, page_size=None, page_token=None, limit=None))]
        #[allow(clippy::too_many_arguments)]
        fn collectibles(
            &self,
            chain_id: &Bound<'_, PyAny>,
            address: &Bound<'_, PyAny>,
            contract_address: Option<&Bound<'_, PyAny>>,
            page_size: Option<&Bound<'_, PyAny>>,
            page_token: Option<&Bound<'_, PyAny>>,
            limit: Option<&Bound<'_, PyAny>>,
        ) -> PyResult<PagerOf> {
            let chain_id = str_arg(chain_id, "chain_id", CHAIN_ID)?;
            let address = str_arg(address, "address", "a wallet address (str)")?;
            let contract = opt_str(contract_address, "contract_address", "a contract address (str)")?;
            let size = page_size_arg(page_size, params::MAX_COLLECTIBLES_PAGE_SIZE)?;
            let paged = self.client.collectibles(&chain_id, &address, contract.as_deref(), size)?;
            Ok(PagerOf { pager: pager(&self.client, paged, Resource::Collectible, page_token, limit)? })
        }

        /// ``rewards:listPending``: pending staking rewards; at least one of ``addresses`` /
        /// ``node_ids`` (lists or comma-separated str), ``sort_order`` asc or desc.
        #[pyo3(signature = (network, *, addresses=None, node_ids=None, sort_order=None, page_size=None, page_token=None, limit=None))]
        #[allow(clippy::too_many_arguments)]
        fn pending_rewards(
            &self,
            network: &Bound<'_, PyAny>,
            addresses: Option<&Bound<'_, PyAny>>,
            node_ids: Option<&Bound<'_, PyAny>>,
            sort_order: Option<&Bound<'_, PyAny>>,
            page_size: Option<&Bound<'_, PyAny>>,
            page_token: Option<&Bound<'_, PyAny>>,
            limit: Option<&Bound<'_, PyAny>>,
        ) -> PyResult<PagerOf> {
            let network = str_arg(network, "network", NETWORK)?;
            let (addresses, node_ids) = (list_arg(addresses, "addresses")?, list_arg(node_ids, "node_ids")?);
            let sort_order = opt_str(sort_order, "sort_order", "one of asc, desc")?;
            let size = page_size_arg(page_size, params::MAX_PAGE_SIZE)?;
            let paged = self.client.pending_rewards(&network, &addresses, &node_ids, sort_order.as_deref(), size)?;
            Ok(PagerOf { pager: pager(&self.client, paged, Resource::PendingReward, page_token, limit)? })
        }

        /// X-chain vertices, newest first; ``blockchain_id`` is ``"x-chain"`` or the network's X-chain id.
        #[pyo3(signature = (network, blockchain_id=None, *, page_size=None, page_token=None, limit=None))]
        fn vertices(
            &self,
            network: &Bound<'_, PyAny>,
            blockchain_id: Option<&Bound<'_, PyAny>>,
            page_size: Option<&Bound<'_, PyAny>>,
            page_token: Option<&Bound<'_, PyAny>>,
            limit: Option<&Bound<'_, PyAny>>,
        ) -> PyResult<PagerOf> {
            let network = str_arg(network, "network", NETWORK)?;
            let blockchain_id = opt_str(blockchain_id, "blockchain_id", "an X-chain blockchain id or 'x-chain'")?;
            let size = page_size_arg(page_size, params::MAX_PAGE_SIZE)?;
            let paged = self.client.vertices(&network, blockchain_id.as_deref().unwrap_or("x-chain"), size)?;
            Ok(PagerOf { pager: pager(&self.client, paged, Resource::Vertex, page_token, limit)? })
        }

        /// ``GET /v1/icm/messages``: interchain messages, newest first, with the six filters.
        #[pyo3(signature = (*, source_blockchain_id=None, destination_blockchain_id=None, blockchain_id=None, to=None, from_=None, network=None, page_size=None, page_token=None, limit=None))]
        #[allow(clippy::too_many_arguments)]
        fn icm_messages(
            &self,
            source_blockchain_id: Option<&Bound<'_, PyAny>>,
            destination_blockchain_id: Option<&Bound<'_, PyAny>>,
            blockchain_id: Option<&Bound<'_, PyAny>>,
            to: Option<&Bound<'_, PyAny>>,
            from_: Option<&Bound<'_, PyAny>>,
            network: Option<&Bound<'_, PyAny>>,
            page_size: Option<&Bound<'_, PyAny>>,
            page_token: Option<&Bound<'_, PyAny>>,
            limit: Option<&Bound<'_, PyAny>>,
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
            )?;
            Ok(PagerOf { pager: pager(&self.client, paged, Resource::IcmMessage, page_token, limit)? })
        }

        fn __repr__(&self) -> String {
            let closed = if self.client.is_closed() { ", closed" } else { "" };
            format!("{CLASS_NAME}({}{closed})", super::show::py_str(self.client.base_url()))
        }
    }
    sync_only {}
    async_only {}
}
