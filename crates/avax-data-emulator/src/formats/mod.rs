//! Real-format containers for the emulator's index: coreth blocks ([`coreth`], the world's chains in
//! [`crate::world::cchain`]),
//! proposervm envelopes ([`proposervm`]) and the checkpoint cache that makes hash chains cheap to
//! revisit ([`chain_cache`]).
//!
//! [`fill`] and [`timestamp_ns`] dispatch per path:
//! - `C/block`: the Data API's C-chain (43114) as coreth blocks, raw before the proposervm fork
//!   and enveloped after ([`crate::world::cchain`]).
//! - `P/block`, `X/block`, `X/tx`: platformvm blocks, AVM standard blocks and AVM txs
//!   ([`pxchains`]), the blocks raw before the fork and enveloped after.
//! - `X/vtx`: random bytes with sha256 ids, for good.
//!
//! The P- and X-chain indexes end just before the world's now ([`px_clock`]).

pub mod avax_codec;
pub mod chain_cache;
pub mod coreth;
pub mod enveloped;
pub mod evm_keys;
pub mod fees;
pub mod p_l1;
pub mod p_rewards;
pub mod p_slots;
pub mod p_txs;
pub mod p_utxos;
pub mod pchain;
pub mod proposer_sign;
pub mod proposervm;
pub mod ptx;
pub mod px_blocks;
pub mod px_clock;
pub mod pxchains;
pub mod random;
pub mod served;
pub mod stakes;
pub mod test_key;
pub mod x_index;
pub mod x_spends;
pub mod x_txs;
pub mod xchain;

#[cfg(test)]
mod economy_tests;
#[cfg(test)]
mod pchain_tests;
#[cfg(test)]
mod test_json;
#[cfg(test)]
mod walk;
#[cfg(test)]
mod xchain_tests;

use std::sync::Arc;

use avax_data_core::index::IndexPath;

use crate::world::{cchain, chain};

pub use random::{container, container_in, DEFAULT_DATA_BLOCKS};

/// `text` (lowercase hex, no prefix) as an array, at compile time; a constant that is not hex of
/// `N` bytes fails the build.
pub(crate) const fn hex_array<const N: usize>(text: &str) -> [u8; N] {
    match hex::const_decode_to_array(text.as_bytes()) {
        Ok(bytes) => bytes,
        Err(_) => panic!("not the hex of an array of this length"),
    }
}

/// What a container depends on besides its path and index: the seed, the Data API's blocks
/// per chain (the C-chain's block times, hence its hashes, depend on it) and the spans of the
/// P- and X-chain timelines (`P/block`, `X/block`, `X/tx`: each ends just before now).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Source {
    pub seed: u64,
    pub data_blocks_per_chain: u64,
    /// `[P/block, X/block, X/tx]` heights of the timelines, each at least [`px_clock::MIN_SPAN`].
    pub px_spans: [u64; 3],
}

impl Source {
    /// `data_blocks_per_chain` as the Data API world clamps it (at least 1); the P- and X-chain
    /// timelines of the default length ([`px_clock::MIN_SPAN`]).
    pub fn new(seed: u64, data_blocks_per_chain: u64) -> Source {
        let span = px_clock::MIN_SPAN;
        Source { seed, data_blocks_per_chain: data_blocks_per_chain.max(1), px_spans: [span; 3] }
    }

    /// This source with the P- and X-chain timelines spanning the indexes' initial counts
    /// `[P/block, X/block, X/tx]` (at least [`px_clock::MIN_SPAN`] each).
    pub fn with_px_spans(self, counts: [u64; 3]) -> Source {
        Source { px_spans: counts.map(|n| n.max(px_clock::MIN_SPAN)), ..self }
    }

    /// The emulated Mainnet P-chain (`P/block`) of this world.
    pub fn p_chain(&self) -> Arc<enveloped::EnvelopedChain<pxchains::PBlocks>> {
        pxchains::p_chain(self.seed, crate::world::Network::Mainnet, self.px_spans[0])
    }

    /// The emulated X-chain (`X/block`) of this world.
    pub fn x_chain(&self) -> Arc<enveloped::EnvelopedChain<pxchains::XBlocks>> {
        pxchains::x_chain(self.seed, self.px_spans[1])
    }

    /// The emulated C-chain (43114) of this world.
    pub fn c_chain(&self) -> Arc<cchain::EvmChain> {
        cchain::EvmChain::shared(self.seed, self.data_blocks_per_chain, chain(43114).expect("the C-chain"))
    }
}

/// Writes container `index` of `path` into `buf` (cleared first; its allocation is reused) and
/// returns its raw id (the 32 bytes behind the CB58 `id`).
pub fn fill(source: Source, path: IndexPath, index: u64, buf: &mut Vec<u8>) -> [u8; 32] {
    match path {
        IndexPath::CBlock => source.c_chain().c_block(index, buf),
        IndexPath::PBlock => source.p_chain().container(index, buf),
        IndexPath::XBlock => source.x_chain().container(index, buf),
        IndexPath::XTx => pxchains::x_tx(source.seed, index, buf),
        IndexPath::XVtx => random::raw_id(source.seed, path, index, buf),
    }
}

/// Container `index` of `path` as the bounded cache of built containers holds it (built first
/// if it is not kept), for the paths whose containers are worth keeping: the blocks, whose
/// envelopes are signed (`None` for `X/tx` and `X/vtx`, which are cheaper to make again).
pub fn served(source: Source, path: IndexPath, index: u64) -> Option<served::Served> {
    match path {
        IndexPath::CBlock => Some(source.c_chain().c_block_served(index)),
        IndexPath::PBlock => Some(source.p_chain().served(index)),
        IndexPath::XBlock => Some(source.x_chain().served(index)),
        IndexPath::XTx | IndexPath::XVtx => None,
    }
}

/// Whether container `index` of `path` is made without walking the chain of ids before it
/// (see [`enveloped::EnvelopedChain::starts_cheaply`]; `X/tx` and `X/vtx` have no such chain):
/// where a range may be split across threads without building a container twice.
pub fn starts_cheaply(source: Source, path: IndexPath, index: u64) -> bool {
    match path {
        IndexPath::CBlock => source.c_chain().c_block_starts_cheaply(index),
        IndexPath::PBlock => source.p_chain().starts_cheaply(index),
        IndexPath::XBlock => source.x_chain().starts_cheaply(index),
        IndexPath::XTx | IndexPath::XVtx => true,
    }
}

/// The raw id of container `index` of `path` without building its bytes where that is cheaper
/// (`C/block`: from the id chain, no signature); `buf` is scratch space.
pub fn raw_id(source: Source, path: IndexPath, index: u64, buf: &mut Vec<u8>) -> [u8; 32] {
    match path {
        IndexPath::CBlock => source.c_chain().index_state(index).1,
        IndexPath::PBlock => source.p_chain().ids(index).1,
        IndexPath::XBlock => source.x_chain().ids(index).1,
        IndexPath::XTx => pxchains::x_tx(source.seed, index, buf),
        IndexPath::XVtx => random::raw_id(source.seed, path, index, buf),
    }
}

/// The node's acceptance time of container `index` of `path`, Unix ns; strictly increasing.
pub fn timestamp_ns(source: Source, path: IndexPath, index: u64) -> i64 {
    match path {
        IndexPath::CBlock => source.c_chain().accepted_ns(index),
        IndexPath::PBlock => source.p_chain().inner().clock().accepted_ns(index),
        IndexPath::XBlock => pxchains::x_accepted_ns(source.seed, source.px_spans[1], index),
        IndexPath::XTx => pxchains::x_tx_accepted_ns(source.seed, source.px_spans[2], index),
        IndexPath::XVtx => random::timestamp_ns(source.seed, path, index),
    }
}

/// A typical size of container `index` of `path`, bytes (for reserving output buffers).
pub fn len_hint(source: Source, path: IndexPath, index: u64) -> usize {
    match path {
        IndexPath::CBlock => 4_000,
        IndexPath::PBlock | IndexPath::XBlock => 2_000,
        IndexPath::XTx => 600,
        IndexPath::XVtx => random::len_of(source.seed, path, index),
    }
}
