//! Range walks: plan a range into calls of at most 1024, fetch them concurrently, deliver in
//! order, stop cleanly at the tip; and `follow`, which keeps walking as the tip grows.

use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

use futures::stream::{self, BoxStream, Stream, StreamExt};

use super::chunk::{fetch_chunk, KnownLength, LagPolicy};
use super::client::{ChainClient, MAX_RANGE};
use super::container::Container;
use super::piece::RangePiece;
use crate::error::{Error, Result};
use crate::paging::{ordered_chunks, Spawned};

/// What to walk.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RangeSpec {
    /// First index.
    pub start: u64,
    /// End (exclusive); `None` walks to the tip seen when the walk starts.
    pub end: Option<u64>,
    /// Calls in flight.
    pub concurrency: usize,
    /// Containers per call, in `[1, 1024]`.
    pub chunk: u64,
}

/// Splits `[start, end)` into `(start, count)` calls of at most `chunk` containers.
pub fn plan(start: u64, end: u64, chunk: u64) -> impl Iterator<Item = (u64, u64)> {
    let chunk = chunk.clamp(1, MAX_RANGE);
    let mut next = start;
    std::iter::from_fn(move || {
        if next >= end {
            return None;
        }
        let count = chunk.min(end - next);
        let call = (next, count);
        next += count;
        Some(call)
    })
}

/// One past `tip`, or a clear error at the top of `u64`.
pub fn after_tip(chain: &ChainClient, tip: u64) -> Result<u64> {
    tip.checked_add(1).ok_or_else(|| Error::Decode {
        message: format!("{} reports its tip at index 2**64 - 1: a walk cannot end past it", chain.path()),
        url: String::new(),
        body: String::new(),
    })
}

/// Walks a range: yields batches in index order, without gaps or repeats.
///
/// The walk ends at `end`, or where the node proves the index ends (its tip is below the next
/// index). A short answer is re-requested from where it stopped; an answer "past the tip" for an
/// index known to exist (a lagging node behind a balancer) is retried with backoff, then raised.
/// The first error is delivered and ends the walk.
pub fn walk(chain: ChainClient, spec: RangeSpec) -> impl Stream<Item = Result<Vec<Container>>> + Send + 'static {
    walk_with(chain, spec, None, LagPolicy::default())
}

/// [`walk`] with a tip already read (`Some`: the containers up to it exist) and a lag policy.
pub fn walk_with(
    chain: ChainClient,
    spec: RangeSpec,
    tip: Option<u64>,
    lag: LagPolicy,
) -> impl Stream<Item = Result<Vec<Container>>> + Send + 'static {
    let known = KnownLength::default();
    if let Some(tip) = tip {
        known.saw(tip);
    }
    walk_knowing(chain, spec, known, None, lag)
}

/// What the walks of one resumable range share: the end its first walk resolved (one past the
/// tip it read, for a range without an end) and how many containers are known to exist.
///
/// Each consumer of a range (an iteration, a collect, an export) resumes it with a new walk
/// from the position handed out. With the memory, a resumed walk ends where the first one
/// planned to, and a "past the tip" answer below what any walk of the range saw is a lagging
/// node, not the end: a later tip read from a node behind a balancer cannot end the range early.
#[derive(Debug, Clone, Default)]
pub struct RangeMemory {
    end: Arc<OnceLock<u64>>,
    known: KnownLength,
    /// Where the latest walk of the range ended at the tip (one past the tip), if one did.
    tip: Arc<Mutex<Option<u64>>>,
}

impl RangeMemory {
    /// The end resolved by the first walk of a range without an end (exclusive), once read.
    pub fn end(&self) -> Option<u64> {
        self.end.get().copied()
    }

    /// Keeps `end` as the range's end unless one was resolved already; the end in force.
    pub fn settle(&self, end: u64) -> u64 {
        *self.end.get_or_init(|| end)
    }

    /// Records that a walk ended at the tip at `end` (one past the tip).
    pub(crate) fn reached_tip(&self, end: u64) {
        *self.tip.lock().unwrap_or_else(std::sync::PoisonError::into_inner) = Some(end);
    }

    /// Where the latest walk of the range ended at the tip (one past it), if one did.
    pub fn tip_reached(&self) -> Option<u64> {
        *self.tip.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

/// A walk of a resumable range from `spec.start` (the position handed out so far), sharing
/// with the range's earlier walks what `memory` holds; each answer decoded into `P` (containers,
/// or columns for a frame).
pub fn walk_resuming<P: RangePiece>(
    chain: ChainClient,
    spec: RangeSpec,
    memory: &RangeMemory,
    lag: LagPolicy,
) -> impl Stream<Item = Result<P>> + Send + 'static {
    walk_knowing(chain, spec, memory.known.clone(), Some(memory.clone()), lag)
}

/// The walk: `known` says which containers exist; `memory`, when given, keeps the end
/// resolved from the tip for later walks of the same range, and where a walk met the tip.
fn walk_knowing<P: RangePiece>(
    chain: ChainClient,
    spec: RangeSpec,
    known: KnownLength,
    memory: Option<RangeMemory>,
    lag: LagPolicy,
) -> impl Stream<Item = Result<P>> + Send + 'static {
    let end_memory = memory.as_ref().map(|m| m.end.clone());
    let resolve = async move {
        let remembered = end_memory.as_ref().and_then(|m| m.get().copied());
        let end = match (spec.end, remembered) {
            (Some(end), _) | (None, Some(end)) => end,
            (None, None) => match chain.tip().await? {
                Some(tip) => {
                    known.saw(tip);
                    let end = after_tip(&chain, tip)?;
                    // A concurrent first walk may have set it: the first tip read wins.
                    end_memory.map_or(end, |m| *m.get_or_init(|| end))
                }
                None => spec.start,
            },
        };
        let calls = ordered_chunks(plan(spec.start, end, spec.chunk), spec.concurrency, move |(start, count)| {
            Spawned::new(fetch_chunk::<P>(chain.clone(), start, count, known.clone(), lag))
        });
        Ok::<_, Error>(calls)
    };
    stream::once(resolve)
        .map(|calls| match calls {
            Ok(calls) => calls.boxed(),
            Err(e) => stream::once(async { Err(e) }).boxed(),
        })
        .flatten()
        .scan(false, move |done, item| {
            let out = if *done {
                None
            } else {
                match item {
                    Ok(chunk) => {
                        *done = chunk.at_tip;
                        if let Some(memory) = memory.as_ref().filter(|_| chunk.at_tip) {
                            memory.reached_tip(chunk.end);
                        }
                        Some(Some(Ok(chunk.containers)))
                    }
                    Err(e) => {
                        *done = true;
                        Some(Some(Err(e)))
                    }
                }
            };
            std::future::ready(out)
        })
        .filter_map(|item| std::future::ready(item.filter(|r| r.as_ref().map_or(true, |b| !b.is_empty()))))
}

/// How `follow` polls.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FollowSpec {
    /// First index to deliver; `None` starts after the current tip.
    pub start: Option<u64>,
    /// First wait after finding nothing new; it doubles while nothing comes.
    pub poll_interval: Duration,
    /// Longest wait between polls.
    pub max_poll_interval: Duration,
    /// Calls in flight while catching up.
    pub concurrency: usize,
    /// Containers per call.
    pub chunk: u64,
}

/// An endless walk: catches up to the tip, then polls (with backoff while idle) for new
/// containers. Ends only after delivering an error, or when dropped. `anchored` is called once
/// with the first index it will deliver, as soon as that is known (at once when `spec.start` is
/// given, after the first tip read otherwise).
pub fn follow(
    chain: ChainClient,
    spec: FollowSpec,
    anchored: impl Fn(u64) + Send + Sync + 'static,
) -> impl Stream<Item = Result<Vec<Container>>> + Send + 'static {
    let anchored = std::sync::Arc::new(anchored);
    if let Some(start) = spec.start {
        anchored(start);
    }
    let rounds = stream::unfold((spec.start, false), move |(next, failed)| {
        let chain = chain.clone();
        let anchored = anchored.clone();
        async move {
            if failed {
                return None;
            }
            let mut wait = spec.poll_interval;
            let mut next = next;
            loop {
                let tip = match chain.tip().await {
                    Ok(tip) => tip,
                    Err(e) => return Some((stream::once(async { Err(e) }).boxed(), (next, true))),
                };
                // Without a start, the first tip seen anchors the follower just after it.
                let from = match next {
                    Some(from) => from,
                    None => {
                        let from = match tip {
                            None => 0,
                            Some(t) => match after_tip(&chain, t) {
                                Ok(from) => from,
                                Err(e) => return Some((stream::once(async { Err(e) }).boxed(), (next, true))),
                            },
                        };
                        anchored(from);
                        next = Some(from);
                        from
                    }
                };
                match tip {
                    Some(tip) if tip >= from => {
                        let end = match after_tip(&chain, tip) {
                            Ok(end) => end,
                            Err(e) => return Some((stream::once(async { Err(e) }).boxed(), (next, true))),
                        };
                        let range =
                            RangeSpec { start: from, end: Some(end), concurrency: spec.concurrency, chunk: spec.chunk };
                        let batches: BoxStream<'static, Result<Vec<Container>>> =
                            walk_with(chain.clone(), range, Some(tip), LagPolicy::default()).boxed();
                        return Some((batches, (Some(end), false)));
                    }
                    _ => {
                        tokio::time::sleep(wait).await;
                        wait = (wait * 2).min(spec.max_poll_interval.max(spec.poll_interval));
                    }
                }
            }
        }
    });
    rounds.flatten().scan(false, |failed, item| {
        let out = if *failed {
            None
        } else {
            *failed = item.is_err();
            Some(item)
        };
        std::future::ready(out)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plan_splits_into_calls_of_at_most_1024() {
        let calls: Vec<_> = plan(10, 3000, 1024).collect();
        assert_eq!(calls, vec![(10, 1024), (1034, 1024), (2058, 942)]);
        assert_eq!(plan(5, 5, 1024).count(), 0);
        assert_eq!(plan(0, 10, 4000).collect::<Vec<_>>(), vec![(0, 10)]);
        assert_eq!(plan(0, 3, 1).collect::<Vec<_>>(), vec![(0, 1), (1, 1), (2, 1)]);
        let total: u64 = plan(7, 1_000_007, 1000).map(|(_, n)| n).sum();
        assert_eq!(total, 1_000_000);
    }

    #[test]
    fn plan_covers_the_range_without_gaps_at_u64_edges() {
        let calls: Vec<_> = plan(u64::MAX - 5, u64::MAX, 2).collect();
        assert_eq!(calls, vec![(u64::MAX - 5, 2), (u64::MAX - 3, 2), (u64::MAX - 1, 1)]);
    }
}
