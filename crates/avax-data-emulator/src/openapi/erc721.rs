//! `listErc721Transactions`: the ERC-721 transfers an address sent or received, newest first
//! (`startBlock`, inclusive, and `endBlock`, exclusive, bound the block numbers): the mints of the world's NFT collection
//! ([`crate::world::nft`]), so they agree with the address's transactions and collectibles.

use serde_json::Value;

use super::evm::{erc721_transfer_details, page_answer, walk_newest_first};
use super::Request;
use crate::data_api::errors::{self, Answer};

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
        let mut value = erc721_transfer_details(chain, t);
        value["blockNumber"] = Value::from(number.to_string());
        value["blockTimestamp"] = Value::from(ms.div_euclid(1000));
        value["blockTimestampMilliseconds"] = Value::from(ms);
        value["blockHash"] = Value::from(world.block_hash(chain, number));
        value["txHash"] = Value::from(tx.hash.as_str());
        Some(value)
    })
}
