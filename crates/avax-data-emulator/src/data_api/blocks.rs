//! Blocks: `GET /v1/chains/{chainId}/blocks` (newest first), `GET
//! /v1/chains/{chainId}/blocks/{blockId}` (number or `0x` hash) and `GET /v1/blocks` (latest
//! blocks of every chain of a network, or of both networks without `network`, merged newest first
//! by timestamp in ms; ties by chain order).
//! Pages are generated on demand from the world's block functions.

use std::sync::Arc;

use axum::extract::{Path, State};
use axum::response::Response;
use serde_json::{json, Value};

use super::chains::lookup;
use super::errors::{self, Answer};
use super::paging;
use super::params::Params;
use super::DataApiState;
use crate::world::{chains, Chain, DataWorld};

pub(crate) async fn list(
    State(data): State<Arc<DataApiState>>,
    Path(chain_id): Path<String>,
    mut params: Params,
) -> Answer {
    let size = params.page_size(100);
    params.finish()?;
    let chain = lookup(&chain_id)?;
    let fingerprint = params.fingerprint(&format!("blocks/{}", chain.evm_chain_id));
    let start = paging::start(&data, &params, &fingerprint)?;
    let world = &data.world;
    let total = world.blocks_per_chain() as u128;
    let from = start.min(total);
    let to = (from + size as u128).min(total);
    let blocks: Vec<Value> =
        (from..to).filter_map(|offset| world.block(chain, world.tip() - offset as u64)).map(|b| b.to_json()).collect();
    paging::with_next(json!({ "blocks": blocks }), paging::next_token(&data, to < total, &fingerprint, to))
}

pub(crate) async fn get_one(
    State(state): State<Arc<DataApiState>>,
    Path((chain_id, block_id)): Path<(String, String)>,
) -> Answer {
    let chain = lookup(&chain_id)?;
    let number = block_number(&state.world, chain, &block_id)?;
    Ok(errors::ok(state.world.block(chain, number).map(|b| b.to_json()).unwrap_or_default()))
}

/// The number of the block a `blockId` path parameter names (a number or a `0x` hash): 400 when
/// it is neither, 404 when the chain has no such block.
pub(crate) fn block_number(world: &DataWorld, chain: &Chain, block_id: &str) -> Result<u64, Response> {
    let number = if !block_id.is_empty() && block_id.bytes().all(|b| b.is_ascii_digit()) {
        block_id.parse::<u64>().ok()
    } else if block_id.len() == 66
        && (block_id.starts_with("0x") || block_id.starts_with("0X"))
        && block_id[2..].bytes().all(|b| b.is_ascii_hexdigit())
    {
        world.block_number_by_hash(chain, block_id)
    } else {
        return Err(errors::bad_request(format!(
            "Invalid blockId {block_id:?}: expected a block number or a 0x-prefixed 32-byte block hash"
        )));
    };
    number
        .filter(|&n| n < world.blocks_per_chain())
        .ok_or_else(|| errors::not_found(format!("Block {block_id} not found on chain {}", chain.evm_chain_id)))
}

/// Sort key of a block across chains: (timestamp ms, chain index), compared descending.
type Key = (i64, usize);

fn key(world: &DataWorld, chain: &Chain, n: u64) -> Key {
    (world.block_timestamp_ms(chain, n), chain.index)
}

/// The newest block of `chain` whose key is below `cursor` (all blocks when `None`).
fn newest_below(world: &DataWorld, chain: &Chain, cursor: Option<Key>) -> Option<u64> {
    let Some((ts, idx)) = cursor else { return Some(world.tip()) };
    let m = world.first_block_at_or_after(chain, ts).unwrap_or(world.blocks_per_chain());
    if m < world.blocks_per_chain() && key(world, chain, m) < (ts, idx) {
        return Some(m);
    }
    m.checked_sub(1)
}

fn encode(k: Key) -> u128 {
    ((k.0 as u128) << 16 | k.1 as u128) + 1
}

fn decode(pos: u128) -> Option<Key> {
    (pos > 0).then(|| (((pos - 1) >> 16) as i64, ((pos - 1) & 0xffff) as usize))
}

pub(crate) async fn list_all_chains(State(data): State<Arc<DataApiState>>, mut params: Params) -> Answer {
    let size = params.page_size(100);
    let network = params.network();
    params.finish()?;
    let fingerprint = params.fingerprint("blocks");
    let start = paging::start(&data, &params, &fingerprint)?;
    let world = &data.world;
    let cursor = decode(start);
    let mut heads: Vec<(&Chain, Option<u64>)> = chains()
        .iter()
        .filter(|c| network.is_none_or(|n| c.network == n))
        .map(|c| (c, newest_below(world, c, cursor)))
        .collect();
    let mut blocks = Vec::with_capacity(size);
    let mut last = None;
    while blocks.len() < size {
        let best = heads.iter().enumerate().filter_map(|(i, (c, n))| n.map(|n| (key(world, c, n), i))).max();
        let Some((k, i)) = best else { break };
        let (chain, n) = heads[i];
        let n = n.unwrap_or(0);
        if let Some(b) = world.block(chain, n) {
            blocks.push(b.to_json());
        }
        heads[i].1 = n.checked_sub(1);
        last = Some(k);
    }
    let more = heads.iter().any(|(_, n)| n.is_some());
    let next = last.and_then(|k| paging::next_token(&data, more, &fingerprint, encode(k)));
    paging::with_next(json!({ "blocks": blocks }), next)
}
