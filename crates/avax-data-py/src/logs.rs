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

/// Make the Rust core follow the current Python ``logging`` configuration.
///
/// The core's log records (each request and its status at DEBUG; retries, waits the service
/// asked for, redirects followed, re-requested short answers, waits for a lagging node, halved
/// batches at INFO; resumed walks at DEBUG; secrets redacted) go to the ``avax_data`` loggers
/// (``avax_data.index.walk``, ...). Their levels are cached on the Rust side, so a disabled
/// level costs nothing; creating a client refreshes the cache, and so does this function, for
/// a level changed after the client was made.
///
/// Example:
///     >>> import logging
///     >>> node = ad.IndexClient(emu.url)
///     >>> records = []
///     >>> class Keep(logging.Handler):
///     ...     def emit(self, record):
///     ...         records.append(f"{record.name} {record.levelname}: {record.getMessage()}")
///     >>> log, keep = logging.getLogger("avax_data"), Keep()
///     >>> log.addHandler(keep)
///     >>> log.setLevel(logging.DEBUG)
///     >>> ad.reset_logging()                  # the client was made before: refresh the levels
///     >>> rng = node.chain("X/tx").range(0, 100)
///     >>> first = next(iter(rng))
///     >>> rest = rng.to_polars()              # a new consumer resumes the walk
///     >>> [r for r in records if "avax_data.index" in r]
///     ['avax_data.index.walk DEBUG: X/tx: a new consumer resumes the walk at index 1']
///     >>> records[0].replace(emu.url, "URL")  # each request and its status
///     'avax_data.transport DEBUG: POST URL/ext/index/X/tx: HTTP 200'
///     >>> log.removeHandler(keep)
///     >>> log.setLevel(logging.NOTSET)
///     >>> ad.reset_logging()
#[pyfunction]
pub fn reset_logging() {
    reset();
}
