//! Container bytes -> typed values: the proposervm envelope, coreth RLP blocks, platformvm blocks
//! and transactions, and AVM transactions and blocks (`tests/data/decode/FORMATS.md`).
//!
//! Every decoder works on untrusted bytes: lengths and counts are checked against the bytes left
//! before anything is allocated, nesting is bounded, and every failure is a [`DecodeError`] with
//! the byte offset where it happened. Nothing here panics on any input.

pub mod avax;
pub mod cchain;
pub mod codec;
pub mod error;
pub mod ids;
pub mod pchain;
pub mod pchain_txs;
pub mod proposervm;
pub mod rlp;
pub mod senders;
#[cfg(test)]
pub(crate) mod test_bytes;
pub mod tx;
pub mod xchain;

pub use error::DecodeError;
