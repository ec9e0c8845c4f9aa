//! Checks of Python arguments, before any request: each failure names the parameter, the value
//! and what is allowed.

use pyo3::prelude::*;
use pyo3::types::{PyBool, PyFloat, PyInt};

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

/// A `True`/`False` argument (`None`: `default`); anything else is an `InvalidParameterError`.
pub fn bool_arg(value: Option<&Bound<'_, PyAny>>, param: &str, default: bool) -> PyResult<bool> {
    match value {
        None => Ok(default),
        Some(v) if v.is_none() => Ok(default),
        Some(v) => match v.cast::<PyBool>() {
            Ok(flag) => Ok(flag.is_true()),
            Err(_) => Err(invalid(param, v.repr().map(|r| r.to_string()).unwrap_or_default(), "True or False")),
        },
    }
}

/// The transport options every client takes (`timeout`, `connect_timeout`, `max_retries`,
/// `backoff`, `max_backoff`, `retry_budget` or `retry`, `headers`, `max_response_bytes`,
/// `ca_bundle`, `danger_accept_invalid_certs`, `follow_cross_origin_redirects`, `rate_limit`,
/// `compute_units_per_minute`), checked.
#[allow(clippy::too_many_arguments)]
pub fn transport_config(
    timeout: f64,
    connect_timeout: f64,
    max_retries: Option<&Bound<'_, PyAny>>,
    backoff: Option<f64>,
    max_backoff: Option<f64>,
    retry_budget: Option<f64>,
    headers: Option<std::collections::HashMap<String, String>>,
    max_response_bytes: Option<&Bound<'_, PyAny>>,
    ca_bundle: Option<&Bound<'_, PyAny>>,
    danger_accept_invalid_certs: Option<&Bound<'_, PyAny>>,
    follow_cross_origin_redirects: Option<&Bound<'_, PyAny>>,
    rate_limit: Option<&Bound<'_, PyAny>>,
    compute_units_per_minute: Option<&Bound<'_, PyAny>>,
    retry: Option<&Bound<'_, PyAny>>,
) -> PyResult<crate::transport::TransportConfig> {
    use super::errors::to_py;
    use crate::transport::config::seconds;
    let defaults = crate::transport::TransportConfig::default();
    let ca_bundle = match ca_bundle.filter(|v| !v.is_none()) {
        None => None,
        Some(v) => Some(v.extract::<std::path::PathBuf>().map_err(|_| {
            invalid(
                "ca_bundle",
                v.repr().map(|r| r.to_string()).unwrap_or_default(),
                "a path (str or os.PathLike) to a PEM file",
            )
        })?),
    };
    let max_retries = max_retries.filter(|v| !v.is_none());
    let retry = match retry.filter(|v| !v.is_none()) {
        Some(policy) => {
            if max_retries.is_some() || backoff.is_some() || max_backoff.is_some() || retry_budget.is_some() {
                return Err(invalid(
                    "retry",
                    shown(policy),
                    "a RetryPolicy, or max_retries/backoff/max_backoff/retry_budget, not both",
                ));
            }
            retry_policy_arg(policy)?
        }
        None => {
            let secs = |param: &str, value: Option<f64>, default: std::time::Duration| match value {
                Some(v) => seconds(param, v, true).map_err(to_py),
                None => Ok(default),
            };
            let default = defaults.retry.clone();
            crate::transport::RetryPolicy {
                max_retries: match max_retries {
                    Some(n) => bounded_arg(n, "max_retries", 0, 100)? as u32,
                    None => default.max_retries,
                },
                backoff: secs("backoff", backoff, default.backoff)?,
                max_backoff: secs("max_backoff", max_backoff, default.max_backoff)?,
                retry_budget: secs("retry_budget", retry_budget, default.retry_budget)?,
                ..default
            }
        }
    };
    let rate_limit = match rate_limit.filter(|v| !v.is_none()) {
        None => None,
        Some(v) => {
            let allowed = "a number of requests per second > 0";
            if v.is_instance_of::<PyBool>() || !(v.is_instance_of::<PyInt>() || v.is_instance_of::<PyFloat>()) {
                return Err(invalid("rate_limit", shown(v), format!("{allowed} (got {})", type_name(v))));
            }
            let rate: f64 = v.extract().map_err(|_| invalid("rate_limit", shown(v), allowed))?;
            Some(rate)
        }
    };
    let compute_units_per_minute = match compute_units_per_minute.filter(|v| !v.is_none()) {
        None => None,
        Some(n) => Some(bounded_arg(n, "compute_units_per_minute", 1, u64::from(u32::MAX))? as u32),
    };
    crate::transport::TransportConfig {
        timeout: seconds("timeout", timeout, false).map_err(to_py)?,
        connect_timeout: seconds("connect_timeout", connect_timeout, false).map_err(to_py)?,
        retry,
        rate_limit,
        compute_units_per_minute,
        // From Python every extra header counts as secret: its value is never shown and it is not
        // sent to another origin.
        secret_headers: headers.iter().flatten().map(|(name, _)| name.clone()).collect(),
        headers: headers.unwrap_or_default().into_iter().collect(),
        max_response_bytes: match max_response_bytes.filter(|v| !v.is_none()) {
            Some(n) => bounded_arg(n, "max_response_bytes", 1, u64::MAX)?,
            None => defaults.max_response_bytes,
        },
        ca_bundle,
        danger_accept_invalid_certs: bool_arg(danger_accept_invalid_certs, "danger_accept_invalid_certs", false)?,
        follow_cross_origin_redirects: bool_arg(follow_cross_origin_redirects, "follow_cross_origin_redirects", false)?,
        ..defaults
    }
    .checked()
    .map_err(to_py)
}

fn shown(value: &Bound<'_, PyAny>) -> String {
    value.repr().map(|r| r.to_string()).unwrap_or_else(|_| "?".into())
}

fn retry_policy_class(py: Python<'_>) -> PyResult<Bound<'_, PyAny>> {
    py.import("avax_data.retry")?.getattr("RetryPolicy")
}

/// The `retry=` argument: an `avax_data.RetryPolicy` (checked when it was made), read by
/// attribute.
fn retry_policy_arg(policy: &Bound<'_, PyAny>) -> PyResult<crate::transport::RetryPolicy> {
    if !policy.is_instance(&retry_policy_class(policy.py())?)? {
        return Err(invalid("retry", shown(policy), format!("an avax_data.RetryPolicy (got {})", type_name(policy))));
    }
    let secs = |name: &str| -> PyResult<std::time::Duration> {
        let value: f64 = policy.getattr(name)?.extract()?;
        crate::transport::config::seconds(name, value, true).map_err(super::errors::to_py)
    };
    Ok(crate::transport::RetryPolicy {
        max_retries: policy.getattr("max_retries")?.extract()?,
        backoff: secs("backoff")?,
        max_backoff: secs("max_backoff")?,
        jitter: policy.getattr("jitter")?.extract()?,
        retry_budget: secs("retry_budget")?,
        statuses: policy.getattr("statuses")?.extract()?,
    })
}

/// The `retry` property of a client: its policy as an `avax_data.RetryPolicy`.
pub fn retry_policy_object<'py>(
    py: Python<'py>,
    policy: &crate::transport::RetryPolicy,
) -> PyResult<Bound<'py, PyAny>> {
    let kwargs = pyo3::types::PyDict::new(py);
    kwargs.set_item("max_retries", policy.max_retries)?;
    kwargs.set_item("backoff", policy.backoff.as_secs_f64())?;
    kwargs.set_item("max_backoff", policy.max_backoff.as_secs_f64())?;
    kwargs.set_item("jitter", policy.jitter)?;
    kwargs.set_item("retry_budget", policy.retry_budget.as_secs_f64())?;
    kwargs.set_item("statuses", pyo3::types::PyTuple::new(py, &policy.statuses)?)?;
    retry_policy_class(py)?.call((), Some(&kwargs))
}

/// The `decode=` argument: `False` (or `None`) for raw containers, `True` for decoded rows with a
/// `decode_error` column, `"strict"` to raise on the first container that does not decode.
pub fn decode_arg(value: &Bound<'_, PyAny>) -> PyResult<Option<crate::arrow::decoded::DecodeMode>> {
    use crate::arrow::decoded::DecodeMode;
    if value.is_none() {
        return Ok(None);
    }
    if let Ok(flag) = value.cast::<PyBool>() {
        return Ok(flag.is_true().then_some(DecodeMode::Lenient));
    }
    if let Ok(text) = value.extract::<String>() {
        if text == "strict" {
            return Ok(Some(DecodeMode::Strict));
        }
    }
    Err(invalid("decode", value.repr().map(|r| r.to_string()).unwrap_or_default(), "True, False or 'strict'"))
}
