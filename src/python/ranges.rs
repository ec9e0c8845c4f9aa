//! Lazy range walks and followers for Python: sync iterators (`for`) and async ones
//! (`async for`), yielding dicts or polars DataFrames, resumable through `next_index`.

use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use arrow_array::RecordBatch;
use futures::{Stream, StreamExt};
use pyo3::exceptions::PyStopAsyncIteration;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use super::convert::{container_dict, polars_frame, ContainerOut, FrameOut};
use super::errors::to_py;
use super::wait::{awaitable, wait, wait_raw};
use crate::arrow::{container_schema, containers_to_batch, ParquetSink};
use crate::error::Result;
use crate::index::range::{follow, walk};
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
    position: Arc<AtomicU64>,
}

impl RangeSettings {
    /// Settings of a new range; the walk position starts at `start`.
    pub fn new(chain: ChainClient, start: u64, end: Option<u64>, concurrency: usize, chunk: u64) -> Self {
        RangeSettings { chain, start, end, concurrency, chunk, position: Arc::new(AtomicU64::new(start)) }
    }

    fn spec(&self) -> RangeSpec {
        RangeSpec { start: self.position.load(Ordering::SeqCst), end: self.end, concurrency: self.concurrency, chunk: self.chunk }
    }

    fn containers(&self) -> impl Stream<Item = Result<Vec<Container>>> + Send + 'static {
        walk(self.chain.clone(), self.spec())
    }

    /// Batches with the index that follows each.
    fn batches(&self) -> impl Stream<Item = Result<(u64, RecordBatch)>> + Send + 'static {
        self.containers().map(|r| r.map(|v| (next_after(&v), containers_to_batch(&v))))
    }

    fn prefetch<T: Send + 'static>(&self, stream: impl Stream<Item = Result<T>> + Send + 'static) -> Prefetch<T> {
        Prefetch::spawn(crate::runtime::runtime().handle(), stream, self.concurrency)
    }

    fn describe(&self) -> String {
        let end = self.end.map_or("tip".to_string(), |e| e.to_string());
        format!("{:?}, start={}, end={}, next_index={}", self.chain.path().as_str(), self.start, end, self.position.load(Ordering::SeqCst))
    }
}

fn next_after(batch: &[Container]) -> u64 {
    batch.last().map_or(0, |c| c.index + 1)
}

/// Collects a whole walk into batches, advancing the position.
async fn collect(settings: RangeSettings) -> Result<Vec<RecordBatch>> {
    let mut stream = std::pin::pin!(settings.batches());
    let mut out = Vec::new();
    while let Some(item) = stream.next().await {
        let (next, batch) = item?;
        out.push(batch);
        settings.position.store(next, Ordering::SeqCst);
    }
    Ok(out)
}

/// Streams a whole walk into a Parquet file, advancing the position batch by batch.
async fn write(settings: RangeSettings, path: std::path::PathBuf) -> Result<u64> {
    let mut sink = ParquetSink::create(&path, container_schema())?;
    let mut stream = std::pin::pin!(settings.batches());
    while let Some(item) = stream.next().await {
        let (next, batch) = item?;
        sink.write(&batch)?;
        settings.position.store(next, Ordering::SeqCst);
    }
    sink.finish()
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
            let Some(prefetch) = state.prefetch.as_mut() else { return Ok(None) };
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

fn next_container<'py>(feed: &DictFeed, py: Python<'py>, position: &AtomicU64) -> PyResult<Option<Bound<'py, PyDict>>> {
    match feed.next(py, |batch, buffer| buffer.extend(batch))? {
        Some(c) => {
            position.store(c.index + 1, Ordering::SeqCst);
            container_dict(py, &c).map(Some)
        }
        None => Ok(None),
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
        self.settings.position.load(Ordering::SeqCst)
    }

    fn __iter__(&self) -> PyRangeIterator {
        let s = &self.settings;
        PyRangeIterator { feed: SyncFeed::new(s.prefetch(s.containers())), position: s.position.clone() }
    }

    /// Iterate polars DataFrames of up to ``batch_size`` rows (one per call to the node).
    fn batches(&self) -> PyBatchIterator {
        let s = &self.settings;
        PyBatchIterator { feed: SyncFeed::new(s.prefetch(s.batches())), position: s.position.clone() }
    }

    /// The whole (remaining) range as one polars DataFrame.
    fn to_polars<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let batches = wait(py, collect(self.settings.clone()))?;
        polars_frame(py, batches, container_schema())
    }

    /// Stream the (remaining) range into a Parquet file in constant memory; returns the rows
    /// written. The file appears only when complete.
    fn write_parquet(&self, py: Python<'_>, path: std::path::PathBuf) -> PyResult<u64> {
        wait(py, write(self.settings.clone(), path))
    }

    fn __repr__(&self) -> String {
        format!("Range({})", self.settings.describe())
    }
}

/// Iterator of container dicts from a :class:`Range`; fetches ahead in the background.
#[pyclass(frozen, name = "RangeIterator", module = "avax_data._native")]
pub struct PyRangeIterator {
    feed: DictFeed,
    position: Arc<AtomicU64>,
}

#[pymethods]
impl PyRangeIterator {
    /// The first index not yet handed out.
    #[getter]
    fn next_index(&self) -> u64 {
        self.position.load(Ordering::SeqCst)
    }

    fn __iter__(slf: Py<Self>) -> Py<Self> {
        slf
    }

    fn __next__<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyDict>>> {
        next_container(&self.feed, py, &self.position)
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
    position: Arc<AtomicU64>,
}

#[pymethods]
impl PyBatchIterator {
    /// The first index not yet handed out.
    #[getter]
    fn next_index(&self) -> u64 {
        self.position.load(Ordering::SeqCst)
    }

    fn __iter__(slf: Py<Self>) -> Py<Self> {
        slf
    }

    fn __next__<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyAny>>> {
        match self.feed.next(py, |item, buffer| buffer.push_back(item))? {
            Some((next, batch)) => {
                self.position.store(next, Ordering::SeqCst);
                polars_frame(py, vec![batch], container_schema()).map(Some)
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
}

/// Where a follower stands: the next index to hand out, once known.
#[derive(Clone, Default)]
struct FollowPosition {
    next: Arc<AtomicU64>,
    known: Arc<AtomicBool>,
}

impl FollowPosition {
    fn set(&self, next: u64) {
        self.next.store(next, Ordering::SeqCst);
        self.known.store(true, Ordering::SeqCst);
    }

    fn get(&self) -> Option<u64> {
        self.known.load(Ordering::SeqCst).then(|| self.next.load(Ordering::SeqCst))
    }
}

impl FollowSettings {
    /// Starts the follower in the background; its anchor lands in `position` once known.
    fn prefetch(&self, position: &FollowPosition) -> Prefetch<Vec<Container>> {
        let spec = FollowSpec {
            start: self.start,
            poll_interval: self.poll_interval,
            max_poll_interval: self.max_poll_interval,
            concurrency: self.chain.concurrency(),
            chunk: crate::index::MAX_RANGE,
        };
        let anchor = position.clone();
        let stream = follow(self.chain.clone(), spec, move |start| anchor.set(start));
        Prefetch::spawn(crate::runtime::runtime().handle(), stream, self.chain.concurrency())
    }
}

/// Endless iterator of newly accepted containers; polls the tip with backoff while idle.
///
/// Without ``start`` it begins just after the tip it first sees; ``next_index`` is ``None``
/// until that first poll has answered.
#[pyclass(frozen, name = "Follow", module = "avax_data._native")]
pub struct PyFollow {
    feed: DictFeed,
    position: FollowPosition,
}

impl PyFollow {
    /// Starts following in the background.
    pub fn new(settings: FollowSettings) -> Self {
        let position = FollowPosition::default();
        PyFollow { feed: SyncFeed::new(settings.prefetch(&position)), position }
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

    fn __next__<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyDict>>> {
        next_container(&self.feed, py, &self.position.next)
    }

    /// Stop following (from any thread); later ``next()`` raises ``StopIteration``.
    fn close(&self) {
        self.feed.close();
    }
}

// ---- async twins ----

/// State of an async dict iterator, shared with the awaitables it hands out.
struct AsyncDictState {
    prefetch: Option<Prefetch<Vec<Container>>>,
    buffer: VecDeque<Container>,
}

/// Shared machinery of the async iterators: one awaited step at a time, `close()` from anywhere.
pub(super) struct AsyncFeed<S> {
    pub(super) state: Arc<tokio::sync::Mutex<S>>,
    abort: Mutex<Option<tokio::task::AbortHandle>>,
    pub(super) closed: Arc<AtomicBool>,
}

impl<S> AsyncFeed<S> {
    pub(super) fn new(state: S, abort: Option<tokio::task::AbortHandle>) -> Self {
        AsyncFeed { state: Arc::new(tokio::sync::Mutex::new(state)), abort: Mutex::new(abort), closed: Arc::new(AtomicBool::new(false)) }
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

fn async_dicts(prefetch: Prefetch<Vec<Container>>) -> AsyncFeed<AsyncDictState> {
    let abort = prefetch.abort_handle();
    AsyncFeed::new(AsyncDictState { prefetch: Some(prefetch), buffer: VecDeque::new() }, abort)
}

/// The next container of an async dict feed, advancing `position`.
async fn next_dict(
    state: Arc<tokio::sync::Mutex<AsyncDictState>>,
    closed: Arc<AtomicBool>,
    position: Arc<AtomicU64>,
) -> PyResult<ContainerOut> {
    let mut state = state.lock().await;
    loop {
        if closed.load(Ordering::SeqCst) {
            state.prefetch = None;
            return Err(stop_async());
        }
        if let Some(c) = state.buffer.pop_front() {
            position.store(c.index + 1, Ordering::SeqCst);
            return Ok(ContainerOut(c));
        }
        let Some(prefetch) = state.prefetch.as_mut() else { return Err(stop_async()) };
        match prefetch.next().await {
            Some(Ok(batch)) => state.buffer.extend(batch),
            Some(Err(e)) => {
                state.prefetch = None;
                return Err(to_py(e));
            }
            None => {
                state.prefetch = None;
                return Err(stop_async());
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
        self.settings.position.load(Ordering::SeqCst)
    }

    fn __aiter__(&self) -> PyAsyncRangeIterator {
        let s = &self.settings;
        PyAsyncRangeIterator { feed: async_dicts(s.prefetch(s.containers())), position: s.position.clone() }
    }

    /// ``async for`` over polars DataFrames of up to ``batch_size`` rows.
    fn batches(&self) -> PyAsyncBatchIterator {
        let s = &self.settings;
        let prefetch = s.prefetch(s.batches());
        let abort = prefetch.abort_handle();
        PyAsyncBatchIterator { feed: AsyncFeed::new(Some(prefetch), abort), position: s.position.clone() }
    }

    /// The whole (remaining) range as one polars DataFrame (awaitable).
    fn to_polars<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let settings = self.settings.clone();
        awaitable(py, async move {
            let batches = collect(settings).await.map_err(to_py)?;
            Ok(FrameOut(batches, container_schema()))
        })
    }

    /// Stream the (remaining) range into a Parquet file (awaitable); returns the rows written.
    fn write_parquet<'py>(&self, py: Python<'py>, path: std::path::PathBuf) -> PyResult<Bound<'py, PyAny>> {
        let settings = self.settings.clone();
        awaitable(py, async move { write(settings, path).await.map_err(to_py) })
    }

    fn __repr__(&self) -> String {
        format!("AsyncRange({})", self.settings.describe())
    }
}

/// Async iterator of container dicts from an :class:`AsyncRange`.
#[pyclass(frozen, name = "AsyncRangeIterator", module = "avax_data._native")]
pub struct PyAsyncRangeIterator {
    feed: AsyncFeed<AsyncDictState>,
    position: Arc<AtomicU64>,
}

#[pymethods]
impl PyAsyncRangeIterator {
    /// The first index not yet handed out.
    #[getter]
    fn next_index(&self) -> u64 {
        self.position.load(Ordering::SeqCst)
    }

    fn __aiter__(slf: Py<Self>) -> Py<Self> {
        slf
    }

    fn __anext__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        awaitable(py, next_dict(self.feed.state.clone(), self.feed.closed.clone(), self.position.clone()))
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
    position: Arc<AtomicU64>,
}

#[pymethods]
impl PyAsyncBatchIterator {
    /// The first index not yet handed out.
    #[getter]
    fn next_index(&self) -> u64 {
        self.position.load(Ordering::SeqCst)
    }

    fn __aiter__(slf: Py<Self>) -> Py<Self> {
        slf
    }

    fn __anext__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let (state, closed, position) = (self.feed.state.clone(), self.feed.closed.clone(), self.position.clone());
        awaitable(py, async move {
            let mut state = state.lock().await;
            if closed.load(Ordering::SeqCst) {
                *state = None;
                return Err(stop_async());
            }
            let Some(prefetch) = state.as_mut() else { return Err(stop_async()) };
            match prefetch.next().await {
                Some(Ok((next, batch))) => {
                    position.store(next, Ordering::SeqCst);
                    Ok(FrameOut(vec![batch], container_schema()))
                }
                Some(Err(e)) => {
                    *state = None;
                    Err(to_py(e))
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
    feed: AsyncFeed<AsyncDictState>,
    position: FollowPosition,
}

impl PyAsyncFollow {
    /// Starts following in the background.
    pub fn new(settings: FollowSettings) -> Self {
        let position = FollowPosition::default();
        PyAsyncFollow { feed: async_dicts(settings.prefetch(&position)), position }
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
        awaitable(py, next_dict(self.feed.state.clone(), self.feed.closed.clone(), self.position.next.clone()))
    }

    /// Stop following (from any thread); later ``__anext__`` raises ``StopAsyncIteration``.
    fn close(&self) {
        self.feed.close();
    }
}
