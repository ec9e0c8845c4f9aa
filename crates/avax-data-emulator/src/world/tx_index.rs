//! The world's EVM transactions by hash, per chain: a table built on the first lookup of a chain
//! (one pass over its blocks), so `getTransaction` finds any transaction of the world.

use std::collections::HashMap;
use std::sync::OnceLock;

use super::{chains, Chain, DataWorld};

/// Transaction hash (lowercase `0x` hex) -> (block number, index in the block), per chain.
pub(crate) struct TxIndex {
    chains: Vec<OnceLock<HashMap<String, (u64, u32)>>>,
}

impl TxIndex {
    /// An empty index (no chain's table built yet).
    pub(crate) fn new() -> TxIndex {
        TxIndex { chains: chains().iter().map(|_| OnceLock::new()).collect() }
    }

    /// (block number, index) of the transaction `hash` (lowercase `0x` hex) of `chain` in `world`.
    pub(crate) fn find(&self, world: &DataWorld, chain: &Chain, hash: &str) -> Option<(u64, u32)> {
        let table = self.chains[chain.index].get_or_init(|| {
            let mut map = HashMap::new();
            for n in 0..world.blocks_per_chain() {
                for tx in world.transactions(chain, n).unwrap_or_default() {
                    map.insert(tx.hash, (n, tx.index));
                }
            }
            map
        });
        table.get(hash).copied()
    }
}
