//! `Range` and `Follow` (and their async twins): lazy, resumable index walks for Python.

use std::sync::Arc;

use pyo3::prelude::*;

use super::args::decode_arg;
use super::convert::FrameOut;
use super::errors::Resume;
use super::iters::{decoded_rows, iter, Frames, IndexItems};
use super::iters::{PyAsyncBatchIterator, PyAsyncRangeIterator, PyBatchIterator, PyRangeIterator};
use super::mode::{twins, Call, Iter, Mode, PyAnyResult, Step};
use super::progress::{bar, finished, on_rows, Bar};
use super::show::{py_bool, py_opt, py_str, repr};
use super::walk_twins::{walk_twins, FrameCall, WriteCall};
use super::warn::Warned;
use avax_data_core::arrow::ParquetExport;
use avax_data_core::index::{FollowWalk, RangeWalk};
use avax_data_core::stop::Stop;

/// A method's `decode=` override: `None` keeps the walk's own setting.
fn decode_override(
    decode: Option<&Bound<'_, PyAny>>,
) -> PyResult<Option<Option<avax_data_core::arrow::decoded::DecodeMode>>> {
    decode.map(decode_arg).transpose()
}

/// The bar of a consumer of `walk` starting now: its total is the rest up to the end, known
/// once the walk's end is.
fn range_bar(py: Python<'_>, walk: &RangeWalk, progress: Option<&Bound<'_, PyAny>>) -> PyResult<Option<Arc<Bar>>> {
    let (start, owned) = (walk.next_index(), walk.clone());
    bar(py, progress, walk.path().as_str(), move || owned.end_known().map(|end| end.saturating_sub(start)))
}

/// The rest of a range as one frame, all or nothing.
fn collect<'py, M: Mode>(
    frame: FrameCall<'py>,
    walk: &RangeWalk,
    decode: Option<&Bound<'py, PyAny>>,
) -> PyAnyResult<'py> {
    let (kind, progress) = (frame.kind, frame.progress.as_ref());
    export::<M, _, _>(frame.py, frame.call(), walk, decode, progress, None, move |walk, rows| async move {
        let schema = walk.schema();
        Ok(FrameOut(walk.collect(rows).await?, schema, kind))
    })
}

/// `write_parquet`: the rest of the range streamed into one Parquet file.
fn to_parquet<'py, M: Mode>(
    write: WriteCall<'py>,
    walk: &RangeWalk,
    path: avax_data_core::arrow::Target,
    decode: Option<&Bound<'_, PyAny>>,
) -> PyAnyResult<'py> {
    let (options, progress, stop) = (write.options, write.progress.as_ref(), Stop::new());
    let stopper = Some(stop.clone());
    export::<M, _, _>(write.py, write.call, walk, decode, progress, stopper, move |walk, rows| async move {
        Ok(walk.write_parquet_until(path, options, rows, &stop).await?.rows())
    })
}

/// `write_dataset`: the rest of the range as a dataset directory of `chunk` indices a partition.
fn to_dataset<'py, M: Mode>(
    write: WriteCall<'py>,
    walk: &RangeWalk,
    path: std::path::PathBuf,
    chunk: u64,
    decode: Option<&Bound<'_, PyAny>>,
) -> PyAnyResult<'py> {
    let (options, progress) = (write.options, write.progress.as_ref());
    export::<M, _, _>(write.py, write.call, walk, decode, progress, None, move |walk, rows| async move {
        Ok(summary_dict(walk.write_dataset(&path, chunk, options, rows).await?))
    })
}

/// Runs the export `run` of `walk` (decoded as `decode` says) with its progress bar; errors
/// carry the walk's position. With `stop`, an interruption sets it instead of dropping `run`
/// ([`Resume::run_stoppable`]).
#[allow(clippy::too_many_arguments)]
fn export<'py, M: Mode, T: super::mode::ToPy, F>(
    py: Python<'py>,
    call: Call,
    walk: &RangeWalk,
    decode: Option<&Bound<'_, PyAny>>,
    progress: Option<&Bound<'_, PyAny>>,
    stop: Option<Stop>,
    run: impl FnOnce(RangeWalk, Box<dyn FnMut(u64) + Send>) -> F,
) -> PyResult<Bound<'py, PyAny>>
where
    F: std::future::Future<Output = avax_data_core::error::Result<T>> + Send + 'static,
{
    warn_start(py, walk)?;
    let walk = walk.with_decode(decode_override(decode)?).map_err(crate::errors::to_py)?;
    let (resume, bar) = (Resume::Range(walk.clone()), range_bar(py, &walk, progress)?);
    let (rows, told) = (Box::new(on_rows(&bar)), walk.clone());
    let fut = run(walk, rows);
    let fut = async move { finished(bar, fut).await.map(|out| Warned(out, told.tip_notice())) };
    match stop {
        Some(stop) => resume.run_stoppable::<M, _>(py, call, stop, fut),
        None => resume.run::<M, _>(py, call, fut),
    }
}

/// The warnings a consumer of `walk` gives before its first request: the time the client
/// already spent waiting, and a plan over the daily budget.
fn warn_start(py: Python<'_>, walk: &RangeWalk) -> PyResult<()> {
    super::warn::user_warning(py, walk.spent())?;
    super::warn::user_warning(py, walk.plan().over_daily_budget())
}

/// A range's Arrow stream ends, as every consumer of the range does, with the warning of a walk
/// cut at the tip, shown at the line that asked for the stream.
impl super::walk_twins::StreamReader for RangeWalk {
    fn stream_reader(&self, py: Python<'_>) -> PyResult<avax_data_core::arrow::WalkReader> {
        let caller = super::warn::Caller::here(py)?;
        Ok(self.reader_noticing(crate::interrupt::stream_wait, move |text| caller.show(&text)))
    }
}

/// A consumer of the rest of `walk` (decoded as `decode` says) stepping with what `step` makes
/// of it, with its progress bar; errors carry the walk's position.
fn consumer<S: Step>(
    py: Python<'_>,
    walk: &RangeWalk,
    decode: Option<&Bound<'_, PyAny>>,
    progress: Option<&Bound<'_, PyAny>>,
    step: impl FnOnce(&RangeWalk) -> S,
) -> PyResult<Iter<S>> {
    warn_start(py, walk)?;
    let walk = walk.with_decode(decode_override(decode)?).map_err(crate::errors::to_py)?;
    let bar = range_bar(py, &walk, progress)?;
    Ok(iter(step(&walk), Resume::Range(walk), bar))
}

/// What a dataset export did, as the dict Python sees.
pub fn summary_dict(done: avax_data_core::dataset::DatasetSummary) -> std::collections::BTreeMap<&'static str, u64> {
    std::collections::BTreeMap::from([
        ("partitions_written", done.partitions_written),
        ("partitions_skipped", done.partitions_skipped),
        ("rows_written", done.rows_written),
        ("rows_skipped", done.rows_skipped),
    ])
}

/// What a range shows of itself in reprs.
fn range_fields(walk: &RangeWalk) -> Vec<(&'static str, String)> {
    vec![
        ("path", py_str(walk.path().as_str())),
        ("start", walk.start().to_string()),
        ("stop", py_opt(walk.end())),
        ("end", py_opt(walk.end_reached())),
        ("next_index", walk.next_index().to_string()),
        ("decode", py_bool(walk.decode().is_some())),
    ]
}

/// The items of a range consumer: raw containers or decoded rows.
fn range_items(walk: &RangeWalk) -> IndexItems {
    match walk.decode() {
        None => IndexItems::Raw(walk.container_feed()),
        Some(_) => IndexItems::Decoded(walk.batch_feed(decoded_rows(walk.schema()))),
    }
}

/// The items of a follower.
fn follow_items(walk: &FollowWalk) -> IndexItems {
    match walk.decode() {
        None => IndexItems::Raw(walk.container_feed()),
        Some(_) => IndexItems::Decoded(walk.batch_feed(decoded_rows(walk.schema()))),
    }
}

walk_twins! {
    classes {
        /// A lazy, resumable, ordered walk over an index range, made by :meth:`Chain.range`.
        ///
        /// Iterating gives container dicts (or decoded rows); :meth:`batches` gives polars
        /// DataFrames; :meth:`to_polars`, :meth:`to_arrow`, :meth:`to_pandas` and
        /// :meth:`write_parquet` take the rest at once. The walk stops at ``end`` or at the tip; a
        /// short or lagging answer is re-requested, never taken for the end.
        ///
        /// The resume contract: :attr:`next_index` is the first index not yet handed to you, and it
        /// moves only when rows are handed to you. Every new consumer starts there, so a ``break``,
        /// an error or Ctrl-C loses and repeats nothing. ``to_polars()`` is all or nothing;
        /// ``write_parquet()`` on an error still finalises the file with the rows before
        /// ``next_index``. Every exception out of a walk carries ``exc.next_index``. One consumer
        /// at a time: a new one supersedes the previous iterator, whose next ``next()`` raises
        /// ``RuntimeError``.
        ///
        /// Raises:
        ///     IndexOutOfRangeError: the node lags behind an index known to exist (after about 3 s
        ///         of retries).
        ///     IntegrityError: a container whose checksum or id does not match its bytes.
        ///     DecodeError: an answer that cannot be read, or with ``decode="strict"`` a container
        ///         that does not decode.
        ///     AvaxDataError: any other failure (:class:`TransportError`, :class:`HTTPStatusError`,
        ///         :class:`RPCError`, :class:`ResponseTooLargeError`); all carry ``next_index``.
        ///
        /// Example:
        ///     >>> xtx = ad.IndexClient(emu.url).chain("X/tx")
        ///     >>> rng = xtx.range(0, 100)
        ///     >>> for c in rng:
        ///     ...     if c["index"] == 41:
        ///     ...         break
        ///     >>> rng.next_index                  # 0..41 were handed out
        ///     42
        ///     >>> rest = rng.to_polars()          # resumes there
        ///     >>> rest["index"][0], rest.height, rng.next_index
        ///     (42, 58, 100)
        ///
        ///     An error carries the position to resume from:
        ///
        ///     >>> with ad.Emulator(containers=100, faults={"500": 1.0}) as failing:
        ///     ...     node = ad.IndexClient(failing.url, max_retries=0)
        ///     ...     try:
        ///     ...         node.chain("X/tx").range(0, 100).to_polars()
        ///     ...     except ad.ServerError as exc:
        ///     ...         print(exc.status, exc.next_index)
        ///     500 0
        sync PyRange("Range") { BatchesOf = PyBatchIterator, ItemsOf = PyRangeIterator }
        /// Asynchronous twin of :class:`Range`, made by :meth:`AsyncChain.range`.
        ///
        /// ``async for`` gives the items; ``items()`` and ``batches()`` return async iterators;
        /// ``to_polars()``, ``to_arrow()``, ``to_pandas()`` and ``write_parquet()`` are awaited.
        /// The resume contract, the properties and the exceptions are those of :class:`Range`
        /// (the shared method docstrings show the sync calls).
        ///
        /// Example:
        ///     >>> import asyncio
        ///     >>> async def main():
        ///     ...     async with ad.AsyncIndexClient(emu.url) as node:
        ///     ...         rng = node.chain("X/tx").range(0, 250, batch_size=100)
        ///     ...         heights = [frame.height async for frame in rng.batches()]
        ///     ...         again = node.chain("X/tx").range(0, 50)
        ///     ...         async for c in again:
        ///     ...             if c["index"] == 9:
        ///     ...                 break
        ///     ...         rest = await again.to_polars()
        ///     ...         return heights, rest.height, again.next_index
        ///     >>> asyncio.run(main())
        ///     ([100, 100, 50], 40, 50)
        async PyAsyncRange("AsyncRange") { BatchesOf = PyAsyncBatchIterator, ItemsOf = PyAsyncRangeIterator }
    }
    state { walk: RangeWalk }
    consumers by consumer {
        /// Iterate the rest of the range as polars DataFrames, one per call to the node.
        ///
        /// Each has up to ``batch_size`` rows, in index order.
        ///
        /// Args:
        ///     decode: ``None`` (default) keeps the range's setting; ``False``, ``True`` or
        ///         ``"strict"`` override it (as in :meth:`Chain.range`).
        ///     progress: ``None`` (default), ``True`` (a ``tqdm.auto`` bar; needs tqdm) or a bar of
        ///         yours (anything with ``update(n)``), advanced by the rows handed out.
        ///
        /// Returns:
        ///     BatchIterator: the frames (the raw schema: ``id``, ``bytes``, ``timestamp``,
        ///     ``index``, ``encoding``), also readable as an Arrow stream.
        ///
        /// Raises:
        ///     InvalidParameterError: a bad ``decode`` or ``progress``.
        ///     AvaxDataError: out of ``next()``, as listed on :class:`Range`, with ``next_index``.
        ///
        /// Example:
        ///     >>> rng = ad.IndexClient(emu.url).chain("X/tx").range(0, 250, batch_size=100)
        ///     >>> [frame.height for frame in rng.batches()]
        ///     [100, 100, 50]
        ///     >>> frame = next(ad.IndexClient(emu.url).chain("X/tx").range(0, 10).batches())
        ///     >>> frame.columns
        ///     ['id', 'bytes', 'timestamp', 'index', 'encoding']
        #[pyo3(signature = (*, decode=None, progress=None))]
        fn batches(decode, progress) -> BatchesOf = |walk| Frames(walk.frame_feed(), walk.schema());

        /// Iterate the rest of the range one item at a time (what ``for`` does).
        ///
        /// Args:
        ///     decode: ``None`` (default) keeps the range's setting; ``False``, ``True`` or
        ///         ``"strict"`` override it (decoded items are dicts of the decoded row).
        ///     progress: ``None`` (default), ``True`` or a bar of yours, as in :meth:`batches`.
        ///
        /// Returns:
        ///     RangeIterator: container dicts (or decoded rows), fetched ahead in the background.
        ///
        /// Raises:
        ///     InvalidParameterError: a bad ``decode`` or ``progress``.
        ///     AvaxDataError: out of ``next()``, as listed on :class:`Range`, with ``next_index``.
        ///
        /// Example:
        ///     >>> rng = ad.IndexClient(emu.url).chain("X/tx").range(0, 3)
        ///     >>> [row["tx_type"] for row in rng.items(decode=True)]
        ///     ['ExportTx', 'CreateAssetTx', 'BaseTx']
        #[pyo3(signature = (*, decode=None, progress=None))]
        fn items(decode, progress) -> ItemsOf = range_items;
    }

    frames(*, decode=None, progress=None) by collect(decode) {
        /// The rest of the range as one polars DataFrame, all or nothing.
        ///
        /// Rows never pass through Python: the Rust core builds Arrow columns and polars takes
        /// them without a copy. After an error ``next_index`` is where the call started, so a
        /// second call retries the whole rest.
        ///
        /// Args:
        ///     decode: ``None`` (default) keeps the range's setting; ``False``, ``True`` or
        ///         ``"strict"`` override it.
        ///     progress: ``None`` (default), ``True`` or a bar of yours, as in :meth:`batches`.
        ///
        /// Returns:
        ///     polars.DataFrame: ``id`` (String), ``bytes`` (Binary), ``timestamp``
        ///     (Datetime("ns", "UTC")), ``index`` (UInt64), ``encoding`` (String); decoded:
        ///     ``id``, ``timestamp``, ``index``, the typed columns, ``decode_error``, ``bytes``.
        ///
        /// Raises:
        ///     InvalidParameterError: a bad ``decode`` or ``progress``.
        ///     AvaxDataError: as listed on :class:`Range`, with ``next_index``.
        ///
        /// Example:
        ///     >>> xtx = ad.IndexClient(emu.url).chain("X/tx")
        ///     >>> df = xtx.range(0, 500).to_polars()
        ///     >>> df.height, df.schema["timestamp"]
        ///     (500, Datetime(time_unit='ns', time_zone='UTC'))
        ///     >>> class Bar:                      # any object with update(n) counts the rows
        ///     ...     n = 0
        ///     ...     def update(self, k):
        ///     ...         self.n += k
        ///     >>> bar = Bar()
        ///     >>> xtx.range(0, 300).to_polars(progress=bar).height, bar.n
        ///     (300, 300)
        to_polars = Polars;

        /// The rest of the range as one ``pyarrow.Table``, all or nothing (needs pyarrow; no copy).
        ///
        /// Args:
        ///     decode: as in :meth:`to_polars`.
        ///     progress: as in :meth:`to_polars`.
        ///
        /// Returns:
        ///     pyarrow.Table: the columns of :meth:`to_polars`.
        ///
        /// Raises:
        ///     ImportError: pyarrow is not installed (``pip install 'avax-data[arrow]'``).
        ///     AvaxDataError: as listed on :class:`Range`, with ``next_index``.
        ///
        /// Example:
        ///     >>> table = ad.IndexClient(emu.url).chain("X/tx").range(0, 10).to_arrow()
        ///     >>> table.num_rows, table.column_names[:2]
        ///     (10, ['id', 'bytes'])
        to_arrow = Arrow;

        /// The rest of the range as one ``pandas.DataFrame``, all or nothing (needs pandas, pyarrow).
        ///
        /// Args:
        ///     decode: as in :meth:`to_polars`.
        ///     progress: as in :meth:`to_polars`.
        ///
        /// Returns:
        ///     pandas.DataFrame: the columns of :meth:`to_polars`.
        ///
        /// Raises:
        ///     ImportError: pandas or pyarrow is not installed (``pip install 'avax-data[pandas]'``).
        ///     AvaxDataError: as listed on :class:`Range`, with ``next_index``.
        ///
        /// Example:
        ///     >>> df = ad.IndexClient(emu.url).chain("X/tx").range(0, 3).to_pandas()
        ///     >>> df["index"].tolist()
        ///     [0, 1, 2]
        to_pandas = Pandas;
    }

    /// The rest of the range as an Arrow C stream (the Arrow PyCapsule interface).
    ///
    /// Arrow readers take the range itself: ``pyarrow.table(rng)``, ``duckdb.from_arrow(rng)``,
    /// ``polars.DataFrame(rng)`` read it without a copy. Each batch read moves ``next_index``.
    ///
    /// Args:
    ///     requested_schema: a schema capsule the reader asks for, or ``None``.
    ///
    /// Returns:
    ///     A PyCapsule holding an ``ArrowArrayStream``.
    ///
    /// Example:
    ///     >>> rng = ad.IndexClient(emu.url).chain("X/tx").range(0, 10)
    ///     >>> pl.DataFrame(rng).height, rng.next_index
    ///     (10, 10)
    stream warned by warn_start;

    /// The same range from its original :attr:`start`, as a new range with a position of its own.
    ///
    /// A range resumes where its last consumer stopped, so once walked to its end every new
    /// consumer gets nothing (and warns so). Re-running a notebook cell is one call:
    /// ``rng.restart().to_polars()``. This range keeps its position; a range to the tip
    /// reads the tip again.
    ///
    /// Returns:
    ///     Range: a fresh walk of the same chain, span, batch size, concurrency and decoding.
    ///
    /// Example:
    ///     >>> rng = ad.IndexClient(emu.url).chain("X/tx").range(0, 10)
    ///     >>> rng.to_polars().height
    ///     10
    ///     >>> import warnings
    ///     >>> with warnings.catch_warnings(record=True) as caught:
    ///     ...     warnings.simplefilter("always")
    ///     ...     print(rng.to_polars().height)
    ///     0
    ///     >>> "next_index=10" in str(caught[0].message)
    ///     True
    ///     >>> rng.restart().to_polars().height, rng.next_index
    ///     (10, 10)
    restart;

    /// An HTML table of the walk and its position, which Jupyter shows for a range.
    ///
    /// Example:
    ///     >>> html = ad.IndexClient(emu.url).chain("X/tx").range(0, 3)._repr_html_()
    ///     >>> html.startswith("<table>"), "next_index" in html
    ///     (True, True)
    repr of range_fields;

    iter = items(None, None);
    writers {
        /// Stream the rest of the range into a Parquet file, in constant memory.
        ///
        /// Whatever stops it, the file is finished with every row handed to it and ``next_index``
        /// stands right after them, so the rest can go to a second file without a row lost or
        /// repeated: on an error of the walk, the error (with ``next_index``) is raised after
        /// the file is finished; on Ctrl-C the export stops at its next batch, finishes the file
        /// and then raises the ``KeyboardInterrupt`` (a second Ctrl-C abandons the file); a
        /// cancelled ``await`` of the async twin raises ``CancelledError`` at once while the file
        /// is finished in the background (the range's next export waits for it). A file that
        /// cannot be finished (a full disk, a file object that raises) leaves no file at a path
        /// and ``next_index`` where this call began.
        ///
        /// Args:
        ///     path: a file path (str or ``os.PathLike``) or a binary file object.
        ///     compression: ``"snappy"`` (default), ``"zstd"``, ``"lz4"``, ``"gzip"`` or ``"none"``.
        ///     row_group_size: rows per row group, an int >= 1; default 65536.
        ///     decode: as in :meth:`to_polars`.
        ///     progress: as in :meth:`to_polars`.
        ///
        /// Returns:
        ///     int: the rows written.
        ///
        /// Raises:
        ///     InvalidParameterError: a bad ``compression``, ``row_group_size``, ``decode`` or
        ///         ``path``.
        ///     OSError: the file cannot be written or finished (``filename``: the path, or
        ///         ``"the file object"``), with ``next_index``.
        ///     AvaxDataError: as listed on :class:`Range`, with ``next_index``.
        ///     KeyboardInterrupt: Ctrl-C, once the file is finished, with ``next_index``.
        ///
        /// Example:
        ///     >>> import io
        ///     >>> rng = ad.IndexClient(emu.url).chain("X/tx").range(0, 100)
        ///     >>> buf = io.BytesIO()
        ///     >>> rng.write_parquet(buf, compression="zstd")
        ///     100
        ///     >>> _ = buf.seek(0)
        ///     >>> pl.read_parquet(buf)["index"].max()
        ///     99
        #[pyo3(signature = (path, *, compression="snappy", row_group_size=65536, decode=None, progress=None))]
        fn write_parquet(#[pyo3(from_py_with = super::target::target)] path: avax_data_core::arrow::Target; decode)
            by to_parquet;

        /// Write the rest of the range as a dataset: a directory of Parquet files, one per chunk
        /// of ``chunk`` indices, readable as one table.
        ///
        /// The layout is hive-style, ``path/chunk=<first index of the chunk>/part.parquet``, with
        /// chunks aligned to multiples of ``chunk``, and a manifest ``_avax_dataset.json`` (the
        /// walk, and each partition's positions, rows, size and sha256). Run it again into the
        /// same directory and it skips every partition that already holds its whole span (its
        /// file unchanged), writes the rest (missing, partial, altered), and adds the chunks a
        /// moved tip brings; no index is ever in two files. ``next_index`` moves after each
        /// partition, so an error carries the start of the partition that failed.
        ///
        /// Args:
        ///     path: the dataset directory (str or ``os.PathLike``), created when missing.
        ///     chunk: indices per partition, an int >= 1; default 100000. A directory keeps the
        ///         chunk it was written with.
        ///     compression: as in :meth:`write_parquet`.
        ///     row_group_size: as in :meth:`write_parquet`.
        ///     decode: as in :meth:`to_polars` (a directory keeps its setting).
        ///     progress: as in :meth:`to_polars`.
        ///
        /// Returns:
        ///     dict: ``partitions_written``, ``partitions_skipped``, ``rows_written`` and
        ///     ``rows_skipped`` of this run.
        ///
        /// Raises:
        ///     InvalidParameterError: a bad argument, or ``path`` holds another walk's dataset
        ///         (naming what differs).
        ///     DatasetLockedError: another writer holds ``path`` (at once, before any request).
        ///     AvaxDataError: as listed on :class:`Range`, with ``next_index``.
        ///
        /// Example:
        ///     >>> import tempfile
        ///     >>> out = tempfile.mkdtemp()
        ///     >>> node = ad.IndexClient(emu.url)
        ///     >>> node.chain("X/tx").range(0, 250).write_dataset(out, chunk=100)
        ///     {'partitions_skipped': 0, 'partitions_written': 3, 'rows_skipped': 0, 'rows_written': 250}
        ///     >>> node.chain("X/tx").range(0, 300).write_dataset(out, chunk=100)
        ///     {'partitions_skipped': 2, 'partitions_written': 1, 'rows_skipped': 200, 'rows_written': 100}
        ///     >>> pl.scan_parquet(f"{out}/**/*.parquet", hive_partitioning=True).select(pl.len()).collect().item()
        ///     300
        #[pyo3(signature = (path, *, chunk=100_000, compression="snappy", row_group_size=65536, decode=None, progress=None))]
        fn write_dataset(
            #[pyo3(from_py_with = super::args::dir_path)] path: std::path::PathBuf,
            #[pyo3(from_py_with = super::args::chunk)] chunk: u64;
            decode
        ) by to_dataset;
    }
    shared {
        /// The cost plan of the rest of this range, sending nothing: a :class:`Plan`.
        ///
        /// A range of known end costs exactly one call per ``batch_size`` containers; a walk
        /// to the tip does not know its end before reading it. Compute units are priced only
        /// at a hosted endpoint (20 a call; :attr:`Plan.metered`): your own node is unmetered.
        ///
        /// Example:
        ///     >>> plan = ad.IndexClient(emu.url).chain("X/tx").range(0, 250, batch_size=100).plan()
        ///     >>> plan.requests, plan.requests_kind, plan.metered, plan.compute_units
        ///     (3, 'exact', False, 0)
        ///
        /// With ``dataset=`` (a directory) and ``chunk=``, the plan of :meth:`write_dataset`
        /// into it: the partitions it already holds whole are counted out (``held``) and each
        /// other partition (missing, partial, altered) costs its own calls. Nothing is sent or
        /// written, and the directory's lock is not taken.
        ///
        ///     >>> import tempfile
        ///     >>> out = tempfile.mkdtemp()
        ///     >>> xtx = ad.IndexClient(emu.url).chain("X/tx")
        ///     >>> xtx.range(0, 300).write_dataset(out, chunk=100)["rows_written"]
        ///     300
        ///     >>> gaps = xtx.range(0, 400, batch_size=50).plan(dataset=out, chunk=100)
        ///     >>> gaps.held, gaps.items, gaps.requests
        ///     (300, 100, 2)
        #[pyo3(signature = (dataset=None, chunk=None))]
        fn plan(&self, dataset: Option<&Bound<'_, PyAny>>, chunk: Option<&Bound<'_, PyAny>>) -> PyResult<super::plan::PyPlan> {
            let Some((dir, chunk)) = super::plan::dataset_target(dataset, chunk)? else {
                return super::plan::plan_of(Some(self.walk.plan()));
            };
            let chunk = chunk.unwrap_or(avax_data_core::dataset::DEFAULT_CHUNK);
            super::plan::plan_of(Some(self.walk.plan_dataset(&dir, chunk).map_err(crate::errors::to_py)?))
        }

        /// The first index of the range as created (it does not move; see :attr:`next_index`).
        ///
        /// Example:
        ///     >>> ad.IndexClient(emu.url).chain("X/tx").range(10, 15).start
        ///     10
        #[getter]
        fn start(&self) -> u64 {
            self.walk.start()
        }

        /// The end of the range as given (exclusive): ``stop``, or ``start + count``; ``None``
        /// for a walk to the tip.
        ///
        /// Example:
        ///     >>> xtx = ad.IndexClient(emu.url).chain("X/tx")
        ///     >>> xtx.range(10, 15).stop, xtx.range(10, count=5).stop, xtx.range(10).stop
        ///     (15, 15, None)
        #[getter]
        fn stop(&self) -> Option<u64> {
            self.walk.end()
        }

        /// The end the walk actually reaches (exclusive), once known.
        ///
        /// :attr:`stop` as given, or one past the tip where a walk of the range met the tip
        /// before ``stop`` (it ended there, with a ``UserWarning``); for a walk to the tip, the
        /// index after the tip once a consumer has read it (``None`` before).
        ///
        /// Example:
        ///     >>> xtx = ad.IndexClient(emu.url).chain("X/tx")
        ///     >>> xtx.range(10, 15).end
        ///     15
        ///     >>> rng = xtx.range(995)
        ///     >>> rng.end is None
        ///     True
        ///     >>> _ = rng.to_polars()
        ///     >>> rng.end
        ///     1000
        ///     >>> import warnings
        ///     >>> past = xtx.range(995, 5000)
        ///     >>> with warnings.catch_warnings():
        ///     ...     warnings.simplefilter("ignore")
        ///     ...     past.to_polars().height
        ///     5
        ///     >>> past.stop, past.end
        ///     (5000, 1000)
        #[getter]
        fn end(&self) -> Option<u64> {
            self.walk.end_reached()
        }

        /// The first index not yet handed to you: where the next consumer starts.
        ///
        /// Save it to resume in another process: ``chain.range(saved, ...)``.
        ///
        /// Example:
        ///     >>> rng = ad.IndexClient(emu.url).chain("X/tx").range(0, 10)
        ///     >>> it = iter(rng)
        ///     >>> next(it)["index"], next(it)["index"], rng.next_index
        ///     (0, 1, 2)
        #[getter]
        fn next_index(&self) -> u64 {
            self.walk.next_index()
        }
    }
}

twins! {
    /// An endless iterator of accepted containers, made by :meth:`Chain.follow`.
    ///
    /// It polls the tip, backing off while idle. Without ``start`` it begins just after the tip
    /// it first sees; ``next_index`` is ``None`` until that first poll has answered. Stop it with
    /// :meth:`close` (from any thread) or Ctrl-C; a later ``next()`` raises ``StopIteration``.
    ///
    /// Raises:
    ///     AvaxDataError: out of ``next()``: a failed poll (after the client's retries) or a
    ///         container that fails its checks; it carries ``next_index``, where a new follower
    ///         resumes (``chain.follow(start=exc.next_index)``).
    ///
    /// Example:
    ///     >>> with ad.Emulator(containers=10) as growing, ad.IndexClient(growing.url) as node:
    ///     ...     follow = node.chain("X/tx").follow(start=9, poll_interval=0.05)
    ///     ...     print(next(follow)["index"])
    ///     ...     _ = growing.advance("X/tx", 2)      # two containers are accepted
    ///     ...     print([next(follow)["index"] for _ in range(2)], follow.next_index)
    ///     ...     follow.close()
    ///     9
    ///     [10, 11] 12
    sync PyFollow("Follow") {}
    /// Asynchronous twin of :class:`Follow`, made by :meth:`AsyncChain.follow`: ``async for``.
    ///
    /// Example:
    ///     >>> import asyncio
    ///     >>> async def main():
    ///     ...     async with ad.AsyncIndexClient(emu.url) as node:
    ///     ...         follow = node.chain("X/tx").follow(start=997)
    ///     ...         seen = []
    ///     ...         async for c in follow:
    ///     ...             seen.append(c["index"])
    ///     ...             if c["index"] == 999:
    ///     ...                 follow.close()
    ///     ...         return seen
    ///     >>> asyncio.run(main())
    ///     [997, 998, 999]
    async PyAsyncFollow("AsyncFollow") {}
    state { walk: FollowWalk, iter: Iter<IndexItems> }
    shared {
        /// The first index not yet handed out (``None`` until the starting tip is known).
        ///
        /// Example:
        ///     >>> follow = ad.IndexClient(emu.url).chain("X/tx").follow(start=5)
        ///     >>> next(follow)["index"], follow.next_index
        ///     (5, 6)
        ///     >>> follow.close()
        #[getter]
        fn next_index(&self) -> Option<u64> {
            self.walk.next_index()
        }

        /// Stop following, from any thread or task; the iteration then ends.
        ///
        /// A ``next()`` waiting for new containers is woken and ends too.
        ///
        /// Example:
        ///     >>> follow = ad.IndexClient(emu.url).chain("X/tx").follow(start=0)
        ///     >>> next(follow)["index"]
        ///     0
        ///     >>> follow.close()
        ///     >>> list(follow)
        ///     []
        fn close(&self) {
            self.iter.close();
        }

        fn __repr__(&self) -> String {
            repr(CLASS_NAME, &[("next_index", py_opt(self.walk.next_index()))])
        }
    }
    sync_only {
        fn __iter__(slf: Py<Self>) -> Py<Self> {
            slf
        }

        fn __next__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
            M::next(py, &self.iter)
        }
    }
    async_only {
        fn __aiter__(slf: Py<Self>) -> Py<Self> {
            slf
        }

        fn __anext__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
            M::next(py, &self.iter)
        }
    }
}

/// Starts a follower (sync or async class alike); `progress` counts what it hands out.
pub fn follow_state(
    py: Python<'_>,
    walk: FollowWalk,
    progress: Option<&Bound<'_, PyAny>>,
) -> PyResult<(FollowWalk, Iter<IndexItems>)> {
    let (items, resume) = (follow_items(&walk), Resume::Follow(walk.clone()));
    let bar = bar(py, progress, "follow", || None)?;
    Ok((walk, iter(items, resume, bar)))
}
