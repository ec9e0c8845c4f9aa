//! `GET /v2/live-check`: the Terminus-style report of a live service.

use axum::response::Response;
use serde_json::json;

use super::errors;

pub(crate) async fn check() -> Response {
    let up = json!({"database": {"status": "up"}, "cache": {"status": "up"}});
    errors::ok(json!({"status": "ok", "info": up, "error": {}, "details": up}))
}
