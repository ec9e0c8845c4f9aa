//! `getNetworkDetails` (`GET /v1/networks/{network}`): the primary network's stakes at the
//! world's now, the same stakes `listValidators`, `listDelegators`, `rewards:listPending` and the
//! staking metrics' newest point hold (the stakes active at now; the ended ones are not counted):
//!
//! - `validatorDetails`: `validatorCount` and `totalAmountStaked` (the validators' own stakes);
//!   `estimatedAnnualStakingReward`: a year of the pending-rewards rule on every active stake
//!   (validators' and delegators': [`ANNUAL_REWARD_RATE_PERCENT`] of it);
//!   `stakingDistributionByVersion`: the validators grouped by their `avalancheGoVersion` (the
//!   one `listValidators` reports, [`avalanchego_version`]), each version's stake with the
//!   delegations to its validators; `stakingRatio`: all active stake over the network's
//!   `totalSupply` (`pnet_supply.rs`), 20 decimals;
//! - `delegatorDetails`: `delegatorCount` and `totalAmountStaked` of the delegations.

use std::collections::BTreeMap;

use serde_json::{json, Value};

use super::pnet_supply::{decimal, supply};
use super::Request;
use crate::data_api::errors::{self, Answer};
use crate::world::rewards::{PendingReward, RewardType, ANNUAL_REWARD_RATE_PERCENT};
use crate::world::Network;

/// The AvalancheGo version a validator runs: one node in eight is a release behind.
pub(crate) fn avalanchego_version(node_id: &str) -> &'static str {
    let sum: u32 = node_id.bytes().map(u32::from).sum();
    if sum.is_multiple_of(8) {
        "avalanchego/1.13.5"
    } else {
        "avalanchego/1.14.0"
    }
}

/// The staked nAVAX of the stakes of `kind`.
fn staked(stakes: &[PendingReward], kind: RewardType) -> u128 {
    stakes.iter().filter(|r| r.reward_type == kind).map(|r| u128::from(r.amount_staked)).sum()
}

/// `stakingDistributionByVersion`: per version (in version order), its validators' count and
/// their stakes with the delegations to them.
fn by_version(stakes: &[PendingReward]) -> Vec<Value> {
    let mut versions: BTreeMap<&str, (u128, u64)> = BTreeMap::new();
    for v in stakes.iter().filter(|r| r.reward_type == RewardType::Validator) {
        let delegated: u128 = stakes
            .iter()
            .filter(|d| d.reward_type == RewardType::Delegator && d.node_id == v.node_id)
            .map(|d| u128::from(d.amount_staked))
            .sum();
        let entry = versions.entry(avalanchego_version(&v.node_id)).or_default();
        entry.0 += u128::from(v.amount_staked) + delegated;
        entry.1 += 1;
    }
    versions
        .into_iter()
        .map(|(version, (amount, count))| {
            json!({"version": version, "amountStaked": amount.to_string(), "validatorCount": count})
        })
        .collect()
}

/// `getNetworkDetails`.
pub(crate) fn answer(request: &Request) -> Answer {
    let network = Network::parse(request.path("network")).unwrap_or(Network::Mainnet);
    let stakes = request.state.world.pending_rewards(network);
    let count = |kind| stakes.iter().filter(|r| r.reward_type == kind).count();
    let (validators, delegators) = (staked(stakes, RewardType::Validator), staked(stakes, RewardType::Delegator));
    let active = validators + delegators;
    let total_supply = supply(request.state, network).total();
    Ok(errors::ok(json!({
        "validatorDetails": {
            "validatorCount": count(RewardType::Validator),
            "totalAmountStaked": validators.to_string(),
            "estimatedAnnualStakingReward": (active * ANNUAL_REWARD_RATE_PERCENT / 100).to_string(),
            "stakingDistributionByVersion": by_version(stakes),
            "stakingRatio": decimal(active, total_supply, 20),
        },
        "delegatorDetails": {
            "delegatorCount": count(RewardType::Delegator),
            "totalAmountStaked": delegators.to_string(),
        },
    })))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::world::rewards::generate;

    #[test]
    fn the_versions_share_out_every_validator_and_delegation() {
        for network in Network::ALL {
            let stakes: Vec<PendingReward> = generate(3, network).into_iter().filter(|r| !r.ended()).collect();
            let rows = by_version(&stakes);
            let count: u64 = rows.iter().map(|r| r["validatorCount"].as_u64().unwrap()).sum();
            let amount: u128 = rows.iter().map(|r| r["amountStaked"].as_str().unwrap().parse::<u128>().unwrap()).sum();
            assert_eq!(count as usize, stakes.iter().filter(|r| r.reward_type == RewardType::Validator).count());
            assert_eq!(amount, staked(&stakes, RewardType::Validator) + staked(&stakes, RewardType::Delegator));
            assert!(rows.windows(2).all(|w| w[0]["version"].as_str() < w[1]["version"].as_str()));
        }
    }
}
