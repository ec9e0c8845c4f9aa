//! Unit tests of the store: round trips, damaged entries, the size bound, eviction order,
//! concurrent writers, info and clear, and the rule of which directory is used.

use std::path::PathBuf;
use std::time::{Duration, SystemTime};

use super::*;

fn fresh(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("avax-cache-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// A store of the default size in the fresh directory `name`, and that directory.
fn fresh_store(name: &str) -> (PathBuf, Store) {
    let dir = fresh(name);
    let store = Store::open(&dir, DEFAULT_MAX_BYTES).unwrap();
    (dir, store)
}

/// The single entry file of `kind` in `dir`.
fn only_file(dir: &std::path::Path, kind: Kind) -> PathBuf {
    let found: Vec<_> = lru::scan(dir).unwrap().entries.into_iter().filter(|e| e.kind == kind).collect();
    assert_eq!(found.len(), 1);
    found[0].path.clone()
}

#[test]
fn a_stored_payload_comes_back_and_a_missing_key_is_a_miss() {
    let (dir, store) = fresh_store("roundtrip");
    assert_eq!(store.get(Kind::Index, "a"), None);
    store.put(Kind::Index, "a", b"first").unwrap();
    store.put(Kind::Index, "a", b"second").unwrap();
    assert_eq!(store.get(Kind::Index, "a"), Some(b"second".to_vec()));
    assert_eq!(store.get(Kind::Metrics, "a"), None, "kinds do not share keys");
    let info = info(&dir).unwrap();
    assert_eq!(info.entries(), 1);
    assert_eq!(info.kinds["index"].entries, 1);
    assert_eq!(info.kinds["metrics"], KindInfo::default());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_flipped_or_truncated_entry_is_deleted_and_missed() {
    let (dir, store) = fresh_store("damage");
    store.put(Kind::Index, "k", b"the payload").unwrap();
    let path = only_file(&dir, Kind::Index);
    let mut bytes = std::fs::read(&path).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 0x40;
    std::fs::write(&path, &bytes).unwrap();
    assert_eq!(store.get(Kind::Index, "k"), None);
    assert!(!path.exists(), "the damaged entry is deleted");

    store.put(Kind::Index, "k", b"the payload").unwrap();
    let bytes = std::fs::read(&path).unwrap();
    std::fs::write(&path, &bytes[..bytes.len() / 2]).unwrap();
    assert_eq!(store.get(Kind::Index, "k"), None);
    assert!(!path.exists());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn eviction_keeps_the_bound_and_drops_the_least_recently_used_first() {
    let dir = fresh("lru");
    let payload = vec![7u8; 1000];
    let one = entry::encode("k0", &payload).len() as u64;
    // Room for four and a half entries; the fifth write evicts down to 90% (four entries).
    let store = Store::open(&dir, one * 4 + one / 2).unwrap();
    let old = SystemTime::now() - Duration::from_secs(100);
    for k in 0..4 {
        store.put(Kind::Data, &format!("k{k}"), &payload).unwrap();
    }
    // Make the use order explicit (k0 oldest ... k3 newest), then use k0.
    for k in 0..4 {
        let path = store_path(&dir, &store, &format!("k{k}"));
        let file = std::fs::File::options().write(true).open(&path).unwrap();
        file.set_modified(old + Duration::from_secs(k)).unwrap();
    }
    assert!(store.get(Kind::Data, "k0").is_some(), "k0 is now the most recently used");
    store.put(Kind::Data, "k4", &payload).unwrap();
    let left: Vec<bool> = (0..5).map(|k| store.get(Kind::Data, &format!("k{k}")).is_some()).collect();
    assert_eq!(left, vec![true, false, true, true, true], "k1 was the least recently used");
    assert!(info(&dir).unwrap().bytes() <= store.max_bytes());
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The path of `key`'s entry (found by writing nothing: scanning for the file holding it).
fn store_path(dir: &std::path::Path, _store: &Store, key: &str) -> PathBuf {
    lru::scan(dir)
        .unwrap()
        .entries
        .into_iter()
        .find(|e| entry::decode(key, &std::fs::read(&e.path).unwrap()).is_ok())
        .expect("the key is stored")
        .path
}

#[test]
fn opening_a_directory_over_its_bound_evicts_and_a_zero_bound_is_refused() {
    let (dir, store) = fresh_store("reopen");
    for k in 0..10 {
        store.put(Kind::Metrics, &format!("k{k}"), &[1u8; 500]).unwrap();
    }
    let small = Store::open(&dir, 2000).unwrap();
    assert!(info(&dir).unwrap().bytes() <= 2000);
    assert!(info(&dir).unwrap().entries() >= 1, "eviction stops at the bound, it does not empty the cache");
    drop(small);
    let err = Store::open(&dir, 0).unwrap_err().to_string();
    assert!(err.contains("cache_max_bytes") && err.contains(">= 1"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn concurrent_writers_of_the_same_keys_leave_whole_entries() {
    let dir = fresh("concurrent");
    let payload = |w: u8| vec![w; 4096];
    std::thread::scope(|s| {
        for w in 0..4u8 {
            let dir = dir.clone();
            s.spawn(move || {
                let store = Store::open(&dir, 40 * 4096).unwrap();
                for k in 0..30 {
                    store.put(Kind::Index, &format!("k{k}"), &payload(w)).unwrap();
                    let _ = store.get(Kind::Index, &format!("k{}", k / 2));
                }
            });
        }
    });
    let store = Store::open(&dir, 40 * 4096).unwrap();
    let scan = lru::scan(&dir).unwrap();
    assert!(!scan.entries.is_empty());
    for e in &scan.entries {
        let name = e.path.file_name().unwrap().to_string_lossy().into_owned();
        assert!(!name.ends_with(".tmp"), "no temporary file is left: {name}");
    }
    for k in 0..30 {
        if let Some(value) = store.get(Kind::Index, &format!("k{k}")) {
            assert!(value.len() == 4096 && value.iter().all(|&b| b == value[0]), "k{k} is one writer's whole payload");
        }
    }
    assert!(info(&dir).unwrap().bytes() <= 40 * 4096 + 4 * 5000, "the bound holds up to the writes in flight");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn clear_deletes_every_entry_and_refuses_a_missing_directory() {
    let (dir, store) = fresh_store("clear");
    store.put(Kind::Index, "a", b"1").unwrap();
    store.put(Kind::Data, "b", b"2").unwrap();
    let removed = clear(&dir).unwrap();
    assert_eq!((removed.entries(), removed.kinds["data"].entries), (2, 1));
    assert_eq!(info(&dir).unwrap().entries(), 0);
    assert_eq!(store.get(Kind::Index, "a"), None);
    store.put(Kind::Index, "a", b"again").unwrap();
    assert_eq!(store.get(Kind::Index, "a"), Some(b"again".to_vec()));
    std::fs::remove_dir_all(&dir).unwrap();
    let err = clear(&dir).unwrap_err().to_string();
    assert!(err.contains("an existing cache directory"), "{err}");
}

#[test]
fn the_directory_is_the_one_given_else_the_environment_unless_turned_off() {
    let given = CacheChoice::Dir(PathBuf::from("/tmp/x"));
    assert_eq!(given.dir(), Some(PathBuf::from("/tmp/x")));
    assert_eq!(CacheChoice::Off.dir(), None);
    // The environment is read only for FromEnv (not changed here: tests run in parallel).
    let from_env = std::env::var_os(CACHE_ENV).filter(|v| !v.is_empty()).map(PathBuf::from);
    assert_eq!(CacheChoice::FromEnv.dir(), from_env);
    assert!(CacheChoice::Off.resolve(None).unwrap().is_none());
}

#[test]
fn a_container_payload_round_trips_and_rebuilds_its_wire_form() {
    use containers::StoredContainer;
    let stored = StoredContainer {
        id: "2Z4p".into(),
        raw: vec![1, 2, 3, 0xaa, 0xbb, 0xcc, 0xdd],
        timestamp: "2024-01-01T00:00:00.123456789Z".into(),
        index: 42,
    };
    let payload = stored.encode();
    assert_eq!(StoredContainer::decode(&payload), Some(stored.clone()));
    assert_eq!(&*stored.wire().bytes, b"0x010203aabbccdd");
    assert_eq!(StoredContainer::decode(&payload[..5]), None);
    assert_eq!(containers::key("abc", crate::index::IndexPath::CBlock, 7), "index/abc/C/block/7");
}

#[test]
fn a_container_waits_until_a_later_one_proves_it_is_not_the_tip() {
    use crate::index::IndexPath;
    use containers::{Pending, StoredContainer};
    let c = |index: u64| StoredContainer { id: format!("c{index}"), raw: vec![0; 4], timestamp: "t".into(), index };
    let pending = Pending::default();
    // A full answer 0..3 with nothing known past it: 0..2 are proven, 3 waits.
    let out = pending.settle(IndexPath::XTx, (0..4).map(c).collect(), Some(3));
    assert_eq!(out.iter().map(|c| c.index).collect::<Vec<_>>(), vec![0, 1, 2]);
    // Another path proves nothing for X/tx.
    assert!(pending.settle(IndexPath::PBlock, vec![], Some(100)).is_empty());
    // The next chunk (4..7, and one more exists) proves 3 as well.
    let out = pending.settle(IndexPath::XTx, (4..8).map(c).collect(), Some(8));
    assert_eq!(out.iter().map(|c| c.index).collect::<Vec<_>>(), vec![3, 4, 5, 6, 7]);
    // An answer with nothing known about the tip keeps its containers waiting.
    let fresh = Pending::default();
    assert!(fresh.settle(IndexPath::CBlock, vec![c(0)], None).is_empty());
    assert_eq!(fresh.settle(IndexPath::CBlock, vec![], Some(0)).len(), 0, "the tip itself never");
    assert_eq!(fresh.settle(IndexPath::CBlock, vec![], Some(1)).len(), 1);
}
