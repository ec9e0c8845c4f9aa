//! Range walks against a scripted node that misbehaves the way proxies, balancers and lagging
//! nodes do: short answers, "past the tip" below a tip already seen, empty answers, a tip at the
//! top of u64. The walk never ends early without saying so, and never loses or repeats a row.

use std::sync::atomic::Ordering;
use std::time::Duration;

use avax_data_core::error::{Error, RpcErrorKind};
use avax_data_core::index::chunk::LagPolicy;
use avax_data_core::index::range::{walk, walk_with};
use avax_data_core::index::{Container, IndexClient, IndexClientOptions, IndexPath, RangeSpec};
use futures::StreamExt;

use crate::index_node;
use index_node::{script, serve, Script};

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

/// `got` is exactly `expected`, told compactly when not.
fn assert_indices(got: &[u64], expected: std::ops::Range<u64>) {
    let want: Vec<u64> = expected.clone().collect();
    assert!(got == want, "got {} indices {:?}..{:?}, expected {expected:?}", got.len(), got.first(), got.last());
}

/// [`run`] on a fresh node serving `script`, waiting out a lagging node quickly.
async fn run_script(script: Script, spec: RangeSpec) -> (Vec<u64>, Option<Error>) {
    let (url, _) = serve(script).await;
    run(&url, spec, fast_lag()).await
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
    let (got, err) = run_script(Script { lag_from: 2048, lag_times: 2, ..script(3000) }, spec(0, None, 4)).await;
    assert!(err.is_none(), "{err:?}");
    assert_eq!(got, (0..3000).collect::<Vec<_>>());

    // A node that never catches up: the walk raises instead of ending at 2048 rows.
    let (got, err) = run_script(Script { lag_from: 2048, lag_times: u64::MAX, ..script(3000) }, spec(0, None, 4)).await;
    assert_eq!(got, (0..2048).collect::<Vec<_>>());
    match err {
        Some(Error::Rpc { kind: RpcErrorKind::PastTip, message, .. }) => {
            assert_eq!(message, "start index (2048) > last accepted index (2047)")
        }
        other => panic!("expected the lagging node's answer, got {other:?}"),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_lagging_answer_at_a_chunk_start_of_a_walk_with_an_end_is_checked_against_the_tip() {
    // No tip was read (the end is given): "past the tip" for 1024 is not proof of the end
    // until the node's own tip says so; here it says 2999, so the answer came from a lagging
    // node and is retried.
    for concurrency in [1, 8] {
        let (got, err) =
            run_script(Script { lag_from: 1024, lag_times: 1, ..script(3000) }, spec(0, Some(3000), concurrency)).await;
        assert!(err.is_none(), "{err:?}");
        assert_indices(&got, 0..3000);
    }
    // The true end of the index inside the range still ends the walk there.
    let (got, err) = run_script(script(3000), spec(2000, Some(9000), 8)).await;
    assert!(err.is_none(), "{err:?}");
    assert_indices(&got, 2000..3000);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_empty_answer_below_the_tip_is_retried_then_raised() {
    let (got, err) = run_script(Script { lag_from: 1024, empty_times: 1, ..script(1500) }, spec(0, None, 1)).await;
    assert!(err.is_none(), "{err:?}");
    assert_eq!(got, (0..1500).collect::<Vec<_>>());
    let (got, err) =
        run_script(Script { lag_from: 1024, empty_times: u64::MAX, ..script(1500) }, spec(0, None, 1)).await;
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
