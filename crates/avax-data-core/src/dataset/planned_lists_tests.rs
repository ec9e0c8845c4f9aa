use crate::dataset::lists::ListKey;
use crate::dataset::lists::{reach, Reach};
use crate::dataset::tests::{identity, temp_dir};
use crate::dataset::{Dataset, INDEX_KEY};
use std::path::PathBuf;

/// A dataset of `(value, first, next, rows, complete)` partitions with `end` recorded; its lock
/// released when it returns.
fn dataset(name: &str, key: &str, parts: &[(u64, u64, u64, u64, bool)], end: Option<u64>) -> PathBuf {
    let dir = temp_dir(&format!("planned-lists-{name}"));
    let mut set = Dataset::open(&dir, key, identity(100), None).unwrap();
    for &(value, first, next, rows, complete) in parts {
        std::fs::write(set.temp_path(value).unwrap(), format!("{rows} rows")).unwrap();
        set.commit(value, first, next, rows, complete).unwrap();
    }
    set.set_end(end).unwrap();
    dir
}

fn blocks(name: &str, top_rows: u64, end: Option<u64>) -> PathBuf {
    let mut parts: Vec<_> = (0..4).map(|i| (i * 100, i * 100, i * 100 + 100, 100, true)).collect();
    parts.push((400, 400, 500, top_rows, top_rows == 100));
    dataset(name, INDEX_KEY, &parts, end)
}

fn manifest(dir: &std::path::Path) -> crate::dataset::manifest::Manifest {
    crate::dataset::manifest::read(dir).unwrap().unwrap()
}

const BLOCKS: ListKey = ListKey::Block { chunk: 100 };
const MONTHS: ListKey = ListKey::Month { column: "vertexTimestamp" };

#[test]
fn a_whole_block_dataset_is_read_to_its_first_row_only() {
    let dir = blocks("whole", 100, Some(0));
    let got = reach(&manifest(&dir), &dir, BLOCKS).unwrap();
    assert_eq!(got, Reach { items: 1, held: 500, stop: Some(400), open_bottom: false });
}

#[test]
fn a_missing_middle_block_partition_costs_every_row_above_it() {
    let dir = blocks("middle", 100, Some(0));
    std::fs::remove_file(dir.join("chunk=200/part.parquet")).unwrap();
    let got = reach(&manifest(&dir), &dir, BLOCKS).unwrap();
    // Blocks 499..200 are read (300 rows), then block 199 of partition 100, where it stops.
    assert_eq!(got, Reach { items: 301, held: 200, stop: Some(100), open_bottom: false });
    // An altered file is a hole too.
    let dir = blocks("altered", 100, Some(0));
    std::fs::write(dir.join("chunk=300/part.parquet"), b"other bytes").unwrap();
    assert_eq!(reach(&manifest(&dir), &dir, BLOCKS).unwrap().stop, Some(200));
}

#[test]
fn a_partial_head_partition_is_read_again_and_no_end_reads_to_block_zero() {
    let dir = blocks("partial", 40, Some(0));
    let got = reach(&manifest(&dir), &dir, BLOCKS).unwrap();
    assert_eq!(got, Reach { items: 41, held: 400, stop: Some(300), open_bottom: false });
    // No walk reached the list's end: nothing below is known written, so the walk goes on to
    // block 0 (block numbers are dense).
    let dir = blocks("no-end", 100, None);
    assert_eq!(
        reach(&manifest(&dir), &dir, BLOCKS).unwrap(),
        Reach { items: 500, held: 0, stop: None, open_bottom: false }
    );
    let empty = dataset("empty", INDEX_KEY, &[], None);
    assert_eq!(reach(&manifest(&empty), &empty, BLOCKS), None);
}

#[test]
fn months_count_the_rows_the_manifest_recorded() {
    let parts = [(202401, 0, 10, 31, true), (202402, 10, 20, 29, true), (202403, 20, 30, 10, false)];
    let dir = dataset("months", "month", &parts, Some(202401));
    let got = reach(&manifest(&dir), &dir, MONTHS).unwrap();
    assert_eq!(got, Reach { items: 11, held: 60, stop: Some(202402), open_bottom: false });
    let dir = dataset("months-open", "month", &parts, None);
    assert_eq!(
        reach(&manifest(&dir), &dir, MONTHS).unwrap(),
        Reach { items: 70, held: 0, stop: None, open_bottom: true }
    );
}
