//! An awaitable whose value is already there: `await` on it returns at once, without an event
//! loop round trip. Async iterators hand out buffered items through it, so `async for` crosses
//! into the runtime once per fetched batch instead of once per item.

use pyo3::exceptions::PyStopIteration;
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
