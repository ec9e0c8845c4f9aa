//! The request shape of each kind of walk, known before its first request.

use super::Requests;
use crate::transport::weights::{weight, DEFAULT_WEIGHT};

/// What a walk sends, before pricing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Walk {
    /// The operation (`GET /v1/chains/43114/blocks`).
    pub operation: String,
    /// Requests sent.
    pub requests: Requests,
    /// Compute units of one request.
    pub units_per_request: u64,
    /// Items asked per request.
    pub page_size: u64,
    /// Items handed out, when known.
    pub items: Option<u64>,
    /// Items already held and not requested (an existing dataset).
    pub held: u64,
    /// Items handed out from the cache, without a request.
    pub cached_items: u64,
    /// What is not known before walking.
    pub unknown: Vec<String>,
}

/// An Index RPC range of `positions` containers (`None`: to the tip, not yet read) in calls of
/// `chunk`. Every Index RPC call costs [`DEFAULT_WEIGHT`].
pub fn index_range(path: &str, positions: Option<u64>, chunk: u64) -> Walk {
    let chunk = chunk.max(1);
    let operation = format!("POST /ext/index/{path} (index.getContainerRange)");
    let (requests, unknown) = match positions {
        Some(n) => (Requests::Exact(n.div_ceil(chunk)), Vec::new()),
        None => (
            Requests::Unknown,
            vec!["the tip: a walk to the tip reads it first (one more request), then sends one call per page".into()],
        ),
    };
    Walk {
        operation,
        requests,
        units_per_request: u64::from(DEFAULT_WEIGHT),
        page_size: chunk,
        items: positions,
        held: 0,
        cached_items: 0,
        unknown,
    }
}

/// A token-paged list (`GET path`) with pages of `page_size` items, handing out at most `limit`
/// items, of which `known_items` exist when the caller knows it (a block range with a known
/// count).
pub fn token_list(path: &str, page_size: u64, limit: Option<u64>, known_items: Option<u64>) -> Walk {
    let page_size = page_size.max(1);
    let operation = format!("GET {path}");
    let units = u64::from(weight("GET", path));
    let cap = match (limit, known_items) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    };
    let (requests, unknown) = match (cap, known_items) {
        // A known count: the walk pages through it and stops on a short or last page.
        (Some(n), Some(_)) => (Requests::Exact(n.div_ceil(page_size).max(1)), Vec::new()),
        (Some(n), None) => (
            Requests::AtMost(n.div_ceil(page_size).max(1)),
            vec!["how many items the list holds: fewer than the limit costs fewer pages".into()],
        ),
        (None, _) => (
            Requests::Unknown,
            vec!["unbounded: no limit= and no window, so how many items the list holds (the service gives no \
                  count): see the cost per 1,000 items"
                .into()],
        ),
    };
    Walk { operation, requests, units_per_request: units, page_size, items: cap, held: 0, cached_items: 0, unknown }
}

/// A metric series over a window of `buckets` buckets, read in pages of `page_size` (a
/// sequential walk), at most `limit` items.
pub fn metric_window(path: &str, buckets: Option<u64>, page_size: u64, limit: Option<u64>) -> Walk {
    let mut walk = token_list(path, page_size, limit, None);
    let cap = match (buckets, limit) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    };
    if let Some(n) = cap {
        walk.requests = Requests::AtMost(n.div_ceil(walk.page_size).max(1));
        walk.items = Some(n);
        walk.unknown = vec!["buckets without a point (before the chain's first day): fewer pages".into()];
    }
    walk
}

/// A sharded metric walk handing out `items` buckets: a probe of the order, then each shard
/// (the buckets it asks for, one more than it keeps at an inner cut) in pages of `page_size`.
pub fn metric_shards(path: &str, shard_buckets: &[u64], page_size: u64, items: u64) -> Walk {
    let page_size = page_size.max(1);
    let pages: u64 = shard_buckets.iter().map(|b| b.div_ceil(page_size).max(1)).sum();
    let probe = u64::from(shard_buckets.len() > 1);
    Walk {
        operation: format!("GET {path} ({} shards)", shard_buckets.len()),
        requests: Requests::AtMost(pages + probe),
        units_per_request: u64::from(weight("GET", path)),
        page_size,
        items: Some(items),
        held: 0,
        cached_items: 0,
        unknown: vec!["buckets without a point (before the chain's first day): fewer pages".into()],
    }
}

impl Walk {
    /// The same walk less `held` items already on disk: requests scale down with the items
    /// left (a dataset write that skips what the dataset holds).
    pub fn less_held(mut self, held: u64) -> Walk {
        (self.requests, self.items, self.held) = less_held(self.requests, self.items, self.page_size, held);
        self
    }
}

/// `(requests, items, held)` of a walk of `items` in pages of `page_size` once `held` of its
/// items need not be fetched (the requests scale with the items left; unknown stays unknown).
pub fn less_held(requests: Requests, items: Option<u64>, page_size: u64, held: u64) -> (Requests, Option<u64>, u64) {
    let Some(items) = items else { return (requests, None, held) };
    let left = items.saturating_sub(held);
    let pages = left.div_ceil(page_size.max(1));
    (requests.with_count(pages), Some(left), items - left)
}
