//! The container model and its decoding from the node's wire form.

use chrono::DateTime;
use serde::Deserialize;

use super::cb58;
use super::IndexPath;
use crate::decode::ids;

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
    /// `0x` + hex(bytes ‖ checksum), taken as bytes: the hex decoder checks every digit, so the
    /// JSON parser need not check the long string as UTF-8 first.
    #[serde(borrow)]
    pub bytes: std::borrow::Cow<'a, [u8]>,
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

/// How strictly containers are checked on arrival. The checksum is always checked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Verify {
    /// Check each id by the rule of its index (`crate::decode::ids`). Off only for chains whose
    /// VMs derive block ids some other way.
    pub ids: bool,
}

impl Default for Verify {
    fn default() -> Self {
        Verify { ids: true }
    }
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

/// What a container's wire form says besides its bytes, once verified.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Verified {
    /// Position in the index.
    pub index: u64,
    /// Acceptance time on the node, nanoseconds since the Unix epoch (UTC).
    pub timestamp_ns: i64,
    /// The id's 32 bytes, decoded from its CB58 text (and checked against the bytes when the
    /// ids are verified): a later container's parent id can be compared with it.
    pub id: [u8; 32],
}

impl WireContainer<'_> {
    /// Decodes, verifies the checksum (and the id by the rule of `path`, if asked) and converts to
    /// a [`Container`]. One sha256 pass serves the checksum and the id.
    pub fn decode(&self, verify: Verify, path: IndexPath) -> Result<Container, ContainerError> {
        let mut bytes = Vec::new();
        let Verified { index, timestamp_ns, .. } = self.decode_into(verify, path, &mut bytes)?;
        Ok(Container { id: self.id.to_string(), bytes, timestamp_ns, index, encoding: "hex".to_string() })
    }

    /// [`decode`](Self::decode) appending the container's bytes to `out` (which many containers
    /// may share) instead of owning them; every check is the same. On an error `out` is left as
    /// it was.
    pub fn decode_into(&self, verify: Verify, path: IndexPath, out: &mut Vec<u8>) -> Result<Verified, ContainerError> {
        let index = self.index.value().map_err(|e| ContainerError::Decode(format!("index: {e}")))?;
        let encoding = self.encoding.as_deref().unwrap_or("hex");
        if encoding != "hex" {
            return Err(ContainerError::Decode(format!(
                "container {index} has encoding {encoding:?}; only \"hex\" is supported"
            )));
        }
        let prefix = |bytes: &[u8]| {
            if verify.ids {
                ids::signed_prefix_len(path, bytes)
            } else {
                None
            }
        };
        let start = out.len();
        let (digest, prefix_digest) = cb58::decode_hex_hashing_into(&self.bytes, prefix, out).map_err(|e| match e {
            cb58::HexError::ChecksumMismatch { .. } => {
                ContainerError::Integrity(format!("container {index} ({}): bytes {e}", self.id))
            }
            other => ContainerError::Decode(format!("container {index} ({}): bytes: {other}", self.id)),
        })?;
        let checked =
            self.check_id(verify, path, index, &out[start..], &digest, prefix_digest.as_ref()).and_then(|id| {
                parse_timestamp_ns(&self.timestamp)
                    .map(|timestamp_ns| (timestamp_ns, id))
                    .map_err(|e| ContainerError::Decode(format!("container {index}: {e}")))
            });
        match checked {
            Ok((timestamp_ns, id)) => Ok(Verified { index, timestamp_ns, id }),
            Err(e) => {
                out.truncate(start);
                Err(e)
            }
        }
    }

    /// Decodes the CB58 id and, if asked, checks it against `bytes` by the rule of `path`;
    /// returns the id's bytes.
    fn check_id(
        &self,
        verify: Verify,
        path: IndexPath,
        index: u64,
        bytes: &[u8],
        digest: &[u8; 32],
        prefix_digest: Option<&[u8; 32]>,
    ) -> Result<[u8; 32], ContainerError> {
        let raw_id = cb58::decode_id(&self.id)
            .map_err(|e| ContainerError::Integrity(format!("container {index}: id {:?} is {e}", self.id)))?;
        if !verify.ids {
            return Ok(raw_id);
        }
        ids::check(path, bytes, &raw_id, digest, prefix_digest).map(|_| raw_id).map_err(|mismatch| {
            let expected = match mismatch.expected {
                Some(id) => format!("expected {}", cb58::encode(&id)),
                None => "the bytes are neither a proposervm envelope nor an RLP block".to_string(),
            };
            ContainerError::Integrity(format!(
                "{path} container {index}: id {} does not match {}: {expected} \
                 (pass verify_ids=False only for chains whose VM derives ids another way)",
                self.id,
                mismatch.rule.describe()
            ))
        })
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
        let text =
            std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures/real_containers.json"))
                .unwrap();
        serde_json::from_str(&text).unwrap()
    }

    #[test]
    fn the_two_real_containers_verify_and_decode() {
        let doc = fixtures();
        for fixture in doc["containers"].as_array().unwrap() {
            let text = fixture.to_string();
            let wire: WireContainer = serde_json::from_str(&text).unwrap();
            let c = wire.decode(Verify::default(), IndexPath::XTx).unwrap();
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

    /// The X-chain container of the JSON `text`, decoded and checked.
    fn decoded(text: &str) -> Result<Container, ContainerError> {
        serde_json::from_str::<WireContainer>(text).unwrap().decode(Verify::default(), IndexPath::XTx)
    }

    #[test]
    fn a_flipped_byte_fails_the_checksum_and_a_wrong_id_fails_the_id_check() {
        let doc = fixtures();
        let fixture = &doc["containers"][1];
        let mut flipped = fixture.clone();
        let bytes = fixture["bytes"].as_str().unwrap();
        let replacement = if &bytes[10..12] == "00" { "01" } else { "00" };
        flipped["bytes"] = format!("{}{}{}", &bytes[..10], replacement, &bytes[12..]).into();
        let err = decoded(&flipped.to_string()).unwrap_err();
        assert!(matches!(err, ContainerError::Integrity(ref m) if m.contains("checksum mismatch")), "{err:?}");

        let mut other_id = fixture.clone();
        other_id["id"] = doc["containers"][0]["id"].clone();
        let text = other_id.to_string();
        let wire = serde_json::from_str::<WireContainer>(&text).unwrap();
        let err = wire.decode(Verify::default(), IndexPath::XTx).unwrap_err();
        assert!(
            matches!(err, ContainerError::Integrity(ref m) if m.contains("does not match sha256(bytes): expected ZGYTSU8w3zUP6VFseGC798vA2Vnxnfj6fz1QPfA9N93bhjJvo")),
            "{err:?}"
        );
        assert!(wire.decode(Verify { ids: false }, IndexPath::XTx).is_ok());
    }

    #[test]
    fn escaped_hex_digits_decode_like_plain_ones_and_other_bytes_are_refused() {
        let doc = fixtures();
        let plain = doc["containers"][1].to_string();
        let expected = decoded(&plain);
        // `\u0030` is `0`: the parser unescapes into its scratch (an owned string)
        let escaped = plain.replacen("\"bytes\":\"0x", "\"bytes\":\"\\u0030x", 1);
        assert_ne!(escaped, plain);
        let wire = serde_json::from_str::<WireContainer>(&escaped).unwrap();
        assert!(matches!(wire.bytes, std::borrow::Cow::Owned(_)));
        assert_eq!(wire.decode(Verify::default(), IndexPath::XTx), expected);
        let accented = plain.replacen("\"bytes\":\"0x", "\"bytes\":\"0xé", 1);
        let err = decoded(&accented).unwrap_err();
        assert!(matches!(err, ContainerError::Decode(ref m) if m.contains("malformed hex")), "{err:?}");
    }

    #[test]
    fn index_may_be_a_number_or_a_string() {
        let doc = fixtures();
        let mut numeric = doc["containers"][1].clone();
        numeric["index"] = serde_json::json!(1);
        let c = decoded(&numeric.to_string()).unwrap();
        assert_eq!(c.index, 1);
        numeric["index"] = serde_json::json!("x1");
        let err = decoded(&numeric.to_string()).unwrap_err();
        assert!(matches!(err, ContainerError::Decode(ref m) if m.contains("\"x1\" is not an unsigned")), "{err:?}");
    }
}
