//! `getAvaxSupply` (`GET /v1/avax/supply`): the AVAX supply of the world's Mainnet, from what the
//! world holds (every amount in nAVAX, answered as AVAX decimal text with up to 9 decimals):
//!
//! - `genesisUnlock`: [`GENESIS_UNLOCK_AVAX`] (the Mainnet genesis allocation, 360 M AVAX);
//! - `totalRewards`: the rewards paid to the stakes that ended before now (the sum of
//!   `listHistoricalPrimaryNetworkRewards`' `reward` amounts);
//! - `totalPBurned`: what the `P/block` txs burned, each tx's inputs beyond its outputs (its
//!   `amountBurned`), summed over every block up to now;
//! - `totalCBurned`: the C-Chain's base fees, `gasUsed * baseFee` of every transaction of its blocks
//!   up to now (the part of an EIP-1559 fee that is burned), in nAVAX (wei / 10^9, rounded down);
//! - `totalXBurned`: the fees of the X-Chain's txs (`X/tx` and `X/block` up to now), each tx's
//!   AVAX inputs beyond its AVAX outputs (read from the X-Chain lookups, built on first use);
//! - `l1ValidatorFees`: 0: the world has no L1 validator (`listL1Validators` is empty);
//! - `totalStaked`: the stakes active at now (validators' and delegators', as `getNetworkDetails`);
//! - `totalLocked`: the P-Chain outputs whose platform or stakeable locktime is after now;
//! - `totalSupply` = `genesisUnlock + totalRewards - totalPBurned - totalCBurned - totalXBurned
//!   - l1ValidatorFees`; `circulatingSupply` = `totalSupply - totalLocked`;
//! - `lastUpdated`: the world's now.
//!
//! The P- and C-Chain sums walk every block once per world and are kept; the X-Chain's come with
//! its lookups.

use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};

use serde_json::{json, Value};

use super::Request;
use crate::data_api::errors::{self, Answer};
use crate::data_api::primary_chain::p_chain;
use crate::data_api::DataApiState;
use crate::formats::p_txs::{block_txs, tx_burned, tx_locked};
use crate::formats::px_blocks::PerChain;
use crate::formats::x_index::x_index;
use crate::world::rewards::RewardType;
use crate::world::{base_fee, chains, tx_count, tx_facts, Network, CORETH_VM_ID, WORLD_NOW_MS};

/// AVAX unlocked at the Mainnet genesis.
pub const GENESIS_UNLOCK_AVAX: u128 = 360_000_000;
const NANO: u128 = 1_000_000_000;

/// The AVAX supply of one network of the world, nAVAX.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Supply {
    pub(crate) genesis_unlock: u128,
    pub(crate) rewards: u128,
    pub(crate) p_burned: u128,
    pub(crate) c_burned: u128,
    pub(crate) x_burned: u128,
    pub(crate) l1_validator_fees: u128,
    pub(crate) staked: u128,
    pub(crate) locked: u128,
}

impl Supply {
    /// What exists: the genesis allocation plus the rewards minted, less what was burned.
    pub(crate) fn total(&self) -> u128 {
        (self.genesis_unlock + self.rewards)
            .saturating_sub(self.p_burned + self.c_burned + self.x_burned + self.l1_validator_fees)
    }

    /// What is not locked.
    pub(crate) fn circulating(&self) -> u128 {
        self.total().saturating_sub(self.locked)
    }

    /// As the Data API's `AvaxSupplyResponse`.
    pub(crate) fn to_json(self) -> Value {
        json!({
            "circulatingSupply": avax(self.circulating()),
            "totalSupply": avax(self.total()),
            "totalPBurned": avax(self.p_burned),
            "totalCBurned": avax(self.c_burned),
            "totalXBurned": avax(self.x_burned),
            "totalStaked": avax(self.staked),
            "totalLocked": avax(self.locked),
            "totalRewards": avax(self.rewards),
            "lastUpdated": crate::timefmt::rfc3339_nano(WORLD_NOW_MS * 1_000_000, 0),
            "genesisUnlock": avax(self.genesis_unlock),
            "l1ValidatorFees": avax(self.l1_validator_fees),
        })
    }
}

/// `numerator / denominator` as decimal text with at most `places` decimals (rounded down,
/// trailing zeros dropped).
pub(crate) fn decimal(numerator: u128, denominator: u128, places: u32) -> String {
    let denominator = denominator.max(1);
    let whole = numerator / denominator;
    let scaled = (numerator % denominator).saturating_mul(10u128.pow(places)) / denominator;
    let fraction = format!("{scaled:0width$}", width = places as usize);
    let fraction = fraction.trim_end_matches('0');
    if fraction.is_empty() {
        whole.to_string()
    } else {
        format!("{whole}.{fraction}")
    }
}

/// nAVAX as AVAX decimal text.
pub(crate) fn avax(nano: u128) -> String {
    decimal(nano, NANO, 9)
}

/// The supply of `network` in the world of `state`.
pub(crate) fn supply(state: &DataApiState, network: Network) -> Supply {
    let (p_burned, locked) = p_chain_sums(state, network);
    let staked = state
        .world
        .pending_rewards(network)
        .iter()
        .filter(|r| r.reward_type != RewardType::ValidatorFee)
        .map(|r| u128::from(r.amount_staked))
        .sum();
    Supply {
        genesis_unlock: GENESIS_UNLOCK_AVAX * NANO,
        rewards: state
            .world
            .stake_rewards(network)
            .iter()
            .filter(|r| r.ended())
            .map(|r| u128::from(r.estimated_reward))
            .sum(),
        p_burned,
        c_burned: c_chain_burned_wei(state, network) / NANO,
        x_burned: state.x_world(network).map_or(0, |w| x_index(&w).burned),
        l1_validator_fees: 0,
        staked,
        locked,
    }
}

/// `(burned, locked at now)` of every tx of the network's P-Chain up to now, nAVAX.
fn p_chain_sums(state: &DataApiState, network: Network) -> (u128, u128) {
    static SUMS: PerChain<(u128, u128)> = PerChain::new();
    let chain = p_chain(state, network);
    let now = (WORLD_NOW_MS / 1000) as u64;
    *SUMS.get_or_build(&chain, || {
        (0..chain.span())
            .flat_map(|h| block_txs(&chain, h))
            .fold((0, 0), |(burned, locked), tx| (burned + tx_burned(&tx), locked + tx_locked(&tx, now)))
    })
}

/// The base fees burned by every transaction of the network's C-Chain up to now, wei.
fn c_chain_burned_wei(state: &DataApiState, network: Network) -> u128 {
    type Key = (u64, Network, u64);
    static SUMS: OnceLock<Mutex<HashMap<Key, u128>>> = OnceLock::new();
    let Some(chain) = chains().iter().find(|c| c.network == network && c.vm_id == CORETH_VM_ID) else { return 0 };
    let seed = state.world.seed();
    let span = if chain.evm_chain_id == 43114 { state.world.c_span() } else { state.world.blocks_per_chain() };
    let key = (seed, network, span);
    let sums = SUMS.get_or_init(Default::default);
    if let Some(found) = sums.lock().unwrap_or_else(|e| e.into_inner()).get(&key) {
        return *found;
    }
    let burned = (0..span)
        .map(|n| {
            let base = base_fee(seed, chain, n);
            (0..tx_count(seed, chain, n))
                .map(|k| u128::from(tx_facts(seed, chain, n, k, base).gas_used) * base)
                .sum::<u128>()
        })
        .sum();
    sums.lock().unwrap_or_else(|e| e.into_inner()).insert(key, burned);
    burned
}

/// `getAvaxSupply`: the Mainnet's.
pub(crate) fn answer(request: &Request) -> Answer {
    Ok(errors::ok(supply(request.state, Network::Mainnet).to_json()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn amounts_are_exact_decimal_text() {
        assert_eq!(avax(0), "0");
        assert_eq!(avax(1), "0.000000001");
        assert_eq!(avax(360_000_000 * NANO), "360000000");
        assert_eq!(avax(1_500_000_000), "1.5");
        assert_eq!(avax(u128::from(u64::MAX) * 10), "184467440737.09551615");
        assert_eq!(decimal(1, 3, 5), "0.33333");
        assert_eq!(decimal(2, 0, 2), "2", "a zero denominator counts as one");
    }

    #[test]
    fn the_supply_is_the_genesis_plus_rewards_less_what_burned() {
        let s = Supply {
            genesis_unlock: 100,
            rewards: 10,
            p_burned: 1,
            c_burned: 2,
            x_burned: 3,
            l1_validator_fees: 4,
            staked: 50,
            locked: 20,
        };
        assert_eq!(s.total(), 100);
        assert_eq!(s.circulating(), 80);
        let v = s.to_json();
        assert_eq!(v["totalSupply"], "0.0000001");
        assert_eq!(v["lastUpdated"], "2026-01-01T00:00:00Z");
    }
}
