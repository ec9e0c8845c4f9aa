//! Range walks: plan a range into calls of at most 1024, fetch them concurrently, deliver in
//! order, stop cleanly at the tip; and `follow`, which keeps walking as the tip grows.

use std::time::Duration;

use futures::stream::{self, BoxStream, Stream, StreamExt};

use super::client::{ChainClient, MAX_RANGE};
use super::container::Container;
use crate::error::{Error, Result, RpcErrorKind};
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

fn is_past_tip(err: &Error) -> bool {
    matches!(err, Error::Rpc { kind: RpcErrorKind::PastTip | RpcErrorKind::EmptyIndex, .. })
}

/// Walks a range: yields batches in index order, without gaps or repeats. Ends at `end`, at the
/// tip (a short batch, or a call past the tip), or after delivering the first error.
pub fn walk(chain: ChainClient, spec: RangeSpec) -> impl Stream<Item = Result<Vec<Container>>> + Send + 'static {
    let resolve = async move {
        let end = match spec.end {
            Some(end) => end,
            None => match chain.tip().await? {
                Some(tip) => tip + 1,
                None => spec.start,
            },
        };
        let calls = ordered_chunks(plan(spec.start, end, spec.chunk), spec.concurrency, move |(start, count)| {
            let chain = chain.clone();
            Spawned::new(async move { chain.container_range(start, count).await.map(|batch| (count, batch)) })
        });
        Ok::<_, Error>(calls)
    };
    stream::once(resolve)
        .map(|calls| match calls {
            Ok(calls) => calls.boxed(),
            Err(e) => stream::once(async { Err(e) }).boxed(),
        })
        .flatten()
        .scan(false, |done, item| {
            let out = if *done {
                None
            } else {
                match item {
                    Ok((asked, batch)) => {
                        *done = (batch.len() as u64) < asked;
                        Some(Some(Ok(batch)))
                    }
                    Err(e) if is_past_tip(&e) => None,
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
                let from = *next.get_or_insert_with(|| {
                    let from = tip.map_or(0, |t| t + 1);
                    anchored(from);
                    from
                });
                match tip {
                    Some(tip) if tip >= from => {
                        let range = RangeSpec { start: from, end: Some(tip + 1), concurrency: spec.concurrency, chunk: spec.chunk };
                        let batches: BoxStream<'static, Result<Vec<Container>>> = walk(chain.clone(), range).boxed();
                        return Some((batches, (Some(tip + 1), false)));
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
