//! Range walks against a scripted node that misbehaves the way proxies, balancers and lagging
//! nodes do: short answers, "past the tip" below a tip already seen, empty answers, a tip at the
//! top of u64. The walk never ends early without saying so, and never loses or repeats a row.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

use avax_data::error::{Error, RpcErrorKind};
use avax_data::index::chunk::LagPolicy;
use avax_data::index::range::{walk, walk_with};
use avax_data::index::{cb58, Container, IndexClient, IndexClientOptions, IndexPath, RangeSpec};
use axum::extract::State;
use axum::routing::post;
use axum::{Json, Router};
use futures::StreamExt;
use serde_json::{json, Value};

/// What the scripted node does.
#[derive(Clone, Copy)]
struct Script {
    /// Containers the node holds: indices `0..len`.
    len: u64,
    /// Most containers per answer (a proxy cutting answers short).
    cap: u64,
    /// Requests starting at or above this index answer "past the tip" this many times first.
    lag_from: u64,
    lag_times: u64,
    /// Answer an empty list (instead of containers) this many times for starts above `lag_from`.
    empty_times: u64,
    /// The tip getLastAccepted reports (default `len - 1`).
    reported_tip: Option<u64>,
}

struct Node {
    script: Script,
    lagged: AtomicU64,
    emptied: AtomicU64,
    range_calls: AtomicU64,
}

fn bytes_of(i: u64) -> Vec<u8> {
    let mut b = vec![0, 0];
    b.extend(i.to_be_bytes());
    b.extend([7u8; 40]);
    b
}

fn wire(i: u64) -> Value {
    let bytes = bytes_of(i);
    json!({"id": cb58::container_id(&bytes), "bytes": cb58::encode_hex_with_checksum(&bytes),
           "timestamp": "2024-01-01T00:00:00Z", "encoding": "hex", "index": i.to_string()})
}

fn error(message: String) -> Value {
    json!({"jsonrpc": "2.0", "error": {"code": -32000, "message": message, "data": null}, "id": 1})
}

async fn handle(State(node): State<Arc<Node>>, Json(req): Json<Value>) -> Json<Value> {
    let s = node.script;
    let params = &req["params"];
    let num = |v: &Value| v.as_u64().or_else(|| v.as_str().and_then(|t| t.parse().ok())).unwrap();
    let tip = s.reported_tip.unwrap_or(s.len - 1);
    match req["method"].as_str().unwrap() {
        "index.getLastAccepted" => {
            let mut c = wire(tip.min(s.len - 1));
            c["index"] = json!(tip.to_string());
            Json(json!({"jsonrpc": "2.0", "result": c, "id": 1}))
        }
        "index.getContainerRange" => {
            node.range_calls.fetch_add(1, Ordering::SeqCst);
            let start = num(&params["startIndex"]);
            let count = num(&params["numToFetch"]);
            if start >= s.lag_from && node.lagged.fetch_add(1, Ordering::SeqCst) < s.lag_times {
                return Json(error(format!("start index ({start}) > last accepted index ({})", s.lag_from - 1)));
            }
            if start >= s.lag_from && node.emptied.fetch_add(1, Ordering::SeqCst) < s.empty_times {
                return Json(json!({"jsonrpc": "2.0", "result": {"containers": []}, "id": 1}));
            }
            if start >= s.len {
                return Json(error(format!("start index ({start}) > last accepted index ({})", s.len - 1)));
            }
            let end = (start + count.min(s.cap)).min(s.len);
            let items: Vec<Value> = (start..end).map(wire).collect();
            Json(json!({"jsonrpc": "2.0", "result": {"containers": items}, "id": 1}))
        }
        other => Json(error(format!("rpc: can't find method \"{other}\""))),
    }
}

async fn serve(script: Script) -> (String, Arc<Node>) {
    let node = Arc::new(Node {
        script,
        lagged: AtomicU64::new(0),
        emptied: AtomicU64::new(0),
        range_calls: AtomicU64::new(0),
    });
    let app = Router::new().route("/ext/index/X/tx", post(handle)).with_state(node.clone());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    (url, node)
}

fn script(len: u64) -> Script {
    Script { len, cap: u64::MAX, lag_from: u64::MAX, lag_times: 0, empty_times: 0, reported_tip: None }
}

fn fast_lag() -> LagPolicy {
    LagPolicy { retries: 4, first_wait: Duration::from_millis(5), max_wait: Duration::from_millis(20) }
}

async fn run(url: &str, spec: RangeSpec, lag: LagPolicy) -> (Vec<u64>, Option<Error>) {
    let chain = IndexClient::new(url, IndexClientOptions::default()).unwrap().chain(IndexPath::XTx);
    let mut got = Vec::new();
    let mut stream = std::pin::pin!(walk_with(chain, spec, None, lag));
    while let Some(item) = stream.next().await {
        match item {
            Ok(batch) => got.extend(batch.iter().map(|c: &Container| c.index)),
            Err(e) => return (got, Some(e)),
        }
    }
    (got, None)
}

fn spec(start: u64, end: Option<u64>, concurrency: usize) -> RangeSpec {
    RangeSpec { start, end, concurrency, chunk: 1024 }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn short_answers_mid_range_are_re_requested_not_taken_for_the_end() {
    for concurrency in [1, 8] {
        let (url, node) = serve(Script { cap: 100, ..script(3000) }).await;
        let (got, err) = run(&url, spec(0, Some(3000), concurrency), fast_lag()).await;
        assert!(err.is_none(), "{err:?}");
        assert_eq!(got, (0..3000).collect::<Vec<_>>());
        // chunks of 1024, 1024 and 952 re-requested 100 at a time: 11 + 11 + 10 calls
        assert_eq!(node.range_calls.load(Ordering::SeqCst), 32);
        // to the tip, too
        let (got, err) = run(&url, spec(17, None, concurrency), fast_lag()).await;
        assert!(err.is_none());
        assert_eq!(got, (17..3000).collect::<Vec<_>>());
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_lagging_node_behind_a_balancer_is_waited_for_then_raised() {
    // The tip read says 2999; the first answers for 2048.. come from a node at 2047.
    let (url, _) = serve(Script { lag_from: 2048, lag_times: 2, ..script(3000) }).await;
    let (got, err) = run(&url, spec(0, None, 4), fast_lag()).await;
    assert!(err.is_none(), "{err:?}");
    assert_eq!(got, (0..3000).collect::<Vec<_>>());

    // A node that never catches up: the walk raises instead of ending at 2048 rows.
    let (url, _) = serve(Script { lag_from: 2048, lag_times: u64::MAX, ..script(3000) }).await;
    let (got, err) = run(&url, spec(0, None, 4), fast_lag()).await;
    assert_eq!(got, (0..2048).collect::<Vec<_>>());
    match err {
        Some(Error::Rpc { kind: RpcErrorKind::PastTip, message, .. }) => {
            assert_eq!(message, "start index (2048) > last accepted index (2047)")
        }
        other => panic!("expected the lagging node's answer, got {other:?}"),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_empty_answer_below_the_tip_is_retried_then_raised() {
    let (url, _) = serve(Script { lag_from: 1024, empty_times: 1, ..script(1500) }).await;
    let (got, err) = run(&url, spec(0, None, 1), fast_lag()).await;
    assert!(err.is_none(), "{err:?}");
    assert_eq!(got, (0..1500).collect::<Vec<_>>());
    let (url, _) = serve(Script { lag_from: 1024, empty_times: u64::MAX, ..script(1500) }).await;
    let (got, err) = run(&url, spec(0, None, 1), fast_lag()).await;
    assert_eq!(got, (0..1024).collect::<Vec<_>>());
    assert!(
        matches!(err, Some(Error::Integrity { ref message, .. }) if message.contains("from 1024 answered no containers although the tip is 1499")),
        "{err:?}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_range_past_the_tip_ends_at_the_proven_tip() {
    let (url, _) = serve(script(3000)).await;
    for concurrency in [1, 8] {
        let (got, err) = run(&url, spec(100, Some(50_000), concurrency), fast_lag()).await;
        assert!(err.is_none());
        assert_eq!(got, (100..3000).collect::<Vec<_>>());
        let (got, err) = run(&url, spec(4000, Some(5000), concurrency), fast_lag()).await;
        assert!(err.is_none() && got.is_empty());
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_tip_at_the_top_of_u64_is_a_clear_error_not_an_empty_walk() {
    let (url, _) = serve(Script { reported_tip: Some(u64::MAX), ..script(10) }).await;
    let chain = IndexClient::new(&url, IndexClientOptions::default()).unwrap().chain(IndexPath::XTx);
    let results: Vec<_> = walk(chain, spec(0, None, 1)).collect().await;
    assert_eq!(results.len(), 1);
    let err = results.into_iter().next().unwrap().unwrap_err();
    assert!(err.to_string().contains("tip at index 2**64 - 1"), "{err}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn batches_over_max_response_bytes_are_asked_for_in_halves() {
    let (url, node) = serve(script(3000)).await;
    // one container takes about 270 bytes of JSON: 1024 of them pass 30 kB, 64 do not
    let mut options = IndexClientOptions::default();
    options.transport.max_response_bytes = 30_000;
    let chain = IndexClient::new(&url, options).unwrap().chain(IndexPath::XTx);
    let mut got = Vec::new();
    let mut stream = std::pin::pin!(walk_with(chain.clone(), spec(0, Some(3000), 2), None, fast_lag()));
    while let Some(item) = stream.next().await {
        got.extend(item.unwrap().iter().map(|c: &Container| c.index));
    }
    assert_eq!(got, (0..3000).collect::<Vec<_>>());
    assert!(node.range_calls.load(Ordering::SeqCst) > 3 * 5, "{}", node.range_calls.load(Ordering::SeqCst));
    // a single container over the limit is an error, not an endless split
    let mut options = IndexClientOptions::default();
    options.transport.max_response_bytes = 100;
    let chain = IndexClient::new(&url, options).unwrap().chain(IndexPath::XTx);
    let mut stream = std::pin::pin!(walk_with(chain, spec(0, Some(10), 1), None, fast_lag()));
    assert!(matches!(stream.next().await, Some(Err(Error::BodyTooLarge { limit: 100, .. }))));
}
