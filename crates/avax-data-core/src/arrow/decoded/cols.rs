//! Small helpers shared by the decoded-column builders: field constructors with the crate's
//! conventions and id/hash text forms.

use std::sync::Arc;

use arrow_array::builder::{Decimal128Builder, StringViewBuilder, TimestampNanosecondBuilder};
use arrow_schema::{DataType, Field, FieldRef};

pub use super::avax::{decimal_type, hex_text as hex0x, id_text as cb58_id, node_id_text, timestamp_type};

/// A nullable field.
pub fn field(name: &str, data_type: DataType) -> FieldRef {
    Arc::new(Field::new(name, data_type, true))
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

/// A `u128` that the decoders checked fits `Decimal128(38, 0)`.
pub fn dec(value: u128) -> i128 {
    i128::try_from(value).unwrap_or(i128::MAX)
}

/// Appends `0x` + hex of `bytes` (or a null) without allocating: hashes and addresses are
/// written through a stack buffer.
pub fn append_hex0x(builder: &mut StringViewBuilder, bytes: Option<&[u8]>) {
    let Some(bytes) = bytes else {
        builder.append_null();
        return;
    };
    let mut buf = [0u8; 2 + 2 * 32];
    let n = 2 + 2 * bytes.len();
    if n > buf.len() {
        builder.append_value(hex0x(bytes));
        return;
    }
    buf[..2].copy_from_slice(b"0x");
    hex::encode_to_slice(bytes, &mut buf[2..n]).expect("the buffer fits the hex");
    builder.append_value(std::str::from_utf8(&buf[..n]).expect("hex is ASCII"));
}
