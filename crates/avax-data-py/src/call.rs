//! [`Call`]: the class and method of a call, named in the error of an async call made outside a
//! running event loop. A leaf module: `mode` and `ready` both use it.

use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;

/// Names a call (its class and method) for the error of an async call made outside a running
/// event loop.
#[derive(Debug, Clone, Copy)]
pub struct Call(pub &'static str, pub &'static str);

impl Call {
    /// The error of an async call made without a running event loop (a forgotten `await`, or a
    /// call from plain sync code): it names `await` and the sync twin.
    pub fn not_awaited(self) -> PyErr {
        let Call(class, method) = self;
        let twin = class.strip_prefix("Async").unwrap_or(class);
        PyRuntimeError::new_err(format!(
            "{class}.{method}(...) must be awaited inside a running event loop: `await x.{method}(...)` in an \
             `async def` run by asyncio.run() (there is no running event loop here); use {twin} for blocking calls"
        ))
    }

    /// Fails with [`Call::not_awaited`] when no asyncio event loop runs in this thread.
    pub fn check_loop(self, py: Python<'_>) -> PyResult<()> {
        let running = py.import("asyncio")?.call_method0("_get_running_loop")?;
        if running.is_none() {
            Err(self.not_awaited())
        } else {
            Ok(())
        }
    }
}
