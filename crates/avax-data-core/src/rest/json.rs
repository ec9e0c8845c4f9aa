//! Reading the answers of the REST services: the service root of a base URL, the message of an
//! error body, and the list a page carries.

use serde_json::Value;

use crate::error::{Error, Result};
use crate::exact::Exact;
use crate::transport::snippet;

/// The service root of a base URL: a trailing `/`, and a trailing API version (`/v1`, `/v2`) that
/// every request path already starts with, are dropped, so `https://host/v1/` does not give
/// `https://host/v1/v1/...`.
pub fn service_root(base_url: &str) -> String {
    let mut root = base_url.trim().trim_end_matches('/');
    for version in ["/v1", "/v2"] {
        if let Some(stripped) = root.strip_suffix(version) {
            root = stripped.trim_end_matches('/');
        }
    }
    root.to_string()
}

/// The `message` of an error body `{"message": "..." | ["...", ...], "error", "statusCode"}`,
/// a list joined with `; `; `None` when the body is not such an object.
pub fn api_message(body: &str) -> Option<String> {
    match serde_json::from_str::<Value>(body).ok()?.get("message")? {
        Value::String(s) => Some(s.clone()),
        Value::Array(items) => Some(
            items
                .iter()
                .map(|i| i.as_str().map(String::from).unwrap_or_else(|| i.to_string()))
                .collect::<Vec<_>>()
                .join("; "),
        ),
        _ => None,
    }
}

/// `value` as text for an error, cut to a snippet.
pub(crate) fn shown(value: &Exact) -> String {
    snippet(value.to_string().as_bytes())
}

/// The decode error `message` about the answer `value` of `url`, which the error shows.
pub(crate) fn answer_error(message: String, url: &str, value: &Exact) -> Error {
    Error::Decode { message, url: url.to_string(), body: shown(value) }
}

/// Checks that every item of the list `field` is a JSON object.
pub fn check_items(items: &[Exact], field: &str, url: &str) -> Result<()> {
    match items.iter().position(|item| !item.is_object()) {
        None => Ok(()),
        Some(k) => {
            Err(answer_error(format!("{field}[{k}] must be a JSON object, found {}", shown(&items[k])), url, &items[k]))
        }
    }
}

/// Takes the list `field` out of an answer, every item checked to be an object; a missing,
/// null or non-list field is a decode error naming it.
pub fn take_list(value: &mut Exact, field: &str, url: &str) -> Result<Vec<Exact>> {
    match value.take(field) {
        Some(Exact::Array(items)) => {
            check_items(&items, field, url)?;
            Ok(items)
        }
        Some(Exact::Null) | None => Err(answer_error(format!("the answer has no {field:?} list"), url, value)),
        Some(other) => Err(answer_error(format!("{field:?} is not a list"), url, &other)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exact::from_json as x;
    use serde_json::json;

    #[test]
    fn base_urls_ending_in_an_api_version_are_the_service_root() {
        for url in ["https://h", "https://h/", "https://h/v1", "https://h/v1/", "https://h/v2", " https://h/v2// "] {
            assert_eq!(service_root(url), "https://h", "{url}");
        }
        assert_eq!(service_root("http://127.0.0.1:9/prefix/v1"), "http://127.0.0.1:9/prefix");
        assert_eq!(service_root("https://h/v10"), "https://h/v10");
    }

    #[test]
    fn error_messages_come_as_text_or_list() {
        assert_eq!(
            api_message(r#"{"message":"bad pageSize","error":"Bad Request","statusCode":400}"#).as_deref(),
            Some("bad pageSize")
        );
        assert_eq!(
            api_message(r#"{"message":["a must be x","b must be y"],"statusCode":400}"#).as_deref(),
            Some("a must be x; b must be y")
        );
        assert_eq!(api_message("<html>"), None);
        assert_eq!(api_message(r#"{"error":"x"}"#), None);
    }

    #[test]
    fn lists_are_taken_with_every_item_an_object() {
        let items = vec![x(json!({"a": 1})), x(json!(1)), x(json!("x"))];
        let err = check_items(&items, "blocks", "u").unwrap_err().to_string();
        assert!(err.contains("blocks[1] must be a JSON object, found 1"), "{err}");
        assert!(check_items(&[x(json!({}))], "blocks", "u").is_ok());
        let mut answer = x(json!({"blocks": [{"n": 1}], "nextPageToken": "t"}));
        assert_eq!(take_list(&mut answer, "blocks", "u").unwrap(), vec![x(json!({"n": 1}))]);
        let err = take_list(&mut x(json!({"other": []})), "blocks", "u").unwrap_err().to_string();
        assert!(err.contains(r#"the answer has no "blocks" list"#), "{err}");
        let err = take_list(&mut x(json!({"blocks": 5})), "blocks", "u").unwrap_err().to_string();
        assert!(err.contains(r#""blocks" is not a list"#), "{err}");
    }
}
