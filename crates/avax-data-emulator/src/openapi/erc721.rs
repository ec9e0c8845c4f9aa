//! `listErc721Transactions`: the ERC-721 transfers an address sent or received, newest first
//! (`startBlock`/`endBlock` bound the block numbers): the mints of the world's NFT collection
//! ([`crate::world::nft`]), so they agree with the address's transactions and collectibles.

use serde_json::{json, Value};

use super::evm::{page_answer, walk_newest_first};
use super::Request;
use crate::data_api::errors::{self, Answer};
use crate::world::nft::{self, Erc721Transfer};
use crate::world::Chain;

pub(crate) fn answer(request: &Request) -> Answer {
    let Some(chain) = request.chain else { return Err(errors::bad_request("chainId is required")) };
    let address = request.path("address").to_ascii_lowercase();
    let world = &request.state.world;
    if world.pool_index(&address).is_none_or(|i| i >= chain.address_pool) {
        request.start()?;
        return Ok(page_answer(request, "transactions", Vec::new(), None));
    }
    walk_newest_first(request, chain, "transactions", |number, tx| {
        let t = tx.nft.as_ref().filter(|t| t.to == address || t.from() == address)?;
        let ms = world.block_timestamp_ms(chain, number);
        let mut value = transfer_details(chain, t);
        value["blockNumber"] = Value::from(number.to_string());
        value["blockTimestamp"] = Value::from(ms.div_euclid(1000));
        value["blockTimestampMilliseconds"] = Value::from(ms);
        value["blockHash"] = Value::from(world.block_hash(chain, number));
        value["txHash"] = Value::from(tx.hash.as_str());
        Some(value)
    })
}

/// `Erc721TransferDetails`: the transfer inside a transaction's details.
pub(super) fn transfer_details(chain: &Chain, t: &Erc721Transfer) -> Value {
    json!({
        "from": { "address": t.from() },
        "to": { "address": t.to },
        "logIndex": t.log_index,
        "erc721Token": token_json(chain, t),
    })
}

/// `Erc721Token`: the collection and the token, its metadata indexed.
fn token_json(chain: &Chain, t: &Erc721Transfer) -> Value {
    let (_, name, symbol, _) = nft::contracts(chain).swap_remove(0);
    json!({
        "address": t.contract,
        "name": name,
        "symbol": symbol,
        "ercType": "ERC-721",
        "tokenId": t.token_id.to_string(),
        "tokenUri": t.token_uri(),
        "metadata": { "indexStatus": "INDEXED", "name": format!("{name} #{}", t.token_id), "symbol": symbol },
        "ownerAddress": t.to,
    })
}
