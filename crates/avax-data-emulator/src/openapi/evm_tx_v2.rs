//! `listTransactionsV2`: the transactions of the world's blocks in which the address took part
//! (sent it, is its `to`, sent or received its ERC-20 transfer, received its minted token, or is
//! the contract it created), newest first (`sortOrder=asc`: oldest first), bounded by
//! `startBlock` (inclusive) and `endBlock` (exclusive). As the document says, the sub-lists hold
//! only the entries of the address: its ERC-20 transfers (with the token's `tokenReputation`),
//! its ERC-721 transfers and the `CREATE` it made or that made it. With `filterSpamTokens` (true
//! unless `false`, the service's default) the spam token's transfers are left out, and a
//! transaction whose only part for the address was one is not listed. An address that is neither
//! in the chain's pool nor one of its contracts has none.

use serde_json::{json, Value};

use super::evm_params::{address_param, chain_of};
use crate::data_api::errors::Answer;
use crate::openapi::evm::{create_details, erc721_transfer_details, native, page_answer, transfer_details, walk};
use crate::openapi::Request;
use crate::world::erc20::{find_token, Erc20Transfer};
use crate::world::nft::collection_address;
use crate::world::{Chain, Tx};

pub(crate) fn answer(request: &Request) -> Answer {
    let chain = chain_of(request)?;
    let address = address_param(request, "address")?;
    let world = &request.state.world;
    let known = world.pool_index(&address).is_some_and(|i| i < chain.address_pool)
        || find_token(chain.evm_chain_id, &address).is_some()
        || collection_address(chain).is_some_and(|c| c == address)
        || world.activity(chain).deployment_of(&address).is_some();
    if !known {
        request.start()?;
        return Ok(page_answer(request, "transactions", Vec::new(), None));
    }
    let ascending = request.params.get("sortOrder").is_some_and(|v| v.trim() == "asc");
    let keep_spam = request.params.get("filterSpamTokens").is_some_and(|v| v.trim() == "false");
    walk(request, chain, "transactions", ascending, |number, tx| item(request, chain, number, tx, &address, keep_spam))
}

/// `TransactionDetailsV2` of `tx` for `address`, if the address took part in it.
fn item(request: &Request, chain: &Chain, number: u64, tx: &Tx, address: &str, keep_spam: bool) -> Option<Value> {
    let erc20: Vec<Value> = tx
        .erc20
        .iter()
        .filter(|t| (t.from == address || t.to == address) && (keep_spam || !t.token.spam))
        .map(transfer_v2)
        .collect();
    let erc721: Vec<Value> = tx
        .nft
        .iter()
        .filter(|t| t.to == address || t.from() == address)
        .map(|t| erc721_transfer_details(chain, t))
        .collect();
    let created = tx.contract_address.as_deref() == Some(address) || (tx.contract_creation && tx.from == address);
    let internal: Vec<Value> = create_details(tx).filter(|_| created).into_iter().collect();
    let own = tx.from == address || (tx.to.as_deref() == Some(address) && (keep_spam || !spam_call(tx)));
    if !own && erc20.is_empty() && erc721.is_empty() && internal.is_empty() {
        return None;
    }
    let mut details = json!({ "nativeTransaction": native(request, chain, number, tx) });
    for (key, list) in [("erc20Transfers", erc20), ("erc721Transfers", erc721), ("internalTransactions", internal)] {
        if !list.is_empty() {
            details[key] = Value::Array(list);
        }
    }
    Some(details)
}

/// Whether `tx` is a call of the spam token's contract (its `to`).
fn spam_call(tx: &Tx) -> bool {
    tx.erc20.as_ref().is_some_and(|t| t.token.spam)
}

/// `Erc20TransferDetailsV2`: the transfer with its token's reputation.
fn transfer_v2(t: &Erc20Transfer) -> Value {
    let mut details = transfer_details(t);
    details["erc20Token"]["tokenReputation"] = Value::from(t.token.reputation());
    details
}
