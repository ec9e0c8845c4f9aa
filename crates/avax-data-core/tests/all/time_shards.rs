//! Lists with a time window walked in shards of seconds side by side (`rest::block_source`)
//! against the emulator's P-Chain (its transactions share their block's second, so many items
//! sit on every cut second) and its staking metrics: the same items in the same order as the
//! sequential walk, each once, the window's ends counted in, a resume from inside a shard.

use avax_data_core::arrow::Resource;
use avax_data_core::data::{DataClient, DataClientOptions, ResourcePager};
use avax_data_core::metrics::MetricsClient;
use avax_data_core::paging::shard_axis::second_of;
use avax_data_core::paging::JsonItem;
use avax_data_core::rest::block_source::list_pager;
use avax_data_core::rest::openapi::operation;
use avax_data_core::rest::{Paged, RestClient};
use avax_data_emulator::{Emulator, EmulatorConfig};

const TXS: &str = "listLatestPrimaryNetworkTransactions";

fn txs(bounds: &[(&'static str, u64)], page_size: u64) -> Paged {
    let mut query = vec![("pageSize", page_size.to_string())];
    query.extend(bounds.iter().map(|(k, v)| (*k, v.to_string())));
    Paged { path: "/v1/networks/mainnet/blockchains/p-chain/transactions".into(), query, items_field: "transactions" }
}

fn pager(client: &RestClient, op: &str, paged: Paged, token: Option<String>, concurrency: i64) -> ResourcePager {
    let resource = Resource::of_operation(operation(op).unwrap());
    list_pager(client, op, paged, resource, token, None, Some(concurrency)).unwrap()
}

/// Each item as (second, its text), in the order handed out.
async fn rows(pager: &ResourcePager) -> Vec<(u64, String)> {
    let mut out = Vec::new();
    pager
        .pager
        .drain(|items: Vec<JsonItem>| {
            out.extend(items.iter().map(|item| (second_of(item).unwrap(), item.as_str().to_string())));
            Ok(())
        })
        .await
        .unwrap();
    out
}

fn data(emu: &Emulator) -> DataClient {
    DataClient::new(Some(&emu.url()), DataClientOptions::default()).unwrap()
}

fn assert_each_once(rows: &[(u64, String)]) {
    let distinct: std::collections::HashSet<&String> = rows.iter().map(|(_, t)| t).collect();
    assert_eq!(distinct.len(), rows.len(), "each item once");
    assert!(rows.windows(2).all(|w| w[0].0 >= w[1].0), "newest first");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_time_sharded_walk_hands_out_the_sequential_walks_items_in_its_order_each_once() {
    let emu = Emulator::start(EmulatorConfig::default()).await.unwrap();
    let client = data(&emu);
    // pages of 7 end inside blocks: the cut seconds are shared by several transactions
    let before = emu.request_count();
    let sequential = rows(&pager(&client, TXS, txs(&[], 7), None, 1)).await;
    let sequential_requests = emu.request_count() - before;
    let before = emu.request_count();
    let sharded = rows(&pager(&client, TXS, txs(&[], 7), None, 4)).await;
    let sharded_requests = emu.request_count() - before;
    assert!(sequential.len() > 1_000, "{}", sequential.len());
    let shared = sequential.windows(2).filter(|w| w[0].0 == w[1].0).count();
    assert!(shared > 100, "items sharing a second: {shared}");
    assert_eq!(sharded, sequential, "identical items in the list's order");
    assert_each_once(&sharded);
    assert!(sharded_requests > sequential_requests, "it split: {sharded_requests} vs {sequential_requests}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_window_counts_both_its_ends_in_and_its_cut_seconds_come_once() {
    let emu = Emulator::start(EmulatorConfig::default()).await.unwrap();
    let client = data(&emu);
    let all = rows(&pager(&client, TXS, txs(&[], 100), None, 1)).await;
    // a window from a second holding several items to another one
    let seconds: Vec<u64> = all.windows(2).filter(|w| w[0].0 == w[1].0).map(|w| w[0].0).collect();
    let (end, start) = (seconds[seconds.len() / 5], seconds[seconds.len() * 4 / 5]);
    let window = [("startTimestamp", start), ("endTimestamp", end)];
    let expected: Vec<(u64, String)> = all.iter().filter(|(s, _)| (start..=end).contains(s)).cloned().collect();
    for (concurrency, page_size) in [(1, 100), (3, 5), (8, 9)] {
        let got = rows(&pager(&client, TXS, txs(&window, page_size), None, concurrency)).await;
        assert_eq!(got, expected, "concurrency={concurrency} pageSize={page_size}");
        assert_eq!((got[0].0, got.last().unwrap().0), (end, start), "both ends counted in");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_empty_window_costs_one_request() {
    let emu = Emulator::start(EmulatorConfig::default()).await.unwrap();
    let client = data(&emu);
    let before = emu.request_count();
    // a window before the network's genesis holds nothing
    let none =
        rows(&pager(&client, TXS, txs(&[("startTimestamp", 1_000), ("endTimestamp", 2_000)], 10), None, 8)).await;
    assert!(none.is_empty());
    assert_eq!(emu.request_count() - before, 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_time_sharded_walk_resumed_inside_a_shard_hands_out_the_rest_exactly() {
    let emu = Emulator::start(EmulatorConfig::default()).await.unwrap();
    let client = data(&emu);
    let whole = rows(&pager(&client, TXS, txs(&[], 7), None, 4)).await;
    for pages in [1usize, 9, 60] {
        let first = pager(&client, TXS, txs(&[], 7), None, 4);
        let again = |token| pager(&client, TXS, txs(&[], 7), Some(token), 4);
        let (got, resumed) = super::block_shards::resumed_after(&first, pages, again).await;
        let rest = rows(&resumed).await;
        assert_eq!(rest, whole[got..].to_vec(), "resumed after {pages} pages");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_staking_metric_walked_in_time_shards_equals_its_sequential_walk() {
    let emu = Emulator::start(EmulatorConfig::default()).await.unwrap();
    let client = MetricsClient::new(Some(&emu.url()), Default::default()).unwrap();
    let op = "getStakingMetrics";
    let paged = || Paged {
        path: "/v2/networks/mainnet/metrics/validatorCount".into(),
        query: vec![("pageSize", "10".to_string())],
        items_field: "results",
    };
    let sequential = rows(&pager(&client, op, paged(), None, 1)).await;
    let sharded = rows(&pager(&client, op, paged(), None, 4)).await;
    assert!(sequential.len() > 100, "{}", sequential.len());
    assert_eq!(sharded, sequential);
    assert_each_once(&sharded);
}
