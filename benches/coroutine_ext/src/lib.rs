//! `_coroutine_bench`: the two ways a Rust call can reach `await` in Python, side by side for
//! `benches/coroutines.py` (issue 35, section 2), each for the same work:
//!
//! - `native_*`: pyo3's own coroutine (`async fn` under the `experimental-async` feature). Its
//!   future is polled on the thread that steps the coroutine, holding the GIL; work that needs
//!   the tokio runtime (every call of the package does: reqwest, the rate limiters) is spawned
//!   there and its `JoinHandle` awaited, which wakes the coroutine through the event loop.
//! - `bridged*`: an asyncio future completed from the runtime (pyo3-async-runtimes'
//!   `future_into_py`), what the package's `Pending` starts on its first step.
//!
//! Bench-only: not part of the package, built on request (see `Cargo.toml`).

use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// The runtime the bridge runs its futures on (built on first use).
fn runtime() -> &'static tokio::runtime::Runtime {
    pyo3_async_runtimes::tokio::get_runtime()
}

/// A panicked or cancelled runtime task, as a Python error.
fn joined<T>(result: Result<T, tokio::task::JoinError>) -> PyResult<T> {
    result.map_err(|e| PyRuntimeError::new_err(e.to_string()))
}

/// `GET path` from `127.0.0.1:port` over a fresh connection (closed by the server after the
/// answer); the answer's length in bytes, status line and headers included.
async fn get(port: u16, path: String) -> std::io::Result<usize> {
    let mut stream = tokio::net::TcpStream::connect(("127.0.0.1", port)).await?;
    let request = format!("GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\r\n");
    stream.write_all(request.as_bytes()).await?;
    let mut answer = Vec::new();
    stream.read_to_end(&mut answer).await?;
    if !answer.starts_with(b"HTTP/1.1 200") {
        return Err(std::io::Error::other(String::from_utf8_lossy(&answer[..answer.len().min(80)]).into_owned()));
    }
    Ok(answer.len())
}

/// pyo3's coroutine of a value at hand: it ends on its first step.
#[pyfunction]
async fn native_ready() -> usize {
    0
}

/// pyo3's coroutine of a value made by a task on the runtime (the trip every call takes).
#[pyfunction]
async fn native_spawned() -> PyResult<usize> {
    joined(runtime().spawn(async { 0 }).await)
}

/// pyo3's coroutine of `GET path` sent by the runtime.
#[pyfunction]
async fn native_get(port: u16, path: String) -> PyResult<usize> {
    Ok(joined(runtime().spawn(get(port, path)).await)??)
}

/// The bridge's asyncio future of a value at hand (completed by a task on the runtime).
#[pyfunction]
fn bridged(py: Python<'_>) -> PyResult<Bound<'_, PyAny>> {
    pyo3_async_runtimes::tokio::future_into_py(py, async { Ok(0usize) })
}

/// The bridge's asyncio future of `GET path` sent by the runtime.
#[pyfunction]
fn bridged_get(py: Python<'_>, port: u16, path: String) -> PyResult<Bound<'_, PyAny>> {
    pyo3_async_runtimes::tokio::future_into_py(py, async move { Ok(get(port, path).await?) })
}

/// The module.
#[pymodule]
fn _coroutine_bench(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(native_ready, m)?)?;
    m.add_function(wrap_pyfunction!(native_spawned, m)?)?;
    m.add_function(wrap_pyfunction!(native_get, m)?)?;
    m.add_function(wrap_pyfunction!(bridged, m)?)?;
    m.add_function(wrap_pyfunction!(bridged_get, m)?)?;
    Ok(())
}
