//! `_ExportCheckpoint` and `_verify_checkpoint`: the core's export checkpoint
//! ([`avax_data_core::checkpoint`]) for the command line's exports. Positions and requests cross
//! as JSON text; every rule (layout, validation, lock, output checks) is the core's.

use std::path::PathBuf;

use pyo3::prelude::*;
use pyo3::types::PyDict;

use super::errors::to_py;
use avax_data_core::checkpoint::{verify_checkpoint, ExportCheckpoint, Origin, Position, Request};
use avax_data_core::Error;

fn position(text: &str) -> PyResult<Position> {
    serde_json::from_str(text).map_err(|e| {
        to_py(Error::invalid("position", text, format!("a position of an index walk or a pager, as JSON ({e})")))
    })
}

/// The checkpoint of one export at work (``OUT.avax-state.json``), its lock (``OUT.avax-lock``)
/// held until ``finish()``, ``release()`` or the object is dropped. For the command line.
#[pyclass(name = "_ExportCheckpoint", module = "avax_data._native")]
pub struct PyExportCheckpoint {
    inner: ExportCheckpoint,
}

#[pymethods]
impl PyExportCheckpoint {
    /// Takes the lock of the export to ``output`` and reads the checkpoint an earlier run left.
    /// ``args`` is the JSON object of the arguments that define the rows.
    #[new]
    fn new(py: Python<'_>, command: String, format: String, output: String, args: &str) -> PyResult<Self> {
        let args = serde_json::from_str(args).map_err(|e| {
            to_py(Error::invalid("args", args, format!("a JSON object of the export's arguments ({e})")))
        })?;
        let request = Request { command, format, output, args, source: None };
        let inner = py.detach(|| ExportCheckpoint::open(request)).map_err(to_py)?;
        Ok(PyExportCheckpoint { inner })
    }

    /// Sets where the rows come from, before ``resume()`` and the first ``save()``: ``network``
    /// (the id of the index path's container 0) or ``base_url`` (a Data or Metrics API service;
    /// redacted by the core). A resume against another source is refused, naming both.
    #[pyo3(signature = (*, network=None, base_url=None))]
    fn set_source(&mut self, network: Option<String>, base_url: Option<String>) -> PyResult<()> {
        let source = match (network, base_url) {
            (Some(container0), None) => Some(Origin::Network { container0 }),
            (None, Some(url)) => Some(Origin::service(&url)),
            (None, None) => None,
            (Some(_), Some(_)) => {
                return Err(to_py(Error::invalid("base_url", "given with network", "one of network and base_url")))
            }
        };
        self.inner.set_source(source);
        Ok(())
    }

    /// The checkpoint file.
    #[getter]
    fn path(&self) -> String {
        self.inner.path().display().to_string()
    }

    /// Whether an earlier, unfinished run left a checkpoint.
    #[getter]
    fn saved(&self) -> bool {
        self.inner.saved().is_some()
    }

    /// Rows safely written.
    #[getter]
    fn rows_written(&self) -> u64 {
        self.inner.rows_written()
    }

    /// Continues the earlier run (see the core): ``(position as JSON, rows written, the
    /// position as the resume line shows it)``.
    fn resume(&mut self, py: Python<'_>) -> PyResult<(String, u64, String)> {
        let (position, rows) = py.detach(|| self.inner.resume()).map_err(to_py)?;
        let text = serde_json::to_string(&position).map_err(|e| to_py(Error::Internal(e.to_string())))?;
        Ok((text, rows, position.describe()))
    }

    /// Records the position (JSON) with the output as it stands.
    fn save(&mut self, py: Python<'_>, position: &str) -> PyResult<()> {
        let position = self::position(position)?;
        py.detach(|| self.inner.save(position)).map_err(to_py)
    }

    /// The name of the next Parquet part file (in ``OUT.parts/``).
    fn next_part(&self) -> PyResult<String> {
        self.inner.next_part().map_err(to_py)
    }

    /// Records the part file ``next_part()`` named, of ``rows`` rows, and the position after it.
    fn add_part(&mut self, py: Python<'_>, rows: u64, position: &str) -> PyResult<()> {
        let position = self::position(position)?;
        py.detach(|| self.inner.add_part(rows, position)).map_err(to_py)
    }

    /// Records that the CSV or NDJSON output holds ``size`` bytes after a chunk of ``rows`` rows.
    fn add_bytes(&mut self, py: Python<'_>, size: u64, rows: u64, position: &str) -> PyResult<()> {
        let position = self::position(position)?;
        py.detach(|| self.inner.add_bytes(size, rows, position)).map_err(to_py)
    }

    /// The export is complete (or stopped before its first chunk): removes the checkpoint and
    /// the lock file.
    fn finish(&mut self) -> PyResult<()> {
        self.inner.finish().map_err(to_py)
    }

    /// Releases the lock (the checkpoint stays, for ``--resume``).
    fn release(&mut self) {
        self.inner.release();
    }
}

/// What the checkpoint ``path`` (``OUT.avax-state.json``, or the output ``OUT`` beside it) says
/// and whether its output is as recorded: a dict with ``ok``, ``path``, ``checkpoint`` (the
/// stored JSON object), ``resumes_at`` (the position as text), ``missing``, ``altered`` and ``extra``.
#[pyfunction]
pub fn _verify_checkpoint<'py>(py: Python<'py>, path: PathBuf) -> PyResult<Bound<'py, PyDict>> {
    let report = py.detach(|| verify_checkpoint(&path)).map_err(to_py)?;
    let text = serde_json::to_string(&report.checkpoint).map_err(|e| to_py(Error::Internal(e.to_string())))?;
    let out = PyDict::new(py);
    out.set_item("ok", report.ok())?;
    out.set_item("path", report.path.display().to_string())?;
    out.set_item("resumes_at", report.checkpoint.position.describe())?;
    out.set_item("checkpoint", py.import("json")?.call_method1("loads", (text,))?)?;
    out.set_item("missing", report.files.missing)?;
    out.set_item("altered", report.files.altered)?;
    out.set_item("extra", report.files.extra)?;
    Ok(out)
}
