//! Log records of the Rust core (requests, retries, waits, resumes; `log` crate targets under
//! `avax_data_core::...`) reach Python's `logging` under the `avax_data` logger through pyo3-log.
//! The targets of the workspace's crates are renamed to the Python package's names
//! (`avax_data_core::index::walk` is the logger `avax_data.index.walk`, the emulator's
//! `avax_data_emulator::...` is `avax_data.emulator...`).
//!
//! The effective level of each logger is cached on the Rust side, so a disabled level costs no GIL
//! on the hot path; the cache is cleared whenever a client is made (logging configured before a
//! client exists is always seen) and by `avax_data.reset_logging()`.

use std::borrow::Cow;
use std::sync::OnceLock;

use pyo3::prelude::*;

static RESET: OnceLock<pyo3_log::ResetHandle> = OnceLock::new();

/// The crates of the workspace and the Python logger names their targets go to.
const RENAMES: [(&str, &str); 3] = [
    ("avax_data_core", "avax_data"),
    ("avax_data_emulator", "avax_data::emulator"),
    ("avax_data_py", "avax_data::python"),
];

/// The Python-side name of a `log` target: a workspace crate's name is replaced by its package
/// path (`avax_data_core::index::walk` -> `avax_data::index::walk`); other targets are unchanged.
fn python_target(target: &str) -> Cow<'_, str> {
    for (crate_name, python) in RENAMES {
        if let Some(rest) = target.strip_prefix(crate_name) {
            if rest.is_empty() || rest.starts_with("::") {
                return Cow::Owned(format!("{python}{rest}"));
            }
        }
    }
    Cow::Borrowed(target)
}

/// pyo3-log's logger, fed records whose targets carry the Python names ([`python_target`]).
struct Renamed(pyo3_log::Logger);

impl log::Log for Renamed {
    fn enabled(&self, metadata: &log::Metadata<'_>) -> bool {
        let target = python_target(metadata.target());
        self.0.enabled(&log::Metadata::builder().level(metadata.level()).target(&target).build())
    }

    fn log(&self, record: &log::Record<'_>) {
        let target = python_target(record.target());
        let renamed = log::Record::builder()
            .args(*record.args())
            .level(record.level())
            .target(&target)
            .module_path(record.module_path())
            .file(record.file())
            .line(record.line())
            .build();
        if !self.0.enabled(renamed.metadata()) {
            return; // the cached level: no GIL for a record nobody wants
        }
        Python::attach(|py| {
            let before = PyErr::take(py);
            self.0.log(&renamed);
            // pyo3-log leaves an exception raised while logging set on this thread, where the
            // next call into Python would take it for its own (a `SystemError`)
            if let Some(raised) = PyErr::take(py) {
                hand_on(py, raised);
            }
            if let Some(before) = before {
                before.restore(py);
            }
        })
    }

    fn flush(&self) {
        self.0.flush()
    }
}

/// An exception raised while a record was logged. Ctrl-C lands in whatever Python code the main
/// thread runs, a logging call included: that `KeyboardInterrupt` is handed back to the signal
/// machinery (as if Ctrl-C came again), so the wait polling for signals raises it where the user
/// expects it; any other exception is reported as unraisable (as `logging` does with a handler's).
fn hand_on(py: Python<'_>, raised: PyErr) {
    if raised.is_instance_of::<pyo3::exceptions::PyKeyboardInterrupt>(py) {
        // SAFETY: takes no arguments and may be called with or without the GIL.
        unsafe { pyo3::ffi::PyErr_SetInterrupt() };
    } else {
        raised.write_unraisable(py, None);
    }
}

/// Installs the bridge (once per process; another installed logger is left alone).
pub fn install(py: Python<'_>) -> PyResult<()> {
    let level = log::LevelFilter::Debug;
    let logger = pyo3_log::Logger::new(py, pyo3_log::Caching::LoggersAndLevels)?.filter(level);
    let handle = logger.reset_handle();
    if log::set_boxed_logger(Box::new(Renamed(logger))).is_ok() {
        log::set_max_level(level);
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

#[cfg(test)]
mod tests {
    use super::python_target;

    #[test]
    fn the_crates_targets_get_the_python_package_names() {
        assert_eq!(python_target("avax_data_core::index::walk"), "avax_data::index::walk");
        assert_eq!(python_target("avax_data_core"), "avax_data");
        assert_eq!(python_target("avax_data_emulator::layers"), "avax_data::emulator::layers");
        assert_eq!(python_target("avax_data_py::walks"), "avax_data::python::walks");
        // Only whole crate names are renamed; other targets pass unchanged.
        assert_eq!(python_target("avax_data_corex::a"), "avax_data_corex::a");
        assert_eq!(python_target("reqwest::connect"), "reqwest::connect");
    }
}
