//! [`ParquetExport`]: a walk whose rest streams into one Parquet file, batch by batch, in
//! constant memory. The walks say how they hand out their batches and how their position is put
//! back; the life of the file is written once, here:
//!
//! - complete, stopped ([`Stop`]) or ended by an error of the walk: the file is finished
//!   with every row handed to it, and the walk's position stands right after those rows;
//! - the file cannot be finished (a full disk, a writer that fails): no file is left at a path
//!   target, and the position is put back where the export began, so nothing is lost;
//! - the export's future dropped half way: the same as a failed finish.
//!
//! One export of a walk runs at a time (its [`ParquetExport::export_gate`]): a second one waits
//! until the first has finished its file, then continues from where it stopped.

use std::future::Future;
use std::sync::Arc;

use arrow_array::RecordBatch;
use arrow_schema::SchemaRef;

use super::{ParquetOptions, ParquetSink, Target};
use crate::error::Result;
use crate::stop::Stop;

/// How an export's walk ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Drained {
    /// Every batch of the rest of the walk was handed out.
    Complete,
    /// The stop token was set: the walk stopped at a batch boundary.
    Stopped,
}

/// How an export ended, with the rows its file holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Exported {
    /// The whole rest of the walk is in the file.
    Complete(u64),
    /// Stopped by its [`Stop`]: the file holds the rows up to the walk's position.
    Stopped(u64),
}

impl Exported {
    /// The rows the file holds.
    pub fn rows(self) -> u64 {
        match self {
            Exported::Complete(rows) | Exported::Stopped(rows) => rows,
        }
    }

    /// Whether the export stopped before the end of the walk.
    pub fn stopped(self) -> bool {
        matches!(self, Exported::Stopped(_))
    }
}

/// A walk that can stream the rest of itself into a Parquet file.
pub trait ParquetExport: Sync {
    /// One export's hold on the walk: the lease of its consumer and where the walk stood when it
    /// began (what [`ParquetExport::rewind`] puts back).
    type Hold: Send;

    /// The schema of the walk's batches (the file's schema).
    fn batch_schema(&self) -> SchemaRef;

    /// The lock that one export of the walk (and of its clones) holds until its file is
    /// finished.
    fn export_gate(&self) -> Arc<tokio::sync::Mutex<()>>;

    /// A new consumer of the walk (superseding earlier ones), noting where the walk stands.
    fn hold(&self) -> Self::Hold;

    /// Hands the rest of the walk to `write`, batch by batch in order, moving the walk's position
    /// past each batch `write` took; stops at the first error, the walk's or `write`'s, or at the
    /// first batch boundary after `stop` is set.
    fn drain_batches(
        &self,
        hold: &mut Self::Hold,
        stop: &Stop,
        write: impl FnMut(&RecordBatch) -> Result<()> + Send,
    ) -> impl Future<Output = Result<Drained>> + Send;

    /// Puts the walk's position back where `hold` began, unless a newer consumer took over.
    fn rewind(&self, hold: &mut Self::Hold) -> Result<()>;

    /// Streams the rest of the walk into a Parquet file at `target`, calling `on_rows` with the
    /// rows of each batch written; returns the rows written. On an error of the walk the file is
    /// still finished, holding exactly the rows before the walk's position, so the rest can go
    /// to a second file without a gap or a repeat.
    fn write_parquet(
        &self,
        target: Target,
        options: ParquetOptions,
        on_rows: impl FnMut(u64) + Send,
    ) -> impl Future<Output = Result<u64>> + Send {
        async move { Ok(self.write_parquet_until(target, options, on_rows, &Stop::new()).await?.rows()) }
    }

    /// [`ParquetExport::write_parquet`] that `stop` can end early: the walk stops at its next
    /// batch boundary, the file is finished with every row handed to it, and the outcome is
    /// [`Exported::Stopped`], the position right after those rows (stopped while it waits for
    /// another export of the walk: `Stopped(0)`, no file made). When the file cannot be
    /// finished, the error names the target, no file is left at a path, and the position is back
    /// where this export began.
    fn write_parquet_until(
        &self,
        target: Target,
        options: ParquetOptions,
        mut on_rows: impl FnMut(u64) + Send,
        stop: &Stop,
    ) -> impl Future<Output = Result<Exported>> + Send {
        async move {
            let gate = self.export_gate();
            let _one_at_a_time = tokio::select! {
                biased;
                held = gate.lock() => held,
                // Stopped while waiting for another export of the walk: nothing begun, no file.
                () = stop.stopped() => return Ok(Exported::Stopped(0)),
            };
            let mut sink = ParquetSink::create(target, self.batch_schema(), options)?;
            let mut hold = Rewinding { walk: self, hold: Some(self.hold()) };
            let drained = match hold.hold.as_mut() {
                Some(held) => {
                    self.drain_batches(held, stop, |batch| {
                        sink.write(batch)?;
                        on_rows(batch.num_rows() as u64);
                        Ok(())
                    })
                    .await
                }
                None => Ok(Drained::Complete),
            };
            // Finished either way: after an error or a stop, a valid file of the rows before the
            // position. A failed finish drops `hold`, which puts the position back.
            let rows = sink.finish()?;
            hold.keep();
            match drained? {
                Drained::Complete => Ok(Exported::Complete(rows)),
                Drained::Stopped => Ok(Exported::Stopped(rows)),
            }
        }
    }
}

/// An export's hold that puts the walk back where the export began when dropped, unless
/// [`Rewinding::keep`] says the file holds what the position passed.
struct Rewinding<'a, W: ParquetExport + ?Sized> {
    walk: &'a W,
    hold: Option<W::Hold>,
}

impl<W: ParquetExport + ?Sized> Rewinding<'_, W> {
    /// The file is finished: the position stays.
    fn keep(&mut self) {
        self.hold = None;
    }
}

impl<W: ParquetExport + ?Sized> Drop for Rewinding<'_, W> {
    fn drop(&mut self) {
        if let Some(mut hold) = self.hold.take() {
            if let Err(e) = self.walk.rewind(&mut hold) {
                log::warn!("an unfinished Parquet export could not put the walk's position back: {e}");
            }
        }
    }
}
