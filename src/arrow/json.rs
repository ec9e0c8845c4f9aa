//! One JSON -> Arrow builder, driven by a resource's description: a tree of [`Col`]s (each
//! resource's table lives with its service: [`super::data`], [`super::metrics`]). The same
//! description types the DataFrame columns and the Python dicts. Decimal-string integers become
//! `Decimal128(38, 0)` (wei amounts pass 2^64), Unix seconds or milliseconds become
//! `Timestamp(ns, UTC)`, strings `Utf8View`, objects `Struct`, arrays `List`. Every column is
//! nullable (variants share one frame); fields absent from a description are ignored; open enums
//! stay strings.

use std::sync::Arc;

use arrow_array::builder::{
    BooleanBuilder, Decimal128Builder, Float64Builder, Int64Builder, StringViewBuilder, TimestampNanosecondBuilder,
    UInt64Builder,
};
use arrow_array::{ArrayRef, ListArray, RecordBatch, StructArray};
use arrow_buffer::{NullBuffer, OffsetBuffer};
use arrow_schema::{DataType, Field, Fields, SchemaRef, TimeUnit};
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
        Str => DataType::Utf8View,
        Bool => DataType::Boolean,
        Int => DataType::Int64,
        Float => DataType::Float64,
        U64Str => DataType::UInt64,
        Dec => DataType::Decimal128(38, 0),
        TsSec | TsMs => DataType::Timestamp(TimeUnit::Nanosecond, Some("UTC".into())),
        StrList => DataType::List(Arc::new(Field::new("item", DataType::Utf8View, true))),
        Struct(cols) => DataType::Struct(fields(cols)),
        StructList(cols) => DataType::List(Arc::new(Field::new("item", DataType::Struct(fields(cols)), true))),
    }
}

/// Objects described by `cols` as a record batch of `schema` (the schema of [`fields`]`(cols)`).
/// Fails (naming the field and value) on a value that cannot be stored without loss, e.g. a
/// decimal with more than 38 digits, or on an item that is not an object.
pub fn objects_to_batch(cols: &[Col], schema: SchemaRef, items: &[Value]) -> Result<RecordBatch, String> {
    if let Some((k, item)) = items.iter().enumerate().find(|(_, v)| !v.is_object()) {
        return Err(format!(
            "item {k}: {} is not a JSON object",
            crate::transport::snippet(item.to_string().as_bytes())
        ));
    }
    let values: Vec<Option<&Value>> = items.iter().map(Some).collect();
    let columns = cols.iter().map(|c| build(c.0, c.1, &child(&values, c.0))).collect::<Result<Vec<_>, _>>()?;
    RecordBatch::try_new(schema, columns).map_err(|e| e.to_string())
}

fn child<'a>(values: &[Option<&'a Value>], name: &str) -> Vec<Option<&'a Value>> {
    values.iter().map(|v| v.and_then(|o| o.get(name)).filter(|v| !v.is_null())).collect()
}

/// What a timestamp field must hold.
pub const UNIX_TIME: &str = "a Unix time between 1677-09-21 and 2262-04-11";

/// The message of a value that does not fit its column.
pub fn bad(name: &str, v: &Value, what: &str) -> String {
    format!("field {name:?}: {v} is not {what}")
}

/// A decimal string (or JSON integer) as i128; `None` when not an integer in 38 digits.
pub fn parse_decimal(v: &Value) -> Option<i128> {
    match v {
        Value::String(s) => {
            let s = s.trim();
            let digits = s.strip_prefix('-').unwrap_or(s);
            if digits.is_empty() || digits.len() > 38 || !digits.bytes().all(|b| b.is_ascii_digit()) {
                return None;
            }
            s.parse().ok()
        }
        Value::Number(n) => n.as_i64().map(i128::from).or_else(|| n.as_u64().map(i128::from)),
        _ => None,
    }
}

fn parse_u64(v: &Value) -> Option<u64> {
    match v {
        Value::String(s) => s.trim().parse().ok(),
        Value::Number(n) => n.as_u64(),
        _ => None,
    }
}

fn parse_i64(v: &Value) -> Option<i64> {
    match v {
        Value::Number(n) => {
            n.as_i64().or_else(|| n.as_f64().filter(|f| f.fract() == 0.0 && f.abs() < 9e15).map(|f| f as i64))
        }
        Value::String(s) => s.trim().parse().ok(),
        _ => None,
    }
}

fn parse_f64(v: &Value) -> Option<f64> {
    match v {
        Value::Number(n) => n.as_f64(),
        Value::String(s) => s.trim().parse().ok(),
        _ => None,
    }
}

/// Nanoseconds since the epoch of a Unix-seconds (`ms = false`) or milliseconds value; `None`
/// when it is not a number or falls outside what nanoseconds in an `i64` hold (1677-09-21 to
/// 2262-04-11), instead of saturating to those dates.
pub fn timestamp_ns(v: &Value, ms: bool) -> Option<i64> {
    let unit: i64 = if ms { 1_000_000 } else { 1_000_000_000 };
    match v {
        Value::Number(n) => match n.as_i64() {
            Some(i) => i.checked_mul(unit),
            None => {
                n.as_f64().map(|f| f * unit as f64).filter(|ns| ns.is_finite() && ns.abs() < 9.2e18).map(|ns| ns as i64)
            }
        },
        Value::String(s) => s.trim().parse::<i64>().ok().and_then(|i| i.checked_mul(unit)),
        _ => None,
    }
}

fn build(name: &str, kind: Kind, values: &[Option<&Value>]) -> Result<ArrayRef, String> {
    let n = values.len();
    Ok(match kind {
        Str => {
            let mut b = StringViewBuilder::with_capacity(n);
            for v in values {
                match v {
                    None => b.append_null(),
                    Some(Value::String(s)) => b.append_value(s),
                    Some(other) => b.append_value(other.to_string()),
                }
            }
            Arc::new(b.finish())
        }
        Bool => {
            let mut b = BooleanBuilder::with_capacity(n);
            for v in values {
                match v {
                    None => b.append_null(),
                    Some(v) => b.append_value(v.as_bool().ok_or_else(|| bad(name, v, "a boolean"))?),
                }
            }
            Arc::new(b.finish())
        }
        Int => {
            let mut b = Int64Builder::with_capacity(n);
            for v in values {
                b.append_option(v.map(|v| parse_i64(v).ok_or_else(|| bad(name, v, "an integer"))).transpose()?);
            }
            Arc::new(b.finish())
        }
        Float => {
            let mut b = Float64Builder::with_capacity(n);
            for v in values {
                b.append_option(v.map(|v| parse_f64(v).ok_or_else(|| bad(name, v, "a number"))).transpose()?);
            }
            Arc::new(b.finish())
        }
        U64Str => {
            let mut b = UInt64Builder::with_capacity(n);
            for v in values {
                b.append_option(
                    v.map(|v| parse_u64(v).ok_or_else(|| bad(name, v, "an integer in [0, 2^64)"))).transpose()?,
                );
            }
            Arc::new(b.finish())
        }
        Dec => {
            let mut b = Decimal128Builder::with_capacity(n);
            for v in values {
                b.append_option(
                    v.map(|v| parse_decimal(v).ok_or_else(|| bad(name, v, "an integer of at most 38 digits")))
                        .transpose()?,
                );
            }
            Arc::new(b.finish().with_precision_and_scale(38, 0).map_err(|e| e.to_string())?)
        }
        TsSec | TsMs => {
            let mut b = TimestampNanosecondBuilder::with_capacity(n).with_timezone("UTC");
            for v in values {
                b.append_option(
                    v.map(|v| timestamp_ns(v, matches!(kind, TsMs)).ok_or_else(|| bad(name, v, UNIX_TIME)))
                        .transpose()?,
                );
            }
            Arc::new(b.finish())
        }
        Struct(cols) => {
            if let Some(v) = values.iter().flatten().find(|v| !v.is_object()) {
                return Err(bad(name, v, "an object"));
            }
            let columns = cols.iter().map(|c| build(c.0, c.1, &child(values, c.0))).collect::<Result<Vec<_>, _>>()?;
            let nulls = NullBuffer::from(values.iter().map(|v| v.is_some_and(Value::is_object)).collect::<Vec<_>>());
            Arc::new(StructArray::try_new(fields(cols), columns, Some(nulls)).map_err(|e| e.to_string())?)
        }
        StrList | StructList(_) => {
            let mut lengths = Vec::with_capacity(n);
            let mut valid = Vec::with_capacity(n);
            let mut flat: Vec<Option<&Value>> = Vec::new();
            for v in values {
                match v {
                    Some(Value::Array(items)) => {
                        lengths.push(items.len());
                        valid.push(true);
                        flat.extend(items.iter().map(|i| Some(i).filter(|i| !i.is_null())));
                    }
                    None => {
                        lengths.push(0);
                        valid.push(false);
                    }
                    Some(other) => return Err(bad(name, other, "a list")),
                }
            }
            let (item_kind, DataType::List(field)) = (
                match kind {
                    StructList(cols) => Struct(cols),
                    _ => Str,
                },
                data_type(kind),
            ) else {
                unreachable!()
            };
            let items = build(name, item_kind, &flat)?;
            Arc::new(
                ListArray::try_new(field, OffsetBuffer::from_lengths(lengths), items, Some(NullBuffer::from(valid)))
                    .map_err(|e| e.to_string())?,
            )
        }
    })
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
