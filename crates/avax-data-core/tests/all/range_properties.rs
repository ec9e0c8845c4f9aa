//! A property test of Index range walks (issue 9): a scripted node whose faults are drawn by
//! proptest (5xx and 429 answers, cut and truncated bodies, short answers, lagging "past the tip"
//! answers below the true tip, older tip reads, JSON-RPC errors, bad checksums), walked at
//! concurrency 1 and 8 by a consumer that stops after a few batches or at an error and resumes
//! from the position it was handed. Whatever the schedule, what the consumer received,
//! concatenated, is exactly the fault-free walk: in order, no gap, no duplicate.

use std::sync::Arc;
use std::time::Duration;

use avax_data_core::error::Error;
use avax_data_core::index::chunk::LagPolicy;
use avax_data_core::index::cursor::Cursor;
use avax_data_core::index::range::{walk_resuming, RangeMemory};
use avax_data_core::index::{IndexClient, IndexClientOptions, IndexPath, RangeSpec};
use avax_data_core::transport::TransportConfig;
use futures::StreamExt;
use proptest::prelude::*;

use crate::index_node;
use index_node::{script, serve_planned, Act, Call, Plan};

/// Fault rates of one case, each a probability per request.
#[derive(Clone, Copy, Debug)]
struct Rates {
    status: f64,
    cut: f64,
    truncated: f64,
    short: f64,
    lag: f64,
    older_tip: f64,
    fatal: f64,
}

/// One drawn case.
#[derive(Clone, Debug)]
struct Case {
    len: u64,
    start: u64,
    end: Option<u64>,
    chunk: u64,
    concurrency: usize,
    rates: Rates,
    seed: u64,
    max_retries: u32,
    lag_retries: u32,
    /// Batches taken by each round before it stops (cycled); `None`: to the end or an error.
    stops: Vec<Option<u8>>,
}

/// A 64-bit mix of the case seed and a request (splitmix64 finaliser).
fn mix(mut x: u64) -> u64 {
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58476d1ce4e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d049bb133111eb);
    x ^ (x >> 31)
}

/// The plan of a case: each request's act is a function of the seed and the request (its
/// start and how many times that start was asked), so concurrency does not change it.
fn plan(seed: u64, r: Rates) -> Plan {
    Arc::new(move |call: Call| {
        let key = match call {
            Call::Tip { n } => mix(seed ^ 0x7469_7000 ^ n.wrapping_mul(0x9e37_79b9)),
            Call::Range { start, n, .. } => mix(seed ^ start.wrapping_mul(0x1000_0001) ^ n.wrapping_mul(0x9e37_79b9)),
        };
        let u = (key >> 11) as f64 / (1u64 << 53) as f64;
        let pick = mix(key);
        let mut t = 0.0;
        let mut hit = |p: f64| {
            t += p;
            u < t
        };
        // Both calls may fail the same two ways first; then each has its own faults.
        if hit(r.status) {
            return Act::Status([500, 502, 503, 429][(pick % 4) as usize]);
        }
        if hit(r.cut) {
            return Act::Cut;
        }
        match call {
            Call::Tip { .. } => {
                if hit(r.older_tip) {
                    Act::OlderTip(1 + pick % 300)
                } else {
                    Act::Serve
                }
            }
            Call::Range { .. } => {
                if hit(r.truncated) {
                    Act::Truncated
                } else if hit(r.short) {
                    Act::Short(1 + pick % 700)
                } else if hit(r.lag) {
                    Act::Lag(pick % 300)
                } else if hit(r.fatal) {
                    if pick.is_multiple_of(2) {
                        Act::RpcError
                    } else {
                        Act::BadChecksum
                    }
                } else {
                    Act::Serve
                }
            }
        }
    })
}

fn rates() -> impl Strategy<Value = Rates> {
    (0.0..0.12, 0.0..0.05, 0.0..0.05, 0.0..0.3, 0.0..0.2, 0.0..0.5, 0.0..0.04).prop_map(
        |(status, cut, truncated, short, lag, older_tip, fatal)| Rates {
            status,
            cut,
            truncated,
            short,
            lag,
            older_tip,
            fatal,
        },
    )
}

fn case() -> impl Strategy<Value = Case> {
    let chunk = prop_oneof![1 => Just(1024u64), 1 => Just(256), 4 => 8u64..128];
    let shape = (0u64..2000, chunk, prop_oneof![Just(1usize), Just(8)]);
    shape
        .prop_flat_map(|(len, chunk, concurrency)| {
            let start = prop_oneof![3 => Just(0u64), 2 => 0..len + 20];
            let end = proptest::option::of(0u64..len + 50);
            (Just(len), start, end, Just(chunk), Just(concurrency))
        })
        .prop_flat_map(|(len, start, end, chunk, concurrency)| {
            let end = end.map(|d| start + d);
            (
                Just((len, start, end, chunk, concurrency)),
                rates(),
                any::<u64>(),
                0u32..4,
                0u32..4,
                proptest::collection::vec(proptest::option::of(1u8..4), 1..4),
            )
        })
        .prop_map(|((len, start, end, chunk, concurrency), rates, seed, max_retries, lag_retries, stops)| Case {
            len,
            start,
            end,
            chunk,
            concurrency,
            rates,
            seed,
            max_retries,
            lag_retries,
            stops,
        })
}

/// Walks `case` to its end through as many resumed walks as it takes; returns the indices
/// received in order and the errors met.
async fn consume(url: &str, case: &Case) -> (Vec<u64>, Vec<Error>) {
    let transport = TransportConfig {
        retry: avax_data_core::transport::RetryPolicy {
            max_retries: case.max_retries,
            backoff: Duration::from_millis(1),
            max_backoff: Duration::from_millis(2),
            retry_budget: Duration::from_secs(2),
            ..Default::default()
        },
        timeout: Duration::from_secs(10),
        ..TransportConfig::default()
    };
    let options = IndexClientOptions { transport, ..IndexClientOptions::default() };
    let chain = IndexClient::new(url, options).unwrap().chain(IndexPath::XTx);
    let lag = LagPolicy {
        retries: case.lag_retries,
        first_wait: Duration::from_millis(1),
        max_wait: Duration::from_millis(2),
    };
    let cursor = Cursor::new(case.start);
    let memory = RangeMemory::default();
    let mut got = Vec::new();
    let mut errors = Vec::new();
    for round in 0.. {
        assert!(round < 5_000, "the walk does not end: {} rows, errors {errors:?}", got.len());
        let lease = cursor.lease();
        let spec =
            RangeSpec { start: lease.position(), end: case.end, concurrency: case.concurrency, chunk: case.chunk };
        let stop = case.stops[round % case.stops.len()];
        let mut stream =
            std::pin::pin!(walk_resuming::<Vec<avax_data_core::index::Container>>(chain.clone(), spec, &memory, lag));
        let mut batches = 0u8;
        let finished = loop {
            match stream.next().await {
                None => break true,
                Some(Ok(batch)) => {
                    let first = batch.first().map(|c| c.index);
                    assert_eq!(first, Some(lease.position()), "a batch starts where the walk stands");
                    got.extend(batch.iter().map(|c| c.index));
                    lease.advance(batch.last().unwrap().index + 1).unwrap();
                    batches += 1;
                    if Some(batches) == stop {
                        break false;
                    }
                }
                Some(Err(e)) => {
                    errors.push(e);
                    break false;
                }
            }
        };
        if finished {
            break;
        }
    }
    (got, errors)
}

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 256,
        failure_persistence: None,
        rng_seed: proptest::test_runner::RngSeed::Fixed(9),
        ..ProptestConfig::default()
    })]

    /// Whatever the node does and wherever the consumer stops or fails, the indices received
    /// are exactly `start..end` (to the true tip for a walk past it; to the tip read by the
    /// first walk for a walk without an end).
    #[test]
    fn a_resumed_walk_under_random_faults_hands_out_exactly_the_fault_free_range(case in case()) {
        let rt = runtime();
        let (got, errors, first_tip) = rt.block_on(async {
            let (url, node) = serve_planned(script(case.len), Some(plan(case.seed, case.rates))).await;
            let (got, errors) = consume(&url, &case).await;
            let first_tip = node.tips.lock().unwrap().first().copied();
            (got, errors, first_tip)
        });
        let end = match case.end {
            Some(end) => end.min(case.len),
            None => first_tip.map_or(case.start, |t| t + 1),
        };
        let expected: Vec<u64> = (case.start..end.max(case.start)).collect();
        prop_assert!(got == expected, "got {} rows {:?}..{:?}, expected {}..{}; errors: {:?}",
            got.len(), got.first(), got.last(), case.start, end, errors.iter().map(|e| e.to_string()).collect::<Vec<_>>());
    }
}
