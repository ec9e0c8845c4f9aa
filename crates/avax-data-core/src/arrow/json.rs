//! How JSON fields are typed: a resource is described by a tree of [`Col`]s (each resource's
//! table lives with its service: [`super::data`], [`super::metrics`]), and the rules here read
//! each scalar. The same description types the DataFrame columns (built straight from the JSON
//! text by [`super::json_columns`]) and the Python dicts. Decimal-string integers become
//! `Decimal128(38, 0)` (wei amounts pass 2^64), uint256 token amounts their exact decimal text
//! beside a `Float64` companion, Unix seconds or milliseconds become
//! `Timestamp(ns, UTC)`, strings `Utf8View`, objects `Struct`, arrays `List`. Every column is
//! nullable (variants share one frame); fields absent from a description go to the item's
//! `extra` column ([`Kind::Extra`]); open enums stay strings.

use std::borrow::Cow;
use std::sync::Arc;

use arrow_schema::{DataType, Field, Fields, TimeUnit};
use serde_json::value::RawValue;

use crate::exact::{self, Exact, Number};

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
    /// A uint256 (token amounts and ids): its canonical decimal text, exact at any size
    /// (`Utf8View`; [`u256_of`]).
    U256,
    /// The `Float64` companion of the [`U256`](Kind::U256) column just before it: the nearest
    /// float of the same value (for sums, means, sorts), read from that column's field.
    U256Float,
    /// Unix seconds.
    TsSec,
    /// Unix milliseconds.
    TsMs,
    /// A Unix time whose unit the documents do not give (`createdAt` of the webhook answers):
    /// seconds or milliseconds, told apart by size ([`unix_time_ns_of`]).
    TsUnix,
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
    /// The fields of the item the description does not name, at any depth: one JSON object
    /// of their JSON Pointers (`/erc20Token/newField`) and values as sent, or null when there
    /// are none. The last column of a list item's frame.
    Extra,
}

/// One named field.
#[derive(Debug, Clone, Copy)]
pub struct Col(pub &'static str, pub Kind);

/// The column of the fields a frame's description does not name ([`Kind::Extra`]).
pub const EXTRA: Col = Col("extra", Kind::Extra);

use Kind::*;

/// The Arrow fields of `cols`.
pub fn fields(cols: &[Col]) -> Fields {
    cols.iter().map(|c| Field::new(c.0, data_type(c.1), true)).collect()
}

/// The Arrow type of a kind.
pub fn data_type(kind: Kind) -> DataType {
    match kind {
        Str | Json | Extra => DataType::Utf8View,
        Bool => DataType::Boolean,
        Int => DataType::Int64,
        Float | U256Float => DataType::Float64,
        U256 => DataType::Utf8View,
        U64Str => DataType::UInt64,
        Dec => DataType::Decimal128(38, 0),
        TsSec | TsMs | TsUnix | TsText => DataType::Timestamp(TimeUnit::Nanosecond, Some("UTC".into())),
        StrList => DataType::List(Arc::new(Field::new("item", DataType::Utf8View, true))),
        Struct(cols) => DataType::Struct(fields(cols)),
        StructList(cols) => DataType::List(Arc::new(Field::new("item", DataType::Struct(fields(cols)), true))),
        List(kind) => DataType::List(Arc::new(Field::new("item", data_type(*kind), true))),
    }
}

/// A scalar JSON value: a string's content, or a number read by the one rule
/// ([`crate::exact::number`]).
#[derive(Debug, Clone)]
pub enum Scalar<'a> {
    /// A JSON string (unescaped).
    Text(Cow<'a, str>),
    /// A JSON number.
    Number(Number<'a>),
    /// Anything else (`true`, an object, ...).
    Other,
}

impl<'a> Scalar<'a> {
    /// The scalar of an exact value.
    pub fn of_exact(v: &'a Exact) -> Scalar<'a> {
        match v {
            Exact::Str(s) => Scalar::Text(Cow::Borrowed(s)),
            _ => v.as_number().map_or(Scalar::Other, Scalar::Number),
        }
    }

    /// The scalar of a raw JSON value (a string without escapes is borrowed). A number past
    /// `f64` or a string with a lone surrogate is an error saying so (the rule of
    /// [`crate::exact`]).
    pub fn of_raw(raw: &'a RawValue) -> Result<Scalar<'a>, String> {
        let text = raw.get();
        Ok(match text.as_bytes().first() {
            Some(b'"') => Scalar::Text(exact::string(text)?),
            Some(b'-' | b'0'..=b'9') => Scalar::Number(exact::number(text)?),
            _ => Scalar::Other,
        })
    }
}

/// What a timestamp field must hold.
pub const UNIX_TIME: &str = "a Unix time between 1677-09-21 and 2262-04-11";

/// The message of a value that does not fit its column (`shown`: the value as JSON text).
pub fn bad(name: &str, shown: impl std::fmt::Display, what: &str) -> String {
    format!("field {name:?}: {shown} is not {what}")
}

/// What a `Dec` field must hold (the refusal of [`decimal_of`], in frames and dicts alike).
pub const DECIMAL_38: &str = "an integer of at most 38 digits";

/// What a `U256` field must hold (the refusal of [`u256_of`], in frames and dicts alike).
pub const U256_RANGE: &str = "an integer in [0, 2^256)";

/// The decimal digits of 2^256 - 1, the largest uint256.
pub const U256_MAX: &str = "115792089237316195423570985008687907853269984665640564039457584007913129639935";

/// A decimal string or JSON integer in [0, 2^256) (the rule of [`decimal_digits`]) as its
/// canonical decimal text: no sign, no leading zeros (`"0"` for zero).
pub fn u256_of<'a>(v: &'a Scalar) -> Option<Cow<'a, str>> {
    let of_digits = |text: &'a str| -> Option<Cow<'a, str>> {
        match decimal_digits(text)? {
            (true, _) => None,
            (false, "") => Some(Cow::Borrowed("0")),
            (false, d) if d.len() < U256_MAX.len() || (d.len() == U256_MAX.len() && d <= U256_MAX) => {
                Some(Cow::Borrowed(d))
            }
            (false, _) => None,
        }
    };
    match v {
        Scalar::Text(s) => of_digits(s),
        Scalar::Number(Number::Int(i)) => u64::try_from(*i).ok().map(|u| Cow::Owned(u.to_string())),
        Scalar::Number(Number::UInt(u)) => Some(Cow::Owned(u.to_string())),
        Scalar::Number(Number::Big(d)) => of_digits(d),
        Scalar::Number(Number::Float(_)) | Scalar::Other => None,
    }
}

/// The nearest `f64` of a uint256 read by [`u256_of`] (correctly rounded; 2^256 - 1 is
/// 1.157920892373162e77).
pub fn u256_f64_of(v: &Scalar) -> Option<f64> {
    u256_of(v)?.parse::<f64>().ok()
}

/// What a `U64Str` field must hold (the refusal of [`u64_of`], in frames and dicts alike).
pub const U64_RANGE: &str = "an integer in [0, 2^64)";

/// The one reading of decimal digits, for every path that reads an integer amount (the frame's
/// columns through [`decimal_of`] and [`u64_of`], the dicts of the bindings through the same):
/// an optional `-`, then one or more ASCII digits, with JSON whitespace (space, tab, CR, LF)
/// around them. Leading zeros are allowed and do not count as digits (`007` is 7), `-0` is 0.
/// Refused: `+5`, an empty or blank text, a lone `-`, any other character (`1_000`, `1.0`,
/// `1e3`, `0x10`). Returns whether the value is negative (never for zero) and its significant
/// digits (empty for zero).
pub fn decimal_digits(text: &str) -> Option<(bool, &str)> {
    let text = text.trim_matches(|c| matches!(c, ' ' | '\t' | '\n' | '\r'));
    let (negative, digits) = match text.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, text),
    };
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let significant = digits.trim_start_matches('0');
    Some((negative && !significant.is_empty(), significant))
}

/// A decimal string or JSON integer of at most 38 significant digits (the rule of
/// [`decimal_digits`]) as i128.
pub fn decimal_of(v: &Scalar) -> Option<i128> {
    let of_digits = |text: &str| -> Option<i128> {
        let (negative, digits) = decimal_digits(text)?;
        // Up to 18 digits fit an i64, whose parse is about twice as fast as an i128's.
        let magnitude = match digits.len() {
            0 => 0,
            1..=18 => i128::from(digits.parse::<i64>().ok()?),
            19..=38 => digits.parse::<i128>().ok()?,
            _ => return None,
        };
        Some(if negative { -magnitude } else { magnitude })
    };
    match v {
        Scalar::Text(s) => of_digits(s),
        Scalar::Number(Number::Int(i)) => Some(i128::from(*i)),
        Scalar::Number(Number::UInt(u)) => Some(i128::from(*u)),
        Scalar::Number(Number::Big(d)) => of_digits(d),
        Scalar::Number(Number::Float(_)) | Scalar::Other => None,
    }
}

/// A decimal string or JSON integer in [0, 2^64) (the rule of [`decimal_digits`]: `-0` is 0,
/// `+5` is refused), or a float with no fraction below 9e15 (`18.0`).
pub fn u64_of(v: &Scalar) -> Option<u64> {
    let of_digits = |text: &str| -> Option<u64> {
        match decimal_digits(text)? {
            (true, _) => None,
            (false, "") => Some(0),
            (false, digits) => digits.parse().ok(),
        }
    };
    match v {
        Scalar::Text(s) => of_digits(s),
        Scalar::Number(Number::Int(i)) => u64::try_from(*i).ok(),
        Scalar::Number(Number::UInt(u)) => Some(*u),
        Scalar::Number(Number::Big(d)) => of_digits(d),
        // `18.0`: an integer sent as a float (the documents type integers as `number`).
        Scalar::Number(Number::Float(f)) => {
            Some(*f).filter(|f| f.fract() == 0.0 && (0.0..9e15).contains(f)).map(|f| f as u64)
        }
        Scalar::Other => None,
    }
}

/// A JSON integer that fits an `i64` (or a float with no fraction under 9e15, or an integer
/// string).
pub fn i64_of(v: &Scalar) -> Option<i64> {
    match v {
        Scalar::Number(Number::Int(i)) => Some(*i),
        Scalar::Number(Number::Float(f)) => Some(*f).filter(|f| f.fract() == 0.0 && f.abs() < 9e15).map(|f| f as i64),
        Scalar::Text(s) => s.trim().parse().ok(),
        Scalar::Number(_) | Scalar::Other => None,
    }
}

/// A JSON number as an `f64`: a float, or an integer an `f64` holds exactly (2^53 + 1 is not
/// one); or a string of a finite number.
pub fn f64_of(v: &Scalar) -> Option<f64> {
    let exact_int = |i: i128| Some(i as f64).filter(|f| *f as i128 == i);
    match v {
        Scalar::Number(Number::Float(f)) => Some(*f),
        Scalar::Number(Number::Int(i)) => exact_int(i128::from(*i)),
        Scalar::Number(Number::UInt(u)) => exact_int(i128::from(*u)),
        Scalar::Number(Number::Big(d)) => d.parse::<f64>().ok().filter(|f| f.is_finite() && format!("{f:.0}") == **d),
        Scalar::Text(s) => s.trim().parse::<f64>().ok().filter(|f| f.is_finite()),
        Scalar::Other => None,
    }
}

/// Nanoseconds since the epoch of a Unix-seconds (`ms = false`) or milliseconds value; `None`
/// when it is not a number or falls outside what nanoseconds in an `i64` hold (1677-09-21 to
/// 2262-04-11), instead of saturating to those dates.
pub fn timestamp_ns(v: &Exact, ms: bool) -> Option<i64> {
    timestamp_ns_of(&Scalar::of_exact(v), ms)
}

/// What an RFC 3339 timestamp field must hold.
pub const RFC3339_TIME: &str = "an RFC 3339 time between 1677-09-21 and 2262-04-11";

/// Nanoseconds since the epoch of RFC 3339 text (`2024-05-01T12:00:00.5+02:00`); `None` when it
/// is not such a time or falls outside what nanoseconds in an `i64` hold.
pub fn rfc3339_ns(v: &Scalar) -> Option<i64> {
    let Scalar::Text(text) = v else { return None };
    chrono::DateTime::parse_from_rfc3339(text.trim()).ok()?.timestamp_nanos_opt()
}

/// The smallest magnitude [`unix_time_ns_of`] reads as milliseconds: 10^11 seconds is the year
/// 5138, 10^11 milliseconds 1973-03-03, so every time from 1973 to 2262 (the end of what
/// nanoseconds in an `i64` hold) reads right in either unit.
pub const MILLIS_FROM: u64 = 100_000_000_000;

/// Nanoseconds since the epoch of a Unix time in seconds or milliseconds, told apart by size:
/// a magnitude of [`MILLIS_FROM`] or more is milliseconds. For a field whose documents do not
/// give its unit; `None` as [`timestamp_ns_of`].
pub fn unix_time_ns_of(v: &Scalar) -> Option<i64> {
    let ms = match v {
        Scalar::Number(Number::Int(i)) => i.unsigned_abs() >= MILLIS_FROM,
        Scalar::Number(Number::Float(f)) => f.abs() >= MILLIS_FROM as f64,
        Scalar::Text(s) => s.trim().parse::<i64>().ok()?.unsigned_abs() >= MILLIS_FROM,
        Scalar::Number(_) | Scalar::Other => return None,
    };
    timestamp_ns_of(v, ms)
}

/// How a Unix-time kind reads a scalar as nanoseconds (`None` for any other kind): the one
/// reading of frames and dicts.
pub fn unix_reader(kind: Kind) -> Option<fn(&Scalar) -> Option<i64>> {
    fn seconds(v: &Scalar) -> Option<i64> {
        timestamp_ns_of(v, false)
    }
    fn millis(v: &Scalar) -> Option<i64> {
        timestamp_ns_of(v, true)
    }
    let read: fn(&Scalar) -> Option<i64> = match kind {
        TsSec => seconds,
        TsMs => millis,
        TsUnix => unix_time_ns_of,
        _ => return None,
    };
    Some(read)
}

/// [`timestamp_ns`] of a scalar.
pub fn timestamp_ns_of(v: &Scalar, ms: bool) -> Option<i64> {
    let unit: i64 = if ms { 1_000_000 } else { 1_000_000_000 };
    match v {
        Scalar::Number(Number::Int(i)) => i.checked_mul(unit),
        Scalar::Number(Number::Float(f)) => {
            Some(f * unit as f64).filter(|ns| ns.is_finite() && ns.abs() < 9.2e18).map(|ns| ns as i64)
        }
        Scalar::Text(s) => s.trim().parse::<i64>().ok().and_then(|i| i.checked_mul(unit)),
        Scalar::Number(_) | Scalar::Other => None,
    }
}

#[cfg(test)]
mod strict_tests {
    use crate::arrow::{to_batch, Resource};
    use serde_json::json;

    #[test]
    fn decimal_text_reads_the_same_on_both_sides_of_the_i64_fast_path() {
        use super::{decimal_of, Scalar};
        use std::borrow::Cow;
        let nines = |n: usize| "9".repeat(n);
        let texts = [
            nines(17),
            nines(18),
            nines(19),
            format!("-{}", nines(17)),
            format!("-{}", nines(18)),
            "9223372036854775807".into(),
            "9223372036854775808".into(),
            "-9223372036854775808".into(),
            "000000000000000042".into(),
            "-0".into(),
            " 25000000000 ".into(),
            nines(38),
        ];
        for text in texts {
            let want: i128 = text.trim().parse().unwrap();
            assert_eq!(decimal_of(&Scalar::Text(Cow::Borrowed(&text))), Some(want), "{text:?}");
        }
        for refused in ["", "-", "+5", "1_000", "12a", "--1", "1.0"] {
            assert_eq!(decimal_of(&Scalar::Text(Cow::Borrowed(refused))), None, "{refused:?}");
        }
        assert_eq!(decimal_of(&Scalar::Text(Cow::Owned(nines(39)))), None);
    }

    #[test]
    fn one_rule_reads_the_digits_of_both_integer_kinds() {
        use super::{decimal_of, u64_of, Scalar};
        use crate::exact::Number;
        use std::borrow::Cow;
        let text = |s: &str| Scalar::Text(Cow::Owned(s.to_string()));
        let forty = format!("1{}", "0".repeat(39));
        let zeros = format!("{}42", "0".repeat(60));
        // (text, as Decimal128(38, 0), as UInt64)
        let table: Vec<(String, Option<i128>, Option<u64>)> = vec![
            ("5".into(), Some(5), Some(5)),
            ("+5".into(), None, None),
            ("007".into(), Some(7), Some(7)),
            (zeros.clone(), Some(42), Some(42)),
            ("-0".into(), Some(0), Some(0)),
            ("-000".into(), Some(0), Some(0)),
            ("-5".into(), Some(-5), None),
            ("".into(), None, None),
            (" ".into(), None, None),
            (" 12\t".into(), Some(12), Some(12)),
            ("\u{a0}12".into(), None, None),
            ("-".into(), None, None),
            ("1e3".into(), None, None),
            ("0x10".into(), None, None),
            ("18446744073709551615".into(), Some(18446744073709551615), Some(u64::MAX)),
            ("18446744073709551616".into(), Some(18446744073709551616), None),
            ("9".repeat(38), Some("9".repeat(38).parse().unwrap()), None),
            ("9".repeat(39), None, None),
            (forty.clone(), None, None),
        ];
        for (t, dec, u64) in &table {
            assert_eq!(decimal_of(&text(t)), *dec, "{t:?} as a decimal");
            assert_eq!(u64_of(&text(t)), *u64, "{t:?} as a u64");
        }
        // a JSON number past 64 bits is read by the same rule as its text
        let big = |d: &str| Scalar::Number(Number::Big(Cow::Owned(d.to_string())));
        assert_eq!(decimal_of(&big("18446744073709551616")), Some(18446744073709551616));
        assert_eq!(u64_of(&big("18446744073709551616")), None);
        assert_eq!(decimal_of(&big(&forty)), None);
        assert_eq!(decimal_of(&big(&format!("-{}", "9".repeat(38)))), Some(-"9".repeat(38).parse::<i128>().unwrap()));
    }

    #[test]
    fn a_time_of_no_stated_unit_reads_as_seconds_or_milliseconds_by_size() {
        use super::{unix_time_ns_of, Scalar};
        use crate::exact::Number;
        use std::borrow::Cow;
        let int = |i: i64| unix_time_ns_of(&Scalar::Number(Number::Int(i)));
        let at = 1_715_621_587_i64; // 2024-05-13T17:33:07Z
        assert_eq!(int(at), Some(at * 1_000_000_000));
        assert_eq!(int(at * 1000 + 726), Some(at * 1_000_000_000 + 726_000_000));
        // The largest count read as seconds is past what nanoseconds hold (2262): refused, not misread.
        assert_eq!(int(99_999_999_999), None, "the year 5138 in seconds");
        assert_eq!(int(9_000_000_000), Some(9_000_000_000 * 1_000_000_000), "2255-03-14 in seconds");
        assert_eq!(int(100_000_000_000), Some(100_000_000_000 * 1_000_000), "1973-03-03 in milliseconds");
        assert_eq!(int(0), Some(0));
        let float = |f: f64| unix_time_ns_of(&Scalar::Number(Number::Float(f)));
        assert_eq!(float(1_715_621_587.5), Some(at * 1_000_000_000 + 500_000_000));
        assert_eq!(float(1_715_621_587_000.0), Some(at * 1_000_000_000));
        assert_eq!(unix_time_ns_of(&Scalar::Text(Cow::Borrowed("1715621587"))), Some(at * 1_000_000_000));
        assert_eq!(unix_time_ns_of(&Scalar::Text(Cow::Borrowed("soon"))), None);
        assert_eq!(unix_time_ns_of(&Scalar::Other), None);
        // Past what nanoseconds hold, in either unit: refused, never saturated.
        assert_eq!(int(i64::MAX / 10), None);
    }

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
