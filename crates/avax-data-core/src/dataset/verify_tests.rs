use std::path::PathBuf;

use super::*;
use crate::arrow::containers::{container_schema, containers_to_batch};
use crate::arrow::{ParquetOptions, ParquetSink, Target};
use crate::dataset::manifest::WalkKey;
use crate::dataset::{Dataset, INDEX_KEY};
use crate::index::Container;

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("avax-verify-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn identity(kind: &str) -> WalkKey {
    let schema = "ef".repeat(32);
    WalkKey { kind: kind.into(), source: "X/tx".into(), decode: "raw".into(), chunk: 10, schema, ..Default::default() }
}

/// Writes partition `value` of an index dataset holding the containers `indices`, recorded as
/// `[first, next)`.
fn write(set: &mut Dataset, value: u64, indices: &[u64], first: u64, next: u64) {
    let containers: Vec<Container> = indices
        .iter()
        .map(|&i| Container {
            id: format!("c{i}"),
            bytes: vec![1, 2],
            timestamp_ns: 0,
            index: i,
            encoding: "hex".into(),
        })
        .collect();
    let tmp = set.temp_path(value).unwrap();
    let mut sink = ParquetSink::create(Target::Path(tmp), container_schema(), ParquetOptions::default()).unwrap();
    sink.write(&containers_to_batch(&containers)).unwrap();
    let rows = sink.finish().unwrap();
    set.commit(value, first, next, rows, true).unwrap();
}

/// An index dataset of chunks 0, 10, 20 (indices 0..25), whole.
fn whole(dir: &Path) {
    let mut set = Dataset::open(dir, INDEX_KEY, identity("index_range"), None).unwrap();
    write(&mut set, 0, &(0..10).collect::<Vec<_>>(), 0, 10);
    write(&mut set, 10, &(10..20).collect::<Vec<_>>(), 10, 20);
    write(&mut set, 20, &(20..25).collect::<Vec<_>>(), 20, 25);
}

#[test]
fn a_whole_dataset_is_ok() {
    let dir = temp_dir("whole");
    whole(&dir);
    let report = verify(&dir).unwrap();
    assert!(report.ok(), "{report:?}");
    assert_eq!((report.partitions, report.rows), (3, 25));
    assert!(report.incomplete.is_empty());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn each_kind_of_damage_is_reported_by_name() {
    let dir = temp_dir("damage");
    whole(&dir);
    std::fs::remove_file(dir.join("chunk=0/part.parquet")).unwrap();
    let altered = dir.join("chunk=10/part.parquet");
    let mut bytes = std::fs::read(&altered).unwrap();
    bytes[20] ^= 1;
    std::fs::write(&altered, bytes).unwrap();
    std::fs::write(dir.join("chunk=20/notes.txt"), b"x").unwrap();
    std::fs::write(dir.join("chunk=20/.part.parquet.77-0.tmp"), b"half").unwrap();
    std::fs::write(dir.join(".\u{e9}t\u{e9}.json.1-1.tmp"), b"half").unwrap();
    let report = verify(&dir).unwrap();
    assert!(!report.ok());
    assert_eq!(report.files.missing, vec!["chunk=0/part.parquet"]);
    assert_eq!(report.files.altered, vec!["chunk=10/part.parquet"]);
    assert_eq!(report.files.extra, vec!["chunk=20/notes.txt"]);
    assert_eq!(report.partial, vec![".\u{e9}t\u{e9}.json.1-1.tmp", "chunk=20/.part.parquet.77-0.tmp"]);
    assert!(report.gaps.is_empty() && report.duplicates.is_empty(), "{report:?}");
    // the next writer removes the temporary files (and only those)
    drop(Dataset::open(&dir, INDEX_KEY, identity("index_range"), None).unwrap());
    let report = verify(&dir).unwrap();
    assert!(report.partial.is_empty() && report.files.extra.len() == 1, "{report:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn repeated_and_missing_rows_inside_a_partition_are_duplicates_and_gaps() {
    let dir = temp_dir("rows");
    let mut set = Dataset::open(&dir, INDEX_KEY, identity("index_range"), None).unwrap();
    write(&mut set, 0, &[0, 1, 1, 1, 4, 5, 6, 7, 8, 9], 0, 10);
    drop(set);
    let report = verify(&dir).unwrap();
    assert_eq!(report.duplicates, vec![(1, 2)]);
    assert_eq!(report.gaps, vec![(2, 4)]);
    assert!(report.files.altered.is_empty() && !report.ok());
    let mut set = Dataset::open(&dir, INDEX_KEY, identity("index_range"), None).unwrap();
    write(&mut set, 0, &[0, 1, 2, 3, 4, 5, 6, 7, 8, 10], 0, 10);
    drop(set);
    assert_eq!(verify(&dir).unwrap().files.altered, vec!["chunk=0/part.parquet"], "a row outside its span");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_list_partition_whose_manifest_claims_other_rows_than_its_file_is_altered() {
    let dir = temp_dir("list-rows");
    let mut set = Dataset::open(&dir, "block", identity("data_list_by_block"), None).unwrap();
    write(&mut set, 0, &[9, 8, 7, 6, 5, 4, 3, 2, 1, 0], 0, 10);
    drop(set);
    assert!(verify(&dir).unwrap().ok());
    // edited by hand: the manifest claims 12 rows; sha256 and size still match the file
    let path = dir.join(crate::dataset::manifest::MANIFEST);
    let text = std::fs::read_to_string(&path).unwrap().replace("\"rows\": 10", "\"rows\": 12");
    assert!(text.contains("\"rows\": 12"), "{text}");
    std::fs::write(&path, text).unwrap();
    let report = verify(&dir).unwrap();
    assert_eq!(report.files.altered, vec!["block=0/part.parquet"]);
    assert_eq!(report.rows, 12, "the report gives what the manifest claims");
    assert!(!report.ok());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn spans_that_overlap_or_leave_a_hole_are_reported() {
    let mut m = Manifest {
        version: 1,
        walk: identity("metric_series"),
        origin: None,
        partitions: Vec::new(),
        end: None,
        head: None,
    };
    for (value, first, next) in [(0, 0, 10), (10, 5, 20), (30, 30, 40), (40, 40, 40), (50, 35, 60)] {
        let (file, _) = crate::dataset::manifest::partition_path(Path::new("/"), "month", value);
        m.partitions.push(Partition {
            key: "month".into(),
            value,
            first,
            next,
            rows: 1,
            file,
            bytes: 1,
            sha256: "0".repeat(64),
            mtime_ns: None,
            complete: true,
            origin: None,
        });
    }
    let mut report = Report::default();
    check_spans(&m, &mut report);
    assert_eq!(report.duplicates, vec![(5, 10), (35, 40)]);
    assert_eq!(report.gaps, vec![(20, 30)]);
    // a list by month has no partition for an empty month: no gap
    m.walk.kind = "data_list_by_month".into();
    let mut report = Report::default();
    check_spans(&m, &mut report);
    assert!(report.gaps.is_empty() && report.duplicates.len() == 2);
    assert_eq!(coalesce(vec![(5, 6), (1, 2), (2, 3), (3, 4)]), vec![(1, 4), (5, 6)]);
}

#[test]
fn no_dataset_or_a_writer_at_work_is_an_error() {
    let dir = temp_dir("errors");
    let err = verify(&dir).unwrap_err().to_string();
    assert!(err.contains("an existing dataset directory"), "{err}");
    std::fs::create_dir_all(&dir).unwrap();
    let err = verify(&dir).unwrap_err().to_string();
    assert!(err.contains("it has no _avax_dataset.json"), "{err}");
    let set = Dataset::open(&dir, INDEX_KEY, identity("index_range"), None).unwrap();
    assert!(matches!(verify(&dir), Err(Error::DatasetLocked { pid: Some(_), .. })));
    drop(set);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn partitions_recorded_from_another_source_are_reported() {
    use crate::dataset::manifest::Origin;
    let dir = temp_dir("other-source");
    let network = |id: &str| Origin::Network { container0: id.into() };
    let mut set = Dataset::open(&dir, INDEX_KEY, identity("index_range"), Some(&network("first"))).unwrap();
    write(&mut set, 0, &(0..10).collect::<Vec<_>>(), 0, 10);
    write(&mut set, 10, &(10..20).collect::<Vec<_>>(), 10, 20);
    drop(set);
    let report = verify(&dir).unwrap();
    assert!(report.ok() && report.other_source.is_empty(), "{report:?}");
    assert_eq!(report.source.as_deref(), Some("the network whose container 0 is first"));
    // a manifest whose second partition was read from another network (merged or edited by hand)
    let path = dir.join(crate::dataset::manifest::MANIFEST);
    let mut manifest = crate::dataset::manifest::read(&dir).unwrap().unwrap();
    manifest.partitions[1].origin = Some(network("second"));
    std::fs::write(&path, serde_json::to_string(&manifest).unwrap()).unwrap();
    let report = verify(&dir).unwrap();
    assert_eq!(report.other_source, vec!["chunk=10/part.parquet"]);
    assert!(!report.ok());
    let _ = std::fs::remove_dir_all(&dir);
}
