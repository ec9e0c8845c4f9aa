//! Page tokens as the service issues them: a random UUID (v4 format) per page, kept server side
//! with the query it belongs to and the position of the next page, valid for 24 hours of the
//! emulator clock (real time plus whatever tests added with `Emulator::advance_clock`).
//!
//! - a token that is not a UUID: 400 `Invalid pageToken: ...`
//! - a UUID never issued: 400 `Invalid pageToken: ... unknown`
//! - issued more than 24 h ago: 400 `pageToken expired: ...`
//! - issued for another route, path parameter or filter: 400 `pageToken does not match ...`
//!
//! A token stays usable (any number of times) until it expires; `pageSize` may change between
//! pages.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use axum::response::Response;
use rand_chacha::rand_core::{RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::{json, Value};

use super::errors;
use super::params::Params;

/// How long a page token lives.
pub const TOKEN_LIFETIME: Duration = Duration::from_secs(24 * 60 * 60);

/// The emulator clock: monotonic real time since start plus a test-controlled offset.
pub(crate) struct Clock {
    started: Instant,
    offset_ns: AtomicU64,
}

impl Clock {
    pub(crate) fn new() -> Clock {
        Clock { started: Instant::now(), offset_ns: AtomicU64::new(0) }
    }

    /// Emulator time since start.
    pub(crate) fn now(&self) -> Duration {
        self.started.elapsed() + Duration::from_nanos(self.offset_ns.load(Ordering::Acquire))
    }

    pub(crate) fn advance(&self, by: Duration) {
        let ns = u64::try_from(by.as_nanos()).unwrap_or(u64::MAX);
        let _ = self.offset_ns.fetch_update(Ordering::AcqRel, Ordering::Acquire, |v| Some(v.saturating_add(ns)));
    }
}

struct Entry {
    fingerprint: String,
    position: u128,
    issued: Duration,
}

/// Issued tokens.
pub(crate) struct TokenStore {
    entries: Mutex<HashMap<String, Entry>>,
    rng: Mutex<ChaCha8Rng>,
}

impl TokenStore {
    pub(crate) fn new(seed: u64) -> TokenStore {
        let nanos = SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.as_nanos()).unwrap_or(0);
        let mut key = [0u8; 32];
        key[..16].copy_from_slice(&nanos.to_le_bytes());
        key[16..24].copy_from_slice(&seed.to_le_bytes());
        key[24..].copy_from_slice(&u64::from(std::process::id()).to_le_bytes());
        TokenStore { entries: Mutex::new(HashMap::new()), rng: Mutex::new(ChaCha8Rng::from_seed(key)) }
    }

    /// A fresh random UUID v4 string.
    fn uuid(&self) -> String {
        let mut b = [0u8; 16];
        self.rng.lock().unwrap_or_else(|e| e.into_inner()).fill_bytes(&mut b);
        b[6] = (b[6] & 0x0f) | 0x40;
        b[8] = (b[8] & 0x3f) | 0x80;
        let h = hex::encode(b);
        format!("{}-{}-{}-{}-{}", &h[..8], &h[8..12], &h[12..16], &h[16..20], &h[20..])
    }

    /// Issues a token for the page at `position` of the query `fingerprint`.
    pub(crate) fn issue(&self, clock: &Clock, fingerprint: &str, position: u128) -> String {
        let now = clock.now();
        let token = self.uuid();
        let mut entries = self.entries.lock().unwrap_or_else(|e| e.into_inner());
        if entries.len() > 100_000 {
            entries.retain(|_, e| now.saturating_sub(e.issued) <= TOKEN_LIFETIME);
        }
        entries.insert(token.clone(), Entry { fingerprint: fingerprint.to_string(), position, issued: now });
        token
    }

    /// The position a token stands for, or the 400 the service answers.
    pub(crate) fn resolve(&self, clock: &Clock, token: &str, fingerprint: &str) -> Result<u128, Response> {
        if !is_uuid(token) {
            return Err(errors::bad_request(format!(
                "Invalid pageToken: {token:?} is not a page token issued by this service"
            )));
        }
        let entries = self.entries.lock().unwrap_or_else(|e| e.into_inner());
        let Some(entry) = entries.get(&token.to_ascii_lowercase()) else {
            return Err(errors::bad_request(format!("Invalid pageToken: {token} is unknown")));
        };
        if clock.now().saturating_sub(entry.issued) > TOKEN_LIFETIME {
            return Err(errors::bad_request(format!(
                "pageToken expired: {token} was issued more than 24 hours ago; start again from the first page"
            )));
        }
        if entry.fingerprint != fingerprint {
            return Err(errors::bad_request(format!(
                "pageToken does not match the request: {token} was issued for another query"
            )));
        }
        Ok(entry.position)
    }
}

/// Whether `text` is a UUID as the services write them (8-4-4-4-12 hex digits).
pub(crate) fn is_uuid(text: &str) -> bool {
    let b = text.as_bytes();
    b.len() == 36
        && b.iter()
            .enumerate()
            .all(|(i, c)| if [8, 13, 18, 23].contains(&i) { *c == b'-' } else { c.is_ascii_hexdigit() })
}

/// The start position of a page request: 0 without `pageToken`, else what the token stands for.
pub(crate) fn start(state: &super::DataApiState, params: &Params, fingerprint: &str) -> Result<u128, Response> {
    match params.get("pageToken") {
        None => Ok(0),
        Some(token) => state.tokens.resolve(&state.clock, token, fingerprint),
    }
}

/// `nextPageToken` for a page ending before `next` when more items follow.
pub(crate) fn next_token(state: &super::DataApiState, more: bool, fingerprint: &str, next: u128) -> Option<String> {
    more.then(|| state.tokens.issue(&state.clock, fingerprint, next))
}

/// One page of a fully known list: items `start..start+size` and the token of the next page.
pub(crate) fn slice<'a, T>(
    state: &super::DataApiState,
    items: &'a [T],
    start: u128,
    size: usize,
    fingerprint: &str,
) -> (&'a [T], Option<String>) {
    let from = usize::try_from(start).unwrap_or(usize::MAX).min(items.len());
    let to = from.saturating_add(size).min(items.len());
    (&items[from..to], next_token(state, to < items.len(), fingerprint, to as u128))
}

/// 200 with `body` and, when there is a next page, its `nextPageToken`.
pub(crate) fn with_next(mut body: Value, next: Option<String>) -> errors::Answer {
    if let Some(token) = next {
        body["nextPageToken"] = Value::String(token);
    }
    Ok(errors::ok(body))
}

/// 200 with `{field: page, nextPageToken}`: the page of `items` from `start` (`size` at most),
/// each as `to_json` writes it.
pub(crate) fn list_page<T>(
    state: &super::DataApiState,
    field: &str,
    items: &[T],
    (start, size): (u128, usize),
    fingerprint: &str,
    to_json: impl Fn(&T) -> Value,
) -> errors::Answer {
    let (page, next) = slice(state, items, start, size, fingerprint);
    with_next(json!({ field: page.iter().map(to_json).collect::<Vec<_>>() }), next)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uuids_are_v4_and_distinct() {
        let store = TokenStore::new(1);
        let a = store.uuid();
        let b = store.uuid();
        assert_ne!(a, b);
        assert!(is_uuid(&a));
        assert_eq!(&a[14..15], "4");
        assert!("89ab".contains(&a[19..20]));
    }

    #[test]
    fn tokens_expire_and_are_bound_to_their_query() {
        let store = TokenStore::new(1);
        let clock = Clock::new();
        let t = store.issue(&clock, "q", 42);
        assert_eq!(store.resolve(&clock, &t, "q").unwrap(), 42);
        assert!(store.resolve(&clock, &t, "other").is_err());
        assert!(store.resolve(&clock, "nope", "q").is_err());
        clock.advance(TOKEN_LIFETIME - Duration::from_secs(5));
        assert_eq!(store.resolve(&clock, &t, "q").unwrap(), 42);
        clock.advance(Duration::from_secs(10));
        assert!(store.resolve(&clock, &t, "q").is_err());
    }
}
