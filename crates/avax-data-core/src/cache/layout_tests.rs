//! The cache owns only what it wrote: the marker, the refusal of directories that are not
//! caches, the adoption of the previous layout, modes and owners, and that scans, eviction and
//! `clear` leave every other file alone.

use std::path::{Path, PathBuf};

use super::layout::{self, MARKER};
use super::*;

fn fresh(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("avax-cache-layout-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn write(path: &Path, bytes: &[u8]) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, bytes).unwrap();
}

fn message(result: crate::error::Result<impl std::fmt::Debug>) -> String {
    result.unwrap_err().to_string()
}

#[test]
fn a_project_directory_is_refused_and_nothing_in_it_is_touched() {
    let dir = fresh("project");
    let survey = dir.join("data").join("raw").join("survey.csv");
    write(&survey, b"a,b\n1,2\n");
    let open = message(Store::open(&dir, DEFAULT_MAX_BYTES));
    assert!(open.starts_with(&format!("invalid cache={:?}", dir.display().to_string())), "{open}");
    assert!(
        open.contains(&dir.join("data").join("raw").display().to_string()),
        "names what is not the cache's: {open}"
    );
    assert!(open.contains(MARKER), "{open}");
    let clear_err = message(clear(&dir));
    assert!(clear_err.starts_with("invalid dir="), "{clear_err}");
    assert!(message(info(&dir)).contains("not a cache entry"));
    assert_eq!(std::fs::read(&survey).unwrap(), b"a,b\n1,2\n", "the user's file is still there");
    assert!(!dir.join(MARKER).exists() && !dir.join(lru::LOCK_FILE).exists(), "nothing written either");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_new_cache_is_marked_and_private() {
    use std::os::unix::fs::PermissionsExt;
    let dir = fresh("new").join("nested");
    let store = Store::open(&dir, DEFAULT_MAX_BYTES).unwrap();
    assert_eq!(std::fs::read_to_string(dir.join(MARKER)).unwrap(), "avax-data cache layout 2\n");
    store.put(Kind::Data, "k", b"payload").unwrap();
    let file = lru::scan(&dir).unwrap().entries[0].path.clone();
    let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
    for d in [dir.clone(), dir.join("data"), file.parent().unwrap().to_path_buf()] {
        assert_eq!(mode(&d), 0o700, "{}", d.display());
    }
    assert_eq!(mode(&file), 0o600);
    assert_eq!(mode(&dir.join(MARKER)), 0o600);
    // An empty directory the user made becomes a cache too, and private.
    let empty = fresh("empty");
    std::fs::create_dir_all(&empty).unwrap();
    std::fs::set_permissions(&empty, std::fs::Permissions::from_mode(0o755)).unwrap();
    Store::open(&empty, DEFAULT_MAX_BYTES).unwrap();
    assert_eq!(mode(&empty), 0o700);
    assert!(empty.join(MARKER).is_file());
    std::fs::remove_dir_all(dir.parent().unwrap()).unwrap();
    std::fs::remove_dir_all(&empty).unwrap();
}

#[test]
fn a_marker_of_a_newer_layout_or_an_unreadable_one_is_refused() {
    let dir = fresh("newer");
    Store::open(&dir, DEFAULT_MAX_BYTES).unwrap();
    std::fs::write(dir.join(MARKER), "avax-data cache layout 3\n").unwrap();
    let err = message(Store::open(&dir, DEFAULT_MAX_BYTES));
    assert!(err.contains("says version 3") && err.contains("newer avax-data"), "{err}");
    assert!(message(clear(&dir)).contains("says version 3"));
    std::fs::write(dir.join(MARKER), "something else").unwrap();
    assert!(message(Store::open(&dir, DEFAULT_MAX_BYTES)).contains("does not name a layout"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_cache_of_the_previous_layout_is_adopted_only_when_every_file_is_an_entry() {
    let dir = fresh("previous");
    let store = Store::open(&dir, DEFAULT_MAX_BYTES).unwrap();
    for k in 0..5 {
        store.put(Kind::Index, &format!("k{k}"), b"payload").unwrap();
    }
    super::hints::remember_identity(&store, "http://a", crate::index::IndexPath::XTx, "idA");
    drop(store);
    std::fs::remove_file(dir.join(MARKER)).unwrap();
    assert_eq!(layout::inspect(&dir, "cache").unwrap(), layout::State::PreviousLayout);
    assert_eq!(info(&dir).unwrap().entries(), 5, "counted before adoption, without writing");
    assert!(!dir.join(MARKER).exists());
    // A file that is not an entry (no tag) makes it a directory of someone else's.
    let stray = dir.join("index").join("ab").join("ab".to_string() + &"0".repeat(62));
    write(&stray, b"not an entry");
    let err = message(Store::open(&dir, DEFAULT_MAX_BYTES));
    assert!(err.contains(&stray.display().to_string()), "{err}");
    std::fs::remove_file(&stray).unwrap();
    let store = Store::open(&dir, DEFAULT_MAX_BYTES).unwrap();
    assert!(dir.join(MARKER).is_file(), "adopted: marked");
    assert_eq!(store.get(Kind::Index, "k3"), Some(b"payload".to_vec()));
    assert_eq!(info(&dir).unwrap().entries(), 5);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn scans_eviction_and_clear_touch_only_the_caches_own_entries() {
    let dir = fresh("foreign");
    let payload = vec![1u8; 1000];
    let one = entry::encode("k0", &payload).len() as u64;
    let store = Store::open(&dir, one * 100).unwrap();
    for k in 0..4 {
        store.put(Kind::Data, &format!("k{k}"), &payload).unwrap();
    }
    let shard = lru::scan(&dir).unwrap().entries[0].path.parent().unwrap().to_path_buf();
    let shard_name = shard.file_name().unwrap().to_string_lossy().into_owned();
    let hex_name = |first: &str| format!("{first}{}", "0".repeat(62));
    let old = std::time::SystemTime::now() - std::time::Duration::from_secs(7200);
    let tagged = entry::encode("x", &payload);
    let foreign = [
        (dir.join("README.md"), b"mine".to_vec()),
        (dir.join("data").join("notes.txt"), b"mine".to_vec()),
        (shard.join("survey.csv"), b"mine".to_vec()),
        // The right shape in the wrong shard, tagged: not the cache's.
        (shard.join(hex_name(if shard_name == "ff" { "ee" } else { "ff" })), tagged.clone()),
        // The right place, no tag.
        (shard.join(hex_name(&shard_name)), vec![9u8; 5000]),
        (dir.join("data").join("zz").join(hex_name("zz")), tagged.clone()),
        (dir.join("hints").join("notes.txt"), b"mine".to_vec()),
        (shard.join(".survey.csv.1-2.tmp"), b"mine".to_vec()),
    ];
    for (path, bytes) in &foreign {
        write(path, bytes);
        std::fs::File::options().write(true).open(path).unwrap().set_modified(old).unwrap();
    }
    let own_stale = shard.join(format!(".{}.7-1.tmp", hex_name(&shard_name)));
    write(&own_stale, b"half an entry");
    std::fs::File::options().write(true).open(&own_stale).unwrap().set_modified(old).unwrap();

    let counted = info(&dir).unwrap();
    assert_eq!((counted.entries(), counted.bytes()), (4, 4 * one), "only the four entries count");
    // Eviction down to one entry's room removes entries only (and the cache's stale temporary file).
    lru::evict(&dir, one).unwrap();
    assert_eq!(info(&dir).unwrap().entries(), 1);
    assert!(!own_stale.exists(), "the cache's own stale temporary file is removed");
    let cleared = clear(&dir).unwrap();
    assert_eq!(cleared.entries(), 1);
    assert_eq!(info(&dir).unwrap().entries(), 0);
    for (path, bytes) in &foreign {
        assert_eq!(&std::fs::read(path).unwrap(), bytes, "{} is left alone", path.display());
    }
    // A file at an entry's own place that is not the cache's is neither read, replaced nor deleted.
    let key = "owned";
    store.put(Kind::Data, key, b"v").unwrap();
    let place = lru::scan(&dir).unwrap().entries[0].path.clone();
    std::fs::write(&place, b"someone else's bytes, long enough for a header........").unwrap();
    assert_eq!(store.get(Kind::Data, key), None);
    store.drop_damaged(Kind::Data, key, "test");
    assert!(store.put(Kind::Data, key, b"v").is_err());
    assert_eq!(std::fs::read(&place).unwrap(), b"someone else's bytes, long enough for a header........");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_directory_of_another_user_is_refused() {
    // SAFETY: geteuid has no preconditions.
    if unsafe { libc::geteuid() } != 0 {
        eprintln!("skipped: only root can give a directory to another user");
        return;
    }
    let dir = fresh("owner");
    Store::open(&dir, DEFAULT_MAX_BYTES).unwrap();
    std::os::unix::fs::chown(&dir, Some(54_321), None).unwrap();
    let err = message(Store::open(&dir, DEFAULT_MAX_BYTES));
    assert!(err.contains("owned by uid 54321"), "{err}");
    assert!(message(clear(&dir)).contains("owned by uid 54321"));
    std::os::unix::fs::chown(&dir, Some(0), None).unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
}
