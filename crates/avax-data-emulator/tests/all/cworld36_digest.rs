//! The C-Chain world's bytes, pinned: a digest of every `C/block` container the emulator serves
//! for the first 20,000 heights of the default seed's world (`ad.Emulator(containers=20_000)`:
//! seed 0, the C-Chain's timeline 20,000 blocks long). A change that is meant to be invisible
//! (a faster encoder, a cached table, fewer allocations) must leave it equal; a change of the
//! world's values changes it, and then the recorded digest is bumped in the same commit, with
//! the reason below, so no value changes by accident.
//!
//! Bumps:
//! - `6111116` (main before issue 36's C-world work, cworld36): recorded, and equal to the digest of
//!   the same containers fetched from that build's `ad.Emulator(containers=20_000)` over HTTP.
//! - cworld36's faster encoder (reused buffers, a token table, RLP headers written in place):
//!   unchanged.
//! - cworld36's ERC-1155 collection: bumped on purpose. About one plain transaction in 60 of
//!   every `nftIndexing` chain now mints the "Items" collection and some later ones resell it
//!   (`world/erc1155.rs`): those transactions call the contract with the ABI-encoded call
//!   instead of paying a pool address, and a resale is signed by the minter.

use avax_data_core::index::IndexPath;
use avax_data_emulator::formats::{fill, Source};
use avax_data_emulator::world::cchain::GRANITE_HEIGHT;
use sha2::{Digest, Sha256};

/// Heights hashed: every upgrade of the schedule (the last, Granite, starts at 4,096).
const HEIGHTS: u64 = 20_000;

/// sha256 over `(height, id, length, bytes)` of containers `0..HEIGHTS` ([`digest`]), lowercase hex.
const RECORDED: &str = "77881ed6f6e472ef2c58b0cf67376ed44cde7a7101643cacd66710bcb89ef8c2";

/// sha256 over `(height, id, length, bytes)` of containers `0..heights` of `source`.
fn digest(source: Source, heights: u64) -> String {
    let mut hash = Sha256::new();
    let mut buf = Vec::new();
    for h in 0..heights {
        let id = fill(source, IndexPath::CBlock, h, &mut buf);
        hash.update(h.to_le_bytes());
        hash.update(id);
        hash.update((buf.len() as u64).to_le_bytes());
        hash.update(&buf);
    }
    hex::encode(hash.finalize())
}

#[test]
fn cworld36_the_first_20000_c_block_containers_of_the_default_world_are_pinned() {
    const { assert!(GRANITE_HEIGHT < HEIGHTS, "the pinned range crosses every upgrade") };
    let source = Source::new(avax_data_emulator::defaults::SEED, HEIGHTS);
    let got = digest(source, HEIGHTS);
    assert_eq!(
        got, RECORDED,
        "the C/block containers changed: if the world's values were meant to change, record the new digest with the \
         reason in this file's doc"
    );
    // The digest sees the values, not only the sizes: another seed's first 100 containers differ.
    assert_ne!(digest(Source::new(1, HEIGHTS), 100), digest(source, 100));
}
