//! The schema part of a dataset's [`super::manifest::WalkKey`]: a canonical text of an Arrow
//! schema written by this module (field names, data types, nullability, nested fields; never
//! arrow's `Debug` text, which changes between arrow versions), and its sha256. An arrow upgrade
//! then leaves every dataset's key as it was; only a real change of the columns changes it.
//!
//! The text: fields joined by `, `, each `name: type` with ` not null` when it is not nullable;
//! nested types hold their fields in brackets (`list<item: int64>`, `struct<a: utf8, b: int64>`).
//! Names are JSON-quoted when they hold anything but ASCII letters, digits and `_`.

use arrow_schema::{DataType, Field, IntervalUnit, Schema, TimeUnit, UnionMode};
use sha2::{Digest, Sha256};

/// The canonical text of `schema` (see the module docs). Schema and field metadata are not part
/// of it.
pub fn canonical_text(schema: &Schema) -> String {
    fields_text(schema.fields().iter().map(|f| f.as_ref()))
}

/// The sha256 (hex) of [`canonical_text`]: the `schema` of a dataset's walk key.
pub fn digest(schema: &Schema) -> String {
    hex::encode(Sha256::digest(canonical_text(schema).as_bytes()))
}

/// The digest manifests of earlier versions recorded (sha256 of the schema's `Debug` text with
/// the arrow this crate is built with): only to recognise such a manifest as of the same walk
/// ([`super::manifest::WalkKey::legacy_schema`]), never recorded.
pub fn legacy_digest(schema: &Schema) -> String {
    hex::encode(Sha256::digest(format!("{schema:?}").as_bytes()))
}

fn fields_text<'a>(fields: impl Iterator<Item = &'a Field>) -> String {
    fields.map(field_text).collect::<Vec<_>>().join(", ")
}

fn field_text(field: &Field) -> String {
    let nullable = if field.is_nullable() { "" } else { " not null" };
    format!("{}: {}{nullable}", name_text(field.name()), type_text(field.data_type()))
}

fn name_text(name: &str) -> String {
    if !name.is_empty() && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_') {
        name.to_string()
    } else {
        serde_json::Value::String(name.to_string()).to_string()
    }
}

fn unit_text(unit: &TimeUnit) -> &'static str {
    match unit {
        TimeUnit::Second => "s",
        TimeUnit::Millisecond => "ms",
        TimeUnit::Microsecond => "us",
        TimeUnit::Nanosecond => "ns",
    }
}

/// Every arrow type by a name of ours. No catch-all arm: a type a later arrow adds fails to
/// compile here until it is given a name, so no key changes unnoticed.
fn type_text(data_type: &DataType) -> String {
    let plain = |name: &str| name.to_string();
    match data_type {
        DataType::Null => plain("null"),
        DataType::Boolean => plain("bool"),
        DataType::Int8 => plain("int8"),
        DataType::Int16 => plain("int16"),
        DataType::Int32 => plain("int32"),
        DataType::Int64 => plain("int64"),
        DataType::UInt8 => plain("uint8"),
        DataType::UInt16 => plain("uint16"),
        DataType::UInt32 => plain("uint32"),
        DataType::UInt64 => plain("uint64"),
        DataType::Float16 => plain("float16"),
        DataType::Float32 => plain("float32"),
        DataType::Float64 => plain("float64"),
        DataType::Timestamp(unit, None) => format!("timestamp[{}]", unit_text(unit)),
        DataType::Timestamp(unit, Some(zone)) => format!("timestamp[{}, {}]", unit_text(unit), name_text(zone)),
        DataType::Date32 => plain("date32"),
        DataType::Date64 => plain("date64"),
        DataType::Time32(unit) => format!("time32[{}]", unit_text(unit)),
        DataType::Time64(unit) => format!("time64[{}]", unit_text(unit)),
        DataType::Duration(unit) => format!("duration[{}]", unit_text(unit)),
        DataType::Interval(IntervalUnit::YearMonth) => plain("interval[year_month]"),
        DataType::Interval(IntervalUnit::DayTime) => plain("interval[day_time]"),
        DataType::Interval(IntervalUnit::MonthDayNano) => plain("interval[month_day_nano]"),
        DataType::Binary => plain("binary"),
        DataType::FixedSizeBinary(n) => format!("fixed_binary[{n}]"),
        DataType::LargeBinary => plain("large_binary"),
        DataType::BinaryView => plain("binary_view"),
        DataType::Utf8 => plain("utf8"),
        DataType::LargeUtf8 => plain("large_utf8"),
        DataType::Utf8View => plain("utf8_view"),
        DataType::List(item) => format!("list<{}>", field_text(item)),
        DataType::ListView(item) => format!("list_view<{}>", field_text(item)),
        DataType::FixedSizeList(item, n) => format!("fixed_list[{n}]<{}>", field_text(item)),
        DataType::LargeList(item) => format!("large_list<{}>", field_text(item)),
        DataType::LargeListView(item) => format!("large_list_view<{}>", field_text(item)),
        DataType::Struct(fields) => format!("struct<{}>", fields_text(fields.iter().map(|f| f.as_ref()))),
        DataType::Union(fields, mode) => {
            let mode = match mode {
                UnionMode::Sparse => "sparse",
                UnionMode::Dense => "dense",
            };
            let members: Vec<String> = fields.iter().map(|(id, f)| format!("{id}={}", field_text(f))).collect();
            format!("union[{mode}]<{}>", members.join(", "))
        }
        DataType::Dictionary(key, value) => format!("dictionary<{}, {}>", type_text(key), type_text(value)),
        DataType::Decimal32(p, s) => format!("decimal32[{p}, {s}]"),
        DataType::Decimal64(p, s) => format!("decimal64[{p}, {s}]"),
        DataType::Decimal128(p, s) => format!("decimal128[{p}, {s}]"),
        DataType::Decimal256(p, s) => format!("decimal256[{p}, {s}]"),
        DataType::Map(entries, sorted) => {
            format!("map[{}]<{}>", if *sorted { "sorted" } else { "unsorted" }, field_text(entries))
        }
        DataType::RunEndEncoded(ends, values) => {
            format!("run_end_encoded<{}, {}>", field_text(ends), field_text(values))
        }
    }
}

#[cfg(test)]
#[path = "schema_key_tests.rs"]
mod tests;
