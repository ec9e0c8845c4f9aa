//! What a rerun of a dataset write still fetches, for its cost plan: exactly the partitions the
//! writer would not skip (missing, partial or altered), each walked on its own; the partitions
//! the dataset holds whole are counted out. Reads the manifest only: no lock, nothing written.

use std::path::Path;

use super::manifest::{Manifest, WalkKey};
use super::plan;
use crate::error::Result;

/// The partitions of `[start, end)` cut at multiples of `chunk`, as `(hive value, first, next)`,
/// split by what the dataset in `dir` of the walk `identity` holds.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Split {
    /// Partitions recorded as holding every position of their span, their files as recorded:
    /// a write skips them.
    pub held: Vec<(u64, u64, u64)>,
    /// The other partitions: a write fetches each of them whole.
    pub fetched: Vec<(u64, u64, u64)>,
    /// The end of the positions the dataset holds past `end` ([`Manifest::held_past`]): a tip
    /// read from a lagging node; the write keeps them.
    pub held_past_end: Option<u64>,
}

impl Split {
    /// Positions the held partitions cover.
    pub fn held_positions(&self) -> u64 {
        self.held.iter().map(|(_, first, next)| next - first).sum()
    }

    /// Positions still fetched.
    pub fn fetched_positions(&self) -> u64 {
        self.fetched.iter().map(|(_, first, next)| next - first).sum()
    }

    /// Calls of at most `batch` positions the fetched partitions cost (each is its own walk, so
    /// a partition's last call may be short).
    pub fn calls(&self, batch: u64) -> u64 {
        self.fetched.iter().map(|(_, first, next)| (next - first).div_ceil(batch.max(1))).sum()
    }
}

/// Splits `[start, end)` in partitions of `chunk` by what the dataset in `dir` holds, with the
/// writer's own rule (a partition covering its whole span, its file of the recorded size and
/// modification time). No directory or no manifest: every partition is fetched. A manifest of
/// another walk is the writer's error (the write would refuse the directory).
pub fn split(dir: &Path, identity: WalkKey, start: u64, end: u64, chunk: u64) -> Result<Split> {
    let spans = plan(start, end, chunk)?;
    let manifest = Manifest::open(dir, identity)?;
    let mut out = Split { held_past_end: manifest.held_past(end), ..Split::default() };
    for (value, first, next) in spans {
        let whole = manifest.held(dir, value, first, next).is_some();
        if whole {
            out.held.push((value, first, next));
        } else {
            out.fetched.push((value, first, next));
        }
    }
    Ok(out)
}
