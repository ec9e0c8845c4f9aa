//! [`ParquetExport`]: a walk whose rest streams into one Parquet file, batch by batch, in
//! constant memory. The walks say how they hand out their batches; the life of the file (made
//! first, finalised on success and on error alike) is written once, here.

use std::future::Future;

use arrow_array::RecordBatch;
use arrow_schema::SchemaRef;

use super::{ParquetOptions, ParquetSink, Target};
use crate::error::Result;

/// A walk that can stream the rest of itself into a Parquet file.
pub trait ParquetExport: Sync {
    /// The schema of the walk's batches (the file's schema).
    fn batch_schema(&self) -> SchemaRef;

    /// Hands the rest of the walk to `write`, batch by batch in order, moving the walk's position
    /// past each batch `write` took; stops at the first error, the walk's or `write`'s.
    fn drain_batches(
        &self,
        write: impl FnMut(&RecordBatch) -> Result<()> + Send,
    ) -> impl Future<Output = Result<()>> + Send;

    /// Streams the rest of the walk into a Parquet file at `target`, calling `on_rows` with the
    /// rows of each batch written; returns the rows written. On an error the file is still
    /// finalised, holding exactly the rows before the walk's position, so the rest can go to a
    /// second file without a gap or a repeat.
    fn write_parquet(
        &self,
        target: Target,
        options: ParquetOptions,
        mut on_rows: impl FnMut(u64) + Send,
    ) -> impl Future<Output = Result<u64>> + Send {
        async move {
            let mut sink = ParquetSink::create(target, self.batch_schema(), options)?;
            let drained = self
                .drain_batches(|batch| {
                    sink.write(batch)?;
                    on_rows(batch.num_rows() as u64);
                    Ok(())
                })
                .await;
            // Finalised either way: after an error, a valid file of the rows before the position.
            let rows = sink.finish();
            drained?;
            rows
        }
    }
}
