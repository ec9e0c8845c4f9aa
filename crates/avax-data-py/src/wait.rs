//! Running Rust futures for Python: sync calls block with the GIL released and answer Ctrl-C;
//! async calls become asyncio awaitables on the same process-wide runtime.

use std::future::Future;
use std::pin::Pin;

use pyo3::prelude::*;
use pyo3_async_runtimes::generic::{self, ContextExt, Runtime};
use pyo3_async_runtimes::TaskLocals;
use tokio::sync::OnceCell;

use super::signal_watch::SignalWatch;

/// Blocks on `fut` with the GIL released. Ctrl-C (or any pending Python signal handler that
/// raises) cancels the future, dropping its requests, and raises.
pub fn wait_raw<F, T>(py: Python<'_>, fut: F) -> PyResult<T>
where
    F: Future<Output = T> + Send,
    T: Send,
{
    let watch = SignalWatch::start(py);
    block_detached(py, async {
        tokio::select! {
            value = fut => Ok(value),
            interrupt = watch.interrupted() => Err(interrupt),
        }
    })
}

/// Runs `fut` to its end on the process-wide runtime, the GIL released meanwhile: the one way a
/// sync call blocks (the future decides what a signal does).
pub(crate) fn block_detached<F: Future + Send>(py: Python<'_>, fut: F) -> F::Output
where
    F::Output: Send,
{
    let runtime = avax_data_core::runtime::runtime();
    py.detach(|| runtime.block_on(fut))
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
        avax_data_core::runtime::runtime().spawn(fut)
    }

    /// pyo3-async-runtimes hands an awaitable its result here, under `Python::attach`: gated, so
    /// that no thread takes the GIL once the interpreter has started to exit.
    fn spawn_blocking<F>(f: F) -> Self::JoinHandle
    where
        F: FnOnce() + Send + 'static,
    {
        avax_data_core::runtime::runtime().spawn_blocking(move || {
            if let Some(_entered) = exit::enter() {
                f();
            } else {
                // The event loop is gone: its Python objects are leaked rather than released
                // from a thread the exiting interpreter no longer serves.
                std::mem::forget(f);
            }
        })
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

/// The interpreter's exit, seen by the threads of the runtime.
///
/// A runtime thread that takes the GIL while `Py_FinalizeEx` runs is killed by CPython in the
/// middle of Rust code (a crash at exit). An `atexit` hook ([`exit::close`]) therefore closes a
/// gate before finalisation starts and waits (with the GIL released) for the threads already
/// inside; the threads that come later find the gate closed and stay out of Python.
pub mod exit {
    use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering::SeqCst};
    use std::time::{Duration, Instant};

    static CLOSED: AtomicBool = AtomicBool::new(false);
    static INSIDE: AtomicUsize = AtomicUsize::new(0);

    /// Most time the exit waits for the threads inside.
    const GRACE: Duration = Duration::from_secs(2);

    /// A thread inside the gate (it leaves on drop).
    pub struct Entered(());

    impl Drop for Entered {
        fn drop(&mut self) {
            INSIDE.fetch_sub(1, SeqCst);
        }
    }

    /// Enters the gate, or `None` once the interpreter is exiting.
    pub fn enter() -> Option<Entered> {
        INSIDE.fetch_add(1, SeqCst);
        let entered = Entered(());
        (!CLOSED.load(SeqCst)).then_some(entered)
    }

    /// Closes the gate and waits (at most [`GRACE`]) for the threads inside to leave. Call it
    /// with the GIL released, so that they can finish.
    pub fn close() {
        CLOSED.store(true, SeqCst);
        log::set_max_level(log::LevelFilter::Off);
        let deadline = Instant::now() + GRACE;
        while INSIDE.load(SeqCst) > 0 && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(1));
        }
    }
}
