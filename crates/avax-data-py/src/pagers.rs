//! `Pager` and `AsyncPager`: lazy, resumable walks over the Data API's and Metrics API's lists,
//! adapting the core [`ResourcePager`].

use std::sync::Arc;

use pyo3::prelude::*;

use super::args::limit_arg;
use super::convert::FrameOut;
use super::errors::Resume;
use super::iters::{iter, Frames, PagerBatches, PagerItems, PagerPages};
use super::iters::{PyAsyncPageIterator, PyAsyncPagerBatchIterator, PyAsyncPagerIterator};
use super::iters::{PyPageIterator, PyPagerBatchIterator, PyPagerIterator};
use super::mode::{Iter, Step};
use super::progress::{bar, finished, on_rows, Bar};
use super::show::{py_bool, py_opt, py_str};
use super::walk_twins::{walk_twins, FrameCall, WriteCall};
use super::warn::Warned;
use avax_data_core::arrow::{ParquetExport, Resource};
use avax_data_core::data::ResourcePager;

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
        Resource::Listed(i) => avax_data_core::rest::openapi::operations().get(usize::from(i)).map_or("", |op| op.id),
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

/// The warnings a consumer of `pager` gives before its first request: the time the client
/// already spent waiting, a plan over the daily budget, and an unbounded walk of a hosted
/// service with its cost per 1,000 items.
fn warn_start(py: Python<'_>, pager: &ResourcePager) -> PyResult<()> {
    warn_before(py, pager, false)
}

/// A pager's Arrow stream ends, as its frames do, with why it found nothing (when the service
/// can tell), shown at the line that asked for the stream.
impl super::walk_twins::StreamReader for ResourcePager {
    fn stream_reader(&self, py: Python<'_>) -> PyResult<avax_data_core::arrow::WalkReader> {
        let (caller, pager) = (super::warn::Caller::here(py)?, self.pager.clone());
        Ok(self.reader(crate::interrupt::stream_wait).at_end(caller.at_end(move || pager.empty_notice())))
    }
}

/// [`warn_start`] of a consumer that may be `bounded` by a limit of its own.
fn warn_before(py: Python<'_>, pager: &ResourcePager, bounded: bool) -> PyResult<()> {
    super::warn::user_warning(py, pager.pager.spent())?;
    let plan = pager.pager.plan();
    super::warn::user_warning(py, plan.as_ref().and_then(|p| p.over_daily_budget()))?;
    super::warn::user_warning(py, plan.filter(|_| !bounded).and_then(|p| p.unbounded_notice()))
}

/// A consumer of the rest of `pager` stepping with what `step` makes of it, with its progress
/// bar; errors carry the pager's position.
fn consumer<S: Step>(
    py: Python<'_>,
    pager: &ResourcePager,
    progress: Option<&Bound<'_, PyAny>>,
    step: impl FnOnce(&ResourcePager) -> S,
) -> PyResult<Iter<S>> {
    warn_start(py, pager)?;
    let step = step(pager);
    let bar = pager_bar(py, pager, None, progress)?;
    Ok(iter(step, Resume::Pager(pager.pager.clone()), bar))
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

/// The rest of a pager (at most `limit` more items) as one frame, all or nothing.
fn collect<'py, M: super::mode::Mode>(
    frame: FrameCall<'py>,
    pager: &ResourcePager,
    limit: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    let (py, kind, limit, owned) = (frame.py, frame.kind, limit_arg(limit)?, pager.clone());
    if limit != Some(0) {
        warn_before(py, pager, limit.is_some())?;
    }
    let (schema, bar) = (pager.resource.schema(), pager_bar(py, pager, limit, frame.progress.as_ref())?);
    let rows = on_rows(&bar);
    Resume::Pager(pager.pager.clone()).run::<M, _>(py, frame.call(), async move {
        let batches = finished(bar, owned.to_batches(limit, rows)).await?;
        Ok(Warned(FrameOut(batches, schema, kind), owned.pager.empty_notice()))
    })
}

/// `write_parquet`: the rest of the walk streamed into one Parquet file.
fn to_parquet<'py, M: super::mode::Mode>(
    write: WriteCall<'py>,
    pager: &ResourcePager,
    path: avax_data_core::arrow::Target,
) -> PyResult<Bound<'py, PyAny>> {
    let (py, options) = (write.py, write.options);
    warn_start(py, pager)?;
    let (owned, bar) = (pager.clone(), pager_bar(py, pager, None, write.progress.as_ref())?);
    let (rows, stop) = (on_rows(&bar), avax_data_core::stop::Stop::new());
    let stopper = stop.clone();
    let export = async move {
        let written = finished(bar, owned.write_parquet_until(path, options, rows, &stopper)).await?.rows();
        Ok(Warned(written, owned.pager.empty_notice()))
    };
    Resume::Pager(pager.pager.clone()).run_stoppable::<M, _>(py, write.call, stop, export)
}

/// `write_dataset`: the rest of the walk as a dataset directory, partitioned by the list's key
/// (`chunk` block numbers a partition, or months).
fn to_dataset<'py, M: super::mode::Mode>(
    write: WriteCall<'py>,
    pager: &ResourcePager,
    path: std::path::PathBuf,
    chunk: Option<&Bound<'_, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    let (py, options) = (write.py, write.options);
    let chunk = chunk.map(super::args::chunk).transpose()?;
    avax_data_core::dataset::lists::check_dataset(pager, chunk).map_err(crate::errors::to_py)?;
    warn_start(py, pager)?;
    let (owned, bar) = (pager.clone(), pager_bar(py, pager, None, write.progress.as_ref())?);
    let rows = on_rows(&bar);
    let now = chrono::Utc::now().timestamp();
    let export = async move {
        let done =
            finished(bar, avax_data_core::dataset::lists::write_list_dataset(&owned, &path, chunk, options, now, rows))
                .await?;
        Ok(super::walks::summary_dict(done))
    };
    Resume::Pager(pager.pager.clone()).run::<M, _>(py, write.call, export)
}

walk_twins! {
    classes {
        /// A lazy, resumable walk over a paginated list of the Data API or the Metrics API.
        ///
        /// Made by the list methods of :class:`DataClient` and :class:`MetricsClient`; nothing is
        /// sent until you consume it. Iterating gives dicts (the API's field names; decimal-string
        /// integers as ``int``, Unix times as timezone-aware UTC ``datetime``); :meth:`pages` gives
        /// one list of dicts per page; :meth:`batches`, :meth:`to_polars` and :meth:`write_parquet`
        /// give typed frames. The next pages are fetched while you work on the current one (two
        /// ahead at most), and ``limit=`` on the list method caps the items handed out in total
        /// without fetching a page it does not need.
        ///
        /// The resume contract: the position (:attr:`next_page_token` + :attr:`page_offset`,
        /// :attr:`items_read`) is exactly what was handed to you. Every new consumer resumes there,
        /// so nothing is lost or repeated after a ``break``, an error or Ctrl-C; ``to_polars()`` is
        /// all or nothing; one consumer at a time (a new one supersedes the previous iterator). A
        /// later process resumes with ``page_token=next_page_token`` and skips ``page_offset`` items.
        ///
        /// Raises:
        ///     PageTokenError: the service refused a page token (expired after 24 h, or unknown);
        ///         the walk is never restarted from page one behind your back.
        ///     DecodeError: an answer that cannot be read, or a page token repeated within the walk.
        ///     AvaxDataError: any other failure (:class:`HTTPStatusError` and its subclasses,
        ///         :class:`TransportError`). Every exception out of a walk carries
        ///         ``next_page_token``, ``page_offset`` and ``items_read``.
        ///
        /// Example:
        ///     >>> data = ad.DataClient(base_url=emu.url)
        ///     >>> pager = data.blocks("43114", page_size=10)
        ///     >>> for block in pager:
        ///     ...     if block["blockNumber"] == 487:
        ///     ...         break
        ///     >>> pager.items_read, pager.page_offset                 # 13 read, 3 of the second page
        ///     (13, 3)
        ///     >>> pager.to_polars(limit=3)["blockNumber"].to_list()  # resumes at the next item
        ///     [486, 485, 484]
        ///
        ///     In another process, resume from the saved token and offset:
        ///
        ///     >>> token, skip = pager.next_page_token, pager.page_offset
        ///     >>> again = data.blocks("43114", page_size=10, page_token=token)
        ///     >>> again.to_polars(limit=skip + 2)["blockNumber"].to_list()[skip:]
        ///     [483, 482]
        sync PyPager("Pager") { ItemsOf = PyPagerIterator, PagesOf = PyPageIterator, BatchesOf = PyPagerBatchIterator }
        /// Asynchronous twin of :class:`Pager`.
        ///
        /// Made by the list methods of :class:`AsyncDataClient` and :class:`AsyncMetricsClient`.
        /// ``async for`` gives the dicts; ``items()``, ``pages()`` and ``batches()`` return async
        /// iterators; ``to_polars()``, ``to_arrow()``, ``to_pandas()`` and ``write_parquet()`` are
        /// awaited. The resume contract, the properties and the exceptions are those of
        /// :class:`Pager` (the shared method docstrings show the sync calls).
        ///
        /// Example:
        ///     >>> import asyncio
        ///     >>> async def main():
        ///     ...     async with ad.AsyncDataClient(base_url=emu.url) as data:
        ///     ...         pager = data.blocks("43114", page_size=10)
        ///     ...         async for block in pager:
        ///     ...             if block["blockNumber"] == 490:
        ///     ...                 break
        ///     ...         frame = await pager.to_polars(limit=5)
        ///     ...         return pager.items_read, frame["blockNumber"].to_list()
        ///     >>> asyncio.run(main())
        ///     (15, [489, 488, 487, 486, 485])
        async PyAsyncPager("AsyncPager") {
            ItemsOf = PyAsyncPagerIterator,
            PagesOf = PyAsyncPageIterator,
            BatchesOf = PyAsyncPagerBatchIterator,
        }
    }
    state { pager: ResourcePager }
    consumers by consumer {
        /// Iterate the rest of the walk page by page.
        ///
        /// Args:
        ///     progress: ``None`` (default), ``True`` (a ``tqdm.auto`` bar; needs tqdm) or a bar of
        ///         yours (anything with ``update(n)``), advanced by the items handed out.
        ///
        /// Returns:
        ///     PageIterator: one list of dicts per page (what ``limit=`` allows of it).
        ///
        /// Raises:
        ///     InvalidParameterError: a bad ``progress``.
        ///     AvaxDataError: out of ``next()``, as listed on :class:`Pager`, with the position.
        ///
        /// Example:
        ///     >>> pager = ad.DataClient(base_url=emu.url).blocks("43114", page_size=10, limit=25)
        ///     >>> [len(page) for page in pager.pages()]
        ///     [10, 10, 5]
        #[pyo3(signature = (*, progress=None))]
        fn pages(progress) -> PagesOf = |pager| PagerPages(pager.pager.cursor(), pager.resource.columns());

        /// Iterate the rest of the walk as polars DataFrames of the resource, one per page.
        ///
        /// Args:
        ///     progress: ``None`` (default), ``True`` or a bar of yours, as in :meth:`pages`.
        ///
        /// Returns:
        ///     PagerBatchIterator: the frames (the schema of :meth:`to_polars`), also readable as
        ///     an Arrow stream.
        ///
        /// Raises:
        ///     InvalidParameterError: a bad ``progress``.
        ///     AvaxDataError: out of ``next()``, as listed on :class:`Pager`, with the position.
        ///
        /// Example:
        ///     >>> pager = ad.DataClient(base_url=emu.url).vertices("mainnet", page_size=100, limit=250)
        ///     >>> [frame.height for frame in pager.batches()]
        ///     [100, 100, 50]
        #[pyo3(signature = (*, progress=None))]
        fn batches(progress) -> BatchesOf =
            |pager| Frames(PagerBatches(pager.clone(), pager.pager.cursor()), pager.resource.schema());

        /// Iterate the rest of the walk one item at a time (what ``for`` does).
        ///
        /// Args:
        ///     progress: ``None`` (default), ``True`` or a bar of yours, as in :meth:`pages`.
        ///
        /// Returns:
        ///     PagerIterator: dicts with the API's field names.
        ///
        /// Raises:
        ///     InvalidParameterError: a bad ``progress``.
        ///     AvaxDataError: out of ``next()``, as listed on :class:`Pager`, with the position.
        ///
        /// Example:
        ///     >>> pager = ad.DataClient(base_url=emu.url).blocks("43114", limit=2)
        ///     >>> [(b["blockNumber"], b["txCount"]) for b in pager.items()]
        ///     [(499, ...), (498, ...)]
        #[pyo3(signature = (*, progress=None))]
        fn items(progress) -> ItemsOf = |pager| PagerItems(pager.pager.cursor(), pager.resource.columns());
    }

    frames(limit=None, *, progress=None) by collect(limit) {
        /// The rest of the walk (or ``limit`` more items) as one polars DataFrame, all or nothing.
        ///
        /// After an error the position is where the call started, so a second call retries the
        /// same items. Columns follow the resource's schema (big integers ``Decimal(38, 0)``,
        /// times ``Datetime("ns", "UTC")``); fields the schema does not list stay in the dicts.
        ///
        /// Args:
        ///     limit: most items to take now, an int >= 0; default ``None``: all that are left
        ///         (within the list method's ``limit=``).
        ///     progress: ``None`` (default), ``True`` or a bar of yours, as in :meth:`pages`.
        ///
        /// Returns:
        ///     polars.DataFrame: one row per item.
        ///
        /// Raises:
        ///     InvalidParameterError: a negative or non-int ``limit``, a bad ``progress``.
        ///     AvaxDataError: as listed on :class:`Pager`, with the position.
        ///
        /// Example:
        ///     >>> pager = ad.DataClient(base_url=emu.url).blocks("43114")
        ///     >>> df = pager.to_polars(limit=3)
        ///     >>> df["blockNumber"].to_list(), df.schema["baseFee"]
        ///     ([499, 498, 497], Decimal(precision=38, scale=0))
        ///     >>> pager.to_polars(limit=2)["blockNumber"].to_list()      # the next two
        ///     [496, 495]
        to_polars = Polars;

        /// The rest of the walk as one ``pyarrow.Table``, all or nothing (needs pyarrow; no copy).
        ///
        /// Args:
        ///     limit: as in :meth:`to_polars`.
        ///     progress: as in :meth:`to_polars`.
        ///
        /// Returns:
        ///     pyarrow.Table: the columns of :meth:`to_polars`.
        ///
        /// Raises:
        ///     ImportError: pyarrow is not installed (``pip install 'avax-data[arrow]'``).
        ///     AvaxDataError: as listed on :class:`Pager`, with the position.
        ///
        /// Example:
        ///     >>> ad.DataClient(base_url=emu.url).blocks("43114").to_arrow(limit=7).num_rows
        ///     7
        to_arrow = Arrow;

        /// The rest of the walk as one ``pandas.DataFrame``, all or nothing (needs pandas, pyarrow).
        ///
        /// Args:
        ///     limit: as in :meth:`to_polars`.
        ///     progress: as in :meth:`to_polars`.
        ///
        /// Returns:
        ///     pandas.DataFrame: the columns of :meth:`to_polars`.
        ///
        /// Raises:
        ///     ImportError: pandas or pyarrow is not installed (``pip install 'avax-data[pandas]'``).
        ///     AvaxDataError: as listed on :class:`Pager`, with the position.
        ///
        /// Example:
        ///     >>> df = ad.DataClient(base_url=emu.url).blocks("43114").to_pandas(limit=2)
        ///     >>> df["blockNumber"].tolist()
        ///     [499, 498]
        to_pandas = Pandas;
    }

    /// The rest of the walk as an Arrow C stream, one batch per page.
    ///
    /// The Arrow PyCapsule interface: Arrow readers take the pager itself: ``pyarrow.table(pager)``,
    /// ``polars.DataFrame(pager)``, ``duckdb.from_arrow(pager)``. Each batch read moves the
    /// position.
    ///
    /// Args:
    ///     requested_schema: a schema capsule the reader asks for, or ``None``.
    ///
    /// Returns:
    ///     A PyCapsule holding an ``ArrowArrayStream``.
    ///
    /// Example:
    ///     >>> pager = ad.DataClient(base_url=emu.url).blocks("43114", limit=30)
    ///     >>> pl.DataFrame(pager).height, pager.items_read
    ///     (30, 30)
    stream warned by warn_start;

    /// The same list from its original start, as a new pager with a position of its own.
    ///
    /// A pager resumes where its last consumer stopped, so once exhausted (or at its
    /// ``limit``) every new consumer gets nothing (and warns so). Re-running a notebook cell
    /// is one call: ``pager.restart().to_polars()``. The start is the first page, or the
    /// ``page_token=`` the pager was made with; the ``limit`` stays; this pager keeps its
    /// position.
    ///
    /// Returns:
    ///     Pager: a fresh walk of the same list.
    ///
    /// Example:
    ///     >>> pager = ad.DataClient(base_url=emu.url).vertices("mainnet", limit=20)
    ///     >>> pager.to_polars().height
    ///     20
    ///     >>> import warnings
    ///     >>> with warnings.catch_warnings(record=True) as caught:
    ///     ...     warnings.simplefilter("always")
    ///     ...     print(pager.to_polars().height)
    ///     0
    ///     >>> "restart()" in str(caught[0].message)
    ///     True
    ///     >>> pager.restart().to_polars().height, pager.items_read
    ///     (20, 20)
    restart;

    /// An HTML table of the position, which Jupyter shows for a pager.
    ///
    /// Example:
    ///     >>> html = ad.DataClient(base_url=emu.url).blocks("43114")._repr_html_()
    ///     >>> html.startswith("<table>"), "next_page_token" in html
    ///     (True, True)
    repr of fields;

    iter = items(None);
    writers {
        /// Stream the rest of the walk into a Parquet file, page by page, in constant memory.
        ///
        /// Whatever stops it, the file is finished with every item handed to it and the position
        /// (``items_read``, ``next_page_token``, ``page_offset``) stands right after them, so the
        /// rest can go to a second file: on an error of the walk, the error (with the position)
        /// is raised after the file is finished; on Ctrl-C the export stops at its next page,
        /// finishes the file and then raises the ``KeyboardInterrupt`` (a second Ctrl-C abandons
        /// the file); a cancelled ``await`` of the async twin raises ``CancelledError`` at once
        /// while the file is finished in the background (the pager's next export waits for it).
        /// A file that cannot be finished (a full disk, a file object that raises) leaves no file
        /// at a path and the position where this call began.
        ///
        /// Args:
        ///     path: a file path (str or ``os.PathLike``) or a binary file object.
        ///     compression: ``"snappy"`` (default), ``"zstd"``, ``"lz4"``, ``"gzip"`` or ``"none"``.
        ///     row_group_size: rows per row group, an int >= 1; default 65536.
        ///     progress: ``None`` (default), ``True`` or a bar of yours, as in :meth:`pages`.
        ///
        /// Returns:
        ///     int: the rows written.
        ///
        /// Raises:
        ///     InvalidParameterError: a bad ``compression``, ``row_group_size`` or ``path``.
        ///     OSError: the file cannot be written or finished (``filename``: the path, or
        ///         ``"the file object"``), with the position.
        ///     AvaxDataError: as listed on :class:`Pager`, with the position.
        ///     KeyboardInterrupt: Ctrl-C, once the file is finished, with the position.
        ///
        /// Example:
        ///     >>> import io
        ///     >>> buf = io.BytesIO()
        ///     >>> ad.DataClient(base_url=emu.url).vertices("mainnet", limit=120).write_parquet(buf)
        ///     120
        ///     >>> _ = buf.seek(0)
        ///     >>> pl.read_parquet(buf).columns[:3]
        ///     ['vertexHash', 'parentHashes', 'vertexHeight']
        #[pyo3(signature = (path, *, compression="snappy", row_group_size=65536, progress=None))]
        fn write_parquet(#[pyo3(from_py_with = super::target::target)] path: avax_data_core::arrow::Target)
            by to_parquet;

        /// Write the rest of the walk as a dataset: a directory of Parquet files partitioned by a
        /// natural key of the rows, readable as one table.
        ///
        /// Blocks go by block-number chunk, ``path/block=<first block of the chunk>/part.parquet``
        /// (``chunk`` numbers each); vertices by the UTC month of ``vertexTimestamp``,
        /// ``path/month=<YYYYMM>/part.parquet``. A manifest ``_avax_dataset.json`` records the
        /// list, and each partition's rows, size, sha256 and whether it is complete. The list
        /// comes newest first: a partition is complete once the walk has passed below it, or the
        /// list ended under it. The newest one (new items may still come) is complete only when
        /// proven: a chunk holding all its block numbers, or a month over a day past when the
        /// walk started at the head. Run it again into the same directory (with a new pager) and
        /// it writes the newest partitions again, adds new ones, skips complete ones whose file
        /// is unchanged, and stops where everything below was written by a walk that reached the
        /// list's end; partial, missing or altered partitions are written whole again, so no row
        /// is ever in two files. A failed walk keeps the partitions it passed: a rerun completes
        /// the dataset.
        ///
        /// A list with a block range (``erc20_transfers``, ``transactions``, ...) goes by
        /// block-number chunk of its items' ``blockNumber``, one with a time window
        /// (``primary_network_transactions``, ...) by the UTC month of their seconds, and the
        /// dataset holds all of the pager's range (its position is not used): a first request
        /// reads the range's newest item (the head check), then each partition from there down
        /// is asked for on its own, up to ``concurrency`` at once, and published when its walk
        /// ended. The newest partition counts as complete while the list's newest item is the
        /// one it was written with. A rerun skips what is held without a request (a complete
        /// dataset costs the head check), and an interrupted run keeps the partitions it
        /// published.
        ///
        /// Args:
        ///     path: the dataset directory (str or ``os.PathLike``), created when missing.
        ///     chunk: block numbers per partition, an int >= 1; default ``None``: 100000. Only
        ///         for blocks and block ranges (vertices and time windows go by month).
        ///     compression, row_group_size: as in :meth:`write_parquet`.
        ///     progress: ``None`` (default), ``True`` or a bar of yours, as in :meth:`pages`.
        ///
        /// Returns:
        ///     dict: ``partitions_written``, ``partitions_skipped``, ``rows_written`` and
        ///     ``rows_skipped`` of this run.
        ///
        /// Raises:
        ///     InvalidParameterError: a bad argument; a list other than blocks of one chain,
        ///         vertices or a ranged list (``resource``); ``limit=`` on a ranged list;
        ///         ``path`` holding another list's dataset, or one of another service.
        ///     DecodeError: rows that are not newest first (they fit no partition rule).
        ///     DatasetLockedError: another writer holds ``path`` (at once, before any request).
        ///     AvaxDataError: as listed on :class:`Pager`, with the position (the partitions
        ///         written before it stay recorded).
        ///
        /// Example:
        ///     >>> import tempfile
        ///     >>> out = tempfile.mkdtemp()
        ///     >>> data = ad.DataClient(base_url=emu.url)
        ///     >>> data.blocks("43114").write_dataset(out, chunk=100)
        ///     {'partitions_skipped': 0, 'partitions_written': 5, 'rows_skipped': 0, 'rows_written': 500}
        ///     >>> data.blocks("43114").write_dataset(out, chunk=100)     # all complete: skipped
        ///     {'partitions_skipped': 5, 'partitions_written': 0, 'rows_skipped': 500, 'rows_written': 0}
        ///     >>> frame = pl.scan_parquet(f"{out}/**/*.parquet", hive_partitioning=True).collect()
        ///     >>> frame.height, frame["blockNumber"].n_unique(), sorted(frame["block"].unique())
        ///     (500, 500, [0, 100, 200, 300, 400])
        #[pyo3(signature = (path, *, chunk=None, compression="snappy", row_group_size=65536, progress=None))]
        fn write_dataset(
            #[pyo3(from_py_with = super::args::dir_path)] path: std::path::PathBuf,
            chunk: Option<&Bound<'_, PyAny>>
        ) by to_dataset;
    }
    shared {
        /// The cost plan of the rest of this walk, sending nothing: a :class:`Plan`.
        ///
        /// A list of the Data API has no count: without a ``limit`` the requests are unknown
        /// and the plan gives the cost per 1,000 items; with one, a bound. A metric series with
        /// ``start`` and ``end`` knows its buckets (sharded walks: each shard's pages plus one
        /// probe of the order).
        ///
        /// Example:
        ///     >>> plan = ad.DataClient(base_url=emu.url).blocks("43114", page_size=10, limit=40).plan()
        ///     >>> plan.requests, plan.requests_kind, plan.compute_units
        ///     (4, 'at most', 40)
        ///
        /// With ``dataset=`` (a directory) and ``chunk=`` (blocks only), the plan of
        /// :meth:`write_dataset` into it. A list has no range filter, so the walk reads from the
        /// head down and stops at the first whole partition below which the dataset is whole:
        /// a hole costs every page above it, the partitions below the stop are ``held``. The
        /// requests are ``'at least'`` (new items at the head cost more). Nothing is sent or
        /// written, and the directory's lock is not taken.
        ///
        ///     >>> import tempfile
        ///     >>> out = tempfile.mkdtemp()
        ///     >>> _ = ad.DataClient(base_url=emu.url).blocks("43114").write_dataset(out, chunk=100)
        ///     >>> again = ad.DataClient(base_url=emu.url).blocks("43114", page_size=10).plan(dataset=out, chunk=100)
        ///     >>> again.requests, again.requests_kind, again.held     # the head page only
        ///     (1, 'at least', 500)
        #[pyo3(signature = (dataset=None, chunk=None))]
        fn plan(&self, dataset: Option<&Bound<'_, PyAny>>, chunk: Option<&Bound<'_, PyAny>>) -> PyResult<super::plan::PyPlan> {
            let Some((dir, chunk)) = super::plan::dataset_target(dataset, chunk)? else {
                return super::plan::plan_of(self.pager.pager.plan());
            };
            let plan = avax_data_core::dataset::planned_lists::plan_list_dataset(&self.pager, &dir, chunk);
            super::plan::plan_of(Some(plan.map_err(crate::errors::to_py)?))
        }

        /// The token of the page holding the next item not handed out.
        ///
        /// ``None`` at the first page, after the last one, or in a sharded metric walk. Pass it
        /// as ``page_token=`` to resume later, skipping :attr:`page_offset` items; or save
        /// :attr:`resume_state`, whose :meth:`resume` also drops what a list that grew on its
        /// head in between pushed down.
        ///
        /// Example:
        ///     >>> pager = ad.DataClient(base_url=emu.url).blocks("43114", page_size=10)
        ///     >>> pager.next_page_token is None
        ///     True
        ///     >>> _ = pager.to_polars(limit=10)
        ///     >>> isinstance(pager.next_page_token, str)       # the second page's
        ///     True
        #[getter]
        fn next_page_token(&self) -> Option<String> {
            self.pager.position().next_page_token().map(str::to_string)
        }

        /// How many items of the :attr:`next_page_token` page were handed out.
        ///
        /// 0 at a page boundary.
        ///
        /// Example:
        ///     >>> pager = ad.DataClient(base_url=emu.url).blocks("43114", page_size=10)
        ///     >>> it = iter(pager)
        ///     >>> [next(it)["blockNumber"] for _ in range(14)][-1]
        ///     486
        ///     >>> pager.page_offset                     # 4 of the second page's 10
        ///     4
        #[getter]
        fn page_offset(&self) -> usize {
            self.pager.position().offset
        }

        /// The items handed out so far, by every consumer of the pager.
        ///
        /// Example:
        ///     >>> pager = ad.DataClient(base_url=emu.url).blocks("43114")
        ///     >>> first = next(iter(pager))
        ///     >>> _ = pager.to_polars(limit=4)
        ///     >>> pager.items_read
        ///     5
        #[getter]
        fn items_read(&self) -> u64 {
            self.pager.position().items_read
        }

        /// Whether the walk handed out the last item of the list.
        ///
        /// A walk stopped by ``limit=`` is not exhausted.
        ///
        /// Example:
        ///     >>> data = ad.DataClient(base_url=emu.url)
        ///     >>> pager = data.vertices("mainnet")              # 500 vertices on the emulator
        ///     >>> pager.to_polars().height, pager.exhausted
        ///     (500, True)
        #[getter]
        fn exhausted(&self) -> bool {
            self.pager.position().exhausted
        }

        /// Where the walk stands, to resume it in another process: a dict of
        /// ``next_page_token``, ``page_offset``, ``items_read``, ``handed_out`` and, once an
        /// item of a list with an identity was handed out, ``boundary``.
        ///
        /// ``handed_out`` holds the identities of the last items handed out (up to 1,000; the
        /// raw JSON texts of each item's id and key fields, e.g. ``blockHash`` and
        /// ``blockNumber``; empty for a list without an identity); ``boundary`` the page token
        /// and place in its page of the last of them. Save the dict (it is plain JSON) and pass
        /// it to :meth:`resume` of a new pager of the same list: it walks from that item's page
        /// past that item, so however much the list grew on its head meanwhile nothing is
        /// handed out twice or left out. An exhausted pager's state walks again from the first
        /// page, past every item.
        ///
        /// Example:
        ///     >>> import json
        ///     >>> data = ad.DataClient(base_url=emu.url)
        ///     >>> pager = data.blocks("43114", page_size=10)
        ///     >>> it = iter(pager)
        ///     >>> first = [next(it)["blockNumber"] for _ in range(15)]
        ///     >>> state = json.loads(json.dumps(pager.resume_state))    # saved, read back
        ///     >>> state["page_offset"], state["items_read"], len(state["handed_out"])
        ///     (5, 15, 15)
        ///     >>> later = data.blocks("43114", page_size=10)
        ///     >>> later.resume(state)
        ///     >>> first[-1], later.to_polars(limit=3)["blockNumber"].to_list()
        ///     (485, [484, 483, 482])
        #[getter]
        fn resume_state<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
            let state = avax_data_core::checkpoint::PagePosition::of_pager(&self.pager.pager);
            let text = serde_json::to_string(&state)
                .map_err(|e| crate::errors::to_py(avax_data_core::Error::Internal(e.to_string())))?;
            py.import("json")?.call_method1("loads", (text,))
        }

        /// Moves this pager to a state :attr:`resume_state` gave (of a walk of the same list),
        /// superseding its consumers: the next one continues where that walk stopped.
        ///
        /// With a ``boundary``, the walk seeks the last item handed out from where it stood and
        /// continues right after it, however much the list grew on its head in between; a list
        /// that never reaches it (a replica behind a load balancer answered, or the list lost
        /// items) raises ``DecodeError`` naming it, with nothing handed out. Without one, the
        /// identities in the state are remembered as handed out, so the items a growth of up to
        /// 1,000 pushed down are dropped; a state without ``handed_out`` resumes from its
        /// position alone. ``items_read`` carries on, so ``limit=`` counts the items of both
        /// walks. A state with a ``boundary`` leaves ``next_page_token`` at the page of that
        /// last item until the walk moves on.
        ///
        /// Args:
        ///     state: the dict of :attr:`resume_state` (or of an export's checkpoint).
        ///
        /// Raises:
        ///     InvalidParameterError: a state of another shape, or a walk cut into windows (a
        ///         metric series with ``concurrency``), before any request.
        ///
        /// Example:
        ///     >>> data = ad.DataClient(base_url=emu.url)
        ///     >>> pager = data.blocks("43114", page_size=10)
        ///     >>> _ = pager.to_polars(limit=12)
        ///     >>> later = data.blocks("43114", page_size=10)
        ///     >>> later.resume(pager.resume_state)
        ///     >>> later.items_read
        ///     12
        ///     >>> later.to_polars(limit=3).equals(pager.to_polars(limit=3))
        ///     True
        fn resume(&self, py: Python<'_>, state: &Bound<'_, PyAny>) -> PyResult<()> {
            let text: String = match py.import("json")?.call_method1("dumps", (state,)) {
                Ok(text) => text.extract()?,
                Err(e) => {
                    return Err(crate::errors::to_py(avax_data_core::Error::invalid(
                        "state",
                        state.repr().map_or_else(|_| "?".to_string(), |r| r.to_string()),
                        format!("a resume state as pager.resume_state gives (a dict of JSON values): {e}"),
                    )))
                }
            };
            let position = avax_data_core::checkpoint::PagePosition::from_json(&text).map_err(crate::errors::to_py)?;
            py.detach(|| position.resume(&self.pager.pager)).map_err(crate::errors::to_py)
        }

        /// The ``limit=`` given to the list method, or ``None``.
        ///
        /// Example:
        ///     >>> ad.DataClient(base_url=emu.url).blocks("43114", limit=25).limit
        ///     25
        #[getter]
        fn limit(&self) -> Option<u64> {
            self.pager.pager.limit()
        }

        /// The name of the resource, which picks the frame schema.
        ///
        /// One of ``block``, ``collectible``, ``pending_reward``, ``vertex``, ``icm_message``,
        /// ``metric_value``, ``metrics_chain``.
        ///
        /// Example:
        ///     >>> ad.DataClient(base_url=emu.url).vertices("mainnet").resource
        ///     'vertex'
        #[getter]
        fn resource(&self) -> &'static str {
            resource_name(self.pager.resource)
        }
    }
}
