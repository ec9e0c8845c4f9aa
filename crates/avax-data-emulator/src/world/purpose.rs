//! The purpose tags of the coreth encoding ([`super::cchain`]) and of the history before the
//! blocks ([`super::history`]): each is its ASCII name as a number, mixed into
//! [`super::derive`] so the values drawn for different purposes are independent.

/// A transaction's nonce.
pub(crate) const NONCE: u64 = 0x6e6f_6e63;
/// A transaction's input data.
pub(crate) const INPUT: u64 = 0x696e_7075;
/// A transaction's type (legacy or EIP-1559).
pub(crate) const TYPE: u64 = 0x7479_7065;
/// A block's stand-in roots.
pub(crate) const ROOT: u64 = 0x726f_6f74;
/// A block's `extra` bytes.
pub(crate) const EXTRA: u64 = 0x6578_7472;
/// Whether a proposervm block is signed.
pub(crate) const SIGNED: u64 = 0x7369_676e;
/// A container's acceptance time.
pub(crate) const ACCEPT: u64 = 0x6163_6370;
/// An hour's noise in the history.
pub(crate) const NOISE: u64 = 0x6e6f_6973;
/// A burst day of the history.
pub(crate) const BURST: u64 = 0x6275_7273;
/// A fee spike of the history.
pub(crate) const SPIKE: u64 = 0x7370_696b;
/// The distinct addresses of a history bucket.
pub(crate) const DISTINCT: u64 = 0x6469_7374;
/// An hour's gas in the history.
pub(crate) const GAS: u64 = 0x0067_6173;
