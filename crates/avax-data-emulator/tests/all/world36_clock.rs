//! One world, one clock (issue 36, sections 1 and 2): the Index RPC, the Data API and the Metrics
//! API of one emulator share a timeline that ends at the world's now; metric series reach back to
//! each chain's launch with the rhythm of a chain, equal what the blocks hold where the world has
//! blocks, and the staking metrics follow the world's stakes day by day.

use std::collections::{BTreeMap, BTreeSet};

use avax_data_core::index::IndexPath;
use avax_data_emulator::metrics_api::{metric_series, metric_series_in, ChainSelector, Interval, Metric};
use avax_data_emulator::world::history::launch_s;
use avax_data_emulator::world::{chain, WORLD_NOW_MS};
use avax_data_emulator::{defaults, Emulator, EmulatorConfig};
use serde_json::Value;

use crate::common::{all_pages, error, ok};

const NOW_S: i64 = WORLD_NOW_MS / 1000;
const DAY: i64 = 86_400;
const Y2025: i64 = 1_735_689_600;

async fn start(config: EmulatorConfig) -> Emulator {
    Emulator::start(config).await.expect("emulator starts")
}

fn points(items: &[Value]) -> Vec<(i64, f64)> {
    items.iter().map(|v| (v["timestamp"].as_i64().unwrap(), v["value"].as_f64().unwrap())).collect()
}

#[test]
fn the_default_config_is_the_defaults_table() {
    let c = EmulatorConfig::default();
    assert_eq!(
        (c.seed, c.default_count, c.data_blocks_per_chain, c.tip_rate, c.latency.as_secs_f64(), c.faults.seed),
        (
            defaults::SEED,
            defaults::CONTAINERS,
            defaults::DATA_BLOCKS_PER_CHAIN,
            defaults::TIP_RATE,
            defaults::LATENCY_S,
            defaults::FAULT_SEED
        )
    );
    assert_eq!(defaults::CONTAINERS, defaults::DATA_BLOCKS_PER_CHAIN, "the index and the Data API hold one C-Chain");
}

/// The newest block of the Data API's C-Chain: (number, Unix seconds).
async fn data_api_tip(emu: &Emulator) -> (u64, i64) {
    let body = ok(emu, "/v1/chains/43114/blocks?pageSize=1").await;
    let b = &body["blocks"][0];
    (b["blockNumber"].as_str().unwrap().parse().unwrap(), b["blockTimestamp"].as_i64().unwrap())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_index_and_the_data_api_end_at_the_worlds_now_on_one_c_chain() {
    for (containers, data_blocks) in [(None, None), (Some(20_000), Some(5_000)), (Some(300), Some(2_000))] {
        let mut config = EmulatorConfig { seed: 4, ..Default::default() };
        if let Some(n) = containers {
            config.default_count = n;
        }
        if let Some(n) = data_blocks {
            config.data_blocks_per_chain = n;
        }
        let emu = start(config).await;
        let c_count = emu.container_count(IndexPath::CBlock);
        let blocks = data_blocks.unwrap_or(defaults::DATA_BLOCKS_PER_CHAIN);
        let (tip, tip_s) = data_api_tip(&emu).await;
        assert_eq!(tip + 1, blocks, "{containers:?}");
        // No container of any path is accepted after now; the longer of the C/block index and
        // the Data API's C-Chain ends just before it.
        for path in IndexPath::ALL {
            let n = emu.container_count(path);
            let (last, _) = emu.expected_container(path, n - 1).unwrap();
            assert!(last.timestamp_ns < WORLD_NOW_MS * 1_000_000, "{path} {}", last.timestamp_ns);
        }
        let (c_last, _) = emu.expected_container(IndexPath::CBlock, c_count - 1).unwrap();
        let end_s = c_last.timestamp_ns.div_euclid(1_000_000_000).max(tip_s);
        assert!(end_s > NOW_S - 10, "{end_s}");
        // The index's C-Chain container at the Data API's height is that block (same second).
        if tip < c_count {
            let (block, _) = emu.expected_container(IndexPath::CBlock, tip).unwrap();
            assert_eq!(block.timestamp_ns.div_euclid(1_000_000_000), tip_s);
        }
        let world = emu.world_summary();
        assert_eq!(world["now"], "2026-01-01T00:00:00Z");
        assert_eq!(world["index"]["C/block"]["containers"], c_count);
        assert_eq!(world["chains"][0]["last_block"], tip);
        assert!(world["index"]["C/block"]["last_time"].as_str().unwrap() < "2026-01-01T00:00:00Z");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn chains_and_blockchains_are_named_as_the_real_services_name_them() {
    let emu = start(EmulatorConfig { default_count: 10, data_blocks_per_chain: 10, ..Default::default() }).await;
    let c = ok(&emu, "/v2/chains/43114").await;
    assert_eq!((c["evmChainId"].as_u64(), c["network"].as_str()), (Some(43114), Some("mainnet")));
    assert_eq!(c["blockchainId"], avax_data_emulator::world::C_CHAIN_MAINNET_ID);
    assert_eq!(ok(&emu, "/v2/chains/43113").await["network"], "testnet");
    let m = error(&emu, "/v2/chains/5", 404, "Not Found").await;
    assert_eq!(m, "Chain 5 not found");
    let path = format!("/v1/networks/mainnet/blockchains/{}", avax_data_emulator::world::C_CHAIN_MAINNET_ID);
    let b = ok(&emu, &path).await;
    assert_eq!((b["blockchainName"].as_str(), b["evmChainId"].as_u64()), (Some("C-Chain"), Some(43114)));
    let p = ok(&emu, "/v1/networks/fuji/blockchains/11111111111111111111111111111111LpoYY").await;
    assert_eq!(p["blockchainName"], "P-Chain");
    error(
        &emu,
        "/v1/networks/mainnet/blockchains/2JVSBoinj9C2J33VntvzYtVJNZdN2NKiwwKjcumHUWEb5DbBrm",
        404,
        "Not Found",
    )
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_year_of_daily_points_with_a_trend_a_weekly_rhythm_and_varying_addresses() {
    let emu = start(EmulatorConfig { seed: 8, default_count: 10, ..Default::default() }).await;
    let path = format!("/v2/chains/43114/metrics/txCount?timeInterval=day&startTimestamp={Y2025}&endTimestamp={NOW_S}");
    let (items, _) = all_pages(&emu, &path, "results").await;
    let mut days = points(&items);
    days.reverse();
    assert_eq!(days.len(), 365);
    assert!(days.iter().enumerate().all(|(i, (t, _))| *t == Y2025 + i as i64 * DAY), "every day of 2025, in order");
    let mean = |f: &dyn Fn(i64) -> bool| -> f64 {
        let v: Vec<f64> = days.iter().filter(|(t, _)| f(*t)).map(|p| p.1).collect();
        v.iter().sum::<f64>() / v.len() as f64
    };
    let weekday = |t: i64| (t / DAY + 3) % 7;
    assert!(mean(&|t: i64| weekday(t) < 5) > 1.1 * mean(&|t: i64| weekday(t) >= 5), "weekends are quieter");
    assert!(mean(&|t: i64| t >= Y2025 + 300 * DAY) > mean(&|t: i64| t < Y2025 + 60 * DAY), "a growing trend");
    let (lo, hi) = days.iter().fold((f64::MAX, 0.0f64), |(a, b), p| (a.min(p.1), b.max(p.1)));
    assert!(hi > 2.0 * lo, "bursts: {lo}..{hi}");
    // activeAddresses is not a constant.
    let aa = metric_series_in(
        emu.data_world(),
        ChainSelector::Chain(43114),
        Metric::ActiveAddresses,
        Interval::Day,
        (Some(Y2025), Some(NOW_S)),
    )
    .unwrap();
    let distinct: std::collections::BTreeSet<u64> = aa.iter().map(|p| p.1 as u64).collect();
    assert!(distinct.len() > 100, "{}", distinct.len());
    // Fee spikes: some hours pay several times the usual price.
    let price = metric_series_in(
        emu.data_world(),
        ChainSelector::Chain(43114),
        Metric::MaxGasPrice,
        Interval::Day,
        (Some(Y2025), Some(NOW_S)),
    )
    .unwrap();
    let mut sorted: Vec<f64> = price.iter().map(|p| p.1).collect();
    sorted.sort_by(f64::total_cmp);
    assert!(sorted[sorted.len() - 1] > 3.0 * sorted[sorted.len() / 2], "{sorted:?}");
}

#[test]
fn every_series_reaches_back_to_its_chains_launch_at_every_interval() {
    let world = avax_data_emulator::DataWorld::new(2, 500);
    for c in world.chains() {
        for (interval, metrics) in [
            (Interval::Hour, &[Metric::TxCount, Metric::ActiveAddresses][..]),
            (Interval::Day, &Metric::ALL[..]),
            (Interval::Week, &[Metric::GasUsed][..]),
            (Interval::Month, &[Metric::ActiveSenders][..]),
        ] {
            for &m in metrics {
                let s = metric_series(&world, ChainSelector::Chain(c.evm_chain_id), m, interval).unwrap();
                assert_eq!(s[0].0, interval.floor(launch_s(c)), "{} {m:?} {interval:?}", c.name);
                assert!(s.windows(2).all(|w| w[1].0 == interval.next(w[0].0)), "consecutive buckets");
                assert_eq!(s.last().unwrap().0, interval.floor(NOW_S - 1));
            }
        }
    }
}

#[test]
fn where_the_world_holds_blocks_the_hours_are_what_the_blocks_hold() {
    let world = avax_data_emulator::DataWorld::new(5, 6_000);
    let c = chain(43114).unwrap();
    let mut by_hour: BTreeMap<i64, (f64, f64, BTreeSet<String>)> = BTreeMap::new();
    for n in 0..world.blocks_per_chain() {
        let b = world.block(c, n).unwrap();
        let e = by_hour.entry(Interval::Hour.floor(b.timestamp())).or_default();
        e.0 += f64::from(b.tx_count);
        e.1 += b.gas_used as f64;
        // Active: senders and the pool recipients (the contract an ERC-20 call or a mint calls,
        // failed or not, is not counted).
        for t in world.transactions(c, n).unwrap() {
            if let Some(to) = t.to.as_ref().filter(|a| world.pool_index(a).is_some()) {
                e.2.insert(to.clone());
            }
            e.2.insert(t.from);
        }
    }
    let first_hour = *by_hour.keys().next().unwrap();
    let window = (Some(first_hour - 3 * 3_600), None);
    let get = |m| metric_series_in(&world, ChainSelector::Chain(43114), m, Interval::Hour, window).unwrap();
    let (txs, gas, active) = (get(Metric::TxCount), get(Metric::GasUsed), get(Metric::ActiveAddresses));
    for (i, (t, (tx, g, addresses))) in by_hour.iter().enumerate().skip(1) {
        let at = txs.iter().position(|p| p.0 == *t).unwrap();
        assert_eq!(txs[at].1, *tx, "hour {i}");
        assert_eq!(gas[at].1, *g);
        assert_eq!(active[at].1, addresses.len() as f64);
    }
    // Distinct addresses of the first block's hour: the larger of the history's and the blocks'.
    let at = active.iter().position(|p| p.0 == first_hour).unwrap();
    assert!(active[at].1 >= by_hour[&first_hour].2.len() as f64);
    // The hour of the first block adds the history before it: no outage-like dip.
    let at = txs.iter().position(|p| p.0 == first_hour).unwrap();
    let (before, first, after) = (txs[at - 1].1, txs[at].1, txs[at + 1].1);
    assert!(first > by_hour[&first_hour].0 || first_hour * 1000 == world.block_timestamp_ms(c, 0));
    assert!(first > 0.5 * before.min(after), "{before} {first} {after}");
}

#[test]
fn cumulative_series_are_running_sums_of_their_base_series_from_launch() {
    let world = avax_data_emulator::DataWorld::new(6, 3_000);
    for selector in [ChainSelector::Chain(4337), ChainSelector::Total] {
        for (base, cumulative) in
            [(Metric::TxCount, Metric::CumulativeTxCount), (Metric::Contracts, Metric::CumulativeContracts)]
        {
            let b = metric_series(&world, selector, base, Interval::Day).unwrap();
            let c = metric_series(&world, selector, cumulative, Interval::Day).unwrap();
            assert_eq!(b.len(), c.len());
            let mut running = 0.0;
            for (x, y) in b.iter().zip(&c) {
                running += x.1;
                assert_eq!((x.0, running), *y);
            }
        }
        let addresses = metric_series(&world, selector, Metric::CumulativeAddresses, Interval::Day).unwrap();
        assert!(addresses.windows(2).all(|w| w[1].1 >= w[0].1) && addresses.last().unwrap().1 > addresses[0].1);
    }
    // A window of a cumulative series equals the same days of the whole series.
    let all = metric_series(&world, ChainSelector::Chain(43114), Metric::CumulativeTxCount, Interval::Day).unwrap();
    let window = (Some(Y2025), Some(Y2025 + 30 * DAY));
    let part = metric_series_in(&world, ChainSelector::Chain(43114), Metric::CumulativeTxCount, Interval::Day, window)
        .unwrap();
    assert_eq!(part.len(), 30);
    assert!(part.iter().all(|p| all.contains(p)));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn staking_metrics_follow_the_worlds_stakes_day_by_day() {
    let emu =
        start(EmulatorConfig { seed: 3, default_count: 10, data_blocks_per_chain: 10, ..Default::default() }).await;
    for network in ["mainnet", "fuji"] {
        let (items, _) = all_pages(&emu, &format!("/v2/networks/{network}/metrics/validatorCount"), "results").await;
        let series = points(&items);
        assert!(series.windows(2).all(|w| w[0].0 == w[1].0 + DAY), "newest first, one point a day");
        assert!(series.windows(2).any(|w| w[0].1 < w[1].1), "a day after an end counts fewer validators");
        let net = avax_data_emulator::world::Network::parse(network).unwrap();
        let pending = emu.data_world().pending_rewards(net);
        let validators = pending.iter().filter(|r| r.reward_type.as_str() == "VALIDATOR").count();
        assert_eq!(series[0], (NOW_S - DAY, validators as f64));
        assert!(series.last().unwrap().1 >= 1.0, "the first day holds the first stake");
    }
    let m = error(&emu, "/v2/networks/mainnet/metrics/stakeCount", 400, "Bad Request").await;
    assert!(m.to_string().contains("validatorCount"), "{m}");
    let other = ok(&emu, "/v2/networks/mainnet/metrics/validatorWeight?subnetId=abc").await;
    assert_eq!(other["results"], serde_json::json!([]));
}
