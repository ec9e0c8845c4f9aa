//! The Python face of the in-process emulator.

use std::collections::HashMap;
use std::time::Duration;

use pyo3::prelude::*;
use pyo3::types::{IntoPyDict, PyDict, PyFloat, PyInt, PyMapping, PyTuple};

use super::args::u64_arg;
use super::convert::container_dict;
use super::errors::{invalid, to_py};
use super::wait::wait_raw;
use crate::emulator::{Emulator, EmulatorConfig, FaultError, FaultKind, FaultPlan};
use crate::index::IndexPath;
use crate::transport::config::seconds as to_duration;

/// The offline emulator of the services, served in-process on a loopback port.
///
/// Containers are a pure function of ``seed`` and their index, so large indexes cost no memory.
/// ``containers`` is the initial count per index path (one int for all, or a dict by path);
/// ``tip_rate`` adds that many containers per second to every path; ``latency`` (seconds) is
/// added to every request. Use as a context manager, or call ``close()``.
///
/// Fault injection: ``faults`` maps kind names (``"502"``, ``"reset"``, ``"short_batch"``, ...) to
/// a rate per request in ``[0, 1]``; ``fault_seed`` makes the same requests fault on every run;
/// ``fault_options`` sets sizes and timings (``retry_after``, ``lag``, ``oversized_bytes``,
/// ``gzip_bomb_bytes``, ``slow_body_pause``).
#[pyclass(frozen, name = "Emulator", module = "avax_data._native")]
pub struct PyEmulator {
    emulator: Emulator,
}

fn path_arg(path: &str) -> PyResult<IndexPath> {
    IndexPath::parse(path).map_err(to_py)
}

#[pymethods]
impl PyEmulator {
    #[new]
    #[pyo3(signature = (*, seed=0, containers=None, tip_rate=0.0, index_enabled=true, latency=0.0, host="127.0.0.1".to_string(), port=0, utc_offset_minutes=0, data_blocks_per_chain=None, data_api_require_key=false, data_api_refused_keys=None, rate_limit=None, faults=None, fault_seed=0, fault_options=None))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        seed: u64,
        containers: Option<&Bound<'_, PyAny>>,
        tip_rate: f64,
        index_enabled: bool,
        latency: f64,
        host: String,
        port: u16,
        utc_offset_minutes: i32,
        data_blocks_per_chain: Option<&Bound<'_, PyAny>>,
        data_api_require_key: bool,
        data_api_refused_keys: Option<Vec<String>>,
        rate_limit: Option<(u32, f64)>,
        faults: Option<&Bound<'_, PyAny>>,
        fault_seed: u64,
        fault_options: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Self> {
        let mut config =
            EmulatorConfig { seed, index_enabled, host, port, utc_offset_minutes, ..EmulatorConfig::default() };
        if let Some(n) = data_blocks_per_chain {
            config.data_blocks_per_chain = crate::python::args::bounded_arg(n, "data_blocks_per_chain", 1, u64::MAX)?;
        }
        config.data_api_require_key = data_api_require_key;
        config.data_api_refused_keys = data_api_refused_keys.unwrap_or_default();
        config.rate_limit = rate_limit.map(rate_limit_arg).transpose()?;
        config.faults = fault_plan(faults, fault_seed, fault_options)?;
        if !(tip_rate.is_finite() && tip_rate >= 0.0) {
            return Err(invalid("tip_rate", tip_rate, "a finite number of containers per second >= 0"));
        }
        config.tip_rate = tip_rate;
        config.latency = to_duration("latency", latency, true).map_err(to_py)?;
        if !(-24 * 60 < utc_offset_minutes && utc_offset_minutes < 24 * 60) {
            return Err(invalid("utc_offset_minutes", utc_offset_minutes, "minutes in (-1440, 1440)"));
        }
        match containers {
            None => {}
            Some(n) if n.is_instance_of::<PyInt>() => config.default_count = u64_arg(n, "containers")?,
            Some(map) => {
                let map = map.cast::<PyMapping>().map_err(|_| {
                    invalid(
                        "containers",
                        map.repr().map(|r| r.to_string()).unwrap_or_default(),
                        "an int or a dict of path -> int",
                    )
                })?;
                let mut counts = HashMap::new();
                for item in map.items()?.iter() {
                    let (key, value): (String, Bound<'_, PyAny>) = item.extract()?;
                    counts.insert(path_arg(&key)?, u64_arg(&value, "containers")?);
                }
                config.containers = counts;
            }
        }
        let emulator = wait_raw(py, Emulator::start(config))?
            .map_err(|e| pyo3::exceptions::PyOSError::new_err(format!("the emulator could not listen: {e}")))?;
        Ok(PyEmulator { emulator })
    }

    /// Data API: move the emulator clock forward by ``seconds`` (page tokens expire after 24 h
    /// of this clock).
    fn advance_clock(&self, seconds: f64) -> PyResult<()> {
        self.emulator.advance_clock(to_duration("seconds", seconds, true).map_err(to_py)?);
        Ok(())
    }

    /// Data API: set (``(limit, window_seconds)``) or remove (``None``) the per-key rate limit.
    #[pyo3(signature = (rate_limit=None))]
    fn set_rate_limit(&self, rate_limit: Option<(u32, f64)>) -> PyResult<()> {
        self.emulator.set_rate_limit(rate_limit.map(rate_limit_arg).transpose()?);
        Ok(())
    }

    /// Data API: answer 401 to requests without an API key (or stop doing so).
    fn set_data_api_require_key(&self, require: bool) {
        self.emulator.set_data_api_require_key(require);
    }

    /// Data API: the API keys answered with 403.
    fn set_data_api_refused_keys(&self, keys: Vec<String>) {
        self.emulator.set_data_api_refused_keys(&keys);
    }

    /// ``http://host:port`` of the running emulator.
    #[getter]
    fn url(&self) -> String {
        self.emulator.url()
    }

    /// The port it listens on.
    #[getter]
    fn port(&self) -> u16 {
        self.emulator.port()
    }

    /// How many containers the index path holds now.
    fn container_count(&self, path: &str) -> PyResult<u64> {
        Ok(self.emulator.container_count(path_arg(path)?))
    }

    /// Accept ``n`` more containers on ``path``; returns the new count.
    #[pyo3(signature = (path, n=None))]
    fn advance(&self, path: &str, n: Option<&Bound<'_, PyAny>>) -> PyResult<u64> {
        let n = n.map(|n| u64_arg(n, "n")).transpose()?.unwrap_or(1);
        Ok(self.emulator.advance(path_arg(path)?, n))
    }

    /// Serve (or stop serving, with HTTP 404) the index paths.
    fn set_index_enabled(&self, enabled: bool) {
        self.emulator.set_index_enabled(enabled);
    }

    /// Delay every later response by ``seconds``.
    fn set_latency(&self, seconds: f64) -> PyResult<()> {
        let latency: Duration = to_duration("seconds", seconds, true).map_err(to_py)?;
        self.emulator.set_latency(latency);
        Ok(())
    }

    /// The container the emulator serves at ``index`` (no network), for comparisons in tests.
    fn expected_container<'py>(
        &self,
        py: Python<'py>,
        path: &str,
        index: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let path = path_arg(path)?;
        let index = u64_arg(index, "index")?;
        let (container, _) = self.emulator.expected_container(path, index).ok_or_else(|| {
            invalid(
                "index",
                index,
                format!("an index below the tip ({} containers on {path})", self.emulator.container_count(path)),
            )
        })?;
        container_dict(py, &container)
    }

    /// Requests served so far (all paths).
    fn request_count(&self) -> u64 {
        self.emulator.request_count()
    }

    /// Replace the fault plan: ``faults`` (kind -> rate in ``[0, 1]``; ``None`` or ``{}`` turns
    /// faults off), ``fault_seed`` and ``fault_options``. Decisions restart from the seed's first
    /// request; counters and the request log are kept.
    #[pyo3(signature = (faults=None, fault_seed=0, fault_options=None))]
    fn set_faults(
        &self,
        faults: Option<&Bound<'_, PyAny>>,
        fault_seed: u64,
        fault_options: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<()> {
        self.emulator.set_faults(fault_plan(faults, fault_seed, fault_options)?);
        Ok(())
    }

    /// The fault rates in force: kind -> rate (kinds at 0 left out).
    fn faults<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        self.emulator.faults().rates().into_iter().map(|(kind, rate)| (kind.name(), rate)).into_py_dict(py)
    }

    /// The seed of the fault decisions in force.
    #[getter]
    fn fault_seed(&self) -> u64 {
        self.emulator.faults().seed
    }

    /// Faults injected so far: kind -> count (kinds never injected left out).
    fn fault_counts<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        self.emulator.fault_counts().into_iter().map(|(kind, n)| (kind.name(), n)).into_py_dict(py)
    }

    /// Faults injected so far by kind and URL path: ``(kind, path)`` -> count.
    fn fault_counts_by_path<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let counts = self.emulator.fault_counts_by_path();
        counts.into_iter().map(|((kind, path), n)| ((kind.name(), path), n)).into_py_dict(py)
    }

    /// Every request received, oldest first, as ``(seconds since start, path)``; with
    /// ``with_status=True`` as ``(seconds since start, path, status)``, the status answered
    /// (``None`` while the request is being served).
    #[pyo3(signature = (*, with_status=false))]
    fn request_log<'py>(&self, py: Python<'py>, with_status: bool) -> PyResult<Vec<Bound<'py, PyTuple>>> {
        let log = self.emulator.request_log().into_iter();
        if with_status {
            log.map(|r| (r.time_s, r.path, r.status).into_pyobject(py)).collect()
        } else {
            log.map(|r| (r.time_s, r.path).into_pyobject(py)).collect()
        }
    }

    /// ``http://host:port`` of the emulator's second listener: the other origin that
    /// ``redirect_cross_origin`` faults point to (it serves the same services).
    #[getter]
    fn second_url(&self) -> String {
        self.emulator.second_url()
    }

    /// Stop serving.
    fn close(&self) {
        self.emulator.shutdown();
    }

    fn __enter__(slf: Py<Self>) -> Py<Self> {
        slf
    }

    #[pyo3(signature = (*_exc))]
    fn __exit__(&self, _exc: &Bound<'_, pyo3::types::PyTuple>) {
        self.emulator.shutdown();
    }

    fn __repr__(&self) -> String {
        format!("Emulator({:?})", self.emulator.url())
    }
}

fn fault_error(err: FaultError) -> PyErr {
    invalid(err.parameter, err.value, err.expected)
}

/// A rate or option value: a real number (bools refused).
fn number_arg(value: &Bound<'_, PyAny>, param: &str, key: &str) -> PyResult<f64> {
    let is_bool = value.is_instance_of::<pyo3::types::PyBool>();
    if (value.is_instance_of::<PyInt>() && !is_bool) || value.is_instance_of::<PyFloat>() {
        return value.extract::<f64>();
    }
    let shown = value.repr().map(|r| r.to_string()).unwrap_or_default();
    Err(invalid(param, format!("{key}={shown}"), "a number"))
}

/// The items of a ``str -> number`` mapping argument.
fn number_items(map: &Bound<'_, PyAny>, param: &str) -> PyResult<Vec<(String, f64)>> {
    let shown = || map.repr().map(|r| r.to_string()).unwrap_or_default();
    let mapping = map.cast::<PyMapping>().map_err(|_| invalid(param, shown(), "a dict of name -> number"))?;
    let mut items = Vec::new();
    for item in mapping.items()?.iter() {
        let (key, value): (Bound<'_, PyAny>, Bound<'_, PyAny>) = item.extract()?;
        let key: String = key.extract().map_err(|_| invalid(param, shown(), "a dict with str keys"))?;
        let value = number_arg(&value, param, &key)?;
        items.push((key, value));
    }
    Ok(items)
}

/// ``faults`` (kind -> rate), ``fault_seed`` and ``fault_options`` as a plan.
fn fault_plan(faults: Option<&Bound<'_, PyAny>>, seed: u64, options: Option<&Bound<'_, PyAny>>) -> PyResult<FaultPlan> {
    let mut plan = FaultPlan::default();
    plan.seed = seed;
    if let Some(faults) = faults {
        for (name, rate) in number_items(faults, "faults")? {
            let kind = FaultKind::parse(&name).map_err(fault_error)?;
            plan.set_rate(kind, rate).map_err(fault_error)?;
        }
    }
    if let Some(options) = options {
        for (name, value) in number_items(options, "fault_options")? {
            plan.options.set(&name, value).map_err(fault_error)?;
        }
    }
    Ok(plan)
}

/// `(limit, window_seconds)` as the emulator's rate-limit policy.
fn rate_limit_arg((limit, window): (u32, f64)) -> PyResult<crate::emulator::RateLimit> {
    if limit == 0 {
        return Err(invalid("rate_limit", limit, "(limit >= 1, window_seconds > 0)"));
    }
    let window = to_duration("rate_limit", window, false).map_err(to_py)?;
    Ok(crate::emulator::RateLimit { limit, window })
}
