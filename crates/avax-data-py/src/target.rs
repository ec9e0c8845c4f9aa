//! Where an export writes: a file path, or any binary file object (written through its `write`).

use std::io::{self, Write};

use pyo3::prelude::*;
use pyo3::types::{PyBool, PyBytes, PyInt, PyString};

use super::args::shown;
use super::errors::invalid;
use avax_data_core::arrow::Target;

const WHAT: &str = "a file path (str or os.PathLike) or a binary file object (with write())";

/// A binary Python file object as a [`Write`]r (each write takes the GIL).
struct PyWriter(Py<PyAny>);

/// The file object's exception as an I/O error: an `OSError` keeps its `errno` (a full disk stays
/// `ENOSPC`, so the export's error says it), anything else is `Other`.
fn io_error(e: PyErr) -> io::Error {
    let errno = Python::attach(|py| {
        let value = e.value(py);
        match value.is_instance_of::<pyo3::exceptions::PyOSError>() {
            true => value.getattr("errno").and_then(|n| n.extract::<i32>()).ok(),
            false => None,
        }
    });
    match errno {
        Some(errno) => io::Error::new(io::Error::from_raw_os_error(errno).kind(), e.to_string()),
        None => io::Error::other(e.to_string()),
    }
}

impl Write for PyWriter {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        Python::attach(|py| {
            let written = self.0.bind(py).call_method1("write", (PyBytes::new(py, buf),)).map_err(io_error)?;
            // Raw streams return a count (maybe short); buffered ones return the length or None.
            if written.is_none() {
                Ok(buf.len())
            } else {
                written.extract::<usize>().map_err(io_error)
            }
        })
    }

    fn flush(&mut self) -> io::Result<()> {
        Python::attach(|py| {
            let file = self.0.bind(py);
            if file.hasattr("flush").unwrap_or(false) {
                file.call_method0("flush").map_err(io_error)?;
            }
            Ok(())
        })
    }
}

/// `path=` of an export: a path, or a binary file object.
pub fn target(value: &Bound<'_, PyAny>) -> PyResult<Target> {
    if value.is_none() || value.is_instance_of::<PyBool>() || value.is_instance_of::<PyInt>() {
        return Err(invalid("path", shown(value), WHAT));
    }
    let is_path = value.is_instance_of::<PyString>() || value.hasattr("__fspath__").unwrap_or(false);
    if !is_path && value.hasattr("write").unwrap_or(false) {
        return Ok(Target::Writer(Box::new(PyWriter(value.clone().unbind()))));
    }
    value.extract::<std::path::PathBuf>().map(Target::Path).map_err(|e| {
        // A KeyboardInterrupt raised by a signal handler while `__fspath__` ran is not a bad path.
        match e.is_instance_of::<pyo3::exceptions::PyException>(value.py()) {
            true => invalid("path", shown(value), WHAT),
            false => e,
        }
    })
}
