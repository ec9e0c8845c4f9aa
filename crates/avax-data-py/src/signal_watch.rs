//! How a blocking wait learns of Ctrl-C (or any signal whose Python handler raises) without
//! waking up to look for it.
//!
//! On the main thread (the only one where Python runs signal handlers), the wait points
//! CPython's wakeup fd (`signal.set_wakeup_fd`) at the core's [`WakePipe`] for as long as it
//! waits and puts the previous one back after: CPython's C-level handler writes a byte there the
//! moment a signal arrives, the pipe's reader wakes the wait, and the wait runs the handlers.
//! An idle wait is then not woken at all, where polling woke it (and the ticking thread) 20 times
//! a second. When someone else holds the wakeup fd (an asyncio loop with signal handlers), or on
//! another thread, the wait polls on the core's ticks as before.

use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::IntoPyDict;

use avax_data_core::wake_pipe::{wake_pipe, WakePipe};

/// `signal.set_wakeup_fd`, looked up once.
static SET_WAKEUP_FD: PyOnceLock<Py<PyAny>> = PyOnceLock::new();

/// How one blocking wait learns of a signal; dropping it puts back the wakeup fd it replaced.
pub(crate) struct SignalWatch {
    how: How,
}

enum How {
    /// CPython's wakeup fd is the pipe's write end for this wait (it was unset before).
    Pipe(WakePipe),
    /// A check on every tick of the core's ticking thread.
    Ticks,
}

impl SignalWatch {
    /// Starts watching for signals on this thread (the GIL held: it may set the wakeup fd).
    pub fn start(py: Python<'_>) -> Self {
        let how = match wake_pipe() {
            Some(pipe) if take_wakeup_fd(py, pipe.write_fd()) => How::Pipe(pipe),
            _ => How::Ticks,
        };
        SignalWatch { how }
    }

    /// The exception of the first pending signal handler that raises.
    pub async fn interrupted(&self) -> PyErr {
        match &self.how {
            How::Pipe(pipe) => {
                // The waiter first, then a check: a signal that came before the waiter was made
                // (its byte possibly read already) is found by the check, any later one wakes it.
                let mut waiter = pipe.waiter();
                loop {
                    if let Err(err) = check_signals() {
                        return err;
                    }
                    waiter.woken().await;
                }
            }
            How::Ticks => {
                // Checked on every tick of the core's ticking thread (`stop::TICK`, 50 ms): a
                // tokio timer would not fire while every runtime worker is busy decoding, and
                // Ctrl-C would then come seconds late.
                let mut ticks = avax_data_core::stop::ticks();
                loop {
                    ticks.tick().await;
                    if let Err(err) = check_signals() {
                        return err;
                    }
                }
            }
        }
    }
}

impl Drop for SignalWatch {
    fn drop(&mut self) {
        if let How::Pipe(pipe) = &self.how {
            Python::attach(|py| {
                // Put back the fd there was (none); if a signal handler run during the wait set
                // one of its own, that one stays.
                if let Ok(current) = set_wakeup_fd(py, -1) {
                    if current != pipe.write_fd() {
                        let _ = set_wakeup_fd(py, current);
                    }
                }
            });
        }
    }
}

/// Runs the signal handlers pending on this thread (the main thread's, in CPython).
fn check_signals() -> PyResult<()> {
    Python::attach(|py| py.check_signals())
}

/// Points the wakeup fd at `fd` when this is the main thread and no fd was set; `false` (and
/// nothing changed) otherwise.
fn take_wakeup_fd(py: Python<'_>, fd: i32) -> bool {
    match set_wakeup_fd(py, fd) {
        Ok(-1) => true,
        Ok(previous) => {
            // Someone else's (an asyncio loop's): theirs stays, this wait polls.
            let _ = set_wakeup_fd(py, previous);
            false
        }
        // Not the main thread ("set_wakeup_fd only works in main thread"): no handler runs here.
        Err(_) => false,
    }
}

/// `signal.set_wakeup_fd(fd, warn_on_full_buffer=False)`: the fd there was before.
fn set_wakeup_fd(py: Python<'_>, fd: i32) -> PyResult<i32> {
    let set = SET_WAKEUP_FD.get_or_try_init(py, || -> PyResult<Py<PyAny>> {
        Ok(py.import("signal")?.getattr("set_wakeup_fd")?.unbind())
    })?;
    let options = [("warn_on_full_buffer", false)].into_py_dict(py)?;
    set.bind(py).call((fd,), Some(&options))?.extract()
}
