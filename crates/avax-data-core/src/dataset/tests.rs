use super::*;

/// The identity of an X/tx range dataset in partitions of `chunk` (also read by `planned_tests`).
pub(super) fn identity(chunk: u64) -> WalkKey {
    let schema = "ab".repeat(32);
    WalkKey {
        kind: "index_range".into(),
        source: "X/tx".into(),
        decode: "raw".into(),
        chunk,
        schema,
        ..Default::default()
    }
}

/// A fresh directory for the test `name` (also used by `planned_tests`, whose names start `planned-`).
pub(super) fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("avax-dataset-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// A fresh dataset `name` of one committed partition holding `bytes` (positions 0..10): its
/// directory, the open dataset, the part file and the modification time recorded for it.
fn one_part(name: &str, bytes: &[u8]) -> (PathBuf, Dataset, PathBuf, std::time::SystemTime) {
    let dir = temp_dir(name);
    let mut set = Dataset::open(&dir, INDEX_KEY, identity(10), None).unwrap();
    std::fs::write(set.temp_path(0).unwrap(), bytes).unwrap();
    set.commit(0, 0, 10, 10, true).unwrap();
    let path = dir.join("chunk=0/part.parquet");
    let recorded = std::fs::metadata(&path).unwrap().modified().unwrap();
    (dir, set, path, recorded)
}

/// A complete partition of the 100 positions from `value`, in the file `chunk={value}/part.parquet`.
fn whole_chunk(value: u64) -> Partition {
    Partition {
        key: "chunk".into(),
        value,
        first: value,
        next: value + 100,
        rows: 100,
        file: format!("chunk={value}/part.parquet"),
        bytes: 1,
        sha256: String::new(),
        mtime_ns: None,
        complete: true,
        origin: None,
    }
}

/// Writes `bytes` over `path` and sets its modification time to `modified`.
fn rewrite(path: &Path, bytes: &[u8], modified: std::time::SystemTime) {
    std::fs::write(path, bytes).unwrap();
    std::fs::File::options().write(true).open(path).unwrap().set_modified(modified).unwrap();
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
    let whole = whole_chunk(0);
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
        m.record(Partition { bytes: 0, sha256: "0".repeat(64), ..whole_chunk(value) });
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
    let (dir, set, path, recorded) = one_part("verify", b"ten bytes!");
    assert!(set.has(0, 0, 10) && !set.has(0, 0, 11) && !set.has(10, 10, 20));
    // same size, another modification time: changed
    rewrite(&path, b"ten bytes?", recorded + std::time::Duration::from_secs(1));
    assert!(!set.has(0, 0, 10));
    // the fast check trusts size and time: the same bytes back under the recorded time pass
    rewrite(&path, b"ten bytes!", recorded);
    assert!(set.has(0, 0, 10));
    std::fs::remove_file(&path).unwrap();
    assert!(!set.has(0, 0, 10));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_rerun_trusts_size_and_time_and_verify_reads_the_bytes() {
    let (dir, set, path, recorded) = one_part("fast", b"0123456789");
    drop(set);
    rewrite(&path, b"0123456780", recorded);
    let set = Dataset::open(&dir, INDEX_KEY, identity(10), None).unwrap();
    assert!(set.has(0, 0, 10), "the fast check does not read the bytes");
    drop(set);
    let m = Manifest::open(&dir, identity(10)).unwrap();
    assert!(manifest::unchanged(&dir, &m.partitions[0]) && !manifest::digest_matches(&dir, &m.partitions[0]));
    // a manifest of an older version (no modification time) falls back to the sha256
    let old = Partition { mtime_ns: None, ..m.partitions[0].clone() };
    assert!(!manifest::unchanged(&dir, &old));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_second_writer_is_refused_and_two_writers_never_share_a_temporary_file() {
    let dir = temp_dir("second");
    let mut set = Dataset::open(&dir, INDEX_KEY, identity(10), None).unwrap();
    let err = Dataset::open(&dir, INDEX_KEY, identity(10), None).err().unwrap();
    assert!(matches!(err, Error::DatasetLocked { pid: Some(pid), .. } if pid == std::process::id()), "{err}");
    let (a, b) = (set.temp_path(0).unwrap(), set.temp_path(0).unwrap());
    assert_ne!(a, b);
    assert!(!a.exists(), "a replaced temporary file is removed");
    std::fs::write(&b, b"x").unwrap();
    drop(set);
    assert!(!b.exists(), "a dropped writer leaves no temporary file");
    Dataset::open(&dir, INDEX_KEY, identity(10), None).unwrap();
    let _ = std::fs::remove_dir_all(&dir);
}

/// Writes `text` as the manifest of a fresh directory and opens it.
fn open_with(name: &str, text: &[u8]) -> String {
    let dir = temp_dir(name);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join(manifest::MANIFEST), text).unwrap();
    let err = Dataset::open(&dir, INDEX_KEY, identity(100), None).err().expect("refused").to_string();
    let named = dir.join(manifest::MANIFEST).display().to_string();
    assert!(err.contains(&named), "the error names the file: {err}");
    let _ = std::fs::remove_dir_all(&dir);
    err
}

#[test]
fn the_manifest_reader_refuses_unusual_text_with_an_error_naming_the_file() {
    let dir = temp_dir("good");
    std::fs::create_dir_all(&dir).unwrap();
    let mut m = Manifest::open(&dir, identity(100)).unwrap();
    m.record(Partition { sha256: "a".repeat(64), mtime_ns: Some(1), ..whole_chunk(0) });
    m.save(&dir).unwrap();
    let good = std::fs::read_to_string(dir.join(manifest::MANIFEST)).unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    let cases: Vec<(&str, Vec<u8>, &str)> = vec![
        ("latin1", b"{\"version\": 1, \"x\": \"\xe9\"}".to_vec(), "not UTF-8"),
        ("truncated", good.as_bytes()[..good.len() / 2].to_vec(), "EOF"),
        ("empty", Vec::new(), "EOF"),
        ("array", b"[1, 2]".to_vec(), "is not a manifest"),
        ("types", good.replace("\"rows\": 100", "\"rows\": \"100\"").into_bytes(), "invalid type"),
        ("negative", good.replace("\"rows\": 100", "\"rows\": -1").into_bytes(), "invalid value"),
        ("huge", good.replace("\"rows\": 100", "\"rows\": 1e400").into_bytes(), "is not a manifest"),
        ("version", good.replace("\"version\": 1", "\"version\": 7").into_bytes(), "version 7"),
        ("outside", good.replace("chunk=0/part.parquet", "../../etc/passwd").into_bytes(), "names the file"),
        ("dotdot", good.replace("\"key\": \"chunk\"", "\"key\": \"..\"").into_bytes(), "names the file"),
        ("span", good.replace("\"first\": 0", "\"first\": 500").into_bytes(), "first after next"),
        ("sha", good.replace(&"a".repeat(64), "\\u00e9t\\u00e9").into_bytes(), "no sha256"),
        (
            "unicode",
            good.replace("\"X/tx\"", "\"X/\u{1F600}\u{e9}\"")
                .replace(&"ab".repeat(32), "\u{e9}\u{e9}\u{e9}\u{e9}\u{e9}\u{e9}\u{e9}")
                .into_bytes(),
            "a directory of the same walk",
        ),
    ];
    for (name, text, expected) in cases {
        let err = if name == "unicode" {
            // another walk's identity in non-ASCII text: described without slicing inside a character
            let dir = temp_dir(name);
            std::fs::create_dir_all(&dir).unwrap();
            std::fs::write(dir.join(manifest::MANIFEST), &text).unwrap();
            let err = Dataset::open(&dir, INDEX_KEY, identity(100), None).err().unwrap().to_string();
            let _ = std::fs::remove_dir_all(&dir);
            err
        } else {
            open_with(name, &text)
        };
        assert!(err.contains(expected), "{name}: {err}");
        assert!(err.starts_with("invalid dataset="), "{name}: {err}");
    }
    // a partition recorded twice
    let twice = good.replacen("\"partitions\": [", "\"partitions\": [{\"key\": \"chunk\", \"value\": 0, \"first\": 0, \"next\": 100, \"rows\": 100, \"file\": \"chunk=0/part.parquet\", \"bytes\": 1, \"sha256\": \"{}\", \"complete\": true},", 1);
    let twice = twice.replace("\"{}\"", &format!("\"{}\"", "a".repeat(64)));
    assert!(open_with("twice", twice.as_bytes()).contains("recorded twice"));
}

#[test]
fn a_write_from_another_source_is_refused_naming_both_before_any_file_is_touched() {
    let dir = temp_dir("origin");
    let (first, second) =
        (Origin::Network { container0: "2Zfirst".into() }, Origin::Network { container0: "2Zsecond".into() });
    let mut set = Dataset::open(&dir, INDEX_KEY, identity(10), Some(&first)).unwrap();
    std::fs::write(set.temp_path(0).unwrap(), b"0123456789").unwrap();
    set.commit(0, 0, 10, 10, true).unwrap();
    drop(set);
    let manifest_before = std::fs::read(dir.join(manifest::MANIFEST)).unwrap();
    // a temporary file an interrupted writer left: a refused write does not even remove it
    let left = dir.join("chunk=0/.part.parquet.1-1.tmp");
    std::fs::write(&left, b"x").unwrap();
    let err = Dataset::open(&dir, INDEX_KEY, identity(10), Some(&second)).err().expect("refused").to_string();
    assert!(
        err.contains("its rows come from the network whose container 0 is 2Zfirst")
            && err.contains("this write reads the network whose container 0 is 2Zsecond"),
        "{err}"
    );
    assert_eq!(std::fs::read(dir.join(manifest::MANIFEST)).unwrap(), manifest_before);
    assert!(left.exists());
    // the same source (and a writer that cannot tell) pass; the partition records its source
    let set = Dataset::open(&dir, INDEX_KEY, identity(10), Some(&first)).unwrap();
    assert_eq!(set.manifest().origin.as_ref(), Some(&first));
    assert_eq!(set.manifest().partitions[0].origin.as_ref(), Some(&first));
    assert!(!left.exists(), "a writer of the same source cleans up");
    drop(set);
    drop(Dataset::open(&dir, INDEX_KEY, identity(10), None).unwrap());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_dataset_without_a_recorded_source_adopts_the_next_writers() {
    let dir = temp_dir("adopt");
    let mut set = Dataset::open(&dir, INDEX_KEY, identity(10), None).unwrap();
    std::fs::write(set.temp_path(0).unwrap(), b"0123456789").unwrap();
    set.commit(0, 0, 10, 10, true).unwrap();
    drop(set);
    assert_eq!(manifest::read(&dir).unwrap().unwrap().origin, None, "as an earlier version wrote it");
    let service = Origin::service("https://user:secret@data-api.example/v1/?token=abc");
    drop(Dataset::open(&dir, INDEX_KEY, identity(10), Some(&service)).unwrap());
    let adopted = manifest::read(&dir).unwrap().unwrap();
    assert_eq!(adopted.origin.as_ref(), Some(&service), "saved at once");
    let text = std::fs::read_to_string(dir.join(manifest::MANIFEST)).unwrap();
    assert!(!text.contains("secret") && !text.contains("abc"), "{text}");
    let other = Origin::service("https://elsewhere.example");
    let err = Dataset::open(&dir, INDEX_KEY, identity(10), Some(&other)).err().expect("refused").to_string();
    assert!(err.contains("this write reads the service at https://elsewhere.example"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_service_on_a_loopback_host_is_one_source_whatever_its_port() {
    let local = |url: &str| Origin::service(url);
    assert!(local("http://127.0.0.1:4001").same_source(&local("http://127.0.0.1:4002/")));
    assert!(local("http://localhost:4001").same_source(&local("http://[::1]:9")));
    assert!(!local("http://127.0.0.1:4001").same_source(&local("https://127.0.0.1:4001")), "another scheme");
    assert!(!local("http://127.0.0.1:4001/a").same_source(&local("http://127.0.0.1:4001/b")), "another path");
    assert!(!local("https://data.example:443").same_source(&local("https://data.example:8443")));
    assert!(!local("http://10.0.0.1:1").same_source(&local("http://10.0.0.1:2")));
    let network = |id: &str| Origin::Network { container0: id.into() };
    assert!(network("a").same_source(&network("a")) && !network("a").same_source(&network("b")));
    assert!(!network("a").same_source(&local("http://127.0.0.1:1")));
    let dir = temp_dir("loopback");
    drop(Dataset::open(&dir, INDEX_KEY, identity(10), Some(&local("http://127.0.0.1:4001"))).unwrap());
    drop(Dataset::open(&dir, INDEX_KEY, identity(10), Some(&local("http://127.0.0.1:4002"))).unwrap());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_manifest_of_the_debug_schema_digest_is_the_same_walk_and_records_the_canonical_one() {
    let dir = temp_dir("legacy-schema");
    let schema = crate::arrow::containers::container_schema();
    let walk = index_walk_key(IndexPath::XTx, None, 10, &schema);
    let legacy = WalkKey { schema: schema_key::legacy_digest(&schema), legacy_schema: None, ..walk.clone() };
    let mut set = Dataset::open(&dir, INDEX_KEY, legacy, None).unwrap();
    std::fs::write(set.temp_path(0).unwrap(), b"0123456789").unwrap();
    set.commit(0, 0, 10, 10, true).unwrap();
    drop(set);
    let mut set = Dataset::open(&dir, INDEX_KEY, walk.clone(), None).unwrap();
    assert!(set.has(0, 0, 10), "the partition an earlier version wrote is kept");
    std::fs::write(set.temp_path(10).unwrap(), b"0123456789").unwrap();
    set.commit(10, 10, 20, 10, true).unwrap();
    drop(set);
    assert_eq!(manifest::read(&dir).unwrap().unwrap().walk.schema, walk.schema);
    // another schema is still another walk
    let other = WalkKey { schema: "00".repeat(32), ..walk };
    let err = Dataset::open(&dir, INDEX_KEY, other, None).err().expect("refused").to_string();
    assert!(err.contains("a directory of the same walk"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}
