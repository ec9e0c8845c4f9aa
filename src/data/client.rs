//! `DataClient`: one method per Data API endpoint. Single objects come back as JSON values;
//! lists as token-paged streams built on [`crate::paging::token_pages`].

use std::pin::Pin;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use std::future::Future;

use futures::Stream;
use serde_json::Value;

use super::{params, shapes};
use crate::error::{Error, Result};
use crate::paging::{token_pages, Page};
use crate::transport::{json_error, snippet, RateLimitInfo, Transport, TransportConfig};

/// Default base URL of the hosted Data API.
pub const DEFAULT_DATA_URL: &str = "https://data-api.avax.network";
/// Header names the API key is sent under (the spec's and the deployed service's).
pub const KEY_HEADERS: [&str; 2] = ["x-glacier-api-key", "x-data-api-key"];

/// Options of a [`DataClient`].
#[derive(Debug, Clone, Default)]
pub struct DataClientOptions {
    /// Timeouts, retries, extra headers.
    pub transport: TransportConfig,
    /// The API key (optional; gives higher rate limits).
    pub api_key: Option<String>,
}

/// A walk over a paginated endpoint: `(page, token it was fetched with)`.
pub type PageStream = Pin<Box<dyn Stream<Item = Result<(Page<Value>, Option<String>)>> + Send>>;

/// What a paginated call asks for; [`DataClient::pages`] walks it from a token.
#[derive(Debug, Clone)]
pub struct Paged {
    /// Path under the base URL.
    pub path: String,
    /// Query parameters other than `pageToken`.
    pub query: Vec<(&'static str, String)>,
    /// The field holding the list in each answer (`blocks`, `vertices`, ...).
    pub items_field: &'static str,
}

struct Inner {
    transport: Transport,
    closed: AtomicBool,
}

/// Client of the hosted Data API. Cheap to clone (shares one connection pool).
#[derive(Clone)]
pub struct DataClient {
    inner: Arc<Inner>,
}

impl std::fmt::Debug for DataClient {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DataClient").field("base_url", &self.base_url()).finish_non_exhaustive()
    }
}

fn opt(param: Option<&str>, check: fn(&str) -> Result<String>) -> Result<Option<String>> {
    param.map(check).transpose()
}

impl DataClient {
    /// A client of `base_url` (default [`DEFAULT_DATA_URL`]); the key goes out under both
    /// header names and is never shown.
    pub fn new(base_url: Option<&str>, options: DataClientOptions) -> Result<Self> {
        let mut config = options.transport;
        if let Some(key) = options.api_key.filter(|k| !k.trim().is_empty()) {
            for name in KEY_HEADERS {
                config.headers.push((name.to_string(), key.trim().to_string()));
                config.secret_headers.push(name.to_string());
            }
        }
        let transport = Transport::new(&service_root(base_url.unwrap_or(DEFAULT_DATA_URL)), config)?;
        Ok(DataClient { inner: Arc::new(Inner { transport, closed: AtomicBool::new(false) }) })
    }

    /// The base URL (secrets redacted).
    pub fn base_url(&self) -> &str {
        self.inner.transport.base_url()
    }

    /// The last `ratelimit-*` headers seen.
    pub fn rate_limit(&self) -> Option<RateLimitInfo> {
        self.inner.transport.rate_limit()
    }

    /// The retry policy in force.
    pub fn retry_policy(&self) -> &crate::transport::RetryPolicy {
        &self.inner.transport.config().retry
    }

    /// Closes the client: later calls fail with [`Error::Closed`].
    pub fn close(&self) {
        self.inner.closed.store(true, Ordering::SeqCst);
    }

    /// Whether [`close`](Self::close) was called.
    pub fn is_closed(&self) -> bool {
        self.inner.closed.load(Ordering::SeqCst)
    }

    pub(crate) async fn get(&self, path: &str, query: &[(&str, String)]) -> Result<(Value, String)> {
        if self.is_closed() {
            return Err(Error::Closed);
        }
        let decode = |reply: crate::transport::Reply| {
            let value: Value = serde_json::from_slice(&reply.body)
                .map_err(|e| json_error(&e, "not JSON", "GET", &reply.url, &reply.body))?;
            if !value.is_object() {
                return Err(Error::Decode {
                    message: "expected a JSON object".into(),
                    url: reply.url,
                    body: snippet(&reply.body),
                });
            }
            Ok((value, reply.url))
        };
        self.inner.transport.send(reqwest::Method::GET, path, query, None, decode).await
    }

    /// Hides the client's secrets in an error made from what the server sent.
    fn redacted<T>(&self, result: Result<T>) -> Result<T> {
        result.map_err(|e| self.inner.transport.redact_error(e))
    }

    /// `GET /v1/chains`: the supported chains (not paginated). Checks the filters at once,
    /// then returns the request to await.
    pub fn chains(
        &self,
        network: Option<&str>,
        feature: Option<&str>,
    ) -> Result<impl Future<Output = Result<Vec<Value>>> + Send + 'static> {
        let mut query = Vec::new();
        if let Some(n) = opt(network, params::network)? {
            query.push(("network", n));
        }
        if let Some(f) = opt(feature, params::feature)? {
            query.push(("feature", f));
        }
        let client = self.clone();
        Ok(async move {
            let (mut value, url) = client.get("/v1/chains", &query).await?;
            client.redacted(take_list(&mut value, "chains", &url))
        })
    }

    async fn get_object(&self, path: &str, resource: &str, required: &[(&str, shapes::JsonType)]) -> Result<Value> {
        let (value, url) = self.get(path, &[]).await?;
        self.redacted(shapes::check_object(&value, resource, required, &url))?;
        Ok(value)
    }

    /// `GET /v1/chains/{chainId}` (the id checked at once).
    pub fn chain(&self, chain_id: &str) -> Result<impl Future<Output = Result<Value>> + Send + 'static> {
        let path = format!("/v1/chains/{}", params::segment("chain_id", chain_id)?);
        let client = self.clone();
        Ok(async move { client.get_object(&path, "chain", shapes::CHAIN).await })
    }

    /// `GET /v1/chains/{chainId}/blocks/{blockId}`: `block_id` is a number or a hash (both
    /// checked at once).
    pub fn block(
        &self,
        chain_id: &str,
        block_id: &str,
    ) -> Result<impl Future<Output = Result<Value>> + Send + 'static> {
        let chain_id = params::segment("chain_id", chain_id)?;
        let block_id = params::segment("block_id", block_id)?;
        let path = format!("/v1/chains/{chain_id}/blocks/{block_id}");
        let client = self.clone();
        Ok(async move { client.get_object(&path, "block", shapes::BLOCK).await })
    }

    /// `GET /v1/health-check`.
    pub async fn health(&self) -> Result<Value> {
        self.get_object("/v1/health-check", "health", shapes::HEALTH).await
    }

    /// `GET /v1/chains/{chainId}/blocks`, newest first.
    pub fn blocks(&self, chain_id: &str, page_size: Option<i64>) -> Result<Paged> {
        let chain_id = params::segment("chain_id", chain_id)?;
        let size = params::page_size_or_max(page_size, params::MAX_PAGE_SIZE)?;
        Ok(Paged {
            path: format!("/v1/chains/{chain_id}/blocks"),
            query: vec![("pageSize", size.to_string())],
            items_field: "blocks",
        })
    }

    /// `GET /v1/blocks`: latest blocks across all chains.
    pub fn latest_blocks(&self, network: Option<&str>, page_size: Option<i64>) -> Result<Paged> {
        let size = params::page_size_or_max(page_size, params::MAX_PAGE_SIZE)?;
        let mut query = vec![("pageSize", size.to_string())];
        if let Some(n) = opt(network, params::network)? {
            query.push(("network", n));
        }
        Ok(Paged { path: "/v1/blocks".into(), query, items_field: "blocks" })
    }

    /// `GET /v1/chains/{chainId}/addresses/{address}/balances:listCollectibles`.
    pub fn collectibles(
        &self,
        chain_id: &str,
        address: &str,
        contract_address: Option<&str>,
        page_size: Option<i64>,
    ) -> Result<Paged> {
        let chain_id = params::segment("chain_id", chain_id)?;
        let address = params::segment("address", address)?;
        let size = params::page_size_or_max(page_size, params::MAX_COLLECTIBLES_PAGE_SIZE)?;
        let mut query = vec![("pageSize", size.to_string())];
        if let Some(c) = contract_address {
            query.push(("contractAddress", params::segment("contract_address", c)?));
        }
        Ok(Paged {
            path: format!("/v1/chains/{chain_id}/addresses/{address}/balances:listCollectibles"),
            query,
            items_field: "collectibleBalances",
        })
    }

    /// `GET /v1/networks/{network}/rewards:listPending`: at least one address or node id.
    pub fn pending_rewards(
        &self,
        network: &str,
        addresses: &[String],
        node_ids: &[String],
        sort_order: Option<&str>,
        page_size: Option<i64>,
    ) -> Result<Paged> {
        let network = params::network(network)?;
        let (addresses, node_ids) = params::reward_filters(addresses, node_ids)?;
        let size = params::page_size_or_max(page_size, params::MAX_PAGE_SIZE)?;
        let mut query = vec![("pageSize", size.to_string())];
        if let Some(a) = addresses {
            query.push(("addresses", a));
        }
        if let Some(n) = node_ids {
            query.push(("nodeIds", n));
        }
        if let Some(s) = opt(sort_order, params::sort_order)? {
            query.push(("sortOrder", s));
        }
        Ok(Paged { path: format!("/v1/networks/{network}/rewards:listPending"), query, items_field: "pendingRewards" })
    }

    /// `GET /v1/networks/{network}/blockchains/{blockchainId}/vertices`.
    pub fn vertices(&self, network: &str, blockchain_id: &str, page_size: Option<i64>) -> Result<Paged> {
        let network = params::network(network)?;
        let blockchain_id = params::x_chain_id(blockchain_id)?;
        let size = params::page_size_or_max(page_size, params::MAX_PAGE_SIZE)?;
        Ok(Paged {
            path: format!("/v1/networks/{network}/blockchains/{blockchain_id}/vertices"),
            query: vec![("pageSize", size.to_string())],
            items_field: "vertices",
        })
    }

    /// `GET /v1/icm/messages`, newest first, with its six filters.
    #[allow(clippy::too_many_arguments)]
    pub fn icm_messages(
        &self,
        source_blockchain_id: Option<&str>,
        destination_blockchain_id: Option<&str>,
        blockchain_id: Option<&str>,
        to: Option<&str>,
        from: Option<&str>,
        network: Option<&str>,
        page_size: Option<i64>,
    ) -> Result<Paged> {
        let size = params::page_size_or_max(page_size, params::MAX_PAGE_SIZE)?;
        let mut query = vec![("pageSize", size.to_string())];
        for (name, param, value) in [
            ("sourceBlockchainId", "source_blockchain_id", source_blockchain_id),
            ("destinationBlockchainId", "destination_blockchain_id", destination_blockchain_id),
            ("blockchainId", "blockchain_id", blockchain_id),
            ("to", "to", to),
            ("from", "from_", from),
        ] {
            if let Some(v) = value {
                query.push((name, params::segment(param, v)?));
            }
        }
        if let Some(n) = opt(network, params::network)? {
            query.push(("network", n));
        }
        Ok(Paged { path: "/v1/icm/messages".into(), query, items_field: "messages" })
    }

    /// One page of `paged` fetched with `token`. A 400 answer to a request carrying a token
    /// becomes [`Error::PageToken`] (expired or unknown token).
    pub async fn page(&self, paged: &Paged, token: Option<&str>) -> Result<Page<Value>> {
        self.redacted(self.page_unredacted(paged, token, None).await)
    }

    /// Like [`page`](Self::page), asking for at most `at_most` items (a smaller `pageSize`).
    pub async fn page_at_most(&self, paged: &Paged, token: Option<&str>, at_most: Option<u64>) -> Result<Page<Value>> {
        self.redacted(self.page_unredacted(paged, token, at_most).await)
    }

    async fn page_unredacted(&self, paged: &Paged, token: Option<&str>, at_most: Option<u64>) -> Result<Page<Value>> {
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
        let (mut value, url) = match self.get(&paged.path, &query).await {
            Err(Error::Http { status: 400, body, url, .. }) if token.is_some() => {
                let message = api_message(&body).unwrap_or_else(|| body.clone());
                return Err(Error::PageToken {
                    token: token.unwrap_or_default().to_string(),
                    items_read: 0,
                    message,
                    status: 400,
                    body,
                    url,
                });
            }
            other => other?,
        };
        let next_page_token = match value.get("nextPageToken") {
            Some(Value::String(s)) if !s.is_empty() => Some(s.clone()),
            None | Some(Value::Null) | Some(Value::String(_)) => None,
            Some(other) => {
                return Err(Error::Decode {
                    message: format!("nextPageToken must be a string, found {other}: the walk cannot go on"),
                    url,
                    body: other.to_string(),
                })
            }
        };
        let items = take_list(&mut value, paged.items_field, &url)?;
        Ok(Page { items, next_page_token })
    }

    /// Walks `paged` from `token` (`None`: the first page) until no next token comes back.
    pub fn pages(&self, paged: Paged, token: Option<String>) -> Result<PageStream> {
        let token = token.map(|t| params::page_token(&t)).transpose()?;
        Ok(Box::pin(self.pages_wanting(Arc::new(paged), token, None)))
    }

    /// Walks `paged` from `token` until `want` items came back (`None`: to the end); the last
    /// request asks only for what is left.
    pub fn pages_wanting(
        &self,
        paged: Arc<Paged>,
        token: Option<String>,
        want: Option<u64>,
    ) -> impl futures::Stream<Item = Result<(Page<Value>, Option<String>)>> + Send + 'static {
        let client = self.clone();
        token_pages(token, want, move |token, at_most| {
            let (client, paged) = (client.clone(), paged.clone());
            async move { client.page_at_most(&paged, token.as_deref(), at_most).await }
        })
    }
}

/// The service root of a base URL: a trailing `/`, and a trailing API version (`/v1`, `/v2`) that
/// every request path already starts with, are dropped, so `https://host/v1/` does not give
/// `https://host/v1/v1/...`.
pub fn service_root(base_url: &str) -> String {
    let mut root = base_url.trim().trim_end_matches('/');
    for version in ["/v1", "/v2"] {
        if let Some(stripped) = root.strip_suffix(version) {
            root = stripped.trim_end_matches('/');
        }
    }
    root.to_string()
}

/// The `message` of an error body `{"message": "..." | ["...", ...], "error", "statusCode"}`,
/// a list joined with `; `; `None` when the body is not such an object.
pub fn api_message(body: &str) -> Option<String> {
    match serde_json::from_str::<Value>(body).ok()?.get("message")? {
        Value::String(s) => Some(s.clone()),
        Value::Array(items) => Some(
            items
                .iter()
                .map(|i| i.as_str().map(String::from).unwrap_or_else(|| i.to_string()))
                .collect::<Vec<_>>()
                .join("; "),
        ),
        _ => None,
    }
}

fn take_list(value: &mut Value, field: &str, url: &str) -> Result<Vec<Value>> {
    match value.get_mut(field).map(Value::take) {
        Some(Value::Array(items)) => {
            shapes::check_items(&items, field, url)?;
            Ok(items)
        }
        Some(Value::Null) | None => Err(Error::Decode {
            message: format!("the answer has no {field:?} list"),
            url: url.to_string(),
            body: snippet(value.to_string().as_bytes()),
        }),
        Some(other) => Err(Error::Decode {
            message: format!("{field:?} is not a list"),
            url: url.to_string(),
            body: snippet(other.to_string().as_bytes()),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::extract::{Query, Request};
    use axum::http::StatusCode;
    use axum::response::IntoResponse;
    use axum::routing::get;
    use futures::StreamExt;
    use std::collections::HashMap;

    async fn serve(app: axum::Router) -> String {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
        format!("http://{addr}")
    }

    fn fast() -> DataClientOptions {
        let transport = TransportConfig {
            retry: crate::transport::RetryPolicy { max_retries: 0, ..Default::default() },
            ..TransportConfig::default()
        };
        DataClientOptions { transport, api_key: Some("sekret-key-123".into()) }
    }

    #[test]
    fn base_urls_ending_in_an_api_version_are_the_service_root() {
        for url in ["https://h", "https://h/", "https://h/v1", "https://h/v1/", "https://h/v2", " https://h/v2// "] {
            assert_eq!(service_root(url), "https://h", "{url}");
        }
        assert_eq!(service_root("http://127.0.0.1:9/prefix/v1"), "http://127.0.0.1:9/prefix");
        assert_eq!(service_root("https://h/v10"), "https://h/v10");
    }

    #[test]
    fn error_messages_come_as_text_or_list() {
        assert_eq!(
            api_message(r#"{"message":"bad pageSize","error":"Bad Request","statusCode":400}"#).as_deref(),
            Some("bad pageSize")
        );
        assert_eq!(
            api_message(r#"{"message":["a must be x","b must be y"],"statusCode":400}"#).as_deref(),
            Some("a must be x; b must be y")
        );
        assert_eq!(api_message("<html>"), None);
        assert_eq!(api_message(r#"{"error":"x"}"#), None);
    }

    #[tokio::test]
    async fn pages_follow_tokens_send_both_key_headers_and_refuse_bad_input_locally() {
        let app = axum::Router::new().route(
            "/v1/chains/{chain}/blocks",
            get(|Query(q): Query<HashMap<String, String>>, req: Request| async move {
                let h = req.headers();
                assert_eq!(h.get("x-glacier-api-key").unwrap(), "sekret-key-123");
                assert_eq!(h.get("x-data-api-key").unwrap(), "sekret-key-123");
                assert_eq!(q.get("pageSize").map(String::as_str), Some("2"));
                match q.get("pageToken").map(String::as_str) {
                    None => axum::Json(serde_json::json!({"blocks": [{"blockNumber": "9"}, {"blockNumber": "8"}], "nextPageToken": "t1"})).into_response(),
                    Some("t1") => axum::Json(serde_json::json!({"blocks": [{"blockNumber": "7"}], "nextPageToken": ""})).into_response(),
                    Some(_) => (StatusCode::BAD_REQUEST, axum::Json(serde_json::json!({"message": "pageToken expired", "error": "Bad Request", "statusCode": 400}))).into_response(),
                }
            }),
        );
        let url = serve(app).await;
        let client = DataClient::new(Some(&url), fast()).unwrap();
        assert!(!format!("{client:?}").contains("sekret"));
        let paged = client.blocks("43114", Some(2)).unwrap();
        let pages: Vec<_> = client.pages(paged.clone(), None).unwrap().collect().await;
        let numbers: Vec<_> =
            pages.iter().flat_map(|p| p.as_ref().unwrap().0.items.clone()).map(|b| b["blockNumber"].clone()).collect();
        assert_eq!(numbers, vec!["9", "8", "7"]);
        assert_eq!(pages[1].as_ref().unwrap().1.as_deref(), Some("t1"));
        let err = client.page(&paged, Some("old")).await.unwrap_err();
        match err {
            Error::PageToken { token, message, .. } => {
                assert_eq!((token.as_str(), message.as_str()), ("old", "pageToken expired"))
            }
            other => panic!("{other:?}"),
        }
        assert!(matches!(client.blocks("43114", Some(101)), Err(Error::InvalidArgument { .. })));
        let owner = "0x000000000000000000000000000000000000dead";
        assert!(matches!(client.collectibles("1", owner, None, Some(501)), Err(Error::InvalidArgument { .. })));
        assert!(client.collectibles("1", owner, None, Some(500)).is_ok());
        assert!(matches!(
            client.pending_rewards("mainnet", &[], &[], None, Some(10)),
            Err(Error::InvalidArgument { .. })
        ));
        assert!(matches!(client.vertices("mainnet", "P", Some(10)), Err(Error::InvalidArgument { .. })));
        assert!(matches!(client.chains(Some("moon"), None).map(|_| ()), Err(Error::InvalidArgument { .. })));
    }
}
