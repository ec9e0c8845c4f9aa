//! Interrupted Parquet exports lose nothing: a stop finishes the file with every row handed to
//! it (the position right after them), a file that cannot be finished puts the position back
//! where the export began, and so does an export dropped half way; the rest then goes to a
//! second file, which together with the first holds the whole walk, each row once, in order.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

use arrow_array::cast::AsArray;
use arrow_array::types::UInt64Type;
use avax_data_core::arrow::parquet_export::Exported;
use avax_data_core::arrow::{ParquetExport, ParquetOptions, Resource, Target};
use avax_data_core::data::{DataClient, DataClientOptions, ResourcePager};
use avax_data_core::error::Error;
use avax_data_core::index::{IndexClient, IndexClientOptions, IndexPath, RangeSpec, RangeWalk};
use avax_data_core::stop::Stop;
use avax_data_emulator::{Emulator, EmulatorConfig};
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;

const CONTAINERS: u64 = 1_200;
const BLOCKS: u64 = 600;

async fn emulator() -> Emulator {
    let config = EmulatorConfig {
        default_count: CONTAINERS,
        data_blocks_per_chain: BLOCKS,
        latency: Duration::from_millis(1),
        ..Default::default()
    };
    Emulator::start(config).await.expect("emulator starts")
}

fn range(emu: &Emulator) -> RangeWalk {
    let chain = IndexClient::new(&emu.url(), IndexClientOptions::default()).unwrap().chain(IndexPath::XTx);
    RangeWalk::new(chain, RangeSpec { start: 0, end: Some(CONTAINERS), concurrency: 2, chunk: 50 }, None).unwrap()
}

fn pager(emu: &Emulator) -> ResourcePager {
    let client = DataClient::new(Some(&emu.url()), DataClientOptions::default()).unwrap();
    let paged = client.blocks("43114", Some(25)).unwrap();
    ResourcePager::tokens(&client, paged, Resource::Block, None, None).unwrap()
}

/// A fresh temporary directory, removed when dropped (also when the test fails).
struct TempDir(PathBuf);

impl TempDir {
    fn new(name: &str) -> Self {
        let dir = std::env::temp_dir().join(format!("avax-parquet-stop-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        TempDir(dir)
    }

    fn files(&self) -> Vec<String> {
        let mut names: Vec<_> = std::fs::read_dir(&self.0)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// The u64 column `column` of the Parquet file at `path`, in file order.
fn column(path: &Path, column: &str) -> Vec<u64> {
    let file = std::fs::File::open(path).unwrap();
    let reader = ParquetRecordBatchReaderBuilder::try_new(file).unwrap().build().unwrap();
    reader
        .flat_map(|batch| {
            let batch = batch.unwrap();
            batch.column_by_name(column).unwrap().as_primitive::<UInt64Type>().values().to_vec()
        })
        .collect()
}

/// An `on_rows` that stops `stop` once `after` rows were written.
fn stop_after(stop: &Stop, after: u64) -> impl FnMut(u64) + Send {
    let (stop, seen) = (stop.clone(), Arc::new(AtomicU64::new(0)));
    move |rows| {
        if seen.fetch_add(rows, Ordering::SeqCst) + rows >= after {
            stop.request();
        }
    }
}

/// A writer that takes `room` bytes, then fails every write like a full disk.
struct FullDisk {
    room: usize,
}

impl Write for FullDisk {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        if buf.len() > self.room {
            return Err(std::io::Error::new(std::io::ErrorKind::StorageFull, "no space left on device"));
        }
        self.room -= buf.len();
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[test]
fn a_writer_failing_at_finish_is_a_file_error_saying_the_file_is_not_whole() {
    let target = Target::Writer(Box::new(FullDisk { room: 16 }));
    let schema = avax_data_core::arrow::container_schema();
    let mut sink = avax_data_core::arrow::ParquetSink::create(target, schema, ParquetOptions::default()).unwrap();
    let containers: Vec<_> = (0..50)
        .map(|i| avax_data_core::index::Container {
            id: format!("c{i}"),
            bytes: vec![7; 3],
            timestamp_ns: i,
            index: i as u64,
            encoding: "hex".into(),
        })
        .collect();
    sink.write(&avax_data_core::arrow::containers_to_batch(&containers)).unwrap();
    let err = sink.finish().unwrap_err();
    let Error::File { path, reason, .. } = &err else { panic!("{err:?}") };
    assert_eq!(path, "the file object");
    assert!(reason.starts_with("the Parquet file could not be finished (close failed: "), "{reason}");
    assert!(reason.contains("no space left on device"), "{reason}");
    assert!(reason.ends_with("what the file object holds is not a whole Parquet file"), "{reason}");
}

/// A file that cannot be finished: the export fails naming the file object, the position is
/// back where it began.
async fn assert_unfinished_write_rewinds<W: ParquetExport>(walk: &W, position: impl Fn() -> String) {
    let before = position();
    let target = Target::Writer(Box::new(FullDisk { room: 16 }));
    let err = walk.write_parquet(target, ParquetOptions::default(), |_| {}).await.unwrap_err();
    let Error::File { path, reason, .. } = &err else { panic!("not a file error: {err:?}") };
    assert_eq!(path, "the file object");
    assert!(reason.contains("no space left on device"), "{reason}");
    assert_eq!(position(), before, "the position moved although the file holds nothing");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stopped_range_export_finishes_its_file_and_the_rest_goes_to_a_second_one() {
    let (emu, dir) = (emulator().await, TempDir::new("range"));
    let walk = range(&emu);
    let stop = Stop::new();
    let (first, second) = (dir.0.join("a.parquet"), dir.0.join("b.parquet"));
    let out =
        walk.write_parquet_until(Target::Path(first.clone()), ParquetOptions::default(), stop_after(&stop, 300), &stop);
    let Exported::Stopped(rows) = out.await.unwrap() else { panic!("the export did not stop") };
    assert!((300..CONTAINERS).contains(&rows), "{rows} rows");
    assert_eq!(walk.next_index(), rows, "the position is not where the file ends");
    assert_eq!(column(&first, "index"), (0..rows).collect::<Vec<_>>());

    // A file that cannot be finished leaves the position where it was.
    assert_unfinished_write_rewinds(&walk, || walk.next_index().to_string()).await;

    let never = Stop::new();
    let rest = walk.write_parquet_until(Target::Path(second.clone()), ParquetOptions::default(), |_| {}, &never);
    assert_eq!(rest.await.unwrap(), Exported::Complete(CONTAINERS - rows));
    let mut all = column(&first, "index");
    all.extend(column(&second, "index"));
    assert_eq!(all, (0..CONTAINERS).collect::<Vec<_>>());
    assert_eq!(dir.files(), ["a.parquet", "b.parquet"], "a temporary file was left behind");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stopped_pager_export_finishes_its_file_and_the_rest_goes_to_a_second_one() {
    let (emu, dir) = (emulator().await, TempDir::new("pager"));
    let whole = dir.0.join("whole.parquet");
    pager(&emu).write_parquet(Target::Path(whole.clone()), ParquetOptions::default(), |_| {}).await.unwrap();
    let expected = column(&whole, "blockNumber");
    assert_eq!(expected.len() as u64, BLOCKS);

    let walk = pager(&emu);
    let stop = Stop::new();
    let (first, second) = (dir.0.join("a.parquet"), dir.0.join("b.parquet"));
    let out =
        walk.write_parquet_until(Target::Path(first.clone()), ParquetOptions::default(), stop_after(&stop, 100), &stop);
    let Exported::Stopped(rows) = out.await.unwrap() else { panic!("the export did not stop") };
    assert!((100..BLOCKS).contains(&rows), "{rows} rows");
    assert_eq!(walk.position().items_read, rows, "the position is not where the file ends");
    assert_eq!(column(&first, "blockNumber"), expected[..rows as usize]);

    assert_unfinished_write_rewinds(&walk, || format!("{:?}", walk.position())).await;

    let rest = walk.write_parquet(Target::Path(second.clone()), ParquetOptions::default(), |_| {}).await.unwrap();
    assert_eq!(rest, BLOCKS - rows);
    let mut all = column(&first, "blockNumber");
    all.extend(column(&second, "blockNumber"));
    assert_eq!(all, expected);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_export_dropped_half_way_leaves_no_file_and_puts_the_position_back() {
    let (emu, dir) = (emulator().await, TempDir::new("dropped"));
    let walk = range(&emu);
    // Part of the walk first: the export below starts at 100, not at the range's start.
    let stop = Stop::new();
    let head = walk.write_parquet_until(
        Target::Path(dir.0.join("head.parquet")),
        ParquetOptions::default(),
        stop_after(&stop, 100),
        &stop,
    );
    let start = head.await.unwrap().rows();
    assert_eq!(walk.next_index(), start);

    let (written, mut wrote) = tokio::sync::mpsc::unbounded_channel::<u64>();
    let target = dir.0.join("dropped.parquet");
    let export = walk.write_parquet(Target::Path(target.clone()), ParquetOptions::default(), move |rows| {
        let _ = written.send(rows);
    });
    tokio::select! {
        done = export => panic!("the export ended before it was dropped: {done:?}"),
        _ = async { wrote.recv().await; wrote.recv().await } => {}
    }
    assert_eq!(walk.next_index(), start, "the position kept rows that no file holds");
    assert_eq!(dir.files(), ["head.parquet"], "the dropped export left a file");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_second_export_of_the_walk_waits_for_the_first_to_finish_its_file() {
    let (emu, dir) = (emulator().await, TempDir::new("gate"));
    let walk = range(&emu);
    let stop = Stop::new();
    let (first, second) = (dir.0.join("a.parquet"), dir.0.join("b.parquet"));
    let (a, b) = (walk.clone(), walk.clone());
    let stopper = stop.clone();
    let one = tokio::spawn(async move {
        a.write_parquet_until(Target::Path(first), ParquetOptions::default(), stop_after(&stopper, 200), &stopper).await
    });
    // Started while the first runs (it holds the walk's export lock): it begins where the first stopped.
    tokio::time::sleep(Duration::from_millis(5)).await;
    let two =
        tokio::spawn(async move { b.write_parquet(Target::Path(second), ParquetOptions::default(), |_| {}).await });
    let rows = one.await.unwrap().unwrap().rows();
    let rest = two.await.unwrap().unwrap();
    assert_eq!(rows + rest, CONTAINERS);
    let mut all = column(&dir.0.join("a.parquet"), "index");
    all.extend(column(&dir.0.join("b.parquet"), "index"));
    assert_eq!(all, (0..CONTAINERS).collect::<Vec<_>>());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_export_stopped_while_it_waits_for_another_makes_no_file_and_moves_nothing() {
    let (emu, dir) = (emulator().await, TempDir::new("waiting"));
    let walk = range(&emu);
    let (first, waiting) = (dir.0.join("a.parquet"), dir.0.join("waiting.parquet"));
    let (written, mut wrote) = tokio::sync::mpsc::unbounded_channel::<u64>();
    // The first export holds its first batch (and the walk's export lock) until `go`.
    let (go, held) = std::sync::mpsc::channel::<()>();
    let running = walk.clone();
    let one = tokio::spawn(async move {
        let on_rows = move |rows| {
            if written.send(rows).is_ok() {
                let _ = held.recv();
            }
        };
        running.write_parquet(Target::Path(first), ParquetOptions::default(), on_rows).await
    });
    wrote.recv().await.expect("the first export wrote a batch");
    let stop = Stop::new();
    stop.request();
    let out = walk.write_parquet_until(Target::Path(waiting.clone()), ParquetOptions::default(), |_| {}, &stop);
    assert_eq!(out.await.unwrap(), Exported::Stopped(0));
    assert!(!waiting.exists());
    drop(wrote); // later batches go on without waiting
    go.send(()).unwrap();
    assert_eq!(one.await.unwrap().unwrap(), CONTAINERS);
    assert_eq!(walk.next_index(), CONTAINERS);
    assert_eq!(column(&dir.0.join("a.parquet"), "index"), (0..CONTAINERS).collect::<Vec<_>>());
}
