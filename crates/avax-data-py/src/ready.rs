//! An awaitable whose value is already there: `await` on it returns at once, without an event
//! loop round trip. Async iterators hand out buffered items through it, so `async for` crosses
//! into the runtime once per fetched batch instead of once per item.

use pyo3::exceptions::{PyStopAsyncIteration, PyStopIteration};
use pyo3::prelude::*;

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

/// The awaitable an async client's call returns: ``await`` it for the result.
///
/// It wraps the asyncio future of the call; its ``repr`` says what it is and that it must be
/// awaited (what Jupyter shows when the ``await`` was forgotten), and every other attribute is
/// the future's (``done()``, ``cancel()``, ``result()``, ``add_done_callback(...)``). asyncio
/// takes it wherever it takes an awaitable (``asyncio.gather``, ``asyncio.wait_for``).
///
/// Example:
///     >>> import asyncio
///     >>> async def forgotten():
///     ...     async with ad.AsyncDataClient(emu.url) as data:
///     ...         pending = data.chain("43114")         # no await
///     ...         shown = repr(pending)
///     ...         return shown, (await pending)["chainId"]
///     >>> shown, chain_id = asyncio.run(forgotten())
///     >>> shown
///     '<AsyncDataClient.chain(...) awaitable: await it (`await x.chain(...)`), or use DataClient for blocking calls>'
///     >>> chain_id
///     '43114'
#[pyclass(frozen, name = "Pending", module = "avax_data._native")]
pub struct Pending {
    future: Py<PyAny>,
    call: super::call::Call,
}

impl Pending {
    /// Wraps the asyncio `future` of `call`.
    pub fn wrap<'py>(
        py: Python<'py>,
        call: super::call::Call,
        future: Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        Bound::new(py, Pending { future: future.unbind(), call }).map(Bound::into_any)
    }
}

#[pymethods]
impl Pending {
    fn __await__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        self.future.bind(py).call_method0("__await__")
    }

    fn __getattr__<'py>(&self, py: Python<'py>, name: &str) -> PyResult<Bound<'py, PyAny>> {
        self.future.bind(py).getattr(name)
    }

    fn __repr__(&self) -> String {
        let super::call::Call(class, method) = self.call;
        let twin = class.strip_prefix("Async").unwrap_or(class);
        format!(
            "<{class}.{method}(...) awaitable: await it (`await x.{method}(...)`), or use {twin} for blocking calls>"
        )
    }
}
