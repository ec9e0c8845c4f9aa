//! Datasets: a walk written as a directory of Parquet files partitioned hive-style
//! (`DIR/chunk=<first index>/part.parquet`), with a manifest ([`manifest::Manifest`]) of the
//! partitions, their positions, row counts and content hashes.
//!
//! The rules: a partition is written to a hidden temporary file and renamed when whole, then
//! recorded in the manifest (itself replaced atomically), so an interrupted export leaves only
//! whole, recorded partitions under real names. A rerun into the same directory must be the same
//! walk (index path, decoding, chunk, schema); it skips every partition the manifest records as
//! holding all of its span whose file still has the recorded size and sha256, and writes the
//! others (partial, missing, altered) again. Partitions are aligned to multiples of `chunk`, so
//! a rerun after the tip moved rewrites only the last, partial one and adds the new ones. Each
//! position lives in exactly one partition.

pub mod lists;
pub mod manifest;
pub mod merge;
pub mod metrics;

use std::path::{Path, PathBuf};

use arrow_schema::SchemaRef;
use sha2::{Digest, Sha256};

use crate::arrow::decoded::DecodeMode;
use crate::error::{Error, Result};
use crate::index::IndexPath;
use manifest::{file_digest, io_error, partition_paths, verified, Identity, Manifest, Partition};

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

/// The identity of an index range dataset.
pub fn index_identity(path: IndexPath, decode: Option<DecodeMode>, chunk: u64, schema: &SchemaRef) -> Identity {
    let decode = match decode {
        None => "raw",
        Some(DecodeMode::Lenient) => "decoded",
        Some(DecodeMode::Strict) => "strict",
    };
    Identity {
        kind: "index_range".into(),
        source: path.as_str().into(),
        decode: decode.into(),
        chunk,
        schema: hex::encode(Sha256::digest(format!("{schema:?}").as_bytes())),
    }
}

/// A dataset directory open for writing.
pub struct Dataset {
    dir: PathBuf,
    key: String,
    manifest: Manifest,
}

impl Dataset {
    /// Opens (creating it when missing) the dataset directory `dir` of the walk `identity`,
    /// whose partitions are the hive directories `{key}={value}`.
    pub fn open(dir: &Path, key: &str, identity: Identity) -> Result<Self> {
        std::fs::create_dir_all(dir).map_err(|e| io_error(dir, e))?;
        let manifest = Manifest::open(dir, identity)?;
        Ok(Dataset { dir: dir.to_path_buf(), key: key.to_string(), manifest })
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

    /// Whether the partition `value` already holds every position of `[first, next)`, with its
    /// file as recorded.
    pub fn has(&self, value: u64, first: u64, next: u64) -> bool {
        self.manifest.partition(value).is_some_and(|p| p.covers(first, next) && verified(&self.dir, p))
    }

    /// Whether the partition `value` is recorded and its file is as recorded (complete or not).
    pub fn has_file(&self, value: u64) -> bool {
        self.manifest.partition(value).is_some_and(|p| verified(&self.dir, p))
    }

    /// The temporary file a partition is written to (its directory created).
    pub fn temp_path(&self, value: u64) -> Result<PathBuf> {
        let (_, path, tmp) = partition_paths(&self.dir, &self.key, value);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).map_err(|e| io_error(parent, e))?;
        }
        Ok(tmp)
    }

    /// Renames the written temporary file of partition `value` into place and records it:
    /// `rows` rows of `[first, next)`, `complete` or not.
    pub fn commit(&mut self, value: u64, first: u64, next: u64, rows: u64, complete: bool) -> Result<()> {
        let (file, path, tmp) = partition_paths(&self.dir, &self.key, value);
        std::fs::rename(&tmp, &path).map_err(|e| io_error(&path, e))?;
        let (bytes, sha256) = file_digest(&path)?;
        let key = self.key.clone();
        self.manifest.record(Partition { key, value, first, next, rows, file, bytes, sha256, complete });
        self.manifest.save(&self.dir)
    }

    /// Removes the temporary file of partition `value`, if any (after a failed write).
    pub fn discard(&self, value: u64) {
        let (_, _, tmp) = partition_paths(&self.dir, &self.key, value);
        let _ = std::fs::remove_file(tmp);
    }
}

#[cfg(test)]
mod tests;
