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

/// Which walk a dataset holds: a rerun into the same directory must be the same walk (the
/// kind, the path or series walked, the decoding, the partition size and the schema). Where its
/// rows come from is its [`Origin`].
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct WalkKey {
    /// The kind of walk (`index_range`).
    pub kind: String,
    /// The walk's source (an index path such as `X/tx`).
    pub source: String,
    /// `raw`, `decoded` or `strict`.
    pub decode: String,
    /// Indices per partition.
    pub chunk: u64,
    /// sha256 of the Arrow schema's canonical text ([`super::schema_key`]): a changed schema
    /// is another dataset.
    pub schema: String,
    /// The digest manifests of versions before the canonical text recorded for the same schema
    /// (sha256 of its `Debug` text, [`super::schema_key::legacy_digest`]): such a manifest is of
    /// this walk, and its next save records [`WalkKey::schema`]. Never stored.
    #[serde(skip)]
    pub legacy_schema: Option<String>,
}

impl WalkKey {
    /// Whether `found` (read from a manifest) is this walk: every field the same, the schema
    /// by its canonical digest or, for a manifest of an earlier version, by the legacy one.
    pub fn same_walk(&self, found: &WalkKey) -> bool {
        self.kind == found.kind
            && self.source == found.source
            && self.decode == found.decode
            && self.chunk == found.chunk
            && (self.schema == found.schema || self.legacy_schema.as_deref() == Some(found.schema.as_str()))
    }
}

impl PartialEq for WalkKey {
    /// Equal as stored (the legacy digest, never stored, is not compared).
    fn eq(&self, other: &Self) -> bool {
        (&self.kind, &self.source, &self.decode, self.chunk, &self.schema)
            == (&other.kind, &other.source, &other.decode, other.chunk, &other.schema)
    }
}

impl Eq for WalkKey {}

/// Where a dataset's (or an export's) rows come from: the network an index was read from, or the
/// Data or Metrics API service. A write from another origin is refused
/// ([`Manifest::bind_origin`]).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum Origin {
    /// An index: the network, named by the id of the index path's container 0 (as the cache
    /// keys it: [`crate::index::ChainClient::chain_identity`]).
    Network {
        /// The CB58 id of container 0 of the path walked.
        container0: String,
    },
    /// A Data or Metrics API service: its base URL with secrets redacted
    /// ([`crate::transport::redact::redact_url`]); the chain is in the walk's [`WalkKey::source`].
    Service {
        /// The redacted base URL.
        base_url: String,
    },
}

impl Origin {
    /// The origin of a service at `base_url` (redacted here, whatever the caller passed; without
    /// a trailing `/`, so `https://h` and `https://h/` are one service).
    pub fn service(base_url: &str) -> Origin {
        let redacted = crate::transport::redact::redact_url(base_url.trim());
        Origin::Service { base_url: redacted.trim_end_matches('/').to_string() }
    }

    /// Whether `other` is the same source: the same network, or the same service URL. A service
    /// on this machine (a loopback host: the embedded emulator, a tunnel) is one source whatever
    /// its port and loopback name, since it gets a new port each time it starts.
    pub fn same_source(&self, other: &Origin) -> bool {
        match (self, other) {
            (Origin::Service { base_url: a }, Origin::Service { base_url: b }) if a != b => {
                local_service(a).is_some_and(|key| local_service(b) == Some(key))
            }
            _ => self == other,
        }
    }
}

/// The scheme and path of a service URL on a loopback host (`None` for any other).
fn local_service(url: &str) -> Option<(String, String)> {
    let parsed = url::Url::parse(url).ok()?;
    crate::cache::service::on_loopback(url)
        .then(|| (parsed.scheme().to_string(), parsed.path().trim_end_matches('/').to_string()))
}

impl std::fmt::Display for Origin {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Origin::Network { container0 } => write!(f, "the network whose container 0 is {container0}"),
            Origin::Service { base_url } => write!(f, "the service at {base_url}"),
        }
    }
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
    /// The file's modification time (nanoseconds since the Unix epoch) when recorded: with
    /// `bytes`, the fast check that a rerun trusts ([`unchanged`]); absent in manifests of older
    /// versions, whose files are then checked by their sha256.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mtime_ns: Option<u64>,
    /// It holds all of `[first, next)`: every index of its span, or every point of a window
    /// that had ended when it was written.
    pub complete: bool,
    /// Where its rows were read from (absent in manifests of older versions, and for a write
    /// whose origin was unknown).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub origin: Option<Origin>,
}

impl Partition {
    /// Whether it is complete over a span holding `[first, next)`.
    pub fn covers(&self, first: u64, next: u64) -> bool {
        self.complete && self.first <= first && next <= self.next
    }

    /// Whether it is complete and its file in `dir` is as recorded ([`unchanged`]): a partition a
    /// rerun keeps.
    pub fn whole(&self, dir: &Path) -> bool {
        self.complete && unchanged(dir, self)
    }
}

/// The manifest of one dataset directory.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Manifest {
    /// [`MANIFEST_VERSION`].
    pub version: u32,
    /// The walk that wrote it (stored under its former name, `identity`).
    #[serde(rename = "identity")]
    pub walk: WalkKey,
    /// Where its rows come from (absent in manifests of older versions until their next write
    /// adopts the writer's: [`Manifest::bind_origin`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub origin: Option<Origin>,
    /// Its partitions, by hive value.
    pub partitions: Vec<Partition>,
    /// For a newest-first list ([`super::lists`]): the hive value of the lowest partition when a
    /// walk last reached the end of the list (absent otherwise).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub end: Option<u64>,
    /// For a ranged list ([`super::ranged`]): the sha256 of the newest item when its newest
    /// partition was written (that partition is current while the list's head is this item).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub head: Option<String>,
}

impl Manifest {
    /// The manifest of `dir` for `walk`: read when present (and then of the same walk, or
    /// an error naming what differs), empty otherwise. A manifest of an earlier version that
    /// recorded the legacy schema digest ([`WalkKey::legacy_schema`]) is read with the canonical
    /// one, which its next save records.
    pub fn open(dir: &Path, walk: WalkKey) -> Result<Self> {
        let Some(mut found) = read(dir)? else {
            return Ok(Manifest {
                version: MANIFEST_VERSION,
                walk,
                origin: None,
                partitions: Vec::new(),
                end: None,
                head: None,
            });
        };
        if !walk.same_walk(&found.walk) {
            let held = describe(&found.walk);
            return Err(refused(dir, format!("a directory of the same walk ({}; it holds {held})", describe(&walk))));
        }
        found.walk.schema = walk.schema;
        Ok(found)
    }

    /// Binds the manifest to the origin of a write: the same origin passes; another is refused
    /// with an error naming both (before the writer touches any file); a manifest without one
    /// (an empty dataset, or one an earlier version wrote) takes `origin`, with a warning when it
    /// already holds partitions (their rows are taken to be from it: nothing recorded says
    /// otherwise). `None` (a writer that cannot tell, e.g. of an empty index) changes nothing.
    /// Returns whether the manifest changed (the caller saves it).
    pub fn bind_origin(&mut self, dir: &Path, origin: Option<&Origin>) -> Result<bool> {
        let Some(origin) = origin else { return Ok(false) };
        match &self.origin {
            Some(held) if held.same_source(origin) => Ok(false),
            Some(held) => Err(refused(
                dir,
                format!(
                    "a dataset of the same source ({}: its rows come from {held}; this write reads {origin}); \
                     write to another directory",
                    self.walk.source
                ),
            )),
            None => {
                if !self.partitions.is_empty() {
                    log::warn!(
                        "dataset {}: its manifest records no source (written by an earlier version); it now records \
                         {origin}, and writes from any other source are refused",
                        dir.display()
                    );
                }
                self.origin = Some(origin.clone());
                Ok(true)
            }
        }
    }

    /// The partition of hive value `value`, if recorded.
    pub fn partition(&self, value: u64) -> Option<&Partition> {
        self.partitions.iter().find(|p| p.value == value)
    }

    /// The partition `value` if a rerun skips it for `[first, next)`: it covers the span and its
    /// file in `dir` is as recorded (the fast check, [`unchanged`]).
    pub fn held(&self, dir: &Path, value: u64, first: u64, next: u64) -> Option<&Partition> {
        self.partition(value).filter(|p| p.covers(first, next) && unchanged(dir, p))
    }

    /// The end of the positions the partitions hold past `end`, if they reach past it: what a
    /// walk to `end` (one past a tip just read, from a node behind the one the dataset was
    /// written from) does not reach, and keeps as it is.
    pub fn held_past(&self, end: u64) -> Option<u64> {
        self.partitions.iter().map(|p| p.next).max().filter(|&next| next > end)
    }

    /// Records `partition` (replacing the one of the same value), in value order.
    pub fn record(&mut self, partition: Partition) {
        self.partitions.retain(|p| p.value != partition.value);
        let at = self.partitions.partition_point(|p| p.value < partition.value);
        self.partitions.insert(at, partition);
    }

    /// Writes the manifest into `dir` atomically and durably: a temporary file of a unique name,
    /// fsynced, renamed over it, and the directory fsynced.
    pub fn save(&self, dir: &Path) -> Result<()> {
        super::durable::save_json(&dir.join(MANIFEST), self, "manifest")
    }
}

/// The refusal of `dir` as a dataset directory; `allowed` says what it had to be.
fn refused(dir: &Path, allowed: String) -> Error {
    Error::invalid_path("dataset", dir, allowed)
}

/// The manifest of `dir`, if it has one: any text that is not a manifest this version wrote
/// (not UTF-8, truncated, not JSON, fields of the wrong type, a version, file name or span that
/// does not fit) is an error naming the file, never a panic.
pub fn read(dir: &Path) -> Result<Option<Manifest>> {
    let path = dir.join(MANIFEST);
    let bytes = match std::fs::read(&path) {
        Ok(bytes) => bytes,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(io_error(&path, e)),
    };
    let not_a_manifest =
        |why: String| refused(dir, format!("a dataset directory ({} is not a manifest: {why})", path.display()));
    let text = std::str::from_utf8(&bytes).map_err(|e| not_a_manifest(format!("not UTF-8 text ({e})")))?;
    let found: Manifest = serde_json::from_str(text).map_err(|e| not_a_manifest(e.to_string()))?;
    if found.version != MANIFEST_VERSION {
        let version = found.version;
        return Err(refused(
            dir,
            format!("a dataset of manifest version {MANIFEST_VERSION} ({} is of version {version})", path.display()),
        ));
    }
    found.check().map_err(not_a_manifest)?;
    Ok(Some(found))
}

impl Manifest {
    /// What a writer of this version always writes: partitions in strictly increasing hive value,
    /// each file `{key}={value}/part.parquet` inside the directory, `first <= next`, a sha256.
    fn check(&self) -> std::result::Result<(), String> {
        let mut last: Option<u64> = None;
        for p in &self.partitions {
            if last.is_some_and(|last| p.value <= last) {
                return Err(format!("partition {} is out of order or recorded twice", p.value));
            }
            last = Some(p.value);
            let parts_ok = !p.key.is_empty()
                && !p.key.contains('\\')
                && p.key.split('/').all(|c| !c.is_empty() && c != "." && c != ".." && !c.contains('\0'));
            if !parts_ok || p.file != format!("{}={}/part.parquet", p.key, p.value) {
                return Err(format!(
                    "partition {} names the file {:?}, not {{key}}={{value}}/part.parquet",
                    p.value, p.file
                ));
            }
            if p.first > p.next {
                return Err(format!("partition {} spans {}..{} (first after next)", p.value, p.first, p.next));
            }
            if p.sha256.len() != 64 || !p.sha256.bytes().all(|b| b.is_ascii_hexdigit()) {
                return Err(format!("partition {} has no sha256 (found {:?})", p.value, p.sha256));
            }
        }
        Ok(())
    }
}

fn describe(walk: &WalkKey) -> String {
    format!(
        "{} of {}, decode {}, chunk {}, schema {}",
        walk.kind,
        walk.source,
        walk.decode,
        walk.chunk,
        walk.schema.chars().take(12).collect::<String>()
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

/// The size and modification time (nanoseconds since the Unix epoch; `None` before it or when
/// the system does not say) of a file.
pub fn file_stat(path: &Path) -> Result<(u64, Option<u64>)> {
    let meta = std::fs::metadata(path).map_err(|e| io_error(path, e))?;
    let mtime = meta
        .modified()
        .ok()
        .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
        .and_then(|d| u64::try_from(d.as_nanos()).ok());
    Ok((meta.len(), mtime))
}

/// The fast check a rerun trusts: `partition`'s file in `dir` is there with the size and
/// modification time the manifest recorded (for a partition recorded without one, its sha256 is
/// checked instead). [`digest_matches`] is the full check.
pub fn unchanged(dir: &Path, partition: &Partition) -> bool {
    let Some(recorded) = partition.mtime_ns else { return digest_matches(dir, partition) };
    file_stat(&dir.join(&partition.file))
        .is_ok_and(|(bytes, mtime)| bytes == partition.bytes && mtime == Some(recorded))
}

/// Whether `partition`'s file in `dir` is there with the size and sha256 the manifest recorded.
pub fn digest_matches(dir: &Path, partition: &Partition) -> bool {
    file_digest(&dir.join(&partition.file))
        .is_ok_and(|(bytes, sha256)| bytes == partition.bytes && sha256 == partition.sha256)
}

/// An I/O error naming the path.
pub fn io_error(path: &Path, e: std::io::Error) -> Error {
    Error::file(path, &e)
}

/// A partition's file, relative to the dataset directory and as a path: the hive directory
/// `{key}={value}` (`key` may hold outer levels, e.g. `chain=43114/month`).
pub fn partition_path(dir: &Path, key: &str, value: u64) -> (String, PathBuf) {
    let file = format!("{key}={value}/part.parquet");
    let path = dir.join(&file);
    (file, path)
}
