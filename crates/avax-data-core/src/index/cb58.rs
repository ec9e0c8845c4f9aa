//! CB58 identifiers and the checksummed hex encoding the index API uses for container bytes.
//!
//! CB58 is base58 over `raw ‖ last 4 bytes of sha256(raw)`; container bytes travel as
//! `"0x" + hex(bytes ‖ last 4 bytes of sha256(bytes))`.

use sha2::{Digest, Sha256};

/// Length of the checksum appended by both encodings.
pub const CHECKSUM_LEN: usize = 4;

/// The last four bytes of sha256(data).
pub fn checksum(data: &[u8]) -> [u8; CHECKSUM_LEN] {
    let digest = Sha256::digest(data);
    let mut out = [0u8; CHECKSUM_LEN];
    out.copy_from_slice(&digest[32 - CHECKSUM_LEN..]);
    out
}

/// sha256 of `data`.
pub fn sha256(data: &[u8]) -> [u8; 32] {
    Sha256::digest(data).into()
}

/// CB58-encodes `raw` (any length).
pub fn encode(raw: &[u8]) -> String {
    bs58::encode(raw).as_cb58(None).into_string()
}

/// Decodes a CB58 string, verifying its checksum. Returns the raw bytes without the checksum.
pub fn decode(text: &str) -> Result<Vec<u8>, String> {
    bs58::decode(text).as_cb58(None).into_vec().map_err(|e| format!("not a valid CB58 string ({e})"))
}

/// Decodes a CB58 container/transaction id: exactly 32 bytes after the checksum.
pub fn decode_id(text: &str) -> Result<[u8; 32], String> {
    // Decoded on the stack: room for an id, its checksum and more, so that a wrong length is
    // still told by its size; only longer input takes the allocating path for its message.
    let mut buf = [0u8; 64];
    let raw = match bs58::decode(text).as_cb58(None).onto(&mut buf[..]) {
        Ok(n) => &buf[..n],
        Err(bs58::decode::Error::BufferTooSmall) => return decode(text).and_then(|raw| id_of(&raw)),
        Err(e) => return Err(format!("not a valid CB58 string ({e})")),
    };
    id_of(raw)
}

fn id_of(raw: &[u8]) -> Result<[u8; 32], String> {
    raw.try_into().map_err(|_| format!("a CB58 id holds 32 bytes, this one holds {}", raw.len()))
}

/// The CB58 id of a container: cb58(sha256(bytes)).
pub fn container_id(bytes: &[u8]) -> String {
    encode(&sha256(bytes))
}

/// Encodes container bytes as the node does: `0x` + hex(bytes ‖ checksum(bytes)).
pub fn encode_hex_with_checksum(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(2 + 2 * (bytes.len() + CHECKSUM_LEN));
    out.push_str("0x");
    out.push_str(&hex::encode(bytes));
    out.push_str(&hex::encode(checksum(bytes)));
    out
}

/// Why checksummed hex could not be decoded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HexError {
    /// Not `0x`-prefixed, odd length or a non-hex digit.
    Malformed(String),
    /// Shorter than the 4-byte checksum.
    TooShort(usize),
    /// The trailing checksum does not match the bytes.
    ChecksumMismatch {
        /// The checksum of the bytes (the last 4 bytes of their SHA-256).
        expected: [u8; 4],
        /// The checksum the text carried.
        found: [u8; 4],
    },
}

impl std::fmt::Display for HexError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            HexError::Malformed(m) => write!(f, "malformed hex: {m}"),
            HexError::TooShort(n) => {
                write!(f, "{n} bytes is too short to hold the 4-byte checksum")
            }
            HexError::ChecksumMismatch { expected, found } => write!(
                f,
                "checksum mismatch: bytes hash to {} but the checksum says {}",
                hex::encode(expected),
                hex::encode(found)
            ),
        }
    }
}

/// Decodes `0x`-prefixed hex, verifies and strips the trailing 4-byte checksum.
pub fn decode_hex_with_checksum(text: &str) -> Result<Vec<u8>, HexError> {
    decode_hex_with_digest(text).map(|(bytes, _)| bytes)
}

/// Like [`decode_hex_with_checksum`], also returning sha256(bytes), which the checksum check
/// computes anyway (a container's id is derived from it).
pub fn decode_hex_with_digest(text: &str) -> Result<(Vec<u8>, [u8; 32]), HexError> {
    decode_hex_hashing(text, |_| None).map(|(bytes, digest, _)| (bytes, digest))
}

/// Bytes, the sha256 of all of them, and the sha256 of a prefix when one was asked for.
pub type HashedBytes = (Vec<u8>, [u8; 32], Option<[u8; 32]>);

/// The sha256 of all the bytes, and of a prefix when one was asked for.
pub type Digests = ([u8; 32], Option<[u8; 32]>);

/// Like [`decode_hex_with_digest`]; `prefix_len` looks at the bytes and may name a prefix whose
/// sha256 is wanted too (a signed block's id). Both digests come from one pass over the bytes.
pub fn decode_hex_hashing(
    text: &str,
    prefix_len: impl FnOnce(&[u8]) -> Option<usize>,
) -> Result<HashedBytes, HexError> {
    let mut raw = Vec::new();
    let (digest, prefix_digest) = decode_hex_hashing_into(text.as_bytes(), prefix_len, &mut raw)?;
    Ok((raw, digest, prefix_digest))
}

/// [`decode_hex_hashing`] of the text's bytes (not checked as UTF-8: any byte that is not a
/// hex digit is refused), appending the verified bytes (checksum stripped) to `out`, so that
/// many containers can share one buffer. On an error `out` is left as it was.
pub fn decode_hex_hashing_into(
    text: &[u8],
    prefix_len: impl FnOnce(&[u8]) -> Option<usize>,
    out: &mut Vec<u8>,
) -> Result<Digests, HexError> {
    let unprefixed = |t: &[u8]| t.strip_prefix(b"0x").or_else(|| t.strip_prefix(b"0X")).map(<[u8]>::len);
    let digits = text
        .strip_prefix(b"0x")
        .or_else(|| text.strip_prefix(b"0X"))
        .ok_or_else(|| HexError::Malformed("missing 0x prefix".into()))?;
    // `hex` takes one more `0x` itself: the output is half of what follows it.
    let after_prefix = unprefixed(digits).unwrap_or(digits.len());
    let start = out.len();
    out.resize(start + after_prefix / 2, 0);
    let checked = hex::decode_to_slice(digits, &mut out[start..])
        .map_err(|e| HexError::Malformed(e.to_string()))
        .and_then(|()| verify_checksum(&out[start..], prefix_len));
    match checked {
        Ok((body_len, digests)) => {
            out.truncate(start + body_len);
            Ok(digests)
        }
        Err(e) => {
            out.truncate(start);
            Err(e)
        }
    }
}

/// Checks the trailing checksum of `raw` in one sha256 pass; the length without it and the digests.
fn verify_checksum(raw: &[u8], prefix_len: impl FnOnce(&[u8]) -> Option<usize>) -> Result<(usize, Digests), HexError> {
    if raw.len() < CHECKSUM_LEN {
        return Err(HexError::TooShort(raw.len()));
    }
    let body_len = raw.len() - CHECKSUM_LEN;
    let body = &raw[..body_len];
    let split = prefix_len(body).filter(|&n| n <= body_len);
    let mut hasher = Sha256::new();
    let prefix_digest = split.map(|n| {
        hasher.update(&body[..n]);
        <[u8; 32]>::from(hasher.clone().finalize())
    });
    hasher.update(&body[split.unwrap_or(0)..]);
    let digest: [u8; 32] = hasher.finalize().into();
    let expected: [u8; 4] = digest[32 - CHECKSUM_LEN..].try_into().expect("4 bytes");
    let found: [u8; 4] = raw[body_len..].try_into().expect("4 bytes");
    if expected != found {
        return Err(HexError::ChecksumMismatch { expected, found });
    }
    Ok((body_len, (digest, prefix_digest)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cb58_round_trip_of_a_32_byte_id() {
        let raw = sha256(b"avalanche");
        let text = encode(&raw);
        assert_eq!(decode_id(&text).unwrap(), raw);
    }

    #[test]
    fn cb58_rejects_a_corrupted_checksum() {
        let mut text = encode(&sha256(b"x")).into_bytes();
        let last = text.len() - 1;
        text[last] = if text[last] == b'2' { b'3' } else { b'2' };
        let err = decode(std::str::from_utf8(&text).unwrap()).unwrap_err();
        assert!(err.contains("not a valid CB58"), "{err}");
    }

    #[test]
    fn cb58_id_must_be_32_bytes() {
        let err = decode_id(&encode(b"short")).unwrap_err();
        assert!(err.contains("holds 5"), "{err}");
    }

    #[test]
    fn the_two_real_ids_of_ground_truth_decode_with_valid_checksums() {
        for id in
            ["6fXf5hncR8LXvwtM8iezFQBpK5cubV6y1dWgpJCcNyzGB1EzY", "ZGYTSU8w3zUP6VFseGC798vA2Vnxnfj6fz1QPfA9N93bhjJvo"]
        {
            let raw = decode_id(id).unwrap();
            assert_eq!(encode(&raw), id);
        }
    }

    #[test]
    fn hex_checksum_round_trip_and_mismatch() {
        let bytes: Vec<u8> = (0..415u32).map(|i| (i * 7 % 256) as u8).collect();
        let text = encode_hex_with_checksum(&bytes);
        assert_eq!(text.len(), 2 + 2 * (415 + 4));
        assert_eq!(decode_hex_with_checksum(&text).unwrap(), bytes);
        let mut bad = text.clone();
        bad.replace_range(4..6, if &text[4..6] == "00" { "01" } else { "00" });
        assert!(matches!(decode_hex_with_checksum(&bad), Err(HexError::ChecksumMismatch { .. })));
        assert!(matches!(decode_hex_with_checksum("abcd"), Err(HexError::Malformed(_))));
        assert!(matches!(decode_hex_with_checksum("0x0102"), Err(HexError::TooShort(2))));
        assert!(matches!(decode_hex_with_checksum("0xzz"), Err(HexError::Malformed(_))));
    }

    #[test]
    fn cb58_ids_of_any_decoded_length_are_told_by_their_size() {
        let long = encode(&[7u8; 80]);
        assert!(decode_id(&long).unwrap_err().contains("holds 80"), "{long}");
        assert!(decode_id(&encode(&[7u8; 33])).unwrap_err().contains("holds 33"));
        assert!(decode_id("0OIl").unwrap_err().contains("not a valid CB58"));
    }

    #[test]
    fn decoding_into_a_shared_buffer_appends_and_leaves_it_alone_on_errors() {
        let first: Vec<u8> = (0..300u32).map(|i| (i * 3 % 256) as u8).collect();
        let second: Vec<u8> = vec![9, 8, 7];
        let mut out = vec![1u8, 2];
        let (digest, none) =
            decode_hex_hashing_into(encode_hex_with_checksum(&first).as_bytes(), |_| None, &mut out).unwrap();
        assert_eq!((digest, none), (sha256(&first), None));
        let (_, prefix) =
            decode_hex_hashing_into(encode_hex_with_checksum(&second).as_bytes(), |_| Some(1), &mut out).unwrap();
        assert_eq!(prefix, Some(sha256(&[9])));
        assert_eq!(out, [&[1u8, 2][..], &first, &second].concat());
        let mut bad = encode_hex_with_checksum(&second);
        bad.replace_range(2..4, "00");
        for text in [bad.as_str(), "0x0102", "0xzz", "0x123", "12", "0x0x00000000", "0x0x0x00"] {
            let before = out.clone();
            assert!(decode_hex_hashing_into(text.as_bytes(), |_| None, &mut out).is_err(), "{text}");
            assert_eq!(out, before, "{text}");
        }
        // a second 0x is taken by the hex decoder, as `decode_hex_with_checksum` always did
        let doubled = format!("0x0x{}", &encode_hex_with_checksum(&second)[2..]);
        assert_eq!(decode_hex_with_checksum(&doubled).unwrap(), second);
    }

    #[test]
    fn one_pass_gives_the_digest_of_a_prefix_and_of_the_whole() {
        let bytes: Vec<u8> = (0..1000u32).map(|i| (i * 13 % 256) as u8).collect();
        let text = encode_hex_with_checksum(&bytes);
        let (out, full, prefix) = decode_hex_hashing(&text, |b| Some(b.len() - 70)).unwrap();
        assert_eq!(out, bytes);
        assert_eq!(full, sha256(&bytes));
        assert_eq!(prefix, Some(sha256(&bytes[..930])));
        let (_, _, none) = decode_hex_hashing(&text, |b| Some(b.len() + 1)).unwrap();
        assert_eq!(none, None);
    }
}
