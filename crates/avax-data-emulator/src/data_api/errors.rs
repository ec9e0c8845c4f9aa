//! The service's JSON bodies: successes and the NestJS-style error body
//! `{"message": <string or [strings]>, "error": <reason>, "statusCode": <code>}`.

use axum::http::{header, HeaderValue, Method, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use serde_json::{json, Value};

/// A JSON answer with Express's content type.
pub(crate) fn json_response(status: StatusCode, body: &Value) -> Response {
    let mut response = (status, body.to_string()).into_response();
    response.headers_mut().insert(header::CONTENT_TYPE, HeaderValue::from_static("application/json; charset=utf-8"));
    response
}

/// What a handler answers: `Err` holds the error answer, so checks read `check(...)?`.
pub(crate) type Answer = Result<Response, Response>;

/// 200 with `body`.
pub(crate) fn ok(body: Value) -> Response {
    json_response(StatusCode::OK, &body)
}

/// An error body with `message` (a string or an array of strings).
pub(crate) fn error(status: StatusCode, message: Value) -> Response {
    let reason = status.canonical_reason().unwrap_or("Error");
    json_response(status, &json!({"message": message, "error": reason, "statusCode": status.as_u16()}))
}

/// 400 with a single message string.
pub(crate) fn bad_request(message: impl Into<String>) -> Response {
    error(StatusCode::BAD_REQUEST, Value::String(message.into()))
}

/// 400 with class-validator's array of messages (one per failed constraint).
pub(crate) fn validation_failed(messages: Vec<String>) -> Response {
    error(StatusCode::BAD_REQUEST, Value::from(messages))
}

/// 404 with a message string.
pub(crate) fn not_found(message: impl Into<String>) -> Response {
    error(StatusCode::NOT_FOUND, Value::String(message.into()))
}

/// Express's answer to a path or method no route serves: 404 `Cannot GET /v1/...`.
pub(crate) async fn cannot(method: Method, uri: Uri) -> Response {
    not_found(format!("Cannot {method} {}", uri.path()))
}
