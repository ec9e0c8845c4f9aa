//! `month_windows`: the UTC month windows of a metric series, as the core cuts them for
//! datasets, for `avax_data.dask` to cut its partitions the same way.

use pyo3::prelude::*;

use super::errors::to_py;
use avax_data_core::dataset::metrics::months;

/// The UTC month windows of ``[start, end)`` (Unix seconds), as
/// :meth:`MetricsClient.write_dataset` and :func:`avax_data.dask.metric_series` cut a series.
///
/// Each window is ``(month, first, next, ask_from)``: ``month`` is ``YYYYMM``, the window holds
/// the points with ``first <= timestamp < next``, and it is asked from ``ask_from`` (one second
/// before ``first``, never below 0) to ``next``, then cut to the window on the client, so no
/// point is lost or repeated at a month's edge.
///
/// Args:
///     start: the first second, an int >= 0.
///     end: the second after the last (exclusive), an int.
///
/// Returns:
///     list[tuple[int, int, int, int]]: the windows, oldest first (empty when ``end <= start``).
///
/// Raises:
///     InvalidParameterError: a time out of the calendar's range.
///
/// Example:
///     >>> ad._native.month_windows(1_706_659_200, 1_709_424_000)   # 2024-01-31 .. 2024-03-03
///     [(202401, 1706659200, 1706745600, 1706659199), (202402, 1706745600, 1709251200, 1706745599), (202403, 1709251200, 1709424000, 1709251199)]
///     >>> ad._native.month_windows(5, 5)
///     []
#[pyfunction]
pub fn month_windows(start: i64, end: i64) -> PyResult<Vec<(u64, i64, i64, i64)>> {
    Ok(months(start, end).map_err(to_py)?.into_iter().map(|m| (m.value, m.first, m.next, m.ask_from())).collect())
}
