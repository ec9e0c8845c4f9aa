//! Rust values to Python objects: container dicts, UTC datetimes, polars DataFrames.

use arrow_array::RecordBatch;
use arrow_schema::SchemaRef;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyBytes, PyDict, PyList};
use pyo3::intern;

use crate::index::Container;

static DATETIME: PyOnceLock<Py<PyAny>> = PyOnceLock::new();
static UTC: PyOnceLock<Py<PyAny>> = PyOnceLock::new();
static POLARS_DATAFRAME: PyOnceLock<Py<PyAny>> = PyOnceLock::new();

/// A timezone-aware UTC `datetime` from nanoseconds since the epoch (microsecond precision:
/// what `datetime` holds).
pub fn utc_datetime<'py>(py: Python<'py>, ns: i64) -> PyResult<Bound<'py, PyAny>> {
    use chrono::{Datelike, Timelike};
    let datetime = DATETIME.get_or_try_init(py, || py.import("datetime")?.getattr("datetime").map(Bound::unbind))?;
    let utc = UTC.get_or_try_init(py, || {
        py.import("datetime")?.getattr("timezone")?.getattr("utc").map(Bound::unbind)
    })?;
    let t = chrono::DateTime::from_timestamp_nanos(ns);
    datetime.bind(py).call1((
        t.year(),
        t.month(),
        t.day(),
        t.hour(),
        t.minute(),
        t.second(),
        t.nanosecond() / 1000,
        utc.bind(py),
    ))
}

/// A container as a dict with the API's field names.
pub fn container_dict<'py>(py: Python<'py>, c: &Container) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item(intern!(py, "id"), &c.id)?;
    d.set_item(intern!(py, "bytes"), PyBytes::new(py, &c.bytes))?;
    d.set_item(intern!(py, "timestamp"), utc_datetime(py, c.timestamp_ns)?)?;
    d.set_item(intern!(py, "index"), c.index)?;
    d.set_item(intern!(py, "encoding"), &c.encoding)?;
    Ok(d)
}

/// A polars DataFrame from record batches, handed over through the Arrow C stream interface.
pub fn polars_frame<'py>(py: Python<'py>, batches: Vec<RecordBatch>, schema: SchemaRef) -> PyResult<Bound<'py, PyAny>> {
    let table = pyo3_arrow::PyTable::try_new(batches, schema)?;
    let table = Bound::new(py, table)?;
    let constructor = POLARS_DATAFRAME.get_or_try_init(py, || py.import("polars")?.getattr("DataFrame").map(Bound::unbind))?;
    constructor.bind(py).call1((table,))
}

/// A container, converted to a dict when it reaches Python (for async results).
pub struct ContainerOut(pub Container);

impl<'py> IntoPyObject<'py> for ContainerOut {
    type Target = PyDict;
    type Output = Bound<'py, PyDict>;
    type Error = PyErr;
    fn into_pyobject(self, py: Python<'py>) -> PyResult<Self::Output> {
        container_dict(py, &self.0)
    }
}

/// A list of containers, converted to a list of dicts when it reaches Python.
pub struct ContainersOut(pub Vec<Container>);

impl<'py> IntoPyObject<'py> for ContainersOut {
    type Target = PyList;
    type Output = Bound<'py, PyList>;
    type Error = PyErr;
    fn into_pyobject(self, py: Python<'py>) -> PyResult<Self::Output> {
        let items = self.0.iter().map(|c| container_dict(py, c)).collect::<PyResult<Vec<_>>>()?;
        PyList::new(py, items)
    }
}

/// Record batches, converted to one polars DataFrame when they reach Python.
pub struct FrameOut(pub Vec<RecordBatch>, pub SchemaRef);

impl<'py> IntoPyObject<'py> for FrameOut {
    type Target = PyAny;
    type Output = Bound<'py, PyAny>;
    type Error = PyErr;
    fn into_pyobject(self, py: Python<'py>) -> PyResult<Self::Output> {
        polars_frame(py, self.0, self.1)
    }
}
