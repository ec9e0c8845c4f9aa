//! keccak256 for the decoders: one message at a time with CRYPTOGAMS' assembly (`keccak-asm`),
//! and four at a time with the Keccak-f[1600] permutation of RustCrypto's `keccak` crate run
//! over SIMD lanes ([`keccak256_x4`]), compiled for AVX-512VL and for AVX2 and chosen at run
//! time, so one wheel runs on every x86_64 CPU (and elsewhere takes the one-message path).
//! [`Batch`] collects the messages of a block (its header and its transactions), groups them
//! by their number of Keccak blocks and hashes them four at a time.
//!
//! Plain Rust on top of two published crates; nothing here is copied from another project. The
//! sponge (Ethereum's Keccak-256: rate 136 bytes, padding `0x01 … 0x80`) is written from the
//! Keccak reference's definition.

#![warn(missing_docs)]

mod batch;
#[cfg(target_arch = "x86_64")]
mod lanes;
mod x4;

pub use batch::Batch;
pub use x4::{blocks, keccak256_each, keccak256_x4, keccak256_x4_on, Path, RATE};

use keccak_asm::Keccak256;

/// keccak256 of `data` (CRYPTOGAMS assembly on x86_64 and aarch64, through `keccak-asm`).
pub fn keccak256(data: &[u8]) -> [u8; 32] {
    Keccak256::digest(data).into()
}
