//! Senders of C-chain transactions: the `from` address recovered from each transaction's
//! secp256k1 signature (the block bytes do not hold it).
//!
//! The signing hash is keccak256 of the transaction without its signature:
//! - legacy before EIP-155 (`v` = 27/28): `rlp([nonce, gasPrice, gas, to, value, data])`;
//! - legacy EIP-155 (`v` = chainId·2 + 35/36): the same list plus `[chainId, 0, 0]`;
//! - typed (EIP-2930 type 1, EIP-1559 type 2, and the decoder's types 3 and 4):
//!   `type ‖ rlp(fields without yParity, r, s)`.
//!
//! The sender is the last 20 bytes of keccak256 of the recovered uncompressed public key (without
//! its 0x04 prefix). Like coreth (which validates every signature with the Homestead rules), a
//! signature whose `s` is in the upper half of the curve order is rejected, as are `r` or `s`
//! of zero or not below the order, and a `v` / `yParity` out of range: each is a
//! [`DecodeError`] naming the transaction, never a wrong address.
//!
//! Recovery is bitcoin-core's libsecp256k1 (through the `secp256k1` crate): about one point
//! multiplication per transaction, 4-5x faster than RustCrypto's k256, which also re-verifies
//! the signature it recovered from (`benches/senders_recover.rs`). Even so it dominates the
//! cost, so [`senders_of_blocks`] spreads whole blocks over the cores with `std::thread::scope`, the
//! threads taking a few blocks at a time from a shared counter. The signing payload is hashed where
//! it lies in the block (its list header written on the stack), and a transaction's own hash is
//! computed only to name it in an error.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::OnceLock;

use alloy_rlp::Encodable;
use secp256k1::ecdsa::{RecoverableSignature, RecoveryId};
use secp256k1::{Message, Secp256k1, VerifyOnly};

use keccak_asm::{Digest, Keccak256};

use super::cchain::keccak256;
use super::rlp::{Item, Items};
use super::DecodeError;
use crate::stop::Stop;

/// What one transaction's signature covers and carries.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SignedParts {
    /// keccak256 of the signing payload.
    pub signing_hash: [u8; 32],
    /// The y parity of the signature's point R (0 or 1).
    pub y_parity: u8,
    /// `r`, big-endian, left-padded to 32 bytes.
    pub r: [u8; 32],
    /// `s`, big-endian, left-padded to 32 bytes.
    pub s: [u8; 32],
}

/// Half the secp256k1 group order: the largest `s` EIP-2 (and coreth) accept.
const HALF_ORDER: [u8; 32] = [
    0x7f, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x5d, 0x57, 0x6e,
    0x73, 0x57, 0xa4, 0x50, 0x1d, 0xdf, 0xe9, 0x2f, 0x46, 0x68, 0x1b, 0x20, 0xa0,
];

/// The secp256k1 group order `n`: `r` and `s` must be below it.
const ORDER: [u8; 32] = [
    0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xfe, 0xba, 0xae, 0xdc,
    0xe6, 0xaf, 0x48, 0xa0, 0x3b, 0xbf, 0xd2, 0x5e, 0x8c, 0xd0, 0x36, 0x41, 0x41,
];

/// One verification context for every thread (libsecp256k1's tables are static; the context is
/// read-only once made).
fn context() -> &'static Secp256k1<VerifyOnly> {
    static CONTEXT: OnceLock<Secp256k1<VerifyOnly>> = OnceLock::new();
    CONTEXT.get_or_init(Secp256k1::verification_only)
}

fn word(item: &Item<'_>, what: &str) -> Result<[u8; 32], DecodeError> {
    let bytes = item.as_bytes(what)?;
    if bytes.len() > 32 {
        return Err(DecodeError::new(item.offset, format!("{what}: {} bytes, at most 32 allowed", bytes.len())));
    }
    let mut out = [0u8; 32];
    out[32 - bytes.len()..].copy_from_slice(bytes);
    Ok(out)
}

/// The RLP list header of a payload of `len` bytes, written on the stack: its bytes and length.
fn list_header(len: usize) -> ([u8; 9], usize) {
    let mut out = [0u8; 9];
    if len < 56 {
        out[0] = 0xc0 + len as u8;
        return (out, 1);
    }
    let be = (len as u64).to_be_bytes();
    let skip = be.iter().take_while(|b| **b == 0).count();
    out[0] = 0xf7 + (8 - skip) as u8;
    out[1..1 + 8 - skip].copy_from_slice(&be[skip..]);
    (out, 1 + 8 - skip)
}

/// The fields of an RLP list item, all of them.
fn fields<'a>(items: &mut Items<'a>, what: &str) -> Result<Vec<Item<'a>>, DecodeError> {
    let mut out = Vec::with_capacity(14);
    while let Some(item) = items.next_item(what)? {
        out.push(item);
    }
    Ok(out)
}

/// keccak256 of `prefix ‖ list header ‖ body ‖ suffix`, where `body` is the list's payload (the
/// unsigned fields lie side by side at the start of the transaction's own list, so they are
/// hashed where they are: no copy of the transaction's bytes).
fn signing_hash(prefix: &[u8], body: &[u8], suffix: &[u8]) -> [u8; 32] {
    let (header, header_len) = list_header(body.len() + suffix.len());
    let mut hasher = Keccak256::new();
    hasher.update(prefix);
    hasher.update(&header[..header_len]);
    hasher.update(body);
    hasher.update(suffix);
    hasher.finalize().into()
}

/// The bytes `fields` take at the start of their list (they are contiguous there).
fn span(fields: &[Item<'_>]) -> usize {
    fields.iter().map(|i| i.raw.len()).sum()
}

/// The signing hash and signature values of one transaction item of a block body (a legacy
/// tx's list, or the RLP string around a typed tx's `type ‖ payload`).
pub fn signed_parts(item: &Item<'_>) -> Result<SignedParts, DecodeError> {
    if item.is_list {
        let f = fields(&mut item.as_list("legacy transaction")?, "legacy transaction field")?;
        if f.len() != 9 {
            return Err(DecodeError::new(item.offset, format!("legacy transaction: {} fields, 9 expected", f.len())));
        }
        let v = f[6].as_uint("v", 16)?;
        // `[chainId, 0, 0]` for EIP-155: at most 9 bytes of chain id and two empty strings.
        let mut extra = [0u8; 11];
        let (extra_len, y_parity) = match v {
            27 | 28 => (0, (v - 27) as u8),
            v if v >= 35 => {
                let chain_id = u64::try_from((v - 35) / 2)
                    .map_err(|_| DecodeError::new(f[6].offset, format!("v {v}: chain id above 2^64")))?;
                let mut rest = &mut extra[..];
                chain_id.encode(&mut rest);
                let written = 11 - rest.len();
                extra[written..written + 2].copy_from_slice(&[0x80, 0x80]);
                (written + 2, ((v - 35) % 2) as u8)
            }
            v => {
                return Err(DecodeError::new(f[6].offset, format!("v {v}: expected 27, 28 or chainId*2+35/36")));
            }
        };
        let body = &item.payload[..span(&f[..6])];
        return Ok(SignedParts {
            signing_hash: signing_hash(&[], body, &extra[..extra_len]),
            y_parity,
            r: word(&f[7], "r")?,
            s: word(&f[8], "s")?,
        });
    }
    let Some((&tx_type, body)) = item.payload.split_first() else {
        return Err(DecodeError::new(item.offset, "empty typed transaction"));
    };
    if !(1..=4).contains(&tx_type) {
        return Err(DecodeError::new(item.offset, format!("unknown transaction type {tx_type}")));
    }
    let mut top = Items::new(body, item.payload_offset() + 1);
    let list = top.item("typed transaction")?;
    top.finish("typed transaction")?;
    let f = fields(&mut list.as_list("typed transaction")?, "typed transaction field")?;
    if f.len() < 4 {
        return Err(DecodeError::new(item.offset, format!("typed transaction: only {} fields", f.len())));
    }
    let unsigned = &f[..f.len() - 3];
    let parity = f[f.len() - 3].as_uint("yParity", 1)?;
    if parity > 1 {
        return Err(DecodeError::new(f[f.len() - 3].offset, format!("yParity {parity}: expected 0 or 1")));
    }
    Ok(SignedParts {
        signing_hash: signing_hash(&[tx_type], &list.payload[..span(unsigned)], &[]),
        y_parity: parity as u8,
        r: word(&f[f.len() - 2], "r")?,
        s: word(&f[f.len() - 1], "s")?,
    })
}

/// The address of an uncompressed secp256k1 public key (`0x04 ‖ x ‖ y`): the last 20 bytes of
/// the keccak256 of `x ‖ y`.
pub fn address_of(uncompressed: &[u8; 65]) -> [u8; 20] {
    keccak256(&uncompressed[1..])[12..].try_into().expect("20 bytes")
}

/// Recovers the signer of `parts`; errors say why the signature is not a valid one.
pub fn recover(parts: &SignedParts) -> Result<[u8; 20], String> {
    if parts.s > HALF_ORDER {
        return Err(format!("s 0x{} is above half the curve order (EIP-2)", hex::encode(parts.s)));
    }
    let zero = [0u8; 32];
    if parts.r == zero || parts.s == zero || parts.r >= ORDER {
        return Err("r or s is zero or not below the curve order".to_string());
    }
    let id = RecoveryId::from_i32(i32::from(parts.y_parity)).map_err(|_| format!("y parity {}", parts.y_parity))?;
    let mut compact = [0u8; 64];
    compact[..32].copy_from_slice(&parts.r);
    compact[32..].copy_from_slice(&parts.s);
    let signature = RecoverableSignature::from_compact(&compact, id)
        .map_err(|_| "r or s is zero or not below the curve order".to_string())?;
    let key = context()
        .recover_ecdsa(&Message::from_digest(parts.signing_hash), &signature)
        .map_err(|_| "no public key recovers from this signature".to_string())?;
    Ok(address_of(&key.serialize_uncompressed()))
}

/// The sender of one transaction item; errors name the transaction by its index and hash.
/// The transaction's hash is computed only for an error's message.
pub fn sender(item: &Item<'_>, index: usize) -> Result<[u8; 20], DecodeError> {
    let name = |e: &str| {
        let hash = if item.is_list { keccak256(item.raw) } else { keccak256(item.payload) };
        format!("transaction {index} (0x{}): invalid signature: {e}", hex::encode(hash))
    };
    let parts = signed_parts(item).map_err(|e| DecodeError::new(e.offset, name(&e.message)))?;
    recover(&parts).map_err(|e| DecodeError::new(item.offset, name(&e)))
}

/// The senders of every transaction of a coreth block, in order.
pub fn block_senders(block: &[u8]) -> Result<Vec<[u8; 20]>, DecodeError> {
    let mut top = Items::new(block, 0);
    let mut items = top.list("block")?;
    items.item("header")?;
    let mut txs = items.list("transactions")?;
    let mut out = Vec::new();
    while let Some(item) = txs.next_item("transaction")? {
        out.push(sender(&item, out.len())?);
    }
    Ok(out)
}

/// The senders of a `C/block` container: the inner block of its proposervm envelope, or the
/// raw coreth block before the fork (as the node reads it: the envelope first).
pub fn container_senders(bytes: &[u8]) -> Result<Vec<[u8; 20]>, DecodeError> {
    match super::proposervm::parse(bytes) {
        Ok(envelope) => block_senders(envelope.inner).map_err(|e| e.shifted(envelope.inner_offset)),
        Err(_) => block_senders(bytes),
    }
}

/// [`block_senders`] of many blocks, spread over up to `threads` threads (0: one per core) in
/// contiguous chunks; the result keeps the blocks' order.
pub fn senders_of_blocks(blocks: &[&[u8]], threads: usize) -> Vec<Result<Vec<[u8; 20]>, DecodeError>> {
    spread(blocks, threads, block_senders, &Stop::new()).expect("never stopped")
}

/// [`container_senders`] of many `C/block` containers, spread like [`senders_of_blocks`].
pub fn senders_of_containers(containers: &[&[u8]], threads: usize) -> Vec<Result<Vec<[u8; 20]>, DecodeError>> {
    senders_of_containers_until(containers, threads, &Stop::new()).expect("never stopped")
}

/// [`senders_of_containers`] that checks `stop` before each container: `None` once a stop was
/// requested (each thread ends within one block's recovery).
pub fn senders_of_containers_until(containers: &[&[u8]], threads: usize, stop: &Stop) -> Option<Vec<Senders>> {
    spread(containers, threads, container_senders, stop)
}

/// The senders of one block, or why it has none.
pub type Senders = Result<Vec<[u8; 20]>, DecodeError>;

/// Blocks a thread of [`spread`] takes at a time: few enough that the threads finish together
/// (blocks differ in size), enough that taking them costs nothing next to their recovery.
const BLOCKS_PER_TAKE: usize = 4;

/// `each` of every item on up to `threads` threads (0: one per core), in order. The threads
/// take the next few items from a shared counter until none are left (so a thread that got
/// small blocks takes more), and check `stop` before each item: `None` once it was requested.
fn spread(items: &[&[u8]], threads: usize, each: fn(&[u8]) -> Senders, stop: &Stop) -> Option<Vec<Senders>> {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let threads = if threads == 0 { cores } else { threads }.clamp(1, items.len().div_ceil(BLOCKS_PER_TAKE).max(1));
    if threads == 1 {
        return items.iter().map(|b| (!stop.is_requested()).then(|| each(b))).collect();
    }
    let next = AtomicUsize::new(0);
    let work = || {
        let mut done: Vec<(usize, Senders)> = Vec::new();
        loop {
            let first = next.fetch_add(BLOCKS_PER_TAKE, Ordering::Relaxed);
            if first >= items.len() {
                return Some(done);
            }
            for (k, block) in items.iter().enumerate().skip(first).take(BLOCKS_PER_TAKE) {
                if stop.is_requested() {
                    return None;
                }
                done.push((k, each(block)));
            }
        }
    };
    let parts: Vec<Option<Vec<(usize, Senders)>>> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads).map(|_| scope.spawn(work)).collect();
        handles.into_iter().map(|h| h.join().expect("sender recovery does not panic")).collect()
    });
    let mut slots: Vec<Option<Senders>> = Vec::with_capacity(items.len());
    slots.resize_with(items.len(), || None);
    for (k, senders) in parts.into_iter().collect::<Option<Vec<_>>>()?.into_iter().flatten() {
        slots[k] = Some(senders);
    }
    slots.into_iter().collect()
}

#[cfg(test)]
#[path = "senders_tests.rs"]
mod tests;
