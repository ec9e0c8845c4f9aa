//! Ctrl-C as Python's own exception in every mode: a signal handler's exception (a
//! `KeyboardInterrupt`, or whatever the user's handler raises) passes through the core's error
//! type unchanged, never wrapped as an internal error; CPU work on the caller's thread runs
//! beside a signal check and stops at its next [`Stop`] check.

use std::sync::Mutex;
use std::time::Duration;

use pyo3::exceptions::{PyException, PyKeyboardInterrupt};
use pyo3::prelude::*;

use avax_data_core::error::Error;
use avax_data_core::stop::{run_checking, Stop};

/// How often a wait, or CPU work on the caller's behalf, checks for Ctrl-C (well under the
/// promised 250 ms): the core's tick.
pub const SIGNAL_POLL: Duration = avax_data_core::stop::TICK;

/// The exception a signal handler raised, waiting to be raised again where the core's
/// [`Error::Interrupted`] reaches Python. Signal handlers run on the main thread only, so there
/// is at most one at a time.
static PENDING: Mutex<Option<PyErr>> = Mutex::new(None);

/// Whether `err` is an interruption rather than a failure: not an `Exception` (a
/// `KeyboardInterrupt`, `SystemExit`: what a signal handler raises).
pub fn is_interruption(py: Python<'_>, err: &PyErr) -> bool {
    !err.is_instance_of::<PyException>(py)
}

/// The core's [`Error::Interrupted`] for the interruption `err`, kept to be raised unchanged by
/// [`raised`].
pub fn keep(err: PyErr) -> Error {
    *PENDING.lock().unwrap_or_else(|poisoned| poisoned.into_inner()) = Some(err);
    Error::Interrupted
}

/// The exception of an [`Error::Interrupted`]: the one [`keep`] kept, else a `KeyboardInterrupt`
/// (a stop requested without a Python exception).
pub fn raised() -> PyErr {
    PENDING
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
        .take()
        .unwrap_or_else(|| PyKeyboardInterrupt::new_err(()))
}

/// Runs the signal handlers pending on this thread (the main thread's, in CPython).
pub fn check_signals() -> PyResult<()> {
    Python::attach(|py| py.check_signals())
}

/// Runs the CPU work `work` with the GIL released, on a thread of its own, while this thread
/// checks for Ctrl-C every [`SIGNAL_POLL`]; a signal's exception stops the work at its next
/// check of its [`Stop`] and is raised.
pub fn run_cpu<T: Send>(py: Python<'_>, work: impl FnOnce(&Stop) -> T + Send) -> PyResult<T> {
    py.detach(|| run_checking(work, SIGNAL_POLL, check_signals))
}

/// The [`Wait`](avax_data_core::arrow::Wait) of an Arrow C stream's reader: the consumer's
/// thread (polars, pyarrow and DuckDB pull from their own code, with the GIL held or not) waits
/// for the next batch with the GIL released and answers Ctrl-C every [`SIGNAL_POLL`] (signal
/// handlers run on the main thread only).
///
/// A consumer turns a C stream's error into an error of its own (polars' `ComputeError`,
/// pyarrow's `ArrowInvalid`, DuckDB's `InvalidInputException`), which `except KeyboardInterrupt`
/// would miss. So Ctrl-C ends the stream instead, and the signal's exception is raised in this
/// thread the moment it runs Python again ([`raise_on_return`]): when the consumer returns,
/// before its result reaches the caller.
pub fn stream_wait(
    fut: avax_data_core::arrow::BatchFuture<'_>,
) -> avax_data_core::Result<Option<arrow_array::RecordBatch>> {
    Python::attach(|py| match crate::wait::wait_raw(py, fut) {
        Ok(batch) => batch,
        Err(interrupt) => {
            raise_on_return(py, interrupt);
            Ok(None)
        }
    })
}

/// Raises `err`'s class in this thread at its next Python instruction (an asynchronous
/// exception, as `PyThreadState_SetAsyncExc`: the consumer's C code cannot swallow it).
fn raise_on_return(py: Python<'_>, err: PyErr) {
    let class = err.get_type(py);
    // SAFETY: the GIL is held (`py`); the thread id is this thread's, the class an exception
    // class that the call keeps its own reference to.
    unsafe {
        let thread = pyo3::ffi::PyThread_get_thread_ident() as std::os::raw::c_long;
        pyo3::ffi::PyThreadState_SetAsyncExc(thread, class.as_ptr());
    }
}
