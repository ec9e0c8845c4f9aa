//! The checkpoint of a resumable export: what was asked, how far the walk got, and what of the
//! output is safely written. One layout, owned here, written by the command line's exports
//! (`avax-data index range -o OUT`, `data ...`, `metrics ...`) beside their output as
//! `OUT.avax-state.json`, and read back by `--resume` and by `avax-data dataset verify`.
//!
//! ```json
//! {
//!   "version": 2,
//!   "kind": "export",
//!   "request": {"command": "index range", "format": "parquet", "output": "x.parquet",
//!               "args": {"chain": "X/tx", "start": 0, "count": 2400},
//!               "source": {"network": {"container0": "..."}}},
//!   "position": {"next_index": 750, "end": 2400},
//!   "rows_written": 750,
//!   "output": {"parts": [{"file": "part-000000.parquet", "rows": 250, "bytes": 9120,
//!                         "sha256": "..."}]},
//!   "updated": "2026-01-02T03:04:05Z"
//! }
//! ```
//!
//! - `position` is where the walk continues: `next_index` (with `end`, and `first` for a
//!   follower) for an index walk; `next_page_token`, `page_offset`, `items_read` and
//!   `handed_out` (the identities of the last items written, optional: older checkpoints lack it)
//!   and `boundary` (where the last of them stood, optional likewise)
//!   for a Data or Metrics API pager (the position [`crate::paging`] walks already keep).
//! - `output` is `{"parts": [...]}` for Parquet (one part file per chunk in `OUT.parts/`, each
//!   with its rows, size and sha256) or `{"bytes": N}` for CSV and NDJSON appended to `OUT` (the
//!   size after the last complete chunk), with `bytes_sha256`, the sha256 of those `N` bytes
//!   ([`appended`]): a resume refuses an output whose recorded bytes changed, or past which lie
//!   zero bytes (a power loss), instead of continuing it.
//! - `request.source` is where the rows come from ([`Origin`]: the network of an index by its
//!   container 0, the base URL of a service, redacted): a resume against another source is
//!   refused, naming both. A checkpoint of an earlier version without it takes the resumed run's.
//! - It is rewritten after every complete chunk the way a dataset's manifest is ([`save_json`]:
//!   a temporary file, fsync, rename, directory fsync), so a killed export leaves the previous or
//!   the new checkpoint, never a torn one; reading it checks the version, the fields and their
//!   sums ([`Checkpoint::parse`]). One writer per output: [`ExportCheckpoint`] holds a lock.

pub mod appended;
mod export;
mod report;

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

pub use crate::dataset::durable::save_json;
pub use crate::dataset::manifest::Origin;
use crate::error::{Error, Result};
use crate::paging::{PageKey, Pager};

pub use export::ExportCheckpoint;
pub use report::{verify_checkpoint, CheckpointReport};

/// The version of the checkpoint's layout. Version 1 was the command line's own state file of
/// avax-data before the checkpoint moved into the core; it is refused with a remedy.
pub const CHECKPOINT_VERSION: u32 = 2;

/// Appended to an export's output path to name its checkpoint.
pub const STATE_SUFFIX: &str = ".avax-state.json";

/// Appended to an export's output path to name its lock file (one writer per output).
pub const LOCK_SUFFIX: &str = ".avax-lock";

/// Appended to a Parquet export's output path to name the directory of its part files.
pub const PARTS_SUFFIX: &str = ".parts";

/// The kind of walk a checkpoint belongs to.
pub const EXPORT_KIND: &str = "export";

/// What an export was asked to write: a resumed run must ask the same.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Request {
    /// The command (`index range`, `data blocks`, ...).
    pub command: String,
    /// `parquet`, `csv` or `ndjson`.
    pub format: String,
    /// The output path as given.
    pub output: String,
    /// The arguments that define the rows (a JSON object).
    pub args: serde_json::Map<String, serde_json::Value>,
    /// Where the rows come from (absent in checkpoints of earlier versions, and for an export
    /// that could not tell, e.g. of an empty index).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<Origin>,
}

impl Request {
    /// What differs between `self` (the saved request) and `asked`, one `--arg saved there,
    /// asked here` item per difference (command and format first); empty when the same.
    pub fn differences(&self, asked: &Request) -> Vec<String> {
        let mut out = Vec::new();
        if self.command != asked.command {
            out.push(format!("command {:?} there, {:?} here", self.command, asked.command));
        }
        if self.format != asked.format {
            out.push(format!("format {:?} there, {:?} here", self.format, asked.format));
        }
        if let (Some(there), Some(here)) = (&self.source, &asked.source) {
            if !there.same_source(here) {
                out.push(format!("the source: {there} there, {here} here"));
            }
        }
        let mut keys: Vec<&String> = self.args.keys().chain(asked.args.keys()).collect();
        keys.sort();
        keys.dedup();
        let null = serde_json::Value::Null;
        for key in keys {
            let (there, here) = (self.args.get(key).unwrap_or(&null), asked.args.get(key).unwrap_or(&null));
            if there != here {
                out.push(format!("--{} {there} there, {here} here", key.replace('_', "-")));
            }
        }
        out
    }
}

/// Where an index walk continues.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct IndexPosition {
    /// The next index to read.
    pub next_index: u64,
    /// The first index of a follower's walk (absent for a range).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub first: Option<u64>,
    /// The end of the walk (exclusive), fixed by the first run; `null` for an endless follower.
    pub end: Option<u64>,
}

/// Where a pager (Data or Metrics API) continues.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PagePosition {
    /// The token of the page being read (`null`: the first page, or a walk without tokens).
    pub next_page_token: Option<String>,
    /// Items of that page already read.
    pub page_offset: u64,
    /// Items read since the start of the walk.
    pub items_read: u64,
    /// The identities of the last items written ([`crate::paging::Pager::handed_out`]: the raw
    /// JSON texts of each item's id and key fields, oldest first), so a resumed walk drops the
    /// repeats of a list that grew on its head meanwhile. Absent in a checkpoint written before
    /// they were kept: such a walk resumes from its position alone (and may repeat up to as many
    /// items as arrived on the list's head in between).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub handed_out: Option<Vec<[String; 2]>>,
    /// Where the last item written stood (its page's token and its place in that page:
    /// [`crate::paging::Position::boundary`]): a resume walks from there past that item (the
    /// last of `handed_out`), exact however much the list grew on its head meanwhile. Absent in
    /// a checkpoint written before it was kept, or before any item: the resume then goes by
    /// the position and `handed_out` alone.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub boundary: Option<Boundary>,
}

/// Where the last item a pager handed out stood.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Boundary {
    /// The token of its page (`null`: the first page).
    pub page_token: Option<String>,
    /// Its place in that page.
    pub page_offset: u64,
}

impl PagePosition {
    /// Where `pager` stands, with the identities of the last items it handed out: what a later
    /// walk of the same list resumes from ([`PagePosition::resume`]). An exhausted walk has no
    /// token left; its state says to walk again from the first page past every item read.
    pub fn of_pager(pager: &Pager) -> PagePosition {
        let at = pager.position();
        let next_page_token = at.next_page_token().map(str::to_string);
        let page_offset = match (&next_page_token, at.exhausted) {
            (None, true) => at.items_read,
            _ => at.offset as u64,
        };
        let handed_out = pager.handed_out();
        let boundary = match &at.boundary {
            Some((PageKey::Token(token), offset)) if !handed_out.is_empty() => {
                Some(Boundary { page_token: token.clone(), page_offset: *offset as u64 })
            }
            _ => None,
        };
        PagePosition { next_page_token, page_offset, items_read: at.items_read, handed_out: Some(handed_out), boundary }
    }

    /// A resume state given as JSON text (the object [`PagePosition::of_pager`] writes); anything
    /// else is an [`Error::InvalidArgument`] of the parameter `state` saying what is expected.
    pub fn from_json(text: &str) -> Result<PagePosition> {
        let state: PagePosition = serde_json::from_str(text).map_err(|e| {
            Error::invalid(
                "state",
                crate::exact::shown(text),
                format!(
                    "a resume state: an object of next_page_token (text or null), page_offset and items_read                      (integers >= 0) and optionally handed_out (a list of [id, key] texts), as                      pager.resume_state gives ({e})"
                ),
            )
        })?;
        Position::Pages(state.clone())
            .check()
            .map_err(|why| Error::invalid("state", crate::exact::shown(text), format!("a resume state whose {why}")))?;
        Ok(state)
    }

    /// Moves `pager` (a walk of the same list) to this position, remembering the identities it
    /// holds ([`Pager::resume_at`]): a list that grew on its head since loses its leading
    /// repeats. A position without a token walks again from the first page, past `page_offset`
    /// items.
    pub fn resume(&self, pager: &Pager) -> Result<()> {
        let offset = usize::try_from(self.page_offset)
            .map_err(|_| Error::invalid("page_offset", self.page_offset, "a number of items this machine can count"))?;
        let handed = self.handed_out.as_deref().unwrap_or_default();
        match &self.boundary {
            Some(b) if !handed.is_empty() && pager.identity().is_some() => {
                let at = usize::try_from(b.page_offset).map_err(|_| {
                    Error::invalid("page_offset", b.page_offset, "a number of items this machine can count")
                })?;
                pager.resume_after(b.page_token.clone(), at, self.items_read, handed)
            }
            _ => pager.resume_at(self.next_page_token.clone(), offset, self.items_read, handed),
        }
    }
}

/// Where the walk continues.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Position {
    /// An index range or follower.
    Index(IndexPosition),
    /// A pager.
    Pages(PagePosition),
}

impl Position {
    fn check(&self) -> std::result::Result<(), String> {
        match self {
            Position::Index(p) => {
                if p.end.is_some_and(|end| p.next_index > end) || p.first.is_some_and(|f| f > p.next_index) {
                    return Err(format!("the position {p:?} is outside its walk"));
                }
            }
            Position::Pages(p) => {
                if p.page_offset > p.items_read {
                    return Err(format!("page_offset {} is more than items_read {}", p.page_offset, p.items_read));
                }
            }
        }
        Ok(())
    }

    /// The position as the resume line shows it.
    pub fn describe(&self) -> String {
        match self {
            Position::Index(p) => format!("next_index={}", p.next_index),
            Position::Pages(PagePosition { next_page_token: Some(token), page_offset, .. }) => {
                format!("page token {:?}... + {page_offset} items", token.chars().take(16).collect::<String>())
            }
            Position::Pages(p) => format!("item {} (walked again from the first page)", p.items_read),
        }
    }
}

/// One Parquet part file of an export.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Part {
    /// Its name in `OUT.parts/`: `part-000000.parquet`, then `part-000001.parquet`, ...
    pub file: String,
    /// Rows in it.
    pub rows: u64,
    /// Its size in bytes.
    pub bytes: u64,
    /// sha256 of the file, hex.
    pub sha256: String,
}

/// What of the output is safely written.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Output {
    /// Parquet: the part files, in order.
    Parts(Vec<Part>),
    /// CSV or NDJSON: the size of `OUT` after the last complete chunk.
    Bytes(u64),
}

/// The name of the `n`-th part file.
pub fn part_name(n: usize) -> String {
    format!("part-{n:06}.parquet")
}

/// A checkpoint as it is stored.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Checkpoint {
    /// [`CHECKPOINT_VERSION`].
    pub version: u32,
    /// [`EXPORT_KIND`].
    pub kind: String,
    /// What was asked.
    pub request: Request,
    /// Where the walk continues.
    pub position: Position,
    /// Rows safely written.
    pub rows_written: u64,
    /// What of the output is safely written.
    pub output: Output,
    /// For CSV and NDJSON: the sha256 (hex) of the output's first [`Output::Bytes`] bytes
    /// (absent in checkpoints of earlier versions, whose outputs are checked by size only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bytes_sha256: Option<String>,
    /// When it was written (RFC 3339, UTC).
    pub updated: String,
}

impl Checkpoint {
    /// Reads the text of the checkpoint file `path`: anything that is not a checkpoint this
    /// version writes (not UTF-8, torn, not JSON, another version or kind, fields of the wrong
    /// type, sums that do not add up) is an [`Error::InvalidArgument`] naming the file, never a
    /// panic.
    pub fn parse(path: &Path, bytes: &[u8]) -> Result<Checkpoint> {
        let bad = |why: String| {
            Error::invalid_path(
                "checkpoint",
                path,
                format!("a checkpoint of an avax-data export ({why}); delete it to start the export over"),
            )
        };
        let text = std::str::from_utf8(bytes).map_err(|e| bad(format!("not UTF-8 text: {e}")))?;
        let value: serde_json::Value = serde_json::from_str(text).map_err(|e| bad(format!("not JSON: {e}")))?;
        let version = value.get("version").and_then(serde_json::Value::as_u64);
        if version != Some(u64::from(CHECKPOINT_VERSION)) {
            let found = version.map_or("no version".to_string(), |v| format!("version {v}"));
            return Err(Error::invalid_path(
                "checkpoint",
                path,
                format!(
                    "a checkpoint of version {CHECKPOINT_VERSION} (it has {found}: written by another version of \
                     avax-data, which this one cannot continue); delete it and start the export over"
                ),
            ));
        }
        let found: Checkpoint = serde_json::from_value(value).map_err(|e| bad(e.to_string()))?;
        found.check().map_err(bad)?;
        Ok(found)
    }

    fn check(&self) -> std::result::Result<(), String> {
        if self.kind != EXPORT_KIND {
            return Err(format!("kind {:?}, not {EXPORT_KIND:?}", self.kind));
        }
        if !matches!(self.request.format.as_str(), "parquet" | "csv" | "ndjson") {
            return Err(format!("format {:?}", self.request.format));
        }
        self.position.check()?;
        match &self.output {
            Output::Parts(parts) => {
                if self.request.format != "parquet" {
                    return Err(format!("part files for the format {}", self.request.format));
                }
                for (n, part) in parts.iter().enumerate() {
                    if part.file != part_name(n) {
                        return Err(format!("part {n} is named {:?}, not {:?}", part.file, part_name(n)));
                    }
                    if part.sha256.len() != 64 || !part.sha256.bytes().all(|b| b.is_ascii_hexdigit()) {
                        return Err(format!("part {} has no sha256", part.file));
                    }
                }
                let rows: u64 = parts.iter().map(|p| p.rows).sum();
                if rows != self.rows_written {
                    return Err(format!("its parts hold {rows} rows, not the {} it counts", self.rows_written));
                }
            }
            Output::Bytes(_) if self.request.format == "parquet" => {
                return Err("a byte offset for the format parquet".into());
            }
            Output::Bytes(_) => {
                if let Some(sha) = &self.bytes_sha256 {
                    if sha.len() != 64 || !sha.bytes().all(|b| b.is_ascii_hexdigit()) {
                        return Err(format!("bytes_sha256 {sha:?} is not a sha256"));
                    }
                }
            }
        }
        Ok(())
    }
}

/// The checkpoint file of the export to `out`: `OUT.avax-state.json`.
pub fn state_path(out: &Path) -> PathBuf {
    suffixed(out, STATE_SUFFIX)
}

/// `out` with `suffix` appended to its name.
pub fn suffixed(out: &Path, suffix: &str) -> PathBuf {
    let mut name = out.as_os_str().to_owned();
    name.push(suffix);
    PathBuf::from(name)
}

/// Reads the checkpoint file `path`: `None` when there is none.
pub fn read(path: &Path) -> Result<Option<Checkpoint>> {
    match std::fs::read(path) {
        Ok(bytes) => Checkpoint::parse(path, &bytes).map(Some),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(Error::file(path, &e)),
    }
}

#[cfg(test)]
mod tests;
