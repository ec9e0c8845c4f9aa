//! The UTXOs and balances of addresses on the X- and C-Chain, from the X world's txs
//! ([`crate::formats::x_txs`]):
//! - the X-Chain: the outputs of X txs held on the X-Chain that name one of `addresses` among
//!   their owners; the C-Chain: the outputs X's ExportTxs sent to the C-Chain (its atomic
//!   memory: the world's C-Chain never imports them). The X-Chain's DAG-era payments are spent
//!   in the linear era ([`crate::formats::x_spends`]): a spent one carries its spender's
//!   `consumingTxHash`, `consumingTxTimestamp` and `credentials`, and is listed only with
//!   `includeSpent=true`.
//! - `getUtxosByAddresses`: by `sortBy` (`timestamp` by default, or `amount`) in `sortOrder`
//!   (`asc` by default), at least `minUtxoAmount`, of `assetId` when given; `outputIndex` is
//!   decimal text (ground truth).
//! - `getBalancesByAddresses`: per asset their sum and count (X: `unlocked`, every output's
//!   locktime is 0; C: `atomicMemoryUnlocked`, shared with the X-Chain), only the UTXOs created
//!   by `blockTimestamp` (now by default) and not spent by then.
//! - The Fuji X-Chain is not emulated: no UTXOs.

use std::sync::Arc;

use serde_json::{json, Value};

use super::errors::{self, Answer};
use super::paging;
use super::params::Params;
use super::primary_chain::{chain_info, PrimaryChain};
use super::xchain_params::{addresses, min_utxo_amount};
use super::DataApiState;
use crate::formats::x_index::x_index;
use crate::formats::x_txs::{c_chain_raw, outputs, x_chain_raw, XTxFacts, XWorld};
use crate::world::{Network, X_CHAIN_MAINNET_ID};

/// Every UTXO held on `chain` (the X- or C-Chain) by one of `owners`, spent or not, oldest
/// first, each once (the Data API's `Utxo`), with the number of its tx's block (the `X/block` height, or the
/// `X/tx` index before Cortina).
pub(crate) fn held_utxos(
    network: Network,
    world: &XWorld,
    chain: PrimaryChain,
    owners: &[[u8; 20]],
) -> Vec<(u64, Value)> {
    let held_on = if chain == PrimaryChain::C { c_chain_raw() } else { x_chain_raw() };
    let index = x_index(world);
    let mut txs: Vec<_> = owners.iter().filter_map(|a| index.paid.get(a)).flatten().copied().collect();
    txs.sort_unstable();
    txs.dedup();
    let mut out = Vec::new();
    for (u, k) in txs {
        let place = world.utxo_place(u);
        let all = world.txs_quick(u);
        let tx = &all[usize::from(k)];
        let facts = XTxFacts { network, world, place: &place, tx };
        for o in outputs(tx) {
            if o.held_on == held_on && o.owners.addresses.iter().any(|a| owners.contains(a)) {
                out.push((place.number(), facts.utxo(&o)));
            }
        }
    }
    out
}

fn amount(u: &Value) -> u128 {
    u["asset"]["amount"].as_str().and_then(|a| a.parse().ok()).unwrap_or(0)
}

/// The held UTXOs of the request's owners (none for the Fuji X-Chain).
fn owned(data: &DataApiState, network: Network, chain: PrimaryChain, owners: &[[u8; 20]]) -> Vec<Value> {
    data.x_world(network)
        .map_or_else(Vec::new, |w| held_utxos(network, &w, chain, owners).into_iter().map(|(_, u)| u).collect())
}

/// `getUtxosByAddresses` on the X- or C-Chain.
pub(crate) fn utxos(data: &Arc<DataApiState>, (network, chain): (Network, PrimaryChain), mut params: Params) -> Answer {
    let size = params.page_size(100);
    let by_amount = params.one_of("sortBy", &["timestamp", "amount"]).as_deref() == Some("amount");
    let descending = params.one_of("sortOrder", &["asc", "desc"]).as_deref() == Some("desc");
    let include_spent = params.one_of("includeSpent", &["true", "false"]).as_deref() == Some("true");
    let min = min_utxo_amount(&mut params);
    let asset = params.get("assetId").map(str::to_string);
    let owners = addresses(&mut params, Some(network), true);
    params.finish()?;
    let mut items: Vec<Value> = owned(data, network, chain, &owners)
        .into_iter()
        .filter(|u| include_spent || u.get("consumingTxHash").is_none())
        .filter(|u| amount(u) >= min && asset.as_ref().is_none_or(|a| u["asset"]["assetId"] == a.as_str()))
        .collect();
    if by_amount {
        items.sort_by_key(amount);
    }
    if descending {
        items.reverse();
    }
    let fingerprint = params.fingerprint(&format!("xutxos/{}/{}", chain.name(), network.as_str()));
    let start = paging::start(data, &params, &fingerprint)?;
    let (page, next) = paging::slice(data, &items, start, size, &fingerprint);
    let body = json!({"utxos": page, "chainInfo": chain_info(network, chain)});
    paging::with_next(body, next)
}

/// Per-asset sums of `utxos` (assets in first-seen order) as `AggregatedAssetAmount`s.
fn aggregate(utxos: &[Value]) -> Vec<Value> {
    let mut out: Vec<(Value, u128, usize)> = Vec::new();
    for u in utxos {
        match out.iter_mut().find(|(a, _, _)| a["assetId"] == u["asset"]["assetId"]) {
            Some((_, sum, count)) => {
                *sum += amount(u);
                *count += 1;
            }
            None => out.push((u["asset"].clone(), amount(u), 1)),
        }
    }
    out.into_iter()
        .map(|(mut a, sum, count)| {
            a["amount"] = json!(sum.to_string());
            a["utxoCount"] = json!(count);
            a
        })
        .collect()
}

/// `getBalancesByAddresses` on the X- or C-Chain.
pub(crate) fn balances(
    data: &Arc<DataApiState>,
    (network, chain): (Network, PrimaryChain),
    mut params: Params,
) -> Answer {
    let owners = addresses(&mut params, Some(network), true);
    let until = params.get("blockTimestamp").map(str::to_string).map(|t| {
        t.trim().parse::<i64>().unwrap_or_else(|_| {
            params.problem("blockTimestamp must be an integer number".to_string());
            i64::MAX
        })
    });
    params.finish()?;
    let mut all = owned(data, network, chain, &owners);
    let t = until.unwrap_or(i64::MAX);
    all.retain(|u| {
        let created = u["timestamp"].as_i64().is_some_and(|b| b <= t);
        created && u["consumingTxTimestamp"].as_i64().is_none_or(|spent| spent > t)
    });
    let balances = if chain == PrimaryChain::C {
        let shared: Vec<Value> = aggregate(&all)
            .into_iter()
            .map(|mut a| {
                a["sharedWithChainId"] = json!(X_CHAIN_MAINNET_ID);
                a
            })
            .collect();
        json!({"atomicMemoryUnlocked": shared, "atomicMemoryLocked": []})
    } else {
        json!({"locked": [], "unlocked": aggregate(&all), "atomicMemoryUnlocked": [], "atomicMemoryLocked": []})
    };
    Ok(errors::ok(json!({"balances": balances, "chainInfo": chain_info(network, chain)})))
}
