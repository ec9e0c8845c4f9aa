//! The index client and range walks against the emulator: order under concurrency, the tip,
//! resuming, following, error mapping.

use std::time::Duration;

use avax_data_core::arrow::containers_to_batch;
use avax_data_core::error::{Error, RpcErrorKind};
use avax_data_core::index::range::{follow, walk};
use avax_data_core::index::{
    ChainClient, FollowSpec, IndexClient, IndexClientOptions, IndexPath, RangeSpec, RangeWalk,
};
use avax_data_emulator::{Emulator, EmulatorConfig};
use futures::StreamExt;

async fn emulator(count: u64, latency_ms: u64) -> Emulator {
    Emulator::start(EmulatorConfig {
        default_count: count,
        latency: Duration::from_millis(latency_ms),
        ..EmulatorConfig::default()
    })
    .await
    .unwrap()
}

fn chain(emu: &Emulator, path: IndexPath) -> ChainClient {
    IndexClient::new(&emu.url(), IndexClientOptions::default()).unwrap().chain(path)
}

async fn indices(chain: &ChainClient, spec: RangeSpec) -> Vec<u64> {
    walk(chain.clone(), spec)
        .map(|batch| batch.unwrap())
        .collect::<Vec<_>>()
        .await
        .into_iter()
        .flatten()
        .map(|c| c.index)
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_concurrent_walk_is_in_order_without_gaps_and_matches_the_emulator() {
    let emu = emulator(5000, 5).await;
    let c = chain(&emu, IndexPath::CBlock);
    let spec = RangeSpec { start: 10, end: Some(4010), concurrency: 8, chunk: 100 };
    let batches: Vec<_> = walk(c.clone(), spec).map(|b| b.unwrap()).collect().await;
    assert!(batches.iter().all(|b| b.len() == 100));
    let all: Vec<_> = batches.into_iter().flatten().collect();
    assert_eq!(all.iter().map(|c| c.index).collect::<Vec<_>>(), (10..4010).collect::<Vec<_>>());
    for c in all.iter().step_by(397) {
        assert_eq!(Some(c), emu.expected_container(IndexPath::CBlock, c.index).map(|(e, _)| e).as_ref());
    }
    assert!(all.windows(2).all(|w| w[0].timestamp_ns < w[1].timestamp_ns));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn raw_frames_hold_exactly_the_walks_containers_also_when_answers_are_split() {
    let emu = emulator(3000, 0).await;
    // C/block containers take about 8 KB of hex: 100 KB answers split each call into many.
    for limit in [None, Some(100_000)] {
        let mut options = IndexClientOptions::default();
        if let Some(limit) = limit {
            options.transport.max_response_bytes = limit;
        }
        let c = IndexClient::new(&emu.url(), options).unwrap().chain(IndexPath::CBlock);
        let pieces: Vec<_> = walk(c.clone(), RangeSpec { start: 5, end: Some(2100), concurrency: 3, chunk: 1000 })
            .map(|b| b.unwrap())
            .collect()
            .await;
        let frames = RangeWalk::new(c, RangeSpec { start: 5, end: Some(2100), concurrency: 3, chunk: 1000 }, None)
            .unwrap()
            .collect(|_| {})
            .await
            .unwrap();
        assert_eq!(frames.len(), pieces.len(), "{limit:?}");
        for (frame, piece) in frames.iter().zip(&pieces) {
            assert_eq!(frame, &containers_to_batch(piece), "{limit:?}");
        }
        assert_eq!(frames.iter().map(|f| f.num_rows()).sum::<usize>(), 2095);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn walks_stop_cleanly_at_the_tip() {
    let emu = emulator(2500, 0).await;
    let c = chain(&emu, IndexPath::XTx);
    // to the tip
    assert_eq!(
        indices(&c, RangeSpec { start: 0, end: None, concurrency: 4, chunk: 1024 }).await,
        (0..2500).collect::<Vec<_>>()
    );
    // past the tip: truncated, and the calls beyond the tip end the walk without an error
    let got = indices(&c, RangeSpec { start: 2000, end: Some(100_000), concurrency: 4, chunk: 1024 }).await;
    assert_eq!(got, (2000..2500).collect::<Vec<_>>());
    // starting past the tip: empty
    assert!(indices(&c, RangeSpec { start: 9000, end: None, concurrency: 4, chunk: 1024 }).await.is_empty());
    assert!(indices(&c, RangeSpec { start: 9000, end: Some(9100), concurrency: 4, chunk: 1024 }).await.is_empty());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_empty_index_walks_to_nothing_and_reports_empty_on_last_accepted() {
    let emu = emulator(0, 0).await;
    let c = chain(&emu, IndexPath::PBlock);
    assert!(indices(&c, RangeSpec { start: 0, end: None, concurrency: 2, chunk: 1024 }).await.is_empty());
    assert!(matches!(c.last_accepted().await, Err(Error::Rpc { kind: RpcErrorKind::EmptyIndex, code: -32000, .. })));
    assert_eq!(c.tip().await.unwrap(), None);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn node_errors_map_to_their_kinds() {
    let emu = emulator(10, 0).await;
    let c = chain(&emu, IndexPath::XBlock);
    match c.container_by_index(10).await {
        Err(Error::Rpc { kind: RpcErrorKind::PastTip, message, method, .. }) => {
            assert_eq!(message, "no container at index 10");
            assert_eq!(method, "index.getContainerByIndex");
        }
        other => panic!("{other:?}"),
    }
    let unknown = avax_data_core::index::cb58::container_id(b"not in the index");
    assert!(matches!(c.container_by_id(&unknown).await, Err(Error::Rpc { kind: RpcErrorKind::NotFound, .. })));
    assert!(matches!(c.index_of(&unknown).await, Err(Error::Rpc { kind: RpcErrorKind::NotFound, .. })));
    assert!(!c.is_accepted(&unknown).await.unwrap());
    assert!(matches!(c.container_by_id("nope").await, Err(Error::InvalidArgument { .. })));
    assert!(matches!(c.container_range(0, 1025).await, Err(Error::InvalidArgument { .. })));
    assert_eq!(c.container_range(0, 0).await.unwrap(), vec![]);
    emu.set_index_enabled(false);
    match c.last_accepted().await {
        Err(e @ Error::IndexDisabled { .. }) => assert!(e.to_string().contains("--index-enabled"), "{e}"),
        other => panic!("{other:?}"),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn follow_yields_new_containers_in_order_as_the_tip_grows() {
    let emu = emulator(100, 0).await;
    let c = chain(&emu, IndexPath::CBlock);
    let spec = FollowSpec {
        start: Some(95),
        poll_interval: Duration::from_millis(10),
        max_poll_interval: Duration::from_millis(40),
        concurrency: 2,
        chunk: 1024,
    };
    let mut stream = std::pin::pin!(follow(c, spec, |_| {}));
    let mut seen = Vec::new();
    while seen.len() < 5 {
        seen.extend(stream.next().await.unwrap().unwrap().into_iter().map(|c| c.index));
    }
    assert_eq!(seen, vec![95, 96, 97, 98, 99]);
    emu.advance(IndexPath::CBlock, 3);
    while seen.len() < 8 {
        seen.extend(stream.next().await.unwrap().unwrap().into_iter().map(|c| c.index));
    }
    assert_eq!(seen[5..], [100, 101, 102]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn follow_without_a_start_begins_after_the_tip_seen_first() {
    let emu = emulator(100, 0).await;
    let c = chain(&emu, IndexPath::XTx);
    let spec = FollowSpec {
        start: None,
        poll_interval: Duration::from_millis(10),
        max_poll_interval: Duration::from_millis(40),
        concurrency: 2,
        chunk: 1024,
    };
    // The follow reports its anchor (the first index it will hand out) once it has read the tip:
    // the test waits for that event, then moves the tip.
    let (anchor_tx, mut anchor_rx) = tokio::sync::mpsc::unbounded_channel();
    let mut stream = Box::pin(follow(c, spec, move |a| {
        let _ = anchor_tx.send(a);
    }));
    let first = tokio::spawn(async move {
        let batch = stream.next().await.unwrap().unwrap();
        batch.into_iter().map(|c| c.index).collect::<Vec<_>>()
    });
    let anchor = tokio::time::timeout(Duration::from_secs(10), anchor_rx.recv()).await.unwrap();
    assert_eq!(anchor, Some(100));
    assert!(!first.is_finished(), "nothing past the tip seen first is handed out before it grows");
    emu.advance(IndexPath::XTx, 2);
    assert_eq!(tokio::time::timeout(Duration::from_secs(10), first).await.unwrap().unwrap(), vec![100, 101]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_spent_range_says_so_and_restart_walks_again_from_its_start() {
    let emu = emulator(300, 0).await;
    let rows = |frames: Vec<arrow_array::RecordBatch>| frames.iter().map(|f| f.num_rows()).sum::<usize>();
    for end in [Some(250), None] {
        let walk =
            RangeWalk::new(chain(&emu, IndexPath::XTx), RangeSpec { start: 100, end, concurrency: 2, chunk: 64 }, None)
                .unwrap();
        assert_eq!(walk.spent(), None, "{end:?}: a fresh range has items");
        assert_eq!(rows(walk.collect(|_| {}).await.unwrap()), if end.is_some() { 150 } else { 200 });
        let notice = walk.spent().expect("a walked range says so");
        let stop = end.unwrap_or(300);
        assert!(notice.contains(&format!("next_index={stop}")) && notice.contains("X/tx"), "{notice}");
        assert!(notice.contains(".restart()") && notice.contains("start=100"), "{notice}");
        assert_eq!(rows(walk.collect(|_| {}).await.unwrap()), 0, "the contract: the next consumer resumes at the end");
        let again = walk.restart();
        assert_eq!((again.next_index(), again.spent()), (100, None));
        assert_eq!(rows(again.collect(|_| {}).await.unwrap()), stop as usize - 100);
        assert_eq!(walk.next_index(), stop, "the old range keeps its position");
    }
    // An empty range asked for nothing: nothing to warn about.
    let empty = RangeWalk::new(
        chain(&emu, IndexPath::XTx),
        RangeSpec { start: 5, end: Some(5), concurrency: 2, chunk: 64 },
        None,
    )
    .unwrap();
    assert_eq!(empty.spent(), None);
}
