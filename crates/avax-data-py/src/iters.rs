//! The Python iterators: each drives one core consumer through [`Iter`], a sync class and its
//! async twin stamped from one definition.

use arrow_array::cast::AsArray;
use arrow_array::types::UInt64Type;
use arrow_array::RecordBatch;
use arrow_schema::SchemaRef;
use pyo3::prelude::*;

use super::convert::{arrow_stream, frame_dicts, DecodedOut, DictOut, DictsOut, FrameKind, FrameOut};
use super::mode::{Iter, Step};
use avax_data_core::arrow::Col;
use avax_data_core::data::ResourcePager;
use avax_data_core::error::{Error, Result};
use avax_data_core::index::feed::{IndexFeed, Split};
use avax_data_core::index::walk::Batch;
use avax_data_core::index::Container;
use avax_data_core::paging::{JsonItem, PagerCursor};

/// Any index feed hands out what its split made.
impl<P: Send + 'static, T: for<'py> IntoPyObject<'py> + Send + 'static> Step for IndexFeed<P, T> {
    type Out = T;
    fn ready(&mut self) -> Option<Result<T>> {
        IndexFeed::ready(self)
    }
    fn next(&mut self) -> impl std::future::Future<Output = Result<Option<T>>> + Send + '_ {
        IndexFeed::next(self)
    }
    fn fill(&mut self) -> impl std::future::Future<Output = Result<bool>> + Send + '_ {
        IndexFeed::fill(self)
    }
    fn close(&mut self) {
        IndexFeed::close(self)
    }
    fn unhand(&mut self) {
        IndexFeed::unhand(self)
    }
}

/// The items of an index walk: containers, or decoded rows (dicts).
pub enum IndexItems {
    /// Containers as the node sent them.
    Raw(IndexFeed<Vec<Container>, Container>),
    /// Decoded rows, converted to dicts a batch at a time.
    Decoded(IndexFeed<Batch, Py<PyAny>>),
}

/// One item of [`IndexItems`], or a single container call's result.
pub enum IndexItem {
    /// A container (becomes its dict).
    Container(Container),
    /// A decoded row already converted.
    Row(Py<PyAny>),
    /// One decoded container, converted when it reaches Python.
    Decoded(DecodedOut),
}

impl<'py> IntoPyObject<'py> for IndexItem {
    type Target = PyAny;
    type Output = Bound<'py, PyAny>;
    type Error = PyErr;
    fn into_pyobject(self, py: Python<'py>) -> PyResult<Self::Output> {
        match self {
            IndexItem::Container(c) => super::convert::container_dict(py, &c).map(Bound::into_any),
            IndexItem::Row(row) => Ok(row.into_bound(py)),
            IndexItem::Decoded(d) => d.into_pyobject(py),
        }
    }
}

impl Step for IndexItems {
    type Out = IndexItem;
    fn ready(&mut self) -> Option<Result<IndexItem>> {
        match self {
            IndexItems::Raw(feed) => feed.ready().map(|r| r.map(IndexItem::Container)),
            IndexItems::Decoded(feed) => feed.ready().map(|r| r.map(IndexItem::Row)),
        }
    }
    async fn next(&mut self) -> Result<Option<IndexItem>> {
        match self {
            IndexItems::Raw(feed) => Ok(feed.next().await?.map(IndexItem::Container)),
            IndexItems::Decoded(feed) => Ok(feed.next().await?.map(IndexItem::Row)),
        }
    }
    async fn fill(&mut self) -> Result<bool> {
        match self {
            IndexItems::Raw(feed) => feed.fill().await,
            IndexItems::Decoded(feed) => feed.fill().await,
        }
    }
    fn close(&mut self) {
        match self {
            IndexItems::Raw(feed) => feed.close(),
            IndexItems::Decoded(feed) => feed.close(),
        }
    }
    fn unhand(&mut self) {
        match self {
            IndexItems::Raw(feed) => feed.unhand(),
            IndexItems::Decoded(feed) => feed.unhand(),
        }
    }
}

/// The `index` column of a walk's batch (raw or decoded).
fn batch_indices(batch: &RecordBatch) -> Vec<u64> {
    batch
        .column_by_name("index")
        .and_then(|c| c.as_primitive_opt::<UInt64Type>())
        .map_or_else(Vec::new, |c| c.values().to_vec())
}

/// Rows of a decoded batch converted to dicts under one hold of the GIL: an async iteration
/// converts on a runtime thread, and the event loop (a task's cancellation, Ctrl-C) waits for
/// the GIL at most this long.
const ROWS_PER_GIL_HOLD: usize = 128;

/// Decoded batches split into dicts (through polars, so every column converts as in a frame).
/// Ctrl-C during the conversion (Python code runs it, so its signal handler may raise there)
/// ends the feed before the batch, and its exception reaches the caller unchanged.
pub fn decoded_rows(schema: SchemaRef) -> Split<Batch, Py<PyAny>> {
    Box::new(move |(next, batch): Batch| {
        let mut after: Vec<u64> = batch_indices(&batch).into_iter().map(|i| i.saturating_add(1)).collect();
        if after.len() != batch.num_rows() {
            // Columns selected without `index`: a walk's batch holds consecutive indexes up to `next`.
            let first = next.saturating_sub(batch.num_rows() as u64);
            after = (1..=batch.num_rows() as u64).map(|k| first + k).collect();
        }
        let mut rows = Vec::with_capacity(batch.num_rows());
        for offset in (0..batch.num_rows()).step_by(ROWS_PER_GIL_HOLD) {
            // On a runtime thread (async iteration), not once the interpreter exits (see `exit`):
            // entered per part, so an exit waits for one part, never for the whole batch.
            let Some(_entered) = crate::wait::exit::enter() else { return Err(Error::Interrupted) };
            let part = batch.slice(offset, ROWS_PER_GIL_HOLD.min(batch.num_rows() - offset));
            rows.extend(Python::attach(|py| {
                frame_dicts(py, part, schema.clone()).map_err(|e| {
                    if crate::interrupt::is_interruption(py, &e) {
                        crate::interrupt::keep(e)
                    } else {
                        Error::Internal(format!("a decoded row did not convert: {e}"))
                    }
                })
            })?);
        }
        Ok(after.into_iter().zip(rows).collect())
    })
}

/// A consumer handing out whole record batches.
pub trait BatchSource: Send + 'static {
    /// The next batch; `None` at the end.
    fn next_batch(&mut self) -> impl std::future::Future<Output = Result<Option<RecordBatch>>> + Send + '_;
    /// A batch already fetched, handed out without waiting (`None`: the next needs a wait).
    fn ready_batch(&mut self) -> Option<Result<RecordBatch>>;
    /// Waits until [`BatchSource::ready_batch`] has a batch, handing out nothing; `false` at the end.
    fn fill(&mut self) -> impl std::future::Future<Output = Result<bool>> + Send + '_;
    /// Stops fetching.
    fn close(&mut self);
    /// The last batch never reached Python: the position goes back before it, and the source
    /// stops.
    fn unhand(&mut self);
}

/// A range's batches.
impl BatchSource for IndexFeed<Batch, RecordBatch> {
    fn next_batch(&mut self) -> impl std::future::Future<Output = Result<Option<RecordBatch>>> + Send + '_ {
        self.next()
    }
    fn ready_batch(&mut self) -> Option<Result<RecordBatch>> {
        self.ready()
    }
    fn fill(&mut self) -> impl std::future::Future<Output = Result<bool>> + Send + '_ {
        IndexFeed::fill(self)
    }
    fn close(&mut self) {
        IndexFeed::close(self)
    }
    fn unhand(&mut self) {
        IndexFeed::unhand(self)
    }
}

/// A pager's pages as batches of its resource.
pub struct PagerBatches(pub ResourcePager, pub PagerCursor);

impl BatchSource for PagerBatches {
    async fn next_batch(&mut self) -> Result<Option<RecordBatch>> {
        self.0.next_batch(&mut self.1).await
    }
    fn ready_batch(&mut self) -> Option<Result<RecordBatch>> {
        self.0.ready_batch(&mut self.1)
    }
    fn fill(&mut self) -> impl std::future::Future<Output = Result<bool>> + Send + '_ {
        self.1.fill()
    }
    fn close(&mut self) {
        self.1.close()
    }
    fn unhand(&mut self) {
        self.1.unhand()
    }
}

/// Batches handed to Python as polars frames of `schema`.
pub struct Frames<B>(pub B, pub SchemaRef);

impl<B: BatchSource> Step for Frames<B> {
    type Out = FrameOut;
    fn ready(&mut self) -> Option<Result<FrameOut>> {
        let schema = self.1.clone();
        self.0.ready_batch().map(|b| b.map(|b| FrameOut(vec![b], schema, FrameKind::Polars)))
    }
    async fn next(&mut self) -> Result<Option<FrameOut>> {
        Ok(self.0.next_batch().await?.map(|b| FrameOut(vec![b], self.1.clone(), FrameKind::Polars)))
    }
    fn fill(&mut self) -> impl std::future::Future<Output = Result<bool>> + Send + '_ {
        self.0.fill()
    }
    fn close(&mut self) {
        self.0.close()
    }
    fn rows(out: &FrameOut) -> u64 {
        out.0.iter().map(|b| b.num_rows() as u64).sum()
    }
    fn unhand(&mut self) {
        self.0.unhand()
    }
}

/// The rest of a batch iterator as an Arrow C stream (each batch read moves the position).
fn stream_of<'py, B: BatchSource>(
    py: Python<'py>,
    iter: &Iter<Frames<B>>,
    requested_schema: Option<Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    let state = iter.state();
    let schema = state.try_lock().map(|s| s.1.clone()).map_err(|_| super::mode::busy())?;
    let next = move || {
        let state = state.clone();
        crate::interrupt::stream_wait(Box::pin(async move {
            let mut step = state.lock().await;
            step.0.next_batch().await
        }))
    };
    // It ends as the iterator would: a range cut at the tip warns, at the line asking for it.
    let (caller, resume) = (super::warn::Caller::here(py)?, iter.resume().clone());
    let reader =
        avax_data_core::arrow::WalkReader::new(schema, Box::new(next)).at_end(caller.at_end(move || resume.notice()));
    arrow_stream(py, reader, requested_schema)
}

/// A pager's items, as dicts typed by the resource's columns.
pub struct PagerItems(pub PagerCursor, pub &'static [Col]);

impl Step for PagerItems {
    type Out = DictOut;
    fn ready(&mut self) -> Option<Result<DictOut>> {
        let cols = self.1;
        self.0.ready_item().map(|r| Ok(DictOut(r?.to_exact()?, Some(cols))))
    }
    async fn next(&mut self) -> Result<Option<DictOut>> {
        let cols = self.1;
        match self.0.next_item().await? {
            Some(item) => Ok(Some(DictOut(item.to_exact()?, Some(cols)))),
            None => Ok(None),
        }
    }
    fn fill(&mut self) -> impl std::future::Future<Output = Result<bool>> + Send + '_ {
        self.0.fill()
    }
    fn close(&mut self) {
        self.0.close()
    }
    fn unhand(&mut self) {
        self.0.unhand()
    }
}

/// A pager's pages, as lists of dicts.
pub struct PagerPages(pub PagerCursor, pub &'static [Col]);

impl Step for PagerPages {
    type Out = DictsOut;
    fn ready(&mut self) -> Option<Result<DictsOut>> {
        let mut page = Vec::new();
        let handed = self.0.ready_page_with(|items| {
            page = items;
            Ok(())
        })?;
        Some(handed.and_then(|_| Ok(DictsOut(exact_items(&page)?, Some(self.1)))))
    }
    async fn next(&mut self) -> Result<Option<DictsOut>> {
        match self.0.next_page().await? {
            Some(items) => Ok(Some(DictsOut(exact_items(&items)?, Some(self.1)))),
            None => Ok(None),
        }
    }
    fn fill(&mut self) -> impl std::future::Future<Output = Result<bool>> + Send + '_ {
        self.0.fill()
    }
    fn close(&mut self) {
        self.0.close()
    }
    fn unhand(&mut self) {
        self.0.unhand()
    }
    fn rows(out: &DictsOut) -> u64 {
        out.0.len() as u64
    }
}

/// A page's items as exact JSON values (amounts past 64 bits kept whole).
fn exact_items(items: &[JsonItem]) -> Result<Vec<avax_data_core::exact::Exact>> {
    items.iter().map(|item| item.to_exact().map_err(Error::from)).collect()
}

/// Stamps an iterator class and its async twin over a [`Step`] type; `shared` adds getters.
macro_rules! iterator_twins {
    (
        $(#[doc = $doc:expr])*
        $Sync:ident($sync_name:literal), $Async:ident($async_name:literal), $step:ty;
        shared { $($shared:tt)* }
    ) => {
        $crate::mode::twins! {
            $(#[doc = $doc])*
            sync $Sync($sync_name) {}
            $(#[doc = $doc])*
            async $Async($async_name) {}
            state { iter: $crate::mode::Iter<$step> }
            shared {
                /// Stop fetching, from any thread or task; the iteration then ends.
                ///
                /// The walk's position stays where the last item handed out left it, so a new
                /// consumer of the same walk resumes there.
                ///
                /// Example:
                ///     >>> it = ad.IndexClient(emu.url).chain("X/tx").range(0, 100).items()
                ///     >>> next(it)["index"]
                ///     0
                ///     >>> it.close()
                ///     >>> next(it, "ended")
                ///     'ended'
                fn close(&self) {
                    self.iter.close();
                }
                $($shared)*
            }
            sync_only {
                fn __iter__(slf: Py<Self>) -> Py<Self> {
                    slf
                }

                fn __next__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
                    <M as $crate::mode::Mode>::next(py, &self.iter)
                }
            }
            async_only {
                fn __aiter__(slf: Py<Self>) -> Py<Self> {
                    slf
                }

                fn __anext__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
                    <M as $crate::mode::Mode>::next(py, &self.iter)
                }
            }
        }
    };
}

iterator_twins! {
    /// Iterator of a range's items: container dicts, or decoded rows.
    ///
    /// Made by ``iter(range)`` or :meth:`Range.items`. Items are fetched ahead in the background; ``next_index`` is where the walk resumes. The
    /// async twin (``AsyncRangeIterator``, from ``AsyncRange``) is stepped with ``async for`` or
    /// ``await anext(it)``; items already fetched are handed out without an event-loop round
    /// trip.
    ///
    /// Raises:
    ///     AvaxDataError: out of ``next()``, as listed on :class:`Range`, carrying ``next_index``.
    ///     RuntimeError: a newer consumer of the same range superseded this iterator, or another
    ///         thread is advancing it.
    ///
    /// Example:
    ///     >>> it = iter(ad.IndexClient(emu.url).chain("X/tx").range(0, 10))
    ///     >>> [next(it)["index"] for _ in range(3)], it.next_index
    ///     ([0, 1, 2], 3)
    ///     >>> import asyncio
    ///     >>> async def first_two():
    ///     ...     async with ad.AsyncIndexClient(emu.url) as node:
    ///     ...         it = node.chain("X/tx").range(0, 10).items()
    ///     ...         return [(await anext(it))["index"] for _ in range(2)]
    ///     >>> asyncio.run(first_two())
    ///     [0, 1]
    PyRangeIterator("RangeIterator"), PyAsyncRangeIterator("AsyncRangeIterator"), IndexItems;
    shared {
        /// The first index not yet handed out by this iterator's walk: where it resumes.
        ///
        /// Example:
        ///     >>> it = ad.IndexClient(emu.url).chain("X/tx").range(100, 110).items()
        ///     >>> next(it)["index"], it.next_index
        ///     (100, 101)
        #[getter]
        fn next_index(&self) -> u64 {
            self.iter.resume().next_index().unwrap_or_default()
        }
    }
}

iterator_twins! {
    /// Iterator of a range's polars DataFrames, one per call to the node.
    ///
    /// Made by :meth:`Range.batches`. It is also an Arrow stream (``__arrow_c_stream__``) of the batches not yet handed out.
    /// The async twin (``AsyncBatchIterator``, from ``AsyncRange.batches()``) is stepped with
    /// ``async for``.
    ///
    /// Raises:
    ///     AvaxDataError: out of ``next()``, as listed on :class:`Range`, carrying ``next_index``.
    ///     RuntimeError: a newer consumer of the same range superseded this iterator.
    ///
    /// Example:
    ///     >>> frames = ad.IndexClient(emu.url).chain("X/tx").range(0, 30, batch_size=10).batches()
    ///     >>> [f["index"].min() for f in frames]
    ///     [0, 10, 20]
    ///     >>> import asyncio
    ///     >>> async def heights():
    ///     ...     async with ad.AsyncIndexClient(emu.url) as node:
    ///     ...         rng = node.chain("X/tx").range(0, 30, batch_size=10)
    ///     ...         return [f.height async for f in rng.batches()]
    ///     >>> asyncio.run(heights())
    ///     [10, 10, 10]
    PyBatchIterator("BatchIterator"), PyAsyncBatchIterator("AsyncBatchIterator"), Frames<IndexFeed<Batch, RecordBatch>>;
    shared {
        /// The first index not yet handed out by this iterator's walk: where it resumes.
        ///
        /// Example:
        ///     >>> frames = ad.IndexClient(emu.url).chain("X/tx").range(0, 30, batch_size=10).batches()
        ///     >>> next(frames).height, frames.next_index
        ///     (10, 10)
        #[getter]
        fn next_index(&self) -> u64 {
            self.iter.resume().next_index().unwrap_or_default()
        }

        /// The rest of the batches as an Arrow C stream (the Arrow PyCapsule interface).
        ///
        /// pyarrow, DuckDB and polars read it without a copy; each batch read moves the position.
        ///
        /// Args:
        ///     requested_schema: a schema capsule the reader asks for, or ``None``.
        ///
        /// Returns:
        ///     A PyCapsule holding an ``ArrowArrayStream``.
        ///
        /// Example:
        ///     >>> frames = ad.IndexClient(emu.url).chain("X/tx").range(0, 30, batch_size=10).batches()
        ///     >>> next(frames).height
        ///     10
        ///     >>> pl.DataFrame(frames)["index"].to_list()[:3]      # the 20 rows left
        ///     [10, 11, 12]
        #[pyo3(signature = (requested_schema=None))]
        fn __arrow_c_stream__<'py>(&self, py: Python<'py>, requested_schema: Option<Bound<'py, PyAny>>) -> PyResult<Bound<'py, PyAny>> {
            stream_of(py, &self.iter, requested_schema)
        }
    }
}

iterator_twins! {
    /// Iterator of a pager's pages as polars DataFrames of its resource.
    ///
    /// Made by :meth:`Pager.batches`. It is also an Arrow stream (``__arrow_c_stream__``) of the pages not yet handed out. The
    /// async twin (``AsyncPagerBatchIterator``, from ``AsyncPager.batches()``) is stepped with
    /// ``async for``.
    ///
    /// Raises:
    ///     AvaxDataError: out of ``next()``, as listed on :class:`Pager`, carrying
    ///         ``next_page_token``, ``page_offset`` and ``items_read``.
    ///
    /// Example:
    ///     >>> data = ad.DataClient(base_url=emu.url)
    ///     >>> pages = data.blocks("43114", page_size=10, limit=25).batches()
    ///     >>> [page.height for page in pages]
    ///     [10, 10, 5]
    ///     >>> import asyncio
    ///     >>> async def heights():
    ///     ...     async with ad.AsyncDataClient(base_url=emu.url) as data:
    ///     ...         return [p.height async for p in data.blocks("43114", page_size=10, limit=25).batches()]
    ///     >>> asyncio.run(heights())
    ///     [10, 10, 5]
    PyPagerBatchIterator("PagerBatchIterator"), PyAsyncPagerBatchIterator("AsyncPagerBatchIterator"), Frames<PagerBatches>;
    shared {
        /// The rest of the pages as an Arrow C stream (the Arrow PyCapsule interface).
        ///
        /// Each batch read moves the position.
        ///
        /// Args:
        ///     requested_schema: a schema capsule the reader asks for, or ``None``.
        ///
        /// Returns:
        ///     A PyCapsule holding an ``ArrowArrayStream``.
        ///
        /// Example:
        ///     >>> pages = ad.DataClient(base_url=emu.url).blocks("43114", page_size=10, limit=30).batches()
        ///     >>> pl.DataFrame(pages)["blockNumber"].to_list()[:3]
        ///     [499, 498, 497]
        #[pyo3(signature = (requested_schema=None))]
        fn __arrow_c_stream__<'py>(&self, py: Python<'py>, requested_schema: Option<Bound<'py, PyAny>>) -> PyResult<Bound<'py, PyAny>> {
            stream_of(py, &self.iter, requested_schema)
        }
    }
}

iterator_twins! {
    /// Iterator of a pager's items: dicts with the API's field names.
    ///
    /// Made by ``iter(pager)`` or :meth:`Pager.items`. The next pages are fetched in the background. The async twin (``AsyncPagerIterator``,
    /// from ``AsyncPager``) is stepped with ``async for`` or ``await anext(it)``.
    ///
    /// Raises:
    ///     AvaxDataError: out of ``next()``, as listed on :class:`Pager`, carrying
    ///         ``next_page_token``, ``page_offset`` and ``items_read``.
    ///     RuntimeError: a newer consumer of the same pager superseded this iterator, or another
    ///         thread is advancing it.
    ///
    /// Example:
    ///     >>> it = iter(ad.DataClient(base_url=emu.url).blocks("43114", limit=3))
    ///     >>> [block["blockNumber"] for block in it]
    ///     [499, 498, 497]
    ///     >>> import asyncio
    ///     >>> async def newest():
    ///     ...     async with ad.AsyncDataClient(base_url=emu.url) as data:
    ///     ...         return (await anext(data.blocks("43114").items()))["blockNumber"]
    ///     >>> asyncio.run(newest())
    ///     499
    PyPagerIterator("PagerIterator"), PyAsyncPagerIterator("AsyncPagerIterator"), PagerItems;
    shared {}
}

iterator_twins! {
    /// Iterator of a pager's pages: one list of dicts per page.
    ///
    /// Made by :meth:`Pager.pages`. The async twin (``AsyncPageIterator``, from ``AsyncPager.pages()``) is stepped with
    /// ``async for``.
    ///
    /// Raises:
    ///     AvaxDataError: out of ``next()``, as listed on :class:`Pager`, carrying
    ///         ``next_page_token``, ``page_offset`` and ``items_read``.
    ///
    /// Example:
    ///     >>> pages = ad.DataClient(base_url=emu.url).blocks("43114", page_size=2, limit=5).pages()
    ///     >>> [[b["blockNumber"] for b in page] for page in pages]
    ///     [[499, 498], [497, 496], [495]]
    ///     >>> import asyncio
    ///     >>> async def sizes():
    ///     ...     async with ad.AsyncDataClient(base_url=emu.url) as data:
    ///     ...         return [len(p) async for p in data.blocks("43114", page_size=2, limit=5).pages()]
    ///     >>> asyncio.run(sizes())
    ///     [2, 2, 1]
    PyPageIterator("PageIterator"), PyAsyncPageIterator("AsyncPageIterator"), PagerPages;
    shared {}
}

/// An iterator over `step` that annotates its errors with `resume` and counts rows on `bar`.
pub fn iter<S: Step>(
    step: S,
    resume: super::errors::Resume,
    bar: Option<std::sync::Arc<super::progress::Bar>>,
) -> Iter<S> {
    Iter::new(step, resume, bar)
}
