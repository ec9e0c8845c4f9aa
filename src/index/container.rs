//! The container model and its decoding from the node's wire form.

use chrono::DateTime;
use serde::Deserialize;

use super::cb58;

/// One accepted container (block, vertex or transaction), decoded and verified.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Container {
    /// CB58 id.
    pub id: String,
    /// Container bytes, checksum stripped.
    pub bytes: Vec<u8>,
    /// Acceptance time on the node, nanoseconds since the Unix epoch (UTC).
    pub timestamp_ns: i64,
    /// Position in the index.
    pub index: u64,
    /// Encoding the node used (`hex`).
    pub encoding: String,
}

/// A JSON value that the node sends as a decimal string or as a number.
#[derive(Debug, Deserialize)]
#[serde(untagged)]
pub enum U64Field<'a> {
    /// A JSON number.
    Number(u64),
    /// A quoted decimal.
    #[serde(borrow)]
    Text(&'a str),
}

impl U64Field<'_> {
    /// The value, or why it is not an unsigned 64-bit integer.
    pub fn value(&self) -> Result<u64, String> {
        match self {
            U64Field::Number(n) => Ok(*n),
            U64Field::Text(t) => t.parse().map_err(|_| format!("{t:?} is not an unsigned 64-bit integer")),
        }
    }
}

/// A container as it travels: all strings, borrowed from the response body.
#[derive(Debug, Deserialize)]
pub struct WireContainer<'a> {
    /// CB58 id.
    #[serde(borrow)]
    pub id: std::borrow::Cow<'a, str>,
    /// `0x` + hex(bytes ‖ checksum).
    #[serde(borrow)]
    pub bytes: std::borrow::Cow<'a, str>,
    /// RFC 3339 with up to nanosecond fractions, any offset.
    #[serde(borrow)]
    pub timestamp: std::borrow::Cow<'a, str>,
    /// `hex`.
    #[serde(borrow, default)]
    pub encoding: Option<std::borrow::Cow<'a, str>>,
    /// Decimal string (or number in old nodes).
    #[serde(borrow)]
    pub index: U64Field<'a>,
}

/// How strictly containers are checked on arrival.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Verify {
    /// Check that the id is the one the bytes give: `cb58(sha256(bytes))` for transactions,
    /// vertices, raw P/X blocks and proposervm options; for a proposervm block (typeID 0 or 2) the
    /// sha256 of its bytes without the signature; for a raw C-chain block keccak256 of its RLP
    /// header (its Ethereum hash).
    pub id_is_sha256_of_bytes: bool,
}

impl Default for Verify {
    fn default() -> Self {
        Verify { id_is_sha256_of_bytes: true }
    }
}

/// Whether `raw_id` is the block id of `bytes` by a rule other than sha256 of all bytes: a
/// proposervm block (typeID 0 or 2, sha256 of everything but the signature and its length), or a
/// raw coreth block (keccak256 of the RLP header, the first item of the block list).
fn block_id_matches(raw_id: &[u8; 32], bytes: &[u8]) -> bool {
    proposervm_signed_len(bytes).is_some_and(|end| cb58::sha256(&bytes[..end]) == *raw_id)
        || coreth_header(bytes).is_some_and(|header| {
            use sha3::Digest;
            sha3::Keccak256::digest(header).as_slice() == raw_id
        })
}

fn be_u32(bytes: &[u8], at: usize) -> Option<usize> {
    Some(u32::from_be_bytes(bytes.get(at..at.checked_add(4)?)?.try_into().ok()?) as usize)
}

/// Length of a proposervm block without its signature and its length, if `bytes` parses as one.
fn proposervm_signed_len(bytes: &[u8]) -> Option<usize> {
    if bytes.get(..2)? != [0, 0] {
        return None;
    }
    let epoch = match be_u32(bytes, 2)? {
        0 => 0,
        2 => 24,
        _ => return None,
    };
    let cert = be_u32(bytes, 54)?;
    let inner = be_u32(bytes, 58usize.checked_add(cert)?)?;
    let end = 62usize.checked_add(cert)?.checked_add(inner)?.checked_add(epoch)?;
    let sig = be_u32(bytes, end)?;
    (end.checked_add(4)?.checked_add(sig)? == bytes.len()).then_some(end)
}

/// The RLP header item of a raw coreth block (an RLP list whose first item is a list).
fn coreth_header(bytes: &[u8]) -> Option<&[u8]> {
    fn long_list(b: &[u8]) -> Option<(usize, usize)> {
        let first = *b.first()?;
        if first < 0xf8 {
            return None;
        }
        let n = (first - 0xf7) as usize;
        let len = b.get(1..1 + n)?.iter().try_fold(0usize, |a, &x| a.checked_mul(256).map(|a| a | x as usize))?;
        Some((1 + n, len))
    }
    let (outer, payload) = long_list(bytes)?;
    if outer.checked_add(payload)? != bytes.len() {
        return None;
    }
    let (head, len) = long_list(&bytes[outer..])?;
    bytes.get(outer..outer.checked_add(head)?.checked_add(len)?)
}

/// Why a wire container was refused: `Decode` for a malformed field, `Integrity` for a failed check.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ContainerError {
    /// A field is malformed.
    Decode(String),
    /// The checksum or the id does not match the bytes.
    Integrity(String),
}

/// Parses an RFC 3339 timestamp (any offset, up to nanoseconds) into UTC nanoseconds.
pub fn parse_timestamp_ns(text: &str) -> Result<i64, String> {
    let parsed = DateTime::parse_from_rfc3339(text).map_err(|e| format!("timestamp {text:?} is not RFC 3339: {e}"))?;
    parsed
        .timestamp_nanos_opt()
        .ok_or_else(|| format!("timestamp {text:?} is outside the range of nanosecond timestamps"))
}

impl WireContainer<'_> {
    /// Decodes, verifies the checksum (and the id if asked) and converts to a [`Container`].
    pub fn decode(&self, verify: Verify) -> Result<Container, ContainerError> {
        let index = self.index.value().map_err(|e| ContainerError::Decode(format!("index: {e}")))?;
        let encoding = self.encoding.as_deref().unwrap_or("hex");
        if encoding != "hex" {
            return Err(ContainerError::Decode(format!(
                "container {index} has encoding {encoding:?}; only \"hex\" is supported"
            )));
        }
        let (bytes, digest) = cb58::decode_hex_with_digest(&self.bytes).map_err(|e| match e {
            cb58::HexError::ChecksumMismatch { .. } => {
                ContainerError::Integrity(format!("container {index} ({}): bytes {e}", self.id))
            }
            other => ContainerError::Decode(format!("container {index} ({}): bytes: {other}", self.id)),
        })?;
        let raw_id = cb58::decode_id(&self.id)
            .map_err(|e| ContainerError::Integrity(format!("container {index}: id {:?} is {e}", self.id)))?;
        if verify.id_is_sha256_of_bytes && raw_id != digest && !block_id_matches(&raw_id, &bytes) {
            return Err(ContainerError::Integrity(format!(
                "container {index}: id {} is not cb58(sha256(bytes)) = {}",
                self.id,
                cb58::container_id(&bytes)
            )));
        }
        let timestamp_ns = parse_timestamp_ns(&self.timestamp)
            .map_err(|e| ContainerError::Decode(format!("container {index}: {e}")))?;
        Ok(Container { id: self.id.to_string(), bytes, timestamp_ns, index, encoding: encoding.to_string() })
    }
}

impl Container {
    /// Builds the wire JSON of this container as a node would send it (used by the emulator).
    pub fn to_wire_json(&self, timestamp: &str) -> serde_json::Value {
        serde_json::json!({
            "id": self.id,
            "bytes": cb58::encode_hex_with_checksum(&self.bytes),
            "timestamp": timestamp,
            "encoding": "hex",
            "index": self.index.to_string(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fixtures() -> serde_json::Value {
        let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/real_containers.json"))
            .unwrap();
        serde_json::from_str(&text).unwrap()
    }

    #[test]
    fn block_ids_verify_by_the_rule_of_their_kind() {
        use crate::emulator::formats::cchain::{FORK_HEIGHT, GRANITE_HEIGHT};
        use crate::emulator::world;
        use crate::index::IndexPath;
        let mut unsigned = 0;
        for i in (0..FORK_HEIGHT + 40).chain(GRANITE_HEIGHT..GRANITE_HEIGHT + 3) {
            let (c, ts) = world::container(3, IndexPath::CBlock, i, 0);
            unsigned += usize::from(i >= FORK_HEIGHT && c.bytes[54..58] == [0, 0, 0, 0]);
            let wire = c.to_wire_json(&ts).to_string();
            let decoded = serde_json::from_str::<WireContainer>(&wire).unwrap().decode(Verify::default());
            assert_eq!(decoded.as_ref(), Ok(&c), "{i}");
            // Another block's id is refused.
            let other = world::container(3, IndexPath::CBlock, i + 1, 0).0.id;
            let forged = wire.replace(&c.id, &other);
            let err = serde_json::from_str::<WireContainer>(&forged).unwrap().decode(Verify::default()).unwrap_err();
            assert!(matches!(err, ContainerError::Integrity(_)), "{i}");
        }
        assert!(unsigned > 0);
    }

    #[test]
    fn the_two_real_containers_verify_and_decode() {
        let doc = fixtures();
        for fixture in doc["containers"].as_array().unwrap() {
            let text = fixture.to_string();
            let wire: WireContainer = serde_json::from_str(&text).unwrap();
            let c = wire.decode(Verify::default()).unwrap();
            assert_eq!(c.bytes.len() as u64, fixture["length"].as_u64().unwrap());
            assert_eq!(hex::encode(cb58::checksum(&c.bytes)), fixture["checksum"].as_str().unwrap());
            assert_eq!(cb58::container_id(&c.bytes), fixture["id"].as_str().unwrap());
            assert_eq!(c.index.to_string(), fixture["index"].as_str().unwrap());
        }
    }

    #[test]
    fn real_timestamps_keep_nanoseconds_and_offsets() {
        // 2021-04-02T15:34:00.262979-07:00 == 2021-04-02T22:34:00.262979Z
        assert_eq!(parse_timestamp_ns("2021-04-02T15:34:00.262979-07:00").unwrap(), 1_617_402_840_262_979_000);
        assert_eq!(parse_timestamp_ns("2021-11-04T00:42:55.01643414Z").unwrap(), 1_635_986_575_016_434_140);
        assert!(parse_timestamp_ns("2021-11-04 00:42").is_err());
    }

    #[test]
    fn a_flipped_byte_fails_the_checksum_and_a_wrong_id_fails_the_id_check() {
        let doc = fixtures();
        let fixture = &doc["containers"][1];
        let mut flipped = fixture.clone();
        let bytes = fixture["bytes"].as_str().unwrap();
        let replacement = if &bytes[10..12] == "00" { "01" } else { "00" };
        flipped["bytes"] = format!("{}{}{}", &bytes[..10], replacement, &bytes[12..]).into();
        let text = flipped.to_string();
        let err = serde_json::from_str::<WireContainer>(&text).unwrap().decode(Verify::default()).unwrap_err();
        assert!(matches!(err, ContainerError::Integrity(ref m) if m.contains("checksum mismatch")), "{err:?}");

        let mut other_id = fixture.clone();
        other_id["id"] = doc["containers"][0]["id"].clone();
        let text = other_id.to_string();
        let wire = serde_json::from_str::<WireContainer>(&text).unwrap();
        let err = wire.decode(Verify::default()).unwrap_err();
        assert!(matches!(err, ContainerError::Integrity(ref m) if m.contains("is not cb58(sha256(bytes))")), "{err:?}");
        assert!(wire.decode(Verify { id_is_sha256_of_bytes: false }).is_ok());
    }

    #[test]
    fn index_may_be_a_number_or_a_string() {
        let doc = fixtures();
        let mut numeric = doc["containers"][1].clone();
        numeric["index"] = serde_json::json!(1);
        let text = numeric.to_string();
        let c = serde_json::from_str::<WireContainer>(&text).unwrap().decode(Verify::default()).unwrap();
        assert_eq!(c.index, 1);
        numeric["index"] = serde_json::json!("x1");
        let text = numeric.to_string();
        let err = serde_json::from_str::<WireContainer>(&text).unwrap().decode(Verify::default()).unwrap_err();
        assert!(matches!(err, ContainerError::Decode(ref m) if m.contains("\"x1\" is not an unsigned")), "{err:?}");
    }
}
