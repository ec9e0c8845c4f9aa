//! A Data API walk to batches (`to_polars()`, `to_arrow()`): the pages go into column builders
//! kept across pages, and come out as few batches holding every item once, in order, with the
//! values of the page-by-page batches.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use arrow_array::cast::AsArray;
use arrow_array::types::UInt64Type;
use arrow_array::RecordBatch;
use avax_data_core::arrow::Resource;
use avax_data_core::data::{DataClient, DataClientOptions, ResourcePager, BATCH_ROWS};
use avax_data_emulator::{Emulator, EmulatorConfig};

const BLOCKS: u64 = BATCH_ROWS as u64 + 450;

fn pager(emu: &Emulator, limit: Option<u64>) -> ResourcePager {
    let client = DataClient::new(Some(&emu.url()), DataClientOptions::default()).unwrap();
    let paged = client.blocks("43114", Some(100)).unwrap();
    ResourcePager::tokens(&client, paged, Resource::Block, None, limit).unwrap()
}

fn numbers(batches: &[RecordBatch]) -> Vec<u64> {
    batches.iter().flat_map(|b| b.column(1).as_primitive::<UInt64Type>().values().to_vec()).collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_walk_gathers_its_pages_into_few_batches_of_the_page_by_page_values() {
    let config = EmulatorConfig { data_blocks_per_chain: BLOCKS, default_count: 100, ..Default::default() };
    let emu = Emulator::start(config).await.unwrap();
    let rows = Arc::new(AtomicU64::new(0));
    let seen = rows.clone();
    let walk = pager(&emu, None);
    let batches = walk
        .to_batches(None, move |n| {
            seen.fetch_add(n, Ordering::SeqCst);
        })
        .await
        .unwrap();
    // A batch ends at the first page that reaches BATCH_ROWS: 8,200 rows (82 pages), then the rest.
    let sizes: Vec<usize> = batches.iter().map(RecordBatch::num_rows).collect();
    assert_eq!(sizes, vec![BATCH_ROWS + 8, BLOCKS as usize - BATCH_ROWS - 8]);
    assert_eq!(rows.load(Ordering::SeqCst), BLOCKS, "progress counts every row once");
    assert!(walk.position().exhausted);
    assert!(batches.iter().all(|b| b.schema() == Resource::Block.schema()));
    // Newest first, every block once.
    assert_eq!(numbers(&batches), (0..BLOCKS).rev().collect::<Vec<_>>());
    // The same values as the walk's pages made into batches one by one, column by column.
    let again = pager(&emu, None);
    let mut cursor = again.pager.cursor();
    let mut pages = Vec::new();
    while let Some(batch) = again.next_batch(&mut cursor).await.unwrap() {
        pages.push(batch);
    }
    assert_eq!(pages.len(), BLOCKS.div_ceil(100) as usize);
    let mut at = 0;
    for page in &pages {
        let (batch, offset) = match at < sizes[0] {
            true => (&batches[0], at),
            false => (&batches[1], at - sizes[0]),
        };
        assert_eq!(&batch.slice(offset, page.num_rows()), page, "rows {at}..");
        at += page.num_rows();
    }
    // A limit cuts the last page, and the walk resumes after it.
    let limited = pager(&emu, None);
    let first = limited.to_batches(Some(150), |_| ()).await.unwrap();
    assert_eq!(numbers(&first), (BLOCKS - 150..BLOCKS).rev().collect::<Vec<_>>());
    assert_eq!(first.len(), 1);
    let next = limited.to_batches(Some(60), |_| ()).await.unwrap();
    assert_eq!(numbers(&next), (BLOCKS - 210..BLOCKS - 150).rev().collect::<Vec<_>>());
}
