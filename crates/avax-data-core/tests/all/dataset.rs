//! Index range datasets against the emulator: reruns skip what is complete, redo what is not,
//! add what the moved tip brings, and every index lands in exactly one partition.

use std::path::{Path, PathBuf};

use arrow_array::cast::AsArray;
use arrow_array::types::UInt64Type;
use avax_data_core::arrow::ParquetOptions;
use avax_data_core::dataset::manifest::{Manifest, MANIFEST};
use avax_data_core::index::walk::RangeWalk;
use avax_data_core::index::{ChainClient, IndexClient, IndexClientOptions, IndexPath, RangeSpec};
use avax_data_emulator::{Emulator, EmulatorConfig};
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;

async fn emulator(containers: u64) -> Emulator {
    Emulator::start(EmulatorConfig { default_count: containers, ..Default::default() }).await.expect("emulator starts")
}

fn chain(emu: &Emulator) -> ChainClient {
    IndexClient::new(&emu.url(), IndexClientOptions::default()).unwrap().chain(IndexPath::XTx)
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("avax-dataset-it-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// A fresh temporary directory, removed when dropped (also when the test fails).
struct TempDir(PathBuf);

impl std::ops::Deref for TempDir {
    type Target = Path;
    fn deref(&self) -> &Path {
        &self.0
    }
}

impl AsRef<Path> for TempDir {
    fn as_ref(&self) -> &Path {
        &self.0
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// An emulator of `containers` X-chain transactions and the fresh directory `name` into which
/// its range `[0, end)` was exported.
async fn exported(containers: u64, name: &str, end: Option<u64>) -> (Emulator, TempDir) {
    let emu = emulator(containers).await;
    let dir = TempDir(temp_dir(name));
    export(&emu, &dir, 0, end).await;
    (emu, dir)
}

/// Every value of the UInt64 column `name` of every partition file, partition by partition in
/// hive-value order.
fn column_u64(dir: &Path, name: &str) -> Vec<u64> {
    let manifest: Manifest = serde_json::from_str(&std::fs::read_to_string(dir.join(MANIFEST)).unwrap()).unwrap();
    let mut out = Vec::new();
    for p in &manifest.partitions {
        let file = std::fs::File::open(dir.join(&p.file)).unwrap();
        for batch in ParquetRecordBatchReaderBuilder::try_new(file).unwrap().build().unwrap() {
            let batch = batch.unwrap();
            out.extend(batch.column_by_name(name).unwrap().as_primitive::<UInt64Type>().values().iter());
        }
    }
    out
}

/// Every `index` of every partition file, partition by partition in hive-value order.
fn indices(dir: &Path) -> Vec<u64> {
    column_u64(dir, "index")
}

async fn export(emu: &Emulator, dir: &Path, start: u64, end: Option<u64>) -> avax_data_core::dataset::DatasetSummary {
    let walk = RangeWalk::new(chain(emu), RangeSpec { start, end, concurrency: 4, chunk: 64 }, None).unwrap();
    let summary = walk.write_dataset(dir, 100, ParquetOptions::default(), |_| ()).await.unwrap();
    assert_eq!(walk.next_index(), end.unwrap_or(emu.container_count(IndexPath::XTx)).max(start));
    summary
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn reruns_skip_complete_partitions_and_add_what_the_tip_brings() {
    let (emu, dir) = (emulator(250).await, TempDir(temp_dir("rerun")));
    let first = export(&emu, &dir, 0, None).await;
    assert_eq!((first.partitions_written, first.partitions_skipped, first.rows_written), (3, 0, 250));
    assert_eq!(indices(&dir), (0..250).collect::<Vec<_>>());

    let again = export(&emu, &dir, 0, None).await;
    // nothing moved: every partition holds its whole span, nothing is written
    assert_eq!((again.partitions_written, again.partitions_skipped, again.rows_skipped), (0, 3, 250));

    // the tip moved: the partial chunk 200.. is written again, whole now, and 300.. is added
    emu.advance(IndexPath::XTx, 120);
    let moved = export(&emu, &dir, 0, None).await;
    assert_eq!((moved.partitions_written, moved.partitions_skipped, moved.rows_written), (2, 2, 170));
    assert_eq!(indices(&dir), (0..370).collect::<Vec<_>>());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_altered_or_missing_partition_is_written_again() {
    let (emu, dir) = exported(300, "altered", Some(300)).await;
    std::fs::write(dir.join("chunk=100/part.parquet"), b"not parquet").unwrap();
    std::fs::remove_file(dir.join("chunk=200/part.parquet")).unwrap();
    let again = export(&emu, &dir, 0, Some(300)).await;
    assert_eq!((again.partitions_written, again.partitions_skipped), (2, 1));
    assert_eq!(indices(&dir), (0..300).collect::<Vec<_>>());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn another_walk_into_the_same_directory_is_refused_before_any_write() {
    let (emu, dir) = exported(120, "identity", Some(120)).await;
    let walk =
        RangeWalk::new(chain(&emu), RangeSpec { start: 0, end: Some(120), concurrency: 4, chunk: 64 }, None).unwrap();
    let err = walk.write_dataset(&dir, 50, ParquetOptions::default(), |_| ()).await.unwrap_err().to_string();
    assert!(err.contains("chunk 50") && err.contains("chunk 100"), "{err}");
    assert_eq!(walk.next_index(), 0);
    let err = walk.write_dataset(&dir, 0, ParquetOptions::default(), |_| ()).await.unwrap_err().to_string();
    assert!(err.contains("chunk"), "{err}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_write_from_another_network_is_refused_naming_both_and_nothing_is_touched() {
    let (emu, dir) = exported(250, "network", Some(200)).await;
    let other = Emulator::start(EmulatorConfig { default_count: 250, seed: 2, ..Default::default() })
        .await
        .expect("emulator starts");
    let id_of = |emu: &Emulator| {
        let chain = chain(emu);
        async move { chain.chain_identity().await.unwrap().unwrap() }
    };
    let (here, there) = (id_of(&emu).await, id_of(&other).await);
    assert_ne!(here, there, "two seeds, two networks");
    let manifest = std::fs::read(dir.join(MANIFEST)).unwrap();
    let listing = |dir: &Path| {
        let mut names: Vec<String> =
            walkdir(dir).into_iter().map(|p| p.strip_prefix(dir).unwrap().display().to_string()).collect();
        names.sort();
        names
    };
    let files = listing(&dir);
    let walk =
        RangeWalk::new(chain(&other), RangeSpec { start: 0, end: Some(250), concurrency: 4, chunk: 64 }, None).unwrap();
    let err = walk.write_dataset(&dir, 100, ParquetOptions::default(), |_| ()).await.unwrap_err().to_string();
    assert!(
        err.contains(&format!("its rows come from the network whose container 0 is {here}"))
            && err.contains(&format!("this write reads the network whose container 0 is {there}")),
        "{err}"
    );
    assert_eq!(walk.next_index(), 0);
    assert_eq!(std::fs::read(dir.join(MANIFEST)).unwrap(), manifest, "the manifest is as it was");
    assert_eq!(listing(&dir), files, "no file added or removed");
    // the first network's own rerun goes on
    let done = export(&emu, &dir, 0, Some(250)).await;
    assert_eq!((done.partitions_skipped, done.partitions_written), (2, 1));
    assert_eq!(indices(&dir), (0..250).collect::<Vec<_>>());
}

/// Every file under `dir`, at any depth.
fn walkdir(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let path = entry.path();
        if path.is_dir() {
            out.extend(walkdir(&path));
        } else {
            out.push(path);
        }
    }
    out
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_second_writer_is_refused_before_any_request_and_the_first_verifies_whole() {
    use avax_data_core::dataset::{verify::verify, Dataset, INDEX_KEY};
    use avax_data_core::error::Error;

    let (emu, dir) = exported(250, "locked", Some(120)).await;
    // a writer at work: held by a Dataset of the same walk (the identity does not matter: the
    // lock is taken before the manifest is read)
    let schema = avax_data_core::index::walk::walk_schema(IndexPath::XTx, None).unwrap();
    let identity = avax_data_core::dataset::index_walk_key(IndexPath::XTx, None, 100, &schema);
    let held = Dataset::open(&dir, INDEX_KEY, identity, None).unwrap();
    let before = emu.request_count();
    let walk = RangeWalk::new(chain(&emu), RangeSpec { start: 0, end: None, concurrency: 4, chunk: 64 }, None).unwrap();
    let err = walk.write_dataset(&dir, 100, ParquetOptions::default(), |_| ()).await.unwrap_err();
    assert!(matches!(err, Error::DatasetLocked { pid: Some(pid), .. } if pid == std::process::id()), "{err}");
    assert_eq!(emu.request_count(), before, "refused before any request");
    assert_eq!(walk.next_index(), 0);
    drop(held);
    let done = walk.write_dataset(&dir, 100, ParquetOptions::default(), |_| ()).await.unwrap();
    assert_eq!((done.partitions_skipped, done.partitions_written), (1, 2));
    assert_eq!(indices(&dir), (0..250).collect::<Vec<_>>());
    let report = verify(&dir).unwrap();
    assert!(report.ok() && report.rows == 250, "{report:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_metric_dataset_keeps_ended_months_and_rewrites_the_open_one() {
    use avax_data_core::dataset::metrics::write_metric_dataset;
    use avax_data_core::metrics::MetricsClient;
    use avax_data_core::transport::TransportConfig;

    let emu = Emulator::start(EmulatorConfig { data_blocks_per_chain: 50_000, ..Default::default() })
        .await
        .expect("emulator starts");
    let client = MetricsClient::new(Some(&emu.url()), TransportConfig::default()).unwrap();
    let dir = temp_dir("metrics");
    let (nov_2025, feb_2026) = (1_761_955_200, 1_769_904_000);
    let write = |now: i64| {
        let (client, dir) = (client.clone(), dir.clone());
        async move {
            write_metric_dataset(
                &client,
                "43114",
                "txCount",
                "hour",
                nov_2025,
                feb_2026,
                now,
                &dir,
                Default::default(),
                |_| (),
            )
            .await
            .unwrap()
        }
    };
    // written while January 2026 was still open: January is redone by the next run, the rest kept
    let first = write(feb_2026 - 10).await;
    assert_eq!((first.partitions_written, first.partitions_skipped), (3, 0));
    assert!(first.rows_written > 0);
    let later = write(feb_2026 + 86_400).await;
    assert_eq!((later.partitions_written, later.partitions_skipped), (1, 2));
    let again = write(feb_2026 + 86_400).await;
    assert_eq!((again.partitions_written, again.partitions_skipped, again.rows_skipped), (0, 3, first.rows_written));
    let _ = std::fs::remove_dir_all(&dir);
}

// ---- Data API lists: newest first, cut by block-number chunk ----

fn block_pager(emu: &Emulator, page_size: i64, limit: Option<u64>) -> avax_data_core::data::ResourcePager {
    use avax_data_core::arrow::Resource;
    use avax_data_core::data::{DataClient, DataClientOptions};
    let client = DataClient::new(Some(&emu.url()), DataClientOptions::default()).unwrap();
    let paged = client.blocks("43114", Some(page_size)).unwrap();
    avax_data_core::data::ResourcePager::tokens(&client, paged, Resource::Block, None, limit).unwrap()
}

/// Every `blockNumber` of every partition file, partition by partition in hive-value order.
fn block_numbers(dir: &Path) -> Vec<u64> {
    column_u64(dir, "blockNumber")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_block_list_dataset_is_written_stopped_early_on_rerun_and_limited_walks_stay_partial() {
    use avax_data_core::dataset::lists::write_list_dataset;
    let emu = Emulator::start(EmulatorConfig { data_blocks_per_chain: 250, default_count: 10, ..Default::default() })
        .await
        .unwrap();
    let dir = temp_dir("blocks");
    let opts = ParquetOptions::default;
    let pager = block_pager(&emu, 40, None);
    let first = write_list_dataset(&pager, &dir, Some(100), opts(), 0, |_| ()).await.unwrap();
    assert_eq!((first.partitions_written, first.rows_written), (3, 250));
    assert!(pager.position().exhausted);
    // each file holds its chunk in the list's order, newest first; every block exactly once
    let expected: Vec<u64> = (0..100).rev().chain((100..200).rev()).chain((200..250).rev()).collect();
    assert_eq!(block_numbers(&dir), expected);
    let m: Manifest = serde_json::from_str(&std::fs::read_to_string(dir.join(MANIFEST)).unwrap()).unwrap();
    assert_eq!(
        m.partitions.iter().map(|p| (p.value, p.complete)).collect::<Vec<_>>(),
        vec![(0, true), (100, true), (200, false)]
    );
    assert_eq!(m.end, Some(0));

    // a rerun rewrites the partial newest chunk, then stops at 100..: its walk ends early
    let again = block_pager(&emu, 40, None);
    let done = write_list_dataset(&again, &dir, Some(100), opts(), 0, |_| ()).await.unwrap();
    assert_eq!(
        (done.partitions_written, done.partitions_skipped, done.rows_written, done.rows_skipped),
        (1, 2, 50, 200)
    );
    assert!(!again.position().exhausted && again.position().items_read <= 120, "{:?}", again.position());

    // a walk cut by a limit into a fresh directory leaves its lowest partition partial
    let cut = temp_dir("blocks-limit");
    let limited = block_pager(&emu, 40, Some(120));
    write_list_dataset(&limited, &cut, Some(100), opts(), 0, |_| ()).await.unwrap();
    let m: Manifest = serde_json::from_str(&std::fs::read_to_string(cut.join(MANIFEST)).unwrap()).unwrap();
    assert_eq!(
        m.partitions.iter().map(|p| (p.value, p.rows, p.complete)).collect::<Vec<_>>(),
        vec![(100, 70, false), (200, 50, false)]
    );
    assert_eq!(m.end, None);
    let _ = std::fs::remove_dir_all(&dir);
    let _ = std::fs::remove_dir_all(&cut);
}
