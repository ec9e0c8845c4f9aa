//! [`RestClient`]: one REST service's base URL, transport and closed flag; GETs of JSON objects
//! and the token-paged walk of a list ([`Paged`]) on [`crate::paging::token_pages`].

use std::pin::Pin;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use futures::Stream;
use serde_json::value::RawValue;

use super::json::{api_message, service_root, take_list};
use super::raw_page::read_page_in;
use crate::error::{Error, Result};
use crate::exact::{self, Exact};
use crate::paging::{token_pages, JsonItem, Page};
use crate::transport::{json_error, snippet, RateLimitInfo, Reply, Transport, TransportConfig};

/// A walk over a paginated endpoint: `(page, token it was fetched with)`.
pub type PageStream = Pin<Box<dyn Stream<Item = Result<(Page<JsonItem>, Option<String>)>> + Send>>;

/// What a paginated call asks for; [`RestClient::pages`] walks it from a token.
#[derive(Debug, Clone)]
pub struct Paged {
    /// Path under the base URL.
    pub path: String,
    /// Query parameters other than `pageToken`.
    pub query: Vec<(&'static str, String)>,
    /// The field holding the list in each answer (`blocks`, `vertices`, ...).
    pub items_field: &'static str,
}

/// The body of `reply` as a JSON object read exactly (the rule of [`crate::exact`]: a value it
/// refuses is a decode error naming the value's path), and the request URL.
fn object_of(reply: Reply) -> Result<(Exact, String)> {
    let raw: &RawValue =
        serde_json::from_slice(&reply.body).map_err(|e| json_error(&e, "not JSON", "GET", &reply.url, &reply.body))?;
    let value = exact::parse_raw(raw).map_err(|e| Error::Decode {
        message: e.to_string(),
        url: reply.url.clone(),
        body: snippet(&reply.body),
    })?;
    if !value.is_object() {
        return Err(Error::Decode {
            message: "expected a JSON object".into(),
            url: reply.url,
            body: snippet(&reply.body),
        });
    }
    Ok((value, reply.url))
}

/// The `nextPageToken` of a page (`None`: absent, null or empty); any other type is an error,
/// since the walk could not go on.
fn next_token(value: &Exact, url: &str) -> Result<Option<String>> {
    match value.get("nextPageToken") {
        Some(Exact::Str(s)) if !s.is_empty() => Ok(Some(s.clone())),
        None | Some(Exact::Null) | Some(Exact::Str(_)) => Ok(None),
        Some(other) => Err(Error::Decode {
            message: format!("nextPageToken must be a string, found {other}: the walk cannot go on"),
            url: url.to_string(),
            body: other.to_string(),
        }),
    }
}

/// A page token: a non-empty string.
pub fn page_token(value: &str) -> Result<String> {
    if value.trim().is_empty() {
        return Err(Error::invalid_text("page_token", value, "a non-empty page token (or None)"));
    }
    Ok(value.trim().to_string())
}

struct Inner {
    transport: Transport,
    closed: AtomicBool,
    /// The cache of immutable answers ([`crate::cache`]), once set.
    cache: std::sync::OnceLock<Arc<crate::cache::Store>>,
}

/// A client of one REST service: its base URL (the service root), its transport (one connection
/// pool, retries, redaction) and whether it was closed. Cheap to clone (shares the pool).
#[derive(Clone)]
pub struct RestClient {
    inner: Arc<Inner>,
}

impl std::fmt::Debug for RestClient {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RestClient").field("base_url", &self.base_url()).finish_non_exhaustive()
    }
}

impl RestClient {
    /// A client of the service at `base_url` ([`service_root`] of it).
    pub fn new(base_url: &str, config: TransportConfig) -> Result<Self> {
        let transport = Transport::new(&service_root(base_url), config)?;
        Ok(RestClient {
            inner: Arc::new(Inner { transport, closed: AtomicBool::new(false), cache: Default::default() }),
        })
    }

    /// The base URL (secrets redacted).
    pub fn base_url(&self) -> &str {
        self.inner.transport.base_url()
    }

    /// The last `ratelimit-*` headers seen.
    pub fn rate_limit(&self) -> Option<RateLimitInfo> {
        self.inner.transport.rate_limit()
    }

    /// The span of the emulator's world (Unix seconds), once the emulator named it; `None`
    /// from the real services.
    pub fn emulator_world(&self) -> Option<(i64, i64)> {
        self.inner.transport.emulator_world()
    }

    /// The name of the emulator's world, once the emulator named it; `None` from the real
    /// services.
    pub fn emulator_world_id(&self) -> Option<String> {
        self.inner.transport.emulator_world_id()
    }

    /// The service's name in the cache's keys ([`crate::transport::Transport::cache_name`]).
    pub fn cache_name(&self) -> String {
        self.inner.transport.cache_name()
    }

    /// The retry policy in force.
    pub fn retry_policy(&self) -> &crate::transport::RetryPolicy {
        &self.inner.transport.config().retry
    }

    /// The transport options (a cost plan reads the limits and the tier).
    pub fn transport_config(&self) -> &TransportConfig {
        self.inner.transport.config()
    }

    /// What the client was built with: the transport's settings, then the client's `own` rows.
    pub fn settings(&self, own: Vec<(&'static str, String)>) -> crate::settings::Settings {
        crate::settings::Settings::of(&self.inner.transport, own)
    }

    /// Closes the client: later calls fail with [`Error::Closed`].
    pub fn close(&self) {
        self.inner.closed.store(true, Ordering::SeqCst);
    }

    /// Whether [`close`](Self::close) was called.
    pub fn is_closed(&self) -> bool {
        self.inner.closed.load(Ordering::SeqCst)
    }

    /// Turns the cache of immutable answers on for this client and its clones (the first store
    /// set stays; later calls are ignored): point lookups of objects that cannot change
    /// ([`crate::cache::objects`]) and closed metric buckets ([`crate::cache::series`]).
    pub fn set_cache(&self, store: Arc<crate::cache::Store>) {
        let _ = self.inner.cache.set(store);
    }

    /// The cache in force, if any.
    pub fn cache(&self) -> Option<&Arc<crate::cache::Store>> {
        self.inner.cache.get()
    }

    /// `GET path?query`: the answer, which must be a JSON object, read exactly, and the request
    /// URL (secrets redacted). With a cache, a lookup of an immutable object is served from it
    /// when held, and stored once final ([`crate::cache::objects`]).
    pub async fn get(&self, path: &str, query: &[(&str, String)]) -> Result<(Exact, String)> {
        if self.is_closed() {
            return Err(Error::Closed);
        }
        if let (Some(store), Some(rule)) = (self.cache(), crate::cache::objects::rule(path, query)) {
            return crate::cache::objects::cached_get(self, store, rule, path).await;
        }
        self.fetch_object(path, query).await
    }

    /// `GET path?query` sent to the service (no cache).
    pub(crate) async fn fetch_object(&self, path: &str, query: &[(&str, String)]) -> Result<(Exact, String)> {
        self.inner.transport.send(reqwest::Method::GET, path, query, None, object_of).await
    }

    /// `GET path?query` of a list page: its items (each checked to be an object) and next page
    /// token, read straight from the body ([`read_page_in`]) when it has the plain shape, and the
    /// request URL.
    async fn get_page(
        &self,
        path: &str,
        query: &[(&str, String)],
        field: &'static str,
    ) -> Result<(Page<JsonItem>, String)> {
        if self.is_closed() {
            return Err(Error::Closed);
        }
        let decode = move |reply: Reply| {
            if let Some((items, next_page_token)) = read_page_in(&reply.body, field) {
                return Ok((Page { items, next_page_token }, reply.url));
            }
            let (mut value, url) = object_of(reply)?;
            let next_page_token = next_token(&value, &url)?;
            let items = take_list(&mut value, field, &url)?.iter().map(JsonItem::from).collect();
            Ok((Page { items, next_page_token }, url))
        };
        self.inner.transport.send(reqwest::Method::GET, path, query, None, decode).await
    }

    /// Hides the client's secrets in an error made from what the server sent.
    pub fn redacted<T>(&self, result: Result<T>) -> Result<T> {
        result.map_err(|e| self.inner.transport.redact_error(e))
    }

    /// One page of `paged` fetched with `token`. A 400 answer to a request carrying a token
    /// becomes [`Error::PageToken`] (expired or unknown token).
    pub async fn page(&self, paged: &Paged, token: Option<&str>) -> Result<Page<JsonItem>> {
        self.page_at_most(paged, token, None).await
    }

    /// Like [`page`](Self::page), asking for at most `at_most` items (a smaller `pageSize`).
    pub async fn page_at_most(
        &self,
        paged: &Paged,
        token: Option<&str>,
        at_most: Option<u64>,
    ) -> Result<Page<JsonItem>> {
        self.redacted(self.page_unredacted(paged, token, at_most).await)
    }

    async fn page_unredacted(
        &self,
        paged: &Paged,
        token: Option<&str>,
        at_most: Option<u64>,
    ) -> Result<Page<JsonItem>> {
        let mut query = paged.query.clone();
        if let Some(at_most) = at_most.filter(|n| *n > 0) {
            for (_, value) in query.iter_mut().filter(|(name, _)| *name == "pageSize") {
                if value.parse::<u64>().is_ok_and(|size| size > at_most) {
                    *value = at_most.to_string();
                }
            }
        }
        if let Some(t) = token {
            query.push(("pageToken", t.to_string()));
        }
        match self.get_page(&paged.path, &query, paged.items_field).await {
            Err(Error::Http { status: 400, body, url, .. }) if token.is_some() => {
                let message = api_message(&body).unwrap_or_else(|| body.clone());
                Err(Error::PageToken {
                    token: token.unwrap_or_default().to_string(),
                    items_read: 0,
                    message,
                    status: 400,
                    body,
                    url,
                })
            }
            other => other.map(|(page, _)| page),
        }
    }

    /// Walks `paged` from `token` (`None`: the first page) until no next token comes back.
    pub fn pages(&self, paged: Paged, token: Option<String>) -> Result<PageStream> {
        let token = token.map(|t| page_token(&t)).transpose()?;
        Ok(Box::pin(self.pages_wanting(Arc::new(paged), token, None)))
    }

    /// Walks `paged` from `token` until `want` items came back (`None`: to the end); the last
    /// request asks only for what is left.
    pub fn pages_wanting(
        &self,
        paged: Arc<Paged>,
        token: Option<String>,
        want: Option<u64>,
    ) -> impl Stream<Item = Result<(Page<JsonItem>, Option<String>)>> + Send + 'static {
        let client = self.clone();
        token_pages(token, want, move |token, at_most| {
            let (client, paged) = (client.clone(), paged.clone());
            async move { client.page_at_most(&paged, token.as_deref(), at_most).await }
        })
    }
}
