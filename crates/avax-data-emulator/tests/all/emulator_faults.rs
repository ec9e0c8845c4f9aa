//! The emulator's fault injection over real HTTP: each kind is produced at its rate for a fixed
//! seed, has its exact shape, is counted by kind and path, and leaves later requests served
//! normally.

use std::time::{Duration, Instant};

use avax_data_core::index::cb58;
use avax_data_emulator::fault_layer::REDIRECT_MARKER;
use avax_data_emulator::{Emulator, EmulatorConfig, FaultKind, FaultOptions, FaultPlan};
use serde_json::{json, Value};

const LAST: &str = r#"{"jsonrpc":"2.0","id":1,"method":"index.getLastAccepted","params":{"encoding":"hex"}}"#;
const BLOCKS: &str = "/v1/chains/43114/blocks";

async fn start(faults: &[(&str, f64)], seed: u64) -> Emulator {
    let plan = FaultPlan::new(faults.iter().copied(), seed).unwrap();
    let config =
        EmulatorConfig { seed: 3, default_count: 1000, data_blocks_per_chain: 200, faults: plan, ..Default::default() };
    Emulator::start(config).await.expect("emulator starts")
}

/// Sets `faults` (with `options`) on a running emulator.
fn set(emu: &Emulator, faults: &[(&str, f64)], options: FaultOptions) {
    let mut plan = FaultPlan::new(faults.iter().copied(), 1).unwrap();
    plan.options = options;
    emu.set_faults(plan);
}

fn client() -> reqwest::Client {
    reqwest::Client::builder().redirect(reqwest::redirect::Policy::none()).no_gzip().build().unwrap()
}

fn range(start: u64, n: u64) -> String {
    json!({"jsonrpc": "2.0", "id": 7, "method": "index.getContainerRange",
           "params": {"startIndex": start, "numToFetch": n, "encoding": "hex"}})
    .to_string()
}

async fn post(emu: &Emulator, body: &str) -> reqwest::Result<reqwest::Response> {
    post_to(&format!("{}/ext/index/X/tx", emu.url()), body).await
}

async fn post_to(url: &str, body: &str) -> reqwest::Result<reqwest::Response> {
    client().post(url).header("content-type", "application/json").body(body.to_string()).send().await
}

/// Status, headers and the whole body of a POST that must complete.
async fn post_full(emu: &Emulator, body: &str) -> (u16, reqwest::header::HeaderMap, Vec<u8>) {
    let response = post(emu, body).await.expect("answered");
    let (status, headers) = (response.status().as_u16(), response.headers().clone());
    (status, headers, response.bytes().await.expect("whole body").to_vec())
}

async fn get_full(emu: &Emulator, path: &str) -> (u16, reqwest::header::HeaderMap, Vec<u8>) {
    let response = client().get(format!("{}{path}", emu.url())).send().await.expect("answered");
    let (status, headers) = (response.status().as_u16(), response.headers().clone());
    (status, headers, response.bytes().await.expect("whole body").to_vec())
}

/// The fault-free answer to `body`, taken with faults switched off.
async fn clean(emu: &Emulator, body: &str) -> Vec<u8> {
    let plan = emu.faults();
    emu.set_faults(FaultPlan::default());
    let (status, _, bytes) = post_full(emu, body).await;
    emu.set_faults(plan);
    assert_eq!(status, 200);
    bytes
}

fn json_of(bytes: &[u8]) -> Value {
    serde_json::from_slice(bytes).unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(bytes)))
}

/// How many faults of each of `kinds` the emulator injected (each must have been injected).
fn counts<const N: usize>(emu: &Emulator, kinds: [FaultKind; N]) -> [u64; N] {
    let all = emu.fault_counts();
    kinds.map(|kind| all[&kind])
}

/// A fault-free emulator and its answer to `body`.
async fn start_clean(body: &str) -> (Emulator, Vec<u8>) {
    let emu = start(&[], 1).await;
    let whole = clean(&emu, body).await;
    (emu, whole)
}

fn count(emu: &Emulator, kind: FaultKind) -> u64 {
    emu.fault_counts().get(&kind).copied().unwrap_or(0)
}

#[test]
fn every_kind_fires_at_its_rate_for_a_fixed_seed() {
    for kind in FaultKind::ALL {
        let plan = FaultPlan::new([(kind.name(), 0.15)], 7).unwrap();
        let fired = (0..2000).filter(|n| plan.draw(*n).fired(kind)).count();
        assert!((240..=360).contains(&fired), "{kind}: {fired} of 2000 at rate 0.15");
        let always = FaultPlan::new([(kind.name(), 1.0)], 7).unwrap();
        let never = FaultPlan::new([(kind.name(), 0.0)], 7).unwrap();
        assert!((0..500).all(|n| always.draw(n).fired(kind) && !never.draw(n).fired(kind)), "{kind}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rate_of_0_15_over_2000_requests_faults_exactly_the_planned_ones() {
    let emu = start(&[("502", 0.15)], 11).await;
    let plan = emu.faults();
    let mut statuses = Vec::new();
    for _ in 0..2000 {
        statuses.push(post(&emu, LAST).await.unwrap().status().as_u16());
    }
    let planned: Vec<u16> = (0..2000).map(|n| if plan.draw(n).fired(FaultKind::Http502) { 502 } else { 200 }).collect();
    assert_eq!(statuses, planned, "the same requests fault on every run");
    let faulted = statuses.iter().filter(|s| **s == 502).count() as u64;
    assert!((240..=360).contains(&faulted), "{faulted}");
    assert_eq!(count(&emu, FaultKind::Http502), faulted);
    let by_path = emu.fault_counts_by_path();
    assert_eq!(by_path.get(&(FaultKind::Http502, "/ext/index/X/tx".to_string())), Some(&faulted));
    assert_eq!(emu.request_count(), 2000);
    let log = emu.request_log();
    assert_eq!(log.len(), 2000);
    assert!(log.iter().all(|r| r.method == "POST" && r.path == "/ext/index/X/tx"));
    assert!(log.windows(2).all(|w| w[0].time_s <= w[1].time_s));
    assert_eq!(log.iter().map(|r| r.status.unwrap()).collect::<Vec<_>>(), statuses, "the log has each answer's status");

    // Rate 0: never; the same seed set again: the same decisions again.
    emu.set_faults(FaultPlan::new([("502", 0.0)], 11).unwrap());
    for _ in 0..200 {
        assert_eq!(post(&emu, LAST).await.unwrap().status(), 200);
    }
    emu.set_faults(plan);
    for expected in &statuses[..100] {
        assert_eq!(post(&emu, LAST).await.unwrap().status().as_u16(), *expected);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn status_faults_have_the_services_shapes() {
    let emu = start(&[("503", 1.0)], 1).await;
    let (status, headers, body) = post_full(&emu, LAST).await;
    assert_eq!((status, &body[..]), (503, &b"503 Service Unavailable\n"[..]));
    assert_eq!(headers["content-type"], "text/plain; charset=utf-8");
    let (status, _, body) = get_full(&emu, BLOCKS).await;
    assert_eq!(status, 503);
    assert_eq!(json_of(&body)["statusCode"], 503);
    assert_eq!(json_of(&body)["error"], "Service Unavailable");

    for (name, code) in [("500", 500), ("502", 502)] {
        set(&emu, &[(name, 1.0)], FaultOptions::default());
        assert_eq!(post_full(&emu, LAST).await.0, code);
        assert_eq!(get_full(&emu, "/v2/chains").await.0, code);
    }

    let options = FaultOptions { retry_after_secs: 3, ..Default::default() };
    set(&emu, &[("429", 1.0)], options);
    let (status, headers, body) = get_full(&emu, BLOCKS).await;
    assert_eq!(status, 429);
    assert_eq!(json_of(&body)["statusCode"], 429);
    for (name, value) in [
        ("retry-after", "3"),
        ("ratelimit-reset", "3"),
        ("ratelimit-remaining", "0"),
        ("ratelimit-limit", "100"),
        ("ratelimit-policy", "100;w=60"),
    ] {
        assert_eq!(headers[name], value, "{name}");
    }
    let counts = emu.fault_counts();
    assert_eq!(counts[&FaultKind::Http503], 2);
    assert_eq!((counts[&FaultKind::Http500], counts[&FaultKind::Http502], counts[&FaultKind::Http429]), (2, 2, 1));
    assert_eq!(emu.fault_counts_by_path()[&(FaultKind::Http503, BLOCKS.to_string())], 1);

    // Recoverable: the same request without the fault is served.
    emu.set_faults(FaultPlan::default());
    assert_eq!(get_full(&emu, BLOCKS).await.0, 200);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn reset_drops_the_connection_before_any_answer() {
    let emu = start(&[("reset", 1.0)], 1).await;
    let err = post(&emu, LAST).await.expect_err("no answer");
    assert!(err.is_request() || err.is_connect(), "{err:?}");
    assert!(client().get(format!("{}{BLOCKS}", emu.url())).send().await.is_err());
    assert_eq!(count(&emu, FaultKind::Reset), 2);
    emu.set_faults(FaultPlan::default());
    assert_eq!(post_full(&emu, LAST).await.0, 200);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn cut_sends_the_headers_and_part_of_the_body_then_closes() {
    let emu = start(&[], 1).await;
    let body = range(0, 20);
    let whole = clean(&emu, &body).await;
    set(&emu, &[("cut", 1.0)], FaultOptions::default());
    let mut response = post(&emu, &body).await.expect("headers arrive");
    assert_eq!(response.status(), 200);
    assert_eq!(response.content_length(), Some(whole.len() as u64));
    let mut received = Vec::new();
    let outcome = loop {
        match response.chunk().await {
            Ok(Some(piece)) => received.extend_from_slice(&piece),
            Ok(None) => break Ok(()),
            Err(e) => break Err(e),
        }
    };
    assert!(outcome.is_err(), "the body must not complete");
    assert!(!received.is_empty() && received.len() < whole.len(), "{} of {}", received.len(), whole.len());
    assert_eq!(&whole[..received.len()], &received[..], "what arrives is the true beginning");
    assert_eq!(count(&emu, FaultKind::Cut), 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn truncated_and_malformed_json_are_complete_answers_that_do_not_parse() {
    let (emu, whole) = start_clean(&range(5, 10)).await;

    set(&emu, &[("truncated_json", 1.0)], FaultOptions::default());
    let (status, headers, body) = post_full(&emu, &range(5, 10)).await;
    assert_eq!(status, 200);
    assert_eq!(headers["content-length"], body.len().to_string());
    assert_eq!(body.len(), whole.len() / 2);
    assert_eq!(&whole[..body.len()], &body[..]);
    assert!(serde_json::from_slice::<Value>(&body).is_err());

    set(&emu, &[("malformed_json", 1.0)], FaultOptions::default());
    let (status, _, body) = post_full(&emu, &range(5, 10)).await;
    assert_eq!((status, body.len()), (200, whole.len()));
    let differ: Vec<usize> = (0..body.len()).filter(|i| body[*i] != whole[*i]).collect();
    assert_eq!(differ.len(), 1);
    assert_eq!((whole[differ[0]], body[differ[0]]), (b':', b'='));
    assert!(serde_json::from_slice::<Value>(&body).is_err());

    assert_eq!(counts(&emu, [FaultKind::TruncatedJson, FaultKind::MalformedJson]), [1, 1]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn slow_bodies_trickle_out_whole() {
    let (emu, whole) = start_clean(&range(0, 30)).await;
    let pause = Duration::from_millis(40);
    set(&emu, &[("slow_body", 1.0)], FaultOptions { slow_body_pause: pause, ..Default::default() });
    let began = Instant::now();
    let (status, headers, body) = post_full(&emu, &range(0, 30)).await;
    assert!(began.elapsed() >= pause * 7, "{:?}", began.elapsed());
    assert_eq!((status, &body), (200, &whole));
    assert_eq!(headers["content-length"], whole.len().to_string());
    assert_eq!(count(&emu, FaultKind::SlowBody), 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rpc_errors_come_under_http_200_with_the_request_id() {
    let emu = start(&[("rpc_error", 1.0)], 1).await;
    let (status, _, body) = post_full(&emu, &range(0, 3)).await;
    assert_eq!(status, 200);
    let answer = json_of(&body);
    assert_eq!(answer["error"]["code"], -32000);
    assert_eq!(answer["error"]["message"], "injected fault: the node could not answer this call, retry it");
    assert_eq!(answer["id"], 7);
    // The Data API has no JSON-RPC: the kind does not apply there.
    assert_eq!(get_full(&emu, BLOCKS).await.0, 200);
    assert_eq!(emu.fault_counts().into_iter().collect::<Vec<_>>(), vec![(FaultKind::RpcError, 1)]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_checksum_corrupts_only_one_checksum() {
    let emu = start(&[], 1).await;
    let clean_answer = json_of(&clean(&emu, &range(40, 12)).await);
    set(&emu, &[("bad_checksum", 1.0)], FaultOptions::default());
    let (_, _, body) = post_full(&emu, &range(40, 12)).await;
    let answer = json_of(&body);
    let (got, want) =
        (answer["result"]["containers"].as_array().unwrap(), clean_answer["result"]["containers"].as_array().unwrap());
    assert_eq!(got.len(), 12);
    let mut corrupted = 0;
    for (g, w) in got.iter().zip(want) {
        for field in ["id", "timestamp", "index", "encoding"] {
            assert_eq!(g[field], w[field]);
        }
        let (gb, wb) = (g["bytes"].as_str().unwrap(), w["bytes"].as_str().unwrap());
        if gb != wb {
            corrupted += 1;
            assert_eq!(gb[..gb.len() - 1], wb[..wb.len() - 1], "only the last checksum digit changes");
            assert!(cb58::decode_hex_with_checksum(gb).is_err());
            assert!(cb58::decode_hex_with_checksum(wb).is_ok());
        }
    }
    assert_eq!(corrupted, 1);
    let (_, _, one) = post_full(&emu, LAST).await;
    assert!(cb58::decode_hex_with_checksum(json_of(&one)["result"]["bytes"].as_str().unwrap()).is_err());
    assert_eq!(count(&emu, FaultKind::BadChecksum), 2);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn short_batches_are_correct_prefixes_of_at_least_one() {
    let emu = start(&[], 1).await;
    let want = json_of(&clean(&emu, &range(100, 50)).await)["result"]["containers"].as_array().unwrap().clone();
    set(&emu, &[("short_batch", 0.5)], FaultOptions::default());
    let (mut short, mut lengths) = (0, std::collections::BTreeSet::new());
    for _ in 0..60 {
        let (_, _, body) = post_full(&emu, &range(100, 50)).await;
        let got = json_of(&body)["result"]["containers"].as_array().unwrap().clone();
        assert!(!got.is_empty() && got.len() <= 50);
        assert_eq!(got[..], want[..got.len()], "a correct prefix");
        if got.len() < 50 {
            short += 1;
            lengths.insert(got.len());
        }
    }
    assert_eq!(count(&emu, FaultKind::ShortBatch), short);
    assert!((15..=45).contains(&short), "{short} of 60 at 0.5");
    assert!(lengths.len() > 3, "lengths vary: {lengths:?}");
    // A call that answers one container cannot be shortened; other methods are untouched.
    set(&emu, &[("short_batch", 1.0)], FaultOptions::default());
    assert_eq!(json_of(&post_full(&emu, &range(999, 5)).await.2)["result"]["containers"].as_array().unwrap().len(), 1);
    assert_eq!(post_full(&emu, LAST).await.0, 200);
    assert_eq!(count(&emu, FaultKind::ShortBatch), short);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_lagging_tip_reports_an_older_index_and_the_nodes_error_past_it() {
    let emu = start(&[], 1).await;
    set(&emu, &[("lagging_tip", 1.0)], FaultOptions { lag: 25, ..Default::default() });
    // 1000 containers: the real last accepted index is 999, the lagging node's 974.
    let (_, _, body) = post_full(&emu, LAST).await;
    let last = json_of(&body)["result"].clone();
    assert_eq!(last["index"], "974");
    let by_index =
        r#"{"jsonrpc":"2.0","id":1,"method":"index.getContainerByIndex","params":{"index":974,"encoding":"hex"}}"#;
    assert_eq!(last, json_of(&clean(&emu, by_index).await)["result"], "the true container 974");
    let (_, _, body) = post_full(&emu, &range(980, 5)).await;
    let answer = json_of(&body);
    assert_eq!(answer["error"]["message"], "start index (980) > last accepted index (974)");
    assert_eq!(answer["error"]["code"], -32000);
    // A range across the older tip ends there, as the node truncates ranges past its tip.
    let (_, _, body) = post_full(&emu, &range(970, 20)).await;
    let got = json_of(&body)["result"]["containers"].as_array().unwrap().clone();
    let want = json_of(&clean(&emu, &range(970, 5)).await)["result"]["containers"].as_array().unwrap().clone();
    assert_eq!(got, want);
    assert_eq!(count(&emu, FaultKind::LaggingTip), 3);
    emu.set_faults(FaultPlan::default());
    assert_eq!(json_of(&post_full(&emu, LAST).await.2)["result"]["index"], "999");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn repeated_token_sends_back_the_token_of_the_request() {
    let emu = start(&[], 1).await;
    let (_, _, first) = get_full(&emu, &format!("{BLOCKS}?pageSize=5")).await;
    let token = json_of(&first)["nextPageToken"].as_str().unwrap().to_string();
    let page2 = format!("{BLOCKS}?pageSize=5&pageToken={token}");
    let clean_page2 = json_of(&get_full(&emu, &page2).await.2);
    set(&emu, &[("repeated_token", 1.0)], FaultOptions::default());
    // A first page carries no token: nothing to repeat.
    assert_eq!(
        json_of(&get_full(&emu, &format!("{BLOCKS}?pageSize=5")).await.2)["nextPageToken"].as_str().map(|t| t == token),
        Some(false)
    );
    let faulted = json_of(&get_full(&emu, &page2).await.2);
    assert_eq!(faulted["nextPageToken"], token.as_str());
    assert_eq!(faulted["blocks"], clean_page2["blocks"], "the items are the true page");
    assert_eq!(emu.fault_counts_by_path()[&(FaultKind::RepeatedToken, BLOCKS.to_string())], 1);
    assert_eq!(count(&emu, FaultKind::RepeatedToken), 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn redirects_point_to_the_same_or_the_other_origin_and_are_then_served() {
    let emu = start(&[("redirect_same_origin", 1.0)], 1).await;
    assert_ne!(emu.url(), emu.second_url());
    let marker = format!("{}={}", REDIRECT_MARKER.0, REDIRECT_MARKER.1);
    let response = post(&emu, LAST).await.unwrap();
    assert_eq!(response.status(), 307);
    let location = response.headers()["location"].to_str().unwrap().to_string();
    assert_eq!(location, format!("{}/ext/index/X/tx?{marker}", emu.url()));
    let (status, _, body) = {
        let r = post_to(&location, LAST).await.unwrap();
        (r.status(), (), r.bytes().await.unwrap())
    };
    assert_eq!(status, 200);
    assert_eq!(json_of(&body)["result"]["index"], "999");

    set(&emu, &[("redirect_cross_origin", 1.0)], FaultOptions::default());
    let response = client().get(format!("{}{BLOCKS}?pageSize=3", emu.url())).send().await.unwrap();
    assert_eq!(response.status(), 307);
    let location = response.headers()["location"].to_str().unwrap().to_string();
    assert_eq!(location, format!("{}{BLOCKS}?pageSize=3&{marker}", emu.second_url()));
    let page = client().get(&location).send().await.unwrap();
    assert_eq!(page.status(), 200);
    assert_eq!(json_of(&page.bytes().await.unwrap())["blocks"].as_array().unwrap().len(), 3);
    // A request reaching the second origin is sent back to the first.
    let back = client().get(format!("{}/v2/chains", emu.second_url())).send().await.unwrap();
    assert_eq!(back.headers()["location"].to_str().unwrap(), format!("{}/v2/chains?{marker}", emu.url()));
    assert_eq!(counts(&emu, [FaultKind::RedirectSameOrigin, FaultKind::RedirectCrossOrigin]), [1, 2]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn oversized_and_gzip_bomb_bodies() {
    let (emu, whole) = start_clean(&range(0, 4)).await;
    let options = FaultOptions { oversized_bytes: 3 << 20, gzip_bomb_bytes: 16 << 20, ..Default::default() };
    set(&emu, &[("oversized", 1.0)], options);
    let (status, headers, body) = post_full(&emu, &range(0, 4)).await;
    assert_eq!(status, 200);
    assert_eq!(body.len(), whole.len() + (3 << 20));
    assert_eq!(headers["content-length"], body.len().to_string());
    assert_eq!(&body[..whole.len()], &whole[..]);
    assert_eq!(json_of(&body), json_of(&whole), "padding is JSON whitespace");

    set(&emu, &[("gzip_bomb", 1.0)], options);
    let (status, headers, body) = post_full(&emu, &range(0, 4)).await;
    assert_eq!(status, 200);
    assert_eq!(headers["content-encoding"], "gzip");
    assert_eq!(headers["content-length"], body.len().to_string());
    assert!(body.len() < 64 << 10, "{} compressed bytes", body.len());
    let mut inflated = Vec::new();
    std::io::Read::read_to_end(&mut flate2::read::GzDecoder::new(&body[..]), &mut inflated).unwrap();
    assert_eq!(inflated.len(), 16 << 20);
    assert_eq!(counts(&emu, [FaultKind::Oversized, FaultKind::GzipBomb]), [1, 1]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_first_applicable_kind_wins_and_markers_skip_faults() {
    // rpc_error does not apply to the Data API, so its requests get the next kind that fired.
    let emu = start(&[("rpc_error", 1.0), ("truncated_json", 1.0)], 1).await;
    let (status, _, body) = get_full(&emu, &format!("{BLOCKS}?pageSize=2")).await;
    assert_eq!(status, 200);
    assert!(serde_json::from_slice::<Value>(&body).is_err());
    let (_, _, body) = post_full(&emu, LAST).await;
    assert_eq!(json_of(&body)["error"]["code"], -32000);
    let marker = format!("{}={}", REDIRECT_MARKER.0, REDIRECT_MARKER.1);
    let (status, _, body) = get_full(&emu, &format!("{BLOCKS}?pageSize=2&{marker}")).await;
    assert_eq!(status, 200, "the marker is removed before the service reads the query");
    assert_eq!(json_of(&body)["blocks"].as_array().unwrap().len(), 2);
    assert_eq!(counts(&emu, [FaultKind::TruncatedJson, FaultKind::RpcError]), [1, 1]);
}
