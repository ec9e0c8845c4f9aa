//! `listActivePrimaryNetworkStakingTransactions`
//! (`GET /v1/networks/{network}/blockchains/p-chain/transactions:listStaking`): the staking txs of
//! the stakes active at the world's now, read from the `P/block` containers that carry them
//! (each stake's AddPermissionlessValidatorTx / AddPermissionlessDelegatorTx in the stake slot of
//! its start, [`crate::formats::p_rewards::start_height`]), as `listLatestPrimaryNetworkTransactions` and
//! `getTxByHash` report them.
//!
//! Active: the stake's period contains now (`startTimestamp <= now < endTimestamp`) and its block
//! is accepted by now. Filters: `txTypes` (the tx's type), `addresses` (bech32 of the network, `P-`
//! optional: the tx pays one of them, a stake or a reward owner included),
//! `startTimestamp`/`endTimestamp` (Unix seconds, inclusive, on the block time). Newest first
//! (`sortOrder=asc`: oldest first), paged.

use serde_json::{json, Value};

use super::Request;
use crate::data_api::errors::Answer;
use crate::data_api::paging;
use crate::data_api::primary_chain::{chain_info, p_chain, PrimaryChain};
use crate::data_api::rewards::p_addresses;
use crate::formats::p_rewards::start_height;
use crate::formats::p_txs::{block_txs, PTxFacts};
use crate::formats::pchain::stake_tx_id;
use crate::formats::px_blocks::PxChain;
use crate::formats::stakes::stakes_cached;
use crate::world::{Network, WORLD_NOW_MS};

/// The staking tx (as `PChainTransaction` JSON) of every stake active at now on `chain` (the
/// P-Chain of `network` in the world of `seed`), in height order (the stakes' start order).
pub(crate) fn active_staking_txs(seed: u64, network: Network, chain: &PxChain) -> Vec<Value> {
    let PxChain::P(c) = chain else { return Vec::new() };
    let cfg = *c.inner().config();
    let now = (WORLD_NOW_MS / 1000) as u64;
    let mut out = Vec::new();
    for (k, stake) in stakes_cached(seed, network).iter().enumerate() {
        let h = start_height(seed, &cfg, k);
        if !(stake.start <= now && now < stake.end) || h >= chain.span() {
            continue;
        }
        let Some(block) = chain.block(h) else { continue };
        let id = stake_tx_id(seed, network, stake);
        let txs = block_txs(chain, h);
        // The stake slot's block carries the stake's tx (`formats/pchain.rs`).
        if let Some(tx) = txs.iter().find(|t| t.tx_id == id) {
            out.push(PTxFacts { network, block: &block, tx }.to_json());
        }
    }
    out
}

/// The addresses a staking tx pays: its outputs' owners and its reward owners.
fn pays(tx: &Value) -> Vec<String> {
    let owners = tx["emittedUtxos"].as_array().into_iter().flatten().flat_map(|u| u["addresses"].as_array()).flatten();
    let rewarded = tx["rewardAddresses"].as_array().into_iter().flatten();
    owners.chain(rewarded).filter_map(|a| a.as_str().map(str::to_string)).collect()
}

/// `listActivePrimaryNetworkStakingTransactions`.
pub(crate) fn answer(request: &Request) -> Answer {
    let network = Network::parse(request.path("network")).unwrap_or(Network::Mainnet);
    let params = &request.params;
    let types = params.list("txTypes");
    let addresses = p_addresses(params, network)?;
    let bound = |name: &str| params.get(name).and_then(|v| v.trim().parse::<i64>().ok());
    let (from, to) = (bound("startTimestamp"), bound("endTimestamp"));
    let chain = p_chain(request.state, network);
    let mut items: Vec<Value> = active_staking_txs(request.state.world.seed(), network, &chain)
        .into_iter()
        .filter(|t| types.is_empty() || types.iter().any(|ty| t["txType"] == ty.as_str()))
        .filter(|t| addresses.is_empty() || pays(t).iter().any(|a| addresses.contains(a)))
        .filter(|t| {
            let at = t["blockTimestamp"].as_i64().unwrap_or(0);
            from.is_none_or(|f| at >= f) && to.is_none_or(|e| at <= e)
        })
        .collect();
    if request.params.get("sortOrder") != Some("asc") {
        items.reverse();
    }
    let (start, fingerprint) = (request.start()?, request.fingerprint());
    let (page, next) = paging::slice(request.state, &items, start, request.size, &fingerprint);
    paging::with_next(json!({"transactions": page, "chainInfo": chain_info(network, PrimaryChain::P)}), next)
}
