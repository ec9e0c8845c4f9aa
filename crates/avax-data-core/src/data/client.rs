//! `DataClient`: one method per Data API endpoint. Single objects come back as JSON values;
//! lists as [`Paged`] requests walked by the [`RestClient`] underneath (token-paged streams built
//! on [`crate::paging::token_pages`]).

use std::future::Future;
use std::ops::Deref;

use crate::exact::Exact;

use super::{params, shapes};
use crate::error::Result;
use crate::rest::openapi::{engine_check, ride};
use crate::rest::{take_list, Paged, RestClient};
use crate::transport::TransportConfig;
use serde_json::{json, Value};

/// Default base URL of the hosted Data API.
pub const DEFAULT_DATA_URL: &str = "https://data-api.avax.network";
/// Header names the API key is sent under (the spec's and the deployed service's).
pub const KEY_HEADERS: [&str; 2] = ["x-glacier-api-key", "x-data-api-key"];

/// The environment variable the Python client reads the API key from.
pub use crate::settings::DATA_API_KEY_ENV as API_KEY_ENV;

/// Options of a [`DataClient`].
#[derive(Debug, Clone, Default)]
pub struct DataClientOptions {
    /// Timeouts, retries, extra headers.
    pub transport: TransportConfig,
    /// The API key (optional; gives higher rate limits).
    pub api_key: Option<String>,
}

/// Client of the hosted Data API. Cheap to clone (shares one connection pool). The
/// [`RestClient`] it stands on (base URL, rate-limit headers, close, the token-paged walks
/// [`RestClient::page`] and [`RestClient::pages`]) is reached through `Deref`.
#[derive(Clone)]
pub struct DataClient {
    rest: RestClient,
    has_key: bool,
}

impl Deref for DataClient {
    type Target = RestClient;
    fn deref(&self) -> &RestClient {
        &self.rest
    }
}

impl std::fmt::Debug for DataClient {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DataClient").field("base_url", &self.base_url()).finish_non_exhaustive()
    }
}

fn opt(param: Option<&str>, check: fn(&str) -> Result<String>) -> Result<Option<String>> {
    param.map(check).transpose()
}

/// Whether `text` reads as a URL (`scheme://...`).
pub fn looks_like_url(text: &str) -> bool {
    let text = text.trim();
    text.split_once("://").is_some_and(|(scheme, _)| {
        !scheme.is_empty() && scheme.chars().all(|c| c.is_ascii_alphanumeric() || "+-.".contains(c))
    })
}

/// The constructor's rule: the base URL is a URL, the key is not one.
fn check_url_and_key(base_url: Option<&str>, api_key: Option<&str>) -> Result<()> {
    if base_url.is_some_and(|u| !looks_like_url(u)) {
        return Err(crate::error::Error::invalid(
            "base_url",
            "(not shown: it may be an API key)",
            "an http:// or https:// URL; an API key goes in api_key=",
        ));
    }
    if api_key.is_some_and(looks_like_url) {
        return Err(crate::error::Error::invalid(
            "api_key",
            "(a URL, not shown)",
            "an API key; the service URL is the first argument (base_url=)",
        ));
    }
    Ok(())
}

impl DataClient {
    /// A client of `base_url` (default [`DEFAULT_DATA_URL`]); the key goes out under both
    /// header names and is never shown.
    ///
    /// A `base_url` that is not a URL (no `scheme://`, perhaps a key given in the URL's place)
    /// and an `api_key` that is a URL are refused, neither shown: a key is never sent as a URL
    /// and a URL never as a key.
    pub fn new(base_url: Option<&str>, options: DataClientOptions) -> Result<Self> {
        Self::build(base_url, options)
    }

    /// A client built with no arguments: `$AVAX_DATA_API_URL` or [`DEFAULT_DATA_URL`], the key of
    /// `$AVAX_DATA_API_KEY` if any, the default transport ([`crate::settings`]).
    pub fn from_defaults() -> Result<Self> {
        let options =
            DataClientOptions { transport: TransportConfig::default(), api_key: crate::settings::data_api_key(None) };
        Self::build(crate::settings::data_url(None).as_deref(), options)
    }

    /// What the client was built with (the Python client reports the same rows).
    pub fn settings(&self) -> crate::settings::Settings {
        self.rest.settings(vec![("api_key", if self.has_key { "set" } else { "none" }.to_string())])
    }

    fn build(base_url: Option<&str>, options: DataClientOptions) -> Result<Self> {
        check_url_and_key(base_url, options.api_key.as_deref())?;
        let mut config = options.transport;
        let key = options.api_key.filter(|k| !k.trim().is_empty());
        let has_key = key.is_some();
        if let Some(key) = key {
            for name in KEY_HEADERS {
                config.headers.push((name.to_string(), key.trim().to_string()));
                config.secret_headers.push(name.to_string());
            }
        }
        Ok(DataClient { rest: RestClient::new(base_url.unwrap_or(DEFAULT_DATA_URL), config)?, has_key })
    }

    /// Whether an API key is set (operations of [`crate::rest::openapi::KEY_TAGS`] need one).
    pub fn has_api_key(&self) -> bool {
        self.has_key
    }

    /// What the generic call of an operation needs to know about the key.
    pub fn credentials(&self) -> crate::rest::openapi::Credentials<'static> {
        crate::rest::openapi::Credentials { has_key: self.has_key, env: API_KEY_ENV }
    }

    /// `GET /v1/chains`: the supported chains (not paginated). Checks the filters at once,
    /// then returns the request to await.
    pub fn chains(
        &self,
        network: Option<&str>,
        feature: Option<&str>,
    ) -> Result<impl Future<Output = Result<Vec<Exact>>> + Send + 'static> {
        let mut query = Vec::new();
        if let Some(n) = opt(network, params::network)? {
            query.push(("network", n));
        }
        if let Some(f) = opt(feature, params::feature)? {
            query.push(("feature", f));
        }
        let args: Vec<(&str, Value)> = query.iter().map(|(name, v)| (*name, json!(v))).collect();
        engine_check("supportedChains", &args)?;
        let client = self.clone();
        Ok(async move {
            let (mut value, url) = client.get("/v1/chains", &query).await?;
            client.redacted(take_list(&mut value, "chains", &url))
        })
    }

    async fn get_object(&self, path: &str, resource: &str, required: &[(&str, shapes::JsonType)]) -> Result<Exact> {
        let (value, url) = self.get(path, &[]).await?;
        self.redacted(shapes::check_object(&value, resource, required, &url))?;
        Ok(value)
    }

    /// `GET /v1/chains/{chainId}` (the id checked at once).
    pub fn chain(&self, chain_id: &str) -> Result<impl Future<Output = Result<Exact>> + Send + 'static> {
        let path = format!("/v1/chains/{}", params::segment("chain_id", chain_id)?);
        engine_check("getChainInfo", &[("chain_id", json!(chain_id.trim()))])?;
        let client = self.clone();
        Ok(async move { client.get_object(&path, "chain", shapes::CHAIN).await })
    }

    /// `GET /v1/chains/{chainId}/blocks/{blockId}`: `block_id` is a number or a hash (both
    /// checked at once).
    pub fn block(
        &self,
        chain_id: &str,
        block_id: &str,
    ) -> Result<impl Future<Output = Result<Exact>> + Send + 'static> {
        let chain_id = params::segment("chain_id", chain_id)?;
        let block_id = params::segment("block_id", block_id)?;
        engine_check("getBlock", &[("chain_id", json!(chain_id)), ("block_id", json!(block_id))])?;
        let path = format!("/v1/chains/{chain_id}/blocks/{block_id}");
        let client = self.clone();
        Ok(async move { client.get_object(&path, "block", shapes::BLOCK).await })
    }

    /// `GET /v1/health-check`.
    pub async fn health(&self) -> Result<Exact> {
        self.get_object("/v1/health-check", "health", shapes::HEALTH).await
    }

    /// `GET /v1/chains/{chainId}/blocks`, newest first.
    pub fn blocks(&self, chain_id: &str, page_size: Option<i64>) -> Result<Paged> {
        let chain_id = params::segment("chain_id", chain_id)?;
        let size = params::page_size_or_max(page_size, params::MAX_PAGE_SIZE)?;
        let hand = Paged {
            path: format!("/v1/chains/{chain_id}/blocks"),
            query: vec![("pageSize", size.to_string())],
            items_field: "blocks",
        };
        ride("getLatestBlocks", hand, &[("chain_id", json!(chain_id)), ("page_size", json!(size))])
    }

    /// `GET /v1/blocks`: latest blocks across all chains.
    pub fn latest_blocks(&self, network: Option<&str>, page_size: Option<i64>) -> Result<Paged> {
        let size = params::page_size_or_max(page_size, params::MAX_PAGE_SIZE)?;
        let mut query = vec![("pageSize", size.to_string())];
        if let Some(n) = opt(network, params::network)? {
            query.push(("network", n));
        }
        let args = [("network", json!(network)), ("page_size", json!(size))];
        ride("listLatestBlocksAllChains", Paged { path: "/v1/blocks".into(), query, items_field: "blocks" }, &args)
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
        let contract_address = contract_address.map(|c| params::segment("contract_address", c)).transpose()?;
        let mut query = vec![("pageSize", size.to_string())];
        if let Some(c) = &contract_address {
            query.push(("contractAddress", c.clone()));
        }
        let hand = Paged {
            path: format!("/v1/chains/{chain_id}/addresses/{address}/balances:listCollectibles"),
            query,
            items_field: "collectibleBalances",
        };
        let args = [
            ("chain_id", json!(chain_id)),
            ("address", json!(address)),
            ("contract_address", json!(contract_address)),
            ("page_size", json!(size)),
        ];
        ride("listCollectibleBalances", hand, &args)
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
        let (addresses, node_ids) = params::reward_filters(&network, addresses, node_ids)?;
        let size = params::page_size_or_max(page_size, params::MAX_PAGE_SIZE)?;
        let sort_order = opt(sort_order, params::sort_order)?;
        let args = [
            ("network", json!(network)),
            ("addresses", json!(addresses)),
            ("node_ids", json!(node_ids)),
            ("sort_order", json!(sort_order)),
            ("page_size", json!(size)),
        ];
        let mut query = vec![("pageSize", size.to_string())];
        if let Some(a) = addresses {
            query.push(("addresses", a));
        }
        if let Some(n) = node_ids {
            query.push(("nodeIds", n));
        }
        if let Some(s) = sort_order {
            query.push(("sortOrder", s));
        }
        let path = format!("/v1/networks/{network}/rewards:listPending");
        ride("listPendingPrimaryNetworkRewards", Paged { path, query, items_field: "pendingRewards" }, &args)
    }

    /// `GET /v1/networks/{network}/blockchains/{blockchainId}/vertices`.
    pub fn vertices(&self, network: &str, blockchain_id: &str, page_size: Option<i64>) -> Result<Paged> {
        let network = params::network(network)?;
        let blockchain_id = params::x_chain_id(blockchain_id)?;
        let size = params::page_size_or_max(page_size, params::MAX_PAGE_SIZE)?;
        let hand = Paged {
            path: format!("/v1/networks/{network}/blockchains/{blockchain_id}/vertices"),
            query: vec![("pageSize", size.to_string())],
            items_field: "vertices",
        };
        let args = [("network", json!(network)), ("blockchain_id", json!(blockchain_id)), ("page_size", json!(size))];
        ride("listLatestXChainVertices", hand, &args)
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
        let args: Vec<(&str, Value)> = query
            .iter()
            .map(|(name, v)| (icm_py_name(name), if *name == "pageSize" { json!(size) } else { json!(v) }))
            .collect();
        ride("listIcmMessages", Paged { path: "/v1/icm/messages".into(), query, items_field: "messages" }, &args)
    }
}

/// The Python name of an ICM messages query parameter (the table's names).
fn icm_py_name(query_name: &str) -> &'static str {
    match query_name {
        "sourceBlockchainId" => "source_blockchain_id",
        "destinationBlockchainId" => "destination_blockchain_id",
        "blockchainId" => "blockchain_id",
        "to" => "to",
        "from" => "from_",
        "network" => "network",
        _ => "page_size",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arrow::Resource;
    use crate::error::Error;
    use crate::rest::testing::{no_retries, serve};
    use crate::rest::ResourcePager;
    use arrow_array::cast::AsArray;
    use axum::extract::{Query, Request};
    use axum::http::StatusCode;
    use axum::response::IntoResponse;
    use axum::routing::get;
    use futures::StreamExt;
    use std::collections::HashMap;

    fn fast() -> DataClientOptions {
        DataClientOptions { transport: no_retries(), api_key: Some("sekret-key-123".into()) }
    }

    #[test]
    fn a_url_is_never_taken_as_a_key_nor_a_key_as_a_url() {
        let keyed = |key: &str| DataClientOptions { transport: no_retries(), api_key: Some(key.into()) };
        let err = DataClient::new(Some("sekret-key-123"), DataClientOptions::default()).unwrap_err().to_string();
        assert!(err.contains("base_url") && err.contains("api_key=") && !err.contains("sekret"), "{err}");
        let err = DataClient::new(None, keyed("http://127.0.0.1:9/")).unwrap_err().to_string();
        assert!(err.contains("api_key") && err.contains("first argument") && !err.contains("127.0.0.1"), "{err}");
        assert!(DataClient::new(Some("http://127.0.0.1:9"), keyed("sekret-key-123")).is_ok());
        assert!(looks_like_url(" https://x.example ") && !looks_like_url("abc") && !looks_like_url("://x"));
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
        let numbers: Vec<_> = pages
            .iter()
            .flat_map(|p| p.as_ref().unwrap().0.items.clone())
            .map(|b| b.to_exact().unwrap().get("blockNumber").and_then(Exact::as_str).unwrap_or_default().to_string())
            .collect();
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

    /// Pages written oddly but validly (whitespace, escaped keys and values, a key given twice,
    /// unknown nested fields) give the frame their parsed values give, through the one-pass read;
    /// a page whose list holds a non-object still fails naming it.
    #[tokio::test]
    async fn odd_but_valid_pages_give_the_frame_of_their_parsed_values() {
        const FIRST: &str = r#"{ "extra": {"blocks": [1, {"x": ["]"]}]},
  "blocks" : [
    { "block\u004eumber" : "12" , "chainId": "4311\u0034", "blockHash": "0x\"q\\\u00e9",
      "txCount": 3, "txCount": 4, "gasUsed": 21000, "unknown": {"deep": [null, {"a": "}"}]},
      "blockTimestamp": 1.7e9, "feesSpent": null },
    {"blockNumber":"11"}
  ],
  "nextPageToken": "t\u0031" }"#;
        const SECOND: &str = r#"{"blocks": [{"blockNumber": "10", "chainId": "43114"}], "nextPageToken": null}"#;
        let app = axum::Router::new().route(
            "/v1/chains/{chain}/blocks",
            get(|Query(q): Query<HashMap<String, String>>| async move {
                let body = match q.get("pageToken").map(String::as_str) {
                    None => FIRST,
                    Some("t1") => SECOND,
                    Some(_) => r#"{"blocks": [{"blockNumber": "1"}, 5]}"#,
                };
                ([("content-type", "application/json")], body)
            }),
        );
        let url = serve(app).await;
        let client = DataClient::new(Some(&url), fast()).unwrap();
        let paged = client.blocks("43114", Some(2)).unwrap();
        let pager = ResourcePager::tokens(&client, paged.clone(), Resource::Block, None, None).unwrap();
        let batches = pager.to_batches(None, |_| ()).await.unwrap();
        let items =
            |text: &str| serde_json::from_str::<serde_json::Value>(text).unwrap()["blocks"].as_array().unwrap().clone();
        // Both pages in one batch (the walk keeps its column builders across pages).
        let expected = crate::arrow::to_batch(Resource::Block, &[items(FIRST), items(SECOND)].concat()).unwrap();
        assert_eq!(batches, vec![expected]);
        let got = &batches[0];
        let numbers = got.column(1).as_primitive::<arrow_array::types::UInt64Type>().values().to_vec();
        assert_eq!(numbers, vec![12, 11, 10]);
        assert_eq!(got.column(0).as_string_view().value(0), "43114");
        assert_eq!(got.column(5).as_string_view().value(0), "0x\"q\\é");
        assert_eq!(got.column(6).as_primitive::<arrow_array::types::UInt64Type>().value(0), 4);
        // the field of no column, compact, by its pointer
        let extra = got.column(got.num_columns() - 1).as_string_view();
        assert_eq!(extra.value(0), r#"{"/unknown":{"deep":[null,{"a":"}"}]}}"#);
        assert!(arrow_array::Array::is_null(extra, 1));

        let err = client.page(&paged, Some("t2")).await.unwrap_err().to_string();
        assert!(err.contains("blocks[1] must be a JSON object, found 5"), "{err}");
    }
}
