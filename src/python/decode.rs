//! `decode_bytes`: decoding container bytes a user already has into a polars DataFrame.

use pyo3::prelude::*;
use pyo3::types::PyBytes;

use super::convert::polars_frame;
use super::errors::to_py;
use crate::arrow::decoded::{bytes_schema, decode_bytes as decode_all, DecodeMode};
use crate::index::IndexPath;

/// Decode container bytes (without the Index API's 4-byte checksum) of index ``path`` into a
/// polars DataFrame, one row per item in order: the typed columns, ``decode_error`` and
/// ``bytes``. With ``strict=True`` the first item that does not decode raises ``DecodeError``.
#[pyfunction]
#[pyo3(signature = (path, items, *, strict=false))]
pub fn decode_bytes<'py>(
    py: Python<'py>,
    path: &str,
    items: Vec<Bound<'py, PyBytes>>,
    strict: bool,
) -> PyResult<Bound<'py, PyAny>> {
    let path = IndexPath::parse(path).map_err(to_py)?;
    let mode = if strict { DecodeMode::Strict } else { DecodeMode::Lenient };
    let slices: Vec<&[u8]> = items.iter().map(|b| b.as_bytes()).collect();
    let batch = decode_all(path, slices.into_iter(), mode).map_err(to_py)?;
    polars_frame(py, vec![batch], bytes_schema(path).map_err(to_py)?)
}
