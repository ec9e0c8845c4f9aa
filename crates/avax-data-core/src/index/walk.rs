//! Resumable walks as objects: a [`RangeWalk`] (a range, or to the tip) and a [`FollowWalk`]
//! (endless, polling the tip), each owning its position and handing out consumers.
//!
//! The position is exactly what was handed to the caller: items and batches move it as they are
//! handed out, [`RangeWalk::collect`] moves it once at the end (all or nothing), and
//! [`ParquetExport::write_parquet`] after each batch the file holds. Every new consumer
//! supersedes the previous one (see [`super::cursor`]), so two consumers never hand out the
//! same rows.

use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use arrow_array::RecordBatch;
use arrow_schema::SchemaRef;
use futures::stream::{Stream, StreamExt};

use super::chunk::LagPolicy;
use super::cursor::{Cursor, Lease};
use super::feed::{IndexFeed, Split};
use super::range::{after_tip, follow, walk_resuming, RangeMemory};
use super::RangePiece;
use super::{ChainClient, Container, ContainerColumns, FollowSpec, IndexPath, RangeSpec, MAX_RANGE};
use crate::arrow::decoded::{decode_columns_with, decode_containers, decoded_schema_for, DecodeMode, Selection};
use crate::arrow::parquet_export::Drained;
use crate::arrow::parquet_slices::{write_in_slices, Pace, Sliced};
use crate::arrow::{
    columns_to_batch, container_schema, containers_to_batch, ParquetExport, ParquetOptions, Target, Wait, WalkReader,
};
use crate::dataset::manifest::Origin;
use crate::dataset::{self, Dataset, DatasetSummary};
use crate::decode::cchain::Hashes;
use crate::error::{Error, Result};
use crate::paging::{Prefetch, Spawned};
use crate::stop::Stop;

/// A record batch of a walk with the index that follows its last row.
pub type Batch = (u64, RecordBatch);

/// The frame schema of a walk of `path`: decoded, or the raw container columns.
pub fn walk_schema(path: IndexPath, decode: Option<DecodeMode>) -> Result<SchemaRef> {
    match decode {
        Some(mode) => decoded_schema_for(path, mode),
        None => Ok(container_schema()),
    }
}

/// Record batches of containers (decoded when asked), with the index that follows each.
fn to_batches(
    path: IndexPath,
    decode: Option<DecodeMode>,
    containers: impl Stream<Item = Result<Vec<Container>>> + Send + 'static,
) -> impl Stream<Item = Result<Batch>> + Send + 'static {
    containers.map(move |piece| {
        let piece = piece?;
        let next = piece.last().map_or(0, |c| c.index.saturating_add(1));
        let batch = match decode {
            Some(mode) => decode_containers(path, &piece, mode)?,
            None => containers_to_batch(&piece),
        };
        Ok((next, batch))
    })
}

/// Record batches of containers held as columns, decoded in `mode`, with the index that
/// follows each. Up to `concurrency` answers are decoded at once, each on a blocking thread of
/// the runtime (so its workers keep fetching), and handed on in order. Dropping the stream (a consumer
/// gone, Ctrl-C) stops the decoding within one container's work.
fn decoded_batches(
    path: IndexPath,
    mode: DecodeMode,
    hashes: Hashes,
    columns: impl Stream<Item = Result<ContainerColumns>> + Send + 'static,
    concurrency: usize,
) -> impl Stream<Item = Result<Batch>> + Send + 'static {
    columns
        .map(move |piece| {
            Spawned::stoppable(|stop| async move {
                let piece = piece?;
                let next = piece.indexes().last().map_or(0, |i| i.saturating_add(1));
                // On a blocking thread: the runtime's workers keep fetching meanwhile.
                let decode = move || decode_columns_with(path, piece, mode, hashes, &stop);
                let batch = tokio::task::spawn_blocking(decode)
                    .await
                    .map_err(|e| Error::Internal(format!("a decoding task failed: {e}")))??;
                Ok((next, batch))
            })
        })
        .buffered(concurrency.max(1))
}

/// Record batches of raw containers held as columns, with the index that follows each.
fn columns_batches(
    columns: impl Stream<Item = Result<ContainerColumns>> + Send + 'static,
) -> impl Stream<Item = Result<Batch>> + Send + 'static {
    columns.map(|piece| {
        let piece = piece?;
        let next = piece.indexes().last().map_or(0, |i| i.saturating_add(1));
        Ok((next, columns_to_batch(piece)))
    })
}

/// Splits containers into items, each with the index after it.
pub fn container_items(piece: Vec<Container>) -> Result<Vec<(u64, Container)>> {
    Ok(piece.into_iter().map(|c| (c.index.saturating_add(1), c)).collect())
}

/// A lazy, resumable walk over `[start, end)` of an index, or to the tip seen when it starts.
#[derive(Clone)]
pub struct RangeWalk {
    chain: ChainClient,
    /// The range as created (`start`, `end`, calls in flight, containers per call).
    range: RangeSpec,
    decode: Option<DecodeMode>,
    /// The columns handed out (`columns=`), `None`: all of them.
    columns: Option<Arc<Selection>>,
    schema: SchemaRef,
    cursor: Cursor,
    /// What the walks of this range learned: the end the first one read, the containers known to exist.
    memory: RangeMemory,
}

impl RangeWalk {
    /// A walk of `range` (`start` to `end`, exclusive; `None`: the tip) in calls of `chunk`
    /// containers (clamped to `[1, 1024]`), `concurrency` in flight (at least one), decoded when
    /// `decode` says so.
    pub fn new(chain: ChainClient, range: RangeSpec, decode: Option<DecodeMode>) -> Result<Self> {
        let schema = walk_schema(chain.path(), decode)?;
        let range =
            RangeSpec { concurrency: range.concurrency.max(1), chunk: range.chunk.clamp(1, MAX_RANGE), ..range };
        let cursor = Cursor::new(range.start);
        Ok(RangeWalk { chain, range, decode, columns: None, schema, cursor, memory: RangeMemory::default() })
    }

    /// The same walk (sharing its position) handing out only the columns `names` (`None`: all),
    /// checked against its frame ([`Selection::new`]) before any request.
    pub fn with_columns(&self, names: Option<&[String]>) -> Result<Self> {
        let full = walk_schema(self.chain.path(), self.decode)?;
        let columns = names.map(|names| Selection::new(&full, names)).transpose()?.map(Arc::new);
        let schema = columns.as_ref().map_or(full, |c| c.schema());
        Ok(RangeWalk { columns, schema, ..self.clone() })
    }

    /// The columns handed out, as given (`None`: all of them).
    pub fn columns(&self) -> Option<&[String]> {
        self.columns.as_ref().map(|c| c.names())
    }

    /// The same walk (sharing its position), decoded as `decode` says; `None` keeps the setting.
    pub fn with_decode(&self, decode: Option<Option<DecodeMode>>) -> Result<Self> {
        match decode {
            None => Ok(self.clone()),
            Some(decode) => RangeWalk { decode, ..self.clone() }.with_columns(self.columns()),
        }
    }

    /// The first index of the walk as created.
    pub fn start(&self) -> u64 {
        self.range.start
    }

    /// The end (exclusive) as given (`stop`, or `start + count`), or `None` for the tip seen
    /// when a walk starts.
    pub fn end(&self) -> Option<u64> {
        self.range.end
    }

    /// The end (exclusive) the walk actually reaches, once known: its end
    /// ([`RangeWalk::end_known`]), or one past the tip where a walk of it stopped short of that
    /// end (until a later walk gets past it).
    pub fn end_reached(&self) -> Option<u64> {
        let end = self.end_known()?;
        match self.memory.tip_reached() {
            Some(tip) if tip < end && tip >= self.next_index() => Some(tip),
            _ => Some(end),
        }
    }

    /// Why the walk ended before its end: the position stands at the tip a walk met before
    /// the end given. The text names where it ended; the bindings show it as a warning when a
    /// consumer ends there.
    pub fn tip_notice(&self) -> Option<String> {
        let (tip, end) = (self.memory.tip_reached()?, self.end_known()?);
        (tip < end && self.next_index() == tip).then(|| {
            format!(
                "{}: the walk reached the tip before its end and ended at index {tip} (next_index={tip}; the \
                 range asked for up to {end}, exclusive): the chain holds no container at {tip} yet; a new \
                 consumer of this range walks on from {tip} once it does",
                self.path()
            )
        })
    }

    /// The first index not yet handed out: where the next consumer starts.
    pub fn next_index(&self) -> u64 {
        self.cursor.position()
    }

    /// The same range from its original start, with a position (and a tip) of its own; this
    /// walk is left as it is. What re-running a notebook cell needs.
    pub fn restart(&self) -> Self {
        RangeWalk { cursor: Cursor::new(self.range.start), memory: RangeMemory::default(), ..self.clone() }
    }

    /// This walk over `[first, next)` only, with a position (and a tip) of its own.
    fn part(&self, first: u64, next: u64) -> Self {
        let range = RangeSpec { start: first, end: Some(next), ..self.range };
        RangeWalk { range, cursor: Cursor::new(first), memory: RangeMemory::default(), ..self.clone() }
    }

    /// Why a consumer started now would hand out nothing, or `None` when items may be left: the
    /// position is at the end (as given, or the tip an earlier walk read). The text names
    /// `next_index` and how to start over; the bindings show it as a warning.
    pub fn spent(&self) -> Option<String> {
        let (next, end) = (self.next_index(), self.end_known()?);
        (next >= end && next > self.range.start).then(|| {
            format!(
                "this range of {} is exhausted (next_index={next}, its end is {end}): a new consumer resumes \
                 there and gets nothing; call .restart() for a new walk from start={}, or make a new range \
                 with range(start=...)",
                self.path(),
                self.range.start
            )
        })
    }

    /// The schema of this walk's frames.
    pub fn schema(&self) -> SchemaRef {
        self.schema.clone()
    }

    /// Whether items are decoded rows rather than containers.
    pub fn decode(&self) -> Option<DecodeMode> {
        self.decode
    }

    /// The index path walked.
    pub fn path(&self) -> IndexPath {
        self.chain.path()
    }

    /// The cost plan of the rest of the walk (from [`RangeWalk::next_index`]): metered only at
    /// a hosted endpoint ([`crate::plan::metering`]; a node has no API key, so the default tier
    /// is `unauthenticated`). With a cache, the containers it holds
    /// are counted out ([`crate::cache::held`]).
    pub fn plan(&self) -> crate::plan::Plan {
        let from = self.next_index();
        let end = self.end_known();
        let positions = end.map(|end| end.saturating_sub(from));
        let walk = crate::plan::shapes::index_range(self.path().as_str(), positions, self.range.chunk);
        let budget = crate::plan::sources::node_budget(self.chain.transport_config(), self.chain.node_url());
        let plan = crate::plan::Plan::new(walk, &budget);
        match (self.chain.cache(), end) {
            (Some(store), Some(end)) => {
                crate::cache::held::index_plan(plan, &self.chain, store, from, end, self.range.chunk)
            }
            _ => plan,
        }
    }

    /// The cost plan of an export of the rest of the walk by the command line, `held` of its
    /// rows already written (a resumed export): [`RangeWalk::plan`] less those rows, and the
    /// reads the export sends besides the walk: the tip when `reads_tip` (a fresh export checks
    /// its range against it), and the chain's identity (container 0, the export's source) when
    /// the client has not read it and the plan does not count it already (a cached walk's plan
    /// does).
    pub fn plan_export(&self, reads_tip: bool, held: u64) -> crate::plan::Plan {
        let counted = self.chain.cache().is_some() && self.end_known().is_some_and(|end| self.next_index() < end);
        let identity = self.chain.known_identity().is_none() && !counted;
        self.plan().less_held(held).plus_requests(u64::from(reads_tip) + u64::from(identity))
    }

    /// The cost plan of [`RangeWalk::write_dataset`] of the rest of the walk into `dir` in
    /// partitions of `chunk`: the partitions the dataset already holds whole are counted out
    /// (`held`), and each other one (missing, partial, altered) costs the calls of its own walk.
    /// Reads the manifest only (no lock, nothing sent). A walk to the tip before its end is read
    /// cannot tell which partitions it spans: its plan says so. A client that has not read the
    /// chain's container 0 yet counts that call too (the write checks the dataset's network).
    pub fn plan_dataset(&self, dir: &Path, chunk: u64) -> Result<crate::plan::Plan> {
        dataset::check_chunk(chunk)?;
        let Some(end) = self.end_known() else {
            let mut plan = self.plan();
            plan.walk
                .unknown
                .push("what the dataset holds: the walk reads the tip first, then skips its whole partitions".into());
            return Ok(plan);
        };
        let identity = dataset::index_walk_key(self.path(), self.decode, chunk, &self.schema);
        let split = dataset::planned::split(dir, identity, self.next_index(), end, chunk)?;
        let mut walk =
            crate::plan::shapes::index_range(self.path().as_str(), Some(split.fetched_positions()), self.range.chunk);
        let probe = u64::from(self.chain.known_identity().is_none());
        (walk.requests, walk.held) =
            (crate::plan::Requests::Exact(split.calls(self.range.chunk) + probe), split.held_positions());
        if let Some(held) = split.held_past_end {
            walk.unknown.push(behind_note(end, held));
        }
        let budget = crate::plan::sources::node_budget(self.chain.transport_config(), self.chain.node_url());
        let plan = crate::plan::Plan::new(walk, &budget);
        let Some(store) = self.chain.cache() else { return Ok(plan) };
        let Some(identity) = self.chain.known_identity() else {
            let mut plan = plan;
            plan.walk
                .unknown
                .push("what the cache holds of the partitions fetched: the chain's identity is not read yet".into());
            return Ok(plan);
        };
        let (mut cached, mut calls) = (0, 0);
        for (_, first, next) in &split.fetched {
            let held = crate::cache::held::index_range(store, &identity, self.path(), *first, *next, self.range.chunk);
            (cached, calls) = (cached + held.cached_items, calls + held.calls);
        }
        Ok(plan.less_cached(cached, calls))
    }

    /// A lease for a new consumer (superseding earlier ones).
    fn lease(&self) -> Lease {
        let lease = self.cursor.lease();
        if lease.position() != self.range.start {
            log::debug!("{}: a new consumer resumes the walk at index {}", self.path(), lease.position());
        }
        lease
    }

    fn spec(&self) -> RangeSpec {
        RangeSpec { start: self.cursor.position(), ..self.range }
    }

    /// A walk from the position handed out. Walking to the tip, the first walk reads the tip
    /// before anything else (so the end is known: a total for progress) and later walks keep
    /// that end; a "past the tip" answer below what any walk saw is a lagging node, not the end.
    fn containers(&self) -> impl Stream<Item = Result<Vec<Container>>> + Send + 'static {
        self.pieces()
    }

    /// The rest of the walk, each answer decoded into `P`.
    fn pieces<P: RangePiece>(&self) -> impl Stream<Item = Result<P>> + Send + 'static {
        walk_resuming(self.chain.clone(), self.spec(), &self.memory, LagPolicy::default())
    }

    /// The end (exclusive) of the walk: as given, or, walking to the tip, the index after the
    /// tip the first consumer read (`None` before any did).
    pub fn end_known(&self) -> Option<u64> {
        self.range.end.or(self.memory.end())
    }

    /// The rest of the walk as record batches, each with the index after it (the position is
    /// not moved: consumers do that). Each answer is decoded into columns (no allocation per
    /// container); decoded walks decode those on the runtime's workers.
    /// With a column selection, only its columns are handed out, and the C-chain hashes it
    /// does not hand out are not computed.
    pub fn batches(&self) -> impl Stream<Item = Result<Batch>> + Send + 'static {
        let columns = self.columns.clone();
        let hashes = columns.as_ref().map_or(Hashes::ALL, |c| c.hashes());
        let batches = match self.decode {
            Some(mode) => {
                let pieces = self.pieces::<ContainerColumns>();
                decoded_batches(self.chain.path(), mode, hashes, pieces, self.range.concurrency).left_stream()
            }
            None => columns_batches(self.pieces::<ContainerColumns>()).right_stream(),
        };
        batches.map(move |item| match (&columns, item) {
            (Some(columns), Ok((next, batch))) => Ok((next, columns.project(&batch)?)),
            (_, item) => item,
        })
    }

    fn prefetch<T: Send + 'static>(&self, stream: impl Stream<Item = Result<T>> + Send + 'static) -> Prefetch<T> {
        Prefetch::spawn(crate::runtime::runtime().handle(), stream, self.range.concurrency)
    }

    /// A consumer of containers (raw walks), one at a time.
    pub fn container_feed(&self) -> IndexFeed<Vec<Container>, Container> {
        let lease = self.lease();
        IndexFeed::new(lease, self.prefetch(self.containers()), Box::new(container_items))
    }

    /// A consumer of the walk's record batches split into items by `split`.
    pub fn batch_feed<T>(&self, split: Split<Batch, T>) -> IndexFeed<Batch, T> {
        let lease = self.lease();
        IndexFeed::new(lease, self.prefetch(self.batches()), split)
    }

    /// A consumer of whole record batches (the position moves past each batch handed out).
    pub fn frame_feed(&self) -> IndexFeed<Batch, RecordBatch> {
        self.batch_feed(Box::new(|(next, batch): Batch| Ok(vec![(next, batch)])))
    }

    /// A new consumer reading the rest of the walk as an Arrow stream; each batch read moves
    /// the position. The reading thread waits for each batch with `wait`.
    pub fn reader(&self, wait: Wait) -> WalkReader {
        let mut feed = self.frame_feed();
        WalkReader::new(self.schema(), Box::new(move || wait(Box::pin(feed.next()))))
    }

    /// [`RangeWalk::reader`] that, when its stream ends at the tip before the range's end, hands
    /// the walk's [`RangeWalk::tip_notice`] to `notice` (the bindings show it as a warning, as
    /// every other consumer of a range does); an error `notice` returns ends the stream.
    pub fn reader_noticing(
        &self,
        wait: Wait,
        notice: impl FnOnce(String) -> Result<()> + Send + 'static,
    ) -> WalkReader {
        let walk = self.clone();
        self.reader(wait).at_end(Box::new(move || walk.tip_notice().map_or(Ok(()), notice)))
    }

    /// The rest of the walk, all or nothing: the position moves once, when every batch is in;
    /// after an error it is where the call began.
    pub async fn collect(&self, mut on_rows: impl FnMut(u64) + Send) -> Result<Vec<RecordBatch>> {
        let lease = self.lease();
        let mut stream = std::pin::pin!(self.batches());
        let mut out = Vec::new();
        let mut next = lease.position();
        while let Some(item) = stream.next().await {
            let (after, batch) = item?;
            lease.check().map_err(|_| Error::Superseded)?;
            on_rows(batch.num_rows() as u64);
            out.push(batch);
            next = after;
        }
        lease.advance(next).map_err(|_| Error::Superseded)?;
        Ok(out)
    }
}

/// A range's Parquet file: the position moves past each batch once the file holds it; a rewind
/// puts back `next_index` as it was when the export began.
impl ParquetExport for RangeWalk {
    type Hold = (Lease, u64);

    fn batch_schema(&self) -> SchemaRef {
        self.schema.clone()
    }

    fn export_gate(&self) -> Arc<tokio::sync::Mutex<()>> {
        self.cursor.export_gate()
    }

    fn hold(&self) -> Self::Hold {
        let lease = self.lease();
        let start = lease.position();
        (lease, start)
    }

    async fn drain_batches(
        &self,
        (lease, _): &mut Self::Hold,
        stop: &Stop,
        mut write: impl FnMut(&RecordBatch) -> Result<()> + Send,
    ) -> Result<Drained> {
        let (mut stream, mut pace) = (std::pin::pin!(self.batches()), Pace::default());
        loop {
            let Some(item) = stop.unless(stream.next()).await else { return Ok(Drained::Stopped) };
            let Some(item) = item else { return Ok(Drained::Complete) };
            let (after, batch) = item?;
            // In slices: a stop waits for one slice's encoding, and the position then stands
            // right after the rows of the batch the file took.
            lease.check().map_err(|_| Error::Superseded)?;
            let passed = |rows: usize| lease.advance(index_after(&batch, rows, after)).map_err(|_| Error::Superseded);
            if let Sliced::Stopped { .. } = write_in_slices(&batch, stop, &mut pace, &mut write, passed).await? {
                return Ok(Drained::Stopped);
            }
        }
    }

    fn rewind(&self, (lease, start): &mut Self::Hold) -> Result<()> {
        lease.advance(*start).map_err(|_| Error::Superseded)
    }
}

impl RangeWalk {
    /// The end of the walk: as given, as resolved by an earlier consumer, or one past the tip
    /// read now (kept for later consumers).
    async fn resolve_end(&self) -> Result<u64> {
        if let Some(end) = self.end_known() {
            return Ok(end);
        }
        let end = match self.chain.tip().await? {
            Some(tip) => after_tip(&self.chain, tip)?,
            None => self.range.start,
        };
        Ok(self.memory.settle(end))
    }

    /// Writes the rest of the walk as a dataset directory ([`crate::dataset`]): one Parquet
    /// file per chunk of `chunk` indices aligned to multiples of `chunk`, skipping the chunks a
    /// previous run into `dir` completed. The position moves after each partition, so an error
    /// carries the start of the partition that failed, and a rerun redoes only that one onwards.
    pub async fn write_dataset(
        &self,
        dir: &Path,
        chunk: u64,
        options: ParquetOptions,
        mut on_rows: impl FnMut(u64) + Send,
    ) -> Result<DatasetSummary> {
        dataset::check_chunk(chunk)?;
        let identity = dataset::index_walk_key(self.path(), self.decode, chunk, &self.schema);
        // The lock first: a second writer is refused before any request. Then the network's
        // identity (container 0, one request): a dataset of another network is refused before
        // any file is touched.
        let mut set = Dataset::lock(dir, dataset::INDEX_KEY, identity)?;
        let origin = self.chain.chain_identity().await?.map(|container0| Origin::Network { container0 });
        set.bind(origin.as_ref())?;
        let lease = self.lease();
        let start = lease.position();
        let to_tip = self.end_known().is_none();
        let end = self.resolve_end().await?;
        if let Some(held) = set.manifest().held_past(end).filter(|_| to_tip) {
            log::warn!("dataset {}: {}", dir.display(), behind_note(end, held));
        }
        let mut summary = DatasetSummary::default();
        for (value, first, next) in dataset::plan(start, end, chunk)? {
            lease.check().map_err(|_| Error::Superseded)?;
            if set.has(value, first, next) {
                summary.partitions_skipped += 1;
                summary.rows_skipped += next - first;
                on_rows(next - first);
            } else {
                let part = self.part(first, next);
                let tmp = set.temp_path(value)?;
                let rows = match part.write_parquet(Target::Path(tmp), options, &mut on_rows).await {
                    Ok(rows) => rows,
                    Err(e) => {
                        set.discard(value);
                        return Err(e);
                    }
                };
                // The chain ends inside this partition (a stop past the tip): it holds what
                // exists, as the last partition of a walk to the tip does, and the walk ends.
                if let Some(tip) = part.memory.tip_reached().filter(|&tip| rows < next - first && tip == first + rows) {
                    if rows == 0 {
                        set.discard(value);
                    } else {
                        set.commit(value, first, tip, rows, true)?;
                        (summary.partitions_written, summary.rows_written) =
                            (summary.partitions_written + 1, summary.rows_written + rows);
                    }
                    lease.advance(tip).map_err(|_| Error::Superseded)?;
                    self.memory.reached_tip(tip);
                    return Ok(summary);
                }
                if rows != next - first {
                    set.discard(value);
                    return Err(Error::Internal(format!(
                        "{}: the partition {first}..{next} got {rows} rows, not {}",
                        self.path(),
                        next - first
                    )));
                }
                set.commit(value, first, next, rows, true)?;
                summary.partitions_written += 1;
                summary.rows_written += rows;
            }
            lease.advance(next).map_err(|_| Error::Superseded)?;
        }
        Ok(summary)
    }
}

/// What a walk to `end` does with a dataset holding positions up to `held`, past it.
fn behind_note(end: u64, held: u64) -> String {
    format!(
        "whether the node is behind: the dataset holds positions up to {held}, past this walk's end {end} (a node \
         behind a load balancer?); the write keeps the partitions past {end} as they are, never shorter"
    )
}

/// The index after the first `rows` rows of `batch`, a batch of the walk whose last row is
/// followed by `after`: one past the `index` of its row `rows - 1` (every index walk's batch
/// has that column; without it, `after` less the rows left, the indexes of a batch being
/// consecutive).
fn index_after(batch: &RecordBatch, rows: usize, after: u64) -> u64 {
    use arrow_array::{cast::AsArray, types::UInt64Type};
    if rows >= batch.num_rows() {
        return after;
    }
    let index = batch.column_by_name("index").and_then(|c| c.as_primitive_opt::<UInt64Type>());
    match (rows.checked_sub(1), index) {
        (Some(last), Some(index)) => index.value(last).saturating_add(1),
        _ => after.saturating_sub((batch.num_rows() - rows) as u64),
    }
}

/// Where a follower stands: the next index to hand out, once known.
#[derive(Clone)]
struct Anchor {
    lease: Lease,
    known: Arc<AtomicBool>,
}

impl Anchor {
    fn set(&self, next: u64) {
        let _ = self.lease.advance(next);
        self.known.store(true, Ordering::SeqCst);
    }
}

/// An endless walk of newly accepted containers: catches up to the tip, then polls it (with
/// backoff while idle). One consumer: the walk is its own iterator.
#[derive(Clone)]
pub struct FollowWalk {
    chain: ChainClient,
    spec: FollowSpec,
    decode: Option<DecodeMode>,
    schema: SchemaRef,
    anchor: Anchor,
}

impl FollowWalk {
    /// A follower from `start` (`None`: just after the tip it first sees).
    pub fn new(
        chain: ChainClient,
        start: Option<u64>,
        poll_interval: Duration,
        max_poll_interval: Duration,
        decode: Option<DecodeMode>,
    ) -> Result<Self> {
        let schema = walk_schema(chain.path(), decode)?;
        let spec =
            FollowSpec { start, poll_interval, max_poll_interval, concurrency: chain.concurrency(), chunk: MAX_RANGE };
        let lease = Cursor::new(start.unwrap_or(0)).lease();
        let anchor = Anchor { lease, known: Arc::new(AtomicBool::new(start.is_some())) };
        Ok(FollowWalk { chain, spec, decode, schema, anchor })
    }

    /// The first index not yet handed out (`None` until the starting tip is known).
    pub fn next_index(&self) -> Option<u64> {
        self.anchor.known.load(Ordering::SeqCst).then(|| self.anchor.lease.position())
    }

    /// Whether items are decoded rows.
    pub fn decode(&self) -> Option<DecodeMode> {
        self.decode
    }

    /// The schema of decoded rows (or of raw containers).
    pub fn schema(&self) -> SchemaRef {
        self.schema.clone()
    }

    fn containers(&self) -> impl Stream<Item = Result<Vec<Container>>> + Send + 'static {
        let anchor = self.anchor.clone();
        follow(self.chain.clone(), self.spec, move |start| anchor.set(start))
    }

    fn prefetch<T: Send + 'static>(&self, stream: impl Stream<Item = Result<T>> + Send + 'static) -> Prefetch<T> {
        Prefetch::spawn(crate::runtime::runtime().handle(), stream, self.chain.concurrency())
    }

    /// The consumer of containers (raw). A follower has one consumer: feeds share its lease.
    pub fn container_feed(&self) -> IndexFeed<Vec<Container>, Container> {
        let lease = self.anchor.lease.clone();
        IndexFeed::new(lease, self.prefetch(self.containers()), Box::new(container_items))
    }

    /// The consumer of decoded batches split into items by `split`.
    pub fn batch_feed<T>(&self, split: Split<Batch, T>) -> IndexFeed<Batch, T> {
        let lease = self.anchor.lease.clone();
        let batches = to_batches(self.chain.path(), self.decode, self.containers());
        IndexFeed::new(lease, self.prefetch(batches), split)
    }
}
