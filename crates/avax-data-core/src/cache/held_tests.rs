//! The count of what the cache holds of an index range, against entries put on disk.

use super::containers::key;
use super::held::{index_range, RangeHeld};
use super::{Kind, Store, DEFAULT_MAX_BYTES};
use crate::index::IndexPath;

fn store(name: &str) -> (std::path::PathBuf, Store) {
    let dir = std::env::temp_dir().join(format!("avax-cache-held-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let store = Store::open(&dir, DEFAULT_MAX_BYTES).unwrap();
    (dir, store)
}

fn put(store: &Store, chain: &str, positions: impl IntoIterator<Item = u64>) {
    for i in positions {
        store.put(Kind::Index, &key(chain, IndexPath::XTx, i), b"x").unwrap();
    }
}

#[test]
fn a_chunk_is_served_from_the_disk_up_to_its_first_missing_position() {
    let (dir, store) = store("runs");
    put(&store, "chainA", 0..250);
    // [0, 300) in calls of 100: two whole chunks held, the third up to 250.
    assert_eq!(index_range(&store, "chainA", IndexPath::XTx, 0, 300, 100), RangeHeld { cached_items: 250, calls: 1 });
    assert_eq!(index_range(&store, "chainA", IndexPath::XTx, 0, 200, 100), RangeHeld { cached_items: 200, calls: 0 });
    // A hole at 10: the walk asks for 10..100 in one call, though 11..100 are held.
    store.drop_damaged(Kind::Index, &key("chainA", IndexPath::XTx, 10), "a test hole");
    assert_eq!(index_range(&store, "chainA", IndexPath::XTx, 0, 100, 100), RangeHeld { cached_items: 10, calls: 1 });
    // Another chain's identity, another path: nothing held.
    assert_eq!(index_range(&store, "chainB", IndexPath::XTx, 0, 100, 100), RangeHeld { cached_items: 0, calls: 1 });
    assert_eq!(index_range(&store, "chainA", IndexPath::XBlock, 100, 200, 50), RangeHeld { cached_items: 0, calls: 2 });
    assert_eq!(index_range(&store, "chainA", IndexPath::XTx, 5, 5, 50), RangeHeld::default());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn an_identity_hint_round_trips_per_url_and_path_and_clear_removes_it() {
    let (dir, store) = store("hints");
    assert_eq!(super::hints::identity(&store, "http://a", IndexPath::XTx), None);
    super::hints::remember_identity(&store, "http://a", IndexPath::XTx, "idA");
    super::hints::remember_identity(&store, "http://b", IndexPath::XTx, "idB");
    assert_eq!(super::hints::identity(&store, "http://a", IndexPath::XTx).as_deref(), Some("idA"));
    assert_eq!(super::hints::identity(&store, "http://b", IndexPath::XTx).as_deref(), Some("idB"));
    assert_eq!(super::hints::identity(&store, "http://a", IndexPath::CBlock), None);
    super::hints::remember_identity(&store, "http://a", IndexPath::XTx, "idA2");
    assert_eq!(super::hints::identity(&store, "http://a", IndexPath::XTx).as_deref(), Some("idA2"));
    assert_eq!(super::info(&dir).unwrap().entries(), 0, "hints are not entries");
    super::clear(&dir).unwrap();
    assert_eq!(super::hints::identity(&store, "http://a", IndexPath::XTx), None);
    std::fs::remove_dir_all(&dir).unwrap();
}
