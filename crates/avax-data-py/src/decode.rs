//! `decode_bytes`: decoding container bytes a user already has into a polars DataFrame.

use pyo3::prelude::*;
use pyo3::types::PyBytes;

use super::convert::polars_frame;
use super::errors::to_py;
use avax_data_core::arrow::decoded::{bytes_schema, decode_bytes_until, DecodeMode};
use avax_data_core::index::IndexPath;

/// Decode container bytes of one index into a polars DataFrame, one row per item, in order.
///
/// The decoding runs with the GIL released; Ctrl-C stops it within a fraction of a second
/// (``KeyboardInterrupt``).
///
/// The engine under :func:`avax_data.decode_container` and :func:`avax_data.decode_frame`,
/// which most code calls instead.
///
/// Args:
///     path: the index the bytes come from: ``"C/block"``, ``"P/block"``, ``"X/tx"`` or
///         ``"X/block"`` (``"X/vtx"`` has no published layout).
///     items: the containers' bytes, without the Index API's 4-byte checksum (as a
///         container dict's ``bytes``), a list of ``bytes``.
///     strict: ``True`` raises on the first item that does not decode; default ``False``
///         keeps its row, with ``decode_error`` set and the typed columns null.
///
/// Returns:
///     polars.DataFrame: the typed columns of the index, then ``decode_error`` and ``bytes``.
///
/// Raises:
///     InvalidParameterError: an unknown path, or ``X/vtx``.
///     DecodeError: with ``strict=True``, an item that does not decode (``offset`` says at
///         which byte).
///
/// Example:
///     >>> raw = ad.IndexClient(emu.url).chain("C/block").range(0, 3).to_polars()
///     >>> df = ad._native.decode_bytes("C/block", raw["bytes"].to_list())
///     >>> df["number"].to_list(), df.columns[-2:]
///     ([0, 1, 2], ['decode_error', 'bytes'])
///     >>> ad._native.decode_bytes("C/block", [b"\x00"], strict=True)
///     Traceback (most recent call last):
///     ...
///     avax_data.exceptions.DecodeError: could not decode C/block item 0: block: expected an RLP list, found a string at byte 0
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
    // Decoding (and recovering senders) is CPU work: the GIL is released, and Ctrl-C stops
    // it at its next check.
    let batch = crate::interrupt::run_cpu(py, |stop| decode_bytes_until(path, slices.into_iter(), mode, stop))?
        .map_err(to_py)?;
    polars_frame(py, vec![batch], bytes_schema(path).map_err(to_py)?)
}
