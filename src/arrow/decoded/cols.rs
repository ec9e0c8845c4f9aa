//! Small helpers shared by the decoded-column builders: field constructors with the crate's
//! conventions and id/hash text forms.

use std::sync::Arc;

use arrow_array::builder::{Decimal128Builder, TimestampNanosecondBuilder};
use arrow_schema::{DataType, Field, FieldRef, TimeUnit};

use crate::index::cb58;

/// A nullable field.
pub fn field(name: &str, data_type: DataType) -> FieldRef {
    Arc::new(Field::new(name, data_type, true))
}

/// `Timestamp(ns, UTC)`.
pub fn timestamp_type() -> DataType {
    DataType::Timestamp(TimeUnit::Nanosecond, Some("UTC".into()))
}

/// `Decimal128(38, 0)`: lossless integers above 2^64 (wei).
pub fn decimal_type() -> DataType {
    DataType::Decimal128(38, 0)
}

/// A `Decimal128(38, 0)` builder.
pub fn decimal_builder(capacity: usize) -> Decimal128Builder {
    Decimal128Builder::with_capacity(capacity).with_precision_and_scale(38, 0).expect("38 digits, scale 0 is valid")
}

/// A `Timestamp(ns, UTC)` builder.
pub fn timestamp_builder(capacity: usize) -> TimestampNanosecondBuilder {
    TimestampNanosecondBuilder::with_capacity(capacity).with_timezone("UTC")
}

/// Unix seconds as nanoseconds, when representable (checked by the decoders first).
pub fn seconds_to_ns(seconds: i128) -> Option<i64> {
    i64::try_from(seconds.checked_mul(1_000_000_000)?).ok()
}

/// `0x`-prefixed lowercase hex, as the Data API and Ethereum tools write hashes.
pub fn hex0x(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(2 + 2 * bytes.len());
    out.push_str("0x");
    out.push_str(&hex::encode(bytes));
    out
}

/// A CB58 id.
pub fn cb58_id(bytes: &[u8]) -> String {
    cb58::encode(bytes)
}

/// `NodeID-` + CB58 of the 20 bytes.
pub fn node_id(bytes: &[u8; 20]) -> String {
    format!("NodeID-{}", cb58::encode(bytes))
}

/// A `u128` that the decoders checked fits `Decimal128(38, 0)`.
pub fn dec(value: u128) -> i128 {
    i128::try_from(value).unwrap_or(i128::MAX)
}
