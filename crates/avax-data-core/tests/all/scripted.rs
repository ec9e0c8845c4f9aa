//! What the transport tests share: a loopback server for an axum app, a server answering a
//! script of (status, headers, body) in turn that records each request, and a transport whose
//! retries wait milliseconds.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use avax_data_core::transport::{RetryPolicy, TransportConfig};
use axum::http::{HeaderMap, StatusCode};
use axum::response::IntoResponse;
use axum::routing::any;
use axum::Router;

/// Serves `app` on a free loopback port; its base URL.
pub async fn serve_app(app: Router) -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    url
}

/// One scripted answer: status, extra headers, body.
pub type Answer = (u16, Vec<(&'static str, String)>, &'static str);

/// The answers still to give and the requests seen (when each came, with its headers).
pub struct Script {
    answers: Mutex<VecDeque<Answer>>,
    fallback: Answer,
    seen: Mutex<Vec<(Instant, HeaderMap)>>,
}

impl Script {
    /// How many requests came.
    pub fn count(&self) -> usize {
        self.seen.lock().unwrap().len()
    }

    /// When each request came.
    pub fn times(&self) -> Vec<Instant> {
        self.seen.lock().unwrap().iter().map(|(at, _)| *at).collect()
    }

    /// The headers of request `n` (from 0).
    pub fn headers(&self, n: usize) -> HeaderMap {
        self.seen.lock().unwrap()[n].1.clone()
    }
}

/// A server giving `answers` in turn, then `fallback` to every further request.
pub async fn serve_script(answers: Vec<Answer>, fallback: Answer) -> (String, Arc<Script>) {
    let script = Arc::new(Script { answers: Mutex::new(answers.into()), fallback, seen: Mutex::new(Vec::new()) });
    let state = script.clone();
    let app = Router::new().route(
        "/{*path}",
        any(move |headers: HeaderMap| {
            let state = state.clone();
            async move {
                state.seen.lock().unwrap().push((Instant::now(), headers));
                let next = state.answers.lock().unwrap().pop_front();
                let (status, extra, body) = next.unwrap_or_else(|| state.fallback.clone());
                let mut response = (StatusCode::from_u16(status).unwrap(), body).into_response();
                for (name, value) in extra {
                    response.headers_mut().insert(name, value.parse().unwrap());
                }
                response
            }
        }),
    );
    (serve_app(app).await, script)
}

/// A transport retrying up to `max_retries` times after 5 ms, at most `max_backoff` apart, each
/// request given `timeout`.
pub fn quick_retries(max_retries: u32, max_backoff: Duration, timeout: Duration) -> TransportConfig {
    TransportConfig {
        retry: RetryPolicy { max_retries, backoff: Duration::from_millis(5), max_backoff, ..RetryPolicy::default() },
        timeout,
        ..TransportConfig::default()
    }
}
