//! The P-chain's transactions, from the `P/block` containers ([`crate::formats::p_txs`]):
//! - `GET /v1/networks/{network}/blockchains/{blockchainId}/transactions`: newest first
//!   (`sortOrder=asc`: oldest first), within `startTimestamp`/`endTimestamp` (Unix seconds,
//!   inclusive), of the `txTypes` asked, paying one of `addresses` (bech32, `P-` optional);
//!   `chainInfo` names the chain asked.
//! - `GET .../transactions/{txHash}`: one by its CB58 tx id (404 when no block holds it).
//!
//! [`super::by_chain`] hands these the P-Chain's requests (and those naming no chain: `network`
//! `None` when invalid, the problem already recorded in `params`).

use std::sync::Arc;

use serde_json::{json, Value};

use super::errors::{self, Answer};
use super::paging;
use super::params::Params;
use super::primary_chain::{chain_info, p_chain, seconds, PrimaryChain};
use super::DataApiState;
use crate::formats::p_txs::{block_txs, tx_height, PTxFacts};
use crate::world::Network;
use avax_data_core::decode::pchain::tx_type_name;
use avax_data_core::index::cb58;

/// The P-chain tx type names (`PChainTransactionType`, `UNKNOWN` aside).
fn p_tx_types() -> Vec<&'static str> {
    (0..64).filter_map(tx_type_name).collect()
}

/// `listLatestPrimaryNetworkTransactions` on the P-Chain of `net`.
pub(crate) fn list(data: &Arc<DataApiState>, net: Option<Network>, mut params: Params) -> Answer {
    let size = params.page_size(100);
    let (start_s, end_s) = (seconds(&mut params, "startTimestamp"), seconds(&mut params, "endTimestamp"));
    let ascending = params.one_of("sortOrder", &["asc", "desc"]).as_deref() == Some("asc");
    let types = params.list("txTypes");
    let known = p_tx_types();
    if let Some(bad) = types.iter().find(|t| !known.contains(&t.as_str())) {
        params.problem(format!("txTypes {bad:?} is no P-Chain transaction type; one of: {}", known.join(", ")));
    }
    let addresses: Vec<String> =
        params.list("addresses").into_iter().map(|a| a.strip_prefix("P-").unwrap_or(&a).to_string()).collect();
    params.finish()?;
    let network = net.expect("checked");
    let chain = p_chain(data, network);
    let lo = start_s.map_or(0, |s| chain.first_at_or_after(s));
    let hi = end_s.map_or(chain.span(), |e| chain.first_at_or_after(e.saturating_add(1)));
    let fingerprint = params.fingerprint(&format!("ptxs/{}", network.as_str()));
    // A position is (blocks passed from the start of the walk) << 16 | txs taken of the next.
    let start = paging::start(data, &params, &fingerprint)?;
    let (mut passed, mut taken) = ((start >> 16) as u64, (start & 0xffff) as usize);
    let total = hi.saturating_sub(lo);
    let mut out: Vec<Value> = Vec::with_capacity(size);
    while passed < total && out.len() < size {
        let h = if ascending { lo + passed } else { hi - 1 - passed };
        let block = chain.block(h).expect("inside the span");
        let mut txs = block_txs(&chain, h);
        if !ascending {
            txs.reverse();
        }
        while taken < txs.len() && out.len() < size {
            let facts = PTxFacts { network, block: &block, tx: &txs[taken] };
            taken += 1;
            let type_ok = types.is_empty() || types.iter().any(|t| t == facts.tx.type_name);
            let pays = addresses.is_empty() || facts.addresses().iter().any(|a| addresses.contains(a));
            if type_ok && pays {
                out.push(facts.to_json());
            }
        }
        if taken >= txs.len() {
            passed += 1;
            taken = 0;
        }
    }
    let next = (u128::from(passed) << 16) | taken as u128;
    let body = json!({"transactions": out, "chainInfo": chain_info(network, PrimaryChain::P)});
    paging::with_next(body, paging::next_token(data, passed < total, &fingerprint, next))
}

/// `getTxByHash` on the P-Chain of `net`.
pub(crate) fn get_one(data: &Arc<DataApiState>, net: Option<Network>, tx_hash: &str, mut params: Params) -> Answer {
    params.finish()?;
    let network = net.expect("checked");
    let not_found = || errors::not_found(format!("Transaction {tx_hash} not found on p-chain"));
    let raw = cb58::decode_id(tx_hash).map_err(|_| not_found())?;
    let chain = p_chain(data, network);
    let h = tx_height(&chain, &raw).ok_or_else(not_found)?;
    let block = chain.block(h).ok_or_else(not_found)?;
    let txs = block_txs(&chain, h);
    let tx = txs.iter().find(|t| t.tx_id == raw).ok_or_else(not_found)?;
    Ok(errors::ok(PTxFacts { network, block: &block, tx }.to_json()))
}
