//! Python classes of the Metrics API client: `MetricsClient` and `AsyncMetricsClient`. Lists
//! come back as the Data API's `Pager` / `AsyncPager` (any token-paged resource, or a sharded
//! metric walk fetched whole).

use std::collections::HashMap;
use std::sync::Arc;

use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDate, PyDateTime, PyInt};
use serde_json::Value;

use super::args::{bounded_arg, transport_config};
use super::convert::polars_frame;
use super::data::{limit_arg, object_to_py, opt_str, str_arg, DictOut, PagerCore, PyAsyncPager, PyPager, WholeWalk};
use super::errors::{invalid, to_py};
use super::wait::{awaitable, wait};
use crate::arrow::data::{self as schema, to_batch, Resource};
use crate::error::Error;
use crate::metrics::client::icm_summary_query;
use crate::metrics::{plan_shards, MetricQuery, MetricsClient, DEFAULT_CONCURRENCY};

const NETWORK: &str = "one of mainnet, fuji, testnet";
const TIME: &str = "Unix seconds (int >= 0), a datetime (naive = UTC) or a date (00:00 UTC)";

fn client_arg(base_url: Option<String>, transport: crate::transport::TransportConfig) -> PyResult<MetricsClient> {
    let base_url = base_url.or_else(|| std::env::var("AVAX_METRICS_API_URL").ok().filter(|u| !u.trim().is_empty()));
    MetricsClient::new(base_url.as_deref(), transport).map_err(to_py)
}

/// `int` seconds, a `datetime` (naive = UTC) or a `date` (00:00 UTC) as Unix seconds.
fn time_arg(value: Option<&Bound<'_, PyAny>>, param: &str) -> PyResult<Option<i64>> {
    let Some(value) = value.filter(|v| !v.is_none()) else { return Ok(None) };
    let shown = || value.repr().map(|r| r.to_string()).unwrap_or_default();
    let py = value.py();
    if value.is_instance_of::<PyBool>() {
        return Err(invalid(param, shown(), TIME));
    }
    if value.is_instance_of::<PyInt>() {
        return value.extract::<i64>().map(Some).map_err(|_| invalid(param, shown(), TIME));
    }
    let utc = py.import("datetime")?.getattr("timezone")?.getattr("utc")?;
    let aware = if value.is_instance_of::<PyDateTime>() {
        if value.call_method0("utcoffset")?.is_none() {
            let kwargs = pyo3::types::PyDict::new(py);
            kwargs.set_item("tzinfo", &utc)?;
            value.call_method("replace", (), Some(&kwargs))?
        } else {
            value.clone()
        }
    } else if value.is_instance_of::<PyDate>() {
        let datetime = py.import("datetime")?.getattr("datetime")?;
        let (y, m, d): (i32, u32, u32) =
            (value.getattr("year")?.extract()?, value.getattr("month")?.extract()?, value.getattr("day")?.extract()?);
        datetime.call1((y, m, d, 0, 0, 0, 0, &utc))?
    } else {
        return Err(invalid(param, shown(), TIME));
    };
    let seconds: f64 = aware.call_method0("timestamp")?.extract()?;
    Ok(Some(seconds.floor() as i64))
}

fn page_size_arg(value: Option<&Bound<'_, PyAny>>) -> PyResult<Option<i64>> {
    value
        .filter(|v| !v.is_none())
        .map(|v| bounded_arg(v, "page_size", 1, crate::metrics::params::MAX_PAGE_SIZE as u64).map(|n| n as i64))
        .transpose()
}

/// The checked series request and how it is walked.
struct Series {
    query: MetricQuery,
    token: Option<String>,
    limit: Option<u64>,
    /// `Some(concurrency)`: a sharded walk.
    sharded: Option<usize>,
}

#[allow(clippy::too_many_arguments)]
fn series_arg(
    client: &MetricsClient,
    chain_id: &Bound<'_, PyAny>,
    metric: &Bound<'_, PyAny>,
    interval: Option<&Bound<'_, PyAny>>,
    start: Option<&Bound<'_, PyAny>>,
    end: Option<&Bound<'_, PyAny>>,
    page_size: Option<&Bound<'_, PyAny>>,
    page_token: Option<&Bound<'_, PyAny>>,
    limit: Option<&Bound<'_, PyAny>>,
    concurrency: Option<&Bound<'_, PyAny>>,
) -> PyResult<Series> {
    let chain_id = if chain_id.is_instance_of::<PyInt>() && !chain_id.is_instance_of::<PyBool>() {
        chain_id.str()?.to_string()
    } else {
        str_arg(chain_id, "chain_id", "an EVM chain id (str of digits) or one of total, mainnet, testnet")?
    };
    let metric = str_arg(metric, "metric", "a metric name (str)")?;
    let interval = opt_str(interval, "interval", "one of hour, day, week, month")?;
    let start = time_arg(start, "start")?;
    let end = time_arg(end, "end")?;
    let page_size = page_size_arg(page_size)?;
    let token = opt_str(page_token, "page_token", "a page token (str) from next_page_token")?;
    let limit = limit_arg(limit)?;
    let concurrency = match concurrency.filter(|c| !c.is_none()) {
        Some(c) => bounded_arg(c, "concurrency", 1, 64)? as usize,
        None => DEFAULT_CONCURRENCY,
    };
    let query = client.metric(&chain_id, &metric, interval.as_deref(), start, end, page_size).map_err(to_py)?;
    if let Some(t) = &token {
        crate::data::params::page_token(t).map_err(to_py)?;
    }
    let sharded = match (query.start, query.end, &token) {
        (Some(s), Some(e), None) if concurrency > 1 && plan_shards(&query, s, e, concurrency).len() > 1 => {
            Some(concurrency)
        }
        _ => None,
    };
    Ok(Series { query, token, limit, sharded })
}

fn series_core(client: &MetricsClient, series: Series) -> PyResult<PagerCore> {
    let paged = series.query.paged();
    match series.sharded {
        Some(concurrency) => {
            let (owned, query) = (client.clone(), Arc::new(series.query));
            let whole: WholeWalk = Arc::new(move || {
                let (client, query) = (owned.clone(), query.clone());
                Box::pin(async move { client.sharded(&query, concurrency).await })
            });
            Ok(PagerCore::new_whole(client.pager_client(), paged, Resource::MetricValue, whole, series.limit))
        }
        None => PagerCore::new(client.pager_client(), paged, Resource::MetricValue, series.token, series.limit),
    }
}

fn chains_core(
    client: &MetricsClient,
    network: Option<&Bound<'_, PyAny>>,
    page_token: Option<&Bound<'_, PyAny>>,
    limit: Option<&Bound<'_, PyAny>>,
) -> PyResult<PagerCore> {
    let network = opt_str(network, "network", NETWORK)?;
    let paged = client.chains(network.as_deref()).map_err(to_py)?;
    let token = opt_str(page_token, "page_token", "a page token (str) from next_page_token")?;
    PagerCore::new(client.pager_client(), paged, Resource::MetricsChain, token, limit_arg(limit)?)
}

/// `(src, dest, group_by, network)` of an ICM summary call, checked.
type SummaryArgs = (Option<String>, Option<String>, Option<String>, Option<String>);

fn summary_args(
    src: Option<&Bound<'_, PyAny>>,
    dest: Option<&Bound<'_, PyAny>>,
    group_by: Option<&Bound<'_, PyAny>>,
    network: Option<&Bound<'_, PyAny>>,
) -> PyResult<SummaryArgs> {
    let src = opt_str(src, "src_blockchain_id", "a blockchain id (str)")?;
    let dest = opt_str(dest, "dest_blockchain_id", "a blockchain id (str)")?;
    let group_by = match group_by.filter(|g| !g.is_none()) {
        Some(g) if g.is_instance_of::<pyo3::types::PyString>() => Some(g.to_string()),
        Some(g) => {
            // a list/tuple of the two field names
            let parts: Vec<String> = g
                .try_iter()
                .and_then(|it| it.map(|i| i.and_then(|i| i.extract::<String>())).collect::<PyResult<_>>())
                .map_err(|_| {
                    invalid(
                        "group_by",
                        g.repr().map(|r| r.to_string()).unwrap_or_default(),
                        "one of srcBlockchainId, destBlockchainId, srcBlockchainId,destBlockchainId",
                    )
                })?;
            Some(parts.join(","))
        }
        None => None,
    };
    let network = opt_str(network, "network", NETWORK)?;
    icm_summary_query(src.as_deref(), dest.as_deref(), group_by.as_deref(), network.as_deref()).map_err(to_py)?;
    Ok((src, dest, group_by, network))
}

/// The ICM summary result: a dict for one result, a DataFrame when grouped or a list.
struct SummaryOut(Value, bool);

impl<'py> IntoPyObject<'py> for SummaryOut {
    type Target = PyAny;
    type Output = Bound<'py, PyAny>;
    type Error = PyErr;
    fn into_pyobject(self, py: Python<'py>) -> PyResult<Self::Output> {
        let SummaryOut(value, grouped) = self;
        let rows = match value {
            Value::Array(rows) if !grouped && rows.len() == 1 => {
                return object_to_py(py, &rows[0], Some(schema::ICM_SUMMARY))
            }
            Value::Array(rows) => rows,
            Value::Object(_) if !grouped => return object_to_py(py, &value, Some(schema::ICM_SUMMARY)),
            other => vec![other],
        };
        let batch = to_batch(Resource::IcmSummary, &rows)
            .map_err(|message| to_py(Error::Decode { message, url: "/v2/icm/summary".into(), body: String::new() }))?;
        polars_frame(py, vec![batch], Resource::IcmSummary.schema())
    }
}

/// Synchronous client of the hosted Metrics API (``/v2/...``; no API key).
///
/// ``base_url`` defaults to ``AVAX_METRICS_API_URL``, then ``https://metrics.avax.network``.
/// Same transport options as :class:`DataClient`. Parameters are checked before any request
/// (:class:`InvalidParameterError`, a ``ValueError``).
#[pyclass(frozen, name = "MetricsClient", module = "avax_data._native")]
pub struct PyMetricsClient {
    client: MetricsClient,
}

#[pymethods]
impl PyMetricsClient {
    #[new]
    #[pyo3(signature = (*, base_url=None, timeout=30.0, connect_timeout=10.0, max_retries=None, backoff=None, max_backoff=None, retry_budget=None, headers=None, max_response_bytes=None, ca_bundle=None, danger_accept_invalid_certs=None, follow_cross_origin_redirects=None, rate_limit=None, compute_units_per_minute=None, retry=None))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        base_url: Option<String>,
        timeout: f64,
        connect_timeout: f64,
        max_retries: Option<&Bound<'_, PyAny>>,
        backoff: Option<f64>,
        max_backoff: Option<f64>,
        retry_budget: Option<f64>,
        headers: Option<HashMap<String, String>>,
        max_response_bytes: Option<&Bound<'_, PyAny>>,
        ca_bundle: Option<&Bound<'_, PyAny>>,
        danger_accept_invalid_certs: Option<&Bound<'_, PyAny>>,
        follow_cross_origin_redirects: Option<&Bound<'_, PyAny>>,
        rate_limit: Option<&Bound<'_, PyAny>>,
        compute_units_per_minute: Option<&Bound<'_, PyAny>>,
        retry: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Self> {
        let transport = transport_config(
            timeout,
            connect_timeout,
            max_retries,
            backoff,
            max_backoff,
            retry_budget,
            headers,
            max_response_bytes,
            ca_bundle,
            danger_accept_invalid_certs,
            follow_cross_origin_redirects,
            rate_limit,
            compute_units_per_minute,
            retry,
        )?;
        Ok(PyMetricsClient { client: client_arg(base_url, transport)? })
    }

    /// The base URL.
    #[getter]
    fn base_url(&self) -> String {
        self.client.base_url().to_string()
    }

    /// The retry policy in force, an :class:`avax_data.RetryPolicy`.
    #[getter]
    fn retry<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        super::args::retry_policy_object(py, self.client.retry_policy())
    }

    /// ``GET /v2/chains/{chainId}/metrics/{metric}``: a metric's time series as a lazy
    /// :class:`Pager` of ``{"timestamp": datetime UTC, "value": float}``, newest first.
    #[pyo3(signature = (chain_id, metric, *, interval=None, start=None, end=None, page_size=None, page_token=None, limit=None, concurrency=None))]
    #[allow(clippy::too_many_arguments)]
    fn metric(
        &self,
        chain_id: &Bound<'_, PyAny>,
        metric: &Bound<'_, PyAny>,
        interval: Option<&Bound<'_, PyAny>>,
        start: Option<&Bound<'_, PyAny>>,
        end: Option<&Bound<'_, PyAny>>,
        page_size: Option<&Bound<'_, PyAny>>,
        page_token: Option<&Bound<'_, PyAny>>,
        limit: Option<&Bound<'_, PyAny>>,
        concurrency: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<PyPager> {
        let series = series_arg(
            &self.client,
            chain_id,
            metric,
            interval,
            start,
            end,
            page_size,
            page_token,
            limit,
            concurrency,
        )?;
        Ok(PyPager { core: series_core(&self.client, series)? })
    }

    /// ``GET /v2/chains``: the supported chains as a lazy :class:`Pager`, optionally of one
    /// ``network`` (mainnet, fuji, testnet).
    #[pyo3(signature = (network=None, *, page_token=None, limit=None))]
    fn chains(
        &self,
        network: Option<&Bound<'_, PyAny>>,
        page_token: Option<&Bound<'_, PyAny>>,
        limit: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<PyPager> {
        Ok(PyPager { core: chains_core(&self.client, network, page_token, limit)? })
    }

    /// ``GET /v2/icm/summary``: rolling ICM message counts. A dict for a single result; a polars
    /// DataFrame (``srcBlockchainId``, ``destBlockchainId``, ``lastHour`` .. ``allTime``) when
    /// ``group_by`` is given or the service answers a list.
    #[pyo3(signature = (src_blockchain_id=None, dest_blockchain_id=None, *, group_by=None, network=None))]
    fn icm_summary<'py>(
        &self,
        py: Python<'py>,
        src_blockchain_id: Option<&Bound<'py, PyAny>>,
        dest_blockchain_id: Option<&Bound<'py, PyAny>>,
        group_by: Option<&Bound<'py, PyAny>>,
        network: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let (src, dest, group_by, network) = summary_args(src_blockchain_id, dest_blockchain_id, group_by, network)?;
        let grouped = group_by.is_some();
        let value = wait(
            py,
            self.client.icm_summary(src.as_deref(), dest.as_deref(), group_by.as_deref(), network.as_deref()),
        )?;
        SummaryOut(value, grouped).into_pyobject(py)
    }

    /// ``GET /v2/live-check``: the health report as a dict.
    fn live_check<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let report = wait(py, self.client.live_check())?;
        object_to_py(py, &report, None)
    }

    /// Close the client: later calls raise ``AvaxDataError("the client is closed")``.
    fn close(&self) {
        self.client.close();
    }

    fn __enter__(slf: Py<Self>) -> Py<Self> {
        slf
    }

    #[pyo3(signature = (*_exc))]
    fn __exit__(&self, _exc: &Bound<'_, pyo3::types::PyTuple>) {
        self.client.close();
    }

    fn __repr__(&self) -> String {
        format!("MetricsClient({:?}{})", self.client.base_url(), if self.client.is_closed() { ", closed" } else { "" })
    }
}

/// Asynchronous twin of :class:`MetricsClient`: ``metric`` / ``chains`` return an
/// :class:`AsyncPager`, ``icm_summary`` / ``live_check`` are awaitable.
#[pyclass(frozen, name = "AsyncMetricsClient", module = "avax_data._native")]
pub struct PyAsyncMetricsClient {
    client: MetricsClient,
}

#[pymethods]
impl PyAsyncMetricsClient {
    #[new]
    #[pyo3(signature = (*, base_url=None, timeout=30.0, connect_timeout=10.0, max_retries=None, backoff=None, max_backoff=None, retry_budget=None, headers=None, max_response_bytes=None, ca_bundle=None, danger_accept_invalid_certs=None, follow_cross_origin_redirects=None, rate_limit=None, compute_units_per_minute=None, retry=None))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        base_url: Option<String>,
        timeout: f64,
        connect_timeout: f64,
        max_retries: Option<&Bound<'_, PyAny>>,
        backoff: Option<f64>,
        max_backoff: Option<f64>,
        retry_budget: Option<f64>,
        headers: Option<HashMap<String, String>>,
        max_response_bytes: Option<&Bound<'_, PyAny>>,
        ca_bundle: Option<&Bound<'_, PyAny>>,
        danger_accept_invalid_certs: Option<&Bound<'_, PyAny>>,
        follow_cross_origin_redirects: Option<&Bound<'_, PyAny>>,
        rate_limit: Option<&Bound<'_, PyAny>>,
        compute_units_per_minute: Option<&Bound<'_, PyAny>>,
        retry: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Self> {
        let transport = transport_config(
            timeout,
            connect_timeout,
            max_retries,
            backoff,
            max_backoff,
            retry_budget,
            headers,
            max_response_bytes,
            ca_bundle,
            danger_accept_invalid_certs,
            follow_cross_origin_redirects,
            rate_limit,
            compute_units_per_minute,
            retry,
        )?;
        Ok(PyAsyncMetricsClient { client: client_arg(base_url, transport)? })
    }

    /// The base URL.
    #[getter]
    fn base_url(&self) -> String {
        self.client.base_url().to_string()
    }

    /// The retry policy in force, an :class:`avax_data.RetryPolicy`.
    #[getter]
    fn retry<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        super::args::retry_policy_object(py, self.client.retry_policy())
    }

    /// :meth:`MetricsClient.metric` as an :class:`AsyncPager`.
    #[pyo3(signature = (chain_id, metric, *, interval=None, start=None, end=None, page_size=None, page_token=None, limit=None, concurrency=None))]
    #[allow(clippy::too_many_arguments)]
    fn metric(
        &self,
        chain_id: &Bound<'_, PyAny>,
        metric: &Bound<'_, PyAny>,
        interval: Option<&Bound<'_, PyAny>>,
        start: Option<&Bound<'_, PyAny>>,
        end: Option<&Bound<'_, PyAny>>,
        page_size: Option<&Bound<'_, PyAny>>,
        page_token: Option<&Bound<'_, PyAny>>,
        limit: Option<&Bound<'_, PyAny>>,
        concurrency: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<PyAsyncPager> {
        let series = series_arg(
            &self.client,
            chain_id,
            metric,
            interval,
            start,
            end,
            page_size,
            page_token,
            limit,
            concurrency,
        )?;
        Ok(PyAsyncPager { core: series_core(&self.client, series)? })
    }

    /// :meth:`MetricsClient.chains` as an :class:`AsyncPager`.
    #[pyo3(signature = (network=None, *, page_token=None, limit=None))]
    fn chains(
        &self,
        network: Option<&Bound<'_, PyAny>>,
        page_token: Option<&Bound<'_, PyAny>>,
        limit: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<PyAsyncPager> {
        Ok(PyAsyncPager { core: chains_core(&self.client, network, page_token, limit)? })
    }

    /// Awaitable :meth:`MetricsClient.icm_summary`.
    #[pyo3(signature = (src_blockchain_id=None, dest_blockchain_id=None, *, group_by=None, network=None))]
    fn icm_summary<'py>(
        &self,
        py: Python<'py>,
        src_blockchain_id: Option<&Bound<'py, PyAny>>,
        dest_blockchain_id: Option<&Bound<'py, PyAny>>,
        group_by: Option<&Bound<'py, PyAny>>,
        network: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let (src, dest, group_by, network) = summary_args(src_blockchain_id, dest_blockchain_id, group_by, network)?;
        let client = self.client.clone();
        awaitable(py, async move {
            let grouped = group_by.is_some();
            let value = client
                .icm_summary(src.as_deref(), dest.as_deref(), group_by.as_deref(), network.as_deref())
                .await
                .map_err(to_py)?;
            Ok(SummaryOut(value, grouped))
        })
    }

    /// Awaitable :meth:`MetricsClient.live_check`.
    fn live_check<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let client = self.client.clone();
        awaitable(py, async move { Ok(DictOut(client.live_check().await.map_err(to_py)?, None)) })
    }

    /// Close the client: later calls raise ``AvaxDataError("the client is closed")``.
    fn close(&self) {
        self.client.close();
    }

    fn __aenter__<'py>(slf: Py<Self>, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        awaitable(py, async move { Ok(slf) })
    }

    #[pyo3(signature = (*_exc))]
    fn __aexit__<'py>(&self, py: Python<'py>, _exc: &Bound<'py, pyo3::types::PyTuple>) -> PyResult<Bound<'py, PyAny>> {
        self.client.close();
        awaitable(py, async move { Ok(false) })
    }

    fn __enter__(slf: Py<Self>) -> Py<Self> {
        slf
    }

    #[pyo3(signature = (*_exc))]
    fn __exit__(&self, _exc: &Bound<'_, pyo3::types::PyTuple>) {
        self.client.close();
    }

    fn __repr__(&self) -> String {
        format!(
            "AsyncMetricsClient({:?}{})",
            self.client.base_url(),
            if self.client.is_closed() { ", closed" } else { "" }
        )
    }
}
