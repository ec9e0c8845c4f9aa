//! The shared transport against a scripted loopback server: retries on 5xx, 429 and broken
//! connections, `Retry-After`, the retry budget, error mapping and redaction.

use std::time::{Duration, Instant};

use avax_data_core::error::{Error, TransportKind};
use avax_data_core::transport::{RetryPolicy, Transport, TransportConfig};
use axum::routing::any;
use axum::Router;

use crate::scripted::{quick_retries, serve_app, serve_script, Answer, Script};

async fn serve(answers: Vec<Answer>) -> (String, std::sync::Arc<Script>) {
    serve_script(answers, (200, vec![], "{\"fallback\":true}")).await
}

fn fast(max_retries: u32) -> TransportConfig {
    quick_retries(max_retries, Duration::from_millis(20), Duration::from_secs(5))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn server_errors_are_retried_until_success() {
    let (url, script) = serve(vec![(503, vec![], "busy"), (502, vec![], "bad gateway"), (200, vec![], "ok")]).await;
    let t = Transport::new(&url, fast(3)).unwrap();
    let reply = t.get("/v1/x", &[("a", "1".into())]).await.unwrap();
    assert_eq!(&reply.body[..], b"ok");
    assert_eq!(reply.url, format!("{url}/v1/x?a=1"));
    assert_eq!(script.count(), 3);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn max_retries_zero_gives_the_first_error_with_status_and_body() {
    let (url, script) = serve(vec![(500, vec![], "{\"message\":\"boom\"}")]).await;
    let t = Transport::new(&url, fast(0)).unwrap();
    match t.post_json("/ext/index/X/tx", "{}".into()).await {
        Err(Error::Http { status: 500, body, method, url: u, retry_after: None }) => {
            assert_eq!(body, "{\"message\":\"boom\"}");
            assert_eq!(method, "POST");
            assert_eq!(u, format!("{url}/ext/index/X/tx"));
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(script.count(), 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn client_errors_are_not_retried() {
    let (url, script) = serve(vec![(400, vec![], "bad"), (200, vec![], "ok")]).await;
    let t = Transport::new(&url, fast(3)).unwrap();
    assert!(matches!(t.get("/x", &[]).await, Err(Error::Http { status: 400, .. })));
    assert_eq!(script.count(), 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rate_limit_waits_retry_after_then_succeeds() {
    let (url, _) = serve(vec![(429, vec![("retry-after", "1".into())], "slow down"), (200, vec![], "ok")]).await;
    let t = Transport::new(&url, fast(2)).unwrap();
    let started = Instant::now();
    assert_eq!(&t.get("/x", &[]).await.unwrap().body[..], b"ok");
    assert!(started.elapsed() >= Duration::from_secs(1), "waited {:?}", started.elapsed());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn retry_after_beyond_the_budget_fails_at_once_and_carries_retry_after() {
    let (url, script) = serve(vec![(429, vec![("retry-after", "120".into())], "limit")]).await;
    let config =
        TransportConfig { retry: RetryPolicy { retry_budget: Duration::from_secs(5), ..fast(5).retry }, ..fast(5) };
    let t = Transport::new(&url, config).unwrap();
    let started = Instant::now();
    match t.get("/x", &[]).await {
        Err(e @ Error::Http { status: 429, .. }) => assert_eq!(e.retry_after(), Some(Duration::from_secs(120))),
        other => panic!("{other:?}"),
    }
    assert!(started.elapsed() < Duration::from_secs(5));
    assert_eq!(script.count(), 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_unreachable_port_is_a_connect_error_after_the_retries() {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    drop(listener);
    let t = Transport::new(&url, fast(2)).unwrap();
    match t.get("/x", &[]).await {
        Err(Error::Transport { kind: TransportKind::Connect, method, .. }) => assert_eq!(method, "GET"),
        other => panic!("{other:?}"),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_slow_answer_is_a_timeout() {
    let app = Router::new().route(
        "/slow",
        any(|| async {
            tokio::time::sleep(Duration::from_secs(3)).await;
            "late"
        }),
    );
    let url = serve_app(app).await;
    let config = TransportConfig { timeout: Duration::from_millis(200), ..fast(0) };
    let t = Transport::new(&url, config).unwrap();
    assert!(matches!(t.get("/slow", &[]).await, Err(Error::Transport { kind: TransportKind::Timeout, .. })));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn secret_headers_are_sent_but_never_shown_and_rate_limit_headers_are_kept() {
    let (url, script) = serve(vec![(
        403,
        vec![("ratelimit-limit", "100".into()), ("ratelimit-remaining", "0".into())],
        "key sk-123456 refused",
    )])
    .await;
    let config = TransportConfig {
        headers: vec![("x-glacier-api-key".into(), "sk-123456".into())],
        secret_headers: vec!["x-glacier-api-key".into()],
        ..fast(0)
    };
    let t = Transport::new(&url, config).unwrap();
    let err = t.get("/v1/chains", &[]).await.unwrap_err();
    assert_eq!(script.headers(0)["x-glacier-api-key"], "sk-123456");
    let shown = format!("{err} {err:?} {t:?}");
    assert!(!shown.contains("sk-123456"), "{shown}");
    assert!(shown.contains("key [redacted] refused"), "{shown}");
    let info = t.rate_limit().unwrap();
    assert_eq!((info.limit, info.remaining), (Some(100), Some(0)));
}

#[test]
fn bad_base_urls_are_refused_before_any_request() {
    for bad in ["ftp://host", "not a url", "http://"] {
        let err = Transport::new(bad, TransportConfig::default()).unwrap_err().to_string();
        assert!(err.starts_with("invalid url="), "{bad}: {err}");
    }
    let err = Transport::new("https://user:pw1234@host", TransportConfig::default()).unwrap();
    assert_eq!(err.base_url(), "https://***:***@host");
}
