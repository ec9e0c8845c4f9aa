//! Real-format containers for the emulator's index: coreth blocks ([`coreth`], [`cchain`]),
//! proposervm envelopes ([`proposervm`]) and the checkpoint cache that makes hash chains cheap to
//! revisit ([`chain_cache`]).
//!
//! [`fill`] and [`timestamp_ns`] dispatch per path:
//! - `C/block`: the Data API's C-chain (43114) as coreth blocks, raw before the proposervm fork
//!   and enveloped after ([`cchain`]).
//! - `P/block`, `X/block`, `X/tx`: still the random containers of [`super::world`]. To plug a
//!   real encoder in, produce the inner block bytes from `(seed, height, parent inner id, time)`,
//!   keep the chain of ids in a [`chain_cache::ChainCache`] and wrap post-fork blocks with
//!   [`proposervm::wrap_envelope`] (its id is the container id), as [`cchain::EvmChain::c_block`]
//!   does.
//! - `X/vtx`: random bytes with sha256 ids, for good.

pub mod avax_codec;
pub mod cchain;
pub mod chain_cache;
pub mod coreth;
pub mod enveloped;
pub mod pchain;
pub mod proposervm;
pub mod ptx;
pub mod stakes;
pub mod test_key;
pub mod xchain;

#[cfg(test)]
mod pchain_tests;
#[cfg(test)]
mod test_json;
#[cfg(test)]
mod walk;
#[cfg(test)]
mod xchain_tests;

use std::sync::Arc;

use crate::index::IndexPath;

use super::data_api::world::chain;
use super::world;

/// What a container depends on besides its path and index: the seed, and the Data API's blocks
/// per chain (the C-chain's block times, hence its hashes, depend on it).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Source {
    pub seed: u64,
    pub data_blocks_per_chain: u64,
}

impl Source {
    /// `data_blocks_per_chain` as the Data API world clamps it (at least 1).
    pub fn new(seed: u64, data_blocks_per_chain: u64) -> Source {
        Source { seed, data_blocks_per_chain: data_blocks_per_chain.max(1) }
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
        _ => world::raw_id(source.seed, path, index, buf),
    }
}

/// The raw id of container `index` of `path` without building its bytes where that is cheaper
/// (`C/block`: from the id chain, no signature); `buf` is scratch space.
pub fn raw_id(source: Source, path: IndexPath, index: u64, buf: &mut Vec<u8>) -> [u8; 32] {
    match path {
        IndexPath::CBlock => source.c_chain().index_state(index).1,
        _ => world::raw_id(source.seed, path, index, buf),
    }
}

/// The node's acceptance time of container `index` of `path`, Unix ns; strictly increasing.
pub fn timestamp_ns(source: Source, path: IndexPath, index: u64) -> i64 {
    match path {
        IndexPath::CBlock => source.c_chain().accepted_ns(index),
        _ => world::timestamp_ns(source.seed, path, index),
    }
}

/// A typical size of container `index` of `path`, bytes (for reserving output buffers).
pub fn len_hint(source: Source, path: IndexPath, index: u64) -> usize {
    match path {
        IndexPath::CBlock => 4_000,
        _ => world::len_of(source.seed, path, index),
    }
}
