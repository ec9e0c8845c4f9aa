//! Ranged lists as datasets: a list with a block range (`listErc20Transactions`, ...) cut into
//! partitions of `chunk` block numbers (`block=<first block of the chunk>`), or a list with a
//! time window (`listLatestPrimaryNetworkTransactions`, ...) cut into UTC months of its items'
//! seconds (`month=<YYYYMM>`), each partition asked for on its own
//! ([`RangedList::span_pager`]) with up to the list's `concurrency` partitions in flight.
//!
//! The rules:
//! - A run first reads the range's newest item (the head check: one request of one item). The
//!   partitions run from the one holding it down to the range's start, each clipped to the range.
//! - A partition below the newest item's is complete once its walk ended (new items come on the
//!   list's head, in order). The newest item's partition is recorded as not complete, with the
//!   sha256 of that item ([`super::manifest::Manifest::head`]): a later run whose head check finds
//!   the same item keeps it, any other newest item has it written again.
//! - A rerun skips what the manifest holds (complete, covering its span, its file unchanged)
//!   without a request, and walks the rest; a rerun of a complete dataset costs the head check.
//! - Each partition goes to a temporary file published only when its walk ended: an interrupted
//!   run (an error, Ctrl-C) keeps the partitions it published, drops the others, and a rerun
//!   writes those. No row is in two files, none is lost.

use std::path::Path;
use std::sync::Mutex;

use futures::StreamExt;
use sha2::{Digest, Sha256};

use super::manifest::{unchanged, Origin, WalkKey};
use super::metrics::Month;
use super::{Dataset, DatasetSummary};
use crate::arrow::{ParquetOptions, ParquetSink, Resource, Target};
use crate::error::{Error, Result};
use crate::paging::block_shards::Axis;
use crate::paging::JsonItem;
use crate::rest::ranged_list::RangedList;
use crate::rest::ResourcePager;

/// What a ranged list's rows are partitioned by.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RangedKey {
    /// Block numbers, `chunk` a partition (`block=<first>`).
    Blocks {
        /// Block numbers per partition.
        chunk: u64,
    },
    /// The UTC month of the items' seconds (`month=<YYYYMM>`).
    Months,
}

impl RangedKey {
    /// The key of a list cut along `axis`; `chunk` (default [`super::DEFAULT_CHUNK`]) only for blocks.
    pub fn of(axis: Axis, chunk: Option<u64>) -> Result<RangedKey> {
        match (axis, chunk) {
            (Axis::Blocks, chunk) => Ok(RangedKey::Blocks { chunk: super::chunk_or_default(chunk)? }),
            (Axis::Seconds { .. }, None) => Ok(RangedKey::Months),
            (Axis::Seconds { .. }, Some(chunk)) => Err(Error::invalid(
                "chunk",
                chunk,
                "None: a list with a time window is partitioned by the UTC month of its items' seconds",
            )),
        }
    }

    /// The hive key of the partitions.
    pub fn hive(self) -> &'static str {
        match self {
            RangedKey::Blocks { .. } => "block",
            RangedKey::Months => "month",
        }
    }

    /// The partition of position `at`: `(hive value, first position, position after it)`.
    fn partition(self, at: u64) -> Result<(u64, u64, u64)> {
        match self {
            RangedKey::Blocks { chunk } => {
                let value = at - at % chunk;
                Ok((value, value, value.saturating_add(chunk)))
            }
            RangedKey::Months => {
                let month = Month::of(i64::try_from(at).unwrap_or(i64::MAX), "timestamp")?;
                let first = u64::try_from(month.first).unwrap_or(0);
                Ok((month.value, first, u64::try_from(month.next).unwrap_or(u64::MAX)))
            }
        }
    }
}

/// One partition of a run: its hive value and span (clipped to the range), and whether it holds
/// the newest item.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Span {
    /// The hive value.
    pub value: u64,
    /// Its first position.
    pub first: u64,
    /// The position after its last.
    pub next: u64,
    /// It holds the range's newest item.
    pub top: bool,
}

/// The partitions of positions `low..=top`, newest first, each clipped to `low..=high`.
pub fn spans(key: RangedKey, low: u64, top: u64, high: Option<u64>) -> Result<Vec<Span>> {
    let mut out = Vec::new();
    let mut at = top.max(low);
    loop {
        let (value, first, next) = key.partition(at)?;
        let (first, next) = (first.max(low), high.map_or(next, |h| next.min(h.saturating_add(1))));
        out.push(Span { value, first, next, top: out.is_empty() });
        if first <= low {
            return Ok(out);
        }
        at = first - 1;
    }
}

/// What a ranged list's dataset holds: the list, its resource's schema and the key.
pub fn ranged_walk_key(source: &str, resource: Resource, key: RangedKey) -> WalkKey {
    let (kind, chunk) = match key {
        RangedKey::Blocks { chunk } => ("data_ranged_by_block", chunk),
        RangedKey::Months => ("data_ranged_by_month", 0),
    };
    super::raw_walk_key(kind, source, resource, chunk)
}

/// The sha256 (hex) of an item's JSON text: what the head check compares.
pub fn head_digest(item: &JsonItem) -> String {
    hex::encode(Sha256::digest(item.as_str().as_bytes()))
}

/// The ranged list `pager` reads, if it is one (made by `rest::block_source::list_pager` for a
/// list with a block range or a time window).
pub fn ranged_list(pager: &ResourcePager) -> Option<std::sync::Arc<RangedList>> {
    pager.pager.ranged()?.downcast::<RangedList>().ok()
}

/// Checks a dataset of the ranged `list` read by `pager` can be written with `chunk`, before any
/// request: the key, and no `limit=` (a dataset holds the whole range).
pub fn check(pager: &ResourcePager, list: &RangedList, chunk: Option<u64>) -> Result<RangedKey> {
    let key = RangedKey::of(list.axis(), chunk)?;
    if let Some(limit) = pager.pager.limit() {
        return Err(Error::invalid(
            "limit",
            limit,
            "None: a dataset of a list with a block range or a time window holds all of its range (give \
             start/end to bound it)",
        ));
    }
    Ok(key)
}

/// Whether `set` holds `span` as it stands: complete and covering it with its file unchanged,
/// or (the newest partition) recorded when the list's newest item was the one of `head`.
fn held(set: &Dataset, span: &Span, head: &str) -> Option<u64> {
    if set.has(span.value, span.first, span.next) {
        return set.manifest().partition(span.value).map(|p| p.rows);
    }
    let manifest = set.manifest();
    let current = span.top && manifest.head.as_deref() == Some(head);
    manifest
        .partition(span.value)
        .filter(|p| current && p.first <= span.first && span.next <= p.next && unchanged(set.dir(), p))
        .map(|p| p.rows)
}

/// Writes all of `list`'s range (read by `pager`, of its resource) into the dataset `dir`
/// (see the module docs); `on_rows` is told the rows of each page written.
pub async fn write_ranged_dataset(
    pager: &ResourcePager,
    list: &RangedList,
    dir: &Path,
    chunk: Option<u64>,
    options: ParquetOptions,
    on_rows: impl FnMut(u64) + Send,
) -> Result<DatasetSummary> {
    let key = check(pager, list, chunk)?;
    let origin = Origin::service(pager.base_url());
    let set = Dataset::open(dir, key.hive(), ranged_walk_key(&list.describe(), pager.resource, key), Some(&origin))?;
    let mut summary = DatasetSummary::default();
    let Some(range) = list.range() else { return Ok(summary) };
    let Some(head) = list.head().await? else { return Ok(summary) };
    let newest = list.axis().position(&head).ok_or_else(|| Error::Decode {
        message: format!("the newest item has no {}: it fits no partition", list.axis().noun()),
        url: pager.base_url().to_string(),
        body: head.as_str().chars().take(300).collect(),
    })?;
    let digest = head_digest(&head);
    let top = range.root.high.map_or(newest, |high| newest.min(high));
    let mut todo = Vec::new();
    for span in spans(key, range.root.low, top, range.root.high)? {
        match held(&set, &span, &digest) {
            Some(rows) => {
                summary.partitions_skipped += 1;
                summary.rows_skipped += rows;
            }
            None => todo.push(span),
        }
    }
    let (set, on_rows) = (Mutex::new(set), Mutex::new(on_rows));
    let (set, on_rows) = (&set, &on_rows);
    let mut walks = futures::stream::iter(todo)
        .map(|span| async move {
            let pager = list
                .span_pager(pager.resource, span.first, span.next.saturating_sub(1))
                .ok_or_else(|| Error::Internal(format!("no walk of partition {}", span.value)))?;
            let tmp = lock(set).temp_path(span.value)?;
            let mut sink = ParquetSink::create(Target::Path(tmp), pager.resource.schema(), options)?;
            let mut cursor = pager.pager.cursor();
            while let Some(batch) = pager.next_batch(&mut cursor).await? {
                sink.write(&batch)?;
                let mut told = lock(on_rows);
                (*told)(batch.num_rows() as u64);
            }
            Ok::<_, Error>((span, sink.finish()?))
        })
        .buffer_unordered(list.concurrency());
    while let Some(walked) = walks.next().await {
        let (span, rows) = walked?;
        let mut set = lock(set);
        let before = set.manifest().head.clone();
        if span.top {
            set.set_head(Some(digest.clone()));
        }
        if let Err(e) = set.commit(span.value, span.first, span.next, rows, !span.top) {
            set.set_head(before); // never a head saved without its partition
            return Err(e);
        }
        summary.partitions_written += 1;
        summary.rows_written += rows;
    }
    Ok(summary)
}

/// The cost plan of [`write_ranged_dataset`] into `dir`, sending nothing: the head check, and at
/// least one request for each partition of the range the dataset does not hold, from the
/// newest partition recorded (else the range's end) down: newer items cost more, and so does a
/// newest partition whose newest item changed. The rows of the partitions it holds (the newest
/// as of its head check) are `held`. Reads the manifest only.
pub fn plan_ranged_dataset(
    pager: &ResourcePager,
    list: &RangedList,
    dir: &Path,
    chunk: Option<u64>,
) -> Result<crate::plan::Plan> {
    let key = check(pager, list, chunk)?;
    let manifest = super::manifest::Manifest::open(dir, ranged_walk_key(&list.describe(), pager.resource, key))?;
    let mut plan = pager.pager.plan().ok_or_else(|| Error::Internal("this list cannot be planned".into()))?;
    let Some(range) = list.range() else { return Ok(plan) };
    let recorded = manifest.partitions.iter().map(|p| p.next.saturating_sub(1)).max();
    // The newest partition recorded (the list's head when it was written), else the range's end.
    let top = recorded.map(|r| range.root.high.map_or(r, |h| r.min(h))).or(range.root.high).unwrap_or(range.root.low);
    let (mut held, mut pending) = (0, 0);
    for span in spans(key, range.root.low, top, range.root.high)? {
        let current = |p: &super::manifest::Partition| {
            span.top && manifest.head.is_some() && p.first <= span.first && span.next <= p.next
        };
        let kept = manifest.partition(span.value).filter(|p| p.covers(span.first, span.next) || current(p));
        match kept.filter(|p| unchanged(dir, p)) {
            Some(p) => held += p.rows,
            None => pending += 1,
        }
    }
    let walk = &mut plan.walk;
    (walk.requests, walk.items, walk.held) = (crate::plan::Requests::AtLeast(1 + pending), None, held);
    walk.unknown = vec![format!(
        "the items of the {pending} partitions to write (a list has no count): one request each at least, one \
         more a page; the head check is one request; a newest partition whose newest item changed is written again"
    )];
    Ok(plan)
}

/// The value behind `mutex` (a panic elsewhere does not poison the walk's bookkeeping).
fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|p| p.into_inner())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn block_partitions_tile_the_range_newest_first_clipped_to_its_ends() {
        let got = spans(RangedKey::Blocks { chunk: 100 }, 9_050, 9_320, Some(9_349)).unwrap();
        let tiles: Vec<_> = got.iter().map(|s| (s.value, s.first, s.next, s.top)).collect();
        assert_eq!(
            tiles,
            vec![
                (9_300, 9_300, 9_350, true),
                (9_200, 9_200, 9_300, false),
                (9_100, 9_100, 9_200, false),
                (9_000, 9_050, 9_100, false)
            ]
        );
        let one = spans(RangedKey::Blocks { chunk: 100 }, 0, 0, None).unwrap();
        assert_eq!(one, vec![Span { value: 0, first: 0, next: 100, top: true }]);
    }

    #[test]
    fn month_partitions_follow_the_calendar() {
        // 2025-12-31 23:59:59 down to 2025-10-15 00:00:00
        let got = spans(RangedKey::Months, 1_760_486_400, 1_767_225_599, None).unwrap();
        let months: Vec<u64> = got.iter().map(|s| s.value).collect();
        assert_eq!(months, vec![202512, 202511, 202510]);
        assert_eq!((got[2].first, got[0].next), (1_760_486_400, 1_767_225_600));
        assert!(got.windows(2).all(|w| w[1].next == w[0].first), "no gap, no overlap");
    }

    #[test]
    fn a_chunk_is_refused_for_months_and_checked_for_blocks() {
        let err = RangedKey::of(Axis::Seconds { earliest: 0 }, Some(5)).unwrap_err().to_string();
        assert!(err.starts_with("invalid chunk=5: None: a list with a time window"), "{err}");
        assert!(RangedKey::of(Axis::Blocks, Some(0)).is_err());
        assert_eq!(
            RangedKey::of(Axis::Blocks, None).unwrap(),
            RangedKey::Blocks { chunk: crate::dataset::DEFAULT_CHUNK }
        );
    }
}
