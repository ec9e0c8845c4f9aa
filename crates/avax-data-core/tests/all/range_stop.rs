//! `range(start, stop)` in the core: the end rule (stop exclusive, count from start, never
//! both) and a walk that meets the tip before its stop: it ends there, its reached end is the
//! tip, a notice names where it ended, and a later walk goes on once the chain has grown.

use std::time::Duration;

use avax_data_core::error::Error;
use avax_data_core::index::{IndexClient, IndexClientOptions, IndexPath, RangeSpec, RangeWalk};
use avax_data_emulator::{Emulator, EmulatorConfig};

async fn emulator(count: u64) -> Emulator {
    Emulator::start(EmulatorConfig { default_count: count, latency: Duration::ZERO, ..EmulatorConfig::default() })
        .await
        .unwrap()
}

fn range(emu: &Emulator, start: u64, stop: Option<u64>, count: Option<u64>) -> avax_data_core::Result<RangeWalk> {
    let chain = IndexClient::new(&emu.url(), IndexClientOptions::default()).unwrap().chain(IndexPath::XTx);
    RangeWalk::new(chain, RangeSpec::bounded(start, stop, count, 3, 16)?, None)
}

async fn rows(walk: &RangeWalk) -> Vec<u64> {
    let batches = walk.collect(|_| {}).await.unwrap();
    let column = |b: &arrow_array::RecordBatch| {
        let index = b.column_by_name("index").unwrap();
        index.as_any().downcast_ref::<arrow_array::UInt64Array>().unwrap().values().to_vec()
    };
    batches.iter().flat_map(column).collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn stop_is_exclusive_count_counts_from_start_and_both_are_refused() {
    let emu = emulator(200).await;
    let by_stop = range(&emu, 100, Some(150), None).unwrap();
    assert_eq!((by_stop.end(), by_stop.end_reached()), (Some(150), Some(150)));
    assert_eq!(rows(&by_stop).await, (100..150).collect::<Vec<_>>());
    let by_count = range(&emu, 100, None, Some(50)).unwrap();
    assert_eq!(rows(&by_count).await, (100..150).collect::<Vec<_>>());
    let requests = emu.request_count();
    let Err(Error::InvalidArgument { param, .. }) = range(&emu, 100, Some(150), Some(50)) else {
        panic!("stop and count together were taken")
    };
    assert_eq!(param, "stop/count");
    let Err(Error::InvalidArgument { param, .. }) = range(&emu, 100, Some(50), None) else {
        panic!("a stop below the start was taken")
    };
    assert_eq!(param, "stop");
    assert_eq!(emu.request_count(), requests, "a refused range sent a request");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_walk_past_the_tip_ends_there_says_so_and_walks_on_once_the_chain_grows() {
    let emu = emulator(60).await;
    let walk = range(&emu, 40, Some(100), None).unwrap();
    assert_eq!(walk.tip_notice(), None, "nothing walked yet");
    assert_eq!(walk.end_reached(), Some(100), "before the tip is known, the end is the stop");
    assert_eq!(rows(&walk).await, (40..60).collect::<Vec<_>>());
    assert_eq!((walk.next_index(), walk.end(), walk.end_reached()), (60, Some(100), Some(60)));
    let notice = walk.tip_notice().expect("a walk cut at the tip says so");
    assert!(
        notice.contains("X/tx") && notice.contains("ended at index 60") && notice.contains("up to 100"),
        "{notice}"
    );
    assert_eq!(walk.spent(), None, "the range is not exhausted: the chain may grow");

    emu.advance(IndexPath::XTx, 25);
    assert_eq!(rows(&walk).await, (60..85).collect::<Vec<_>>());
    assert_eq!(walk.end_reached(), Some(85));
    assert!(walk.tip_notice().unwrap().contains("ended at index 85"));

    emu.advance(IndexPath::XTx, 30);
    assert_eq!(rows(&walk).await, (85..100).collect::<Vec<_>>());
    assert_eq!((walk.end_reached(), walk.tip_notice()), (Some(100), None));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_walk_that_stops_at_the_tip_exactly_or_to_the_tip_is_not_cut() {
    let emu = emulator(30).await;
    let exact = range(&emu, 10, Some(30), None).unwrap();
    assert_eq!(rows(&exact).await.len(), 20);
    assert_eq!((exact.end_reached(), exact.tip_notice()), (Some(30), None));
    let to_tip = range(&emu, 10, None, None).unwrap();
    assert_eq!(to_tip.end_reached(), None);
    assert_eq!(rows(&to_tip).await.len(), 20);
    assert_eq!((to_tip.end_reached(), to_tip.tip_notice()), (Some(30), None));
}

/// The edges3435 case: an Arrow reader of a range follows the same rule as every other
/// consumer: cut at the tip, its stream ends there and hands the notice out once; a reader
/// that ends at the stop hands out none.
#[test]
fn an_arrow_reader_of_a_range_cut_at_the_tip_hands_out_the_notice_once() {
    use std::sync::{Arc, Mutex};
    let rt = avax_data_core::runtime::runtime();
    let emu = rt.block_on(emulator(60));
    let noticed: Arc<Mutex<Vec<String>>> = Arc::default();
    let read = |walk: &RangeWalk| -> Vec<u64> {
        let noticed = noticed.clone();
        let reader = walk.reader_noticing(avax_data_core::arrow::block_on_runtime, move |text| {
            noticed.lock().unwrap().push(text);
            Ok(())
        });
        let column = |b: arrow_array::RecordBatch| {
            let index = b.column_by_name("index").unwrap().clone();
            index.as_any().downcast_ref::<arrow_array::UInt64Array>().unwrap().values().to_vec()
        };
        reader.flat_map(|b| column(b.unwrap())).collect()
    };
    let cut = range(&emu, 50, Some(100), None).unwrap();
    assert_eq!(read(&cut), (50..60).collect::<Vec<_>>());
    let texts = noticed.lock().unwrap().clone();
    assert_eq!(texts.len(), 1, "{texts:?}");
    assert!(texts[0].contains("ended at index 60") && texts[0].contains("up to 100"), "{}", texts[0]);
    assert_eq!(read(&range(&emu, 10, Some(20), None).unwrap()), (10..20).collect::<Vec<_>>());
    assert_eq!(noticed.lock().unwrap().len(), 1, "a reader that ends at its stop says nothing");
    // What the notice's consumer refuses (a warning filter set to "error") ends the stream as an error.
    let refusing = range(&emu, 55, Some(70), None)
        .unwrap()
        .reader_noticing(avax_data_core::arrow::block_on_runtime, |_| Err(avax_data_core::error::Error::Closed));
    let items: Vec<_> = refusing.collect();
    assert!(items.last().unwrap().as_ref().is_err() && items[..items.len() - 1].iter().all(Result::is_ok));
}
