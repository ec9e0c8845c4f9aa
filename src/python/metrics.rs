//! `MetricsClient` and `AsyncMetricsClient`: the hosted Metrics API for Python. Lists come back
//! as the Data API's lazy pagers (a metric series sharded over its window when that pays).

use pyo3::prelude::*;
use pyo3::types::{PyBool, PyInt, PyString};
use serde_json::Value;

use super::args::{client_twins, limit_arg, opt_bounded, opt_str, page_token_arg, shown, str_arg, time_arg};
use super::convert::{object_to_py, polars_frame, DictOut};
use super::errors::invalid;
use super::mode::Mode;
use super::pagers::{PyAsyncPager, PyPager};
use crate::arrow::data::{self as schema, to_batch, Resource};
use crate::data::ResourcePager;
use crate::error::Error;
use crate::metrics::client::icm_summary_query;
use crate::metrics::series::series_pager;
use crate::metrics::{MetricsClient, DEFAULT_CONCURRENCY};

const NETWORK: &str = "one of mainnet, fuji, testnet";
const GROUP_BY: &str = "one of srcBlockchainId, destBlockchainId, srcBlockchainId,destBlockchainId";

fn build_client(base_url: Option<String>, transport: crate::transport::TransportConfig) -> PyResult<MetricsClient> {
    let base_url = base_url.or_else(|| std::env::var("AVAX_METRICS_API_URL").ok().filter(|u| !u.trim().is_empty()));
    Ok(MetricsClient::new(base_url.as_deref(), transport)?)
}

/// `chain_id=`: an EVM chain id (int or str of digits) or total/mainnet/testnet.
fn chain_id_arg(value: &Bound<'_, PyAny>) -> PyResult<String> {
    if value.is_instance_of::<PyInt>() && !value.is_instance_of::<PyBool>() {
        return Ok(value.str()?.to_string());
    }
    str_arg(value, "chain_id", "an EVM chain id (str of digits) or one of total, mainnet, testnet")
}

/// `group_by=`: one field name, both comma-separated, or a list of the two.
fn group_by_arg(value: Option<&Bound<'_, PyAny>>) -> PyResult<Option<String>> {
    let Some(value) = value.filter(|v| !v.is_none()) else { return Ok(None) };
    if let Ok(s) = value.cast::<PyString>() {
        return Ok(Some(s.to_string()));
    }
    let parts: Vec<String> = value
        .try_iter()
        .and_then(|items| items.map(|i| i.and_then(|i| i.extract::<String>())).collect::<PyResult<_>>())
        .map_err(|_| invalid("group_by", shown(value), GROUP_BY))?;
    Ok(Some(parts.join(",")))
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
        let batch = to_batch(Resource::IcmSummary, &rows).map_err(|message| Error::Decode {
            message,
            url: "/v2/icm/summary".into(),
            body: String::new(),
        })?;
        polars_frame(py, vec![batch], Resource::IcmSummary.schema())
    }
}

client_twins! {
    /// Synchronous client of the hosted Metrics API (``/v2/...``; no API key).
    ///
    /// ``base_url`` defaults to ``AVAX_METRICS_API_URL``, then ``https://metrics.avax.network``.
    /// Same transport options as :class:`DataClient`. Parameters are checked before any request
    /// (:class:`InvalidParameterError`, a ``ValueError``).
    sync PyMetricsClient("MetricsClient") { PagerOf = PyPager }
    /// Asynchronous twin of :class:`MetricsClient`: ``metric`` / ``chains`` return an
    /// :class:`AsyncPager`, ``icm_summary`` / ``live_check`` are awaitable.
    async PyAsyncMetricsClient("AsyncMetricsClient") { PagerOf = PyAsyncPager }
    state { client: MetricsClient }
    new (*, base_url = None,) (base_url: Option<String> = super::args::base_url,) |transport| {
        Ok(Self { client: build_client(base_url, transport)? })
    }
    shared {
        /// The base URL.
        #[getter]
        fn base_url(&self) -> String {
            self.client.base_url().to_string()
        }

        /// ``GET /v2/chains/{chainId}/metrics/{metric}``: a metric's time series as a lazy
        /// :class:`Pager` of ``{"timestamp": datetime UTC, "value": float}``, newest first; with
        /// both ``start`` and ``end`` (and no ``limit``/``page_token``) the window is fetched as
        /// ``concurrency`` sub-windows side by side, handed out in the service's order.
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
        ) -> PyResult<PagerOf> {
            let chain_id = chain_id_arg(chain_id)?;
            let metric = str_arg(metric, "metric", "a metric name (str)")?;
            let interval = opt_str(interval, "interval", "one of hour, day, week, month")?;
            let (start, end) = (time_arg(start, "start")?, time_arg(end, "end")?);
            let page_size = opt_bounded(page_size, "page_size", 1, crate::metrics::params::MAX_PAGE_SIZE as u64)?;
            let token = page_token_arg(page_token)?;
            let limit = limit_arg(limit)?;
            let concurrency = opt_bounded(concurrency, "concurrency", 1, 64)?.map_or(DEFAULT_CONCURRENCY, |c| c as usize);
            let query = self.client.metric(&chain_id, &metric, interval.as_deref(), start, end, page_size.map(|p| p as i64))?;
            Ok(PagerOf { pager: series_pager(&self.client, query, token, limit, concurrency)? })
        }

        /// ``GET /v2/chains``: the supported chains as a lazy :class:`Pager`, optionally of one
        /// ``network`` (mainnet, fuji, testnet).
        #[pyo3(signature = (network=None, *, page_token=None, limit=None))]
        fn chains(
            &self,
            network: Option<&Bound<'_, PyAny>>,
            page_token: Option<&Bound<'_, PyAny>>,
            limit: Option<&Bound<'_, PyAny>>,
        ) -> PyResult<PagerOf> {
            let network = opt_str(network, "network", NETWORK)?;
            let paged = self.client.chains(network.as_deref())?;
            let (token, limit) = (page_token_arg(page_token)?, limit_arg(limit)?);
            let pager = ResourcePager::tokens(self.client.pager_client(), paged, Resource::MetricsChain, token, limit)?;
            Ok(PagerOf { pager })
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
            let src = opt_str(src_blockchain_id, "src_blockchain_id", "a blockchain id (str)")?;
            let dest = opt_str(dest_blockchain_id, "dest_blockchain_id", "a blockchain id (str)")?;
            let group_by = group_by_arg(group_by)?;
            let network = opt_str(network, "network", NETWORK)?;
            icm_summary_query(src.as_deref(), dest.as_deref(), group_by.as_deref(), network.as_deref())?;
            let client = self.client.clone();
            M::run(py, async move {
                let grouped = group_by.is_some();
                let value = client
                    .icm_summary(src.as_deref(), dest.as_deref(), group_by.as_deref(), network.as_deref())
                    .await?;
                Ok(SummaryOut(value, grouped))
            })
        }

        /// ``GET /v2/live-check``: the health report as a dict.
        fn live_check<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
            let client = self.client.clone();
            M::run(py, async move { Ok(DictOut(client.live_check().await?, None)) })
        }

        fn __repr__(&self) -> String {
            let closed = if self.client.is_closed() { ", closed" } else { "" };
            format!("{CLASS_NAME}({}{closed})", super::show::py_str(self.client.base_url()))
        }
    }
    sync_only {}
    async_only {}
}
