//! Keeping a cache directory under its bound: a scan of its entries, and eviction of the least
//! recently used ones (oldest modification time first; a hit refreshes it) under the
//! directory's lock, so two processes never evict at once. The same lock serves `clear`. A scan
//! finds only what the cache can prove it wrote ([`super::layout`]): every other file is left
//! alone, neither counted nor deleted.

use std::collections::BTreeMap;
use std::fs::{File, OpenOptions};
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use super::kind::{Kind, HINTS_DIR};
use super::layout::{self, children, is_own_entry, is_own_temp, State};
use crate::error::{Error, Result};

pub use super::layout::LOCK_FILE;

/// A temporary file older than this was left by a writer that died; eviction removes it.
const STALE_TEMP: Duration = Duration::from_secs(3600);

/// The size eviction brings a directory down to: 90% of the bound, so that the next writes
/// do not evict one entry each.
pub fn target(max_bytes: u64) -> u64 {
    max_bytes - max_bytes / 10
}

/// One entry file found by a scan.
#[derive(Debug, Clone)]
pub struct Found {
    /// Its path.
    pub path: PathBuf,
    /// What it holds.
    pub kind: Kind,
    /// Its size in bytes.
    pub bytes: u64,
    /// When it was last written or read.
    pub used: SystemTime,
}

/// What a scan found: the entries, and temporary files of writers that died.
#[derive(Debug, Default)]
pub struct Scan {
    /// Every entry.
    pub entries: Vec<Found>,
    /// Temporary files older than an hour.
    pub stale: Vec<PathBuf>,
}

impl Scan {
    /// The total size of the entries.
    pub fn bytes(&self) -> u64 {
        self.entries.iter().map(|e| e.bytes).sum()
    }
}

/// Whether a file last changed at `used` is a temporary file a dead writer left.
fn is_stale(now: SystemTime, used: SystemTime) -> bool {
    now.duration_since(used).is_ok_and(|age| age > STALE_TEMP)
}

/// Lists the entries of the cache directory `dir` (missing: none): the files at
/// `{kind}/{hh}/{sha256 hex}` that start with the entry tag, and the cache's own temporary files
/// there older than an hour. Nothing else is listed.
pub fn scan(dir: &Path) -> Result<Scan> {
    let mut out = Scan::default();
    let now = SystemTime::now();
    for kind in Kind::ALL {
        for (shard, shard_path) in children(&dir.join(kind.name()))? {
            if !shard_path.is_dir() || shard_path.is_symlink() {
                continue;
            }
            for (name, path) in children(&shard_path)? {
                let Ok(meta) = std::fs::symlink_metadata(&path) else { continue };
                if !meta.is_file() {
                    continue;
                }
                let used = meta.modified().unwrap_or(SystemTime::UNIX_EPOCH);
                if is_own_temp(&name, None) {
                    if is_stale(now, used) {
                        out.stale.push(path);
                    }
                } else if is_own_entry(&path, &name, Some(&shard)) {
                    out.entries.push(Found { path, kind, bytes: meta.len(), used });
                }
            }
        }
    }
    Ok(out)
}

/// The plan hints ([`super::hints`]) of `dir` the cache wrote, and their stale temporary files.
fn scan_hints(dir: &Path) -> Result<Vec<PathBuf>> {
    let now = SystemTime::now();
    let mut out = Vec::new();
    for (name, path) in children(&dir.join(HINTS_DIR))? {
        let Ok(meta) = std::fs::symlink_metadata(&path) else { continue };
        let used = meta.modified().unwrap_or(SystemTime::UNIX_EPOCH);
        let own = if is_own_temp(&name, None) { is_stale(now, used) } else { is_own_entry(&path, &name, None) };
        if meta.is_file() && own {
            out.push(path);
        }
    }
    Ok(out)
}

/// Holds the lock of a cache directory (waiting for another process's eviction to end).
fn lock(dir: &Path) -> Result<File> {
    let path = dir.join(LOCK_FILE);
    let mut options = OpenOptions::new();
    options.read(true).write(true).create(true).truncate(false);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    let file = options.open(&path).map_err(|e| Error::file(&path, &e))?;
    file.lock().map_err(|e| Error::file(&path, &e))?;
    Ok(file)
}

/// Deletes the least recently used entries of `dir` until at most `target` bytes are left (and
/// stale temporary files); returns the bytes left.
pub fn evict(dir: &Path, target: u64) -> Result<u64> {
    let _lock = lock(dir)?;
    let mut scan = scan(dir)?;
    for path in &scan.stale {
        let _ = std::fs::remove_file(path);
    }
    let mut left = scan.bytes();
    if left <= target {
        return Ok(left);
    }
    scan.entries.sort_by_key(|e| e.used);
    let mut evicted = 0u64;
    for entry in &scan.entries {
        if left <= target {
            break;
        }
        match std::fs::remove_file(&entry.path) {
            Ok(()) => {}
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => return Err(Error::file(&entry.path, &e)),
        }
        left -= entry.bytes;
        evicted += 1;
    }
    log::debug!("cache {}: evicted {evicted} least recently used entries, {left} bytes left", dir.display());
    Ok(left)
}

/// The entries and bytes of one kind.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct KindInfo {
    /// Entries.
    pub entries: u64,
    /// Bytes on disk.
    pub bytes: u64,
}

/// What a cache directory holds, by kind.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Info {
    /// Entries and bytes per kind name (`index`, `metrics`, `data`; every kind listed).
    pub kinds: BTreeMap<&'static str, KindInfo>,
}

impl Info {
    /// All entries.
    pub fn entries(&self) -> u64 {
        self.kinds.values().map(|k| k.entries).sum()
    }

    /// All bytes.
    pub fn bytes(&self) -> u64 {
        self.kinds.values().map(|k| k.bytes).sum()
    }
}

/// What the cache directory `dir` holds: its entries only (a missing or empty directory holds
/// nothing). A directory that is not a cache (another user's, a newer layout's, or one holding
/// other files without the cache's marker) is refused, naming it.
pub fn info(dir: &Path) -> Result<Info> {
    let mut out = Info::default();
    for kind in Kind::ALL {
        out.kinds.insert(kind.name(), KindInfo::default());
    }
    if matches!(layout::inspect(dir, "dir")?, State::Missing | State::Empty) {
        return Ok(out);
    }
    count(&mut out, &scan(dir)?);
    Ok(out)
}

/// Adds the entries of `scan` to `out`, by kind.
fn count(out: &mut Info, scan: &Scan) {
    for entry in &scan.entries {
        let k = out.kinds.entry(entry.kind.name()).or_default();
        k.entries += 1;
        k.bytes += entry.bytes;
    }
}

/// Deletes every entry of the cache directory `dir` (and its plan hints and stale temporary
/// files) under its lock; returns what was deleted. Only files the cache can prove it wrote are
/// deleted, then the directories of its layout left empty; a directory that is not a cache is
/// refused, naming it, and nothing in it is touched.
pub fn clear(dir: &Path) -> Result<Info> {
    let mut out = Info::default();
    for kind in Kind::ALL {
        out.kinds.insert(kind.name(), KindInfo::default());
    }
    match layout::inspect(dir, "dir")? {
        State::Missing => return Err(Error::invalid_path("dir", dir, "an existing cache directory")),
        State::Empty => return Ok(out),
        State::Marked | State::PreviousLayout => {}
    }
    let _lock = lock(dir)?;
    let scan = scan(dir)?;
    count(&mut out, &scan);
    let doomed = scan.entries.iter().map(|e| e.path.clone()).chain(scan.stale).chain(scan_hints(dir)?);
    for path in doomed {
        match std::fs::remove_file(&path) {
            Ok(()) => {}
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => return Err(Error::file(&path, &e)),
        }
    }
    // The layout's directories where nothing is left (one that still holds something stays).
    for root in Kind::ALL.iter().map(|k| dir.join(k.name())) {
        for (_, shard) in children(&root)? {
            let _ = std::fs::remove_dir(shard);
        }
        let _ = std::fs::remove_dir(root);
    }
    let _ = std::fs::remove_dir(dir.join(HINTS_DIR));
    Ok(out)
}
