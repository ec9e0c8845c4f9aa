//! [`Ahead`]: a stream read by its consumer's own task with the next item already asked for.
//!
//! A walk that hands its pages from a fetching task to a converting task over a channel pays a
//! task wake-up (often on the other worker thread) per page. [`Ahead`] keeps both in one task:
//! when an item is handed out, the stream is polled once more, without waiting, so the next
//! request is on its way while the consumer works on this item.

use futures::stream::{Stream, StreamExt};
use futures::FutureExt;

/// A stream read in the consumer's task, one item asked for ahead of the consumer.
pub struct Ahead<S: Stream> {
    stream: S,
    /// An item that was already there when the next one was asked for.
    ready: Option<S::Item>,
    ended: bool,
}

impl<S: Stream + Unpin> Ahead<S> {
    /// Reads `stream`; nothing is asked for before the first [`next`](Self::next).
    pub fn new(stream: S) -> Self {
        Ahead { stream, ready: None, ended: false }
    }

    /// The next item (`None` once the stream ended); before returning it, the item after it is
    /// asked for, so its request is in flight while the caller works.
    pub async fn next(&mut self) -> Option<S::Item> {
        let item = match self.ready.take() {
            Some(item) => Some(item),
            None if self.ended => None,
            None => self.stream.next().await,
        };
        match item {
            Some(_) => self.start_next(),
            None => self.ended = true,
        }
        item
    }

    /// Polls the stream once without waiting: the next item's future starts (its request is
    /// sent) and is polled again, with the task's waker, by the next [`next`](Self::next).
    fn start_next(&mut self) {
        if self.ended || self.ready.is_some() {
            return;
        }
        match self.stream.next().now_or_never() {
            Some(Some(item)) => self.ready = Some(item),
            Some(None) => self.ended = true,
            None => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::Arc;
    use std::time::Duration;

    #[test]
    fn items_come_in_order_and_the_next_one_starts_before_it_is_awaited() {
        let rt = tokio::runtime::Builder::new_current_thread().enable_time().build().unwrap();
        let started = Arc::new(AtomicUsize::new(0));
        let s = started.clone();
        let stream = futures::stream::iter(0..4)
            .then(move |i| {
                s.fetch_add(1, Ordering::SeqCst);
                async move {
                    tokio::time::sleep(Duration::from_millis(1)).await;
                    i
                }
            })
            .boxed();
        let got = rt.block_on(async {
            let mut ahead = Ahead::new(stream);
            let mut got = Vec::new();
            while let Some(i) = ahead.next().await {
                // Item i is handed out with item i + 1 already asked for (none after the last).
                assert_eq!(started.load(Ordering::SeqCst), (i + 2).min(4) as usize);
                got.push(i);
            }
            assert!(ahead.next().await.is_none(), "an ended stream stays ended");
            got
        });
        assert_eq!(got, vec![0, 1, 2, 3]);
    }

    #[test]
    fn an_item_ready_at_once_is_kept_not_lost() {
        let rt = tokio::runtime::Builder::new_current_thread().build().unwrap();
        let got = rt.block_on(async {
            let mut ahead = Ahead::new(futures::stream::iter(vec![1, 2, 3]));
            let mut got = Vec::new();
            while let Some(i) = ahead.next().await {
                got.push(i);
            }
            got
        });
        assert_eq!(got, vec![1, 2, 3]);
    }
}
