//! Handing a walk's batches to a Parquet file so that a stop is seen promptly. Two things made a
//! Ctrl-C in a decoded export wait seconds: the export task never yielded while the next
//! decoded batch was ready at once (the runtime decodes ahead while a batch is encoded), so a
//! caller blocked on it never ran its Ctrl-C check; and one batch's encoding (1,024 decoded
//! `C/block` rows) takes a few hundred ms on a loaded machine. So the writer yields after each
//! slice and writes a batch in slices paced to [`SLICE_TIME`], reading the [`Stop`] between
//! them; a stopped write says how many rows of the batch the file took, so the walk's position
//! stands right after them.

use std::time::{Duration, Instant};

use arrow_array::RecordBatch;

use crate::error::Result;
use crate::stop::Stop;

/// How long one slice's encoding may take: what a stop waits for, beside the Ctrl-C check's own
/// tick (50 ms), well under the 250 ms promised.
pub const SLICE_TIME: Duration = Duration::from_millis(40);

/// The fewest rows a slice holds, however slow the encoding: below this the calls' own cost
/// would show.
pub const MIN_SLICE_ROWS: usize = 32;

/// Rows per slice, paced by how long the slices before took: a batch that encodes within
/// [`SLICE_TIME`] goes whole (no extra call on an idle machine, where 1,024 decoded `C/block`
/// rows take about 30 ms); on a loaded machine the slices shrink to what encodes in that time.
#[derive(Debug, Clone, Copy)]
pub struct Pace {
    rows: usize,
    paced: bool,
}

impl Default for Pace {
    fn default() -> Self {
        Pace { rows: usize::MAX, paced: true }
    }
}

impl Pace {
    /// Slices of `rows` rows (at least 1) whatever they take.
    pub fn fixed(rows: usize) -> Pace {
        Pace { rows: rows.max(1), paced: false }
    }

    /// Rows of the next slice, at most `left`.
    fn next(&self, left: usize) -> usize {
        self.rows.min(left).max(1)
    }

    /// `rows` took `took` to encode: the next slices hold what encodes in [`SLICE_TIME`] at that
    /// speed (at least [`MIN_SLICE_ROWS`]).
    fn record(&mut self, rows: usize, took: Duration) {
        if !self.paced {
            return;
        }
        let per_row = took.as_nanos() / rows.max(1) as u128;
        let fits = SLICE_TIME.as_nanos().checked_div(per_row).unwrap_or(u128::MAX);
        self.rows = usize::try_from(fits).unwrap_or(usize::MAX).max(MIN_SLICE_ROWS);
    }
}

/// How a sliced write of one batch ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sliced {
    /// Every row of the batch was written.
    Whole,
    /// A stop was seen between slices: the first `rows` rows of the batch were written (at
    /// least one slice, fewer than the batch holds).
    Stopped {
        /// Rows of the batch written.
        rows: usize,
    },
}

/// Writes `batch` through `write` in slices as `pace` says, calling `written` with the rows of
/// the batch written so far after each slice. After each slice it yields to the runtime (even
/// when the walk's next batch is ready at once, a caller blocked on the export then checks for
/// Ctrl-C), and before the next one it stops if `stop` is requested. The first slice is always
/// written (a stop before the batch is the caller's to check), so every call makes progress.
pub async fn write_in_slices(
    batch: &RecordBatch,
    stop: &Stop,
    pace: &mut Pace,
    mut write: impl FnMut(&RecordBatch) -> Result<()>,
    mut written: impl FnMut(usize) -> Result<()>,
) -> Result<Sliced> {
    let rows = batch.num_rows();
    let mut done = 0;
    while done < rows {
        if done > 0 && stop.is_requested() {
            return Ok(Sliced::Stopped { rows: done });
        }
        let len = pace.next(rows - done);
        let began = Instant::now();
        if len == rows {
            write(batch)?;
        } else {
            write(&batch.slice(done, len))?;
        }
        pace.record(len, began.elapsed());
        done += len;
        written(done)?;
        tokio::task::yield_now().await;
    }
    Ok(Sliced::Whole)
}

#[cfg(test)]
mod tests {
    use super::*;
    use arrow_array::{cast::AsArray, types::UInt64Type, ArrayRef, UInt64Array};
    use std::sync::Arc;

    fn numbers(n: u64) -> RecordBatch {
        RecordBatch::try_from_iter([("index", Arc::new(UInt64Array::from_iter_values(0..n)) as ArrayRef)]).unwrap()
    }

    fn values(batches: &[RecordBatch]) -> Vec<u64> {
        batches.iter().flat_map(|b| b.column(0).as_primitive::<UInt64Type>().values().to_vec()).collect()
    }

    #[tokio::test]
    async fn every_row_goes_once_in_order_in_slices_of_at_most_the_bound() {
        for (n, step) in [(1000, 256), (256, 256), (257, 256), (5, 1), (0, 256), (3, 0)] {
            let (mut got, mut marks) = (Vec::new(), Vec::new());
            let out = write_in_slices(
                &numbers(n),
                &Stop::new(),
                &mut Pace::fixed(step),
                |slice| {
                    got.push(slice.clone());
                    Ok(())
                },
                |rows| {
                    marks.push(rows);
                    Ok(())
                },
            )
            .await
            .unwrap();
            assert_eq!(out, Sliced::Whole);
            assert_eq!(values(&got), (0..n).collect::<Vec<_>>(), "{n} rows by {step}");
            assert!(got.iter().all(|b| b.num_rows() <= step.max(1)), "{n} rows by {step}");
            // an empty batch writes nothing and moves no position
            assert_eq!(marks.last().copied(), (n > 0).then_some(n as usize), "{n} rows by {step}");
            assert!(marks.windows(2).all(|w| w[0] < w[1]), "{marks:?}");
        }
    }

    #[test]
    fn the_pace_fits_a_slice_in_its_time_and_keeps_quick_batches_whole() {
        let mut pace = Pace::default();
        assert_eq!(pace.next(1024), 1024, "a first batch goes whole");
        pace.record(1024, Duration::from_millis(10)); // 4x quicker than the slice time
        assert_eq!(pace.next(1024), 1024);
        pace.record(1024, Duration::from_millis(160)); // a loaded machine: 4x slower
        assert_eq!(pace.next(1024), 256);
        pace.record(1, Duration::from_secs(3)); // one huge row
        assert_eq!(pace.next(1024), MIN_SLICE_ROWS);
        pace.record(10, Duration::ZERO); // too quick to measure
        assert_eq!(pace.next(7), 7);
        let mut fixed = Pace::fixed(0);
        fixed.record(1, Duration::from_secs(1));
        assert_eq!(fixed.next(9), 1);
    }

    #[tokio::test]
    async fn a_stop_during_a_slice_ends_the_write_after_it_with_the_rows_written() {
        let stop = Stop::new();
        let mut got = Vec::new();
        let out = write_in_slices(
            &numbers(1000),
            &stop,
            &mut Pace::fixed(100),
            |slice| {
                got.push(slice.clone());
                if got.len() == 3 {
                    stop.request(); // Ctrl-C while the third slice is encoded
                }
                Ok(())
            },
            |_| Ok(()),
        )
        .await
        .unwrap();
        assert_eq!(out, Sliced::Stopped { rows: 300 });
        assert_eq!(values(&got), (0..300).collect::<Vec<_>>());
        // Already stopped: the first slice still goes (the caller checks before a batch).
        let mut first = 0;
        let count = |slice: &RecordBatch| {
            first += slice.num_rows();
            Ok(())
        };
        let again = write_in_slices(&numbers(1000), &stop, &mut Pace::fixed(100), count, |_| Ok(())).await;
        assert_eq!((again.unwrap(), first), (Sliced::Stopped { rows: 100 }, 100));
    }

    #[tokio::test]
    async fn an_error_of_a_slice_is_returned_with_the_rows_before_it_reported() {
        let mut marks = Vec::new();
        let failed = write_in_slices(
            &numbers(1000),
            &Stop::new(),
            &mut Pace::fixed(400),
            |slice| match slice.column(0).as_primitive::<UInt64Type>().value(0) {
                800 => Err(crate::error::Error::Internal("disk full".into())),
                _ => Ok(()),
            },
            |rows| {
                marks.push(rows);
                Ok(())
            },
        )
        .await;
        assert!(matches!(failed, Err(crate::error::Error::Internal(m)) if m == "disk full"));
        assert_eq!(marks, [400, 800]);
    }
}
