//! `GET /v2/chains`: the world's chains as `{evmChainId, chainName, blockchainId, subnetId,
//! network}`, `network` = `mainnet` or `testnet` (fuji chains). Filter `network` (`mainnet`,
//! `fuji`, `testnet`; fuji = testnet). Paginated with `pageToken` at a fixed page size of 10,000
//! (no `pageSize` parameter), so the world's chains fit one page. `GET /v2/chains/{chainId}`: one
//! of them by its EVM chain id (404 `Chain {chainId} not found` for another).

use std::sync::Arc;

use axum::extract::{Path, RawQuery, State};
use serde_json::{json, Value};

use super::errors::{self, Answer};
use crate::data_api::paging;
use crate::data_api::params::Params;
use crate::data_api::DataApiState;
use crate::world::{chains, find_chain, Chain, Network};

/// The fixed page size of `/v2/chains`.
pub const CHAINS_PAGE_SIZE: usize = 10_000;

pub(crate) async fn list(State(state): State<Arc<DataApiState>>, RawQuery(query): RawQuery) -> Answer {
    let data = &*state;
    let mut params = Params::parse(query.as_deref());
    let network = params.network();
    params.finish()?;
    let fingerprint = params.fingerprint("v2/chains");
    let start = paging::start(data, &params, &fingerprint)?;
    let items: Vec<Value> =
        chains().iter().filter(|c| network.is_none_or(|n| c.network == n)).map(chain_json).collect();
    paging::list_page(data, "chains", &items, (start, CHAINS_PAGE_SIZE), &fingerprint, Value::clone)
}

/// A chain as the Metrics API describes it.
fn chain_json(c: &Chain) -> Value {
    json!({
        "evmChainId": c.evm_chain_id,
        "chainName": c.name,
        "blockchainId": c.blockchain_id,
        "subnetId": c.subnet_id,
        "network": if c.network == Network::Mainnet { "mainnet" } else { "testnet" },
    })
}

pub(crate) async fn get_one(Path(chain_id): Path<String>) -> Answer {
    match find_chain(&chain_id).filter(|c| c.evm_chain_id.to_string() == chain_id) {
        Some(c) => Ok(errors::ok(chain_json(c))),
        None => Err(errors::not_found(format!("Chain {chain_id} not found"))),
    }
}
