//! What the cache already holds of a walk, for its cost plan: the items a walk will hand out
//! from the disk and the requests it still sends. Counted from the entries on disk without
//! reading them (a damaged entry, dropped and fetched on the walk's read, makes a plan low by
//! one request at most per damaged entry).

use super::containers::key;
use super::hints;
use super::kind::Kind;
use super::store::Store;
use crate::index::range::plan as chunks;
use crate::index::{ChainClient, IndexPath};
use crate::plan::Plan;

/// What the cache holds of the calls of an index range.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct RangeHeld {
    /// Positions handed out from the cache.
    pub cached_items: u64,
    /// `getContainerRange` calls still sent: one per chunk whose containers are not all held.
    pub calls: u64,
}

/// Counts `[start, end)` of `path` in calls of `chunk` against the entries of the chain whose
/// identity is `chain_id`. A chunk is served from the disk only up to its first missing
/// position (the walk asks for the rest in one call), so only that run counts as cached.
pub fn index_range(store: &Store, chain_id: &str, path: IndexPath, start: u64, end: u64, chunk: u64) -> RangeHeld {
    let mut held = RangeHeld::default();
    for (first, count) in chunks(start, end, chunk) {
        let run = (first..first + count).take_while(|&i| store.holds(Kind::Index, &key(chain_id, path, i))).count();
        held.cached_items += run as u64;
        held.calls += u64::from((run as u64) < count);
    }
    held
}

/// `plan` (an index range `[start, end)` in calls of `chunk`, made without a cache) less what
/// the cache holds. The chain's identity is the one the client read; before it read one, the
/// hint of the last client of this URL ([`hints`]), and the walk's one read of the identity
/// (a `getContainerRange` call) is counted as a request.
pub fn index_plan(plan: Plan, chain: &ChainClient, store: &Store, start: u64, end: u64, chunk: u64) -> Plan {
    if start >= end {
        return plan;
    }
    let (identity, probe) = match chain.known_identity() {
        Some(id) => (Some(id), 0),
        None => (hints::identity(store, &chain.cache_name(), chain.path()), 1),
    };
    let Some(identity) = identity else {
        let mut out = plan.less_cached(0, plan.walk.requests.count().unwrap_or(0) + probe);
        out.walk.unknown.push(
            "what the cache holds: no client of this URL has read the chain's identity yet (the walk reads it: one \
             request more)"
                .into(),
        );
        return out;
    };
    let held = index_range(store, &identity, chain.path(), start, end, chunk);
    let mut out = plan.less_cached(held.cached_items, held.calls + probe);
    if probe == 1 {
        out.walk.unknown.push(
            "the chain's identity: the walk reads it first (one request, counted); the cached items are those of \
             the chain this URL served when last read"
                .into(),
        );
    }
    out
}
