//! The fast read of a list page: one pass over the body that keeps each item of the list field
//! as its JSON text ([`JsonItem`]) and reads `nextPageToken`, with no `serde_json::Value` tree.
//! Anything unusual (not an object, a list field that is no list, an item that is no object, a
//! token that is no string) gives `None`, and the caller reads the page the slow way, which
//! names what is wrong.

use std::fmt;

use serde::de::{DeserializeSeed, Deserializer, IgnoredAny, MapAccess, Visitor};
use serde_json::value::RawValue;

pub use crate::paging::item::Key;
use crate::paging::JsonItem;

/// The items and next page token of a page, read in one pass; `None` when the page is not
/// the plain shape (an object whose `field` is a list of objects and whose `nextPageToken` is
/// absent, null or a string).
pub fn read_page(body: &[u8], field: &str) -> Option<(Vec<JsonItem>, Option<String>)> {
    let mut de = serde_json::Deserializer::from_slice(body);
    let (items, token) = de.deserialize_map(PageVisitor { field }).ok()?;
    de.end().ok()?;
    let items = items?;
    if !items.iter().all(|item| item.get().starts_with('{')) {
        return None;
    }
    let token = match token.map(RawValue::get) {
        None | Some("null") => None,
        Some(text) if text.starts_with('"') => {
            Some(serde_json::from_str::<String>(text).ok()?).filter(|t| !t.is_empty())
        }
        Some(_) => return None,
    };
    Some((items.into_iter().map(JsonItem::from).collect(), token))
}

type Parts<'de> = (Option<Vec<&'de RawValue>>, Option<&'de RawValue>);

struct PageVisitor<'f> {
    field: &'f str,
}

impl<'de> Visitor<'de> for PageVisitor<'_> {
    type Value = Parts<'de>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a page object")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Parts<'de>, A::Error> {
        let (mut items, mut token) = (None, None);
        while let Some(Key(key)) = map.next_key::<Key<'de>>()? {
            if key == self.field {
                // `null` reads as no list: the slow path names it.
                items = map.next_value::<Option<Vec<&'de RawValue>>>()?;
            } else if key == "nextPageToken" {
                token = Some(map.next_value::<&'de RawValue>()?);
            } else {
                map.next_value::<IgnoredAny>()?;
            }
        }
        Ok((items, token))
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

    fn texts(items: &[JsonItem]) -> Vec<&str> {
        items.iter().map(JsonItem::as_str).collect()
    }

    #[test]
    fn plain_pages_are_read_in_one_pass() {
        let body = br#"{"blocks": [{"n": 1}, {"n": "2", "s": "a\"b"}], "nextPageToken": "t1", "x": {"y": [1]}}"#;
        let (items, token) = read_page(body, "blocks").unwrap();
        assert_eq!(texts(&items), vec![r#"{"n": 1}"#, r#"{"n": "2", "s": "a\"b"}"#]);
        assert_eq!(token.as_deref(), Some("t1"));
        let (items, token) = read_page(br#"{"nextPageToken": "", "blocks": []}"#, "blocks").unwrap();
        assert!(items.is_empty() && token.is_none());
        let (_, token) = read_page(br#"{"blocks": [], "nextPageToken": null}"#, "blocks").unwrap();
        assert!(token.is_none());
        let (_, token) = read_page(br#"{"blocks": [], "next\u0050ageToken": "\u0041"}"#, "blocks").unwrap();
        assert_eq!(token.as_deref(), Some("A"));
        // A repeated key: the last one counts, as in a parsed object.
        let (items, _) = read_page(br#"{"blocks": [{"a": 1}], "blocks": [{"b": 2}]}"#, "blocks").unwrap();
        assert_eq!(texts(&items), vec![r#"{"b": 2}"#]);
    }

    #[test]
    fn unusual_pages_go_the_slow_way() {
        for body in [
            &br#"[1]"#[..],
            br#"{"other": []}"#,
            br#"{"blocks": null}"#,
            br#"{"blocks": 5}"#,
            br#"{"blocks": [{"a": 1}, 1]}"#,
            br#"{"blocks": [], "nextPageToken": 7}"#,
            br#"{"blocks": []} trailing"#,
            br#"{"blocks": [}"#,
            b"not json",
        ] {
            assert!(read_page(body, "blocks").is_none(), "{}", String::from_utf8_lossy(body));
        }
    }
}
