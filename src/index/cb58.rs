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
    bs58::decode(text)
        .as_cb58(None)
        .into_vec()
        .map_err(|e| format!("not a valid CB58 string ({e})"))
}

/// Decodes a CB58 container/transaction id: exactly 32 bytes after the checksum.
pub fn decode_id(text: &str) -> Result<[u8; 32], String> {
    let raw = decode(text)?;
    raw.as_slice()
        .try_into()
        .map_err(|_| format!("a CB58 id holds 32 bytes, this one holds {}", raw.len()))
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
    ChecksumMismatch { expected: [u8; 4], found: [u8; 4] },
}

impl std::fmt::Display for HexError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            HexError::Malformed(m) => write!(f, "malformed hex: {m}"),
            HexError::TooShort(n) => write!(f, "{n} bytes is too short to hold the 4-byte checksum"),
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
    let digits = text
        .strip_prefix("0x")
        .or_else(|| text.strip_prefix("0X"))
        .ok_or_else(|| HexError::Malformed("missing 0x prefix".into()))?;
    let mut raw = hex::decode(digits).map_err(|e| HexError::Malformed(e.to_string()))?;
    if raw.len() < CHECKSUM_LEN {
        return Err(HexError::TooShort(raw.len()));
    }
    let body_len = raw.len() - CHECKSUM_LEN;
    let digest = sha256(&raw[..body_len]);
    let expected: [u8; 4] = digest[32 - CHECKSUM_LEN..].try_into().expect("4 bytes");
    let found: [u8; 4] = raw[body_len..].try_into().expect("4 bytes");
    if expected != found {
        return Err(HexError::ChecksumMismatch { expected, found });
    }
    raw.truncate(body_len);
    Ok((raw, digest))
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
        for id in [
            "6fXf5hncR8LXvwtM8iezFQBpK5cubV6y1dWgpJCcNyzGB1EzY",
            "ZGYTSU8w3zUP6VFseGC798vA2Vnxnfj6fz1QPfA9N93bhjJvo",
        ] {
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
        assert!(matches!(
            decode_hex_with_checksum(&bad),
            Err(HexError::ChecksumMismatch { .. })
        ));
        assert!(matches!(decode_hex_with_checksum("abcd"), Err(HexError::Malformed(_))));
        assert!(matches!(decode_hex_with_checksum("0x0102"), Err(HexError::TooShort(2))));
        assert!(matches!(decode_hex_with_checksum("0xzz"), Err(HexError::Malformed(_))));
    }
}
