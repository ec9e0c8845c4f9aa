//! Reading JSON text by the rule of [`super`]: numbers from their literal, strings with their
//! escapes checked, objects with their keys made unique.

use std::borrow::Cow;
use std::collections::HashMap;
use std::fmt;

use serde::de::{DeserializeSeed, Deserializer, MapAccess, Visitor};
use serde_json::value::RawValue;

use super::{Exact, ExactError};
use crate::paging::item::{read_with, Key};

/// The deepest nesting of arrays and objects read (serde_json's own parse limit, which
/// `RawValue` capture does not apply).
pub const MAX_DEPTH: usize = 128;

/// Objects with more keys than this find a repeated key through a map instead of a scan.
const SCAN_KEYS: usize = 16;

/// A JSON number read from its literal.
#[derive(Debug, Clone, PartialEq)]
pub enum Number<'a> {
    /// An integer that fits an `i64`.
    Int(i64),
    /// An integer past `i64::MAX` that fits a `u64`.
    UInt(u64),
    /// An integer past 64 bits: its text (an optional `-`, then digits).
    Big(Cow<'a, str>),
    /// A number with a fraction or an exponent, correctly rounded (always finite).
    Float(f64),
}

/// Integers as their digits; floats as the shortest text that reads back the same, always with
/// a `.` or an exponent (so the text is read back as a float).
impl fmt::Display for Number<'_> {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            Number::Int(i) => write!(f, "{i}"),
            Number::UInt(u) => write!(f, "{u}"),
            Number::Big(digits) => f.write_str(digits),
            Number::Float(x) => match serde_json::Number::from_f64(*x) {
                Some(n) => write!(f, "{n}"),
                None => write!(f, "{x}"),
            },
        }
    }
}

impl From<Number<'_>> for Exact {
    fn from(n: Number<'_>) -> Exact {
        match n {
            Number::Int(i) => Exact::Int(i),
            Number::UInt(u) => Exact::UInt(u),
            Number::Big(digits) => Exact::BigInt(digits.into_owned().into_boxed_str()),
            Number::Float(f) => Exact::Float(f),
        }
    }
}

/// At most 100 characters of `text`, for an error message.
pub fn shown(text: &str) -> String {
    match text.char_indices().nth(100) {
        Some((cut, _)) => format!("{}... ({} bytes)", &text[..cut], text.len()),
        None => text.to_string(),
    }
}

/// serde_json's message without its position (which counts from a part of the body).
fn reason(e: &serde_json::Error) -> String {
    let text = e.to_string();
    match text.rsplit_once(" at line ") {
        Some((reason, _)) => reason.to_string(),
        None => text,
    }
}

/// The number a JSON number literal (as serde_json captured it) stands for: an integer literal
/// (no `.`, no exponent) exactly at any size, any other number correctly rounded to an `f64`.
/// A number past the range of `f64` (`1e400`) is refused; one below its smallest magnitude
/// reads as zero, as in Python.
pub fn number(literal: &str) -> Result<Number<'_>, String> {
    if literal.bytes().any(|b| matches!(b, b'.' | b'e' | b'E')) {
        return match literal.parse::<f64>() {
            Ok(f) if f.is_finite() => Ok(Number::Float(f)),
            Ok(_) => Err(format!("{} is past the range of a 64-bit float", shown(literal))),
            Err(_) => Err(format!("{} is not a JSON number", shown(literal))),
        };
    }
    if let Ok(i) = literal.parse::<i64>() {
        return Ok(Number::Int(i));
    }
    if let Ok(u) = literal.parse::<u64>() {
        return Ok(Number::UInt(u));
    }
    let digits = literal.strip_prefix('-').unwrap_or(literal);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!("{} is not a JSON number", shown(literal)));
    }
    Ok(Number::Big(Cow::Borrowed(literal)))
}

/// The content of a JSON string literal (quotes included), its escapes decoded; a lone
/// surrogate escape (`"\ud800"`) or any other invalid escape is refused. Borrowed when the
/// literal has no escape.
pub fn string(literal: &str) -> Result<Cow<'_, str>, String> {
    if let Some(inner) = literal.strip_prefix('"').and_then(|s| s.strip_suffix('"')) {
        if !inner.contains('\\') {
            return Ok(Cow::Borrowed(inner));
        }
    }
    serde_json::from_str::<String>(literal).map(Cow::Owned).map_err(|e| {
        let why = lone_surrogate(literal).map_or_else(|| reason(&e), |u| format!("lone surrogate escape {u}"));
        format!("{} is not valid text ({why})", shown(literal))
    })
}

/// The first `\u` escape (four hex digits) of a string literal that is half of a surrogate pair without its
/// other half (serde_json names only some of these cases).
fn lone_surrogate(literal: &str) -> Option<&str> {
    let bytes = literal.as_bytes();
    let unit = |at: usize| -> Option<u16> {
        let hex = literal.get(at + 2..at + 6)?;
        (bytes.get(at + 1) == Some(&b'u')).then(|| u16::from_str_radix(hex, 16).ok()).flatten()
    };
    let mut at = 0;
    while at < bytes.len() {
        if bytes[at] != b'\\' {
            at += 1;
            continue;
        }
        match unit(at) {
            Some(0xD800..=0xDBFF) => {
                if !matches!(unit(at + 6), Some(0xDC00..=0xDFFF)) {
                    return literal.get(at..at + 6);
                }
                at += 12;
            }
            Some(0xDC00..=0xDFFF) => return literal.get(at..at + 6),
            Some(_) => at += 6,
            None => at += 2,
        }
    }
    None
}

/// The exact value of JSON text (one value, nothing after it but whitespace).
pub fn parse(text: &str) -> Result<Exact, ExactError> {
    let raw: &RawValue =
        serde_json::from_str(text).map_err(|e| ExactError::new(format!("not JSON ({})", reason(&e))))?;
    parse_raw(raw)
}

/// The exact value of a value serde_json captured as text.
pub fn parse_raw(raw: &RawValue) -> Result<Exact, ExactError> {
    value(raw.get(), 0)
}

/// Whether a captured value reads by the rule (the error of [`parse_raw`] if not).
pub fn check(raw: &RawValue) -> Result<(), ExactError> {
    match raw.get().as_bytes().first() {
        Some(b'"') => string(raw.get()).map(drop).map_err(ExactError::new),
        Some(b'-' | b'0'..=b'9') => number(raw.get()).map(drop).map_err(ExactError::new),
        _ => parse_raw(raw).map(drop),
    }
}

fn value(text: &str, depth: usize) -> Result<Exact, ExactError> {
    match text.as_bytes().first() {
        Some(b'{') => object(text, depth + 1),
        Some(b'[') => array(text, depth + 1),
        Some(b'"') => string(text).map(|s| Exact::Str(s.into_owned())).map_err(ExactError::new),
        Some(b't') => Ok(Exact::Bool(true)),
        Some(b'f') => Ok(Exact::Bool(false)),
        Some(b'n') => Ok(Exact::Null),
        _ => number(text).map(Exact::from).map_err(ExactError::new),
    }
}

fn too_deep(depth: usize) -> Result<(), ExactError> {
    if depth > MAX_DEPTH {
        return Err(ExactError::new(format!("nested deeper than {MAX_DEPTH} arrays and objects")));
    }
    Ok(())
}

fn array(text: &str, depth: usize) -> Result<Exact, ExactError> {
    too_deep(depth)?;
    let elements: Vec<&RawValue> =
        serde_json::from_str(text).map_err(|e| ExactError::new(format!("not a JSON array ({})", reason(&e))))?;
    let mut out = Vec::with_capacity(elements.len());
    for (k, element) in elements.into_iter().enumerate() {
        out.push(value(element.get(), depth).map_err(|e| e.in_element(k))?);
    }
    Ok(Exact::Array(out))
}

fn object(text: &str, depth: usize) -> Result<Exact, ExactError> {
    too_deep(depth)?;
    let entries = read_with(text, Entries).map_err(|e| {
        // Values are captured unread: an error here is about a key.
        let why = lone_surrogate(text).map_or_else(|| reason(&e), |u| format!("lone surrogate escape {u}"));
        ExactError::new(format!("not a JSON object with valid keys ({why})"))
    })?;
    let many = entries.len() > SCAN_KEYS;
    let mut places: HashMap<Cow<'_, str>, usize> = HashMap::new();
    let mut out: Vec<(String, Exact)> = Vec::with_capacity(entries.len());
    for (Key(key), raw) in entries {
        let v = value(raw.get(), depth).map_err(|e| e.in_field(&key))?;
        let place = if many { places.get(&key).copied() } else { out.iter().position(|(k, _)| *k == *key) };
        match place {
            Some(p) => out[p].1 = v,
            None => {
                if many {
                    places.insert(key.clone(), out.len());
                }
                out.push((key.into_owned(), v));
            }
        }
    }
    Ok(Exact::Object(out))
}

/// An object's entries in order, each value as its text.
struct Entries;

impl<'de> DeserializeSeed<'de> for Entries {
    type Value = Vec<(Key<'de>, &'de RawValue)>;
    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for Entries {
    type Value = Vec<(Key<'de>, &'de RawValue)>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON object")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut entries = Vec::with_capacity(map.size_hint().unwrap_or(8));
        while let Some(key) = map.next_key::<Key<'de>>()? {
            entries.push((key, map.next_value::<&'de RawValue>()?));
        }
        Ok(entries)
    }
}
