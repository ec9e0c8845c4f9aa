//! The cache directory: one file per entry under `{kind}/{hh}/{sha256(key)}`, published by a
//! unique temporary name, fsync and rename (so a reader, in this process or another, sees a
//! whole entry or none), and kept under its size bound by [`super::lru`]. The directory is the
//! cache's by [`super::layout`]'s rule (a marker with the layout's version; mode 0700 on POSIX),
//! checked when it is opened.

use std::io::ErrorKind;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::SystemTime;

use sha2::{Digest, Sha256};

use super::entry::{self, EntryError};
use super::kind::Kind;
use super::layout;
use super::lru;
use crate::dataset::durable::{sync_file, temp_beside};
use crate::error::{Error, Result};

/// An open cache directory with its size bound. Shared by the clients of one process; other
/// processes may use the same directory at the same time.
#[derive(Debug)]
pub struct Store {
    dir: PathBuf,
    max_bytes: u64,
    /// This process's estimate of the directory's size: scanned when opened and at each
    /// eviction, plus what this process wrote since.
    approx: AtomicU64,
}

impl Store {
    /// Opens the cache directory `dir`, bounded to `max_bytes`: made (mode 0700) when missing
    /// or empty, adopted when it is a cache of the previous layout, refused when it is not a
    /// cache ([`layout::claim`]).
    pub fn open(dir: &Path, max_bytes: u64) -> Result<Store> {
        if max_bytes == 0 {
            return Err(Error::invalid("cache_max_bytes", 0, "an integer >= 1 (bytes)"));
        }
        layout::claim(dir, "cache")?;
        let store = Store { dir: dir.to_path_buf(), max_bytes, approx: AtomicU64::new(0) };
        let size = lru::scan(dir)?.bytes();
        store.approx.store(size, Ordering::Relaxed);
        if size > max_bytes {
            store.evict()?;
        }
        Ok(store)
    }

    /// The cache directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The size bound in bytes.
    pub fn max_bytes(&self) -> u64 {
        self.max_bytes
    }

    /// The file of `key`.
    fn path_of(&self, kind: Kind, key: &str) -> PathBuf {
        let name = hex::encode(Sha256::digest(key.as_bytes()));
        self.dir.join(kind.name()).join(&name[..2]).join(name)
    }

    /// The payload stored under `key`, marking it recently used; `None` when absent. An entry
    /// that fails its checks (truncated, altered, another key's) is deleted, logged and missed.
    pub fn get(&self, kind: Kind, key: &str) -> Option<Vec<u8>> {
        let path = self.path_of(kind, key);
        let bytes = match std::fs::read(&path) {
            Ok(bytes) => bytes,
            Err(e) if e.kind() == ErrorKind::NotFound => return None,
            Err(e) => {
                log::warn!("cache {}: cannot read {}: {e}; fetching instead", self.dir.display(), path.display());
                return None;
            }
        };
        match entry::decode(key, &bytes) {
            Ok(payload) => {
                touch(&path);
                Some(payload.to_vec())
            }
            Err(EntryError::BadMagic) => {
                log::warn!("cache {}: {} is not a cache entry; left alone", self.dir.display(), path.display());
                None
            }
            Err(why) => {
                self.drop_damaged(kind, key, &why.to_string());
                None
            }
        }
    }

    /// Whether an entry of `key` is on disk, without reading it or marking it used (a cost
    /// plan counts what a walk will not ask for; a damaged entry, found on the walk's read, is
    /// fetched again, so a plan may be low by the damaged entries).
    pub fn holds(&self, kind: Kind, key: &str) -> bool {
        self.path_of(kind, key).is_file()
    }

    /// Deletes the entry of `key` because it is damaged (`why`), with a warning; a file there
    /// that does not start with the entry tag is not the cache's and is left alone.
    pub fn drop_damaged(&self, kind: Kind, key: &str, why: &str) {
        let path = self.path_of(kind, key);
        if !layout::has_entry_tag(&path) {
            return;
        }
        log::warn!("cache {}: dropping the entry {key}: {why}; fetching it again", self.dir.display());
        match std::fs::remove_file(&path) {
            Ok(()) => {}
            Err(e) if e.kind() == ErrorKind::NotFound => {}
            Err(e) => log::warn!("cache {}: cannot delete {}: {e}", self.dir.display(), path.display()),
        }
    }

    /// Stores `payload` under `key` (replacing any entry): written to a temporary name, flushed
    /// to the disk, renamed; then the size bound is enforced.
    pub fn put(&self, kind: Kind, key: &str, payload: &[u8]) -> Result<()> {
        let path = self.path_of(kind, key);
        let parent = path.parent().expect("an entry path has a parent");
        layout::create_dirs(parent)?;
        if path.exists() && !layout::has_entry_tag(&path) {
            return Err(Error::invalid_path(
                "cache",
                &path,
                "a cache entry's place: a file that is not the cache's is there, and is left alone",
            ));
        }
        let bytes = entry::encode(key, payload);
        let tmp = temp_beside(&path);
        let written = layout::write_private(&tmp, &bytes)
            .map_err(|e| Error::file(&tmp, &e))
            .and_then(|()| sync_file(&tmp))
            .and_then(|()| std::fs::rename(&tmp, &path).map_err(|e| Error::file(&path, &e)));
        if let Err(e) = written {
            let _ = std::fs::remove_file(&tmp);
            return Err(e);
        }
        let size = self.approx.fetch_add(bytes.len() as u64, Ordering::Relaxed) + bytes.len() as u64;
        if size > self.max_bytes {
            self.evict()?;
        }
        Ok(())
    }

    /// Brings the directory under its bound now, least recently used entries first.
    pub fn evict(&self) -> Result<()> {
        let left = lru::evict(&self.dir, lru::target(self.max_bytes))?;
        self.approx.store(left, Ordering::Relaxed);
        Ok(())
    }
}

/// Marks `path` as used now (its modification time orders eviction). An entry deleted
/// meanwhile by another process is not an error.
fn touch(path: &Path) {
    if let Ok(file) = std::fs::File::options().write(true).open(path) {
        let _ = file.set_modified(SystemTime::now());
    }
}
