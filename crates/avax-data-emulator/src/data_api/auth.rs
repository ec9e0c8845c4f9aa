//! API keys and rate limits, in front of every Data API route.
//!
//! - The key is read from `x-glacier-api-key`, else `x-data-api-key` (an empty value counts as
//!   none).
//! - No key: 401 when keys are required, else served without any `ratelimit-*` header and never
//!   limited by the per-key policy (the compute-unit budget of [`super::budget`], when set, meters
//!   keyless requests in one bucket of their own).
//! - A refused key: 403.
//! - With a policy `{limit, window}`: fixed windows per key on the real clock, starting at the
//!   key's first request. Every keyed answer carries `ratelimit-policy: {limit};w={window secs}`,
//!   `ratelimit-limit` and `ratelimit-remaining`; request `limit + 1` of a window gets 429 with
//!   `ratelimit-remaining: 0`, `ratelimit-reset` and `retry-after` = whole seconds (rounded up,
//!   at least 1) until the window ends.

use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::extract::{Request, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode};
use axum::middleware::Next;
use axum::response::Response;
use serde_json::Value;

use super::errors;
use super::DataApiState;

/// A rate-limit policy: `limit` requests per `window`, per API key.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RateLimit {
    pub limit: u32,
    pub window: Duration,
}

struct Window {
    started: Instant,
    used: u32,
}

/// Key requirements, refused keys and the rate-limit windows.
pub(crate) struct AuthState {
    require_key: AtomicBool,
    refused: Mutex<HashSet<String>>,
    policy: Mutex<Option<RateLimit>>,
    windows: Mutex<HashMap<String, Window>>,
    /// The tier's compute-unit budget ([`super::budget`]), checked before the per-key limit.
    pub(crate) budget: super::budget::Meter,
}

/// The outcome of counting one keyed request.
enum Count {
    Allowed { remaining: u32 },
    Limited { reset_secs: u64 },
}

impl AuthState {
    pub(crate) fn new(require_key: bool, refused: &[String], policy: Option<RateLimit>) -> AuthState {
        AuthState {
            require_key: AtomicBool::new(require_key),
            refused: Mutex::new(refused.iter().cloned().collect()),
            policy: Mutex::new(policy),
            windows: Mutex::new(HashMap::new()),
            budget: super::budget::Meter::default(),
        }
    }

    pub(crate) fn set_require_key(&self, require: bool) {
        self.require_key.store(require, Ordering::Release);
    }

    pub(crate) fn set_refused_keys(&self, keys: &[String]) {
        *self.refused.lock().unwrap_or_else(|e| e.into_inner()) = keys.iter().cloned().collect();
    }

    /// Replaces the policy and forgets every window.
    pub(crate) fn set_rate_limit(&self, policy: Option<RateLimit>) {
        *self.policy.lock().unwrap_or_else(|e| e.into_inner()) = policy;
        self.windows.lock().unwrap_or_else(|e| e.into_inner()).clear();
    }

    fn policy(&self) -> Option<RateLimit> {
        *self.policy.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn count(&self, key: &str, policy: RateLimit) -> Count {
        let now = Instant::now();
        let mut windows = self.windows.lock().unwrap_or_else(|e| e.into_inner());
        let window = windows.entry(key.to_string()).or_insert(Window { started: now, used: 0 });
        if now.duration_since(window.started) >= policy.window {
            *window = Window { started: now, used: 0 };
        }
        if window.used < policy.limit {
            window.used += 1;
            Count::Allowed { remaining: policy.limit - window.used }
        } else {
            let left = policy.window.saturating_sub(now.duration_since(window.started));
            let secs = left.as_secs() + u64::from(left.subsec_nanos() > 0);
            Count::Limited { reset_secs: secs.max(1) }
        }
    }
}

/// The request's API key (`x-glacier-api-key`, else `x-data-api-key`; an empty value is none).
pub(crate) fn api_key(headers: &HeaderMap) -> Option<String> {
    ["x-glacier-api-key", "x-data-api-key"]
        .iter()
        .filter_map(|name| headers.get(*name))
        .filter_map(|v| v.to_str().ok())
        .map(str::trim)
        .find(|v| !v.is_empty())
        .map(str::to_string)
}

fn window_secs(window: Duration) -> u64 {
    (window.as_secs() + u64::from(window.subsec_nanos() > 0)).max(1)
}

fn set(headers: &mut HeaderMap, name: &'static str, value: String) {
    if let Ok(v) = HeaderValue::from_str(&value) {
        headers.insert(name, v);
    }
}

/// The service's 401 for a request without an API key.
pub(crate) fn unauthorized() -> Response {
    errors::error(
        StatusCode::UNAUTHORIZED,
        Value::from("An API key is required: send it in the x-glacier-api-key header"),
    )
}

/// The middleware: key checks, then the rate limit, then the route.
pub(crate) async fn guard(State(state): State<Arc<DataApiState>>, request: Request, next: Next) -> Response {
    let auth = &state.auth;
    let Some(key) = api_key(request.headers()) else {
        if auth.require_key.load(Ordering::Acquire) {
            return unauthorized();
        }
        return metered(auth, None, request, next).await;
    };
    if auth.refused.lock().unwrap_or_else(|e| e.into_inner()).contains(&key) {
        return errors::error(
            StatusCode::FORBIDDEN,
            Value::from("This API key is not allowed to access this resource"),
        );
    }
    let Some(policy) = auth.policy() else { return metered(auth, Some(&key), request, next).await };
    let policy_text = format!("{};w={}", policy.limit, window_secs(policy.window));
    match auth.count(&key, policy) {
        Count::Allowed { remaining } => {
            let mut response = metered(auth, Some(&key), request, next).await;
            let headers = response.headers_mut();
            set(headers, "ratelimit-policy", policy_text);
            set(headers, "ratelimit-limit", policy.limit.to_string());
            set(headers, "ratelimit-remaining", remaining.to_string());
            response
        }
        Count::Limited { reset_secs } => {
            let message = format!(
                "Rate limit exceeded: {} requests per {} seconds; retry in {reset_secs} seconds",
                policy.limit,
                window_secs(policy.window)
            );
            let mut response = errors::error(StatusCode::TOO_MANY_REQUESTS, Value::from(message));
            let headers = response.headers_mut();
            set(headers, "ratelimit-policy", policy_text);
            set(headers, "ratelimit-limit", policy.limit.to_string());
            set(headers, "ratelimit-remaining", "0".to_string());
            set(headers, "ratelimit-reset", reset_secs.to_string());
            set(headers, "retry-after", reset_secs.to_string());
            response
        }
    }
}

/// The route's answer, charged to `key`'s bucket of the compute-unit budget when one is set
/// ([`super::budget`]): 429 with the service's body and headers when the bucket is full.
async fn metered(auth: &AuthState, key: Option<&str>, request: Request, next: Next) -> Response {
    let weight = avax_data_core::transport::weights::weight(request.method().as_str(), request.uri().path());
    let Some(units) = auth.budget.units_per_minute() else { return next.run(request).await };
    let policy_text = format!("{units};w=60");
    match auth.budget.charge(key, weight, Instant::now()) {
        None => next.run(request).await,
        Some(super::budget::Charge::Served { remaining }) => {
            let mut response = next.run(request).await;
            let headers = response.headers_mut();
            set(headers, "ratelimit-policy", policy_text);
            set(headers, "ratelimit-limit", units.to_string());
            set(headers, "ratelimit-remaining", remaining.to_string());
            if remaining == 0 {
                set(headers, "ratelimit-reset", "1".to_string());
            }
            response
        }
        Some(super::budget::Charge::Refused { retry_secs }) => {
            let message = format!(
                "Rate limit exceeded: {units} compute units per 60 seconds (this request costs {weight}); retry in \
                 {retry_secs} seconds"
            );
            let mut response = errors::error(StatusCode::TOO_MANY_REQUESTS, Value::from(message));
            let headers = response.headers_mut();
            set(headers, "ratelimit-policy", policy_text);
            set(headers, "ratelimit-limit", units.to_string());
            set(headers, "ratelimit-remaining", "0".to_string());
            set(headers, "ratelimit-reset", retry_secs.to_string());
            set(headers, "retry-after", retry_secs.to_string());
            response
        }
    }
}
