//! `IndexClient` and `Chain` (and their async twins): a node's Index RPC for Python.

use std::time::Duration;

use pyo3::prelude::*;

use super::args::{bounded_arg, client_twins, decode_arg, str_arg, u64_arg};
use super::convert::DecodedOut;
use super::errors::invalid;
use super::iters::IndexItem;
use super::mode::{twins, Mode};
use super::walks::{follow_state, PyAsyncFollow, PyAsyncRange, PyFollow, PyRange};
use crate::arrow::decoded::{check_decodable, decode_containers, decoded_schema, DecodeMode};
use crate::index::MAX_RANGE;
use crate::index::{ChainClient, Container, FollowWalk, IndexClient, IndexClientOptions, IndexPath, RangeWalk, Verify};

/// Default node URL when neither `url=` nor `AVAX_NODE_URL` is given.
pub const DEFAULT_NODE_URL: &str = "https://api.avax.network";

fn build_client(
    url: Option<String>,
    concurrency: usize,
    verify_ids: bool,
    transport: crate::transport::TransportConfig,
) -> PyResult<IndexClient> {
    let url = url
        .or_else(|| std::env::var("AVAX_NODE_URL").ok().filter(|u| !u.trim().is_empty()))
        .unwrap_or_else(|| DEFAULT_NODE_URL.to_string());
    let options = IndexClientOptions { transport, verify: Verify { ids: verify_ids }, concurrency };
    Ok(IndexClient::new(&url, options)?)
}

/// A CB58 id argument, checked by its grammar before any request.
fn id_arg(id: &Bound<'_, PyAny>) -> PyResult<String> {
    let id = str_arg(id, "id", "a CB58 id as a str")?;
    crate::index::client::validate_id(&id)?;
    Ok(id)
}

/// What `container(index=..., id=...)` asks for.
enum Lookup {
    Index(u64),
    Id(String),
}

fn lookup(index: Option<&Bound<'_, PyAny>>, id: Option<&Bound<'_, PyAny>>) -> PyResult<Lookup> {
    match (index.filter(|i| !i.is_none()), id.filter(|i| !i.is_none())) {
        (Some(i), None) => Ok(Lookup::Index(u64_arg(i, "index")?)),
        (None, Some(id)) => Ok(Lookup::Id(id_arg(id)?)),
        _ => Err(invalid("index/id", "both or neither", "exactly one of index= or id=")),
    }
}

/// The `decode=` argument, checked against the index before any request.
fn decode_for(chain: &ChainClient, decode: Option<&Bound<'_, PyAny>>) -> PyResult<Option<DecodeMode>> {
    let mode = decode.map(decode_arg).transpose()?.flatten();
    if mode.is_some() {
        check_decodable(chain.path())?;
    }
    Ok(mode)
}

/// One container as it reaches Python: its dict, or the dict of its decoded row.
fn one_out(path: IndexPath, c: Container, decode: Option<DecodeMode>) -> PyResult<IndexItem> {
    Ok(match decode {
        None => IndexItem::Container(c),
        Some(mode) => {
            let batch = decode_containers(path, std::slice::from_ref(&c), mode)?;
            IndexItem::Decoded(DecodedOut(batch, decoded_schema(path)?))
        }
    })
}

fn range_walk(
    chain: &ChainClient,
    start: u64,
    count: Option<&Bound<'_, PyAny>>,
    concurrency: Option<&Bound<'_, PyAny>>,
    chunk: u64,
    decode: Option<DecodeMode>,
) -> PyResult<RangeWalk> {
    let end = match count.filter(|c| !c.is_none()) {
        None => None,
        Some(count) => {
            let count = u64_arg(count, "count")?;
            Some(start.checked_add(count).ok_or_else(|| invalid("count", count, "start + count <= 2**64 - 1"))?)
        }
    };
    let concurrency = match concurrency.filter(|c| !c.is_none()) {
        Some(c) => super::args::concurrency(c)?,
        None => chain.concurrency(),
    };
    Ok(RangeWalk::new(chain.clone(), start, end, concurrency, chunk, decode)?)
}

client_twins! {
    /// Synchronous client of a node's Index RPC (``/ext/index/...``).
    ///
    /// ``url`` defaults to the ``AVAX_NODE_URL`` environment variable, then
    /// ``https://api.avax.network`` (public nodes usually run without ``--index-enabled``: pass your
    /// own node, e.g. ``http://127.0.0.1:9650``). Retries connection errors, timeouts, 5xx and 429
    /// with jittered exponential backoff (``max_retries=0`` turns that off). Every wait releases
    /// the GIL and answers Ctrl-C within 250 ms. Use as a context manager to close it.
    sync PyIndexClient("IndexClient") { ChainOf = PyChain }
    /// Asynchronous twin of :class:`IndexClient` (same options); methods return awaitables.
    async PyAsyncIndexClient("AsyncIndexClient") { ChainOf = PyAsyncChain }
    state { client: IndexClient }
    new (url = None, *, concurrency = 4, verify_ids = true,) (
        url: Option<String> = super::args::url,
        concurrency: usize = super::args::concurrency,
        verify_ids: bool = super::args::verify_ids,
    ) |transport| {
        Ok(Self { client: build_client(url, concurrency, verify_ids, transport)? })
    }
    shared {
        /// The node's base URL (secrets redacted).
        #[getter]
        fn url(&self) -> String {
            self.client.url().to_string()
        }

        /// A handle on one index path: ``C/block``, ``P/block``, ``X/tx``, ``X/block`` or ``X/vtx``.
        fn chain(&self, path: &Bound<'_, PyAny>) -> PyResult<ChainOf> {
            let path = str_arg(path, "path", "one of C/block, P/block, X/tx, X/block, X/vtx")?;
            Ok(ChainOf { chain: self.client.chain(IndexPath::parse(&path)?) })
        }

        fn __repr__(&self) -> String {
            let closed = if self.client.is_closed() { ", closed" } else { "" };
            format!("{CLASS_NAME}({}{closed})", super::show::py_str(self.client.url()))
        }
    }
    sync_only {}
    async_only {}
}

twins! {
    /// One index path of a node, with the six index methods and lazy range walks.
    sync PyChain("Chain") { RangeOf = PyRange, FollowOf = PyFollow }
    /// Asynchronous twin of :class:`Chain`: the same methods, returning awaitables.
    async PyAsyncChain("AsyncChain") { RangeOf = PyAsyncRange, FollowOf = PyAsyncFollow }
    state { chain: ChainClient }
    shared {
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
            let chain = self.chain.clone();
            M::run(py, async move { one_out(chain.path(), chain.last_accepted().await?, decode) })
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
            let (chain, lookup) = (self.chain.clone(), lookup(index, id)?);
            M::run(py, async move {
                let c = match lookup {
                    Lookup::Index(i) => chain.container_by_index(i).await?,
                    Lookup::Id(id) => chain.container_by_id(&id).await?,
                };
                one_out(chain.path(), c, decode)
            })
        }

        /// ``index.getContainerRange``: one call, ``count`` in [0, 1024]; 0 answers ``[]`` locally.
        fn container_range<'py>(
            &self,
            py: Python<'py>,
            start: &Bound<'py, PyAny>,
            count: &Bound<'py, PyAny>,
        ) -> PyResult<Bound<'py, PyAny>> {
            let (start, count) = (u64_arg(start, "start")?, bounded_arg(count, "count", 0, MAX_RANGE)?);
            let chain = self.chain.clone();
            M::run(py, async move { Ok(chain.container_range(start, count).await?) })
        }

        /// ``index.getIndex``: the index of the container with this id.
        fn index_of<'py>(&self, py: Python<'py>, id: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
            let (id, chain) = (id_arg(id)?, self.chain.clone());
            M::run(py, async move { Ok(chain.index_of(&id).await?) })
        }

        /// ``index.isAccepted``: whether this id is in the index (unknown ids are ``False``).
        fn is_accepted<'py>(&self, py: Python<'py>, id: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
            let (id, chain) = (id_arg(id)?, self.chain.clone());
            M::run(py, async move { Ok(chain.is_accepted(&id).await?) })
        }

        /// A lazy walk over ``[start, start+count)``, or to the tip seen when the walk starts.
        ///
        /// Calls of at most ``batch_size`` (<= 1024) containers, ``concurrency`` in flight
        /// (default: the client's), delivered in index order.
        #[pyo3(signature = (start=0, count=None, *, concurrency=None, batch_size=1024, decode=None))]
        fn range(
            &self,
            #[pyo3(from_py_with = super::args::start)] start: u64,
            count: Option<&Bound<'_, PyAny>>,
            concurrency: Option<&Bound<'_, PyAny>>,
            #[pyo3(from_py_with = super::args::batch_size)] batch_size: u64,
            decode: Option<&Bound<'_, PyAny>>,
        ) -> PyResult<RangeOf> {
            let decode = decode_for(&self.chain, decode)?;
            Ok(RangeOf { walk: range_walk(&self.chain, start, count, concurrency, batch_size, decode)? })
        }

        /// An endless iterator of newly accepted containers from ``start`` (default: after the tip).
        ///
        /// Polls every ``poll_interval`` seconds, doubling the wait up to ``max_poll_interval``
        /// while nothing new comes. Stop it with ``close()`` or Ctrl-C. ``progress`` (``True`` or a tqdm
        /// bar) counts the containers handed out.
        #[pyo3(signature = (start=None, *, poll_interval=1.0, max_poll_interval=30.0, decode=None, progress=None))]
        fn follow(
            &self,
            py: Python<'_>,
            start: Option<&Bound<'_, PyAny>>,
            #[pyo3(from_py_with = super::args::poll_interval)] poll_interval: f64,
            #[pyo3(from_py_with = super::args::max_poll_interval)] max_poll_interval: f64,
            decode: Option<&Bound<'_, PyAny>>,
            progress: Option<&Bound<'_, PyAny>>,
        ) -> PyResult<FollowOf> {
            let start = start.filter(|s| !s.is_none()).map(|s| u64_arg(s, "start")).transpose()?;
            let decode = decode_for(&self.chain, decode)?;
            let (every, longest) = (Duration::from_secs_f64(poll_interval), Duration::from_secs_f64(max_poll_interval));
            let walk = FollowWalk::new(self.chain.clone(), start, every, longest, decode)?;
            let (walk, iter) = follow_state(py, walk, progress)?;
            Ok(FollowOf { walk, iter })
        }

        fn __repr__(&self) -> String {
            format!("{CLASS_NAME}({})", super::show::py_str(self.chain.path().as_str()))
        }
    }
    sync_only {}
    async_only {}
}
