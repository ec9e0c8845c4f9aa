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

/// A reader over batches that `next` produces; errors and panics become Arrow errors.
pub struct WalkReader {
    schema: SchemaRef,
    next: NextBatch,
    done: bool,
}

impl WalkReader {
    /// A reader of `schema`'s batches pulled from `next`.
    pub fn new(schema: SchemaRef, next: NextBatch) -> Self {
        WalkReader { schema, next, done: false }
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
            Ok(Ok(None)) => None,
            Ok(Err(e)) => Some(Err(ArrowError::ExternalError(Box::new(e)))),
            Err(panic) => Some(Err(ArrowError::ExternalError(
                format!("reading a walk panicked: {}", panic_message(&*panic)).into(),
            ))),
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
    fn a_panic_is_an_arrow_error_not_an_unwind_across_ffi() {
        let mut reader = WalkReader::new(container_schema(), Box::new(|| panic!("boom")));
        let err = reader.next().unwrap().unwrap_err().to_string();
        assert!(err.contains("boom"), "{err}");
        assert!(reader.next().is_none());
    }
}
