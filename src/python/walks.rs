//! `Range` and `Follow` (and their async twins): lazy, resumable index walks for Python.

use pyo3::prelude::*;

use super::args::decode_arg;
use super::convert::{arrow_stream, FrameKind, FrameOut};
use super::errors::Resume;
use super::iters::{decoded_rows, iter, Frames, IndexItems};
use super::iters::{PyAsyncBatchIterator, PyAsyncRangeIterator, PyBatchIterator, PyRangeIterator};
use super::mode::{twins, Iter, Mode};
use crate::index::{FollowWalk, RangeWalk};

/// A method's `decode=` override: `None` keeps the walk's own setting.
fn decode_override(decode: Option<&Bound<'_, PyAny>>) -> PyResult<Option<Option<crate::arrow::decoded::DecodeMode>>> {
    decode.map(decode_arg).transpose()
}

/// The rest of a range as one frame of `kind`, all or nothing.
fn collect<'py, M: Mode>(
    py: Python<'py>,
    walk: &RangeWalk,
    decode: Option<&Bound<'py, PyAny>>,
    kind: FrameKind,
) -> PyResult<Bound<'py, PyAny>> {
    let walk = walk.with_decode(decode_override(decode)?)?;
    let (resume, schema) = (Resume::Range(walk.clone()), walk.schema());
    resume.run::<M, _>(py, async move { Ok(FrameOut(walk.collect().await?, schema, kind)) })
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
    sync PyRange("Range") { BatchesOf = PyBatchIterator }
    /// Asynchronous twin of :class:`Range`: ``async for``, ``batches()``, awaitable exports.
    async PyAsyncRange("AsyncRange") { BatchesOf = PyAsyncBatchIterator }
    state { walk: RangeWalk }
    shared {
        /// First index of the range as created.
        #[getter]
        fn start(&self) -> u64 {
            self.walk.start()
        }

        /// End of the range (exclusive), or ``None`` for "to the tip when the walk starts".
        #[getter]
        fn end(&self) -> Option<u64> {
            self.walk.end()
        }

        /// The first index not yet handed out: where the next iteration resumes.
        #[getter]
        fn next_index(&self) -> u64 {
            self.walk.next_index()
        }

        /// Iterate polars DataFrames of up to ``batch_size`` rows (one per call to the node).
        /// ``decode`` (``True``, ``"strict"`` or ``False``) overrides the range's own setting.
        #[pyo3(signature = (*, decode=None))]
        fn batches(&self, decode: Option<&Bound<'_, PyAny>>) -> PyResult<BatchesOf> {
            let walk = self.walk.with_decode(decode_override(decode)?)?;
            let step = Frames(walk.frame_feed(), walk.schema());
            Ok(BatchesOf { iter: iter(step, Resume::Range(walk)) })
        }

        /// The whole (remaining) range as one polars DataFrame, all or nothing: after an error
        /// ``next_index`` is where the call started. ``decode`` as in :meth:`batches`.
        #[pyo3(signature = (*, decode=None))]
        fn to_polars<'py>(&self, py: Python<'py>, decode: Option<&Bound<'py, PyAny>>) -> PyResult<Bound<'py, PyAny>> {
            collect::<M>(py, &self.walk, decode, FrameKind::Polars)
        }

        /// Like :meth:`to_polars`, as a ``pyarrow.Table`` (needs pyarrow; no copy).
        #[pyo3(signature = (*, decode=None))]
        fn to_arrow<'py>(&self, py: Python<'py>, decode: Option<&Bound<'py, PyAny>>) -> PyResult<Bound<'py, PyAny>> {
            collect::<M>(py, &self.walk, decode, FrameKind::Arrow)
        }

        /// Like :meth:`to_polars`, as a ``pandas.DataFrame`` (needs pandas and pyarrow).
        #[pyo3(signature = (*, decode=None))]
        fn to_pandas<'py>(&self, py: Python<'py>, decode: Option<&Bound<'py, PyAny>>) -> PyResult<Bound<'py, PyAny>> {
            collect::<M>(py, &self.walk, decode, FrameKind::Pandas)
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
        /// ``row_group_size``: rows per row group. ``decode`` as in :meth:`batches`.
        #[pyo3(signature = (path, *, compression="snappy", row_group_size=65536, decode=None))]
        fn write_parquet<'py>(
            &self,
            py: Python<'py>,
            #[pyo3(from_py_with = super::target::target)] path: crate::arrow::Target,
            #[pyo3(from_py_with = super::args::compression)] compression: &str,
            #[pyo3(from_py_with = super::args::row_group_size)] row_group_size: u64,
            decode: Option<&Bound<'py, PyAny>>,
        ) -> PyResult<Bound<'py, PyAny>> {
            let options = crate::arrow::ParquetOptions::new(compression, row_group_size)?;
            let walk = self.walk.with_decode(decode_override(decode)?)?;
            let resume = Resume::Range(walk.clone());
            resume.run::<M, _>(py, async move { walk.write_parquet(path, options).await })
        }

        fn __repr__(&self) -> String {
            format!("{}({})", CLASS_NAME, self.walk.describe())
        }
    }
    sync_only {
        fn __iter__(&self) -> PyRangeIterator {
            PyRangeIterator { iter: iter(range_items(&self.walk), Resume::Range(self.walk.clone())) }
        }
    }
    async_only {
        fn __aiter__(&self) -> PyAsyncRangeIterator {
            PyAsyncRangeIterator { iter: iter(range_items(&self.walk), Resume::Range(self.walk.clone())) }
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
            format!("{}(next_index={:?})", CLASS_NAME, self.walk.next_index())
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

/// Starts a follower (sync or async class alike).
pub fn follow_state(walk: FollowWalk) -> (FollowWalk, Iter<IndexItems>) {
    let items = follow_items(&walk);
    let resume = Resume::Follow(walk.clone());
    (walk, iter(items, resume))
}
