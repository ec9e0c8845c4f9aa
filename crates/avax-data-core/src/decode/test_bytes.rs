//! Test-only inputs of the P- and X-Chain decoder tests: a builder of linear-codec bytes, so
//! tests spell their inputs out field by field (big-endian integers, filled IDs) instead of
//! pushing bytes one call a line, and the bytes of a vector file's vectors.

use super::DecodeError;

/// The `hex` of every vector of `tests/data/decode/{file}`, as bytes.
pub(crate) fn vectors(file: &str) -> Vec<Vec<u8>> {
    let path = format!("{}/../../tests/data/decode/{file}", env!("CARGO_MANIFEST_DIR"));
    let doc: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    doc["vectors"].as_array().unwrap().iter().map(|v| hex::decode(v["hex"].as_str().unwrap()).unwrap()).collect()
}

/// Every vector of `tests/data/decode/{file}` through `decode`, which must accept them all.
pub(crate) fn decoded<T>(file: &str, decode: impl Fn(&[u8]) -> Result<T, DecodeError>) -> Vec<T> {
    vectors(file).iter().map(|bytes| decode(bytes).unwrap()).collect()
}

/// Linear-codec bytes under construction; every method appends and hands the builder back.
#[derive(Debug, Default)]
pub(crate) struct Bytes(Vec<u8>);

impl Bytes {
    /// Codec version 0 then the `u32` type ID: the start of a standalone tx or a block.
    pub(crate) fn typed(type_id: u32) -> Self {
        Bytes::default().u16(0).u32(type_id)
    }

    /// One byte.
    pub(crate) fn u8(mut self, v: u8) -> Self {
        self.0.push(v);
        self
    }

    /// Big-endian `u16`.
    pub(crate) fn u16(mut self, v: u16) -> Self {
        self.0.extend(v.to_be_bytes());
        self
    }

    /// Big-endian `u32`.
    pub(crate) fn u32(mut self, v: u32) -> Self {
        self.0.extend(v.to_be_bytes());
        self
    }

    /// Big-endian `u64`.
    pub(crate) fn u64(mut self, v: u64) -> Self {
        self.0.extend(v.to_be_bytes());
        self
    }

    /// `n` copies of `byte` (an ID, an address, zeroed fields).
    pub(crate) fn fill(mut self, byte: u8, n: usize) -> Self {
        self.0.resize(self.0.len() + n, byte);
        self
    }

    /// A string as the codec writes it: `u16` length, then the bytes.
    pub(crate) fn str16(self, s: &str) -> Self {
        let mut b = self.u16(u16::try_from(s.len()).expect("a short test string"));
        b.0.extend(s.as_bytes());
        b
    }

    /// A byte string as the codec writes it: `u32` length, then the bytes.
    pub(crate) fn bytes32(self, bytes: &[u8]) -> Self {
        let mut b = self.u32(u32::try_from(bytes.len()).expect("a short test byte string"));
        b.0.extend(bytes);
        b
    }

    /// The bytes.
    pub(crate) fn build(self) -> Vec<u8> {
        self.0
    }
}
