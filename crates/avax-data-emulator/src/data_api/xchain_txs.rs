//! The X-Chain's transactions from the X world ([`crate::formats::x_txs`]), and the C-Chain's
//! atomic transactions:
//! - `GET /v1/networks/{network}/blockchains/{x-chain}/transactions`: the `X/tx` txs (before
//!   Cortina, `non-linear`) and the `X/block` txs (after, `linear`) newest first (`sortOrder=asc`:
//!   oldest first; a block's txs in block order, reversed when newest first), within
//!   `startTimestamp`/`endTimestamp` (Unix seconds, inclusive), of the `txTypes` asked, paying one
//!   of `addresses`; `chainInfo` names the chain asked. A non-linear tx's `vertices` is empty:
//!   the world's `X/vtx` holds random bytes, no vertex names the `X/tx` txs.
//! - `GET .../transactions/{txHash}`: one by its CB58 id (404 when the world holds none).
//! - `listAssetTransactions` ([`super::xchain_assets`]) is the same list of the txs moving one
//!   asset.
//! - The Fuji X-Chain is not emulated: an empty list. (The C-Chain's:
//!   [`super::catomic_txs`].)

use std::sync::Arc;

use serde_json::{json, Value};

use super::errors::{self, Answer};
use super::paging;
use super::params::{path_network, Params};
use super::primary_chain::{chain_info, seconds, PrimaryChain};
use super::xchain_params::{addresses, empty_list, tx_types};
use super::DataApiState;
use crate::formats::p_txs::avax_id;
use crate::formats::x_index::{x_index, TxPos};
use crate::formats::x_txs::{moves, paid_addresses, XTxFacts, XWorld};
use crate::world::Network;
use avax_data_core::decode::xchain::XTx;
use avax_data_core::index::cb58;

/// Which txs a list keeps.
pub(crate) struct TxFilter {
    pub(crate) types: Vec<String>,
    pub(crate) addresses: Vec<[u8; 20]>,
    /// Only the txs moving this asset.
    pub(crate) asset: Option<[u8; 32]>,
}

impl TxFilter {
    fn keeps(&self, network: Network, tx: &XTx) -> bool {
        (self.types.is_empty() || self.types.iter().any(|t| t == tx.type_name))
            && (self.addresses.is_empty() || paid_addresses(tx).iter().any(|a| self.addresses.contains(a)))
            && self.asset.is_none_or(|a| a == avax_id(network) || moves(tx, &a))
    }
}

/// A list request: page size, time window (Unix seconds, inclusive), order and filter.
pub(crate) struct ListQuery {
    pub(crate) size: usize,
    pub(crate) window: (Option<i64>, Option<i64>),
    pub(crate) ascending: bool,
    pub(crate) filter: TxFilter,
}

/// The list's query (`network`: `None` when invalid, already recorded in `params`).
pub(crate) fn list_query(params: &mut Params, network: Option<Network>) -> ListQuery {
    let size = params.page_size(100);
    let window = (seconds(params, "startTimestamp"), seconds(params, "endTimestamp"));
    let ascending = params.one_of("sortOrder", &["asc", "desc"]).as_deref() == Some("asc");
    let types = tx_types(params);
    let addresses = addresses(params, network, false);
    ListQuery { size, window, ascending, filter: TxFilter { types, addresses, asset: None } }
}

/// One page of X-chain txs of `world` on `network` kept by `filter`, as `{transactions,
/// chainInfo, nextPageToken}`; `route` ties the page tokens to the operation.
pub(crate) fn x_page(
    data: &DataApiState,
    (network, world): (Network, Option<XWorld>),
    params: &Params,
    query: ListQuery,
    route: &str,
) -> Answer {
    let ListQuery { size, window: (start_s, end_s), ascending, filter } = query;
    // No X tx is of a P-Chain type: those filters keep nothing (no walk of the whole chain).
    let x_types = ["BaseTx", "CreateAssetTx", "OperationTx", "ImportTx", "ExportTx"];
    let typed_out = !filter.types.is_empty() && !filter.types.iter().any(|t| x_types.contains(&t.as_str()));
    let Some(world) = world.filter(|_| !typed_out) else {
        return Ok(errors::ok(empty_list("transactions", network, PrimaryChain::X)));
    };
    let lo = start_s.map_or(0, |s| world.first_at_or_after(s));
    let hi = end_s.map_or(world.units(), |e| world.first_at_or_after(e.saturating_add(1)));
    let fingerprint = params.fingerprint(&format!("xtxs/{route}/{}", network.as_str()));
    let start = paging::start(data, params, &fingerprint)?;
    let rare_asset = filter.asset.filter(|a| *a != avax_id(network));
    let ask = PageAsk {
        data,
        network,
        world: &world,
        lo,
        hi,
        start,
        size,
        ascending,
        filter: &filter,
        fingerprint: &fingerprint,
    };
    let (out, next) =
        if !filter.addresses.is_empty() || rare_asset.is_some() { indexed_page(&ask) } else { walked_page(&ask) };
    let body = json!({"transactions": out, "chainInfo": chain_info(network, PrimaryChain::X)});
    paging::with_next(body, next)
}

/// One page asked of the units `lo..hi` of `world`: from position `start`, `size` txs at most.
struct PageAsk<'a> {
    data: &'a DataApiState,
    network: Network,
    world: &'a XWorld,
    lo: u64,
    hi: u64,
    start: u128,
    size: usize,
    ascending: bool,
    filter: &'a TxFilter,
    fingerprint: &'a str,
}

/// Walks the units from one end of `lo..hi`; a position is (units passed) << 16 | txs taken of
/// the next.
fn walked_page(ask: &PageAsk<'_>) -> (Vec<Value>, Option<String>) {
    let PageAsk { data, network, world, lo, hi, start, size, ascending, filter, fingerprint } = *ask;
    let (mut passed, mut taken) = ((start >> 16) as u64, (start & 0xffff) as usize);
    let total = hi.saturating_sub(lo);
    let mut out: Vec<Value> = Vec::with_capacity(size);
    while passed < total && out.len() < size {
        let u = if ascending { lo + passed } else { hi - 1 - passed };
        let place = world.place(u);
        let mut txs = world.txs(u);
        if !ascending {
            txs.reverse();
        }
        while taken < txs.len() && out.len() < size {
            let tx = &txs[taken];
            taken += 1;
            if filter.keeps(network, tx) {
                out.push(XTxFacts { network, world, place: &place, tx }.to_json());
            }
        }
        if taken >= txs.len() {
            passed += 1;
            taken = 0;
        }
    }
    let next = (u128::from(passed) << 16) | taken as u128;
    (out, paging::next_token(data, passed < total, fingerprint, next))
}

/// The txs the index names for the filter's addresses or asset, in `lo..hi`, kept by the
/// filter, in order; a position is an offset into that list.
fn indexed_page(ask: &PageAsk<'_>) -> (Vec<Value>, Option<String>) {
    let PageAsk { data, network, world, lo, hi, start, size, ascending, filter, fingerprint } = *ask;
    let index = x_index(world);
    let mut named: Vec<TxPos> = filter.addresses.iter().filter_map(|a| index.paid.get(a)).flatten().copied().collect();
    if let Some(asset) = filter.asset.filter(|a| *a != avax_id(network)) {
        let moving = index.assets.get(&asset).cloned().unwrap_or_default();
        named = if filter.addresses.is_empty() {
            moving
        } else {
            named.into_iter().filter(|p| moving.contains(p)).collect()
        };
    }
    named.retain(|(u, _)| (lo..hi).contains(u));
    named.sort_unstable();
    named.dedup();
    if !ascending {
        named.reverse();
    }
    let mut cached: Option<(u64, Vec<XTx>)> = None;
    let mut unit_txs = |u: u64| -> Vec<XTx> {
        if cached.as_ref().is_none_or(|(c, _)| *c != u) {
            cached = Some((u, world.txs_quick(u)));
        }
        cached.as_ref().map(|(_, t)| t.clone()).unwrap_or_default()
    };
    let kept: Vec<TxPos> = named
        .into_iter()
        .filter(|&(u, k)| unit_txs(u).get(usize::from(k)).is_some_and(|tx| filter.keeps(network, tx)))
        .collect();
    let (page, next) = paging::slice(data, &kept, start, size, fingerprint);
    let out = page
        .iter()
        .map(|&(u, k)| {
            let place = world.place(u);
            let txs = world.txs(u);
            XTxFacts { network, world, place: &place, tx: &txs[usize::from(k)] }.to_json()
        })
        .collect();
    (out, next)
}

/// `listLatestPrimaryNetworkTransactions` on the X-Chain of `network`.
pub(crate) fn list(data: &Arc<DataApiState>, network: Network, mut params: Params) -> Answer {
    let query = list_query(&mut params, Some(network));
    params.finish()?;
    x_page(data, (network, data.x_world(network)), &params, query, "list")
}

/// The X-chain tx `tx_hash` of `world` as the Data API reports it (`None` when it holds none).
pub(crate) fn x_tx_json(network: Network, world: &XWorld, tx_hash: &str) -> Option<Value> {
    let raw = cb58::decode_id(tx_hash).ok()?;
    let (u, k) = *x_index(world).tx_at.get(&raw)?;
    let place = world.place(u);
    let txs = world.txs(u);
    Some(XTxFacts { network, world, place: &place, tx: txs.get(usize::from(k))? }.to_json())
}

/// `getTxByHash` on the X-Chain of `network`.
pub(crate) fn get_one(data: &Arc<DataApiState>, network: Network, tx_hash: &str, mut params: Params) -> Answer {
    params.finish()?;
    let not_found = || errors::not_found(format!("Transaction {tx_hash} not found on {}", PrimaryChain::X.name()));
    let world = data.x_world(network).ok_or_else(not_found)?;
    x_tx_json(network, &world, tx_hash).map(errors::ok).ok_or_else(not_found)
}

/// The network of a route whose `blockchainId` must be an X-Chain id of the document's
/// `XChainId` (the other network's X-Chain id is a 400).
pub(crate) fn x_chain_network(params: &mut Params, network: &str, blockchain_id: &str) -> Option<Network> {
    let net = path_network(params, network);
    let allowed = [crate::world::X_CHAIN_MAINNET_ID, crate::world::X_CHAIN_FUJI_ID, "x-chain"];
    if !allowed.contains(&blockchain_id) {
        params.problem(format!("blockchainId must be one of the following values: {}", allowed.join(", ")));
        return None;
    }
    let net = net?;
    if blockchain_id != "x-chain" && blockchain_id != net.x_chain_id() {
        params.problem(format!(
            "blockchainId {blockchain_id} is not the X-Chain of network {network}; use {} or x-chain",
            net.x_chain_id()
        ));
        return None;
    }
    Some(net)
}
