use std::path::PathBuf;

use arrow_array::cast::AsArray;
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
use serde_json::json;

use super::*;
use crate::arrow::to_batch;
use crate::dataset::manifest::Manifest;

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("avax-lists-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// Blocks `top` down to 0 of chain 43114, as batches of `page` rows.
fn blocks(top: u64, page: usize) -> Vec<RecordBatch> {
    let items: Vec<_> = (0..=top)
        .rev()
        .map(|n| json!({"chainId": "43114", "blockNumber": n.to_string(), "blockTimestamp": 1_700_000_000 + n}))
        .collect();
    items.chunks(page).map(|c| to_batch(Resource::Block, c).unwrap()).collect()
}

fn cutter(dir: &Path, key: ListKey, resource: Resource, from_head: bool, started: i64) -> Cutter {
    let set = Dataset::open(dir, key.hive(), list_walk_key("/v1/chains/43114/blocks", resource, key), None).unwrap();
    Cutter::new(set, resource, key, ParquetOptions::default(), from_head, started)
}

/// Feeds `batches` until the cutter stops; `ended`: the list ended after them.
fn run(dir: &Path, batches: &[RecordBatch], ended: bool) -> DatasetSummary {
    let mut c = cutter(dir, ListKey::Block { chunk: 10 }, Resource::Block, true, 0);
    for b in batches {
        if c.push(b).unwrap() == Flow::Stop {
            return c.finish(false).unwrap();
        }
    }
    c.finish(ended).unwrap()
}

fn manifest(dir: &Path) -> Manifest {
    serde_json::from_str(&std::fs::read_to_string(dir.join(crate::dataset::manifest::MANIFEST)).unwrap()).unwrap()
}

/// `(value, complete, block numbers of its file)` for every recorded partition, newest first.
fn contents(dir: &Path) -> Vec<(u64, bool, Vec<u64>)> {
    let mut out = Vec::new();
    for p in manifest(dir).partitions.iter().rev() {
        let file = std::fs::File::open(dir.join(&p.file)).unwrap();
        let mut numbers = Vec::new();
        for batch in ParquetRecordBatchReaderBuilder::try_new(file).unwrap().build().unwrap() {
            let batch = batch.unwrap();
            numbers.extend(batch.column_by_name("blockNumber").unwrap().as_primitive::<UInt64Type>().values().iter());
        }
        assert_eq!(numbers.len() as u64, p.rows);
        out.push((p.value, p.complete, numbers));
    }
    out
}

fn all_blocks(dir: &Path) -> Vec<u64> {
    contents(dir).into_iter().flat_map(|(_, _, n)| n).collect()
}

fn summary(s: DatasetSummary) -> (u64, u64, u64, u64) {
    (s.partitions_written, s.partitions_skipped, s.rows_written, s.rows_skipped)
}

#[test]
fn the_newest_partition_stays_partial_and_reruns_stop_at_what_is_written() {
    let dir = temp_dir("rerun");
    assert_eq!(summary(run(&dir, &blocks(34, 7), true)), (4, 0, 35, 0));
    let got = contents(&dir);
    assert_eq!(
        got.iter().map(|p| (p.0, p.1)).collect::<Vec<_>>(),
        vec![(30, false), (20, true), (10, true), (0, true)]
    );
    assert_eq!(got[0].2, vec![34, 33, 32, 31, 30]);
    assert_eq!(all_blocks(&dir), (0..=34).rev().collect::<Vec<_>>());
    assert_eq!(manifest(&dir).end, Some(0));

    // nothing new: the partial newest partition is written again, the walk stops at block 29
    assert_eq!(summary(run(&dir, &blocks(34, 7), true)), (1, 3, 5, 30));
    // the head moved: 30.. is now complete (the walk passed below it), 40.. is new and partial
    assert_eq!(summary(run(&dir, &blocks(41, 7), true)), (2, 3, 12, 30));
    let got = contents(&dir);
    assert_eq!(got.iter().map(|p| (p.0, p.1)).collect::<Vec<_>>()[..2], [(40, false), (30, true)]);
    assert_eq!(all_blocks(&dir), (0..=41).rev().collect::<Vec<_>>());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_interrupted_walk_leaves_a_manifest_a_rerun_completes() {
    let dir = temp_dir("interrupted");
    let pages = blocks(34, 7);
    let mut c = cutter(&dir, ListKey::Block { chunk: 10 }, Resource::Block, true, 0);
    for b in &pages[..3] {
        assert_eq!(c.push(b).unwrap(), Flow::More); // 34..14: partition 10 is half written
    }
    c.abandon();
    assert_eq!(contents(&dir).iter().map(|p| (p.0, p.1)).collect::<Vec<_>>(), vec![(30, false), (20, true)]);
    assert!(!dir.join("block=10").join(".part.parquet.tmp").exists());
    assert!(!dir.join("block=10").join("part.parquet").exists());
    assert_eq!(manifest(&dir).end, None);

    // the rerun cannot stop early (no walk reached the end): it passes 20.. and writes the rest
    assert_eq!(summary(run(&dir, &pages, true)), (3, 1, 25, 10));
    assert_eq!(all_blocks(&dir), (0..=34).rev().collect::<Vec<_>>());
    assert_eq!(manifest(&dir).end, Some(0));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_altered_partition_or_a_walk_cut_by_a_limit_is_written_again() {
    let dir = temp_dir("altered");
    run(&dir, &blocks(39, 10), true);
    // a full chunk proves the newest partition complete
    assert!(contents(&dir).iter().all(|p| p.1));
    std::fs::write(dir.join("block=10/part.parquet"), b"not parquet").unwrap();
    // 30.. is complete, but 10.. below it is altered: no early stop, 10.. written again
    assert_eq!(summary(run(&dir, &blocks(39, 10), true)), (1, 3, 10, 30));
    assert_eq!(all_blocks(&dir), (0..=39).rev().collect::<Vec<_>>());

    // a walk stopped by a limit (the list did not end) leaves its lowest partition partial
    let cut = temp_dir("limited");
    assert_eq!(summary(run(&cut, &blocks(39, 10)[..1], false)), (1, 0, 10, 0));
    assert_eq!(summary(run(&cut, &[blocks(39, 5)[0].clone()], false)), (0, 1, 0, 10));
    let half = temp_dir("half");
    run(&half, &[blocks(39, 5)[0].clone()], false);
    assert_eq!(contents(&half), vec![(30, false, vec![39, 38, 37, 36, 35])]);
    for d in [dir, cut, half] {
        let _ = std::fs::remove_dir_all(&d);
    }
}

#[test]
fn rows_out_of_order_or_of_several_chains_are_refused() {
    let dir = temp_dir("order");
    let mut c = cutter(&dir, ListKey::Block { chunk: 10 }, Resource::Block, true, 0);
    let up = to_batch(
        Resource::Block,
        &[json!({"chainId": "1", "blockNumber": "5"}), json!({"chainId": "1", "blockNumber": "6"})],
    );
    let err = c.push(&up.unwrap()).unwrap_err().to_string();
    assert!(err.contains("not newest first: blockNumber 6 came after 5"), "{err}");
    c.abandon();
    let mut c = cutter(&dir, ListKey::Block { chunk: 10 }, Resource::Block, true, 0);
    let twice = to_batch(
        Resource::Block,
        &[json!({"chainId": "1", "blockNumber": "5"}), json!({"chainId": "1", "blockNumber": "5"})],
    );
    assert!(c.push(&twice.unwrap()).unwrap_err().to_string().contains("5 came after 5"));
    c.abandon();
    let mut c = cutter(&dir, ListKey::Block { chunk: 10 }, Resource::Block, true, 0);
    let mixed = to_batch(
        Resource::Block,
        &[json!({"chainId": "1", "blockNumber": "5"}), json!({"chainId": "2", "blockNumber": "4"})],
    );
    match c.push(&mixed.unwrap()).unwrap_err() {
        Error::InvalidArgument { param, value, .. } => {
            assert_eq!((param.as_str(), value.as_str()), ("pager", "blocks of chains 1 and 2"))
        }
        other => panic!("{other}"),
    }
    c.abandon();
    let mut c = cutter(&dir, ListKey::Block { chunk: 10 }, Resource::Block, true, 0);
    let no_number = to_batch(Resource::Block, &[json!({"chainId": "1"})]).unwrap();
    assert!(c.push(&no_number).unwrap_err().to_string().contains("row 0 of a page has no blockNumber"));
    c.abandon();
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_key_follows_the_resource() {
    assert_eq!(ListKey::of(Resource::Block, None).unwrap(), ListKey::Block { chunk: crate::dataset::DEFAULT_CHUNK });
    assert_eq!(ListKey::of(Resource::Vertex, None).unwrap(), ListKey::Month { column: "vertexTimestamp" });
    for (resource, chunk, param) in [
        (Resource::Vertex, Some(5), "chunk"),
        (Resource::Block, Some(0), "chunk"),
        (Resource::Collectible, None, "resource"),
    ] {
        match ListKey::of(resource, chunk).unwrap_err() {
            Error::InvalidArgument { param: p, .. } => assert_eq!(p, param),
            other => panic!("{other}"),
        }
    }
}

#[test]
fn vertices_go_by_month_and_the_newest_month_is_complete_only_once_settled() {
    // 2024-03-02, 2024-03-01, 2024-02-29, 2024-01-15
    let times = [1_709_337_600i64, 1_709_251_200, 1_709_164_800, 1_705_276_800];
    let items: Vec<_> = times.iter().map(|t| json!({"vertexHash": format!("v{t}"), "vertexTimestamp": t})).collect();
    let batch = to_batch(Resource::Vertex, &items).unwrap();
    let key = ListKey::of(Resource::Vertex, None).unwrap();
    for (started, newest_complete) in [(1_709_400_000, false), (1_713_000_000, true)] {
        let dir = temp_dir(&format!("months-{started}"));
        let mut c = cutter(&dir, key, Resource::Vertex, true, started);
        assert_eq!(c.push(&batch).unwrap(), Flow::More);
        assert_eq!(summary(c.finish(true).unwrap()), (3, 0, 4, 0));
        let m = manifest(&dir);
        let got: Vec<_> = m.partitions.iter().map(|p| (p.value, p.rows, p.complete)).collect();
        assert_eq!(got, vec![(202401, 1, true), (202402, 1, true), (202403, 2, newest_complete)]);
        assert_eq!(m.partitions[2].file, "month=202403/part.parquet");
        let _ = std::fs::remove_dir_all(&dir);
    }
    // from a saved token, the newest month is never proven complete (newer rows were not seen)
    let dir = temp_dir("months-token");
    let mut c = cutter(&dir, key, Resource::Vertex, false, 1_712_000_000);
    c.push(&batch).unwrap();
    c.finish(true).unwrap();
    assert!(!manifest(&dir).partitions[2].complete);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Blocks `numbers` (newest first) with their hashes, as one page.
fn hashed(numbers: std::ops::RangeInclusive<u64>, hash: impl Fn(u64) -> String) -> RecordBatch {
    let items: Vec<_> = numbers
        .rev()
        .map(|n| json!({"chainId": "43114", "blockNumber": n.to_string(), "blockHash": hash(n), "blockTimestamp": n}))
        .collect();
    to_batch(Resource::Block, &items).unwrap()
}

#[test]
fn a_repeated_row_reaching_the_cutter_is_refused_never_written_twice() {
    // the pager drops a shifted page's repeats (paging::repeats); one that got past it anyway,
    // or a block of a number already written with another hash, is refused by the order check
    let hash = |n: u64| format!("0xh{n}");
    for (name, hash_of_repeat) in [("shifted-same", "0xh"), ("shifted-other", "0xfork")] {
        let dir = temp_dir(name);
        let mut c = cutter(&dir, ListKey::Block { chunk: 10 }, Resource::Block, true, 0);
        c.push(&hashed(20..=29, hash)).unwrap();
        let err = c.push(&hashed(15..=24, |n| format!("{hash_of_repeat}{n}"))).unwrap_err().to_string();
        assert!(err.contains("not newest first: blockNumber 24 came after 20"), "{err}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
