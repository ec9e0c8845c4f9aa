//! `Pager` and `AsyncPager`: lazy, resumable walks over the Data API's and Metrics API's lists,
//! adapting the core [`ResourcePager`].

use std::sync::Arc;

use pyo3::prelude::*;

use super::args::limit_arg;
use super::convert::{arrow_stream, FrameKind, FrameOut};
use super::errors::Resume;
use super::iters::{iter, Frames, PagerBatches, PagerItems, PagerPages};
use super::iters::{PyAsyncPageIterator, PyAsyncPagerBatchIterator, PyAsyncPagerIterator};
use super::iters::{PyPageIterator, PyPagerBatchIterator, PyPagerIterator};
use super::mode::twins;
use super::progress::{bar, finished, on_rows, Bar};
use super::show::{html, py_bool, py_opt, py_str, repr};
use crate::arrow::data::Resource;
use crate::data::ResourcePager;

/// The name of a resource's frame schema, as Python shows it.
pub fn resource_name(r: Resource) -> &'static str {
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

/// The bar of a consumer of `pager` starting now that takes at most `cap` items: its total is
/// what the limits leave (unknown without one).
fn pager_bar(
    py: Python<'_>,
    pager: &ResourcePager,
    cap: Option<u64>,
    progress: Option<&Bound<'_, PyAny>>,
) -> PyResult<Option<Arc<Bar>>> {
    let total = match (pager.pager.remaining(), cap) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    };
    bar(py, progress, &pager.pager.describe(), move || total)
}

/// What a pager shows of itself in reprs.
fn fields(pager: &ResourcePager) -> Vec<(&'static str, String)> {
    let at = pager.position();
    vec![
        ("path", py_str(&pager.pager.describe())),
        ("resource", py_str(resource_name(pager.resource))),
        ("items_read", at.items_read.to_string()),
        ("next_page_token", py_opt(at.next_page_token().map(py_str))),
        ("page_offset", at.offset.to_string()),
        ("exhausted", py_bool(at.exhausted)),
        ("limit", py_opt(pager.pager.limit())),
    ]
}

/// The rest of a pager (at most `limit` more items) as one frame of `kind`, all or nothing.
fn collect<'py, M: super::mode::Mode>(
    py: Python<'py>,
    pager: &ResourcePager,
    limit: Option<&Bound<'py, PyAny>>,
    kind: FrameKind,
    progress: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    let (limit, owned) = (limit_arg(limit)?, pager.clone());
    let (schema, bar) = (pager.resource.schema(), pager_bar(py, pager, limit, progress)?);
    let rows = on_rows(&bar);
    Resume::Pager(pager.pager.clone()).run::<M, _>(py, async move {
        let batches = finished(bar, owned.to_batches(limit, rows)).await?;
        Ok(FrameOut(batches, schema, kind))
    })
}

twins! {
    /// A lazy, resumable walk over a paginated list of the Data API or the Metrics API.
    ///
    /// Iterating gives dicts (API field names; decimal-string integers as ``int``, Unix times as
    /// timezone-aware UTC ``datetime``); ``pages()`` gives one list of dicts per page;
    /// ``to_polars()`` and ``write_parquet()`` give typed frames. The next pages are fetched while
    /// you work on the current one. The position (``next_page_token`` + ``page_offset``,
    /// ``items_read``) is exactly what was handed to you: every new consumer resumes there, so
    /// nothing is lost or repeated after a ``break``, an error or Ctrl-C; every exception out of
    /// the walk carries ``next_page_token``, ``page_offset`` and ``items_read``. An expired or
    /// refused page token raises :class:`PageTokenError`.
    sync PyPager("Pager") { ItemsOf = PyPagerIterator, PagesOf = PyPageIterator, BatchesOf = PyPagerBatchIterator }
    /// Asynchronous twin of :class:`Pager`: ``async for`` dicts, ``pages()``, awaitable exports.
    async PyAsyncPager("AsyncPager") {
        ItemsOf = PyAsyncPagerIterator,
        PagesOf = PyAsyncPageIterator,
        BatchesOf = PyAsyncPagerBatchIterator,
    }
    state { pager: ResourcePager }
    shared {
        /// Token of the page holding the next unread item (``None`` at the first page, after
        /// the last one, or in a sharded walk). Pass it as ``page_token=`` to resume later.
        #[getter]
        fn next_page_token(&self) -> Option<String> {
            self.pager.position().next_page_token().map(str::to_string)
        }

        /// Items of the ``next_page_token`` page already handed out (0 at a page boundary).
        #[getter]
        fn page_offset(&self) -> usize {
            self.pager.position().offset
        }

        /// Items handed out so far.
        #[getter]
        fn items_read(&self) -> u64 {
            self.pager.position().items_read
        }

        /// Whether the walk handed out its last item.
        #[getter]
        fn exhausted(&self) -> bool {
            self.pager.position().exhausted
        }

        /// The ``limit=`` given, or ``None``.
        #[getter]
        fn limit(&self) -> Option<u64> {
            self.pager.pager.limit()
        }

        /// Polars schema name of the resource (``block``, ``collectible``, ...).
        #[getter]
        fn resource(&self) -> &'static str {
            resource_name(self.pager.resource)
        }

        /// Iterate pages: one list of dicts per page (what ``limit=`` allows of it); ``progress``
        /// (``True`` or a tqdm bar) shows the items handed out.
        #[pyo3(signature = (*, progress=None))]
        fn pages(&self, py: Python<'_>, progress: Option<&Bound<'_, PyAny>>) -> PyResult<PagesOf> {
            let step = PagerPages(self.pager.pager.cursor(), self.pager.resource.columns());
            let bar = pager_bar(py, &self.pager, None, progress)?;
            Ok(PagesOf { iter: iter(step, Resume::Pager(self.pager.pager.clone()), bar) })
        }

        /// Iterate pages as polars DataFrames of the resource; ``progress`` as in :meth:`pages`.
        #[pyo3(signature = (*, progress=None))]
        fn batches(&self, py: Python<'_>, progress: Option<&Bound<'_, PyAny>>) -> PyResult<BatchesOf> {
            let step = Frames(PagerBatches(self.pager.clone(), self.pager.pager.cursor()), self.pager.resource.schema());
            let bar = pager_bar(py, &self.pager, None, progress)?;
            Ok(BatchesOf { iter: iter(step, Resume::Pager(self.pager.pager.clone()), bar) })
        }

        /// Iterate the items (what ``for`` does); ``progress`` as in :meth:`pages`.
        #[pyo3(signature = (*, progress=None))]
        fn items(&self, py: Python<'_>, progress: Option<&Bound<'_, PyAny>>) -> PyResult<ItemsOf> {
            let step = PagerItems(self.pager.pager.cursor(), self.pager.resource.columns());
            let bar = pager_bar(py, &self.pager, None, progress)?;
            Ok(ItemsOf { iter: iter(step, Resume::Pager(self.pager.pager.clone()), bar) })
        }

        /// The rest of the walk (at most ``limit`` more items) as one polars DataFrame, all or
        /// nothing: after an error the position is where the call started. ``progress`` as in
        /// :meth:`pages`.
        #[pyo3(signature = (limit=None, *, progress=None))]
        fn to_polars<'py>(
            &self,
            py: Python<'py>,
            limit: Option<&Bound<'py, PyAny>>,
            progress: Option<&Bound<'py, PyAny>>,
        ) -> PyResult<Bound<'py, PyAny>> {
            collect::<M>(py, &self.pager, limit, FrameKind::Polars, progress)
        }

        /// Like :meth:`to_polars`, as a ``pyarrow.Table`` (needs pyarrow; no copy).
        #[pyo3(signature = (limit=None, *, progress=None))]
        fn to_arrow<'py>(
            &self,
            py: Python<'py>,
            limit: Option<&Bound<'py, PyAny>>,
            progress: Option<&Bound<'py, PyAny>>,
        ) -> PyResult<Bound<'py, PyAny>> {
            collect::<M>(py, &self.pager, limit, FrameKind::Arrow, progress)
        }

        /// Like :meth:`to_polars`, as a ``pandas.DataFrame`` (needs pandas and pyarrow).
        #[pyo3(signature = (limit=None, *, progress=None))]
        fn to_pandas<'py>(
            &self,
            py: Python<'py>,
            limit: Option<&Bound<'py, PyAny>>,
            progress: Option<&Bound<'py, PyAny>>,
        ) -> PyResult<Bound<'py, PyAny>> {
            collect::<M>(py, &self.pager, limit, FrameKind::Pandas, progress)
        }

        /// The rest of the walk as an Arrow C stream, one batch per page (``pyarrow.table(pager)``,
        /// ``polars.DataFrame(pager)``, DuckDB); each batch read moves the position.
        #[pyo3(signature = (requested_schema=None))]
        fn __arrow_c_stream__<'py>(&self, py: Python<'py>, requested_schema: Option<Bound<'py, PyAny>>) -> PyResult<Bound<'py, PyAny>> {
            arrow_stream(py, self.pager.reader(), requested_schema)
        }

        /// Stream the rest of the walk into a Parquet file (a path, or a binary file object);
        /// returns the rows written. On an error the file is still finalised, holding exactly the
        /// items before the position. ``compression``: snappy, zstd, lz4, gzip or none;
        /// ``row_group_size``: rows per row group. ``progress`` as in :meth:`pages`.
        #[pyo3(signature = (path, *, compression="snappy", row_group_size=65536, progress=None))]
        fn write_parquet<'py>(
            &self,
            py: Python<'py>,
            #[pyo3(from_py_with = super::target::target)] path: crate::arrow::Target,
            #[pyo3(from_py_with = super::args::compression)] compression: &str,
            #[pyo3(from_py_with = super::args::row_group_size)] row_group_size: u64,
            progress: Option<&Bound<'py, PyAny>>,
        ) -> PyResult<Bound<'py, PyAny>> {
            let options = crate::arrow::ParquetOptions::new(compression, row_group_size)?;
            let (pager, bar) = (self.pager.clone(), pager_bar(py, &self.pager, None, progress)?);
            let rows = on_rows(&bar);
            let export = async move { finished(bar, pager.write_parquet(path, options, rows)).await };
            Resume::Pager(self.pager.pager.clone()).run::<M, _>(py, export)
        }

        fn __repr__(&self) -> String {
            repr(CLASS_NAME, &fields(&self.pager))
        }

        /// An HTML table of the position, for Jupyter.
        fn _repr_html_(&self) -> String {
            html(CLASS_NAME, &fields(&self.pager))
        }
    }
    sync_only {
        fn __iter__(&self, py: Python<'_>) -> PyResult<ItemsOf> {
            self.items(py, None)
        }
    }
    async_only {
        fn __aiter__(&self, py: Python<'_>) -> PyResult<ItemsOf> {
            self.items(py, None)
        }
    }
}
