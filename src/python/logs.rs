//! Log records of the Rust core (requests, retries, waits, resumes; `log` crate targets under
//! `avax_data::...`) reach Python's `logging` under the `avax_data` logger through pyo3-log.
//!
//! The effective level of each logger is cached on the Rust side, so a disabled level costs no GIL
//! on the hot path; the cache is cleared whenever a client is made (logging configured before a
//! client exists is always seen) and by `avax_data.reset_logging()`.

use std::sync::OnceLock;

use pyo3::prelude::*;

static RESET: OnceLock<pyo3_log::ResetHandle> = OnceLock::new();

/// Installs the bridge (once per process; another installed logger is left alone).
pub fn install(py: Python<'_>) -> PyResult<()> {
    let logger = pyo3_log::Logger::new(py, pyo3_log::Caching::LoggersAndLevels)?.filter(log::LevelFilter::Debug);
    if let Ok(handle) = logger.install() {
        let _ = RESET.set(handle);
    }
    Ok(())
}

/// Forgets the cached levels, so the next records follow Python's logging configuration as it is now.
pub fn reset() {
    if let Some(handle) = RESET.get() {
        handle.reset();
    }
}

/// Make the Rust core follow the current Python ``logging`` configuration (levels of the
/// ``avax_data`` loggers are cached; creating a client does this too).
#[pyfunction]
pub fn reset_logging() {
    reset();
}
