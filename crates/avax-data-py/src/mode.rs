//! The one difference between each sync class and its async twin: how a call's future is run
//! ([`Blocking`]: waited for with the GIL released and Ctrl-C answered; [`Awaiting`]: an asyncio
//! awaitable) and how an iterator steps. Every pair of classes is written once, generic over
//! [`Mode`], and stamped twice by [`twins!`](crate::twins).

use std::future::Future;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use pyo3::exceptions::{PyRuntimeError, PyStopAsyncIteration, PyStopIteration};
use pyo3::prelude::*;
use pyo3::IntoPyObjectExt;
use tokio::sync::Notify;

pub use super::call::Call;
use super::errors::Resume;
use super::progress::Bar;
use super::ready::Ready;
use super::wait::{awaitable, wait_raw};
use avax_data_core::stop::Stop;

/// What a call's future may produce: anything that becomes a Python object.
pub trait ToPy: for<'a> IntoPyObject<'a> + Send + 'static {}

impl<T: for<'a> IntoPyObject<'a> + Send + 'static> ToPy for T {}

/// The future of a call that [`Mode::run`] runs: it ends in a `T` or a Python exception.
pub trait CallFuture<T>: Future<Output = PyResult<T>> + Send + 'static {}

impl<T, F: Future<Output = PyResult<T>> + Send + 'static> CallFuture<T> for F {}

/// A core consumer that an iterator drives: items handed out one at a time.
pub trait Step: Send + 'static {
    /// What reaches Python.
    type Out: for<'py> IntoPyObject<'py> + Send + 'static;
    /// An item already fetched, without waiting (`None`: the next one needs a wait).
    fn ready(&mut self) -> Option<avax_data_core::Result<Self::Out>>;
    /// The next item, waiting when needed; `None` at the end.
    fn next(&mut self) -> impl Future<Output = avax_data_core::Result<Option<Self::Out>>> + Send + '_;
    /// Waits until [`Step::ready`] has an item, handing out nothing (`false`: the end): an async
    /// step fills on the runtime and takes the item in the task it is delivered to.
    fn fill(&mut self) -> impl Future<Output = avax_data_core::Result<bool>> + Send + '_;
    /// Stops fetching; later steps hand out nothing.
    fn close(&mut self);
    /// The rows an item holds (progress counts them).
    fn rows(_out: &Self::Out) -> u64 {
        1
    }
    /// The last item never reached Python (Ctrl-C during its conversion): move the position
    /// back before it where the consumer can, and stop. By default the step just stops.
    fn unhand(&mut self) {
        self.close()
    }
}

/// A flag that a `close()` from any thread sets, waking a step that is waiting.
#[derive(Default)]
pub struct Closed {
    flag: AtomicBool,
    wake: Notify,
}

impl Closed {
    fn is_set(&self) -> bool {
        self.flag.load(Ordering::SeqCst)
    }

    fn set(&self) {
        self.flag.store(true, Ordering::SeqCst);
        self.wake.notify_waiters();
    }

    /// `fut`'s output, or `None` when the flag is set first.
    async fn race<F: Future>(&self, fut: F) -> Option<F::Output> {
        let notified = self.wake.notified();
        let mut notified = std::pin::pin!(notified);
        notified.as_mut().enable();
        if self.is_set() {
            return None;
        }
        tokio::select! {
            out = fut => Some(out),
            () = notified => None,
        }
    }
}

/// The state of a Python iterator: one core consumer, used by one step at a time.
pub struct Iter<S> {
    state: Arc<tokio::sync::Mutex<S>>,
    closed: Arc<Closed>,
    resume: Resume,
    progress: Option<Arc<Bar>>,
}

impl<S> Clone for Iter<S> {
    fn clone(&self) -> Self {
        Iter {
            state: self.state.clone(),
            closed: self.closed.clone(),
            resume: self.resume.clone(),
            progress: self.progress.clone(),
        }
    }
}

impl<S: Step> Iter<S> {
    /// Drives `step`; errors carry the resume position `resume` reads; `progress` counts rows.
    pub fn new(step: S, resume: Resume, progress: Option<Arc<Bar>>) -> Self {
        Iter { state: Arc::new(tokio::sync::Mutex::new(step)), closed: Arc::default(), resume, progress }
    }

    /// `rows` were handed out: progress counts them.
    fn handed_rows(&self, py: Python<'_>, rows: u64) {
        if let Some(bar) = &self.progress {
            bar.advance(py, rows);
        }
    }

    /// The iteration ended (at its end, on an error or closed): a bar made for it closes.
    fn ended(&self, py: Python<'_>) {
        if let Some(bar) = &self.progress {
            bar.finish(py);
        }
    }

    /// Stops the iterator from any thread, waking a step that waits; later steps stop.
    pub fn close(&self) {
        self.closed.set();
        if let Ok(mut step) = self.state.try_lock() {
            step.close();
        }
    }

    /// Where the walk resumes.
    pub fn resume(&self) -> &Resume {
        &self.resume
    }

    /// The consumer, for another driver (an Arrow stream) to step.
    pub fn state(&self) -> Arc<tokio::sync::Mutex<S>> {
        self.state.clone()
    }

    /// `item`, just handed out by `step`, converted for Python and counted. Ctrl-C while Python
    /// code converts it (a frame) means it never reached the caller: the position goes back
    /// before it and the iteration ends with the interruption.
    fn deliver<'py>(&self, py: Python<'py>, step: &mut S, item: S::Out) -> PyAnyResult<'py> {
        let rows = S::rows(&item);
        match item.into_bound_py_any(py) {
            Ok(value) => {
                self.handed_rows(py, rows);
                Ok(value)
            }
            Err(e) if crate::interrupt::is_interruption(py, &e) => {
                step.unhand();
                self.closed.set();
                self.ended(py);
                Err(self.resume.annotate(e))
            }
            Err(e) => Err(e),
        }
    }
}

impl<S: Step> super::ready::Deliver for Iter<S> {
    fn deliver(&self, py: Python<'_>) -> PyResult<Option<Py<PyAny>>> {
        if self.closed.is_set() {
            if let Ok(mut step) = self.state.try_lock() {
                step.close();
            }
            self.ended(py);
            return Err(Awaiting::stop());
        }
        // Another task's fill holds the step: wait for the next fill.
        let Ok(mut step) = self.state.try_lock() else { return Ok(None) };
        let taken: &mut S = &mut step;
        // Making a page's batch is CPU work: the GIL is released meanwhile.
        match py.detach(|| taken.ready()) {
            None => Ok(None),
            Some(Err(e)) => {
                self.ended(py);
                Err(self.resume.annotate(crate::errors::to_py(e)))
            }
            Some(Ok(item)) => self.deliver(py, &mut step, item).map(|v| Some(v.unbind())),
        }
    }

    fn notice(&self) -> Option<String> {
        self.resume.notice()
    }

    fn fill<'py>(&self, py: Python<'py>) -> PyAnyResult<'py> {
        let this = self.clone();
        awaitable(py, async move {
            let mut step = this.state.clone().lock_owned().await;
            let outcome = if this.closed.is_set() { None } else { this.closed.race(step.fill()).await };
            let end = |this: &Iter<S>| {
                if this.progress.is_some() {
                    Python::attach(|py| this.ended(py));
                }
            };
            match outcome {
                Some(Ok(true)) => Ok(true),
                Some(Err(e)) => {
                    end(&this);
                    Err(this.resume.annotate(crate::errors::to_py(e)))
                }
                None | Some(Ok(false)) => {
                    step.close();
                    end(&this);
                    // A walk past the tip says where it ended: not here, on the runtime's thread
                    // (Python would show it at `sys:1`), but in the awaiting task ([`Deliver::notice`]).
                    Ok(false)
                }
            }
        })
    }
}

impl Resume {
    /// Runs a call of the walk (in mode `M`); its errors, Ctrl-C's included, carry where the
    /// walk resumes. (Written here, beside [`Mode`], so that `errors` needs nothing of `mode`.)
    pub fn run<'py, M: Mode, T: ToPy>(
        self,
        py: Python<'py>,
        call: Call,
        fut: impl Future<Output = avax_data_core::Result<T>> + Send + 'static,
    ) -> PyAnyResult<'py> {
        let inner = self.clone();
        M::run(py, call, async move { fut.await.map_err(|e| inner.annotate(super::errors::to_py(e))) })
            .map_err(|e| self.annotate(e))
    }

    /// [`Resume::run`] of an export that `stop` ends at its next batch boundary
    /// ([`Mode::run_stoppable`]): an interruption's exception carries the position the finished
    /// file ends at.
    pub fn run_stoppable<'py, M: Mode, T: ToPy>(
        self,
        py: Python<'py>,
        call: Call,
        stop: Stop,
        fut: impl Future<Output = avax_data_core::Result<T>> + Send + 'static,
    ) -> PyAnyResult<'py> {
        let inner = self.clone();
        let fut = async move { fut.await.map_err(|e| inner.annotate(super::errors::to_py(e))) };
        M::run_stoppable(py, call, stop, fut).map_err(|e| self.annotate(e))
    }
}

/// The error of a second thread stepping an iterator that is being stepped.
pub fn busy() -> PyErr {
    PyRuntimeError::new_err("this iterator is already being advanced in another thread or task")
}

/// A Python object, or the exception raised instead.
pub type PyAnyResult<'py> = PyResult<Bound<'py, PyAny>>;

/// How calls run and iterators step: the only difference between twins.
pub trait Mode: 'static {
    /// Runs the call `call` names: its result, or a coroutine of it that starts the call when
    /// first awaited (an error naming `await` when that is outside a running event loop).
    fn run<'py, T: ToPy>(py: Python<'py>, call: Call, fut: impl CallFuture<T>) -> PyAnyResult<'py>;

    /// [`Mode::run`] of an export that `stop` ends at its next batch boundary, finishing its
    /// file: Ctrl-C (sync) sets `stop`, waits for the export and then raises; cancelling the
    /// awaitable (async) sets `stop` and leaves the export to finish in the background.
    fn run_stoppable<'py, T: ToPy>(
        py: Python<'py>,
        call: Call,
        stop: Stop,
        fut: impl CallFuture<T>,
    ) -> PyAnyResult<'py>;

    /// The next item of `iter` (or an awaitable of it); the end raises [`Mode::stop`].
    fn next<'py, S: Step>(py: Python<'py>, iter: &Iter<S>) -> PyAnyResult<'py>;

    /// The exception that ends an iteration.
    fn stop() -> PyErr;
}

/// Sync classes: calls block with the GIL released and answer Ctrl-C.
pub struct Blocking;

/// Async classes: calls return coroutines of calls run on the shared runtime.
pub struct Awaiting;

impl Mode for Blocking {
    fn run<'py, T: ToPy>(py: Python<'py>, _call: Call, fut: impl CallFuture<T>) -> PyAnyResult<'py> {
        wait_raw(py, fut)??.into_bound_py_any(py)
    }

    fn run_stoppable<'py, T: ToPy>(
        py: Python<'py>,
        _call: Call,
        stop: Stop,
        fut: impl CallFuture<T>,
    ) -> PyAnyResult<'py> {
        super::graceful::wait_graceful(py, &stop, fut).result()?.into_bound_py_any(py)
    }

    fn next<'py, S: Step>(py: Python<'py>, iter: &Iter<S>) -> PyAnyResult<'py> {
        // One step at a time: a second thread gets an error, never the same item.
        let mut step = iter.state.try_lock().map_err(|_| busy())?;
        if iter.closed.is_set() {
            step.close();
            return Err(Self::stop());
        }
        let outcome = match step.ready() {
            Some(item) => Ok(Some(item.map(Some))),
            None => wait_raw(py, iter.closed.race(step.next())),
        };
        match outcome {
            Ok(Some(Ok(Some(item)))) => iter.deliver(py, &mut step, item),
            Err(interrupt) => {
                step.close();
                iter.closed.set();
                iter.ended(py);
                Err(iter.resume.annotate(interrupt))
            }
            Ok(Some(Err(e))) => {
                iter.ended(py);
                Err(iter.resume.annotate(crate::errors::to_py(e)))
            }
            Ok(None) | Ok(Some(Ok(None))) => {
                step.close();
                iter.ended(py);
                super::warn::user_warning(py, iter.resume.notice())?;
                Err(Self::stop())
            }
        }
    }

    fn stop() -> PyErr {
        PyStopIteration::new_err(())
    }
}

impl Mode for Awaiting {
    fn run<'py, T: ToPy>(py: Python<'py>, call: Call, fut: impl CallFuture<T>) -> PyAnyResult<'py> {
        super::ready::Pending::lazy(py, call, move |py| awaitable(py, fut))
    }

    fn run_stoppable<'py, T: ToPy>(
        py: Python<'py>,
        call: Call,
        stop: Stop,
        fut: impl CallFuture<T>,
    ) -> PyAnyResult<'py> {
        super::ready::Pending::lazy(py, call, move |py| awaitable(py, super::graceful::detached(stop, fut)))
    }

    fn next<'py, S: Step>(py: Python<'py>, iter: &Iter<S>) -> PyAnyResult<'py> {
        // An item already fetched is handed out through an already-completed awaitable: no
        // event-loop round trip per item.
        if !iter.closed.is_set() {
            if let Ok(mut step) = iter.state.try_lock() {
                if let Some(item) = step.ready() {
                    let item = item.map_err(|e| iter.resume.annotate(crate::errors::to_py(e)))?;
                    let value = iter.deliver(py, &mut step, item)?;
                    return Bound::new(py, Ready::new(value.unbind())).map(Bound::into_any);
                }
            }
        }
        // Otherwise the runtime fills the step and the item is taken in the awaiting task when
        // it wakes: a task cancelled before that leaves it in the step, the position before it.
        Call("an async iterator", "__anext__").check_loop(py)?;
        super::ready::Next::wrap(py, Box::new(iter.clone()))
    }

    fn stop() -> PyErr {
        PyStopAsyncIteration::new_err(())
    }
}

/// Stamps a sync class and its async twin from one definition.
///
/// `shared` methods are written once, generic over the alias `M` (the [`Mode`]) and over the
/// aliases each side declares (e.g. `BatchesOf = PyBatchIterator` / `BatchesOf = PyAsyncBatchIterator`) and `CLASS_NAME`; `sync` and
/// `async` blocks hold what only one side has (`__iter__` / `__aiter__`, context managers).
/// The optional `raw` block holds shared methods whose Python arguments all arrive as given, to
/// be read by the rules of [`crate::args`] (see [`twin_impl!`] for how they are written).
macro_rules! twins {
    (
        $(#[doc = $sync_doc:expr])*
        sync $Sync:ident($sync_name:literal) { $($sync_alias:ident = $sync_ty:ty),* $(,)? }
        $(#[doc = $async_doc:expr])*
        async $Async:ident($async_name:literal) { $($async_alias:ident = $async_ty:ty),* $(,)? }
        state { $($field:ident : $fty:ty),* $(,)? }
        shared { $($shared:tt)* }
        $(raw { $($raw:tt)* })?
        sync_only { $($sync_only:tt)* }
        async_only { $($async_only:tt)* }
    ) => {
        $(#[doc = $sync_doc])*
        #[::pyo3::pyclass(frozen, name = $sync_name, module = "avax_data._native")]
        pub struct $Sync { $(pub(crate) $field: $fty),* }

        $(#[doc = $async_doc])*
        #[::pyo3::pyclass(frozen, name = $async_name, module = "avax_data._native")]
        pub struct $Async { $(pub(crate) $field: $fty),* }

        $crate::mode::twin_impl!($Sync, $sync_name, $crate::mode::Blocking,
            { $($sync_alias = $sync_ty),* } { $($shared)* $($sync_only)* } raw { $($($raw)*)? });
        $crate::mode::twin_impl!($Async, $async_name, $crate::mode::Awaiting,
            { $($async_alias = $async_ty),* } { $($shared)* $($async_only)* } raw { $($($raw)*)? });
    };
}

/// One half of [`twins!`]: the methods of `$class`, with `M` the mode, `CLASS_NAME` its Python
/// name and the side's aliases in scope.
///
/// A `raw` method names its Python arguments without their Rust types, as
/// `fn name<'py>(&self, required, ...; optional, ...) with py -> Ret { ... }`: each one before the `;`
/// is a `&Bound<PyAny>`, each one after it an `Option<&Bound<PyAny>>` (left out or not), and
/// `with py` (only with the lifetime) passes the `Python<'py>` token first. The `;` part, the
/// lifetime and `with py` may be left out; the `#[pyo3(signature = ...)]` is written as usual.
macro_rules! twin_impl {
    (
        $class:ident, $name:literal, $mode:ty, { $($alias:ident = $ty:ty),* } { $($body:tt)* }
        raw { $(
            $(#[$attr:meta])*
            fn $method:ident $(<$lt:lifetime>)? (&$this:ident $(, $arg:ident)* $(; $($opt:ident),*)?) $(with $py:ident)?
                -> $ret:ty $block:block
        )* }
    ) => {
        const _: () = {
            #[allow(dead_code)]
            type M = $mode;
            #[allow(dead_code)]
            const CLASS_NAME: &str = $name;
            $(#[allow(dead_code)] type $alias = $ty;)*
            #[::pyo3::pymethods]
            impl $class {
                $($body)*
                $(
                    $(#[$attr])*
                    #[allow(clippy::too_many_arguments)]
                    fn $method $(<$lt>)? (
                        &$this,
                        $($py: ::pyo3::Python<$lt>,)?
                        $($arg: &::pyo3::Bound<'_, ::pyo3::PyAny>,)*
                        $($($opt: Option<&::pyo3::Bound<'_, ::pyo3::PyAny>>,)*)?
                    ) -> $ret $block
                )*
            }
        };
    };
}

pub(crate) use {twin_impl, twins};
