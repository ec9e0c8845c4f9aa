//! The manifest of a dataset directory (`_avax_dataset.json`): what walk wrote it and which
//! partitions it holds, with their positions, row counts and content hashes.

use std::io::Read;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::error::{Error, Result};

/// The manifest's file name inside the dataset directory.
pub const MANIFEST: &str = "_avax_dataset.json";

/// The version of the manifest's layout.
pub const MANIFEST_VERSION: u32 = 1;

/// What a dataset holds: a rerun into the same directory must be the same walk.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Identity {
    /// The kind of walk (`index_range`).
    pub kind: String,
    /// The walk's source (an index path such as `X/tx`).
    pub source: String,
    /// `raw`, `decoded` or `strict`.
    pub decode: String,
    /// Indices per partition.
    pub chunk: u64,
    /// sha256 of the Arrow schema's text: a changed schema is another dataset.
    pub schema: String,
}

/// One partition: a hive directory `key=value` holding `file`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Partition {
    /// The hive key (`chunk`).
    pub key: String,
    /// The hive value: the first index of the chunk.
    pub value: u64,
    /// The first position the file holds.
    pub first: u64,
    /// The position after the last one it holds.
    pub next: u64,
    /// Rows in the file.
    pub rows: u64,
    /// The file, relative to the dataset directory.
    pub file: String,
    /// The file's size in bytes.
    pub bytes: u64,
    /// sha256 of the file, hex.
    pub sha256: String,
    /// It holds all of `[first, next)`: every index of its span, or every point of a window
    /// that had ended when it was written.
    pub complete: bool,
}

impl Partition {
    /// Whether it is complete over a span holding `[first, next)`.
    pub fn covers(&self, first: u64, next: u64) -> bool {
        self.complete && self.first <= first && next <= self.next
    }
}

/// The manifest of one dataset directory.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Manifest {
    /// [`MANIFEST_VERSION`].
    pub version: u32,
    /// The walk that wrote it.
    pub identity: Identity,
    /// Its partitions, by hive value.
    pub partitions: Vec<Partition>,
    /// For a newest-first list ([`super::lists`]): the hive value of the lowest partition when a
    /// walk last reached the end of the list (absent otherwise).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub end: Option<u64>,
}

impl Manifest {
    /// The manifest of `dir` for `identity`: read when present (and then of the same walk, or
    /// an error naming what differs), empty otherwise.
    pub fn open(dir: &Path, identity: Identity) -> Result<Self> {
        let path = dir.join(MANIFEST);
        let text = match std::fs::read_to_string(&path) {
            Ok(text) => text,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return Ok(Manifest { version: MANIFEST_VERSION, identity, partitions: Vec::new(), end: None })
            }
            Err(e) => return Err(io_error(&path, e)),
        };
        let found: Manifest = serde_json::from_str(&text).map_err(|e| {
            Error::invalid(
                "dataset",
                dir.display(),
                format!("a dataset directory ({} is not a manifest: {e})", MANIFEST),
            )
        })?;
        if found.version != MANIFEST_VERSION {
            return Err(Error::invalid(
                "dataset",
                dir.display(),
                format!("a dataset of manifest version {MANIFEST_VERSION} (found {})", found.version),
            ));
        }
        if found.identity != identity {
            return Err(Error::invalid(
                "dataset",
                dir.display(),
                format!(
                    "a directory of the same walk ({}; it holds {})",
                    describe(&identity),
                    describe(&found.identity)
                ),
            ));
        }
        Ok(found)
    }

    /// The partition of hive value `value`, if recorded.
    pub fn partition(&self, value: u64) -> Option<&Partition> {
        self.partitions.iter().find(|p| p.value == value)
    }

    /// Records `partition` (replacing the one of the same value), in value order.
    pub fn record(&mut self, partition: Partition) {
        self.partitions.retain(|p| p.value != partition.value);
        let at = self.partitions.partition_point(|p| p.value < partition.value);
        self.partitions.insert(at, partition);
    }

    /// Writes the manifest into `dir` atomically (a temporary file renamed over it).
    pub fn save(&self, dir: &Path) -> Result<()> {
        let text = serde_json::to_string_pretty(self).map_err(|e| Error::Internal(e.to_string()))?;
        let (tmp, path) = (dir.join(format!(".{MANIFEST}.tmp")), dir.join(MANIFEST));
        std::fs::write(&tmp, text).map_err(|e| io_error(&tmp, e))?;
        std::fs::rename(&tmp, &path).map_err(|e| io_error(&path, e))
    }
}

fn describe(identity: &Identity) -> String {
    format!(
        "{} of {}, decode {}, chunk {}, schema {}",
        identity.kind,
        identity.source,
        identity.decode,
        identity.chunk,
        &identity.schema[..identity.schema.len().min(12)]
    )
}

/// The size and sha256 (hex) of a file.
pub fn file_digest(path: &Path) -> Result<(u64, String)> {
    let mut file = std::fs::File::open(path).map_err(|e| io_error(path, e))?;
    let mut hasher = Sha256::new();
    let mut buffer = vec![0u8; 1 << 16];
    let mut size = 0u64;
    loop {
        let n = file.read(&mut buffer).map_err(|e| io_error(path, e))?;
        if n == 0 {
            break;
        }
        size += n as u64;
        hasher.update(&buffer[..n]);
    }
    Ok((size, hex::encode(hasher.finalize())))
}

/// Whether `partition`'s file in `dir` is there with the size and hash the manifest recorded.
pub fn verified(dir: &Path, partition: &Partition) -> bool {
    file_digest(&dir.join(&partition.file))
        .is_ok_and(|(bytes, sha256)| bytes == partition.bytes && sha256 == partition.sha256)
}

/// An I/O error naming the path.
pub fn io_error(path: &Path, e: std::io::Error) -> Error {
    Error::file(path, &e)
}

/// The path of a partition's file and of the temporary file it is written to: the hive
/// directory `{key}={value}` (`key` may hold outer levels, e.g. `chain=43114/month`).
pub fn partition_paths(dir: &Path, key: &str, value: u64) -> (String, PathBuf, PathBuf) {
    let file = format!("{key}={value}/part.parquet");
    let final_path = dir.join(&file);
    let tmp = dir.join(format!("{key}={value}/.part.parquet.tmp"));
    (file, final_path, tmp)
}
