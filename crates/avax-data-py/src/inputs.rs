//! Python values into the core's inputs (`avax_data_core::inputs`): a chain id, a time. Only the
//! Python type is read here; what is allowed, the ranges and the messages are the core's, so a
//! method argument, a generated endpoint's argument and the CLI's text follow one rule.

use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDate, PyDateTime, PyInt, PyString};

use super::args::shown;
use super::errors::to_py;
use avax_data_core::inputs::{chain_id_shown, unix_seconds_shown, ChainIdInput, TimeInput};

fn type_name(value: &Bound<'_, PyAny>) -> String {
    value.get_type().name().map(|n| n.to_string()).unwrap_or_else(|_| "?".into())
}

/// An `int` (not a `bool`) as an `i128`; one too big for it saturates (the core refuses both).
fn int_of(value: &Bound<'_, PyAny>) -> Option<i128> {
    if value.is_instance_of::<PyBool>() || !value.is_instance_of::<PyInt>() {
        return None;
    }
    Some(value.extract::<i128>().unwrap_or(i128::MAX))
}

/// Whether `value` is a `numpy.datetime64` (read by its attributes: numpy is not a dependency).
fn is_datetime64(value: &Bound<'_, PyAny>) -> bool {
    let ty = value.get_type();
    let module = ty.getattr("__module__").and_then(|m| m.extract::<String>()).unwrap_or_default();
    module == "numpy" && ty.name().is_ok_and(|n| n == "datetime64")
}

/// A `numpy.datetime64` as its integer and unit (`'<M8[10ms]'` -> `10ms`; generic: empty).
fn datetime64(value: &Bound<'_, PyAny>) -> PyResult<TimeInput> {
    let dtype: String = value.getattr("dtype")?.getattr("str")?.extract()?;
    let unit = dtype.split_once('[').and_then(|(_, rest)| rest.strip_suffix(']')).unwrap_or_default().to_string();
    let value: i64 = value.call_method1("astype", ("int64",))?.extract()?;
    Ok(TimeInput::Datetime64 { value, unit })
}

/// An `int` attribute (a date's or a timedelta's fields).
fn field(value: &Bound<'_, PyAny>, name: &str) -> PyResult<i64> {
    value.getattr(name)?.extract()
}

/// A `datetime` as its fields and UTC offset (`None` when naive).
fn datetime(value: &Bound<'_, PyAny>) -> PyResult<TimeInput> {
    let offset = value.call_method0("utcoffset")?;
    let offset_micros = if offset.is_none() {
        None
    } else {
        let (days, secs, micros) =
            (field(&offset, "days")?, field(&offset, "seconds")?, field(&offset, "microseconds")?);
        Some((days * 86_400 + secs) * 1_000_000 + micros)
    };
    let part = |name| field(value, name).map(|n| n as u32);
    Ok(TimeInput::DateTime {
        year: field(value, "year")? as i32,
        month: part("month")?,
        day: part("day")?,
        hour: part("hour")?,
        minute: part("minute")?,
        second: part("second")?,
        microsecond: part("microsecond")?,
        offset_micros,
    })
}

/// A Python value as the core's [`TimeInput`]: `int` (Unix seconds), `str`, `datetime.datetime`,
/// `datetime.date`, `numpy.datetime64`; anything else by its type name.
pub fn time_input(value: &Bound<'_, PyAny>) -> PyResult<TimeInput> {
    if let Some(n) = int_of(value) {
        return Ok(TimeInput::UnixSeconds(n));
    }
    if let Ok(text) = value.cast::<PyString>() {
        return Ok(TimeInput::Text(text.to_str()?.to_string()));
    }
    if value.is_instance_of::<PyDateTime>() {
        return datetime(value);
    }
    if value.is_instance_of::<PyDate>() {
        let part = |name| field(value, name).map(|n| n as u32);
        return Ok(TimeInput::Date { year: field(value, "year")? as i32, month: part("month")?, day: part("day")? });
    }
    if is_datetime64(value) {
        return datetime64(value);
    }
    Ok(TimeInput::Other(type_name(value)))
}

/// A time argument as Unix seconds by the core's rule (`None` stays `None`).
pub fn time_arg(value: Option<&Bound<'_, PyAny>>, param: &str) -> PyResult<Option<i64>> {
    let Some(value) = value.filter(|v| !v.is_none()) else { return Ok(None) };
    unix_seconds_shown(param, &time_input(value)?, &shown(value)).map(Some).map_err(to_py)
}

/// A chain id argument (an `int` or a `str`) as the text to send, by the core's rule.
pub fn chain_id_arg(value: &Bound<'_, PyAny>, param: &str) -> PyResult<String> {
    let input = match (int_of(value), value.cast::<PyString>()) {
        (Some(n), _) => ChainIdInput::Int(n),
        (None, Ok(text)) => ChainIdInput::Text(text.to_str()?.to_string()),
        (None, Err(_)) => ChainIdInput::Other(type_name(value)),
    };
    chain_id_shown(param, &input, &shown(value)).map_err(to_py)
}

/// A time as whole Unix seconds (UTC), read by the rule every entry point uses.
///
/// Takes an ``int`` of Unix seconds, a ``str`` (the digits of Unix seconds, ``YYYY-MM-DD`` for
/// 00:00 UTC, or an RFC 3339 time with its offset such as ``2024-01-01T12:00:00Z``), a
/// ``datetime.date``, a timezone-aware ``datetime.datetime`` or a ``numpy.datetime64``, from
/// 1970-01-01 to 9999-12-31; fractions of a second are floored. The CLI reads its time options
/// with it.
///
/// Args:
///     value: the time.
///     param: the parameter named in the error.
///
/// Returns:
///     int: Unix seconds.
///
/// Raises:
///     InvalidParameterError: ``value`` is no time (a naive ``datetime``, text without an
///         offset, NaT, out of range, another type), naming ``param``, the value and what is
///         allowed.
///
/// Example:
///     >>> import datetime as dt
///     >>> ad._native.unix_seconds("2024-01-01"), ad._native.unix_seconds(dt.date(2024, 1, 1))
///     (1704067200, 1704067200)
///     >>> ad._native.unix_seconds("2024-01-01T12:00", "start")
///     Traceback (most recent call last):
///     ...
///     avax_data.exceptions.InvalidParameterError: invalid start='2024-01-01T12:00': an RFC 3339 time with its offset: this one has none; add Z (UTC) or one like +02:00
#[pyfunction]
#[pyo3(signature = (value, param = "time"))]
pub fn unix_seconds(value: &Bound<'_, PyAny>, param: &str) -> PyResult<i64> {
    unix_seconds_shown(param, &time_input(value)?, &shown(value)).map_err(to_py)
}
