//! `listTokens` and `getTokenDetails`: the tokens of one of a chain's NFT contracts
//! ([`crate::world::nft::contracts`]) as the pool's addresses hold them
//! ([`DataWorld::holdings`], the same items as their collectibles): an ERC-721 contract's tokens
//! each with its owner (the collection's include the tokens the world's transactions minted,
//! held by their minters), an ERC-1155 contract's token ids (several addresses hold part of
//! each: no owner). Listed by token id. An address that is no NFT contract of the chain has no
//! tokens (an empty list; `getTokenDetails` a 404, as for a token id the contract does not have).

use serde_json::Value;

use super::evm_params::{address_param, chain_of};
use crate::data_api::collectibles::{Collectible, NftContract};
use crate::data_api::errors::{self, Answer};
use crate::data_api::paging;
use crate::openapi::evm::page_answer;
use crate::openapi::{respond_with, Request};
use crate::world::nft::{contracts, MINTED_BASE};
use crate::world::{Chain, DataWorld};

pub(crate) fn answer(request: &Request) -> Answer {
    let chain = chain_of(request)?;
    let address = address_param(request, "address")?;
    let world = &request.state.world;
    let all = contracts(chain);
    let found = all.iter().position(|c| c.0 == address);
    if request.op.id == "getTokenDetails" {
        let text = request.path("tokenId");
        let token_id: u128 = text.parse().map_err(|_| {
            errors::validation_failed(vec![format!("tokenId must be a decimal token id, got {text:?}")])
        })?;
        let item = found.and_then(|j| token(world, chain, j, &all[j], token_id));
        return match item {
            Some(item) => Ok(respond_with(request.op, token_json(&item))),
            None => Err(errors::not_found(format!(
                "Token {token_id} of {address} not found on chain {}",
                chain.evm_chain_id
            ))),
        };
    }
    let start = request.start()?;
    let items = found.map(|j| tokens(world, chain, j, &all[j])).unwrap_or_default();
    let (page, next) = paging::slice(request.state, &items, start, request.size, &request.fingerprint());
    Ok(page_answer(request, "tokens", page.iter().map(token_json).collect(), next))
}

/// Every token of contract `j` of `chain`, by token id (an ERC-1155 id once, as its first
/// holder's item).
pub(crate) fn tokens(world: &DataWorld, chain: &Chain, j: usize, contract: &NftContract) -> Vec<Collectible> {
    let mut all: Vec<Collectible> =
        (0..chain.address_pool).flat_map(|i| world.holdings(chain, i, j, contract)).collect();
    all.sort_by_key(|c| c.token_id);
    all.dedup_by_key(|c| c.token_id);
    all
}

/// Token `token_id` of contract `j` of `chain`, if the contract has it.
fn token(world: &DataWorld, chain: &Chain, j: usize, contract: &NftContract, token_id: u128) -> Option<Collectible> {
    let holders: Vec<u64> = if contract.3 == "ERC-1155" {
        (0..chain.address_pool).collect()
    } else if token_id > MINTED_BASE {
        world.mints(chain).token(token_id).filter(|_| j == 0).map(|m| m.minter).into_iter().collect()
    } else {
        // A pre-minted ERC-721 token's id names its holder (`holder * 10_000 + k + 1`).
        let holder = token_id.checked_sub(1)? / 10_000;
        u64::try_from(holder).ok().filter(|&i| i < chain.address_pool).into_iter().collect()
    };
    holders.into_iter().find_map(|i| world.holdings(chain, i, j, contract).into_iter().find(|c| c.token_id == token_id))
}

/// `Erc721Token` / `Erc1155Token`: the holding without its chain (and an ERC-1155 balance).
pub(crate) fn token_json(item: &Collectible) -> Value {
    let mut value = item.to_json();
    if let Some(obj) = value.as_object_mut() {
        obj.remove("chainId");
        obj.remove("balance");
    }
    value
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::world::{chain, pool_address};

    #[test]
    fn a_collections_tokens_are_its_holders_items_once_each() {
        let w = DataWorld::new(3, 800);
        let c = chain(43114).unwrap();
        let all = contracts(c);
        let punks = tokens(&w, c, 0, &all[0]);
        assert!(punks.windows(2).all(|p| p[0].token_id < p[1].token_id), "by token id, once each");
        let held: usize = (0..c.address_pool)
            .map(|i| w.collectibles(c, &pool_address(i)).iter().filter(|x| x.contract == all[0].0).count())
            .sum();
        assert_eq!(punks.len(), held, "every holding of an ERC-721 token is one token");
        let minted = w.mints(c).all();
        assert!(!minted.is_empty());
        for m in minted {
            let t = token(&w, c, 0, &all[0], m.token_id).expect("a minted token");
            assert_eq!(t.owner, pool_address(m.minter));
        }
        assert_eq!(token(&w, c, 2, &all[2], minted[0].token_id), None, "only the collection is minted");
        assert_eq!(token(&w, c, 0, &all[0], 1).unwrap().owner, pool_address(0));
        assert_eq!(token(&w, c, 0, &all[0], 0), None);
        let badges = tokens(&w, c, 3, &all[3]);
        assert_eq!(badges.iter().map(|t| t.token_id).collect::<Vec<_>>(), (1..=40).collect::<Vec<_>>());
        assert_eq!(token(&w, c, 3, &all[3], 41), None);
        // The ERC-1155 collection's tokens are the ids its logs left with someone.
        let items = tokens(&w, c, 1, &all[1]);
        let held: std::collections::BTreeSet<u128> = (0..c.address_pool)
            .flat_map(|i| w.erc1155_ledger(c).balances(i, w.tip()))
            .map(|(id, _)| u128::from(id))
            .collect();
        assert!(!held.is_empty());
        assert_eq!(items.iter().map(|t| t.token_id).collect::<std::collections::BTreeSet<_>>(), held);
    }
}
