//! Containers written straight into the response buffer, byte for byte as the node's
//! `FormattedContainer` marshals: `{"id":..,"bytes":"0x..","timestamp":..,"encoding":"hex","index":"41"}`.

use avax_data_core::index::cb58;
use avax_data_core::index::IndexPath;

use super::formats::{self, Source};
use super::timefmt;

/// The node's `formatting.Encoding` values (parsed case-insensitively from requests).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) enum Encoding {
    /// `hex`: `0x` + hex(bytes ‖ checksum). The default when a request names none.
    #[default]
    Hex,
    /// `hexnc`: hex without the checksum.
    HexNc,
    /// `hexc`: the same bytes as `hex`, reported as `hexc`.
    HexC,
    /// `json`: accepted by the argument parser, refused when a container is formatted.
    Json,
}

impl Encoding {
    /// Go's `Encoding.UnmarshalJSON` on the raw JSON value (`None` for `null`: keep the default).
    pub(crate) fn from_raw_json(raw: &[u8]) -> Result<Option<Encoding>, ()> {
        if raw == b"null" {
            return Ok(None);
        }
        match raw.to_ascii_lowercase().as_slice() {
            b"\"hex\"" => Ok(Some(Encoding::Hex)),
            b"\"hexnc\"" => Ok(Some(Encoding::HexNc)),
            b"\"hexc\"" => Ok(Some(Encoding::HexC)),
            b"\"json\"" => Ok(Some(Encoding::Json)),
            _ => Err(()),
        }
    }

    fn name(self) -> &'static str {
        match self {
            Encoding::Hex => "hex",
            Encoding::HexNc => "hexnc",
            Encoding::HexC => "hexc",
            Encoding::Json => "json",
        }
    }

    /// The node's error when it cannot format container bytes in this encoding.
    pub(crate) fn check(self) -> Result<(), String> {
        match self {
            Encoding::Json => Err("unsupported encoding in method".to_string()),
            _ => Ok(()),
        }
    }
}

fn push_hex(out: &mut Vec<u8>, bytes: &[u8]) {
    let start = out.len();
    out.resize(start + 2 * bytes.len(), 0);
    hex::encode_to_slice(bytes, &mut out[start..]).expect("the slice holds two digits per byte");
}

/// Upper bound of the JSON size of one container of `len` bytes.
pub(crate) fn json_size_hint(len: usize) -> usize {
    2 * len + 200
}

/// Reusable buffers for writing many containers.
#[derive(Default)]
pub(crate) struct Scratch {
    bytes: Vec<u8>,
    text: String,
}

/// Appends container `index` of `path` as the node's JSON object and returns its raw id.
/// `encoding` must have passed [`Encoding::check`]. Blocks come from the cache of built
/// containers ([`formats::served`]: bytes, checksum and CB58 id computed once); the others are
/// made into `scratch`.
pub(crate) fn push_container(
    out: &mut Vec<u8>,
    scratch: &mut Scratch,
    source: Source,
    path: IndexPath,
    index: u64,
    encoding: Encoding,
    utc_offset_minutes: i32,
) -> [u8; 32] {
    let timestamp_ns = formats::timestamp_ns(source, path, index);
    if let Some(served) = formats::served(source, path, index) {
        let entry = served.entry();
        let parts = Parts { id_text: &entry.id_text, bytes: &entry.bytes, checksum: &entry.checksum };
        write_object(out, &mut scratch.text, &parts, timestamp_ns, encoding, index, utc_offset_minutes);
        return entry.ids.1;
    }
    let raw_id = formats::fill(source, path, index, &mut scratch.bytes);
    let checksum = if matches!(path, IndexPath::XTx | IndexPath::XVtx) {
        // checksum(bytes) = last four bytes of sha256(bytes) = of the raw id.
        raw_id[32 - cb58::CHECKSUM_LEN..].try_into().expect("four bytes")
    } else {
        // A block's id (coreth hash, proposervm id) is not the sha256 of its bytes.
        cb58::checksum(&scratch.bytes)
    };
    let id_text = cb58::encode(&raw_id);
    let parts = Parts { id_text: &id_text, bytes: &scratch.bytes, checksum: &checksum };
    write_object(out, &mut scratch.text, &parts, timestamp_ns, encoding, index, utc_offset_minutes);
    raw_id
}

/// What a container's JSON object is written from besides its index and timestamp.
struct Parts<'a> {
    id_text: &'a str,
    bytes: &'a [u8],
    checksum: &'a [u8; cb58::CHECKSUM_LEN],
}

fn write_object(
    out: &mut Vec<u8>,
    text: &mut String,
    parts: &Parts<'_>,
    timestamp_ns: i64,
    encoding: Encoding,
    index: u64,
    utc_offset_minutes: i32,
) {
    out.reserve(json_size_hint(parts.bytes.len()));
    out.extend_from_slice(b"{\"id\":\"");
    out.extend_from_slice(parts.id_text.as_bytes());
    out.extend_from_slice(b"\",\"bytes\":\"0x");
    push_hex(out, parts.bytes);
    if encoding != Encoding::HexNc {
        push_hex(out, parts.checksum);
    }
    out.extend_from_slice(b"\",\"timestamp\":\"");
    text.clear();
    timefmt::push_rfc3339_nano(text, timestamp_ns, utc_offset_minutes);
    out.extend_from_slice(text.as_bytes());
    out.extend_from_slice(b"\",\"encoding\":\"");
    out.extend_from_slice(encoding.name().as_bytes());
    out.extend_from_slice(b"\",\"index\":\"");
    out.extend_from_slice(index.to_string().as_bytes());
    out.extend_from_slice(b"\"}");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn written_json_equals_the_model_wire_json() {
        let mut scratch = Scratch::default();
        for path in IndexPath::ALL {
            for index in [0u64, 1, 77, 123_456] {
                let mut out = Vec::new();
                push_container(
                    &mut out,
                    &mut scratch,
                    Source::new(11, formats::DEFAULT_DATA_BLOCKS),
                    path,
                    index,
                    Encoding::Hex,
                    -420,
                );
                let written: serde_json::Value = serde_json::from_slice(&out).unwrap();
                let (c, ts) = formats::container(11, path, index, -420);
                assert_eq!(written, c.to_wire_json(&ts));
                // Field order as the node marshals it.
                let text = String::from_utf8(out).unwrap();
                let order: Vec<usize> = ["\"id\"", "\"bytes\"", "\"timestamp\"", "\"encoding\"", "\"index\""]
                    .iter()
                    .map(|k| text.find(k).unwrap())
                    .collect();
                assert!(order.windows(2).all(|w| w[0] < w[1]), "{text}");
            }
        }
    }

    #[test]
    fn hexnc_drops_the_checksum() {
        let mut scratch = Scratch::default();
        let mut out = Vec::new();
        push_container(
            &mut out,
            &mut scratch,
            Source::new(1, formats::DEFAULT_DATA_BLOCKS),
            IndexPath::XTx,
            3,
            Encoding::HexNc,
            0,
        );
        let v: serde_json::Value = serde_json::from_slice(&out).unwrap();
        let (c, _) = formats::container(1, IndexPath::XTx, 3, 0);
        assert_eq!(v["bytes"], format!("0x{}", hex::encode(&c.bytes)));
        assert_eq!(v["encoding"], "hexnc");
    }

    #[test]
    fn encodings_parse_like_go() {
        assert_eq!(Encoding::from_raw_json(b"\"HeX\""), Ok(Some(Encoding::Hex)));
        assert_eq!(Encoding::from_raw_json(b"null"), Ok(None));
        assert_eq!(Encoding::from_raw_json(b"\"cb58\""), Err(()));
        assert_eq!(Encoding::from_raw_json(b"1"), Err(()));
        assert!(Encoding::Json.check().is_err());
    }
}
