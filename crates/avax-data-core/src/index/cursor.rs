//! Where a resumable walk stands, shared by the walk object and the consumers it hands out.
//!
//! The position is exactly what was handed to the caller. One consumer at a time moves it: each
//! new consumer (an iterator, a `to_polars`, a Parquet export) takes a [`Lease`], which
//! supersedes the previous one; a superseded consumer can no longer move the position and gets
//! [`Superseded`] instead of an item, so two consumers never hand out the same rows.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

/// The shared position of a walk.
#[derive(Debug, Clone)]
pub struct Cursor {
    position: Arc<AtomicU64>,
    generation: Arc<AtomicU64>,
    /// Held by an export until its file is finished ([`crate::arrow::ParquetExport`]).
    export: Arc<tokio::sync::Mutex<()>>,
}

/// The right of one consumer to move a [`Cursor`].
#[derive(Debug, Clone)]
pub struct Lease {
    cursor: Cursor,
    generation: u64,
}

/// A newer consumer of the same walk took over.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Superseded;

impl std::fmt::Display for Superseded {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(
            "this iterator was superseded: a newer iteration, to_polars() or write_parquet() of the same walk \
             took over its position (use one consumer at a time)",
        )
    }
}

impl std::error::Error for Superseded {}

impl Cursor {
    /// A cursor at `start`.
    pub fn new(start: u64) -> Self {
        Cursor {
            position: Arc::new(AtomicU64::new(start)),
            generation: Arc::new(AtomicU64::new(0)),
            export: Arc::default(),
        }
    }

    /// The first index not yet handed out.
    pub fn position(&self) -> u64 {
        self.position.load(Ordering::SeqCst)
    }

    /// The lock an export of this walk holds until its file is finished.
    pub fn export_gate(&self) -> Arc<tokio::sync::Mutex<()>> {
        self.export.clone()
    }

    /// A lease for a new consumer; earlier leases are superseded.
    pub fn lease(&self) -> Lease {
        let generation = self.generation.fetch_add(1, Ordering::SeqCst) + 1;
        Lease { cursor: self.clone(), generation }
    }
}

impl Lease {
    /// Whether this lease is still the current one.
    pub fn check(&self) -> Result<(), Superseded> {
        if self.cursor.generation.load(Ordering::SeqCst) == self.generation {
            Ok(())
        } else {
            Err(Superseded)
        }
    }

    /// The walk's position.
    pub fn position(&self) -> u64 {
        self.cursor.position()
    }

    /// Moves the position to `next` (items before it were handed out), if still current.
    pub fn advance(&self, next: u64) -> Result<(), Superseded> {
        self.check()?;
        self.cursor.position.store(next, Ordering::SeqCst);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_newer_lease_supersedes_the_older_which_can_no_longer_move_the_position() {
        let cursor = Cursor::new(10);
        let first = cursor.lease();
        first.advance(20).unwrap();
        assert_eq!(cursor.position(), 20);
        let second = cursor.lease();
        assert_eq!(first.advance(30), Err(Superseded));
        assert_eq!(cursor.position(), 20);
        second.advance(25).unwrap();
        assert_eq!((first.position(), second.position()), (25, 25));
        assert!(first.check().is_err() && second.check().is_ok());
    }
}
