//! `IndexClient` and `Chain` (and their async twins): a node's Index RPC for Python.

use std::time::Duration;

use pyo3::prelude::*;

use super::args::{bounded_arg, client_twins, decode_arg, str_arg, u64_arg};
use super::convert::DecodedOut;
use super::errors::invalid;
use super::iters::IndexItem;
use super::mode::{twins, Mode};
use super::walks::{follow_state, PyAsyncFollow, PyAsyncRange, PyFollow, PyRange};
use avax_data_core::arrow::decoded::{check_mode, decode_containers, decoded_schema_for, DecodeMode};
use avax_data_core::index::MAX_RANGE;
use avax_data_core::index::{
    ChainClient, Container, FollowWalk, IndexClient, IndexClientOptions, IndexPath, RangeSpec, RangeWalk, Verify,
};

fn build_client(
    url: Option<String>,
    concurrency: usize,
    verify_ids: bool,
    cache: Option<std::sync::Arc<avax_data_core::cache::Store>>,
    transport: avax_data_core::transport::TransportConfig,
) -> PyResult<IndexClient> {
    let url = avax_data_core::settings::node_url(url);
    let options = IndexClientOptions { transport, verify: Verify { ids: verify_ids }, concurrency, cache };
    IndexClient::new(&url, options).map_err(crate::errors::to_py)
}

/// A CB58 id argument, checked by its grammar before any request.
fn id_arg(id: &Bound<'_, PyAny>) -> PyResult<String> {
    let id = str_arg(id, "id", "a CB58 id as a str")?;
    avax_data_core::index::client::validate_id(&id).map_err(crate::errors::to_py)?;
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
    if let Some(mode) = mode {
        check_mode(chain.path(), mode).map_err(crate::errors::to_py)?;
    }
    Ok(mode)
}

/// One container as it reaches Python: its dict, or the dict of its decoded row.
fn one_out(path: IndexPath, c: Container, decode: Option<DecodeMode>) -> PyResult<IndexItem> {
    Ok(match decode {
        None => IndexItem::Container(c),
        Some(mode) => {
            let batch = decode_containers(path, std::slice::from_ref(&c), mode).map_err(crate::errors::to_py)?;
            IndexItem::Decoded(DecodedOut(batch, decoded_schema_for(path, mode).map_err(crate::errors::to_py)?))
        }
    })
}

fn range_walk(
    chain: &ChainClient,
    start: u64,
    stop: Option<&Bound<'_, PyAny>>,
    count: Option<&Bound<'_, PyAny>>,
    concurrency: Option<&Bound<'_, PyAny>>,
    chunk: u64,
    decode: Option<DecodeMode>,
) -> PyResult<RangeWalk> {
    let stop = stop.filter(|s| !s.is_none()).map(|s| u64_arg(s, "stop")).transpose()?;
    let count = count.filter(|c| !c.is_none()).map(|c| u64_arg(c, "count")).transpose()?;
    let concurrency = match concurrency.filter(|c| !c.is_none()) {
        Some(c) => super::args::concurrency(c)?,
        None => chain.concurrency(),
    };
    let range = RangeSpec::bounded(start, stop, count, concurrency, chunk).map_err(crate::errors::to_py)?;
    RangeWalk::new(chain.clone(), range, decode).map_err(crate::errors::to_py)
}

client_twins! {
    /// Synchronous client of a node's Index RPC (``/ext/index/...``).
    ///
    /// One client holds a connection pool and may be shared between threads; :meth:`chain` gives
    /// the handle of one index. Connection errors, timeouts, bodies cut short, HTTP 5xx and 429 are
    /// retried with jittered exponential backoff, honouring ``Retry-After``. Every wait releases
    /// the GIL and answers Ctrl-C within 250 ms. Use it as a context manager, or call :meth:`close`.
    ///
    /// Args:
    ///     base_url: the node's base URL (str), positional or keyword, e.g.
    ///         ``"http://127.0.0.1:9650"`` (every client names it ``base_url``). Default ``None``:
    ///         the ``AVAX_NODE_URL`` environment variable, then ``https://api.avax.network``
    ///         (public nodes run without ``--index-enabled``: pass your own node).
    ///     url: the deprecated name of ``base_url`` (a ``DeprecationWarning``; both at once is
    ///         refused); it goes in the next release.
    ///     concurrency: calls in flight in a range walk, an int in [1, 64]; default 4.
    ///     verify_ids: check each container's id against its bytes by the rule of its index
    ///         (default ``True``; ``False`` for subnets whose VMs derive ids some other way). The
    ///         4-byte checksum of the bytes is always verified.
    ///     timeout: seconds for one request, > 0; default 30.0.
    ///     connect_timeout: seconds to connect, > 0; default 10.0.
    ///     max_retries: retries of one request, an int in [0, 100]; 0 turns retries off; default
    ///         ``None``: 3.
    ///     backoff: first retry delay in seconds (jittered, doubling), >= 0; ``None``: 0.2.
    ///     max_backoff: cap of one retry delay in seconds, >= 0; ``None``: 10.0.
    ///     retry_budget: cap of the seconds spent waiting to retry one call, >= 0; ``None``: 60.0.
    ///     retry: an :class:`avax_data.RetryPolicy` (also the statuses retried and jitter),
    ///         instead of the four options above; giving both is an error.
    ///     rate_limit: most requests per second this client sends (every walk and thread of it
    ///         shares it), a number > 0, or ``None`` (default) for no limit.
    ///     compute_units_per_minute: a budget of the Data and Metrics APIs' compute units per
    ///         minute (each operation's weight: 1, 10, 20, 50 or 100), an int >= 1, or ``None``.
    ///     headers: extra request headers, a dict of str to str, or ``None``. Their values are
    ///         secrets: never shown, never sent to another origin.
    ///     max_response_bytes: largest body read (counted after gzip decompression), an int >= 1;
    ///         default 268435456 (256 MiB).
    ///     ca_bundle: a PEM file of extra CA certificates (str or ``os.PathLike``), or ``None``.
    ///     danger_accept_invalid_certs: ``True`` turns TLS verification off (never in
    ///         production); default ``False``.
    ///     follow_cross_origin_redirects: ``True`` follows a redirect to another origin without
    ///         the secret headers; default ``False``, which raises :class:`RedirectError` instead.
    ///     cache: a directory (str or ``os.PathLike``) caching accepted containers on disk, so a
    ///         rerun of a walk asks the node only for what is not cached; ``False`` or ``None``:
    ///         no cache. Left out: the ``AVAX_DATA_CACHE`` environment variable, else no cache.
    ///         See the cache guide.
    ///     cache_max_bytes: the cache's size bound in bytes, an int >= 1 (least recently used
    ///         entries are evicted beyond it); default ``None``: 1 GiB.
    ///
    /// Raises:
    ///     InvalidParameterError: a bad option (wrong type or out of range), naming it; raised
    ///         by the constructor, before any request.
    ///
    /// Example:
    ///     The examples of this package run against the offline emulator, started once as
    ///     ``emu``. In full:
    ///
    ///     >>> import avax_data as ad
    ///     >>> emu = ad.Emulator(containers=1_000, data_blocks_per_chain=500)
    ///     >>> node = ad.IndexClient(emu.url)          # a real node: ad.IndexClient("http://127.0.0.1:9650")
    ///     >>> node.chain("X/tx").last_accepted()["index"]
    ///     999
    ///     >>> node.close()
    ///
    ///     Options are keyword arguments, checked at once:
    ///
    ///     >>> with ad.IndexClient(emu.url, concurrency=8, max_retries=0, timeout=5.0) as node:
    ///     ...     print(node.chain("C/block").container(0)["index"])
    ///     0
    ///     >>> try:
    ///     ...     ad.IndexClient(emu.url, concurrency=0)
    ///     ... except ad.InvalidParameterError as exc:   # also a ValueError
    ///     ...     print(exc.param, exc.value, exc.allowed)
    ///     concurrency 0 an int in [1, 64]
    ///     >>> emu.close()
    sync PyIndexClient("IndexClient") { ChainOf = PyChain }
    /// Asynchronous twin of :class:`IndexClient`: the same options and methods.
    ///
    /// The methods' docstrings (shared with the sync client) show the sync calls; here each
    /// call that waits on the node is awaited, and walks are ``async for`` iterables. It shares
    /// one Rust runtime with the sync client and never blocks the event loop. Use it as an
    /// ``async with`` context manager, or ``await client.close()``.
    ///
    /// Args:
    ///     url: the node's base URL; the options are those of :class:`IndexClient`.
    ///
    /// Raises:
    ///     InvalidParameterError: a bad option, raised by the constructor before any request.
    ///
    /// Example:
    ///     >>> import asyncio
    ///     >>> async def main():
    ///     ...     async with ad.AsyncIndexClient(emu.url) as node:
    ///     ...         xtx = node.chain("X/tx")
    ///     ...         tip = await xtx.last_accepted()
    ///     ...         indexes = [c["index"] async for c in xtx.range(tip["index"] - 2)]
    ///     ...         frame = await xtx.range(0, 100).to_polars()
    ///     ...         return tip["index"], indexes, frame.height
    ///     >>> asyncio.run(main())
    ///     (999, [997, 998, 999], 100)
    async PyAsyncIndexClient("AsyncIndexClient") { ChainOf = PyAsyncChain }
    state { client: IndexClient }
    new (base_url = None, *, url = None, concurrency = 4, verify_ids = true,
        cache = avax_data_core::cache::CacheChoice::FromEnv, cache_max_bytes = None,) (
        base_url: Option<String> = super::args::base_url,
        url: Option<String> = super::args::url,
        concurrency: usize = super::args::concurrency,
        verify_ids: bool = super::args::verify_ids,
        cache: avax_data_core::cache::CacheChoice = super::cache::cache_arg,
        cache_max_bytes: Option<u64> = super::cache::max_bytes_arg,
    ) |transport| {
        let cache = super::cache::open(&cache, cache_max_bytes)?;
        let url = super::args::service_url(CLASS_NAME, base_url, url)?;
        Ok(Self { client: build_client(url, concurrency, verify_ids, cache, transport)? })
    }
    /// The node's base URL, with its credentials (user name, password, a token in the path) redacted.
    ///
    /// Example:
    ///     >>> ad.IndexClient("https://user:secret@node.example:9650").base_url
    ///     'https://***:***@node.example:9650'
    ///     >>> ad.IndexClient(base_url="https://node.example/ext/bc/C/rpc/0a1b2c3d").base_url
    ///     'https://node.example/ext/bc/C/rpc/***'
    url url;
    shared {
        /// The deprecated name of :attr:`base_url` (a ``DeprecationWarning``; it goes in the next release).
        ///
        /// Example:
        ///     >>> import warnings
        ///     >>> with warnings.catch_warnings():
        ///     ...     warnings.simplefilter("ignore", DeprecationWarning)
        ///     ...     ad.IndexClient("http://127.0.0.1:9650").url
        ///     'http://127.0.0.1:9650'
        #[getter]
        fn url(&self, py: Python<'_>) -> PyResult<String> {
            super::args::deprecated_url_getter(py, CLASS_NAME)?;
            Ok(self.client.url().to_string())
        }

        /// A handle on one index of the node (no request is sent).
        ///
        /// Args:
        ///     path: the index, one of ``"C/block"``, ``"P/block"``, ``"X/tx"``, ``"X/block"``
        ///         (linear X-chain blocks, after Cortina) or ``"X/vtx"`` (DAG vertices).
        ///
        /// Returns:
        ///     Chain: the six index methods and the walks of that index (:class:`AsyncChain` on
        ///     the async client).
        ///
        /// Raises:
        ///     InvalidParameterError: an unknown path.
        ///
        /// Example:
        ///     >>> node = ad.IndexClient(emu.url)
        ///     >>> node.chain("P/block")
        ///     Chain('P/block')
        ///     >>> node.chain("Y/tx")
        ///     Traceback (most recent call last):
        ///     ...
        ///     avax_data.exceptions.InvalidParameterError: invalid path="Y/tx": one of 'C/block', 'P/block', 'X/tx', 'X/block', 'X/vtx'
        fn chain(&self, path: &Bound<'_, PyAny>) -> PyResult<ChainOf> {
            let path = str_arg(path, "path", "one of C/block, P/block, X/tx, X/block, X/vtx")?;
            Ok(ChainOf { chain: self.client.chain(IndexPath::parse(&path).map_err(crate::errors::to_py)?) })
        }
    }
    sync_only {}
    async_only {}
}

twins! {
    /// One index of a node: the six Index RPC methods and lazy, resumable walks.
    ///
    /// Made by :meth:`IndexClient.chain`. Single calls return container dicts (``id``,
    /// ``bytes``, ``timestamp``, ``index``, ``encoding``; see :class:`avax_data.Container`), or
    /// decoded rows with ``decode=True``; :meth:`range` walks many containers in order, and
    /// :meth:`follow` waits for new ones.
    ///
    /// Example:
    ///     >>> xtx = ad.IndexClient(emu.url).chain("X/tx")
    ///     >>> xtx.path
    ///     'X/tx'
    ///     >>> c = xtx.container(1)
    ///     >>> c["id"], c["index"], c["encoding"]
    ///     ('uYQxRgPzrArQYDNq6w8VE2wjRjgL2AnqtEcfrTWovXYt1DPHG', 1, 'hex')
    ///     >>> xtx.range(0, 10).to_polars().height
    ///     10
    sync PyChain("Chain") { RangeOf = PyRange, FollowOf = PyFollow }
    /// Asynchronous twin of :class:`Chain`: the same methods, awaitable.
    ///
    /// Made by :meth:`AsyncIndexClient.chain`. The single calls (``last_accepted``,
    /// ``container``, ``container_range``, ``index_of``, ``is_accepted``) return awaitables;
    /// ``range()`` and ``follow()`` return at once an :class:`AsyncRange` / :class:`AsyncFollow`
    /// to walk with ``async for``. The shared method docstrings show the sync calls.
    ///
    /// Example:
    ///     >>> import asyncio
    ///     >>> async def main():
    ///     ...     async with ad.AsyncIndexClient(emu.url) as node:
    ///     ...         cblock = node.chain("C/block")
    ///     ...         first = await cblock.container(0)
    ///     ...         index = await cblock.index_of(first["id"])
    ///     ...         return index, await cblock.is_accepted(first["id"])
    ///     >>> asyncio.run(main())
    ///     (0, True)
    async PyAsyncChain("AsyncChain") { RangeOf = PyAsyncRange, FollowOf = PyAsyncFollow }
    state { chain: ChainClient }
    shared {
        /// The index path, e.g. ``"C/block"``.
        ///
        /// Example:
        ///     >>> ad.IndexClient(emu.url).chain("X/block").path
        ///     'X/block'
        #[getter]
        fn path(&self) -> &'static str {
            self.chain.path().as_str()
        }

        /// A lazy walk over ``[start, stop)``, as Python's ``range(start, stop)``, or to the tip.
        ///
        /// Nothing is sent until you consume the :class:`Range` (``for``, ``batches()``,
        /// ``to_polars()``, ``write_parquet()``). It asks for calls of at most ``batch_size``
        /// containers, keeps ``concurrency`` of them in flight and hands the containers out in
        /// index order, with bounded memory. It resumes at ``next_index`` after a ``break``, an
        /// error or Ctrl-C. A walk that reaches the tip before ``stop`` ends there with a
        /// ``UserWarning`` naming the index where it ended (its :attr:`Range.end` then reads it).
        ///
        /// Args:
        ///     start: the first index, an int >= 0; default 0.
        ///     stop: the end, exclusive, an int >= ``start``; default ``None``: up to the tip seen
        ///         when the walk starts (its ``end`` is then known after the first read).
        ///     count: keyword-only, how many containers from ``start``, an int >= 0 (the end is
        ///         ``start + count``); give ``stop`` or ``count``, not both.
        ///     concurrency: calls in flight, an int in [1, 64]; default ``None``: the client's.
        ///     batch_size: containers per call (and rows per ``batches()`` frame), an int in
        ///         [1, 1024]; default 1024.
        ///     decode: ``None``/``False`` (default) for raw containers, ``True`` for typed columns
        ///         with a ``decode_error`` column, ``"strict"`` to raise on the first container
        ///         that does not decode. Not on ``X/vtx``. ``"senders"`` (``C/block`` only): as
        ///         ``True``, and each transaction of ``transactions`` carries ``from``, its sender
        ///         recovered from its signature (spread over the cores; see
        ///         :func:`avax_data.transactions`).
        ///     columns: keyword-only, the columns handed out (a list of str, or a comma-separated
        ///         str), in that order; default ``None``: all. A list-of-structs column is named
        ///         whole or by field: ``"transactions.to"`` keeps the ``transactions`` list with
        ///         only ``to``. Every consumer of the range (``for``, ``batches()``,
        ///         ``to_polars()``, ``write_parquet()``, ``write_dataset()``) hands out these
        ///         columns; on ``C/block``, a hash no column asks for is not computed (neither
        ///         ``hash`` nor ``inner_id``: no block hash; no ``transactions`` whole nor
        ///         ``transactions.hash``: no transaction hash).
        ///
        /// Returns:
        ///     Range: the lazy walk (:class:`AsyncRange` on the async client).
        ///
        /// Raises:
        ///     InvalidParameterError: a negative or non-int ``start``/``stop``/``count``, a
        ///         ``stop`` below ``start``, both ``stop`` and ``count``, ``start + count`` past
        ///         2**64 - 1, ``concurrency``/``batch_size`` out of range, a bad ``decode``, an
        ///         empty ``columns``, a column the frame does not have (the message lists those it
        ///         has) or one named twice (raised here, before any request; errors of the node
        ///         come from the consumers).
        ///
        /// Example:
        ///     >>> xtx = ad.IndexClient(emu.url).chain("X/tx")
        ///     >>> rng = xtx.range(990)                  # to the tip
        ///     >>> [c["index"] for c in rng]
        ///     [990, 991, 992, 993, 994, 995, 996, 997, 998, 999]
        ///     >>> rng.end, rng.next_index
        ///     (1000, 1000)
        ///     >>> xtx.range(100, 350, batch_size=100).to_polars()["index"].to_list()[::125]
        ///     [100, 225]
        ///     >>> xtx.range(100, count=250).end
        ///     350
        ///     >>> xtx.range(0, 3, decode=True).to_polars()["tx_type"].to_list()
        ///     ['ExportTx', 'CreateAssetTx', 'BaseTx']
        ///     >>> xtx.range(0, 3, decode=True, columns=["index", "tx_type"]).to_polars().columns
        ///     ['index', 'tx_type']
        ///     >>> xtx.range(0, 3, decode=True, columns=["index", "tx_typ"])
        ///     Traceback (most recent call last):
        ///     ...
        ///     avax_data.exceptions.InvalidParameterError: invalid columns="tx_typ": one of id, timestamp, index, tx_id, tx_type, network_id, blockchain_id, memo_len, credential_count, consumed, produced, source_chain, destination_chain, asset_name, asset_symbol, denomination, operation_count, decode_error, bytes (did you mean 'tx_type'?)
        ///     >>> xtx.range(500, 100)
        ///     Traceback (most recent call last):
        ///     ...
        ///     avax_data.exceptions.InvalidParameterError: invalid stop=100: an int >= start (500): the exclusive end, as in Python's range(start, stop); for 100 containers from 500 write range(500, count=100)
        ///
        ///     Past the tip, the walk ends there and says so:
        ///
        ///     >>> import warnings
        ///     >>> rng = xtx.range(990, 1500)
        ///     >>> with warnings.catch_warnings(record=True) as caught:
        ///     ...     warnings.simplefilter("always")
        ///     ...     rng.to_polars().height
        ///     10
        ///     >>> "ended at index 1000" in str(caught[-1].message), rng.end
        ///     (True, 1000)
        #[pyo3(signature = (start=0, stop=None, *, count=None, concurrency=None, batch_size=1024, decode=None, columns=None))]
        #[allow(clippy::too_many_arguments)]
        fn range(
            &self,
            #[pyo3(from_py_with = super::args::start)] start: u64,
            stop: Option<&Bound<'_, PyAny>>,
            count: Option<&Bound<'_, PyAny>>,
            concurrency: Option<&Bound<'_, PyAny>>,
            #[pyo3(from_py_with = super::args::batch_size)] batch_size: u64,
            decode: Option<&Bound<'_, PyAny>>,
            columns: Option<&Bound<'_, PyAny>>,
        ) -> PyResult<RangeOf> {
            let decode = decode_for(&self.chain, decode)?;
            let walk = range_walk(&self.chain, start, stop, count, concurrency, batch_size, decode)?;
            let columns = columns.filter(|c| !c.is_none()).map(|c| super::args::list_arg(Some(c), "columns")).transpose()?;
            Ok(RangeOf { walk: walk.with_columns(columns.as_deref()).map_err(crate::errors::to_py)? })
        }

        /// An endless iterator of the containers accepted from ``start`` on, as they come.
        ///
        /// It hands out what exists from ``start``, then polls the tip every ``poll_interval``
        /// seconds, doubling the wait up to ``max_poll_interval`` while nothing new comes. Stop
        /// it with :meth:`Follow.close` (from any thread) or Ctrl-C.
        ///
        /// Args:
        ///     start: the first index, an int >= 0; default ``None``: the container after the tip
        ///         seen at the first poll.
        ///     poll_interval: seconds between polls, > 0; default 1.0.
        ///     max_poll_interval: longest wait between polls while idle, seconds > 0; default 30.0.
        ///     decode: ``None``/``False`` (default), ``True``, ``"strict"`` or ``"senders"``, as in
        ///         :meth:`range`.
        ///     progress: ``None`` (default), ``True`` (a ``tqdm.auto`` bar; needs tqdm) or a bar of
        ///         yours (anything with ``update(n)``), advanced by the containers handed out.
        ///
        /// Returns:
        ///     Follow: the iterator (:class:`AsyncFollow` on the async client).
        ///
        /// Raises:
        ///     InvalidParameterError: a bad argument, before any request. Errors of the node come
        ///         out of ``next()``, carrying ``next_index``.
        ///
        /// Example:
        ///     >>> xtx = ad.IndexClient(emu.url).chain("X/tx")
        ///     >>> follow = xtx.follow(start=998, poll_interval=0.1)
        ///     >>> [next(follow)["index"] for _ in range(2)]   # the tip is 999: a third would wait
        ///     [998, 999]
        ///     >>> follow.close()
        ///     >>> next(follow, "ended")
        ///     'ended'
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
            let walk = FollowWalk::new(self.chain.clone(), start, every, longest, decode).map_err(crate::errors::to_py)?;
            let (walk, iter) = follow_state(py, walk, progress)?;
            Ok(FollowOf { walk, iter })
        }

        fn __repr__(&self) -> String {
            format!("{CLASS_NAME}({})", super::show::py_str(self.chain.path().as_str()))
        }
    }
    raw {
        /// The most recently accepted container (``index.getLastAccepted``).
        ///
        /// Args:
        ///     decode: ``None``/``False`` (default) for the container dict; ``True`` for a dict
        ///         of its decoded row (typed columns, ``decode_error``); ``"strict"`` to raise
        ///         :class:`DecodeError` when the bytes do not decode; ``"senders"`` (``C/block``)
        ///         as ``True`` with each transaction's ``from``.
        ///
        /// Returns:
        ///     dict: the container (``id``, ``bytes``, ``timestamp``, ``index``, ``encoding``),
        ///     or its decoded row.
        ///
        /// Raises:
        ///     InvalidParameterError: a bad ``decode``, or ``decode`` on ``X/vtx``.
        ///     EmptyIndexError: the index holds no container yet.
        ///     IndexNotEnabledError: the node runs without ``--index-enabled``.
        ///     IntegrityError: the checksum or the id does not match the bytes.
        ///     AvaxDataError: any other failure (:class:`TransportError`,
        ///         :class:`HTTPStatusError`, :class:`RPCError`, :class:`DecodeError`).
        ///
        /// Example:
        ///     >>> cblock = ad.IndexClient(emu.url).chain("C/block")
        ///     >>> tip = cblock.last_accepted()
        ///     >>> tip["index"], tip["timestamp"].tzinfo
        ///     (999, datetime.timezone.utc)
        ///     >>> cblock.last_accepted(decode=True)["number"]     # the EVM block number
        ///     999
        #[pyo3(signature = (*, decode=None))]
        fn last_accepted<'py>(&self; decode) with py -> PyResult<Bound<'py, PyAny>> {
            let decode = decode_for(&self.chain, decode)?;
            let chain = self.chain.clone();
            M::run(py, super::mode::Call(CLASS_NAME, "last_accepted"), async move { one_out(chain.path(), chain.last_accepted().await.map_err(crate::errors::to_py)?, decode) })
        }

        /// One container, by its index or by its id.
        ///
        /// By index: ``index.getContainerByIndex``; by id: ``index.getContainerByID``.
        ///
        /// Args:
        ///     index: the position in the index, an int >= 0.
        ///     id: the container's CB58 id (keyword only); give exactly one of ``index`` and
        ///         ``id``.
        ///     decode: ``None``/``False`` (default), ``True``, ``"strict"`` or ``"senders"``, as in
        ///         :meth:`last_accepted`.
        ///
        /// Returns:
        ///     dict: the container (``id``, ``bytes``, ``timestamp``, ``index``, ``encoding``),
        ///     or its decoded row.
        ///
        /// Raises:
        ///     InvalidParameterError: neither or both of ``index`` and ``id``, a negative or
        ///         non-int index, an id that is not CB58, a bad ``decode``.
        ///     IndexOutOfRangeError: no container at that index (past the tip).
        ///     ContainerNotFoundError: no container with that id.
        ///     AvaxDataError: any other failure, as in :meth:`last_accepted`.
        ///
        /// Example:
        ///     >>> xtx = ad.IndexClient(emu.url).chain("X/tx")
        ///     >>> c = xtx.container(5)
        ///     >>> xtx.container(id=c["id"])["index"]
        ///     5
        ///     >>> xtx.container(5, decode=True)["tx_type"]
        ///     'BaseTx'
        ///     >>> try:
        ///     ...     xtx.container(5_000)
        ///     ... except ad.IndexOutOfRangeError as exc:
        ///     ...     print(exc.rpc_message)
        ///     no container at index 5000
        #[pyo3(signature = (index=None, *, id=None, decode=None))]
        fn container<'py>(&self; index, id, decode) with py -> PyResult<Bound<'py, PyAny>> {
            let decode = decode_for(&self.chain, decode)?;
            let (chain, lookup) = (self.chain.clone(), lookup(index, id)?);
            M::run(py, super::mode::Call(CLASS_NAME, "container"), async move {
                let c = match lookup {
                    Lookup::Index(i) => chain.container_by_index(i).await.map_err(crate::errors::to_py)?,
                    Lookup::Id(id) => chain.container_by_id(&id).await.map_err(crate::errors::to_py)?,
                };
                one_out(chain.path(), c, decode)
            })
        }

        /// Up to ``count`` containers from ``start``, in one call (``index.getContainerRange``).
        ///
        /// The node answers fewer near the tip. To read more than 1024, or to resume, use
        /// :meth:`range`.
        ///
        /// Args:
        ///     start: the first index, an int >= 0.
        ///     count: how many, an int in [0, 1024]; 0 answers ``[]`` without a request.
        ///
        /// Returns:
        ///     list[dict]: the container dicts, in index order.
        ///
        /// Raises:
        ///     InvalidParameterError: a negative ``start``, or ``count`` outside [0, 1024].
        ///     IndexOutOfRangeError: ``start`` is past the tip.
        ///     AvaxDataError: any other failure, as in :meth:`last_accepted`.
        ///
        /// Example:
        ///     >>> xtx = ad.IndexClient(emu.url).chain("X/tx")
        ///     >>> [c["index"] for c in xtx.container_range(997, 10)]   # the tip is 999
        ///     [997, 998, 999]
        ///     >>> xtx.container_range(0, 2000)
        ///     Traceback (most recent call last):
        ///     ...
        ///     avax_data.exceptions.InvalidParameterError: invalid count=2000: an int in [0, 1024]
        fn container_range<'py>(&self, start, count) with py -> PyResult<Bound<'py, PyAny>> {
            let (start, count) = (u64_arg(start, "start")?, bounded_arg(count, "count", 0, MAX_RANGE)?);
            let chain = self.chain.clone();
            M::run(py, super::mode::Call(CLASS_NAME, "container_range"), async move {
                let containers = chain.container_range(start, count).await.map_err(crate::errors::to_py)?;
                Ok(containers.into_iter().map(crate::convert::PyContainer).collect::<Vec<_>>())
            })
        }

        /// The position of the container with this id (``index.getIndex``).
        ///
        /// Args:
        ///     id: the container's CB58 id (str).
        ///
        /// Returns:
        ///     int: its index.
        ///
        /// Raises:
        ///     InvalidParameterError: an id that is not CB58 (checked before any request).
        ///     ContainerNotFoundError: no container with that id.
        ///     AvaxDataError: any other failure, as in :meth:`last_accepted`.
        ///
        /// Example:
        ///     >>> xtx = ad.IndexClient(emu.url).chain("X/tx")
        ///     >>> xtx.index_of(xtx.container(42)["id"])
        ///     42
        ///     >>> xtx.index_of("11111111111111111111111111111111LpoYY")
        ///     Traceback (most recent call last):
        ///     ...
        ///     avax_data.exceptions.ContainerNotFoundError: JSON-RPC error -32000 from index.getIndex at http://127.0.0.1:.../ext/index/X/tx: not found
        fn index_of<'py>(&self, id) with py -> PyResult<Bound<'py, PyAny>> {
            let (id, chain) = (id_arg(id)?, self.chain.clone());
            M::run(py, super::mode::Call(CLASS_NAME, "index_of"), async move { chain.index_of(&id).await.map_err(crate::errors::to_py) })
        }

        /// Whether the container with this id is accepted in the index (``index.isAccepted``).
        ///
        /// Args:
        ///     id: the container's CB58 id (str).
        ///
        /// Returns:
        ///     bool: ``True`` when accepted; ``False`` for an unknown id (not an error).
        ///
        /// Raises:
        ///     InvalidParameterError: an id that is not CB58 (checked before any request).
        ///     AvaxDataError: a failed request, as in :meth:`last_accepted`.
        ///
        /// Example:
        ///     >>> xtx = ad.IndexClient(emu.url).chain("X/tx")
        ///     >>> xtx.is_accepted(xtx.container(0)["id"])
        ///     True
        ///     >>> xtx.is_accepted("11111111111111111111111111111111LpoYY")
        ///     False
        fn is_accepted<'py>(&self, id) with py -> PyResult<Bound<'py, PyAny>> {
            let (id, chain) = (id_arg(id)?, self.chain.clone());
            M::run(py, super::mode::Call(CLASS_NAME, "is_accepted"), async move { chain.is_accepted(&id).await.map_err(crate::errors::to_py) })
        }
    }
    sync_only {}
    async_only {}
}
