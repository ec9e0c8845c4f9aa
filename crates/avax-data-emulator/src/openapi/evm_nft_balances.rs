//! An address's NFTs by standard: `listErc721Balances` and `listErc1155Balances` are its
//! collectibles ([`DataWorld::collectibles`]) of that standard (`contractAddress` keeps one
//! contract), by contract then token id, with its native balance
//! ([`crate::openapi::balances::native_token_balance`]). An ERC-721 balance is what the address
//! was allocated plus the tokens it minted in the world's blocks (no ERC-721 token leaves its
//! holder: the blocks hold no transfer but the mints). The world's ERC-1155 holdings are
//! allocations that no block moves, so `listErc1155Balances` is the same at every `blockNumber`
//! (which still picks the native balance, 404 past the tip) and `listErc1155Transactions` is an
//! empty list for every address (the blocks hold no ERC-1155 transfer).

use serde_json::json;

use super::evm_params::{address_param, chain_of, contract_filter};
use crate::data_api::errors::Answer;
use crate::data_api::paging;
use crate::openapi::balances::{block_number_param, native_token_balance};
use crate::openapi::evm::page_answer;
use crate::openapi::{respond_with, Request};

pub(crate) fn answer(request: &Request) -> Answer {
    let chain = chain_of(request)?;
    let address = address_param(request, "address")?;
    if request.op.id == "listErc1155Transactions" {
        request.start()?;
        return Ok(page_answer(request, "transactions", Vec::new(), None));
    }
    let contract = contract_filter(request)?;
    let world = &request.state.world;
    let (key, erc_type, upto) = match request.op.id {
        "listErc1155Balances" => ("erc1155TokenBalances", "ERC-1155", block_number_param(request)?),
        _ => ("erc721TokenBalances", "ERC-721", world.tip()),
    };
    let start = request.start()?;
    let items: Vec<_> = world
        .collectibles(chain, &address)
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
