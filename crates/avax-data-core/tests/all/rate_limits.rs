//! Client-side rate limits and the retry policy through the whole send path, against the
//! emulator (its per-key rate limit and request log) and a scripted server. The limiter's
//! arithmetic is tested on tokio's paused clock in `src/transport/limiter.rs`; here, only lower
//! bounds of wall time are asserted (they hold however slow the machine is).

use std::sync::Arc;
use std::time::{Duration, Instant};

use avax_data_core::error::Error;
use avax_data_core::transport::{RetryPolicy, Transport, TransportConfig};
use avax_data_emulator::{Emulator, EmulatorConfig, RateLimit};

use crate::scripted::{serve_script, Script};

const KEY: &str = "rate-test-key";

fn keyed(config: TransportConfig) -> TransportConfig {
    TransportConfig {
        headers: vec![("x-glacier-api-key".into(), KEY.into())],
        secret_headers: vec!["x-glacier-api-key".into()],
        ..config
    }
}

async fn emulator(limit: u32, window: Duration) -> Emulator {
    Emulator::start(EmulatorConfig {
        data_blocks_per_chain: 50,
        rate_limit: Some(RateLimit { limit, window }),
        ..Default::default()
    })
    .await
    .expect("emulator starts")
}

fn statuses(emu: &Emulator) -> Vec<u16> {
    emu.request_log().iter().map(|r| r.status.expect("answered")).collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn remaining_zero_makes_the_client_wait_for_the_window_instead_of_taking_429s() {
    // 4 requests per 1 s window; 10 requests without any client-side limit.
    let emu = emulator(4, Duration::from_secs(1)).await;
    let t = Transport::new(&emu.url(), keyed(TransportConfig::default())).unwrap();
    let started = Instant::now();
    for _ in 0..10 {
        t.get("/v1/chains", &[]).await.unwrap();
    }
    let statuses = statuses(&emu);
    assert_eq!(statuses, vec![200; 10], "no request bounced off a 429");
    // Requests 5 and 9 each waited out a window.
    assert!(started.elapsed() >= Duration::from_secs(2), "{:?}", started.elapsed());
    let log = emu.request_log();
    for window in log.windows(5) {
        assert!(window[4].time_s - window[0].time_s >= 1.0, "5 requests within one window: {window:?}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_request_rate_under_the_services_limit_sees_no_429_and_keeps_the_rate() {
    let emu = emulator(25, Duration::from_secs(1)).await;
    let config = TransportConfig { rate_limit: Some(20.0), ..TransportConfig::default() };
    let t = Arc::new(Transport::new(&emu.url(), keyed(config)).unwrap());
    let started = Instant::now();
    // Four concurrent callers share the client's one rate.
    let tasks: Vec<_> = (0..4)
        .map(|_| {
            let t = t.clone();
            tokio::spawn(async move {
                for _ in 0..10 {
                    t.get("/v1/chains/43114/blocks", &[("pageSize", "5".into())]).await.unwrap();
                }
            })
        })
        .collect();
    for task in tasks {
        task.await.unwrap();
    }
    // 40 requests at 20/s: at least 1.95 s from the first to the last.
    assert!(started.elapsed() >= Duration::from_millis(1950), "{:?}", started.elapsed());
    assert_eq!(statuses(&emu), vec![200; 40]);
    let times: Vec<f64> = emu.request_log().iter().map(|r| r.time_s).collect();
    for (i, start) in times.iter().enumerate() {
        let within = times[i..].iter().take_while(|t| **t < start + 1.0).count();
        // floor(1 s * 20/s) + 1 by the limiter, plus 1 for the network's jitter between sending
        // and arriving; the service allows 25.
        assert!(within <= 22, "{within} requests within 1 s of request {i}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_compute_unit_budget_charges_the_operations_weight() {
    let emu = emulator(1000, Duration::from_secs(60)).await;
    // 6,000 CU/min = 100 CU/s with a bucket of 200: 30 `small` requests (10 CU) cost 300 CU,
    // so the last leaves at least 1 s after the first.
    let config = TransportConfig { compute_units_per_minute: Some(6000), ..TransportConfig::default() };
    let t = Transport::new(&emu.url(), keyed(config)).unwrap();
    let started = Instant::now();
    for _ in 0..30 {
        t.get("/v1/chains/43114/blocks", &[]).await.unwrap();
    }
    assert!(started.elapsed() >= Duration::from_millis(990), "{:?}", started.elapsed());
    let log = emu.request_log();
    // The bucket (200 CU) lets the first 20 go at once and refills while they run, so on a busy
    // machine request 21 may leave at once; what holds at any speed is that request 30 (CU 291 to
    // 300) leaves at least (300 - 200) CU / 100 CU/s = 1 s after request 1 (less arrival jitter).
    assert!(log[29].time_s - log[0].time_s >= 0.9, "30 requests of 10 CU took under 1 s: {log:?}");
}

/// A server answering `answers` (status, headers) in turn (then 200), recording requests.
async fn scripted(answers: Vec<(u16, Vec<(&'static str, &'static str)>)>) -> (String, Arc<Script>) {
    let answers = answers
        .into_iter()
        .map(|(status, headers)| (status, headers.into_iter().map(|(k, v)| (k, v.to_string())).collect(), "{}"))
        .collect();
    serve_script(answers, (200, vec![], "{}")).await
}

fn policy(statuses: Vec<u16>) -> TransportConfig {
    let retry = RetryPolicy {
        backoff: Duration::from_millis(5),
        max_backoff: Duration::from_millis(20),
        statuses,
        ..RetryPolicy::default()
    };
    TransportConfig { retry, ..TransportConfig::default() }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn only_the_policys_statuses_are_retried() {
    let (url, seen) = scripted(vec![(503, vec![]), (503, vec![])]).await;
    let t = Transport::new(&url, policy(vec![503])).unwrap();
    t.get("/x", &[]).await.unwrap();
    assert_eq!(seen.count(), 3, "503 is retried");

    let (url, seen) = scripted(vec![(502, vec![])]).await;
    let t = Transport::new(&url, policy(vec![503])).unwrap();
    assert!(matches!(t.get("/x", &[]).await, Err(Error::Http { status: 502, .. })));
    assert_eq!(seen.count(), 1, "502 is not in the policy");

    // The default retries 429 and every 5xx, 501 included, and no 4xx but 429.
    let (url, seen) = scripted(vec![(501, vec![]), (429, vec![]), (404, vec![])]).await;
    let t = Transport::new(&url, policy(RetryPolicy::default().statuses)).unwrap();
    assert!(matches!(t.get("/x", &[]).await, Err(Error::Http { status: 404, .. })));
    assert_eq!(seen.count(), 3);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn after_a_429_no_request_of_the_client_leaves_before_retry_after() {
    let (url, seen) = scripted(vec![(429, vec![("retry-after", "1")])]).await;
    let t = Arc::new(Transport::new(&url, policy(RetryPolicy::default().statuses)).unwrap());
    t.get("/first", &[]).await.unwrap();
    let first = seen.times()[0];
    // The 429's wait holds the other requests of the client too.
    let (a, b) = tokio::join!(t.get("/a", &[]), t.get("/b", &[]));
    a.unwrap();
    b.unwrap();
    let times = seen.times();
    assert_eq!(times.len(), 4);
    for later in &times[1..] {
        assert!(*later - first >= Duration::from_secs(1), "{:?}", *later - first);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_reset_beyond_the_retry_budget_fails_at_once_without_sending() {
    let (url, seen) = scripted(vec![(200, vec![("ratelimit-remaining", "0"), ("ratelimit-reset", "3600")])]).await;
    let t = Transport::new(&url, TransportConfig::default()).unwrap();
    t.get("/x", &[]).await.unwrap();
    let started = Instant::now();
    match t.get("/x", &[]).await {
        Err(e @ Error::Http { status: 429, .. }) => {
            assert_eq!(e.retry_after().map(|d| d.as_secs()), Some(3599));
            assert!(e.to_string().contains("not sent"), "{e}");
        }
        other => panic!("{other:?}"),
    }
    assert!(started.elapsed() < Duration::from_secs(30));
    assert_eq!(seen.count(), 1, "the second request was not sent");
}

#[test]
fn bad_limits_are_refused_before_any_request() {
    for (config, param) in [
        (TransportConfig { rate_limit: Some(0.0), ..TransportConfig::default() }, "rate_limit"),
        (TransportConfig { rate_limit: Some(f64::NAN), ..TransportConfig::default() }, "rate_limit"),
        (
            TransportConfig { compute_units_per_minute: Some(0), ..TransportConfig::default() },
            "compute_units_per_minute",
        ),
        (
            TransportConfig {
                retry: RetryPolicy { statuses: vec![302], ..RetryPolicy::default() },
                ..TransportConfig::default()
            },
            "statuses",
        ),
    ] {
        match Transport::new("http://127.0.0.1:1", config) {
            Err(Error::InvalidArgument { param: p, .. }) => assert_eq!(p, param),
            other => panic!("{other:?}"),
        }
    }
}
