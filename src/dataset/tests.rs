use super::*;

fn identity(chunk: u64) -> Identity {
    Identity { kind: "index_range".into(), source: "X/tx".into(), decode: "raw".into(), chunk, schema: "ab".repeat(32) }
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("avax-dataset-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

#[test]
fn spans_are_cut_at_multiples_of_the_chunk() {
    assert_eq!(plan(0, 250, 100).unwrap(), vec![(0, 0, 100), (100, 100, 200), (200, 200, 250)]);
    assert_eq!(plan(150, 300, 100).unwrap(), vec![(100, 150, 200), (200, 200, 300)]);
    assert_eq!(plan(5, 5, 100).unwrap(), vec![]);
    assert_eq!(plan(9, 3, 100).unwrap(), vec![]);
    let top = plan(u64::MAX - 5, u64::MAX, 4).unwrap();
    assert_eq!(top.last().map(|s| s.2), Some(u64::MAX));
    assert!(top.windows(2).all(|w| w[0].2 == w[1].1), "{top:?}");
    assert!(matches!(plan(0, 10, 0), Err(Error::InvalidArgument { ref param, .. }) if param == "chunk"));
}

#[test]
fn a_partition_covers_a_span_only_when_whole() {
    let whole = Partition {
        key: "chunk".into(),
        value: 0,
        first: 0,
        next: 100,
        rows: 100,
        file: "chunk=0/part.parquet".into(),
        bytes: 1,
        sha256: String::new(),
        complete: true,
    };
    assert!(whole.covers(0, 100) && whole.covers(10, 100) && !whole.covers(0, 101));
    let short = Partition { rows: 99, complete: false, ..whole.clone() };
    assert!(!short.covers(0, 50));
}

#[test]
fn the_manifest_keeps_partitions_in_order_and_refuses_another_walk() {
    let dir = temp_dir("manifest");
    std::fs::create_dir_all(&dir).unwrap();
    let mut m = Manifest::open(&dir, identity(100)).unwrap();
    assert!(m.partitions.is_empty());
    for value in [200, 0, 100, 0] {
        let p = Partition {
            key: "chunk".into(),
            value,
            first: value,
            next: value + 100,
            rows: 100,
            file: format!("chunk={value}/part.parquet"),
            bytes: 0,
            sha256: String::new(),
            complete: true,
        };
        m.record(p);
    }
    assert_eq!(m.partitions.iter().map(|p| p.value).collect::<Vec<_>>(), vec![0, 100, 200]);
    m.save(&dir).unwrap();
    assert_eq!(Manifest::open(&dir, identity(100)).unwrap(), m);
    let err = Manifest::open(&dir, identity(50)).unwrap_err().to_string();
    assert!(err.contains("chunk 50") && err.contains("chunk 100"), "{err}");
    std::fs::write(dir.join(manifest::MANIFEST), "{not json").unwrap();
    assert!(Manifest::open(&dir, identity(100)).unwrap_err().to_string().contains("is not a manifest"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_file_changed_after_it_was_recorded_is_not_verified() {
    let dir = temp_dir("verify");
    let mut set = Dataset::open(&dir, INDEX_KEY, identity(10)).unwrap();
    std::fs::write(set.temp_path(0).unwrap(), b"ten bytes!").unwrap();
    set.commit(0, 0, 10, 10, true).unwrap();
    assert!(set.has(0, 0, 10) && !set.has(0, 0, 11) && !set.has(10, 10, 20));
    std::fs::write(dir.join("chunk=0/part.parquet"), b"ten bytes?").unwrap();
    assert!(!set.has(0, 0, 10));
    std::fs::remove_file(dir.join("chunk=0/part.parquet")).unwrap();
    assert!(!set.has(0, 0, 10));
    let _ = std::fs::remove_dir_all(&dir);
}
