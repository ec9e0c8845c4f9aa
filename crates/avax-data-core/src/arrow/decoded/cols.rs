//! Small helpers shared by the decoded-column builders: field constructors with the crate's
//! conventions and id/hash text forms.

use std::sync::Arc;

use arrow_array::builder::{Decimal128Builder, StringViewBuilder, TimestampNanosecondBuilder};
use arrow_schema::{DataType, Field, FieldRef};

pub use super::avax::{decimal_type, hex_text as hex0x, id_text as cb58_id, node_id_text, timestamp_type};

/// Declares a struct of Arrow builders from one list of its columns, each written once as
/// `column: kind` (`column as "name": kind` when the name is not an identifier), the kind one
/// of `u8`, `u32`, `u64`, `text` (UTF-8 views), `hex32` and `hex20` (UTF-8 views of `0x` + hex
/// of 32- and 20-byte values, [`super::hex_column::HexColumn`]), `binary` (binary views), `decimal`
/// (`Decimal128(38, 0)`) and `timestamp` (ns, UTC): the struct, `fields` (nullable, named after
/// the columns), `with_capacity` and `finish` (the columns in the list's order; the builders
/// are left empty) all follow that list.
macro_rules! builders {
    (@name $col:ident) => { stringify!($col) };
    (@name $col:ident $name:literal) => { $name };
    (@builder u8) => { arrow_array::builder::UInt8Builder };
    (@builder u32) => { arrow_array::builder::UInt32Builder };
    (@builder u64) => { arrow_array::builder::UInt64Builder };
    (@builder text) => { arrow_array::builder::StringViewBuilder };
    (@builder hex32) => { $crate::arrow::decoded::hex_column::HexColumn<32> };
    (@builder hex20) => { $crate::arrow::decoded::hex_column::HexColumn<20> };
    (@builder binary) => { arrow_array::builder::BinaryViewBuilder };
    (@builder decimal) => { arrow_array::builder::Decimal128Builder };
    (@builder timestamp) => { arrow_array::builder::TimestampNanosecondBuilder };
    (@new decimal $n:expr) => { $crate::arrow::decoded::cols::decimal_builder($n) };
    (@new timestamp $n:expr) => { $crate::arrow::decoded::cols::timestamp_builder($n) };
    (@new hex32 $n:expr) => { $crate::arrow::decoded::hex_column::HexColumn::<32>::with_capacity($n) };
    (@new hex20 $n:expr) => { $crate::arrow::decoded::hex_column::HexColumn::<20>::with_capacity($n) };
    (@new $kind:ident $n:expr) => { <$crate::arrow::decoded::cols::builders!(@builder $kind)>::with_capacity($n) };
    (@type u8) => { arrow_schema::DataType::UInt8 };
    (@type u32) => { arrow_schema::DataType::UInt32 };
    (@type u64) => { arrow_schema::DataType::UInt64 };
    (@type text) => { arrow_schema::DataType::Utf8View };
    (@type hex32) => { arrow_schema::DataType::Utf8View };
    (@type hex20) => { arrow_schema::DataType::Utf8View };
    (@type binary) => { arrow_schema::DataType::BinaryView };
    (@type decimal) => { $crate::arrow::decoded::cols::decimal_type() };
    (@type timestamp) => { $crate::arrow::decoded::cols::timestamp_type() };
    ($(#[$meta:meta])* struct $name:ident { $($col:ident $(as $label:literal)?: $kind:ident),* $(,)? }) => {
        $(#[$meta])*
        struct $name {
            $($col: $crate::arrow::decoded::cols::builders!(@builder $kind),)*
        }

        impl $name {
            /// The fields, in column order.
            fn fields() -> Vec<arrow_schema::FieldRef> {
                vec![$($crate::arrow::decoded::cols::field(
                    $crate::arrow::decoded::cols::builders!(@name $col $($label)?),
                    $crate::arrow::decoded::cols::builders!(@type $kind),
                )),*]
            }

            /// Builders for `capacity` rows.
            fn with_capacity(capacity: usize) -> Self {
                $name { $($col: $crate::arrow::decoded::cols::builders!(@new $kind capacity),)* }
            }

            /// The finished columns, in order.
            fn finish(&mut self) -> Vec<arrow_array::ArrayRef> {
                vec![$(std::sync::Arc::new(self.$col.finish()) as arrow_array::ArrayRef),*]
            }
        }
    };
}
pub(crate) use builders;

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

/// Appends the CB58 text of an id (or a null) without allocating: the text is written through
/// a stack buffer.
pub fn append_cb58(builder: &mut StringViewBuilder, bytes: Option<&[u8]>) {
    let Some(bytes) = bytes else {
        builder.append_null();
        return;
    };
    // A 32-byte id and its 4-byte checksum take at most 50 base58 digits.
    let mut buf = [0u8; 96];
    match bs58::encode(bytes).as_cb58(None).onto(&mut buf[..]) {
        Ok(n) => builder.append_value(std::str::from_utf8(&buf[..n]).expect("base58 is ASCII")),
        Err(_) => builder.append_value(cb58_id(bytes)),
    }
}

#[cfg(test)]
mod tests {
    use arrow_array::Array;

    use super::*;

    #[test]
    fn cb58_texts_written_through_the_stack_equal_the_allocated_ones() {
        let id = [0xabu8; 32];
        let long = [7u8; 80];
        let mut b = StringViewBuilder::new();
        append_cb58(&mut b, Some(&id));
        append_cb58(&mut b, None);
        append_cb58(&mut b, Some(&[]));
        append_cb58(&mut b, Some(&long));
        let a = b.finish();
        assert_eq!(a.value(0), cb58_id(&id));
        assert!(a.is_null(1));
        assert_eq!(a.value(2), cb58_id(&[]));
        assert_eq!(a.value(3), cb58_id(&long), "longer than the stack buffer: the allocating path");
    }
}
