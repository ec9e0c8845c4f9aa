//! Python classes of the Index RPC client: `IndexClient`, `Chain` and their async twins.

use std::collections::HashMap;
use std::sync::Arc;

use pyo3::prelude::*;
use pyo3::types::{PyList, PyString};

use super::args::{bounded_arg, decode_arg, transport_config, u64_arg};
use super::convert::{ContainerOut, ContainersOut, DecodedOut};
use super::errors::{invalid, to_py};
use super::ranges::{FollowSettings, PyAsyncFollow, PyAsyncRange, PyFollow, PyRange, RangeSettings};
use super::wait::{awaitable, wait};
use crate::arrow::decoded::{check_decodable, decode_containers, decoded_schema, DecodeMode};
use crate::index::{ChainClient, Container, IndexClient, IndexClientOptions, IndexPath, Verify, MAX_RANGE};
use crate::transport::config::seconds;

/// Default node URL when neither `url=` nor `AVAX_NODE_URL` is given.
pub const DEFAULT_NODE_URL: &str = "https://api.avax.network";
/// Most range calls in flight a user may ask for.
pub const MAX_CONCURRENCY: u64 = 64;

#[allow(clippy::too_many_arguments)]
fn build_client(
    url: Option<String>,
    timeout: f64,
    connect_timeout: f64,
    max_retries: Option<&Bound<'_, PyAny>>,
    backoff: Option<f64>,
    max_backoff: Option<f64>,
    retry_budget: Option<f64>,
    concurrency: Option<&Bound<'_, PyAny>>,
    verify_ids: bool,
    headers: Option<HashMap<String, String>>,
    max_response_bytes: Option<&Bound<'_, PyAny>>,
    ca_bundle: Option<&Bound<'_, PyAny>>,
    danger_accept_invalid_certs: Option<&Bound<'_, PyAny>>,
    follow_cross_origin_redirects: Option<&Bound<'_, PyAny>>,
    rate_limit: Option<&Bound<'_, PyAny>>,
    compute_units_per_minute: Option<&Bound<'_, PyAny>>,
    retry: Option<&Bound<'_, PyAny>>,
) -> PyResult<IndexClient> {
    let url = url
        .or_else(|| std::env::var("AVAX_NODE_URL").ok().filter(|u| !u.trim().is_empty()))
        .unwrap_or_else(|| DEFAULT_NODE_URL.to_string());
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
    let options = IndexClientOptions {
        transport,
        verify: Verify { ids: verify_ids },
        concurrency: match concurrency {
            Some(n) => bounded_arg(n, "concurrency", 1, MAX_CONCURRENCY)? as usize,
            None => IndexClientOptions::default().concurrency,
        },
    };
    IndexClient::new(&url, options).map_err(to_py)
}

fn parse_path(path: &str) -> PyResult<IndexPath> {
    IndexPath::parse(path).map_err(to_py)
}

fn str_arg(value: &Bound<'_, PyAny>, param: &str) -> PyResult<String> {
    value
        .cast::<PyString>()
        .map(|s| s.to_string())
        .map_err(|_| invalid(param, value.repr().map(|r| r.to_string()).unwrap_or_default(), "a CB58 id as a str"))
}

/// What `container(index=..., id=...)` asks for.
enum Lookup {
    Index(u64),
    Id(String),
}

fn lookup(index: Option<&Bound<'_, PyAny>>, id: Option<&Bound<'_, PyAny>>) -> PyResult<Lookup> {
    match (index, id) {
        (Some(i), None) => Ok(Lookup::Index(u64_arg(i, "index")?)),
        (None, Some(id)) => {
            let id = str_arg(id, "id")?;
            crate::index::client::validate_id(&id).map_err(to_py)?;
            Ok(Lookup::Id(id))
        }
        _ => Err(invalid("index/id", "both or neither", "exactly one of index= or id=")),
    }
}

fn id_arg(id: &Bound<'_, PyAny>) -> PyResult<String> {
    let id = str_arg(id, "id")?;
    crate::index::client::validate_id(&id).map_err(to_py)?;
    Ok(id)
}

fn range_count(count: &Bound<'_, PyAny>) -> PyResult<u64> {
    bounded_arg(count, "count", 0, MAX_RANGE)
}

/// The `decode=` argument, checked against the index before any request.
fn decode_for(chain: &ChainClient, decode: Option<&Bound<'_, PyAny>>) -> PyResult<Option<DecodeMode>> {
    let mode = decode.map(decode_arg).transpose()?.flatten();
    if mode.is_some() {
        check_decodable(chain.path()).map_err(to_py)?;
    }
    Ok(mode)
}

/// One container as a dict: raw, or decoded.
fn item_dict<'py>(
    py: Python<'py>,
    path: IndexPath,
    c: Container,
    decode: Option<DecodeMode>,
) -> PyResult<Bound<'py, PyAny>> {
    match decode {
        None => ContainerOut(c).into_pyobject(py).map(Bound::into_any),
        Some(mode) => decoded_out(path, &c, mode)?.into_pyobject(py),
    }
}

fn decoded_out(path: IndexPath, c: &Container, mode: DecodeMode) -> PyResult<DecodedOut> {
    let batch = decode_containers(path, std::slice::from_ref(c), mode).map_err(to_py)?;
    Ok(DecodedOut(batch, decoded_schema(path).map_err(to_py)?))
}

/// The async result of a single-container call: raw, or decoded.
enum OneOut {
    Raw(ContainerOut),
    Decoded(DecodedOut),
}

impl<'py> IntoPyObject<'py> for OneOut {
    type Target = PyAny;
    type Output = Bound<'py, PyAny>;
    type Error = PyErr;
    fn into_pyobject(self, py: Python<'py>) -> PyResult<Self::Output> {
        match self {
            OneOut::Raw(c) => c.into_pyobject(py).map(Bound::into_any),
            OneOut::Decoded(d) => d.into_pyobject(py),
        }
    }
}

fn one_out(path: IndexPath, c: Container, decode: Option<DecodeMode>) -> PyResult<OneOut> {
    Ok(match decode {
        None => OneOut::Raw(ContainerOut(c)),
        Some(mode) => OneOut::Decoded(decoded_out(path, &c, mode)?),
    })
}

fn range_settings(
    chain: &ChainClient,
    start: &Bound<'_, PyAny>,
    count: Option<&Bound<'_, PyAny>>,
    concurrency: Option<&Bound<'_, PyAny>>,
    batch_size: &Bound<'_, PyAny>,
    decode: Option<DecodeMode>,
) -> PyResult<RangeSettings> {
    let start = u64_arg(start, "start")?;
    let end = match count {
        None => None,
        Some(count) => {
            let count = u64_arg(count, "count")?;
            Some(start.checked_add(count).ok_or_else(|| invalid("count", count, "start + count <= 2**64 - 1"))?)
        }
    };
    let concurrency = match concurrency {
        Some(c) => bounded_arg(c, "concurrency", 1, MAX_CONCURRENCY)? as usize,
        None => chain.concurrency(),
    };
    let chunk = bounded_arg(batch_size, "batch_size", 1, MAX_RANGE)?;
    RangeSettings::new(chain.clone(), start, end, concurrency, chunk, decode).map_err(to_py)
}

fn follow_settings(
    chain: &ChainClient,
    start: Option<&Bound<'_, PyAny>>,
    poll_interval: f64,
    max_poll_interval: f64,
    decode: Option<DecodeMode>,
) -> PyResult<FollowSettings> {
    Ok(FollowSettings {
        decode,
        chain: chain.clone(),
        start: start.map(|s| u64_arg(s, "start")).transpose()?,
        poll_interval: seconds("poll_interval", poll_interval, false).map_err(to_py)?,
        max_poll_interval: seconds("max_poll_interval", max_poll_interval, false).map_err(to_py)?,
    })
}

/// Synchronous client of a node's Index RPC (``/ext/index/...``).
///
/// ``url`` defaults to the ``AVAX_NODE_URL`` environment variable, then
/// ``https://api.avax.network`` (public nodes usually run without ``--index-enabled``: pass your
/// own node, e.g. ``http://127.0.0.1:9650``). Retries connection errors, timeouts, 5xx and 429
/// with jittered exponential backoff (``max_retries=0`` turns that off). Every wait releases
/// the GIL and answers Ctrl-C within 250 ms. Use as a context manager to close it.
#[pyclass(frozen, name = "IndexClient", module = "avax_data._native")]
pub struct PyIndexClient {
    client: IndexClient,
}

#[pymethods]
impl PyIndexClient {
    #[new]
    #[pyo3(signature = (url=None, *, timeout=30.0, connect_timeout=10.0, max_retries=None, backoff=None, max_backoff=None, retry_budget=None, concurrency=None, verify_ids=true, headers=None, max_response_bytes=None, ca_bundle=None, danger_accept_invalid_certs=None, follow_cross_origin_redirects=None, rate_limit=None, compute_units_per_minute=None, retry=None))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        url: Option<String>,
        timeout: f64,
        connect_timeout: f64,
        max_retries: Option<&Bound<'_, PyAny>>,
        backoff: Option<f64>,
        max_backoff: Option<f64>,
        retry_budget: Option<f64>,
        concurrency: Option<&Bound<'_, PyAny>>,
        verify_ids: bool,
        headers: Option<HashMap<String, String>>,
        max_response_bytes: Option<&Bound<'_, PyAny>>,
        ca_bundle: Option<&Bound<'_, PyAny>>,
        danger_accept_invalid_certs: Option<&Bound<'_, PyAny>>,
        follow_cross_origin_redirects: Option<&Bound<'_, PyAny>>,
        rate_limit: Option<&Bound<'_, PyAny>>,
        compute_units_per_minute: Option<&Bound<'_, PyAny>>,
        retry: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Self> {
        let client = build_client(
            url,
            timeout,
            connect_timeout,
            max_retries,
            backoff,
            max_backoff,
            retry_budget,
            concurrency,
            verify_ids,
            headers,
            max_response_bytes,
            ca_bundle,
            danger_accept_invalid_certs,
            follow_cross_origin_redirects,
            rate_limit,
            compute_units_per_minute,
            retry,
        )?;
        Ok(PyIndexClient { client })
    }

    /// The node's base URL (secrets redacted).
    #[getter]
    fn url(&self) -> String {
        self.client.url().to_string()
    }

    /// The retry policy in force, an :class:`avax_data.RetryPolicy`.
    #[getter]
    fn retry<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        super::args::retry_policy_object(py, self.client.retry_policy())
    }

    /// A handle on one index path: ``C/block``, ``P/block``, ``X/tx``, ``X/block`` or ``X/vtx``.
    fn chain(&self, path: &str) -> PyResult<PyChain> {
        Ok(PyChain { chain: self.client.chain(parse_path(path)?) })
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
        format!("IndexClient({:?}{})", self.client.url(), if self.client.is_closed() { ", closed" } else { "" })
    }
}

/// One index path of a node, with the six index methods and lazy range walks.
#[pyclass(frozen, name = "Chain", module = "avax_data._native")]
pub struct PyChain {
    chain: ChainClient,
}

#[pymethods]
impl PyChain {
    /// The short path, e.g. ``C/block``.
    #[getter]
    fn path(&self) -> &'static str {
        self.chain.path().as_str()
    }

    /// ``index.getLastAccepted``: the most recently accepted container (decoded with
    /// ``decode=True`` or ``"strict"``).
    #[pyo3(signature = (*, decode=None))]
    fn last_accepted<'py>(&self, py: Python<'py>, decode: Option<&Bound<'py, PyAny>>) -> PyResult<Bound<'py, PyAny>> {
        let decode = decode_for(&self.chain, decode)?;
        let c = wait(py, self.chain.last_accepted())?;
        item_dict(py, self.chain.path(), c, decode)
    }

    /// ``index.getContainerByIndex`` (``index=``) or ``index.getContainerByID`` (``id=``);
    /// decoded with ``decode=True`` or ``"strict"``.
    #[pyo3(signature = (index=None, *, id=None, decode=None))]
    fn container<'py>(
        &self,
        py: Python<'py>,
        index: Option<&Bound<'py, PyAny>>,
        id: Option<&Bound<'py, PyAny>>,
        decode: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let decode = decode_for(&self.chain, decode)?;
        let c = match lookup(index, id)? {
            Lookup::Index(i) => wait(py, self.chain.container_by_index(i))?,
            Lookup::Id(id) => wait(py, self.chain.container_by_id(&id))?,
        };
        item_dict(py, self.chain.path(), c, decode)
    }

    /// ``index.getContainerRange``: one call, ``count`` in [0, 1024]; 0 answers ``[]`` locally.
    fn container_range<'py>(
        &self,
        py: Python<'py>,
        start: &Bound<'py, PyAny>,
        count: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyList>> {
        let (start, count) = (u64_arg(start, "start")?, range_count(count)?);
        let containers = wait(py, self.chain.container_range(start, count))?;
        ContainersOut(containers).into_pyobject(py)
    }

    /// ``index.getIndex``: the index of the container with this id.
    fn index_of(&self, py: Python<'_>, id: &Bound<'_, PyAny>) -> PyResult<u64> {
        let id = id_arg(id)?;
        wait(py, self.chain.index_of(&id))
    }

    /// ``index.isAccepted``: whether this id is in the index (unknown ids are ``False``).
    fn is_accepted(&self, py: Python<'_>, id: &Bound<'_, PyAny>) -> PyResult<bool> {
        let id = id_arg(id)?;
        wait(py, self.chain.is_accepted(&id))
    }

    /// A lazy walk over ``[start, start+count)``, or to the tip seen when the walk starts.
    ///
    /// Calls of at most ``batch_size`` (<= 1024) containers, ``concurrency`` in flight
    /// (default: the client's), delivered in index order.
    #[pyo3(signature = (start=None, count=None, *, concurrency=None, batch_size=None, decode=None))]
    fn range(
        &self,
        py: Python<'_>,
        start: Option<&Bound<'_, PyAny>>,
        count: Option<&Bound<'_, PyAny>>,
        concurrency: Option<&Bound<'_, PyAny>>,
        batch_size: Option<&Bound<'_, PyAny>>,
        decode: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<PyRange> {
        let (zero, full) = (0u32.into_pyobject(py)?.into_any(), (MAX_RANGE as u32).into_pyobject(py)?.into_any());
        let settings = range_settings(
            &self.chain,
            start.unwrap_or(&zero),
            count,
            concurrency,
            batch_size.unwrap_or(&full),
            decode_for(&self.chain, decode)?,
        )?;
        Ok(PyRange::new(settings))
    }

    /// An endless iterator of newly accepted containers from ``start`` (default: after the tip).
    ///
    /// Polls every ``poll_interval`` seconds, doubling the wait up to ``max_poll_interval``
    /// while nothing new comes. Stop it with ``close()`` or Ctrl-C.
    #[pyo3(signature = (start=None, *, poll_interval=1.0, max_poll_interval=30.0, decode=None))]
    fn follow(
        &self,
        start: Option<&Bound<'_, PyAny>>,
        poll_interval: f64,
        max_poll_interval: f64,
        decode: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<PyFollow> {
        PyFollow::new(follow_settings(
            &self.chain,
            start,
            poll_interval,
            max_poll_interval,
            decode_for(&self.chain, decode)?,
        )?)
        .map_err(to_py)
    }

    fn __repr__(&self) -> String {
        format!("Chain({:?})", self.chain.path().as_str())
    }
}

/// Asynchronous twin of :class:`IndexClient` (same options); methods return awaitables.
#[pyclass(frozen, name = "AsyncIndexClient", module = "avax_data._native")]
pub struct PyAsyncIndexClient {
    client: IndexClient,
}

#[pymethods]
impl PyAsyncIndexClient {
    #[new]
    #[pyo3(signature = (url=None, *, timeout=30.0, connect_timeout=10.0, max_retries=None, backoff=None, max_backoff=None, retry_budget=None, concurrency=None, verify_ids=true, headers=None, max_response_bytes=None, ca_bundle=None, danger_accept_invalid_certs=None, follow_cross_origin_redirects=None, rate_limit=None, compute_units_per_minute=None, retry=None))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        url: Option<String>,
        timeout: f64,
        connect_timeout: f64,
        max_retries: Option<&Bound<'_, PyAny>>,
        backoff: Option<f64>,
        max_backoff: Option<f64>,
        retry_budget: Option<f64>,
        concurrency: Option<&Bound<'_, PyAny>>,
        verify_ids: bool,
        headers: Option<HashMap<String, String>>,
        max_response_bytes: Option<&Bound<'_, PyAny>>,
        ca_bundle: Option<&Bound<'_, PyAny>>,
        danger_accept_invalid_certs: Option<&Bound<'_, PyAny>>,
        follow_cross_origin_redirects: Option<&Bound<'_, PyAny>>,
        rate_limit: Option<&Bound<'_, PyAny>>,
        compute_units_per_minute: Option<&Bound<'_, PyAny>>,
        retry: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Self> {
        let client = build_client(
            url,
            timeout,
            connect_timeout,
            max_retries,
            backoff,
            max_backoff,
            retry_budget,
            concurrency,
            verify_ids,
            headers,
            max_response_bytes,
            ca_bundle,
            danger_accept_invalid_certs,
            follow_cross_origin_redirects,
            rate_limit,
            compute_units_per_minute,
            retry,
        )?;
        Ok(PyAsyncIndexClient { client })
    }

    /// The node's base URL (secrets redacted).
    #[getter]
    fn url(&self) -> String {
        self.client.url().to_string()
    }

    /// The retry policy in force, an :class:`avax_data.RetryPolicy`.
    #[getter]
    fn retry<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        super::args::retry_policy_object(py, self.client.retry_policy())
    }

    /// A handle on one index path.
    fn chain(&self, path: &str) -> PyResult<PyAsyncChain> {
        Ok(PyAsyncChain { chain: Arc::new(self.client.chain(parse_path(path)?)) })
    }

    /// Close the client (awaitable): later calls raise ``AvaxDataError``.
    fn close<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        self.client.close();
        awaitable(py, async { Ok(()) })
    }

    fn __aenter__<'py>(slf: Py<Self>, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        awaitable(py, async move { Ok(slf) })
    }

    #[pyo3(signature = (*_exc))]
    fn __aexit__<'py>(&self, py: Python<'py>, _exc: &Bound<'py, pyo3::types::PyTuple>) -> PyResult<Bound<'py, PyAny>> {
        self.client.close();
        awaitable(py, async { Ok(()) })
    }

    fn __repr__(&self) -> String {
        format!("AsyncIndexClient({:?}{})", self.client.url(), if self.client.is_closed() { ", closed" } else { "" })
    }
}

/// Asynchronous twin of :class:`Chain`: the same methods, returning awaitables.
#[pyclass(frozen, name = "AsyncChain", module = "avax_data._native")]
pub struct PyAsyncChain {
    chain: Arc<ChainClient>,
}

#[pymethods]
impl PyAsyncChain {
    /// The short path, e.g. ``C/block``.
    #[getter]
    fn path(&self) -> &'static str {
        self.chain.path().as_str()
    }

    /// ``index.getLastAccepted`` (awaitable); ``decode`` as in :meth:`Chain.last_accepted`.
    #[pyo3(signature = (*, decode=None))]
    fn last_accepted<'py>(&self, py: Python<'py>, decode: Option<&Bound<'py, PyAny>>) -> PyResult<Bound<'py, PyAny>> {
        let decode = decode_for(&self.chain, decode)?;
        let chain = self.chain.clone();
        awaitable(py, async move {
            let c = chain.last_accepted().await.map_err(to_py)?;
            one_out(chain.path(), c, decode)
        })
    }

    /// ``index.getContainerByIndex`` / ``index.getContainerByID`` (awaitable); ``decode`` as in
    /// :meth:`Chain.container`.
    #[pyo3(signature = (index=None, *, id=None, decode=None))]
    fn container<'py>(
        &self,
        py: Python<'py>,
        index: Option<&Bound<'py, PyAny>>,
        id: Option<&Bound<'py, PyAny>>,
        decode: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let decode = decode_for(&self.chain, decode)?;
        let chain = self.chain.clone();
        let lookup = lookup(index, id)?;
        awaitable(py, async move {
            let c = match lookup {
                Lookup::Index(i) => chain.container_by_index(i).await,
                Lookup::Id(id) => chain.container_by_id(&id).await,
            };
            one_out(chain.path(), c.map_err(to_py)?, decode)
        })
    }

    /// ``index.getContainerRange`` (awaitable), ``count`` in [0, 1024].
    fn container_range<'py>(
        &self,
        py: Python<'py>,
        start: &Bound<'py, PyAny>,
        count: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let (start, count) = (u64_arg(start, "start")?, range_count(count)?);
        let chain = self.chain.clone();
        awaitable(py, async move { chain.container_range(start, count).await.map(ContainersOut).map_err(to_py) })
    }

    /// ``index.getIndex`` (awaitable).
    fn index_of<'py>(&self, py: Python<'py>, id: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
        let (id, chain) = (id_arg(id)?, self.chain.clone());
        awaitable(py, async move { chain.index_of(&id).await.map_err(to_py) })
    }

    /// ``index.isAccepted`` (awaitable).
    fn is_accepted<'py>(&self, py: Python<'py>, id: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
        let (id, chain) = (id_arg(id)?, self.chain.clone());
        awaitable(py, async move { chain.is_accepted(&id).await.map_err(to_py) })
    }

    /// A lazy walk (``async for``), like :meth:`Chain.range`.
    #[pyo3(signature = (start=None, count=None, *, concurrency=None, batch_size=None, decode=None))]
    fn range(
        &self,
        py: Python<'_>,
        start: Option<&Bound<'_, PyAny>>,
        count: Option<&Bound<'_, PyAny>>,
        concurrency: Option<&Bound<'_, PyAny>>,
        batch_size: Option<&Bound<'_, PyAny>>,
        decode: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<PyAsyncRange> {
        let (zero, full) = (0u32.into_pyobject(py)?.into_any(), (MAX_RANGE as u32).into_pyobject(py)?.into_any());
        let settings = range_settings(
            &self.chain,
            start.unwrap_or(&zero),
            count,
            concurrency,
            batch_size.unwrap_or(&full),
            decode_for(&self.chain, decode)?,
        )?;
        Ok(PyAsyncRange::new(settings))
    }

    /// An endless ``async for`` of newly accepted containers, like :meth:`Chain.follow`.
    #[pyo3(signature = (start=None, *, poll_interval=1.0, max_poll_interval=30.0, decode=None))]
    fn follow(
        &self,
        start: Option<&Bound<'_, PyAny>>,
        poll_interval: f64,
        max_poll_interval: f64,
        decode: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<PyAsyncFollow> {
        PyAsyncFollow::new(follow_settings(
            &self.chain,
            start,
            poll_interval,
            max_poll_interval,
            decode_for(&self.chain, decode)?,
        )?)
        .map_err(to_py)
    }

    fn __repr__(&self) -> String {
        format!("AsyncChain({:?})", self.chain.path().as_str())
    }
}
