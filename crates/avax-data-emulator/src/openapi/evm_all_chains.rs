//! The EVM operations across chains.
//!
//! - `listAddressChains`: the chains (as `ChainInfo`, in the world's chain order) on which the
//!   address took part in a transaction of the world's blocks (sent it, received it or its ERC-20
//!   tokens: [`DataWorld::took_part`], which scans a chain only until the address appears), is
//!   one of the chain's contracts with
//!   transactions (an ERC-20 token, the minted NFT collection, a deployed contract) or is the busy
//!   address (Mainnet C-Chain); an address the world does not know has none (`indexedChains`
//!   empty). `unindexedChains` is always empty: every chain of the world is indexed.
//! - `listLatestTransactionsAllChains`: the transactions of every chain of `network` (both
//!   networks without it), merged newest first: by block time (ms), ties by the chain's position
//!   (the later first, as `listLatestBlocksAllChains`), then each block's transactions from the
//!   last; `status=success` keeps the transactions that did not fail, `status=failed` the others.

use serde_json::{json, Value};

use super::evm_params::address_param;
use crate::data_api::errors::Answer;
use crate::openapi::evm::{native, page_answer};
use crate::openapi::{respond_with, Request};
use crate::world::busy::{BUSY_ADDRESS, BUSY_CHAIN};
use crate::world::erc20::find_token;
use crate::world::nft::collection_address;
use crate::world::{chains, Chain, DataWorld, Network};

pub(crate) fn answer(request: &Request) -> Answer {
    if request.op.id == "listAddressChains" {
        let address = address_param(request, "address")?;
        let world = &request.state.world;
        let indexed: Vec<Value> =
            chains().iter().filter(|c| took_part(world, c, &address)).map(Chain::to_json).collect();
        return Ok(respond_with(request.op, json!({ "indexedChains": indexed, "unindexedChains": [] })));
    }
    latest_all_chains(request)
}

/// Whether `address` (lowercase) took part in `chain`'s transactions.
pub(crate) fn took_part(world: &DataWorld, chain: &Chain, address: &str) -> bool {
    let pool = world.pool_index(address).filter(|&i| i < chain.address_pool);
    if let Some(i) = pool {
        return world.took_part(chain, i);
    }
    (address == BUSY_ADDRESS && chain.evm_chain_id == BUSY_CHAIN)
        || find_token(chain.evm_chain_id, address).is_some()
        || (collection_address(chain).is_some_and(|c| c == address) && !world.mints(chain).all().is_empty())
        || world.activity(chain).deployment_of(address).is_some()
}

/// A transaction's place in the merged order: (block time ms, chain index, index in the block),
/// compared descending.
type Key = (i64, usize, u32);

fn encode((ms, chain, index): Key) -> u128 {
    ((ms.max(0) as u128) << 48 | (chain as u128) << 32 | u128::from(index)) + 1
}

fn decode(pos: u128) -> Option<Key> {
    let pos = pos.checked_sub(1)?;
    Some(((pos >> 48) as i64, ((pos >> 32) & 0xffff) as usize, (pos & 0xffff_ffff) as u32))
}

/// The newest block of `chain` with a transaction at or below `cursor` and the highest index
/// to take from it (every block from the tip without a cursor).
fn head(world: &DataWorld, chain: &Chain, cursor: Option<Key>) -> Option<(u64, u32)> {
    let Some((ms, index, top)) = cursor else { return Some((world.tip(), u32::MAX)) };
    let m = world.first_block_at_or_after(chain, ms).unwrap_or(world.blocks_per_chain());
    if m < world.blocks_per_chain() && world.block_timestamp_ms(chain, m) == ms {
        if chain.index < index {
            return Some((m, u32::MAX));
        }
        if chain.index == index {
            return Some((m, top));
        }
    }
    m.checked_sub(1).map(|n| (n, u32::MAX))
}

fn latest_all_chains(request: &Request) -> Answer {
    let world = &request.state.world;
    let network = request.params.get("network").and_then(Network::parse);
    let status = request.params.get("status").map(str::trim);
    let cursor = decode(request.start()?);
    let mut heads: Vec<(&Chain, Option<(u64, u32)>)> = chains()
        .iter()
        .filter(|c| network.is_none_or(|n| c.network == n))
        .map(|c| (c, head(world, c, cursor)))
        .collect();
    let mut page = Vec::with_capacity(request.size);
    let mut next = None;
    'walk: loop {
        let best = heads
            .iter()
            .enumerate()
            .filter_map(|(i, (c, h))| h.map(|(n, _)| ((world.block_timestamp_ms(c, n), c.index), i)))
            .max();
        let Some(((ms, _), i)) = best else { break };
        let (chain, Some((n, top))) = heads[i] else { break };
        let txs = world.transactions(chain, n).unwrap_or_default();
        for tx in txs.iter().rev().filter(|t| t.index <= top) {
            let wanted = match status {
                Some("failed") => tx.failed,
                Some("success") => !tx.failed,
                _ => true,
            };
            if !wanted {
                continue;
            }
            if page.len() == request.size {
                next = Some((ms, chain.index, tx.index));
                break 'walk;
            }
            page.push(native(request, chain, n, tx));
        }
        heads[i].1 = n.checked_sub(1).map(|n| (n, u32::MAX));
    }
    let token = next.and_then(|k| request.next_token(true, encode(k)));
    Ok(page_answer(request, "transactions", page, token))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_survive_the_page_token() {
        let key = (1_767_225_599_999, 7, 39);
        assert_eq!(decode(encode(key)), Some(key));
        assert_eq!(decode(0), None);
    }
}
