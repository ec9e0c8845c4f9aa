//! Container ids by the rule of their index (FORMATS.md §1, §3, §4; ground-truth.md):
//!
//! | index | container | id |
//! |---|---|---|
//! | `X/tx`, `X/vtx` | tx / vertex | sha256(bytes) |
//! | block indexes | proposervm stateless or Granite block | sha256 of the bytes before the signature length |
//! | block indexes | proposervm option block | sha256(bytes) |
//! | `P/block`, `X/block` | pre-fork raw block | sha256(bytes) |
//! | `C/block` | pre-fork raw coreth block | keccak256(rlp(header)), the Ethereum hash |
//!
//! Block containers are told apart as the node does: the envelope is tried first (the whole
//! buffer must be one envelope), else the bytes are the raw inner block. P-chain Apricot type ids
//! 0–2 collide with the envelope's, so on `P/block` a container that parses as a stateless or
//! Granite envelope but whose id is sha256(bytes) is accepted only when the same bytes also parse
//! completely as a pre-fork Apricot block (type ids 0–4, every byte consumed). Nowhere else is
//! an envelope-shaped container accepted by sha256(bytes): the X-chain has no pre-fork blocks,
//! and a raw coreth block starts with an RLP list byte, which no envelope does.

use crate::index::IndexPath;

use super::{cchain, pchain, proposervm};

/// A rule by which a container id is derived from its bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IdRule {
    /// sha256 of all the bytes (txs, vertices, option blocks, pre-fork P/X blocks).
    Sha256,
    /// sha256 of the bytes before the signature length (stateless and Granite blocks).
    Sha256BeforeSignature,
    /// keccak256 of the RLP header (pre-fork C-chain blocks).
    EthBlockHash,
}

impl IdRule {
    /// How the rule reads in an error message.
    pub fn describe(self) -> &'static str {
        match self {
            IdRule::Sha256 => "sha256(bytes)",
            IdRule::Sha256BeforeSignature => "sha256 of the proposervm block without its signature",
            IdRule::EthBlockHash => "keccak256 of the RLP header (pre-fork C-chain block)",
        }
    }
}

/// The id check failed: which rule was tried and what id it gives.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IdMismatch {
    /// The rule of what the bytes were found to be.
    pub rule: IdRule,
    /// The id that rule derives from the bytes; `None` when the bytes are not even a block.
    pub expected: Option<[u8; 32]>,
}

/// For a stateless or Granite envelope, how many leading bytes its id hashes (the part before the
/// signature). Lets the checksum pass hash that prefix on the way.
pub fn signed_prefix_len(path: IndexPath, bytes: &[u8]) -> Option<usize> {
    if !is_block_index(path) {
        return None;
    }
    match proposervm::parse(bytes) {
        Ok(env) if env.kind != proposervm::EnvelopeKind::Option => Some(env.id_len),
        _ => None,
    }
}

fn is_block_index(path: IndexPath) -> bool {
    matches!(path, IndexPath::CBlock | IndexPath::PBlock | IndexPath::XBlock)
}

/// Whether envelope-shaped `bytes` are also, in full, a pre-fork raw block of the chain of
/// `path`: on `P/block` an Apricot block (type ids 0–4); on the other block indexes never.
fn is_pre_fork_raw_block(path: IndexPath, bytes: &[u8]) -> bool {
    path == IndexPath::PBlock && pchain::decode_block(bytes).is_ok_and(|block| block.type_id <= 4)
}

/// Checks `claimed` against the id `bytes` give by the rule of `path`. `sha256` is the digest of
/// all the bytes and `prefix_sha256` that of the [`signed_prefix_len`] prefix, both computed by
/// the caller in its checksum pass (computed here when absent).
pub fn check(
    path: IndexPath,
    bytes: &[u8],
    claimed: &[u8; 32],
    sha256: &[u8; 32],
    prefix_sha256: Option<&[u8; 32]>,
) -> Result<IdRule, IdMismatch> {
    let whole = || {
        if sha256 == claimed {
            Ok(IdRule::Sha256)
        } else {
            Err(IdMismatch { rule: IdRule::Sha256, expected: Some(*sha256) })
        }
    };
    if !is_block_index(path) {
        return whole();
    }
    match proposervm::parse(bytes) {
        Ok(env) if env.kind == proposervm::EnvelopeKind::Option => whole(),
        Ok(env) => {
            let id = match prefix_sha256 {
                Some(d) => *d,
                None => crate::index::cb58::sha256(&bytes[..env.id_len]),
            };
            if &id == claimed {
                Ok(IdRule::Sha256BeforeSignature)
            } else if sha256 == claimed && is_pre_fork_raw_block(path, bytes) {
                Ok(IdRule::Sha256)
            } else {
                Err(IdMismatch { rule: IdRule::Sha256BeforeSignature, expected: Some(id) })
            }
        }
        Err(_) if path == IndexPath::CBlock => match cchain::block_hash(bytes) {
            Ok(hash) if &hash == claimed => Ok(IdRule::EthBlockHash),
            Ok(hash) => Err(IdMismatch { rule: IdRule::EthBlockHash, expected: Some(hash) }),
            Err(_) => Err(IdMismatch { rule: IdRule::EthBlockHash, expected: None }),
        },
        Err(_) => whole(),
    }
}
