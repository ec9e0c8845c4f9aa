//! `GET /v1/icm/messages`: the world's ICM messages ([`crate::world::icm`]), newest first.
//!
//! Filters: `sourceBlockchainId`, `destinationBlockchainId`, `blockchainId` (either side) take a
//! CB58 blockchain id or an EVM chain id (an id of no supported chain matches nothing; text that is
//! neither is a 400), `from`, `to` (any case), `network`.

use std::sync::Arc;

use axum::extract::State;
use axum::response::Response;

use super::errors::{self, Answer};
use super::paging;
use super::params::Params;
use super::DataApiState;
use crate::world::icm::IcmMessage;
use crate::world::{find_chain, Chain};
use avax_data_core::index::cb58;

/// A chain filter value: `Ok(Some(chain))`, `Ok(None)` for a well-formed id of no supported chain,
/// `Err` for text that is neither an EVM chain id nor a CB58 id.
fn chain_filter(name: &str, value: &str) -> Result<Option<&'static Chain>, Response> {
    if let Some(c) = find_chain(value) {
        return Ok(Some(c));
    }
    if value.bytes().all(|b| b.is_ascii_digit()) || cb58::decode_id(value).is_ok() {
        return Ok(None);
    }
    Err(errors::bad_request(format!("Invalid {name} {value:?}: expected a base58 blockchain id or an EVM chain id")))
}

pub(crate) async fn list(State(data): State<Arc<DataApiState>>, mut params: Params) -> Answer {
    let size = params.page_size(100);
    let network = params.network();
    params.finish()?;
    let mut filters = Vec::new();
    for name in ["sourceBlockchainId", "destinationBlockchainId", "blockchainId"] {
        match params.get(name).map(|v| chain_filter(name, v)) {
            None => filters.push((name, None)),
            Some(Ok(c)) => filters.push((name, Some(c.map(|c| c.evm_chain_id).unwrap_or(0)))),
            Some(Err(e)) => return Err(e),
        }
    }
    let from = params.get("from").map(str::to_ascii_lowercase);
    let to = params.get("to").map(str::to_ascii_lowercase);
    let fingerprint = params.fingerprint("icm/messages");
    let start = paging::start(&data, &params, &fingerprint)?;
    let items: Vec<&IcmMessage> = data
        .world
        .icm_messages()
        .iter()
        .filter(|m| network.is_none_or(|n| m.network == n))
        .filter(|m| {
            filters.iter().all(|(name, want)| match (*name, want) {
                (_, None) => true,
                ("sourceBlockchainId", Some(id)) => m.source_evm_chain_id == *id,
                ("destinationBlockchainId", Some(id)) => m.destination_evm_chain_id == *id,
                (_, Some(id)) => m.source_evm_chain_id == *id || m.destination_evm_chain_id == *id,
            })
        })
        .filter(|m| from.as_deref().is_none_or(|f| m.from == f))
        .filter(|m| to.as_deref().is_none_or(|t| m.to == t))
        .collect();
    paging::list_page(&data, "messages", &items, (start, size), &fingerprint, |m| m.to_json())
}
