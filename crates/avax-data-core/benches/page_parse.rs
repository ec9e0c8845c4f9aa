//! What reading a Data API page costs, without the network: one page of 100 `EvmBlock`s (the
//! emulator's shape: alphabetical keys, decimal strings, 0x hashes) read by
//!
//! - `value tree`: `serde_json::from_slice::<Value>` of the body, the first step of the path the
//!   client took before the rebuild (a tree of maps, then walked to fill the columns): a lower
//!   bound on that path's cost;
//! - `read_page`: the one-pass read that keeps each item as its text (`rest::raw_page`);
//! - `read_page + columns`: the whole path of a page to a record batch today
//!   (`arrow::json_columns`);
//! - `read_page + exact values`: the core of the dict path (each item read by `exact::parse`,
//!   before its conversion to Python objects).
//!
//! ```sh
//! cargo bench --bench page_parse            # or: cargo build --release --bench page_parse
//! ```

use std::hint::black_box;
use std::time::Instant;

use avax_data_core::arrow::{to_batch, Resource};
use avax_data_core::rest::raw_page::read_page;
use serde_json::{json, Value};

const BLOCKS: u64 = 100;

fn page() -> Vec<u8> {
    let blocks: Vec<Value> = (0..BLOCKS)
        .map(|i| {
            let n = 4_999 - i;
            json!({
                "baseFee": (20_398_225_990u64 + i * 7_919).to_string(),
                "blockHash": format!("0x{:064x}", n * 0x9e37_79b9_7f4a_7c15),
                "blockNumber": n.to_string(),
                "blockTimestamp": 1_767_225_598 - 2 * i,
                "blockTimestampMilliseconds": 1_767_225_598_517u64 - 2_000 * i,
                "chainId": "43114",
                "cumulativeTransactions": (99_656 - 5 * i).to_string(),
                "feesSpent": (11_919_136_243_891_439u64 + i * 1_000_003).to_string(),
                "gasCost": (21_057_651_696u64 + i).to_string(),
                "gasLimit": "15000000",
                "gasUsed": (566_024 + 31 * i).to_string(),
                "parentHash": format!("0x{:064x}", (n - 1) * 0x9e37_79b9_7f4a_7c15),
                "txCount": i % 17,
            })
        })
        .collect();
    serde_json::to_vec(&json!({"blocks": blocks, "nextPageToken": "abee39d1-0351-4602-a882-48b8d7984229"})).unwrap()
}

/// Nanoseconds per block of `f` over `rounds` pages (the best of 5 runs).
fn per_block(rounds: u32, mut f: impl FnMut()) -> f64 {
    (0..5)
        .map(|_| {
            let t = Instant::now();
            for _ in 0..rounds {
                f();
            }
            t.elapsed().as_nanos() as f64 / (rounds as f64 * BLOCKS as f64)
        })
        .fold(f64::INFINITY, f64::min)
}

fn main() {
    let body = page();
    let rounds = 2_000;
    let tree = per_block(rounds, || {
        let value: Value = serde_json::from_slice(black_box(&body)).unwrap();
        black_box(value);
    });
    let read = per_block(rounds, || {
        black_box(read_page(black_box(&body), "blocks").unwrap());
    });
    let whole = per_block(rounds, || {
        let (items, _) = read_page(black_box(&body), "blocks").unwrap();
        black_box(to_batch(Resource::Block, &items).unwrap());
    });
    let dicts = per_block(rounds, || {
        let (items, _) = read_page(black_box(&body), "blocks").unwrap();
        for item in &items {
            black_box(item.to_exact().unwrap());
        }
    });
    println!("page of {BLOCKS} blocks, {} bytes ({} per block)", body.len(), body.len() as u64 / BLOCKS);
    println!("value tree (old path, first step only) {tree:>8.0} ns/block");
    println!("read_page                              {read:>8.0} ns/block");
    println!("read_page + columns (whole new path)   {whole:>8.0} ns/block");
    println!("whole new path / old first step        {:>8.2}x", whole / tree);
    println!("read_page + exact values (dict path)   {dicts:>8.0} ns/block");
}
