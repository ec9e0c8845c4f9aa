//! The transport against servers that misbehave on purpose: huge and unreadable `Retry-After`,
//! redirects to other origins and in loops, gzip bombs, endless and huge bodies, bodies cut
//! mid-way, malformed JSON, and servers that echo the API key back.

use std::io::Write;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use avax_data_core::data::client::{DataClient, DataClientOptions};
use avax_data_core::error::{Error, RedirectKind, TransportKind};
use avax_data_core::transport::{RetryPolicy, Transport, TransportConfig};
use axum::body::Body;
use axum::extract::Request;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::any;
use axum::Router;
use bytes::Bytes;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

use crate::scripted::{quick_retries, serve_app};

/// What [`scripted`] returns: its URL, the count of requests and the headers of each.
type Scripted = (String, Arc<AtomicUsize>, Arc<Mutex<Vec<HeaderMap>>>);

/// A server answering the `n`-th request (from 0) with `answer(n, headers)`; counts requests.
async fn scripted<F>(answer: F) -> Scripted
where
    F: Fn(usize, &HeaderMap) -> Response + Send + Sync + 'static,
{
    let count = Arc::new(AtomicUsize::new(0));
    let seen = Arc::new(Mutex::new(Vec::new()));
    let (c, s, answer) = (count.clone(), seen.clone(), Arc::new(answer));
    let app = Router::new().route(
        "/{*path}",
        any(move |req: Request| {
            let (c, s, answer) = (c.clone(), s.clone(), answer.clone());
            async move {
                let n = c.fetch_add(1, Ordering::SeqCst);
                s.lock().unwrap().push(req.headers().clone());
                answer(n, req.headers())
            }
        }),
    );
    (serve_app(app).await, count, seen)
}

/// A raw TCP server on a free local port: each connection (the `n`-th from 0), once its request
/// head is read, goes to `serve(n, socket)`; returns its URL and the count of connections.
async fn raw_tcp<F, Fut>(serve: F) -> (String, Arc<AtomicUsize>)
where
    F: Fn(usize, tokio::net::TcpStream) -> Fut + Send + Sync + 'static,
    Fut: std::future::Future<Output = ()> + Send + 'static,
{
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    let count = Arc::new(AtomicUsize::new(0));
    let (c, serve) = (count.clone(), Arc::new(serve));
    tokio::spawn(async move {
        loop {
            let (mut socket, _) = listener.accept().await.unwrap();
            let (n, serve) = (c.fetch_add(1, Ordering::SeqCst), serve.clone());
            tokio::spawn(async move {
                let mut buf = vec![0u8; 16 * 1024];
                let mut got = Vec::new();
                while !got.windows(4).any(|w| w == b"\r\n\r\n") {
                    match socket.read(&mut buf).await {
                        Ok(0) | Err(_) => return,
                        Ok(k) => got.extend_from_slice(&buf[..k]),
                    }
                }
                serve(n, socket).await;
            });
        }
    });
    (url, count)
}

/// A raw TCP server writing `raw(n)` as the whole answer to the `n`-th connection, then closing.
async fn raw_server(raw: impl Fn(usize) -> Vec<u8> + Send + Sync + 'static) -> (String, Arc<AtomicUsize>) {
    raw_tcp(move |n, mut socket| {
        let answer = raw(n);
        async move {
            let _ = socket.write_all(&answer).await;
            let _ = socket.shutdown().await;
        }
    })
    .await
}

fn fast(max_retries: u32) -> TransportConfig {
    quick_retries(max_retries, Duration::from_millis(50), Duration::from_secs(10))
}

fn status(code: u16, headers: &[(&str, &str)], body: impl Into<Body>) -> Response {
    let mut response = (StatusCode::from_u16(code).unwrap(), body.into()).into_response();
    for (name, value) in headers {
        response
            .headers_mut()
            .insert(axum::http::HeaderName::from_bytes(name.as_bytes()).unwrap(), value.parse().unwrap());
    }
    response
}

// ---- 1. Retry-After ----

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn unreadable_retry_after_values_wait_max_backoff_and_never_panic() {
    for value in ["1e20", "-5", "NaN", "inf", "tomorrow-ish"] {
        let v = value.to_string();
        let (url, count, _) =
            scripted(
                move |n, _| if n == 0 { status(429, &[("retry-after", &v)], "slow") } else { status(200, &[], "ok") },
            )
            .await;
        let t = Transport::new(&url, fast(2)).unwrap();
        let started = Instant::now();
        assert_eq!(&t.get("/x", &[]).await.unwrap().body[..], b"ok", "{value}");
        assert!(started.elapsed() < Duration::from_secs(2), "{value}: waited {:?}", started.elapsed());
        assert_eq!(count.load(Ordering::SeqCst), 2, "{value}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_retry_after_date_past_the_budget_raises_at_once_with_retry_after() {
    let later = httpdate::fmt_http_date(std::time::SystemTime::now() + Duration::from_secs(3600));
    let (url, count, _) = scripted(move |_, _| status(429, &[("retry-after", &later)], "later")).await;
    let config =
        TransportConfig { retry: RetryPolicy { retry_budget: Duration::from_secs(30), ..fast(5).retry }, ..fast(5) };
    let t = Transport::new(&url, config).unwrap();
    let started = Instant::now();
    let err = t.get("/x", &[]).await.unwrap_err();
    assert!(started.elapsed() < Duration::from_secs(2));
    assert_eq!(count.load(Ordering::SeqCst), 1);
    let asked = err.retry_after().unwrap();
    assert!(asked > Duration::from_secs(3500) && asked <= Duration::from_secs(3600), "{asked:?}");
    assert!(matches!(err, Error::Http { status: 429, .. }));
}

// ---- 2. Redirects ----

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn same_origin_redirects_are_followed_with_the_key() {
    let (url, count, seen) = scripted(|n, _| match n {
        0 => status(301, &[("location", "/v1/moved")], ""),
        1 => status(307, &[("location", "moved2")], ""),
        _ => status(200, &[], "{}"),
    })
    .await;
    let reply = Transport::new(&url, key_config(&keyed(0))).unwrap().get("/v1/x", &[]).await.unwrap();
    assert_eq!(reply.url, format!("{url}/v1/moved2"));
    assert_eq!(count.load(Ordering::SeqCst), 3);
    assert!(seen.lock().unwrap().iter().all(|h| h["x-glacier-api-key"] == "sekret-key-123"));
}

/// Data API options with the key `sekret-key-123` and `fast(max_retries)`.
fn keyed(max_retries: u32) -> DataClientOptions {
    DataClientOptions { transport: fast(max_retries), api_key: Some("sekret-key-123".into()) }
}

/// Another origin answering every request with `body` (returned first), and a server whose
/// every answer is a `code` redirect to `path` on that origin.
async fn cross_origin(code: u16, path: &str, body: &'static str) -> (Scripted, Scripted) {
    let other = scripted(move |_, _| status(200, &[], body)).await;
    let target = format!("{}{path}", other.0);
    let redirecting = scripted(move |_, _| status(code, &[("location", &target)], "")).await;
    (other, redirecting)
}

fn key_config(options: &DataClientOptions) -> TransportConfig {
    let mut config = options.transport.clone();
    let key = options.api_key.clone().unwrap();
    for name in ["x-glacier-api-key", "x-data-api-key"] {
        config.headers.push((name.into(), key.clone()));
        config.secret_headers.push(name.into());
    }
    config.headers.push(("authorization".into(), "Bearer tok-abcdef".into()));
    config.headers.push(("cookie".into(), "session=cookie-123456".into()));
    config.headers.push(("x-team-secret".into(), "team-secret-789".into()));
    config.headers.push(("x-trace".into(), "visible".into()));
    config.secret_headers.push("x-team-secret".into());
    config
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_cross_origin_redirect_is_refused_and_nothing_reaches_the_other_origin() {
    let ((other, other_count, _), (url, count, _)) = cross_origin(302, "/steal?apiKey=sekret-key-123", "{}").await;
    let t = Transport::new(&url, key_config(&keyed(3))).unwrap();
    let err = t.get("/v1/chains", &[]).await.unwrap_err();
    match &err {
        Error::Redirect { kind: RedirectKind::CrossOrigin, status: 302, from, to, hops: 0, .. } => {
            assert_eq!(from, &format!("{url}/v1/chains"));
            assert_eq!(to, &format!("{other}/steal?apiKey=***"));
        }
        other => panic!("{other:?}"),
    }
    let text = err.to_string();
    assert!(text.contains("follow_cross_origin_redirects") && !text.contains("sekret"), "{text}");
    assert_eq!((count.load(Ordering::SeqCst), other_count.load(Ordering::SeqCst)), (1, 0));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_allowed_cross_origin_redirect_drops_every_secret_header() {
    let ((other, _, other_seen), (url, _, seen)) = cross_origin(308, "/elsewhere", "{\"ok\":true}").await;
    let config = TransportConfig { follow_cross_origin_redirects: true, ..key_config(&keyed(0)) };
    let t = Transport::new(&url, config).unwrap();
    let reply = t.post_json("/ext/index/C/block", Bytes::from_static(b"{}")).await.unwrap();
    assert_eq!(reply.url, format!("{other}/elsewhere"));
    let first = seen.lock().unwrap()[0].clone();
    assert_eq!(first["authorization"], "Bearer tok-abcdef");
    assert_eq!(first["x-team-secret"], "team-secret-789");
    let moved = other_seen.lock().unwrap()[0].clone();
    for name in
        ["x-glacier-api-key", "x-data-api-key", "authorization", "cookie", "x-team-secret", "proxy-authorization"]
    {
        assert!(moved.get(name).is_none(), "{name} was sent to the other origin");
    }
    assert_eq!(moved["x-trace"], "visible");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn redirect_loops_and_long_chains_end_with_a_typed_error() {
    let (url, count, _) = scripted(|n, _| status(302, &[("location", if n % 2 == 0 { "/b" } else { "/a" })], "")).await;
    let t = Transport::new(&url, fast(3)).unwrap();
    match t.get("/a", &[]).await.unwrap_err() {
        Error::Redirect { kind: RedirectKind::Loop, to, .. } => assert_eq!(to, format!("{url}/a")),
        other => panic!("{other:?}"),
    }
    assert_eq!(count.load(Ordering::SeqCst), 2);
    let (url, count, _) = scripted(|n, _| status(302, &[("location", &format!("/hop{}", n + 1))], "")).await;
    let t = Transport::new(&url, fast(3)).unwrap();
    match t.get("/hop0", &[]).await.unwrap_err() {
        Error::Redirect { kind: RedirectKind::TooMany, hops: 5, .. } => {}
        other => panic!("{other:?}"),
    }
    assert_eq!(count.load(Ordering::SeqCst), 6);
}

// ---- 3. Body limits ----

fn gzip_of_zeros(len: usize) -> Vec<u8> {
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    let block = vec![b' '; 1 << 20];
    let mut left = len;
    while left > 0 {
        let n = left.min(block.len());
        encoder.write_all(&block[..n]).unwrap();
        left -= n;
    }
    encoder.finish().unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_gzip_bomb_stops_at_the_limit_counted_after_decompression() {
    let bomb = Bytes::from(gzip_of_zeros(64 << 20));
    assert!(bomb.len() < 1 << 20, "{}", bomb.len());
    let (url, count, _) = scripted(move |_, _| {
        status(200, &[("content-encoding", "gzip"), ("content-type", "application/json")], bomb.clone())
    })
    .await;
    let config = TransportConfig { max_response_bytes: 4 << 20, ..fast(3) };
    let t = Transport::new(&url, config).unwrap();
    match t.get("/v1/x", &[]).await.unwrap_err() {
        Error::BodyTooLarge { limit, method, url: u } => {
            assert_eq!((limit, method.as_str(), u), (4 << 20, "GET", format!("{url}/v1/x")));
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(count.load(Ordering::SeqCst), 1, "a body over the limit is not retried");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_endless_body_stops_at_the_limit_not_at_the_timeout() {
    let (url, _, _) = scripted(|_, _| {
        let chunks = futures::stream::repeat_with(|| Ok::<_, std::io::Error>(Bytes::from(vec![b'x'; 64 * 1024])));
        status(200, &[], Body::from_stream(chunks))
    })
    .await;
    let config = TransportConfig { max_response_bytes: 8 << 20, timeout: Duration::from_secs(30), ..fast(0) };
    let t = Transport::new(&url, config).unwrap();
    let started = Instant::now();
    assert!(matches!(t.get("/x", &[]).await, Err(Error::BodyTooLarge { limit: 8_388_608, .. })));
    assert!(started.elapsed() < Duration::from_secs(10), "{:?}", started.elapsed());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn error_bodies_are_cut_at_64_kib_and_marked() {
    let (url, _, _) = scripted(|_, _| status(500, &[], vec![b'e'; 1_000_000])).await;
    let t = Transport::new(&url, fast(0)).unwrap();
    match t.get("/x", &[]).await.unwrap_err() {
        Error::Http { status: 500, body, .. } => {
            assert!(body.ends_with("…[cut: 1000000 bytes total]"), "{}", &body[body.len() - 40..]);
            assert_eq!(body.len(), 64 * 1024 + "…[cut: 1000000 bytes total]".len());
        }
        other => panic!("{other:?}"),
    }
    let (url, _, _) = scripted(|_, _| {
        let chunks = futures::stream::repeat_with(|| Ok::<_, std::io::Error>(Bytes::from(vec![b'e'; 64 * 1024])));
        status(503, &[], Body::from_stream(chunks))
    })
    .await;
    let config = TransportConfig { max_response_bytes: 1 << 20, ..fast(0) };
    let t = Transport::new(&url, config).unwrap();
    match t.get("/x", &[]).await.unwrap_err() {
        Error::Http { status: 503, body, .. } => {
            assert!(body.ends_with("bytes]") && body.contains("…[cut: more than"), "{}", &body[body.len() - 40..])
        }
        other => panic!("{other:?}"),
    }
}

/// A raw TCP server answering every connection with `head` and then an endless stream of `e`s,
/// until a write fails; sends each connection's count of body bytes written into `sent`.
async fn endless_error_server(head: String, sent: tokio::sync::mpsc::UnboundedSender<u64>) -> String {
    let (url, _) = raw_tcp(move |_, mut socket| {
        let (head, sent) = (head.clone(), sent.clone());
        async move {
            socket.write_all(head.as_bytes()).await.unwrap();
            let chunk = vec![b'e'; 64 * 1024];
            let mut written = 0u64;
            // Ends only when the client closes the connection: the body never ends.
            while socket.write_all(&chunk).await.is_ok() {
                written += chunk.len() as u64;
            }
            let _ = sent.send(written);
        }
    })
    .await;
    url
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_huge_error_body_is_read_only_up_to_what_is_kept_on_every_attempt() {
    // 1 GiB declared, 256 MiB the response limit: reading to the limit would take 256 MiB per
    // attempt. What the server manages to write before the client closes is bounded by the
    // socket buffers, a few MiB on loopback.
    const BOUND: u64 = 32 << 20;
    for head in [
        "HTTP/1.1 503 Service Unavailable\r\ncontent-length: 1073741824\r\n\r\n",
        "HTTP/1.1 500 Internal Server Error\r\nconnection: close\r\n\r\n",
    ] {
        let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel();
        let url = endless_error_server(head.to_string(), tx).await;
        let t = Transport::new(&url, fast(2)).unwrap();
        assert_eq!(t.config().max_response_bytes, 256 << 20);
        let Error::Http { status, body, .. } = t.get("/x", &[]).await.unwrap_err() else { panic!("not an HTTP error") };
        assert!(status == 503 || status == 500);
        assert!(body.starts_with(&"e".repeat(64 * 1024)));
        let mark = &body[64 * 1024..];
        if status == 503 {
            assert_eq!(mark, "…[cut: 1073741824 bytes total]");
        } else {
            assert!(mark.starts_with("…[cut: more than ") && mark.ends_with(" bytes]"), "{mark}");
        }
        drop(t);
        // Three attempts, three connections, each closed by the client after a bounded read
        // (the server's write failed: nothing was drained).
        for attempt in 0..3 {
            let written = tokio::time::timeout(Duration::from_secs(60), rx.recv()).await.unwrap().unwrap();
            assert!(written < BOUND, "{head:?} attempt {attempt}: the server wrote {written} bytes");
        }
    }
}

// ---- 4. Cut and malformed JSON ----

fn raw_ok(body: &str, declared: usize) -> Vec<u8> {
    format!("HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: {declared}\r\nconnection: close\r\n\r\n{body}")
        .into_bytes()
}

/// `health()` of a Data API client retrying up to `max_retries` times against the raw answers
/// `raw`: its result and the number of requests the server saw.
async fn raw_health(
    max_retries: u32,
    raw: impl Fn(usize) -> Vec<u8> + Send + Sync + 'static,
) -> (avax_data_core::Result<avax_data_core::exact::Exact>, usize) {
    let (url, count) = raw_server(raw).await;
    let options = DataClientOptions { transport: fast(max_retries), api_key: None };
    let health = DataClient::new(Some(&url), options).unwrap().health().await;
    (health, count.load(Ordering::SeqCst))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_body_cut_mid_way_or_truncated_json_is_retried() {
    let whole = r#"{"status":"ok","details":{}}"#;
    // connection closed before content-length bytes arrived, then JSON that ends early, then whole
    let (health, requests) = raw_health(3, move |n| match n {
        0 => raw_ok(&whole[..10], whole.len()),
        1 => raw_ok(&whole[..12], 12),
        _ => raw_ok(whole, whole.len()),
    })
    .await;
    assert_eq!(health.unwrap()["status"], "ok");
    assert_eq!(requests, 3);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn malformed_json_is_a_decode_error_at_once() {
    let (health, requests) = raw_health(3, |_| raw_ok(r#"{"status": nope}"#, 16)).await;
    match health.unwrap_err() {
        Error::Decode { message, body, .. } => {
            assert!(message.starts_with("not JSON: expected ident"), "{message}");
            assert_eq!(body, r#"{"status": nope}"#);
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(requests, 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_cut_body_on_every_attempt_ends_as_a_transport_error() {
    let (health, requests) = raw_health(2, |_| raw_ok(r#"{"status":"#, 10)).await;
    match health.unwrap_err() {
        Error::Transport { kind: TransportKind::Io, message, .. } => {
            assert!(message.contains("ended early"), "{message}")
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(requests, 3);
}

// ---- 5. Redaction of echoed secrets ----

fn echo(headers: &HeaderMap) -> String {
    headers.iter().map(|(k, v)| format!("{k}: {}", v.to_str().unwrap_or("?"))).collect::<Vec<_>>().join("\n")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn secrets_echoed_by_the_server_never_reach_an_error() {
    let (url, _, _) = scripted(|n, h| match n {
        0 => status(200, &[], format!("not json, you sent {}", echo(h))),
        1 => status(200, &[], format!("{{\"blocks\": [\"{}\"], \"nextPageToken\": null}}", echo(h).replace('\n', " "))),
        2 => status(200, &[], format!("{{\"chainId\": 5, \"echo\": {:?}}}", echo(h))),
        _ => status(500, &[], echo(h)),
    })
    .await;
    let client = DataClient::new(Some(&url), keyed(0)).unwrap();
    let paged = client.blocks("43114", Some(10)).unwrap();
    let errors = vec![
        client.health().await.unwrap_err(),
        client.page(&paged, None).await.unwrap_err(),
        client.chain("43114").unwrap().await.unwrap_err(),
        client.health().await.unwrap_err(),
    ];
    assert!(
        matches!(errors[1], Error::Decode { ref message, .. } if message.starts_with("blocks[0] must be a JSON object"))
    );
    assert!(
        matches!(errors[2], Error::Decode { ref message, .. } if message.contains("field \"chainId\" must be a string, found 5"))
    );
    for err in errors {
        let shown = format!("{err} {err:?}");
        assert!(!shown.contains("sekret-key-123"), "{shown}");
        assert!(shown.contains("[redacted]"), "{shown}");
    }
}

// ---- 8. Index hints ----

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_evm_rpc_url_gets_a_hint_naming_the_index_path() {
    let (url, _, _) = scripted(|_, _| status(404, &[], "404 page not found")).await;
    let client =
        avax_data_core::index::client::IndexClient::new(&format!("{url}/ext/bc/C/rpc"), Default::default()).unwrap();
    let err =
        client.chain(avax_data_core::index::path::IndexPath::CBlock).last_accepted().await.unwrap_err().to_string();
    assert!(err.contains("/ext/index/C/block") && err.contains(&format!("pass the node's root URL, {url}")), "{err}");
    assert!(!err.contains("--index-enabled"), "{err}");
}
