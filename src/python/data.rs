//! Python classes of the Data API client: `DataClient`, `AsyncDataClient`, and the lazy,
//! resumable `Pager` / `AsyncPager` of the paginated endpoints.

use super::ready::Ready;
use std::collections::{HashMap, VecDeque};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use arrow_array::RecordBatch;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyInt, PyList, PyString};
use serde_json::Value;

use super::args::{transport_config, u64_arg};
use super::convert::{polars_frame, utc_datetime, FrameOut};
use super::errors::{invalid, to_py};
use super::ranges::{stop_async, AsyncFeed, SyncFeed};
use super::wait::{awaitable, wait};
use crate::arrow::data::{self as schema, timestamp_ns, to_batch, Col, Kind, Resource};
use crate::arrow::ParquetSink;
use crate::data::{params, DataClient, DataClientOptions, Paged, PREFETCH_PAGES};
use crate::error::{Error, Result};
use crate::paging::{Page, Prefetch};

// ---- JSON -> Python, typed by the resource schema ----

fn json_to_py<'py>(py: Python<'py>, value: &Value, kind: Option<Kind>) -> PyResult<Bound<'py, PyAny>> {
    match (kind, value) {
        (_, Value::Null) => Ok(py.None().into_bound(py)),
        (Some(Kind::Dec | Kind::U64Str), Value::String(s)) => {
            let digits = s.trim().strip_prefix('-').unwrap_or(s.trim());
            if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) {
                // Python refuses digit strings past sys.get_int_max_str_digits() (4300): such a
                // value stays the text it was, as any other string that is not an integer.
                py.get_type::<PyInt>().call1((s.trim(),)).or_else(|_| Ok(PyString::new(py, s).into_any()))
            } else {
                Ok(PyString::new(py, s).into_any())
            }
        }
        (Some(Kind::TsSec | Kind::TsMs), v) => match timestamp_ns(v, matches!(kind, Some(Kind::TsMs))) {
            Some(ns) => utc_datetime(py, ns),
            None => json_to_py(py, v, None),
        },
        (Some(Kind::Float), Value::Number(n)) => Ok(n.as_f64().unwrap_or(f64::NAN).into_pyobject(py)?.into_any()),
        (Some(Kind::Float), Value::String(s)) => match s.trim().parse::<f64>() {
            Ok(f) => Ok(f.into_pyobject(py)?.into_any()),
            Err(_) => Ok(PyString::new(py, s).into_any()),
        },
        (Some(Kind::Struct(cols)), Value::Object(_)) => object_to_py(py, value, Some(cols)),
        (Some(Kind::StructList(cols)), Value::Array(items)) => {
            let list = PyList::empty(py);
            for item in items {
                list.append(json_to_py(py, item, Some(Kind::Struct(cols)))?)?;
            }
            Ok(list.into_any())
        }
        (_, Value::Bool(b)) => Ok(PyBool::new(py, *b).to_owned().into_any()),
        (_, Value::Number(n)) => {
            if let Some(i) = n.as_i64() {
                Ok(i.into_pyobject(py)?.into_any())
            } else if let Some(u) = n.as_u64() {
                Ok(u.into_pyobject(py)?.into_any())
            } else {
                Ok(n.as_f64().unwrap_or(f64::NAN).into_pyobject(py)?.into_any())
            }
        }
        (_, Value::String(s)) => Ok(PyString::new(py, s).into_any()),
        (_, Value::Array(items)) => {
            let list = PyList::empty(py);
            for item in items {
                list.append(json_to_py(py, item, None)?)?;
            }
            Ok(list.into_any())
        }
        (_, Value::Object(_)) => object_to_py(py, value, None),
    }
}

/// An object as a dict with the API's keys; fields of `cols` typed, others as plain JSON.
pub(super) fn object_to_py<'py>(py: Python<'py>, value: &Value, cols: Option<&[Col]>) -> PyResult<Bound<'py, PyAny>> {
    let dict = PyDict::new(py);
    if let Value::Object(map) = value {
        for (key, v) in map {
            let kind = cols.and_then(|cols| cols.iter().find(|c| c.0 == key)).map(|c| c.1);
            dict.set_item(key, json_to_py(py, v, kind)?)?;
        }
    }
    Ok(dict.into_any())
}

/// A JSON object converted to a dict when it reaches Python.
pub(super) struct DictOut(pub(super) Value, pub(super) Option<&'static [Col]>);

impl<'py> IntoPyObject<'py> for DictOut {
    type Target = PyAny;
    type Output = Bound<'py, PyAny>;
    type Error = PyErr;
    fn into_pyobject(self, py: Python<'py>) -> PyResult<Self::Output> {
        object_to_py(py, &self.0, self.1)
    }
}

/// JSON objects converted to a list of dicts when they reach Python.
pub(super) struct DictsOut(pub(super) Vec<Value>, pub(super) Option<&'static [Col]>);

impl<'py> IntoPyObject<'py> for DictsOut {
    type Target = PyAny;
    type Output = Bound<'py, PyAny>;
    type Error = PyErr;
    fn into_pyobject(self, py: Python<'py>) -> PyResult<Self::Output> {
        let list = PyList::empty(py);
        for item in &self.0 {
            list.append(object_to_py(py, item, self.1)?)?;
        }
        Ok(list.into_any())
    }
}

// ---- arguments ----

fn page_size_arg(value: &Bound<'_, PyAny>, max: u32) -> PyResult<Option<i64>> {
    if value.is_none() {
        return Ok(None);
    }
    let shown = || value.repr().map(|r| r.to_string()).unwrap_or_default();
    if value.is_instance_of::<PyBool>() || !value.is_instance_of::<PyInt>() {
        return Err(invalid("page_size", shown(), format!("an int in [1, {max}]")));
    }
    let n = value.extract::<i64>().map_err(|_| invalid("page_size", shown(), format!("an int in [1, {max}]")))?;
    params::page_size(n, max).map_err(to_py)?;
    Ok(Some(n))
}

pub(super) fn str_arg(value: &Bound<'_, PyAny>, param: &str, what: &str) -> PyResult<String> {
    value
        .cast::<PyString>()
        .map(|s| s.to_string())
        .map_err(|_| invalid(param, value.repr().map(|r| r.to_string()).unwrap_or_default(), what))
}

pub(super) fn opt_str(value: Option<&Bound<'_, PyAny>>, param: &str, what: &str) -> PyResult<Option<String>> {
    value.filter(|v| !v.is_none()).map(|v| str_arg(v, param, what)).transpose()
}

/// A list given as a Python list/tuple of str or as a comma-separated str.
fn list_arg(value: Option<&Bound<'_, PyAny>>, param: &str) -> PyResult<Vec<String>> {
    let Some(value) = value.filter(|v| !v.is_none()) else { return Ok(Vec::new()) };
    if let Ok(s) = value.cast::<PyString>() {
        return Ok(params::split_list(&s.to_string()));
    }
    let shown = || value.repr().map(|r| r.to_string()).unwrap_or_default();
    let items: Vec<Bound<'_, PyAny>> = value
        .try_iter()
        .map_err(|_| invalid(param, shown(), "a list of str or a comma-separated str"))?
        .collect::<PyResult<_>>()?;
    items
        .iter()
        .map(|i| str_arg(i, param, "a list of str or a comma-separated str").map(|s| s.trim().to_string()))
        .collect()
}

fn block_id_arg(value: &Bound<'_, PyAny>) -> PyResult<String> {
    if value.is_instance_of::<PyInt>() && !value.is_instance_of::<PyBool>() {
        return Ok(u64_arg(value, "block_id")?.to_string());
    }
    str_arg(value, "block_id", "a block number (int >= 0) or a block hash (str)")
}

pub(super) fn limit_arg(limit: Option<&Bound<'_, PyAny>>) -> PyResult<Option<u64>> {
    limit.filter(|v| !v.is_none()).map(|l| u64_arg(l, "limit")).transpose()
}

fn client_arg(
    api_key: Option<String>,
    base_url: Option<String>,
    transport: crate::transport::TransportConfig,
) -> PyResult<DataClient> {
    let api_key = api_key.or_else(|| std::env::var("AVAX_DATA_API_KEY").ok()).filter(|k| !k.trim().is_empty());
    let base_url = base_url.or_else(|| std::env::var("AVAX_DATA_API_URL").ok().filter(|u| !u.trim().is_empty()));
    DataClient::new(base_url.as_deref(), DataClientOptions { transport, api_key }).map_err(to_py)
}

fn rate_limit_dict<'py>(py: Python<'py>, client: &DataClient) -> PyResult<Option<Bound<'py, PyDict>>> {
    let Some(info) = client.rate_limit() else { return Ok(None) };
    let d = PyDict::new(py);
    d.set_item("policy", info.policy)?;
    d.set_item("limit", info.limit)?;
    d.set_item("remaining", info.remaining)?;
    d.set_item("reset", info.reset)?;
    Ok(Some(d))
}

// ---- the pager core ----

/// Where a pager stands: the token of the page holding the next item (`None` = first page),
/// how many of that page's items were already handed out, items handed out so far, and whether
/// the walk reached its end.
#[derive(Debug, Clone, Default)]
struct Position {
    token: Option<String>,
    offset: usize,
    items_read: u64,
    exhausted: bool,
}

/// A walk fetched whole in one go (a sharded metric series): one page without a token.
pub(super) type WholeWalk = Arc<dyn Fn() -> futures::future::BoxFuture<'static, Result<Vec<Value>>> + Send + Sync>;

/// What a pager walks; shared by the pager and its iterators. Any token-paged resource of the
/// Data or Metrics API (`paged` on `client`), or a `whole` walk fetched at once.
#[derive(Clone)]
pub(super) struct PagerCore {
    client: DataClient,
    paged: Arc<Paged>,
    whole: Option<WholeWalk>,
    resource: Resource,
    limit: Option<u64>,
    position: Arc<Mutex<Position>>,
}

type Fetched = (Page<Value>, Option<String>);

/// One item with where it sits in its page.
struct Entry {
    item: Value,
    token: Option<String>,
    index: usize,
    len: usize,
    next: Option<String>,
}

impl PagerCore {
    pub(super) fn new(
        client: &DataClient,
        paged: Paged,
        resource: Resource,
        page_token: Option<String>,
        limit: Option<u64>,
    ) -> PyResult<Self> {
        let token = page_token.map(|t| params::page_token(&t)).transpose().map_err(to_py)?;
        let position = Position { token, ..Position::default() };
        Ok(PagerCore {
            client: client.clone(),
            paged: Arc::new(paged),
            whole: None,
            resource,
            limit,
            position: Arc::new(Mutex::new(position)),
        })
    }

    /// A pager over a walk fetched whole by `whole` (`paged` only names it). It has no page
    /// token; a new iteration refetches and skips the items already handed out.
    pub(super) fn new_whole(
        client: &DataClient,
        paged: Paged,
        resource: Resource,
        whole: WholeWalk,
        limit: Option<u64>,
    ) -> Self {
        PagerCore {
            client: client.clone(),
            paged: Arc::new(paged),
            whole: Some(whole),
            resource,
            limit,
            position: Arc::new(Mutex::new(Position::default())),
        }
    }

    fn pos(&self) -> std::sync::MutexGuard<'_, Position> {
        self.position.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn remaining(&self) -> Option<u64> {
        self.limit.map(|l| l.saturating_sub(self.pos().items_read))
    }

    /// Starts a background walk from the current position; `(prefetch, items to skip)`.
    fn start(&self) -> (Option<Prefetch<Fetched>>, usize) {
        let pos = self.pos().clone();
        if pos.exhausted || self.remaining() == Some(0) {
            return (None, 0);
        }
        if let Some(whole) = &self.whole {
            let fetch = whole();
            let stream =
                futures::stream::once(
                    async move { fetch.await.map(|items| (Page { items, next_page_token: None }, None)) },
                );
            let _guard = crate::runtime::runtime().enter();
            return (Some(Prefetch::spawn(crate::runtime::runtime().handle(), stream, 1)), pos.offset);
        }
        // Items needed from the start of the position's page: the limit's rest plus those
        // already read of it, so no page is fetched past the limit.
        let want = self.remaining().map(|r| r.saturating_add(pos.offset as u64));
        let stream = self.client.pages_wanting(self.paged.clone(), pos.token.clone(), want);
        let _guard = crate::runtime::runtime().enter();
        (Some(Prefetch::spawn(crate::runtime::runtime().handle(), stream, PREFETCH_PAGES)), pos.offset)
    }

    /// Adds the position to a page-token error.
    fn annotate(&self, err: Error) -> Error {
        match err {
            Error::PageToken { token, message, status, body, url, .. } => {
                Error::PageToken { token, items_read: self.pos().items_read, message, status, body, url }
            }
            other => other,
        }
    }

    /// Splits a fetched page into entries, skipping `skip` already-read items; an empty page
    /// just moves the position on.
    fn entries(&self, (page, token): Fetched, skip: usize, out: &mut VecDeque<Entry>) {
        let len = page.items.len();
        if len <= skip {
            let mut pos = self.pos();
            pos.token = page.next_page_token.clone();
            pos.offset = 0;
            pos.exhausted = page.next_page_token.is_none();
            return;
        }
        for (index, item) in page.items.into_iter().enumerate().skip(skip) {
            out.push_back(Entry { item, token: token.clone(), index, len, next: page.next_page_token.clone() });
        }
    }

    /// Records that `entry` is handed out; `false` when the limit forbids it.
    fn hand_out(&self, entry: &Entry) -> bool {
        let mut pos = self.pos();
        if self.limit.is_some_and(|l| pos.items_read >= l) {
            return false;
        }
        pos.items_read += 1;
        if entry.index + 1 >= entry.len {
            pos.token = entry.next.clone();
            pos.offset = 0;
            pos.exhausted = entry.next.is_none();
        } else {
            pos.token = entry.token.clone();
            pos.offset = entry.index + 1;
        }
        true
    }

    /// Hands out (what `limit=` and `cap` allow of) a whole page, skipping `skip` items already
    /// read; `None` when nothing may be handed out any more.
    fn take_page(&self, fetched: Fetched, skip: usize, cap: Option<u64>) -> Option<Vec<Value>> {
        self.take_page_with(fetched, skip, cap, Ok::<_, std::convert::Infallible>)
            .map(|r| r.unwrap_or_else(|e| match e {}))
    }

    /// Like [`take_page`](Self::take_page), converting the items with `convert` first: the
    /// position advances only when the conversion succeeds.
    fn take_page_with<T, E>(
        &self,
        (page, token): Fetched,
        skip: usize,
        cap: Option<u64>,
        convert: impl FnOnce(Vec<Value>) -> std::result::Result<T, E>,
    ) -> Option<std::result::Result<T, E>> {
        let mut pos = self.pos();
        let room = self.limit.map_or(u64::MAX, |l| l.saturating_sub(pos.items_read)).min(cap.unwrap_or(u64::MAX));
        if room == 0 {
            return None;
        }
        let available = page.items.len().saturating_sub(skip);
        let take = (available as u64).min(room) as usize;
        let next = page.next_page_token;
        let converted = match convert(page.items.into_iter().skip(skip).take(take).collect()) {
            Ok(v) => v,
            Err(e) => return Some(Err(e)),
        };
        pos.items_read += take as u64;
        if take == available {
            pos.exhausted = next.is_none();
            pos.token = next;
            pos.offset = 0;
        } else {
            // Cut by a limit: the position stays inside this page.
            pos.token = token;
            pos.offset = skip + take;
        }
        Some(Ok(converted))
    }

    /// Runs the rest of the walk (at most `limit` more items), handing each page as a batch to
    /// `sink`; the position advances page by page.
    async fn drain(&self, limit: Option<u64>, mut sink: impl FnMut(RecordBatch) -> Result<()>) -> Result<()> {
        let start_read = self.pos().items_read;
        let (prefetch, mut skip) = self.start();
        let Some(mut prefetch) = prefetch else { return Ok(()) };
        while let Some(fetched) = prefetch.next().await {
            let fetched = fetched.map_err(|e| self.annotate(e))?;
            let cap = limit.map(|l| l.saturating_sub(self.pos().items_read - start_read));
            let resource = self.resource;
            let taken =
                self.take_page_with(fetched, std::mem::take(&mut skip), cap, |items| to_batch(resource, &items));
            let Some(batch) = taken else { break };
            let batch = batch.map_err(|message| Error::Decode {
                message,
                url: format!("{}{}", self.client.base_url(), self.paged.path),
                body: String::new(),
            })?;
            sink(batch)?;
        }
        Ok(())
    }

    /// The rest of the walk as batches, all or nothing: after an error (or a cancellation) the
    /// position is where the call started, since nothing was handed out.
    async fn collect(self, limit: Option<u64>) -> Result<Vec<RecordBatch>> {
        let rewind = Rewind::new(&self);
        let mut out = Vec::new();
        let drained = self.drain(limit, |b| {
            out.push(b);
            Ok(())
        });
        rewind.settle(drained.await)?;
        Ok(out)
    }

    /// Streams the rest of the walk into a Parquet file that appears only when complete: after
    /// an error (or a cancellation) no file is left and the position is where the call started.
    async fn write(self, path: std::path::PathBuf) -> Result<u64> {
        let rewind = Rewind::new(&self);
        let mut sink = ParquetSink::create(&path, self.resource.schema())?;
        let drained = self.drain(None, |b| sink.write(&b));
        rewind.settle(drained.await)?;
        sink.finish()
    }

    fn cols(&self) -> Option<&'static [Col]> {
        Some(self.resource.columns())
    }

    fn describe(&self, name: &str) -> String {
        let pos = self.pos();
        format!(
            "{name}({:?}, items_read={}, next_page_token={:?}, exhausted={})",
            self.paged.path, pos.items_read, pos.token, pos.exhausted
        )
    }
}

/// Puts a pager's position back where an all-or-nothing consumer started, unless it completed.
struct Rewind<'a> {
    core: &'a PagerCore,
    start: Option<Position>,
}

impl<'a> Rewind<'a> {
    fn new(core: &'a PagerCore) -> Self {
        Rewind { core, start: Some(core.pos().clone()) }
    }

    /// Keeps the position on success; rewinds it on an error, which then carries the rewound
    /// position (a refused page token's `items_read`).
    fn settle<T>(mut self, result: Result<T>) -> Result<T> {
        match result {
            Ok(v) => {
                self.start = None;
                Ok(v)
            }
            Err(e) => {
                let core = self.core;
                drop(self);
                Err(core.annotate(e))
            }
        }
    }
}

impl Drop for Rewind<'_> {
    fn drop(&mut self) {
        if let Some(start) = self.start.take() {
            *self.core.pos() = start;
        }
    }
}

fn prefetch_abort(p: &Option<Prefetch<Fetched>>) -> Option<tokio::task::AbortHandle> {
    p.as_ref().and_then(Prefetch::abort_handle)
}

fn resource_name(r: Resource) -> &'static str {
    match r {
        Resource::Block => "block",
        Resource::Collectible => "collectible",
        Resource::PendingReward => "pending_reward",
        Resource::Vertex => "vertex",
        Resource::IcmMessage => "icm_message",
        Resource::MetricValue => "metric_value",
        Resource::MetricsChain => "metrics_chain",
        Resource::IcmSummary => "icm_summary",
    }
}

/// A lazy, resumable walk over a paginated Data API list.
///
/// Iterating gives dicts (API field names; decimal-string integers as ``int``, Unix times as
/// timezone-aware UTC ``datetime``); ``pages()`` gives one list of dicts per page;
/// ``to_polars()`` and ``write_parquet()`` give typed frames. The next page is fetched while
/// you work on the current one. Every new iteration resumes where the last one stopped
/// (``next_page_token`` + ``page_offset``), so nothing is lost or repeated after a ``break``,
/// an error or Ctrl-C. An expired page token raises :class:`PageTokenError`.
#[pyclass(frozen, name = "Pager", module = "avax_data._native")]
pub struct PyPager {
    pub(super) core: PagerCore,
}

#[pymethods]
impl PyPager {
    /// Token of the page holding the next unread item (``None`` before the first page
    /// or after the last). Pass it as ``page_token=`` to resume later.
    #[getter]
    fn next_page_token(&self) -> Option<String> {
        self.core.pos().token.clone()
    }

    /// Items of the ``next_page_token`` page already handed out (0 at a page boundary).
    #[getter]
    fn page_offset(&self) -> usize {
        self.core.pos().offset
    }

    /// Items handed out so far.
    #[getter]
    fn items_read(&self) -> u64 {
        self.core.pos().items_read
    }

    /// Whether the walk reached its last page.
    #[getter]
    fn exhausted(&self) -> bool {
        self.core.pos().exhausted
    }

    /// The ``limit=`` given, or ``None``.
    #[getter]
    fn limit(&self) -> Option<u64> {
        self.core.limit
    }

    /// Polars schema name of the resource (``block``, ``collectible``, ...).
    #[getter]
    fn resource(&self) -> &'static str {
        resource_name(self.core.resource)
    }

    fn __iter__(&self) -> PyPagerIterator {
        let (prefetch, skip) = self.core.start();
        PyPagerIterator { core: self.core.clone(), feed: feed(prefetch), skip: AtomicUsize::new(skip) }
    }

    /// Iterate pages: one list of dicts per page fetched.
    fn pages(&self) -> PyPageIterator {
        let (prefetch, skip) = self.core.start();
        PyPageIterator { core: self.core.clone(), feed: feed(prefetch), skip: AtomicUsize::new(skip) }
    }

    /// The rest of the walk (at most ``limit`` more items) as one polars DataFrame.
    #[pyo3(signature = (limit=None))]
    fn to_polars<'py>(&self, py: Python<'py>, limit: Option<&Bound<'py, PyAny>>) -> PyResult<Bound<'py, PyAny>> {
        let limit = limit_arg(limit)?;
        let batches = wait(py, self.core.clone().collect(limit))?;
        polars_frame(py, batches, self.core.resource.schema())
    }

    /// Stream the rest of the walk into a Parquet file; returns the rows written. The file
    /// appears only when complete.
    fn write_parquet(&self, py: Python<'_>, path: std::path::PathBuf) -> PyResult<u64> {
        wait(py, self.core.clone().write(path))
    }

    fn __repr__(&self) -> String {
        self.core.describe("Pager")
    }
}

fn feed<I>(prefetch: Option<Prefetch<Fetched>>) -> SyncFeed<Fetched, I> {
    match prefetch {
        Some(p) => SyncFeed::new(p),
        None => {
            let empty = futures::stream::empty::<Result<Fetched>>();
            let _guard = crate::runtime::runtime().enter();
            SyncFeed::new(Prefetch::spawn(crate::runtime::runtime().handle(), empty, 1))
        }
    }
}

/// Iterator of dicts from a :class:`Pager`.
#[pyclass(frozen, name = "PagerIterator", module = "avax_data._native")]
pub struct PyPagerIterator {
    core: PagerCore,
    feed: SyncFeed<Fetched, Entry>,
    skip: AtomicUsize,
}

#[pymethods]
impl PyPagerIterator {
    fn __iter__(slf: Py<Self>) -> Py<Self> {
        slf
    }

    fn __next__<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyAny>>> {
        if self.core.remaining() == Some(0) {
            self.feed.close();
            return Ok(None);
        }
        let next = self
            .feed
            .next(py, |fetched, buffer| self.core.entries(fetched, self.skip.swap(0, Ordering::SeqCst), buffer));
        let entry = match next {
            Ok(Some(entry)) => entry,
            Ok(None) => return Ok(None),
            Err(e) => return Err(self.reannotate(py, e)),
        };
        if !self.core.hand_out(&entry) {
            self.feed.close();
            return Ok(None);
        }
        object_to_py(py, &entry.item, self.core.cols()).map(Some)
    }

    /// Stop fetching; later ``next()`` raises ``StopIteration``.
    fn close(&self) {
        self.feed.close();
    }
}

impl PyPagerIterator {
    fn reannotate(&self, py: Python<'_>, err: PyErr) -> PyErr {
        annotate_py(py, err, self.core.pos().items_read)
    }
}

/// Sets `items_read` on a `PageTokenError` raised by the shared feed.
fn annotate_py(py: Python<'_>, err: PyErr, items_read: u64) -> PyErr {
    let value = err.value(py);
    if value.hasattr("page_token").unwrap_or(false) {
        let _ = value.setattr("items_read", items_read);
    }
    err
}

/// Iterator of pages (lists of dicts) from a :class:`Pager`.
#[pyclass(frozen, name = "PageIterator", module = "avax_data._native")]
pub struct PyPageIterator {
    core: PagerCore,
    feed: SyncFeed<Fetched, Fetched>,
    skip: AtomicUsize,
}

#[pymethods]
impl PyPageIterator {
    fn __iter__(slf: Py<Self>) -> Py<Self> {
        slf
    }

    fn __next__<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyAny>>> {
        if self.core.remaining() == Some(0) {
            self.feed.close();
            return Ok(None);
        }
        let fetched = match self.feed.next(py, |f, buffer| buffer.push_back(f)) {
            Ok(Some(f)) => f,
            Ok(None) => return Ok(None),
            Err(e) => return Err(annotate_py(py, e, self.core.pos().items_read)),
        };
        match self.core.take_page(fetched, self.skip.swap(0, Ordering::SeqCst), None) {
            Some(items) => DictsOut(items, self.core.cols()).into_pyobject(py).map(Some),
            None => {
                self.feed.close();
                Ok(None)
            }
        }
    }

    /// Stop fetching; later ``next()`` raises ``StopIteration``.
    fn close(&self) {
        self.feed.close();
    }
}

// ---- async pager ----

struct AsyncState<I> {
    prefetch: Option<Prefetch<Fetched>>,
    buffer: VecDeque<I>,
    skip: usize,
}

fn async_feed<I>(core: &PagerCore) -> AsyncFeed<AsyncState<I>> {
    let (prefetch, skip) = core.start();
    let abort = prefetch_abort(&prefetch);
    AsyncFeed::new(AsyncState { prefetch, buffer: VecDeque::new(), skip }, abort)
}

/// Asynchronous twin of :class:`Pager`: ``async for`` dicts, ``pages()``, awaitable exports.
#[pyclass(frozen, name = "AsyncPager", module = "avax_data._native")]
pub struct PyAsyncPager {
    pub(super) core: PagerCore,
}

#[pymethods]
impl PyAsyncPager {
    /// Token of the page holding the next unread item (``None`` before the first page
    /// or after the last). Pass it as ``page_token=`` to resume later.
    #[getter]
    fn next_page_token(&self) -> Option<String> {
        self.core.pos().token.clone()
    }

    /// Items of the ``next_page_token`` page already handed out (0 at a page boundary).
    #[getter]
    fn page_offset(&self) -> usize {
        self.core.pos().offset
    }

    /// Items handed out so far.
    #[getter]
    fn items_read(&self) -> u64 {
        self.core.pos().items_read
    }

    /// Whether the walk reached its last page.
    #[getter]
    fn exhausted(&self) -> bool {
        self.core.pos().exhausted
    }

    /// The ``limit=`` given, or ``None``.
    #[getter]
    fn limit(&self) -> Option<u64> {
        self.core.limit
    }

    /// Polars schema name of the resource (``block``, ``collectible``, ...).
    #[getter]
    fn resource(&self) -> &'static str {
        resource_name(self.core.resource)
    }

    fn __aiter__(&self) -> PyAsyncPagerIterator {
        PyAsyncPagerIterator { core: self.core.clone(), feed: async_feed(&self.core) }
    }

    /// ``async for`` over pages: one list of dicts per page.
    fn pages(&self) -> PyAsyncPageIterator {
        PyAsyncPageIterator { core: self.core.clone(), feed: async_feed(&self.core) }
    }

    /// The rest of the walk (at most ``limit`` more items) as one polars DataFrame (awaitable).
    #[pyo3(signature = (limit=None))]
    fn to_polars<'py>(&self, py: Python<'py>, limit: Option<&Bound<'py, PyAny>>) -> PyResult<Bound<'py, PyAny>> {
        let limit = limit_arg(limit)?;
        let core = self.core.clone();
        awaitable(py, async move {
            let schema = core.resource.schema();
            let batches = core.collect(limit).await.map_err(to_py)?;
            Ok(FrameOut(batches, schema))
        })
    }

    /// Stream the rest of the walk into a Parquet file (awaitable); returns the rows written.
    fn write_parquet<'py>(&self, py: Python<'py>, path: std::path::PathBuf) -> PyResult<Bound<'py, PyAny>> {
        let core = self.core.clone();
        awaitable(py, async move { core.write(path).await.map_err(to_py) })
    }

    fn __repr__(&self) -> String {
        self.core.describe("AsyncPager")
    }
}

/// Async iterator of dicts from an :class:`AsyncPager`.
#[pyclass(frozen, name = "AsyncPagerIterator", module = "avax_data._native")]
pub struct PyAsyncPagerIterator {
    core: PagerCore,
    feed: AsyncFeed<AsyncState<Entry>>,
}

#[pymethods]
impl PyAsyncPagerIterator {
    fn __aiter__(slf: Py<Self>) -> Py<Self> {
        slf
    }

    fn __anext__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        // An item already fetched is handed out at once, without an event-loop round trip.
        if !self.feed.closed.load(Ordering::SeqCst) && self.core.remaining() != Some(0) {
            if let Ok(mut state) = self.feed.state.try_lock() {
                if let Some(entry) = state.buffer.pop_front() {
                    if self.core.hand_out(&entry) {
                        let value = DictOut(entry.item, self.core.cols()).into_pyobject(py)?;
                        return Ok(Bound::new(py, Ready::new(value.into_any().unbind()))?.into_any());
                    }
                    state.buffer.push_front(entry);
                }
            }
        }
        let (state, closed, core) = (self.feed.state.clone(), self.feed.closed.clone(), self.core.clone());
        awaitable(py, async move {
            let mut state = state.lock().await;
            loop {
                if closed.load(Ordering::SeqCst) || core.remaining() == Some(0) {
                    state.prefetch = None;
                    return Err(stop_async());
                }
                if let Some(entry) = state.buffer.pop_front() {
                    if !core.hand_out(&entry) {
                        state.prefetch = None;
                        return Err(stop_async());
                    }
                    return Ok(DictOut(entry.item, core.cols()));
                }
                let Some(prefetch) = state.prefetch.as_mut() else { return Err(stop_async()) };
                match prefetch.next().await {
                    Some(Ok(fetched)) => {
                        let skip = std::mem::take(&mut state.skip);
                        core.entries(fetched, skip, &mut state.buffer);
                    }
                    Some(Err(e)) => {
                        state.prefetch = None;
                        return Err(to_py(core.annotate(e)));
                    }
                    None => {
                        state.prefetch = None;
                        return Err(stop_async());
                    }
                }
            }
        })
    }

    /// Stop fetching; later ``__anext__`` raises ``StopAsyncIteration``.
    fn close(&self) {
        self.feed.close();
    }
}

/// Async iterator of pages (lists of dicts) from an :class:`AsyncPager`.
#[pyclass(frozen, name = "AsyncPageIterator", module = "avax_data._native")]
pub struct PyAsyncPageIterator {
    core: PagerCore,
    feed: AsyncFeed<AsyncState<()>>,
}

#[pymethods]
impl PyAsyncPageIterator {
    fn __aiter__(slf: Py<Self>) -> Py<Self> {
        slf
    }

    fn __anext__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let (state, closed, core) = (self.feed.state.clone(), self.feed.closed.clone(), self.core.clone());
        awaitable(py, async move {
            let mut state = state.lock().await;
            if closed.load(Ordering::SeqCst) || core.remaining() == Some(0) {
                state.prefetch = None;
                return Err(stop_async());
            }
            let Some(prefetch) = state.prefetch.as_mut() else { return Err(stop_async()) };
            match prefetch.next().await {
                Some(Ok(fetched)) => {
                    let skip = std::mem::take(&mut state.skip);
                    match core.take_page(fetched, skip, None) {
                        Some(items) => Ok(DictsOut(items, core.cols())),
                        None => {
                            state.prefetch = None;
                            Err(stop_async())
                        }
                    }
                }
                Some(Err(e)) => {
                    state.prefetch = None;
                    Err(to_py(core.annotate(e)))
                }
                None => {
                    state.prefetch = None;
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

// ---- the clients ----

/// Builds the `Paged` of each list method from Python arguments (shared by both clients).
struct Lists<'a>(&'a DataClient);

const NETWORK: &str = "one of mainnet, fuji, testnet";

impl Lists<'_> {
    fn blocks(&self, chain_id: &Bound<'_, PyAny>, page_size: &Bound<'_, PyAny>) -> PyResult<(Paged, Resource)> {
        let chain_id = str_arg(chain_id, "chain_id", "an EVM chain id or blockchain id (str)")?;
        let size = page_size_arg(page_size, params::MAX_PAGE_SIZE)?;
        Ok((self.0.blocks(&chain_id, size).map_err(to_py)?, Resource::Block))
    }

    fn latest_blocks(
        &self,
        network: Option<&Bound<'_, PyAny>>,
        page_size: &Bound<'_, PyAny>,
    ) -> PyResult<(Paged, Resource)> {
        let network = opt_str(network, "network", NETWORK)?;
        let size = page_size_arg(page_size, params::MAX_PAGE_SIZE)?;
        Ok((self.0.latest_blocks(network.as_deref(), size).map_err(to_py)?, Resource::Block))
    }

    fn collectibles(
        &self,
        chain_id: &Bound<'_, PyAny>,
        address: &Bound<'_, PyAny>,
        contract_address: Option<&Bound<'_, PyAny>>,
        page_size: &Bound<'_, PyAny>,
    ) -> PyResult<(Paged, Resource)> {
        let chain_id = str_arg(chain_id, "chain_id", "an EVM chain id or blockchain id (str)")?;
        let address = str_arg(address, "address", "a wallet address (str)")?;
        let contract = opt_str(contract_address, "contract_address", "a contract address (str)")?;
        let size = page_size_arg(page_size, params::MAX_COLLECTIBLES_PAGE_SIZE)?;
        Ok((self.0.collectibles(&chain_id, &address, contract.as_deref(), size).map_err(to_py)?, Resource::Collectible))
    }

    fn pending_rewards(
        &self,
        network: &Bound<'_, PyAny>,
        addresses: Option<&Bound<'_, PyAny>>,
        node_ids: Option<&Bound<'_, PyAny>>,
        sort_order: Option<&Bound<'_, PyAny>>,
        page_size: &Bound<'_, PyAny>,
    ) -> PyResult<(Paged, Resource)> {
        let network = str_arg(network, "network", NETWORK)?;
        let addresses = list_arg(addresses, "addresses")?;
        let node_ids = list_arg(node_ids, "node_ids")?;
        let sort_order = opt_str(sort_order, "sort_order", "one of asc, desc")?;
        let size = page_size_arg(page_size, params::MAX_PAGE_SIZE)?;
        let paged =
            self.0.pending_rewards(&network, &addresses, &node_ids, sort_order.as_deref(), size).map_err(to_py)?;
        Ok((paged, Resource::PendingReward))
    }

    fn vertices(
        &self,
        network: &Bound<'_, PyAny>,
        blockchain_id: &Bound<'_, PyAny>,
        page_size: &Bound<'_, PyAny>,
    ) -> PyResult<(Paged, Resource)> {
        let network = str_arg(network, "network", NETWORK)?;
        let blockchain_id = str_arg(blockchain_id, "blockchain_id", "an X-chain blockchain id or 'x-chain'")?;
        let size = page_size_arg(page_size, params::MAX_PAGE_SIZE)?;
        Ok((self.0.vertices(&network, &blockchain_id, size).map_err(to_py)?, Resource::Vertex))
    }

    #[allow(clippy::too_many_arguments)]
    fn icm_messages(
        &self,
        source_blockchain_id: Option<&Bound<'_, PyAny>>,
        destination_blockchain_id: Option<&Bound<'_, PyAny>>,
        blockchain_id: Option<&Bound<'_, PyAny>>,
        to: Option<&Bound<'_, PyAny>>,
        from_: Option<&Bound<'_, PyAny>>,
        network: Option<&Bound<'_, PyAny>>,
        page_size: &Bound<'_, PyAny>,
    ) -> PyResult<(Paged, Resource)> {
        let id = "a blockchain id or EVM chain id (str)";
        let source = opt_str(source_blockchain_id, "source_blockchain_id", id)?;
        let destination = opt_str(destination_blockchain_id, "destination_blockchain_id", id)?;
        let blockchain = opt_str(blockchain_id, "blockchain_id", "a blockchain id (str)")?;
        let to = opt_str(to, "to", "an address (str)")?;
        let from = opt_str(from_, "from_", "an address (str)")?;
        let network = opt_str(network, "network", NETWORK)?;
        let size = page_size_arg(page_size, params::MAX_PAGE_SIZE)?;
        let paged = self
            .0
            .icm_messages(
                source.as_deref(),
                destination.as_deref(),
                blockchain.as_deref(),
                to.as_deref(),
                from.as_deref(),
                network.as_deref(),
                size,
            )
            .map_err(to_py)?;
        Ok((paged, Resource::IcmMessage))
    }
}

fn pager_core(
    client: &DataClient,
    made: (Paged, Resource),
    page_token: Option<&Bound<'_, PyAny>>,
    limit: Option<&Bound<'_, PyAny>>,
) -> PyResult<PagerCore> {
    let token = opt_str(page_token, "page_token", "a page token (str) from next_page_token")?;
    PagerCore::new(client, made.0, made.1, token, limit_arg(limit)?)
}

/// Synchronous client of the hosted Data API (``/v1/...``).
///
/// ``api_key`` defaults to the ``AVAX_DATA_API_KEY`` environment variable (optional: a key gives
/// higher rate limits); it is sent under both ``x-glacier-api-key`` and ``x-data-api-key`` and
/// never shown in a ``repr``, an exception or a URL. ``base_url`` defaults to
/// ``AVAX_DATA_API_URL``, then ``https://data-api.avax.network``. Retries connection errors,
/// timeouts, 5xx and 429 (waiting ``Retry-After``) within ``retry_budget`` seconds. Parameters
/// are checked before any request (:class:`InvalidParameterError`, a ``ValueError``).
#[pyclass(frozen, name = "DataClient", module = "avax_data._native")]
pub struct PyDataClient {
    client: DataClient,
}

#[pymethods]
impl PyDataClient {
    #[new]
    #[pyo3(signature = (api_key=None, *, base_url=None, timeout=30.0, connect_timeout=10.0, max_retries=None, backoff=0.2, max_backoff=10.0, retry_budget=60.0, headers=None, max_response_bytes=None, ca_bundle=None, danger_accept_invalid_certs=None, follow_cross_origin_redirects=None))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        api_key: Option<String>,
        base_url: Option<String>,
        timeout: f64,
        connect_timeout: f64,
        max_retries: Option<&Bound<'_, PyAny>>,
        backoff: f64,
        max_backoff: f64,
        retry_budget: f64,
        headers: Option<HashMap<String, String>>,
        max_response_bytes: Option<&Bound<'_, PyAny>>,
        ca_bundle: Option<&Bound<'_, PyAny>>,
        danger_accept_invalid_certs: Option<&Bound<'_, PyAny>>,
        follow_cross_origin_redirects: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Self> {
        let transport = transport_config(
            timeout,
            connect_timeout,
            max_retries,
            backoff,
            max_backoff,
            retry_budget,
            headers,
            max_response_bytes,
            ca_bundle,
            danger_accept_invalid_certs,
            follow_cross_origin_redirects,
        )?;
        Ok(PyDataClient { client: client_arg(api_key, base_url, transport)? })
    }

    /// The base URL (secrets redacted).
    #[getter]
    fn base_url(&self) -> String {
        self.client.base_url().to_string()
    }

    /// The last rate-limit headers seen: ``{"policy", "limit", "remaining", "reset"}`` or ``None``.
    #[getter]
    fn rate_limit<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyDict>>> {
        rate_limit_dict(py, &self.client)
    }

    /// ``GET /v1/chains``: the supported chains, filtered by ``network`` (mainnet, fuji, testnet)
    /// and ``feature`` (nftIndexing, webhooks, teleporter). A list of dicts (not paginated).
    #[pyo3(signature = (network=None, feature=None))]
    fn chains<'py>(
        &self,
        py: Python<'py>,
        network: Option<&Bound<'py, PyAny>>,
        feature: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let network = opt_str(network, "network", NETWORK)?;
        let feature = opt_str(feature, "feature", "one of nftIndexing, webhooks, teleporter")?;
        let chains = wait(py, self.client.chains(network.as_deref(), feature.as_deref()).map_err(to_py)?)?;
        DictsOut(chains, None).into_pyobject(py)
    }

    /// ``GET /v1/chains/{chainId}``: one chain (EVM chain id or blockchain id) as a dict.
    fn chain<'py>(&self, py: Python<'py>, chain_id: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
        let chain_id = str_arg(chain_id, "chain_id", "an EVM chain id or blockchain id (str)")?;
        let chain = wait(py, self.client.chain(&chain_id).map_err(to_py)?)?;
        object_to_py(py, &chain, None)
    }

    /// ``GET /v1/chains/{chainId}/blocks/{blockId}``: one block by number (int) or hash (str).
    fn block<'py>(
        &self,
        py: Python<'py>,
        chain_id: &Bound<'py, PyAny>,
        block_id: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let chain_id = str_arg(chain_id, "chain_id", "an EVM chain id or blockchain id (str)")?;
        let block_id = block_id_arg(block_id)?;
        let block = wait(py, self.client.block(&chain_id, &block_id).map_err(to_py)?)?;
        object_to_py(py, &block, Some(schema::BLOCK))
    }

    /// ``GET /v1/chains/{chainId}/blocks``: the chain's blocks, newest first (``page_size`` 1-100).
    #[pyo3(signature = (chain_id, *, page_size=None, page_token=None, limit=None))]
    fn blocks(
        &self,
        py: Python<'_>,
        chain_id: &Bound<'_, PyAny>,
        page_size: Option<&Bound<'_, PyAny>>,
        page_token: Option<&Bound<'_, PyAny>>,
        limit: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<PyPager> {
        let size = default_size(py, page_size)?;
        let made = Lists(&self.client).blocks(chain_id, &size)?;
        Ok(PyPager { core: pager_core(&self.client, made, page_token, limit)? })
    }

    /// ``GET /v1/blocks``: the latest blocks across all chains, optionally of one ``network``.
    #[pyo3(signature = (*, network=None, page_size=None, page_token=None, limit=None))]
    fn latest_blocks(
        &self,
        py: Python<'_>,
        network: Option<&Bound<'_, PyAny>>,
        page_size: Option<&Bound<'_, PyAny>>,
        page_token: Option<&Bound<'_, PyAny>>,
        limit: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<PyPager> {
        let size = default_size(py, page_size)?;
        let made = Lists(&self.client).latest_blocks(network, &size)?;
        Ok(PyPager { core: pager_core(&self.client, made, page_token, limit)? })
    }

    /// ``balances:listCollectibles``: ERC-721 and ERC-1155 balances of ``address`` (``page_size`` 1-500).
    #[pyo3(signature = (chain_id, address, *, contract_address=None, page_size=None, page_token=None, limit=None))]
    #[allow(clippy::too_many_arguments)]
    fn collectibles(
        &self,
        py: Python<'_>,
        chain_id: &Bound<'_, PyAny>,
        address: &Bound<'_, PyAny>,
        contract_address: Option<&Bound<'_, PyAny>>,
        page_size: Option<&Bound<'_, PyAny>>,
        page_token: Option<&Bound<'_, PyAny>>,
        limit: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<PyPager> {
        let size = default_size(py, page_size)?;
        let made = Lists(&self.client).collectibles(chain_id, address, contract_address, &size)?;
        Ok(PyPager { core: pager_core(&self.client, made, page_token, limit)? })
    }

    /// ``rewards:listPending``: pending staking rewards; at least one of ``addresses`` / ``node_ids``
    /// (lists or comma-separated str), ``sort_order`` asc or desc.
    #[pyo3(signature = (network, *, addresses=None, node_ids=None, sort_order=None, page_size=None, page_token=None, limit=None))]
    #[allow(clippy::too_many_arguments)]
    fn pending_rewards(
        &self,
        py: Python<'_>,
        network: &Bound<'_, PyAny>,
        addresses: Option<&Bound<'_, PyAny>>,
        node_ids: Option<&Bound<'_, PyAny>>,
        sort_order: Option<&Bound<'_, PyAny>>,
        page_size: Option<&Bound<'_, PyAny>>,
        page_token: Option<&Bound<'_, PyAny>>,
        limit: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<PyPager> {
        let size = default_size(py, page_size)?;
        let made = Lists(&self.client).pending_rewards(network, addresses, node_ids, sort_order, &size)?;
        Ok(PyPager { core: pager_core(&self.client, made, page_token, limit)? })
    }

    /// X-chain vertices, newest first; ``blockchain_id`` is ``"x-chain"`` or the network's X-chain id.
    #[pyo3(signature = (network, blockchain_id=None, *, page_size=None, page_token=None, limit=None))]
    fn vertices(
        &self,
        py: Python<'_>,
        network: &Bound<'_, PyAny>,
        blockchain_id: Option<&Bound<'_, PyAny>>,
        page_size: Option<&Bound<'_, PyAny>>,
        page_token: Option<&Bound<'_, PyAny>>,
        limit: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<PyPager> {
        let size = default_size(py, page_size)?;
        let x = PyString::new(py, "x-chain").into_any();
        let made = Lists(&self.client).vertices(network, blockchain_id.unwrap_or(&x), &size)?;
        Ok(PyPager { core: pager_core(&self.client, made, page_token, limit)? })
    }

    /// ``GET /v1/icm/messages``: interchain messages, newest first, with the six filters.
    #[pyo3(signature = (*, source_blockchain_id=None, destination_blockchain_id=None, blockchain_id=None, to=None, from_=None, network=None, page_size=None, page_token=None, limit=None))]
    #[allow(clippy::too_many_arguments)]
    fn icm_messages(
        &self,
        py: Python<'_>,
        source_blockchain_id: Option<&Bound<'_, PyAny>>,
        destination_blockchain_id: Option<&Bound<'_, PyAny>>,
        blockchain_id: Option<&Bound<'_, PyAny>>,
        to: Option<&Bound<'_, PyAny>>,
        from_: Option<&Bound<'_, PyAny>>,
        network: Option<&Bound<'_, PyAny>>,
        page_size: Option<&Bound<'_, PyAny>>,
        page_token: Option<&Bound<'_, PyAny>>,
        limit: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<PyPager> {
        let size = default_size(py, page_size)?;
        let made = Lists(&self.client).icm_messages(
            source_blockchain_id,
            destination_blockchain_id,
            blockchain_id,
            to,
            from_,
            network,
            &size,
        )?;
        Ok(PyPager { core: pager_core(&self.client, made, page_token, limit)? })
    }

    /// ``GET /v1/health-check``: the service's health report as a dict.
    fn health<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let report = wait(py, self.client.health())?;
        object_to_py(py, &report, None)
    }

    /// Close the client: later calls raise ``AvaxDataError("the client is closed")``.
    fn close(&self) {
        self.client.close();
    }

    fn __enter__(slf: Py<Self>) -> Py<Self> {
        slf
    }

    #[pyo3(signature = (*_exc))]
    fn __exit__(&self, _exc: &Bound<'_, pyo3::types::PyTuple>) {
        self.client.close();
    }

    fn __repr__(&self) -> String {
        format!("DataClient({:?}{})", self.client.base_url(), if self.client.is_closed() { ", closed" } else { "" })
    }
}

fn default_size<'py>(py: Python<'py>, page_size: Option<&Bound<'py, PyAny>>) -> PyResult<Bound<'py, PyAny>> {
    match page_size.filter(|p| !p.is_none()) {
        Some(p) => Ok(p.clone()),
        None => Ok(py.None().into_bound(py)),
    }
}

/// Asynchronous twin of :class:`DataClient` (same options): single-object methods return
/// awaitables, list methods return an :class:`AsyncPager` (``async for``).
#[pyclass(frozen, name = "AsyncDataClient", module = "avax_data._native")]
pub struct PyAsyncDataClient {
    client: DataClient,
}

#[pymethods]
impl PyAsyncDataClient {
    #[new]
    #[pyo3(signature = (api_key=None, *, base_url=None, timeout=30.0, connect_timeout=10.0, max_retries=None, backoff=0.2, max_backoff=10.0, retry_budget=60.0, headers=None, max_response_bytes=None, ca_bundle=None, danger_accept_invalid_certs=None, follow_cross_origin_redirects=None))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        api_key: Option<String>,
        base_url: Option<String>,
        timeout: f64,
        connect_timeout: f64,
        max_retries: Option<&Bound<'_, PyAny>>,
        backoff: f64,
        max_backoff: f64,
        retry_budget: f64,
        headers: Option<HashMap<String, String>>,
        max_response_bytes: Option<&Bound<'_, PyAny>>,
        ca_bundle: Option<&Bound<'_, PyAny>>,
        danger_accept_invalid_certs: Option<&Bound<'_, PyAny>>,
        follow_cross_origin_redirects: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Self> {
        let transport = transport_config(
            timeout,
            connect_timeout,
            max_retries,
            backoff,
            max_backoff,
            retry_budget,
            headers,
            max_response_bytes,
            ca_bundle,
            danger_accept_invalid_certs,
            follow_cross_origin_redirects,
        )?;
        Ok(PyAsyncDataClient { client: client_arg(api_key, base_url, transport)? })
    }

    /// The base URL (secrets redacted).
    #[getter]
    fn base_url(&self) -> String {
        self.client.base_url().to_string()
    }

    /// The last rate-limit headers seen: ``{"policy", "limit", "remaining", "reset"}`` or ``None``.
    #[getter]
    fn rate_limit<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyDict>>> {
        rate_limit_dict(py, &self.client)
    }

    /// Awaitable :meth:`DataClient.chains`.
    #[pyo3(signature = (network=None, feature=None))]
    fn chains<'py>(
        &self,
        py: Python<'py>,
        network: Option<&Bound<'py, PyAny>>,
        feature: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let network = opt_str(network, "network", NETWORK)?;
        let feature = opt_str(feature, "feature", "one of nftIndexing, webhooks, teleporter")?;
        let request = self.client.chains(network.as_deref(), feature.as_deref()).map_err(to_py)?;
        awaitable(py, async move { Ok(DictsOut(request.await.map_err(to_py)?, None)) })
    }

    /// Awaitable :meth:`DataClient.chain`.
    fn chain<'py>(&self, py: Python<'py>, chain_id: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
        let chain_id = str_arg(chain_id, "chain_id", "an EVM chain id or blockchain id (str)")?;
        let request = self.client.chain(&chain_id).map_err(to_py)?;
        awaitable(py, async move { Ok(DictOut(request.await.map_err(to_py)?, None)) })
    }

    /// Awaitable :meth:`DataClient.block`.
    fn block<'py>(
        &self,
        py: Python<'py>,
        chain_id: &Bound<'py, PyAny>,
        block_id: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let chain_id = str_arg(chain_id, "chain_id", "an EVM chain id or blockchain id (str)")?;
        let block_id = block_id_arg(block_id)?;
        let request = self.client.block(&chain_id, &block_id).map_err(to_py)?;
        awaitable(py, async move { Ok(DictOut(request.await.map_err(to_py)?, Some(schema::BLOCK))) })
    }

    /// :meth:`DataClient.blocks` as an :class:`AsyncPager`.
    #[pyo3(signature = (chain_id, *, page_size=None, page_token=None, limit=None))]
    fn blocks(
        &self,
        py: Python<'_>,
        chain_id: &Bound<'_, PyAny>,
        page_size: Option<&Bound<'_, PyAny>>,
        page_token: Option<&Bound<'_, PyAny>>,
        limit: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<PyAsyncPager> {
        let size = default_size(py, page_size)?;
        let made = Lists(&self.client).blocks(chain_id, &size)?;
        Ok(PyAsyncPager { core: pager_core(&self.client, made, page_token, limit)? })
    }

    /// :meth:`DataClient.latest_blocks` as an :class:`AsyncPager`.
    #[pyo3(signature = (*, network=None, page_size=None, page_token=None, limit=None))]
    fn latest_blocks(
        &self,
        py: Python<'_>,
        network: Option<&Bound<'_, PyAny>>,
        page_size: Option<&Bound<'_, PyAny>>,
        page_token: Option<&Bound<'_, PyAny>>,
        limit: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<PyAsyncPager> {
        let size = default_size(py, page_size)?;
        let made = Lists(&self.client).latest_blocks(network, &size)?;
        Ok(PyAsyncPager { core: pager_core(&self.client, made, page_token, limit)? })
    }

    /// :meth:`DataClient.collectibles` as an :class:`AsyncPager`.
    #[pyo3(signature = (chain_id, address, *, contract_address=None, page_size=None, page_token=None, limit=None))]
    #[allow(clippy::too_many_arguments)]
    fn collectibles(
        &self,
        py: Python<'_>,
        chain_id: &Bound<'_, PyAny>,
        address: &Bound<'_, PyAny>,
        contract_address: Option<&Bound<'_, PyAny>>,
        page_size: Option<&Bound<'_, PyAny>>,
        page_token: Option<&Bound<'_, PyAny>>,
        limit: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<PyAsyncPager> {
        let size = default_size(py, page_size)?;
        let made = Lists(&self.client).collectibles(chain_id, address, contract_address, &size)?;
        Ok(PyAsyncPager { core: pager_core(&self.client, made, page_token, limit)? })
    }

    /// :meth:`DataClient.pending_rewards` as an :class:`AsyncPager`.
    #[pyo3(signature = (network, *, addresses=None, node_ids=None, sort_order=None, page_size=None, page_token=None, limit=None))]
    #[allow(clippy::too_many_arguments)]
    fn pending_rewards(
        &self,
        py: Python<'_>,
        network: &Bound<'_, PyAny>,
        addresses: Option<&Bound<'_, PyAny>>,
        node_ids: Option<&Bound<'_, PyAny>>,
        sort_order: Option<&Bound<'_, PyAny>>,
        page_size: Option<&Bound<'_, PyAny>>,
        page_token: Option<&Bound<'_, PyAny>>,
        limit: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<PyAsyncPager> {
        let size = default_size(py, page_size)?;
        let made = Lists(&self.client).pending_rewards(network, addresses, node_ids, sort_order, &size)?;
        Ok(PyAsyncPager { core: pager_core(&self.client, made, page_token, limit)? })
    }

    /// :meth:`DataClient.vertices` as an :class:`AsyncPager`.
    #[pyo3(signature = (network, blockchain_id=None, *, page_size=None, page_token=None, limit=None))]
    fn vertices(
        &self,
        py: Python<'_>,
        network: &Bound<'_, PyAny>,
        blockchain_id: Option<&Bound<'_, PyAny>>,
        page_size: Option<&Bound<'_, PyAny>>,
        page_token: Option<&Bound<'_, PyAny>>,
        limit: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<PyAsyncPager> {
        let size = default_size(py, page_size)?;
        let x = PyString::new(py, "x-chain").into_any();
        let made = Lists(&self.client).vertices(network, blockchain_id.unwrap_or(&x), &size)?;
        Ok(PyAsyncPager { core: pager_core(&self.client, made, page_token, limit)? })
    }

    /// :meth:`DataClient.icm_messages` as an :class:`AsyncPager`.
    #[pyo3(signature = (*, source_blockchain_id=None, destination_blockchain_id=None, blockchain_id=None, to=None, from_=None, network=None, page_size=None, page_token=None, limit=None))]
    #[allow(clippy::too_many_arguments)]
    fn icm_messages(
        &self,
        py: Python<'_>,
        source_blockchain_id: Option<&Bound<'_, PyAny>>,
        destination_blockchain_id: Option<&Bound<'_, PyAny>>,
        blockchain_id: Option<&Bound<'_, PyAny>>,
        to: Option<&Bound<'_, PyAny>>,
        from_: Option<&Bound<'_, PyAny>>,
        network: Option<&Bound<'_, PyAny>>,
        page_size: Option<&Bound<'_, PyAny>>,
        page_token: Option<&Bound<'_, PyAny>>,
        limit: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<PyAsyncPager> {
        let size = default_size(py, page_size)?;
        let made = Lists(&self.client).icm_messages(
            source_blockchain_id,
            destination_blockchain_id,
            blockchain_id,
            to,
            from_,
            network,
            &size,
        )?;
        Ok(PyAsyncPager { core: pager_core(&self.client, made, page_token, limit)? })
    }

    /// Awaitable :meth:`DataClient.health`.
    fn health<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let client = self.client.clone();
        awaitable(py, async move { Ok(DictOut(client.health().await.map_err(to_py)?, None)) })
    }

    /// Close the client: later calls raise ``AvaxDataError("the client is closed")``.
    fn close(&self) {
        self.client.close();
    }

    fn __aenter__<'py>(slf: Py<Self>, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        awaitable(py, async move { Ok(slf) })
    }

    #[pyo3(signature = (*_exc))]
    fn __aexit__<'py>(&self, py: Python<'py>, _exc: &Bound<'py, pyo3::types::PyTuple>) -> PyResult<Bound<'py, PyAny>> {
        self.client.close();
        awaitable(py, async move { Ok(false) })
    }

    fn __enter__(slf: Py<Self>) -> Py<Self> {
        slf
    }

    #[pyo3(signature = (*_exc))]
    fn __exit__(&self, _exc: &Bound<'_, pyo3::types::PyTuple>) {
        self.client.close();
    }

    fn __repr__(&self) -> String {
        format!(
            "AsyncDataClient({:?}{})",
            self.client.base_url(),
            if self.client.is_closed() { ", closed" } else { "" }
        )
    }
}
