//! The primary network's P- and X-chain blocks as the Data API reports them, read from the very
//! containers the Index RPC serves (`P/block`, `X/block`): block `h` has the container's height,
//! CB58 id (`blockHash`; `parentHash` is the previous container's), the second it was accepted
//! in (`blockTimestamp`), its size, and the inner block's type and tx ids as the core's decoders
//! read them. Enveloped blocks add their proposervm fields (`proposerDetails`).

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use avax_data_core::decode::{pchain as pdecode, proposervm as penv, xchain as xdecode};
use avax_data_core::index::cb58;
use serde_json::{json, Value};

use super::enveloped::EnvelopedChain;
use super::pxchains::{self, PBlocks, XBlocks, P_FORK_HEIGHT};
use crate::world::Network;

/// Which primary-network chain.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PxKind {
    /// The platform chain.
    P,
    /// The exchange chain (linear blocks since Cortina).
    X,
}

/// One chain's blocks as the Data API serves them.
#[derive(Clone)]
pub enum PxChain {
    /// A P-chain (Mainnet: the `P/block` index).
    P(Arc<EnvelopedChain<PBlocks>>),
    /// The X-chain (`X/block`), with its seed and span.
    X(Arc<EnvelopedChain<XBlocks>>, u64, u64),
}

/// One block's facts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PxBlock {
    /// Height (= index of the container).
    pub number: u64,
    /// CB58 id of the container.
    pub hash: String,
    /// CB58 id of the previous container (32 zero bytes for height 0).
    pub parent_hash: String,
    /// Unix seconds: the second the node accepted the container in.
    pub timestamp_s: i64,
    /// The inner block's type name (`BanffStandardBlock`, `StandardBlock`, ...).
    pub block_type: &'static str,
    /// CB58 ids of its txs, in block order.
    pub tx_ids: Vec<String>,
    /// Container bytes.
    pub size: usize,
    /// `(P-chain height, envelope timestamp)` of a proposervm envelope that carries them.
    pub proposer: Option<(Option<u64>, Option<i64>)>,
}

impl PxBlock {
    /// As the Data API's `PrimaryNetworkBlock`.
    pub fn to_json(&self) -> Value {
        let mut v = json!({
            "blockNumber": self.number.to_string(),
            "blockHash": self.hash,
            "parentHash": self.parent_hash,
            "blockTimestamp": self.timestamp_s,
            "blockType": self.block_type,
            "txCount": self.tx_ids.len(),
            "transactions": self.tx_ids,
            "blockSizeBytes": self.size,
        });
        if let Some((p_height, time)) = self.proposer {
            let mut details = json!({"proposerId": self.hash, "proposerParentId": self.parent_hash});
            if let Some(h) = p_height {
                details["proposerPChainHeight"] = json!(h);
            }
            if let Some(t) = time {
                details["proposerTimestamp"] = json!(t);
            }
            v["proposerDetails"] = details;
        }
        v
    }
}

impl PxChain {
    /// The world's chain `kind` of `network` whose timeline spans `span` heights; `None` for the
    /// Fuji X-chain (not emulated).
    pub fn of(seed: u64, network: Network, kind: PxKind, span: u64) -> Option<PxChain> {
        match (kind, network) {
            (PxKind::P, _) => Some(PxChain::P(pxchains::p_chain(seed, network, span))),
            (PxKind::X, Network::Mainnet) => Some(PxChain::X(pxchains::x_chain(seed, span), seed, span)),
            (PxKind::X, Network::Fuji) => None,
        }
    }

    /// Heights up to now: the newest block is `span() - 1`.
    pub fn span(&self) -> u64 {
        match self {
            PxChain::P(c) => c.inner().clock().span(),
            PxChain::X(_, _, span) => *span,
        }
    }

    /// Acceptance time of block `h`, Unix ns.
    pub fn accepted_ns(&self, h: u64) -> i64 {
        match self {
            PxChain::P(c) => c.inner().clock().accepted_ns(h),
            PxChain::X(_, seed, span) => pxchains::x_accepted_ns(*seed, *span, h),
        }
    }

    /// Block time of `h`, Unix seconds.
    pub fn timestamp_s(&self, h: u64) -> i64 {
        self.accepted_ns(h).div_euclid(1_000_000_000)
    }

    /// The first height whose block time is at or after `time_s` (`span()` if none).
    pub fn first_at_or_after(&self, time_s: i64) -> u64 {
        super::px_clock::first_at_or_after(self.span(), time_s, |h| self.timestamp_s(h))
    }

    fn container(&self, h: u64) -> (Vec<u8>, [u8; 32], [u8; 32]) {
        let (served, parent) = match self {
            PxChain::P(c) => (c.served(h), h.checked_sub(1).map(|p| c.ids(p).1)),
            PxChain::X(c, _, _) => (c.served(h), h.checked_sub(1).map(|p| c.ids(p).1)),
        };
        let e = served.entry();
        (e.bytes.to_vec(), e.ids.1, parent.unwrap_or([0; 32]))
    }

    fn fork(&self) -> u64 {
        match self {
            PxChain::P(_) => P_FORK_HEIGHT,
            PxChain::X(..) => 0,
        }
    }

    /// Block `h` (`None` past the span: accepted after now).
    pub fn block(&self, h: u64) -> Option<PxBlock> {
        if h >= self.span() {
            return None;
        }
        let (bytes, id, parent) = self.container(h);
        let (inner, proposer) = if h < self.fork() {
            (&bytes[..], None)
        } else {
            let env = penv::parse(&bytes).expect("the emulator's envelopes parse");
            (env.inner, Some((env.pchain_height, env.timestamp)))
        };
        let text = |id: &[u8; 32]| cb58::encode(id);
        let (block_type, tx_ids) = match self {
            PxChain::P(_) => {
                let b = pdecode::decode_block(inner).expect("the emulator's P blocks decode");
                (b.type_name, b.txs.iter().map(|t| text(&t.tx_id)).collect())
            }
            PxChain::X(..) => {
                let b = xdecode::decode_block(inner).expect("the emulator's X blocks decode");
                (b.type_name, b.txs.iter().map(|t| text(&t.tx_id)).collect())
            }
        };
        Some(PxBlock {
            number: h,
            hash: text(&id),
            parent_hash: text(&parent),
            timestamp_s: self.timestamp_s(h),
            block_type,
            tx_ids,
            size: bytes.len(),
            proposer,
        })
    }

    /// The height of the block whose container id is `id` (raw 32 bytes), searching the span
    /// once per chain and keeping the map.
    pub fn height_of(&self, id: &[u8; 32]) -> Option<u64> {
        static MAPS: PerChain<HashMap<[u8; 32], u64>> = PerChain::new();
        let map = MAPS.get_or_build(self, || {
            (0..self.span())
                .map(|h| {
                    let ids = match self {
                        PxChain::P(c) => c.ids(h),
                        PxChain::X(c, _, _) => c.ids(h),
                    };
                    (ids.1, h)
                })
                .collect()
        });
        map.get(id).copied()
    }

    /// What tells this chain apart in a [`PerChain`]: the registry's chain and its span.
    fn key(&self) -> (bool, usize, u64) {
        match self {
            PxChain::P(c) => (true, Arc::as_ptr(c) as usize, self.span()),
            PxChain::X(c, _, _) => (false, Arc::as_ptr(c) as usize, self.span()),
        }
    }
}

/// The keys of a [`PerChain`] and what they hold.
type Kept<T> = Mutex<HashMap<(bool, usize, u64), Arc<T>>>;

/// A value derived from a whole chain (a lookup map), built once per chain of the process's
/// registry and kept.
pub struct PerChain<T>(OnceLock<Kept<T>>);

impl<T> Default for PerChain<T> {
    fn default() -> Self {
        PerChain::new()
    }
}

impl<T> PerChain<T> {
    /// An empty store.
    pub const fn new() -> Self {
        PerChain(OnceLock::new())
    }

    /// The value of `chain`, built by `build` the first time (outside the lock).
    pub fn get_or_build(&self, chain: &PxChain, build: impl FnOnce() -> T) -> Arc<T> {
        let kept = self.0.get_or_init(Default::default);
        if let Some(found) = kept.lock().unwrap_or_else(|e| e.into_inner()).get(&chain.key()) {
            return found.clone();
        }
        let value = Arc::new(build());
        kept.lock().unwrap_or_else(|e| e.into_inner()).entry(chain.key()).or_insert(value).clone()
    }
}
