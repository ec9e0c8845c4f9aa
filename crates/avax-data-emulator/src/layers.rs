//! Middleware wrapped around every route of the emulator (all three services). Behaviour that
//! applies to any request — counting, the request log, added latency — lives here, in front of the
//! handlers; fault injection is the next layer in (`fault_layer.rs`).

use std::sync::Arc;

use axum::extract::{Request, State};
use axum::http::{header, HeaderValue, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use super::state::EmulatorState;

/// Counts and logs the request, waits the configured latency before handing it on, and logs the
/// status of the answer.
pub(crate) async fn count_and_delay(State(state): State<Arc<EmulatorState>>, request: Request, next: Next) -> Response {
    state.count_request();
    let seq = state.faults.log(request.method().as_str(), request.uri().path());
    let latency = state.latency();
    if !latency.is_zero() {
        tokio::time::sleep(latency).await;
    }
    let response = next.run(request).await;
    state.faults.log_status(seq, response.status().as_u16());
    response
}

/// The header naming the span of the emulator's world (Data and Metrics API answers):
/// `FIRST/LAST`, Unix seconds of its first block and of its "now". A client reads it to say why
/// a window holds no data; the real services never send it.
pub const WORLD_HEADER: &str = "x-avax-emulator-world";

/// The header naming the emulator's world (Data and Metrics API answers): what its answers
/// depend on (`seed{seed}-blocks{blocks_per_chain}`). A client with a cache keys its Data and
/// Metrics entries by it, so an emulator restarted on the same port with another seed sees none
/// of the former world's entries; the real services never send it.
pub const WORLD_ID_HEADER: &str = "x-avax-emulator-world-id";

/// Adds [`WORLD_HEADER`] and [`WORLD_ID_HEADER`] to the answers of the Data API (`/v1/...`) and
/// the Metrics API (`/v2/...`).
pub(crate) async fn world_span(State(state): State<Arc<EmulatorState>>, request: Request, next: Next) -> Response {
    let api = request.uri().path().starts_with("/v1/") || request.uri().path().starts_with("/v2/");
    let mut response = next.run(request).await;
    if api {
        let (first_ms, last_ms) = state.data.world.span_ms();
        let value = format!("{}/{}", first_ms.div_euclid(1000), last_ms.div_euclid(1000));
        if let Ok(value) = HeaderValue::from_str(&value) {
            response.headers_mut().insert(WORLD_HEADER, value);
        }
        if let Ok(value) = HeaderValue::from_str(&state.data.world.name()) {
            response.headers_mut().insert(WORLD_ID_HEADER, value);
        }
    }
    response
}

/// Go's `http.NotFound`: 404, `404 page not found\n`, as a node answers a path it does not serve.
pub(crate) fn go_not_found() -> Response {
    go_plain_text(StatusCode::NOT_FOUND, "404 page not found\n".to_string(), true)
}

/// A Go `text/plain; charset=utf-8` answer (`http.Error` also sets `nosniff`).
pub(crate) fn go_plain_text(status: StatusCode, body: String, nosniff: bool) -> Response {
    let mut response = (status, body).into_response();
    let headers = response.headers_mut();
    headers.insert(header::CONTENT_TYPE, HeaderValue::from_static("text/plain; charset=utf-8"));
    if nosniff {
        headers.insert(header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
    }
    response
}

/// The fallback for every path no service claims.
pub(crate) async fn not_found() -> Response {
    go_not_found()
}
