//! The emulator's Metrics API (`/v2`), checked over real HTTP: every endpoint and parameter
//! check, bucket alignment, pagination, start/end filtering, and consistency with the Data API of
//! the same emulator (same blocks, same ICM messages).

use std::collections::HashMap;
use std::time::{Duration, Instant};

use avax_data_emulator::metrics_api::{metric_series, metric_series_in, ChainSelector, Interval, Metric};
use avax_data_emulator::{Emulator, EmulatorConfig};
use serde_json::Value;

use crate::common;
use common::{all_pages, error, ok, with};

async fn start(blocks: u64) -> Emulator {
    Emulator::start(EmulatorConfig { seed: 21, data_blocks_per_chain: blocks, default_count: 10, ..Default::default() })
        .await
        .expect("emulator starts")
}

fn points(items: &[Value]) -> Vec<(i64, f64)> {
    items.iter().map(|v| (v["timestamp"].as_i64().unwrap(), v["value"].as_f64().unwrap())).collect()
}

const ANY: [&str; 4] = ["activeAddresses", "activeSenders", "gasUsed", "txCount"];

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn series_shapes_alignment_and_order() {
    let emu = start(100_000).await;
    // The hours of the blocks: from the hour of the C-Chain's first block (the series reach back
    // to the chain's launch before it).
    let c_chain = avax_data_emulator::data_api::chain(43114).unwrap();
    let from = Interval::Hour.floor(emu.data_world().block_timestamp_ms(c_chain, 0) / 1000);
    let started = Instant::now();
    let first =
        ok(&emu, &format!("/v2/chains/43114/metrics/txCount?timeInterval=hour&pageSize=2160&startTimestamp={from}"))
            .await;
    eprintln!("first 100k-block hour series: {:?}", started.elapsed());
    let started = Instant::now();
    ok(&emu, "/v2/chains/total/metrics/cumulativeAddresses").await;
    eprintln!("first 100k-block total series: {:?}", started.elapsed());
    assert!(first.get("nextPageToken").is_none());
    let hours = points(first["results"].as_array().unwrap());
    // 100,000 blocks at 2 s: ~55.6 hours.
    assert!((55..=58).contains(&hours.len()), "{}", hours.len());
    for m in Metric::ALL {
        let intervals: &[&str] = if m.day_only() { &["day"] } else { &["hour", "day", "week", "month"] };
        for i in intervals {
            for chain in ["43114", "11111", "total", "mainnet", "testnet"] {
                let body =
                    ok(&emu, &format!("/v2/chains/{chain}/metrics/{}?timeInterval={i}&pageSize=2160", m.as_str()))
                        .await;
                let results = body["results"].as_array().unwrap();
                assert!(!results.is_empty());
                for r in results {
                    assert_eq!(r.as_object().unwrap().len(), 2, "{r}");
                    assert!(r["value"].is_number() && r["value"].as_f64().unwrap() >= 0.0, "{r}");
                }
                let pts = points(results);
                assert!(pts.windows(2).all(|w| w[0].0 > w[1].0), "newest first, no duplicates");
                for (t, _) in &pts {
                    assert_eq!(t % 3600, 0);
                    let date = chrono::DateTime::from_timestamp(*t, 0).unwrap();
                    use chrono::{Datelike, Timelike};
                    match *i {
                        "day" => assert_eq!(date.hour(), 0),
                        "week" => {
                            assert_eq!(date.hour(), 0);
                            assert_eq!(date.weekday(), chrono::Weekday::Mon);
                        }
                        "month" => {
                            assert_eq!(date.hour(), 0);
                            assert_eq!(date.day(), 1);
                        }
                        _ => {}
                    }
                }
            }
        }
    }
    // Without timeInterval the answer is hourly, as the hosted service's; a day-only metric's daily.
    let default = ok(&emu, "/v2/chains/43114/metrics/txCount").await;
    let hour = ok(&emu, "/v2/chains/43114/metrics/txCount?timeInterval=hour").await;
    assert_eq!(default["results"], hour["results"]);
    let day = ok(&emu, "/v2/chains/43114/metrics/txCount?timeInterval=day").await;
    assert_ne!(default["results"], day["results"]);
    let tps = ok(&emu, "/v2/chains/43114/metrics/avgTps").await;
    assert_eq!(tps["results"], ok(&emu, "/v2/chains/43114/metrics/avgTps?timeInterval=day").await["results"]);
    // The HTTP series equals the Rust API (reversed).
    let mut rust = metric_series_in(
        emu.data_world(),
        ChainSelector::Chain(43114),
        Metric::TxCount,
        Interval::Hour,
        (Some(from), None),
    )
    .unwrap();
    rust.reverse();
    assert_eq!(hours, rust);
    // Over December 2025 (from Monday the 1st), hour sums equal the day, week and month sums;
    // cumulative grows by the daily count.
    let dec = 1_764_547_200;
    let series = |i: &str, m: &str, start: i64| {
        let emu = &emu;
        let path = format!("/v2/chains/43114/metrics/{m}?timeInterval={i}&pageSize=2160&startTimestamp={start}");
        async move { points(ok(emu, &path).await["results"].as_array().unwrap()) }
    };
    let december = series("hour", "txCount", dec).await;
    assert_eq!(december.len(), 31 * 24);
    let total: f64 = december.iter().map(|p| p.1).sum();
    for i in ["day", "week", "month"] {
        assert_eq!(series(i, "txCount", dec).await.iter().map(|p| p.1).sum::<f64>(), total, "{i}");
    }
    let days = series("day", "txCount", dec).await;
    let cumulative = series("day", "cumulativeTxCount", dec - 86_400).await;
    assert_eq!((days.len(), cumulative.len()), (31, 32));
    for (k, (t, v)) in days.iter().enumerate() {
        assert_eq!((cumulative[k].0, cumulative[k].1 - cumulative[k + 1].1), (*t, *v));
    }
    // Aggregates: sums add up over the chains; distinct addresses are at most the sum.
    let mut per_chain = Vec::new();
    for c in emu.data_world().chains() {
        per_chain.push(
            metric_series(emu.data_world(), ChainSelector::Chain(c.evm_chain_id), Metric::TxCount, Interval::Day)
                .unwrap(),
        );
    }
    let mut sums: HashMap<i64, f64> = HashMap::new();
    for s in &per_chain {
        for (t, v) in s {
            *sums.entry(*t).or_default() += v;
        }
    }
    let agg = metric_series(emu.data_world(), ChainSelector::Total, Metric::TxCount, Interval::Day).unwrap();
    assert_eq!(agg.len(), sums.len());
    for (t, v) in &agg {
        assert_eq!(sums[t], *v);
    }
    let aa_total =
        metric_series(emu.data_world(), ChainSelector::Total, Metric::ActiveAddresses, Interval::Day).unwrap();
    let aa_main =
        metric_series(emu.data_world(), ChainSelector::Chain(43114), Metric::ActiveAddresses, Interval::Day).unwrap();
    let last = aa_total.last().unwrap();
    assert!(last.1 >= aa_main.last().unwrap().1 && last.1 <= 1000.0, "{last:?}");
    // Averages and maxima are sane: max tps >= avg tps; gas prices within the chain's range.
    let avg = metric_series(emu.data_world(), ChainSelector::Chain(43114), Metric::AvgTps, Interval::Day).unwrap();
    let max = metric_series(emu.data_world(), ChainSelector::Chain(43114), Metric::MaxTps, Interval::Day).unwrap();
    for (a, m) in avg.iter().zip(&max) {
        assert!(a.1 > 0.0 && m.1 >= a.1, "{a:?} {m:?}");
    }
    // Gas prices: within the chain's range where the blocks are (base fee 1 to 60 gwei, priority
    // up to 2 gwei), above its floor in the history, with spikes above the range.
    let price =
        metric_series(emu.data_world(), ChainSelector::Chain(43114), Metric::MaxGasPrice, Interval::Day).unwrap();
    assert!(price.iter().all(|p| p.1 >= 1e9));
    assert!(price.iter().filter(|p| p.0 > Interval::Day.floor(from)).all(|p| p.1 <= 62e9), "the days of blocks only");
    assert!(price.iter().any(|p| p.1 > 62e9), "fee spikes");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pagination_and_start_end_filtering() {
    let emu = start(20_000).await;
    // The hours of the blocks (33 h at 6 s); the history before them is paged the same way.
    let wagmi = avax_data_emulator::data_api::chain(11111).unwrap();
    let from = Interval::Hour.floor(emu.data_world().block_timestamp_ms(wagmi, 0) / 1000);
    let path = &format!("/v2/chains/11111/metrics/activeSenders?timeInterval=hour&startTimestamp={from}");
    let big = ok(&emu, &with(path, "pageSize=2160")).await;
    assert!(big.get("nextPageToken").is_none());
    let big = big["results"].as_array().unwrap().clone();
    assert!(big.len() > 20, "{}", big.len());
    let (paged, pages) = all_pages(&emu, &with(path, "pageSize=7"), "results").await;
    assert_eq!(paged, big);
    assert_eq!(pages, big.len().div_ceil(7));
    // Default page size 100.
    let default = ok(&emu, path).await;
    assert_eq!(default["results"].as_array().unwrap().len(), big.len().min(100));
    // start <= t <= end: both ends inclusive, as the hosted service (the newest point sits on end).
    let pts = points(&big);
    let (newest, oldest) = (pts[0].0, pts[pts.len() - 1].0);
    let (s, e) = (oldest + 5 * 3600, newest - 3 * 3600);
    let window = points(
        ok(&emu, &format!("{path}&pageSize=2160&startTimestamp={s}&endTimestamp={e}")).await["results"]
            .as_array()
            .unwrap(),
    );
    let expected: Vec<_> = pts.iter().copied().filter(|(t, _)| *t >= s && *t <= e).collect();
    assert_eq!(window, expected);
    assert_eq!(window.first().unwrap().0, e);
    assert_eq!(window.last().unwrap().0, s);
    // Off-boundary start and end.
    let window = points(
        ok(&emu, &format!("{path}&pageSize=2160&startTimestamp={}&endTimestamp={}", s + 1, e + 1)).await["results"]
            .as_array()
            .unwrap(),
    );
    assert_eq!(window.first().unwrap().0, e);
    assert_eq!(window.last().unwrap().0, s + 3600);
    // Sub-windows cut at bucket starts tile the whole series when each asks up to its cut - 1.
    let mut tiled = Vec::new();
    let mut hi = newest + 3600;
    while hi > oldest {
        let lo = hi - 6 * 3600;
        let part = ok(&emu, &format!("{path}&pageSize=2160&startTimestamp={lo}&endTimestamp={}", hi - 1)).await;
        tiled.extend(points(part["results"].as_array().unwrap()));
        hi = lo;
    }
    tiled.retain(|(t, _)| *t >= oldest);
    assert_eq!(tiled, pts);
    let one = ok(&emu, &format!("{path}&startTimestamp={s}&endTimestamp={s}")).await;
    assert_eq!(points(one["results"].as_array().unwrap()), vec![*pts.iter().find(|p| p.0 == s).unwrap()]);
    let none = ok(&emu, &format!("{path}&startTimestamp={}&endTimestamp={}", s + 1, s + 1)).await;
    assert_eq!(none["results"], serde_json::json!([]));
    // Tokens: bound to the query, expire after 24 h of the emulator clock.
    let first = ok(&emu, &with(path, "pageSize=5")).await;
    let token = first["nextPageToken"].as_str().unwrap().to_string();
    error(&emu, &format!("/v2/chains/11111/metrics/txCount?timeInterval=hour&pageToken={token}"), 400, "Bad Request")
        .await;
    error(&emu, &with(path, "pageToken=not-a-token"), 400, "Bad Request").await;
    ok(&emu, &with(path, &format!("pageToken={token}"))).await;
    emu.advance_clock(Duration::from_secs(24 * 3600 + 60));
    error(&emu, &with(path, &format!("pageToken={token}")), 400, "Bad Request").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn validation_errors() {
    let emu = start(2_000).await;
    let base = "/v2/chains/43114/metrics";
    for m in Metric::ALL.iter().filter(|m| m.day_only()) {
        for i in ["hour", "week", "month"] {
            let msg = error(&emu, &format!("{base}/{}?timeInterval={i}", m.as_str()), 400, "Bad Request").await;
            assert!(msg.as_str().unwrap().contains("day"), "{msg}");
        }
        ok(&emu, &format!("{base}/{}?timeInterval=day", m.as_str())).await;
    }
    for m in ANY {
        for i in ["hour", "day", "week", "month"] {
            ok(&emu, &format!("{base}/{m}?timeInterval={i}")).await;
        }
    }
    assert!(error(&emu, &format!("{base}/bogus"), 400, "Bad Request").await.is_array());
    assert!(error(&emu, &format!("{base}/txCount?timeInterval=year"), 400, "Bad Request").await.is_array());
    for size in ["0", "2161", "-1", "abc"] {
        assert!(error(&emu, &format!("{base}/txCount?pageSize={size}"), 400, "Bad Request").await.is_array());
    }
    ok(&emu, &format!("{base}/txCount?pageSize=2160")).await;
    ok(&emu, &format!("{base}/txCount?pageSize=1")).await;
    for p in ["startTimestamp=-1", "endTimestamp=-5", "startTimestamp=abc", "endTimestamp=1.5"] {
        assert!(error(&emu, &format!("{base}/txCount?{p}"), 400, "Bad Request").await.is_array(), "{p}");
    }
    error(&emu, &format!("{base}/txCount?startTimestamp=100&endTimestamp=99"), 400, "Bad Request").await;
    ok(&emu, &format!("{base}/txCount?startTimestamp=0&endTimestamp=0")).await;
    error(&emu, "/v2/chains/999999/metrics/txCount", 404, "Not Found").await;
    error(&emu, "/v2/chains/fuji/metrics/txCount", 400, "Bad Request").await;
    error(&emu, "/v2/chains/0xabc/metrics/txCount", 400, "Bad Request").await;
    for c in ["total", "mainnet", "testnet", "43113", "4337"] {
        ok(&emu, &format!("/v2/chains/{c}/metrics/txCount")).await;
    }
    error(&emu, "/v2/chains?network=devnet", 400, "Bad Request").await;
    error(&emu, "/v2/icm/summary?network=devnet", 400, "Bad Request").await;
    error(&emu, "/v2/icm/summary?groupBy=network", 400, "Bad Request").await;
    error(&emu, "/v2/icm/summary?srcBlockchainId=not_an_id!", 400, "Bad Request").await;
    error(&emu, "/v2/nothing", 404, "Not Found").await;
    let (status, _) = {
        let r = reqwest::Client::new().post(format!("{}/v2/live-check", emu.url())).send().await.unwrap();
        (r.status().as_u16(), ())
    };
    assert_eq!(status, 404);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn chains_and_live_check() {
    let emu = start(500).await;
    let all = ok(&emu, "/v2/chains").await;
    assert!(all.get("nextPageToken").is_none());
    let list = all["chains"].as_array().unwrap();
    assert_eq!(list.len(), emu.data_world().chains().len());
    for (item, c) in list.iter().zip(emu.data_world().chains()) {
        let mut keys: Vec<_> = item.as_object().unwrap().keys().cloned().collect();
        keys.sort();
        assert_eq!(keys, ["blockchainId", "chainName", "evmChainId", "network", "subnetId"]);
        assert_eq!(item["evmChainId"].as_u64(), Some(c.evm_chain_id));
        assert_eq!(item["blockchainId"], c.blockchain_id.as_str());
        assert_eq!(item["subnetId"], c.subnet_id.as_str());
        assert_eq!(item["chainName"], c.name);
        let want = if c.network == avax_data_emulator::data_api::Network::Mainnet { "mainnet" } else { "testnet" };
        assert_eq!(item["network"], want);
    }
    let main = ok(&emu, "/v2/chains?network=mainnet").await;
    assert!(main["chains"].as_array().unwrap().iter().all(|c| c["network"] == "mainnet"));
    let fuji = ok(&emu, "/v2/chains?network=fuji").await;
    let testnet = ok(&emu, "/v2/chains?network=testnet").await;
    assert_eq!(fuji, testnet);
    assert_eq!(main["chains"].as_array().unwrap().len() + fuji["chains"].as_array().unwrap().len(), list.len());
    let live = ok(&emu, "/v2/live-check").await;
    assert_eq!(live["status"], "ok");
    assert_eq!(live["info"]["database"]["status"], "up");
    assert!(live["error"].as_object().unwrap().is_empty());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tx_count_matches_data_api_blocks() {
    let emu = start(60_000).await;
    for chain_id in [43114u64, 4337] {
        let days = points(
            ok(&emu, &format!("/v2/chains/{chain_id}/metrics/txCount?timeInterval=day")).await["results"]
                .as_array()
                .unwrap(),
        );
        // The newest day is complete (the tips are just before 2026-01-01T00:00Z and the chain
        // started the day before).
        assert!(days.len() >= 2, "{}", days.len());
        let (day, metric) = days[0];
        assert_eq!(day, 1_767_225_600 - 86_400);
        let (mut sum, mut gas, mut seen) = (0u64, 0u64, 0);
        let mut token: Option<String> = None;
        // Walk the Data API's blocks newest first until before the day.
        'walk: loop {
            let url = match &token {
                Some(t) => format!("/v1/chains/{chain_id}/blocks?pageSize=100&pageToken={t}"),
                None => format!("/v1/chains/{chain_id}/blocks?pageSize=100"),
            };
            let body = ok(&emu, &url).await;
            for b in body["blocks"].as_array().unwrap() {
                let ts = b["blockTimestamp"].as_i64().unwrap();
                if ts < day {
                    break 'walk;
                }
                if ts < day + 86_400 {
                    sum += b["txCount"].as_u64().unwrap();
                    gas += b["gasUsed"].as_str().unwrap().parse::<u64>().unwrap();
                    seen += 1;
                }
            }
            match body.get("nextPageToken").and_then(Value::as_str) {
                Some(t) => token = Some(t.to_string()),
                None => break,
            }
        }
        assert!(seen > 1000);
        assert_eq!(metric, sum as f64, "chain {chain_id} day {day}");
        let gas_metric = points(
            ok(
                &emu,
                &format!(
                    "/v2/chains/{chain_id}/metrics/gasUsed?timeInterval=day&startTimestamp={day}&endTimestamp={}",
                    day + 1
                ),
            )
            .await["results"]
                .as_array()
                .unwrap(),
        );
        assert_eq!(gas_metric, vec![(day, gas as f64)]);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn icm_summary_matches_data_api_messages() {
    let emu = start(5_000).await;
    let world = emu.data_world();
    let count = |q: String| {
        let emu = &emu;
        async move {
            let mut n = 0;
            let mut token: Option<String> = None;
            loop {
                let url = match &token {
                    Some(t) => format!("/v1/icm/messages?pageSize=100{q}&pageToken={t}"),
                    None => format!("/v1/icm/messages?pageSize=100{q}"),
                };
                let body = ok(emu, &url).await;
                n += body["messages"].as_array().unwrap().len() as u64;
                match body.get("nextPageToken").and_then(Value::as_str) {
                    Some(t) => token = Some(t.to_string()),
                    None => return n,
                }
            }
        }
    };
    let all = ok(&emu, "/v2/icm/summary").await["result"].clone();
    assert!(all.is_object());
    assert_eq!(all["allTime"].as_u64().unwrap(), count(String::new()).await);
    assert_eq!(all["allTime"].as_u64().unwrap(), world.icm_messages().len() as u64);
    assert_eq!(all["srcBlockchainId"], "all");
    let windows = ["lastHour", "lastDay", "lastWeek", "lastMonth", "last90Days", "lastYear", "allTime"];
    let values: Vec<u64> = windows.iter().map(|w| all[*w].as_u64().unwrap()).collect();
    assert!(values.windows(2).all(|w| w[0] <= w[1]), "{values:?}");
    // 5,000 blocks at 2–6 s: every message within the last day, some within the last hour.
    assert!(values[0] > 0 && values[0] < values[6]);
    let now_ms = 1_767_225_600_000i64;
    let last_hour = world.icm_messages().iter().filter(|m| m.source_timestamp_ms >= now_ms - 3_600_000).count();
    assert_eq!(values[0], last_hour as u64);
    for network in ["mainnet", "fuji", "testnet"] {
        let r = ok(&emu, &format!("/v2/icm/summary?network={network}")).await["result"].clone();
        assert_eq!(r["allTime"].as_u64().unwrap(), count(format!("&network={network}")).await);
    }
    let src = world.icm_messages()[0].source_evm_chain_id;
    let dst = world.icm_messages()[0].destination_evm_chain_id;
    let src_id = &avax_data_emulator::data_api::chain(src).unwrap().blockchain_id;
    let dst_id = &avax_data_emulator::data_api::chain(dst).unwrap().blockchain_id;
    let pair = ok(&emu, &format!("/v2/icm/summary?srcBlockchainId={src_id}&destBlockchainId={dst_id}")).await["result"]
        .clone();
    assert_eq!(pair["srcBlockchainId"], src_id.as_str());
    assert_eq!(pair["destBlockchainId"], dst_id.as_str());
    assert_eq!(
        pair["allTime"].as_u64().unwrap(),
        count(format!("&sourceBlockchainId={src_id}&destinationBlockchainId={dst_id}")).await
    );
    let from_src = ok(&emu, &format!("/v2/icm/summary?srcBlockchainId={src_id}")).await["result"].clone();
    assert_eq!(from_src["allTime"].as_u64().unwrap(), count(format!("&sourceBlockchainId={src_id}")).await);
    // Grouped: a list whose allTime counts add up to the ungrouped one.
    for group in ["srcBlockchainId", "destBlockchainId", "srcBlockchainId,destBlockchainId"] {
        let list = ok(&emu, &format!("/v2/icm/summary?network=mainnet&groupBy={group}")).await["result"].clone();
        let list = list.as_array().unwrap();
        assert!(list.len() >= 2);
        let net = ok(&emu, "/v2/icm/summary?network=mainnet").await["result"].clone();
        for w in windows {
            assert_eq!(
                list.iter().map(|g| g[w].as_u64().unwrap()).sum::<u64>(),
                net[w].as_u64().unwrap(),
                "{group} {w}"
            );
        }
        for g in list {
            let s = g["srcBlockchainId"].as_str().unwrap();
            let d = g["destBlockchainId"].as_str().unwrap();
            let mut q = String::from("&network=mainnet");
            if group.contains("src") {
                q.push_str(&format!("&sourceBlockchainId={s}"));
            } else {
                assert_eq!(s, "all");
            }
            if group.contains("dest") {
                q.push_str(&format!("&destinationBlockchainId={d}"));
            } else {
                assert_eq!(d, "all");
            }
            assert_eq!(g["allTime"].as_u64().unwrap(), count(q).await, "{g}");
        }
    }
    let by_dest =
        ok(&emu, &format!("/v2/icm/summary?srcBlockchainId={src_id}&groupBy=destBlockchainId")).await["result"].clone();
    assert!(by_dest.as_array().unwrap().iter().all(|g| g["srcBlockchainId"] == src_id.as_str()));
    // An id of no chain: zeros.
    let none = ok(&emu, "/v2/icm/summary?srcBlockchainId=999999").await["result"].clone();
    assert_eq!(none["allTime"], 0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_window_outside_the_world_is_named_with_the_worlds_span() {
    use avax_data_core::metrics::series::series_pager;
    use avax_data_core::metrics::MetricsClient;
    let emu = start(2_000).await;
    let (first_ms, last_ms) = emu.world_span_ms();
    assert_eq!(last_ms, 1_767_225_600_000, "the world's now: 2026-01-01T00:00:00Z");
    assert_eq!(first_ms, 1_599_696_000_000, "the oldest chain's launch: Fuji, 2020-09-10");
    let client = MetricsClient::new(Some(&emu.url()), Default::default()).unwrap();
    let (jan, apr) = (1_546_300_800, 1_554_076_800); // 2019-01-01 .. 2019-04-01
    for concurrency in [1, 4] {
        let query = client.metric("43114", "txCount", Some("day"), Some(jan), Some(apr), None).unwrap();
        let pager = series_pager(&client, query, None, None, concurrency).unwrap();
        assert!(pager.to_batches(None, |_| {}).await.unwrap().iter().all(|b| b.num_rows() == 0));
        let notice = pager.pager.empty_notice().expect("the emulator named its world");
        assert!(notice.starts_with("0 rows: the window 2019-01-01 00:00 .. 2019-04-01 00:00"), "{notice}");
        assert!(notice.contains("lies outside the emulator's world") && notice.contains(".. 2026-01-01 00:00 UTC"));
        assert_eq!(client.emulator_world(), Some((first_ms.div_euclid(1000), last_ms / 1000)));
    }
    // Inside the world: rows, no notice; a list without a window: no notice either.
    let query =
        client.metric("43114", "txCount", Some("hour"), Some(last_ms / 1000 - 3 * 86_400), Some(last_ms / 1000), None);
    let pager = series_pager(&client, query.unwrap(), None, None, 1).unwrap();
    let rows: usize = pager.to_batches(None, |_| {}).await.unwrap().iter().map(|b| b.num_rows()).sum();
    assert!(rows >= 2 && pager.pager.empty_notice().is_none());
    assert_eq!(avax_data_core::paging::pager::outside_world_notice("/v1/x", (None, None), (0, 1)), None);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_real_services_never_get_a_world_notice() {
    // A service that does not send the header: an empty window says nothing about a world.
    use avax_data_core::metrics::series::series_pager;
    use avax_data_core::metrics::MetricsClient;
    let app = axum::Router::new().route(
        "/v2/chains/{chain}/metrics/{metric}",
        axum::routing::get(|| async { axum::Json(serde_json::json!({"results": []})) }),
    );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    let client = MetricsClient::new(Some(&url), Default::default()).unwrap();
    let query = client.metric("43114", "txCount", Some("day"), Some(0), Some(86_400), None).unwrap();
    let pager = series_pager(&client, query, None, None, 1).unwrap();
    pager.to_batches(None, |_| {}).await.unwrap();
    assert!(pager.position().exhausted && pager.pager.empty_notice().is_none());
}
