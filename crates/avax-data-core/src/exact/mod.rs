//! The one conversion rule for the JSON the Data and Metrics APIs send: every value is read
//! exactly or refused with an error naming where it stands. Dicts ([`Exact`], read by [`parse`])
//! and frames (`arrow::json_columns`, through [`number`], [`string`] and [`check`]) use the same
//! rules:
//!
//! | JSON | read as |
//! |---|---|
//! | an integer literal of any size | [`Exact::Int`], [`Exact::UInt`] or [`Exact::BigInt`] (its digits), never a float |
//! | a number with a fraction or exponent | [`Exact::Float`], parsed correctly rounded (as Python's `float`) |
//! | a number past `f64` (`1e400`) | refused ([`ExactError`]) |
//! | a string with a lone surrogate escape (`"\ud800"`) | refused |
//! | an object with a key given twice | one entry, at the key's first place, holding its last value (as `json.loads`) |
//! | nesting deeper than [`MAX_DEPTH`] | refused |
//!
//! Values are read from their text (serde_json's `RawValue`), so a number's literal is seen as
//! sent (serde_json's `arbitrary_precision` feature stays off: it would change every parse).

mod read;
#[cfg(test)]
mod tests;

use std::borrow::Cow;
use std::fmt;

pub use read::shown;
pub use read::{check, number, parse, parse_raw, string, Number, MAX_DEPTH};

/// Tests' shorthand: a `json!` value read as the services' answers are (through its text).
#[cfg(test)]
pub(crate) fn from_json(value: serde_json::Value) -> Exact {
    parse(&value.to_string()).expect("a serde_json value is valid JSON")
}

/// A JSON value read exactly.
#[derive(Debug, Clone, PartialEq)]
pub enum Exact {
    /// `null`.
    Null,
    /// `true` / `false`.
    Bool(bool),
    /// An integer literal that fits an `i64`.
    Int(i64),
    /// An integer literal past `i64::MAX` that fits a `u64`.
    UInt(u64),
    /// An integer literal past 64 bits: its text (an optional `-`, then digits).
    BigInt(Box<str>),
    /// A number with a fraction or an exponent (always finite).
    Float(f64),
    /// A string (valid Unicode: escapes decoded, surrogate pairs joined).
    Str(String),
    /// An array.
    Array(Vec<Exact>),
    /// An object: each key once, in the order keys first appear, with the last value given.
    Object(Vec<(String, Exact)>),
}

impl Exact {
    /// The value of field `key` of an object (`None` when absent or not an object).
    pub fn get(&self, key: &str) -> Option<&Exact> {
        match self {
            Exact::Object(entries) => entries.iter().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }

    /// Takes field `key` out of an object, leaving `Null` in its place.
    pub fn take(&mut self, key: &str) -> Option<Exact> {
        match self {
            Exact::Object(entries) => {
                entries.iter_mut().find(|(k, _)| k == key).map(|(_, v)| std::mem::replace(v, Exact::Null))
            }
            _ => None,
        }
    }

    /// The text of a string.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Exact::Str(s) => Some(s),
            _ => None,
        }
    }

    /// An integer that fits an `i64`.
    pub fn as_i64(&self) -> Option<i64> {
        match self {
            Exact::Int(i) => Some(*i),
            _ => None,
        }
    }

    /// A non-negative integer that fits a `u64`.
    pub fn as_u64(&self) -> Option<u64> {
        match self {
            Exact::Int(i) => u64::try_from(*i).ok(),
            Exact::UInt(u) => Some(*u),
            _ => None,
        }
    }

    /// Whether this is a number (integer or float).
    pub fn is_number(&self) -> bool {
        matches!(self, Exact::Int(_) | Exact::UInt(_) | Exact::BigInt(_) | Exact::Float(_))
    }

    /// Whether this is an array.
    pub fn is_array(&self) -> bool {
        matches!(self, Exact::Array(_))
    }

    /// Whether this is an object.
    pub fn is_object(&self) -> bool {
        matches!(self, Exact::Object(_))
    }

    /// The number this value is, for the scalar rules shared with the frame path (`None`: not a
    /// number).
    pub fn as_number(&self) -> Option<Number<'_>> {
        Some(match self {
            Exact::Int(i) => Number::Int(*i),
            Exact::UInt(u) => Number::UInt(*u),
            Exact::BigInt(digits) => Number::Big(Cow::Borrowed(digits)),
            Exact::Float(f) => Number::Float(*f),
            _ => return None,
        })
    }
}

/// The value of field `key` of an object; `Null` when absent or not an object (as
/// `serde_json::Value` indexes).
impl std::ops::Index<&str> for Exact {
    type Output = Exact;
    fn index(&self, key: &str) -> &Exact {
        static NULL: Exact = Exact::Null;
        self.get(key).unwrap_or(&NULL)
    }
}

/// A string equals its text.
impl PartialEq<&str> for Exact {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == Some(*other)
    }
}

/// JSON text that reads back as the same value (integers as their digits, floats with a `.` or
/// an exponent, strings escaped).
impl fmt::Display for Exact {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            Exact::Null => f.write_str("null"),
            Exact::Bool(b) => write!(f, "{b}"),
            Exact::Int(i) => write!(f, "{i}"),
            Exact::UInt(u) => write!(f, "{u}"),
            Exact::BigInt(digits) => f.write_str(digits),
            Exact::Float(x) => write!(f, "{}", Number::Float(*x)),
            Exact::Str(s) => write_string(f, s),
            Exact::Array(items) => {
                f.write_str("[")?;
                for (k, item) in items.iter().enumerate() {
                    if k > 0 {
                        f.write_str(",")?;
                    }
                    write!(f, "{item}")?;
                }
                f.write_str("]")
            }
            Exact::Object(entries) => {
                f.write_str("{")?;
                for (k, (key, value)) in entries.iter().enumerate() {
                    if k > 0 {
                        f.write_str(",")?;
                    }
                    write_string(f, key)?;
                    write!(f, ":{value}")?;
                }
                f.write_str("}")
            }
        }
    }
}

fn write_string(f: &mut fmt::Formatter, s: &str) -> fmt::Result {
    // Writing a `str` as JSON cannot fail.
    f.write_str(&serde_json::to_string(s).map_err(|_| fmt::Error)?)
}

/// One step of the path to a value: an object's key or an array's index.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Step {
    Key(String),
    Index(usize),
}

/// A value the rule refuses (or text that is not JSON): what is wrong, and the path to it from
/// the value read (`foo.bar[2]`; empty for the value itself).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExactError {
    /// The steps from the innermost out (pushed as the error leaves each level).
    steps: Vec<Step>,
    problem: String,
}

impl ExactError {
    /// An error about the value itself.
    pub fn new(problem: impl Into<String>) -> Self {
        ExactError { steps: Vec::new(), problem: problem.into() }
    }

    /// The same error, seen from the object holding the value at `key`.
    pub fn in_field(mut self, key: &str) -> Self {
        self.steps.push(Step::Key(key.to_string()));
        self
    }

    /// The same error, seen from the array holding the value at `index`.
    pub fn in_element(mut self, index: usize) -> Self {
        self.steps.push(Step::Index(index));
        self
    }

    /// The path to the refused value (`foo.bar[2]`; empty for the value read itself).
    pub fn path(&self) -> String {
        let mut path = String::new();
        for step in self.steps.iter().rev() {
            match step {
                Step::Key(key) => {
                    if !path.is_empty() {
                        path.push('.');
                    }
                    path.push_str(key);
                }
                Step::Index(k) => path.push_str(&format!("[{k}]")),
            }
        }
        path
    }

    /// What is wrong with the value.
    pub fn problem(&self) -> &str {
        &self.problem
    }
}

impl fmt::Display for ExactError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self.path() {
            path if path.is_empty() => f.write_str(&self.problem),
            path => write!(f, "field {path:?}: {}", self.problem),
        }
    }
}

impl std::error::Error for ExactError {}
