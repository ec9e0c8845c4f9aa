//! Block-ranged lists walked in shards side by side (`rest::block_source`) against the
//! emulator's busy address (100,000+ ERC-20 transfers): the same items in the same order as the
//! sequential walk, each once, the boundaries at shard edges, an empty range for one request, a
//! resume from a position inside a shard (asking for no page it handed out, planning nothing
//! again), and the emulator's `endBlock` exclusive.

use avax_data_core::arrow::Resource;
use avax_data_core::data::{DataClient, DataClientOptions, ResourcePager};
use avax_data_core::paging::block_shards::block_of;
use avax_data_core::paging::JsonItem;
use avax_data_core::rest::block_source::list_pager;
use avax_data_core::rest::openapi::operation;
use avax_data_core::rest::Paged;
use avax_data_emulator::world::busy::BUSY_ADDRESS;
use avax_data_emulator::{Emulator, EmulatorConfig};

const OP: &str = "listErc20Transactions";

async fn emulator() -> Emulator {
    Emulator::start(EmulatorConfig { data_blocks_per_chain: 10_000, ..Default::default() }).await.unwrap()
}

fn client(emu: &Emulator) -> DataClient {
    DataClient::new(Some(&emu.url()), DataClientOptions::default()).unwrap()
}

fn paged(address: &str, bounds: &[(&'static str, u64)]) -> Paged {
    let mut query = vec![("pageSize", "100".to_string())];
    query.extend(bounds.iter().map(|(k, v)| (*k, v.to_string())));
    Paged {
        path: format!("/v1/chains/43114/addresses/{address}/transactions:listErc20"),
        query,
        items_field: "transactions",
    }
}

fn pager(client: &DataClient, paged: Paged, token: Option<String>, concurrency: i64) -> ResourcePager {
    let resource = Resource::of_operation(operation(OP).unwrap());
    list_pager(client, OP, paged, resource, token, None, Some(concurrency)).unwrap()
}

/// Each item as (block, txHash, logIndex), in the order handed out.
async fn rows(pager: &ResourcePager) -> Vec<(u64, String, u64)> {
    let mut out = Vec::new();
    pager
        .pager
        .drain(|items: Vec<JsonItem>| {
            for item in items {
                let [hash, log] = item.fields(["txHash", "logIndex"]);
                out.push((block_of(&item).unwrap(), hash.unwrap().to_string(), log.unwrap().parse().unwrap()));
            }
            Ok(())
        })
        .await
        .unwrap();
    out
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_sharded_walk_hands_out_the_sequential_walks_items_in_its_order_each_once() {
    let emu = emulator().await;
    let client = client(&emu);
    let range = [("startBlock", 8_800), ("endBlock", 9_900)];
    let before = emu.request_count();
    let sequential = rows(&pager(&client, paged(BUSY_ADDRESS, &range), None, 1)).await;
    let sequential_requests = emu.request_count() - before;
    let before = emu.request_count();
    let sharded = rows(&pager(&client, paged(BUSY_ADDRESS, &range), None, 4)).await;
    let sharded_requests = emu.request_count() - before;
    assert!(sequential.len() > 15_000, "{}", sequential.len());
    assert_eq!(sharded, sequential, "identical rows in the list's order");
    let distinct: std::collections::HashSet<_> = sharded.iter().map(|(_, h, l)| (h.clone(), *l)).collect();
    assert_eq!(distinct.len(), sharded.len(), "each item once");
    assert_eq!((sharded[0].0, sharded.last().unwrap().0), (9_899, 8_800), "endBlock exclusive, startBlock inclusive");
    // The walk split into pieces (more requests than the sequential pages, but not many more).
    assert!(sharded_requests > sequential_requests, "{sharded_requests} vs {sequential_requests}");
    assert!(sharded_requests * 10 <= sequential_requests * 13, "{sharded_requests} vs {sequential_requests}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_open_range_walks_from_the_newest_item_down_to_the_first_block() {
    let emu = emulator().await;
    let client = client(&emu);
    let range = [("startBlock", 9_500)];
    let sequential = rows(&pager(&client, paged(BUSY_ADDRESS, &range), None, 1)).await;
    let sharded = rows(&pager(&client, paged(BUSY_ADDRESS, &range), None, 8)).await;
    assert_eq!(sharded, sequential);
    assert_eq!((sharded[0].0, sharded.last().unwrap().0), (9_999, 9_500));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_empty_range_costs_one_request() {
    let emu = emulator().await;
    let client = client(&emu);
    let before = emu.request_count();
    let none = rows(&pager(&client, paged(&format!("0x{}", "ab".repeat(20)), &[("startBlock", 0)]), None, 8)).await;
    assert!(none.is_empty());
    assert_eq!(emu.request_count() - before, 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_walk_resumed_from_a_position_inside_a_shard_hands_out_the_rest_exactly() {
    let emu = emulator().await;
    let client = client(&emu);
    let range = [("startBlock", 9_000), ("endBlock", 9_800)];
    let whole = rows(&pager(&client, paged(BUSY_ADDRESS, &range), None, 4)).await;
    for pages in [1usize, 7, 40] {
        let first = pager(&client, paged(BUSY_ADDRESS, &range), None, 4);
        let again = |token| pager(&client, paged(BUSY_ADDRESS, &range), Some(token), 4);
        let (got, resumed) = resumed_after(&first, pages, again).await;
        let rest = rows(&resumed).await;
        assert_eq!(rest, whole[got..].to_vec(), "resumed after {pages} pages");
    }
}

/// Reads `pages` pages of the sharded walk `first`, then resumes the pager `again` makes from
/// the token of its position there: the items read and the resumed pager.
pub(crate) async fn resumed_after(
    first: &ResourcePager,
    pages: usize,
    again: impl FnOnce(String) -> ResourcePager,
) -> (usize, ResourcePager) {
    let mut cursor = first.pager.cursor();
    let mut got = 0usize;
    for _ in 0..pages {
        got += cursor.next_page_with(|_| Ok(())).await.unwrap().unwrap();
    }
    let at = first.position();
    let token = at.next_page_token().expect("a sharded walk's position is a token").to_string();
    assert!(token.starts_with("avax-shard:2:"), "{token}");
    let resumed = again(token);
    resumed.pager.resume_at(at.next_page_token().map(str::to_string), at.offset, at.items_read, &[]).unwrap();
    assert_eq!(got as u64, at.items_read);
    (got, resumed)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_resume_with_shards_in_flight_asks_for_no_page_it_handed_out_and_plans_nothing_again() {
    let emu = emulator().await;
    let client = client(&emu);
    let range = [("startBlock", 8_000), ("endBlock", 9_900)];
    let before = emu.request_count();
    let whole = rows(&pager(&client, paged(BUSY_ADDRESS, &range), None, 4)).await;
    let whole_requests = emu.request_count() - before;
    for pages in [2usize, 25, 90] {
        let first = pager(&client, paged(BUSY_ADDRESS, &range), None, 4);
        let mut cursor = first.pager.cursor();
        let mut got = 0usize;
        for _ in 0..pages {
            got += cursor.next_page_with(|_| Ok(())).await.unwrap().unwrap();
        }
        // The stop: the walk is dropped with 4 shards in flight and pages fetched ahead.
        drop(cursor);
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        let at = first.position();
        assert_eq!((at.offset, at.items_read), (0, got as u64), "stopped between pages");
        let token = at.next_page_token().expect("a position inside the walk").to_string();
        assert!(token.starts_with("avax-shard:2:"), "{token}");
        let resumed = pager(&client, paged(BUSY_ADDRESS, &range), Some(token.clone()), 4);
        resumed.pager.resume_at(Some(token), 0, at.items_read, &[]).unwrap();
        let before = emu.request_count();
        let rest = rows(&resumed).await;
        let resume_requests = emu.request_count() - before;
        assert_eq!(rest, whole[got..].to_vec(), "resumed after {pages} pages: the rest, each once");
        // Every page of the walk is one request: the resume asks for exactly the pages not
        // handed out (those fetched ahead again), and plans no shard again.
        assert_eq!(resume_requests, whole_requests - pages as u64, "resumed after {pages} pages");
    }
}
