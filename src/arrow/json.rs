//! How JSON fields are typed: a resource is described by a tree of [`Col`]s (each resource's
//! table lives with its service: [`super::data`], [`super::metrics`]), and the rules here read
//! each scalar. The same description types the DataFrame columns (built straight from the JSON
//! text by [`super::json_columns`]) and the Python dicts. Decimal-string integers become
//! `Decimal128(38, 0)` (wei amounts pass 2^64), Unix seconds or milliseconds become
//! `Timestamp(ns, UTC)`, strings `Utf8View`, objects `Struct`, arrays `List`. Every column is
//! nullable (variants share one frame); fields absent from a description are ignored; open enums
//! stay strings.

use std::borrow::Cow;
use std::sync::Arc;

use arrow_schema::{DataType, Field, Fields, TimeUnit};
use serde_json::Value;

/// How one JSON field is typed.
#[derive(Debug, Clone, Copy)]
pub enum Kind {
    /// Text (numbers given as text are kept as their text).
    Str,
    /// `true`/`false`.
    Bool,
    /// A JSON integer.
    Int,
    /// A JSON number (integer or float).
    Float,
    /// A decimal string (or number) as an unsigned 64-bit integer.
    U64Str,
    /// A decimal string (or number) as `Decimal128(38, 0)`.
    Dec,
    /// Unix seconds.
    TsSec,
    /// Unix milliseconds.
    TsMs,
    /// An array of strings.
    StrList,
    /// An object.
    Struct(&'static [Col]),
    /// An array of objects.
    StructList(&'static [Col]),
    /// An array of values of one kind.
    List(&'static Kind),
    /// RFC 3339 text (`2024-05-01T12:00:00Z`) as a UTC timestamp.
    TsText,
    /// Any JSON value, kept as its JSON text as sent (what a schema cannot type).
    Json,
}

/// One named field.
#[derive(Debug, Clone, Copy)]
pub struct Col(pub &'static str, pub Kind);

use Kind::*;

/// The Arrow fields of `cols`.
pub fn fields(cols: &[Col]) -> Fields {
    cols.iter().map(|c| Field::new(c.0, data_type(c.1), true)).collect()
}

/// The Arrow type of a kind.
pub fn data_type(kind: Kind) -> DataType {
    match kind {
        Str | Json => DataType::Utf8View,
        Bool => DataType::Boolean,
        Int => DataType::Int64,
        Float => DataType::Float64,
        U64Str => DataType::UInt64,
        Dec => DataType::Decimal128(38, 0),
        TsSec | TsMs | TsText => DataType::Timestamp(TimeUnit::Nanosecond, Some("UTC".into())),
        StrList => DataType::List(Arc::new(Field::new("item", DataType::Utf8View, true))),
        Struct(cols) => DataType::Struct(fields(cols)),
        StructList(cols) => DataType::List(Arc::new(Field::new("item", DataType::Struct(fields(cols)), true))),
        List(kind) => DataType::List(Arc::new(Field::new("item", data_type(*kind), true))),
    }
}

/// A scalar JSON value as text: a string's content, or a number's text as sent.
#[derive(Debug, Clone)]
pub enum Scalar<'a> {
    /// A JSON string (unescaped).
    Text(Cow<'a, str>),
    /// A JSON number, as written.
    Number(Cow<'a, str>),
    /// Anything else (`true`, an object, ...).
    Other,
}

impl<'a> Scalar<'a> {
    /// The scalar of a parsed value.
    pub fn of_value(v: &'a Value) -> Scalar<'a> {
        match v {
            Value::String(s) => Scalar::Text(Cow::Borrowed(s)),
            Value::Number(n) => Scalar::Number(Cow::Owned(n.to_string())),
            _ => Scalar::Other,
        }
    }

    /// The scalar of a raw JSON value (a string without escapes is borrowed).
    pub fn of_raw(raw: &'a serde_json::value::RawValue) -> Scalar<'a> {
        let text = raw.get();
        match text.as_bytes().first() {
            Some(b'"') => match string_content(text) {
                Some(s) => Scalar::Text(Cow::Borrowed(s)),
                None => serde_json::from_str::<String>(text).map_or(Scalar::Other, |s| Scalar::Text(Cow::Owned(s))),
            },
            Some(b'-' | b'0'..=b'9') => Scalar::Number(Cow::Borrowed(text)),
            _ => Scalar::Other,
        }
    }
}

/// The content of a JSON string written with no escapes, as it stands in the text.
pub fn string_content(text: &str) -> Option<&str> {
    let inner = text.strip_prefix('"')?.strip_suffix('"')?;
    (!inner.contains('\\')).then_some(inner)
}

/// What a timestamp field must hold.
pub const UNIX_TIME: &str = "a Unix time between 1677-09-21 and 2262-04-11";

/// The message of a value that does not fit its column.
pub fn bad(name: &str, v: &Value, what: &str) -> String {
    format!("field {name:?}: {v} is not {what}")
}

/// A decimal string (or JSON integer) as i128; `None` when not an integer in 38 digits.
pub fn parse_decimal(v: &Value) -> Option<i128> {
    decimal_of(&Scalar::of_value(v))
}

/// [`parse_decimal`] of a scalar.
pub fn decimal_of(v: &Scalar) -> Option<i128> {
    match v {
        Scalar::Text(s) => {
            let s = s.trim();
            let digits = s.strip_prefix('-').unwrap_or(s);
            if digits.is_empty() || digits.len() > 38 || !digits.bytes().all(|b| b.is_ascii_digit()) {
                return None;
            }
            s.parse().ok()
        }
        Scalar::Number(n) => n.parse::<i64>().map(i128::from).or_else(|_| n.parse::<u64>().map(i128::from)).ok(),
        Scalar::Other => None,
    }
}

/// A decimal string (or JSON integer) in [0, 2^64).
pub fn u64_of(v: &Scalar) -> Option<u64> {
    match v {
        Scalar::Text(s) => s.trim().parse().ok(),
        Scalar::Number(n) => n.parse().ok(),
        Scalar::Other => None,
    }
}

/// A JSON integer (or a float with no fraction under 9e15, or an integer string).
pub fn i64_of(v: &Scalar) -> Option<i64> {
    match v {
        Scalar::Number(n) => n
            .parse::<i64>()
            .ok()
            .or_else(|| n.parse::<f64>().ok().filter(|f| f.fract() == 0.0 && f.abs() < 9e15).map(|f| f as i64)),
        Scalar::Text(s) => s.trim().parse().ok(),
        Scalar::Other => None,
    }
}

/// A JSON number (or a number string).
pub fn f64_of(v: &Scalar) -> Option<f64> {
    match v {
        Scalar::Number(n) => n.parse().ok(),
        Scalar::Text(s) => s.trim().parse().ok(),
        Scalar::Other => None,
    }
}

/// Nanoseconds since the epoch of a Unix-seconds (`ms = false`) or milliseconds value; `None`
/// when it is not a number or falls outside what nanoseconds in an `i64` hold (1677-09-21 to
/// 2262-04-11), instead of saturating to those dates.
pub fn timestamp_ns(v: &Value, ms: bool) -> Option<i64> {
    // The common case without writing the number out (what the text rule reads as an integer).
    if let Some(i) = v.as_i64() {
        return i.checked_mul(if ms { 1_000_000 } else { 1_000_000_000 });
    }
    timestamp_ns_of(&Scalar::of_value(v), ms)
}

/// What an RFC 3339 timestamp field must hold.
pub const RFC3339_TIME: &str = "an RFC 3339 time between 1677-09-21 and 2262-04-11";

/// Nanoseconds since the epoch of RFC 3339 text (`2024-05-01T12:00:00.5+02:00`); `None` when it
/// is not such a time or falls outside what nanoseconds in an `i64` hold.
pub fn rfc3339_ns(v: &Scalar) -> Option<i64> {
    let Scalar::Text(text) = v else { return None };
    chrono::DateTime::parse_from_rfc3339(text.trim()).ok()?.timestamp_nanos_opt()
}

/// [`timestamp_ns`] of a scalar.
pub fn timestamp_ns_of(v: &Scalar, ms: bool) -> Option<i64> {
    let unit: i64 = if ms { 1_000_000 } else { 1_000_000_000 };
    match v {
        Scalar::Number(n) => match n.parse::<i64>() {
            Ok(i) => i.checked_mul(unit),
            Err(_) => n
                .parse::<f64>()
                .ok()
                .map(|f| f * unit as f64)
                .filter(|ns| ns.is_finite() && ns.abs() < 9.2e18)
                .map(|ns| ns as i64),
        },
        Scalar::Text(s) => s.trim().parse::<i64>().ok().and_then(|i| i.checked_mul(unit)),
        Scalar::Other => None,
    }
}

#[cfg(test)]
mod strict_tests {
    use crate::arrow::{to_batch, Resource};
    use serde_json::json;

    #[test]
    fn out_of_range_timestamps_and_non_objects_are_refused_with_field_and_value() {
        for huge in [json!(1e20), json!(-1e20), json!(9_300_000_000_i64), json!("99999999999999")] {
            let err = to_batch(Resource::Block, &[json!({"blockTimestamp": huge})]).unwrap_err();
            assert!(err.starts_with(&format!("field \"blockTimestamp\": {huge} is not a Unix time")), "{err}");
        }
        assert!(to_batch(Resource::Block, &[json!({"blockTimestamp": 1.7e9})]).is_ok());
        let err = to_batch(Resource::Block, &[json!({"chainId": "1"}), json!(1)]).unwrap_err();
        assert_eq!(err, "item 1: 1 is not a JSON object");
        assert!(to_batch(Resource::Block, &[json!(null)]).unwrap_err().contains("null is not a JSON object"));
    }
}
