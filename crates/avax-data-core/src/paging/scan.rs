//! The values of a few top-level fields of a JSON object, found by walking its structure without
//! parsing it: the text was checked to be valid JSON when its page was read, so only the bounds of
//! keys and values are needed. A key with escapes (or anything unexpected) gives up, and the
//! caller reads the item with serde instead.

/// The raw texts of the top-level fields `names` of the object `text`; `None` when the walk gives
/// up (a key with an escape, text that is not an object as expected). The walk reads the whole
/// object, so a field given twice counts the last time: as serde's parse, and as the columns of
/// a frame read it ([`crate::arrow::json_columns`]), so the repeat screen and the rows agree on
/// which value an item holds.
pub fn top_fields<'a, const N: usize>(text: &'a str, names: [&str; N]) -> Option<[Option<&'a str>; N]> {
    let b = text.as_bytes();
    let mut i = skip_ws(b, 0);
    if *b.get(i)? != b'{' {
        return None;
    }
    i += 1;
    let mut found = [None; N];
    loop {
        i = skip_ws(b, i);
        match *b.get(i)? {
            b'}' => return Some(found),
            b'"' => {}
            _ => return None,
        }
        let (key_end, escaped) = string_end(b, i)?;
        if escaped {
            return None;
        }
        let key = &b[i + 1..key_end];
        i = skip_ws(b, key_end + 1);
        if *b.get(i)? != b':' {
            return None;
        }
        i = skip_ws(b, i + 1);
        let start = i;
        i = value_end(b, i)?;
        if let Some(at) = names.iter().position(|n| n.as_bytes() == key) {
            found[at] = Some(text.get(start..i)?);
        }
        i = skip_ws(b, i);
        match *b.get(i)? {
            b',' => i += 1,
            b'}' => return Some(found),
            _ => return None,
        }
    }
}

fn skip_ws(b: &[u8], mut i: usize) -> usize {
    while i < b.len() && matches!(b[i], b' ' | b'\t' | b'\n' | b'\r') {
        i += 1;
    }
    i
}

/// The index of the quote closing the string opening at `i`, and whether it holds an escape.
fn string_end(b: &[u8], i: usize) -> Option<(usize, bool)> {
    let mut j = i + 1;
    let mut escaped = false;
    loop {
        j += memchr::memchr2(b'"', b'\\', b.get(j..)?)?;
        if b[j] == b'"' {
            return Some((j, escaped));
        }
        escaped = true;
        j += 2;
    }
}

/// The end (exclusive) of the value starting at `i`.
fn value_end(b: &[u8], i: usize) -> Option<usize> {
    match *b.get(i)? {
        b'"' => string_end(b, i).map(|(end, _)| end + 1),
        b'{' | b'[' => {
            let mut depth = 0usize;
            let mut j = i;
            loop {
                match *b.get(j)? {
                    b'"' => j = string_end(b, j)?.0,
                    b'{' | b'[' => depth += 1,
                    b'}' | b']' => {
                        depth -= 1;
                        if depth == 0 {
                            return Some(j + 1);
                        }
                    }
                    _ => {}
                }
                j += 1;
            }
        }
        _ => {
            let mut j = i;
            while j < b.len() && !matches!(b[j], b',' | b'}' | b']' | b' ' | b'\t' | b'\n' | b'\r') {
                j += 1;
            }
            (j > i).then_some(j)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::paging::JsonItem;
    use serde_json::value::RawValue;

    /// What serde finds, field by field, for comparison.
    fn by_serde<'a>(item: &'a JsonItem, names: [&str; 3]) -> [Option<&'a str>; 3] {
        names.map(|n| item.field(n).map(RawValue::get))
    }

    #[test]
    fn the_walk_finds_what_serde_finds_or_gives_up() {
        let names = ["blockHash", "blockNumber", "x"];
        let texts = [
            r#"{"blockHash":"0xab","blockNumber":"12"}"#,
            r#" { "blockNumber" : 12 , "blockHash" : "0x\"}{," , "x": [1, {"blockHash": "no"}, "]"] } "#,
            r#"{"a":{"b":[{"c":"}"}]},"blockHash":null,"blockNumber":-1.5e3,"x":true}"#,
            r#"{"x":"\\","blockHash":"a\\\"b","blockNumber":[]}"#,
            r#"{}"#,
            r#"{"other":"blockHash","blockNumber":0}"#,
        ];
        for text in texts {
            let item = JsonItem::from(&serde_json::from_str::<serde_json::Value>(text).unwrap());
            // the item as the service wrote it, and as serde writes it back
            for raw in [text.trim().to_string(), item.to_string()] {
                let walked = top_fields(&raw, names).expect(&raw);
                let parsed: &RawValue = serde_json::from_str(&raw).unwrap();
                let serde = {
                    let item = JsonItem::from_raw(parsed);
                    by_serde(&item, names).map(|v| v.map(str::to_string))
                };
                assert_eq!(walked.map(|v| v.map(str::to_string)), serde, "{raw}");
            }
        }
        // a field given twice counts the last time, as serde's parse (and the frame's columns)
        let twice = r#"{"blockHash":"first","blockNumber":1,"x":2,"blockHash":"last","blockNumber":3}"#;
        assert_eq!(top_fields(twice, names), Some([Some("\"last\""), Some("3"), Some("2")]));
        let item = JsonItem::from_raw(serde_json::from_str::<&RawValue>(twice).unwrap());
        assert_eq!(item.fields(names), [Some("\"last\""), Some("3"), Some("2")]);
        assert_eq!(by_serde(&item, names), [Some("\"last\""), Some("3"), Some("2")]);
        // a key with an escape, or text that is no object: the caller asks serde
        assert!(top_fields(r#"{"block\u0048ash":"0xab"}"#, names).is_none());
        assert!(top_fields(r#"[1,2]"#, names).is_none());
        assert!(top_fields("", names).is_none());
        assert!(top_fields(r#"{"a":"#, names).is_none());
    }
}
