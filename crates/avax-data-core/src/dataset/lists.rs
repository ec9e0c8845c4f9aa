//! Data API lists as datasets: a newest-first, token-paged walk cut into hive partitions by a
//! natural key of its rows: blocks by block-number chunk (`block=<first block of the chunk>`),
//! vertices by the UTC month of their timestamp (`month=<YYYYMM>`).
//!
//! The Data API has no range filter: every run walks from where the pager stands (the head, for
//! a fresh pager) downwards. The rules, kept by [`Cutter`]:
//! - Rows must come newest first (block numbers strictly down, timestamps never up) and, for
//!   blocks, of one chain; anything else is a decode error, never a silently mixed partition.
//! - A partition is complete once the walk has passed below its lower edge, or the list ended
//!   under it. The newest partition of a walk (new items may still arrive in it, or, for a walk
//!   from a saved token, newer ones were never seen) is complete only when proven: a block chunk
//!   holding all `chunk` block numbers, or (from the head) a month that ended over a day before
//!   the walk started.
//! - A rerun skips (does not rewrite) every partition the manifest records as complete whose
//!   file is unchanged, writes the others (partial, missing, altered) whole again, and adds new
//!   ones; each partition's file is replaced whole, so no row is ever in two files.
//! - A walk that reached the end of the list records its lowest partition in the manifest
//!   (`end`). A rerun that reaches a complete partition below which every recorded partition down
//!   to `end` is complete and unchanged stops there: what lies below is already written.
//! - A failed walk discards the partition it was writing; the partitions it passed are recorded,
//!   so a rerun completes the dataset.

use std::path::Path;

use super::manifest::{Manifest, Origin, WalkKey};
use super::metrics::Month;
use super::{Dataset, DatasetSummary};
use crate::arrow::{ParquetOptions, ParquetSink, Resource, Target};
use crate::data::ResourcePager;
use crate::error::{Error, Result};
use arrow_array::cast::AsArray;
use arrow_array::types::{TimestampNanosecondType, UInt64Type};
use arrow_array::RecordBatch;

/// How long after a month ends a Data API list may still add items dated in it (indexing lag).
pub const MONTH_SETTLE_SECONDS: i64 = 86_400;

/// What a list's rows are partitioned by.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ListKey {
    /// Blocks by `blockNumber`, `chunk` block numbers per partition (`block=<first>`).
    Block {
        /// Block numbers per partition.
        chunk: u64,
    },
    /// Rows by the UTC month of a timestamp column (`month=<YYYYMM>`).
    Month {
        /// The timestamp column.
        column: &'static str,
    },
}

impl ListKey {
    /// The key of a list of `resource`; `chunk` (block numbers per partition, default
    /// [`super::DEFAULT_CHUNK`]) only for blocks.
    pub fn of(resource: Resource, chunk: Option<u64>) -> Result<ListKey> {
        match (resource, chunk) {
            (Resource::Block, chunk) => Ok(ListKey::Block { chunk: super::chunk_or_default(chunk)? }),
            (Resource::Vertex, None) => Ok(ListKey::Month { column: "vertexTimestamp" }),
            (Resource::Vertex, Some(chunk)) => Err(Error::invalid(
                "chunk",
                chunk,
                "None: vertices are partitioned by the UTC month of vertexTimestamp",
            )),
            (other, _) => Err(Error::invalid(
                "resource",
                format!("{other:?}"),
                "a list of blocks (partitioned by block number), vertices (by month), or a list with a block \
                 range (by block number) or a time window (by month), newest first; the other lists have no \
                 key to partition by",
            )),
        }
    }

    /// The hive key of the partitions.
    pub fn hive(self) -> &'static str {
        match self {
            ListKey::Block { .. } => "block",
            ListKey::Month { .. } => "month",
        }
    }

    /// Each row's sort key (block number, or Unix seconds), newest first in a valid list.
    fn keys(self, batch: &RecordBatch) -> Result<Vec<i128>> {
        let (name, scale) = match self {
            ListKey::Block { .. } => ("blockNumber", 1),
            ListKey::Month { column } => (column, 1_000_000_000),
        };
        let column = batch.column_by_name(name).ok_or_else(|| Error::Internal(format!("no {name} column")))?;
        let values: Vec<Option<i128>> = match self {
            ListKey::Block { .. } => column.as_primitive::<UInt64Type>().iter().map(|v| v.map(i128::from)).collect(),
            ListKey::Month { .. } => column
                .as_primitive::<TimestampNanosecondType>()
                .iter()
                .map(|v| v.map(|ns| i128::from(ns.div_euclid(scale))))
                .collect(),
        };
        values
            .into_iter()
            .enumerate()
            .map(|(row, v)| v.ok_or_else(|| decode(format!("row {row} of a page has no {name}: it fits no partition"))))
            .collect()
    }

    /// The partition of sort key `key`: `(hive value, first, next)`.
    fn span(self, key: i128) -> Result<(u64, u64, u64)> {
        match self {
            ListKey::Block { chunk } => {
                let number = u64::try_from(key).map_err(|_| decode(format!("block number {key}")))?;
                let value = number - number % chunk;
                Ok((value, value, value.saturating_add(chunk)))
            }
            ListKey::Month { column } => {
                let at = i64::try_from(key).map_err(|_| decode(format!("{column} {key}")))?;
                let month = Month::of(at, column)?;
                let first = u64::try_from(month.first).map_err(|_| decode(format!("{column} {at} is before 1970")))?;
                Ok((month.value, first, month.next as u64))
            }
        }
    }
}

fn decode(message: String) -> Error {
    Error::Decode { message, url: String::new(), body: String::new() }
}

/// What a list dataset holds: the list's path, its resource's schema and the key.
pub fn list_walk_key(source: &str, resource: Resource, key: ListKey) -> WalkKey {
    let (kind, chunk) = match key {
        ListKey::Block { chunk } => ("data_list_by_block", chunk),
        ListKey::Month { .. } => ("data_list_by_month", 0),
    };
    super::raw_walk_key(kind, source, resource, chunk)
}

/// Whether [`Cutter::push`] wants more rows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Flow {
    /// Go on.
    More,
    /// Everything below is already written and complete: stop the walk.
    Stop,
}

/// The partition being walked: written to a temporary file, or passed (already complete).
struct Open {
    value: u64,
    first: u64,
    next: u64,
    rows: u64,
    sink: Option<ParquetSink>,
    newest: bool,
}

/// The rules of a newest-first walk cut into partitions (see the module docs), fed one batch
/// at a time: no network, so the rules are tested on their own.
pub struct Cutter {
    set: Dataset,
    key: ListKey,
    schema: arrow_schema::SchemaRef,
    options: ParquetOptions,
    from_head: bool,
    started: i64,
    open: Option<Open>,
    last_key: Option<i128>,
    chain: Option<String>,
    lowest: Option<u64>,
    summary: DatasetSummary,
    /// The lowest recorded partition that is not complete with its file unchanged, as found when
    /// the walk started (`None`: every one is): what lies below a partition is written when it
    /// is under this one. Checked once, not at every partition (the walk only writes above where
    /// it stands).
    first_unwritten: Option<u64>,
}

impl Cutter {
    /// A cutter writing into `set`, rows of `resource` keyed by `key`; `from_head`: the walk
    /// starts at the list's first page; `started`: when it started (Unix seconds).
    pub fn new(
        set: Dataset,
        resource: Resource,
        key: ListKey,
        options: ParquetOptions,
        from_head: bool,
        started: i64,
    ) -> Self {
        let first_unwritten = set.manifest().partitions.iter().find(|p| !p.whole(set.dir())).map(|p| p.value);
        Cutter {
            first_unwritten,
            set,
            key,
            schema: resource.schema(),
            options,
            from_head,
            started,
            open: None,
            last_key: None,
            chain: None,
            lowest: None,
            summary: DatasetSummary::default(),
        }
    }

    /// The dataset as it stands.
    pub fn dataset(&self) -> &Dataset {
        &self.set
    }

    /// Takes the next batch of the walk (newest first). The pager already dropped the repeats of
    /// a shifted page ([`crate::paging::repeats`]): a row at or above the last one is refused.
    pub fn push(&mut self, batch: &RecordBatch) -> Result<Flow> {
        let keys = self.key.keys(batch)?;
        let keys = &keys[..];
        self.check_chain(batch)?;
        let strict = matches!(self.key, ListKey::Block { .. });
        let mut last = self.last_key;
        for &key in keys {
            if let Some(last) = last.filter(|&last| key > last || (strict && key == last)) {
                return Err(decode(format!(
                    "the list is not newest first: {} {key} came after {last}",
                    self.key.keys_name()
                )));
            }
            last = Some(key);
        }
        let mut row = 0;
        while row < keys.len() {
            let (value, first, next) = self.key.span(keys[row])?;
            let mut end = row + 1;
            while end < keys.len() && self.key.span(keys[end])?.0 == value {
                end += 1;
            }
            if self.open.as_ref().is_none_or(|o| o.value != value) {
                if let Some(open) = self.open.take() {
                    self.close(open, true)?;
                }
                if self.below_is_done(value, first, next) {
                    self.skip_from(value);
                    return Ok(Flow::Stop);
                }
                self.start(value, first, next)?;
            }
            let open = self.open.as_mut().ok_or_else(|| Error::Internal("no open partition".into()))?;
            if let Some(sink) = open.sink.as_mut() {
                sink.write(&batch.slice(row, end - row))?;
            }
            open.rows += (end - row) as u64;
            self.last_key = Some(keys[end - 1]);
            row = end;
        }
        Ok(Flow::More)
    }

    /// Ends the walk: `ended` when the list's last item was handed out. Returns what it did.
    pub fn finish(mut self, ended: bool) -> Result<DatasetSummary> {
        if let Some(open) = self.open.take() {
            self.close(open, ended)?;
        }
        if let (true, Some(lowest)) = (ended, self.lowest) {
            self.set.set_end(Some(lowest))?;
        }
        Ok(self.summary)
    }

    /// The hive value of the partition being written, if any.
    pub fn open_value(&self) -> Option<u64> {
        self.open.as_ref().map(|open| open.value)
    }

    /// Drops the partition being written (after a failed walk): its temporary file goes, the
    /// manifest keeps what was recorded.
    pub fn abandon(mut self) {
        if let Some(open) = self.open.take() {
            if open.sink.is_some() {
                self.set.discard(open.value);
            }
        }
    }

    fn check_chain(&mut self, batch: &RecordBatch) -> Result<()> {
        if !matches!(self.key, ListKey::Block { .. }) {
            return Ok(());
        }
        let Some(column) = batch.column_by_name("chainId") else { return Ok(()) };
        let Some(strings) = column.as_string_view_opt() else { return Ok(()) };
        for v in strings.iter().flatten() {
            match &self.chain {
                None => self.chain = Some(v.to_string()),
                Some(c) if c != v => {
                    return Err(Error::invalid(
                        "pager",
                        format!("blocks of chains {c} and {v}"),
                        "a list of one chain's blocks (latest_blocks mixes chains: block numbers collide)",
                    ))
                }
                Some(_) => {}
            }
        }
        Ok(())
    }

    fn start(&mut self, value: u64, first: u64, next: u64) -> Result<()> {
        let newest = self.lowest.is_none();
        self.lowest = Some(value);
        let sink = if self.set.has(value, first, next) {
            None
        } else {
            let tmp = self.set.temp_path(value)?;
            Some(ParquetSink::create(Target::Path(tmp), self.schema.clone(), self.options)?)
        };
        self.open = Some(Open { value, first, next, rows: 0, sink, newest });
        Ok(())
    }

    /// Closes `open`: `passed` when the walk went below its lower edge (or the list ended).
    fn close(&mut self, open: Open, passed: bool) -> Result<()> {
        let Some(sink) = open.sink else {
            let rows = self.set.manifest().partition(open.value).map_or(0, |p| p.rows);
            self.summary.partitions_skipped += 1;
            self.summary.rows_skipped += rows;
            return Ok(());
        };
        let rows = match sink.finish() {
            Ok(rows) => rows,
            Err(e) => {
                self.set.discard(open.value);
                return Err(e);
            }
        };
        let proven = match self.key {
            ListKey::Block { chunk } => rows == chunk,
            ListKey::Month { .. } => {
                self.from_head && (open.next as i64).saturating_add(MONTH_SETTLE_SECONDS) <= self.started
            }
        };
        let complete = passed && (!open.newest || proven);
        // A partial partition never replaces a recorded one holding more rows (a walk cut
        // shorter than the last one): the fuller file stays.
        let fuller = self.set.manifest().partition(open.value).filter(|p| p.rows > rows).map(|p| p.rows);
        if let (false, Some(kept)) = (complete, fuller.filter(|_| self.set.has_file(open.value))) {
            self.set.discard(open.value);
            self.summary.partitions_skipped += 1;
            self.summary.rows_skipped += kept;
            return Ok(());
        }
        self.set.commit(open.value, open.first, open.next, rows, complete)?;
        self.summary.partitions_written += 1;
        self.summary.rows_written += rows;
        Ok(())
    }

    /// Whether the partition `value` and all below it are written: it is complete and unchanged,
    /// a walk reached the list's end at or below it, and every partition recorded below it is
    /// complete and unchanged.
    fn below_is_done(&self, value: u64, first: u64, next: u64) -> bool {
        let manifest = self.set.manifest();
        manifest.end.is_some_and(|end| end <= value)
            && self.set.has(value, first, next)
            && self.first_unwritten.is_none_or(|lowest| lowest >= value)
    }

    /// Counts `value` and every partition below it as skipped.
    fn skip_from(&mut self, value: u64) {
        for p in self.set.manifest().partitions.iter().filter(|p| p.value <= value) {
            self.summary.partitions_skipped += 1;
            self.summary.rows_skipped += p.rows;
        }
        self.lowest = Some(value);
    }
}

impl ListKey {
    fn keys_name(self) -> &'static str {
        match self {
            ListKey::Block { .. } => "blockNumber",
            ListKey::Month { column } => column,
        }
    }
}

/// Checks, before any request, that a dataset of `pager`'s list can be written with `chunk`: a
/// list of blocks or vertices ([`ListKey::of`]), or a ranged list ([`super::ranged::check`]).
pub fn check_dataset(pager: &ResourcePager, chunk: Option<u64>) -> Result<()> {
    match super::ranged::ranged_list(pager) {
        Some(list) => super::ranged::check(pager, &list, chunk).map(drop),
        None => ListKey::of(pager.resource, chunk).map(drop),
    }
}

/// Writes the rest of `pager`'s walk into the dataset `dir` ([`Cutter`] says how); `chunk`:
/// block numbers per partition (blocks only); `now`: when the walk starts (Unix seconds). A
/// ranged list (a block range or a time window) is written by [`super::ranged`] instead: all of
/// its range, partition by partition.
pub async fn write_list_dataset(
    pager: &ResourcePager,
    dir: &Path,
    chunk: Option<u64>,
    options: ParquetOptions,
    now: i64,
    mut on_rows: impl FnMut(u64) + Send,
) -> Result<DatasetSummary> {
    if let Some(list) = super::ranged::ranged_list(pager) {
        return super::ranged::write_ranged_dataset(pager, &list, dir, chunk, options, on_rows).await;
    }
    let key = ListKey::of(pager.resource, chunk)?;
    let at = pager.position();
    let from_head = at.items_read == 0 && at.offset == 0 && at.next_page_token().is_none() && !at.exhausted;
    let origin = Origin::service(pager.base_url());
    let walk = list_walk_key(&pager.pager.describe(), pager.resource, key);
    let set = Dataset::open(dir, key.hive(), walk, Some(&origin))?;
    // A rerun that will stop at what the dataset holds reads no page ahead: no request past the
    // stop (and its plan, [`super::planned_lists`], counts what it sends).
    let stops = reach(set.manifest(), dir, key).is_some_and(|r| r.stop.is_some());
    let cursor = if stops { pager.pager.cursor_in_step() } else { pager.pager.cursor() };
    let mut walk = Unwinding { from: pager.pager.mark(), cursor, armed: true };
    let mut cutter = Cutter::new(set, pager.resource, key, options, from_head, now);
    loop {
        let (before, opened) = (pager.pager.mark(), cutter.open_value());
        let step = match pager.next_batch(&mut walk.cursor).await {
            Ok(Some(batch)) => cutter.push(&batch).map(|flow| (flow, batch.num_rows() as u64)),
            Ok(None) => {
                walk.armed = false;
                return cutter.finish(pager.position().exhausted);
            }
            Err(e) => Err(e),
        };
        if cutter.open_value() != opened {
            // This page opened the partition now being written: an unfinished walk resumes here.
            walk.from = before;
        }
        match step {
            Ok((Flow::More, rows)) => on_rows(rows),
            Ok((Flow::Stop, rows)) => {
                on_rows(rows);
                walk.armed = false;
                return cutter.finish(false);
            }
            Err(e) => {
                cutter.abandon();
                walk.unwind();
                return Err(e);
            }
        }
    }
}

/// The cursor of a list dataset's walk, which an unfinished walk (an error, or the future
/// dropped: Ctrl-C, a cancellation) puts back at the start of the page where the partition it
/// discards began: the rows before that page are in recorded partitions, and a rerun from the
/// same pager re-reads the page (its rows of the partition above are dropped as a partial
/// partition that never replaces the fuller one recorded), so no row is lost or written twice.
struct Unwinding {
    from: crate::paging::Mark,
    cursor: crate::paging::PagerCursor,
    armed: bool,
}

impl Unwinding {
    fn unwind(&mut self) {
        if std::mem::take(&mut self.armed) {
            if let Err(e) = self.cursor.rewind(&self.from) {
                log::warn!("an unfinished dataset walk could not put the pager's position back: {e}");
            }
        }
    }
}

impl Drop for Unwinding {
    fn drop(&mut self) {
        self.unwind();
    }
}

/// How far a rerun of a list walk from the head reaches into the dataset.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Reach {
    /// Items the walk reads: from the head (as the dataset last saw it) down to the first item of
    /// the stop partition, that one included; to the list's end without a stop.
    pub items: u64,
    /// Items of the stop partition and those below it: not read.
    pub held: u64,
    /// The hive value of the partition the walk stops at, if any.
    pub stop: Option<u64>,
    /// Items below the lowest partition may exist and are not counted (a month-keyed list no
    /// walk followed to its end).
    pub open_bottom: bool,
}

/// The reach of a walk from the head over the dataset `manifest` of `dir` keyed by `key`, with
/// the writer's own rules ([`Cutter`]): a whole partition is complete with its file
/// of the recorded size and modification time. Block numbers are dense from block 0, so a block
/// list's items are counted from its block numbers (a hole the manifest lost still holds
/// `chunk` blocks); a month-keyed list counts the rows the manifest recorded. `None` for a
/// dataset that holds no partition.
pub fn reach(manifest: &Manifest, dir: &Path, key: ListKey) -> Option<Reach> {
    let parts = &manifest.partitions;
    let top = parts.last()?;
    let whole: Vec<bool> = parts.iter().map(|p| p.whole(dir)).collect();
    let lowest_unwritten = parts.iter().zip(&whole).find(|(_, w)| !**w).map(|(p, _)| p.value);
    let stop = manifest.end.and_then(|end| {
        parts
            .iter()
            .zip(&whole)
            .rev()
            .find(|(p, w)| **w && p.value >= end && lowest_unwritten.is_none_or(|l| l >= p.value))
            .map(|(p, _)| p.value)
    });
    let rows_at_or_below = |v: u64| parts.iter().filter(|p| p.value <= v).map(|p| p.rows).sum::<u64>();
    let out = match (key, stop) {
        (ListKey::Block { chunk }, Some(stop)) => {
            let head_next = top.value.saturating_add(top.rows);
            Reach {
                items: head_next.saturating_sub(stop.saturating_add(chunk)) + 1,
                held: rows_at_or_below(stop),
                stop: Some(stop),
                open_bottom: false,
            }
        }
        (ListKey::Block { .. }, None) => {
            Reach { items: top.value.saturating_add(top.rows), held: 0, stop: None, open_bottom: false }
        }
        (ListKey::Month { .. }, Some(stop)) => {
            let above: u64 = parts.iter().filter(|p| p.value > stop).map(|p| p.rows).sum();
            Reach { items: above + 1, held: rows_at_or_below(stop), stop: Some(stop), open_bottom: false }
        }
        (ListKey::Month { .. }, None) => Reach {
            items: parts.iter().map(|p| p.rows).sum(),
            held: 0,
            stop: None,
            open_bottom: manifest.end.is_none(),
        },
    };
    Some(out)
}

#[cfg(test)]
#[path = "lists_tests.rs"]
mod tests;
