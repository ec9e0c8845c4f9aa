//! [`JsonItem`]: one item of a page as the JSON text the service sent, parsed only by what
//! consumes it (Arrow columns straight from the text, or an exact value tree for a dict: both
//! by the rule of [`crate::exact`]).

use std::borrow::Cow;

use bytes::Bytes;
use std::fmt;

use serde::de::{self, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, Visitor};
use serde_json::value::RawValue;
use serde_json::Value;

use crate::exact::{Exact, ExactError};

/// One JSON object of a page, kept as its text. Made by the page parser (which checked it is an
/// object) or from a [`Value`]; the empty default is what a handed-out slot holds.
///
/// The text is a slice of the page's body (shared, not copied): the items of a page cost no
/// allocation of their own, and the body is freed once its last item is.
#[derive(Clone, Default, PartialEq, Eq)]
pub struct JsonItem(Bytes);

impl JsonItem {
    /// The item's JSON text.
    pub fn as_str(&self) -> &str {
        // SAFETY: every constructor takes the bytes of a `str` (`from_text`, `from_raw_in`),
        // so they are valid UTF-8.
        unsafe { std::str::from_utf8_unchecked(&self.0) }
    }

    /// An item holding a copy of `text`.
    pub(crate) fn from_text(text: String) -> Self {
        JsonItem(Bytes::from(text))
    }

    /// An item holding a copy of `raw`, which the caller checked is an object.
    pub(crate) fn from_raw(raw: &RawValue) -> Self {
        JsonItem(Bytes::copy_from_slice(raw.get().as_bytes()))
    }

    /// An item of a page read in one pass from `body`; the reader checked it is an object
    /// nested no deeper than a parse allows. `raw` borrowed from `body` is sliced out of it
    /// without a copy (anything else is copied).
    pub(crate) fn from_raw_in(body: &Bytes, raw: &RawValue) -> Self {
        let text = raw.get().as_bytes();
        let (start, end) = (body.as_ptr() as usize, body.as_ptr() as usize + body.len());
        let at = text.as_ptr() as usize;
        if at >= start && at + text.len() <= end {
            JsonItem(body.slice_ref(text))
        } else {
            JsonItem(Bytes::copy_from_slice(text))
        }
    }

    /// The item read exactly ([`crate::exact::parse`]): a value the rule refuses (a number past
    /// `f64`, a lone surrogate) is an error naming its path in the item. The empty default
    /// reads as `Null`.
    pub fn to_exact(&self) -> Result<Exact, ExactError> {
        if self.0.is_empty() {
            return Ok(Exact::Null);
        }
        crate::exact::parse(self.as_str())
    }

    /// The value of field `name`, as raw JSON text (`None` when absent or the item is not an
    /// object).
    /// A field given twice counts the last time, as in a parsed object.
    pub fn field(&self, name: &str) -> Option<&RawValue> {
        let mut de = serde_json::Deserializer::from_str(self.as_str());
        de.deserialize_map(FieldVisitor(name)).ok()?
    }

    /// The values of the top-level fields `names` in one pass over the item, as raw JSON text
    /// (`None` for one that is absent, every one when the item is not an object). The item's
    /// structure is walked without parsing it ([`super::scan`]: a field given twice counts the
    /// last time, as in a parsed object); a key with an escape is read by serde.
    pub fn fields<const N: usize>(&self, names: [&str; N]) -> [Option<&str>; N] {
        if let Some(found) = super::scan::top_fields(self.as_str(), names) {
            return found;
        }
        let mut de = serde_json::Deserializer::from_str(self.as_str());
        de.deserialize_map(FieldsVisitor(names)).map_or([None; N], |found| found.map(|v| v.map(RawValue::get)))
    }
}

/// Finds some fields of an object, skipping the others unread.
struct FieldsVisitor<'n, const N: usize>([&'n str; N]);

impl<'de, const N: usize> Visitor<'de> for FieldsVisitor<'_, N> {
    type Value = [Option<&'de RawValue>; N];

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON object")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut found = [None; N];
        while let Some(Key(key)) = map.next_key::<Key<'de>>()? {
            match self.0.iter().position(|name| *name == key) {
                Some(at) => found[at] = Some(map.next_value::<&'de RawValue>()?),
                None => map.next_value::<IgnoredAny>().map(drop)?,
            }
        }
        Ok(found)
    }
}

/// Finds one field of an object, skipping the others unread.
struct FieldVisitor<'n>(&'n str);

impl<'de> Visitor<'de> for FieldVisitor<'_> {
    type Value = Option<&'de RawValue>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON object")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut found = None;
        while let Some(Key(key)) = map.next_key::<Key<'de>>()? {
            if key == self.0 {
                found = Some(map.next_value::<&'de RawValue>()?);
            } else {
                map.next_value::<IgnoredAny>()?;
            }
        }
        Ok(found)
    }
}

/// A map key, borrowed from the body unless it holds escapes.
pub struct Key<'de>(pub Cow<'de, str>);

impl<'de> de::Deserialize<'de> for Key<'de> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct KeyVisitor;
        impl<'de> Visitor<'de> for KeyVisitor {
            type Value = Key<'de>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a key")
            }
            fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<Key<'de>, E> {
                Ok(Key(Cow::Borrowed(v)))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Key<'de>, E> {
                Ok(Key(Cow::Owned(v.to_string())))
            }
            fn visit_string<E: de::Error>(self, v: String) -> Result<Key<'de>, E> {
                Ok(Key(Cow::Owned(v)))
            }
        }
        deserializer.deserialize_str(KeyVisitor)
    }
}

impl fmt::Display for JsonItem {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl fmt::Debug for JsonItem {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.debug_tuple("JsonItem").field(&self.as_str()).finish()
    }
}

impl From<&Value> for JsonItem {
    fn from(value: &Value) -> Self {
        JsonItem::from_text(value.to_string())
    }
}

impl From<&Exact> for JsonItem {
    fn from(value: &Exact) -> Self {
        JsonItem::from_text(value.to_string())
    }
}

impl From<Value> for JsonItem {
    fn from(value: Value) -> Self {
        JsonItem::from(&value)
    }
}

/// Reads `text` (a JSON value) with `seed`, checking nothing follows it.
pub fn read_with<'de, S: DeserializeSeed<'de>>(text: &'de str, seed: S) -> serde_json::Result<S::Value> {
    let mut de = serde_json::Deserializer::from_str(text);
    let value = seed.deserialize(&mut de)?;
    de.end()?;
    Ok(value)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn items_keep_their_text_and_read_back_as_values_and_fields() {
        let item = JsonItem::from(json!({"timestamp": 1700000000, "value": "1.5", "a\"b": [1]}));
        assert_eq!(item.to_exact().unwrap().to_string(), r#"{"a\"b":[1],"timestamp":1700000000,"value":"1.5"}"#);
        assert_eq!(item.field("timestamp").map(RawValue::get), Some("1700000000"));
        assert_eq!(item.field("value").map(RawValue::get), Some("\"1.5\""));
        assert_eq!(item.field("a\"b").map(RawValue::get), Some("[1]"));
        assert!(item.field("missing").is_none());
        let twice = JsonItem::from(&serde_json::from_str::<Value>(r#"{"n": 1}"#).unwrap());
        assert_eq!(twice.field("n").map(RawValue::get), Some("1"));
        let twice = JsonItem::from_text(r#"{"n": 1, "m": {"n": 3}, "n": 2}"#.into());
        assert_eq!(twice.field("n").map(RawValue::get), Some("2"));
        assert_eq!(JsonItem::default().to_exact(), Ok(Exact::Null));
        let refused = JsonItem::from_text(r#"{"a": 1, "b": {"c": 1e400}}"#.into());
        assert_eq!(
            refused.to_exact().unwrap_err().to_string(),
            r#"field "b.c": 1e400 is past the range of a 64-bit float"#
        );
        assert!(JsonItem::default().field("x").is_none());
        let [hash, number, missing] = twice.fields(["m", "n", "x"]);
        // a key given twice is read the last time, by `fields` as by `field` (and serde)
        assert_eq!((hash, number), (Some(r#"{"n": 3}"#), Some("2")));
        let escaped = JsonItem::from_text(r#"{"\u006e": 1, "m": 2}"#.into());
        assert_eq!(escaped.fields(["n", "m"]), [Some("1"), Some("2")], "an escaped key is read by serde");
        assert!(missing.is_none());
        assert!(JsonItem::default().fields(["a", "b"]).iter().all(Option::is_none));
    }
}
