//! A walk's record batches as an Arrow `RecordBatchReader`: any Arrow consumer (pyarrow, DuckDB,
//! polars, through the C stream interface) pulls the batches one at a time, and each batch it
//! takes moves the walk's position.

use std::future::Future;
use std::pin::Pin;

use arrow_array::{RecordBatch, RecordBatchReader};
use arrow_schema::{ArrowError, SchemaRef};

use crate::error::Result;
use crate::paging::panic_message;

/// Pulls the next batch (`None` at the end).
pub type NextBatch = Box<dyn FnMut() -> Result<Option<RecordBatch>> + Send>;

/// The future of the next batch, which a reading thread waits for.
pub type BatchFuture<'a> = Pin<Box<dyn Future<Output = Result<Option<RecordBatch>>> + Send + 'a>>;

/// How a reading thread waits for the next batch: [`block_on_runtime`], or the bindings' wait
/// (the GIL released, Ctrl-C answered with [`crate::error::Error::Interrupted`]).
pub type Wait = fn(BatchFuture<'_>) -> Result<Option<RecordBatch>>;

/// The plain [`Wait`]: blocks on the shared runtime.
pub fn block_on_runtime(fut: BatchFuture<'_>) -> Result<Option<RecordBatch>> {
    crate::runtime::runtime().block_on(fut)
}

/// What a reader does once, when its stream ends after the last batch (not after an error): an
/// error it returns is the stream's last item.
pub type AtEnd = Box<dyn FnOnce() -> Result<()> + Send>;

/// A reader over batches that `next` produces; errors and panics become Arrow errors.
pub struct WalkReader {
    schema: SchemaRef,
    next: NextBatch,
    done: bool,
    at_end: Option<AtEnd>,
}

impl WalkReader {
    /// A reader of `schema`'s batches pulled from `next`.
    pub fn new(schema: SchemaRef, next: NextBatch) -> Self {
        WalkReader { schema, next, done: false, at_end: None }
    }

    /// This reader, calling `at_end` once its stream ends after the last batch (a range says
    /// there that it ended at the tip, as every other consumer of it does).
    pub fn at_end(self, at_end: AtEnd) -> Self {
        WalkReader { at_end: Some(at_end), ..self }
    }
}

/// An error or a panic of the reader's code as the stream's Arrow error.
fn arrow_error(pulled: std::thread::Result<Result<()>>) -> Option<ArrowError> {
    match pulled {
        Ok(Ok(())) => None,
        Ok(Err(e)) => Some(ArrowError::ExternalError(Box::new(e))),
        Err(panic) => {
            Some(ArrowError::ExternalError(format!("reading a walk panicked: {}", panic_message(&*panic)).into()))
        }
    }
}

impl Iterator for WalkReader {
    type Item = std::result::Result<RecordBatch, ArrowError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        let pulled = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| (self.next)()));
        let out = match pulled {
            Ok(Ok(Some(batch))) => return Some(Ok(batch)),
            Ok(Ok(None)) => {
                let at_end = self.at_end.take();
                let ended = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| at_end.map_or(Ok(()), |f| f())));
                arrow_error(ended).map(Err)
            }
            Ok(Err(e)) => arrow_error(Ok(Err(e))).map(Err),
            Err(panic) => arrow_error(Err(panic)).map(Err),
        };
        // After the end or an error the stream is over: the position stays after the last batch.
        self.done = true;
        out
    }
}

impl RecordBatchReader for WalkReader {
    fn schema(&self) -> SchemaRef {
        self.schema.clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arrow::{container_schema, containers_to_batch};
    use crate::error::Error;

    #[test]
    fn batches_then_end_and_an_error_ends_the_stream() {
        let mut n = 0;
        let reader = WalkReader::new(
            container_schema(),
            Box::new(move || {
                n += 1;
                match n {
                    1 | 2 => Ok(Some(containers_to_batch(&[]))),
                    3 => Err(Error::Closed),
                    _ => panic!("pulled after the end"),
                }
            }),
        );
        let got: Vec<_> = reader.collect();
        assert_eq!(got.len(), 3);
        assert!(got[0].is_ok() && got[1].is_ok());
        assert!(got[2].as_ref().unwrap_err().to_string().contains("the client is closed"), "{:?}", got[2]);
    }

    #[test]
    fn at_end_runs_once_after_the_last_batch_and_never_after_an_error() {
        use std::sync::atomic::{AtomicUsize, Ordering};
        use std::sync::Arc;
        let calls = Arc::new(AtomicUsize::new(0));
        let counted = |calls: &Arc<AtomicUsize>| -> AtEnd {
            let calls = calls.clone();
            Box::new(move || {
                calls.fetch_add(1, Ordering::SeqCst);
                Ok(())
            })
        };
        let mut left = 2;
        let reader = WalkReader::new(
            container_schema(),
            Box::new(move || {
                left -= 1;
                Ok((left >= 0).then(|| containers_to_batch(&[])))
            }),
        )
        .at_end(counted(&calls));
        assert_eq!(reader.map(|b| b.unwrap().num_rows()).collect::<Vec<_>>(), vec![0, 0]);
        assert_eq!(calls.load(Ordering::SeqCst), 1);
        // A stream that ends with an error does not end at its end.
        let failed = WalkReader::new(container_schema(), Box::new(|| Err(Error::Closed))).at_end(counted(&calls));
        assert_eq!(failed.count(), 1);
        assert_eq!(calls.load(Ordering::SeqCst), 1);
        // What the end says when it fails (or panics) is the stream's last item, once.
        let mut refused =
            WalkReader::new(container_schema(), Box::new(|| Ok(None))).at_end(Box::new(|| Err(Error::Closed)));
        assert!(refused.next().unwrap().unwrap_err().to_string().contains("the client is closed"));
        assert!(refused.next().is_none());
        let mut panics =
            WalkReader::new(container_schema(), Box::new(|| Ok(None))).at_end(Box::new(|| panic!("at end")));
        assert!(panics.next().unwrap().unwrap_err().to_string().contains("at end"));
        assert!(panics.next().is_none());
    }

    #[test]
    fn a_panic_is_an_arrow_error_not_an_unwind_across_ffi() {
        let mut reader = WalkReader::new(container_schema(), Box::new(|| panic!("boom")));
        let err = reader.next().unwrap().unwrap_err().to_string();
        assert!(err.contains("boom"), "{err}");
        assert!(reader.next().is_none());
    }
}
