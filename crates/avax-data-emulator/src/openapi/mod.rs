//! Every GET operation of the two vendored OpenAPI documents, served from the documents.
//!
//! The operations written by hand (`data_api/`, `metrics_api/`, [`SERVED_BY_HAND`]) keep
//! their routes; every other GET operation gets a route here, on the router of its service (so
//! the Data API's key and rate-limit guard and the fault layer cover it):
//!
//! - parameters are checked from the document ([`checks`]): 400 in the service's body;
//! - operations of the tags `Webhooks` and `Data API Usage Metrics` answer 401 without an API key;
//! - a `chainId` of the Data API's EVM routes must be a chain of the world (404 otherwise);
//! - the EVM transactions (`listLatestTransactions`, `getTransactionsForBlock`, `getTransaction`,
//!   `listTransactions`, `listNativeTransactions`) are the world's ([`evm`]), and so are the
//!   validators and delegators (`listValidators`, `getSingleValidatorDetails`, `listDelegators`:
//!   the world's stakes, [`staking`]); `getNativeBalance` follows from the world's transfers
//!   ([`balances`]); the ERC-20 transfers and balances (`listErc20Transactions`, `listTransfers`,
//!   `listErc20Balances`) are the world's token transfers ([`erc20`]), the ERC-721 transfers
//!   (`listErc721Transactions`) the mints of its NFT collection ([`erc721`]);
//! - the P-Chain and network operations (active staking txs, historical rewards, network
//!   details, subnets, L1 validators, the AVAX supply, ICM messages by id and by address) are
//!   the world's, answered by `pnet_*.rs` after these checks;
//!   (`listErc721Transactions`) the mints of its NFT collection ([`erc721`]); the NFT, contract
//!   and cross-chain EVM operations of `evm_ops.rs` (`evm_*.rs`) answer from the world too;
//! - every other answer is generated from the response schema ([`generate`]), deterministic in the
//!   world's seed, the operation, its path values and its filters; lists hold 3 to 25 items,
//!   paged with the Data API's UUID tokens.

// Handlers return `Result<_, Response>` to hand the error answer straight back.
#![allow(clippy::result_large_err)]

pub(crate) mod balances;
mod busy;
mod checks;
mod erc20;
mod erc721;
pub(crate) mod evm;
mod evm_all_chains;
mod evm_contracts;
mod evm_nft_balances;
mod evm_nfts;
mod evm_ops;
mod evm_params;
mod evm_tx_v2;
mod generate;
mod pnet_icm;
pub(crate) mod pnet_network;
mod pnet_rewards;
mod pnet_staking;
mod pnet_subnets;
mod pnet_supply;
pub(crate) mod real_shapes;
mod staking;

use std::sync::Arc;

use axum::http::{HeaderMap, StatusCode, Uri};
use axum::response::Response;
use axum::routing::get;
use axum::Router;
use serde_json::Value;

use super::data_api::errors::{self, Answer};
use super::data_api::params::Params;
use super::data_api::{auth, chains, paging, DataApiState};
use crate::world::{digest, Chain};
use avax_data_core::rest::openapi::{operations, route, Operation, Service};
use generate::Gen;

/// The operations with a hand-written route (world data and the special cases of
/// `spec/ground-truth.md`).
pub(crate) const SERVED_BY_HAND: &[&str] = &[
    "supportedChains",
    "getChainInfo",
    "getLatestBlocks",
    "getBlock",
    "listLatestBlocksAllChains",
    "listCollectibleBalances",
    "listPendingPrimaryNetworkRewards",
    "listLatestXChainVertices",
    "listIcmMessages",
    "data-health-check",
    "listChains",
    "getEvmChainMetrics",
    "getChain",
    "getStakingMetrics",
    "getBlockchainById",
    "listBlockchains",
    "getICMSummary",
    "metrics-live-check",
    "listLatestPrimaryNetworkBlocks",
    "getBlockById",
    "listPrimaryNetworkBlocksByNodeId",
    "listLatestPrimaryNetworkTransactions",
    "getTxByHash",
    "getUtxosByAddresses",
    "getBalancesByAddresses",
    // The X-Chain from the X world (data_api/xchain_*.rs).
    "getAssetDetails",
    "listAssetTransactions",
    "getVertexByHash",
    "getVertexByHeight",
    "getLastActivityTimestampByAddresses",
    "getChainIdsForAddresses",
];

/// Adds a route for every operation of `service` not served by hand.
pub(crate) fn add_routes(mut router: Router<Arc<DataApiState>>, service: Service) -> Router<Arc<DataApiState>> {
    for op in operations().iter().filter(|o| o.service == service && !SERVED_BY_HAND.contains(&o.id)) {
        let handler = move |axum::extract::State(state): axum::extract::State<Arc<DataApiState>>,
                            uri: Uri,
                            headers: HeaderMap| async move {
            match respond(op, &state, &uri, &headers) {
                Ok(r) | Err(r) => r,
            }
        };
        router = router.route(&axum_path(op.path), get(handler).fallback(errors::cannot));
    }
    router
}

/// The document's template in axum's syntax, parameters in snake case (the names the
/// hand-written routes use, which the router needs to agree on).
fn axum_path(template: &str) -> String {
    let mut out = String::with_capacity(template.len() + 8);
    let mut in_param = false;
    for c in template.chars() {
        match c {
            '{' => in_param = true,
            '}' => in_param = false,
            c if in_param && c.is_ascii_uppercase() => {
                out.push('_');
                out.push(c.to_ascii_lowercase());
                continue;
            }
            _ => {}
        }
        out.push(c);
    }
    out
}

/// One checked request of a generic operation.
pub(crate) struct Request<'a> {
    pub(crate) op: &'static Operation,
    pub(crate) path: Vec<(String, String)>,
    pub(crate) params: Params,
    pub(crate) size: usize,
    /// The world's chain named by `chainId` (Data API EVM routes).
    pub(crate) chain: Option<&'static Chain>,
    pub(crate) state: &'a DataApiState,
}

impl Request<'_> {
    /// The value of path parameter `name`.
    pub(crate) fn path(&self, name: &str) -> &str {
        self.path.iter().find(|(k, _)| k == name).map_or("", |(_, v)| v.as_str())
    }

    /// What page tokens of this request are bound to: the operation, its path values and filters.
    pub(crate) fn fingerprint(&self) -> String {
        let values: Vec<&str> = self.path.iter().map(|(_, v)| v.as_str()).collect();
        self.params.fingerprint(&format!("{}/{}", self.op.id, values.join("/")))
    }

    /// The first position of the requested page.
    pub(crate) fn start(&self) -> Result<u128, Response> {
        paging::start(self.state, &self.params, &self.fingerprint())
    }

    /// The positions of the requested page of a list of `len` items, and the `nextPageToken`
    /// that goes with it (when items follow the page).
    pub(crate) fn page_of(&self, len: usize) -> Result<(std::ops::Range<usize>, Option<String>), Response> {
        let start = self.start()?.min(len as u128) as usize;
        let end = (start + self.size).min(len);
        Ok((start..end, self.next_token(end < len, end as u128)))
    }

    /// `nextPageToken` for a page ending before `next`, when more follow.
    pub(crate) fn next_token(&self, more: bool, next: u128) -> Option<String> {
        paging::next_token(self.state, more, &self.fingerprint(), next)
    }

    /// A generator for this request, seeded by `salt` on top of the request's own seed.
    pub(crate) fn gen(&self, salt: u64) -> Gen<'_> {
        let seed = u64::from_le_bytes(
            digest(&self.fingerprint(), &[self.state.world.seed(), salt])[..8].try_into().expect("8 bytes"),
        );
        Gen::new(self.op.service, seed, &self.path, preferred_variant(self.path("blockchainId")))
    }

    /// A schema-generated value of the component schema `name` of the Data API document for the
    /// world's entity `salt`: seeded by the world, the schema and the entity only, so the entity
    /// looks the same in every answer that holds it.
    pub(crate) fn component(&self, name: &str, salt: u64) -> Value {
        let schema = Service::Data.schema(name).map_or(&Value::Null, |s| Service::Data.resolve(s));
        let seed = u64::from_le_bytes(digest(name, &[self.state.world.seed(), salt])[..8].try_into().expect("8 bytes"));
        Gen::new(Service::Data, seed, &[], None).value(schema, name, 1)
    }
}

/// The `oneOf` variant a primary-network chain answers with.
fn preferred_variant(blockchain_id: &str) -> Option<&'static str> {
    use crate::world::{X_CHAIN_FUJI_ID, X_CHAIN_MAINNET_ID};
    match blockchain_id {
        "p-chain" | "11111111111111111111111111111111LpoYY" => Some("PChain"),
        "x-chain" | X_CHAIN_MAINNET_ID | X_CHAIN_FUJI_ID => Some("XChain"),
        "c-chain"
        | "2q9e4r6Mu3U68nU1fYjgbR6JvwrRx36CohpAX5UQxse55x1Q5"
        | "yH8D7ThNJkxmtkuv2jgBa4P1Rn3Qpr4pPr7QYNfcdoS6k6HWp" => Some("CChain"),
        _ => None,
    }
}

fn respond(op: &'static Operation, state: &DataApiState, uri: &Uri, headers: &HeaderMap) -> Answer {
    if op.needs_api_key && auth::api_key(headers).is_none() {
        return Err(auth::unauthorized());
    }
    let path: Vec<(String, String)> = match route(op.service, uri.path()) {
        Some((found, values)) if found.id == op.id => values.into_iter().map(|(k, v)| (k.to_string(), v)).collect(),
        _ => return Err(errors::not_found(format!("Cannot GET {}", uri.path()))),
    };
    let mut params = Params::parse(uri.query());
    let size = checks::check(op, &path, &mut params);
    params.finish()?;
    let evm_route = op.service == Service::Data
        && (op.path.starts_with("/v1/chains/{chainId}") || op.path.starts_with("/v2/chains/{chainId}"));
    let chain = match path.iter().find(|(k, _)| k == "chainId") {
        Some((_, id)) if evm_route => Some(chains::lookup(id)?),
        _ => None,
    };
    let request = Request { op, path, params, size, chain, state };
    match op.id {
        "listLatestTransactions"
        | "getTransactionsForBlock"
        | "getTransaction"
        | "listTransactions"
        | "listNativeTransactions" => evm::answer(&request),
        "listValidators" | "getSingleValidatorDetails" | "listDelegators" => staking::answer(&request),
        "getNativeBalance" => balances::answer(&request),
        "listErc20Transactions" | "listTransfers" | "listErc20Balances" => erc20::answer(&request),
        "listErc721Transactions" => erc721::answer(&request),
        "listActivePrimaryNetworkStakingTransactions" => pnet_staking::answer(&request),
        "listHistoricalPrimaryNetworkRewards" => pnet_rewards::answer(&request),
        "getNetworkDetails" => pnet_network::answer(&request),
        "listSubnets" => pnet_subnets::list(&request),
        "getSubnetById" => pnet_subnets::by_id(&request),
        "listL1Validators" => pnet_subnets::l1_validators(&request),
        "getAvaxSupply" => pnet_supply::answer(&request),
        "getIcmMessage" => pnet_icm::by_id(&request),
        "listIcmMessagesByAddress" => pnet_icm::by_address(&request),
        id if evm_ops::serves(id) => evm_ops::answer(&request),
        _ => generated(&request),
    }
}

/// The list shape of a paged answer: the object schema (a `oneOf` answer's preferred, else first,
/// variant) and its items' schema.
fn list_shape(op: &Operation, key: &str, prefer: Option<&str>) -> Option<(&'static Value, &'static Value)> {
    let mut schema = op.service.resolve(op.response);
    if let Some(variants) = schema.get("oneOf").and_then(Value::as_array) {
        let name = |v: &Value| v.get("$ref").and_then(Value::as_str).unwrap_or_default().to_string();
        // Without a variant named for the chain, the first one named for no other chain (an
        // X-chain UTXO is the document's plain `Utxo`, not a `PChainUtxo`).
        let other_chain = |v: &Value| ["PChain", "XChain", "CChain"].iter().any(|c| name(v).contains(c));
        let pick = variants
            .iter()
            .find(|v| prefer.is_some_and(|p| name(v).contains(p)))
            .or_else(|| prefer.and_then(|_| variants.iter().find(|v| !other_chain(v))))
            .or(variants.first())?;
        schema = op.service.resolve(pick);
    }
    let list = op.service.resolve(schema.get("properties")?.get(key)?);
    Some((schema, list.get("items")?))
}

/// An answer generated from the operation's schema; a page of a list of 3 to 25 items when
/// token-paged. A list answer that takes no token carries no `nextPageToken`.
fn generated(request: &Request) -> Answer {
    let op = request.op;
    let prefer = preferred_variant(request.path("blockchainId"));
    let shape = match op.list_key {
        Some(key) if op.token_paged => list_shape(op, key, prefer).map(|s| (key, s)),
        _ => None,
    };
    let Some((key, (wrapper, items))) = shape else {
        let mut body = request.gen(0).value(op.response, "", 0);
        if let (Some(_), Value::Object(obj)) = (op.list_key, &mut body) {
            obj.remove("nextPageToken");
        }
        real_shapes::apply(request, &mut body);
        return Ok(respond_with(op, body));
    };
    let mut body = request.gen(0).value(wrapper, "", 0);
    let total = 3 + u128::from(request.gen(1).below(23));
    let start = request.start()?.min(total);
    let end = (start + request.size as u128).min(total);
    let singular = key.strip_suffix('s').unwrap_or(key);
    let page: Vec<Value> = (start..end).map(|i| request.gen(2 + i as u64).value(items, singular, 1)).collect();
    if let Value::Object(obj) = &mut body {
        obj.remove("nextPageToken");
        obj.insert(key.to_string(), Value::Array(page));
        if let Some(token) = request.next_token(end < total, end) {
            obj.insert("nextPageToken".to_string(), Value::String(token));
        }
    }
    real_shapes::apply(request, &mut body);
    Ok(respond_with(op, body))
}

/// The operation's success status with `body`.
pub(crate) fn respond_with(op: &Operation, body: Value) -> Response {
    let status = StatusCode::from_u16(op.status).unwrap_or(StatusCode::OK);
    errors::json_response(status, &body)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn templates_become_axum_routes() {
        assert_eq!(
            axum_path("/v1/networks/{network}/blockchains/{blockchainId}/transactions:listStaking"),
            "/v1/networks/{network}/blockchains/{blockchain_id}/transactions:listStaking"
        );
    }

    #[test]
    fn every_operation_is_served_by_hand_or_here() {
        let ids: Vec<&str> = operations().iter().map(|o| o.id).collect();
        for id in SERVED_BY_HAND {
            assert!(ids.contains(id), "{id} is not an operation of the documents");
        }
        assert_eq!(ids.len(), 85);
    }
}
