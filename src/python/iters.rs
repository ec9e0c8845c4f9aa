//! The Python iterators: each drives one core consumer through [`Iter`], a sync class and its
//! async twin stamped from one definition.

use arrow_array::cast::AsArray;
use arrow_array::types::UInt64Type;
use arrow_array::RecordBatch;
use arrow_schema::SchemaRef;
use pyo3::prelude::*;
use serde_json::Value;

use super::convert::{frame_dicts, DecodedOut, DictOut, DictsOut, FrameOut};
use super::mode::{Iter, Step};
use crate::arrow::data::Col;
use crate::error::{Error, Result};
use crate::index::feed::{IndexFeed, Split};
use crate::index::walk::Batch;
use crate::index::Container;
use crate::paging::PagerCursor;

/// Any index feed hands out what its split made.
impl<P: Send + 'static, T: for<'py> IntoPyObject<'py> + Send + 'static> Step for IndexFeed<P, T> {
    type Out = T;
    fn ready(&mut self) -> Option<Result<T>> {
        IndexFeed::ready(self)
    }
    fn next(&mut self) -> impl std::future::Future<Output = Result<Option<T>>> + Send + '_ {
        IndexFeed::next(self)
    }
    fn close(&mut self) {
        IndexFeed::close(self)
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
            IndexItem::Container(c) => c.into_pyobject(py).map(Bound::into_any),
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
    fn close(&mut self) {
        match self {
            IndexItems::Raw(feed) => feed.close(),
            IndexItems::Decoded(feed) => feed.close(),
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

/// Decoded batches split into dicts (through polars, so every column converts as in a frame).
pub fn decoded_rows(schema: SchemaRef) -> Split<Batch, Py<PyAny>> {
    Box::new(move |(_, batch): Batch| {
        let after = batch_indices(&batch).into_iter().map(|i| i.saturating_add(1));
        let rows = Python::attach(|py| frame_dicts(py, batch, schema.clone()))
            .map_err(|e| Error::Internal(format!("a decoded row did not convert: {e}")))?;
        Ok(after.zip(rows).collect())
    })
}

/// Batches handed out whole, as polars frames.
pub fn frames(schema: SchemaRef) -> Split<Batch, FrameOut> {
    Box::new(move |(next, batch): Batch| Ok(vec![(next, FrameOut(vec![batch], schema.clone()))]))
}

/// A pager's items, as dicts typed by the resource's columns.
pub struct PagerItems(pub PagerCursor, pub &'static [Col]);

impl Step for PagerItems {
    type Out = DictOut;
    fn ready(&mut self) -> Option<Result<DictOut>> {
        let cols = self.1;
        self.0.ready_item().map(|r| r.map(|v: Value| DictOut(v, Some(cols))))
    }
    async fn next(&mut self) -> Result<Option<DictOut>> {
        let cols = self.1;
        Ok(self.0.next_item().await?.map(|v| DictOut(v, Some(cols))))
    }
    fn close(&mut self) {
        self.0.close()
    }
}

/// A pager's pages, as lists of dicts.
pub struct PagerPages(pub PagerCursor, pub &'static [Col]);

impl Step for PagerPages {
    type Out = DictsOut;
    fn ready(&mut self) -> Option<Result<DictsOut>> {
        None
    }
    async fn next(&mut self) -> Result<Option<DictsOut>> {
        let cols = self.1;
        Ok(self.0.next_page().await?.map(|items| DictsOut(items, Some(cols))))
    }
    fn close(&mut self) {
        self.0.close()
    }
}

/// Stamps an iterator class and its async twin over a [`Step`] type; `shared` adds getters.
macro_rules! iterator_twins {
    (
        $(#[doc = $doc:expr])*
        $Sync:ident($sync_name:literal), $Async:ident($async_name:literal), $step:ty;
        shared { $($shared:tt)* }
    ) => {
        $crate::python::mode::twins! {
            $(#[doc = $doc])*
            sync $Sync($sync_name) {}
            $(#[doc = $doc])*
            async $Async($async_name) {}
            state { iter: $crate::python::mode::Iter<$step> }
            shared {
                /// Stop fetching (from any thread or task); the iteration then ends.
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
                    <M as $crate::python::mode::Mode>::next(py, &self.iter)
                }
            }
            async_only {
                fn __aiter__(slf: Py<Self>) -> Py<Self> {
                    slf
                }

                fn __anext__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
                    <M as $crate::python::mode::Mode>::next(py, &self.iter)
                }
            }
        }
    };
}

iterator_twins! {
    /// Iterator of a range's items (container dicts, or decoded rows), fetched ahead in the
    /// background; ``next_index`` is where the walk resumes.
    PyRangeIterator("RangeIterator"), PyAsyncRangeIterator("AsyncRangeIterator"), IndexItems;
    shared {
        /// The first index not yet handed out.
        #[getter]
        fn next_index(&self) -> u64 {
            self.iter.resume().next_index().unwrap_or_default()
        }
    }
}

iterator_twins! {
    /// Iterator of a range's polars DataFrames (one per call to the node).
    PyBatchIterator("BatchIterator"), PyAsyncBatchIterator("AsyncBatchIterator"), IndexFeed<Batch, FrameOut>;
    shared {
        /// The first index not yet handed out.
        #[getter]
        fn next_index(&self) -> u64 {
            self.iter.resume().next_index().unwrap_or_default()
        }
    }
}

iterator_twins! {
    /// Iterator of a pager's items (dicts with the API's field names).
    PyPagerIterator("PagerIterator"), PyAsyncPagerIterator("AsyncPagerIterator"), PagerItems;
    shared {}
}

iterator_twins! {
    /// Iterator of a pager's pages (one list of dicts per page).
    PyPageIterator("PageIterator"), PyAsyncPageIterator("AsyncPageIterator"), PagerPages;
    shared {}
}

/// An iterator over `step` that annotates its errors with `resume`.
pub fn iter<S: Step>(step: S, resume: super::errors::Resume) -> Iter<S> {
    Iter::new(step, resume)
}
