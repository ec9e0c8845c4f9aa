//! `Range` and `Follow` (and their async twins): lazy, resumable index walks for Python.

use std::sync::Arc;

use pyo3::prelude::*;

use super::args::decode_arg;
use super::convert::{arrow_stream, FrameKind, FrameOut};
use super::errors::Resume;
use super::iters::{decoded_rows, iter, Frames, IndexItems};
use super::iters::{PyAsyncBatchIterator, PyAsyncRangeIterator, PyBatchIterator, PyRangeIterator};
use super::mode::{twins, Iter, Mode};
use super::progress::{bar, finished, on_rows, Bar};
use super::show::{html, py_bool, py_opt, py_str, repr};
use crate::index::{FollowWalk, RangeWalk};

/// A method's `decode=` override: `None` keeps the walk's own setting.
fn decode_override(decode: Option<&Bound<'_, PyAny>>) -> PyResult<Option<Option<crate::arrow::decoded::DecodeMode>>> {
    decode.map(decode_arg).transpose()
}

/// The bar of a consumer of `walk` starting now: its total is the rest up to the end, known
/// once the walk's end is.
fn range_bar(py: Python<'_>, walk: &RangeWalk, progress: Option<&Bound<'_, PyAny>>) -> PyResult<Option<Arc<Bar>>> {
    let (start, owned) = (walk.next_index(), walk.clone());
    bar(py, progress, walk.path().as_str(), move || owned.end_known().map(|end| end.saturating_sub(start)))
}

/// The rest of a range as one frame of `kind`, all or nothing.
fn collect<'py, M: Mode>(
    py: Python<'py>,
    walk: &RangeWalk,
    decode: Option<&Bound<'py, PyAny>>,
    kind: FrameKind,
    progress: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    let walk = walk.with_decode(decode_override(decode)?)?;
    let (resume, schema, bar) = (Resume::Range(walk.clone()), walk.schema(), range_bar(py, &walk, progress)?);
    let rows = on_rows(&bar);
    resume.run::<M, _>(py, async move {
        let batches = finished(bar, walk.collect(rows)).await?;
        Ok(FrameOut(batches, schema, kind))
    })
}

/// What a range shows of itself in reprs.
fn range_fields(walk: &RangeWalk) -> Vec<(&'static str, String)> {
    vec![
        ("path", py_str(walk.path().as_str())),
        ("start", walk.start().to_string()),
        ("end", py_opt(walk.end_known())),
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

twins! {
    /// A lazy, resumable, ordered walk over an index range.
    ///
    /// Iterating gives dicts; ``batches()`` gives polars DataFrames. Each new iteration starts at
    /// ``next_index``, which advances as items are handed to you, so a walk can be resumed after a
    /// ``break``, an error or Ctrl-C without losing or repeating anything. The walk stops at ``end``
    /// or at the tip; a short or lagging answer is re-requested, never taken for the end.
    sync PyRange("Range") { BatchesOf = PyBatchIterator, ItemsOf = PyRangeIterator }
    /// Asynchronous twin of :class:`Range`: ``async for``, ``batches()``, awaitable exports.
    async PyAsyncRange("AsyncRange") { BatchesOf = PyAsyncBatchIterator, ItemsOf = PyAsyncRangeIterator }
    state { walk: RangeWalk }
    shared {
        /// First index of the range as created.
        #[getter]
        fn start(&self) -> u64 {
            self.walk.start()
        }

        /// End of the range (exclusive): as given, or for a walk to the tip the index after the
        /// tip once a walk has read it (``None`` before).
        #[getter]
        fn end(&self) -> Option<u64> {
            self.walk.end_known()
        }

        /// The first index not yet handed out: where the next iteration resumes.
        #[getter]
        fn next_index(&self) -> u64 {
            self.walk.next_index()
        }

        /// Iterate polars DataFrames of up to ``batch_size`` rows (one per call to the node).
        /// ``decode`` (``True``, ``"strict"`` or ``False``) overrides the range's own setting;
        /// ``progress`` (``True`` or a tqdm bar) shows the rows handed out.
        #[pyo3(signature = (*, decode=None, progress=None))]
        fn batches(
            &self,
            py: Python<'_>,
            decode: Option<&Bound<'_, PyAny>>,
            progress: Option<&Bound<'_, PyAny>>,
        ) -> PyResult<BatchesOf> {
            let walk = self.walk.with_decode(decode_override(decode)?)?;
            let bar = range_bar(py, &walk, progress)?;
            let step = Frames(walk.frame_feed(), walk.schema());
            Ok(BatchesOf { iter: iter(step, Resume::Range(walk), bar) })
        }

        /// Iterate the items (what ``for`` does), with ``decode`` and ``progress`` as in
        /// :meth:`batches`.
        #[pyo3(signature = (*, decode=None, progress=None))]
        fn items(
            &self,
            py: Python<'_>,
            decode: Option<&Bound<'_, PyAny>>,
            progress: Option<&Bound<'_, PyAny>>,
        ) -> PyResult<ItemsOf> {
            let walk = self.walk.with_decode(decode_override(decode)?)?;
            let bar = range_bar(py, &walk, progress)?;
            Ok(ItemsOf { iter: iter(range_items(&walk), Resume::Range(walk), bar) })
        }

        /// The whole (remaining) range as one polars DataFrame, all or nothing: after an error
        /// ``next_index`` is where the call started. ``decode`` and ``progress`` as in
        /// :meth:`batches`.
        #[pyo3(signature = (*, decode=None, progress=None))]
        fn to_polars<'py>(
            &self,
            py: Python<'py>,
            decode: Option<&Bound<'py, PyAny>>,
            progress: Option<&Bound<'py, PyAny>>,
        ) -> PyResult<Bound<'py, PyAny>> {
            collect::<M>(py, &self.walk, decode, FrameKind::Polars, progress)
        }

        /// Like :meth:`to_polars`, as a ``pyarrow.Table`` (needs pyarrow; no copy).
        #[pyo3(signature = (*, decode=None, progress=None))]
        fn to_arrow<'py>(
            &self,
            py: Python<'py>,
            decode: Option<&Bound<'py, PyAny>>,
            progress: Option<&Bound<'py, PyAny>>,
        ) -> PyResult<Bound<'py, PyAny>> {
            collect::<M>(py, &self.walk, decode, FrameKind::Arrow, progress)
        }

        /// Like :meth:`to_polars`, as a ``pandas.DataFrame`` (needs pandas and pyarrow).
        #[pyo3(signature = (*, decode=None, progress=None))]
        fn to_pandas<'py>(
            &self,
            py: Python<'py>,
            decode: Option<&Bound<'py, PyAny>>,
            progress: Option<&Bound<'py, PyAny>>,
        ) -> PyResult<Bound<'py, PyAny>> {
            collect::<M>(py, &self.walk, decode, FrameKind::Pandas, progress)
        }

        /// The rest of the range as an Arrow C stream (``pyarrow.table(rng)``,
        /// ``duckdb.from_arrow(rng)``, ``polars.DataFrame(rng)`` read it without a copy); each batch
        /// read moves ``next_index``.
        #[pyo3(signature = (requested_schema=None))]
        fn __arrow_c_stream__<'py>(&self, py: Python<'py>, requested_schema: Option<Bound<'py, PyAny>>) -> PyResult<Bound<'py, PyAny>> {
            arrow_stream(py, self.walk.reader(), requested_schema)
        }

        /// Stream the (remaining) range into a Parquet file (a path, or a binary file object) in
        /// constant memory; returns the rows written. On an error the file is still finalised
        /// with exactly the rows before the error's ``next_index`` (also this range's), so the
        /// rest can go to a second file. ``compression``: snappy, zstd, lz4, gzip or none;
        /// ``row_group_size``: rows per row group. ``decode`` and ``progress`` as in :meth:`batches`.
        #[pyo3(signature = (path, *, compression="snappy", row_group_size=65536, decode=None, progress=None))]
        #[allow(clippy::too_many_arguments)]
        fn write_parquet<'py>(
            &self,
            py: Python<'py>,
            #[pyo3(from_py_with = super::target::target)] path: crate::arrow::Target,
            #[pyo3(from_py_with = super::args::compression)] compression: &str,
            #[pyo3(from_py_with = super::args::row_group_size)] row_group_size: u64,
            decode: Option<&Bound<'py, PyAny>>,
            progress: Option<&Bound<'py, PyAny>>,
        ) -> PyResult<Bound<'py, PyAny>> {
            let options = crate::arrow::ParquetOptions::new(compression, row_group_size)?;
            let walk = self.walk.with_decode(decode_override(decode)?)?;
            let (resume, bar) = (Resume::Range(walk.clone()), range_bar(py, &walk, progress)?);
            let rows = on_rows(&bar);
            resume.run::<M, _>(py, async move { finished(bar, walk.write_parquet(path, options, rows)).await })
        }

        fn __repr__(&self) -> String {
            repr(CLASS_NAME, &range_fields(&self.walk))
        }

        /// An HTML table of the walk and its position, for Jupyter.
        fn _repr_html_(&self) -> String {
            html(CLASS_NAME, &range_fields(&self.walk))
        }
    }
    sync_only {
        fn __iter__(&self, py: Python<'_>) -> PyResult<ItemsOf> {
            self.items(py, None, None)
        }
    }
    async_only {
        fn __aiter__(&self, py: Python<'_>) -> PyResult<ItemsOf> {
            self.items(py, None, None)
        }
    }
}

twins! {
    /// Endless iterator of newly accepted containers; polls the tip with backoff while idle.
    ///
    /// Without ``start`` it begins just after the tip it first sees; ``next_index`` is ``None``
    /// until that first poll has answered. Stop it with ``close()`` (from any thread) or Ctrl-C.
    sync PyFollow("Follow") {}
    /// Async twin of :class:`Follow` (``async for``).
    async PyAsyncFollow("AsyncFollow") {}
    state { walk: FollowWalk, iter: Iter<IndexItems> }
    shared {
        /// The first index not yet handed out (``None`` until the starting tip is known).
        #[getter]
        fn next_index(&self) -> Option<u64> {
            self.walk.next_index()
        }

        /// Stop following (from any thread or task); the iteration then ends.
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
