//! The `P/block`, `X/block` and `X/tx` indexes of the emulator in real formats, from the world's
//! seed: platformvm blocks ([`super::pchain`]) and AVM standard blocks ([`super::xchain`]) served
//! as [`EnvelopedChain`]s, and pre-Cortina AVM transactions for `X/tx`.
//!
//! | index | heights | container |
//! |---|---|---|
//! | `P/block` | `0..100` | raw platformvm blocks (Apricot), id = sha256(bytes) |
//! | `P/block` | `100..4096` | proposervm envelopes (typeID 0; options around proposal blocks as typeID 1), one in eight unsigned |
//! | `P/block` | `4096..` | Granite envelopes (typeID 2, epochs of 128 blocks); Banff blocks from height 250 |
//! | `X/block` | all | envelopes around StandardBlocks (all linear X-chain blocks post-date the fork) |
//! | `X/tx` | all | standalone signed AVM txs, id = sha256(bytes) |
//!
//! Block times: on the world's one clock ([`super::px_clock`]): the P-chain from Mainnet genesis
//! (2020-09-21) to the proposervm fork (2021-09-22 21:00 UTC) over its first 100 heights, to
//! Banff (2022-10-18 16:00 UTC) by height 250, then to now, each stake's block accepted in the
//! second the stake starts (and an ended stake's reward block in the second it ends); the X-chain from Cortina (2023-04-25 15:00 UTC) to now; `X/tx` from
//! Mainnet genesis to Cortina (where a node's `X/tx` index stops). The node's acceptance timestamp lies in the block's second.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use super::enveloped::{EnvelopedChain, InnerChain};
use super::p_rewards::lifecycle;
use super::pchain::{self, PChainConfig};
use super::proposervm::{Epoch, Kind};
use super::px_clock::{self, PTimeline, CORTINA_S, GENESIS_S};
use super::xchain;
use crate::world::{derive, Network, WORLD_NOW_MS};

pub use super::px_clock::P_FORK_HEIGHT;
/// First Granite envelope (both chains).
pub const GRANITE_HEIGHT: u64 = 4_096;
/// Blocks per Granite epoch.
pub const EPOCH_BLOCKS: u64 = 128;

const X_TAG: u64 = 0x7861_6363;
const XTX_TAG: u64 = 0x7874_7863;

/// Block time of `X/block` height `h` of a chain spanning `span` heights, Unix seconds.
pub fn x_time(seed: u64, span: u64, h: u64) -> i64 {
    x_accepted_ns(seed, span, h).div_euclid(1_000_000_000)
}

fn granite_or_stateless(h: u64, p_chain_height: impl Fn(u64) -> u64, time: impl Fn(u64) -> i64) -> Kind {
    if h < GRANITE_HEIGHT {
        return Kind::Stateless;
    }
    let number = (h - GRANITE_HEIGHT) / EPOCH_BLOCKS + 1;
    let start = GRANITE_HEIGHT + (number - 1) * EPOCH_BLOCKS;
    Kind::Granite(Epoch { p_chain_height: p_chain_height(start), number, start_time: time(start) })
}

/// The emulated P-chain's blocks.
#[derive(Debug, Clone)]
pub struct PBlocks {
    seed: u64,
    cfg: PChainConfig,
    clock: PTimeline,
}

impl PBlocks {
    /// Where the eras and stakes sit on this chain.
    pub fn config(&self) -> &PChainConfig {
        &self.cfg
    }

    /// This chain's timeline.
    pub fn clock(&self) -> &PTimeline {
        &self.clock
    }
}

impl InnerChain for PBlocks {
    fn inner_block(&self, height: u64, parent: &[u8; 32], out: &mut Vec<u8>) -> [u8; 32] {
        let time = u64::try_from(self.clock.time_s(height)).unwrap_or(0);
        let block = pchain::inner_block(self.seed, height, *parent, time, &self.cfg);
        out.extend_from_slice(&block.bytes);
        block.id
    }

    fn fork_height(&self) -> u64 {
        P_FORK_HEIGHT
    }

    fn chain_id(&self) -> [u8; 32] {
        [0; 32] // the P-chain's blockchain id
    }

    fn envelope(&self, h: u64) -> (Kind, i64, u64, bool) {
        let time = self.clock.time_s(h);
        if pchain::kind_at(self.seed, h, &self.cfg).is_option() {
            return (Kind::Option, time, 0, false);
        }
        let p_height = |h: u64| h.saturating_sub(1);
        let kind = granite_or_stateless(h, p_height, |h| self.clock.time_s(h));
        (kind, time, p_height(h), !derive(self.seed, 0x50, h, 1).is_multiple_of(8))
    }
}

/// The emulated X-chain's linear blocks.
#[derive(Debug, Clone)]
pub struct XBlocks {
    seed: u64,
    span: u64,
}

impl InnerChain for XBlocks {
    fn inner_block(&self, height: u64, parent: &[u8; 32], out: &mut Vec<u8>) -> [u8; 32] {
        let time = u64::try_from(x_time(self.seed, self.span, height)).unwrap_or(0);
        let block = xchain::standard_block(self.seed, height, *parent, time);
        out.extend_from_slice(&block.bytes);
        block.id
    }

    fn fork_height(&self) -> u64 {
        0
    }

    fn chain_id(&self) -> [u8; 32] {
        xchain_id()
    }

    fn envelope(&self, h: u64) -> (Kind, i64, u64, bool) {
        let p_height = |h: u64| 9_000_000 + h / 2;
        let time = |h: u64| x_time(self.seed, self.span, h);
        let kind = granite_or_stateless(h, p_height, time);
        (kind, time(h), p_height(h), !derive(self.seed, 0x58, h, 1).is_multiple_of(8))
    }
}

/// The Mainnet X-chain's 32-byte blockchain id.
pub fn xchain_id() -> [u8; 32] {
    avax_data_core::index::cb58::decode_id("2oYMBNV4eNHyqk2fjjV5nVQLDbtmNJzq5s3qs3Lo6ftnC6FByM").expect("a valid id")
}

/// The shared P-chain of `network` in the world of `seed` whose timeline spans `span` heights
/// (at least [`px_clock::MIN_SPAN`]; ids cached once per process). The Mainnet one is the
/// `P/block` index.
pub fn p_chain(seed: u64, network: Network, span: u64) -> Arc<EnvelopedChain<PBlocks>> {
    type Key = (u64, Network, u64);
    static REGISTRY: OnceLock<Mutex<HashMap<Key, Arc<EnvelopedChain<PBlocks>>>>> = OnceLock::new();
    let span = span.max(px_clock::MIN_SPAN);
    let mut map = REGISTRY.get_or_init(Default::default).lock().unwrap_or_else(|e| e.into_inner());
    map.entry((seed, network, span))
        .or_insert_with(|| {
            let cfg = px_clock::served_config(network, span, lifecycle(seed, network).events.len());
            let clock = PTimeline::new(seed, &cfg, span);
            Arc::new(EnvelopedChain::new(PBlocks { seed, cfg, clock }))
        })
        .clone()
}

/// The shared `X/block` chain of `seed` whose timeline spans `span` heights.
pub fn x_chain(seed: u64, span: u64) -> Arc<EnvelopedChain<XBlocks>> {
    type Registry = Mutex<HashMap<(u64, u64), Arc<EnvelopedChain<XBlocks>>>>;
    static REGISTRY: OnceLock<Registry> = OnceLock::new();
    let span = span.max(px_clock::MIN_SPAN);
    let mut map = REGISTRY.get_or_init(Default::default).lock().unwrap_or_else(|e| e.into_inner());
    map.entry((seed, span)).or_insert_with(|| Arc::new(EnvelopedChain::new(XBlocks { seed, span }))).clone()
}

/// Acceptance time of `P/block` container `h` (the Mainnet P-chain spanning `span`), Unix ns.
pub fn p_accepted_ns(seed: u64, span: u64, h: u64) -> i64 {
    p_chain(seed, Network::Mainnet, span).inner().clock().accepted_ns(h)
}

/// Acceptance time of `X/block` container `h` (a chain spanning `span`), Unix ns.
pub fn x_accepted_ns(seed: u64, span: u64, h: u64) -> i64 {
    px_clock::linear_ns(seed, X_TAG, (CORTINA_S, WORLD_NOW_MS / 1000), span, h)
}

/// Acceptance time of `X/tx` container `h` (an index spanning `span`, genesis to Cortina), Unix ns.
pub fn x_tx_accepted_ns(seed: u64, span: u64, h: u64) -> i64 {
    px_clock::linear_ns(seed, XTX_TAG, (GENESIS_S, CORTINA_S), span, h)
}

/// Writes `X/tx` container `index` (a pre-Cortina AVM tx) into `buf`; returns its id.
pub fn x_tx(seed: u64, index: u64, buf: &mut Vec<u8>) -> [u8; 32] {
    buf.clear();
    buf.extend_from_slice(&xchain::dag_tx(seed, index));
    avax_data_core::index::cb58::sha256(buf)
}

#[cfg(test)]
mod tests {
    use super::*;
    use avax_data_core::decode::{ids, pchain as pdecode, proposervm as penv, xchain as xdecode};
    use avax_data_core::index::{cb58, IndexPath};

    #[test]
    fn p_blocks_are_raw_then_enveloped_with_chained_ids_decodable_and_in_time_order() {
        let chain = p_chain(5, Network::Mainnet, px_clock::MIN_SPAN);
        let mut buf = Vec::new();
        let (mut prev_id, mut prev_inner, mut kinds) = ([0u8; 32], [0u8; 32], std::collections::BTreeSet::new());
        for h in 0..400 {
            let id = chain.container(h, &mut buf);
            assert_eq!(chain.ids(h).1, id);
            let sha = cb58::sha256(&buf);
            let prefix = ids::signed_prefix_len(IndexPath::PBlock, &buf).map(|n| cb58::sha256(&buf[..n]));
            assert!(ids::check(IndexPath::PBlock, &buf, &id, &sha, prefix.as_ref()).is_ok(), "P/block {h}");
            let inner = match penv::parse(&buf) {
                Ok(env) if h >= P_FORK_HEIGHT => {
                    assert_eq!(env.parent_id, prev_id, "the envelope's parent is the previous container");
                    kinds.insert(env.kind.name());
                    env.inner.to_vec()
                }
                _ => {
                    assert!(h < P_FORK_HEIGHT, "height {h} is enveloped");
                    assert_eq!(id, sha);
                    buf.clone()
                }
            };
            let block = pdecode::decode_block(&inner).unwrap();
            assert_eq!((block.height, block.parent_id), (h, prev_inner));
            prev_id = id;
            prev_inner = block.block_id;
            let span = px_clock::MIN_SPAN;
            assert!(p_accepted_ns(5, span, h + 1) > p_accepted_ns(5, span, h));
        }
        assert_eq!(kinds.into_iter().collect::<Vec<_>>(), vec!["option", "stateless"]);
    }

    #[test]
    fn x_blocks_and_txs_decode_with_their_ids() {
        let chain = x_chain(5, px_clock::MIN_SPAN);
        let mut buf = Vec::new();
        for h in [0u64, 1, 2, 4_095, 4_096, 4_300] {
            let id = chain.container(h, &mut buf);
            let env = penv::parse(&buf).unwrap();
            assert_eq!(id, cb58::sha256(&buf[..env.id_len]));
            let block = xdecode::decode_block(env.inner).unwrap();
            assert_eq!((block.height, block.time as i64), (h, x_time(5, px_clock::MIN_SPAN, h)));
            assert_eq!(env.kind == penv::EnvelopeKind::Granite, h >= GRANITE_HEIGHT);
        }
        for i in 0..200 {
            let id = x_tx(5, i, &mut buf);
            assert_eq!(xdecode::decode_tx(&buf).unwrap().tx_id, id);
        }
    }
}
