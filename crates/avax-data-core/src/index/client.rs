//! The index client: the six JSON-RPC methods on each index path, typed and verified.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use serde_json::json;

use super::cb58;
use super::container::{Container, ContainerError, Verify, WireContainer};
use super::path::IndexPath;
use super::piece::RangePiece;
use super::rpc::{self, IndexResult, IsAcceptedResult, RangeResult};
use crate::error::{Error, Result, RpcErrorKind};
use crate::transport::{Transport, TransportConfig};

/// The most containers one `getContainerRange` call may ask for.
pub const MAX_RANGE: u64 = 1024;

/// Options of an [`IndexClient`].
#[derive(Debug, Clone)]
pub struct IndexClientOptions {
    /// Timeouts, retries and headers.
    pub transport: TransportConfig,
    /// Checks applied to every container received.
    pub verify: Verify,
    /// Default number of range calls in flight.
    pub concurrency: usize,
    /// The cache of accepted containers ([`crate::cache`]), if any.
    pub cache: Option<Arc<crate::cache::Store>>,
}

impl Default for IndexClientOptions {
    fn default() -> Self {
        IndexClientOptions {
            transport: TransportConfig::default(),
            verify: Verify::default(),
            concurrency: crate::settings::DEFAULT_INDEX_CONCURRENCY,
            cache: None,
        }
    }
}

struct Inner {
    transport: Transport,
    verify: Verify,
    concurrency: usize,
    next_id: AtomicU64,
    closed: std::sync::atomic::AtomicBool,
    cache: Option<Arc<crate::cache::Store>>,
    /// One past the highest last accepted index read (0: none read).
    tip_seen: AtomicU64,
    /// Each index path's identity on its network for cache keys (the id of its container 0).
    identities: std::sync::Mutex<std::collections::HashMap<IndexPath, String>>,
    /// One identity probe at a time (concurrent chunks of a walk wait for the first).
    identity_probe: tokio::sync::Mutex<()>,
    /// Containers received for the cache whose position is not yet proven below the tip.
    pending: crate::cache::containers::Pending,
}

/// A client of one node's Index RPC. Cheap to clone; clones share the connection pool.
#[derive(Clone)]
pub struct IndexClient {
    inner: Arc<Inner>,
}

impl IndexClient {
    /// A client of the node at `url` (e.g. `http://127.0.0.1:9650`).
    pub fn new(url: &str, options: IndexClientOptions) -> Result<Self> {
        if options.concurrency == 0 {
            return Err(Error::invalid("concurrency", 0, "an integer >= 1"));
        }
        let transport = Transport::new(url, options.transport)?;
        Ok(IndexClient {
            inner: Arc::new(Inner {
                transport,
                verify: options.verify,
                concurrency: options.concurrency,
                next_id: AtomicU64::new(1),
                closed: std::sync::atomic::AtomicBool::new(false),
                cache: options.cache,
                tip_seen: AtomicU64::new(0),
                identities: Default::default(),
                identity_probe: Default::default(),
                pending: Default::default(),
            }),
        })
    }

    /// A client built with no arguments: the node of [`crate::settings::node_url`] (`$AVAX_NODE_URL`
    /// or the public API node) and the default options.
    pub fn from_defaults() -> Result<Self> {
        IndexClient::new(&crate::settings::node_url(None), IndexClientOptions::default())
    }

    /// What the client was built with (the Python client reports the same rows).
    pub fn settings(&self) -> crate::settings::Settings {
        let own = vec![
            ("concurrency", self.inner.concurrency.to_string()),
            ("verify_ids", self.inner.verify.ids.to_string()),
        ];
        crate::settings::Settings::of(&self.inner.transport, own)
    }

    /// The node URL, secrets redacted.
    pub fn url(&self) -> &str {
        self.inner.transport.base_url()
    }

    /// The retry policy in force.
    pub fn retry_policy(&self) -> &crate::transport::RetryPolicy {
        &self.inner.transport.config().retry
    }

    /// The default number of range calls in flight.
    pub fn concurrency(&self) -> usize {
        self.inner.concurrency
    }

    /// The cache in force, if any.
    pub fn cache(&self) -> Option<&Arc<crate::cache::Store>> {
        self.inner.cache.as_ref()
    }

    /// Refuses every later call, from this client and its chain handles.
    pub fn close(&self) {
        self.inner.closed.store(true, Ordering::SeqCst);
    }

    /// Whether [`IndexClient::close`] was called.
    pub fn is_closed(&self) -> bool {
        self.inner.closed.load(Ordering::SeqCst)
    }

    /// A handle on one index path.
    pub fn chain(&self, path: IndexPath) -> ChainClient {
        ChainClient { inner: self.inner.clone(), path }
    }
}

/// One index path of a node. Cheap to clone.
#[derive(Clone)]
pub struct ChainClient {
    inner: Arc<Inner>,
    path: IndexPath,
}

/// Checks that `id` is a CB58 container id before it is sent.
pub fn validate_id(id: &str) -> Result<()> {
    // A 32-byte id and its checksum take at most 50 characters: longer input is refused before
    // base58 decoding, whose time grows with the square of the length.
    if id.len() > 60 {
        return Err(Error::invalid(
            "id",
            format!("{:?}", id.chars().take(64).collect::<String>() + "…"),
            format!(
                "a CB58 container id (32 bytes and a checksum, at most 50 characters); this one has {} bytes",
                id.len()
            ),
        ));
    }
    cb58::decode_id(id).map(|_| ()).map_err(|e| {
        Error::invalid_text("id", id, format!("a CB58 container id (32 bytes and a checksum); this one is {e}"))
    })
}

impl ChainClient {
    /// The index path.
    pub fn path(&self) -> IndexPath {
        self.path
    }

    /// The cache in force, if any.
    pub fn cache(&self) -> Option<&Arc<crate::cache::Store>> {
        self.inner.cache.as_ref()
    }

    /// The node URL, secrets redacted.
    pub fn node_url(&self) -> &str {
        self.inner.transport.base_url()
    }

    /// The node's name in the cache's keys and hints (the URL redacted, with a digest of the
    /// URL as given: see [`crate::transport::Transport::cache_name`]).
    pub fn cache_name(&self) -> String {
        self.inner.transport.cache_name()
    }

    /// The transport options (a cost plan reads the limits and the tier).
    pub fn transport_config(&self) -> &crate::transport::TransportConfig {
        self.inner.transport.config()
    }

    /// The default number of range calls in flight.
    pub fn concurrency(&self) -> usize {
        self.inner.concurrency
    }

    /// Sends one call and reads its answer with `read` (body, URL): both are retried together, so
    /// a body that ends early is fetched again like a broken connection.
    async fn call<T>(
        &self,
        method: &str,
        params: serde_json::Value,
        read: impl Fn(&[u8], &str) -> Result<T>,
    ) -> Result<T> {
        if self.inner.closed.load(Ordering::SeqCst) {
            return Err(Error::Closed);
        }
        let id = self.inner.next_id.fetch_add(1, Ordering::Relaxed);
        let body = rpc::request_body(id, method, params);
        let path = self.path.url_path();
        let answer = self
            .inner
            .transport
            .send(reqwest::Method::POST, &path, &[], Some(body.into()), |reply| read(&reply.body, &reply.url));
        match answer.await {
            Err(Error::Http { status: 404, url, body, .. }) => Err(Error::IndexDisabled { url, body }),
            other => other,
        }
    }

    fn decode(&self, wire: &WireContainer<'_>, url: &str) -> Result<Container> {
        wire.decode(self.inner.verify, self.path).map_err(|e| container_error(e, url))
    }

    async fn one_container(&self, method: &str, params: serde_json::Value) -> Result<Container> {
        self.call(method, params, |body, url| {
            let wire: WireContainer = result_of(body, method, url)?;
            self.decode(&wire, url)
        })
        .await
    }

    /// `index.getLastAccepted`.
    pub async fn last_accepted(&self) -> Result<Container> {
        let c = self.one_container("index.getLastAccepted", json!({"encoding": "hex"})).await?;
        self.inner.tip_seen.fetch_max(c.index.saturating_add(1), Ordering::SeqCst);
        Ok(c)
    }

    /// The highest last accepted index this client has read, if any.
    pub fn tip_seen(&self) -> Option<u64> {
        self.inner.tip_seen.load(Ordering::SeqCst).checked_sub(1)
    }

    /// The checks applied to containers.
    pub fn verify(&self) -> Verify {
        self.inner.verify
    }

    /// The path's identity on its network for cache keys: the id of its container 0, read once
    /// per client (one `getContainerRange` call); `None` while the index is empty.
    pub async fn chain_identity(&self) -> Result<Option<String>> {
        if let Some(id) = self.identities().get(&self.path) {
            return Ok(Some(id.clone()));
        }
        let _probe = self.inner.identity_probe.lock().await;
        if let Some(id) = self.identities().get(&self.path) {
            return Ok(Some(id.clone()));
        }
        let first = match self.range_call::<Vec<Container>>(0, 1, false).await {
            Ok(answer) => answer.piece,
            Err(Error::Rpc { kind: RpcErrorKind::PastTip | RpcErrorKind::EmptyIndex, .. }) => Vec::new(),
            Err(e) => return Err(e),
        };
        let Some(first) = first.into_iter().next() else { return Ok(None) };
        self.identities().insert(self.path, first.id.clone());
        if let Some(store) = self.inner.cache.clone() {
            let (url, path, id) = (self.cache_name(), self.path, first.id.clone());
            crate::cache::containers::blocking(move || {
                crate::cache::hints::remember_identity(&store, &url, path, &id);
                Ok(())
            })
            .await?;
        }
        Ok(Some(first.id))
    }

    /// The path's identity this client has read, if any (sends nothing).
    pub fn known_identity(&self) -> Option<String> {
        self.identities().get(&self.path).cloned()
    }

    /// The containers waiting for proof that they lie below the tip (for the cache).
    pub(crate) fn pending(&self) -> &crate::cache::containers::Pending {
        &self.inner.pending
    }

    fn identities(&self) -> std::sync::MutexGuard<'_, std::collections::HashMap<IndexPath, String>> {
        self.inner.identities.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// `index.getContainerByIndex` (through the cache when the client has one:
    /// [`crate::cache::lookups`]).
    pub async fn container_by_index(&self, index: u64) -> Result<Container> {
        if let Some(store) = &self.inner.cache {
            if let Some(c) = crate::cache::lookups::by_index(self, store, index).await? {
                return Ok(c);
            }
        }
        self.fetch_by_index(index).await
    }

    /// `index.getContainerByIndex` sent to the node.
    async fn fetch_by_index(&self, index: u64) -> Result<Container> {
        let params = json!({"index": index, "encoding": "hex"});
        self.fetch_asked("index.getContainerByIndex", params, index, |c| c.index).await
    }

    /// `index.getContainerByID` (through the cache when the client has one: the id's position
    /// is kept, then the container is read by index; [`crate::cache::lookups`]).
    pub async fn container_by_id(&self, id: &str) -> Result<Container> {
        validate_id(id)?;
        let Some(store) = self.inner.cache.clone() else { return self.fetch_by_id(id).await };
        if let Some(index) = crate::cache::lookups::held_position(self, &store, id).await? {
            match crate::cache::lookups::by_index(self, &store, index).await? {
                Some(c) if c.id == id => return Ok(c),
                Some(c) => {
                    let why = format!("it leads to container {} at {index}, not {id}", c.id);
                    crate::cache::lookups::drop_position(self, &store, id, why).await?;
                }
                None => {}
            }
        }
        let c = self.fetch_by_id(id).await?;
        crate::cache::lookups::store_position(self, &store, id, c.index).await?;
        Ok(c)
    }

    /// `index.getContainerByID` sent to the node.
    async fn fetch_by_id(&self, id: &str) -> Result<Container> {
        let params = json!({"id": id, "encoding": "hex"});
        self.fetch_asked("index.getContainerByID", params, id.to_owned(), |c| c.id.clone()).await
    }

    /// One container asked for by `method` as `asked` (its index or its id, which `key` reads
    /// from an answer); an answer with another container is an [`Error::Integrity`].
    async fn fetch_asked<K: PartialEq + std::fmt::Display>(
        &self,
        method: &str,
        params: serde_json::Value,
        asked: K,
        key: impl Fn(&Container) -> K,
    ) -> Result<Container> {
        let c = self.one_container(method, params).await?;
        let answered = key(&c);
        if answered != asked {
            return Err(Error::Integrity {
                message: format!("asked for container {asked}, the node answered with container {answered}"),
                url: self.inner.transport.base_url().to_string(),
            });
        }
        Ok(c)
    }

    /// `index.getContainerRange`: one call for `count` in `[0, 1024]` containers from `start`
    /// (0 is answered locally). Fewer come back when the range runs past the tip.
    pub async fn container_range(&self, start: u64, count: u64) -> Result<Vec<Container>> {
        self.container_range_as(start, count).await
    }

    /// [`container_range`](Self::container_range) decoded into any [`RangePiece`] (containers,
    /// or columns for a frame); the same checks either way.
    pub async fn container_range_as<P: RangePiece>(&self, start: u64, count: u64) -> Result<P> {
        if count > MAX_RANGE {
            return Err(Error::invalid(
                "count",
                count,
                format!("an integer in [0, {MAX_RANGE}] (one getContainerRange call)"),
            ));
        }
        if count == 0 {
            return Ok(P::default());
        }
        match &self.inner.cache {
            Some(store) => crate::cache::containers::cached_range(self, store, start, count).await,
            None => self.range_call(start, count, false).await.map(|answer| answer.piece),
        }
    }

    /// One `getContainerRange` call (`count` in `[1, 1024]`), checked; with `keep`, also the
    /// wire fields of each container, for the cache, and one container more is asked for (when
    /// `count` < 1024): its presence proves the last one is not the tip (it is not returned).
    pub(crate) async fn range_call<P: RangePiece>(&self, start: u64, count: u64, keep: bool) -> Result<RangeAnswer<P>> {
        let method = "index.getContainerRange";
        let asked = if keep && count < MAX_RANGE { count + 1 } else { count };
        let params = json!({"startIndex": start, "numToFetch": asked, "encoding": "hex"});
        self.call(method, params, |body, url| {
            let wires = rpc::parse_response::<RangeResult>(body, method, url)?.unwrap_or_default().0;
            if wires.len() as u64 > asked {
                return Err(Error::Integrity {
                    message: format!("asked for {asked} containers from {start}, the node sent {}", wires.len()),
                    url: url.to_string(),
                });
            }
            let later = wires.len() as u64 > count;
            let wires = &wires[..wires.len().min(count as usize)];
            let mut out = P::for_answer(wires);
            let mut kept = Vec::with_capacity(if keep { wires.len() } else { 0 });
            for (k, wire) in wires.iter().enumerate() {
                let index = out.push_wire(wire, self.inner.verify, self.path).map_err(|e| container_error(e, url))?;
                let expected = start + k as u64;
                if index != expected {
                    return Err(Error::Integrity {
                        message: format!(
                            "range from {start}: position {k} holds container {index} instead of {expected}"
                        ),
                        url: url.to_string(),
                    });
                }
                if keep {
                    kept.extend(crate::cache::containers::StoredContainer::from_wire(wire, index));
                }
            }
            Ok(RangeAnswer { piece: out, kept, later })
        })
        .await
    }

    /// `index.getIndex`.
    pub async fn index_of(&self, id: &str) -> Result<u64> {
        let method = "index.getIndex";
        self.about_id(method, id, |body, url| {
            let result: IndexResult = result_of(body, method, url)?;
            result.index.value().map_err(|message| Error::Decode {
                message,
                url: url.to_string(),
                body: rpc::snippet(body),
            })
        })
        .await
    }

    /// `index.isAccepted` (an unknown id is `false`, not an error).
    pub async fn is_accepted(&self, id: &str) -> Result<bool> {
        let method = "index.isAccepted";
        self.about_id(method, id, |body, url| Ok(result_of::<IsAcceptedResult>(body, method, url)?.is_accepted)).await
    }

    /// The call `method` about the container `id`, checked before it is sent.
    async fn about_id<T>(&self, method: &str, id: &str, read: impl Fn(&[u8], &str) -> Result<T>) -> Result<T> {
        validate_id(id)?;
        self.call(method, json!({"id": id, "encoding": "hex"}), read).await
    }

    /// The last accepted index, or `None` when nothing has been accepted yet.
    pub async fn tip(&self) -> Result<Option<u64>> {
        match self.last_accepted().await {
            Ok(c) => Ok(Some(c.index)),
            Err(Error::Rpc { kind: RpcErrorKind::EmptyIndex, .. }) => Ok(None),
            Err(e) => Err(e),
        }
    }
}

/// A checked `getContainerRange` answer (see [`ChainClient::range_call`]).
pub(crate) struct RangeAnswer<P> {
    /// The containers asked for.
    pub piece: P,
    /// Their wire fields, when kept for the cache.
    pub kept: Vec<crate::cache::containers::StoredContainer>,
    /// Whether the node sent a container past those asked for (the extra one).
    pub later: bool,
}

/// The error a refused container raises.
fn container_error(e: ContainerError, url: &str) -> Error {
    match e {
        ContainerError::Decode(message) => Error::Decode { message, url: url.to_string(), body: String::new() },
        ContainerError::Integrity(message) => Error::Integrity { message, url: url.to_string() },
    }
}

/// The result of a JSON-RPC answer of `method`, which must not be null.
fn result_of<'a, R: serde::Deserialize<'a>>(body: &'a [u8], method: &str, url: &str) -> Result<R> {
    rpc::parse_response(body, method, url)?.ok_or_else(|| null_result(method, url))
}

fn null_result(method: &str, url: &str) -> Error {
    Error::Decode {
        message: format!("{method} answered with a null result"),
        url: url.to_string(),
        body: String::new(),
    }
}
