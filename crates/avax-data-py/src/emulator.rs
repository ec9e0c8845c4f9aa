//! The Python face of the in-process emulator.

use std::collections::HashMap;
use std::time::Duration;

use pyo3::prelude::*;
use pyo3::types::{IntoPyDict, PyDict, PyFloat, PyInt, PyMapping, PyTuple};

use super::args::{self, u64_arg};

/// `n=`: an int >= 0.
fn count_arg(value: &Bound<'_, PyAny>) -> PyResult<u64> {
    u64_arg(value, "n")
}
use super::convert::container_dict;
use super::errors::{invalid, to_py};
use super::wait::wait_raw;
use avax_data_core::index::IndexPath;
use avax_data_core::transport::config::seconds as to_duration;
use avax_data_emulator::{Emulator, EmulatorConfig, FaultError, FaultKind, FaultPlan};

/// The offline emulator of the Index RPC, the Data API and the Metrics API.
///
/// It serves them in-process, on a loopback port. Its world is generated from ``seed`` on demand: container ``i`` of a path is a function of
/// the seed and ``i``, so large indexes cost no memory, and the same arguments give the same
/// answers on every run. It answers as the services do, errors included. Point any client at
/// :attr:`url`. Use it as a context manager, or call :meth:`close`.
///
/// Args:
///     seed: the world's seed, an int >= 0; default 0.
///     containers: the initial containers per index path: one int for all, or a dict by path
///         (``{"X/tx": 5_000}``; paths left out keep the default); default ``None``: 10,000.
///     tip_rate: containers added per second to every path, >= 0; default 0.0.
///     index_enabled: serve the index paths; ``False`` answers HTTP 404 as a node without
///         ``--index-enabled``; default ``True``.
///     latency: seconds added to every response, >= 0; default 0.0.
///     host: the address to listen on; default ``"127.0.0.1"``.
///     port: the port, 0 (default) for a free one.
///     utc_offset_minutes: the offset of the node's timestamps, in (-1440, 1440); default 0.
///     data_blocks_per_chain: Data API blocks per EVM chain (also the X-chain vertices per
///         network), an int >= 1; default ``None``: 10,000, as many as ``C/block`` starts with,
///         so the index and the Data API end on the C-Chain's same block, just before the world's
///         now (a ``C/block`` index started longer ends at now, its Data API C-Chain behind it).
///     data_api_require_key: answer 401 to Data API requests without a key; default ``False``.
///     data_api_refused_keys: Data API keys answered with 403; default ``None``.
///     rate_limit: ``(limit, window_seconds)`` per Data API key: the ``ratelimit-*`` headers,
///         and 429 with ``retry-after`` past the limit; default ``None``: no limit.
///     faults: fault kinds to a rate per request in [0, 1]: ``"500"``, ``"502"``, ``"503"``,
///         ``"429"``, ``"reset"``, ``"cut"``, ``"truncated_json"``, ``"malformed_json"``,
///         ``"slow_body"``, ``"rpc_error"``, ``"bad_checksum"``, ``"short_batch"``,
///         ``"lagging_tip"``, ``"repeated_token"``, ``"redirect_same_origin"``,
///         ``"redirect_cross_origin"``, ``"oversized"``, ``"gzip_bomb"``; default ``None``.
///     fault_seed: the seed of the fault decisions: the same requests fault on every run;
///         default 0.
///     fault_options: sizes and timings of the faults: ``retry_after`` (s), ``lag``
///         (containers), ``oversized_bytes``, ``gzip_bomb_bytes``, ``slow_body_pause`` (s);
///         default ``None``.
///
/// Raises:
///     InvalidParameterError: a bad argument (an unknown path or fault kind, a rate outside
///         [0, 1], a negative latency, ...).
///     OSError: it could not listen on ``host``:``port``.
///
/// Example:
///     >>> import avax_data as ad
///     >>> with ad.Emulator(seed=0, containers={"X/tx": 500}) as local:
///     ...     node = ad.IndexClient(local.url)
///     ...     tip = node.chain("X/tx").last_accepted()
///     ...     print(tip["index"], tip == local.expected_container("X/tx", 499))
///     499 True
///
///     Faults make a client's retries and errors testable, the same way on every run:
///
///     >>> faults = {"short_batch": 0.5, "502": 0.1}
///     >>> with ad.Emulator(containers=1_000, faults=faults, fault_seed=7) as flaky:
///     ...     node = ad.IndexClient(flaky.url, backoff=0.01, concurrency=1)
///     ...     rows = node.chain("X/tx").range(0, 1_000, batch_size=100).to_polars()
///     ...     print(rows["index"].to_list() == list(range(1_000)), sorted(flaky.fault_counts().items()))
///     True [('502', 1), ('short_batch', 5)]
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
    #[pyo3(signature = (*, seed=0, containers=None, tip_rate=0.0, index_enabled=true, latency=0.0, host="127.0.0.1", port=0, utc_offset_minutes=0, data_blocks_per_chain=None, data_api_require_key=false, data_api_refused_keys=None, rate_limit=None, faults=None, fault_seed=0, fault_options=None))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        #[pyo3(from_py_with = args::seed)] seed: u64,
        containers: Option<&Bound<'_, PyAny>>,
        #[pyo3(from_py_with = args::tip_rate)] tip_rate: f64,
        #[pyo3(from_py_with = args::index_enabled)] index_enabled: bool,
        #[pyo3(from_py_with = args::latency)] latency: f64,
        #[pyo3(from_py_with = args::host)] host: &str,
        #[pyo3(from_py_with = args::port)] port: u16,
        #[pyo3(from_py_with = args::utc_offset_minutes)] utc_offset_minutes: i32,
        data_blocks_per_chain: Option<&Bound<'_, PyAny>>,
        #[pyo3(from_py_with = args::data_api_require_key)] data_api_require_key: bool,
        #[pyo3(from_py_with = args::data_api_refused_keys)] data_api_refused_keys: Option<Vec<String>>,
        #[pyo3(from_py_with = emulator_rate_limit)] rate_limit: Option<avax_data_emulator::RateLimit>,
        faults: Option<&Bound<'_, PyAny>>,
        #[pyo3(from_py_with = args::fault_seed)] fault_seed: u64,
        fault_options: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Self> {
        let mut config = EmulatorConfig {
            seed,
            index_enabled,
            host: host.to_string(),
            port,
            utc_offset_minutes,
            ..EmulatorConfig::default()
        };
        if let Some(n) = data_blocks_per_chain {
            config.data_blocks_per_chain = crate::args::bounded_arg(n, "data_blocks_per_chain", 1, u64::MAX)?;
        }
        config.data_api_require_key = data_api_require_key;
        config.data_api_refused_keys = data_api_refused_keys.unwrap_or_default();
        config.rate_limit = rate_limit;
        config.faults = fault_plan(faults, fault_seed, fault_options)?;
        config.tip_rate = tip_rate;
        config.latency = to_duration("latency", latency, true).map_err(to_py)?;
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

    /// Data API: move the emulator's clock forward (page tokens expire after 24 h of it).
    ///
    /// Args:
    ///     seconds: how far, a number >= 0.
    ///
    /// Raises:
    ///     InvalidParameterError: a negative or non-finite ``seconds``.
    ///
    /// Example:
    ///     >>> with ad.Emulator(data_blocks_per_chain=100) as local:
    ///     ...     data = ad.DataClient(base_url=local.url)
    ///     ...     pager = data.blocks("43114", page_size=10)
    ///     ...     _ = pager.to_polars(limit=10)
    ///     ...     local.advance_clock(25 * 3600)
    ///     ...     try:
    ///     ...         pager.to_polars()
    ///     ...     except ad.PageTokenError as exc:
    ///     ...         print("refused after", exc.items_read, "items")
    ///     refused after 10 items
    fn advance_clock(&self, seconds: f64) -> PyResult<()> {
        self.emulator.advance_clock(to_duration("seconds", seconds, true).map_err(to_py)?);
        Ok(())
    }

    /// Data API: set or remove the rate limit of each API key.
    ///
    /// Args:
    ///     rate_limit: ``(limit, window_seconds)``, or ``None`` (default) to remove it.
    ///
    /// Raises:
    ///     InvalidParameterError: a limit of 0 or a window that is not > 0.
    ///
    /// Example:
    ///     >>> with ad.Emulator() as local:
    ///     ...     local.set_rate_limit((1, 60))
    ///     ...     data = ad.DataClient(local.url, api_key="my-key", retry_budget=1)
    ///     ...     _ = data.health()
    ///     ...     try:
    ///     ...         data.health()
    ///     ...     except ad.RateLimitError as exc:
    ///     ...         print(exc.status, exc.retry_after)
    ///     ...     local.set_rate_limit(None)        # (this client waits out the 60 s it was told)
    ///     ...     print(ad.DataClient(local.url, api_key="my-key").health()["status"])
    ///     429 60.0
    ///     ok
    #[pyo3(signature = (rate_limit=None))]
    fn set_rate_limit(
        &self,
        #[pyo3(from_py_with = emulator_rate_limit)] rate_limit: Option<avax_data_emulator::RateLimit>,
    ) -> PyResult<()> {
        self.emulator.set_rate_limit(rate_limit);
        Ok(())
    }

    /// Data API: enforce a tier's compute-unit budget per minute, or remove it.
    ///
    /// Every Data API request is charged its operation's weight (a list page costs 20) from a
    /// bucket per API key (one shared by the requests without a key) that drains at
    /// ``units_per_minute / 60`` units a second and holds a tenth of a minute's units; a request
    /// that would overflow it gets 429 with ``retry-after`` and the ``ratelimit-*`` headers.
    /// A client keeping to the budget (``compute_units_per_minute=``) is never refused. Restarts
    /// the counts of :meth:`compute_budget_use`.
    ///
    /// Args:
    ///     units_per_minute: e.g. 20,000 (the pro tier) or 6,000 (unauthenticated); ``None``
    ///         (default) removes it.
    ///
    /// Raises:
    ///     InvalidParameterError: a budget that is not an int in [1, 4294967295].
    ///
    /// Example:
    ///     >>> with ad.Emulator() as local:
    ///     ...     local.set_compute_budget(6_000)
    ///     ...     data = ad.DataClient(local.url, compute_units_per_minute=6_000)
    ///     ...     busy = local.world["busy_address"]["address"]
    ///     ...     rows = data.erc20_transfers(43114, busy, start_block=9_990).to_polars().height
    ///     ...     usage = local.compute_budget_use()
    ///     ...     print(rows > 100, usage["units_per_minute"], usage["spent"] % 20, usage["refused"])
    ///     True 6000 0 0
    #[pyo3(signature = (units_per_minute=None))]
    fn set_compute_budget(&self, units_per_minute: Option<&Bound<'_, PyAny>>) -> PyResult<()> {
        let units = args::opt_bounded(units_per_minute, "units_per_minute", 1, u64::from(u32::MAX))?;
        self.emulator.set_compute_budget(units.map(|u| u as u32));
        Ok(())
    }

    /// Data API: the compute-unit budget in force, the units it charged and the requests it
    /// refused with 429 since it was set (:meth:`set_compute_budget`).
    ///
    /// Returns:
    ///     dict: ``units_per_minute`` (``None``: no budget), ``spent`` and ``refused``.
    ///
    /// Example:
    ///     >>> with ad.Emulator() as local:
    ///     ...     local.compute_budget_use()
    ///     {'units_per_minute': None, 'spent': 0, 'refused': 0}
    fn compute_budget_use<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let usage = self.emulator.compute_budget_use();
        let out = PyDict::new(py);
        out.set_item("units_per_minute", usage.units_per_minute)?;
        out.set_item("spent", usage.spent)?;
        out.set_item("refused", usage.refused)?;
        Ok(out)
    }

    /// Data API: answer 401 to requests without an API key (``True``), or serve them (``False``).
    ///
    /// Args:
    ///     require: whether a key is required.
    ///
    /// Example:
    ///     >>> with ad.Emulator() as local:
    ///     ...     local.set_data_api_require_key(True)
    ///     ...     try:
    ///     ...         ad.DataClient(base_url=local.url).health()
    ///     ...     except ad.UnauthorizedError as exc:
    ///     ...         print(exc.status)
    ///     ...     print(ad.DataClient(local.url, api_key="my-key").health()["status"])
    ///     401
    ///     ok
    fn set_data_api_require_key(&self, require: bool) {
        self.emulator.set_data_api_require_key(require);
    }

    /// Data API: the API keys answered with 403 from now on (replacing the previous list).
    ///
    /// Args:
    ///     keys: a list of keys (an empty list refuses none).
    ///
    /// Example:
    ///     >>> with ad.Emulator() as local:
    ///     ...     local.set_data_api_refused_keys(["revoked"])
    ///     ...     try:
    ///     ...         ad.DataClient(local.url, api_key="revoked").health()
    ///     ...     except ad.ForbiddenError as exc:
    ///     ...         print(exc.status)
    ///     403
    fn set_data_api_refused_keys(&self, keys: Vec<String>) {
        self.emulator.set_data_api_refused_keys(&keys);
    }

    /// The base URL of the running emulator, ``http://host:port``: the URL of every service.
    ///
    /// Example:
    ///     >>> emu.url
    ///     'http://127.0.0.1:...'
    #[getter]
    fn url(&self) -> String {
        self.emulator.url()
    }

    /// What the Data and Metrics API world spans: ``(first, last)``, timezone-aware UTC datetimes.
    ///
    /// The world is fixed: it ends at its "now", 2026-01-01 00:00 UTC, and begins at the launch
    /// of its oldest chain (Fuji, 2020-09-10), where the metric series begin. Blocks, messages
    /// and metric buckets all lie inside (the blocks in the last hours before now; see
    /// :attr:`world`); a window outside it holds no data, and the client warns so.
    ///
    /// Example:
    ///     >>> first, last = emu.world_span
    ///     >>> last.isoformat()
    ///     '2026-01-01T00:00:00+00:00'
    ///     >>> first < last
    ///     True
    #[getter]
    fn world_span<'py>(&self, py: Python<'py>) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyAny>)> {
        let (first, last) = self.emulator.world_span_ms();
        let datetime = py.import("datetime")?;
        let utc = datetime.getattr("timezone")?.getattr("utc")?;
        let at = |ms: i64| datetime.getattr("datetime")?.call_method1("fromtimestamp", (ms as f64 / 1000.0, &utc));
        Ok((at(first)?, at(last)?))
    }

    /// What the emulated world holds, as a plain dict: its ``now`` and span, each index path's
    /// containers (now) with the times of the first and last, each EVM chain's launch, blocks
    /// and block times, and named addresses, tokens, validators, P-addresses and subnets to use
    /// in examples and tests.
    ///
    /// Times are RFC 3339 strings in UTC. Every chain's last block and every index path's last
    /// container lie before ``now`` (containers added later by ``advance`` or ``tip_rate`` are
    /// accepted after it, as the clock runs on).
    ///
    /// Example:
    ///     >>> world = emu.world
    ///     >>> world["now"]
    ///     '2026-01-01T00:00:00Z'
    ///     >>> world["index"]["C/block"]["containers"]
    ///     1000
    ///     >>> c = world["chains"][0]
    ///     >>> c["name"], c["evm_chain_id"], c["last_block"] + 1 == c["blocks"]
    ///     ('Avalanche (C-Chain)', 43114, True)
    ///     >>> world["index"]["C/block"]["last_time"] < world["now"]
    ///     True
    ///     >>> world["addresses"][0]
    ///     '0x6a2474f3e677ce65e495508043237ea93738a031'
    #[getter]
    fn world<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let text = self.emulator.world_summary().to_string();
        py.import("json")?.call_method1("loads", (text,))
    }

    /// The port it listens on (a free one unless ``port=`` was given).
    ///
    /// Example:
    ///     >>> emu.url.endswith(f":{emu.port}")
    ///     True
    #[getter]
    fn port(&self) -> u16 {
        self.emulator.port()
    }

    /// How many containers an index path holds now.
    ///
    /// Args:
    ///     path: ``"C/block"``, ``"P/block"``, ``"X/tx"``, ``"X/block"`` or ``"X/vtx"``.
    ///
    /// Returns:
    ///     int: the count (its last index is one less).
    ///
    /// Raises:
    ///     InvalidParameterError: an unknown path.
    ///
    /// Example:
    ///     >>> emu.container_count("X/tx")
    ///     1000
    fn container_count(&self, path: &str) -> PyResult<u64> {
        Ok(self.emulator.container_count(path_arg(path)?))
    }

    /// Accept more containers on an index path, as a node does when blocks arrive.
    ///
    /// Args:
    ///     path: the index path.
    ///     n: how many, an int >= 0; default 1.
    ///
    /// Returns:
    ///     int: the new count.
    ///
    /// Raises:
    ///     InvalidParameterError: an unknown path or a negative ``n``.
    ///
    /// Example:
    ///     >>> with ad.Emulator(containers=10) as local:
    ///     ...     print(local.advance("X/tx", 5), local.container_count("X/tx"))
    ///     15 15
    #[pyo3(signature = (path, n=1))]
    fn advance(&self, path: &str, #[pyo3(from_py_with = count_arg)] n: u64) -> PyResult<u64> {
        Ok(self.emulator.advance(path_arg(path)?, n))
    }

    /// Serve the index paths, or answer them with HTTP 404.
    ///
    /// ``False`` makes it a node without ``--index-enabled``.
    ///
    /// Args:
    ///     enabled: whether the index is served.
    ///
    /// Example:
    ///     >>> with ad.Emulator(containers=10) as local:
    ///     ...     local.set_index_enabled(False)
    ///     ...     try:
    ///     ...         ad.IndexClient(local.url).chain("X/tx").last_accepted()
    ///     ...     except ad.IndexNotEnabledError as exc:
    ///     ...         print(exc.status)
    ///     404
    fn set_index_enabled(&self, enabled: bool) {
        self.emulator.set_index_enabled(enabled);
    }

    /// Delay every later response.
    ///
    /// Args:
    ///     seconds: the delay, a number >= 0 (0 removes it).
    ///
    /// Raises:
    ///     InvalidParameterError: a negative or non-finite delay.
    ///
    /// Example:
    ///     >>> with ad.Emulator(containers=10) as local:
    ///     ...     local.set_latency(0.5)
    ///     ...     try:
    ///     ...         ad.IndexClient(local.url, timeout=0.05, max_retries=0).chain("X/tx").last_accepted()
    ///     ...     except ad.RequestTimeoutError:
    ///     ...         print("timed out")
    ///     timed out
    fn set_latency(&self, seconds: f64) -> PyResult<()> {
        let latency: Duration = to_duration("seconds", seconds, true).map_err(to_py)?;
        self.emulator.set_latency(latency);
        Ok(())
    }

    /// The container the emulator serves at an index, computed without a request.
    ///
    /// The expected value in tests.
    ///
    /// Args:
    ///     path: the index path.
    ///     index: the index, an int below :meth:`container_count`.
    ///
    /// Returns:
    ///     dict: the container dict a client returns for it.
    ///
    /// Raises:
    ///     InvalidParameterError: an unknown path, or an index at or past the tip.
    ///
    /// Example:
    ///     >>> node = ad.IndexClient(emu.url)
    ///     >>> node.chain("P/block").container(7) == emu.expected_container("P/block", 7)
    ///     True
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

    /// The requests received so far, on every path.
    ///
    /// Example:
    ///     >>> with ad.Emulator(containers=10) as local:
    ///     ...     _ = ad.IndexClient(local.url).chain("X/tx").container_range(0, 5)
    ///     ...     print(local.request_count())
    ///     1
    fn request_count(&self) -> u64 {
        self.emulator.request_count()
    }

    /// Replace the fault plan.
    ///
    /// Decisions restart from the seed's first request; the counters and the request log are
    /// kept.
    ///
    /// Args:
    ///     faults: fault kind to rate per request in [0, 1] (the kinds of :class:`Emulator`);
    ///         ``None`` (default) or ``{}`` turns faults off.
    ///     fault_seed: the seed of the decisions; default 0.
    ///     fault_options: sizes and timings, as in :class:`Emulator`; default ``None``.
    ///
    /// Raises:
    ///     InvalidParameterError: an unknown kind or option, a rate outside [0, 1].
    ///
    /// Example:
    ///     >>> with ad.Emulator(containers=10) as local:
    ///     ...     local.set_faults({"500": 1.0})
    ///     ...     try:
    ///     ...         ad.IndexClient(local.url, max_retries=0).chain("X/tx").last_accepted()
    ///     ...     except ad.ServerError as exc:
    ///     ...         print(exc.status)
    ///     ...     local.set_faults(None)
    ///     ...     print(ad.IndexClient(local.url).chain("X/tx").last_accepted()["index"])
    ///     500
    ///     9
    ///     >>> ad.Emulator(faults={"502": 2})
    ///     Traceback (most recent call last):
    ///     ...
    ///     avax_data.exceptions.InvalidParameterError: invalid faults=502=2: a rate (probability per request) in [0, 1]
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

    /// The fault rates in force: kind to rate (kinds at 0 left out).
    ///
    /// Example:
    ///     >>> with ad.Emulator(faults={"502": 0.1, "reset": 0.0}) as local:
    ///     ...     print(local.faults())
    ///     {'502': 0.1}
    fn faults<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        self.emulator.faults().rates().into_iter().map(|(kind, rate)| (kind.name(), rate)).into_py_dict(py)
    }

    /// The seed of the fault decisions in force.
    ///
    /// Example:
    ///     >>> with ad.Emulator(faults={"502": 0.1}, fault_seed=7) as local:
    ///     ...     print(local.fault_seed)
    ///     7
    #[getter]
    fn fault_seed(&self) -> u64 {
        self.emulator.faults().seed
    }

    /// The faults injected so far: kind to count (kinds never injected left out).
    ///
    /// Example:
    ///     >>> with ad.Emulator(containers=10, faults={"502": 1.0}) as local:
    ///     ...     node = ad.IndexClient(local.url, max_retries=2, backoff=0.0)
    ///     ...     try:
    ///     ...         node.chain("X/tx").last_accepted()
    ///     ...     except ad.ServerError:
    ///     ...         print(local.fault_counts())           # the call and its 2 retries
    ///     {'502': 3}
    fn fault_counts<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        self.emulator.fault_counts().into_iter().map(|(kind, n)| (kind.name(), n)).into_py_dict(py)
    }

    /// The faults injected so far by kind and URL path: ``(kind, path)`` to count.
    ///
    /// Example:
    ///     >>> with ad.Emulator(containers=10, faults={"500": 1.0}) as local:
    ///     ...     try:
    ///     ...         ad.IndexClient(local.url, max_retries=0).chain("P/block").last_accepted()
    ///     ...     except ad.ServerError:
    ///     ...         print(local.fault_counts_by_path())
    ///     {('500', '/ext/index/P/block'): 1}
    fn fault_counts_by_path<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let counts = self.emulator.fault_counts_by_path();
        counts.into_iter().map(|((kind, path), n)| ((kind.name(), path), n)).into_py_dict(py)
    }

    /// Every request received, oldest first, as ``(seconds since start, URL path)``.
    ///
    /// With ``with_status=True`` each is ``(seconds since start, URL path, status)``, the HTTP
    /// status answered (``None`` while the request is being served).
    ///
    /// Example:
    ///     >>> with ad.Emulator(containers=10) as local:
    ///     ...     _ = ad.DataClient(base_url=local.url).health()
    ///     ...     _ = ad.IndexClient(local.url).chain("C/block").last_accepted()
    ///     ...     print([path for _, path in local.request_log()])
    ///     ...     print([status for _, _, status in local.request_log(with_status=True)])
    ///     ['/v1/health-check', '/ext/index/C/block']
    ///     [200, 200]
    #[pyo3(signature = (*, with_status = false))]
    fn request_log<'py>(&self, py: Python<'py>, with_status: bool) -> PyResult<Vec<Bound<'py, PyTuple>>> {
        let log = self.emulator.request_log().into_iter();
        if with_status {
            log.map(|r| (r.time_s, r.path, r.status).into_pyobject(py)).collect()
        } else {
            log.map(|r| (r.time_s, r.path).into_pyobject(py)).collect()
        }
    }

    /// The URL of the emulator's second listener: another origin, serving the same services.
    ///
    /// ``redirect_cross_origin`` faults point there.
    ///
    /// Example:
    ///     >>> emu.second_url != emu.url
    ///     True
    ///     >>> ad.IndexClient(emu.second_url).chain("X/tx").last_accepted()["index"]
    ///     999
    #[getter]
    fn second_url(&self) -> String {
        self.emulator.second_url()
    }

    /// Stop serving.
    ///
    /// Returns once both listeners are closed: later requests to it fail to connect
    /// (:class:`ConnectError`); requests already in flight still get their answers. Leaving a
    /// ``with`` block closes it the same way.
    ///
    /// Example:
    ///     >>> local = ad.Emulator(containers=10)
    ///     >>> node = ad.IndexClient(local.url, max_retries=0)
    ///     >>> local.close()
    ///     >>> try:
    ///     ...     node.chain("X/tx").last_accepted()
    ///     ... except ad.ConnectError:
    ///     ...     print("gone")
    ///     gone
    fn close(&self, py: Python<'_>) -> PyResult<()> {
        wait_raw(py, self.emulator.close())
    }

    fn __enter__(slf: Py<Self>) -> Py<Self> {
        slf
    }

    #[pyo3(signature = (*_exc))]
    fn __exit__(&self, py: Python<'_>, _exc: &Bound<'_, pyo3::types::PyTuple>) -> PyResult<()> {
        wait_raw(py, self.emulator.close())
    }

    fn __repr__(&self) -> String {
        format!("Emulator({})", super::show::py_str(&self.emulator.url()))
    }

    /// An HTML table of the emulator (its URL and the span of its world), which Jupyter shows.
    ///
    /// Example:
    ///     >>> html = emu._repr_html_()
    ///     >>> html.startswith("<table>"), emu.url in html
    ///     (True, True)
    fn _repr_html_(&self) -> String {
        let (first, last) = self.emulator.world_span_ms();
        let utc = |ms: i64| {
            chrono::DateTime::from_timestamp_millis(ms)
                .map_or_else(|| ms.to_string(), |d| d.format("%Y-%m-%d %H:%M:%S UTC").to_string())
        };
        let fields = vec![
            ("url", super::show::py_str(&self.emulator.url())),
            ("world_span", format!("{} .. {}", utc(first), utc(last))),
            ("requests", self.emulator.request_count().to_string()),
        ];
        super::show::html("Emulator", &fields)
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
fn emulator_rate_limit(value: &Bound<'_, PyAny>) -> PyResult<Option<avax_data_emulator::RateLimit>> {
    const WHAT: &str = "None or (limit, window_seconds): an int >= 1 and a number of seconds > 0";
    if value.is_none() {
        return Ok(None);
    }
    let shown = || args::shown(value);
    let pair = value.cast::<pyo3::types::PyTuple>().map_err(|_| invalid("rate_limit", shown(), WHAT))?;
    if pair.len() != 2 {
        return Err(invalid("rate_limit", shown(), WHAT));
    }
    let limit = args::bounded_arg(&pair.get_item(0)?, "rate_limit", 1, u64::from(u32::MAX))
        .map_err(|_| invalid("rate_limit", shown(), WHAT))? as u32;
    let window =
        args::number_arg(&pair.get_item(1)?, "rate_limit", WHAT).map_err(|_| invalid("rate_limit", shown(), WHAT))?;
    let window = to_duration("rate_limit", window, false).map_err(|_| invalid("rate_limit", shown(), WHAT))?;
    Ok(Some(avax_data_emulator::RateLimit { limit, window }))
}
