//! `MetricsClient` and `AsyncMetricsClient`: the hosted Metrics API for Python. Lists come back
//! as the Data API's lazy pagers (a metric series sharded over its window when that pays).

use pyo3::prelude::*;
use pyo3::types::PyString;

use super::args::{client_twins, limit_arg, opt_bounded, opt_str, page_token_arg, shown, str_arg};
use super::convert::{object_to_py, polars_frame, DictOut};
use super::errors::invalid;
use super::inputs::{chain_id_arg, time_arg};
use super::mode::Mode;
use super::pagers::{PyAsyncPager, PyPager};
use avax_data_core::arrow::metrics as schema;
use avax_data_core::arrow::{to_batch, Resource};
use avax_data_core::data::ResourcePager;
use avax_data_core::error::Error;
use avax_data_core::exact::Exact;
use avax_data_core::metrics::client::icm_summary_query;
use avax_data_core::metrics::series::series_pager;
use avax_data_core::metrics::{MetricsClient, DEFAULT_CONCURRENCY};

const NETWORK: &str = "one of mainnet, fuji, testnet";
const GROUP_BY: &str = "one of srcBlockchainId, destBlockchainId, srcBlockchainId,destBlockchainId";

fn build_client(
    base_url: Option<String>,
    cache: Option<std::sync::Arc<avax_data_core::cache::Store>>,
    transport: avax_data_core::transport::TransportConfig,
) -> PyResult<MetricsClient> {
    let base_url = avax_data_core::settings::metrics_url(base_url);
    let client = MetricsClient::new(base_url.as_deref(), transport).map_err(crate::errors::to_py)?;
    if let Some(store) = cache {
        client.set_cache(store);
    }
    Ok(client)
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
struct SummaryOut(Exact, bool);

impl<'py> IntoPyObject<'py> for SummaryOut {
    type Target = PyAny;
    type Output = Bound<'py, PyAny>;
    type Error = PyErr;
    fn into_pyobject(self, py: Python<'py>) -> PyResult<Self::Output> {
        let SummaryOut(value, grouped) = self;
        let rows = match value {
            Exact::Array(rows) if !grouped && rows.len() == 1 => {
                return object_to_py(py, &rows[0], Some(schema::ICM_SUMMARY))
            }
            Exact::Array(rows) => rows,
            Exact::Object(_) if !grouped => return object_to_py(py, &value, Some(schema::ICM_SUMMARY)),
            other => vec![other],
        };
        let batch = to_batch(Resource::IcmSummary, &rows)
            .map_err(|message| Error::Decode { message, url: "/v2/icm/summary".into(), body: String::new() })
            .map_err(crate::errors::to_py)?;
        polars_frame(py, vec![batch], Resource::IcmSummary.schema())
    }
}

/// The series a metric dataset method names: chain id, metric, interval and the window from
/// `start` to `end` (`now` when `None`), read by the shared rules.
fn dataset_series(
    chain_id: &Bound<'_, PyAny>,
    metric: &Bound<'_, PyAny>,
    interval: &Bound<'_, PyAny>,
    start: &Bound<'_, PyAny>,
    end: Option<&Bound<'_, PyAny>>,
    now: i64,
) -> PyResult<(String, String, String, (i64, i64))> {
    let chain_id = chain_id_arg(chain_id, "chain_id")?;
    let metric = str_arg(metric, "metric", "a metric name (str)")?;
    let interval = str_arg(interval, "interval", "one of hour, day, week, month")?;
    let start = time_arg(Some(start), "start")?.ok_or_else(|| invalid("start", "None", "a time"))?;
    let end = time_arg(end, "end")?.unwrap_or(now);
    Ok((chain_id, metric, interval, (start, end)))
}

client_twins! {
    /// Synchronous client of the hosted Metrics API (``/v2/...``).
    ///
    /// It reads chain metric time series, the supported chains and the ICM summary; it needs no
    /// API key and sends no auth header.
    ///
    /// Lists come back as a lazy, resumable :class:`Pager` (a metric series over a window is
    /// fetched as sub-windows side by side). Parameters are checked before any request. Use it as
    /// a context manager, or call :meth:`close`.
    ///
    /// Args:
    ///     base_url: the service root (str), the first positional argument or ``base_url=``
    ///         (every other option is keyword-only). Default ``None``:
    ///         ``AVAX_METRICS_API_URL``, then ``https://metrics.avax.network``; a URL ending in
    ///         ``/v2`` is taken as the root.
    ///     url: not a name of this client's URL: refused with a ``TypeError`` that names
    ///         ``base_url=`` (only :class:`IndexClient` takes ``url=``, its deprecated old name).
    ///     cache: a directory (str or ``os.PathLike``) caching the closed buckets of metric
    ///         series on disk (a window's open last bucket is always fetched); ``False`` or
    ///         ``None``: no cache. Left out: the ``AVAX_DATA_CACHE`` environment variable, else no
    ///         cache. See the cache guide.
    ///     cache_max_bytes: the cache's size bound in bytes, an int >= 1; default ``None``: 1 GiB.
    ///     timeout, connect_timeout, max_retries, backoff, max_backoff, retry_budget, headers,
    ///         max_response_bytes, ca_bundle, danger_accept_invalid_certs,
    ///         follow_cross_origin_redirects, retry, rate_limit, compute_units_per_minute: the
    ///         transport options of :class:`IndexClient`,
    ///         with the same defaults.
    ///
    /// Raises:
    ///     InvalidParameterError: a bad option, raised by the constructor before any request.
    ///
    /// Example:
    ///     The examples run against the offline emulator as ``emu``; in full:
    ///
    ///     >>> import avax_data as ad
    ///     >>> emu = ad.Emulator(containers=1_000, data_blocks_per_chain=500)
    ///     >>> import datetime as dt
    ///     >>> metrics = ad.MetricsClient(emu.url)    # the real service: ad.MetricsClient()
    ///     >>> days = metrics.metric("43114", "txCount", interval="day",
    ///     ...                       start=dt.date(2025, 12, 29), end=dt.date(2026, 1, 1))
    ///     >>> [p["value"] for p in days]
    ///     [892848.0, 887602.0, 850453.0]
    ///     >>> metrics.close()
    ///     >>> emu.close()
    sync PyMetricsClient("MetricsClient") { PagerOf = PyPager }
    /// Asynchronous twin of :class:`MetricsClient`: the same options and methods.
    ///
    /// ``metric()`` and ``chains()`` return at once an :class:`AsyncPager` to walk with
    /// ``async for`` (its exports are awaited); ``icm_summary()`` and ``live_check()`` are
    /// awaited. The shared method docstrings show the sync calls.
    ///
    /// Example:
    ///     >>> import asyncio
    ///     >>> async def main():
    ///     ...     async with ad.AsyncMetricsClient(base_url=emu.url) as metrics:
    ///     ...         series = await metrics.metric("43114", "activeAddresses", interval="day",
    ///     ...                                       start="2025-12-30", end="2026-01-01").to_polars()
    ///     ...         names = [c["chainName"] async for c in metrics.chains(network="mainnet", limit=2)]
    ///     ...         status = (await metrics.live_check())["status"]
    ///     ...         return series["value"].to_list(), names, status
    ///     >>> asyncio.run(main())
    ///     ([981.0, 892.0], ['Avalanche (C-Chain)', 'Beam'], 'ok')
    async PyAsyncMetricsClient("AsyncMetricsClient") { PagerOf = PyAsyncPager }
    state { client: MetricsClient }
    new (base_url = None, *, url = None, cache = avax_data_core::cache::CacheChoice::FromEnv, cache_max_bytes = None,) (
        base_url: Option<String> = super::args::base_url,
        url: Option<String> = super::args::url,
        cache: avax_data_core::cache::CacheChoice = super::cache::cache_arg,
        cache_max_bytes: Option<u64> = super::cache::max_bytes_arg,
    ) |transport| {
        super::args::refuse_url(CLASS_NAME, url)?;
        let cache = super::cache::open(&cache, cache_max_bytes)?;
        Ok(Self { client: build_client(base_url, cache, transport)? })
    }
    /// The service root, with any password in it redacted.
    ///
    /// Example:
    ///     >>> ad.MetricsClient(base_url="https://metrics.example/v2").base_url
    ///     'https://metrics.example'
    url base_url;
    operations MetricsClient;
    shared {
        /// Write a metric series as a dataset: a directory of Parquet files, one per UTC month,
        /// readable as one table.
        ///
        /// The layout is hive-style, ``path/chain=<chain>/month=<YYYYMM>/part.parquet``, with a
        /// manifest ``_avax_dataset.json`` as :meth:`Range.write_dataset` writes. Each month is
        /// asked as its own window (from one second before it, cut on the client to the month),
        /// so no point is lost or repeated at a month's edge. A month that had ended when it was
        /// written is complete: a rerun skips it (its file unchanged), writes the current month
        /// again, and adds new months.
        ///
        /// Args:
        ///     path: the dataset directory (str or ``os.PathLike``), created when missing.
        ///     chain_id, metric, interval: as in :meth:`metric` (``interval`` required).
        ///     start: the first second (an int, ``datetime`` or ``date``).
        ///     end: the end (exclusive); default ``None``: now.
        ///     compression, row_group_size: as in :meth:`Range.write_parquet`.
        ///     progress: ``True`` for a bar of the points written, or your own bar.
        ///
        /// Returns:
        ///     dict: ``partitions_written``, ``partitions_skipped``, ``rows_written`` and
        ///     ``rows_skipped`` of this run.
        ///
        /// Raises:
        ///     InvalidParameterError: a bad argument, or ``path`` holds another series' dataset.
        ///     DatasetLockedError: another writer holds ``path`` (at once, before any request).
        ///     AvaxDataError: a failed request (the months written before it stay).
        ///
        /// Example:
        ///     >>> import tempfile
        ///     >>> out = tempfile.mkdtemp()
        ///     >>> metrics = ad.MetricsClient(base_url=emu.url)
        ///     >>> done = metrics.write_dataset(out, "43114", "txCount", interval="day", start=0, end=2**31)
        ///     >>> frame = pl.read_parquet(f"{out}/**/*.parquet", hive_partitioning=True)
        ///     >>> frame.height == done["rows_written"], frame.columns
        ///     (True, ['timestamp', 'value', 'extra', 'chain', 'month'])
        #[pyo3(signature = (path, chain_id, metric, *, interval, start, end=None, compression="snappy", row_group_size=65536, progress=None))]
        #[allow(clippy::too_many_arguments)]
        fn write_dataset<'py>(
            &self,
            py: Python<'py>,
            #[pyo3(from_py_with = super::args::dir_path)] path: std::path::PathBuf,
            chain_id: &Bound<'_, PyAny>,
            metric: &Bound<'_, PyAny>,
            interval: &Bound<'_, PyAny>,
            start: &Bound<'_, PyAny>,
            end: Option<&Bound<'_, PyAny>>,
            #[pyo3(from_py_with = super::args::compression)] compression: &str,
            #[pyo3(from_py_with = super::args::row_group_size)] row_group_size: u64,
            progress: Option<&Bound<'py, PyAny>>,
        ) -> PyResult<Bound<'py, PyAny>> {
            let now = chrono::Utc::now().timestamp();
            let (chain_id, metric, interval, (start, end)) = dataset_series(chain_id, metric, interval, start, end, now)?;
            let options = avax_data_core::arrow::ParquetOptions::new(compression, row_group_size).map_err(crate::errors::to_py)?;
            let bar = super::progress::bar(py, progress, &format!("{chain_id} {metric}"), || None)?;
            let rows = super::progress::on_rows(&bar);
            let client = self.client.clone();
            M::run(py, super::mode::Call(CLASS_NAME, "write_dataset"), async move {
                let done = super::progress::finished(
                    bar,
                    avax_data_core::dataset::metrics::write_metric_dataset(
                        &client, &chain_id, &metric, &interval, start, end, now, &path, options, rows,
                    ),
                )
                .await.map_err(crate::errors::to_py)?;
                Ok(super::walks::summary_dict(done))
            })
        }
    }
    raw {
        /// The cost plan of :meth:`write_dataset` with the same arguments, sending nothing: a
        /// :class:`Plan`.
        ///
        /// Each month the dataset in ``path`` holds whole (ended when written, its file
        /// unchanged) is counted out (``held``: its points); every other month (missing, open when
        /// written, altered) costs the pages of its own window. Reads the manifest only: nothing
        /// is sent or written and the lock is not taken. A bad argument, or ``path`` holding
        /// another series' dataset, raises :class:`InvalidParameterError` as the write would.
        ///
        /// Example:
        ///     >>> import tempfile
        ///     >>> out = tempfile.mkdtemp()
        ///     >>> metrics = ad.MetricsClient(base_url=emu.url)
        ///     >>> metrics.plan_dataset(out, "43114", "txCount", interval="day", start=0, end=86_400 * 59).requests  # Jan, Feb 1970
        ///     2
        #[pyo3(signature = (path, chain_id, metric, *, interval, start, end=None))]
        fn plan_dataset(&self, path, chain_id, metric, interval, start; end) -> PyResult<super::plan::PyPlan> {
            let path = super::args::dir_path(path)?;
            let now = chrono::Utc::now().timestamp();
            let (chain_id, metric, interval, window) = dataset_series(chain_id, metric, interval, start, end, now)?;
            let plan = avax_data_core::dataset::planned_metrics::plan_metric_dataset(
                &self.client, &chain_id, &metric, &interval, window, &path,
            );
            super::plan::plan_of(Some(plan.map_err(crate::errors::to_py)?))
        }

        /// A chain metric's time series (``GET /v2/chains/{chainId}/metrics/{metric}``).
        ///
        /// Items are ``{"timestamp": datetime (UTC), "value": float}`` in the service's order,
        /// newest first on the hosted service (``df.sort("timestamp")`` for oldest first). With
        /// both ``start`` and ``end``, no ``limit`` or ``page_token``, and ``concurrency`` > 1,
        /// the window is fetched as up to ``concurrency`` sub-windows side by side, handed out in
        /// the service's order as they complete; the result equals the page-by-page walk exactly.
        ///
        /// Args:
        ///     chain_id: an EVM chain id (``"43114"`` or ``43114``), or ``"total"``,
        ///         ``"mainnet"`` or ``"testnet"``.
        ///     metric: one of ``activeAddresses``, ``activeSenders``, ``cumulativeTxCount``,
        ///         ``cumulativeAddresses``, ``cumulativeContracts``, ``cumulativeDeployers``,
        ///         ``contracts``, ``deployers``, ``gasUsed``, ``txCount``, ``avgGps``, ``maxGps``,
        ///         ``avgTps``, ``maxTps``, ``avgGasPrice``, ``maxGasPrice``, ``feesPaid``.
        ///     interval: ``"hour"``, ``"day"``, ``"week"`` or ``"month"`` (only
        ///         ``activeAddresses``, ``activeSenders``, ``gasUsed`` and ``txCount`` take all
        ///         four; the others only ``"day"``); default ``None``: the service's default.
        ///     start: the window's start (``startTimestamp``): a time by the shared rule (docs:
        ///         Inputs): int Unix seconds, ``"YYYY-MM-DD"``, RFC 3339 text with an offset, a
        ///         ``date`` (00:00 UTC), an aware ``datetime`` or a ``numpy.datetime64``; default ``None``.
        ///     end: the window's end (``endTimestamp``), as ``start``, after it; default ``None``.
        ///     page_size: items per request, an int in [1, 2160]; default ``None``: 2160.
        ///     page_token: start from this saved token (a page-by-page walk).
        ///     limit: most items handed out in total; default ``None``: all.
        ///     concurrency: sub-windows fetched side by side, an int in [1, 64]; default
        ///         ``None``: 4.
        ///
        /// Returns:
        ///     Pager: the points; frames of the ``metric_value`` schema (``timestamp``
        ///     Datetime("ns", "UTC"), ``value`` Float64, ``extra`` String: the JSON object of
        ///     a point's fields the document does not name, null when there are none).
        ///
        /// Raises:
        ///     InvalidParameterError: an unknown metric, an interval the metric does not take,
        ///         bad times (negative, ``start`` after ``end``), a bad page size; before any
        ///         request. Errors of the service come from the pager's consumers.
        ///
        /// Example:
        ///     >>> import datetime as dt
        ///     >>> metrics = ad.MetricsClient(base_url=emu.url)
        ///     >>> series = metrics.metric(43114, "txCount", interval="hour",
        ///     ...                         start="2025-12-31T22:00:00Z", end="2026-01-01T00:00:00Z")
        ///     >>> [(p["timestamp"].isoformat(), p["value"]) for p in series]
        ///     [('2025-12-31T23:00:00+00:00', 23692.0), ('2025-12-31T22:00:00+00:00', 37297.0)]
        ///     >>> metrics.metric("43114", "avgTps", interval="hour")
        ///     Traceback (most recent call last):
        ///     ...
        ///     avax_data.exceptions.InvalidParameterError: invalid interval="hour": day (metric avgTps supports only timeInterval=day; ...)
        #[pyo3(signature = (chain_id, metric, *, interval=None, start=None, end=None, page_size=None, page_token=None, limit=None, concurrency=None))]
        fn metric(
            &self, chain_id, metric; interval, start, end, page_size, page_token, limit, concurrency
        ) -> PyResult<PagerOf> {
            let chain_id = chain_id_arg(chain_id, "chain_id")?;
            let metric = str_arg(metric, "metric", "a metric name (str)")?;
            let interval = opt_str(interval, "interval", "one of hour, day, week, month")?;
            let (start, end) = (time_arg(start, "start")?, time_arg(end, "end")?);
            let page_size = opt_bounded(page_size, "page_size", 1, avax_data_core::metrics::params::MAX_PAGE_SIZE as u64)?;
            let token = page_token_arg(page_token)?;
            let limit = limit_arg(limit)?;
            let concurrency = opt_bounded(concurrency, "concurrency", 1, avax_data_core::settings::MAX_CONCURRENCY as u64)?.map_or(DEFAULT_CONCURRENCY, |c| c as usize);
            let query = self.client.metric(&chain_id, &metric, interval.as_deref(), start, end, page_size.map(|p| p as i64)).map_err(crate::errors::to_py)?;
            Ok(PagerOf { pager: series_pager(&self.client, query, token, limit, concurrency).map_err(crate::errors::to_py)? })
        }

        /// The chains the Metrics API covers (``GET /v2/chains``), token-paged.
        ///
        /// Args:
        ///     network: ``"mainnet"``, ``"fuji"`` or ``"testnet"``; default ``None``: all.
        ///     page_token: start from this saved token.
        ///     limit: most items handed out in total; default ``None``: all.
        ///
        /// Returns:
        ///     Pager: dicts (``evmChainId``, ``chainName``, ``blockchainId``, ``subnetId``,
        ///     ``network``); frames of the ``metrics_chain`` schema.
        ///
        /// Raises:
        ///     InvalidParameterError: a bad argument, before any request.
        ///
        /// Example:
        ///     >>> metrics = ad.MetricsClient(base_url=emu.url)
        ///     >>> metrics.chains(network="testnet").to_polars()["evmChainId"].to_list()
        ///     [43113, 173750, 779672, 11111]
        #[pyo3(signature = (network=None, *, page_token=None, limit=None))]
        fn chains(&self; network, page_token, limit) -> PyResult<PagerOf> {
            let network = opt_str(network, "network", NETWORK)?;
            let paged = self.client.chains(network.as_deref()).map_err(crate::errors::to_py)?;
            let (token, limit) = (page_token_arg(page_token)?, limit_arg(limit)?);
            let pager = ResourcePager::tokens(&self.client, paged, Resource::MetricsChain, token, limit).map_err(crate::errors::to_py)?;
            Ok(PagerOf { pager })
        }

        /// Rolling counts of interchain (ICM) messages (``GET /v2/icm/summary``).
        ///
        /// Args:
        ///     src_blockchain_id: only messages from this blockchain id; default ``None``: all.
        ///     dest_blockchain_id: only messages to this blockchain id; default ``None``: all.
        ///     group_by: ``"srcBlockchainId"``, ``"destBlockchainId"``, both comma-separated, or
        ///         a list of the two names; default ``None``: one total.
        ///     network: ``"mainnet"``, ``"fuji"`` or ``"testnet"``; default ``None``: all.
        ///
        /// Returns:
        ///     dict | polars.DataFrame: a dict for a single result (``srcBlockchainId``,
        ///     ``destBlockchainId``, ``lastHour``, ``lastDay``, ``lastWeek``, ``lastMonth``,
        ///     ``last90Days``, ``lastYear``, ``allTime``); a DataFrame of those columns when
        ///     ``group_by`` is given or the service answers a list.
        ///
        /// Raises:
        ///     InvalidParameterError: a bad argument, before any request.
        ///     HTTPStatusError: the service said no (:class:`BadRequestError`,
        ///         :class:`ServerError`, ...).
        ///     AvaxDataError: any other failure (:class:`TransportError`, :class:`DecodeError`).
        ///
        /// Example:
        ///     >>> metrics = ad.MetricsClient(base_url=emu.url)
        ///     >>> metrics.icm_summary(network="mainnet")["allTime"]
        ///     300
        ///     >>> metrics.icm_summary(group_by=["srcBlockchainId", "destBlockchainId"]).shape
        ///     (12, 10)
        #[pyo3(signature = (src_blockchain_id=None, dest_blockchain_id=None, *, group_by=None, network=None))]
        fn icm_summary<'py>(
            &self; src_blockchain_id, dest_blockchain_id, group_by, network
        ) with py -> PyResult<Bound<'py, PyAny>> {
            let src = opt_str(src_blockchain_id, "src_blockchain_id", "a blockchain id (str)")?;
            let dest = opt_str(dest_blockchain_id, "dest_blockchain_id", "a blockchain id (str)")?;
            let group_by = group_by_arg(group_by)?;
            let network = opt_str(network, "network", NETWORK)?;
            icm_summary_query(src.as_deref(), dest.as_deref(), group_by.as_deref(), network.as_deref()).map_err(crate::errors::to_py)?;
            let client = self.client.clone();
            M::run(py, super::mode::Call(CLASS_NAME, "icm_summary"), async move {
                let grouped = group_by.is_some();
                let value = client
                    .icm_summary(src.as_deref(), dest.as_deref(), group_by.as_deref(), network.as_deref())
                    .await.map_err(crate::errors::to_py)?;
                Ok(SummaryOut(value, grouped))
            })
        }

        /// The service's health report (``GET /v2/live-check``).
        ///
        /// Returns:
        ///     dict: ``{"status": "ok", "info": ..., "error": ..., "details": ...}``.
        ///
        /// Raises:
        ///     ServerError: the service is unhealthy (HTTP 503), after the retries.
        ///     AvaxDataError: any other failure (:class:`TransportError`, :class:`DecodeError`).
        ///
        /// Example:
        ///     >>> ad.MetricsClient(base_url=emu.url).live_check()["status"]
        ///     'ok'
        fn live_check<'py>(&self) with py -> PyResult<Bound<'py, PyAny>> {
            let client = self.client.clone();
            M::run(py, super::mode::Call(CLASS_NAME, "live_check"), async move { Ok(DictOut(client.live_check().await.map_err(crate::errors::to_py)?, None)) })
        }
    }
    sync_only {}
    async_only {}
}
