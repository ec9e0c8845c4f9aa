//! proposervm envelopes (FORMATS.md §3): typeID 0 `statelessBlock`, 1 `option`, 2
//! `statelessGraniteBlock`, signed with the emulator's fixed P-256 proposer key
//! ([`super::test_key`]).
//!
//! - Types 0/2: id = `sha256(bytes[..len - 4 - S])` (everything but the signature and its length).
//! - Option: id = `sha256(bytes)`.
//! - Signature (signed blocks only): ECDSA P-256, ASN.1 DER, over
//!   `sha256(0x0000 ‖ chainID ‖ parentID ‖ blockID)`.
//! - Proposer: `NodeID = ripemd160(sha256(cert DER))` ([`proposer_node_id`]).

use p256::ecdsa::DerSignature;
#[cfg(test)]
use p256::ecdsa::SigningKey;
use ripemd::Ripemd160;
use sha2::{Digest, Sha256};

use super::test_key::CERT_DER;
use avax_data_core::decode::avax::Id;
use avax_data_core::index::cb58;

/// The proposervm epoch of a Granite block (ACP-181); every field non-zero in a valid block.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Epoch {
    pub p_chain_height: u64,
    pub number: u64,
    /// Unix seconds.
    pub start_time: i64,
}

/// Which envelope to build.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// typeID 0.
    Stateless,
    /// typeID 2 with its epoch.
    Granite(Epoch),
    /// typeID 1 (parent and inner block only; never signed).
    Option,
}

fn sha256(data: &[u8]) -> [u8; 32] {
    Sha256::digest(data).into()
}

#[cfg(test)]
fn signing_key() -> &'static SigningKey {
    static KEY: std::sync::OnceLock<SigningKey> = std::sync::OnceLock::new();
    KEY.get_or_init(|| SigningKey::from_slice(&super::test_key::KEY_SCALAR).expect("a valid P-256 scalar"))
}

/// The proposer's certificate, DER.
pub fn proposer_cert() -> &'static [u8] {
    &CERT_DER
}

/// The proposer's 20-byte node id: `ripemd160(sha256(cert))` (`NodeID-` + cb58 of it).
pub fn proposer_node_id() -> [u8; 20] {
    Ripemd160::digest(sha256(&CERT_DER)).into()
}

/// The bytes the proposer signs (before sha256): `0x0000 ‖ chainID ‖ parentID ‖ blockID`.
pub fn signed_header(chain_id: &[u8; 32], parent_id: &[u8; 32], block_id: &[u8; 32]) -> [u8; 98] {
    let mut h = [0u8; 98];
    h[2..34].copy_from_slice(chain_id);
    h[34..66].copy_from_slice(parent_id);
    h[66..].copy_from_slice(block_id);
    h
}

/// An appended envelope's proposervm id and the node's checksum of its bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Wrapped {
    /// The proposervm id: sha256 of the bytes before the signature (of all of them for an option).
    pub id: Id,
    /// The last four bytes of the sha256 of all the envelope's bytes (what `getContainer*` sends).
    pub checksum: [u8; cb58::CHECKSUM_LEN],
}

/// Appends the envelope of `inner` to `out` and returns its id and checksum. `time` is unix
/// seconds; `signed` adds the certificate and the signature (ignored for [`Kind::Option`]).
/// Cost: one sha256 of the envelope (the bytes the id covers are a prefix of the whole, so the
/// checksum's hash continues the id's), plus one ECDSA signature when signed.
#[allow(clippy::too_many_arguments)]
pub fn wrap_envelope(
    out: &mut Vec<u8>,
    kind: Kind,
    chain_id: &Id,
    parent_id: &Id,
    time: i64,
    p_chain_height: u64,
    inner: &[u8],
    signed: bool,
) -> Wrapped {
    let start = out.len();
    unsigned_part(kind, parent_id, time, p_chain_height, inner, signed, &mut |b| out.extend_from_slice(b));
    let mut whole = Sha256::new();
    whole.update(&out[start..]);
    let id: Id = whole.clone().finalize().into();
    let tail = out.len();
    if kind != Kind::Option {
        if signed {
            let sig: DerSignature = super::proposer_sign::sign(&signed_header(chain_id, parent_id, &id));
            let sig = sig.as_bytes();
            out.extend_from_slice(&(sig.len() as u32).to_be_bytes());
            out.extend_from_slice(sig);
        } else {
            out.extend_from_slice(&[0, 0, 0, 0]);
        }
    }
    whole.update(&out[tail..]);
    let digest: [u8; 32] = whole.finalize().into();
    let checksum = digest[32 - cb58::CHECKSUM_LEN..].try_into().expect("four bytes");
    Wrapped { id, checksum }
}

/// The id [`wrap_envelope`] would return, without building the signature (what id chains need).
pub fn envelope_id(kind: Kind, parent_id: &Id, time: i64, p_chain_height: u64, inner: &[u8], signed: bool) -> Id {
    let mut h = Sha256::new();
    unsigned_part(kind, parent_id, time, p_chain_height, inner, signed, &mut |b| h.update(b));
    h.finalize().into()
}

/// Gives `put` the envelope's bytes up to its signature, in order (their sha256 is the id):
/// codec version, type ID, parent, then the inner block (option), or time, P-chain height,
/// certificate, inner block and, for Granite, the epoch.
fn unsigned_part(
    kind: Kind,
    parent_id: &Id,
    time: i64,
    p_chain_height: u64,
    inner: &[u8],
    signed: bool,
    put: &mut impl FnMut(&[u8]),
) {
    let type_id: u32 = match kind {
        Kind::Stateless => 0,
        Kind::Option => 1,
        Kind::Granite(_) => 2,
    };
    put(&[0, 0]);
    put(&type_id.to_be_bytes());
    put(parent_id);
    if kind != Kind::Option {
        put(&time.to_be_bytes());
        put(&p_chain_height.to_be_bytes());
        let cert: &[u8] = if signed { &CERT_DER } else { &[] };
        put(&(cert.len() as u32).to_be_bytes());
        put(cert);
    }
    put(&(inner.len() as u32).to_be_bytes());
    put(inner);
    if let Kind::Granite(epoch) = kind {
        put(&epoch.p_chain_height.to_be_bytes());
        put(&epoch.number.to_be_bytes());
        put(&epoch.start_time.to_be_bytes());
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use p256::ecdsa::signature::Verifier;
    use p256::ecdsa::VerifyingKey;

    /// The verifying key inside a DER certificate: the uncompressed point after the
    /// SubjectPublicKeyInfo bit string header `03 42 00 04`.
    pub(crate) fn cert_key(cert: &[u8]) -> VerifyingKey {
        let at = cert.windows(4).position(|w| w == [0x03, 0x42, 0x00, 0x04]).expect("a P-256 point") + 3;
        VerifyingKey::from_sec1_bytes(&cert[at..at + 65]).unwrap()
    }

    /// A parsed type 0/2 envelope: (parent, cert, inner, signature, id).
    pub(crate) type Parsed = ([u8; 32], Vec<u8>, Vec<u8>, Vec<u8>, [u8; 32]);

    /// Parses a type 0/2 envelope.
    pub(crate) fn parse(bytes: &[u8]) -> Parsed {
        let u32_at = |o: usize| u32::from_be_bytes(bytes[o..o + 4].try_into().unwrap()) as usize;
        let type_id = u32_at(2);
        assert!(type_id == 0 || type_id == 2, "{type_id}");
        let parent: [u8; 32] = bytes[6..38].try_into().unwrap();
        let c = u32_at(54);
        let cert = bytes[58..58 + c].to_vec();
        let l = u32_at(58 + c);
        let inner = bytes[62 + c..62 + c + l].to_vec();
        let mut at = 62 + c + l;
        if type_id == 2 {
            at += 24;
        }
        let s = u32_at(at);
        assert_eq!(at + 4 + s, bytes.len(), "no trailing bytes");
        let sig = bytes[at + 4..].to_vec();
        let id = sha256(&bytes[..at]);
        (parent, cert, inner, sig, id)
    }

    #[test]
    fn signed_envelopes_verify_with_the_cert_key_and_ids_follow_the_rule() {
        let chain = [7u8; 32];
        let parent = [9u8; 32];
        let epoch = Epoch { p_chain_height: 5, number: 2, start_time: 1_763_568_000 };
        for kind in [Kind::Stateless, Kind::Granite(epoch)] {
            for signed in [true, false] {
                let mut out = vec![0xaa];
                let Wrapped { id, checksum } =
                    wrap_envelope(&mut out, kind, &chain, &parent, 1_700_000_000, 42, b"inner", signed);
                let bytes = &out[1..];
                assert_eq!(checksum, cb58::checksum(bytes), "the checksum covers the signature too");
                assert_eq!(envelope_id(kind, &parent, 1_700_000_000, 42, b"inner", signed), id);
                let (p, cert, inner, sig, parsed_id) = parse(bytes);
                assert_eq!((p, inner.as_slice(), parsed_id), (parent, &b"inner"[..], id));
                if signed {
                    assert_eq!(cert, CERT_DER);
                    let sig = p256::ecdsa::Signature::from_der(&sig).unwrap();
                    let key = cert_key(&cert);
                    key.verify(&signed_header(&chain, &parent, &id), &sig).unwrap();
                    assert!(key.verify(&signed_header(&[0; 32], &parent, &id), &sig).is_err());
                } else {
                    assert!(cert.is_empty() && sig.is_empty());
                }
                if let Kind::Granite(_) = kind {
                    let tail = &bytes[bytes.len() - 4 - sig.len() - 24..bytes.len() - 4 - sig.len()];
                    assert_eq!(&tail[8..16], &2u64.to_be_bytes());
                }
            }
        }
    }

    #[test]
    fn option_id_is_the_sha256_of_all_bytes() {
        let mut out = Vec::new();
        let Wrapped { id, checksum } = wrap_envelope(&mut out, Kind::Option, &[0; 32], &[3; 32], 0, 0, &[1, 2], true);
        assert_eq!(out.len(), 2 + 4 + 32 + 4 + 2);
        assert_eq!(&out[2..6], &[0, 0, 0, 1]);
        assert_eq!(id, sha256(&out));
        assert_eq!(checksum, cb58::checksum(&out));
        assert_eq!(envelope_id(Kind::Option, &[3; 32], 0, 0, &[1, 2], true), id);
    }

    #[test]
    fn proposer_node_id_is_ripemd160_of_sha256_of_the_cert() {
        let id = proposer_node_id();
        assert_eq!(id.to_vec(), Ripemd160::digest(Sha256::digest(CERT_DER)).to_vec());
        // The embedded scalar is the certificate's key.
        assert_eq!(cert_key(&CERT_DER), *signing_key().verifying_key());
    }
}
