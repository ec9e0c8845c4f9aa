//! The bounded cache of built containers of an [`super::enveloped::EnvelopedChain`]: a container
//! is built (its block encoded, its transactions and envelope signed) once, and served from then
//! on as bytes, with what the wire needs besides them already computed (the checksum and the
//! CB58 id), so serving a cached container costs its hex and a copy.
//!
//! Containers are kept in runs of [`RUN`] consecutive heights, least recently used dropped once
//! the runs hold more than [`BUDGET_BYTES`] of container bytes (about 34,000 `C/block`
//! containers). A walk longer than the budget keeps its last part.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};

use avax_data_core::index::cb58;

/// Heights per run.
pub const RUN: u64 = 64;

/// Container bytes kept per chain before the least recently used runs are dropped.
pub const BUDGET_BYTES: usize = 128 << 20;

/// `(inner id, container id)` of one height.
pub type Ids = ([u8; 32], [u8; 32]);

/// One built container.
pub struct Entry {
    /// Its inner id and container id.
    pub ids: Ids,
    /// The container's bytes.
    pub bytes: Box<[u8]>,
    /// The node's checksum of `bytes` (the last four bytes of their sha256).
    pub checksum: [u8; cb58::CHECKSUM_LEN],
    /// The container id in CB58.
    pub id_text: Box<str>,
}

impl Entry {
    /// The entry of a container with `ids` and `bytes` (hashes the bytes once for the checksum).
    pub fn new(ids: Ids, bytes: &[u8]) -> Entry {
        Entry::with_checksum(ids, bytes, cb58::checksum(bytes))
    }

    /// The entry of a container with `ids` and `bytes` whose checksum its builder already knows
    /// (an envelope's: [`super::proposervm::Wrapped`]).
    pub fn with_checksum(ids: Ids, bytes: &[u8], checksum: [u8; cb58::CHECKSUM_LEN]) -> Entry {
        Entry { ids, bytes: bytes.into(), checksum, id_text: cb58::encode(&ids.1).into() }
    }
}

/// The containers of heights `k * RUN .. (k + 1) * RUN`.
pub type Run = Arc<Vec<Entry>>;

/// One container of a kept run (holds the run alive while it is written out).
pub struct Served {
    run: Run,
    at: usize,
}

impl Served {
    /// Container `at` of `run`.
    pub fn new(run: Run, at: usize) -> Served {
        assert!(at < run.len(), "a height inside the run");
        Served { run, at }
    }

    /// The container.
    pub fn entry(&self) -> &Entry {
        &self.run[self.at]
    }
}

struct Kept {
    /// `(k, run, its bytes)`, most recently used last.
    runs: VecDeque<(u64, Run, usize)>,
    bytes: usize,
}

/// The kept runs of one chain.
pub struct ServedRuns {
    kept: Mutex<Kept>,
    budget: usize,
}

impl Default for ServedRuns {
    fn default() -> Self {
        ServedRuns::with_budget(BUDGET_BYTES)
    }
}

impl ServedRuns {
    /// A cache that keeps at most `budget` bytes of containers (and always the last run).
    pub fn with_budget(budget: usize) -> ServedRuns {
        ServedRuns { kept: Mutex::new(Kept { runs: VecDeque::new(), bytes: 0 }), budget }
    }

    /// Run `k` if it is kept (it becomes the most recently used).
    pub fn get(&self, k: u64) -> Option<Run> {
        let mut kept = self.kept.lock().unwrap_or_else(|e| e.into_inner());
        // A walk asks for the run it asked for last, or the one after it: search from the back.
        let at = kept.runs.iter().rposition(|(key, _, _)| *key == k)?;
        let run = kept.runs[at].1.clone();
        if at + 1 != kept.runs.len() {
            let entry = kept.runs.remove(at).expect("a found position");
            kept.runs.push_back(entry);
        }
        Some(run)
    }

    /// Whether run `k` is kept (without making it the most recently used).
    pub fn contains(&self, k: u64) -> bool {
        let kept = self.kept.lock().unwrap_or_else(|e| e.into_inner());
        kept.runs.iter().rev().any(|(key, _, _)| *key == k)
    }

    /// Keeps run `k` (unless another thread kept it first), dropping the least recently used
    /// runs past the budget.
    pub fn insert(&self, k: u64, run: Run) {
        let size: usize = run.iter().map(|e| e.bytes.len()).sum();
        let mut kept = self.kept.lock().unwrap_or_else(|e| e.into_inner());
        if kept.runs.iter().any(|(key, _, _)| *key == k) {
            return;
        }
        kept.runs.push_back((k, run, size));
        kept.bytes += size;
        while kept.bytes > self.budget && kept.runs.len() > 1 {
            let (_, _, dropped) = kept.runs.pop_front().expect("more than one run");
            kept.bytes -= dropped;
        }
    }

    /// `(runs, container bytes)` kept.
    pub fn size(&self) -> (usize, usize) {
        let kept = self.kept.lock().unwrap_or_else(|e| e.into_inner());
        (kept.runs.len(), kept.bytes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(k: u64, len: usize) -> Run {
        Arc::new((0..RUN).map(|h| Entry::new(([k as u8; 32], [h as u8; 32]), &vec![h as u8; len])).collect())
    }

    #[test]
    fn entries_carry_the_checksum_and_the_cb58_id() {
        let e = Entry::new(([1; 32], [2; 32]), b"container");
        assert_eq!(e.checksum, cb58::checksum(b"container"));
        assert_eq!(&*e.id_text, cb58::encode(&[2; 32]));
        assert_eq!(cb58::decode_id(&e.id_text).unwrap(), [2; 32]);
    }

    #[test]
    fn least_recently_used_runs_leave_past_the_budget() {
        // Runs of 64 containers of 10 bytes: 640 bytes each, 3 fit in 2,000.
        let cache = ServedRuns::with_budget(2_000);
        for k in 0..3 {
            cache.insert(k, run(k, 10));
        }
        assert_eq!(cache.size(), (3, 1_920));
        assert!(cache.get(0).is_some(), "run 0 becomes the most recently used");
        cache.insert(3, run(3, 10));
        assert!(cache.get(1).is_none(), "run 1 was the least recently used");
        for k in [0, 2, 3] {
            assert_eq!(cache.get(k).unwrap()[5].ids, ([k as u8; 32], [5; 32]));
        }
        // A second insert of a kept run keeps the first.
        cache.insert(3, run(9, 10));
        assert_eq!(cache.get(3).unwrap()[0].ids.0, [3; 32]);
        assert_eq!(cache.size(), (3, 1_920));
        // A run larger than the budget is still kept, alone.
        cache.insert(7, run(7, 100));
        assert_eq!(cache.size(), (1, 6_400));
        let served = Served::new(cache.get(7).unwrap(), 63);
        assert_eq!(&*served.entry().bytes, &[63u8; 100][..]);
    }
}
