//! Datasets: a walk written as a directory of Parquet files partitioned hive-style
//! (`DIR/chunk=<first index>/part.parquet`), with a manifest ([`manifest::Manifest`]) of the
//! partitions, their positions, row counts and content hashes.
//!
//! The rules:
//! - One writer at a time: every writer (a range, a list, a metric series, a merge) first takes
//!   the directory's lock ([`lock`]), or fails at once with [`Error::DatasetLocked`] naming the
//!   holder, before any request. Holding it, it removes the temporary files an interrupted writer
//!   left.
//! - A partition is written to a hidden temporary file of a unique name, fsynced, renamed into
//!   place, and the directory fsynced; only then is it recorded in the manifest, which is
//!   published the same way and is the last thing written ([`durable`]). So after a crash or a
//!   power loss the manifest names only whole files; a file the manifest does not name yet is
//!   written again by the rerun.
//! - A dataset is bound to its source ([`manifest::Origin`]: the network of an index, named by
//!   its container 0; the base URL of a Data or Metrics API service). A write from another source
//!   is refused with an error naming both, before any file is touched; a dataset an earlier
//!   version wrote (no source recorded) takes the source of its next write.
//! - A rerun into the same directory must be the same walk (index path, decoding, chunk,
//!   schema by its canonical text, [`schema_key`]); it skips every partition the manifest records as holding all of its span whose file
//!   still has the recorded size and modification time (the fast check; [`verify`] checks every
//!   sha256), and writes the others (partial, missing, altered) again. Partitions are aligned to
//!   multiples of `chunk`, so a rerun after the tip moved rewrites only the last, partial one and
//!   adds the new ones. Each position lives in exactly one partition.

pub mod durable;
pub mod findings;
pub mod lists;
pub mod lock;
pub mod manifest;
pub mod merge;
pub mod metrics;
pub mod planned;
pub mod planned_lists;
pub mod planned_metrics;
pub mod ranged;
pub mod schema_key;
pub mod verify;

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use arrow_schema::SchemaRef;

use crate::arrow::decoded::DecodeMode;
use crate::error::{Error, Result};
use crate::index::IndexPath;
use durable::{crash_point, is_temp_name, publish, sync_dir, temp_beside};
use lock::DatasetLock;
use manifest::{file_digest, file_stat, io_error, partition_path, unchanged, Manifest, Origin, Partition, WalkKey};

/// Indices per partition by default.
pub const DEFAULT_CHUNK: u64 = 100_000;

/// The hive key of index range partitions.
pub const INDEX_KEY: &str = "chunk";

/// What an export did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct DatasetSummary {
    /// Partitions written by this run.
    pub partitions_written: u64,
    /// Partitions a previous run completed, left as they were.
    pub partitions_skipped: u64,
    /// Rows written by this run.
    pub rows_written: u64,
    /// Rows of the skipped partitions.
    pub rows_skipped: u64,
}

/// `chunk` checked ([`check_chunk`]), [`DEFAULT_CHUNK`] when not given.
pub fn chunk_or_default(chunk: Option<u64>) -> Result<u64> {
    let chunk = chunk.unwrap_or(DEFAULT_CHUNK);
    check_chunk(chunk)?;
    Ok(chunk)
}

/// Checks a partition size: at least one position.
pub fn check_chunk(chunk: u64) -> Result<()> {
    if chunk == 0 {
        return Err(Error::invalid("chunk", chunk, "an int >= 1 (positions per partition)"));
    }
    Ok(())
}

/// The spans of `[start, end)` cut at multiples of `chunk`: `(hive value, first, next)`.
pub fn plan(start: u64, end: u64, chunk: u64) -> Result<Vec<(u64, u64, u64)>> {
    check_chunk(chunk)?;
    let mut spans = Vec::new();
    let mut first = start;
    while first < end {
        let value = first - first % chunk;
        let next = value.checked_add(chunk).map_or(end, |boundary| boundary.min(end));
        spans.push((value, first, next));
        first = next;
    }
    Ok(spans)
}

/// The walk key of an index range dataset.
pub fn index_walk_key(path: IndexPath, decode: Option<DecodeMode>, chunk: u64, schema: &SchemaRef) -> WalkKey {
    let decode = decode.map_or("raw", DecodeMode::name);
    WalkKey {
        kind: "index_range".into(),
        source: path.as_str().into(),
        decode: decode.into(),
        chunk,
        schema: schema_key::digest(schema),
        legacy_schema: Some(schema_key::legacy_digest(schema)),
    }
}

/// The walk key of a Data or Metrics API list dataset of `kind` holding the raw rows of
/// `resource` read from `source`, `chunk` positions a partition (0: months).
pub fn raw_walk_key(kind: &str, source: &str, resource: crate::arrow::Resource, chunk: u64) -> WalkKey {
    let schema = resource.schema();
    WalkKey {
        kind: kind.into(),
        source: source.into(),
        decode: "raw".into(),
        chunk,
        schema: schema_key::digest(&schema),
        legacy_schema: Some(schema_key::legacy_digest(&schema)),
    }
}

/// A dataset directory open for writing, its lock held until it is dropped.
pub struct Dataset {
    dir: PathBuf,
    key: String,
    manifest: Manifest,
    /// The temporary file each partition being written goes to.
    temps: HashMap<u64, PathBuf>,
    /// Whether [`Dataset::bind`] checked the write's origin: nothing is written before.
    bound: bool,
    _lock: DatasetLock,
}

impl Dataset {
    /// Opens (creating it when missing) the dataset directory `dir` of `walk` read from
    /// `origin`, whose partitions are the hive directories `{key}={value}`: [`Dataset::lock`],
    /// then [`Dataset::bind`].
    pub fn open(dir: &Path, key: &str, walk: WalkKey, origin: Option<&Origin>) -> Result<Self> {
        let mut set = Dataset::lock(dir, key, walk)?;
        set.bind(origin)?;
        Ok(set)
    }

    /// The first half of [`Dataset::open`], for a writer that learns its origin by a request
    /// (an index's container 0) and must hold the lock before any: takes the lock (or fails
    /// with [`Error::DatasetLocked`]) and reads the manifest (of the same walk, or an error).
    /// Nothing is written until [`Dataset::bind`].
    pub fn lock(dir: &Path, key: &str, walk: WalkKey) -> Result<Self> {
        std::fs::create_dir_all(dir).map_err(|e| io_error(dir, e))?;
        let lock = DatasetLock::acquire(dir)?;
        let manifest = Manifest::open(dir, walk)?;
        let (dir, key, temps) = (dir.to_path_buf(), key.to_string(), HashMap::new());
        Ok(Dataset { dir, key, manifest, temps, bound: false, _lock: lock })
    }

    /// Checks the write's `origin` against the dataset's ([`Manifest::bind_origin`]: another is
    /// refused, before any file is touched; a dataset without one takes it), then removes the
    /// temporary files an interrupted writer left.
    pub fn bind(&mut self, origin: Option<&Origin>) -> Result<()> {
        if self.manifest.bind_origin(&self.dir, origin)? && !self.manifest.partitions.is_empty() {
            self.manifest.save(&self.dir)?;
        }
        remove_temporaries(&self.dir)?;
        self.bound = true;
        Ok(())
    }

    /// The manifest as it stands.
    pub fn manifest(&self) -> &Manifest {
        &self.manifest
    }

    /// The dataset directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Records (and saves) the hive value of the lowest partition of a newest-first walk that
    /// reached the end of its list ([`Manifest::end`]).
    pub fn set_end(&mut self, end: Option<u64>) -> Result<()> {
        self.manifest.end = end;
        self.manifest.save(&self.dir)
    }

    /// Records the digest of a ranged list's newest item ([`Manifest::head`]), saved with the next
    /// [`Dataset::commit`] (its newest partition's: both or neither).
    pub fn set_head(&mut self, head: Option<String>) {
        self.manifest.head = head;
    }

    /// Whether the partition `value` already holds every position of `[first, next)`, with its
    /// file as recorded (the fast check: size and modification time).
    pub fn has(&self, value: u64, first: u64, next: u64) -> bool {
        self.manifest.held(&self.dir, value, first, next).is_some()
    }

    /// Whether the partition `value` is recorded and its file is as recorded (complete or not).
    pub fn has_file(&self, value: u64) -> bool {
        self.manifest.partition(value).is_some_and(|p| unchanged(&self.dir, p))
    }

    /// A new temporary file for partition `value` to be written to (a unique name, its hive
    /// directory created and made durable).
    pub fn temp_path(&mut self, value: u64) -> Result<PathBuf> {
        if !self.bound {
            return Err(Error::Internal(format!(
                "dataset {}: written before its origin was checked",
                self.dir.display()
            )));
        }
        let (_, path) = partition_path(&self.dir, &self.key, value);
        if let Some(parent) = path.parent() {
            if !parent.is_dir() {
                std::fs::create_dir_all(parent).map_err(|e| io_error(parent, e))?;
                // the new hive directories' names, up to the dataset directory
                for dir in parent.ancestors().skip(1).take_while(|d| d.starts_with(&self.dir)) {
                    sync_dir(dir)?;
                }
            }
        }
        let tmp = temp_beside(&path);
        if let Some(old) = self.temps.insert(value, tmp.clone()) {
            let _ = std::fs::remove_file(old);
        }
        Ok(tmp)
    }

    /// Publishes the written temporary file of partition `value` (fsync, rename, directory
    /// fsync) and then records it in the manifest: `rows` rows of `[first, next)`, `complete` or
    /// not.
    pub fn commit(&mut self, value: u64, first: u64, next: u64, rows: u64, complete: bool) -> Result<()> {
        let tmp = self
            .temps
            .remove(&value)
            .ok_or_else(|| Error::Internal(format!("partition {value} committed without a temporary file")))?;
        let (file, path) = partition_path(&self.dir, &self.key, value);
        crash_point("partition-written");
        if let Err(e) = publish(&tmp, &path, "partition") {
            let _ = std::fs::remove_file(&tmp);
            return Err(e);
        }
        let (bytes, sha256) = file_digest(&path)?;
        let (_, mtime_ns) = file_stat(&path)?;
        let (key, origin) = (self.key.clone(), self.manifest.origin.clone());
        self.manifest.record(Partition {
            key,
            value,
            first,
            next,
            rows,
            file,
            bytes,
            sha256,
            mtime_ns,
            complete,
            origin,
        });
        self.manifest.save(&self.dir)
    }

    /// Removes the temporary file of partition `value`, if any (after a failed write).
    pub fn discard(&mut self, value: u64) {
        if let Some(tmp) = self.temps.remove(&value) {
            let _ = std::fs::remove_file(tmp);
        }
    }
}

impl Drop for Dataset {
    fn drop(&mut self) {
        for tmp in self.temps.values() {
            let _ = std::fs::remove_file(tmp);
        }
    }
}

/// Removes the temporary files (see [`durable::is_temp_name`]) in `dir` and its hive
/// directories: left by a writer that was killed, they belong to nobody once the lock is held.
fn remove_temporaries(dir: &Path) -> Result<()> {
    let mut removed = Vec::new();
    let mut todo = vec![dir.to_path_buf()];
    while let Some(at) = todo.pop() {
        let entries = std::fs::read_dir(&at).map_err(|e| io_error(&at, e))?;
        for entry in entries.flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            let is_dir = entry.file_type().is_ok_and(|t| t.is_dir());
            if is_dir && name.contains('=') {
                todo.push(entry.path());
            } else if !is_dir && is_temp_name(&name) {
                let path = entry.path();
                std::fs::remove_file(&path).map_err(|e| io_error(&path, e))?;
                removed.push(path.display().to_string());
            }
        }
    }
    if !removed.is_empty() {
        removed.sort();
        log::warn!(
            "dataset {}: removed {} temporary file(s) an interrupted writer left: {}",
            dir.display(),
            removed.len(),
            removed.join(", ")
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests;

#[cfg(test)]
mod planned_tests;
