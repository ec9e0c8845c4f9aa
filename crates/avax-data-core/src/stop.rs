//! [`StopToken`]: asks a long export to stop at its next batch boundary and finish what it
//! holds, instead of being dropped half way (which would lose the rows already handed to it).
//!
//! The bindings set it on Ctrl-C and on an asyncio cancellation; a Rust user sets it from any
//! thread or task ([`StopToken::stop`]) and gets the export's "stopped" outcome
//! ([`crate::arrow::parquet_export::Exported::Stopped`]) once the file is finished.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use tokio::sync::Notify;

/// A flag that any thread can set once, waking every task waiting on [`StopToken::stopped`].
/// Clones share the flag.
#[derive(Clone, Default, Debug)]
pub struct StopToken(Arc<Inner>);

#[derive(Default, Debug)]
struct Inner {
    flag: AtomicBool,
    wake: Notify,
}

impl StopToken {
    /// A token not yet stopped.
    pub fn new() -> Self {
        StopToken::default()
    }

    /// Asks the holders to stop; later calls change nothing.
    pub fn stop(&self) {
        self.0.flag.store(true, Ordering::SeqCst);
        self.0.wake.notify_waiters();
    }

    /// Whether [`StopToken::stop`] was called.
    pub fn is_stopped(&self) -> bool {
        self.0.flag.load(Ordering::SeqCst)
    }

    /// Completes once the token is stopped (at once if it already is).
    pub async fn stopped(&self) {
        let notified = self.0.wake.notified();
        let mut notified = std::pin::pin!(notified);
        // Registered before the flag is read: a stop between the two still wakes this task.
        notified.as_mut().enable();
        if self.is_stopped() {
            return;
        }
        notified.await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[tokio::test]
    async fn a_stop_from_another_task_wakes_a_waiter_and_stays_set() {
        let token = StopToken::new();
        assert!(!token.is_stopped());
        let waiter = tokio::spawn({
            let token = token.clone();
            async move { token.stopped().await }
        });
        tokio::time::sleep(Duration::from_millis(20)).await;
        assert!(!waiter.is_finished(), "the waiter returned before the stop");
        token.stop();
        tokio::time::timeout(Duration::from_secs(10), waiter).await.expect("the waiter was not woken").unwrap();
        assert!(token.is_stopped());
        // Already stopped: a new waiter returns at once.
        tokio::time::timeout(Duration::from_secs(10), token.stopped()).await.unwrap();
    }
}
