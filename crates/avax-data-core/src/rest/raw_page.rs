//! The fast read of a list page: one pass over the body that keeps each item of the list field
//! as its JSON text ([`JsonItem`]) and reads `nextPageToken`, with no `serde_json::Value` tree.
//! Anything unusual (not an object, a list field that is no list, an item that is no object, a
//! token that is no string) gives `None`, and the caller reads the page the slow way, which
//! names what is wrong.

use std::fmt;

use bytes::Bytes;
use serde::de::{Deserializer, IgnoredAny, MapAccess, Visitor};
use serde_json::value::RawValue;

use crate::paging::item::Key;
use crate::paging::JsonItem;

/// The items and next page token of a page, read in one pass; `None` when the page is not
/// the plain shape (an object whose `field` is a list of objects and whose `nextPageToken` is
/// absent, null or a string).
pub fn read_page(body: &[u8], field: &str) -> Option<(Vec<JsonItem>, Option<String>)> {
    read_page_in(&Bytes::copy_from_slice(body), field)
}

/// [`read_page`] of a shared body: each item is a slice of `body`, not a copy.
pub fn read_page_in(body: &Bytes, field: &str) -> Option<(Vec<JsonItem>, Option<String>)> {
    let mut de = serde_json::Deserializer::from_slice(body);
    let (items, token) = de.deserialize_map(PageVisitor { field }).ok()?;
    de.end().ok()?;
    let items = items?;
    if !items.iter().all(|item| item.get().starts_with('{') && nested_within(item.get(), ITEM_DEPTH)) {
        return None;
    }
    let token = match token.map(RawValue::get) {
        None | Some("null") => None,
        Some(text) if text.starts_with('"') => {
            Some(serde_json::from_str::<String>(text).ok()?).filter(|t| !t.is_empty())
        }
        Some(_) => return None,
    };
    Some((items.into_iter().map(|raw| JsonItem::from_raw_in(body, raw)).collect(), token))
}

/// How deep an item may nest: a parsed page (the slow path, and every later parse of an item)
/// refuses more than 128 levels, two of which are the page and its list.
const ITEM_DEPTH: usize = 126;

/// Whether `text` (one JSON value) nests at most `limit` arrays and objects deep. Capturing an
/// item as raw text checks no depth, so an item the slow path would refuse is sent there. A
/// quick count of brackets settles nearly every item; only one with more openings than `limit`
/// is scanned exactly (brackets inside strings do not count).
fn nested_within(text: &str, limit: usize) -> bool {
    let bytes = text.as_bytes();
    // `[` (0x5b) and `{` (0x7b) are the only bytes that read `{` with bit 0x20 set; counted in
    // chunks whose sums fit a byte, which the compiler vectorises.
    let openings: usize = bytes
        .chunks(255)
        .map(|chunk| chunk.iter().map(|&b| u8::from(b | 0x20 == b'{')).fold(0u8, u8::wrapping_add) as usize)
        .sum();
    if openings <= limit {
        return true;
    }
    let (mut depth, mut in_string, mut escaped) = (0usize, false, false);
    for &b in bytes {
        if in_string {
            match b {
                _ if escaped => escaped = false,
                b'\\' => escaped = true,
                b'"' => in_string = false,
                _ => {}
            }
            continue;
        }
        match b {
            b'"' => in_string = true,
            b'[' | b'{' => {
                depth += 1;
                if depth > limit {
                    return false;
                }
            }
            b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    true
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
    fn items_of_a_shared_body_are_slices_of_it_not_copies() {
        let body = Bytes::from_static(br#"{"blocks": [{"n": 1}, {"s": "a\"b"}], "nextPageToken": null}"#);
        let (items, token) = read_page_in(&body, "blocks").unwrap();
        assert_eq!(texts(&items), vec![r#"{"n": 1}"#, r#"{"s": "a\"b"}"#]);
        assert!(token.is_none());
        let range = body.as_ptr_range();
        for item in &items {
            assert!(range.contains(&item.as_str().as_ptr()), "{item} was copied out of the body");
        }
        // An item outlives the page's other handles: the body stays alive with it.
        let kept = items[1].clone();
        drop((items, body));
        assert_eq!(kept.as_str(), r#"{"s": "a\"b"}"#);
        assert_eq!(kept.field("s").map(RawValue::get), Some(r#""a\"b""#));
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
        // A hostile server nests an unknown field past any sane depth: refused by the parser's
        // recursion limit (the slow path then reports "not JSON"), never a stack overflow.
        let deep = format!(r#"{{"blocks": [{{"x": {}{}}}]}}"#, "[".repeat(100_000), "]".repeat(100_000));
        assert!(read_page(deep.as_bytes(), "blocks").is_none());
        assert!(serde_json::from_slice::<serde_json::Value>(deep.as_bytes()).is_err());
        // Deep but within the limit, and brackets inside strings, stay on the fast path.
        let nested = |n: usize| {
            format!(r#"{{"blocks": [{{"x": {}{}, "s": "{}"}}]}}"#, "[".repeat(n), "]".repeat(n), "[{".repeat(300))
        };
        assert!(read_page(nested(120).as_bytes(), "blocks").is_some());
        assert!(read_page(nested(130).as_bytes(), "blocks").is_none());
        assert!(nested_within(r#"{"a": "\"[[[", "b": [[1]]}"#, 3) && !nested_within(r#"{"b": [[[1]]]}"#, 3));
    }
}
