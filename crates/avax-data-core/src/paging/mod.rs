//! Generic streams shared by the clients: ordered concurrent chunk fetching, token-paged walks,
//! and a background prefetcher that keeps a bounded number of results ready for the consumer.

use std::future::Future;

use futures::stream::{self, Stream, StreamExt};
use tokio::sync::mpsc;
use tokio::task::JoinHandle;

use crate::error::Result;
use crate::stop::Stop;

pub mod ahead;
pub mod block_shards;
pub mod item;
pub mod pager;
pub mod repeats;
mod scan;
pub mod shard_axis;
pub use ahead::Ahead;
pub use item::JsonItem;
pub use pager::{Fetched, Mark, PageKey, PageSource, Pager, PagerCursor, Position};
pub use repeats::Identity;

/// Runs `fetch` on each planned chunk with up to `concurrency` calls in flight and yields the
/// results in plan order (never out of order, whatever finishes first).
pub fn ordered_chunks<C, T, F, Fut>(
    chunks: impl IntoIterator<Item = C>,
    concurrency: usize,
    fetch: F,
) -> impl Stream<Item = Result<T>>
where
    F: FnMut(C) -> Fut,
    Fut: Future<Output = Result<T>>,
{
    stream::iter(chunks).map(fetch).buffered(concurrency.max(1))
}

/// Ends `pages` once they hold `want` items (`None`: never), dropping what is still in flight.
pub fn until_enough(
    pages: impl futures::Stream<Item = Result<Fetched>> + Send + 'static,
    want: Option<u64>,
) -> impl futures::Stream<Item = Result<Fetched>> + Send + 'static {
    stream::unfold((Box::pin(pages), 0u64), move |(mut pages, got)| async move {
        if want.is_some_and(|w| got >= w) {
            return None;
        }
        let page = pages.next().await?;
        let got = got + page.as_ref().map_or(0, |p| p.items.len() as u64);
        Some((page, (pages, got)))
    })
}

/// A spawned task whose result is awaited like a future; dropping it aborts the task (so a
/// cancelled walk cancels its requests) and requests its [`Stop`] (so CPU work that cannot be
/// aborted mid-poll ends at its next check). Lets chunk fetches and decoding run on all workers.
pub struct Spawned<T> {
    task: JoinHandle<T>,
    stop: Stop,
}

impl<T: Send + 'static> Spawned<T> {
    /// Spawns `fut` on the current runtime.
    pub fn new(fut: impl Future<Output = T> + Send + 'static) -> Self {
        Spawned::stoppable(|_| fut)
    }

    /// Spawns the future `make` builds around the task's [`Stop`] (requested on drop).
    pub fn stoppable<F: Future<Output = T> + Send + 'static>(make: impl FnOnce(Stop) -> F) -> Self {
        let stop = Stop::new();
        Spawned { task: tokio::spawn(make(stop.clone())), stop }
    }
}

impl<T> Spawned<T> {
    /// Whether the task has ended (its result waits to be awaited).
    pub fn is_finished(&self) -> bool {
        self.task.is_finished()
    }
}

impl<T> Future for Spawned<Result<T>> {
    type Output = Result<T>;
    fn poll(mut self: std::pin::Pin<&mut Self>, cx: &mut std::task::Context<'_>) -> std::task::Poll<Self::Output> {
        std::pin::Pin::new(&mut self.task).poll(cx).map(|joined| match joined {
            Ok(value) => value,
            Err(e) if e.is_panic() => Err(crate::error::Error::Internal(format!("a fetch task panicked: {e}"))),
            Err(e) => Err(crate::error::Error::Internal(format!("a fetch task was cancelled: {e}"))),
        })
    }
}

impl<T> Drop for Spawned<T> {
    fn drop(&mut self) {
        self.stop.request();
        self.task.abort();
    }
}

/// One page of a token-paged endpoint.
#[derive(Debug, Clone, PartialEq)]
pub struct Page<T> {
    /// The page's items.
    pub items: Vec<T>,
    /// The token of the next page; `None` (or empty from the service) ends the walk.
    pub next_page_token: Option<String>,
}

/// Walks a token-paged endpoint from `first_token`: calls `fetch(token, at_most)` until a page
/// comes back without a next token, or until `want` items came back (`None`: all). `at_most` is
/// what is still wanted, so the last request asks for no more than that and no request is made
/// past it. Yields `(page, token_it_was_fetched_with)`; stops after the first error. A next token
/// already used in this walk (a server that loops) is an error at once, never an endless walk; it
/// comes in place of the page carrying that token, so a walk resumed from the pages handed out
/// asks for that page again rather than repeat the rows of the page the token names.
pub fn token_pages<T, F, Fut>(
    first_token: Option<String>,
    want: Option<u64>,
    fetch: F,
) -> impl Stream<Item = Result<(Page<T>, Option<String>)>>
where
    F: FnMut(Option<String>, Option<u64>) -> Fut,
    Fut: Future<Output = Result<Page<T>>>,
{
    struct Walk<F> {
        token: Option<String>,
        fetch: F,
        seen: std::collections::HashSet<String>,
        got: u64,
    }
    enum State<F> {
        Next(Walk<F>),
        Done,
    }
    let mut seen = std::collections::HashSet::new();
    seen.extend(first_token.clone());
    let first = Walk { token: first_token, fetch, seen, got: 0 };
    stream::unfold(State::Next(first), move |state| async move {
        let mut walk = match state {
            State::Next(walk) => walk,
            State::Done => return None,
        };
        let at_most = want.map(|w| w.saturating_sub(walk.got));
        if at_most == Some(0) {
            return None;
        }
        match (walk.fetch)(walk.token.clone(), at_most).await {
            Ok(mut page) => {
                page.next_page_token = page.next_page_token.filter(|t| !t.is_empty());
                if let Some(t) = page.next_page_token.as_ref().filter(|t| walk.seen.contains(*t)) {
                    // The loop is in this page's next token. The page is not handed out: a
                    // walk resumed after the error asks for it again, instead of going on from
                    // a page already read (which would repeat its rows).
                    let err = crate::error::Error::PageTokenLoop { token: t.clone(), pages: walk.seen.len() as u64 };
                    return Some((Err(err), State::Done));
                }
                walk.got = walk.got.saturating_add(page.items.len() as u64);
                let token = walk.token.take();
                let next = match page.next_page_token.clone() {
                    Some(t) => {
                        walk.seen.insert(t.clone());
                        walk.token = Some(t);
                        State::Next(walk)
                    }
                    None => State::Done,
                };
                Some((Ok((page, token)), next))
            }
            Err(e) => Some((Err(e), State::Done)),
        }
    })
}

/// Drives a stream on a runtime in the background and keeps up to `depth` results ready.
///
/// Dropping it (or [`Prefetch::close`]) aborts the task, which cancels the requests in flight.
pub struct Prefetch<T> {
    rx: mpsc::Receiver<Result<T>>,
    task: Option<JoinHandle<()>>,
}

impl<T: Send + 'static> Prefetch<T> {
    /// Starts driving `stream` on `runtime`; an error ends the stream after it is delivered.
    pub fn spawn<S>(runtime: &tokio::runtime::Handle, stream: S, depth: usize) -> Self
    where
        S: Stream<Item = Result<T>> + Send + 'static,
    {
        let (tx, rx) = mpsc::channel(depth.max(1));
        let task = runtime.spawn(async move {
            let panic_tx = tx.clone();
            let drive = async move {
                let mut stream = std::pin::pin!(stream);
                while let Some(item) = stream.next().await {
                    let failed = item.is_err();
                    if tx.send(item).await.is_err() || failed {
                        break;
                    }
                }
            };
            // A panic while fetching or parsing ends the walk with an error, never silently.
            if let Err(panic) = futures::FutureExt::catch_unwind(std::panic::AssertUnwindSafe(drive)).await {
                let _ = panic_tx
                    .send(Err(crate::error::Error::Internal(format!(
                        "a background fetch panicked: {}",
                        panic_message(&*panic)
                    ))))
                    .await;
            }
        });
        Prefetch { rx, task: Some(task) }
    }

    /// The next result, or `None` when the stream is exhausted or closed.
    pub async fn next(&mut self) -> Option<Result<T>> {
        self.rx.recv().await
    }

    /// A handle that stops the background task from anywhere.
    pub fn abort_handle(&self) -> Option<tokio::task::AbortHandle> {
        self.task.as_ref().map(JoinHandle::abort_handle)
    }

    /// Stops the background task and drops what it had fetched.
    pub fn close(&mut self) {
        if let Some(task) = self.task.take() {
            task.abort();
        }
        self.rx.close();
        while self.rx.try_recv().is_ok() {}
    }
}

/// The text of a panic payload (`&str` or `String`), else a fixed note.
pub fn panic_message(panic: &(dyn std::any::Any + Send)) -> String {
    panic
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| panic.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a panic without a message".to_string())
}

impl<T> Drop for Prefetch<T> {
    fn drop(&mut self) {
        if let Some(task) = self.task.take() {
            task.abort();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::Error;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::Arc;
    use std::time::Duration;

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn dropping_a_spawned_task_stops_its_cpu_work() {
        // The task never yields (abort alone cannot end it); its stop ends it.
        let (started, ended) = (Arc::new(AtomicUsize::new(0)), Arc::new(AtomicUsize::new(0)));
        let (s, e) = (started.clone(), ended.clone());
        let task: Spawned<Result<()>> = Spawned::stoppable(|stop| async move {
            s.store(1, Ordering::SeqCst);
            while !stop.is_requested() {
                std::hint::spin_loop();
            }
            e.store(1, Ordering::SeqCst);
            Ok(())
        });
        while started.load(Ordering::SeqCst) == 0 {
            tokio::time::sleep(Duration::from_millis(1)).await;
        }
        drop(task);
        for _ in 0..5_000 {
            if ended.load(Ordering::SeqCst) == 1 {
                return;
            }
            tokio::time::sleep(Duration::from_millis(1)).await;
        }
        panic!("the task's work went on after its Spawned was dropped");
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_panic_in_the_background_walk_is_a_typed_error_not_an_end() {
        let items = futures::stream::iter(0..5u32).map(|i| {
            assert!(i < 2, "scripted failure at {i}");
            Ok::<u32, Error>(i)
        });
        let mut prefetch = Prefetch::spawn(&tokio::runtime::Handle::current(), items, 2);
        assert_eq!(prefetch.next().await.unwrap().unwrap(), 0);
        assert_eq!(prefetch.next().await.unwrap().unwrap(), 1);
        match prefetch.next().await {
            Some(Err(Error::Internal(message))) => assert!(message.contains("scripted failure at 2"), "{message}"),
            other => panic!("{other:?}"),
        }
        assert!(prefetch.next().await.is_none());
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn ordered_chunks_keep_plan_order_when_later_chunks_finish_first() {
        let in_flight = Arc::new(AtomicUsize::new(0));
        let peak = Arc::new(AtomicUsize::new(0));
        let results: Vec<u64> = ordered_chunks(0..20u64, 4, |i| {
            let (in_flight, peak) = (in_flight.clone(), peak.clone());
            async move {
                let now = in_flight.fetch_add(1, Ordering::SeqCst) + 1;
                peak.fetch_max(now, Ordering::SeqCst);
                tokio::time::sleep(Duration::from_millis(20 - i)).await;
                in_flight.fetch_sub(1, Ordering::SeqCst);
                Ok(i)
            }
        })
        .map(|r| r.unwrap())
        .collect()
        .await;
        assert_eq!(results, (0..20).collect::<Vec<_>>());
        assert_eq!(peak.load(Ordering::SeqCst), 4);
    }

    #[tokio::test]
    async fn a_server_that_answers_a_used_token_again_is_an_error_at_once() {
        // t1 -> t2 -> t1: the third page would repeat the second's rows forever.
        let calls = Arc::new(AtomicUsize::new(0));
        let counter = calls.clone();
        let results: Vec<_> = token_pages(None, None, move |token, _| {
            counter.fetch_add(1, Ordering::SeqCst);
            let next = match token.as_deref() {
                None => "t1",
                Some("t1") => "t2",
                _ => "t1",
            };
            async move { Ok(Page { items: vec![1u8], next_page_token: Some(next.to_string()) }) }
        })
        .collect()
        .await;
        assert_eq!(calls.load(Ordering::SeqCst), 3);
        assert_eq!(results.len(), 3);
        assert!(results[..2].iter().all(|r| r.is_ok()), "the pages before the looping one are handed out");
        match &results[2] {
            Err(Error::PageTokenLoop { token, pages }) => {
                assert_eq!((token.as_str(), *pages), ("t1", 2))
            }
            other => panic!("{other:?}"),
        }
        // a resumed walk whose first token comes back also stops
        let again: Vec<_> = token_pages(Some("t9".to_string()), None, |_, _| async {
            Ok(Page { items: vec![0u8], next_page_token: Some("t9".to_string()) })
        })
        .collect()
        .await;
        assert!(matches!(again.last(), Some(Err(Error::PageTokenLoop { .. }))));
    }

    #[tokio::test]
    async fn token_pages_follow_tokens_and_stop_on_empty_token() {
        let pages: Vec<(Page<u32>, Option<String>)> = token_pages(None, None, |token, _| async move {
            Ok(match token.as_deref() {
                None => Page { items: vec![1, 2], next_page_token: Some("a".into()) },
                Some("a") => Page { items: vec![3], next_page_token: Some(String::new()) },
                other => panic!("unexpected token {other:?}"),
            })
        })
        .map(|r| r.unwrap())
        .collect()
        .await;
        assert_eq!(pages.len(), 2);
        assert_eq!(pages[0].0.items, vec![1, 2]);
        assert_eq!(pages[1].1.as_deref(), Some("a"));
        assert_eq!(pages[1].0.next_page_token, None);
    }

    #[tokio::test]
    async fn token_pages_stop_after_an_error() {
        let calls = Arc::new(AtomicUsize::new(0));
        let c = calls.clone();
        let results: Vec<Result<(Page<u32>, Option<String>)>> = token_pages(Some("start".into()), None, move |_, _| {
            c.fetch_add(1, Ordering::SeqCst);
            async { Err(Error::invalid("x", 1, "nothing")) }
        })
        .collect()
        .await;
        assert_eq!(results.len(), 1);
        assert!(results[0].is_err());
        assert_eq!(calls.load(Ordering::SeqCst), 1);
    }

    #[test]
    fn prefetch_delivers_everything_in_order_and_is_bounded() {
        let rt = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap();
        let produced = Arc::new(AtomicUsize::new(0));
        let p = produced.clone();
        let stream = stream::iter(0..100u32).map(move |i| {
            p.fetch_add(1, Ordering::SeqCst);
            Ok(i)
        });
        let mut prefetch = Prefetch::spawn(rt.handle(), stream, 3);
        std::thread::sleep(Duration::from_millis(50));
        // depth 3 in the channel, plus at most one item held by the blocked sender
        assert!(produced.load(Ordering::SeqCst) <= 4, "{}", produced.load(Ordering::SeqCst));
        let got: Vec<u32> = rt.block_on(async {
            let mut out = Vec::new();
            while let Some(item) = prefetch.next().await {
                out.push(item.unwrap());
            }
            out
        });
        assert_eq!(got, (0..100).collect::<Vec<_>>());
    }

    #[test]
    fn a_panic_in_the_background_stream_is_an_error_of_the_walk_not_a_silent_end() {
        let rt = tokio::runtime::Builder::new_multi_thread().worker_threads(1).enable_all().build().unwrap();
        let stream = stream::iter(0..3u32).map(|i| if i == 2 { panic!("bad page {i}") } else { Ok(i) });
        let mut prefetch = Prefetch::spawn(rt.handle(), stream, 1);
        let got: Vec<Result<u32>> = rt.block_on(async {
            let mut out = Vec::new();
            while let Some(item) = prefetch.next().await {
                out.push(item);
            }
            out
        });
        assert_eq!(got.len(), 3);
        assert_eq!((got[0].as_ref().unwrap(), got[1].as_ref().unwrap()), (&0, &1));
        match &got[2] {
            Err(Error::Internal(m)) => assert_eq!(m, "a background fetch panicked: bad page 2"),
            other => panic!("{other:?}"),
        }
    }

    #[tokio::test]
    async fn token_pages_ask_only_for_what_is_wanted_and_stop_there() {
        let asked = Arc::new(std::sync::Mutex::new(Vec::new()));
        let log = asked.clone();
        let pages: Vec<usize> = token_pages(None, Some(25), move |token, at_most| {
            log.lock().unwrap().push((token.clone(), at_most));
            let n = at_most.unwrap().min(10) as usize;
            let next = format!("t{}", token.map_or(1, |t| t[1..].parse::<u32>().unwrap() + 1));
            async move { Ok(Page { items: vec![0u8; n], next_page_token: Some(next) }) }
        })
        .map(|r| r.unwrap().0.items.len())
        .collect()
        .await;
        assert_eq!(pages, vec![10, 10, 5]);
        let asked = asked.lock().unwrap().clone();
        assert_eq!(
            asked,
            vec![(None, Some(25)), (Some("t1".to_string()), Some(15)), (Some("t2".to_string()), Some(5))],
            "the last request asks for what is left and none follows"
        );
    }

    #[test]
    fn prefetch_close_stops_the_producer() {
        let rt = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap();
        let stream = stream::iter(0..u32::MAX).map(Ok);
        let mut prefetch = Prefetch::spawn(rt.handle(), stream, 2);
        rt.block_on(async {
            assert_eq!(prefetch.next().await.unwrap().unwrap(), 0);
            prefetch.close();
            assert!(prefetch.next().await.is_none());
        });
    }
}
