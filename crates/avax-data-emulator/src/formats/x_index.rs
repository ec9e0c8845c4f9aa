//! Lookups over the whole Mainnet X-chain of a world ([`super::x_txs::XWorld`]), built once per
//! chain on the first request that needs one (never when the world is built): where each tx
//! sits, which txs pay each address, which txs move each asset other than AVAX, and the AVAX all
//! of them burned. The txs are made
//! again from the seed ([`XWorld::txs_quick`]), not read from signed containers.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use super::p_txs::avax_id;
use super::x_txs::{inputs, outputs, tx_fee, XWorld};
use crate::world::Network;

/// A tx's position: `(unit, index of the tx in its unit)`.
pub type TxPos = (u64, u16);

/// The lookups of one X-chain.
#[derive(Debug, Default)]
pub struct XIndex {
    /// Tx id -> position.
    pub tx_at: HashMap<[u8; 32], TxPos>,
    /// Address (20-byte short id) -> the txs whose outputs it owns, oldest first, each once.
    pub paid: HashMap<[u8; 20], Vec<TxPos>>,
    /// Asset id (AVAX aside: every tx moves it) -> the txs moving it, oldest first, each once.
    pub assets: HashMap<[u8; 32], Vec<TxPos>>,
    /// The AVAX every tx up to now burned (their fees), nAVAX.
    pub burned: u128,
}

fn push_once(list: &mut Vec<TxPos>, pos: TxPos) {
    if list.last() != Some(&pos) {
        list.push(pos);
    }
}

impl XIndex {
    fn build(world: &XWorld) -> XIndex {
        let avax = avax_id(Network::Mainnet);
        let mut index = XIndex::default();
        for u in 0..world.units() {
            for (k, tx) in world.txs_quick(u).iter().enumerate() {
                let pos = (u, k as u16);
                index.tx_at.insert(tx.tx_id, pos);
                index.burned += tx_fee(tx);
                let outs = outputs(tx);
                for a in outs.iter().flat_map(|o| o.owners.addresses.iter()) {
                    push_once(index.paid.entry(*a).or_default(), pos);
                }
                let ins = inputs(tx);
                let moved = outs.iter().map(|o| o.asset_id).chain(ins.iter().map(|i| i.asset_id));
                for asset in moved.filter(|a| *a != avax) {
                    push_once(index.assets.entry(asset).or_default(), pos);
                }
            }
        }
        index
    }
}

/// The lookups of `world`'s X-chain, built on first use and kept for the process.
pub fn x_index(world: &XWorld) -> Arc<XIndex> {
    type Slot = Arc<OnceLock<Arc<XIndex>>>;
    static KEPT: OnceLock<Mutex<HashMap<XWorld, Slot>>> = OnceLock::new();
    let slot = {
        let mut kept = KEPT.get_or_init(Default::default).lock().unwrap_or_else(|e| e.into_inner());
        kept.entry(*world).or_default().clone()
    };
    slot.get_or_init(|| Arc::new(XIndex::build(world))).clone()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::x_txs::paid_addresses;

    #[test]
    fn every_tx_is_found_where_it_sits_and_pays_its_owners() {
        let w = XWorld::new(4, [0, 0]);
        let index = x_index(&w);
        assert!(Arc::ptr_eq(&index, &x_index(&w)), "built once");
        let total: usize = (0..w.units()).map(|u| w.txs_quick(u).len()).sum();
        assert_eq!(index.tx_at.len(), total, "tx ids are unique");
        for u in [0, 1, w.tx_span - 1, w.tx_span, w.units() - 1] {
            for (k, tx) in w.txs(u).iter().enumerate() {
                assert_eq!(index.tx_at[&tx.tx_id], (u, k as u16));
                for a in paid_addresses(tx) {
                    assert!(index.paid[&a].contains(&(u, k as u16)));
                }
            }
        }
        assert!(index.paid.values().all(|l| l.windows(2).all(|p| p[0] < p[1])));
        assert!(!index.assets.contains_key(&avax_id(Network::Mainnet)));
    }
}
