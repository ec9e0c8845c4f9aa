//! `listErc20Transactions` of the busy address ([`crate::world::busy`]): its transfers, newest
//! first (blocks from `endBlock - 1` or the tip down to `startBlock`, each block's transfers from
//! the last), made when a page asks for them.

use serde_json::Value;

use super::evm::{block_bounds, page_answer, token_json};
use super::Request;
use crate::data_api::errors::Answer;
use crate::world::busy::{transfer, transfers_in};
use crate::world::erc20::TOKENS;
use crate::world::Chain;

/// Where a page starts: block `number`, its transfers from `index` down.
fn encode(number: u64, index: u32) -> u128 {
    (u128::from(number) << 32 | u128::from(index)) + 1
}

fn decode(pos: u128) -> Option<(u64, u32)> {
    let pos = pos.checked_sub(1)?;
    Some(((pos >> 32) as u64, (pos & 0xffff_ffff) as u32))
}

/// One page of the busy address's transfers on `chain`.
pub(super) fn answer(request: &Request, chain: &Chain) -> Answer {
    let world = &request.state.world;
    let (seed, blocks) = (world.seed(), world.tip() + 1);
    let (low, high) = block_bounds(request, world);
    let (mut number, mut top) = decode(request.start()?).unwrap_or((high, u32::MAX));
    number = number.min(high);
    let token = token_json(&TOKENS[0]);
    let mut page = Vec::with_capacity(request.size);
    let mut next = None;
    while number >= low && number <= high {
        let count = transfers_in(seed, blocks, number);
        let mut index = count.min(top.saturating_add(1));
        while index > 0 {
            if page.len() == request.size {
                next = Some(encode(number, index - 1));
                break;
            }
            index -= 1;
            page.push(item(request, chain, number, index, &token));
        }
        if next.is_some() || number == 0 {
            break;
        }
        number -= 1;
        top = u32::MAX;
        if page.len() == request.size && number >= low {
            next = Some(encode(number, u32::MAX));
            break;
        }
    }
    let token = next.and_then(|at| request.next_token(true, at));
    Ok(page_answer(request, "transactions", page, token))
}

/// `Erc20Transfer` of transfer `index` of block `number`.
fn item(request: &Request, chain: &Chain, number: u64, index: u32, token: &Value) -> Value {
    let world = &request.state.world;
    let t = transfer(world.seed(), number, index);
    let ms = world.block_timestamp_ms(chain, number);
    serde_json::json!({
        "blockNumber": number.to_string(),
        "blockTimestamp": ms.div_euclid(1000),
        "blockTimestampMilliseconds": ms,
        "blockHash": world.block_hash(chain, number),
        "txHash": t.tx_hash,
        "from": {"address": t.from},
        "to": {"address": t.to},
        "logIndex": t.log_index,
        "value": t.amount.to_string(),
        "erc20Token": token,
    })
}
