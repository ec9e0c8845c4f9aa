//! Keeping a cache directory under its bound: a scan of its entries, and eviction of the least
//! recently used ones (oldest modification time first; a hit refreshes it) under the
//! directory's lock, so two processes never evict at once. The same lock serves `clear`.

use std::collections::BTreeMap;
use std::fs::{File, OpenOptions};
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use super::kind::Kind;
use crate::dataset::durable::is_temp_name;
use crate::error::{Error, Result};

/// The lock file of a cache directory (never removed; locked while evicting or clearing).
pub const LOCK_FILE: &str = ".lock";

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

/// Lists the entries of the cache directory `dir` (missing: none).
pub fn scan(dir: &Path) -> Result<Scan> {
    let mut out = Scan::default();
    let now = SystemTime::now();
    for kind in Kind::ALL {
        let root = dir.join(kind.name());
        for shard in read_dir(&root)? {
            if !shard.is_dir() {
                continue;
            }
            for path in read_dir(&shard)? {
                let Ok(meta) = std::fs::metadata(&path) else { continue };
                let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
                let used = meta.modified().unwrap_or(SystemTime::UNIX_EPOCH);
                if is_temp_name(&name) {
                    if now.duration_since(used).is_ok_and(|age| age > STALE_TEMP) {
                        out.stale.push(path);
                    }
                } else if meta.is_file() {
                    out.entries.push(Found { path, kind, bytes: meta.len(), used });
                }
            }
        }
    }
    Ok(out)
}

/// The paths in `dir`; a directory that does not exist (or was just removed) has none.
fn read_dir(dir: &Path) -> Result<Vec<PathBuf>> {
    match std::fs::read_dir(dir) {
        Ok(entries) => Ok(entries.filter_map(|e| e.ok().map(|e| e.path())).collect()),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Vec::new()),
        Err(e) => Err(Error::file(dir, &e)),
    }
}

/// Holds the lock of a cache directory (waiting for another process's eviction to end).
fn lock(dir: &Path) -> Result<File> {
    let path = dir.join(LOCK_FILE);
    let file = OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .open(&path)
        .map_err(|e| Error::file(&path, &e))?;
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

/// What the cache directory `dir` holds (a directory that does not exist holds nothing).
pub fn info(dir: &Path) -> Result<Info> {
    let mut out = Info::default();
    for kind in Kind::ALL {
        out.kinds.insert(kind.name(), KindInfo::default());
    }
    for entry in scan(dir)?.entries {
        let k = out.kinds.entry(entry.kind.name()).or_default();
        k.entries += 1;
        k.bytes += entry.bytes;
    }
    Ok(out)
}

/// Deletes every entry of the cache directory `dir` under its lock; returns what was deleted.
pub fn clear(dir: &Path) -> Result<Info> {
    if !dir.is_dir() {
        return Err(Error::invalid("dir", format!("{:?}", dir.display().to_string()), "an existing cache directory"));
    }
    let _lock = lock(dir)?;
    let before = info(dir)?;
    let roots = Kind::ALL.iter().map(|k| dir.join(k.name())).chain([dir.join(super::kind::HINTS_DIR)]);
    for root in roots {
        match std::fs::remove_dir_all(&root) {
            Ok(()) => {}
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => return Err(Error::file(&root, &e)),
        }
    }
    Ok(before)
}
