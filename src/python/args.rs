//! Checks of Python arguments, before any request: each failure names the parameter, the value
//! and what is allowed.

use pyo3::prelude::*;
use pyo3::types::{PyBool, PyInt};

use super::errors::invalid;

/// An unsigned 64-bit integer argument (a Python `int`, not a `bool`, not a float).
pub fn u64_arg(value: &Bound<'_, PyAny>, param: &str) -> PyResult<u64> {
    let shown = || value.repr().map(|r| r.to_string()).unwrap_or_else(|_| "?".into());
    if value.is_instance_of::<PyBool>() || !value.is_instance_of::<PyInt>() {
        return Err(invalid(param, shown(), format!("an int >= 0 (got {})", type_name(value))));
    }
    value.extract::<u64>().map_err(|_| invalid(param, shown(), "an int in [0, 2**64 - 1]"))
}

/// An integer argument within `[min, max]`.
pub fn bounded_arg(value: &Bound<'_, PyAny>, param: &str, min: u64, max: u64) -> PyResult<u64> {
    let n = u64_arg(value, param).map_err(|_| {
        invalid(param, value.repr().map(|r| r.to_string()).unwrap_or_default(), format!("an int in [{min}, {max}]"))
    })?;
    if n < min || n > max {
        return Err(invalid(param, n, format!("an int in [{min}, {max}]")));
    }
    Ok(n)
}

fn type_name(value: &Bound<'_, PyAny>) -> String {
    value.get_type().name().map(|n| n.to_string()).unwrap_or_else(|_| "?".into())
}

/// The transport options every client takes (`timeout`, `connect_timeout`, `max_retries`,
/// `backoff`, `max_backoff`, `retry_budget`, `headers`), checked.
#[allow(clippy::too_many_arguments)]
pub fn transport_config(
    timeout: f64,
    connect_timeout: f64,
    max_retries: Option<&Bound<'_, PyAny>>,
    backoff: f64,
    max_backoff: f64,
    retry_budget: f64,
    headers: Option<std::collections::HashMap<String, String>>,
) -> PyResult<crate::transport::TransportConfig> {
    use super::errors::to_py;
    use crate::transport::config::seconds;
    let defaults = crate::transport::TransportConfig::default();
    Ok(crate::transport::TransportConfig {
        timeout: seconds("timeout", timeout, false).map_err(to_py)?,
        connect_timeout: seconds("connect_timeout", connect_timeout, false).map_err(to_py)?,
        max_retries: match max_retries {
            Some(n) => bounded_arg(n, "max_retries", 0, 100)? as u32,
            None => defaults.max_retries,
        },
        backoff: seconds("backoff", backoff, true).map_err(to_py)?,
        max_backoff: seconds("max_backoff", max_backoff, true).map_err(to_py)?,
        retry_budget: seconds("retry_budget", retry_budget, true).map_err(to_py)?,
        headers: headers.unwrap_or_default().into_iter().collect(),
        ..defaults
    })
}
