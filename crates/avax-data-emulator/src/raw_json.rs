//! Reading request JSON with serde_json while keeping every value as its raw text: the node's
//! argument types parse their own raw bytes, and the response echoes the request `id` as sent.

use serde::de::{Deserialize, Deserializer, MapAccess, Visitor};
use serde_json::value::RawValue;

/// The JSON type of a value, named the way the node's error messages name it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    Null,
    Bool,
    Number,
    String,
    Array,
    Object,
}

impl Kind {
    /// Of a value serde_json has already checked; decided by its first character.
    pub(crate) fn of(value: &RawValue) -> Kind {
        match value.get().trim_start().as_bytes().first() {
            Some(b'{') => Kind::Object,
            Some(b'[') => Kind::Array,
            Some(b'"') => Kind::String,
            Some(b'n') => Kind::Null,
            Some(b't' | b'f') => Kind::Bool,
            _ => Kind::Number,
        }
    }

    /// The word used in `cannot unmarshal <word> into ...` messages.
    pub(crate) fn word(self) -> &'static str {
        match self {
            Kind::Null => "null",
            Kind::Bool => "bool",
            Kind::Number => "number",
            Kind::String => "string",
            Kind::Array => "array",
            Kind::Object => "object",
        }
    }
}

/// The first JSON value of `body`; whatever follows it is ignored, as a streaming decoder that
/// reads one value does. The error is a short description for a `-32700` answer.
pub(crate) fn first_value(body: &[u8]) -> Result<&RawValue, String> {
    let mut values = serde_json::Deserializer::from_slice(body).into_iter::<&RawValue>();
    match values.next() {
        None => Err("EOF".to_string()),
        Some(Ok(value)) => Ok(value),
        Some(Err(e)) if e.is_eof() => Err("unexpected EOF".to_string()),
        Some(Err(e)) => Err(format!("invalid JSON at line {} column {}", e.line(), e.column())),
    }
}

/// The members of an object value in the order they appear (duplicates kept); empty for
/// anything that is not an object.
pub(crate) fn members(object: &RawValue) -> Vec<(String, &RawValue)> {
    serde_json::from_str::<Members<'_>>(object.get()).map(|m| m.0).unwrap_or_default()
}

/// The first element of an array value; `None` for an empty array or a non-array.
pub(crate) fn first_element(array: &RawValue) -> Option<&RawValue> {
    serde_json::from_str::<Vec<&RawValue>>(array.get()).ok()?.into_iter().next()
}

/// An object read member by member, in document order.
struct Members<'a>(Vec<(String, &'a RawValue)>);

impl<'de> Deserialize<'de> for Members<'de> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Collect;
        impl<'de> Visitor<'de> for Collect {
            type Value = Members<'de>;

            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a JSON object")
            }

            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
                let mut all = Vec::new();
                while let Some(member) = map.next_entry::<String, &'de RawValue>()? {
                    all.push(member);
                }
                Ok(Members(all))
            }
        }
        deserializer.deserialize_map(Collect)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn raw(text: &str) -> &RawValue {
        serde_json::from_str(text).unwrap()
    }

    #[test]
    fn only_the_first_value_is_read() {
        assert_eq!(first_value(b" {\"a\": [1, 2]} trailing junk").unwrap().get(), "{\"a\": [1, 2]}");
        assert_eq!(first_value(b"7 8").unwrap().get(), "7");
        assert_eq!(first_value(b"").unwrap_err(), "EOF");
        assert_eq!(first_value(b" \n").unwrap_err(), "EOF");
        assert_eq!(first_value(b"{\"a\":").unwrap_err(), "unexpected EOF");
        assert_eq!(first_value(b"{oops").unwrap_err(), "invalid JSON at line 1 column 2");
    }

    #[test]
    fn kinds_follow_the_first_character() {
        let kinds: Vec<Kind> =
            ["{}", "[]", "\"x\"", "null", "true", "false", "-1.5e3"].map(|t| Kind::of(raw(t))).into();
        use Kind::*;
        assert_eq!(kinds, [Object, Array, String, Null, Bool, Bool, Number]);
        assert_eq!(Kind::Array.word(), "array");
    }

    #[test]
    fn members_keep_order_duplicates_and_raw_text() {
        let got: Vec<(String, &str)> =
            members(raw(r#"{"b": [1, 2], "a\u0041":"x", "b":null}"#)).into_iter().map(|(k, v)| (k, v.get())).collect();
        assert_eq!(got, [("b".into(), "[1, 2]"), ("aA".into(), "\"x\""), ("b".into(), "null")]);
        assert!(members(raw("[1]")).is_empty());
        assert_eq!(first_element(raw("[ {\"k\":1}, 2]")).map(RawValue::get), Some("{\"k\":1}"));
        assert!(first_element(raw("[]")).is_none());
        assert!(first_element(raw("{}")).is_none());
    }
}
