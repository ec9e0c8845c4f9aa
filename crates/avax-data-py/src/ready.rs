//! An awaitable whose value is already there: `await` on it returns at once, without an event
//! loop round trip. Async iterators hand out buffered items through it, so `async for` crosses
//! into the runtime once per fetched batch instead of once per item.

use std::sync::Mutex;

use pyo3::exceptions::{PyRuntimeError, PyStopAsyncIteration, PyStopIteration};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;

/// An awaitable that is already complete: ``await`` gives its value at once.
///
/// Async iterators hand out the items they already fetched through it, so ``async for``
/// crosses into the runtime once per fetched batch instead of once per item, and costs about
/// what ``for`` does. You meet it only as what ``__anext__()`` returns; it is not created
/// directly.
///
/// Example:
///     >>> import asyncio
///     >>> async def second_step():
///     ...     async with ad.AsyncIndexClient(emu.url) as node:
///     ...         it = node.chain("X/tx").range(0, 10).__aiter__()
///     ...         first = await it.__anext__()      # fetches the batch
///     ...         step = it.__anext__()             # already fetched: a Ready
///     ...         return type(step).__name__, (await step)["index"]
///     >>> asyncio.run(second_step())
///     ('Ready', 1)
#[pyclass(name = "Ready", module = "avax_data._native")]
pub struct Ready {
    value: Option<Py<PyAny>>,
}

impl Ready {
    /// Wraps a value.
    pub fn new(value: Py<PyAny>) -> Self {
        Ready { value: Some(value) }
    }
}

#[pymethods]
impl Ready {
    fn __await__(slf: Py<Self>) -> Py<Self> {
        slf
    }

    fn __iter__(slf: Py<Self>) -> Py<Self> {
        slf
    }

    /// Ends the awaiting with the value (`StopIteration(value)`), once.
    fn __next__(&mut self, py: Python<'_>) -> PyResult<()> {
        let value = self.value.take().unwrap_or_else(|| py.None());
        Err(PyStopIteration::new_err((value,)))
    }
}

/// What an async iterator's [`Next`] steps: items taken where they are delivered.
pub trait Deliver: Send + Sync {
    /// Hands out the next item if one is at hand (moving the position), converted for Python;
    /// `None` when it needs a [`Deliver::fill`]. The end raises `StopAsyncIteration`.
    fn deliver(&self, py: Python<'_>) -> PyResult<Option<Py<PyAny>>>;
    /// An asyncio awaitable of the runtime fetching until an item is at hand, handing out
    /// nothing: `True`, or `False` at the end.
    fn fill<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>>;
    /// What the walk says when it ends (a range cut at the tip names where it ended), shown
    /// by the awaiting task, so the warning names the line of its `async for`.
    fn notice(&self) -> Option<String> {
        None
    }
}

/// The step of an async iterator that had to wait: ``await`` it for the next item.
///
/// The items are fetched in the background; the item is taken from the walk only when the
/// awaiting task wakes up to receive it, so a task cancelled at any moment before that (even
/// right after the fetch finished) leaves the item to the next step and the walk's position
/// before it. You meet it only as what ``__anext__()`` returns; it is not created directly.
///
/// Example:
///     >>> import asyncio
///     >>> async def first_step():
///     ...     async with ad.AsyncIndexClient(emu.url) as node:
///     ...         it = node.chain("X/tx").range(0, 10).__aiter__()
///     ...         step = it.__anext__()             # nothing fetched yet: a Next
///     ...         return type(step).__name__, (await step)["index"], it.next_index
///     >>> asyncio.run(first_step())
///     ('Next', 0, 1)
#[pyclass(name = "Next", module = "avax_data._native")]
pub struct Next {
    /// The `__await__` iterator of the fill being awaited, if any.
    waiting: Option<Py<PyAny>>,
    steps: Box<dyn Deliver>,
}

impl Next {
    /// The next step of `steps`, as an awaitable.
    pub fn wrap(py: Python<'_>, steps: Box<dyn Deliver>) -> PyResult<Bound<'_, PyAny>> {
        Bound::new(py, Next { waiting: None, steps }).map(Bound::into_any)
    }
}

#[pymethods]
impl Next {
    fn __await__(slf: Py<Self>) -> Py<Self> {
        slf
    }

    fn __iter__(slf: Py<Self>) -> Py<Self> {
        slf
    }

    /// Yields to the event loop while the fill runs; ends the awaiting with the item
    /// (`StopIteration(item)`) once the task is awake to receive it.
    fn __next__(&mut self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        loop {
            if let Some(waiting) = &self.waiting {
                match waiting.bind(py).call_method0(pyo3::intern!(py, "__next__")) {
                    Ok(yielded) => return Ok(yielded.unbind()),
                    Err(done) if done.is_instance_of::<PyStopIteration>(py) => {
                        self.waiting = None;
                        let more: bool = done.value(py).getattr(pyo3::intern!(py, "value"))?.extract()?;
                        if !more {
                            // Raised in the awaiting task: Python shows it at its `async for` line.
                            super::warn::user_warning(py, self.steps.notice())?;
                            return Err(PyStopAsyncIteration::new_err(()));
                        }
                    }
                    Err(failed) => {
                        self.waiting = None;
                        return Err(failed);
                    }
                }
            }
            match self.steps.deliver(py)? {
                Some(item) => return Err(PyStopIteration::new_err((item,))),
                None => {
                    self.waiting = Some(self.steps.fill(py)?.call_method0(pyo3::intern!(py, "__await__"))?.unbind())
                }
            }
        }
    }
}

/// Starts a call: makes its asyncio future (on the running loop) and runs it on the runtime.
type Start = Box<dyn for<'py> FnOnce(Python<'py>) -> PyResult<Bound<'py, PyAny>> + Send>;

/// The coroutine an async client's call returns: ``await`` it for the result.
///
/// It is a coroutine (``asyncio.iscoroutine`` is true: it has ``send``, ``throw`` and
/// ``close``), so asyncio takes it wherever it takes one: ``asyncio.run``,
/// ``asyncio.create_task``, a ``TaskGroup``, ``asyncio.gather``, ``asyncio.wait_for``. As a
/// coroutine, the call starts when it is first awaited (or its task first runs); cancelling the
/// task awaiting it cancels the call, and one closed or dropped before it started never runs
/// (dropped unawaited, it warns as Python's own coroutines do: a ``RuntimeWarning`` naming
/// ``await`` and the sync twin). Its ``repr`` says what it is and that it must be awaited (what
/// Jupyter shows when the ``await`` was forgotten); every other attribute is the asyncio future's
/// of the started call (``done()``, ``cancel()``, ``result()``, ``add_done_callback(...)``).
///
/// Example:
///     >>> import asyncio
///     >>> async def forgotten():
///     ...     async with ad.AsyncDataClient(emu.url) as data:
///     ...         pending = data.chain("43114")         # no await
///     ...         shown = repr(pending)
///     ...         return shown, asyncio.iscoroutine(pending), (await pending)["chainId"]
///     >>> shown, is_coroutine, chain_id = asyncio.run(forgotten())
///     >>> shown
///     '<AsyncDataClient.chain(...) awaitable: await it (`await x.chain(...)`), or use DataClient for blocking calls>'
///     >>> is_coroutine, chain_id
///     (True, '43114')
///     >>> asyncio.run(ad.AsyncIndexClient(emu.url).chain("X/tx").range(0, 5).to_polars()).height
///     5
#[pyclass(frozen, name = "Pending", module = "avax_data._native")]
pub struct Pending {
    call: super::call::Call,
    /// What starts the call, until it is started (or closed).
    start: Mutex<Option<Start>>,
    /// The call's asyncio future, once started.
    future: PyOnceLock<Py<PyAny>>,
    /// The future's own ``__await__`` iterator, once ``send`` or ``throw`` stepped it.
    steps: PyOnceLock<Py<PyAny>>,
}

impl Pending {
    /// The coroutine of `call`, which `start` starts when it is first stepped.
    pub fn lazy<'py>(
        py: Python<'py>,
        call: super::call::Call,
        start: impl for<'a> FnOnce(Python<'a>) -> PyResult<Bound<'a, PyAny>> + Send + 'static,
    ) -> PyResult<Bound<'py, PyAny>> {
        let pending = Pending {
            call,
            start: Mutex::new(Some(Box::new(start))),
            future: PyOnceLock::new(),
            steps: PyOnceLock::new(),
        };
        Bound::new(py, pending).map(Bound::into_any)
    }

    /// The start, unless the call was started or closed.
    fn take_start(&self) -> Option<Start> {
        self.start.lock().unwrap_or_else(std::sync::PoisonError::into_inner).take()
    }

    /// The call's asyncio future, starting the call on the running loop the first time.
    fn future<'py>(&self, py: Python<'py>) -> PyResult<&Bound<'py, PyAny>> {
        let future = self.future.get_or_try_init(py, || {
            self.call.check_loop(py)?;
            let start = self.take_start().ok_or_else(|| {
                let super::call::Call(class, method) = self.call;
                PyRuntimeError::new_err(format!("cannot await {class}.{method}(...): the coroutine was closed"))
            })?;
            start(py).map(Bound::unbind)
        })?;
        Ok(future.bind(py))
    }

    /// The iterator ``send`` and ``throw`` step: the future's ``__await__``, made once.
    fn steps<'py>(&self, py: Python<'py>) -> PyResult<&Bound<'py, PyAny>> {
        let steps = self.steps.get_or_try_init(py, || self.future(py)?.call_method0("__await__").map(Bound::unbind))?;
        Ok(steps.bind(py))
    }

    /// Cancels the started call unless it is done.
    fn cancel_running(&self, py: Python<'_>) -> PyResult<()> {
        if let Some(future) = self.future.get(py).map(|f| f.bind(py)) {
            if !future.call_method0("done")?.is_truthy()? {
                future.call_method0("cancel")?;
            }
        }
        Ok(())
    }
}

#[pymethods]
impl Pending {
    fn __await__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        self.future(py)?.call_method0("__await__")
    }

    /// Steps the coroutine (what a task does): the future while the call runs, then
    /// ``StopIteration`` with its result.
    fn send<'py>(&self, py: Python<'py>, value: Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
        self.steps(py)?.call_method1("send", (value,))
    }

    /// Raises ``exc`` where the coroutine waits (a task's cancellation does this); the call,
    /// whose result nobody will take, is cancelled (or, not started yet, never runs).
    #[pyo3(signature = (exc, value=None, traceback=None))]
    fn throw<'py>(
        &self,
        py: Python<'py>,
        exc: Bound<'py, PyAny>,
        value: Option<Bound<'py, PyAny>>,
        traceback: Option<Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        if self.future.get(py).is_none() && self.take_start().is_some() {
            return Err(PyErr::from_value(value.filter(|v| !v.is_none()).unwrap_or(exc)));
        }
        let steps = self.steps(py)?;
        let thrown = match (value, traceback) {
            (None, None) => steps.call_method1("throw", (exc,)),
            (value, traceback) => steps.call_method1("throw", (exc, value, traceback)),
        };
        self.cancel_running(py)?;
        thrown
    }

    /// Closes the coroutine: a call not started never runs, a running one is cancelled.
    fn close(&self, py: Python<'_>) -> PyResult<()> {
        drop(self.take_start());
        self.cancel_running(py)
    }

    fn __getattr__<'py>(&self, py: Python<'py>, name: &str) -> PyResult<Bound<'py, PyAny>> {
        self.future(py)?.getattr(name)
    }

    fn __repr__(&self) -> String {
        let super::call::Call(class, method) = self.call;
        let twin = class.strip_prefix("Async").unwrap_or(class);
        format!(
            "<{class}.{method}(...) awaitable: await it (`await x.{method}(...)`), or use {twin} for blocking calls>"
        )
    }
}

impl Drop for Pending {
    /// A call never started warns, as a coroutine never awaited does.
    fn drop(&mut self) {
        if self.start.get_mut().unwrap_or_else(std::sync::PoisonError::into_inner).is_some() {
            let super::call::Call(class, method) = self.call;
            let twin = class.strip_prefix("Async").unwrap_or(class);
            let text = format!(
                "{class}.{method}(...) was never awaited: `await x.{method}(...)` in an `async def`, or use {twin} \
                 for blocking calls"
            );
            Python::attach(|py| {
                // Dropped while an exception propagates: the warning must not replace it.
                let propagating = PyErr::take(py);
                let text = std::ffi::CString::new(text).unwrap_or_default();
                let kind = py.get_type::<pyo3::exceptions::PyRuntimeWarning>();
                if let Err(e) = PyErr::warn(py, &kind.into_any(), &text, 1) {
                    e.write_unraisable(py, None);
                }
                if let Some(e) = propagating {
                    e.restore(py);
                }
            });
        }
    }
}
