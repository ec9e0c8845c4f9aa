//! One consumer of an index walk: pieces (batches of containers, decoded record batches)
//! fetched in the background and handed out one item at a time, each moving the walk's position
//! to the index after it.
//!
//! What an item is (a container, a row converted for a caller, a whole record batch) is decided
//! by the `split` given at creation, which runs on the consumer's side when a piece is taken,
//! so a caller can convert items (into another language's objects, say) a piece at a time.

use std::collections::VecDeque;

use super::cursor::Lease;
use crate::error::{Error, Result};
use crate::paging::Prefetch;

/// Turns a fetched piece into its items, each with the index after it.
pub type Split<P, T> = Box<dyn FnMut(P) -> Result<Vec<(u64, T)>> + Send>;

/// A consumer of a walk holding a [`Lease`] on its position.
pub struct IndexFeed<P, T> {
    lease: Lease,
    prefetch: Option<Prefetch<P>>,
    split: Split<P, T>,
    buffer: VecDeque<(u64, T)>,
    /// The position before the last item handed out ([`IndexFeed::unhand`] restores it).
    before_last: Option<u64>,
}

impl<P: Send + 'static, T> IndexFeed<P, T> {
    /// A consumer of the pieces `prefetch` delivers, moving `lease`'s position.
    pub fn new(lease: Lease, prefetch: Prefetch<P>, split: Split<P, T>) -> Self {
        IndexFeed { lease, prefetch: Some(prefetch), split, buffer: VecDeque::new(), before_last: None }
    }

    /// The lease this consumer moves.
    pub fn lease(&self) -> &Lease {
        &self.lease
    }

    /// An item already fetched, handed out without waiting: `None` when the next item needs a
    /// fetch, or the walk is over ([`next`](Self::next) tells which).
    pub fn ready(&mut self) -> Option<Result<T>> {
        if self.lease.check().is_err() {
            return Some(Err(Error::Superseded));
        }
        let (after, item) = self.buffer.pop_front()?;
        self.before_last = Some(self.lease.position());
        Some(self.lease.advance(after).map(|()| item).map_err(|_| Error::Superseded))
    }

    /// The last item handed out never reached the caller (its conversion was interrupted):
    /// the position goes back to before it, and the feed ends (a new consumer fetches it again).
    pub fn unhand(&mut self) {
        if let Some(before) = self.before_last.take() {
            let _ = self.lease.advance(before);
        }
        self.close();
    }

    /// The next item, fetching when needed; `None` at the end of the walk. After an error
    /// nothing more is handed out: the walk's position stays right after the last item.
    pub async fn next(&mut self) -> Result<Option<T>> {
        loop {
            if let Some(item) = self.ready() {
                return item.map(Some);
            }
            if !self.fill().await? {
                return Ok(None);
            }
        }
    }

    /// Waits until an item can be handed out without waiting ([`ready`](Self::ready)), moving
    /// nothing: `false` at the end of the walk. An asynchronous caller fills on a runtime
    /// thread and takes the item where it is delivered, so an item that never reached its
    /// caller (a cancelled task) stays here, the position before it. Dropping the future
    /// loses nothing: a piece is either still in the prefetch or already split into the buffer.
    pub async fn fill(&mut self) -> Result<bool> {
        loop {
            if !self.buffer.is_empty() || self.lease.check().is_err() {
                // A superseded consumer's `ready` says so.
                return Ok(true);
            }
            let Some(prefetch) = self.prefetch.as_mut() else { return Ok(false) };
            let piece = match prefetch.next().await {
                Some(Ok(piece)) => piece,
                Some(Err(e)) => {
                    self.close();
                    return Err(e);
                }
                None => {
                    self.close();
                    return Ok(false);
                }
            };
            match (self.split)(piece) {
                Ok(items) => self.buffer.extend(items),
                Err(e) => {
                    self.close();
                    return Err(e);
                }
            }
        }
    }

    /// Stops fetching and drops what was fetched; later calls hand out nothing.
    pub fn close(&mut self) {
        if let Some(mut prefetch) = self.prefetch.take() {
            prefetch.close();
        }
        self.buffer.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::index::cursor::Cursor;
    use futures::stream;

    fn feed(cursor: &Cursor, pieces: Vec<Result<Vec<u64>>>) -> IndexFeed<Vec<u64>, u64> {
        let prefetch = Prefetch::spawn(&tokio::runtime::Handle::current(), stream::iter(pieces), 2);
        IndexFeed::new(
            cursor.lease(),
            prefetch,
            Box::new(|v: Vec<u64>| Ok(v.into_iter().map(|i| (i + 1, i)).collect())),
        )
    }

    #[tokio::test]
    async fn items_move_the_position_one_by_one_and_an_error_ends_the_feed() {
        let cursor = Cursor::new(0);
        let mut f = feed(&cursor, vec![Ok(vec![0, 1, 2]), Err(Error::Closed), Ok(vec![3])]);
        assert_eq!(f.next().await.unwrap(), Some(0));
        assert_eq!(cursor.position(), 1);
        assert_eq!(f.ready().unwrap().unwrap(), 1);
        assert_eq!(f.next().await.unwrap(), Some(2));
        assert!(matches!(f.next().await, Err(Error::Closed)));
        assert_eq!(cursor.position(), 3, "the position stays after the last item handed out");
        assert_eq!(f.next().await.unwrap(), None, "nothing after an error");
    }

    #[tokio::test]
    async fn an_item_that_never_reached_the_caller_moves_the_position_back_and_ends_the_feed() {
        let cursor = Cursor::new(0);
        let mut f = feed(&cursor, vec![Ok(vec![0, 1, 2]), Ok(vec![3])]);
        assert_eq!(f.next().await.unwrap(), Some(0));
        assert_eq!(f.next().await.unwrap(), Some(1));
        assert_eq!(cursor.position(), 2);
        f.unhand();
        assert_eq!(cursor.position(), 1, "item 1 is handed out again by the next consumer");
        assert_eq!(f.next().await.unwrap(), None, "nothing after");
        f.unhand();
        assert_eq!(cursor.position(), 1, "a second unhand moves nothing");
    }

    #[tokio::test]
    async fn a_fill_moves_nothing_and_a_dropped_fill_loses_nothing() {
        let cursor = Cursor::new(0);
        let mut f = feed(&cursor, vec![Ok(vec![0, 1]), Ok(vec![2])]);
        assert!(f.fill().await.unwrap());
        assert_eq!(cursor.position(), 0, "filled, not handed out");
        assert!(f.fill().await.unwrap(), "a second fill keeps the same item");
        assert_eq!(f.ready().unwrap().unwrap(), 0);
        assert_eq!(f.ready().unwrap().unwrap(), 1);
        assert!(f.ready().is_none());
        // A fill dropped while it waits (a cancelled task) leaves the next piece to the next fill.
        {
            let fill = f.fill();
            let _ = futures::FutureExt::now_or_never(fill);
        }
        assert!(f.fill().await.unwrap());
        assert_eq!(f.ready().unwrap().unwrap(), 2);
        assert_eq!(cursor.position(), 3);
        assert!(!f.fill().await.unwrap(), "the end");
        assert_eq!(f.next().await.unwrap(), None);
    }

    #[tokio::test]
    async fn a_newer_consumer_supersedes_and_the_old_one_hands_out_nothing() {
        let cursor = Cursor::new(0);
        let mut old = feed(&cursor, vec![Ok(vec![0, 1, 2])]);
        assert_eq!(old.next().await.unwrap(), Some(0));
        let mut new = feed(&cursor, vec![Ok(vec![1, 2])]);
        assert!(matches!(old.next().await, Err(Error::Superseded)));
        assert_eq!(new.next().await.unwrap(), Some(1));
        assert_eq!(cursor.position(), 2);
    }

    #[tokio::test]
    async fn a_split_that_fails_ends_the_feed_before_the_piece() {
        let cursor = Cursor::new(0);
        let prefetch = Prefetch::spawn(&tokio::runtime::Handle::current(), stream::iter(vec![Ok(vec![0u64, 1])]), 1);
        let mut f: IndexFeed<Vec<u64>, u64> =
            IndexFeed::new(cursor.lease(), prefetch, Box::new(|_| Err(Error::Internal("no".into()))));
        assert!(matches!(f.next().await, Err(Error::Internal(_))));
        assert_eq!(cursor.position(), 0);
        assert_eq!(f.next().await.unwrap(), None);
    }
}
