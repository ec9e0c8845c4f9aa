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
