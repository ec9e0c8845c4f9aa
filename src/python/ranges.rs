//! Lazy range walks and followers for Python: sync iterators (`for`) and async ones
//! (`async for`), yielding dicts or polars DataFrames, resumable through `next_index`.

use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use arrow_array::cast::AsArray;
use arrow_array::types::UInt64Type;
use arrow_array::RecordBatch;
use arrow_schema::SchemaRef;
use futures::{Stream, StreamExt};
use pyo3::exceptions::PyStopAsyncIteration;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use super::convert::{container_dict, frame_dicts, polars_frame, ContainerOut, FrameOut};
use super::errors::to_py;
use super::ready::Ready;
use super::wait::{awaitable, wait_raw};
use crate::arrow::decoded::{decode_containers, DecodeMode};
use crate::arrow::{container_schema, containers_to_batch, ParquetSink};
use crate::error::Error;
use crate::error::Result;
use crate::index::chunk::LagPolicy;
use crate::index::cursor::{Cursor, Lease, Superseded};
use crate::index::range::{follow, walk_resuming, RangeMemory};
use crate::index::{ChainClient, Container, FollowSpec, RangeSpec};
use crate::paging::Prefetch;

/// What a range walks; shared by the range object and its iterators.
#[derive(Clone)]
pub struct RangeSettings {
    chain: ChainClient,
    start: u64,
    end: Option<u64>,
    concurrency: usize,
    chunk: u64,
    cursor: Cursor,
    /// What the walks of this range learned (its end, the containers known to exist).
    memory: RangeMemory,
    decode: Option<DecodeMode>,
    schema: SchemaRef,
}

/// Record batches of containers, decoded when asked, with the index that follows each.
fn to_batches(
    path: crate::index::IndexPath,
    decode: Option<DecodeMode>,
    stream: impl Stream<Item = Result<Vec<Container>>> + Send + 'static,
) -> impl Stream<Item = Result<(u64, RecordBatch)>> + Send + 'static {
    stream.map(move |r| {
        let v = r?;
        let batch = match decode {
            Some(mode) => decode_containers(path, &v, mode)?,
            None => containers_to_batch(&v),
        };
        Ok((next_after(&v), batch))
    })
}

/// A method's `decode=` override: `None` keeps the walk's own setting.
fn decode_override(decode: Option<&Bound<'_, PyAny>>) -> PyResult<Option<Option<DecodeMode>>> {
    decode.map(super::args::decode_arg).transpose()
}

/// The frame schema of a walk: decoded (the caller checked the index decodes) or raw.
pub fn walk_schema(path: crate::index::IndexPath, decode: Option<DecodeMode>) -> Result<SchemaRef> {
    match decode {
        Some(_) => crate::arrow::decoded::decoded_schema(path),
        None => Ok(container_schema()),
    }
}

impl RangeSettings {
    /// Settings of a new range; the walk position starts at `start`.
    pub fn new(
        chain: ChainClient,
        start: u64,
        end: Option<u64>,
        concurrency: usize,
        chunk: u64,
        decode: Option<DecodeMode>,
    ) -> Result<Self> {
        let schema = walk_schema(chain.path(), decode)?;
        Ok(RangeSettings {
            chain,
            start,
            end,
            concurrency,
            chunk,
            cursor: Cursor::new(start),
            memory: RangeMemory::default(),
            decode,
            schema,
        })
    }

    /// The same walk (sharing its position), decoded or not as `decode` says; `None` keeps it.
    pub fn with_decode(&self, decode: Option<Option<DecodeMode>>) -> Result<Self> {
        let Some(decode) = decode else {
            return Ok(self.clone());
        };
        let schema = walk_schema(self.chain.path(), decode)?;
        Ok(RangeSettings { decode, schema, ..self.clone() })
    }

    fn spec(&self) -> RangeSpec {
        RangeSpec { start: self.cursor.position(), end: self.end, concurrency: self.concurrency, chunk: self.chunk }
    }

    fn containers(&self) -> impl Stream<Item = Result<Vec<Container>>> + Send + 'static {
        walk_resuming(self.chain.clone(), self.spec(), &self.memory, LagPolicy::default())
    }

    /// Batches with the index that follows each.
    fn batches(&self) -> impl Stream<Item = Result<(u64, RecordBatch)>> + Send + 'static {
        to_batches(self.chain.path(), self.decode, self.containers())
    }

    /// The item feed of a `for` loop: container dicts, or decoded rows.
    fn items(&self) -> ItemFeed {
        match self.decode {
            None => ItemFeed::Raw(SyncFeed::new(self.prefetch(self.containers()))),
            Some(_) => ItemFeed::Decoded(SyncFeed::new(self.prefetch(self.batches())), self.schema.clone()),
        }
    }

    /// The item feed of an `async for` loop.
    fn async_items(&self) -> AsyncFeed<AsyncItemState> {
        match self.decode {
            None => async_dicts(self.prefetch(self.containers())),
            Some(_) => async_decoded(self.prefetch(self.batches()), self.schema.clone()),
        }
    }

    fn prefetch<T: Send + 'static>(&self, stream: impl Stream<Item = Result<T>> + Send + 'static) -> Prefetch<T> {
        Prefetch::spawn(crate::runtime::runtime().handle(), stream, self.concurrency)
    }

    fn describe(&self) -> String {
        let end = self.end.map_or("tip".to_string(), |e| e.to_string());
        format!(
            "{:?}, start={}, end={}, next_index={}",
            self.chain.path().as_str(),
            self.start,
            end,
            self.cursor.position()
        )
    }
}

fn next_after(batch: &[Container]) -> u64 {
    batch.last().map_or(0, |c| c.index + 1)
}

/// Why a consumer of a walk stopped: the walk's error, or a newer consumer took over.
pub(super) enum Failure {
    /// The walk failed.
    Walk(Error),
    /// A newer consumer of the same walk took over.
    Superseded(Superseded),
}

impl From<Error> for Failure {
    fn from(e: Error) -> Self {
        Failure::Walk(e)
    }
}

impl From<Superseded> for Failure {
    fn from(e: Superseded) -> Self {
        Failure::Superseded(e)
    }
}

impl Failure {
    /// The Python exception, carrying `next_index`: where the walk resumes.
    pub(super) fn into_py(self, next_index: u64) -> PyErr {
        let err = match self {
            Failure::Walk(e) => to_py(e),
            Failure::Superseded(s) => pyo3::exceptions::PyRuntimeError::new_err(s.to_string()),
        };
        with_next_index(err, Some(next_index))
    }
}

/// Sets `next_index` on an exception raised out of a walk (`None`: not known yet).
pub(super) fn with_next_index(err: PyErr, next_index: Option<u64>) -> PyErr {
    Python::attach(|py| {
        let _ = err.value(py).setattr("next_index", next_index);
    });
    err
}

/// Collects the rest of a walk, all or nothing: the position moves only once every batch is in,
/// so after an error the walk resumes where this call started (`next_index` of the error).
async fn collect(settings: RangeSettings, lease: Lease) -> std::result::Result<Vec<RecordBatch>, PyErr> {
    let started = lease.position();
    let mut stream = std::pin::pin!(settings.batches());
    let mut out = Vec::new();
    let mut next = started;
    while let Some(item) = stream.next().await {
        match item {
            Ok((after, batch)) => {
                out.push(batch);
                next = after;
            }
            Err(e) => return Err(Failure::from(e).into_py(started)),
        }
    }
    lease.advance(next).map_err(|s| Failure::from(s).into_py(started))?;
    Ok(out)
}

/// Streams the rest of a walk into a Parquet file, moving the position batch by batch. On an
/// error the file is still finalised, holding exactly the rows before the error's `next_index`,
/// so the rest can go to a second file without a gap or a repeat.
async fn write(settings: RangeSettings, lease: Lease, path: std::path::PathBuf) -> std::result::Result<u64, PyErr> {
    let mut sink =
        ParquetSink::create(&path, settings.schema.clone()).map_err(|e| Failure::from(e).into_py(lease.position()))?;
    let mut stream = std::pin::pin!(settings.batches());
    while let Some(item) = stream.next().await {
        let step = item.map_err(Failure::from).and_then(|(after, batch)| {
            lease.check()?;
            sink.write(&batch)?;
            lease.advance(after)?;
            Ok(())
        });
        if let Err(failure) = step {
            // Keep what was written: a valid file of the rows before the position.
            let _ = sink.finish();
            return Err(failure.into_py(lease.position()));
        }
    }
    sink.finish().map_err(|e| Failure::from(e).into_py(lease.position()))
}

/// What a sync iterator holds between calls: the background feed and the items of the batch
/// being handed out one by one.
pub(super) struct FeedState<T, I> {
    prefetch: Option<Prefetch<T>>,
    buffer: VecDeque<I>,
}

/// A background feed read by a sync iterator. `next()` blocks with the GIL released; Ctrl-C
/// stops it; `close()` may come from any thread and wakes a blocked `next()`.
pub(super) struct SyncFeed<T, I> {
    state: Mutex<FeedState<T, I>>,
    abort: Mutex<Option<tokio::task::AbortHandle>>,
    closed: AtomicBool,
}

impl<T: Send + 'static, I> SyncFeed<T, I> {
    pub(super) fn new(prefetch: Prefetch<T>) -> Self {
        SyncFeed {
            abort: Mutex::new(prefetch.abort_handle()),
            state: Mutex::new(FeedState { prefetch: Some(prefetch), buffer: VecDeque::new() }),
            closed: AtomicBool::new(false),
        }
    }

    /// The next item: from the buffer, else from the next fetched element, which `split`
    /// turns into the items to hand out.
    pub(super) fn next(&self, py: Python<'_>, mut split: impl FnMut(T, &mut VecDeque<I>)) -> PyResult<Option<I>> {
        let mut state = self.state.try_lock().map_err(|_| {
            pyo3::exceptions::PyRuntimeError::new_err("this iterator is already being advanced in another thread")
        })?;
        loop {
            if self.closed.load(Ordering::SeqCst) {
                state.prefetch = None;
                state.buffer.clear();
                return Ok(None);
            }
            if let Some(item) = state.buffer.pop_front() {
                return Ok(Some(item));
            }
            let Some(prefetch) = state.prefetch.as_mut() else {
                return Ok(None);
            };
            match wait_raw(py, prefetch.next()) {
                Err(interrupt) => {
                    self.close();
                    state.prefetch = None;
                    return Err(interrupt);
                }
                Ok(None) => state.prefetch = None,
                Ok(Some(Err(e))) => {
                    state.prefetch = None;
                    return Err(to_py(e));
                }
                Ok(Some(Ok(element))) => split(element, &mut state.buffer),
            }
        }
    }

    pub(super) fn close(&self) {
        self.closed.store(true, Ordering::SeqCst);
        if let Some(handle) = self.abort.lock().unwrap_or_else(|p| p.into_inner()).take() {
            handle.abort();
        }
    }
}

/// Containers handed out one by one from fetched batches.
type DictFeed = SyncFeed<Vec<Container>, Container>;

fn next_container<'py>(feed: &DictFeed, py: Python<'py>, lease: &Lease) -> PyResult<Option<Bound<'py, PyDict>>> {
    match feed.next(py, |batch, buffer| buffer.extend(batch))? {
        Some(c) => {
            lease.advance(c.index.saturating_add(1)).map_err(|s| Failure::from(s).into_py(lease.position()))?;
            container_dict(py, &c).map(Some)
        }
        None => Ok(None),
    }
}

/// Decoded batches handed out as dicts, each with its index (or the error of converting it).
type DecodedFeed = SyncFeed<(u64, RecordBatch), (u64, PyResult<Py<PyAny>>)>;

/// Items of a `for` loop: container dicts, or decoded rows (dicts of the decoded frame).
pub(super) enum ItemFeed {
    /// Containers as they came.
    Raw(DictFeed),
    /// Decoded batches, split into dicts with their index.
    Decoded(DecodedFeed, SchemaRef),
}

/// The `index` column of a walk's batch (raw or decoded).
fn batch_indices(batch: &RecordBatch) -> Vec<u64> {
    batch
        .column_by_name("index")
        .and_then(|c| c.as_primitive_opt::<UInt64Type>())
        .map_or_else(Vec::new, |c| c.values().to_vec())
}

impl ItemFeed {
    fn next<'py>(&self, py: Python<'py>, lease: &Lease) -> PyResult<Option<Bound<'py, PyAny>>> {
        lease.check().map_err(|s| Failure::from(s).into_py(lease.position()))?;
        self.next_item(py, lease).map_err(|e| {
            if e.value(py).hasattr("next_index").unwrap_or(false) {
                e
            } else {
                with_next_index(e, Some(lease.position()))
            }
        })
    }

    fn next_item<'py>(&self, py: Python<'py>, lease: &Lease) -> PyResult<Option<Bound<'py, PyAny>>> {
        match self {
            ItemFeed::Raw(feed) => Ok(next_container(feed, py, lease)?.map(Bound::into_any)),
            ItemFeed::Decoded(feed, schema) => {
                let split = |(_, batch): (u64, RecordBatch), buffer: &mut VecDeque<(u64, PyResult<Py<PyAny>>)>| {
                    let indices = batch_indices(&batch);
                    match frame_dicts(py, batch, schema.clone()) {
                        Ok(rows) => buffer.extend(indices.into_iter().zip(rows.into_iter().map(Ok))),
                        Err(e) => buffer.push_back((0, Err(e))),
                    }
                };
                match feed.next(py, split)? {
                    None => Ok(None),
                    Some((index, row)) => {
                        let row = row?;
                        lease
                            .advance(index.saturating_add(1))
                            .map_err(|s| Failure::from(s).into_py(lease.position()))?;
                        Ok(Some(row.into_bound(py)))
                    }
                }
            }
        }
    }

    fn close(&self) {
        match self {
            ItemFeed::Raw(feed) => feed.close(),
            ItemFeed::Decoded(feed, _) => feed.close(),
        }
    }
}

/// A lazy, resumable, ordered walk over an index range.
///
/// Iterating gives dicts; ``batches()`` gives polars DataFrames. Each new iteration starts at
/// ``next_index``, which advances as items are handed to you, so a walk can be resumed after a
/// ``break``, an error or Ctrl-C without losing or repeating anything. The walk stops at ``end``
/// or at the tip (a range past the tip is truncated, not an error).
#[pyclass(frozen, name = "Range", module = "avax_data._native")]
pub struct PyRange {
    settings: RangeSettings,
}

impl PyRange {
    /// Wraps settings.
    pub fn new(settings: RangeSettings) -> Self {
        PyRange { settings }
    }
}

#[pymethods]
impl PyRange {
    /// First index of the range as created.
    #[getter]
    fn start(&self) -> u64 {
        self.settings.start
    }

    /// End of the range (exclusive), or ``None`` for "to the tip when the walk starts".
    #[getter]
    fn end(&self) -> Option<u64> {
        self.settings.end
    }

    /// The first index not yet handed out: where the next iteration resumes.
    #[getter]
    fn next_index(&self) -> u64 {
        self.settings.cursor.position()
    }

    fn __iter__(&self) -> PyRangeIterator {
        let s = &self.settings;
        let lease = s.cursor.lease();
        PyRangeIterator { feed: s.items(), lease }
    }

    /// Iterate polars DataFrames of up to ``batch_size`` rows (one per call to the node).
    /// ``decode`` (``True``, ``"strict"`` or ``False``) overrides the range's own setting.
    #[pyo3(signature = (*, decode=None))]
    fn batches(&self, decode: Option<&Bound<'_, PyAny>>) -> PyResult<PyBatchIterator> {
        let s = self.settings.with_decode(decode_override(decode)?).map_err(to_py)?;
        let lease = s.cursor.lease();
        Ok(PyBatchIterator { feed: SyncFeed::new(s.prefetch(s.batches())), lease, schema: s.schema.clone() })
    }

    /// The whole (remaining) range as one polars DataFrame; ``decode`` as in :meth:`batches`.
    #[pyo3(signature = (*, decode=None))]
    fn to_polars<'py>(&self, py: Python<'py>, decode: Option<&Bound<'py, PyAny>>) -> PyResult<Bound<'py, PyAny>> {
        let s = self.settings.with_decode(decode_override(decode)?).map_err(to_py)?;
        let schema = s.schema.clone();
        let lease = s.cursor.lease();
        let batches = wait_raw(py, collect(s, lease.clone()))
            .map_err(|interrupt| with_next_index(interrupt, Some(lease.position())))??;
        polars_frame(py, batches, schema)
    }

    /// Stream the (remaining) range into a Parquet file in constant memory; returns the rows
    /// written. On an error the file is still finalised with exactly the rows before the
    /// error's ``next_index`` (also this range's), so the rest can go to a second file.
    /// ``decode`` as in :meth:`batches`.
    #[pyo3(signature = (path, *, decode=None))]
    fn write_parquet(
        &self,
        py: Python<'_>,
        path: std::path::PathBuf,
        decode: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<u64> {
        let s = self.settings.with_decode(decode_override(decode)?).map_err(to_py)?;
        let lease = s.cursor.lease();
        wait_raw(py, write(s, lease.clone(), path))
            .map_err(|interrupt| with_next_index(interrupt, Some(lease.position())))?
    }

    fn __repr__(&self) -> String {
        format!("Range({})", self.settings.describe())
    }
}

/// Iterator of container dicts from a :class:`Range`; fetches ahead in the background.
#[pyclass(frozen, name = "RangeIterator", module = "avax_data._native")]
pub struct PyRangeIterator {
    feed: ItemFeed,
    lease: Lease,
}

#[pymethods]
impl PyRangeIterator {
    /// The first index not yet handed out.
    #[getter]
    fn next_index(&self) -> u64 {
        self.lease.position()
    }

    fn __iter__(slf: Py<Self>) -> Py<Self> {
        slf
    }

    fn __next__<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyAny>>> {
        self.feed.next(py, &self.lease)
    }

    /// Stop fetching (from any thread); later ``next()`` raises ``StopIteration``.
    fn close(&self) {
        self.feed.close();
    }
}

/// Iterator of polars DataFrames (``id``, ``bytes``, ``timestamp``, ``index``, ``encoding``).
#[pyclass(frozen, name = "BatchIterator", module = "avax_data._native")]
pub struct PyBatchIterator {
    feed: SyncFeed<(u64, RecordBatch), (u64, RecordBatch)>,
    lease: Lease,
    schema: SchemaRef,
}

#[pymethods]
impl PyBatchIterator {
    /// The first index not yet handed out.
    #[getter]
    fn next_index(&self) -> u64 {
        self.lease.position()
    }

    fn __iter__(slf: Py<Self>) -> Py<Self> {
        slf
    }

    fn __next__<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyAny>>> {
        let at = |e: PyErr| with_next_index(e, Some(self.lease.position()));
        self.lease.check().map_err(|s| Failure::from(s).into_py(self.lease.position()))?;
        match self.feed.next(py, |item, buffer| buffer.push_back(item)).map_err(at)? {
            Some((next, batch)) => {
                let frame = polars_frame(py, vec![batch], self.schema.clone())?;
                self.lease.advance(next).map_err(|s| Failure::from(s).into_py(self.lease.position()))?;
                Ok(Some(frame))
            }
            None => Ok(None),
        }
    }

    /// Stop fetching (from any thread); later ``next()`` raises ``StopIteration``.
    fn close(&self) {
        self.feed.close();
    }
}

/// What a follower follows.
#[derive(Clone)]
pub struct FollowSettings {
    pub chain: ChainClient,
    pub start: Option<u64>,
    pub poll_interval: Duration,
    pub max_poll_interval: Duration,
    pub decode: Option<DecodeMode>,
}

/// Where a follower stands: the next index to hand out, once known.
#[derive(Clone)]
struct FollowPosition {
    lease: Lease,
    known: Arc<AtomicBool>,
}

impl Default for FollowPosition {
    fn default() -> Self {
        FollowPosition { lease: Cursor::new(0).lease(), known: Arc::new(AtomicBool::new(false)) }
    }
}

impl FollowPosition {
    fn set(&self, next: u64) {
        let _ = self.lease.advance(next);
        self.known.store(true, Ordering::SeqCst);
    }

    fn get(&self) -> Option<u64> {
        self.known.load(Ordering::SeqCst).then(|| self.lease.position())
    }
}

impl FollowSettings {
    fn stream(&self, position: &FollowPosition) -> impl Stream<Item = Result<Vec<Container>>> + Send + 'static {
        let spec = FollowSpec {
            start: self.start,
            poll_interval: self.poll_interval,
            max_poll_interval: self.max_poll_interval,
            concurrency: self.chain.concurrency(),
            chunk: crate::index::MAX_RANGE,
        };
        let anchor = position.clone();
        follow(self.chain.clone(), spec, move |start| anchor.set(start))
    }

    fn spawn<T: Send + 'static>(&self, stream: impl Stream<Item = Result<T>> + Send + 'static) -> Prefetch<T> {
        Prefetch::spawn(crate::runtime::runtime().handle(), stream, self.chain.concurrency())
    }

    /// The sync item feed: dicts of containers, or of decoded rows.
    fn items(&self, position: &FollowPosition) -> Result<ItemFeed> {
        Ok(match self.decode {
            None => ItemFeed::Raw(SyncFeed::new(self.spawn(self.stream(position)))),
            Some(mode) => {
                let schema = walk_schema(self.chain.path(), Some(mode))?;
                let batches = to_batches(self.chain.path(), Some(mode), self.stream(position));
                ItemFeed::Decoded(SyncFeed::new(self.spawn(batches)), schema)
            }
        })
    }

    /// The async item feed.
    fn async_items(&self, position: &FollowPosition) -> Result<AsyncFeed<AsyncItemState>> {
        Ok(match self.decode {
            None => async_dicts(self.spawn(self.stream(position))),
            Some(mode) => {
                let schema = walk_schema(self.chain.path(), Some(mode))?;
                let batches = to_batches(self.chain.path(), Some(mode), self.stream(position));
                async_decoded(self.spawn(batches), schema)
            }
        })
    }
}

/// Endless iterator of newly accepted containers; polls the tip with backoff while idle.
///
/// Without ``start`` it begins just after the tip it first sees; ``next_index`` is ``None``
/// until that first poll has answered.
#[pyclass(frozen, name = "Follow", module = "avax_data._native")]
pub struct PyFollow {
    feed: ItemFeed,
    position: FollowPosition,
}

impl PyFollow {
    /// Starts following in the background.
    pub fn new(settings: FollowSettings) -> Result<Self> {
        let position = FollowPosition::default();
        Ok(PyFollow { feed: settings.items(&position)?, position })
    }
}

#[pymethods]
impl PyFollow {
    /// The first index not yet handed out (``None`` until the starting tip is known).
    #[getter]
    fn next_index(&self) -> Option<u64> {
        self.position.get()
    }

    fn __iter__(slf: Py<Self>) -> Py<Self> {
        slf
    }

    fn __next__<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyAny>>> {
        self.feed.next(py, &self.position.lease).map_err(|e| with_next_index(e, self.position.get()))
    }

    /// Stop following (from any thread); later ``next()`` raises ``StopIteration``.
    fn close(&self) {
        self.feed.close();
    }
}

// ---- async twins ----

/// State of an async item iterator, shared with the awaitables it hands out: containers as
/// they came, or decoded batches turned into dicts a batch at a time.
pub(super) enum AsyncItemState {
    /// Container dicts.
    Raw { prefetch: Option<Prefetch<Vec<Container>>>, buffer: VecDeque<Container> },
    /// Decoded rows with their index.
    Decoded { prefetch: Option<Prefetch<(u64, RecordBatch)>>, buffer: VecDeque<(u64, Py<PyAny>)>, schema: SchemaRef },
}

/// One item of an async iterator, converted when it reaches Python.
pub(super) enum ItemOut {
    Container(ContainerOut),
    Row(Py<PyAny>),
}

impl<'py> IntoPyObject<'py> for ItemOut {
    type Target = PyAny;
    type Output = Bound<'py, PyAny>;
    type Error = PyErr;
    fn into_pyobject(self, py: Python<'py>) -> PyResult<Self::Output> {
        match self {
            ItemOut::Container(c) => c.into_pyobject(py).map(Bound::into_any),
            ItemOut::Row(row) => Ok(row.into_bound(py)),
        }
    }
}

/// Shared machinery of the async iterators: one awaited step at a time, `close()` from anywhere.
pub(super) struct AsyncFeed<S> {
    pub(super) state: Arc<tokio::sync::Mutex<S>>,
    abort: Mutex<Option<tokio::task::AbortHandle>>,
    pub(super) closed: Arc<AtomicBool>,
}

impl<S> AsyncFeed<S> {
    pub(super) fn new(state: S, abort: Option<tokio::task::AbortHandle>) -> Self {
        AsyncFeed {
            state: Arc::new(tokio::sync::Mutex::new(state)),
            abort: Mutex::new(abort),
            closed: Arc::new(AtomicBool::new(false)),
        }
    }

    pub(super) fn close(&self) {
        self.closed.store(true, Ordering::SeqCst);
        if let Some(handle) = self.abort.lock().unwrap_or_else(|p| p.into_inner()).take() {
            handle.abort();
        }
    }
}

pub(super) fn stop_async() -> PyErr {
    PyStopAsyncIteration::new_err(())
}

fn async_dicts(prefetch: Prefetch<Vec<Container>>) -> AsyncFeed<AsyncItemState> {
    let abort = prefetch.abort_handle();
    AsyncFeed::new(AsyncItemState::Raw { prefetch: Some(prefetch), buffer: VecDeque::new() }, abort)
}

fn async_decoded(prefetch: Prefetch<(u64, RecordBatch)>, schema: SchemaRef) -> AsyncFeed<AsyncItemState> {
    let abort = prefetch.abort_handle();
    AsyncFeed::new(AsyncItemState::Decoded { prefetch: Some(prefetch), buffer: VecDeque::new(), schema }, abort)
}

/// An item already buffered, taken without waiting (`None` when the buffer is empty, the feed
/// is busy in another awaitable, closed, or the lease was superseded: the slow path handles
/// those). Lets `async for` cost one runtime round trip per batch, not per item.
fn ready_item(
    py: Python<'_>,
    state: &tokio::sync::Mutex<AsyncItemState>,
    closed: &AtomicBool,
    lease: &Lease,
) -> Option<PyResult<Ready>> {
    if closed.load(Ordering::SeqCst) || lease.check().is_err() {
        return None;
    }
    let mut state = state.try_lock().ok()?;
    let (next, out) = match &mut *state {
        AsyncItemState::Raw { buffer, .. } => {
            let c = buffer.pop_front()?;
            (c.index.saturating_add(1), container_dict(py, &c).map(|d| d.into_any().unbind()))
        }
        AsyncItemState::Decoded { buffer, .. } => {
            let (index, row) = buffer.pop_front()?;
            (index.saturating_add(1), Ok(row))
        }
    };
    Some(out.and_then(|value| {
        lease.advance(next).map_err(|s| Failure::from(s).into_py(lease.position()))?;
        Ok(Ready::new(value))
    }))
}

/// The next item of an async feed, advancing the lease's position; errors carry `next_index`.
async fn next_dict(
    state: Arc<tokio::sync::Mutex<AsyncItemState>>,
    closed: Arc<AtomicBool>,
    lease: Lease,
) -> PyResult<ItemOut> {
    lease.check().map_err(|s| Failure::from(s).into_py(lease.position()))?;
    next_dict_step(state, closed, &lease).await.map_err(|e| with_next_index(e, Some(lease.position())))
}

async fn next_dict_step(
    state: Arc<tokio::sync::Mutex<AsyncItemState>>,
    closed: Arc<AtomicBool>,
    lease: &Lease,
) -> PyResult<ItemOut> {
    let superseded = |s: Superseded| pyo3::exceptions::PyRuntimeError::new_err(s.to_string());
    let mut state = state.lock().await;
    loop {
        if closed.load(Ordering::SeqCst) {
            match &mut *state {
                AsyncItemState::Raw { prefetch, .. } => *prefetch = None,
                AsyncItemState::Decoded { prefetch, .. } => *prefetch = None,
            }
            return Err(stop_async());
        }
        match &mut *state {
            AsyncItemState::Raw { prefetch, buffer } => {
                if let Some(c) = buffer.pop_front() {
                    lease.advance(c.index.saturating_add(1)).map_err(superseded)?;
                    return Ok(ItemOut::Container(ContainerOut(c)));
                }
                let Some(feed) = prefetch.as_mut() else {
                    return Err(stop_async());
                };
                match feed.next().await {
                    Some(Ok(batch)) => buffer.extend(batch),
                    Some(Err(e)) => {
                        *prefetch = None;
                        return Err(to_py(e));
                    }
                    None => {
                        *prefetch = None;
                        return Err(stop_async());
                    }
                }
            }
            AsyncItemState::Decoded { prefetch, buffer, schema } => {
                if let Some((index, row)) = buffer.pop_front() {
                    lease.advance(index.saturating_add(1)).map_err(superseded)?;
                    return Ok(ItemOut::Row(row));
                }
                let Some(feed) = prefetch.as_mut() else {
                    return Err(stop_async());
                };
                match feed.next().await {
                    Some(Ok((_, batch))) => {
                        let indices = batch_indices(&batch);
                        let rows = Python::attach(|py| frame_dicts(py, batch, schema.clone()))?;
                        buffer.extend(indices.into_iter().zip(rows));
                    }
                    Some(Err(e)) => {
                        *prefetch = None;
                        return Err(to_py(e));
                    }
                    None => {
                        *prefetch = None;
                        return Err(stop_async());
                    }
                }
            }
        }
    }
}

/// Asynchronous twin of :class:`Range`: ``async for``, ``batches()``, awaitable exports.
#[pyclass(frozen, name = "AsyncRange", module = "avax_data._native")]
pub struct PyAsyncRange {
    settings: RangeSettings,
}

impl PyAsyncRange {
    /// Wraps settings.
    pub fn new(settings: RangeSettings) -> Self {
        PyAsyncRange { settings }
    }
}

#[pymethods]
impl PyAsyncRange {
    /// First index of the range as created.
    #[getter]
    fn start(&self) -> u64 {
        self.settings.start
    }

    /// End of the range (exclusive), or ``None`` for "to the tip when the walk starts".
    #[getter]
    fn end(&self) -> Option<u64> {
        self.settings.end
    }

    /// The first index not yet handed out: where the next iteration resumes.
    #[getter]
    fn next_index(&self) -> u64 {
        self.settings.cursor.position()
    }

    fn __aiter__(&self) -> PyAsyncRangeIterator {
        let s = &self.settings;
        let lease = s.cursor.lease();
        PyAsyncRangeIterator { feed: s.async_items(), lease }
    }

    /// ``async for`` over polars DataFrames of up to ``batch_size`` rows; ``decode`` as in
    /// :meth:`Range.batches`.
    #[pyo3(signature = (*, decode=None))]
    fn batches(&self, decode: Option<&Bound<'_, PyAny>>) -> PyResult<PyAsyncBatchIterator> {
        let s = self.settings.with_decode(decode_override(decode)?).map_err(to_py)?;
        let prefetch = s.prefetch(s.batches());
        let abort = prefetch.abort_handle();
        let lease = s.cursor.lease();
        Ok(PyAsyncBatchIterator { feed: AsyncFeed::new(Some(prefetch), abort), lease, schema: s.schema.clone() })
    }

    /// The whole (remaining) range as one polars DataFrame (awaitable); ``decode`` as in
    /// :meth:`Range.batches`.
    #[pyo3(signature = (*, decode=None))]
    fn to_polars<'py>(&self, py: Python<'py>, decode: Option<&Bound<'py, PyAny>>) -> PyResult<Bound<'py, PyAny>> {
        let settings = self.settings.with_decode(decode_override(decode)?).map_err(to_py)?;
        let lease = settings.cursor.lease();
        awaitable(py, async move {
            let schema = settings.schema.clone();
            let batches = collect(settings, lease).await?;
            Ok(FrameOut(batches, schema))
        })
    }

    /// Stream the (remaining) range into a Parquet file (awaitable); returns the rows written.
    #[pyo3(signature = (path, *, decode=None))]
    fn write_parquet<'py>(
        &self,
        py: Python<'py>,
        path: std::path::PathBuf,
        decode: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let settings = self.settings.with_decode(decode_override(decode)?).map_err(to_py)?;
        let lease = settings.cursor.lease();
        awaitable(py, async move { write(settings, lease, path).await })
    }

    fn __repr__(&self) -> String {
        format!("AsyncRange({})", self.settings.describe())
    }
}

/// Async iterator of container dicts from an :class:`AsyncRange`.
#[pyclass(frozen, name = "AsyncRangeIterator", module = "avax_data._native")]
pub struct PyAsyncRangeIterator {
    feed: AsyncFeed<AsyncItemState>,
    lease: Lease,
}

#[pymethods]
impl PyAsyncRangeIterator {
    /// The first index not yet handed out.
    #[getter]
    fn next_index(&self) -> u64 {
        self.lease.position()
    }

    fn __aiter__(slf: Py<Self>) -> Py<Self> {
        slf
    }

    fn __anext__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        if let Some(ready) = ready_item(py, &self.feed.state, &self.feed.closed, &self.lease) {
            return Ok(Bound::new(py, ready?)?.into_any());
        }
        awaitable(py, next_dict(self.feed.state.clone(), self.feed.closed.clone(), self.lease.clone()))
    }

    /// Stop fetching; later ``__anext__`` raises ``StopAsyncIteration``.
    fn close(&self) {
        self.feed.close();
    }
}

/// Async iterator of polars DataFrames from an :class:`AsyncRange`.
#[pyclass(frozen, name = "AsyncBatchIterator", module = "avax_data._native")]
pub struct PyAsyncBatchIterator {
    feed: AsyncFeed<Option<Prefetch<(u64, RecordBatch)>>>,
    lease: Lease,
    schema: SchemaRef,
}

#[pymethods]
impl PyAsyncBatchIterator {
    /// The first index not yet handed out.
    #[getter]
    fn next_index(&self) -> u64 {
        self.lease.position()
    }

    fn __aiter__(slf: Py<Self>) -> Py<Self> {
        slf
    }

    fn __anext__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let (state, closed, lease, schema) =
            (self.feed.state.clone(), self.feed.closed.clone(), self.lease.clone(), self.schema.clone());
        awaitable(py, async move {
            lease.check().map_err(|s| Failure::from(s).into_py(lease.position()))?;
            let mut state = state.lock().await;
            if closed.load(Ordering::SeqCst) {
                *state = None;
                return Err(stop_async());
            }
            let Some(prefetch) = state.as_mut() else {
                return Err(stop_async());
            };
            match prefetch.next().await {
                Some(Ok((next, batch))) => {
                    lease.advance(next).map_err(|s| Failure::from(s).into_py(lease.position()))?;
                    Ok(FrameOut(vec![batch], schema))
                }
                Some(Err(e)) => {
                    *state = None;
                    Err(Failure::from(e).into_py(lease.position()))
                }
                None => {
                    *state = None;
                    Err(stop_async())
                }
            }
        })
    }

    /// Stop fetching; later ``__anext__`` raises ``StopAsyncIteration``.
    fn close(&self) {
        self.feed.close();
    }
}

/// Async twin of :class:`Follow`.
#[pyclass(frozen, name = "AsyncFollow", module = "avax_data._native")]
pub struct PyAsyncFollow {
    feed: AsyncFeed<AsyncItemState>,
    position: FollowPosition,
}

impl PyAsyncFollow {
    /// Starts following in the background.
    pub fn new(settings: FollowSettings) -> Result<Self> {
        let position = FollowPosition::default();
        Ok(PyAsyncFollow { feed: settings.async_items(&position)?, position })
    }
}

#[pymethods]
impl PyAsyncFollow {
    /// The first index not yet handed out (``None`` until the starting tip is known).
    #[getter]
    fn next_index(&self) -> Option<u64> {
        self.position.get()
    }

    fn __aiter__(slf: Py<Self>) -> Py<Self> {
        slf
    }

    fn __anext__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        if let Some(ready) = ready_item(py, &self.feed.state, &self.feed.closed, &self.position.lease) {
            return Ok(Bound::new(py, ready.map_err(|e| with_next_index(e, self.position.get()))?)?.into_any());
        }
        let position = self.position.clone();
        let step = next_dict(self.feed.state.clone(), self.feed.closed.clone(), self.position.lease.clone());
        awaitable(py, async move { step.await.map_err(|e| with_next_index(e, position.get())) })
    }

    /// Stop following (from any thread); later ``__anext__`` raises ``StopAsyncIteration``.
    fn close(&self) {
        self.feed.close();
    }
}
