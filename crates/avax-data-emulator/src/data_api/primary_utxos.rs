//! The P-chain UTXOs and balances of addresses, from the P-chain's txs
//! ([`crate::formats::p_utxos`]):
//! - `GET /v1/networks/{network}/blockchains/{blockchainId}/utxos?addresses=...`: the UTXOs the
//!   addresses hold (bech32, `P-` optional), by `sortBy` (`timestamp` by default, or `amount`) in
//!   `sortOrder` (`asc` by default), at least `minUtxoAmount` nAVAX; all are unspent.
//! - `GET .../balances?addresses=...`: their sum, `unlockedUnstaked` (transferable outputs) and
//!   `lockedStaked` (the stake outputs: every stake of the world is active at now), with the UTXO
//!   counts; `blockTimestamp` (Unix seconds) counts only the UTXOs created by then.
//!
//! [`super::by_chain`] hands these the P-Chain's requests (and those naming no chain: `network`
//! `None` when invalid, the problem already recorded in `params`).

use std::sync::Arc;

use serde_json::{json, Value};

use super::errors::{self, Answer};
use super::paging;
use super::params::Params;
use super::primary_chain::{chain_info, p_chain, PrimaryChain};
use super::DataApiState;
use crate::formats::p_txs::{asset_amount, avax_id};
use crate::formats::p_utxos::utxos_of;
use crate::world::Network;

/// The `addresses` query parameter: bech32 P-addresses of `network` (`P-` optional); a problem
/// when absent or when one is not of the network.
fn addresses(params: &mut Params, network: Option<Network>) -> Vec<String> {
    let Some(network) = network else { return Vec::new() };
    let list: Vec<String> =
        params.list("addresses").into_iter().map(|a| a.trim_start_matches("P-").to_string()).collect();
    if list.is_empty() {
        params.problem("addresses must be a comma separated list of P-Chain addresses".to_string());
    }
    let prefix = format!("{}1", network.hrp());
    if let Some(bad) = list.iter().find(|a| !a.starts_with(&prefix)) {
        params.problem(format!("addresses: {bad:?} is no {} P-Chain address ({prefix}...)", network.as_str()));
    }
    list
}

fn amount(u: &Value) -> u128 {
    u["amount"].as_str().and_then(|a| a.parse().ok()).unwrap_or(0)
}

/// `getUtxosByAddresses` on the P-Chain of `net`.
pub(crate) fn utxos(data: &Arc<DataApiState>, net: Option<Network>, mut params: Params) -> Answer {
    let size = params.page_size(100);
    let by_amount = params.one_of("sortBy", &["timestamp", "amount"]).as_deref() == Some("amount");
    let descending = params.one_of("sortOrder", &["asc", "desc"]).as_deref() == Some("desc");
    let min = super::xchain_params::min_utxo_amount(&mut params);
    let owners = addresses(&mut params, net);
    params.finish()?;
    let network = net.expect("checked");
    let mut items: Vec<Value> =
        utxos_of(&p_chain(data, network), network, &owners).into_iter().filter(|u| amount(u) >= min).collect();
    if by_amount {
        items.sort_by_key(amount);
    }
    if descending {
        items.reverse();
    }
    let fingerprint = params.fingerprint(&format!("putxos/{}", network.as_str()));
    let start = paging::start(data, &params, &fingerprint)?;
    let (page, next) = paging::slice(data, &items, start, size, &fingerprint);
    let body = json!({"utxos": page, "chainInfo": chain_info(network, PrimaryChain::P)});
    paging::with_next(body, next)
}

/// `getBalancesByAddresses` on the P-Chain of `net`.
pub(crate) fn balances(data: &Arc<DataApiState>, net: Option<Network>, mut params: Params) -> Answer {
    let owners = addresses(&mut params, net);
    let until = params.get("blockTimestamp").map(str::to_string).map(|t| {
        t.trim().parse::<i64>().unwrap_or_else(|_| {
            params.problem("blockTimestamp must be an integer number".to_string());
            i64::MAX
        })
    });
    params.finish()?;
    let network = net.expect("checked");
    let mut all = utxos_of(&p_chain(data, network), network, &owners);
    if let Some(t) = until {
        all.retain(|u| u["blockTimestamp"].as_i64().is_some_and(|b| b <= t));
    }
    let sum = |staked: bool| {
        let mine: Vec<&Value> = all.iter().filter(|u| u["staked"].as_bool() == Some(staked)).collect();
        if mine.is_empty() {
            return json!([]);
        }
        let mut a = asset_amount(network, &avax_id(network), mine.iter().map(|u| amount(u)).sum());
        a["utxoCount"] = json!(mine.len());
        json!([a])
    };
    let body = json!({
        "balances": {
            "unlockedUnstaked": sum(false),
            "unlockedStaked": [],
            "lockedPlatform": [],
            "lockedStakeable": [],
            "lockedStaked": sum(true),
            "pendingStaked": [],
            "atomicMemoryUnlocked": [],
            "atomicMemoryLocked": [],
        },
        "chainInfo": chain_info(network, PrimaryChain::P),
    });
    Ok(errors::ok(body))
}
