//! `getNativeBalance` follows from the world's transfers: every address of a chain's pool starts
//! with [`GENESIS_TOKENS`] whole tokens at genesis, then gains the value of every transaction it
//! receives and pays the value and the fee (`gasUsed * gasPrice`) of every transaction it sends,
//! in blocks `0..=blockNumber` (the tip by default); a failed transaction moves no value, its
//! sender pays its fee all the same. An address outside the pool holds nothing.

use serde_json::json;

use super::{respond_with, Request};
use crate::data_api::errors::{self, Answer};
use crate::world::{base_fee, tx_count, tx_facts, Chain, DataWorld};

/// Whole tokens each pool address holds at genesis (enough that no address ever runs dry).
pub(crate) const GENESIS_TOKENS: u128 = 1_000_000_000;

/// The balance (smallest units) of pool address `index` on `chain` after block `upto`.
pub(crate) fn native_balance(world: &DataWorld, chain: &Chain, index: u64, upto: u64) -> u128 {
    let seed = world.seed();
    let mut balance = GENESIS_TOKENS * 10u128.pow(chain.token_decimals);
    for n in 0..=upto.min(world.tip()) {
        let base = base_fee(seed, chain, n);
        for k in 0..tx_count(seed, chain, n) {
            let f = tx_facts(seed, chain, n, k, base);
            let value = if f.failed { 0 } else { f.value };
            if f.to == Some(index) {
                balance += value;
            }
            if f.from == index {
                balance = balance.saturating_sub(value + u128::from(f.gas_used) * f.gas_price);
            }
        }
    }
    balance
}

/// `blockNumber` (the tip by default): 400 when it is not a block number, 404 past the tip.
pub(crate) fn block_number_param(request: &Request) -> Result<u64, axum::response::Response> {
    let world = &request.state.world;
    let Some(chain) = request.chain else { return Err(errors::bad_request("chainId is required")) };
    let upto = match request.params.get("blockNumber") {
        None => world.tip(),
        Some(text) => text.trim().parse::<u64>().map_err(|_| {
            errors::validation_failed(vec![format!("blockNumber must be a block number, got {text:?}")])
        })?,
    };
    if upto > world.tip() {
        return Err(errors::not_found(format!("Block {upto} not found on chain {}", chain.evm_chain_id)));
    }
    Ok(upto)
}

/// `NativeTokenBalance` of pool address `index` (`None`: an address outside the pool, which
/// holds nothing) on `chain` after block `upto`.
pub(crate) fn native_token_balance(
    world: &DataWorld,
    chain: &Chain,
    index: Option<u64>,
    upto: u64,
) -> serde_json::Value {
    let balance = match index {
        Some(index) if index < chain.address_pool => native_balance(world, chain, index, upto),
        _ => 0,
    };
    json!({
        "name": chain.token_name,
        "symbol": chain.token_symbol,
        "decimals": chain.token_decimals,
        "logoUri": format!("https://images.emulator.invalid/tokens/{}.png", chain.token_symbol.to_lowercase()),
        "chainId": chain.evm_chain_id.to_string(),
        "balance": balance.to_string(),
    })
}

pub(crate) fn answer(request: &Request) -> Answer {
    let Some(chain) = request.chain else { return Err(errors::bad_request("chainId is required")) };
    let world = &request.state.world;
    let upto = block_number_param(request)?;
    let index = world.pool_index(request.path("address"));
    let body = json!({ "nativeTokenBalance": native_token_balance(world, chain, index, upto) });
    Ok(respond_with(request.op, body))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::world::chain;

    #[test]
    fn a_balance_moves_by_what_each_block_sends_and_brings() {
        let world = DataWorld::new(3, 300);
        let c = chain(43114).unwrap();
        let genesis = GENESIS_TOKENS * 10u128.pow(18);
        let mut moved = false;
        let mut previous = genesis as i128;
        for n in 0..world.blocks_per_chain() {
            let now = native_balance(&world, c, 0, n) as i128;
            let mut delta = 0i128;
            for tx in world.transactions(c, n).unwrap() {
                let me = crate::world::pool_address(0);
                let value = if tx.failed { 0 } else { tx.value as i128 };
                if tx.to.as_deref() == Some(me.as_str()) {
                    delta += value;
                }
                if tx.from == me {
                    delta -= value + tx.fee() as i128;
                }
            }
            moved |= delta != 0;
            assert_eq!(now - previous, delta, "block {n}");
            previous = now;
        }
        assert!(moved, "pool address 0 trades in 300 blocks");
    }
}
