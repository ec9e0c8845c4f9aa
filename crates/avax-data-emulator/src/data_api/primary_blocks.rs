//! The P- and X-chain blocks of the primary network, from the containers the Index RPC serves
//! ([`crate::formats::px_blocks`]):
//! - `GET /v1/networks/{network}/blockchains/{blockchainId}/blocks`: newest first from the block
//!   just before the world's now, within `startTimestamp`/`endTimestamp` (Unix seconds,
//!   inclusive), with `chainInfo` naming the chain asked.
//! - `GET .../blocks/{blockId}`: a block by its CB58 id (the container's) or its height.
//! - `GET .../nodes/{nodeId}/blocks`: the blocks a node proposed. The emulator's envelopes are
//!   all signed by one test certificate, whose node is not a validator of the world, so every
//!   node id proposed none: an empty list (an id that is no `NodeID-` is a 400).
//!
//! The C-Chain and the Fuji X-Chain have no primary-network blocks in the world: 400 naming them.

use std::sync::Arc;

use axum::extract::{Path, State};
use axum::response::Response;
use serde_json::{json, Value};

use super::errors::{self, Answer};
use super::paging;
use super::params::{path_network, Params};
use super::primary_chain::{chain_info, resolve, seconds, PrimaryChain};
use super::DataApiState;
use crate::formats::px_blocks::{PxChain, PxKind};
use crate::world::Network;
use avax_data_core::index::cb58;

/// The world's chain behind `(network, blockchainId)`, or the answer refusing it.
fn px_chain(state: &DataApiState, network: Network, chain: PrimaryChain) -> Result<(PxChain, PxKind), Response> {
    let kind = match chain {
        PrimaryChain::P => PxKind::P,
        PrimaryChain::X => PxKind::X,
        PrimaryChain::C => {
            return Err(errors::bad_request("The emulator's world has no primary-network blocks of the C-Chain"))
        }
    };
    let span = state.px_span(network, kind);
    PxChain::of(state.world.seed(), network, kind, span).map(|c| (c, kind)).ok_or_else(|| {
        errors::bad_request(format!("The emulator's world has no X-Chain blocks on {}", network.as_str()))
    })
}

pub(crate) async fn list(
    State(data): State<Arc<DataApiState>>,
    Path((network, blockchain_id)): Path<(String, String)>,
    mut params: Params,
) -> Answer {
    let network = path_network(&mut params, &network);
    let asked = resolve(&mut params, network, &blockchain_id);
    let size = params.page_size(100);
    let (start_s, end_s) = (seconds(&mut params, "startTimestamp"), seconds(&mut params, "endTimestamp"));
    params.finish()?;
    let (network, asked) = (network.expect("checked"), asked.expect("checked"));
    let (chain, _) = px_chain(&data, network, asked)?;
    let lo = start_s.map_or(0, |s| chain.first_at_or_after(s));
    let hi = end_s.map_or(chain.span(), |e| chain.first_at_or_after(e.saturating_add(1)));
    let count = u128::from(hi.saturating_sub(lo));
    let fingerprint = params.fingerprint(&format!("pblocks/{}/{}", network.as_str(), asked.name()));
    let from = paging::start(&data, &params, &fingerprint)?.min(count);
    let to = (from + size as u128).min(count);
    let blocks: Vec<Value> = (from..to).filter_map(|k| chain.block(hi - 1 - k as u64)).map(|b| b.to_json()).collect();
    let body = json!({"blocks": blocks, "chainInfo": chain_info(network, asked)});
    paging::with_next(body, paging::next_token(&data, to < count, &fingerprint, to))
}

pub(crate) async fn get_one(
    State(data): State<Arc<DataApiState>>,
    Path((network, blockchain_id, block_id)): Path<(String, String, String)>,
    mut params: Params,
) -> Answer {
    let network = path_network(&mut params, &network);
    let asked = resolve(&mut params, network, &blockchain_id);
    params.finish()?;
    let (network, asked) = (network.expect("checked"), asked.expect("checked"));
    let (chain, _) = px_chain(&data, network, asked)?;
    let height = if !block_id.is_empty() && block_id.bytes().all(|b| b.is_ascii_digit()) {
        block_id.parse::<u64>().ok()
    } else {
        let raw = cb58::decode_id(&block_id).map_err(|_| {
            errors::bad_request(format!("Invalid blockId {block_id:?}: expected a CB58 block id or a height"))
        })?;
        chain.height_of(&raw)
    };
    height
        .and_then(|h| chain.block(h))
        .map(|b| errors::ok(b.to_json()))
        .ok_or_else(|| errors::not_found(format!("Block {block_id} not found on {}", asked.name())))
}

pub(crate) async fn by_node(
    State(data): State<Arc<DataApiState>>,
    Path((network, blockchain_id, node_id)): Path<(String, String, String)>,
    mut params: Params,
) -> Answer {
    let network = path_network(&mut params, &network);
    let asked = resolve(&mut params, network, &blockchain_id);
    params.page_size(100);
    let _ = (seconds(&mut params, "startTimestamp"), seconds(&mut params, "endTimestamp"));
    let valid_node = node_id.strip_prefix("NodeID-").is_some_and(|n| cb58::decode(n).is_ok_and(|b| b.len() == 20));
    if !valid_node {
        params.problem(format!("Invalid nodeId {node_id:?}: expected NodeID- and the CB58 of 20 bytes"));
    }
    params.finish()?;
    let (network, asked) = (network.expect("checked"), asked.expect("checked"));
    px_chain(&data, network, asked)?;
    let fingerprint = params.fingerprint(&format!("pblocks/{}/{}/{node_id}", network.as_str(), asked.name()));
    paging::start(&data, &params, &fingerprint)?;
    Ok(errors::ok(json!({"blocks": [], "chainInfo": chain_info(network, asked)})))
}
