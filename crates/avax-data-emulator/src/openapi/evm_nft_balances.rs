//! An address's NFTs by standard: `listErc721Balances` and `listErc1155Balances` are its
//! collectibles ([`DataWorld::collectibles_at`]) of that standard (`contractAddress` keeps one
//! contract), by contract then token id, with its native balance
//! ([`crate::openapi::balances::native_token_balance`]). An ERC-721 balance is what the address
//! was allocated plus the tokens it minted in the world's blocks (no ERC-721 token leaves its
//! holder: the blocks hold no transfer but the mints). An ERC-1155 balance of the world's
//! multi-token collection ([`crate::world::erc1155`]) is what its blocks' `TransferSingle` and
//! `TransferBatch` logs moved up to `blockNumber` (the tip by default, 404 past it); the other
//! ERC-1155 contract's holdings are allocations no block moves.
//!
//! `listErc1155Transactions` lists those logs' items an address sent or received (a mint comes
//! from the zero address), one per id moved (a `TransferBatch` of three ids is three items with
//! one `logIndex`), newest first; `startBlock` (inclusive) and `endBlock` (exclusive) bound the
//! block numbers.

use serde_json::{json, Value};

use super::evm::{block_bounds, page_answer};
use super::evm_nfts::token_json;
use super::evm_params::{address_param, chain_of, contract_filter};
use crate::data_api::errors::Answer;
use crate::data_api::paging;
use crate::openapi::balances::{block_number_param, native_token_balance};
use crate::openapi::{respond_with, Request};
use crate::world::erc1155::{Erc1155Item, ITEMS};
use crate::world::nft::contracts;
use crate::world::{hex0x, pool_address, Chain, DataWorld};

pub(crate) fn answer(request: &Request) -> Answer {
    let chain = chain_of(request)?;
    let address = address_param(request, "address")?;
    if request.op.id == "listErc1155Transactions" {
        return transfers(request, chain, &address);
    }
    let contract = contract_filter(request)?;
    let world = &request.state.world;
    let (key, erc_type, upto) = match request.op.id {
        "listErc1155Balances" => ("erc1155TokenBalances", "ERC-1155", block_number_param(request)?),
        _ => ("erc721TokenBalances", "ERC-721", world.tip()),
    };
    let start = request.start()?;
    let items: Vec<_> = world
        .collectibles_at(chain, &address, upto)
        .into_iter()
        .filter(|c| c.erc_type == erc_type && contract.as_deref().is_none_or(|a| a == c.contract))
        .collect();
    let (page, next) = paging::slice(request.state, &items, start, request.size, &request.fingerprint());
    let index = world.pool_index(&address).filter(|&i| i < chain.address_pool);
    let mut body = json!({
        "nativeTokenBalance": native_token_balance(world, chain, index, upto),
        key: page.iter().map(|c| c.to_json()).collect::<Vec<_>>(),
    });
    if let Some(token) = next {
        body["nextPageToken"] = token.into();
    }
    Ok(respond_with(request.op, body))
}

/// `listErc1155Transactions`: the ledger's items `address` sent or received in the request's
/// block range, newest first (a batch's items in the log's id order).
fn transfers(request: &Request, chain: &Chain, address: &str) -> Answer {
    let start = request.start()?;
    let world = &request.state.world;
    let Some(i) = world.pool_index(address).filter(|&i| i < chain.address_pool) else {
        return Ok(page_answer(request, "transactions", Vec::new(), None));
    };
    let (low, high) = block_bounds(request, world);
    let mut mine: Vec<&Erc1155Item> = world
        .erc1155_ledger(chain)
        .items()
        .iter()
        .filter(|t| (low..=high).contains(&t.number) && (t.to == i || t.from == Some(i)))
        .collect();
    mine.sort_by_key(|t| std::cmp::Reverse((t.number, t.log_index)));
    let (page, next) = paging::slice(request.state, &mine, start, request.size, &request.fingerprint());
    Ok(page_answer(request, "transactions", page.iter().map(|t| transfer_json(world, chain, t)).collect(), next))
}

/// `Erc1155Transfer`: one item of a log, with its block, transaction and token.
pub(crate) fn transfer_json(world: &DataWorld, chain: &Chain, t: &Erc1155Item) -> Value {
    let ms = world.block_timestamp_ms(chain, t.number);
    let contract = &contracts(chain)[ITEMS];
    let token = world.nft_item(chain, t.to, ITEMS, contract, u128::from(t.token_id), Some(0));
    json!({
        "blockNumber": t.number.to_string(),
        "blockTimestamp": ms.div_euclid(1000),
        "blockTimestampMilliseconds": ms,
        "blockHash": world.block_hash(chain, t.number),
        "txHash": world.tx_facts_and_hash(chain, t.number, t.index).1,
        "from": { "address": t.from.map_or_else(|| hex0x(&[0; 20]), pool_address) },
        "to": { "address": pool_address(t.to) },
        "logIndex": t.log_index,
        "value": t.value.to_string(),
        "erc1155Token": token_json(&token),
    })
}
