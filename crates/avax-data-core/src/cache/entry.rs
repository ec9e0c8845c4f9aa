//! The bytes of one cache entry on disk: a magic tag, the sha256 of the rest, the full key (so a
//! file name collision is never taken for a hit) and the payload. [`decode`] refuses anything
//! truncated, flipped or written for another key.

use sha2::{Digest, Sha256};

/// The first bytes of every entry (the format's version is in the tag).
pub const MAGIC: &[u8; 8] = b"AVXDC\x00\x00\x01";

/// The size of the fixed header: magic, sha256, key length.
const HEADER: usize = 8 + 32 + 4;

/// Encodes an entry holding `payload` under `key`.
pub fn encode(key: &str, payload: &[u8]) -> Vec<u8> {
    let mut body = Vec::with_capacity(4 + key.len() + payload.len());
    body.extend_from_slice(&(key.len() as u32).to_le_bytes());
    body.extend_from_slice(key.as_bytes());
    body.extend_from_slice(payload);
    let mut out = Vec::with_capacity(HEADER - 4 + body.len());
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&Sha256::digest(&body));
    out.extend_from_slice(&body);
    out
}

/// Why an entry's bytes were refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EntryError {
    /// Shorter than its header or than the key it announces.
    Truncated,
    /// Not an entry of this format.
    BadMagic,
    /// The sha256 of the bytes does not match the one recorded.
    Checksum,
    /// A whole entry, but for another key (a file name collision).
    OtherKey,
}

impl std::fmt::Display for EntryError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            EntryError::Truncated => "the entry is truncated",
            EntryError::BadMagic => "the entry does not start with the cache's tag",
            EntryError::Checksum => "the entry's sha256 does not match its bytes",
            EntryError::OtherKey => "the entry holds another key",
        })
    }
}

/// The payload of the entry `bytes` written under `key`, every check passed.
pub fn decode<'a>(key: &str, bytes: &'a [u8]) -> Result<&'a [u8], EntryError> {
    if bytes.len() < HEADER {
        return Err(if bytes.starts_with(&MAGIC[..bytes.len().min(8)]) {
            EntryError::Truncated
        } else {
            EntryError::BadMagic
        });
    }
    if &bytes[..8] != MAGIC {
        return Err(EntryError::BadMagic);
    }
    let body = &bytes[40..];
    if Sha256::digest(body).as_slice() != &bytes[8..40] {
        return Err(EntryError::Checksum);
    }
    let key_len = u32::from_le_bytes(body[..4].try_into().expect("4 bytes")) as usize;
    let stored = body.get(4..4 + key_len).ok_or(EntryError::Truncated)?;
    if stored != key.as_bytes() {
        return Err(EntryError::OtherKey);
    }
    Ok(&body[4 + key_len..])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_entry_round_trips_and_any_damage_is_refused() {
        let bytes = encode("index/abc/C/block/7", b"payload bytes");
        assert_eq!(decode("index/abc/C/block/7", &bytes), Ok(&b"payload bytes"[..]));
        assert_eq!(decode("index/abc/C/block/8", &bytes), Err(EntryError::OtherKey));
        for cut in [0, 5, 20, HEADER, bytes.len() - 1] {
            assert!(decode("index/abc/C/block/7", &bytes[..cut]).is_err(), "cut at {cut}");
        }
        for at in 0..bytes.len() {
            let mut flipped = bytes.clone();
            flipped[at] ^= 0x01;
            assert!(decode("index/abc/C/block/7", &flipped).is_err(), "flip at {at}");
        }
        assert_eq!(decode("k", b"not an entry at all, but long enough for a header"), Err(EntryError::BadMagic));
        assert_eq!(decode("k", &encode("k", b"")), Ok(&b""[..]));
    }
}
