//! Running Rust futures for Python: sync calls block with the GIL released and answer Ctrl-C;
//! async calls become asyncio awaitables on the same process-wide runtime.

use std::future::Future;
use std::pin::Pin;
use std::time::Duration;

use pyo3::prelude::*;
use pyo3_async_runtimes::generic::{self, ContextExt, Runtime};
use pyo3_async_runtimes::TaskLocals;
use tokio::sync::OnceCell;

/// How often a blocked sync call checks for Ctrl-C (well under the promised 250 ms).
const SIGNAL_POLL: Duration = Duration::from_millis(50);

/// Blocks on `fut` with the GIL released. Ctrl-C (or any pending Python signal handler that
/// raises) cancels the future, dropping its requests, and raises.
pub fn wait_raw<F, T>(py: Python<'_>, fut: F) -> PyResult<T>
where
    F: Future<Output = T> + Send,
    T: Send,
{
    let runtime = crate::runtime::runtime();
    py.detach(|| {
        runtime.block_on(async {
            tokio::select! {
                value = fut => Ok(value),
                interrupt = interrupted() => Err(interrupt),
            }
        })
    })
}

async fn interrupted() -> PyErr {
    loop {
        tokio::time::sleep(SIGNAL_POLL).await;
        if let Err(err) = Python::attach(|py| py.check_signals()) {
            return err;
        }
    }
}

/// The process-wide runtime, as seen by pyo3-async-runtimes (fork-aware, unlike its own).
pub struct SharedRuntime;

tokio::task_local! {
    static TASK_LOCALS: OnceCell<TaskLocals>;
}

impl Runtime for SharedRuntime {
    type JoinError = tokio::task::JoinError;
    type JoinHandle = tokio::task::JoinHandle<()>;

    fn spawn<F>(fut: F) -> Self::JoinHandle
    where
        F: Future<Output = ()> + Send + 'static,
    {
        crate::runtime::runtime().spawn(fut)
    }

    fn spawn_blocking<F>(f: F) -> Self::JoinHandle
    where
        F: FnOnce() + Send + 'static,
    {
        crate::runtime::runtime().spawn_blocking(f)
    }
}

impl ContextExt for SharedRuntime {
    fn scope<F, R>(locals: TaskLocals, fut: F) -> Pin<Box<dyn Future<Output = R> + Send>>
    where
        F: Future<Output = R> + Send + 'static,
    {
        let cell = OnceCell::new_with(Some(locals));
        Box::pin(TASK_LOCALS.scope(cell, fut))
    }

    fn get_task_locals() -> Option<TaskLocals> {
        TASK_LOCALS.try_with(|c| c.get().cloned()).unwrap_or_default()
    }
}

/// Turns a future into an asyncio awaitable; cancelling the awaitable drops the future.
pub fn awaitable<'py, F, T>(py: Python<'py>, fut: F) -> PyResult<Bound<'py, PyAny>>
where
    F: Future<Output = PyResult<T>> + Send + 'static,
    T: for<'a> IntoPyObject<'a> + Send + 'static,
{
    generic::future_into_py::<SharedRuntime, _, T>(py, fut)
}
