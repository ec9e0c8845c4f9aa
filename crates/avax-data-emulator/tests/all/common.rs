//! Helpers shared by the integration tests of the emulator's REST services (`/v1`, `/v2`): GETs
//! over real HTTP, the services' error bodies, and token-paged walks.

#![allow(dead_code)] // each test file uses its own part

use avax_data_emulator::Emulator;
use serde_json::Value;

/// A service's answer.
pub struct Answer {
    pub status: u16,
    pub headers: reqwest::header::HeaderMap,
    pub body: Value,
}

/// `GET {emulator}{path}` with `headers`; the body must be JSON, and a success is
/// `application/json; charset=utf-8`.
pub async fn get_with(emu: &Emulator, path: &str, headers: &[(&str, &str)]) -> Answer {
    let mut request = reqwest::Client::new().get(format!("{}{}", emu.url(), path));
    for (k, v) in headers {
        request = request.header(*k, *v);
    }
    let response = request.send().await.expect("request sent");
    let status = response.status().as_u16();
    let headers = response.headers().clone();
    let text = response.text().await.unwrap();
    let body = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{path}: not JSON ({e}): {text}"));
    if status < 300 {
        assert_eq!(headers["content-type"], "application/json; charset=utf-8", "{path}");
    }
    Answer { status, headers, body }
}

/// `GET {emulator}{path}`.
pub async fn get(emu: &Emulator, path: &str) -> Answer {
    get_with(emu, path, &[]).await
}

/// The body of a 200 answer.
pub async fn ok(emu: &Emulator, path: &str) -> Value {
    let a = get(emu, path).await;
    assert_eq!(a.status, 200, "{path}: {}", a.body);
    a.body
}

/// Asserts the services' error body `{message, error, statusCode}`; returns its message (a
/// string, or a non-empty list of strings).
pub fn error_body(a: &Answer, status: u16, reason: &str) -> Value {
    assert_eq!(a.status, status, "{}", a.body);
    assert_eq!(a.body["statusCode"], status, "{}", a.body);
    assert_eq!(a.body["error"], reason, "{}", a.body);
    let m = a.body["message"].clone();
    assert!(m.is_string() || m.as_array().is_some_and(|l| !l.is_empty() && l.iter().all(Value::is_string)), "{m}");
    m
}

/// The message of the error answer to `GET path`.
pub async fn error(emu: &Emulator, path: &str, status: u16, reason: &str) -> Value {
    error_body(&get(emu, path).await, status, reason)
}

/// `path` with one more query parameter.
pub fn with(path: &str, param: &str) -> String {
    format!("{path}{}{param}", if path.contains('?') { '&' } else { '?' })
}

/// Every item of the list `field`, following `nextPageToken` (each a UUID v4) to the end; also
/// the page count.
pub async fn all_pages(emu: &Emulator, path: &str, field: &str) -> (Vec<Value>, usize) {
    let mut items = Vec::new();
    let mut token: Option<String> = None;
    let mut pages = 0;
    loop {
        let url = match &token {
            Some(t) => with(path, &format!("pageToken={t}")),
            None => path.to_string(),
        };
        let body = ok(emu, &url).await;
        pages += 1;
        items.extend(body[field].as_array().unwrap_or_else(|| panic!("{field} in {body}")).iter().cloned());
        match body.get("nextPageToken") {
            Some(Value::String(t)) => {
                assert!(is_uuid_v4(t), "{t}");
                token = Some(t.clone());
            }
            Some(other) => panic!("nextPageToken {other}"),
            None => return (items, pages),
        }
    }
}

/// Whether `t` is a lowercase or uppercase UUID of version 4, variant 1.
pub fn is_uuid_v4(t: &str) -> bool {
    let b = t.as_bytes();
    b.len() == 36
        && b.iter()
            .enumerate()
            .all(|(i, c)| if [8, 13, 18, 23].contains(&i) { *c == b'-' } else { c.is_ascii_hexdigit() })
        && b[14] == b'4'
        && b"89ab".contains(&b[19])
}
