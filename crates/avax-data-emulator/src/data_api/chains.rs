//! `GET /v1/chains` (filters `network`, `feature`; not paginated) and `GET /v1/chains/{chainId}`
//! (an EVM chain id or a CB58 blockchain id; 404 otherwise).

use std::sync::Arc;

use axum::extract::{Path, State};
use axum::response::Response;
use serde_json::{json, Value};

use super::errors::{self, Answer};
use super::params::Params;
use super::DataApiState;
use crate::world::{chains, find_chain, Chain};

pub(crate) async fn list(mut params: Params) -> Answer {
    let network = params.network();
    let feature = params.feature();
    params.finish()?;
    let list: Vec<Value> = chains()
        .iter()
        .filter(|c| network.is_none_or(|n| c.network == n))
        .filter(|c| feature.is_none_or(|f| c.has(f)))
        .map(Chain::to_json)
        .collect();
    Ok(errors::ok(json!({ "chains": list })))
}

/// The chain of a `chainId` path parameter, or the 404.
pub(crate) fn lookup(chain_id: &str) -> Result<&'static Chain, Response> {
    find_chain(chain_id).ok_or_else(|| errors::not_found(format!("Chain {chain_id} not found")))
}

pub(crate) async fn get_one(State(_state): State<Arc<DataApiState>>, Path(chain_id): Path<String>) -> Answer {
    Ok(errors::ok(lookup(&chain_id)?.to_json()))
}
