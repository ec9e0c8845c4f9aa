//! Checks of Python arguments, before any request: a wrong type or value is an
//! `InvalidParameterError` (a `ValueError`) naming the parameter, the value and what is allowed.
//! Only the Python type is checked here; allowed ranges live in the core's `params` modules.

use std::path::PathBuf;
use std::time::Duration;

use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyFloat, PyInt, PyString};

use super::errors::invalid;
use avax_data_core::arrow::decoded::DecodeMode;
use avax_data_core::transport::config::seconds;
use avax_data_core::transport::{RetryPolicy, TransportConfig};

/// How a value is shown in an error: its `repr`.
pub fn shown(value: &Bound<'_, PyAny>) -> String {
    value.repr().map(|r| r.to_string()).unwrap_or_else(|_| "?".into())
}

fn type_name(value: &Bound<'_, PyAny>) -> String {
    value.get_type().name().map(|n| n.to_string()).unwrap_or_else(|_| "?".into())
}

/// An unsigned 64-bit integer argument (a Python `int`, not a `bool`, not a float).
pub fn u64_arg(value: &Bound<'_, PyAny>, param: &str) -> PyResult<u64> {
    if value.is_instance_of::<PyBool>() || !value.is_instance_of::<PyInt>() {
        return Err(invalid(param, shown(value), format!("an int >= 0 (got {})", type_name(value))));
    }
    value.extract::<u64>().map_err(|_| invalid(param, shown(value), "an int in [0, 2**64 - 1]"))
}

/// An integer argument within `[min, max]`.
pub fn bounded_arg(value: &Bound<'_, PyAny>, param: &str, min: u64, max: u64) -> PyResult<u64> {
    let n = u64_arg(value, param).map_err(|_| invalid(param, shown(value), format!("an int in [{min}, {max}]")))?;
    if n < min || n > max {
        return Err(invalid(param, n, format!("an int in [{min}, {max}]")));
    }
    Ok(n)
}

/// An optional integer within `[min, max]` (`None` stays `None`).
pub fn opt_bounded(value: Option<&Bound<'_, PyAny>>, param: &str, min: u64, max: u64) -> PyResult<Option<u64>> {
    value.filter(|v| !v.is_none()).map(|v| bounded_arg(v, param, min, max)).transpose()
}

/// `True` or `False`.
pub fn bool_arg(value: &Bound<'_, PyAny>, param: &str) -> PyResult<bool> {
    value.cast::<PyBool>().map(|b| b.is_true()).map_err(|_| invalid(param, shown(value), "True or False"))
}

/// A number (`int` or `float`, not `bool`).
pub fn number_arg(value: &Bound<'_, PyAny>, param: &str, what: &str) -> PyResult<f64> {
    let numeric =
        (value.is_instance_of::<PyInt>() || value.is_instance_of::<PyFloat>()) && !value.is_instance_of::<PyBool>();
    if !numeric {
        return Err(invalid(param, shown(value), what));
    }
    value.extract::<f64>().map_err(|_| invalid(param, shown(value), what))
}

/// A `str` argument.
pub fn str_arg(value: &Bound<'_, PyAny>, param: &str, what: &str) -> PyResult<String> {
    value.cast::<PyString>().map(|s| s.to_string()).map_err(|_| invalid(param, shown(value), what))
}

/// An optional `str` argument (`None` stays `None`).
pub fn opt_str(value: Option<&Bound<'_, PyAny>>, param: &str, what: &str) -> PyResult<Option<String>> {
    value.filter(|v| !v.is_none()).map(|v| str_arg(v, param, what)).transpose()
}

/// A list given as a Python list/tuple of `str` or as a comma-separated `str`.
pub fn list_arg(value: Option<&Bound<'_, PyAny>>, param: &str) -> PyResult<Vec<String>> {
    const WHAT: &str = "a list of str or a comma-separated str";
    let Some(value) = value.filter(|v| !v.is_none()) else { return Ok(Vec::new()) };
    if let Ok(s) = value.cast::<PyString>() {
        return Ok(avax_data_core::data::params::split_list(&s.to_string()));
    }
    let items: Vec<Bound<'_, PyAny>> =
        value.try_iter().map_err(|_| invalid(param, shown(value), WHAT))?.collect::<PyResult<_>>()?;
    items.iter().map(|i| str_arg(i, param, WHAT).map(|s| s.trim().to_string())).collect()
}

/// `limit=`: an int >= 0 or `None`.
pub fn limit_arg(limit: Option<&Bound<'_, PyAny>>) -> PyResult<Option<u64>> {
    limit.filter(|v| !v.is_none()).map(|l| u64_arg(l, "limit")).transpose()
}

/// `page_token=`: a token from `next_page_token`, or `None`.
pub fn page_token_arg(value: Option<&Bound<'_, PyAny>>) -> PyResult<Option<String>> {
    opt_str(value, "page_token", "a page token (str) from next_page_token")
}

/// The `decode=` argument: `False` (or `None`) for raw containers, `True` for decoded rows with a
/// `decode_error` column, `"strict"` to raise on the first container that does not decode,
/// `"senders"` for decoded `C/block` rows whose transactions carry their sender (the core's
/// [`DecodeMode::parse`] names the values allowed).
pub fn decode_arg(value: &Bound<'_, PyAny>) -> PyResult<Option<DecodeMode>> {
    if value.is_none() {
        return Ok(None);
    }
    if let Ok(flag) = value.cast::<PyBool>() {
        return Ok(flag.is_true().then_some(DecodeMode::Lenient));
    }
    match value.cast::<PyString>().ok().and_then(|s| s.to_str().ok().map(str::to_string)) {
        Some(text) => DecodeMode::parse(&text).map(Some).map_err(crate::errors::to_py),
        None => Err(invalid("decode", shown(value), avax_data_core::arrow::decoded::frame::DECODE_VALUES)),
    }
}

// ---- client options (`from_py_with` extractors: each names its parameter) ----

fn seconds_arg(value: &Bound<'_, PyAny>, param: &str, allow_zero: bool) -> PyResult<f64> {
    let what = if allow_zero { "a finite number of seconds >= 0" } else { "a finite number of seconds > 0" };
    let n = number_arg(value, param, what)?;
    seconds(param, n, allow_zero).map_err(crate::errors::to_py)?;
    Ok(n)
}

/// Seconds as a [`Duration`], checked as [`seconds_arg`] does.
fn duration_arg(value: &Bound<'_, PyAny>, param: &str, allow_zero: bool) -> PyResult<Duration> {
    seconds_arg(value, param, allow_zero).map(Duration::from_secs_f64)
}

/// Most range calls in flight a user may ask for (the core's limit).
pub const MAX_CONCURRENCY: u64 = avax_data_core::settings::MAX_CONCURRENCY as u64;

/// `from_py_with` extractors, one per parameter name: each checks its value and names the
/// parameter in its error.
macro_rules! extractors {
    ($($(#[doc = $doc:expr])* $name:ident -> $ty:ty = $check:expr;)*) => {
        $(
            $(#[doc = $doc])*
            pub fn $name(value: &Bound<'_, PyAny>) -> PyResult<$ty> {
                let check: fn(&Bound<'_, PyAny>, &str) -> PyResult<$ty> = $check;
                check(value, stringify!($name))
            }
        )*
    };
}

extractors! {
    /// `timeout=`: seconds > 0.
    timeout -> f64 = |v, p| seconds_arg(v, p, false);
    /// `connect_timeout=`: seconds > 0.
    connect_timeout -> f64 = |v, p| seconds_arg(v, p, false);
    /// `backoff=`: seconds >= 0, or `None` for the retry policy's default.
    backoff -> Option<Duration> = |v, p| or_none(v, |v| duration_arg(v, p, true));
    /// `max_backoff=`: seconds >= 0, or `None`.
    max_backoff -> Option<Duration> = |v, p| or_none(v, |v| duration_arg(v, p, true));
    /// `retry_budget=`: seconds >= 0, or `None`.
    retry_budget -> Option<Duration> = |v, p| or_none(v, |v| duration_arg(v, p, true));
    /// `rate_limit=`: requests per second > 0, or `None` for no limit.
    rate_limit -> Option<f64> = |v, p| or_none(v, |v| {
        let what = "a number of requests per second > 0 (at most 1e9), or None";
        let rate = number_arg(v, p, what)?;
        if rate.is_finite() && rate > 0.0 && rate <= avax_data_core::transport::config::MAX_RATE_LIMIT {
            Ok(rate)
        } else {
            Err(invalid(p, shown(v), what))
        }
    });
    /// `compute_units_per_minute=`: an int >= 1, or `None` for no budget.
    compute_units_per_minute -> Option<u32> = |v, p| or_none(v, |v| Ok(bounded_arg(v, p, 1, u64::from(u32::MAX))? as u32));
    /// `retry=`: an `avax_data.RetryPolicy`, or `None`.
    retry -> Option<RetryPolicy> = |v, p| or_none(v, |v| retry_policy_arg(v, p));
    /// `poll_interval=`: seconds > 0.
    poll_interval -> f64 = |v, p| seconds_arg(v, p, false);
    /// `max_poll_interval=`: seconds > 0.
    max_poll_interval -> f64 = |v, p| seconds_arg(v, p, false);
    /// `max_retries=`: an int in [0, 100], or `None`.
    max_retries -> Option<u32> = |v, p| or_none(v, |v| Ok(bounded_arg(v, p, 0, 100)? as u32));
    /// `max_response_bytes=`: an int >= 1.
    max_response_bytes -> u64 = |v, p| bounded_arg(v, p, 1, u64::MAX);
    /// `start=` of a range: an int >= 0.
    start -> u64 = u64_arg;
    /// `batch_size=`: an int in [1, 1024].
    batch_size -> u64 = |v, p| bounded_arg(v, p, 1, avax_data_core::index::MAX_RANGE);
    /// `concurrency=`: an int in [1, 64].
    concurrency -> usize = |v, p| Ok(bounded_arg(v, p, 1, MAX_CONCURRENCY)? as usize);
    /// `verify_ids=`: `True` or `False`.
    verify_ids -> bool = bool_arg;
    /// `danger_accept_invalid_certs=`: `True` or `False`.
    danger_accept_invalid_certs -> bool = bool_arg;
    /// `follow_cross_origin_redirects=`: `True` or `False`.
    follow_cross_origin_redirects -> bool = bool_arg;
    /// `chunk=` of a dataset: positions per partition, an int >= 1.
    chunk -> u64 = |v, p| bounded_arg(v, p, 1, u64::MAX);
    /// `row_group_size=`: rows per Parquet row group, an int >= 1.
    row_group_size -> u64 = |v, p| bounded_arg(v, p, 1, 1 << 30);
    /// `seed=` of the emulator: an int >= 0.
    seed -> u64 = u64_arg;
    /// `fault_seed=` of the emulator: an int >= 0.
    fault_seed -> u64 = u64_arg;
    /// `tip_rate=` of the emulator: containers per second, a finite number >= 0.
    tip_rate -> f64 = |v, p| {
        let what = "a finite number of containers per second >= 0";
        let rate = number_arg(v, p, what)?;
        if rate.is_finite() && rate >= 0.0 { Ok(rate) } else { Err(invalid(p, shown(v), what)) }
    };
    /// `latency=` of the emulator: seconds >= 0.
    latency -> f64 = |v, p| seconds_arg(v, p, true);
    /// `port=` of the emulator: an int in [0, 65535] (0: any free port).
    port -> u16 = |v, p| Ok(bounded_arg(v, p, 0, u64::from(u16::MAX))? as u16);
    /// `utc_offset_minutes=` of the emulator: an int in (-1440, 1440).
    utc_offset_minutes -> i32 = |v, p| {
        let what = "an int of minutes in (-1440, 1440)";
        if v.is_instance_of::<PyBool>() || !v.is_instance_of::<PyInt>() {
            return Err(invalid(p, shown(v), what));
        }
        match v.extract::<i32>() {
            Ok(m) if -24 * 60 < m && m < 24 * 60 => Ok(m),
            _ => Err(invalid(p, shown(v), what)),
        }
    };
    /// `index_enabled=` of the emulator: `True` or `False`.
    index_enabled -> bool = bool_arg;
    /// `data_api_require_key=` of the emulator: `True` or `False`.
    data_api_require_key -> bool = bool_arg;
    /// `data_api_refused_keys=` of the emulator: a list of str, or `None`.
    data_api_refused_keys -> Option<Vec<String>> = |v, p| or_none(v, |v| list_arg(Some(v), p));
    /// `url=`: a str or `None`.
    url -> Option<String> = opt_string;
    /// `base_url=`: a str or `None`.
    base_url -> Option<String> = opt_string;
}

/// `None` as `None`, anything else through `check`.
fn or_none<T>(value: &Bound<'_, PyAny>, check: impl FnOnce(&Bound<'_, PyAny>) -> PyResult<T>) -> PyResult<Option<T>> {
    if value.is_none() {
        Ok(None)
    } else {
        check(value).map(Some)
    }
}

fn retry_policy_class(py: Python<'_>) -> PyResult<Bound<'_, PyAny>> {
    py.import("avax_data.retry")?.getattr("RetryPolicy")
}

/// The `retry=` argument: an `avax_data.RetryPolicy` (checked when it was made), read by
/// attribute.
fn retry_policy_arg(policy: &Bound<'_, PyAny>, param: &str) -> PyResult<RetryPolicy> {
    if !policy.is_instance(&retry_policy_class(policy.py())?)? {
        return Err(invalid(param, shown(policy), format!("an avax_data.RetryPolicy (got {})", type_name(policy))));
    }
    let secs = |name: &str| -> PyResult<Duration> {
        let value: f64 = policy.getattr(name)?.extract()?;
        seconds(name, value, true).map_err(crate::errors::to_py)
    };
    Ok(RetryPolicy {
        max_retries: policy.getattr("max_retries")?.extract()?,
        backoff: secs("backoff")?,
        max_backoff: secs("max_backoff")?,
        jitter: policy.getattr("jitter")?.extract()?,
        retry_budget: secs("retry_budget")?,
        statuses: policy.getattr("statuses")?.extract()?,
    })
}

/// The `retry` property of a client: its policy as an `avax_data.RetryPolicy`.
pub fn retry_policy_object<'py>(py: Python<'py>, policy: &RetryPolicy) -> PyResult<Bound<'py, PyAny>> {
    let kwargs = PyDict::new(py);
    kwargs.set_item("max_retries", policy.max_retries)?;
    kwargs.set_item("backoff", policy.backoff.as_secs_f64())?;
    kwargs.set_item("max_backoff", policy.max_backoff.as_secs_f64())?;
    kwargs.set_item("jitter", policy.jitter)?;
    kwargs.set_item("retry_budget", policy.retry_budget.as_secs_f64())?;
    kwargs.set_item("statuses", pyo3::types::PyTuple::new(py, &policy.statuses)?)?;
    retry_policy_class(py)?.call((), Some(&kwargs))
}

/// `headers=`: a dict of str to str, or `None`.
pub fn headers(value: &Bound<'_, PyAny>) -> PyResult<Option<Vec<(String, String)>>> {
    const WHAT: &str = "a dict of str header names to str values";
    if value.is_none() {
        return Ok(None);
    }
    let dict = value.cast::<PyDict>().map_err(|_| invalid("headers", shown(value), WHAT))?;
    let mut out = Vec::with_capacity(dict.len());
    for (name, v) in dict.iter() {
        let name = str_arg(&name, "headers", WHAT)?;
        // The value is a secret: it is never shown, not even in this error.
        let v = v.cast::<PyString>().map_err(|_| invalid("headers", format!("{{{name:?}: ...}}"), WHAT))?;
        out.push((name, v.to_string()));
    }
    Ok(Some(out))
}

/// `ca_bundle=`: a path (str or os.PathLike) to a PEM file, or `None`.
pub fn ca_bundle(value: &Bound<'_, PyAny>) -> PyResult<Option<PathBuf>> {
    if value.is_none() {
        return Ok(None);
    }
    if value.is_instance_of::<PyBool>() || value.is_instance_of::<PyInt>() {
        return Err(invalid("ca_bundle", shown(value), "a path (str or os.PathLike) to a PEM file"));
    }
    value
        .extract::<PathBuf>()
        .map(Some)
        .map_err(|_| invalid("ca_bundle", shown(value), "a path (str or os.PathLike) to a PEM file"))
}

/// A directory path (str or os.PathLike), e.g. a dataset's.
pub fn dir_path(value: &Bound<'_, PyAny>) -> PyResult<PathBuf> {
    let what = "a directory path (str or os.PathLike)";
    if value.is_instance_of::<PyBool>() || value.is_instance_of::<PyInt>() {
        return Err(invalid("path", shown(value), what));
    }
    value.extract::<PathBuf>().map_err(|_| invalid("path", shown(value), what))
}

/// `compression=` of a Parquet export: a codec name (a str; its value is checked by the core).
pub fn compression<'a>(value: &'a Bound<'_, PyAny>) -> PyResult<&'a str> {
    let what = avax_data_core::arrow::parquet_sink::COMPRESSIONS;
    value.cast::<PyString>().map_err(|_| invalid("compression", shown(value), what))?.to_str()
}

/// `host=` of the emulator: a host name or IP address (str).
pub fn host<'a>(value: &'a Bound<'_, PyAny>) -> PyResult<&'a str> {
    let what = "a host name or IP address (str)";
    value.cast::<PyString>().map_err(|_| invalid("host", shown(value), what))?.to_str()
}

/// The service URL of a client's constructor: `base_url=` (the one name every client takes), or
/// its deprecated name `url=` with a `DeprecationWarning` naming `class`; both at once is refused
/// (neither value shown: a URL may hold credentials).
pub fn service_url(class: &str, base_url: Option<String>, url: Option<String>) -> PyResult<Option<String>> {
    match (base_url, url) {
        (Some(_), Some(_)) => Err(invalid("url", "...", "only one of base_url= and url= (its deprecated name)")),
        (None, Some(url)) => {
            let text = format!(
                "{class}(url=...) is deprecated: use base_url= (every client's name for it) or pass the URL first; \
                 url= goes in the next release"
            );
            Python::attach(|py| crate::warn::deprecation_warning(py, &text))?;
            Ok(Some(url))
        }
        (base_url, None) => Ok(base_url),
    }
}

/// Refuses `url=` on a client that never took it (the Data and Metrics clients), naming the one
/// name every client takes, where pyo3 would only say the keyword is unexpected.
pub fn refuse_url(class: &str, url: Option<String>) -> PyResult<()> {
    match url {
        None => Ok(()),
        Some(_) => Err(pyo3::exceptions::PyTypeError::new_err(format!(
            "{class}() takes the service URL as base_url= (or first), not url="
        ))),
    }
}

/// Warns that `class.url` is deprecated (its name is `base_url`, as on every client).
pub fn deprecated_url_getter(py: Python<'_>, class: &str) -> PyResult<()> {
    crate::warn::deprecation_warning(
        py,
        &format!("{class}.url is deprecated: use .base_url (it goes in the next release)"),
    )
}

/// An optional `str` option (`url`, `base_url`, `api_key`): `None` or a str.
fn opt_string(value: &Bound<'_, PyAny>, param: &str) -> PyResult<Option<String>> {
    if value.is_none() {
        return Ok(None);
    }
    str_arg(value, param, "a str or None").map(Some)
}

/// `api_key=`: a str or `None`.
pub fn api_key(value: &Bound<'_, PyAny>) -> PyResult<Option<String>> {
    if value.is_none() {
        return Ok(None);
    }
    // The key is a secret: never shown, not even in this error.
    value.cast::<PyString>().map(|s| Some(s.to_string())).map_err(|_| invalid("api_key", "...", "a str or None"))
}

/// The core's transport configuration from the options as given: the retry overrides applied
/// to `retry=` (both at once is refused), checked. Every header given from Python counts as
/// secret: its value is never shown and it is not sent to another origin.
pub fn transport_config(
    config: TransportConfig,
    overrides: avax_data_core::settings::RetryOverrides,
    retry: Option<RetryPolicy>,
) -> PyResult<TransportConfig> {
    let retry = overrides.resolve(retry).map_err(crate::errors::to_py)?;
    let secret_headers = config.headers.iter().map(|(name, _)| name.clone()).collect();
    TransportConfig { retry, secret_headers, ..config }.checked().map_err(crate::errors::to_py)
}

/// Stamps a client class and its async twin whose constructor takes the client's own
/// arguments followed by the transport options shared by every client, with `close()`, the
/// `repr`s, the getter of the URL (`base_url`, every client's name for it, documented by the doc
/// comments before `url`, which names the core client's accessor) and the context
/// manager of each side (written once here). The class names, aliases, state and `raw`
/// methods are handed to [`crate::mode::twins!`] as given. The state must hold a
/// `client` with `close()`, `is_closed()`, `retry_policy()` and the URL accessor named after
/// `url`. With `operations Client;` the class also gets the generic calls of the service's
/// operations (`_call_list`, `_call_object`; see [`crate::endpoint_calls`]).
macro_rules! client_twins {
    (
        $(#[doc = $sync_doc:expr])*
        sync $Sync:ident($sync_name:literal) { $($sync_aliases:tt)* }
        $(#[doc = $async_doc:expr])*
        async $Async:ident($async_name:literal) { $($async_aliases:tt)* }
        state { $($state:tt)* }
        new ($($sig:tt)*) ($($param:ident : $pty:ty = $extract:path),* $(,)?) |$transport:ident| $build:block
        $(#[doc = $url_doc:expr])*
        url $url:ident;
        $(operations $Client:ty;)?
        shared { $($shared:tt)* }
        $(raw { $($raw:tt)* })?
        sync_only { $($sync_only:tt)* }
        async_only { $($async_only:tt)* }
    ) => {
        $crate::mode::twins! {
            $(#[doc = $sync_doc])*
            sync $Sync($sync_name) { $($sync_aliases)* }
            $(#[doc = $async_doc])*
            async $Async($async_name) { $($async_aliases)* }
            state { $($state)* }
            shared {
                #[new]
                #[pyo3(signature = ($($sig)* timeout = 30.0, connect_timeout = 10.0, max_retries = None, backoff = None,
                    max_backoff = None, retry_budget = None, headers = None, max_response_bytes = 268435456,
                    ca_bundle = None, danger_accept_invalid_certs = false, follow_cross_origin_redirects = false,
                    rate_limit = None, compute_units_per_minute = None, retry = None, tier = None))]
                #[allow(clippy::too_many_arguments)]
                fn new(
                    $(#[pyo3(from_py_with = $extract)] $param: $pty,)*
                    #[pyo3(from_py_with = $crate::args::timeout)] timeout: f64,
                    #[pyo3(from_py_with = $crate::args::connect_timeout)] connect_timeout: f64,
                    #[pyo3(from_py_with = $crate::args::max_retries)] max_retries: Option<u32>,
                    #[pyo3(from_py_with = $crate::args::backoff)] backoff: Option<std::time::Duration>,
                    #[pyo3(from_py_with = $crate::args::max_backoff)] max_backoff: Option<std::time::Duration>,
                    #[pyo3(from_py_with = $crate::args::retry_budget)] retry_budget: Option<std::time::Duration>,
                    #[pyo3(from_py_with = $crate::args::headers)] headers: Option<Vec<(String, String)>>,
                    #[pyo3(from_py_with = $crate::args::max_response_bytes)] max_response_bytes: u64,
                    #[pyo3(from_py_with = $crate::args::ca_bundle)] ca_bundle: Option<std::path::PathBuf>,
                    #[pyo3(from_py_with = $crate::args::danger_accept_invalid_certs)] danger_accept_invalid_certs: bool,
                    #[pyo3(from_py_with = $crate::args::follow_cross_origin_redirects)] follow_cross_origin_redirects: bool,
                    #[pyo3(from_py_with = $crate::args::rate_limit)] rate_limit: Option<f64>,
                    #[pyo3(from_py_with = $crate::args::compute_units_per_minute)] compute_units_per_minute: Option<u32>,
                    #[pyo3(from_py_with = $crate::args::retry)] retry: Option<avax_data_core::transport::RetryPolicy>,
                    #[pyo3(from_py_with = $crate::plan::tier)] tier: Option<avax_data_core::plan::ServiceTier>,
                ) -> PyResult<Self> {
                    $crate::logs::reset();
                    let mut $transport = $crate::args::transport_config(
                        avax_data_core::transport::TransportConfig {
                            timeout: std::time::Duration::from_secs_f64(timeout),
                            connect_timeout: std::time::Duration::from_secs_f64(connect_timeout),
                            headers: headers.unwrap_or_default(),
                            max_response_bytes, ca_bundle, danger_accept_invalid_certs, follow_cross_origin_redirects,
                            rate_limit, compute_units_per_minute,
                            ..Default::default()
                        },
                        avax_data_core::settings::RetryOverrides { max_retries, backoff, max_backoff, retry_budget },
                        retry,
                    )?;
                    $transport.tier = $crate::plan::tier_or_env(tier)?;
                    $build
                }

                $(#[doc = $url_doc])*
                #[getter]
                fn base_url(&self) -> String {
                    self.client.$url().to_string()
                }

                /// The retry policy in force, an :class:`avax_data.RetryPolicy`.
                ///
                /// It is ``retry=`` as given, or the defaults with ``max_retries``, ``backoff``,
                /// ``max_backoff`` and ``retry_budget`` applied.
                ///
                /// Example:
                ///     >>> ad.IndexClient(emu.url, max_retries=1).retry.max_retries
                ///     1
                #[getter]
                fn retry<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
                    $crate::args::retry_policy_object(py, self.client.retry_policy())
                }

                /// Close the client, from any thread.
                ///
                /// Later calls raise ``AvaxDataError("the client is closed")``. Leaving a ``with`` (``async with``) block closes the client too. On an async
                /// client it is awaited: ``await client.close()``.
                ///
                /// Example:
                ///     >>> node = ad.IndexClient(emu.url)
                ///     >>> node.close()
                ///     >>> node
                ///     IndexClient('http://127.0.0.1:...', closed)
                ///     >>> node.chain("X/tx").last_accepted()
                ///     Traceback (most recent call last):
                ///     ...
                ///     avax_data.exceptions.AvaxDataError: the client is closed
                fn close<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
                    self.client.close();
                    // `None`, not `()` (which would reach Python as an empty tuple).
                    <M as $crate::mode::Mode>::run(py, $crate::mode::Call(CLASS_NAME, "close"), async { Ok(None::<()>) })
                }

                /// An HTML table of the client (URL, closed or not, retry policy), which Jupyter shows.
                ///
                /// Example:
                #[doc = concat!("    >>> html = ad.", $sync_name, "(emu.url)._repr_html_()")]
                ///     >>> html.startswith("<table>"), "max_retries" in html
                ///     (True, True)
                fn _repr_html_(&self) -> String {
                    let client = &self.client;
                    let fields = $crate::show::client_fields(client.$url(), client.is_closed(), client.retry_policy());
                    $crate::show::html(CLASS_NAME, &fields)
                }

                fn __repr__(&self) -> String {
                    let closed = if self.client.is_closed() { ", closed" } else { "" };
                    format!("{CLASS_NAME}({}{closed})", $crate::show::py_str(self.client.$url()))
                }
                $(
                /// Calls the list operation ``operation_id`` of the service with ``arguments`` (Python
                /// parameter names), checked against the OpenAPI document before any request; the
                /// generated endpoint methods (e.g. :meth:`erc20_transfers`) call it.
                ///
                /// Args:
                ///     operation_id: a GET operationId of the service's document.
                ///     arguments: dict of Python parameter names to values (``None`` = not given).
                ///     page_token: start from this saved token.
                ///     limit: most items handed out in total; default ``None``: all.
                ///     concurrency: block shards walked side by side for a list with a block
                ///         range (an int in [1, 64]; default ``None``: what the client's budget fills).
                ///
                /// Returns:
                ///     Pager: the items, typed by the operation's schema.
                ///
                /// Raises:
                ///     InvalidParameterError: an unknown operation or a bad argument, before any request.
                ///     AuthenticationError: the operation needs an API key and none is set.
                #[pyo3(signature = (operation_id, arguments, page_token=None, limit=None, concurrency=None))]
                fn _call_list(
                    &self,
                    operation_id: &str,
                    arguments: &Bound<'_, pyo3::types::PyDict>,
                    page_token: Option<&Bound<'_, PyAny>>,
                    limit: Option<&Bound<'_, PyAny>>,
                    concurrency: Option<&Bound<'_, PyAny>>,
                ) -> PyResult<PagerOf> {
                    let pager = $crate::endpoint_calls::list::<$Client>(&self.client, operation_id, arguments, page_token, limit, concurrency)?;
                    Ok(PagerOf { pager })
                }

                /// Calls the object operation ``operation_id`` of the service with ``arguments``
                /// (checked before any request); the generated endpoint methods call it.
                ///
                /// Args:
                ///     operation_id: a GET operationId of the service's document.
                ///     arguments: dict of Python parameter names to values (``None`` = not given).
                ///
                /// Returns:
                ///     dict: the answer, typed by the operation's schema.
                ///
                /// Raises:
                ///     InvalidParameterError: an unknown operation or a bad argument, before any request.
                ///     AuthenticationError: the operation needs an API key and none is set.
                fn _call_object<'py>(
                    &self,
                    py: Python<'py>,
                    operation_id: &str,
                    arguments: &Bound<'py, pyo3::types::PyDict>,
                ) -> PyResult<Bound<'py, PyAny>> {
                    $crate::endpoint_calls::object::<M, $Client>(py, CLASS_NAME, &self.client, operation_id, arguments)
                }
                )?
                $($shared)*
            }
            raw { $($($raw)*)? }
            sync_only {
                fn __enter__(slf: Py<Self>) -> Py<Self> {
                    slf
                }

                #[pyo3(signature = (*_exc))]
                fn __exit__(&self, _exc: &Bound<'_, pyo3::types::PyTuple>) {
                    self.client.close();
                }
                $($sync_only)*
            }
            async_only {
                fn __aenter__<'py>(slf: Py<Self>, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
                    <M as $crate::mode::Mode>::run(py, $crate::mode::Call(CLASS_NAME, "__aenter__"), async move { Ok(slf) })
                }

                #[pyo3(signature = (*_exc))]
                fn __aexit__<'py>(&self, py: Python<'py>, _exc: &Bound<'py, pyo3::types::PyTuple>) -> PyResult<Bound<'py, PyAny>> {
                    self.client.close();
                    // `None`, not `()` (which would reach Python as an empty tuple).
                    <M as $crate::mode::Mode>::run(py, $crate::mode::Call(CLASS_NAME, "__aexit__"), async { Ok(None::<()>) })
                }
                $($async_only)*
            }
        }
    };
}

pub(crate) use client_twins;
