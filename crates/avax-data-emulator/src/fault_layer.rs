//! The fault-injection middleware, in front of every route (inside the counting and latency
//! layer). For each request it takes the plan's decision (`faults.rs`) and produces the first
//! kind that fired and applies to the request:
//!
//! - before the service answers: `reset`, `500`/`502`/`503`, `429`, the two redirects;
//! - inside the Index RPC handler (handed over as [`IndexFaults`], reported back as [`Applied`]):
//!   `rpc_error`, `lagging_tip`, `short_batch`, `bad_checksum`;
//! - on the service's successful answer: `repeated_token` (Data and Metrics APIs), `cut`,
//!   `truncated_json`, `malformed_json`, `slow_body`, `oversized`, `gzip_bomb`.
//!
//! A request carrying the redirect marker ([`REDIRECT_MARKER`]) has the marker removed and is
//! served without faults. Faults are counted by kind and path when produced.

use std::sync::Arc;

use axum::body::Body;
use axum::extract::connect_info::ConnectInfo;
use axum::extract::{Request, State};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode, Uri};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use bytes::Bytes;
use serde_json::Value;

use super::data_api::errors;
use super::fault_bodies as bodies;
use super::fault_conn::Conn;
use super::faults::{FaultDraw, FaultKind, FaultOptions, FaultState};
use super::layers::go_plain_text;
use super::state::EmulatorState;

/// The query pair a redirect fault adds to its `Location`: a request carrying it is served
/// normally (and the pair removed before the service sees the query).
pub const REDIRECT_MARKER: (&str, &str) = ("avax_fault", "redirected");

/// The faults the Index RPC handler may produce on this request (a request extension).
#[derive(Debug, Clone, Copy)]
pub(crate) struct IndexFaults {
    /// The decision of the request.
    pub(crate) draw: FaultDraw,
    /// How far behind a `lagging_tip` node is.
    pub(crate) lag: u64,
}

/// The fault a handler produced (a response extension), for the counters.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Applied(pub(crate) FaultKind);

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Service {
    Index,
    Rest,
    Other,
}

impl Service {
    fn of(path: &str) -> Service {
        if path.starts_with("/ext/index/") {
            Service::Index
        } else if path.starts_with("/v1/") || path.starts_with("/v2/") {
            Service::Rest
        } else {
            Service::Other
        }
    }
}

/// The middleware.
pub(crate) async fn inject(State(state): State<Arc<EmulatorState>>, mut request: Request, next: Next) -> Response {
    if take_marker(&mut request) {
        return next.run(request).await;
    }
    let faults = &state.faults;
    let Some((draw, options)) = faults.draw().filter(|(draw, _)| !draw.is_empty()) else {
        return next.run(request).await;
    };
    let path = request.uri().path().to_string();
    let service = Service::of(&path);
    let conn = request.extensions().get::<ConnectInfo<Conn>>().map(|c| c.0.clone());
    for kind in draw.kinds() {
        if let Some(response) = before(kind, &request, service, conn.as_ref(), faults, &options) {
            faults.count(kind, &path);
            return response;
        }
    }
    let token = (service == Service::Rest).then(|| page_token(request.uri())).flatten();
    if service == Service::Index {
        request.extensions_mut().insert(IndexFaults { draw, lag: options.lag });
    }
    let response = next.run(request).await;
    if let Some(Applied(kind)) = response.extensions().get::<Applied>().copied() {
        faults.count(kind, &path);
        return response;
    }
    if !response.status().is_success() {
        return response;
    }
    let (mut parts, body) = response.into_parts();
    let body = match axum::body::to_bytes(body, usize::MAX).await {
        Ok(body) => body,
        Err(e) => return go_plain_text(StatusCode::INTERNAL_SERVER_ERROR, format!("emulator body failed: {e}"), false),
    };
    for kind in draw.kinds() {
        if let Some(new_body) =
            after(kind, &body, &mut parts.headers, token.as_deref(), conn.clone(), &state, &options).await
        {
            faults.count(kind, &path);
            return Response::from_parts(parts, new_body);
        }
    }
    Response::from_parts(parts, Body::from(body))
}

/// Removes the redirect marker from the query; whether it was there.
fn take_marker(request: &mut Request) -> bool {
    let Some(query) = request.uri().query() else { return false };
    let marker = format!("{}={}", REDIRECT_MARKER.0, REDIRECT_MARKER.1);
    if !query.split('&').any(|pair| pair == marker) {
        return false;
    }
    let rest: Vec<&str> = query.split('&').filter(|pair| *pair != marker).collect();
    let path = request.uri().path();
    let path_and_query = if rest.is_empty() { path.to_string() } else { format!("{path}?{}", rest.join("&")) };
    let mut parts = request.uri().clone().into_parts();
    parts.path_and_query = path_and_query.parse().ok();
    if let Ok(uri) = Uri::from_parts(parts) {
        *request.uri_mut() = uri;
    }
    true
}

/// The `pageToken` query parameter, decoded.
fn page_token(uri: &Uri) -> Option<String> {
    let query = uri.query()?;
    url::form_urlencoded::parse(query.as_bytes()).find(|(k, _)| k == "pageToken").map(|(_, v)| v.into_owned())
}

fn set(headers: &mut HeaderMap, name: header::HeaderName, value: impl ToString) {
    if let Ok(v) = HeaderValue::from_str(&value.to_string()) {
        headers.insert(name, v);
    }
}

/// An error status as the service would send it: the REST services' JSON body, the node's (or
/// its proxy's) plain text otherwise.
fn status_answer(status: StatusCode, service: Service) -> Response {
    let reason = status.canonical_reason().unwrap_or("Error");
    match service {
        Service::Rest => errors::error(status, Value::from(format!("{reason} (injected fault)"))),
        _ => go_plain_text(status, format!("{} {reason}\n", status.as_u16()), false),
    }
}

/// The faults produced instead of the service's answer.
fn before(
    kind: FaultKind,
    request: &Request,
    service: Service,
    conn: Option<&Conn>,
    faults: &FaultState,
    options: &FaultOptions,
) -> Option<Response> {
    let status = match kind {
        FaultKind::Reset => {
            conn?.kill();
            return Some(StatusCode::OK.into_response());
        }
        FaultKind::Http500 => StatusCode::INTERNAL_SERVER_ERROR,
        FaultKind::Http502 => StatusCode::BAD_GATEWAY,
        FaultKind::Http503 => StatusCode::SERVICE_UNAVAILABLE,
        FaultKind::Http429 => {
            let mut response = status_answer(StatusCode::TOO_MANY_REQUESTS, service);
            let headers = response.headers_mut();
            let wait = options.retry_after_secs;
            set(headers, header::RETRY_AFTER, wait);
            set(headers, header::HeaderName::from_static("ratelimit-policy"), "100;w=60");
            set(headers, header::HeaderName::from_static("ratelimit-limit"), 100);
            set(headers, header::HeaderName::from_static("ratelimit-remaining"), 0);
            set(headers, header::HeaderName::from_static("ratelimit-reset"), wait);
            return Some(response);
        }
        FaultKind::RedirectSameOrigin | FaultKind::RedirectCrossOrigin => {
            let origins = faults.origins.get()?;
            let own = conn.map_or(0, |c| c.listener);
            let origin = if kind == FaultKind::RedirectSameOrigin { &origins[own] } else { &origins[1 - own] };
            let uri = request.uri();
            let marker = format!("{}={}", REDIRECT_MARKER.0, REDIRECT_MARKER.1);
            let query = match uri.query() {
                Some(q) if !q.is_empty() => format!("{q}&{marker}"),
                _ => marker,
            };
            let mut response = StatusCode::TEMPORARY_REDIRECT.into_response();
            set(response.headers_mut(), header::LOCATION, format!("{origin}{}?{query}", uri.path()));
            return Some(response);
        }
        _ => return None,
    };
    Some(status_answer(status, service))
}

/// The faults produced on the service's successful answer `body`: the new body (and headers), or
/// `None` when `kind` does not apply to it.
async fn after(
    kind: FaultKind,
    body: &Bytes,
    headers: &mut HeaderMap,
    token: Option<&str>,
    conn: Option<Conn>,
    state: &Arc<EmulatorState>,
    options: &FaultOptions,
) -> Option<Body> {
    let full_length = |headers: &mut HeaderMap, n: u64| set(headers, header::CONTENT_LENGTH, n);
    match kind {
        FaultKind::RepeatedToken => {
            let new = bodies::repeat_token(body, token?)?;
            headers.remove(header::CONTENT_LENGTH);
            Some(Body::from(new))
        }
        FaultKind::Cut if body.len() >= 2 => {
            full_length(headers, body.len() as u64);
            Some(bodies::cut(body.clone(), conn))
        }
        FaultKind::TruncatedJson => {
            let new = bodies::truncated(body)?;
            headers.remove(header::CONTENT_LENGTH);
            Some(Body::from(new))
        }
        FaultKind::MalformedJson => {
            let new = bodies::malformed(body)?;
            headers.remove(header::CONTENT_LENGTH);
            Some(Body::from(new))
        }
        FaultKind::SlowBody if !body.is_empty() => {
            full_length(headers, body.len() as u64);
            Some(bodies::slow(body.clone(), options.slow_body_pause))
        }
        FaultKind::Oversized if options.oversized_bytes > 0 => {
            full_length(headers, body.len() as u64 + options.oversized_bytes);
            Some(bodies::oversized(body.clone(), options.oversized_bytes))
        }
        FaultKind::GzipBomb => {
            let size = options.gzip_bomb_bytes;
            let state = state.clone();
            let bomb = tokio::task::spawn_blocking(move || state.faults.bomb(size)).await.ok()?;
            full_length(headers, bomb.len() as u64);
            headers.insert(header::CONTENT_ENCODING, HeaderValue::from_static("gzip"));
            Some(Body::from(bomb))
        }
        _ => None,
    }
}
