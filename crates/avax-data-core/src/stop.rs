//! Stopping long work promptly: a [`Stop`] flag that CPU work (decoding, signature recovery)
//! checks between items and that an async export waits on ([`Stop::stopped`]: it stops at its
//! next batch boundary and finishes what it holds instead of being dropped half way), and
//! [`ticks`] on a clock of their own, on which a wait checks the caller's own condition (Ctrl-C,
//! in the bindings). A Rust user requests a stop from any thread or task.
//!
//! A task on the runtime, or a thread, cannot be dropped in the middle of its CPU work; it stops
//! at its next check of the flag, so a stop lands within one item's work. The ticks do not come
//! from tokio's timers: those are driven by the runtime's workers, and while every worker is
//! busy decoding no tokio timer fires (a Ctrl-C check that slept on one came seconds late). A
//! plain thread ticks instead.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use tokio::sync::Notify;

use crate::error::{Error, Result};

/// A stop request shared by the work and whoever may stop it (clones share the flag); setting it
/// wakes every task waiting in [`Stop::stopped`].
#[derive(Clone, Default, Debug)]
pub struct Stop(Arc<Inner>);

#[derive(Default, Debug)]
struct Inner {
    flag: AtomicBool,
    wake: Notify,
}

impl Stop {
    /// A flag not yet set.
    pub fn new() -> Self {
        Stop::default()
    }

    /// Asks the work to stop at its next check.
    pub fn request(&self) {
        self.0.flag.store(true, Ordering::SeqCst);
        self.0.wake.notify_waiters();
    }

    /// Whether a stop was asked for.
    pub fn is_requested(&self) -> bool {
        self.0.flag.load(Ordering::Relaxed)
    }

    /// The output of `fut`, or `None` when a stop is requested first (one already requested
    /// wins over a ready `fut`): how an export waits for its next batch.
    pub async fn unless<T>(&self, fut: impl std::future::Future<Output = T>) -> Option<T> {
        tokio::select! {
            biased;
            () = self.stopped() => None,
            out = fut => Some(out),
        }
    }

    /// Completes once a stop is requested (at once if it already was).
    pub async fn stopped(&self) {
        let notified = self.0.wake.notified();
        let mut notified = std::pin::pin!(notified);
        // Registered before the flag is read: a request between the two still wakes this task.
        notified.as_mut().enable();
        if self.0.flag.load(Ordering::SeqCst) {
            return;
        }
        notified.await;
    }

    /// [`Error::Interrupted`] once a stop was asked for: what work calls between its items.
    pub fn check(&self) -> Result<()> {
        if self.is_requested() {
            Err(Error::Interrupted)
        } else {
            Ok(())
        }
    }
}

/// A stop that is requested when this guard is dropped (the owner of the work went away).
#[derive(Debug)]
pub struct StopOnDrop(pub Stop);

impl Drop for StopOnDrop {
    fn drop(&mut self) {
        self.0.request();
    }
}

/// How often [`ticks`] tick.
pub const TICK: Duration = Duration::from_millis(50);

/// Ticks every [`TICK`] from one thread of the process (not a tokio timer, so they come while
/// every runtime worker is busy).
pub struct Ticks(Arc<tokio::sync::Notify>);

impl Ticks {
    /// The next tick.
    pub async fn tick(&mut self) {
        self.0.notified().await;
    }
}

/// The process's ticking thread: started on first use, again in a forked child (threads do not
/// survive a fork), then ticking for the life of the process (20 wake-ups a second).
static TICKER: std::sync::Mutex<Option<(u32, Arc<tokio::sync::Notify>)>> = std::sync::Mutex::new(None);

/// [`Ticks`] of the process's ticking thread.
pub fn ticks() -> Ticks {
    let pid = std::process::id();
    let mut slot = TICKER.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    if let Some((owner, notify)) = slot.as_ref() {
        if *owner == pid {
            return Ticks(notify.clone());
        }
    }
    let notify = Arc::new(tokio::sync::Notify::new());
    let ticking = notify.clone();
    std::thread::Builder::new()
        .name("avax-data-tick".into())
        .spawn(move || loop {
            std::thread::sleep(TICK);
            ticking.notify_waiters();
        })
        .expect("the OS refused to start a thread");
    *slot = Some((pid, notify.clone()));
    Ticks(notify)
}

/// Runs the CPU work `work` on a thread of its own while this thread calls `check` every
/// `period`; the first error of `check` requests the work's [`Stop`], waits for it to return
/// (it stops at its next check) and is returned.
pub fn run_checking<T: Send, E>(
    work: impl FnOnce(&Stop) -> T + Send,
    period: Duration,
    mut check: impl FnMut() -> std::result::Result<(), E>,
) -> std::result::Result<T, E> {
    let stop = Stop::new();
    std::thread::scope(|scope| {
        let (done_tx, done_rx) = std::sync::mpsc::channel();
        let worker = {
            let stop = stop.clone();
            scope.spawn(move || {
                let out = work(&stop);
                let _ = done_tx.send(());
                out
            })
        };
        loop {
            match done_rx.recv_timeout(period) {
                Ok(()) | Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => break,
                Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {}
            }
            if let Err(e) = check() {
                stop.request();
                let _ = worker.join();
                return Err(e);
            }
        }
        match worker.join() {
            Ok(out) => Ok(out),
            Err(panic) => std::panic::resume_unwind(panic),
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Instant;

    #[test]
    fn a_stop_is_seen_by_every_clone_and_check_names_it() {
        let stop = Stop::new();
        let seen = stop.clone();
        assert!(seen.check().is_ok());
        drop(StopOnDrop(stop));
        assert!(seen.is_requested());
        assert!(matches!(seen.check(), Err(Error::Interrupted)));
    }

    #[tokio::test]
    async fn a_request_from_another_task_wakes_a_waiter_and_stays_set() {
        let stop = Stop::new();
        let waiter = tokio::spawn({
            let stop = stop.clone();
            async move { stop.stopped().await }
        });
        tokio::time::sleep(Duration::from_millis(20)).await;
        assert!(!waiter.is_finished(), "the waiter returned before the request");
        stop.request();
        tokio::time::timeout(Duration::from_secs(10), waiter).await.expect("the waiter was not woken").unwrap();
        assert!(stop.is_requested());
        // Already requested: a new waiter returns at once.
        tokio::time::timeout(Duration::from_secs(10), stop.stopped()).await.unwrap();
    }

    #[test]
    fn ticks_come_while_every_runtime_worker_is_busy() {
        // The runtime's one worker runs CPU work that never yields for 5 s: no tokio timer fires
        // before it ends (the Ctrl-C check that slept on one came late), the ticks do.
        let runtime = tokio::runtime::Builder::new_multi_thread().worker_threads(1).enable_all().build().unwrap();
        let busy_until = Instant::now() + Duration::from_secs(5);
        runtime.spawn(async move {
            while Instant::now() < busy_until {
                std::hint::spin_loop();
            }
        });
        std::thread::sleep(Duration::from_millis(50)); // the worker has taken the busy task
        let started = Instant::now();
        let mut ticks = ticks();
        runtime.block_on(async {
            for _ in 0..3 {
                ticks.tick().await;
            }
        });
        // Three ticks of 50 ms; the margin for a loaded machine stays under the 5 s of work.
        assert!(started.elapsed() < Duration::from_secs(4), "took {:?}", started.elapsed());
        runtime.shutdown_background();
    }

    #[test]
    fn run_checking_stops_the_work_at_its_next_check() {
        let returned = AtomicBool::new(false);
        let mut calls = 0;
        let out = run_checking(
            |stop| {
                while stop.check().is_ok() {
                    std::thread::sleep(Duration::from_millis(1));
                }
                returned.store(true, Ordering::SeqCst);
            },
            Duration::from_millis(10),
            || {
                calls += 1;
                if calls == 2 {
                    Err("stop")
                } else {
                    Ok(())
                }
            },
        );
        assert_eq!(out, Err("stop"));
        assert!(returned.load(Ordering::SeqCst), "the work had returned before the error did");
        let finished = run_checking(|stop| stop.is_requested(), Duration::from_secs(60), || Err::<(), _>("never"));
        assert_eq!(finished, Ok(false), "work that ends by itself is not stopped");
    }
}
