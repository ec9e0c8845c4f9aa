//! The proposervm envelope around C-, P- and X-chain blocks since the proposervm fork
//! (FORMATS.md §3): parse it as the node does, find the inner block and the signature, derive
//! the block id and the proposer's NodeID.

use ripemd::Ripemd160;
use sha2::{Digest, Sha256};

use super::codec::Reader;
use super::DecodeError;

/// Which envelope a block container is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EnvelopeKind {
    /// typeID 0: a post-fork block before Granite, signed by its proposer or unsigned.
    Stateless,
    /// typeID 1: the commit/abort option child of a P-chain proposal block.
    Option,
    /// typeID 2: a block after Granite, with an epoch.
    Granite,
}

impl EnvelopeKind {
    /// The name used in decoded frames.
    pub fn name(self) -> &'static str {
        match self {
            EnvelopeKind::Stateless => "stateless",
            EnvelopeKind::Option => "option",
            EnvelopeKind::Granite => "granite",
        }
    }
}

/// The epoch a Granite block carries (ACP-181).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Epoch {
    /// P-chain height the epoch is pinned to.
    pub pchain_height: u64,
    /// Epoch number.
    pub number: u64,
    /// Epoch start, Unix seconds.
    pub start_time: i64,
}

/// A parsed envelope; slices borrow from the container bytes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Envelope<'a> {
    /// Which envelope.
    pub kind: EnvelopeKind,
    /// Proposervm id of the parent block.
    pub parent_id: [u8; 32],
    /// Block time, Unix seconds (not in option blocks).
    pub timestamp: Option<i64>,
    /// P-chain height the block was built on (not in option blocks).
    pub pchain_height: Option<u64>,
    /// The Granite epoch.
    pub epoch: Option<Epoch>,
    /// The proposer's X.509 staking certificate, DER; empty when unsigned.
    pub certificate: &'a [u8],
    /// The inner block's bytes.
    pub inner: &'a [u8],
    /// Offset of the inner block in the container.
    pub inner_offset: usize,
    /// How many leading bytes the block id hashes: all but the signature and its length for
    /// stateless and Granite blocks, all of them for option blocks.
    pub id_len: usize,
    /// The signature; empty when unsigned.
    pub signature: &'a [u8],
}

/// Parses `bytes` as an envelope. Fails unless the whole buffer is exactly one envelope, which is
/// how the node tells an envelope from a raw pre-fork block.
pub fn parse(bytes: &[u8]) -> Result<Envelope<'_>, DecodeError> {
    let mut r = Reader::new(bytes);
    r.codec_version()?;
    let type_at = r.pos();
    let type_id = r.u32("proposervm type id")?;
    let kind = match type_id {
        0 => EnvelopeKind::Stateless,
        1 => EnvelopeKind::Option,
        2 => EnvelopeKind::Granite,
        other => return Err(DecodeError::new(type_at, format!("unknown proposervm type id {other}"))),
    };
    let parent_id = r.array::<32>("parent id")?;
    if kind == EnvelopeKind::Option {
        let inner = r.bytes_u32("inner block")?;
        let inner_offset = r.pos() - inner.len();
        r.finish("proposervm option block")?;
        return Ok(Envelope {
            kind,
            parent_id,
            timestamp: None,
            pchain_height: None,
            epoch: None,
            certificate: &[],
            inner,
            inner_offset,
            id_len: bytes.len(),
            signature: &[],
        });
    }
    let timestamp = r.i64("timestamp")?;
    let pchain_height = r.u64("P-chain height")?;
    let certificate = r.bytes_u32("certificate")?;
    let inner = r.bytes_u32("inner block")?;
    let inner_offset = r.pos() - inner.len();
    let epoch = if kind == EnvelopeKind::Granite {
        Some(Epoch {
            pchain_height: r.u64("epoch P-chain height")?,
            number: r.u64("epoch number")?,
            start_time: r.i64("epoch start time")?,
        })
    } else {
        None
    };
    let id_len = r.pos();
    let signature = r.bytes_u32("signature")?;
    r.finish("proposervm block")?;
    Ok(Envelope {
        kind,
        parent_id,
        timestamp: Some(timestamp),
        pchain_height: Some(pchain_height),
        epoch,
        certificate,
        inner,
        inner_offset,
        id_len,
        signature,
    })
}

impl Envelope<'_> {
    /// The proposer's NodeID bytes, ripemd160(sha256(certificate)); `None` when unsigned.
    ///
    /// One staking certificate signs a validator's every block, so the last certificate and its
    /// NodeID are kept per thread: comparing the bytes costs far less than the two hashes.
    pub fn proposer(&self) -> Option<[u8; 20]> {
        if self.certificate.is_empty() {
            return None;
        }
        thread_local! {
            static LAST: std::cell::RefCell<(Vec<u8>, [u8; 20])> = const { std::cell::RefCell::new((Vec::new(), [0; 20])) };
        }
        LAST.with_borrow_mut(|(certificate, node_id)| {
            if certificate.as_slice() != self.certificate {
                *node_id = Ripemd160::digest(Sha256::digest(self.certificate)).into();
                certificate.clear();
                certificate.extend_from_slice(self.certificate);
            }
            Some(*node_id)
        })
    }

    /// Whether the block carries a certificate and a signature.
    pub fn is_signed(&self) -> bool {
        !self.certificate.is_empty()
    }
}

/// An unsigned post-Durango envelope with parent `parent` around `inner` (test containers).
#[cfg(test)]
pub(crate) fn unsigned_envelope(parent: [u8; 32], inner: &[u8]) -> Vec<u8> {
    let mut b = vec![0, 0, 0, 0, 0, 0];
    b.extend(parent);
    b.extend(1_700_000_000i64.to_be_bytes());
    b.extend(42u64.to_be_bytes());
    b.extend(0u32.to_be_bytes());
    b.extend((inner.len() as u32).to_be_bytes());
    b.extend(inner);
    b.extend(0u32.to_be_bytes());
    b
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_unsigned_block_parses_and_its_id_covers_all_but_the_signature_length() {
        let bytes = unsigned_envelope([7u8; 32], &[0xc0]);
        let env = parse(&bytes).unwrap();
        assert_eq!(env.kind, EnvelopeKind::Stateless);
        assert_eq!(env.parent_id, [7u8; 32]);
        assert_eq!(env.timestamp, Some(1_700_000_000));
        assert_eq!(env.pchain_height, Some(42));
        assert_eq!(env.inner, &[0xc0]);
        assert_eq!(&bytes[env.inner_offset..env.inner_offset + 1], &[0xc0]);
        assert_eq!(env.id_len, bytes.len() - 4);
        assert_eq!(env.proposer(), None);
    }

    #[test]
    fn trailing_bytes_or_a_raw_block_are_not_an_envelope() {
        let mut bytes = unsigned_envelope([7u8; 32], &[1, 2, 3]);
        bytes.push(0);
        assert!(parse(&bytes).unwrap_err().message.contains("trailing"));
        assert!(parse(&[0xf9, 0x02, 0x91]).unwrap_err().message.contains("codec version"));
        assert!(parse(&[0, 0, 0, 0, 0, 9]).unwrap_err().message.contains("unknown proposervm type id 9"));
        // A certificate length of 4 billion.
        let mut huge = vec![0, 0, 0, 0, 0, 0];
        huge.extend([0u8; 48]);
        huge.extend([0xff, 0xff, 0xff, 0xff]);
        assert!(parse(&huge).unwrap_err().message.contains("certificate"));
    }

    #[test]
    fn each_certificate_gives_its_own_node_id_when_proposers_alternate() {
        let bytes = unsigned_envelope([7u8; 32], &[0xc0]);
        let base = parse(&bytes).unwrap();
        let certificates: [&[u8]; 5] = [b"cert A", b"cert B", b"cert A", b"cert A!", b"cert A"];
        for certificate in certificates {
            let env = Envelope { certificate, ..base.clone() };
            let expected: [u8; 20] = Ripemd160::digest(Sha256::digest(certificate)).into();
            assert_eq!(env.proposer(), Some(expected), "{certificate:?}");
        }
        assert_eq!(base.proposer(), None, "an unsigned block after signed ones has no proposer");
    }
}
