//! The P-chain UTXOs an address holds: the outputs of the P-chain's txs ([`super::p_txs`]) that
//! name it among their owners. The emulated chain never spends its own outputs (its txs' inputs
//! spend UTXOs from before the emulated history), so every one is unspent. Amounts are those of
//! the txs: each unstaked output at most 10,000 AVAX, a stake its weight (at most 3M AVAX), all
//! of them together far below the supply.

use std::collections::HashMap;
use std::sync::Arc;

use serde_json::Value;

use super::p_txs::{block_txs, PTxFacts};
use super::px_blocks::{PerChain, PxChain};
use crate::world::Network;

/// `(height, tx index in its block)` of every tx paying an address, oldest first.
type Payers = HashMap<String, Vec<(u64, usize)>>;

/// Which txs pay each address of the P-chain `chain` of `network` (built once per chain).
fn payers(chain: &PxChain, network: Network) -> Arc<Payers> {
    static MAPS: PerChain<Payers> = PerChain::new();
    if !matches!(chain, PxChain::P(_)) {
        return Arc::default();
    }
    MAPS.get_or_build(chain, || {
        let mut map = Payers::new();
        for h in 0..chain.span() {
            let block = chain.block(h).expect("inside the span");
            for (i, tx) in block_txs(chain, h).iter().enumerate() {
                for a in (PTxFacts { network, block: &block, tx }).addresses() {
                    map.entry(a).or_default().push((h, i));
                }
            }
        }
        map
    })
}

/// Every UTXO (the Data API's `PChainUtxo`) held by one of `addresses` (bech32, no `P-`),
/// oldest first, each once.
pub fn utxos_of(chain: &PxChain, network: Network, addresses: &[String]) -> Vec<Value> {
    let map = payers(chain, network);
    let mut txs: Vec<(u64, usize)> = addresses.iter().flat_map(|a| map.get(a).into_iter().flatten().copied()).collect();
    txs.sort_unstable();
    txs.dedup();
    let mut out = Vec::new();
    for (h, i) in txs {
        let block = chain.block(h).expect("inside the span");
        let all = block_txs(chain, h);
        let facts = PTxFacts { network, block: &block, tx: &all[i] };
        out.extend(facts.emitted_utxos().into_iter().filter(|u| {
            u["addresses"].as_array().is_some_and(|owners| owners.iter().any(|o| addresses.iter().any(|a| o == a)))
        }));
    }
    out
}
