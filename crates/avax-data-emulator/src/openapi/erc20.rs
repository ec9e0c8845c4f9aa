//! The ERC-20 operations over the world's tokens ([`crate::world::erc20`]): every transfer is a
//! `transfer` call of one of the world's transactions, so the three views agree with each other,
//! with the transactions operations ([`super::evm`]) and with the blocks.
//!
//! - `listErc20Transactions`: the transfers an address sent or received, newest first
//!   (`startBlock`, inclusive, and `endBlock`, exclusive, bound the block numbers);
//! - `listTransfers`: the transfers of one token contract, newest first (a contract that is no
//!   token of the world has none);
//! - `listErc20Balances`: the address's balance of every token of the chain after `blockNumber`
//!   (the tip by default; `contractAddresses` keeps the listed ones), with its native balance;
//!   the spam token (balance 0, `tokenReputation` `Malicious`) only with `filterSpamTokens=false`
//!   (the service's default is `true`).

use serde_json::{json, Value};

use super::balances::native_token_balance;
use super::evm::{page_answer, token_json, transfer_details, walk_newest_first};
use super::{respond_with, Request};
use crate::data_api::errors::{self, Answer};
use crate::world::busy::{BUSY_ADDRESS, BUSY_CHAIN};
use crate::world::erc20::{find_token, tokens_of, Erc20Transfer, Token};
use crate::world::Chain;

pub(crate) fn answer(request: &Request) -> Answer {
    let Some(chain) = request.chain else { return Err(errors::bad_request("chainId is required")) };
    let address = request.path("address").to_ascii_lowercase();
    match request.op.id {
        "listErc20Balances" => balances(request, chain, &address),
        "listTransfers" => {
            let Some(token) = find_token(chain.evm_chain_id, &address) else {
                request.start()?;
                return Ok(page_answer(request, "transfers", Vec::new(), None));
            };
            walk_newest_first(request, chain, "transfers", |number, tx| {
                let t = tx.erc20.as_ref().filter(|t| std::ptr::eq(t.token, token))?;
                Some(transfer(request, chain, number, &tx.hash, t))
            })
        }
        _ if address == BUSY_ADDRESS && chain.evm_chain_id == BUSY_CHAIN => super::busy::answer(request, chain),
        _ => {
            let world = &request.state.world;
            if world.pool_index(&address).is_none_or(|i| i >= chain.address_pool) {
                request.start()?;
                return Ok(page_answer(request, "transactions", Vec::new(), None));
            }
            walk_newest_first(request, chain, "transactions", |number, tx| {
                let t = tx.erc20.as_ref().filter(|t| t.from == address || t.to == address)?;
                Some(transfer(request, chain, number, &tx.hash, t))
            })
        }
    }
}

/// `Erc20Transfer`: the transfer with its block and transaction.
fn transfer(request: &Request, chain: &Chain, number: u64, tx_hash: &str, t: &Erc20Transfer) -> Value {
    let world = &request.state.world;
    let ms = world.block_timestamp_ms(chain, number);
    let mut value = transfer_details(t);
    let facts = [
        ("blockNumber", Value::from(number.to_string())),
        ("blockTimestamp", Value::from(ms.div_euclid(1000))),
        ("blockTimestampMilliseconds", Value::from(ms)),
        ("blockHash", Value::from(world.block_hash(chain, number))),
        ("txHash", Value::from(tx_hash)),
    ];
    for (key, fact) in facts {
        value[key] = fact;
    }
    value
}

/// `listErc20Balances`: one page of the chain's tokens (in [`crate::world::erc20::TOKENS`]
/// order) with the address's balance of each.
fn balances(request: &Request, chain: &Chain, address: &str) -> Answer {
    let world = &request.state.world;
    let upto = super::balances::block_number_param(request)?;
    let wanted: Vec<String> = request.params.list("contractAddresses").iter().map(|a| a.to_ascii_lowercase()).collect();
    let index = world.pool_index(address).filter(|&i| i < chain.address_pool);
    let keep_spam = request.params.get("filterSpamTokens").is_some_and(|v| v.trim() == "false");
    let tokens: Vec<&Token> = match index {
        Some(_) => tokens_of(chain.evm_chain_id)
            .into_iter()
            .filter(|t| keep_spam || !t.spam)
            .filter(|t| wanted.is_empty() || wanted.iter().any(|w| w == t.address))
            .collect(),
        None => Vec::new(),
    };
    let start = request.start()?.min(tokens.len() as u128) as usize;
    let end = (start + request.size).min(tokens.len());
    let items: Vec<Value> = tokens[start..end]
        .iter()
        .map(|t| {
            let mut item = token_json(t);
            item["chainId"] = Value::from(chain.evm_chain_id.to_string());
            item["balance"] = Value::from(index.map_or(0, |i| world.erc20_balance(chain, t, i, upto)).to_string());
            item["tokenReputation"] = Value::from(t.reputation());
            item
        })
        .collect();
    let mut body = json!({
        "nativeTokenBalance": native_token_balance(world, chain, index, upto),
        "erc20TokenBalances": items,
    });
    if let Some(token) = request.next_token(end < tokens.len(), end as u128) {
        body["nextPageToken"] = Value::String(token);
    }
    Ok(respond_with(request.op, body))
}
