//! Exports that an interruption stops at a batch boundary instead of dropping them half way
//! (which would lose the rows already handed to the file): Ctrl-C in a sync call and the
//! cancellation of an async one set the export's [`Stop`]; the export then finishes its file
//! with every row handed to it, the walk's position right after them.

use std::future::Future;

use pyo3::prelude::*;

use avax_data_core::stop::{Stop, StopOnDrop};

use super::signal_watch::SignalWatch;
use super::wait::block_detached;

/// What a graceful wait saw.
pub enum Waited<T> {
    /// The export ended by itself.
    Done(T),
    /// Ctrl-C came (the exception it raised), the export was stopped and ended (its outcome).
    Interrupted(PyErr, T),
    /// A second Ctrl-C came while the stopped export was finishing: it was abandoned (its file
    /// removed, the walk's position put back where the export began).
    Abandoned(PyErr),
}

impl<T> Waited<PyResult<T>> {
    /// The result Python sees: an interruption raises its exception once the export has ended,
    /// unless the export failed (its error says what became of the file).
    pub fn result(self) -> PyResult<T> {
        match self {
            Waited::Done(out) => out,
            Waited::Interrupted(interrupt, Ok(_)) => Err(interrupt),
            Waited::Interrupted(_, Err(failed)) => Err(failed),
            Waited::Abandoned(interrupt) => Err(interrupt),
        }
    }
}

/// Blocks on the export `fut` with the GIL released. Ctrl-C (or any pending signal handler
/// that raises) sets `stop` and keeps waiting for the export to finish its file; a second one
/// while it finishes drops the export.
pub fn wait_graceful<F, T>(py: Python<'_>, stop: &Stop, fut: F) -> Waited<T>
where
    F: Future<Output = T> + Send,
    T: Send,
{
    let watch = SignalWatch::start(py);
    block_detached(py, async {
        let mut fut = std::pin::pin!(fut);
        let first = tokio::select! {
            value = &mut fut => return Waited::Done(value),
            interrupt = watch.interrupted() => interrupt,
        };
        stop.request();
        tokio::select! {
            value = &mut fut => Waited::Interrupted(first, value),
            again = watch.interrupted() => Waited::Abandoned(again),
        }
    })
}

/// The export `fut` as a task of its own, awaited by the returned future: dropping that future
/// (an asyncio cancellation) sets `stop` instead of dropping the export, which finishes its file
/// in the background (the walk's export lock held until then, so a following export of the same
/// walk continues exactly where it stopped).
pub fn detached<T: Send + 'static>(
    stop: Stop,
    fut: impl Future<Output = PyResult<T>> + Send + 'static,
) -> impl Future<Output = PyResult<T>> + Send + 'static {
    let task = avax_data_core::runtime::runtime().spawn(async move {
        // Inside the exit gate: an interpreter exiting while a cancelled export finishes its
        // file waits for it (at most the gate's grace) before it finalises.
        let _inside = super::wait::exit::enter();
        fut.await
    });
    let on_drop = StopOnDrop(stop);
    async move {
        // Moved in: dropped with this future (after the export ended, the stop changes nothing).
        let _stop_if_dropped = on_drop;
        task.await
            .unwrap_or_else(|e| Err(crate::errors::to_py(avax_data_core::Error::Internal(format!("an export {e}")))))
    }
}
